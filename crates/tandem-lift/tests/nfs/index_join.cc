// A uint32_t index merged at a join, used for a meter and a vector: clang widens the join to
// 64 bits; the lifter gives it back a 32-bit block parameter (translate::narrow), so the
// index and its arithmetic fit a 32-bit switch ALU.
#include <tandem/nf.hh>
using namespace tandem;

struct IndexJoin : Element {
  Meter<4160, MeterUnit::Bytes> meters;
  HashMap<uint32_t, uint16_t, 64> hosts;
  Vector<uint32_t, 4160> seen;

  void configure(Config&) {
    meters.set_all({.cir = 1000000, .cburst = 3000, .pir = 2000000, .pburst = 6000});
    for (uint32_t i = 0; i < 4160; ++i) seen.push_back(0);
    hosts.insert(0xc0a80001, 7);
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) {
      pkt.drop();
      return;
    }
    uint32_t src = ntohl(ip->saddr);
    uint32_t m = 64 + (crc32(src) & 4095);
    if (const uint16_t* h = hosts.find(src)) m = *h;
    seen[m] += 1;
    if (meters.execute(m, pkt) == Color::Red) {
      pkt.drop();
      return;
    }
    pkt.send(1);
  }
};

TANDEM_NF(IndexJoin, meters, hosts, seen)
