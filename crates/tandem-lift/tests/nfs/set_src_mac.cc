// Issue 14, item 1: a 6-byte struct stored to eth->src (clang: `store i48`) must write
// eth.src only, not eth.ethertype too.
#include <tandem/nf.hh>
using namespace tandem;

struct Mac {
  uint8_t b[6];
};

static Mac make_mac(uint32_t x) {
  Mac m;
  m.b[0] = 0x02;
  m.b[1] = 0x00;
  m.b[2] = uint8_t(x >> 24);
  m.b[3] = uint8_t(x >> 16);
  m.b[4] = uint8_t(x >> 8);
  m.b[5] = uint8_t(x);
  return m;
}

struct SetSrcMac : Element {
  uint32_t out_port = 1;
  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    if (!eth) {
      pkt.drop();
      return;
    }
    Mac mac = make_mac(pkt.length() * 2654435761u);
    *reinterpret_cast<Mac*>(eth->src) = mac;
    pkt.send(out_port);
  }
};

TANDEM_NF(SetSrcMac, out_port)
