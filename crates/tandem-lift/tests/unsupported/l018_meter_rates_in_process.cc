// expect: L018 meter rates are set in configure()
#include <tandem/nf.hh>
using namespace tandem;

// Meter rates are configuration (the switch's control plane installs them), not per-packet
// state: changing them in process() is refused.
struct Adaptive : Element {
  Meter<64, MeterUnit::Bytes> limits;
  void process(Packet& pkt) {
    uint32_t i = pkt.in_port() & 63;
    if (limits.execute(i, pkt) == Color::Red)
      limits.set_rates(i, {.cir = 1000, .cburst = 1500, .pir = 2000, .pburst = 3000});
    pkt.send(1);
  }
};

TANDEM_NF(Adaptive, limits)
