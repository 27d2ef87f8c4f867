// expect: L006 member `forgotten` of `Nf` is used but not listed in TANDEM_NF
#include <tandem/nf.hh>
struct Nf : tandem::Element {
  uint32_t listed = 0;
  uint32_t forgotten = 0;
  void process(tandem::Packet& pkt) {
    ++forgotten;
    pkt.send(listed);
  }
};
TANDEM_NF(Nf, listed)
