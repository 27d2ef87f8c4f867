// LpmMap driven entirely by packets, for the lifted-vs-native checks of LPM: the low bits of
// the UDP source port choose the operation — insert the prefix saddr/len (len from the
// destination port; lengths above 32 are refused natively and in the IR), erase saddr/len,
// or look the destination up and send to the stored port. Prefixes nest and collide because
// the addresses come from few values.
#include <tandem/nf.hh>
using namespace tandem;

struct LpmLearn : Element {
  LpmMap<uint32_t, uint16_t, 64> routes;
  uint32_t refused = 0;

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    UdpHdr* udp = pkt.udp();
    if (ip == nullptr || udp == nullptr) {
      pkt.drop();
      return;
    }
    uint16_t sport = ntohs(udp->sport), dport = ntohs(udp->dport);
    uint32_t len = dport % 40;  // 33..39 are out of range
    switch (sport & 3) {
      case 0:
        // Ports below 64: the switch carries a send port in 8 bits.
        if (!routes.insert(ntohl(ip->saddr), len, uint16_t((sport >> 2) & 63))) refused = refused + 1;
        pkt.send(1);
        break;
      case 1:
        routes.erase(ntohl(ip->saddr), len);
        pkt.send(2);
        break;
      default: {
        uint16_t port;
        if (routes.lookup(ntohl(ip->daddr), port))
          pkt.send(port);
        else
          pkt.drop();
      }
    }
  }
};

TANDEM_NF(LpmLearn, routes, refused)
