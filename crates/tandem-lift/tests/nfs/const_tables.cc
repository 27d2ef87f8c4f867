// Constant lookup tables indexed by packet fields (written from docs/nf-api.md): a
// precedence re-map (8 x uint8_t, mostly equal entries), a TTL class by the low 4 bits
// (16 x uint16_t, signed int index) and an offset by the IP id's low bits (16 x uint32_t,
// a size_t index).
// clang indexes them as `base + zext(i) * size` in 64 bits.
#include <tandem/nf.hh>
using namespace tandem;

static constexpr uint8_t kRemap[8] = {0, 0, 2, 2, 4, 4, 6, 7};
static constexpr uint16_t kTtlClass[16] = {9, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610};
static constexpr uint32_t kOffset[16] = {0, 100000, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 17};

struct ConstTables : Element {
  Vector<uint32_t, 8> per_class;
  uint32_t ttl_sum = 0;
  uint32_t off_sum = 0;
  void configure(Config&) { for (int i = 0; i < 8; ++i) per_class.push_back(0); }
  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) { pkt.send(1); return; }
    uint8_t np = kRemap[ip->tos >> 5];
    per_class[np] += 1;
    int t = ip->ttl & 15;
    ttl_sum += kTtlClass[t];
    size_t j = ntohs(ip->id) & 15;
    off_sum += kOffset[j];
    uint8_t tos = uint8_t(np << 5) | (ip->tos & 0x1f);
    ip->check = csum_update2(ip->check, htons(ip->tos), htons(tos));
    ip->tos = tos;
    pkt.send(kTtlClass[ip->ttl & 15] > 100 ? 2 : 1);
  }
};
TANDEM_NF(ConstTables, per_class, ttl_sum, off_sum)
