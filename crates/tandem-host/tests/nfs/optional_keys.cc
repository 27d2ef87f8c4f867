// Every `*_or(key, default)` getter docs/nf-api.md lists: the NF sends each packet to the
// port `configure()` computed from them (defaults: 1 + 2 + 3 + 4 + 5 + 1 + 1 + 1 + 1 = 19
// when the address default is taken and the float default is 0.5).
#include <tandem/nf.hh>
using namespace tandem;

struct OptionalKeys : Element {
  uint32_t port = 0;
  void configure(Config& cfg) {
    uint32_t p = uint32_t(cfg.get_int_or("a", 1)) + uint32_t(cfg.get_u64_or("b", 2)) +
                 cfg.get_u32_or("c", 3) + cfg.get_u16_or("d", 4) + cfg.get_u8_or("e", 5);
    p += cfg.get_bool_or("f", true) ? 1 : 0;
    p += cfg.get_float_or("g", 0.5) == 0.5 ? 1 : 0;
    p += cfg.get_string_or("h", "x") == "x" ? 1 : 0;
    p += cfg.get_ipv4_or("i", ipv4_addr(10, 0, 0, 1)) == ipv4_addr(10, 0, 0, 1) ? 1 : 0;
    port = p;
  }
  void process(Packet& pkt) { pkt.send(port); }
};
TANDEM_NF(OptionalKeys, port)
