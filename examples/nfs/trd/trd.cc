// TRD — TCP retransmission detection, one of CLIP's applications (ICDCS'22? seed 004, §IV):
// per-connection sequence tracking.
//
// Ports 0 and 1 face the two sides; every packet is forwarded to the other side unchanged.
// A TCP connection's state lives in one entry per direction, keyed by that direction's own
// five-tuple: the SYN (or SYN-ACK) opens it with the next expected sequence number; a data
// segment that starts before what that direction has already sent is a retransmission:
// it is also counted in the entry and the segment leaves on `retrans_port` (a monitor) instead
// of the other side; otherwise the expected number moves to the segment's end. FIN or RST
// closes both directions' entries. CLIP keeps the state in a register slot the server assigns
// on SYN and frees on FIN/RST; here the slot is the map entry, so every access is keyed by
// the packet's own flow and the state shards across servers by flow.
#include <tandem/nf.hh>

using namespace tandem;

struct FlowKey {
  uint32_t saddr;
  uint32_t daddr;
  uint16_t sport;
  uint16_t dport;
};
static_assert(sizeof(FlowKey) == 12);

struct Seq {
  uint32_t next;     // next expected sequence number (host order)
  uint32_t retrans;  // retransmitted segments seen
};

struct Trd : Element {
  HashMap<FlowKey, Seq, 65536> conns;  // one entry per direction of an open connection
  uint32_t side_a = 0;
  uint32_t side_b = 1;
  uint32_t retrans_port = 2;

  void configure(Config& cfg) {
    side_a = cfg.get_u32_or("side_a", 0);
    side_b = cfg.get_u32_or("side_b", 1);
    retrans_port = cfg.get_u32_or("retrans_port", 2);
    if (side_a == side_b) cfg.fail("side_b", "must differ from side_a");
  }

  void process(Packet& pkt) {
    uint32_t out;
    if (pkt.in_port() == side_a) {
      out = side_b;
    } else if (pkt.in_port() == side_b) {
      out = side_a;
    } else {
      return pkt.drop();
    }
    Ipv4Hdr* ip = pkt.ip();
    TcpHdr* tcp = pkt.tcp();
    if (ip == nullptr || tcp == nullptr) return pkt.send(out);
    FlowKey key{ip->saddr, ip->daddr, tcp->sport, tcp->dport};
    uint32_t seq = ntohl(tcp->seq);
    if ((tcp->flags & (kTcpFin | kTcpRst)) != 0) {
      FlowKey rev{ip->daddr, ip->saddr, tcp->dport, tcp->sport};
      conns.erase(key);
      conns.erase(rev);
      return pkt.send(out);
    }
    if ((tcp->flags & kTcpSyn) != 0) {
      conns.insert(key, Seq{seq + 1, 0});
      return pkt.send(out);
    }
    uint32_t hdrs = ip->header_len() + tcp->header_len();
    uint32_t total = ntohs(ip->total_len);
    uint32_t len = total > hdrs ? total - hdrs : 0;
    if (len == 0) return pkt.send(out);
    const Seq* s = conns.find(key);
    if (s == nullptr) return pkt.send(out);
    uint32_t next = s->next;
    uint32_t retrans = s->retrans;
    if (int32_t(seq - next) < 0) {
      conns.insert(key, Seq{next, retrans + 1});
      return pkt.send(retrans_port);
    }
    conns.insert(key, Seq{seq + len, retrans});
    pkt.send(out);
  }
};

TANDEM_NF(Trd, conns, side_a, side_b, retrans_port)
