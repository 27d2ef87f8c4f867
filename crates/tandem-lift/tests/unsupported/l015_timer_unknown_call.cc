// expect: L015 on_timer() calls `report_epoch`
#include <tandem/nf.hh>
extern "C" void report_epoch(uint32_t epoch);  // a library the NF links with
struct Nf : tandem::Element {
  static constexpr tandem::Time kTimerInterval = tandem::kSecond;
  uint32_t epoch = 0;
  void on_timer(tandem::Time) {
    epoch += 1;
    report_epoch(epoch);
  }
  void process(tandem::Packet& pkt) { pkt.send(1); }
};
TANDEM_NF(Nf, epoch)
