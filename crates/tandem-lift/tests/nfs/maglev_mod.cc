// Maglev-style load balancer (written from docs/nf-api.md): a lookup table of prime size
// (4099) maps a 5-tuple hash to a backend, and a sketch 1,000 counters wide counts packets
// per source. Both index by `crc32(...) % N` with N not a power of two.
#include <tandem/nf.hh>
using namespace tandem;

struct MaglevMod : Element {
  Vector<uint8_t, 4099> lut;
  Vector<uint32_t, 16> backends;
  Vector<uint32_t, 1000> per_src;

  void configure(Config&) {
    for (uint32_t b = 0; b < 3; ++b) backends.push_back(ipv4_addr(10, 10, 0, uint8_t(b + 1)));
    for (uint32_t i = 0; i < 4099; ++i) lut.push_back(uint8_t((i * 7 + i / 13) % 3));
    for (uint32_t i = 0; i < 1000; ++i) per_src.push_back(0);
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) return pkt.drop();
    uint16_t sp = 0, dp = 0;
    if (TcpHdr* t = pkt.tcp()) { sp = t->sport; dp = t->dport; }
    else if (UdpHdr* u = pkt.udp()) { sp = u->sport; dp = u->dport; }
    per_src[crc32(ip->saddr) % 1000] += 1;
    uint32_t be = backends[lut[crc32(ip->saddr, ip->daddr, sp, dp, ip->protocol) % 4099]];
    uint32_t old = ip->daddr;
    ip->daddr = be;
    ip->check = csum_update4(ip->check, old, be);
    if (TcpHdr* t = pkt.tcp()) t->check = csum_update4(t->check, old, be);
    else if (UdpHdr* u = pkt.udp()) u->check = udp_csum_update4(u->check, old, be);
    pkt.send(1);
  }
};
TANDEM_NF(MaglevMod, lut, backends, per_src)
