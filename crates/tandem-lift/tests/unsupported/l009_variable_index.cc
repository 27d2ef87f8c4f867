// expect: L009 a header indexed by a run-time value
// (A built-in header's bytes may be indexed at run time — TCP/IPv4 options, run on the
// server; a declared header's may not.)
#include <tandem/nf.hh>
struct TagHdr {
  uint8_t bytes[4];
  uint16_t ethertype;
};
TANDEM_HEADER(TagHdr, bytes, ethertype)
struct Nf : tandem::Element {
  uint32_t port = 1;
  void process(tandem::Packet& pkt) {
    TagHdr* tag = pkt.header<TagHdr>();
    if (!tag) return pkt.drop();
    pkt.send(tag->bytes[pkt.in_port() % 4]);
  }
};
TANDEM_NF(Nf, port)
TANDEM_PARSE(Nf, TANDEM_EDGE(tandem::EthHdr, ethertype, 0x88b6, TagHdr))
