// A meter on the switch next to a table too small for its entries (the test compiles it
// with --max-table-size 100): packets whose key is kept on the server only run whole there,
// so the runtime reads the switch's meters back before such a run and writes the changed
// ones back after it.
#include <tandem/nf.hh>
using namespace tandem;

struct MeterFallback : Element {
  Meter<64, MeterUnit::Packets> meters;
  HashMap<uint8_t, uint16_t, 256> ports;  // low byte of the source address -> output port

  void configure(Config&) {
    meters.set_all({.cir = 2000, .cburst = 4, .pir = 4000, .pburst = 8});
    for (uint32_t i = 0; i < 256; ++i) ports.insert(uint8_t(i), uint16_t(i & 1));
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) {
      pkt.drop();
      return;
    }
    uint32_t src = ntohl(ip->saddr);
    if (meters.execute(src & 63, pkt) == Color::Red) {
      pkt.drop();
      return;
    }
    const uint16_t* p = ports.find(uint8_t(src));
    pkt.send(p ? *p : 3);
  }
};

TANDEM_NF(MeterFallback, meters, ports)
