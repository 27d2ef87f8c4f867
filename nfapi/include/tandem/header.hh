// Tandem NF API: headers an NF declares, and the parse graph that finds them.
//
//   struct VlanHdr { uint16_t tci; uint16_t ethertype; };   // wire order, network byte order
//   TANDEM_HEADER(VlanHdr, tci, ethertype)                  // every field, in order
//   ...
//   TANDEM_PARSE(MyNf,                                      // after TANDEM_NF
//       TANDEM_EDGE(EthHdr, ethertype, 0x8100, VlanHdr),    // eth.ethertype == 0x8100 -> vlan
//       TANDEM_EDGE(VlanHdr, ethertype, 0x0800, Ipv4Hdr))   // vlan.ethertype == 0x0800 -> ipv4
//   ...
//   if (VlanHdr* v = pkt.header<VlanHdr>()) { ... }         // nullptr when absent
//
// Parsing starts at Ethernet and at each header takes the first edge whose condition holds —
// the NF's edges in the order listed, then the built-in ones (eth.ethertype 0x0800 -> IPv4,
// ipv4.protocol 6 -> TCP, 17 -> UDP); the next header is present when all of it is inside
// the frame (IPv4: version 4, IHL >= 5 and IHL*4 bytes). A header follows IPv4 at IHL*4 bytes,
// any other at its size; no edge may lead to Ethernet or leave TCP, and each header type is
// present at most once (a second Ethernet header inside a tunnel is a type of its own). The
// same rules are the NF IR's (crates/tandem-ir/src/parse_graph.rs), the generated P4 parser's
// and the server partition's, so every build finds the same headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tandem/net.hh"
#include "tandem/pp.hh"

namespace tandem {

/// What the NF API knows about a header type. Specialised by TANDEM_HEADER, and here for the
/// built-in headers (`builtin` is their index: eth 0, ipv4 1, tcp 2, udp 3; -1 otherwise).
template <class H>
struct HeaderTraits {
  static constexpr bool declared = false;
};

#define TANDEM_BUILTIN_HEADER(H, n, i)          \
  template <>                                   \
  struct HeaderTraits<H> {                      \
    static constexpr bool declared = true;      \
    static constexpr const char* name = n;      \
    static constexpr int builtin = i;           \
    static constexpr const uint64_t* tag = nullptr; \
  };
TANDEM_BUILTIN_HEADER(EthHdr, "eth", 0)
TANDEM_BUILTIN_HEADER(Ipv4Hdr, "ipv4", 1)
TANDEM_BUILTIN_HEADER(TcpHdr, "tcp", 2)
TANDEM_BUILTIN_HEADER(UdpHdr, "udp", 3)
#undef TANDEM_BUILTIN_HEADER

namespace detail {

/// One edge as TANDEM_EDGE writes it: header names, the select field's place, the value.
struct EdgeDesc {
  const char* from;
  uint32_t sel_at;     // byte offset of the select field in `from`
  uint32_t sel_bytes;  // its width in bytes; 0: the edge is always taken
  uint64_t value;
  const char* to;
  uint32_t to_size;
};

/// The most headers (built-in and declared) a parse graph may have.
constexpr int kMaxHeaders = 32;

/// An NF's parse graph with header numbers: built-in 0..3, declared from 4 in the order they
/// first appear as an edge's target.
struct ParseGraph {
  const EdgeDesc* edges = nullptr;
  int nedges = 0;
  int from[kMaxHeaders * 2] = {};
  int to[kMaxHeaders * 2] = {};
  const char* names[kMaxHeaders] = {"eth", "ipv4", "tcp", "udp"};
  uint32_t sizes[kMaxHeaders] = {14, 20, 20, 8};
  int nheaders = 4;
  // The deparse order (header numbers), computed once when the graph is installed.
  int order[kMaxHeaders] = {0, 1, 2, 3};
  int norder = 4;

  int index(const char* name) const {
    for (int i = 0; i < nheaders; ++i)
      if (std::strcmp(names[i], name) == 0) return i;
    return -1;
  }
};

/// The graph of the NF in this shared object; TANDEM_PARSE installs it at load time.
inline ParseGraph& parse_graph() {
  static ParseGraph g;
  return g;
}

/// Big-endian value of `n` bytes at `p`.
inline uint64_t read_be(const uint8_t* p, uint32_t n) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

inline int deparse_order(const ParseGraph& g, int* order);

#ifndef TANDEM_ANALYSIS
// Header numbers follow the front end's order: each edge's `from`, then its `to`, as first
// named (the NF IR's `headers`), so both builds compute the same deparse order.
inline int install_graph(const EdgeDesc* edges, int n) {
  ParseGraph& g = parse_graph();
  if (n > kMaxHeaders * 2) n = kMaxHeaders * 2;
  g.edges = edges;
  g.nedges = n;
  auto add = [&g](const char* name) {
    int i = g.index(name);
    if (i < 0 && g.nheaders < kMaxHeaders) {
      i = g.nheaders++;
      g.names[i] = name;
    }
    return i;
  };
  for (int i = 0; i < n; ++i) {
    g.from[i] = add(edges[i].from);
    g.to[i] = add(edges[i].to);
    if (g.to[i] >= 4) g.sizes[g.to[i]] = edges[i].to_size;
  }
  g.norder = deparse_order(g, g.order);
  return n;
}
#endif

/// Finds the headers of a frame with graph `g`: `off[i]` is header i's offset, -1 when absent;
/// `*end` where the parsed headers end, `*ipv4_len` the IPv4 header's length (with options).
inline void parse_headers(const ParseGraph& g, const uint8_t* d, uint32_t len, int32_t* off,
                          uint32_t* end_out = nullptr, uint32_t* ipv4_len = nullptr) {
  uint32_t scratch_end = 0, scratch_ipv4 = 0;
  if (!end_out) end_out = &scratch_end;
  if (!ipv4_len) ipv4_len = &scratch_ipv4;
  *end_out = 0;
  *ipv4_len = 0;
  static const EdgeDesc builtin[3] = {{"eth", 12, 2, 0x0800, "ipv4", 20},
                                      {"ipv4", 9, 1, 6, "tcp", 20},
                                      {"ipv4", 9, 1, 17, "udp", 8}};
  static const int bfrom[3] = {0, 1, 1}, bto[3] = {1, 2, 3};
  for (int i = 0; i < g.nheaders; ++i) off[i] = -1;
  if (len < 14) return;
  off[0] = 0;
  *end_out = 14;
  if (g.nedges == 0) {
    // Only the built-in graph (no declared headers): the same walk, written out.
    if (read_be(d + 12, 2) != 0x0800 || len < 34) return;
    uint32_t ihl = d[14] & 0x0f;
    if ((d[14] >> 4) != 4 || ihl < 5 || len < 14 + 4 * ihl) return;
    off[1] = 14;
    *ipv4_len = 4 * ihl;
    uint32_t l4 = 14 + 4 * ihl;
    *end_out = l4;
    uint8_t proto = d[14 + 9];
    uint32_t size = proto == 6 ? 20 : proto == 17 ? 8 : 0;
    if (size == 0 || len < l4 + size) return;
    off[proto == 6 ? 2 : 3] = int32_t(l4);
    *end_out = l4 + size;
    return;
  }
  int cur = 0;
  uint32_t at = 0, end = 14;
  for (int step = 0; step <= g.nedges + 3; ++step) {
    int next = -1;
    for (int i = 0; i < g.nedges + 3 && next < 0; ++i) {
      const EdgeDesc& e = i < g.nedges ? g.edges[i] : builtin[i - g.nedges];
      int from = i < g.nedges ? g.from[i] : bfrom[i - g.nedges];
      if (from != cur) continue;
      if (e.sel_bytes == 0 || read_be(d + at + e.sel_at, e.sel_bytes) == e.value)
        next = i < g.nedges ? g.to[i] : bto[i - g.nedges];
    }
    if (next < 0 || off[next] >= 0) return;
    uint32_t next_end;
    if (next == 1) {
      if (len < end + 20) return;
      uint32_t ihl = d[end] & 0x0f;
      if ((d[end] >> 4) != 4 || ihl < 5 || len < end + 4 * ihl) return;
      next_end = end + 4 * ihl;
    } else {
      if (len < end + g.sizes[next]) return;
      next_end = end + g.sizes[next];
    }
    off[next] = int32_t(end);
    if (next == 1) *ipv4_len = next_end - end;
    cur = next;
    at = end;
    end = next_end;
    *end_out = end;
  }
}

/// The deparse order of graph `g` (header numbers): Kahn's algorithm over the NF's and the
/// built-in edges, the ready header with the smallest number first (tandem_ir::deparse_order).
inline int deparse_order(const ParseGraph& g, int* order) {
  static const int bfrom[3] = {0, 1, 1}, bto[3] = {1, 2, 3};
  auto edge = [&g](int i, int* f, int* t) {
    *f = i < g.nedges ? g.from[i] : bfrom[i - g.nedges];
    *t = i < g.nedges ? g.to[i] : bto[i - g.nedges];
  };
  int ne = g.nedges + 3;
  bool done[kMaxHeaders] = {};
  int n = 0;
  for (;;) {
    int pick = -1;
    for (int h = 0; h < g.nheaders && pick < 0; ++h) {
      if (done[h]) continue;
      bool ready = true;
      for (int i = 0; i < ne && ready; ++i) {
        int f, t;
        edge(i, &f, &t);
        if (t == h && f != h && f >= 0 && !done[f]) ready = false;
      }
      if (ready) pick = h;
    }
    if (pick < 0) break;
    done[pick] = true;
    order[n++] = pick;
  }
  for (int h = 0; h < g.nheaders; ++h)
    if (!done[h]) order[n++] = h;
  return n;
}

/// Checks at compile time that a declared header's listed fields cover it, in order, with
/// no padding.
template <class H>
constexpr bool fields_cover(const size_t* offs, const size_t* sizes, size_t n) {
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    if (offs[i] != at) return false;
    at += sizes[i];
  }
  return at == sizeof(H);
}

}  // namespace detail
}  // namespace tandem

#define TANDEM_HDR_OFF(H, f, i) offsetof(H, f),
#define TANDEM_HDR_SIZE(H, f, i) sizeof(((H*)nullptr)->f),
#define TANDEM_HDR_NAME(H, f, i) "," #f

#ifdef TANDEM_ANALYSIS
// The front end reads `tandem_hdr_<H>` ({size, field sizes...}) and `tandem_hdrf_<H>` (",f1,f2")
// and recognises `tandem_api_pkt_header(pkt, tandem_hdr_<H>)`.
#define TANDEM_HEADER_DESC(H, ...)                                                         \
  extern "C" __attribute__((used)) const uint64_t tandem_hdr_##H[] = {                     \
      sizeof(H), TANDEM_FOR_EACH(TANDEM_HDR_SIZE, H, __VA_ARGS__) 0};                      \
  extern "C" __attribute__((used)) const char tandem_hdrf_##H[] =                          \
      "" TANDEM_FOR_EACH(TANDEM_HDR_NAME, H, __VA_ARGS__);
#define TANDEM_HEADER_TAG(H) static constexpr const uint64_t* tag = tandem_hdr_##H;
#else
#define TANDEM_HEADER_DESC(H, ...)
#define TANDEM_HEADER_TAG(H)
#endif

/// Declares the header type `H` (a struct of unsigned integers and byte arrays of at most 8
/// bytes, in wire order, no padding) and lists every field in order.
#define TANDEM_HEADER(H, ...)                                                              \
  static_assert(std::has_unique_object_representations_v<H>,                               \
                "a header struct has no padding bytes");                                   \
  TANDEM_HEADER_DESC(H, __VA_ARGS__)                                                       \
  template <>                                                                              \
  struct tandem::HeaderTraits<H> {                                                         \
    static constexpr bool declared = true;                                                 \
    static constexpr const char* name = #H;                                                \
    static constexpr int builtin = -1;                                                     \
    TANDEM_HEADER_TAG(H)                                                                   \
    static constexpr size_t offs[] = {TANDEM_FOR_EACH(TANDEM_HDR_OFF, H, __VA_ARGS__)};    \
    static constexpr size_t sizes[] = {TANDEM_FOR_EACH(TANDEM_HDR_SIZE, H, __VA_ARGS__)};  \
    static_assert(tandem::detail::fields_cover<H>(offs, sizes, sizeof(offs) / sizeof(offs[0])), \
                  "TANDEM_HEADER lists every field of the header, in order");              \
  };

/// One parse-graph edge: after a `From` header whose `field` equals `value`, a `To` header.
#define TANDEM_EDGE(From, field, value, To)                                                \
  tandem::detail::EdgeDesc{tandem::HeaderTraits<From>::name, offsetof(From, field),        \
                           sizeof(((From*)nullptr)->field), uint64_t(value),               \
                           tandem::HeaderTraits<To>::name, sizeof(To)}
/// An edge taken always: a `To` header follows every `From` header.
#define TANDEM_ALWAYS(From, To)                                                            \
  tandem::detail::EdgeDesc{tandem::HeaderTraits<From>::name, 0, 0, 0,                      \
                           tandem::HeaderTraits<To>::name, sizeof(To)}

#ifdef TANDEM_ANALYSIS
/// The NF's parse-graph edges, tried in this order before the built-in ones (after TANDEM_NF).
#define TANDEM_PARSE(Type, ...)                                                            \
  extern "C" __attribute__((used)) const tandem::detail::EdgeDesc tandem_nf_parse_edges[] = { \
      __VA_ARGS__};                                                                        \
  extern "C" __attribute__((used)) const uint64_t tandem_nf_parse_edge_count =             \
      sizeof(tandem_nf_parse_edges) / sizeof(tandem_nf_parse_edges[0]);
#else
#define TANDEM_PARSE(Type, ...)                                                            \
  namespace {                                                                              \
  const tandem::detail::EdgeDesc tandem_nf_parse_edges_[] = {__VA_ARGS__};                 \
  const int tandem_nf_parse_installed_ = tandem::detail::install_graph(                    \
      tandem_nf_parse_edges_, int(sizeof(tandem_nf_parse_edges_) / sizeof(tandem_nf_parse_edges_[0]))); \
  }
#endif
