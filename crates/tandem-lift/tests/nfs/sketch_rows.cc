// Issue 14, item 8: a count-min sketch whose 3 rows are updated in a constant-trip-count
// loop must be unrolled, not reported as a run-time index (L009).
#include <tandem/nf.hh>
using namespace tandem;

struct SketchRows : Element {
  Vector<uint32_t, 64> row0;
  Vector<uint32_t, 64> row1;
  Vector<uint32_t, 64> row2;
  uint32_t out_port = 1;
  uint32_t threshold = 40;

  void configure(Config&) {
    for (int i = 0; i < 64; i++) {
      row0.push_back(0);
      row1.push_back(0);
      row2.push_back(0);
    }
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) {
      pkt.send(out_port);
      return;
    }
    static constexpr uint32_t kSeeds[3] = {0x9e3779b1u, 0x85ebca77u, 0xc2b2ae3du};
    Vector<uint32_t, 64>* rows[3] = {&row0, &row1, &row2};
    uint32_t key = ip->saddr ^ ip->daddr;
    uint32_t min = 0xffffffffu;
    for (int r = 0; r < 3; r++) {
      uint32_t idx = ((key * kSeeds[r]) >> 26) & 63;
      uint32_t c = rows[r]->get(idx) + 1;
      rows[r]->set(idx, c);
      if (c < min) min = c;
    }
    if (min > threshold) {
      ip->tos = 1;
    }
    pkt.send(out_port);
  }
};

TANDEM_NF(SketchRows, row0, row1, row2, out_port, threshold)
