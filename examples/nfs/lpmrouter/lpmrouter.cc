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
  uint32_t mac_hi;  // next-hop MAC, top 4 bytes
  uint16_t mac_lo;  // next-hop MAC, low 2 bytes
  uint16_t port;    // output port
};

struct LpmRouter : Element {
  LpmMap<uint32_t, NextHop, 1024> routes;  // destination prefix (host order) -> next hop
  uint32_t router_mac_hi = 0x02000000;     // the router's own MAC (source of what it sends)
  uint16_t router_mac_lo = 0x0001;

  void configure(Config& cfg) {
    uint64_t mac = cfg.get_u64_or("router_mac", 0x020000000001);
    if (mac >> 48) cfg.fail("router_mac", "a MAC address has 48 bits");
    router_mac_hi = uint32_t(mac >> 16);
    router_mac_lo = uint16_t(mac);
    uint32_t n = cfg.len("routes");
    for (uint32_t i = 0; i < n; ++i) {
      std::string r = "routes[" + std::to_string(i) + "]";
      uint32_t prefix = ntohl(cfg.get_ipv4(r + ".prefix"));
      uint32_t len = cfg.get_u32(r + ".len");
      if (len > 32) cfg.fail(r + ".len", "a prefix length is 0..32");
      uint64_t nh_mac = cfg.get_u64(r + ".mac");
      if (nh_mac >> 48) cfg.fail(r + ".mac", "a MAC address has 48 bits");
      NextHop nh{uint32_t(nh_mac >> 16), uint16_t(nh_mac), cfg.get_u16(r + ".port")};
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
    NextHop nh;
    if (!routes.lookup(ntohl(ip->daddr), nh)) {
      pkt.drop();
      return;
    }
    // TTL and protocol share one 16-bit word of the header checksum.
    uint16_t old_word = htons(uint16_t(ip->ttl) << 8 | ip->protocol);
    ip->ttl = uint8_t(ip->ttl - 1);
    uint16_t new_word = htons(uint16_t(ip->ttl) << 8 | ip->protocol);
    ip->check = csum_update2(ip->check, old_word, new_word);
    eth->dst[0] = uint8_t(nh.mac_hi >> 24);
    eth->dst[1] = uint8_t(nh.mac_hi >> 16);
    eth->dst[2] = uint8_t(nh.mac_hi >> 8);
    eth->dst[3] = uint8_t(nh.mac_hi);
    eth->dst[4] = uint8_t(nh.mac_lo >> 8);
    eth->dst[5] = uint8_t(nh.mac_lo);
    eth->src[0] = uint8_t(router_mac_hi >> 24);
    eth->src[1] = uint8_t(router_mac_hi >> 16);
    eth->src[2] = uint8_t(router_mac_hi >> 8);
    eth->src[3] = uint8_t(router_mac_hi);
    eth->src[4] = uint8_t(router_mac_lo >> 8);
    eth->src[5] = uint8_t(router_mac_lo);
    pkt.send(nh.port);
  }
};

TANDEM_NF(LpmRouter, routes, router_mac_hi, router_mac_lo)
