// expect: L011 not an integer
#include <tandem/nf.hh>
struct Key {
  uint32_t saddr, daddr;
};
struct Nf : tandem::Element {
  tandem::Vector<uint32_t, 64> counts;
  uint32_t port = 1;
  void process(tandem::Packet& pkt) {
    tandem::Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) return;
    Key k{ip->saddr, ip->daddr};
    counts[tandem::crc32(k) & 63] += 1;
    pkt.send(port);
  }
};
TANDEM_NF(Nf, counts, port)
