// expect: L008 process() uses the global `counter`
#include <tandem/nf.hh>
uint32_t counter = 0;
struct Nf : tandem::Element {
  uint32_t port = 1;
  void process(tandem::Packet& pkt) {
    counter = counter + 1;
    pkt.send(port + (counter & 1));
  }
};
TANDEM_NF(Nf, port)
