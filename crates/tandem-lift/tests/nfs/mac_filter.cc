// MAC filter written from docs/nf-api.md with <cstring>: frames for our MAC are counted,
// broadcast frames answered out of the ingress port with the MACs rewritten by memcpy, IPv4
// frames go out port 1 or 2 by the memcmp order of their addresses' bytes (requests one way,
// replies the other); the rest are dropped. clang
// turns `memcmp(...) == 0` into `bcmp`, which was an opaque call the server had no handler
// for ("no handler for opaque call bcmp").
#include <tandem/nf.hh>
#include <cstring>
using namespace tandem;

struct MacFilter : Element {
  uint8_t my_mac[6] = {0x02, 0xff, 0, 0, 0, 0};
  uint64_t for_us = 0, lower_src = 0, other = 0;

  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    if (!eth) { pkt.drop(); return; }
    static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    if (std::memcmp(eth->dst, my_mac, 6) == 0) for_us++;
    if (std::memcmp(eth->dst, bcast, 6) == 0) {
      std::memcpy(eth->dst, eth->src, 6);
      std::memcpy(eth->src, my_mac, 6);
      pkt.send(pkt.in_port());
      return;
    }
    if (Ipv4Hdr* ip = pkt.ip()) {
      if (std::memcmp(&ip->saddr, &ip->daddr, 4) < 0) { lower_src++; pkt.send(1); return; }
      pkt.send(2);
      return;
    }
    other++;
    pkt.drop();
  }
};

TANDEM_NF(MacFilter, my_mac, for_us, lower_src, other)
