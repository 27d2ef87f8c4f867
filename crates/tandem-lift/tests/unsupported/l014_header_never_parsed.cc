// expect: L014 no TANDEM_EDGE in TANDEM_PARSE leads to `VlanHdr`
#include <tandem/nf.hh>
struct VlanHdr {
  uint16_t tci;
  uint16_t ethertype;
};
TANDEM_HEADER(VlanHdr, tci, ethertype)
struct GreHdr {
  uint16_t flags;
  uint16_t proto;
};
TANDEM_HEADER(GreHdr, flags, proto)
struct Nf : tandem::Element {
  void process(tandem::Packet& pkt) {
    VlanHdr* v = pkt.header<VlanHdr>();
    if (v) pkt.send(tandem::ntohs(v->tci) & 0xff);
  }
};
TANDEM_NF(Nf)
TANDEM_PARSE(Nf, TANDEM_EDGE(tandem::Ipv4Hdr, protocol, 47, GreHdr))
