// Found by tandem-fuzz (seed 70265 of the 300-NF run at seed 70000, minimised). Valid NF-API
// code the front end REFUSES (a gap, older than the issue-15 API): "L009 variable index into
// a header, local array or state member: a header indexed by a run-time value". Two branches
// store to different elements of one header array (`eth->dst[2]`, `eth->dst[5]`); LLVM's
// SimplifyCFG sinks the two stores into one after the join, at `getelementptr [6 x i8], ptr
// %eth, i64 0, i64 %.sink` with `%.sink = phi i64 [5, ...], [2, ...]`. `opt
// -simplifycfg-sink-common=false` keeps the stores apart (the lifter then takes the NF), but
// changes the golden IR of mazunat, statefilter, pktcount and cmsketch, so it is not done
// here; the other way is for the lifter to split a store whose index is a phi of constants.
#include <tandem/nf.hh>
using namespace tandem;

struct SunkStore : Element {
  HashMap<uint16_t, uint32_t, 4> m;
  void configure(Config&) {}
  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    pkt.send(0);
    if (eth == nullptr) return;
    if (m.contains(eth->dst[0])) {
      eth->dst[2] = 0;
    } else {
      eth->dst[5] = uint8_t(eth->src[2] != 0);
    }
  }
};

TANDEM_NF(SunkStore, m)
