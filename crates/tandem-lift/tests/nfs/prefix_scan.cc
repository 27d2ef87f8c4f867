// A source blocklist scanned linearly, as a first version would: a loop bounded by a constant
// (8) whose body — a bounds check, two vector reads, a counter update, an early return — is
// larger than the unroller's default budget. `#pragma unroll` unrolls it in full.
#include <tandem/nf.hh>
using namespace tandem;

struct Prefix { uint32_t net; uint32_t mask; };

struct PrefixScan : Element {
  Vector<Prefix, 8> prefixes;
  Vector<uint32_t, 8> hits;
  uint32_t passed = 0;

  void configure(Config&) {
    const uint32_t nets[5] = {0x0a000000, 0x0a010000, 0xc0a80000, 0xac100000, 0x0a020300};
    const uint32_t lens[5] = {16, 24, 16, 12, 28};
    for (uint32_t i = 0; i < 5; ++i) {
      uint32_t mask = ~uint32_t(0) << (32 - lens[i]);
      prefixes.push_back({nets[i] & mask, mask});
      hits.push_back(0);
    }
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) { pkt.send(1); return; }
    uint32_t src = ntohl(ip->saddr);
#pragma unroll
    for (uint32_t i = 0; i < 8; ++i) {
      if (i >= prefixes.size()) break;
      if ((src & prefixes[i].mask) == prefixes[i].net) {
        hits[i] += 1;
        pkt.drop();
        return;
      }
    }
    passed += 1;
    pkt.send(1);
  }
};

TANDEM_NF(PrefixScan, prefixes, hits, passed)
