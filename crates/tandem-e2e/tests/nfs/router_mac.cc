// An IPv4 router: longest-prefix match picks a next hop; the next hop's MAC and port come
// from a neighbour table; TTL is decremented (expired packets dropped and counted), the
// source MAC becomes the router's own. Written from docs/nf-api.md; the router's MAC is a
// byte-array member read byte by byte (one 48-bit scalar), and `*hop >= hops.size()` compares
// a 32-bit id with the 64-bit size (done in 32 bits on the switch); its 64-bit drop counters
// are increment-only (kept on the switch as pairs of 32-bit halves).
#include <tandem/nf.hh>
using namespace tandem;

struct NextHop {
  uint8_t mac[6];
  uint16_t port;
};

struct Router : Element {
  LpmMap<uint32_t, uint32_t, 1024> routes;   // prefix -> next-hop id
  Vector<NextHop, 64> hops;
  uint8_t my_mac[6] = {0x02, 0, 0, 0, 0, 0xfe};
  uint64_t expired = 0;
  uint64_t no_route = 0;

  void configure(Config& cfg) {
    uint64_t mine = cfg.get_u64_or("my_mac", 0x0200000000feull);
    for (int b = 0; b < 6; ++b) my_mac[b] = uint8_t(mine >> (40 - 8 * b));
    for (uint32_t i = 0; i < cfg.len("hops"); ++i) {
      std::string k = "hops[" + std::to_string(i) + "]";
      NextHop h{};
      uint64_t m = cfg.get_u64(k + ".mac");
      for (int b = 0; b < 6; ++b) h.mac[b] = uint8_t(m >> (40 - 8 * b));
      h.port = cfg.get_u16(k + ".port");
      hops.push_back(h);
    }
    for (uint32_t i = 0; i < cfg.len("routes"); ++i) {
      std::string k = "routes[" + std::to_string(i) + "]";
      routes.insert(ntohl(cfg.get_ipv4(k + ".prefix")), cfg.get_u8(k + ".len"), cfg.get_u32(k + ".hop"));
    }
  }

  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    Ipv4Hdr* ip = pkt.ip();
    if (!eth || !ip) { pkt.drop(); return; }
    const uint32_t* hop = routes.find(ntohl(ip->daddr));
    if (!hop || *hop >= hops.size()) { no_route++; pkt.drop(); return; }
    if (ip->ttl <= 1) { expired++; pkt.drop(); return; }
    uint16_t old = *reinterpret_cast<uint16_t*>(&ip->ttl);
    ip->ttl--;
    ip->check = csum_update2(ip->check, old, *reinterpret_cast<uint16_t*>(&ip->ttl));
    NextHop nh = hops[*hop];
    for (int b = 0; b < 6; ++b) { eth->dst[b] = nh.mac[b]; eth->src[b] = my_mac[b]; }
    pkt.send(nh.port);
  }
};

TANDEM_NF(Router, routes, hops, my_mac, expired, no_route)
