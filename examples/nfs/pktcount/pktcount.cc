// PktCount: per-key packet counters written the obvious way. Every packet bumps the counter
// of its ingress port and the counter of its flow's bucket (a CRC-32 of the five-tuple);
// each `+= 1` is one register read-modify-write on the switch, and the CRC is the switch's
// hash unit.
#include <tandem/nf.hh>
using namespace tandem;

struct PktCount : Element {
  static constexpr uint32_t kPorts = 512;
  static constexpr uint32_t kBuckets = 4096;
  Vector<uint32_t, kPorts> port_pkts;     // packets per ingress port
  Vector<uint32_t, kBuckets> flow_pkts;   // packets per flow bucket
  uint32_t out_port = 1;

  void configure(Config& cfg) {
    for (uint32_t i = 0; i < kPorts; ++i) port_pkts.push_back(0);
    for (uint32_t i = 0; i < kBuckets; ++i) flow_pkts.push_back(0);
    out_port = cfg.get_u32_or("out_port", 1);
  }

  void process(Packet& pkt) {
    port_pkts[pkt.in_port()] += 1;
    if (Ipv4Hdr* ip = pkt.ip()) {
      uint16_t sport = 0, dport = 0;
      if (TcpHdr* tcp = pkt.tcp()) {
        sport = tcp->sport;
        dport = tcp->dport;
      } else if (UdpHdr* udp = pkt.udp()) {
        sport = udp->sport;
        dport = udp->dport;
      }
      uint32_t h = crc32(ntohl(ip->saddr), ntohl(ip->daddr), ip->protocol, ntohs(sport),
                         ntohs(dport));
      flow_pkts[h % kBuckets] += 1;
    }
    pkt.send(out_port);
  }
};

TANDEM_NF(PktCount, port_pkts, flow_pkts, out_port)
