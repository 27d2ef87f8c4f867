// expect: L101 `classify` is kept as an opaque call
#include <tandem/nf.hh>
extern "C" int classify(const uint8_t* bytes, uint32_t len);  // a library the NF links with
struct Nf : tandem::Element {
  uint32_t port = 1;
  void process(tandem::Packet& pkt) {
    if (classify(pkt.payload(), pkt.payload_len()) == 3) pkt.drop();
    else pkt.send(port);
  }
};
TANDEM_NF(Nf, port)
