// Issue 14, item 3: now() is the packet's timestamp in ns (docs/nf-api.md), on whichever
// side runs it. This NF writes bits of it into header fields, so a wrong clock (0 on the
// switch, or microseconds times 1000) shows in the output.
#include <tandem/nf.hh>
using namespace tandem;

struct NowStamp : Element {
  uint32_t out_port = 1;
  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) {
      pkt.send(out_port);
      return;
    }
    Time t = pkt.now();
    uint16_t old_id = ip->id;
    uint16_t id = htons(uint16_t(t));  // the low 16 bits: ns, not us x 1000
    ip->id = id;
    ip->check = csum_update2(ip->check, old_id, id);
    ip->tos = uint8_t(t >> 30);  // about seconds
    pkt.send(out_port);
  }
};

TANDEM_NF(NowStamp, out_port)
