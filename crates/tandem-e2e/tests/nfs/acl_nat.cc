// A 1:1 NAT behind an ACL, written from docs/nf-api.md: traffic from the outside port is
// matched against a ternary ACL (src/dst with masks, priority); denied packets are dropped,
// every matched rule counted in a 64-bit per-rule counter (`rule_hits[id] += 1`); allowed ones
// have their destination rewritten from the public address to the private one (the reverse
// for replies), with IP/TCP/UDP checksums updated.
#include <tandem/nf.hh>
using namespace tandem;

struct AclKey {
  uint32_t src;
  uint32_t dst;
};

struct AclRule {
  uint16_t rule_id;
  uint8_t permit;
  uint8_t pad;
};

struct AclNat : Element {
  TernaryMap<AclKey, AclRule, 256> acl;
  HashMap<uint32_t, uint32_t, 4096> pub_to_priv;
  HashMap<uint32_t, uint32_t, 4096> priv_to_pub;
  Vector<uint64_t, 256> rule_hits;
  uint64_t translated = 0;
  uint16_t inside_port = 1;
  uint16_t outside_port = 0;

  void configure(Config& cfg) {
    inside_port = cfg.get_u16_or("inside_port", 1);
    outside_port = cfg.get_u16_or("outside_port", 0);
    for (uint32_t i = 0; i < cfg.len("nat"); ++i) {
      std::string k = "nat[" + std::to_string(i) + "]";
      uint32_t pub = cfg.get_ipv4(k + ".public"), priv = cfg.get_ipv4(k + ".private");
      pub_to_priv.insert(pub, priv);
      priv_to_pub.insert(priv, pub);
    }
    for (uint32_t i = 0; i < cfg.len("acl"); ++i) {
      std::string k = "acl[" + std::to_string(i) + "]";
      AclKey key{cfg.get_ipv4(k + ".src"), cfg.get_ipv4(k + ".dst")};
      AclKey mask{cfg.get_ipv4(k + ".src_mask"), cfg.get_ipv4(k + ".dst_mask")};
      AclRule r{uint16_t(i), uint8_t(cfg.get_bool(k + ".permit") ? 1 : 0), 0};
      acl.insert(key, mask, cfg.get_u32(k + ".priority"), r);
    }
    for (uint32_t i = 0; i < 256; ++i) rule_hits.push_back(0);
  }

  void rewrite(Packet& pkt, Ipv4Hdr* ip, uint32_t* field, uint32_t to) {
    uint32_t from = *field;
    *field = to;
    ip->check = csum_update4(ip->check, from, to);
    if (TcpHdr* t = pkt.tcp()) t->check = csum_update4(t->check, from, to);
    else if (UdpHdr* u = pkt.udp()) { if (u->check) u->check = udp_csum_update4(u->check, from, to); }
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) { pkt.drop(); return; }
    if (pkt.in_port() == outside_port) {
      AclRule r;
      if (acl.lookup(AclKey{ip->saddr, ip->daddr}, r)) {
        rule_hits[r.rule_id] += 1;
        if (!r.permit) { pkt.drop(); return; }
      }
      const uint32_t* priv = pub_to_priv.find(ip->daddr);
      if (!priv) { pkt.drop(); return; }
      rewrite(pkt, ip, &ip->daddr, *priv);
      translated++;
      pkt.send(inside_port);
    } else {
      const uint32_t* pub = priv_to_pub.find(ip->saddr);
      if (pub) { rewrite(pkt, ip, &ip->saddr, *pub); translated++; }
      pkt.send(outside_port);
    }
  }
};

TANDEM_NF(AclNat, acl, pub_to_priv, priv_to_pub, rule_hits, translated, inside_port, outside_port)
