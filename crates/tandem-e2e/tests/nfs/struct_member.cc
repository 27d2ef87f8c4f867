// A struct member as scalar state (written from docs/nf-api.md): the backend's address and port
// in one 8-byte struct, rewritten into every packet. Its state dump is the struct's bytes (was
// a compile error deep in nf.hh: no `dump` for a struct).
#include <tandem/nf.hh>
using namespace tandem;

struct Backend { uint32_t ip; uint16_t port; uint16_t weight; };

struct StructMember : Element {
  Backend primary{0, 0, 0};
  uint64_t rewritten = 0;

  void configure(Config& cfg) {
    primary.ip = cfg.has("ip") ? cfg.get_ipv4("ip") : ipv4_addr(10, 0, 0, 9);
    primary.port = cfg.get_u16_or("port", 3);
    primary.weight = 1;
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) { pkt.send(1); return; }
    uint32_t old = ip->daddr;
    ip->daddr = primary.ip;
    ip->check = csum_update4(ip->check, old, ip->daddr);
    rewritten += primary.weight;
    pkt.send(primary.port);
  }
};

TANDEM_NF(StructMember, primary, rewritten)
