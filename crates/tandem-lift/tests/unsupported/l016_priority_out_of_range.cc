// expect: L016 priority 0 of an entry of `acl` is out of range
#include <tandem/nf.hh>
struct Key {
  uint32_t addr;
};
struct Nf : tandem::Element {
  tandem::TernaryMap<Key, uint16_t, 16> acl;
  void process(tandem::Packet& pkt) {
    tandem::Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) return;
    Key k{tandem::ntohl(ip->saddr)}, m{0xffffff00};
    acl.insert(k, m, 0, 1);
    pkt.send(1);
  }
};
TANDEM_NF(Nf, acl)
