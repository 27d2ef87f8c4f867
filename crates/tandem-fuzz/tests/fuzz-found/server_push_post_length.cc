// Found by tandem-fuzz (seed 120065 of the 400-NF run at seed 120000, minimised): a MISMATCH
// (output ports) on every profile, FIXED. `pkt.length()` is the arrival length, whatever the
// NF pushes or pops. Read in post (after a branch the server decides), it came from the frame
// the server sent back, less the transfer header — 8 bytes longer once the server had pushed
// UDP. The plan did carry the arrival length (`meta.length`, pre → post) in the transfer header,
// but pre packed a metadata field nothing had set and post never read it back. The P4 back end
// now packs and unpacks the frame length it keeps in `pkt_len`, and post takes it from the
// header when it is there (crates/tandem-p4/src/lower/transfer.rs).
#include <tandem/nf.hh>
using namespace tandem;

struct PushLength : Element {
  uint64_t n = 0;
  void configure(Config&) {}
  void process(Packet& pkt) {
    if (pkt.tcp() != nullptr) {
      UdpHdr* udp = pkt.push<UdpHdr>();
      n = n + ntohs(udp->len);
    }
    if ((n & 1) == 0) {
      pkt.send(crc16(uint16_t(pkt.length())) & 3u);
    } else {
      pkt.send(1);
    }
  }
};

TANDEM_NF(PushLength, n)
