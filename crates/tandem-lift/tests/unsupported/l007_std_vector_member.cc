// expect: L007 member `seen` is a `std::vector<unsigned int
#include <vector>
#include <tandem/nf.hh>
struct Nf : tandem::Element {
  std::vector<uint32_t> seen;
  uint32_t port = 1;
  void process(tandem::Packet& pkt) {
    tandem::Ipv4Hdr* ip = pkt.ip();
    if (ip) seen.push_back(ip->saddr);
    pkt.send(port);
  }
};
TANDEM_NF(Nf, port)
