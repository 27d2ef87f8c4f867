// Issue 14, item 6: a helper marked noinline (LLVM rejects noinline + alwaysinline).
#include <tandem/nf.hh>
using namespace tandem;

[[gnu::noinline]] static uint32_t mix(uint32_t x) { return x * 2654435761u; }

struct NoinlineHelper : Element {
  uint32_t out_port = 1;
  void process(Packet& pkt) { pkt.send(out_port + (mix(pkt.length()) & 1)); }
};

TANDEM_NF(NoinlineHelper, out_port)
