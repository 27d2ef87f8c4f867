// Tandem NF API: packet header layouts, byte order and checksums.
//
// Header structs hold fields exactly as they are on the wire (network byte order); read
// them with tandem::ntohs/ntohl and write with htons/htonl. Everything in this file is the
// same in the native and the analysis build, except the full checksums over a packet's
// payload, which loop over bytes and are therefore opaque API calls in the analysis build.
#pragma once

#include <cstddef>
#include <cstdint>

// Helpers are forced inline in the analysis build so that every statement of process() ends
// up in one function for the front end.
#ifdef TANDEM_ANALYSIS
#define TANDEM_HELPER inline __attribute__((always_inline))
#else
#define TANDEM_HELPER inline
#endif

namespace tandem {

/// Nanoseconds. Packet timestamps and timer ticks use this unit.
using Time = uint64_t;
constexpr Time kMicrosecond = 1000;
constexpr Time kMillisecond = 1000 * kMicrosecond;
constexpr Time kSecond = 1000 * kMillisecond;

constexpr uint16_t bswap16(uint16_t v) { return __builtin_bswap16(v); }
constexpr uint32_t bswap32(uint32_t v) { return __builtin_bswap32(v); }
constexpr uint16_t htons(uint16_t v) { return bswap16(v); }
constexpr uint16_t ntohs(uint16_t v) { return bswap16(v); }
constexpr uint32_t htonl(uint32_t v) { return bswap32(v); }
constexpr uint32_t ntohl(uint32_t v) { return bswap32(v); }

/// An IPv4 address a.b.c.d in network byte order, as stored in Ipv4Hdr::saddr/daddr.
constexpr uint32_t ipv4_addr(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
  return htonl((uint32_t(a) << 24) | (uint32_t(b) << 16) | (uint32_t(c) << 8) | uint32_t(d));
}

constexpr uint16_t kEtherTypeIpv4 = 0x0800;
constexpr uint8_t kIpProtoTcp = 6;
constexpr uint8_t kIpProtoUdp = 17;

constexpr uint8_t kTcpFin = 0x01;
constexpr uint8_t kTcpSyn = 0x02;
constexpr uint8_t kTcpRst = 0x04;
constexpr uint8_t kTcpPsh = 0x08;
constexpr uint8_t kTcpAck = 0x10;
constexpr uint8_t kTcpUrg = 0x20;

struct __attribute__((packed)) EthHdr {
  uint8_t dst[6];
  uint8_t src[6];
  uint16_t ethertype;
};

struct __attribute__((packed)) Ipv4Hdr {
  uint8_t version_ihl;  // version (high nibble) and header length in 32-bit words (low nibble)
  uint8_t tos;
  uint16_t total_len;
  uint16_t id;
  uint16_t frag_off;
  uint8_t ttl;
  uint8_t protocol;
  uint16_t check;
  uint32_t saddr;
  uint32_t daddr;

  uint32_t header_len() const { return uint32_t(version_ihl & 0x0f) * 4; }
};

struct __attribute__((packed)) TcpHdr {
  uint16_t sport;
  uint16_t dport;
  uint32_t seq;
  uint32_t ack_seq;
  uint8_t data_off;  // header length in 32-bit words (high nibble)
  uint8_t flags;     // kTcpFin | kTcpSyn | ...
  uint16_t window;
  uint16_t check;
  uint16_t urg_ptr;

  uint32_t header_len() const { return uint32_t(data_off >> 4) * 4; }
};

struct __attribute__((packed)) UdpHdr {
  uint16_t sport;
  uint16_t dport;
  uint16_t len;
  uint16_t check;
};

static_assert(sizeof(EthHdr) == 14, "Ethernet header layout");
static_assert(sizeof(Ipv4Hdr) == 20, "IPv4 header layout");
static_assert(sizeof(TcpHdr) == 20, "TCP header layout");
static_assert(sizeof(UdpHdr) == 8, "UDP header layout");

// ---- Incremental checksum updates (RFC 1624, eqn. 3) -------------------------------------
//
// Arguments are raw header values exactly as stored (network byte order); one's-complement
// sums do not depend on byte order as long as every word is read the same way. Straight-line
// code with no loops, so they can run on the switch.

/// Folds a 32-bit one's-complement accumulator to 16 bits.
TANDEM_HELPER uint16_t csum_fold(uint32_t sum) {
  sum = (sum & 0xffff) + (sum >> 16);
  sum = (sum & 0xffff) + (sum >> 16);
  return uint16_t(sum);
}

/// The checksum `check` covered a 16-bit word that changed from `from` to `to`; returns
/// the new checksum:  `tcp->check = csum_update2(tcp->check, old_port, new_port);`
TANDEM_HELPER uint16_t csum_update2(uint16_t check, uint16_t from, uint16_t to) {
  uint32_t sum = uint16_t(~check);
  sum += uint16_t(~from);
  sum += to;
  return uint16_t(~csum_fold(sum));
}

/// The checksum `check` covered a 32-bit word that changed from `from` to `to` (e.g. an IPv4
/// address, which both the IPv4 header checksum and the TCP/UDP pseudo-header cover).
TANDEM_HELPER uint16_t csum_update4(uint16_t check, uint32_t from, uint32_t to) {
  uint32_t sum = uint16_t(~check);
  sum += uint16_t(~from) + uint16_t(~(from >> 16));
  sum += (to & 0xffff) + (to >> 16);
  return uint16_t(~csum_fold(sum));
}

/// csum_update2 for a UDP checksum: 0 means "no checksum" and stays 0; a computed 0 is sent
/// as 0xffff (RFC 768).
TANDEM_HELPER uint16_t udp_csum_update2(uint16_t check, uint16_t from, uint16_t to) {
  if (check == 0) return 0;
  uint16_t c = csum_update2(check, from, to);
  return c == 0 ? 0xffff : c;
}

/// csum_update4 for a UDP checksum (see udp_csum_update2).
TANDEM_HELPER uint16_t udp_csum_update4(uint16_t check, uint32_t from, uint32_t to) {
  if (check == 0) return 0;
  uint16_t c = csum_update4(check, from, to);
  return c == 0 ? 0xffff : c;
}

}  // namespace tandem
