// Tandem NF API: longest-prefix-match state.
//
//   LpmMap<K, V, Capacity>   at most Capacity prefixes of K, each with a V; find(addr) returns
//                            the value of the longest prefix matching addr. K is one
//                            unsigned integer (an IPv4 address as a host-order uint32_t,
//                            `ntohl(ip->daddr)`), matched from its most significant bit, or
//                            an LpmKey<E, A>: `exact` matched exactly, then the prefix of
//                            `addr` (a VNI and a tenant's address: one table for all VNIs).
//                            A 128-bit address (IPv6) is an LpmAddr128 {hi, lo} in host
//                            order, alone or as the `addr` of an LpmKey<uint64_t, LpmAddr128>.
//
//   LpmMap<LpmKey<uint32_t, uint32_t>, Route, 4096> routes;   // (VNI, IPv4 destination)
//   routes.insert({vni, ntohl(prefix)}, 24, r);              // the length counts addr's bits
//   const Route* r = routes.find({vni, ntohl(ip->daddr)});   // exact VNI, longest prefix
//
//   LpmMap<LpmKey<uint64_t, LpmAddr128>, Route, 4096> routes6;          // (VNI, IPv6 dst)
//   routes6.insert({vni, {ipv6_hi(p_hi), ipv6_hi(p_lo)}}, 96, r);       // 0..128 bits
//   routes6.find({vni, {ipv6_hi(ip6->daddr_hi), ipv6_hi(ip6->daddr_lo)}});
//
//   insert(prefix, len, v) -> bool   inserts or overwrites prefix/len (0 <= len <= bits of K;
//                                    the bits of prefix below len are ignored); false when
//                                    len is out of range or the map is full
//   erase(prefix, len)               removes prefix/len if present
//   find(addr) -> const V*, lookup(addr, V&) -> bool, size()
//
// On a switch an LpmMap that process() only reads becomes an `lpm` table (TCAM); one that
// process() writes stays on the server with its lookups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "tandem/state.hh"

namespace tandem {

/// A composite LPM key: `exact` must equal the entry's, and the longest prefix of `addr`
/// wins among those. E and A are unsigned integers of the same width (no padding).
template <class E, class A>
struct LpmKey {
  E exact;
  A addr;
};

/// A 128-bit prefix-matched address (an IPv6 address in host order: `hi` holds its first 64
/// bits, `ipv6_hi(ip6->daddr_hi)`, and its bit 63 is the address's first bit).
struct LpmAddr128 {
  uint64_t hi;
  uint64_t lo;
};

namespace detail {
template <class T>
constexpr bool is_lpm_word_v =
    std::is_integral_v<T> && std::is_unsigned_v<T> && !std::is_same_v<T, bool>;

/// What LpmMap needs of its key type: the prefix-matched part (as two 64-bit words, the
/// most significant first; a narrower address in `w[0]`'s low bits, `w[1]` zero) and the
/// exact part. kWords: how many 64-bit words the address spans for the front end.
template <class A>
struct LpmAddrTraits {
  static constexpr bool ok = is_lpm_word_v<A>;
  static constexpr unsigned kBits = sizeof(A) * 8;
  static constexpr uint64_t kWords = 1;
  static void get(const A& a, uint64_t w[2]) { w[0] = uint64_t(a), w[1] = 0; }
  static A make(const uint64_t w[2]) { return A(w[0]); }
};
template <>
struct LpmAddrTraits<LpmAddr128> {
  static constexpr bool ok = true;
  static constexpr unsigned kBits = 128;
  static constexpr uint64_t kWords = 2;
  static void get(const LpmAddr128& a, uint64_t w[2]) { w[0] = a.hi, w[1] = a.lo; }
  static LpmAddr128 make(const uint64_t w[2]) { return LpmAddr128{w[0], w[1]}; }
};

template <class K>
struct LpmTraits {
  using AT = LpmAddrTraits<K>;
  static constexpr bool ok = AT::ok;
  static constexpr uint64_t kExactBytes = 0;
  static constexpr unsigned kBits = AT::kBits;
  static constexpr uint64_t kWords = AT::kWords;
  static uint64_t exact(const K&) { return 0; }
  static void addr(const K& k, uint64_t w[2]) { AT::get(k, w); }
  static K make(uint64_t, const uint64_t w[2]) { return AT::make(w); }
};
template <class E, class A>
struct LpmTraits<LpmKey<E, A>> {
  using AT = LpmAddrTraits<A>;
  static constexpr bool ok = is_lpm_word_v<E> && AT::ok &&
                             (AT::kWords == 1 ? sizeof(E) == sizeof(A) : sizeof(E) == 8);
  static constexpr uint64_t kExactBytes = sizeof(E);
  static constexpr unsigned kBits = AT::kBits;
  static constexpr uint64_t kWords = AT::kWords;
  static uint64_t exact(const LpmKey<E, A>& k) { return uint64_t(k.exact); }
  static void addr(const LpmKey<E, A>& k, uint64_t w[2]) { AT::get(k.addr, w); }
  static LpmKey<E, A> make(uint64_t e, const uint64_t w[2]) {
    return LpmKey<E, A>{E(e), AT::make(w)};
  }
};
}  // namespace detail

}  // namespace tandem

#ifdef TANDEM_ANALYSIS
extern "C" {
const void* tandem_api_lpm_find(const void* map, const void* key, uint64_t key_size,
                                uint64_t value_size, uint64_t capacity);
bool tandem_api_lpm_lookup(const void* map, const void* key, uint64_t key_size, void* value_out,
                           uint64_t value_size, uint64_t capacity);
bool tandem_api_lpm_insert(void* map, const void* key, uint64_t key_size, const void* value,
                           uint64_t value_size, uint64_t capacity, uint64_t prefix_len);
void tandem_api_lpm_erase(void* map, const void* key, uint64_t key_size, uint64_t value_size,
                          uint64_t capacity, uint64_t prefix_len);
uint64_t tandem_api_lpm_size(const void* map);
}
#endif

namespace tandem {

#ifdef TANDEM_ANALYSIS

// The key type is checked by the front end (a coded diagnostic naming the line), so that the
// analysis build compiles and the lifter can say what is wrong.
template <class K, class V, size_t Capacity>
class LpmMap {
  static_assert(is_plain_data_v<V>, "LpmMap value: a struct of integers without padding");

 public:
  // The key size for the front end; an LpmKey's also says where `addr` starts (bits 32..48)
  // and a wide address how many 64-bit words it has (bits 48..56).
  static constexpr uint64_t kKeyArg = sizeof(K) | (detail::LpmTraits<K>::kExactBytes << 32) |
                                      (detail::LpmTraits<K>::kWords << 48);

  const V* find(const K& addr) const {
    return static_cast<const V*>(
        tandem_api_lpm_find(this, &addr, kKeyArg, sizeof(V), Capacity));
  }
  bool lookup(const K& addr, V& out) const {
    return tandem_api_lpm_lookup(this, &addr, kKeyArg, &out, sizeof(V), Capacity);
  }
  bool insert(const K& prefix, unsigned prefix_len, const V& v) {
    return tandem_api_lpm_insert(this, &prefix, kKeyArg, &v, sizeof(V), Capacity, prefix_len);
  }
  void erase(const K& prefix, unsigned prefix_len) {
    tandem_api_lpm_erase(this, &prefix, kKeyArg, sizeof(V), Capacity, prefix_len);
  }
  size_t size() const { return tandem_api_lpm_size(this); }
  static constexpr size_t capacity() { return Capacity; }
  static constexpr unsigned key_bits() { return detail::LpmTraits<K>::kBits; }

 private:
  uint64_t opaque_ = 0;
};

#else  // native build

/// Longest prefix match. An entry is a prefix of `prefix_len` bits (0..=key_bits(); the
/// bits of `prefix` below the length are ignored — stored as zero) and a value; find(addr)
/// returns the value of the longest prefix that matches `addr`'s top bits.
template <class K, class V, size_t Capacity>
class LpmMap {
  static_assert(detail::LpmTraits<K>::ok,
                "LpmMap key: one unsigned integer (e.g. an IPv4 address as a host-order "
                "uint32_t), an LpmAddr128, or an LpmKey<E, A> of two unsigned integers of the "
                "same width or of a uint64_t and an LpmAddr128");
  static_assert(is_plain_data_v<V>, "LpmMap value: a struct of integers without padding");
  static_assert(Capacity > 0, "LpmMap capacity must be positive");

 public:
  using Traits = detail::LpmTraits<K>;
  static constexpr unsigned kBits = Traits::kBits;

  /// The value of the longest prefix matching `addr` (among entries with its exact part),
  /// or nullptr. Valid until the next insert or erase.
  const V* find(const K& addr) const {
    uint64_t e = Traits::exact(addr), a[2];
    Traits::addr(addr, a);
    for (int len = int(kBits); len >= 0; --len) {
      if (count_[len] == 0) continue;
      auto* s = table_.find(masked(e, a, unsigned(len)));
      if (s) return &s->value;
    }
    return nullptr;
  }
  bool lookup(const K& addr, V& out) const {
    const V* v = find(addr);
    if (v) out = *v;
    return v != nullptr;
  }
  /// Inserts or overwrites prefix/prefix_len. False (and no change) when prefix_len >
  /// key_bits() or the prefix is new and the map is full.
  bool insert(const K& prefix, unsigned prefix_len, const V& v) {
    if (prefix_len > kBits) return false;
    size_t before = table_.size();
    uint64_t a[2];
    Traits::addr(prefix, a);
    if (!table_.upsert(masked(Traits::exact(prefix), a, prefix_len), v)) return false;
    if (table_.size() != before) ++count_[prefix_len];
    return true;
  }
  /// Removes prefix/prefix_len if present (a length above key_bits() removes nothing).
  void erase(const K& prefix, unsigned prefix_len) {
    if (prefix_len > kBits) return;
    uint64_t a[2];
    Traits::addr(prefix, a);
    if (table_.erase(masked(Traits::exact(prefix), a, prefix_len))) --count_[prefix_len];
  }
  size_t size() const { return table_.size(); }
  static constexpr size_t capacity() { return Capacity; }
  static constexpr unsigned key_bits() { return kBits; }

  /// f(prefix, prefix_len, value) for every entry.
  template <class F>
  void for_each(F&& f) const {
    for (auto* s = table_.begin(); s != table_.end(); ++s) {
      if (!s->used) continue;
      uint64_t a[2] = {s->key.hi, s->key.lo};
      f(Traits::make(s->key.exact, a), unsigned(s->key.len), s->value);
    }
  }

 private:
  struct Key {
    uint64_t exact;
    uint64_t hi;
    uint64_t lo;
    uint64_t len;
  };
  /// The mask of the top `len` bits of a `bits`-wide word.
  static constexpr uint64_t mask(unsigned bits, unsigned len) {
    uint64_t all = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    if (len == 0) return 0;
    if (len >= bits) return all;
    return all & ~((uint64_t(1) << (bits - len)) - 1);
  }
  /// An entry's name: the address masked to its top `len` bits (over both words of a
  /// 128-bit address, `hi` first).
  static Key masked(uint64_t e, const uint64_t a[2], unsigned len) {
    if (kBits <= 64) return Key{e, a[0] & mask(kBits, len), 0, len};
    unsigned hi_len = len < 64 ? len : 64;
    return Key{e, a[0] & mask(64, hi_len), a[1] & mask(64, len - hi_len), len};
  }
  detail::Table<Key, V, Capacity, detail::NoStamp> table_;
  uint32_t count_[kBits + 1] = {};
};

#endif

}  // namespace tandem
