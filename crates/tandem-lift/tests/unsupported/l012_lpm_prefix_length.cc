// expect: L012 prefix length 33 is out of range for `routes`
#include <tandem/nf.hh>
struct Nf : tandem::Element {
  tandem::LpmMap<uint32_t, uint16_t, 16> routes;
  void process(tandem::Packet& pkt) {
    tandem::Ipv4Hdr* ip = pkt.ip();
    if (!ip) return;
    routes.insert(tandem::ntohl(ip->saddr), 33, 1);
    pkt.send(1);
  }
};
TANDEM_NF(Nf, routes)
