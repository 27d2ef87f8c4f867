// A struct state member with padding bytes (2 after `port`): not NF state.
#include <tandem/nf.hh>
using namespace tandem;

struct Backend { uint32_t ip; uint16_t port; };

struct PaddedMember : Element {
  Backend primary{0, 0};
  void process(Packet& pkt) { pkt.send(primary.port); }
};

TANDEM_NF(PaddedMember, primary)
