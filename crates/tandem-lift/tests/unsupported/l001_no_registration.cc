// expect: L001 no `TANDEM_NF(...)` registration found
#include <tandem/nf.hh>
struct Nf : tandem::Element {
  void process(tandem::Packet& pkt) { pkt.send(1); }
};
