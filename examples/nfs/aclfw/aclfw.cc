// AclFw: an ACL firewall. Ports are classified by range (RangeMaps: 80, 443 and 8080 are
// "web", 22 "ssh", 3306 and 6379 "db", 53 "dns", other ports below 32768 "registered", the
// rest "ephemeral"), then rules match the IPv4 addresses (prefixes), the protocol, both
// port classes and the ingress port ternary-wise (TernaryMap: any field may be wildcarded)
// with priorities; the highest-priority matching rule allows the packet out on its port or
// denies it. No rule matches: denied. `denied` counts denied packets.
//
// Offloaded, everything runs on the switch: two `range` tables, one `ternary` table with
// entry priorities, and one register read-modify-write (`denied`).
#include <tandem/nf.hh>
using namespace tandem;

struct PortClass {
  uint8_t cls;
};

struct AclKey {
  uint32_t saddr;  // host order
  uint32_t daddr;
  uint8_t proto;
  uint8_t sclass;  // the source port's class (0: none)
  uint8_t dclass;
  uint8_t in_port;
};

struct AclAction {
  uint16_t port;
  uint16_t allow;
};

struct AclFw : Element {
  RangeMap<uint16_t, PortClass, 64> src_class;
  RangeMap<uint16_t, PortClass, 64> dst_class;
  TernaryMap<AclKey, AclAction, 256> rules;
  uint32_t denied = 0;

  void configure(Config& cfg) {
    for (uint32_t i = 0; i < cfg.len("port_classes"); ++i) {
      std::string p = "port_classes[" + std::to_string(i) + "].";
      uint16_t lo = cfg.get_u16(p + "lo"), hi = cfg.get_u16(p + "hi");
      PortClass c{cfg.get_u8(p + "class")};
      uint32_t prio = cfg.get_u32(p + "priority");
      if (!src_class.insert(lo, hi, prio, c) || !dst_class.insert(lo, hi, prio, c))
        cfg.fail(p + "priority", "a duplicate priority, an empty range or too many classes");
    }
    for (uint32_t i = 0; i < cfg.len("rules"); ++i) {
      std::string r = "rules[" + std::to_string(i) + "].";
      // A field the rule leaves out matches anything (mask 0).
      auto field = [&](const std::string& k, uint8_t& v, uint8_t& m) {
        v = cfg.has(r + k) ? cfg.get_u8(r + k) : 0;
        m = cfg.has(r + k) ? uint8_t(cfg.get_u32_or(r + k + "_mask", 0xff)) : 0;
      };
      auto prefix = [&](const std::string& k, uint32_t& v, uint32_t& m) {
        uint32_t len = cfg.get_u32_or(r + k + "_len", cfg.has(r + k) ? 32 : 0);
        if (len > 32) cfg.fail(r + k + "_len", "a prefix length is 0 to 32");
        v = cfg.has(r + k) ? ntohl(cfg.get_ipv4(r + k)) : 0;
        m = len == 0 ? 0 : ~0u << (32 - len);
      };
      AclKey key{}, mask{};
      prefix("src", key.saddr, mask.saddr);
      prefix("dst", key.daddr, mask.daddr);
      field("proto", key.proto, mask.proto);
      field("sclass", key.sclass, mask.sclass);
      field("dclass", key.dclass, mask.dclass);
      field("in_port", key.in_port, mask.in_port);
      bool allow = cfg.get_string(r + "action") == "allow";
      AclAction a{cfg.get_u16_or(r + "port", 0), uint16_t(allow ? 1 : 0)};
      if (!rules.insert(key, mask, cfg.get_u32(r + "priority"), a))
        cfg.fail(r + "priority", "a duplicate priority, or too many rules");
    }
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) {
      pkt.drop();
      return;
    }
    uint16_t sport = 0, dport = 0;
    if (TcpHdr* tcp = pkt.tcp()) {
      sport = ntohs(tcp->sport);
      dport = ntohs(tcp->dport);
    } else if (UdpHdr* udp = pkt.udp()) {
      sport = ntohs(udp->sport);
      dport = ntohs(udp->dport);
    }
    PortClass sc{0}, dc{0};
    src_class.lookup(sport, sc);
    dst_class.lookup(dport, dc);
    AclKey k{ntohl(ip->saddr), ntohl(ip->daddr), ip->protocol, sc.cls, dc.cls,
             uint8_t(pkt.in_port())};
    AclAction a{0, 0};
    if (!rules.lookup(k, a) || !a.allow) {
      denied += 1;
      pkt.drop();
      return;
    }
    pkt.send(a.port);
  }
};

TANDEM_NF(AclFw, src_class, dst_class, rules, denied)
