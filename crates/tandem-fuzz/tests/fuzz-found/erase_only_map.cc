// Found by tandem-fuzz (seed 105, minimised): a map that process() only erases from. Its
// values come from configure(); erase() did not tell the front end the value size, so the
// lifted map had no value fields and the offloaded final state lost the values
// (`only in candidate: [("0200", "")]`). Fixed: erase() passes sizeof(V).
#include <tandem/nf.hh>

using namespace tandem;

struct EraseOnly : Element {
  HashMap<uint16_t, uint32_t, 64> m;

  void configure(Config&) {
    m.insert(0, 0xdeadbeef);
    m.insert(1, 7);
    m.insert(2, 9);
  }

  void process(Packet& pkt) {
    if (TcpHdr* tcp = pkt.tcp()) m.erase(uint16_t(ntohs(tcp->sport) & 1));
    pkt.send(1);
  }
};

TANDEM_NF(EraseOnly, m)
