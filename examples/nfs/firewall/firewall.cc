// Firewall — the whitelist firewall of the Gallium paper (SIGCOMM'20, §6.1), adapted from
// the Click paper's example.
//
// Stateless: a TCP or UDP packet passes (port 0 -> 1, port 1 -> 0) when a configured rule
// admits it in either orientation — as written (src -> dst) or reversed (the rule's dst
// answering its src); everything else is dropped (non-IPv4, other protocols, other ports).
//
// A rule names proto and dport, and optionally dst, src and sport, in one of four shapes:
//   proto dport                      any host's service        (shape 0)
//   proto dst dport                  one server's service      (shape 1)
//   proto src dst dport              one client to a service   (shape 2)
//   proto src dst sport dport        an exact five-tuple       (shape 3)
// All rules live in one exact-match HashMap whose key carries the shape, the given fields,
// and zeros for the wildcards; a packet is checked with at most four lookups per
// orientation (one per shape in use), straight-line code that maps to switch tables.
#include <tandem/nf.hh>

using namespace tandem;

struct RuleKey {
  uint32_t saddr;  // network order; 0 = any
  uint32_t daddr;  // network order; 0 = any
  uint16_t sport;  // network order; 0 = any
  uint16_t dport;  // network order
  uint8_t proto;
  uint8_t shape;
  uint8_t pad[2];
};
static_assert(sizeof(RuleKey) == 16);

struct Firewall : Element {
  HashMap<RuleKey, uint32_t, 4096> rules;  // rule key -> rule number (config order, from 0)
  uint32_t shapes = 0;                     // bit s set: some rule has shape s

  void configure(Config& cfg) {
    uint32_t n = cfg.len("rules");
    for (uint32_t i = 0; i < n; ++i) {
      std::string r = "rules[" + std::to_string(i) + "]";
      std::string p = cfg.get_string(r + ".proto");
      uint8_t proto = p == "tcp" ? kIpProtoTcp : p == "udp" ? kIpProtoUdp : 0;
      if (proto == 0) cfg.fail(r + ".proto", "expected \"tcp\" or \"udp\", found \"" + p + "\"");
      RuleKey k{0, 0, 0, htons(cfg.get_u16(r + ".dport")), proto, 0, {0, 0}};
      bool has_src = cfg.has(r + ".src"), has_dst = cfg.has(r + ".dst"),
           has_sport = cfg.has(r + ".sport");
      if (has_dst) k.daddr = cfg.get_ipv4(r + ".dst");
      if (has_src) k.saddr = cfg.get_ipv4(r + ".src");
      if (has_sport) k.sport = htons(cfg.get_u16(r + ".sport"));
      if (!has_src && !has_dst && !has_sport) k.shape = 0;
      else if (!has_src && has_dst && !has_sport) k.shape = 1;
      else if (has_src && has_dst && !has_sport) k.shape = 2;
      else if (has_src && has_dst && has_sport) k.shape = 3;
      else
        cfg.fail(r, "unsupported combination: give proto+dport, optionally dst, then src, then sport");
      if (!rules.insert(k, i)) cfg.fail(r, "more than 4096 rules");
      shapes |= 1u << k.shape;
    }
  }

  // Does a rule admit a packet with this (oriented) five-tuple?
  bool admits(uint32_t s, uint32_t d, uint16_t sp, uint16_t dp, uint8_t proto) const {
    if ((shapes & 1) && rules.contains(RuleKey{0, 0, 0, dp, proto, 0, {0, 0}})) return true;
    if ((shapes & 2) && rules.contains(RuleKey{0, d, 0, dp, proto, 1, {0, 0}})) return true;
    if ((shapes & 4) && rules.contains(RuleKey{s, d, 0, dp, proto, 2, {0, 0}})) return true;
    if ((shapes & 8) && rules.contains(RuleKey{s, d, sp, dp, proto, 3, {0, 0}})) return true;
    return false;
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) return pkt.drop();
    TcpHdr* tcp = pkt.tcp();
    UdpHdr* udp = pkt.udp();
    if (tcp == nullptr && udp == nullptr) return pkt.drop();
    uint16_t sport = tcp ? tcp->sport : udp->sport;
    uint16_t dport = tcp ? tcp->dport : udp->dport;
    uint32_t in = pkt.in_port();
    if (in > 1) return pkt.drop();
    if (admits(ip->saddr, ip->daddr, sport, dport, ip->protocol) ||
        admits(ip->daddr, ip->saddr, dport, sport, ip->protocol))
      return pkt.send(1 - in);
    pkt.drop();
  }
};

TANDEM_NF(Firewall, rules, shapes)
