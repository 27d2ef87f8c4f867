// Tandem NF API: longest-prefix-match state.
//
//   LpmMap<K, V, Capacity>   at most Capacity prefixes of K, each with a V; find(addr) returns
//                            the value of the longest prefix matching addr. K is one
//                            unsigned integer (an IPv4 address as a host-order uint32_t,
//                            `ntohl(ip->daddr)`), matched from its most significant bit, or
//                            an LpmKey<E, A>: `exact` matched exactly, then the prefix of
//                            `addr` (a VNI and a tenant's address: one table for all VNIs).
//
//   LpmMap<LpmKey<uint32_t, uint32_t>, Route, 4096> routes;   // (VNI, IPv4 destination)
//   routes.insert({vni, ntohl(prefix)}, 24, r);              // the length counts addr's bits
//   const Route* r = routes.find({vni, ntohl(ip->daddr)});   // exact VNI, longest prefix
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

namespace detail {
template <class T>
constexpr bool is_lpm_word_v =
    std::is_integral_v<T> && std::is_unsigned_v<T> && !std::is_same_v<T, bool>;

/// What LpmMap needs of its key type: the prefix-matched part and the exact part.
template <class K>
struct LpmTraits {
  static constexpr bool ok = is_lpm_word_v<K>;
  static constexpr uint64_t kExactBytes = 0;
  using Addr = K;
  static uint64_t exact(const K&) { return 0; }
  static uint64_t addr(const K& k) { return uint64_t(k); }
  static K make(uint64_t, uint64_t a) { return K(a); }
};
template <class E, class A>
struct LpmTraits<LpmKey<E, A>> {
  static constexpr bool ok = is_lpm_word_v<E> && is_lpm_word_v<A> && sizeof(E) == sizeof(A);
  static constexpr uint64_t kExactBytes = sizeof(E);
  using Addr = A;
  static uint64_t exact(const LpmKey<E, A>& k) { return uint64_t(k.exact); }
  static uint64_t addr(const LpmKey<E, A>& k) { return uint64_t(k.addr); }
  static LpmKey<E, A> make(uint64_t e, uint64_t a) { return LpmKey<E, A>{E(e), A(a)}; }
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
  // The key size for the front end; an LpmKey's also says where `addr` starts (bits 32..).
  static constexpr uint64_t kKeyArg = sizeof(K) | (detail::LpmTraits<K>::kExactBytes << 32);

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
  static constexpr unsigned key_bits() {
    return sizeof(typename detail::LpmTraits<K>::Addr) * 8;
  }

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
                "uint32_t) or an LpmKey<E, A> of two unsigned integers of the same width");
  static_assert(is_plain_data_v<V>, "LpmMap value: a struct of integers without padding");
  static_assert(Capacity > 0, "LpmMap capacity must be positive");

 public:
  using Traits = detail::LpmTraits<K>;
  static constexpr unsigned kBits = sizeof(typename Traits::Addr) * 8;

  /// The value of the longest prefix matching `addr` (among entries with its exact part),
  /// or nullptr. Valid until the next insert or erase.
  const V* find(const K& addr) const {
    uint64_t e = Traits::exact(addr), a = Traits::addr(addr);
    for (int len = int(kBits); len >= 0; --len) {
      if (count_[len] == 0) continue;
      auto* s = table_.find(Key{e, a & mask(unsigned(len)), uint64_t(len)});
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
    Key k{Traits::exact(prefix), Traits::addr(prefix) & mask(prefix_len), prefix_len};
    if (!table_.upsert(k, v)) return false;
    if (table_.size() != before) ++count_[prefix_len];
    return true;
  }
  /// Removes prefix/prefix_len if present (a length above key_bits() removes nothing).
  void erase(const K& prefix, unsigned prefix_len) {
    if (prefix_len > kBits) return;
    Key k{Traits::exact(prefix), Traits::addr(prefix) & mask(prefix_len), prefix_len};
    if (table_.erase(k)) --count_[prefix_len];
  }
  size_t size() const { return table_.size(); }
  static constexpr size_t capacity() { return Capacity; }
  static constexpr unsigned key_bits() { return kBits; }

  /// f(prefix, prefix_len, value) for every entry.
  template <class F>
  void for_each(F&& f) const {
    for (auto* s = table_.begin(); s != table_.end(); ++s)
      if (s->used) f(Traits::make(s->key.exact, s->key.prefix), unsigned(s->key.len), s->value);
  }

 private:
  struct Key {
    uint64_t exact;
    uint64_t prefix;
    uint64_t len;
  };
  static constexpr uint64_t mask(unsigned len) {
    uint64_t all = kBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << kBits) - 1;
    if (len == 0) return 0;
    if (len >= kBits) return all;
    return all & ~((uint64_t(1) << (kBits - len)) - 1);
  }
  detail::Table<Key, V, Capacity, detail::NoStamp> table_;
  uint32_t count_[kBits + 1] = {};
};

#endif

}  // namespace tandem
