// Tandem NF API: meters — token-bucket two-rate three-colour markers (RFC 2698, colour-blind),
// the meters P4 switches have (v1model `meter` + `execute_meter`, TNA `Meter.execute`).
//
//   Meter<N, MeterUnit::Bytes>     N meters that count bytes (the frame's length)
//   Meter<N, MeterUnit::Packets>   N meters that count packets (1 per packet)
//
//   configure():  set_rates(i, {.cir, .cburst, .pir, .pburst}), set_all({...})
//   process():    execute(i, pkt) -> Color::Green / Yellow / Red
//
// Rates (cir, pir) are in units per second and bursts (cburst, pburst) in units, as
// P4Runtime's MeterConfig; time is the packet's timestamp in ns (pkt.now()), never a wall
// clock. The exact integer semantics (docs/nf-api.md, "Meters") are what the native build,
// the NF IR interpreter, Tandem's software switch and the server partition all compute:
//
//   tokens(t, r) = floor(t * r / 10^9)                       (exact, in 128 bits)
//   a meter whose four rates and bursts are all 0 is unconfigured: always Green, no change
//   refill, when now > last:  Tc = min(Tc + tokens(now, cir) - tokens(last, cir), cburst)
//                             Tp = min(Tp + tokens(now, pir) - tokens(last, pir), pburst)
//                             last = now
//   n = frame length (bytes) or 1 (packets)
//   Tp < n -> Red;  else Tc < n -> Yellow, Tp -= n;  else Green, Tp -= n, Tc -= n
//   set_rates: Tc = cburst, Tp = pburst (full buckets), last = 0
//
// An index >= N is Green and changes nothing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tandem/packet.hh"

namespace tandem {

/// A meter's verdict (v1model's encoding: 0 green, 1 yellow, 2 red).
enum class Color : uint8_t { Green = 0, Yellow = 1, Red = 2 };

/// What a meter counts.
enum class MeterUnit : uint8_t { Packets = 0, Bytes = 1 };

/// The configuration of one meter: committed and peak rate (units per second) and bursts
/// (units). RFC 2698 asks for pir >= cir; any values are accepted and mean what the
/// semantics above say.
struct MeterRates {
  uint64_t cir = 0;
  uint64_t cburst = 0;
  uint64_t pir = 0;
  uint64_t pburst = 0;
};

}  // namespace tandem

#ifdef TANDEM_ANALYSIS
extern "C" {
uint8_t tandem_api_meter_execute(void* meter, uint64_t index, void* pkt, uint64_t n,
                                 uint64_t unit);
void tandem_api_meter_set_rates(void* meter, uint64_t index, const void* rates, uint64_t n,
                                uint64_t unit);
}
#endif

namespace tandem {

#ifdef TANDEM_ANALYSIS

template <size_t N, MeterUnit U>
class Meter {
  static_assert(N > 0 && N <= (size_t(1) << 24), "Meter: 1 to 2^24 meters");

 public:
  Color execute(size_t i, Packet& pkt) {
    return Color(tandem_api_meter_execute(this, i, &pkt, N, uint64_t(U)));
  }
  // Configuration (configure() is never analysed; in process() the front end refuses it).
  void set_rates(size_t i, const MeterRates& r) {
    tandem_api_meter_set_rates(this, i, &r, N, uint64_t(U));
  }
  void set_all(const MeterRates& r) { tandem_api_meter_set_rates(this, ~uint64_t(0), &r, N, uint64_t(U)); }
  static constexpr size_t size() { return N; }
  static constexpr MeterUnit unit() { return U; }

 private:
  uint64_t opaque_ = 0;
};

#else  // native build

namespace detail {

/// One meter's configuration and state, as state dumps show it (7 little-endian u64s).
struct MeterCell {
  uint64_t cir, cburst, pir, pburst;  // configuration
  uint64_t tc, tp;                    // committed and peak bucket levels
  uint64_t last_ns;                   // time of the last refill
};
static_assert(sizeof(MeterCell) == 56, "MeterCell: 7 words, no padding");

/// floor(t * r / 10^9), exactly.
inline unsigned __int128 meter_tokens(uint64_t t, uint64_t r) {
  return (static_cast<unsigned __int128>(t) * r) / 1000000000u;
}

inline uint64_t meter_refill(uint64_t level, uint64_t burst, uint64_t now, uint64_t last,
                             uint64_t rate) {
  unsigned __int128 add = meter_tokens(now, rate) - meter_tokens(last, rate);
  unsigned __int128 sum = static_cast<unsigned __int128>(level) + add;
  return sum > burst ? burst : static_cast<uint64_t>(sum);
}

inline Color meter_execute(MeterCell& m, uint64_t now, uint64_t n) {
  if ((m.cir | m.cburst | m.pir | m.pburst) == 0) return Color::Green;
  if (now > m.last_ns) {
    m.tc = meter_refill(m.tc, m.cburst, now, m.last_ns, m.cir);
    m.tp = meter_refill(m.tp, m.pburst, now, m.last_ns, m.pir);
    m.last_ns = now;
  }
  if (m.tp < n) return Color::Red;
  m.tp -= n;
  if (m.tc < n) return Color::Yellow;
  m.tc -= n;
  return Color::Green;
}

}  // namespace detail

/// N token-bucket meters (RFC 2698 two-rate three-colour markers, colour-blind).
template <size_t N, MeterUnit U>
class Meter {
  static_assert(N > 0 && N <= (size_t(1) << 24), "Meter: 1 to 2^24 meters");

 public:
  /// Meter `i`'s verdict for this packet (its time and, for byte meters, its length);
  /// Green without any change when i >= N.
  Color execute(size_t i, const Packet& pkt) {
    if (i >= N) return Color::Green;
    return detail::meter_execute(cells_[i], pkt.now(), U == MeterUnit::Bytes ? pkt.length() : 1);
  }
  /// Configures meter `i` (full buckets); does nothing when i >= N. For configure().
  void set_rates(size_t i, const MeterRates& r) {
    if (i >= N) return;
    cells_[i] = detail::MeterCell{r.cir, r.cburst, r.pir, r.pburst, r.cburst, r.pburst, 0};
  }
  /// Configures every meter alike. For configure().
  void set_all(const MeterRates& r) {
    for (size_t i = 0; i < N; ++i) set_rates(i, r);
  }
  static constexpr size_t size() { return N; }
  static constexpr MeterUnit unit() { return U; }

  /// f(index, cell) for every meter that is configured.
  template <class F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < N; ++i) {
      const detail::MeterCell& c = cells_[i];
      if ((c.cir | c.cburst | c.pir | c.pburst | c.tc | c.tp | c.last_ns) != 0) f(uint32_t(i), c);
    }
  }

 private:
  detail::MeterCell cells_[N] = {};
};

#endif

}  // namespace tandem
