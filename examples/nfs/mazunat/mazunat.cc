// MazuNAT — the NAT of the Gallium paper (SIGCOMM'20, §6.1), after Mazu Networks' Click NAT.
//
// Port 0 faces the internal network, port 1 the external one.
//   inside -> outside: a new TCP/UDP flow (five-tuple) gets the next external port from a
//     monotonically increasing counter; the mapping is remembered in both directions and the
//     packet leaves with source = (external_ip, external port).
//   outside -> inside: the reply five-tuple (remote -> external_ip:port) is looked up; found:
//     the destination is rewritten back to the internal host; not found: dropped.
// Checksums are fixed incrementally (RFC 1624), so the per-packet path is loop-free and can
// run on the switch; only the first packet of a flow (the map inserts) needs the server.
// Like the paper's version, mappings are never garbage-collected: the maps hold at most
// 65536 entries (one per external port), and once full, new flows are dropped.
#include <tandem/nf.hh>

using namespace tandem;

// A five-tuple as it appears in a packet header (addresses and ports in network order).
struct FlowKey {
  uint32_t saddr;
  uint32_t daddr;
  uint16_t sport;
  uint16_t dport;
  uint8_t proto;
  uint8_t pad[3];
};
static_assert(sizeof(FlowKey) == 16);

// inside five-tuple -> external port (network order)
struct ExtPort {
  uint16_t port;
  uint16_t pad;
};

// outside five-tuple (remote -> external_ip:ext port) -> the internal endpoint
struct Internal {
  uint32_t addr;
  uint16_t port;
  uint16_t pad;
};

struct MazuNat : Element {
  HashMap<FlowKey, ExtPort, 65536> int2ext;  // inside five-tuple -> external port
  HashMap<FlowKey, Internal, 65536> ext2int;  // reply five-tuple -> internal addr/port
  uint32_t next_port = 1024;                  // port allocation counter (host order)
  uint32_t external_ip = 0;                   // network order
  uint32_t first_port = 1024;                 // counter wraps from 65535 back here
  uint32_t inside_port = 0;
  uint32_t outside_port = 1;

  void configure(Config& cfg) {
    external_ip = cfg.get_ipv4("external_ip");
    first_port = cfg.get_u16_or("first_port", 1024);
    if (first_port == 0) cfg.fail("first_port", "must be at least 1");
    next_port = first_port;
    inside_port = cfg.get_u32_or("inside_port", 0);
    outside_port = cfg.get_u32_or("outside_port", 1);
    if (inside_port == outside_port) cfg.fail("outside_port", "must differ from inside_port");
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
      uint16_t ext;
      const ExtPort* m = int2ext.find(key);
      if (m != nullptr) {
        ext = m->port;
      } else {
        // New flow: allocate the next port, remember both directions.
        ext = htons(uint16_t(next_port));
        next_port = next_port >= 65535 ? first_port : next_port + 1;
        FlowKey rev{ip->daddr, external_ip, dport, ext, ip->protocol, {0, 0, 0}};
        if (!int2ext.insert(key, ExtPort{ext, 0})) return pkt.drop();
        if (!ext2int.insert(rev, Internal{ip->saddr, sport, 0})) {
          int2ext.erase(key);
          return pkt.drop();
        }
      }
      uint32_t old_addr = ip->saddr;
      ip->saddr = external_ip;
      ip->check = csum_update4(ip->check, old_addr, external_ip);
      if (tcp) {
        tcp->sport = ext;
        tcp->check = csum_update2(csum_update4(tcp->check, old_addr, external_ip), sport, ext);
      } else {
        udp->sport = ext;
        udp->check = udp_csum_update2(udp_csum_update4(udp->check, old_addr, external_ip), sport, ext);
      }
      return pkt.send(outside_port);
    }

    if (pkt.in_port() == outside_port) {
      const Internal* in = ext2int.find(key);
      if (in == nullptr) return pkt.drop();
      uint32_t old_addr = ip->daddr;
      uint32_t new_addr = in->addr;
      uint16_t new_port = in->port;
      ip->daddr = new_addr;
      ip->check = csum_update4(ip->check, old_addr, new_addr);
      if (tcp) {
        tcp->dport = new_port;
        tcp->check = csum_update2(csum_update4(tcp->check, old_addr, new_addr), dport, new_port);
      } else {
        udp->dport = new_port;
        udp->check = udp_csum_update2(udp_csum_update4(udp->check, old_addr, new_addr), dport, new_port);
      }
      return pkt.send(inside_port);
    }
    pkt.drop();
  }
};

TANDEM_NF(MazuNat, int2ext, ext2int, next_port, external_ip, first_port, inside_port, outside_port)
