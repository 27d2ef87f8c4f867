// Tandem NF API — the one header an NF includes.
//
//   #include <tandem/nf.hh>
//   struct MyNf : tandem::Element {
//     tandem::HashMap<Key, Val, 65536> conns;       // state, with its capacity
//     void configure(tandem::Config& cfg);           // once, on the server
//     void process(tandem::Packet& pkt);             // every packet
//     static constexpr tandem::Time kTimerInterval = tandem::kSecond;   // optional, with
//     void on_timer(tandem::Time now);                                   // a periodic timer
//   };
//   TANDEM_NF(MyNf, conns)    // the element and every state member, by name
//
// Two builds of the same source, selected by a macro:
//   native   (default)          real implementations; the host loads the shared object
//                               through the C ABI in abi.hh
//   analysis (-DTANDEM_ANALYSIS) API operations stay opaque `tandem_api_*` calls so the
//                               compiler front end can recognise them in LLVM IR; the entry
//                               points are `tandem_nf_process_entry` and
//                               `tandem_nf_timer_entry`, the state members are described by
//                               `tandem_nf_describe` and `tandem_nf_state_names`.
// See docs/nf-api.md for the full reference and a worked example.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "tandem/abi.hh"
#include "tandem/pp.hh"
#include "tandem/hash.hh"
#include "tandem/net.hh"
#include "tandem/packet.hh"
#include "tandem/state.hh"
#include "tandem/lpm.hh"
#include "tandem/ternary.hh"
#include "tandem/meter.hh"
#include "tandem/config.hh"
#ifndef TANDEM_ANALYSIS
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>
#include <cctype>
#include <cstring>
#include <string_view>
#include <tuple>
#endif

namespace tandem {

/// Base of every network function. configure() and on_timer() are optional.
struct Element {
  void configure(Config&) {}
};

namespace detail {

template <class T, class = void>
struct has_on_timer : std::false_type {};
template <class T>
struct has_on_timer<T, std::void_t<decltype(std::declval<T&>().on_timer(Time{}))>>
    : std::true_type {};

template <class T>
void call_on_timer([[maybe_unused]] T* nf, [[maybe_unused]] Time now) {
  if constexpr (has_on_timer<T>::value) nf->on_timer(now);
}

template <class T>
constexpr Time timer_interval() {
  if constexpr (has_on_timer<T>::value) {
    static_assert(T::kTimerInterval > 0,
                  "an NF with on_timer() declares static constexpr tandem::Time kTimerInterval");
    return T::kTimerInterval;
  } else {
    return 0;
  }
}

#ifndef TANDEM_ANALYSIS

// ---- State dumps (native build): canonical JSON, entries sorted by key bytes ----------

inline void hex(std::string& out, const void* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  const uint8_t* b = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i) {
    out += digits[b[i] >> 4];
    out += digits[b[i] & 15];
  }
}

// ---- The decoded view: keys and values by the NF's own field names, for people ---------
// `"decoded":{"key":{"lo_addr":167772161,"lo_port":20480,...},"value":3}`: an integer as its
// decimal value (in the byte order the NF stored it), a struct as an object of its fields
// (nested structs nested; arrays such as padding left out), read with clang's
// __builtin_dump_struct. Comparisons use the hex bytes; this is only for reading state.json.

struct DecodeCtx {
  std::string* out;
  std::vector<bool> first;  // per open object: no member written yet
  void key(const char* name) {
    if (!first.empty()) {
      if (!first.back()) *out += ",";
      first.back() = false;
    }
    *out += "\"";
    *out += name;
    *out += "\":";
  }
};

template <class T>
void decoded_number(std::string& out, T v) {
  if constexpr (std::is_same_v<T, bool>) {
    out += v ? "true" : "false";
  } else if constexpr (std::is_enum_v<T>) {
    decoded_number(out, static_cast<std::underlying_type_t<T>>(v));
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    out += std::to_string(static_cast<long long>(v));
  } else if constexpr (std::is_integral_v<T>) {
    out += std::to_string(static_cast<unsigned long long>(v));
  } else if constexpr (std::is_floating_point_v<T>) {
    out += std::to_string(static_cast<double>(v));
  } else {
    out += "null";
  }
}

// A 32-bit field named like an IPv4 address (`addr`, `saddr`, `ip`, `vip`, `backend_ip`...)
// is shown as a dotted quad of its bytes in memory: network order, as packet headers carry
// addresses and as NFs copy them into keys.
inline bool looks_like_address(std::string_view name) {
  std::string n(name);
  for (char& ch : n) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return n.find("addr") != std::string::npos || n == "ip" || n == "vip" ||
         (n.size() > 3 && (n.compare(n.size() - 3, 3, "_ip") == 0)) ||
         n.compare(0, 3, "ip_") == 0;
}

// A 16-bit field named like a port (`sport`, `dst_port`, `port`) is shown as the number its
// bytes in memory make in network order, as packet headers carry ports.
inline bool looks_like_port(std::string_view name) {
  std::string n(name);
  for (char& ch : n) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return n.find("port") != std::string::npos;
}

// The callback __builtin_dump_struct calls with printf-style pieces: `%s` (the type) then
// ` {\n` to open the struct; `%s%s %s = <conv>\n` (indent, type, name, value) per field;
// `%s%s %s =` then ` {\n` for a nested struct, `%s}\n` to close it; `}\n` at the end.
template <class... A>
int decode_piece(DecodeCtx* c, const char* fmt, A... a) {
  constexpr size_t n = sizeof...(A);
  std::string_view f(fmt);
  if constexpr (n == 0) {
    if (f.find('{') != std::string_view::npos) {
      *c->out += "{";
      c->first.push_back(true);
    } else if (f.find('}') != std::string_view::npos) {
      *c->out += "}";
      if (!c->first.empty()) c->first.pop_back();
    }
  } else if constexpr (n == 1) {
    if (f.find('}') != std::string_view::npos) {
      *c->out += "}";
      if (!c->first.empty()) c->first.pop_back();
    }
  } else if constexpr (n == 3) {
    auto t = std::make_tuple(a...);
    c->key(std::get<2>(t));
  } else if constexpr (n == 4) {
    auto t = std::make_tuple(a...);
    using Last = std::tuple_element_t<3, std::tuple<A...>>;
    if constexpr (std::is_arithmetic_v<Last> || std::is_enum_v<Last>) {
      const char* name = std::get<2>(t);
      c->key(name);
      if constexpr (sizeof(Last) == 4 && std::is_integral_v<Last>) {
        if (looks_like_address(name)) {
          Last v = std::get<3>(t);
          uint8_t b[4];
          std::memcpy(b, &v, 4);
          *c->out += "\"" + std::to_string(b[0]) + "." + std::to_string(b[1]) + "." +
                     std::to_string(b[2]) + "." + std::to_string(b[3]) + "\"";
          return 0;
        }
      }
      if constexpr (sizeof(Last) == 2 && std::is_integral_v<Last>) {
        if (looks_like_port(name)) {
          Last v = std::get<3>(t);
          uint8_t b[2];
          std::memcpy(b, &v, 2);
          *c->out += std::to_string((unsigned(b[0]) << 8) | b[1]);
          return 0;
        }
      }
      decoded_number(*c->out, std::get<3>(t));
    }
  }
  return 0;
}

/// `x` as JSON: a number, or an object of its fields.
template <class T>
void decoded(std::string& out, const T& x) {
  if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
    decoded_number(out, x);
  } else if constexpr (std::is_array_v<T>) {
    out += "[";
    for (size_t i = 0; i < std::extent_v<T>; ++i) {
      if (i) out += ",";
      decoded(out, x[i]);
    }
    out += "]";
  } else if constexpr (std::is_class_v<T>) {
#if defined(__clang__) && __clang_major__ >= 15
    DecodeCtx c{&out, {}};
    __builtin_dump_struct(&x, decode_piece, &c);
#else
    out += "null";
#endif
  } else {
    out += "null";
  }
}

template <class K, class V>
std::string decoded_pair(const K& k, const V& v) {
  std::string d = ",\"decoded\":{\"key\":";
  decoded(d, k);
  d += ",\"value\":";
  decoded(d, v);
  d += "}";
  return d;
}

/// One map entry: key and value as hex of their bytes (what comparisons use), then anything
/// else the entry carries (`extra`: `,"decoded":{...}`).
struct DumpRow {
  std::string key, value, extra;
  bool operator<(const DumpRow& o) const {
    return key != o.key ? key < o.key : value < o.value;
  }
};
using DumpRows = std::vector<DumpRow>;

/// `"entries":[{"key":..., "value":..., "decoded":...}, ...]`, sorted by key (hex).
inline void dump_rows(std::string& out, DumpRows& rows) {
  std::sort(rows.begin(), rows.end());
  out += "\"entries\":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i) out += ",";
    out += "{\"key\":\"" + rows[i].key + "\",\"value\":\"" + rows[i].value + "\"" +
           rows[i].extra + "}";
  }
  out += "]";
}

template <class K, class V, class Each>
void dump_entries(std::string& out, Each&& each) {
  DumpRows rows;
  each([&](const K& k, const V& v) {
    std::string ks, vs;
    hex(ks, &k, sizeof(K));
    hex(vs, &v, sizeof(V));
    rows.push_back({std::move(ks), std::move(vs), decoded_pair(k, v)});
  });
  dump_rows(out, rows);
}

template <class K, class V, size_t C>
void dump(std::string& out, const HashMap<K, V, C>& m) {
  out += "\"kind\":\"hashmap\",\"capacity\":" + std::to_string(C) + ",";
  dump_entries<K, V>(out, [&](auto f) { m.for_each(f); });
}

template <class K, class V, size_t C, Time I>
void dump(std::string& out, const ExpiringMap<K, V, C, I>& m) {
  out += "\"kind\":\"expiring_map\",\"capacity\":" + std::to_string(C) +
         ",\"idle_timeout_ns\":" + std::to_string(I) + ",";
  DumpRows rows;
  m.for_each_stamped([&](const K& k, const V& v, Time stamp) {
    std::string ks, vs;
    hex(ks, &k, sizeof(K));
    hex(vs, &v, sizeof(V));
    rows.push_back(
        {std::move(ks), std::move(vs), ",\"last_used_ns\":" + std::to_string(stamp) + decoded_pair(k, v)});
  });
  dump_rows(out, rows);
}

// LPM entries: the key is the prefix's bytes (as the key type in memory) then one byte of
// prefix length, so entries sort by prefix bytes, then length.
template <class K, class V, size_t C>
void dump(std::string& out, const LpmMap<K, V, C>& m) {
  out += "\"kind\":\"lpm_map\",\"capacity\":" + std::to_string(C) + ",";
  DumpRows rows;
  m.for_each([&](K prefix, unsigned len, const V& v) {
    std::string ks, vs;
    hex(ks, &prefix, sizeof(K));
    uint8_t l = uint8_t(len);
    hex(ks, &l, 1);
    hex(vs, &v, sizeof(V));
    std::string d = ",\"decoded\":{\"key\":{\"prefix\":";
    decoded(d, prefix);
    d += ",\"len\":" + std::to_string(len) + "},\"value\":";
    decoded(d, v);
    d += "}";
    rows.push_back({std::move(ks), std::move(vs), std::move(d)});
  });
  dump_rows(out, rows);
}

// Ternary and range entries: the key is the key's bytes (or lo's), the mask's (or hi's), then
// the priority as a little-endian uint32_t (the bytes in memory).
template <class A, class V, class Each>
void dump_prioritised(std::string& out, Each&& each) {
  DumpRows rows;
  each([&](const A& a, const A& b, uint32_t priority, const V& v) {
    std::string ks, vs;
    hex(ks, &a, sizeof(A));
    hex(ks, &b, sizeof(A));
    hex(ks, &priority, sizeof(priority));
    hex(vs, &v, sizeof(V));
    std::string d = ",\"decoded\":{\"key\":{\"a\":";
    decoded(d, a);
    d += ",\"b\":";
    decoded(d, b);
    d += ",\"priority\":" + std::to_string(priority) + "},\"value\":";
    decoded(d, v);
    d += "}";
    rows.push_back({std::move(ks), std::move(vs), std::move(d)});
  });
  dump_rows(out, rows);
}

template <class K, class V, size_t C>
void dump(std::string& out, const TernaryMap<K, V, C>& m) {
  out += "\"kind\":\"ternary_map\",\"capacity\":" + std::to_string(C) + ",";
  dump_prioritised<K, V>(out, [&](auto f) { m.for_each(f); });
}

template <class K, class V, size_t C>
void dump(std::string& out, const RangeMap<K, V, C>& m) {
  out += "\"kind\":\"range_map\",\"capacity\":" + std::to_string(C) + ",";
  dump_prioritised<K, V>(out, [&](auto f) { m.for_each(f); });
}

// Meter entries: the key is the index (uint32_t), the value the 7-word cell (rates, bucket
// levels, last refill time); meters never configured are left out.
template <size_t N, MeterUnit U>
void dump(std::string& out, const Meter<N, U>& m) {
  out += "\"kind\":\"meter\",\"capacity\":" + std::to_string(N) + ",\"unit\":\"" +
         (U == MeterUnit::Bytes ? "bytes" : "packets") + "\",";
  dump_entries<uint32_t, MeterCell>(out, [&](auto f) { m.for_each(f); });
}

template <class T, size_t N>
void dump(std::string& out, const Vector<T, N>& v) {
  out += "\"kind\":\"vector\",\"capacity\":" + std::to_string(N) + ",\"entries\":[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ",";
    T x = v.get(i);
    out += "{\"index\":" + std::to_string(i) + ",\"value\":\"";
    hex(out, &x, sizeof(T));
    out += "\",\"decoded\":";
    decoded(out, x);
    out += "}";
  }
  out += "]";
}

/// Scalar state: an integer or enum member, a fixed array of them (`uint8_t mac[6]`), or a
/// struct of integers without padding (`Backend primary;`), dumped as the bytes it holds.
template <class T>
constexpr bool is_scalar_state_v =
    std::is_integral_v<T> || std::is_enum_v<T> ||
    (std::is_array_v<T> && std::rank_v<T> == 1 &&
     (std::is_integral_v<std::remove_extent_t<T>> || std::is_enum_v<std::remove_extent_t<T>>)) ||
    (std::is_class_v<T> && std::is_trivially_copyable_v<T> &&
     std::has_unique_object_representations_v<T>);

template <class T>
std::enable_if_t<is_scalar_state_v<T>> dump(std::string& out, const T& x) {
  out += "\"kind\":\"scalar\",\"value\":\"";
  hex(out, &x, sizeof(T));
  out += "\",\"decoded\":";
  decoded(out, x);
}

template <class T, class = void>
struct dumpable : std::false_type {};
template <class T>
struct dumpable<T, std::void_t<decltype(dump(std::declval<std::string&>(), std::declval<const T&>()))>>
    : std::true_type {};

template <class T>
void dump_member(std::string& out, const char* name, const T& member) {
  static_assert(dumpable<T>::value,
                "TANDEM_NF lists a member that is not NF state: state members are HashMap, "
                "ExpiringMap, LpmMap, TernaryMap, RangeMap, Vector, Meter, integers, enums, "
                "arrays of them, or structs of integers without padding bytes (add explicit "
                "padding fields, e.g. `uint8_t pad[2];`)");
  if constexpr (dumpable<T>::value) {
    if (out.size() > 1) out += ",";
    out += "{\"name\":\"";
    out += name;
    out += "\",";
    dump(out, member);
    out += "}";
  }
}

inline void copy_error(char* err, size_t errlen, const char* msg) {
  if (!err || errlen == 0) return;
  std::snprintf(err, errlen, "%s", msg);
}

#endif

}  // namespace detail
}  // namespace tandem

// ---- Registration macro ----------------------------------------------------------------

#define TANDEM_NAME_OF(s, x, i) "," #x

#ifdef TANDEM_ANALYSIS

#define TANDEM_DESCRIBE_ONE(s, x, i) ptrs[n++] = static_cast<void*>(&(s)->x);
#define TANDEM_SIZE_OF(s, x, i) sizeof(((s*)nullptr)->x),
/// Registers `Type` as the NF; lists every state member (at most 32).
#define TANDEM_NF(Type, ...)                                                                 \
  extern "C" __attribute__((used, flatten)) void tandem_nf_process_entry(                     \
      Type* self, tandem::Packet* pkt) {                                                     \
    self->process(*pkt);                                                                     \
  }                                                                                          \
  extern "C" __attribute__((used, flatten)) void tandem_nf_timer_entry(Type* self,            \
                                                                        tandem::Time now) {  \
    tandem::detail::call_on_timer(self, now);                                                \
  }                                                                                          \
  extern "C" __attribute__((used, noinline)) void tandem_nf_describe(Type* self,             \
                                                                     void** ptrs) {          \
    int n = 0;                                                                               \
    TANDEM_FOR_EACH(TANDEM_DESCRIBE_ONE, self, __VA_ARGS__)                                  \
    (void)n;                                                                                 \
  }                                                                                          \
  extern "C" __attribute__((used)) const char tandem_nf_state_names[] =                      \
      "" TANDEM_FOR_EACH(TANDEM_NAME_OF, self, __VA_ARGS__);                                 \
  extern "C" __attribute__((used)) const char tandem_nf_type_name[] = #Type;                 \
  extern "C" __attribute__((used)) const uint64_t tandem_nf_element_size = sizeof(Type);     \
  extern "C" __attribute__((used)) const uint64_t tandem_nf_state_sizes[] = {                \
      TANDEM_FOR_EACH(TANDEM_SIZE_OF, Type, __VA_ARGS__) 0};                                 \
  extern "C" __attribute__((used)) const uint64_t tandem_nf_timer_interval_ns =              \
      tandem::detail::timer_interval<Type>();

#else

#define TANDEM_EXPORT extern "C" __attribute__((visibility("default"), used))
#define TANDEM_DUMP_ONE(s, x, i) tandem::detail::dump_member(out, #x, (s)->x);
/// Registers `Type` as the NF; lists every state member (at most 32).
#define TANDEM_NF(Type, ...)                                                                 \
  TANDEM_EXPORT uint32_t tandem_nf_abi_version() { return TANDEM_NF_ABI_VERSION; }          \
  TANDEM_EXPORT const char* tandem_nf_name() { return #Type; }                              \
  TANDEM_EXPORT const char* tandem_nf_state_names() {                                       \
    return "" TANDEM_FOR_EACH(TANDEM_NAME_OF, self, __VA_ARGS__);                            \
  }                                                                                          \
  TANDEM_EXPORT uint64_t tandem_nf_timer_interval() {                                       \
    return tandem::detail::timer_interval<Type>();                                           \
  }                                                                                          \
  TANDEM_EXPORT void* tandem_nf_create(const tandem_cfg* cfg, char* err, size_t errlen) {   \
    try {                                                                                    \
      tandem::detail::current_time = 0;                                                      \
      Type* nf = new Type();                                                                 \
      tandem::Config config(cfg);                                                            \
      try {                                                                                  \
        nf->configure(config);                                                               \
      } catch (...) {                                                                        \
        delete nf;                                                                           \
        throw;                                                                               \
      }                                                                                      \
      std::string unread = config.unread_keys();                                             \
      if (!unread.empty())                                                                   \
        tandem::detail::copy_error(err, errlen, (config.file() + ": configure() never read " \
                                                 + unread + " (a typo?)").c_str());          \
      return nf;                                                                             \
    } catch (const std::exception& e) {                                                      \
      tandem::detail::copy_error(err, errlen, e.what());                                     \
    } catch (...) {                                                                          \
      tandem::detail::copy_error(err, errlen, "configure() threw a non-standard exception"); \
    }                                                                                        \
    return nullptr;                                                                          \
  }                                                                                          \
  TANDEM_EXPORT void tandem_nf_destroy(void* nf) { delete static_cast<Type*>(nf); }         \
  TANDEM_EXPORT int tandem_nf_process(void* nf, tandem_pkt* raw, char* err, size_t errlen) { \
    tandem::detail::current_time = raw->now_ns;                                              \
    raw->out_port = -1;                                                                      \
    try {                                                                                    \
      tandem::Packet pkt(raw);                                                               \
      static_cast<Type*>(nf)->process(pkt);                                                  \
      pkt.finish();                                                                          \
      return 0;                                                                              \
    } catch (const std::exception& e) {                                                      \
      tandem::detail::copy_error(err, errlen, e.what());                                     \
    } catch (...) {                                                                          \
      tandem::detail::copy_error(err, errlen, "process() threw a non-standard exception");   \
    }                                                                                        \
    return 1;                                                                                \
  }                                                                                          \
  TANDEM_EXPORT void tandem_nf_timer(void* nf, uint64_t now) {                              \
    tandem::detail::current_time = now;                                                      \
    tandem::detail::call_on_timer(static_cast<Type*>(nf), now);                              \
  }                                                                                          \
  /* Writes the state as JSON into buf (NUL-terminated if it fits); returns its length. */  \
  TANDEM_EXPORT size_t tandem_nf_dump_state(void* nf, uint64_t now, char* buf,              \
                                            size_t cap) {                                    \
    tandem::detail::current_time = now;                                                      \
    Type* self = static_cast<Type*>(nf);                                                     \
    std::string out = "[";                                                                   \
    TANDEM_FOR_EACH(TANDEM_DUMP_ONE, self, __VA_ARGS__)                                      \
    out += "]";                                                                              \
    if (buf && cap > out.size()) std::memcpy(buf, out.c_str(), out.size() + 1);              \
    return out.size();                                                                       \
  }

#endif
