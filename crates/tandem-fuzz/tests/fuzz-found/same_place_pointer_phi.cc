// Found by tandem-fuzz (seeds 1017 and 1037 of the first run with push/pop, minimised): a
// REFUSAL of valid code, FIXED. A header pointer variable given the same header on two paths
// (`eth = pkt.push<EthHdr>()` on one, `pkt.eth()` on the other; also `vlan =
// pkt.header<VlanHdr>()` after a pop) is an LLVM pointer phi whose incoming values are the
// same place. The front end's provenance scan gave such a phi that place itself, and block
// parameters of pointer phis then took it for a payload offset: L005 "a pointer chosen at run
// time between objects". The scan now makes it a choice of one place
// (crates/tandem-lift/src/translate/scan.rs).
#include <tandem/nf.hh>
using namespace tandem;

struct SamePlace : Element {
  void configure(Config&) {}
  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    UdpHdr* udp = pkt.udp();
    pkt.send(0);
    if (udp != nullptr) eth = pkt.push<EthHdr>();
    if (eth != nullptr) eth->dst[0] = 1;
  }
};

TANDEM_NF(SamePlace)
