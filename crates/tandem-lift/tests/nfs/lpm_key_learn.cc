// LpmMap on a composite key, LpmKey<uint32_t, uint32_t>{tenant, address}, driven by packets as
// lpm_learn.cc is: the UDP source port's low bits choose insert / erase / lookup, the
// destination port gives the tenant (few values, so the same prefix exists under several
// tenants) and the prefix length. A lookup must match the tenant exactly and the address by
// longest prefix.
#include <tandem/nf.hh>
using namespace tandem;

struct LpmKeyLearn : Element {
  LpmMap<LpmKey<uint32_t, uint32_t>, uint16_t, 64> routes;
  uint32_t refused = 0;

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    UdpHdr* udp = pkt.udp();
    if (ip == nullptr || udp == nullptr) {
      pkt.drop();
      return;
    }
    uint16_t sport = ntohs(udp->sport), dport = ntohs(udp->dport);
    uint32_t tenant = (dport >> 8) & 3;
    uint32_t len = dport % 40;  // 33..39 are out of range
    switch (sport & 3) {
      case 0:
        if (!routes.insert({tenant, ntohl(ip->saddr)}, len, uint16_t((sport >> 2) & 63)))
          refused = refused + 1;
        pkt.send(1);
        break;
      case 1:
        routes.erase({tenant, ntohl(ip->saddr)}, len);
        pkt.send(2);
        break;
      default: {
        const uint16_t* port = routes.find({tenant, ntohl(ip->daddr)});
        if (port != nullptr)
          pkt.send(*port);
        else
          pkt.drop();
      }
    }
  }
};

TANDEM_NF(LpmKeyLearn, routes, refused)
