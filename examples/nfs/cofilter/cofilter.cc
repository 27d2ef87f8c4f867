// CoFilter's stateful packet filter (seed 002, §III-B, Fig. 3): a degraded Netfilter
// connection tracker for TCP, written as the paper's CPU code would be — one connection table,
// the full TCP state machine of the handshake and the four-way close, no TIME_WAIT table.
//
// Ports: 0 is the inside (bare-metal servers' clients), 1 the outside; admitted packets cross
// (0 -> 1, 1 -> 0) unchanged. Connections are keyed by the normalised five-tuple (the lower
// endpoint first) so both directions find the same entry.
//
// TCP state machine (`-` = no entry; "orig" = the side that sent the SYN, "reply" = the other):
//   -            SYN (no ACK/FIN/RST) arriving on a port allowed to open  -> SYN_SENT
//   SYN_SENT     orig SYN (retransmission)                                 stays
//                reply SYN+ACK                                             -> SYN_RECV
//   SYN_RECV     reply SYN+ACK (retransmission)                            stays
//                orig ACK without SYN                                      -> ESTABLISHED
//   ESTABLISHED  ACK without SYN (data)                                    stays
//                FIN+ACK from either side                                  -> FIN_WAIT (that side closed)
//   FIN_WAIT     the closer's ACKs / FIN retransmissions                   stays
//                the other side's ACK without FIN (acknowledges the FIN)   -> CLOSE_WAIT
//                the other side's FIN+ACK                                  -> LAST_ACK
//   CLOSE_WAIT   ACK without SYN from either side (half-closed data)       stays
//                the other side's FIN+ACK                                  -> LAST_ACK
//   LAST_ACK     the closer's ACK without FIN (acknowledges the last FIN)  -> removed (closed)
//                other ACKs, FIN retransmissions                           stays
//   any          RST (in SYN_SENT the reply RST must carry ACK)            -> removed
// Everything else (a SYN inside an open connection, segments without ACK after the SYN,
// packets of unknown connections that are not an opening SYN) is dropped and changes nothing.
// Entries expire after `idle` seconds without packets. Non-TCP traffic: `other`.
//
// Offload (the paper's split): the packets that change the state — SYN, SYN+ACK, the
// handshake's ACK, FINs, the ACKs of the close, RSTs — are CoFilter's control packets and go
// to the server; data packets of established connections only read the state.
#include <tandem/nf.hh>

using namespace tandem;

struct FlowKey {
  uint32_t lo_addr;  // the lower endpoint (by address, then port), network order
  uint32_t hi_addr;
  uint16_t lo_port;
  uint16_t hi_port;
  uint8_t proto;
  uint8_t pad[3];
};
static_assert(sizeof(FlowKey) == 16);

enum : uint8_t {
  kSynSent = 1,
  kSynRecv = 2,
  kEstablished = 3,
  kFinWait = 4,
  kCloseWait = 5,
  kLastAck = 6,
};

struct Track {
  uint8_t state;
  uint8_t orig_is_lo;  // 1: the lower endpoint sent the SYN
  uint8_t closer;      // the side (0 orig, 1 reply) whose FIN came first
  uint8_t pad;
};
static_assert(sizeof(Track) == 4);

struct CoFilter : Element {
  ExpiringMap<FlowKey, Track, 2097152, 300 * kSecond> table;
  uint32_t open_from = 1;  // bit p set: packets arriving on port p may open connections
  uint32_t other_allowed = 0;

  void configure(Config& cfg) {
    std::string o = cfg.get_string_or("open_from", "inside");
    if (o == "inside") open_from = 1;
    else if (o == "outside") open_from = 2;
    else if (o == "both") open_from = 3;
    else cfg.fail("open_from", "expected \"inside\", \"outside\" or \"both\", found \"" + o + "\"");
    std::string t = cfg.get_string_or("other", "drop");
    if (t == "drop") other_allowed = 0;
    else if (t == "allow") other_allowed = 1;
    else cfg.fail("other", "expected \"allow\" or \"drop\", found \"" + t + "\"");
  }

  void process(Packet& pkt) {
    uint32_t in = pkt.in_port();
    if (in > 1) return pkt.drop();
    uint32_t out = 1 - in;
    Ipv4Hdr* ip = pkt.ip();
    TcpHdr* tcp = pkt.tcp();
    if (tcp == nullptr) {
      if (other_allowed) return pkt.send(out);
      return pkt.drop();
    }
    uint32_t s = ntohl(ip->saddr), d = ntohl(ip->daddr);
    uint8_t from_lo =
        (s < d || (s == d && ntohs(tcp->sport) <= ntohs(tcp->dport))) ? 1 : 0;
    FlowKey key = from_lo
        ? FlowKey{ip->saddr, ip->daddr, tcp->sport, tcp->dport, ip->protocol, {0, 0, 0}}
        : FlowKey{ip->daddr, ip->saddr, tcp->dport, tcp->sport, ip->protocol, {0, 0, 0}};

    uint8_t f = tcp->flags;
    bool syn = f & kTcpSyn, ack = f & kTcpAck, fin = f & kTcpFin, rst = f & kTcpRst;
    const Track* t = table.find(key);
    if (t == nullptr) {
      if (syn && !ack && !fin && !rst && ((open_from >> in) & 1) != 0) {
        if (!table.insert(key, Track{kSynSent, from_lo, 0, 0})) return pkt.drop();
        return pkt.send(out);
      }
      return pkt.drop();
    }

    Track cur = *t;
    uint8_t dir = from_lo == cur.orig_is_lo ? 0 : 1;
    if (rst) {
      if (cur.state == kSynSent && dir == 1 && !ack) return pkt.drop();
      table.erase(key);
      return pkt.send(out);
    }
    Track next = cur;
    if (cur.state == kSynSent) {
      if (dir == 0 && syn && !ack) return pkt.send(out);
      if (dir == 1 && syn && ack) next.state = kSynRecv;
      else return pkt.drop();
    } else if (cur.state == kSynRecv) {
      if (dir == 1 && syn && ack) return pkt.send(out);
      if (dir == 0 && ack && !syn && !fin) next.state = kEstablished;
      else return pkt.drop();
    } else {
      // After the handshake every admitted segment carries ACK and no SYN.
      if (syn || !ack) return pkt.drop();
      if (cur.state == kEstablished) {
        if (fin) {
          next.state = kFinWait;
          next.closer = dir;
        }
      } else if (cur.state == kFinWait) {
        if (dir != cur.closer) next.state = fin ? kLastAck : kCloseWait;
      } else if (cur.state == kCloseWait) {
        if (fin && dir != cur.closer) next.state = kLastAck;
      } else if (cur.state == kLastAck) {
        if (!fin && dir == cur.closer) {
          table.erase(key);
          return pkt.send(out);
        }
      } else {
        return pkt.drop();
      }
    }
    if (next.state != cur.state || next.closer != cur.closer) table.insert(key, next);
    pkt.send(out);
  }
};

TANDEM_NF(CoFilter, table, open_from, other_allowed)
