// Test NF: a timer that writes every kind of switch copy, ticking every millisecond.
//   hits      vector the switch increments (fused read-modify-write): reset every tick
//   steer     map the switch reads, written only by on_timer (insert/erase by turns):
//             a replicated table, updated in the tick's atomic batch
//   phase     scalar the switch only reads, flipped by on_timer: a register write
//   ticks     scalar only on_timer touches (server only)
// process() counts each packet in hits[dport % 64], steers TCP port 80 to steer's port
// while it has an entry, marks the TTL with the phase, and sends heavy buckets to port 2.
#include <tandem/nf.hh>
using namespace tandem;

struct TimerSync : Element {
  static constexpr Time kTimerInterval = kMillisecond;
  Vector<uint32_t, 64> hits;
  HashMap<uint16_t, uint16_t, 16> steer;
  uint32_t phase = 0;
  uint64_t ticks = 0;

  void configure(Config&) {
    for (uint32_t i = 0; i < 64; ++i) hits.push_back(0);
  }

  void on_timer(Time) {
    for (uint32_t i = 0; i < 64; ++i) hits[i] = 0;
    ticks += 1;
    phase = phase ^ 1;
    if (phase) {
      steer.insert(80, 3);
    } else {
      steer.erase(80);
    }
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    TcpHdr* tcp = pkt.tcp();
    if (ip == nullptr || tcp == nullptr) {
      pkt.send(1);
      return;
    }
    uint16_t dport = ntohs(tcp->dport);
    uint32_t n = hits[dport & 63] += 1;
    ip->ttl = uint8_t(phase ? 33 : 44);
    if (const uint16_t* to = steer.find(dport)) {
      pkt.send(*to);
      return;
    }
    pkt.send(n > 40 ? 2 : 1);
  }
};

TANDEM_NF(TimerSync, hits, steer, phase, ticks)
