// Test NF: counts timer ticks, remembers flows in an expiring map, echoes on port 2.
#include <tandem/nf.hh>

using namespace tandem;

struct FlowKey {
  uint32_t saddr;
  uint32_t daddr;
};

struct Ticker : Element {
  static constexpr Time kTimerInterval = kSecond;
  ExpiringMap<FlowKey, uint32_t, 4, 10 * kSecond> flows;  // idle 10 s, at most 4 flows
  uint64_t ticks = 0;
  uint64_t last_tick = 0;
  uint32_t rejected = 0;

  void configure(Config& cfg) { ticks = cfg.get_u64_or("start_ticks", 0); }

  void on_timer(Time now) {
    ++ticks;
    last_tick = now;
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) return;  // neither send nor drop: dropped
    FlowKey k{ip->saddr, ip->daddr};
    uint32_t count = 0;
    flows.lookup(k, count);
    if (!flows.insert(k, count + 1)) ++rejected;
    pkt.send(2);
  }
};

TANDEM_NF(Ticker, flows, ticks, last_tick, rejected)
