// TernaryMap and RangeMap driven entirely by packets, for the lifted-vs-native checks: the
// low bits of the UDP source port choose the operation — insert an entry (ternary key from
// the source address and destination port, mask from the destination address; a range from
// the destination port; priorities from the source port, so they collide, and 0 or an empty
// range is refused), erase it, or look up both maps and send to the stored ports.
#include <tandem/nf.hh>
using namespace tandem;

struct Key {
  uint32_t addr;
  uint16_t port;
  uint16_t tag;
};

struct TernLearn : Element {
  TernaryMap<Key, uint16_t, 16> acl;
  RangeMap<uint16_t, uint16_t, 16> ranges;
  uint32_t refused = 0;

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    UdpHdr* udp = pkt.udp();
    if (ip == nullptr || udp == nullptr) {
      pkt.drop();
      return;
    }
    uint16_t sport = ntohs(udp->sport), dport = ntohs(udp->dport);
    uint32_t prio = (sport >> 2) % 18;  // 0 is refused
    Key k{ntohl(ip->saddr), dport, uint16_t(sport >> 8)};
    Key m{ntohl(ip->daddr), uint16_t(dport & 0xff0f), 0};
    uint16_t lo = dport % 64, hi = uint16_t(lo + (sport >> 4) % 32) - 8;  // hi < lo: refused
    switch (sport & 3) {
      case 0:
        // Ports below 64: the switch carries a send port in 8 bits.
        if (!acl.insert(k, m, prio, uint16_t(dport & 63))) refused = refused + 1;
        if (!ranges.insert(lo, hi, prio, uint16_t((dport >> 6) & 63))) refused = refused + 1;
        pkt.send(1);
        break;
      case 1:
        acl.erase(k, m, prio);
        ranges.erase(lo, hi, prio);
        pkt.send(2);
        break;
      default: {
        uint16_t a = 0, b = 0;
        bool ha = acl.lookup(Key{ntohl(ip->daddr), dport, uint16_t(sport >> 8)}, a);
        bool hb = ranges.lookup(uint16_t(dport % 64), b);
        if (ha || hb)
          pkt.send(uint16_t((a + b) & 63));
        else
          pkt.drop();
      }
    }
  }
};

TANDEM_NF(TernLearn, acl, ranges, refused)
