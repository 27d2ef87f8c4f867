// Tandem NF API: longest-prefix-match state.
//
//   LpmMap<K, V, Capacity>   at most Capacity prefixes of K, each with a V; find(addr) returns
//                            the value of the longest prefix matching addr. K is one
//                            unsigned integer (an IPv4 address as a host-order uint32_t,
//                            `ntohl(ip->daddr)`), matched from its most significant bit.
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
  const V* find(const K& addr) const {
    return static_cast<const V*>(
        tandem_api_lpm_find(this, &addr, sizeof(K), sizeof(V), Capacity));
  }
  bool lookup(const K& addr, V& out) const {
    return tandem_api_lpm_lookup(this, &addr, sizeof(K), &out, sizeof(V), Capacity);
  }
  bool insert(const K& prefix, unsigned prefix_len, const V& v) {
    return tandem_api_lpm_insert(this, &prefix, sizeof(K), &v, sizeof(V), Capacity, prefix_len);
  }
  void erase(const K& prefix, unsigned prefix_len) {
    tandem_api_lpm_erase(this, &prefix, sizeof(K), sizeof(V), Capacity, prefix_len);
  }
  size_t size() const { return tandem_api_lpm_size(this); }
  static constexpr size_t capacity() { return Capacity; }
  static constexpr unsigned key_bits() { return sizeof(K) * 8; }

 private:
  uint64_t opaque_ = 0;
};

#else  // native build

/// Longest prefix match. An entry is a prefix of `prefix_len` bits (0..=key_bits(); the
/// bits of `prefix` below the length are ignored — stored as zero) and a value; find(addr)
/// returns the value of the longest prefix that matches `addr`'s top bits.
template <class K, class V, size_t Capacity>
class LpmMap {
  static_assert(std::is_integral_v<K> && std::is_unsigned_v<K> && !std::is_same_v<K, bool>,
                "LpmMap key: one unsigned integer (e.g. an IPv4 address as a host-order "
                "uint32_t)");
  static_assert(is_plain_data_v<V>, "LpmMap value: a struct of integers without padding");
  static_assert(Capacity > 0, "LpmMap capacity must be positive");

 public:
  static constexpr unsigned kBits = sizeof(K) * 8;

  /// The value of the longest prefix matching `addr`, or nullptr. Valid until the next
  /// insert or erase.
  const V* find(const K& addr) const {
    for (int len = int(kBits); len >= 0; --len) {
      if (count_[len] == 0) continue;
      auto* s = table_.find(Key{uint64_t(addr) & mask(unsigned(len)), uint64_t(len)});
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
    if (!table_.upsert(Key{uint64_t(prefix) & mask(prefix_len), prefix_len}, v)) return false;
    if (table_.size() != before) ++count_[prefix_len];
    return true;
  }
  /// Removes prefix/prefix_len if present (a length above key_bits() removes nothing).
  void erase(const K& prefix, unsigned prefix_len) {
    if (prefix_len > kBits) return;
    if (table_.erase(Key{uint64_t(prefix) & mask(prefix_len), prefix_len})) --count_[prefix_len];
  }
  size_t size() const { return table_.size(); }
  static constexpr size_t capacity() { return Capacity; }
  static constexpr unsigned key_bits() { return kBits; }

  /// f(prefix, prefix_len, value) for every entry.
  template <class F>
  void for_each(F&& f) const {
    for (auto* s = table_.begin(); s != table_.end(); ++s)
      if (s->used) f(K(s->key.prefix), unsigned(s->key.len), s->value);
  }

 private:
  struct Key {
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
