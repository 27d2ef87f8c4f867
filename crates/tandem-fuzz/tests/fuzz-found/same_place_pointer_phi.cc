// Found by tandem-fuzz (seeds 1017 and 1037 of the first run with push/pop, and 70083 and
// 70129 of the 300-NF run at seed 70000, minimised): REFUSALS of valid code, FIXED. An LLVM
// pointer phi whose incoming values are all the same place: a header pointer variable given
// the same header on two paths (`eth = pkt.push<EthHdr>()` on one, `pkt.eth()` on the other;
// also `vlan = pkt.header<VlanHdr>()` after a pop), or a state member's address that
// clang's tail duplication computes on two paths (`l4.lookup(...)` after a branch). The
// front end's provenance scan gives such a phi that place itself, but block parameters of
// pointer phis took it for a payload offset: L005 "a pointer chosen at run time between
// objects". A same-place phi is now that place, its parameter unused
// (crates/tandem-lift/src/translate/flow.rs). (A first fix, making the scan give it a choice
// of one place, refused state members behind such phis: "a state operation on something
// that is not a member".)
#include <tandem/nf.hh>
using namespace tandem;

struct V {
  uint8_t f;
};

struct SamePlace : Element {
  uint8_t s = 232;
  LpmMap<uint64_t, V, 64> l4;
  void configure(Config&) { l4.insert(0, 0, V{7}); }
  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    Ipv4Hdr* ip = pkt.ip();
    UdpHdr* udp = pkt.udp();
    pkt.send(0);
    if (udp != nullptr) eth = pkt.push<EthHdr>();
    if (eth != nullptr) eth->dst[0] = 1;
    uint32_t x = 20553u / (s | 1u);
    if (ip != nullptr && udp != nullptr) udp->dport = uint16_t(x);
    V v{};
    if (l4.lookup(ip != nullptr ? uint64_t(ip->daddr) : uint64_t(0u), v)) pkt.send(v.f & 3u);
  }
};

TANDEM_NF(SamePlace, s, l4)
