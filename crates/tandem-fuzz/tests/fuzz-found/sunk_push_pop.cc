// Found by tandem-fuzz (seed 110126 of a 200-NF run with push and pop three times as likely as
// the default, minimised): a REFUSAL of valid code, FIXED. Two branches pushing different
// headers (`if (c) pkt.push<A>(); else pkt.push<B>();`, likewise pops and `pkt.header<H>()`)
// became, after LLVM's SimplifyCFG sank the common call, one `tandem_api_pkt_push` whose
// header tag is a phi of the two tags: L005 "a pointer chosen at run time between objects" and
// L014 "a header tag that is not a constant". The analysis build declares the three calls
// `nomerge` (nfapi/include/tandem/packet.hh), so each stays in its branch with its constant
// tag.
// tandem-fuzz traffic plan: vxlan
#include <tandem/nf.hh>
using namespace tandem;

struct A {
  uint8_t a[2];
};
TANDEM_HEADER(A, a)
struct B {
  uint16_t b;
};
TANDEM_HEADER(B, b)

struct SunkPush : Element {
  void configure(Config&) {}
  void process(Packet& pkt) {
    pkt.send(0);
    if (pkt.tcp() != nullptr) {
      pkt.push<A>();
    } else {
      pkt.push<B>();
    }
    if (pkt.in_port() == 0) {
      pkt.pop<A>();
    } else {
      pkt.pop<B>();
    }
  }
};

TANDEM_NF(SunkPush)
TANDEM_PARSE(SunkPush, TANDEM_EDGE(UdpHdr, dport, 53, A), TANDEM_EDGE(UdpHdr, dport, 54, B))
