// Test NF that does not compile: the host must show clang's diagnostics and the file.
#include <tandem/nf.hh>

struct Broken : tandem::Element {
  void process(tandem::Packet& pkt) { pkt.sendd(1); }
};

TANDEM_NF(Broken)
