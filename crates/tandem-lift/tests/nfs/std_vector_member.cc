// Issue 14, item 6: a std::vector member. The driver used to mark std::vector's noinline
// growth path alwaysinline too, and opt rejected the module; now it is one coded diagnostic.
#include <vector>
#include <tandem/nf.hh>
using namespace tandem;

struct StdVectorMember : Element {
  std::vector<uint32_t> seen;
  uint32_t out_port = 1;
  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip) {
      uint32_t src = ip->saddr;
      seen.push_back(src);
    }
    pkt.send(out_port);
  }
};

TANDEM_NF(StdVectorMember, out_port)
