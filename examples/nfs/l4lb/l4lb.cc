// L4 load balancer — the load balancer of the Gallium paper (SIGCOMM'20, §6.1).
//
// Port 0 faces the clients, port 1 the backends.
//   client -> VIP (port 0): the destination must be a configured VIP (else dropped). A
//     connection already in `conns` keeps its backend; otherwise a hash of the five-tuple
//     picks one from `backends`. A TCP SYN (without ACK) or any UDP datagram of a new flow
//     records the choice in `conns` (and the reverse mapping in `replies`). The packet leaves
//     on port 1 with its destination address rewritten to the backend (ports unchanged).
//     A FIN or RST removes the connection from `conns`; that packet itself still goes to the
//     backend. A TCP packet of an unknown connection that is not a SYN (e.g. the last ACK
//     after a FIN, or traffic of a connection that expired) is steered by the hash alone,
//     without creating an entry.
//   backend -> client (port 1): a reply whose five-tuple is in `replies` leaves on port 0
//     with its source rewritten back to the VIP; anything else from port 1 is dropped.
//     `replies` is not cleared at FIN (the server's FIN and last ACK still need it); it
//     expires after 5 minutes without packets of the connection (client packets of a known
//     connection refresh it too).
// Both maps are ExpiringMaps with a 5-minute idle timeout. Checksums are fixed
// incrementally; process() has no loops, so established packets can stay on the switch;
// SYNs, FIN/RST and new UDP flows need the server (they write the maps).
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

struct Addr {
  uint32_t addr;  // network order
};

struct L4LB : Element {
  static constexpr Time kIdle = 300 * kSecond;
  ExpiringMap<FlowKey, Addr, 65536, kIdle> conns;    // client five-tuple -> backend
  ExpiringMap<FlowKey, Addr, 65536, kIdle> replies;  // backend->client five-tuple -> VIP
  HashMap<uint32_t, uint32_t, 64> vips;               // VIP (network order) -> 1
  Vector<uint32_t, 64> backends;                      // backend addresses (network order)
  uint32_t client_port = 0;
  uint32_t backend_port = 1;

  void configure(Config& cfg) {
    uint32_t nv = cfg.len("vips");
    if (nv == 0) cfg.fail("vips", "needs at least one virtual IP");
    for (uint32_t i = 0; i < nv; ++i) {
      std::string key = "vips[" + std::to_string(i) + "]";
      if (!vips.insert(cfg.get_ipv4(key), 1)) cfg.fail(key, "more than 64 VIPs");
    }
    uint32_t nb = cfg.len("backends");
    if (nb == 0) cfg.fail("backends", "needs at least one backend address");
    for (uint32_t i = 0; i < nb; ++i) {
      std::string key = "backends[" + std::to_string(i) + "]";
      if (!backends.push_back(cfg.get_ipv4(key))) cfg.fail(key, "more than 64 backends");
    }
    client_port = cfg.get_u32_or("client_port", 0);
    backend_port = cfg.get_u32_or("backend_port", 1);
    if (client_port == backend_port) cfg.fail("backend_port", "must differ from client_port");
  }

  // Five-tuple hash: xor of the fields (host order), then an xor-shift-multiply mix.
  static uint32_t flow_hash(const FlowKey& k) {
    uint32_t h = ntohl(k.saddr) ^ ntohl(k.daddr) ^
                 ((uint32_t(ntohs(k.sport)) << 16) | ntohs(k.dport)) ^ k.proto;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    return h;
  }

  static void set_daddr(Packet& pkt, Ipv4Hdr* ip, uint32_t to) {
    uint32_t from = ip->daddr;
    ip->daddr = to;
    ip->check = csum_update4(ip->check, from, to);
    if (TcpHdr* t = pkt.tcp()) t->check = csum_update4(t->check, from, to);
    if (UdpHdr* u = pkt.udp()) u->check = udp_csum_update4(u->check, from, to);
  }

  static void set_saddr(Packet& pkt, Ipv4Hdr* ip, uint32_t to) {
    uint32_t from = ip->saddr;
    ip->saddr = to;
    ip->check = csum_update4(ip->check, from, to);
    if (TcpHdr* t = pkt.tcp()) t->check = csum_update4(t->check, from, to);
    if (UdpHdr* u = pkt.udp()) u->check = udp_csum_update4(u->check, from, to);
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

    if (pkt.in_port() == client_port) {
      if (!vips.contains(ip->daddr)) return pkt.drop();
      uint32_t vip = ip->daddr;
      uint32_t backend;
      const Addr* c = conns.find(key);
      if (c != nullptr) {
        backend = c->addr;
        // Client traffic keeps the reply mapping alive too (a lookup refreshes it), so a
        // server that is silent for a while can still answer.
        FlowKey rev{backend, ip->saddr, dport, sport, ip->protocol, {0, 0, 0}};
        replies.contains(rev);
      } else {
        backend = backends[flow_hash(key) % uint32_t(backends.size())];
        bool opens = udp != nullptr || (tcp->flags & (kTcpSyn | kTcpAck | kTcpRst)) == kTcpSyn;
        if (opens) {
          FlowKey rev{backend, ip->saddr, dport, sport, ip->protocol, {0, 0, 0}};
          // A full table only loses affinity for this flow: it is still steered by the hash.
          if (conns.insert(key, Addr{backend})) replies.insert(rev, Addr{vip});
        }
      }
      if (tcp != nullptr && (tcp->flags & (kTcpFin | kTcpRst)) != 0) conns.erase(key);
      set_daddr(pkt, ip, backend);
      return pkt.send(backend_port);
    }

    if (pkt.in_port() == backend_port) {
      const Addr* r = replies.find(key);
      if (r == nullptr) return pkt.drop();
      set_saddr(pkt, ip, r->addr);
      return pkt.send(client_port);
    }
    pkt.drop();
  }
};

TANDEM_NF(L4LB, conns, replies, vips, backends, client_port, backend_port)
