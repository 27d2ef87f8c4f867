// Written from docs/nf-api.md alone: an ICMP echo responder. Requests to the configured
// address are answered on the port they came in on — MAC addresses swapped byte by byte,
// IPv4 addresses swapped, TTL reset, the IPv4 header checksum recomputed word by word —
// and counted per source /24; blocked sources are dropped; everything else goes to port 1.
#include <tandem/nf.hh>
using namespace tandem;

struct IcmpHdr { uint8_t type; uint8_t code; uint16_t check; uint16_t id; uint16_t seq; };
TANDEM_HEADER(IcmpHdr, type, code, check, id, seq)

struct EchoReply : Element {
  uint32_t my_ip = 0;
  Vector<uint32_t, 256> per_net;
  HashMap<uint32_t, uint8_t, 1024> blocked;

  void configure(Config& cfg) {
    my_ip = htonl(cfg.get_ipv4("address"));
    for (int i = 0; i < 256; i++) per_net.push_back(0);
    for (uint32_t i = 0; i < cfg.len("blocked"); ++i)
      blocked.insert(htonl(cfg.get_ipv4("blocked[" + std::to_string(i) + "]")), 1);
  }

  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    Ipv4Hdr* ip = pkt.ip();
    IcmpHdr* icmp = pkt.header<IcmpHdr>();
    if (!eth || !ip || !icmp || icmp->type != 8 || ip->daddr != my_ip) { pkt.send(1); return; }
    if (blocked.contains(ip->saddr)) { pkt.drop(); return; }
    per_net[(ntohl(ip->saddr) >> 8) & 255] += 1;
    uint8_t tmp[6];
    for (int i = 0; i < 6; i++) { tmp[i] = eth->dst[i]; eth->dst[i] = eth->src[i]; eth->src[i] = tmp[i]; }
    eth->src[0] |= 0x02;   // locally administered
    uint32_t a = ip->saddr; ip->saddr = ip->daddr; ip->daddr = a;
    ip->ttl = 64;
    ip->check = 0;
    icmp->type = 0;
    icmp->check = csum_update2(icmp->check, htons(0x0800), htons(0x0000));
    uint32_t sum = 0;
    uint16_t* w = reinterpret_cast<uint16_t*>(ip);
    for (int i = 0; i < 10; i++) sum += ntohs(w[i]);
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    ip->check = htons(uint16_t(~sum));
    pkt.send(pkt.in_port());
  }
};

TANDEM_NF(EchoReply, my_ip, per_net, blocked)
TANDEM_PARSE(EchoReply, TANDEM_EDGE(Ipv4Hdr, protocol, 1, IcmpHdr))
