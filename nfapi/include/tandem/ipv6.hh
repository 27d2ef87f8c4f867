// Tandem NF API: IPv6 (RFC 8200) as declared headers, for NFs that parse it.
//
//   #include <tandem/ipv6.hh>
//   TANDEM_PARSE(MyNf,
//       TANDEM_EDGE(EthHdr, ethertype, 0x86DD, Ipv6Hdr),     // outer IPv6
//       TANDEM_EDGE(Ipv6Hdr, next_header, 17, UdpHdr), ...)  // UDP after it (no extension headers)
//   if (Ipv6Hdr* ip6 = pkt.header<Ipv6Hdr>()) {
//     uint64_t hi = ipv6_hi(ip6->daddr_hi);                  // the top 64 bits, host order
//     ip6->hop_limit -= 1;                                   // no header checksum in IPv6
//   }
//
// An address is two 64-bit halves in network byte order (`*_hi` the first 8 bytes on the
// wire), because a header field has at most 8 bytes (docs/nf-api.md, "Declared headers").
// IPv6 is not built in: it is a header like any an NF declares, present when a parse-graph
// edge leads to it, so every build (native, NF IR, P4 parser, server) parses it alike.
// `InnerIpv6Hdr` is the same layout for the IPv6 header inside a tunnel (each header type is
// present at most once in a packet). Extension headers are not parsed: a `next_header` that
// no edge names ends parsing.
#pragma once

#include <cstdint>

#include "tandem/header.hh"
#include "tandem/net.hh"

namespace tandem {

constexpr uint16_t kEtherTypeIpv6 = 0x86DD;

/// The fixed 40-byte IPv6 header, wire order.
struct Ipv6Hdr {
  uint32_t ver_tc_flow;  // version (6), traffic class, flow label
  uint16_t payload_len;
  uint8_t next_header;
  uint8_t hop_limit;
  uint64_t saddr_hi;  // source address, bytes 0..7 (network order)
  uint64_t saddr_lo;  // bytes 8..15
  uint64_t daddr_hi;
  uint64_t daddr_lo;
};
static_assert(sizeof(Ipv6Hdr) == 40, "IPv6 header layout");

/// The same layout, inside a tunnel.
struct InnerIpv6Hdr {
  uint32_t ver_tc_flow;
  uint16_t payload_len;
  uint8_t next_header;
  uint8_t hop_limit;
  uint64_t saddr_hi;
  uint64_t saddr_lo;
  uint64_t daddr_hi;
  uint64_t daddr_lo;
};
static_assert(sizeof(InnerIpv6Hdr) == 40, "IPv6 header layout");

constexpr uint64_t bswap64(uint64_t v) { return __builtin_bswap64(v); }
/// A 64-bit address half in host order (for prefixes: bit 63 is the address's first bit).
constexpr uint64_t ipv6_hi(uint64_t wire) { return bswap64(wire); }
/// The wire form of a host-order address half.
constexpr uint64_t ipv6_wire(uint64_t host) { return bswap64(host); }

}  // namespace tandem

// Declared headers are named at global scope (their names are their P4 and IR names).
using tandem::InnerIpv6Hdr;
using tandem::Ipv6Hdr;
TANDEM_HEADER(Ipv6Hdr, ver_tc_flow, payload_len, next_header, hop_limit, saddr_hi, saddr_lo,
              daddr_hi, daddr_lo)
TANDEM_HEADER(InnerIpv6Hdr, ver_tc_flow, payload_len, next_header, hop_limit, saddr_hi, saddr_lo,
              daddr_hi, daddr_lo)
