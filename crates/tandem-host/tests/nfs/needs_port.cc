// Test NF whose configure() requires keys, to check configuration errors.
#include <tandem/nf.hh>

struct NeedsPort : tandem::Element {
  uint16_t port = 0;
  uint32_t addr = 0;
  void configure(tandem::Config& cfg) {
    port = cfg.get_u16("port");
    addr = cfg.get_ipv4("server.addr");
  }
  void process(tandem::Packet& pkt) { pkt.send(port); }
};

TANDEM_NF(NeedsPort, port, addr)
