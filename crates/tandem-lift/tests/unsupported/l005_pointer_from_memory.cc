// expect: L005 a pointer loaded from memory
#include <tandem/nf.hh>
struct Nf : tandem::Element {
  uint32_t a = 1, b = 2;
  uint32_t* volatile which = &a;
  void process(tandem::Packet& pkt) { pkt.send(*which); }
};
TANDEM_NF(Nf, a, b)
