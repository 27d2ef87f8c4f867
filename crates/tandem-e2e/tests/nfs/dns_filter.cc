// DNS filter written from docs/nf-api.md alone (issue 15's held-out kind of NF): drops DNS responses (UDP source port 53) that are
// not answers to a query seen from the inside (by transaction id and client), and counts
// blocked responses per client /24.
#include <tandem/nf.hh>
using namespace tandem;

struct DnsHdr {
  uint16_t id;
  uint16_t flags;
  uint16_t qdcount;
  uint16_t ancount;
  uint16_t nscount;
  uint16_t arcount;
};
TANDEM_HEADER(DnsHdr, id, flags, qdcount, ancount, nscount, arcount)

struct QueryKey {
  uint32_t client;
  uint16_t id;
  uint16_t port;
};

struct DnsFilter : Element {
  ExpiringMap<QueryKey, uint8_t, 65536, 5 * kSecond> pending;
  Vector<uint32_t, 256> blocked;
  void configure(Config&) {
    for (int i = 0; i < 256; ++i) blocked.push_back(0);
  }
  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    UdpHdr* udp = pkt.udp();
    DnsHdr* dns = pkt.header<DnsHdr>();
    if (!ip || !udp || !dns) {
      pkt.send(pkt.in_port() == 0 ? 1 : 0);
      return;
    }
    bool response = ntohs(dns->flags) & 0x8000;
    if (pkt.in_port() == 0 && !response) {
      pending.insert(QueryKey{ip->saddr, dns->id, udp->sport}, 1);
      pkt.send(1);
      return;
    }
    if (pkt.in_port() == 1 && response) {
      if (pending.contains(QueryKey{ip->daddr, dns->id, udp->dport})) {
        pkt.send(0);
      } else {
        blocked[(ntohl(ip->daddr) >> 8) & 255] += 1;
        pkt.drop();
      }
      return;
    }
    pkt.send(pkt.in_port() == 0 ? 1 : 0);
  }
};
TANDEM_NF(DnsFilter, pending, blocked)
TANDEM_PARSE(DnsFilter, TANDEM_EDGE(UdpHdr, dport, 53, DnsHdr), TANDEM_EDGE(UdpHdr, sport, 53, DnsHdr))
