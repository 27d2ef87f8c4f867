// Test variant of examples/nfs/vlantrunk (see there). VLAN trunk port: frames from the access side (port 0) are tagged with the 802.1Q VLAN of
// their source subnet and sent to the trunk (port 1); tagged frames from the trunk lose their
// tag and go to the access side. Untagged frames on the trunk, and access frames from a
// subnet without a VLAN, are dropped. A per-VLAN packet counter is a register on the switch.
#include <tandem/nf.hh>
using namespace tandem;

// 802.1Q: priority, DEI and VLAN id in `tci`; the EtherType of what follows.
struct VlanHdr {
  uint16_t tci;
  uint16_t ethertype;
};
TANDEM_HEADER(VlanHdr, tci, ethertype)

constexpr uint16_t kEtherTypeVlan = 0x8100;

struct VlanTrunk : Element {
  LpmMap<uint32_t, uint16_t, 1024> vlan_of;  // source subnet (host order) -> VLAN id
  Vector<uint32_t, 4096> vlan_pkts;          // packets per VLAN id, both directions
  uint32_t access_port = 0;
  uint32_t trunk_port = 1;

  void configure(Config& cfg) {
    access_port = cfg.get_u32_or("access_port", 0);
    trunk_port = cfg.get_u32_or("trunk_port", 1);
    for (uint32_t i = 0; i < vlan_pkts.capacity(); ++i) vlan_pkts.push_back(0);
    uint32_t n = cfg.len("vlans");
    for (uint32_t i = 0; i < n; ++i) {
      std::string v = "vlans[" + std::to_string(i) + "]";
      uint32_t len = cfg.get_u32(v + ".len");
      if (len > 32) cfg.fail(v + ".len", "a prefix length is 0..32");
      uint32_t vid = cfg.get_u32(v + ".vid");
      if (vid == 0 || vid > 4094) cfg.fail(v + ".vid", "a VLAN id is 1..4094");
      if (!vlan_of.insert(ntohl(cfg.get_ipv4(v + ".subnet")), len, uint16_t(vid)))
        cfg.fail(v, "too many VLAN subnets");
    }
  }

  // Two counter updates per branch (the VLAN's and the all-VLANs total in slot 4095): two
  // accesses to one register on one path do not fit one switch pass, so one update per
  // branch, and the pushes and pops after it, run on the server. (Updates in different
  // branches would not compete: no packet runs both.)
  void process(Packet& pkt) {
    EthHdr* eth = pkt.eth();
    if (eth == nullptr) {
      pkt.drop();
      return;
    }
    if (pkt.in_port() == trunk_port) {
      VlanHdr* tag = pkt.header<VlanHdr>();
      if (tag == nullptr) {
        pkt.drop();
        return;
      }
      vlan_pkts[ntohs(tag->tci) & 0x0fff] += 1;
      vlan_pkts[4095] += 1;
      eth->ethertype = tag->ethertype;
      pkt.pop<VlanHdr>();
      pkt.send(access_port);
      return;
    }
    Ipv4Hdr* ip = pkt.ip();
    const uint16_t* vid = ip ? vlan_of.find(ntohl(ip->saddr)) : nullptr;
    if (vid == nullptr) {
      pkt.drop();
      return;
    }
    vlan_pkts[*vid] += 1;
    vlan_pkts[4095] += 1;
    VlanHdr* tag = pkt.push<VlanHdr>();
    tag->tci = htons(*vid);
    tag->ethertype = eth->ethertype;
    eth->ethertype = htons(kEtherTypeVlan);
    pkt.send(trunk_port);
  }
};

TANDEM_NF(VlanTrunk, vlan_of, vlan_pkts, access_port, trunk_port)
TANDEM_PARSE(VlanTrunk, TANDEM_EDGE(EthHdr, ethertype, 0x8100, VlanHdr),
             TANDEM_EDGE(VlanHdr, ethertype, 0x0800, Ipv4Hdr))
