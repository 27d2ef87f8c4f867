// expect: L017 `ports` is a RangeMap whose key is not one unsigned integer
#include <tandem/nf.hh>
struct Ports {
  uint16_t sport;
  uint16_t dport;
};
struct Nf : tandem::Element {
  tandem::RangeMap<Ports, uint16_t, 16> ports;
  void process(tandem::Packet& pkt) {
    tandem::TcpHdr* tcp = pkt.tcp();
    if (tcp == nullptr) return;
    uint16_t out = 1;
    ports.lookup(Ports{tandem::ntohs(tcp->sport), tandem::ntohs(tcp->dport)}, out);
    pkt.send(out);
  }
};
TANDEM_NF(Nf, ports)
