// Issue 14, item 2: payload reads of different widths in one NF. The server's payload
// accessor must give each read its own width (a 1-byte read first must not make the later
// 4-byte read return one byte).
#include <string.h>
#include <tandem/nf.hh>
using namespace tandem;

struct PayloadWidths : Element {
  uint32_t out_port = 1;
  void process(Packet& pkt) {
    TcpHdr* tcp = pkt.tcp();
    if (!tcp) {
      pkt.send(out_port);
      return;
    }
    const uint8_t* p = pkt.payload();
    if (pkt.payload_len() >= 5) {
      uint8_t first = p[0];
      uint32_t word;
      memcpy(&word, p + 1, 4);
      tcp->urg_ptr = htons(uint16_t(first));
      tcp->seq = word;
    }
    pkt.send(out_port);
  }
};

TANDEM_NF(PayloadWidths, out_port)
