// TCP MSS clamping (written from docs/nf-api.md): a SYN whose MSS option exceeds `max_mss`
// gets it lowered and its TCP checksum fixed. The option list is walked through the TCP
// header pointer (options follow the 20 fixed bytes). Clamped SYNs leave on port 2 so a test
// can count them; everything else is forwarded 0 <-> 1.
#include <tandem/nf.hh>
using namespace tandem;

struct MssClamp : Element {
  uint16_t max_mss = 1400;
  uint32_t clamped = 0;

  void configure(Config& cfg) { max_mss = cfg.get_u16_or("max_mss", 1400); }

  void process(Packet& pkt) {
    uint32_t out = pkt.in_port() == 0 ? 1 : 0;
    TcpHdr* tcp = pkt.tcp();
    if (tcp && (tcp->flags & kTcpSyn)) {
      uint8_t* opt = reinterpret_cast<uint8_t*>(tcp) + 20;
      uint32_t len = (tcp->data_off >> 4) * 4;
      uint32_t i = 0;
      while (i + 20 < len) {
        uint8_t kind = opt[i];
        if (kind == 0) break;
        if (kind == 1) { i++; continue; }
        if (i + 21 >= len) break;
        uint8_t olen = opt[i + 1];
        if (olen < 2) break;
        if (kind == 2 && olen == 4 && i + 24 <= len) {
          uint16_t mss = uint16_t(opt[i + 2]) << 8 | opt[i + 3];
          if (mss > max_mss) {
            tcp->check = csum_update2(tcp->check, htons(mss), htons(max_mss));
            opt[i + 2] = uint8_t(max_mss >> 8);
            opt[i + 3] = uint8_t(max_mss);
            clamped++;
            out = 2;
          }
          break;
        }
        i += olen;
      }
    }
    pkt.send(out);
  }
};

TANDEM_NF(MssClamp, max_mss, clamped)
