// Stateful packet filter — after CoFilter (seed 002, §II-A and §III-B): connection tracking
// with a TCP state machine for every connection, both directions, and packet filtering that
// admits only packets valid for the connection's current state.
//
// Ports: 0 is the inside, 1 the outside; admitted packets cross (0 -> 1, 1 -> 0) unchanged.
//
// Connections are keyed by the normalised five-tuple (the lower endpoint first), so both
// directions find the same entry; the entry remembers which endpoint opened the connection
// ("original" direction) and which sides have sent a FIN.
//
// TCP state machine (states as in Linux conntrack; `-` = no entry):
//   -            SYN (no ACK) from a side allowed to open (`new_from`)      -> SYN_SENT
//   SYN_SENT     original SYN (retransmission)                             stays
//                reply SYN+ACK                                             -> SYN_RECV
//   SYN_RECV     reply SYN+ACK / original SYN (retransmissions)            stays
//                original ACK (no SYN)                                     -> ESTABLISHED
//                (an original FIN+ACK here also establishes, then closes: -> FIN_WAIT)
//   ESTABLISHED  ACK-carrying packets without SYN                          stays
//                FIN from one side                                         -> FIN_WAIT
//   FIN_WAIT     ACK-carrying packets, FIN retransmissions of that side    stays
//                FIN from the other side                                   -> LAST_ACK
//   LAST_ACK     ACK from the side that closed first                       -> TIME_WAIT
//                other ACKs, FIN retransmissions                           stays
//   any          RST (in SYN_SENT: the reply RST must carry ACK)           -> - (removed)
// Everything else (SYN in an open connection, packets without ACK after the handshake,
// a connection's packets before its SYN, ...) is dropped and does not change the state.
// TIME_WAIT moves the connection from `conns` to `time_wait`, an ExpiringMap with a
// 2-minute idle timeout that admits only retransmitted ACKs/FINs (and a new SYN from the
// original side, which reopens the connection). `conns` entries expire after 5 minutes idle.
//
// UDP (`udp`): "track" (default) admits datagrams from a side allowed to open and records
// the flow in `conns`; the other side is admitted only for recorded flows. "allow" admits
// all UDP, "drop" none. Other IPv4 protocols and non-IPv4 frames: `other` = "allow"/"drop"
// (default "drop").
//
// Offload: CoFilter's split falls out of the code — established data packets only look up
// `conns` and change nothing, so they can be filtered on the switch; SYN, FIN, RST and the
// handshake's last ACK change the state (map writes) and go to the server.
#include <tandem/nf.hh>

using namespace tandem;

struct ConnKey {
  uint32_t lo_addr;  // the lower endpoint (by address, then port), network order
  uint32_t hi_addr;
  uint16_t lo_port;
  uint16_t hi_port;
  uint8_t proto;
  uint8_t pad[3];
};
static_assert(sizeof(ConnKey) == 16);

enum : uint8_t {
  kSynSent = 1,
  kSynRecv = 2,
  kEstablished = 3,
  kFinWait = 4,
  kLastAck = 5,
  kUdp = 6,
};

struct Conn {
  uint8_t state;
  uint8_t orig_is_lo;  // 1: the lower endpoint opened the connection
  uint8_t fins;        // bit 0: original side sent FIN, bit 1: reply side sent FIN
  uint8_t first_fin;   // the side (0 original, 1 reply) whose FIN came first
};
static_assert(sizeof(Conn) == 4);

struct StateFilter : Element {
  static constexpr Time kIdle = 300 * kSecond;
  static constexpr Time kTimeWait = 120 * kSecond;
  ExpiringMap<ConnKey, Conn, 65536, kIdle> conns;
  ExpiringMap<ConnKey, Conn, 65536, kTimeWait> time_wait;
  uint32_t new_from = 1;  // bit p set: packets arriving on port p may open connections
  uint32_t udp_mode = 2;  // 0 drop, 1 allow, 2 track
  uint32_t other_allowed = 0;

  void configure(Config& cfg) {
    std::string nf = cfg.get_string_or("new_from", "inside");
    if (nf == "inside") new_from = 1;
    else if (nf == "outside") new_from = 2;
    else if (nf == "both") new_from = 3;
    else cfg.fail("new_from", "expected \"inside\", \"outside\" or \"both\", found \"" + nf + "\"");
    std::string u = cfg.get_string_or("udp", "track");
    if (u == "drop") udp_mode = 0;
    else if (u == "allow") udp_mode = 1;
    else if (u == "track") udp_mode = 2;
    else cfg.fail("udp", "expected \"track\", \"allow\" or \"drop\", found \"" + u + "\"");
    std::string o = cfg.get_string_or("other", "drop");
    if (o == "drop") other_allowed = 0;
    else if (o == "allow") other_allowed = 1;
    else cfg.fail("other", "expected \"allow\" or \"drop\", found \"" + o + "\"");
  }

  void process(Packet& pkt) {
    uint32_t in = pkt.in_port();
    if (in > 1) return pkt.drop();
    uint32_t out = 1 - in;
    Ipv4Hdr* ip = pkt.ip();
    TcpHdr* tcp = pkt.tcp();
    UdpHdr* udp = pkt.udp();
    if (tcp == nullptr && udp == nullptr) {
      if (other_allowed) return pkt.send(out);
      return pkt.drop();
    }
    uint16_t sport = tcp ? tcp->sport : udp->sport;
    uint16_t dport = tcp ? tcp->dport : udp->dport;
    uint32_t s = ntohl(ip->saddr), d = ntohl(ip->daddr);
    uint8_t from_lo = (s < d || (s == d && ntohs(sport) <= ntohs(dport))) ? 1 : 0;
    ConnKey key = from_lo ? ConnKey{ip->saddr, ip->daddr, sport, dport, ip->protocol, {0, 0, 0}}
                          : ConnKey{ip->daddr, ip->saddr, dport, sport, ip->protocol, {0, 0, 0}};
    bool may_open = ((new_from >> in) & 1) != 0;

    if (udp != nullptr) {
      if (udp_mode == 1) return pkt.send(out);
      if (udp_mode == 0) return pkt.drop();
      if (conns.contains(key)) return pkt.send(out);
      if (!may_open) return pkt.drop();
      if (!conns.insert(key, Conn{kUdp, from_lo, 0, 0})) return pkt.drop();
      return pkt.send(out);
    }

    uint8_t f = tcp->flags;
    bool syn = f & kTcpSyn, ack = f & kTcpAck, fin = f & kTcpFin, rst = f & kTcpRst;
    const Conn* c = conns.find(key);
    if (c == nullptr) {
      const Conn* tw = time_wait.find(key);
      if (tw != nullptr) {
        uint8_t dir = from_lo == tw->orig_is_lo ? 0 : 1;
        if (syn && !ack && !rst && dir == 0 && may_open) {  // reopened
          time_wait.erase(key);
          if (!conns.insert(key, Conn{kSynSent, from_lo, 0, 0})) return pkt.drop();
          return pkt.send(out);
        }
        if (rst) {
          time_wait.erase(key);
          return pkt.send(out);
        }
        if (ack && !syn) return pkt.send(out);  // retransmitted ACK / FIN
        return pkt.drop();
      }
      if (syn && !ack && !rst && !fin && may_open) {
        if (!conns.insert(key, Conn{kSynSent, from_lo, 0, 0})) return pkt.drop();
        return pkt.send(out);
      }
      return pkt.drop();
    }

    Conn cur = *c;
    if (cur.state == kUdp) return pkt.drop();  // a TCP packet cannot match a UDP key; defensive
    uint8_t dir = from_lo == cur.orig_is_lo ? 0 : 1;
    if (rst) {
      // A reply RST to a SYN must acknowledge it (RFC 793); otherwise any RST closes.
      if (cur.state == kSynSent && dir == 1 && !ack) return pkt.drop();
      conns.erase(key);
      return pkt.send(out);
    }
    Conn next = cur;
    switch (cur.state) {
      case kSynSent:
        if (dir == 0 && syn && !ack) break;
        if (dir == 1 && syn && ack) { next.state = kSynRecv; break; }
        return pkt.drop();
      case kSynRecv:
        if (syn) {
          if ((dir == 1 && ack) || (dir == 0 && !ack)) break;  // retransmissions
          return pkt.drop();
        }
        if (dir == 0 && ack) {
          next.state = kEstablished;
          if (fin) {
            next.state = kFinWait;
            next.fins = 1;
            next.first_fin = 0;
          }
          break;
        }
        return pkt.drop();
      case kEstablished:
        if (syn || !ack) return pkt.drop();
        if (fin) {
          next.state = kFinWait;
          next.fins = uint8_t(1u << dir);
          next.first_fin = dir;
        }
        break;
      case kFinWait:
        if (syn || !ack) return pkt.drop();
        if (fin && dir != cur.first_fin) {
          next.state = kLastAck;
          next.fins = 3;
        }
        break;
      case kLastAck:
        if (syn || !ack) return pkt.drop();
        if (!fin && dir == cur.first_fin) {
          // The last ACK: the connection is closed; keep it briefly for retransmissions.
          conns.erase(key);
          time_wait.insert(key, cur);
          return pkt.send(out);
        }
        break;
      default:
        return pkt.drop();
    }
    if (next.state != cur.state || next.fins != cur.fins) conns.insert(key, next);
    pkt.send(out);
  }
};

TANDEM_NF(StateFilter, conns, time_wait, new_from, udp_mode, other_allowed)
