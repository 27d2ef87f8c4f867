// expect: L002 floating point
#include <tandem/nf.hh>
struct Nf : tandem::Element {
  uint32_t ratio = 3;
  void process(tandem::Packet& pkt) {
    double share = double(pkt.length()) / double(ratio);
    pkt.send(share > 100.5 ? 1 : 2);
  }
};
TANDEM_NF(Nf, ratio)
