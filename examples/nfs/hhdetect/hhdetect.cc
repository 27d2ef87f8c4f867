// HhDetect: a heavy-hitter detector with measurement epochs. A count-min sketch of two rows
// of CRC-indexed counters counts each host pair's packets (source and destination address);
// every epoch (`kTimerInterval` of packet time) on_timer() resets the sketch, so a heavy
// hitter is a host pair that sends more than `threshold` packets within one epoch. Heavy
// hitters' packets are steered to `heavy_port` (a scrubber), the others leave on `out_port`.
// `epochs` counts the resets.
//
// Offloaded, process() runs on the switch (two hashes, two register read-modify-writes);
// on_timer() runs on the server at each tick, and the runtime resets the switch's registers
// (control-plane register writes) before the packet that passed the tick enters the switch.
#include <tandem/nf.hh>
using namespace tandem;

struct HhDetect : Element {
  static constexpr Time kTimerInterval = 10 * kMillisecond;  // one epoch
  static constexpr uint32_t kWidth = 1024;                   // counters per row
  Vector<uint32_t, kWidth> by_crc32;
  Vector<uint32_t, kWidth> by_crc16;
  uint32_t threshold = 64;
  uint32_t out_port = 1;
  uint32_t heavy_port = 2;
  uint64_t epochs = 0;

  void configure(Config& cfg) {
    for (uint32_t i = 0; i < kWidth; ++i) {
      by_crc32.push_back(0);
      by_crc16.push_back(0);
    }
    threshold = cfg.get_u32_or("threshold", 64);
    out_port = cfg.get_u32_or("out_port", 1);
    heavy_port = cfg.get_u32_or("heavy_port", 2);
  }

  // A new epoch: forget every count.
  void on_timer(Time) {
    for (uint32_t i = 0; i < kWidth; ++i) {
      by_crc32[i] = 0;
      by_crc16[i] = 0;
    }
    epochs += 1;
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) {
      pkt.send(out_port);
      return;
    }
    uint32_t saddr = ntohl(ip->saddr), daddr = ntohl(ip->daddr);
    uint32_t a = by_crc32[crc32(saddr, daddr) % kWidth] += 1;
    uint32_t b = by_crc16[crc16(saddr, daddr) % kWidth] += 1;
    uint32_t estimate = a < b ? a : b;
    pkt.send(estimate > threshold ? heavy_port : out_port);
  }
};

TANDEM_NF(HhDetect, by_crc32, by_crc16, threshold, out_port, heavy_port, epochs)
