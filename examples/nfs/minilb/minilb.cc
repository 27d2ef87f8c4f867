// MiniLB — the running example of the Gallium paper (SIGCOMM'20, §4).
//
// Steers each connection to a backend by rewriting the IPv4 destination address. The backend
// is chosen by hashing the source and destination addresses over the backend list; the
// choice is remembered in `map` so a connection keeps its backend even if the list changes.
// Like the paper's version, MiniLB never forgets a connection.
#include <tandem/nf.hh>

using namespace tandem;

struct MiniLB : Element {
  HashMap<uint16_t, uint32_t, 65536> map;  // hash key -> backend address (network order)
  Vector<uint32_t, 64> backends;           // backend addresses (network order)
  uint32_t out_port = 1;

  void configure(Config& cfg) {
    uint32_t n = cfg.len("backends");
    if (n == 0) cfg.fail("backends", "needs at least one backend address");
    for (uint32_t i = 0; i < n; ++i) {
      std::string key = "backends[" + std::to_string(i) + "]";
      if (!backends.push_back(cfg.get_ipv4(key))) cfg.fail(key, "more than 64 backends");
    }
    out_port = cfg.get_u32_or("out_port", 1);
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) {
      pkt.drop();
      return;
    }
    uint32_t hash32 = ip->saddr ^ ip->daddr;
    uint16_t key = uint16_t(hash32 & 0xFFFF);
    uint32_t old_daddr = ip->daddr;
    const uint32_t* bk_addr = map.find(key);
    uint32_t backend;
    if (bk_addr != nullptr) {
      backend = *bk_addr;
    } else {
      uint32_t idx = hash32 % uint32_t(backends.size());
      backend = backends[idx];
      map.insert(key, backend);
    }
    ip->daddr = backend;
    ip->check = csum_update4(ip->check, old_daddr, backend);
    if (TcpHdr* tcp = pkt.tcp()) tcp->check = csum_update4(tcp->check, old_daddr, backend);
    if (UdpHdr* udp = pkt.udp()) udp->check = udp_csum_update4(udp->check, old_daddr, backend);
    pkt.send(out_port);
  }
};

TANDEM_NF(MiniLB, map, backends, out_port)
