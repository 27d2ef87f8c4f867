// Port-based service classifier (written from the docs): a switch statement on the protocol,
// `counts[3] += 1` at a constant index (one register read-modify-write), a constexpr table of
// well-known ports scanned in a constant loop, per-class packet counters, and a VLAN-less
// "mirror to port 2" for DNS.
#include <tandem/nf.hh>
using namespace tandem;

static constexpr uint16_t kWeb[4] = {80, 443, 8080, 8443};

struct PortFw : Element {
  Vector<uint32_t, 4> counts;
  void configure(Config&) { for (int i = 0; i < 4; ++i) counts.push_back(0); }

  static bool is_web(uint16_t p) {
    for (int i = 0; i < 4; ++i)
      if (kWeb[i] == p) return true;
    return false;
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    if (!ip) { pkt.drop(); return; }
    uint32_t cls;
    switch (ip->protocol) {
      case 6: {
        TcpHdr* t = pkt.tcp();
        cls = (t && is_web(ntohs(t->dport))) ? 1 : 2;
        break;
      }
      case 17: {
        UdpHdr* u = pkt.udp();
        if (u && ntohs(u->dport) == 53) { counts[3] += 1; pkt.send(2); return; }
        cls = 2;
        break;
      }
      case 1:
        cls = 0;
        break;
      default:
        pkt.drop();
        return;
    }
    counts[cls] += 1;
    pkt.send(cls == 1 ? 1 : 3);
  }
};

TANDEM_NF(PortFw, counts)
