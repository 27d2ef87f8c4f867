// Tandem NF API: the packet an NF processes.
//
// Header accessors return nullptr when the header is absent or the frame is too short for it,
// so an NF that checks the pointer never reads out of bounds:
//   eth()  — frame length >= 14
//   ip()   — eth present, ethertype 0x0800, length >= 34, version 4, IHL >= 5 and the whole
//            IPv4 header (IHL*4 bytes) inside the frame
//   tcp()  — ip present, protocol 6 and 20 bytes of TCP header after the IPv4 header
//   udp()  — ip present, protocol 17 and 8 bytes of UDP header after the IPv4 header
// Headers are located once, when the packet enters process(); rewriting IHL or the
// protocol does not move them.
//
// A packet leaves through the last send(port) called; a packet on which process() called
// drop() last, or neither, is dropped.
#pragma once

#include <cstdint>

#include "tandem/abi.hh"
#include "tandem/header.hh"
#include "tandem/net.hh"

#ifdef TANDEM_ANALYSIS
// Analysis build: every packet operation is an opaque call the front end recognises by name.
extern "C" {
tandem::EthHdr* tandem_api_pkt_eth(void* pkt);
tandem::Ipv4Hdr* tandem_api_pkt_ipv4(void* pkt);
tandem::TcpHdr* tandem_api_pkt_tcp(void* pkt);
tandem::UdpHdr* tandem_api_pkt_udp(void* pkt);
uint32_t tandem_api_pkt_in_port(void* pkt);
uint32_t tandem_api_pkt_length(void* pkt);
uint64_t tandem_api_pkt_now(void* pkt);
void tandem_api_pkt_send(void* pkt, uint32_t port);
void tandem_api_pkt_drop(void* pkt);
uint8_t* tandem_api_pkt_payload(void* pkt);
uint32_t tandem_api_pkt_payload_len(void* pkt);
void tandem_api_pkt_update_checksums(void* pkt);
uint16_t tandem_api_ipv4_header_checksum(const tandem::Ipv4Hdr* ip);
__attribute__((nomerge)) void* tandem_api_pkt_header(void* pkt, const uint64_t* header);  // nomerge: see pop
__attribute__((nomerge)) void* tandem_api_pkt_push(void* pkt, const uint64_t* header, int builtin);
__attribute__((nomerge)) void tandem_api_pkt_pop(void* pkt, const uint64_t* header, int builtin);  // nomerge: else LLVM sinks `if (c) pkt.push<A>(); else pkt.push<B>();` into one call whose tag is a phi
}
#endif

namespace tandem {

#ifdef TANDEM_ANALYSIS

class Packet {
 public:
  EthHdr* eth() { return tandem_api_pkt_eth(this); }
  Ipv4Hdr* ip() { return tandem_api_pkt_ipv4(this); }
  TcpHdr* tcp() { return tandem_api_pkt_tcp(this); }
  UdpHdr* udp() { return tandem_api_pkt_udp(this); }
  /// A header declared with TANDEM_HEADER (or a built-in one); nullptr when absent.
  template <class H>
  H* header() {
    static_assert(HeaderTraits<H>::declared, "declare the header type with TANDEM_HEADER");
    if constexpr (HeaderTraits<H>::builtin == 0) return eth();
    else if constexpr (HeaderTraits<H>::builtin == 1) return ip();
    else if constexpr (HeaderTraits<H>::builtin == 2) return tcp();
    else if constexpr (HeaderTraits<H>::builtin == 3) return udp();
    else return static_cast<H*>(tandem_api_pkt_header(this, HeaderTraits<H>::tag));
  }
  /// Makes header H present (every byte 0) at its place in the deparse order and returns it;
  /// returns it unchanged when it is present already.
  template <class H>
  H* push() {
    static_assert(HeaderTraits<H>::declared, "declare the header type with TANDEM_HEADER");
    return static_cast<H*>(
        tandem_api_pkt_push(this, HeaderTraits<H>::tag, HeaderTraits<H>::builtin));
  }
  /// Makes header H absent: its bytes leave the frame.
  template <class H>
  void pop() {
    static_assert(HeaderTraits<H>::declared, "declare the header type with TANDEM_HEADER");
    tandem_api_pkt_pop(this, HeaderTraits<H>::tag, HeaderTraits<H>::builtin);
  }
  uint32_t in_port() { return tandem_api_pkt_in_port(this); }
  uint32_t length() { return tandem_api_pkt_length(this); }
  Time now() { return tandem_api_pkt_now(this); }
  void send(uint32_t port) { tandem_api_pkt_send(this, port); }
  void drop() { tandem_api_pkt_drop(this); }
  uint8_t* payload() { return tandem_api_pkt_payload(this); }
  uint32_t payload_len() { return tandem_api_pkt_payload_len(this); }
  void update_checksums() { tandem_api_pkt_update_checksums(this); }
};

inline uint16_t ipv4_header_checksum(const Ipv4Hdr* ip) { return tandem_api_ipv4_header_checksum(ip); }

#else  // native build

/// One's-complement sum of `len` bytes, as 16-bit big-endian words (last odd byte padded).
inline uint32_t csum_add_bytes(uint32_t sum, const uint8_t* p, uint32_t len) {
  for (uint32_t i = 0; i + 1 < len; i += 2) sum += (uint32_t(p[i]) << 8) | p[i + 1];
  if (len & 1) sum += uint32_t(p[len - 1]) << 8;
  return sum;
}

inline uint16_t csum_finish(uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return htons(uint16_t(~sum));
}

/// The IPv4 header checksum of `ip` (its `check` field counted as zero), network order.
inline uint16_t ipv4_header_checksum(const Ipv4Hdr* ip) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(ip);
  uint32_t sum = csum_add_bytes(0, p, 10);
  sum = csum_add_bytes(sum, p + 12, ip->header_len() - 12);
  return csum_finish(sum);
}

class Packet {
 public:
  explicit Packet(tandem_pkt* raw) : raw_(raw) { locate_headers(); }

  EthHdr* eth() const { return eth_; }
  Ipv4Hdr* ip() const { return ip_; }
  TcpHdr* tcp() const { return tcp_; }
  UdpHdr* udp() const { return udp_; }
  /// A header declared with TANDEM_HEADER (or a built-in one); nullptr when absent or when
  /// no TANDEM_PARSE edge leads to it.
  template <class H>
  H* header() const {
    static_assert(HeaderTraits<H>::declared, "declare the header type with TANDEM_HEADER");
    return static_cast<H*>(at(id_of<H>()));
  }
  /// Makes header H present (every byte 0) at its place in the deparse order — the frame
  /// that leaves has it there — and returns it; returns it unchanged when it is present.
  /// Other headers keep their fields and pointers: the frame is rebuilt after process().
  template <class H>
  H* push() {
    static_assert(HeaderTraits<H>::declared, "declare the header type with TANDEM_HEADER");
    int i = id_of<H>();
    if (i < 0) return nullptr;
    if (off_[i] < 0) {
      uint32_t size = uint32_t(sizeof(H));
      if (used_ + size > sizeof(scratch_)) return nullptr;
      std::memset(scratch_ + used_, 0, size);
      off_[i] = int32_t(raw_->len + used_);
      used_ += size;
      relaid_ = true;
      builtin_pointers();
    }
    return static_cast<H*>(at(i));
  }
  /// Makes header H absent: its bytes leave the frame (after process()).
  template <class H>
  void pop() {
    static_assert(HeaderTraits<H>::declared, "declare the header type with TANDEM_HEADER");
    int i = id_of<H>();
    if (i < 0 || off_[i] < 0) return;
    // A stale pointer to H reads 0, as the switch reads an invalid header's fields.
    std::memset(at(i), 0, i == 1 && uint32_t(off_[i]) < raw_->len ? ipv4_len_ : uint32_t(sizeof(H)));
    off_[i] = -1;
    relaid_ = true;
    builtin_pointers();
  }
  /// After process(): when a header was pushed or popped, the frame as a deparser emits it
  /// (present headers in the deparse order, then the bytes after the parsed headers), in a
  /// buffer of this thread's that `raw` then points at.
  void finish() {
    if (!relaid_) return;
    static thread_local uint8_t buf[65536 + sizeof(scratch_)];
    const detail::ParseGraph& g = detail::parse_graph();
    uint32_t len = 0;
    for (int k = 0; k < g.norder; ++k) {
      int i = g.order[k];
      if (off_[i] < 0) continue;
      bool parsed = uint32_t(off_[i]) < raw_->len;
      uint32_t size = i == 1 && parsed ? ipv4_len_ : g.sizes[i];
      const uint8_t* p = static_cast<const uint8_t*>(at(i));
      for (uint32_t b = 0; b < size && len < sizeof(buf); ++b) buf[len++] = p[b];
    }
    for (uint32_t b = end_; b < raw_->len && len < sizeof(buf); ++b) buf[len++] = raw_->data[b];
    raw_->data = buf;
    raw_->len = len;
  }
  uint32_t in_port() const { return raw_->in_port; }
  /// The frame's length on arrival (pushes and pops do not change it).
  uint32_t length() const { return length_; }
  /// The packet's arrival time (its trace timestamp), in nanoseconds.
  Time now() const { return raw_->now_ns; }
  void send(uint32_t port) { raw_->out_port = int32_t(port); }
  void drop() { raw_->out_port = -1; }

  /// The bytes after the innermost built-in header the built-in parse graph finds (TCP/UDP
  /// header, else IPv4 header, else Ethernet header) — declared headers do not move it. TCP
  /// options count as header. Server-only: never offloaded.
  uint8_t* payload() const { return raw_->data + payload_off_; }
  uint32_t payload_len() const { return raw_->len - payload_off_; }

  /// Recomputes the IPv4 header checksum and the full TCP/UDP checksum (over the payload
  /// bounded by the IPv4 total length and the frame), of the headers the built-in parse graph
  /// finds (as payload() does). Server-only (it loops over bytes); use
  /// csum_replace2/4 for incremental updates that can run on the switch.
  void update_checksums() {
    if (!bip_) return;
    bip_->check = 0;
    bip_->check = ipv4_header_checksum(bip_);
    uint32_t l4_off = 14 + bip_->header_len();
    uint32_t end = 14 + ntohs(bip_->total_len);
    if (end > raw_->len || end < l4_off) end = raw_->len;
    uint32_t l4_len = end - l4_off;
    const uint8_t* ipb = reinterpret_cast<const uint8_t*>(bip_);
    uint32_t sum = csum_add_bytes(0, ipb + 12, 8);  // pseudo-header: addresses
    sum += bip_->protocol;
    sum += l4_len;
    if (btcp_) {
      btcp_->check = 0;
      btcp_->check = csum_finish(csum_add_bytes(sum, raw_->data + l4_off, l4_len));
    } else if (budp_ && budp_->check != 0) {
      budp_->check = 0;
      uint16_t c = csum_finish(csum_add_bytes(sum, raw_->data + l4_off, l4_len));
      budp_->check = c == 0 ? 0xffff : c;
    }
  }

 private:
  tandem_pkt* raw_;
  EthHdr* eth_ = nullptr;
  Ipv4Hdr* ip_ = nullptr;
  TcpHdr* tcp_ = nullptr;
  UdpHdr* udp_ = nullptr;
  uint32_t payload_off_ = 0;
  int32_t off_[detail::kMaxHeaders];
  uint32_t end_ = 0;       // where the parsed headers end
  uint32_t ipv4_len_ = 0;  // the parsed IPv4 header's length
  uint32_t length_ = 0;    // the arrival length
  uint8_t scratch_[512];   // pushed headers (offsets from the frame's length on)
  uint32_t used_ = 0;
  bool relaid_ = false;

  template <class H>
  static int id_of() {
    if constexpr (HeaderTraits<H>::builtin >= 0) {
      return HeaderTraits<H>::builtin;
    } else {
      static const int index = detail::parse_graph().index(HeaderTraits<H>::name);
      return index;
    }
  }
  void* at(int i) const {
    if (i < 0 || off_[i] < 0) return nullptr;
    uint32_t o = uint32_t(off_[i]);
    return o < raw_->len ? raw_->data + o : const_cast<uint8_t*>(scratch_) + (o - raw_->len);
  }
  void builtin_pointers() {
    eth_ = static_cast<EthHdr*>(at(0));
    ip_ = static_cast<Ipv4Hdr*>(at(1));
    tcp_ = static_cast<TcpHdr*>(at(2));
    udp_ = static_cast<UdpHdr*>(at(3));
  }
  // The built-in headers as the built-in graph alone finds them: payload() and
  // update_checksums() use these, so declared headers never change what they see.
  Ipv4Hdr* bip_ = nullptr;
  TcpHdr* btcp_ = nullptr;
  UdpHdr* budp_ = nullptr;

  void locate_headers() {
    uint8_t* d = raw_->data;
    uint32_t len = raw_->len;
    length_ = len;
    const detail::ParseGraph& g = detail::parse_graph();
    detail::parse_headers(g, d, len, off_, &end_, &ipv4_len_);
    builtin_pointers();
    // The payload is what follows the built-in headers. Without declared headers the NF's
    // graph is the built-in one: reuse its offsets instead of parsing the frame again.
    int32_t own[detail::kMaxHeaders];
    const int32_t* b = off_;
    if (g.nedges > 0) {
      static const detail::ParseGraph builtin_graph{};
      detail::parse_headers(builtin_graph, d, len, own);
      b = own;
    }
    if (b[0] < 0) return;
    payload_off_ = 14;
    if (b[1] < 0) return;
    bip_ = reinterpret_cast<Ipv4Hdr*>(d + b[1]);
    uint32_t l4 = uint32_t(b[1]) + bip_->header_len();
    payload_off_ = l4;
    if (b[2] >= 0) {
      btcp_ = reinterpret_cast<TcpHdr*>(d + b[2]);
      uint32_t thl = btcp_->header_len();
      payload_off_ = l4 + (thl < 20 ? 20 : thl);
      if (payload_off_ > len) payload_off_ = len;
    } else if (b[3] >= 0) {
      budp_ = reinterpret_cast<UdpHdr*>(d + b[3]);
      payload_off_ = l4 + 8;
    }
  }
};

#endif

}  // namespace tandem
