// Issue 14, the partitioner's cliff: a SYN-flood guard as a new user writes it. Its cut to the
// server needs more than tofino1's 20 transfer-header bytes; the refinement must shrink the cut
// without moving what every packet runs (the `out_port` load of `send`) to the server.
#include <tandem/nf.hh>
using namespace tandem;

struct FlowKey { uint32_t saddr, daddr; uint16_t sport, dport; };
struct Counter { uint32_t syns; uint32_t pad; };

struct SynGuard : Element {
  HashMap<uint32_t, Counter, 65536> syn_count;       // per source
  HashMap<FlowKey, uint32_t, 65536> established;     // handshakes completed
  uint32_t threshold = 100;
  uint32_t out_port = 1;

  void configure(Config& cfg) {
    threshold = cfg.get_u32_or("threshold", 100);
    out_port = cfg.get_u32_or("out_port", 1);
  }

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    TcpHdr* tcp = pkt.tcp();
    if (ip == nullptr || tcp == nullptr) { pkt.send(out_port); return; }
    FlowKey k{ip->saddr, ip->daddr, tcp->sport, tcp->dport};
    bool syn = (tcp->flags & kTcpSyn) && !(tcp->flags & kTcpAck);
    if (syn) {
      Counter c{0, 0};
      if (const Counter* old = syn_count.find(ip->saddr)) c = *old;
      c.syns += 1;
      syn_count.insert(ip->saddr, c);
      if (c.syns > threshold) { pkt.drop(); return; }
      pkt.send(out_port);
      return;
    }
    if (tcp->flags & kTcpAck) {
      if (!established.contains(k)) established.insert(k, 1);
    }
    if (tcp->flags & (kTcpFin | kTcpRst)) established.erase(k);
    pkt.send(out_port);
  }
};
TANDEM_NF(SynGuard, syn_count, established, threshold, out_port)
