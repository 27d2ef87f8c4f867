// Found by tandem-fuzz (seed 5 with 64-bit values and known-bug constructs; minimised by
// hand): a map whose key struct has more than 8 integer fields. The P4 back end makes one
// exact key per field and the software switch refused the table ("tables may have at most 8
// keys", then "unknown name `m0`") after a successful partition. Fixed: the partitioner
// keeps lookups with more than 8 key fields on the server (`ops::MAX_TABLE_KEYS`).
#include <tandem/nf.hh>

using namespace tandem;

struct Key {
  uint32_t addr;
  uint16_t port;
  uint8_t b0, b1, b2, b3, b4, b5, b6, b7, b8, b9;
};
static_assert(sizeof(Key) == 16);

struct ManyKeys : Element {
  HashMap<Key, uint32_t, 1024> seen;

  void process(Packet& pkt) {
    TcpHdr* tcp = pkt.tcp();
    if (tcp == nullptr) return pkt.send(1);
    Ipv4Hdr* ip = pkt.ip();
    Key k{ip->saddr, tcp->sport, ip->ttl, ip->tos, ip->protocol, tcp->flags,
          uint8_t(ip->id),  uint8_t(ip->daddr), uint8_t(tcp->dport), uint8_t(tcp->window), 0, 0};
    const uint32_t* n = seen.find(k);
    uint32_t c = n ? *n + 1 : 1;
    if (c > 3) return pkt.drop();
    if (!n) seen.insert(k, c);
    pkt.send(1);
  }
};

TANDEM_NF(ManyKeys, seen)
