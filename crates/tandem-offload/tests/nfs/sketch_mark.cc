// A copy of examples/nfs/cmsketch/cmsketch.cc run with sketch_mark.toml (threshold 4), so that
// marked packets (TOS and checksum rewritten on the switch) are compared too.
// CmSketch: a count-min sketch heavy-hitter detector. Every IPv4 packet increments one
// counter in each of three rows, each row indexed by its own CRC of the flow's five-tuple;
// the flow's estimate is the smallest of the three. A flow whose estimate passes the
// threshold is a heavy hitter: its packets are marked (DSCP set in the TOS byte) or, with
// `drop_heavy`, dropped. Each row update is one register read-modify-write on the switch.
#include <tandem/nf.hh>
using namespace tandem;

struct CmSketch : Element {
  static constexpr uint32_t kWidth = 2048;  // counters per row (a power of two)
  Vector<uint32_t, kWidth> row0;
  Vector<uint32_t, kWidth> row1;
  Vector<uint32_t, kWidth> row2;
  uint32_t threshold = 300;
  uint32_t drop_heavy = 0;
  uint32_t mark_tos = 0x20;
  uint32_t out_port = 1;

  void configure(Config& cfg) {
    for (uint32_t i = 0; i < kWidth; ++i) {
      row0.push_back(0);
      row1.push_back(0);
      row2.push_back(0);
    }
    threshold = cfg.get_u32_or("threshold", 300);
    drop_heavy = cfg.get_bool_or("drop_heavy", false) ? 1 : 0;
    mark_tos = cfg.get_u16_or("mark_tos", 0x20) & 0xff;
    out_port = cfg.get_u32_or("out_port", 1);
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) {
      pkt.send(out_port);
      return;
    }
    uint16_t sport = 0, dport = 0;
    if (TcpHdr* tcp = pkt.tcp()) {
      sport = ntohs(tcp->sport);
      dport = ntohs(tcp->dport);
    } else if (UdpHdr* udp = pkt.udp()) {
      sport = ntohs(udp->sport);
      dport = ntohs(udp->dport);
    }
    uint32_t saddr = ntohl(ip->saddr), daddr = ntohl(ip->daddr);
    // Three hashes: CRC-32, CRC-16 and CRC-32 over the tuple in another order.
    uint32_t i0 = crc32(saddr, daddr, ip->protocol, sport, dport) % kWidth;
    uint32_t i1 = crc16(saddr, daddr, ip->protocol, sport, dport) % kWidth;
    uint32_t i2 = crc32(dport, sport, ip->protocol, daddr, saddr) % kWidth;
    uint32_t c0 = row0[i0] += 1;
    uint32_t c1 = row1[i1] += 1;
    uint32_t c2 = row2[i2] += 1;
    uint32_t est = c0 < c1 ? c0 : c1;
    est = est < c2 ? est : c2;
    if (est > threshold) {
      if (drop_heavy) {
        pkt.drop();
        return;
      }
      // The TOS byte shares a checksum word with version/IHL.
      uint16_t old_word = htons(uint16_t(ip->version_ihl << 8 | ip->tos));
      uint16_t new_word = htons(uint16_t(ip->version_ihl << 8 | (mark_tos & 0xff)));
      ip->check = csum_update2(ip->check, old_word, new_word);
      ip->tos = uint8_t(mark_tos);
    }
    pkt.send(out_port);
  }
};

TANDEM_NF(CmSketch, row0, row1, row2, threshold, drop_heavy, mark_tos, out_port)
