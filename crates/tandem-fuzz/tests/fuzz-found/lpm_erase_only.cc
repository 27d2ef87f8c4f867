// Found by tandem-fuzz (seed 70217 of the 300-NF run at seed 70000, minimised): a MISMATCH
// (final state) on every profile, FIXED. An LpmMap that process() only erases from lost its
// values: the analysis build's `tandem_api_lpm_erase` did not pass sizeof(V), so the state the
// front end declared had an empty value layout and the offloaded primary copy dumped the
// configure() entries without their values (the HashMap twin of this bug is
// erase_only_map.cc). `lpm_erase` now passes the value size (nfapi/include/tandem/lpm.hh,
// crates/tandem-lift/src/translate/helpers.rs).
#include <tandem/nf.hh>
using namespace tandem;

struct V {
  int32_t f0;
  uint16_t f1;
  int16_t f2;
};

struct LpmErase : Element {
  LpmMap<uint32_t, V, 4> l0;
  void configure(Config&) { l0.insert(0x0a000100u, 24, V{1, 0, 0}); }
  void process(Packet& pkt) {
    pkt.send(0);
    if (pkt.length() == 12345) l0.erase(5u, 19u);
  }
};

TANDEM_NF(LpmErase, l0)
