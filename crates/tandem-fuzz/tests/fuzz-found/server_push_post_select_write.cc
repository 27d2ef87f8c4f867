// Found by tandem-fuzz (seed 1048 of the first run with declared headers and push/pop,
// minimised): a MISMATCH on tofino1 and tiny, FIXED. A write to `udp->dport` — a field the
// parse graph selects on (the VXLAN edge), so never in pre (rule R8) — went to post, and the
// `pkt.push<TcpHdr>()` after it to the server (the hash of the pushed header's field cannot
// run in post). Post runs after the server and re-parses the frame the server rebuilt: the
// pushed TCP header sat where UDP used to be, so the write went into it and the real UDP
// port kept 4789. R8 removed post only from header statements that can run *after* a
// server-side push or pop; it now removes it from those on a path with it in either order
// (crates/tandem-partition/src/labels.rs).
// tandem-fuzz traffic plan: vxlan
#include <tandem/nf.hh>
using namespace tandem;

struct VxlanHdr {
  uint8_t flags;
  uint8_t rsvd1[3];
  uint8_t vni[3];
  uint8_t rsvd2;
};
TANDEM_HEADER(VxlanHdr, flags, rsvd1, vni, rsvd2)

struct ServerPush : Element {
  void configure(Config&) {}
  void process(Packet& pkt) {
    UdpHdr* udp = pkt.udp();
    pkt.send(1);
    if (udp != nullptr) udp->dport = 0;
    TcpHdr* tcp = pkt.push<TcpHdr>();
    if (crc32(tcp->check) & 1) pkt.send(2);
  }
};

TANDEM_NF(ServerPush)
TANDEM_PARSE(ServerPush, TANDEM_EDGE(UdpHdr, dport, 4789, VxlanHdr))
