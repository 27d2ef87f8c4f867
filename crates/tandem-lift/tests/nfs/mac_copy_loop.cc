// Issue 14, item 8: loops with a constant trip count over a MAC address, byte by byte, must
// be unrolled, not reported as a header indexed by a run-time value (L009).
#include <tandem/nf.hh>
using namespace tandem;

struct MacCopyLoop : Element {
  uint32_t out_port = 1;
  uint32_t salt = 0x5a;
  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    if (!eth) {
      pkt.drop();
      return;
    }
    uint8_t mac[6];
    for (int i = 0; i < 6; i++) mac[i] = eth->src[i];
    // Swap the addresses and salt the new source, skipping broadcast bytes.
    for (int i = 0; i < 6; i++) {
      uint8_t d = eth->dst[i];
      eth->src[i] = d == 0xff ? d : uint8_t(d ^ salt ^ i);
      eth->dst[i] = mac[i];
    }
    pkt.send(out_port);
  }
};

TANDEM_NF(MacCopyLoop, out_port, salt)
