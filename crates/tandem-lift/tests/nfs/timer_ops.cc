// Test NF: every kind of state touched by on_timer, ticking every millisecond. process()
// counts packets per port in a vector, remembers flows in a map and an expiring map, and
// stamps the TTL with the epoch; on_timer() halves the counters (a loop reading and writing
// each element), erases and inserts a fixed key, ages the expiring map by looking it up, and
// bumps the epoch from `now`.
#include <tandem/nf.hh>
using namespace tandem;

struct TimerOps : Element {
  static constexpr Time kTimerInterval = kMillisecond;
  Vector<uint32_t, 16> per_port;
  HashMap<uint32_t, uint32_t, 1024> flows;
  ExpiringMap<uint32_t, uint32_t, 64, 3 * kMillisecond> recent;
  uint32_t epoch = 0;
  uint64_t last_tick = 0;
  uint32_t ticks_seen = 0;

  void configure(Config&) {
    for (uint32_t i = 0; i < 16; ++i) per_port.push_back(0);
  }

  void on_timer(Time now) {
    for (uint32_t i = 0; i < per_port.size(); ++i) per_port[i] = per_port[i] / 2;
    uint32_t key = 0x0a000001;
    if (epoch % 2 == 0) {
      flows.erase(key);
    } else {
      flows.insert(key, epoch);
    }
    if (recent.contains(7)) ticks_seen += 1;
    epoch = uint32_t(now / kMillisecond);
    last_tick = now;
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) {
      pkt.drop();
      return;
    }
    per_port[pkt.in_port() & 15] += 1;
    uint32_t s = ntohl(ip->saddr);
    uint32_t n = 0;
    flows.lookup(s, n);
    flows.insert(s, n + 1);
    recent.insert(s & 7, epoch);
    ip->ttl = uint8_t(epoch);
    pkt.send(1);
  }
};

TANDEM_NF(TimerOps, per_port, flows, recent, epoch, last_tick, ticks_seen)
