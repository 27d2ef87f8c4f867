// xgw — a multi-tenant VXLAN cloud gateway after Sailfish (SIGCOMM'21, §2.1, Fig. 2 and 11).
//
// Tenant traffic arrives tunnelled (outer Ethernet / IPv4 or IPv6 / UDP 4789 / VXLAN / inner
// Ethernet / inner IPv4 or IPv6) from the physical server (NC) that hosts the sending VM.
//   1. VXLAN routing: the longest prefix of (VNI, inner destination) gives a scope.
//        Local    — the destination is in this VPC;
//        Peer     — it is in a peered VPC: look up again with the peer's VNI (the route says
//                   which), whose answer must be Local;
//        Internet — it leaves the cloud: SNAT (inner IPv4 TCP/UDP; IPv6 is routed unchanged).
//   2. VM-NC mapping: exact on (VNI, inner destination) -> the NC hosting that VM.
//   3. The outer destination becomes the NC (or the Internet gateway's VTEP), the outer
//      source the gateway, TTL / hop limit - 1, the VNI the destination's; the frame leaves
//      re-encapsulated on `port`.
// SNAT keeps a per-session table (VM's VNI, address, port, protocol -> public port) and its
// reverse (protocol, public port -> the VM) written by process(), so both stay on the
// server; replies come back from the Internet gateway in `internet_vni`, are de-NATed and
// go to the VM's NC like Local traffic. Anything else (not VXLAN to the gateway, unknown
// VNI, no route, no VM, TTL 1) is dropped.
//
// Routes are one LpmMap per family keyed by LpmKey{VNI, destination}: the VNI matched
// exactly, the destination by longest prefix (P4: an `exact` and an `lpm` key). IPv6 routes
// match the whole 128-bit destination (prefixes 0..128, an LpmAddr128; P4: one ternary key
// per 64-bit half, the prefix length as the priority); VM-NC mappings are exact on the whole
// address.
#include <tandem/ipv6.hh>
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

// The inner L4 headers as far as SNAT needs them (ports and checksum).
struct InnerTcpHdr {
  uint16_t sport;
  uint16_t dport;
  uint32_t seq;
  uint32_t ack;
  uint16_t off_flags;
  uint16_t window;
  uint16_t check;
  uint16_t urg;
};
TANDEM_HEADER(InnerTcpHdr, sport, dport, seq, ack, off_flags, window, check, urg)

struct InnerUdpHdr {
  uint16_t sport;
  uint16_t dport;
  uint16_t len;
  uint16_t check;
};
TANDEM_HEADER(InnerUdpHdr, sport, dport, len, check)

enum Scope : uint32_t { kLocal = 1, kPeer = 2, kInternet = 3 };

// A route: the scope in the top 8 bits, Peer's next VNI in the low 24 (one 32-bit word, so
// a lookup's answer crosses to the server in 4 bytes).
struct Route {
  uint32_t scope_vni;
  uint32_t scope() const { return scope_vni >> 24; }
  uint32_t next_vni() const { return scope_vni & 0xffffff; }
};

struct Vm4Key {
  uint32_t vni;
  uint32_t addr;  // network order
};
struct Vm6Key {
  uint32_t vni;
  uint32_t pad;
  uint64_t hi;  // network order
  uint64_t lo;
};
// The NC hosting a VM: its IPv4 and IPv6 underlay addresses (network order), the port.
struct Nc {
  uint32_t addr4;
  uint32_t port;
  uint64_t addr6_hi;
  uint64_t addr6_lo;
};

struct SessionKey {
  uint32_t vni;
  uint32_t addr;   // the VM's address, network order
  uint16_t port;   // the VM's port, network order
  uint8_t proto;
  uint8_t pad;
};
struct PublicPort {
  uint16_t port;  // network order
  uint16_t pad;
};
struct ReverseKey {
  uint16_t port;  // public port, network order
  uint8_t proto;
  uint8_t pad;
};
struct Session {
  uint32_t vni;
  uint32_t addr;
  uint16_t port;
  uint16_t pad;
};

// One of the gateway's own IPv6 addresses.
struct Addr6 {
  uint64_t hi;  // network order
  uint64_t lo;
};

struct Xgw : Element {
  LpmMap<LpmKey<uint32_t, uint32_t>, Route, 8192> routes4;   // (VNI, IPv4 dst, host order)
  LpmMap<LpmKey<uint64_t, LpmAddr128>, Route, 4096> routes6; // (VNI, IPv6 dst, host order)
  HashMap<Vm4Key, Nc, 65536> vm_nc4;       // (VNI, VM IPv4) -> NC; (internet_vni, 0): the IGW
  HashMap<Vm6Key, Nc, 65536> vm_nc6;       // (VNI, VM IPv6) -> NC
  HashMap<SessionKey, PublicPort, 65536> snat;   // VM session -> public port
  HashMap<ReverseKey, Session, 65536> snat_rev;  // public port -> VM session
  HashMap<Addr6, uint32_t, 16> my6;        // the gateway's IPv6 addresses
  uint32_t gateway = ipv4_addr(100, 64, 0, 1);     // network order
  uint32_t internet_vni = 1;
  uint32_t public_ip = ipv4_addr(100, 65, 0, 1);   // SNAT address, network order
  uint32_t next_port = 1024;                       // SNAT port counter, host order

  static uint32_t vni_ok(Config& cfg, const std::string& key) {
    uint32_t v = cfg.get_u32(key);
    if (v >> 24) cfg.fail(key, "a VNI has 24 bits");
    return v;
  }

  void configure_routes(Config& cfg) {
    uint32_t n = cfg.len("routes");
    for (uint32_t i = 0; i < n; ++i) {
      std::string r = "routes[" + std::to_string(i) + "]";
      uint32_t vni = vni_ok(cfg, r + ".vni");
      std::string scope = cfg.get_string(r + ".scope");
      Route route{uint32_t(kLocal) << 24};
      if (scope == "peer") {
        route.scope_vni = uint32_t(kPeer) << 24 | vni_ok(cfg, r + ".peer_vni");
      } else if (scope == "internet") {
        route.scope_vni = uint32_t(kInternet) << 24;
      } else if (scope != "local") {
        cfg.fail(r + ".scope", "expected \"local\", \"peer\" or \"internet\"");
      }
      uint32_t len = cfg.get_u32(r + ".len");
      bool ok;
      if (cfg.has(r + ".prefix6")) {
        uint64_t hi, lo;
        cfg.get_ipv6(r + ".prefix6", hi, lo);
        if (len > 128) cfg.fail(r + ".len", "an IPv6 prefix is 0..128 bits");
        ok = routes6.insert({vni, {hi, lo}}, len, route);
      } else {
        if (len > 32) cfg.fail(r + ".len", "an IPv4 prefix is 0..32 bits");
        ok = routes4.insert({vni, ntohl(cfg.get_ipv4(r + ".prefix"))}, len, route);
      }
      if (!ok) cfg.fail(r, "too many routes");
    }
  }

  void configure_vms(Config& cfg) {
    uint32_t n = cfg.len("vms");
    for (uint32_t i = 0; i < n; ++i) {
      std::string v = "vms[" + std::to_string(i) + "]";
      uint32_t vni = vni_ok(cfg, v + ".vni");
      Nc nc{cfg.get_ipv4(v + ".nc"), cfg.get_u16(v + ".port"), 0, 0};
      if (cfg.has(v + ".nc6")) {
        uint64_t hi, lo;
        cfg.get_ipv6(v + ".nc6", hi, lo);
        nc.addr6_hi = ipv6_wire(hi);
        nc.addr6_lo = ipv6_wire(lo);
      }
      bool ok;
      if (cfg.has(v + ".addr6")) {
        uint64_t hi, lo;
        cfg.get_ipv6(v + ".addr6", hi, lo);
        ok = vm_nc6.insert(Vm6Key{vni, 0, ipv6_wire(hi), ipv6_wire(lo)}, nc);
      } else {
        ok = vm_nc4.insert(Vm4Key{vni, cfg.get_ipv4(v + ".addr")}, nc);
      }
      if (!ok) cfg.fail(v, "too many VMs");
    }
  }

  void configure(Config& cfg) {
    if (cfg.has("gateway")) gateway = cfg.get_ipv4("gateway");
    for (uint32_t i = 0, n = cfg.len("gateway6"); i < n; ++i) {
      uint64_t hi, lo;
      cfg.get_ipv6("gateway6[" + std::to_string(i) + "]", hi, lo);
      if (!my6.insert(Addr6{ipv6_wire(hi), ipv6_wire(lo)}, 1)) cfg.fail("gateway6", "too many");
    }
    if (cfg.has("internet_vni")) internet_vni = vni_ok(cfg, "internet_vni");
    // The Internet gateway's VTEP is the NC of (internet_vni, 0.0.0.0).
    Nc igw{cfg.get_ipv4("igw"), cfg.get_u16_or("igw_port", 1), 0, 0};
    if (cfg.has("igw6")) {
      uint64_t hi, lo;
      cfg.get_ipv6("igw6", hi, lo);
      igw.addr6_hi = ipv6_wire(hi);
      igw.addr6_lo = ipv6_wire(lo);
    }
    if (!vm_nc4.insert(Vm4Key{internet_vni, 0}, igw)) cfg.fail("igw", "no room");
    if (cfg.has("public_ip")) public_ip = cfg.get_ipv4("public_ip");
    next_port = cfg.get_u16_or("first_port", 1024);
    configure_routes(cfg);
    configure_vms(cfg);
  }

  // VM -> Internet, inner IPv4 TCP/UDP: the session's public port (a new one for a new
  // session), then source address and port rewritten. False: not TCP/UDP, or SNAT is full.
  bool snat_out(uint32_t vni, InnerIpv4Hdr* in4, InnerTcpHdr* tcp, InnerUdpHdr* udp) {
    if (tcp == nullptr && udp == nullptr) return false;
    uint16_t sport = tcp ? tcp->sport : udp->sport;
    SessionKey key{vni, in4->saddr, sport, in4->protocol, 0};
    uint16_t pub;
    const PublicPort* p = snat.find(key);
    if (p != nullptr) {
      pub = p->port;
    } else {
      if (next_port > 65535) return false;
      pub = htons(uint16_t(next_port));
      next_port += 1;
      if (!snat.insert(key, PublicPort{pub, 0})) return false;
      if (!snat_rev.insert(ReverseKey{pub, in4->protocol, 0}, Session{vni, in4->saddr, sport, 0})) {
        snat.erase(key);
        return false;
      }
    }
    uint32_t old = in4->saddr;
    in4->saddr = public_ip;
    in4->check = csum_update4(in4->check, old, public_ip);
    if (tcp) {
      tcp->sport = pub;
      tcp->check = csum_update2(csum_update4(tcp->check, old, public_ip), sport, pub);
    } else {
      udp->sport = pub;
      udp->check = udp_csum_update2(udp_csum_update4(udp->check, old, public_ip), sport, pub);
    }
    return true;
  }

  // Internet -> VM: the session of the public port; the inner destination becomes the VM.
  // The VM's VNI, or 0 (drop).
  uint32_t snat_in(InnerIpv4Hdr* in4, InnerTcpHdr* tcp, InnerUdpHdr* udp) {
    if (in4->daddr != public_ip || (tcp == nullptr && udp == nullptr)) return 0;
    uint16_t dport = tcp ? tcp->dport : udp->dport;
    const Session* s = snat_rev.find(ReverseKey{dport, in4->protocol, 0});
    if (s == nullptr) return 0;
    uint32_t old = in4->daddr, vm = s->addr;
    uint16_t port = s->port;
    in4->daddr = vm;
    in4->check = csum_update4(in4->check, old, vm);
    if (tcp) {
      tcp->dport = port;
      tcp->check = csum_update2(csum_update4(tcp->check, old, vm), dport, port);
    } else {
      udp->dport = port;
      udp->check = udp_csum_update2(udp_csum_update4(udp->check, old, vm), dport, port);
    }
    return s->vni;
  }

  // Outer headers towards the NC `nc` in `vni`: the source is the gateway (the outer IPv6
  // destination, one of its addresses), TTL or hop limit - 1; the frame leaves on its port.
  void reencap(Packet& pkt, Ipv4Hdr* ip, Ipv6Hdr* ip6, VxlanHdr* vx, uint32_t vni, const Nc* nc) {
    if (ip != nullptr) {
      uint32_t old_src = ip->saddr, old_dst = ip->daddr, dst = nc->addr4;
      ip->saddr = gateway;
      ip->daddr = dst;
      ip->check = csum_update4(ip->check, old_src, gateway);
      ip->check = csum_update4(ip->check, old_dst, dst);
      ip->check = csum_update2(ip->check, htons(uint16_t(ip->ttl) << 8 | ip->protocol),
                               htons(uint16_t(ip->ttl - 1) << 8 | ip->protocol));
      ip->ttl -= 1;
    } else {
      ip6->saddr_hi = ip6->daddr_hi;
      ip6->saddr_lo = ip6->daddr_lo;
      ip6->daddr_hi = nc->addr6_hi;
      ip6->daddr_lo = nc->addr6_lo;
      ip6->hop_limit -= 1;
    }
    vx->vni[0] = uint8_t(vni >> 16);
    vx->vni[1] = uint8_t(vni >> 8);
    vx->vni[2] = uint8_t(vni);
    pkt.send(nc->port);
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    Ipv6Hdr* ip6 = pkt.header<Ipv6Hdr>();
    VxlanHdr* vx = pkt.header<VxlanHdr>();
    if (vx == nullptr || !(vx->flags & 0x08)) return pkt.drop();
    if (ip != nullptr) {
      if (ip->daddr != gateway || ip->ttl <= 1) return pkt.drop();
    } else if (ip6 == nullptr || ip6->hop_limit <= 1 ||
               my6.find(Addr6{ip6->daddr_hi, ip6->daddr_lo}) == nullptr) {
      return pkt.drop();
    }
    uint32_t vni = (uint32_t(vx->vni[0]) << 16) | (uint32_t(vx->vni[1]) << 8) | vx->vni[2];
    InnerIpv4Hdr* in4 = pkt.header<InnerIpv4Hdr>();
    InnerIpv6Hdr* in6 = pkt.header<InnerIpv6Hdr>();
    InnerTcpHdr* tcp = pkt.header<InnerTcpHdr>();
    InnerUdpHdr* udp = pkt.header<InnerUdpHdr>();

    if (in4 != nullptr) {
      uint32_t dvni = vni;
      if (vni == internet_vni) {
        // A reply from the Internet: de-NAT, then to the VM like Local traffic.
        dvni = snat_in(in4, tcp, udp);
        if (dvni == 0) return pkt.drop();
      } else {
        const Route* r = routes4.find({vni, ntohl(in4->daddr)});
        if (r == nullptr) return pkt.drop();
        if (r->scope() == kPeer) {
          dvni = r->next_vni();
          r = routes4.find({dvni, ntohl(in4->daddr)});
          if (r == nullptr || r->scope() != kLocal) return pkt.drop();
        }
        if (r->scope() == kInternet) {
          const Nc* igw = vm_nc4.find(Vm4Key{internet_vni, 0});
          if (igw == nullptr || !snat_out(vni, in4, tcp, udp)) return pkt.drop();
          return reencap(pkt, ip, ip6, vx, internet_vni, igw);
        }
      }
      const Nc* nc = vm_nc4.find(Vm4Key{dvni, in4->daddr});
      if (nc == nullptr) return pkt.drop();
      return reencap(pkt, ip, ip6, vx, dvni, nc);
    }
    if (in6 != nullptr) {
      uint32_t dvni = vni;
      LpmAddr128 dst{ipv6_hi(in6->daddr_hi), ipv6_hi(in6->daddr_lo)};
      const Route* r = routes6.find({vni, dst});
      if (r == nullptr) return pkt.drop();
      if (r->scope() == kPeer) {
        dvni = r->next_vni();
        r = routes6.find({dvni, dst});
        if (r == nullptr || r->scope() != kLocal) return pkt.drop();
      }
      if (r->scope() == kInternet) {
        // Routed unchanged (no NAT for IPv6).
        const Nc* igw = vm_nc4.find(Vm4Key{internet_vni, 0});
        if (igw == nullptr) return pkt.drop();
        return reencap(pkt, ip, ip6, vx, internet_vni, igw);
      }
      const Nc* nc = vm_nc6.find(Vm6Key{dvni, 0, in6->daddr_hi, in6->daddr_lo});
      if (nc == nullptr) return pkt.drop();
      return reencap(pkt, ip, ip6, vx, dvni, nc);
    }
    pkt.drop();
  }
};

TANDEM_NF(Xgw, routes4, routes6, vm_nc4, vm_nc6, snat, snat_rev, my6, gateway, internet_vni,
          public_ip, next_port)
TANDEM_PARSE(Xgw,
             TANDEM_EDGE(EthHdr, ethertype, 0x86DD, Ipv6Hdr),
             TANDEM_EDGE(Ipv6Hdr, next_header, 17, UdpHdr),
             TANDEM_EDGE(UdpHdr, dport, 4789, VxlanHdr),
             TANDEM_ALWAYS(VxlanHdr, InnerEthHdr),
             TANDEM_EDGE(InnerEthHdr, ethertype, 0x0800, InnerIpv4Hdr),
             TANDEM_EDGE(InnerEthHdr, ethertype, 0x86DD, InnerIpv6Hdr),
             TANDEM_EDGE(InnerIpv4Hdr, protocol, 6, InnerTcpHdr),
             TANDEM_EDGE(InnerIpv4Hdr, protocol, 17, InnerUdpHdr),
             TANDEM_EDGE(InnerIpv6Hdr, next_header, 6, InnerTcpHdr),
             TANDEM_EDGE(InnerIpv6Hdr, next_header, 17, InnerUdpHdr))
