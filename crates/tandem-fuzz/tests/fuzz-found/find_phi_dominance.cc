// Found by tandem-fuzz (seed 120250 of the 400-NF run at seed 120000, minimised; the same bug
// as contains_select_dominance.cc, seed 50609): an INTERNAL error on every profile, FIXED. The
// lifted module did not verify: "`select ...`: uses v27, whose definition (in block2) does
// not dominate this use". `l0.find(eth ? key : 0)` is inlined as two finds, one per arm of the
// `?:`, and LLVM joins their results in a pointer phi; the front end made it a choice between
// the two find results (a place index) and then read each find's hit and value fields at the
// join, where neither find dominates. The hit and fields of every find such a phi chooses
// from now reach the join as block parameters (the find's values on its edge, zeros on the
// others, which the index never chooses) (crates/tandem-lift/src/translate/flow.rs).
#include <tandem/nf.hh>
using namespace tandem;

struct S0 {
  uint8_t f;
};

struct FindPhi : Element {
  LpmMap<uint8_t, S0, 16> l0;
  void configure(Config&) { l0.insert(8, 5, S0{1}); }
  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    pkt.send(0);
    uint8_t x1 = l0.find(eth != nullptr ? uint8_t(ntohs(eth->ethertype)) : uint8_t(0u)) != nullptr ? 1u : 0u;
    if (const S0* p2 = l0.find(eth != nullptr ? uint8_t(ntohs(eth->ethertype)) : uint8_t(0u))) {
      if (x1 >= p2->f) pkt.send(1);
    }
  }
};

TANDEM_NF(FindPhi, l0)
