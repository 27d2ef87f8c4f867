// Bits of a source MAC assembled into a uint64_t (written from docs/nf-api.md): the
// locally-administered bit and the low bit of byte 4 tested with `(src >> k) & m` — 64-bit
// `and` then a 64-bit compare with 0, which the front end does in 32 bits because both sides
// fit. Frames whose byte 4 is odd are dropped; both tests feed counters.
#include <tandem/nf.hh>
using namespace tandem;

struct MacBits : Element {
  uint32_t local_frames = 0, odd_frames = 0;
  HashMap<uint32_t, uint8_t, 256> blocked_oui;

  void configure(Config&) { blocked_oui.insert(0x525400, 1); }

  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    if (!eth) { pkt.drop(); return; }
    uint64_t src = 0;
    for (int i = 0; i < 6; ++i) src = (src << 8) | eth->src[i];
    bool local = (src >> 40) & 0x02;
    bool odd = (src >> 8) & 1;
    if (local) local_frames++;
    if (!local && blocked_oui.contains(uint32_t(src >> 24))) { pkt.drop(); return; }
    if (odd) { odd_frames++; pkt.drop(); return; }
    pkt.send(1);
  }
};

TANDEM_NF(MacBits, local_frames, odd_frames, blocked_oui)
