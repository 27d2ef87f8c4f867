// TCP scan filter (written from docs/nf-api.md): drops null scans, SYN+FIN and Xmas packets,
// the last found with a population count of three flag bits; counts the set flag bits of
// every packet's flags and of its data offset nibble.
#include <tandem/nf.hh>
using namespace tandem;

struct ScanFlags : Element {
  uint32_t dropped = 0;
  uint32_t flag_bits = 0;
  static bool odd(uint8_t f) {
    if (f == 0) return true;
    if ((f & (kTcpSyn | kTcpFin)) == (kTcpSyn | kTcpFin)) return true;
    return __builtin_popcount(f & (kTcpFin | kTcpPsh | kTcpUrg)) == 3;
  }
  void configure(Config&) {}
  void process(Packet& pkt) {
    uint32_t out = pkt.in_port() ^ 1;
    if (TcpHdr* t = pkt.tcp()) {
      flag_bits += uint32_t(__builtin_popcount(t->flags)) + uint32_t(__builtin_popcount(t->data_off >> 4));
      if (odd(t->flags)) { dropped++; return pkt.drop(); }
    }
    pkt.send(out);
  }
};
TANDEM_NF(ScanFlags, dropped, flag_bits)
