// LPM router — IPv4 forwarding by longest prefix match.
//
// Looks the IPv4 destination up in `routes` (an LpmMap keyed by the host-order address);
// the longest matching prefix gives the next hop: output port and next-hop MAC. Like a
// router's forwarding path: packets without a route, with TTL <= 1, or not IPv4 are
// dropped; forwarded packets get TTL - 1 (the IPv4 checksum updated incrementally, RFC
// 1624), the next hop's MAC as destination and the router's own MAC as source.
// Routes come from the configuration; process() only reads them, so the whole forwarding
// path can run in a switch's LPM table.
#include <tandem/nf.hh>

using namespace tandem;

struct NextHop {
  uint8_t dst_mac[6];  // the next hop's MAC
  uint8_t src_mac[6];  // the router's MAC on the way out (the router's own MAC)
  uint16_t port;       // output port
};

static void set_mac(uint8_t* mac, uint64_t x) {
  for (int i = 0; i < 6; ++i) mac[i] = uint8_t(x >> (40 - 8 * i));
}

struct LpmRouter : Element {
  LpmMap<uint32_t, NextHop, 1024> routes;  // destination prefix (host order) -> next hop

  void configure(Config& cfg) {
    uint64_t router_mac = cfg.get_u64_or("router_mac", 0x020000000001);
    if (router_mac >> 48) cfg.fail("router_mac", "a MAC address has 48 bits");
    uint32_t n = cfg.len("routes");
    for (uint32_t i = 0; i < n; ++i) {
      std::string r = "routes[" + std::to_string(i) + "]";
      uint32_t prefix = ntohl(cfg.get_ipv4(r + ".prefix"));
      uint32_t len = cfg.get_u32(r + ".len");
      if (len > 32) cfg.fail(r + ".len", "a prefix length is 0..32");
      uint64_t nh_mac = cfg.get_u64(r + ".mac");
      if (nh_mac >> 48) cfg.fail(r + ".mac", "a MAC address has 48 bits");
      NextHop nh;
      set_mac(nh.dst_mac, nh_mac);
      set_mac(nh.src_mac, router_mac);
      nh.port = cfg.get_u16(r + ".port");
      if (!routes.insert(prefix, len, nh)) cfg.fail(r, "more than 1024 routes");
    }
  }

  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    Ipv4Hdr* ip = pkt.ip();
    if (eth == nullptr || ip == nullptr || ip->ttl <= 1) {
      pkt.drop();
      return;
    }
    const NextHop* nh = routes.find(ntohl(ip->daddr));
    if (nh == nullptr) {
      pkt.drop();
      return;
    }
    // TTL and protocol share one 16-bit word of the header checksum.
    uint16_t old_word = htons(uint16_t(ip->ttl) << 8 | ip->protocol);
    ip->ttl = uint8_t(ip->ttl - 1);
    uint16_t new_word = htons(uint16_t(ip->ttl) << 8 | ip->protocol);
    ip->check = csum_update2(ip->check, old_word, new_word);
    std::memcpy(eth->dst, nh->dst_mac, 6);
    std::memcpy(eth->src, nh->src_mac, 6);
    pkt.send(nh->port);
  }
};

TANDEM_NF(LpmRouter, routes)
