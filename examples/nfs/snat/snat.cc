// SNAT — the state-heavy source NAT of CLIP (seed 004, §IV, Appendix A): internal traffic
// shares a pool of public addresses.
//
// Port 0 faces the internal network, port 1 the Internet.
//   inside -> outside: a new TCP/UDP connection (five-tuple) is given the next (public
//     address, port) pair of the pool — the pool's `pool_size` addresses from `first_ip`, each
//     with ports `first_port`..65535, handed out address by address — and the mapping is
//     remembered both ways; the packet leaves with that source. FIN or RST from inside ends
//     the connection: both mappings are removed (the pair is not reused: the allocator only
//     moves forward, wrapping at the end of the pool).
//   outside -> inside: the reply five-tuple is looked up; found: the destination goes back to
//     the internal endpoint; not found: dropped.
// Checksums are fixed incrementally. Allocation needs the server (the counters are global);
// established connections stay on the switch.
#include <tandem/nf.hh>

using namespace tandem;

struct FlowKey {
  uint32_t saddr;
  uint32_t daddr;
  uint16_t sport;
  uint16_t dport;
  uint8_t proto;
  uint8_t pad[3];
};
static_assert(sizeof(FlowKey) == 16);

struct Public {
  uint32_t addr;  // network order
  uint16_t port;  // network order
  uint16_t pad;
};

struct Snat : Element {
  HashMap<FlowKey, Public, 65536> out;   // inside five-tuple -> public pair
  HashMap<FlowKey, Public, 65536> back;  // reply five-tuple -> internal endpoint
  uint32_t first_ip = 0;                 // host order
  uint32_t pool_size = 4;
  uint32_t first_port = 1024;
  uint32_t next_ip = 0;                  // index into the pool
  uint32_t next_port = 1024;             // host order
  uint32_t inside_port = 0;
  uint32_t outside_port = 1;

  void configure(Config& cfg) {
    first_ip = ntohl(cfg.get_ipv4("first_ip"));
    pool_size = cfg.get_u32_or("pool_size", 4);
    if (pool_size == 0 || pool_size > 256) cfg.fail("pool_size", "must be 1..256");
    first_port = cfg.get_u16_or("first_port", 1024);
    if (first_port == 0) cfg.fail("first_port", "must be at least 1");
    next_port = first_port;
    inside_port = cfg.get_u32_or("inside_port", 0);
    outside_port = cfg.get_u32_or("outside_port", 1);
    if (inside_port == outside_port) cfg.fail("outside_port", "must differ from inside_port");
  }

  static void rewrite_src(Ipv4Hdr* ip, TcpHdr* tcp, UdpHdr* udp, uint32_t addr, uint16_t port) {
    uint32_t old_addr = ip->saddr;
    ip->saddr = addr;
    ip->check = csum_update4(ip->check, old_addr, addr);
    if (tcp) {
      uint16_t old_port = tcp->sport;
      tcp->sport = port;
      tcp->check = csum_update2(csum_update4(tcp->check, old_addr, addr), old_port, port);
    } else {
      uint16_t old_port = udp->sport;
      udp->sport = port;
      udp->check = udp_csum_update2(udp_csum_update4(udp->check, old_addr, addr), old_port, port);
    }
  }

  static void rewrite_dst(Ipv4Hdr* ip, TcpHdr* tcp, UdpHdr* udp, uint32_t addr, uint16_t port) {
    uint32_t old_addr = ip->daddr;
    ip->daddr = addr;
    ip->check = csum_update4(ip->check, old_addr, addr);
    if (tcp) {
      uint16_t old_port = tcp->dport;
      tcp->dport = port;
      tcp->check = csum_update2(csum_update4(tcp->check, old_addr, addr), old_port, port);
    } else {
      uint16_t old_port = udp->dport;
      udp->dport = port;
      udp->check = udp_csum_update2(udp_csum_update4(udp->check, old_addr, addr), old_port, port);
    }
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) return pkt.drop();
    TcpHdr* tcp = pkt.tcp();
    UdpHdr* udp = pkt.udp();
    if (tcp == nullptr && udp == nullptr) return pkt.drop();
    uint16_t sport = tcp ? tcp->sport : udp->sport;
    uint16_t dport = tcp ? tcp->dport : udp->dport;
    FlowKey key{ip->saddr, ip->daddr, sport, dport, ip->protocol, {0, 0, 0}};

    if (pkt.in_port() == inside_port) {
      Public pub;
      const Public* m = out.find(key);
      if (m != nullptr) {
        pub = *m;
      } else {
        pub = Public{htonl(first_ip + next_ip), htons(uint16_t(next_port)), 0};
        if (next_port >= 65535) {
          next_port = first_port;
          next_ip = next_ip + 1 >= pool_size ? 0 : next_ip + 1;
        } else {
          next_port = next_port + 1;
        }
        FlowKey rev{ip->daddr, pub.addr, dport, pub.port, ip->protocol, {0, 0, 0}};
        if (!out.insert(key, pub)) return pkt.drop();
        if (!back.insert(rev, Public{ip->saddr, sport, 0})) {
          out.erase(key);
          return pkt.drop();
        }
      }
      if (tcp != nullptr && (tcp->flags & (kTcpFin | kTcpRst)) != 0) {
        FlowKey rev{ip->daddr, pub.addr, dport, pub.port, ip->protocol, {0, 0, 0}};
        out.erase(key);
        back.erase(rev);
      }
      rewrite_src(ip, tcp, udp, pub.addr, pub.port);
      return pkt.send(outside_port);
    }

    if (pkt.in_port() == outside_port) {
      const Public* in = back.find(key);
      if (in == nullptr) return pkt.drop();
      rewrite_dst(ip, tcp, udp, in->addr, in->port);
      return pkt.send(inside_port);
    }
    pkt.drop();
  }
};

TANDEM_NF(Snat, out, back, first_ip, pool_size, first_port, next_ip, next_port, inside_port,
          outside_port)
