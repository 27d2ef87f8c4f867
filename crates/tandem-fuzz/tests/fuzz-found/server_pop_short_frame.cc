// Found by tandem-fuzz (seeds 100001, 100008 and 100029 of a 150-NF run with push and pop
// five times as likely, minimised): a MISMATCH (or "the switch sent a packet back to the
// server from post"), NOT FIXED. The server pops Ethernet, IPv4 and TCP (the pops run there:
// a statement after them that depends on them cannot run in post), leaving the 12 bytes of
// TCP options after the parsed headers: a frame shorter than an Ethernet header. The
// transfer header rides behind an Ethernet header (tandem-offload's codec, `encode_into`:
// "Not an Ethernet frame: the switch never sends one to the server"), so the frame goes back
// to the switch without one: post never runs, and the switch forwards it as it sees fit
// (port 1 instead of the NF's port 0; a drop became a send). Frames of 14 bytes or more
// without Ethernet travel with the first 14 bytes of what follows in Ethernet's place and come
// out unchanged. A fix needs a way to carry a frame without Ethernet between server and
// switch (a flag in the transfer header and an Ethernet header the switch strips), or a
// partition rule keeping Ethernet pops off the server. The generator pops Ethernet only with
// --known-bugs (tag `pop-eth`).
#include <tandem/nf.hh>
using namespace tandem;

struct ShortFrame : Element {
  uint64_t n = 0;
  void configure(Config&) {}
  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) {
      pkt.send(1);
      return;
    }
    pkt.pop<Ipv4Hdr>();
    pkt.pop<TcpHdr>();
    pkt.pop<EthHdr>();
    pkt.send(0);
    ip = pkt.ip();
    if (ip != nullptr) n = n + 1;
  }
};

TANDEM_NF(ShortFrame, n)
