// expect: L010 state member `word` is accessed at an inner offset
#include <tandem/nf.hh>
#include <cstring>
struct Nf : tandem::Element {
  uint32_t word = 0x01020304;
  void process(tandem::Packet& pkt) {
    uint8_t b;
    std::memcpy(&b, reinterpret_cast<uint8_t*>(&word) + 2, 1);
    pkt.send(b);
  }
};
TANDEM_NF(Nf, word)
