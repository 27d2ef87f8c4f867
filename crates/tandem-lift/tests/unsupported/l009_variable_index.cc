// expect: L009 a header indexed by a run-time value
#include <tandem/nf.hh>
struct Nf : tandem::Element {
  uint32_t port = 1;
  void process(tandem::Packet& pkt) {
    tandem::EthHdr* eth = pkt.eth();
    if (!eth) return pkt.drop();
    pkt.send(eth->dst[pkt.in_port() % 6]);
  }
};
TANDEM_NF(Nf, port)
