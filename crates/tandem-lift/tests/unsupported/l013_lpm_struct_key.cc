// expect: L013 `routes` is an LpmMap whose key is not one unsigned integer
#include <tandem/nf.hh>
struct Key {
  uint16_t vlan;
  uint16_t pad;
  uint32_t addr;
};
struct Nf : tandem::Element {
  tandem::LpmMap<Key, uint16_t, 16> routes;
  void process(tandem::Packet& pkt) {
    tandem::Ipv4Hdr* ip = pkt.ip();
    if (!ip) return;
    Key k{1, 0, tandem::ntohl(ip->daddr)};
    uint16_t port;
    if (routes.lookup(k, port)) pkt.send(port);
  }
};
TANDEM_NF(Nf, routes)
