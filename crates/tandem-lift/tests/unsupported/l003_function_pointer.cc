// expect: L003 a call through a function pointer
#include <tandem/nf.hh>
struct Nf : tandem::Element {
  uint32_t (*pick)(uint32_t) = nullptr;
  uint32_t port = 0;
  void configure(tandem::Config&) { pick = [](uint32_t x) { return x + 1; }; }
  void process(tandem::Packet& pkt) { pkt.send(call(pick, pkt.in_port())); }
  static uint32_t call(uint32_t (*volatile f)(uint32_t), uint32_t x) { return f(x); }
};
TANDEM_NF(Nf, port)
