// expect: L102 may never end on some packet
#include <tandem/nf.hh>
// Skips TCP options one by one until the end-of-options byte: the trip count depends on the
// packet, so the loop is not unrolled (and on a packet without an end marker within the
// payload it still ends, at the bound; without `i < n` it might not).
struct Nf : tandem::Element {
  uint32_t port = 1;
  void process(tandem::Packet& pkt) {
    const uint8_t* p = pkt.payload();
    uint32_t n = pkt.payload_len();
    uint32_t i = 0;
    while (i < n && p[i] != 0) i += 1;
    if (i == n) pkt.drop();
    else pkt.send(port);
  }
};
TANDEM_NF(Nf, port)
