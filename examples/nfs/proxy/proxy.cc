// Transparent proxy — the proxy of the Gallium paper (SIGCOMM'20, §6.1), adapted from the
// Click paper's example.
//
// Port 0 faces the clients, port 1 the rest of the network (servers and the web proxy).
//   port 0 -> 1: a TCP packet whose destination port is in `ports` is redirected to the web
//     proxy: destination rewritten to proxy_ip:proxy_port. The original destination is
//     remembered per client endpoint (`orig`) so replies can be rewritten back. Everything
//     else passes unchanged.
//   port 1 -> 0: a TCP packet from proxy_ip:proxy_port to a client endpoint in `orig` gets
//     its source rewritten back to the original server (the client never sees the proxy);
//     one without a mapping is dropped (a stale connection). Everything else passes
//     unchanged.
// Frames that are not IPv4 pass unchanged; frames from other ports are dropped.
// `orig` is an ExpiringMap (5 minutes idle). It is written by a SYN (a new connection may
// reuse a client port towards another server) or when the entry is missing; other packets
// only look it up, so the per-packet path is one port lookup plus one map lookup and
// incremental checksum updates — all switch-friendly.
#include <tandem/nf.hh>

using namespace tandem;

struct Endpoint {
  uint32_t addr;  // network order
  uint16_t port;  // network order
  uint16_t pad;
};
static_assert(sizeof(Endpoint) == 8);

struct Proxy : Element {
  static constexpr Time kIdle = 300 * kSecond;
  HashMap<uint16_t, uint16_t, 64> ports;            // redirected TCP dst ports (network order)
  ExpiringMap<Endpoint, Endpoint, 65536, kIdle> orig;  // client endpoint -> original server
  uint32_t proxy_ip = 0;                            // network order
  uint16_t proxy_port = 0;                          // network order
  uint32_t client_side = 0;
  uint32_t server_side = 1;

  void configure(Config& cfg) {
    proxy_ip = cfg.get_ipv4("proxy_ip");
    proxy_port = htons(cfg.get_u16_or("proxy_port", 3128));
    uint32_t n = cfg.len("ports");
    if (n == 0) cfg.fail("ports", "needs at least one TCP port to redirect");
    for (uint32_t i = 0; i < n; ++i) {
      std::string k = "ports[" + std::to_string(i) + "]";
      if (!ports.insert(htons(cfg.get_u16(k)), 1)) cfg.fail(k, "more than 64 ports");
    }
    client_side = cfg.get_u32_or("client_port", 0);
    server_side = cfg.get_u32_or("server_port", 1);
    if (client_side == server_side) cfg.fail("server_port", "must differ from client_port");
  }

  void process(Packet& pkt) {
    uint32_t in = pkt.in_port();
    Ipv4Hdr* ip = pkt.ip();
    TcpHdr* tcp = pkt.tcp();
    if (ip == nullptr) {  // not IPv4: passes unchanged
      if (in == client_side) return pkt.send(server_side);
      if (in == server_side) return pkt.send(client_side);
      return pkt.drop();
    }

    if (in == client_side) {
      if (tcp != nullptr && ports.contains(tcp->dport)) {
        Endpoint client{ip->saddr, tcp->sport, 0};
        Endpoint server{ip->daddr, tcp->dport, 0};
        if ((tcp->flags & kTcpSyn) != 0 || !orig.contains(client)) orig.insert(client, server);
        uint32_t old_addr = ip->daddr;
        uint16_t old_port = tcp->dport;
        ip->daddr = proxy_ip;
        ip->check = csum_update4(ip->check, old_addr, proxy_ip);
        tcp->dport = proxy_port;
        tcp->check = csum_update2(csum_update4(tcp->check, old_addr, proxy_ip), old_port, proxy_port);
      }
      return pkt.send(server_side);
    }

    if (in == server_side) {
      if (tcp != nullptr && ip->saddr == proxy_ip && tcp->sport == proxy_port) {
        const Endpoint* s = orig.find(Endpoint{ip->daddr, tcp->dport, 0});
        if (s == nullptr) return pkt.drop();
        uint32_t new_addr = s->addr;
        uint16_t new_port = s->port;
        ip->saddr = new_addr;
        ip->check = csum_update4(ip->check, proxy_ip, new_addr);
        tcp->sport = new_port;
        tcp->check = csum_update2(csum_update4(tcp->check, proxy_ip, new_addr), proxy_port, new_port);
      }
      return pkt.send(client_side);
    }
    pkt.drop();
  }
};

TANDEM_NF(Proxy, ports, orig, proxy_ip, proxy_port, client_side, server_side)
