// DSCP re-marking by traffic class (written from docs/nf-api.md): the IP precedence (top 3
// bits of TOS) picks a DSCP through a switch statement; counts per class. clang -O2 would
// turn the switch into a lookup table packed in a 56-bit constant shifted by 8 x the
// precedence.
#include <tandem/nf.hh>
using namespace tandem;

struct DscpMap : Element {
  Vector<uint32_t, 8> per_class;
  void configure(Config&) { for (int i = 0; i < 8; ++i) per_class.push_back(0); }
  static uint8_t dscp_for(uint8_t prec) {
    switch (prec) {
      case 0: return 0;
      case 1: return 10;
      case 2: return 18;
      case 3: return 26;
      case 4: return 34;
      case 5: return 46;
      case 6: return 48;
      default: return 56;
    }
  }
  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) { pkt.send(1); return; }
    uint8_t prec = ip->tos >> 5;
    uint8_t tos = uint8_t(dscp_for(prec) << 2) | (ip->tos & 3);
    ip->check = csum_update2(ip->check, htons(ip->tos), htons(tos));
    ip->tos = tos;
    per_class[prec] += 1;
    pkt.send(1);
  }
};
TANDEM_NF(DscpMap, per_class)
