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
void* tandem_api_pkt_header(void* pkt, const uint64_t* header);
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
    int i = HeaderTraits<H>::builtin;
    if constexpr (HeaderTraits<H>::builtin < 0) {
      static const int index = detail::parse_graph().index(HeaderTraits<H>::name);
      i = index;
    }
    return i < 0 || off_[i] < 0 ? nullptr : reinterpret_cast<H*>(raw_->data + off_[i]);
  }
  uint32_t in_port() const { return raw_->in_port; }
  uint32_t length() const { return raw_->len; }
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
  // The built-in headers as the built-in graph alone finds them: payload() and
  // update_checksums() use these, so declared headers never change what they see.
  Ipv4Hdr* bip_ = nullptr;
  TcpHdr* btcp_ = nullptr;
  UdpHdr* budp_ = nullptr;

  void locate_headers() {
    uint8_t* d = raw_->data;
    uint32_t len = raw_->len;
    detail::parse_headers(detail::parse_graph(), d, len, off_);
    if (off_[0] >= 0) eth_ = reinterpret_cast<EthHdr*>(d);
    if (off_[1] >= 0) ip_ = reinterpret_cast<Ipv4Hdr*>(d + off_[1]);
    if (off_[2] >= 0) tcp_ = reinterpret_cast<TcpHdr*>(d + off_[2]);
    if (off_[3] >= 0) udp_ = reinterpret_cast<UdpHdr*>(d + off_[3]);
    int32_t b[detail::kMaxHeaders];
    detail::parse_headers(detail::ParseGraph{}, d, len, b);
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
