// Issue 14, item 7: ordinary C++ that clang turns into LLVM intrinsics — saturating add and
// subtract (llvm.uadd.sat, usub.sat, sadd.sat, ssub.sat), population count, leading and
// trailing zeros, min/max, abs, rotates by constant and run-time amounts (fshl/fshr).
#include <tandem/nf.hh>
using namespace tandem;

static uint32_t sat_add(uint32_t a, uint32_t b) {
  uint32_t s = a + b;
  return s < a ? 0xffffffffu : s;
}
static uint16_t sat_sub(uint16_t a, uint16_t b) { return a > b ? uint16_t(a - b) : 0; }
static int16_t ssat_add(int16_t a, int16_t b) {
  int32_t s = int32_t(a) + int32_t(b);
  return int16_t(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
}
static int8_t ssat_sub(int8_t a, int8_t b) {
  int32_t s = int32_t(a) - int32_t(b);
  return int8_t(s > 127 ? 127 : s < -128 ? -128 : s);
}
static uint32_t rotl(uint32_t x, uint32_t r) { return (x << (r & 31)) | (x >> ((32 - r) & 31)); }
static uint16_t rotr16(uint16_t x, unsigned r) {
  return uint16_t((x >> (r & 15)) | (x << ((16 - r) & 15)));
}

struct BitTricks : Element {
  uint32_t out_port = 1;
  uint32_t budget = 0xfffff000u;
  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    TcpHdr* tcp = pkt.tcp();
    if (!ip || !tcp) {
      pkt.send(out_port);
      return;
    }
    uint32_t seq = ntohl(tcp->seq);
    uint32_t ack = ntohl(tcp->ack_seq);
    uint16_t win = ntohs(tcp->window);
    uint16_t id = ntohs(ip->id);
    // Saturating arithmetic.
    budget = sat_add(budget, pkt.length());
    tcp->seq = htonl(sat_add(seq, ack));
    tcp->window = htons(sat_sub(win, id));
    ip->id = htons(uint16_t(ssat_add(int16_t(win), int16_t(id))));
    ip->tos = uint8_t(ssat_sub(int8_t(ip->ttl), int8_t(seq)));
    // Bit counting (zero guarded where C++ leaves it undefined).
    uint32_t pop = uint32_t(__builtin_popcount(seq)) + uint32_t(__builtin_popcountll(uint64_t(ack) << 17));
    uint32_t lz = seq ? uint32_t(__builtin_clz(seq)) : 32;
    uint32_t tz = ack ? uint32_t(__builtin_ctz(ack)) : 32;
    uint32_t lz16 = uint32_t(__builtin_clzs(uint16_t(win | 1)));
    tcp->urg_ptr = htons(uint16_t(pop | (lz << 6) | (tz << 11)) ^ uint16_t(lz16));
    // min/max/abs.
    int32_t d = int32_t(seq) - int32_t(ack);
    uint32_t mn = seq < ack ? seq : ack;
    int32_t smx = d > int32_t(win) ? d : int32_t(win);
    uint32_t ad = uint32_t(d < 0 ? -d : d);
    tcp->ack_seq = htonl(mn ^ uint32_t(smx) ^ ad);
    // Rotates: constant and run-time amounts.
    ip->daddr = htonl(rotl(ntohl(ip->daddr), 7) ^ rotl(ntohl(ip->saddr), seq));
    tcp->check = htons(rotr16(ntohs(tcp->check), win));
    pkt.send(out_port + (budget & 1));
  }
};

TANDEM_NF(BitTricks, out_port, budget)
