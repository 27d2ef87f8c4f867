// Found by tandem-fuzz (seeds 100033 and 100085 of a 150-NF run with push and pop five times
// as likely, minimised): a MISMATCH on every profile that runs the pop on the server, FIXED.
// `ntohl(ip->daddr)` is read in pre, before the server pops Ethernet, and decides the output
// port in post. The partitioner chose to recompute the read in post instead of sending it
// (a header read is free on the switch) — but post re-parses the frame the server rebuilt,
// where the IPv4 header no longer is where Ethernet's EtherType says. A header field is now
// recomputable only where no earlier partition may push, pop or write a select field on a
// path through the use (crates/tandem-partition/src/build.rs, `recomputable`; presence
// already was).
#include <tandem/nf.hh>
using namespace tandem;

struct Reread : Element {
  uint16_t s0 = 230;
  void configure(Config&) {}
  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) {
      pkt.drop();
      return;
    }
    uint32_t dst = ntohl(ip->daddr);
    pkt.pop<EthHdr>();
    if (pkt.header<EthHdr>() == nullptr) s0 = uint16_t(s0 * ntohs(ip->frag_off));
    pkt.send(dst & 3u);
  }
};

TANDEM_NF(Reread, s0)
