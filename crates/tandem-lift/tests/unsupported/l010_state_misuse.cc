// expect: L010 state member `key` is accessed in parts, but it is 16 bytes
#include <tandem/nf.hh>
// A member wider than 8 bytes is not one scalar: reading a byte inside it is refused (a
// member of up to 8 bytes read in parts, such as `uint8_t mac[6]`, is one scalar).
struct Nf : tandem::Element {
  uint8_t key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  void process(tandem::Packet& pkt) { pkt.send(key[2]); }
};
TANDEM_NF(Nf, key)
