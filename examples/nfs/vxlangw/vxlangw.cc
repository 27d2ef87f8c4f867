// VXLAN gateway (Sailfish-style): tunnelled tenant traffic arrives from a VTEP; the gateway
// finds the route for (tenant VNI, inner destination) by longest prefix match and sends the
// frame on to the VTEP that hosts the destination, rewriting the outer destination, the TTL
// and checksum, and the VNI. The inner frame is untouched; frames that are not VXLAN, or
// have no route, are dropped. A per-VNI packet counter is a register on the switch.
#include <tandem/nf.hh>
using namespace tandem;

// VXLAN (RFC 7348): flags (0x08: VNI valid), 24 reserved bits, the 24-bit VNI, 8 reserved bits.
struct VxlanHdr {
  uint8_t flags;
  uint8_t rsvd1[3];
  uint8_t vni[3];
  uint8_t rsvd2;
};
TANDEM_HEADER(VxlanHdr, flags, rsvd1, vni, rsvd2)

// The tenant's own Ethernet and IPv4 headers inside the tunnel (types of their own: each
// header type is present at most once in a packet).
struct InnerEthHdr {
  uint8_t dst[6];
  uint8_t src[6];
  uint16_t ethertype;
};
TANDEM_HEADER(InnerEthHdr, dst, src, ethertype)

struct InnerIpv4Hdr {
  uint8_t version_ihl;
  uint8_t tos;
  uint16_t total_len;
  uint16_t id;
  uint16_t frag_off;
  uint8_t ttl;
  uint8_t protocol;
  uint16_t check;
  uint32_t saddr;
  uint32_t daddr;
};
TANDEM_HEADER(InnerIpv4Hdr, version_ihl, tos, total_len, id, frag_off, ttl, protocol, check,
              saddr, daddr)

struct Route {
  uint32_t vtep;  // the next VTEP's address, host order
  uint32_t vni;   // the VNI on the way out
  uint32_t port;  // the output port
};

struct VxlanGw : Element {
  // Each VNI with routes gets a routing table number (VRF, 1..255) ...
  HashMap<uint32_t, uint32_t, 255> vrf_of;
  // ... and routes are looked up by longest prefix on (VRF << 24 | inner destination >> 8),
  // so one 32-bit key holds both (prefixes of the destination up to /24): a route for
  // 10.0.64.0/18 in VRF 2 is the prefix 2 << 24 | 10.0.64 of length 8 + 18.
  LpmMap<uint32_t, Route, 4096> routes;
  Vector<uint32_t, 16> vni_pkts;  // packets per VNI (VNI mod 16)
  uint32_t gateway = ipv4_addr(100, 64, 0, 1);

  void configure(Config& cfg) {
    if (cfg.has("gateway")) gateway = cfg.get_ipv4("gateway");
    for (uint32_t i = 0; i < vni_pkts.capacity(); ++i) vni_pkts.push_back(0);
    uint32_t n = cfg.len("routes");
    for (uint32_t i = 0; i < n; ++i) {
      std::string r = "routes[" + std::to_string(i) + "]";
      uint32_t vni = cfg.get_u32(r + ".vni");
      if (vni >> 24) cfg.fail(r + ".vni", "a VNI has 24 bits");
      uint32_t len = cfg.get_u32(r + ".len");
      if (len > 24) cfg.fail(r + ".len", "a prefix length is 0..24 (routes are per /24 at most)");
      uint32_t out_vni = cfg.get_u32(r + ".out_vni");
      if (out_vni >> 24) cfg.fail(r + ".out_vni", "a VNI has 24 bits");
      Route route{ntohl(cfg.get_ipv4(r + ".vtep")), out_vni, cfg.get_u16(r + ".port")};
      uint32_t vrf;
      if (!vrf_of.lookup(vni, vrf)) {
        vrf = uint32_t(vrf_of.size()) + 1;
        if (!vrf_of.insert(vni, vrf)) cfg.fail(r + ".vni", "more than 255 VNIs with routes");
      }
      uint32_t key = (vrf << 24) | (ntohl(cfg.get_ipv4(r + ".prefix")) >> 8);
      if (!routes.insert(key, 8 + len, route)) cfg.fail(r, "too many routes");
    }
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    VxlanHdr* vx = pkt.header<VxlanHdr>();
    InnerIpv4Hdr* inner = pkt.header<InnerIpv4Hdr>();
    if (ip == nullptr || vx == nullptr || inner == nullptr || !(vx->flags & 0x08) ||
        ip->daddr != gateway) {
      pkt.drop();
      return;
    }
    uint32_t vni = (uint32_t(vx->vni[0]) << 16) | (uint32_t(vx->vni[1]) << 8) | vx->vni[2];
    vni_pkts[vni & 15] += 1;
    const uint32_t* vrf = vrf_of.find(vni);
    if (vrf == nullptr) {
      pkt.drop();
      return;
    }
    const Route* r = routes.find((*vrf << 24) | (ntohl(inner->daddr) >> 8));
    if (r == nullptr || ip->ttl <= 1) {
      pkt.drop();
      return;
    }
    uint32_t old_src = ip->saddr, old_dst = ip->daddr, new_dst = htonl(r->vtep);
    ip->saddr = gateway;
    ip->daddr = new_dst;
    ip->check = csum_update4(ip->check, old_src, gateway);
    ip->check = csum_update4(ip->check, old_dst, new_dst);
    ip->check = csum_update2(ip->check, htons(uint16_t(ip->ttl) << 8 | ip->protocol),
                             htons(uint16_t(ip->ttl - 1) << 8 | ip->protocol));
    ip->ttl -= 1;
    vx->vni[0] = uint8_t(r->vni >> 16);
    vx->vni[1] = uint8_t(r->vni >> 8);
    vx->vni[2] = uint8_t(r->vni);
    pkt.send(r->port);
  }
};

TANDEM_NF(VxlanGw, vrf_of, routes, vni_pkts, gateway)
TANDEM_PARSE(VxlanGw,
             TANDEM_EDGE(UdpHdr, dport, 4789, VxlanHdr),
             TANDEM_ALWAYS(VxlanHdr, InnerEthHdr),
             TANDEM_EDGE(InnerEthHdr, ethertype, 0x0800, InnerIpv4Hdr))
