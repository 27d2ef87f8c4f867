// expect: L007 a call to `operator new[](unsigned long)`
#include <tandem/nf.hh>
extern "C" uint32_t checksum_words(const uint32_t* words, uint32_t n);
struct Nf : tandem::Element {
  uint32_t port = 1;
  void process(tandem::Packet& pkt) {
    uint32_t n = pkt.length() / 4;
    uint32_t* words = new uint32_t[n];
    pkt.send(port + (checksum_words(words, n) & 1));
    delete[] words;
  }
};
TANDEM_NF(Nf, port)
