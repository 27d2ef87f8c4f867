// ECMP router (written from docs/nf-api.md): a flow's next hop is picked by a hash of its
// 5-tuple among the configured next hops (a power-of-two group: `h & (hops.size() - 1)`), the
// destination MAC rewritten to that next hop's and the TTL decremented; per-next-hop packet
// and byte counters. clang computes the `uint32_t` index in 64 bits (`size_t` arithmetic).
#include <tandem/nf.hh>
using namespace tandem;

struct NextHop { uint64_t mac; uint32_t port; uint32_t pad; };

struct Ecmp : Element {
  Vector<NextHop, 16> hops;
  Vector<uint64_t, 16> pkts;
  Vector<uint64_t, 16> bytes;
  uint64_t ttl_expired = 0;

  void configure(Config& cfg) {
    size_t n = cfg.has("hops") ? cfg.len("hops") : 4;
    if (n == 0 || n > 16 || (n & (n - 1))) cfg.fail("hops", "1, 2, 4, 8 or 16 next hops");
    for (size_t i = 0; i < n; ++i) {
      std::string k = "hops[" + std::to_string(i) + "]";
      uint64_t mac = cfg.get_u64_or(k + ".mac", 0x020000000a01 + i);
      hops.push_back(NextHop{mac, cfg.get_u32_or(k + ".port", uint32_t(i + 1)), 0});
      pkts.push_back(0);
      bytes.push_back(0);
    }
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) { pkt.drop(); return; }
    if (ip->ttl <= 1) { ttl_expired++; pkt.drop(); return; }
    uint16_t sport = 0, dport = 0;
    if (TcpHdr* t = pkt.tcp()) { sport = ntohs(t->sport); dport = ntohs(t->dport); }
    else if (UdpHdr* u = pkt.udp()) { sport = ntohs(u->sport); dport = ntohs(u->dport); }
    uint32_t h = crc32(ntohl(ip->saddr), ntohl(ip->daddr), ip->protocol, sport, dport);
    uint32_t i = h & (hops.size() - 1);
    const NextHop& nh = hops[i];
    EthHdr* eth = pkt.eth();
    for (int j = 0; j < 6; ++j) eth->dst[j] = uint8_t(nh.mac >> (8 * (5 - j)));
    ip->check = csum_update2(ip->check, htons(uint16_t(ip->ttl) << 8), htons(uint16_t(ip->ttl - 1) << 8));
    ip->ttl -= 1;
    pkts[i] += 1;
    bytes[i] += pkt.length();
    pkt.send(nh.port);
  }
};

TANDEM_NF(Ecmp, hops, pkts, bytes, ttl_expired)
