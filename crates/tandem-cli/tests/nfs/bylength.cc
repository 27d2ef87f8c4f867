// Frames longer than 200 bytes leave by port 1, the others by port 0; bytes are counted.
// TNA's ingress has no frame length, so on `--target tna` the read is planned on the server.
#include <tandem/nf.hh>
using namespace tandem;

struct ByLength : Element {
  uint64_t bytes = 0;
  void configure(Config&) {}
  void process(Packet& pkt) {
    bytes += pkt.length();
    pkt.send(pkt.length() > 200 ? 1 : 0);
  }
};
TANDEM_NF(ByLength, bytes)
