// Port-scan detector (e2e regression, written from docs/nf-api.md): a source that opens more
// than `limit` distinct (destination, port) pairs is blocked. Distinct pairs are counted with
// a two-hash Bloom filter (test-and-set: read the bit, write 1); per-source counters live in a
// hashed array. Every step but blocking a source runs on the switch.
#include <tandem/nf.hh>
using namespace tandem;

constexpr uint32_t kBloom = 8192;
constexpr uint32_t kBuckets = 1024;

struct ScanDet : Element {
  Vector<uint8_t, kBloom> bloom_a;
  Vector<uint8_t, kBloom> bloom_b;
  Vector<uint32_t, kBuckets> distinct;   // per source bucket: distinct pairs seen
  HashMap<uint32_t, uint8_t, 4096> blocked;
  uint64_t dropped = 0;
  uint32_t limit = 8;
  uint32_t out_port = 1;

  void configure(Config& cfg) {
    limit = cfg.get_u32_or("limit", 20);
    out_port = cfg.get_u32_or("out_port", 1);
    for (uint32_t i = 0; i < kBloom; ++i) { bloom_a.push_back(0); bloom_b.push_back(0); }
    for (uint32_t i = 0; i < kBuckets; ++i) distinct.push_back(0);
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) { pkt.send(out_port); return; }
    uint32_t src = ntohl(ip->saddr);
    if (blocked.contains(src)) { dropped++; pkt.drop(); return; }
    TcpHdr* tcp = pkt.tcp();
    if (!tcp || !(tcp->flags & kTcpSyn) || (tcp->flags & kTcpAck)) { pkt.send(out_port); return; }
    uint32_t dst = ntohl(ip->daddr);
    uint16_t dport = ntohs(tcp->dport);
    uint32_t ha = crc32(src, dst, dport) % kBloom;
    uint32_t hb = crc16(src, dst, dport) % kBloom;
    uint8_t seen_a = bloom_a[ha];
    uint8_t seen_b = bloom_b[hb];
    bloom_a[ha] = 1;
    bloom_b[hb] = 1;
    if (seen_a && seen_b) { pkt.send(out_port); return; }
    uint32_t b = crc32(src) % kBuckets;
    uint32_t n = distinct[b] += 1;
    if (n > limit) { blocked.insert(src, 1); dropped++; pkt.drop(); return; }
    pkt.send(out_port);
  }
};

TANDEM_NF(ScanDet, bloom_a, bloom_b, distinct, blocked, dropped, limit, out_port)
