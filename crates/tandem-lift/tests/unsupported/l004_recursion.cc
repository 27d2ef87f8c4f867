// expect: L004 was not inlined into process() (recursion?)
#include <tandem/nf.hh>
struct Nf : tandem::Element {
  uint32_t depth = 5;
  static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
  void process(tandem::Packet& pkt) { pkt.send(fib(pkt.length() % 20) & 1); }
};
TANDEM_NF(Nf, depth)
