// RateLimit — a per-source-address rate limiter (a policer) on the switch's meters.
//
// Every IPv4 packet is metered by its source address with a two-rate three-colour marker
// (RFC 2698, bytes): red packets are dropped, yellow ones are forwarded with their DSCP
// re-marked (the IPv4 checksum updated incrementally, RFC 1624), green ones are forwarded
// unchanged. Configured hosts have a meter of their own with their own rates; every other
// source shares one of 4096 meters picked by the CRC-32 of its address (sources whose hashes
// collide share a bucket). The limiter is a bump in the wire: port 0 <-> port 1; frames that
// are not IPv4 pass unmetered. Rates come from the configuration; process() only executes
// meters and reads the host table, so the whole NF runs on the switch.
#include <tandem/nf.hh>

using namespace tandem;

struct RateLimit : Element {
  static constexpr uint32_t kHosts = 64;    // meters 0..63: configured hosts
  static constexpr uint32_t kPool = 4096;   // meters 64..: every other source, by hash
  Meter<kHosts + kPool, MeterUnit::Bytes> meters;
  HashMap<uint32_t, uint16_t, kHosts> hosts;  // source address (host order) -> its meter
  uint8_t yellow_dscp = 14;                   // AF13: high drop precedence

  static MeterRates rates(Config& cfg, const std::string& at) {
    MeterRates r{cfg.get_u64(at + ".cir"), cfg.get_u64(at + ".cburst"), cfg.get_u64(at + ".pir"),
                 cfg.get_u64(at + ".pburst")};
    if (r.pir < r.cir) cfg.fail(at + ".pir", "the peak rate is at least the committed rate");
    return r;
  }

  void configure(Config& cfg) {
    meters.set_all(rates(cfg, "default"));
    uint32_t dscp = cfg.get_u32_or("yellow_dscp", 14);
    if (dscp > 63) cfg.fail("yellow_dscp", "a DSCP is 0..63");
    yellow_dscp = uint8_t(dscp);
    uint32_t n = cfg.len("hosts");
    if (n > kHosts) cfg.fail("hosts", "at most 64 hosts have meters of their own");
    for (uint32_t i = 0; i < n; ++i) {
      std::string h = "hosts[" + std::to_string(i) + "]";
      hosts.insert(ntohl(cfg.get_ipv4(h + ".addr")), uint16_t(i));
      meters.set_rates(i, rates(cfg, h));
    }
  }

  void process(Packet& pkt) {
    uint32_t out = pkt.in_port() == 0 ? 1 : 0;
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) {
      pkt.send(out);
      return;
    }
    uint32_t src = ntohl(ip->saddr);
    uint32_t m = kHosts + (crc32(src) & (kPool - 1));
    if (const uint16_t* h = hosts.find(src)) m = *h;
    Color c = meters.execute(m, pkt);
    if (c == Color::Red) {
      pkt.drop();
      return;
    }
    if (c == Color::Yellow) {
      // DSCP is the top six bits of the TOS byte, which shares a checksum word with
      // version/IHL.
      uint16_t old_word = htons(uint16_t(ip->version_ihl) << 8 | ip->tos);
      ip->tos = uint8_t(yellow_dscp << 2 | (ip->tos & 3));
      uint16_t new_word = htons(uint16_t(ip->version_ihl) << 8 | ip->tos);
      ip->check = csum_update2(ip->check, old_word, new_word);
    }
    pkt.send(out);
  }
};

TANDEM_NF(RateLimit, meters, hosts, yellow_dscp)
