// expect: L010 state member `primary` is accessed in parts, but it is 12 bytes
#include <tandem/nf.hh>
// A struct member is one scalar of its size when it has at most 8 bytes; a wider one read
// field by field is refused once, naming its size and what to do instead.
struct Backend { uint32_t ip; uint16_t port; uint16_t weight; uint32_t extra; };
struct Nf : tandem::Element {
  Backend primary{1, 2, 3, 4};
  void process(tandem::Packet& pkt) {
    if (primary.extra == 4) { pkt.send(primary.port); return; }
    pkt.drop();
  }
};
TANDEM_NF(Nf, primary)
