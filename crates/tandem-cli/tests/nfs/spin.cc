// A loop whose exit depends on packet data: it never ends on a TCP packet whose sequence
// number's low byte is 0x42 (about one packet in 256). `tandem host` must stop with an error
// naming the packet instead of hanging (the watchdog, --call-timeout).
#include <tandem/nf.hh>

using namespace tandem;

struct Spin : Element {
  void process(Packet& pkt) {
    TcpHdr* tcp = pkt.tcp();
    if (tcp == nullptr) return pkt.send(1);
    volatile uint32_t v = ntohl(tcp->seq);
    while ((v & 0xff) == 0x42) v = v + 256;
    pkt.send(1 - pkt.in_port() % 2);
  }
};

TANDEM_NF(Spin);
