// Tandem NF API: priority-matched state — ternary and range maps (ACLs, classifiers).
//
//   TernaryMap<K, V, Capacity>  entries: (key, mask, priority) -> V. find(k) returns the value
//                               of the highest-priority entry with (k & mask) == (key & mask),
//                               byte by byte. K is an integer or a struct of integers.
//   RangeMap<K, V, Capacity>    entries: (lo, hi, priority) -> V; find(k) returns the value of
//                               the highest-priority entry with lo <= k <= hi. K is one
//                               unsigned integer (a port as a host-order uint16_t).
//
//   insert(key, mask, priority, v) / insert(lo, hi, priority, v) -> bool
//       inserts, or overwrites the entry with that key (masked), mask (or range) and priority;
//       false (and no change) when another entry already has this priority, when priority is
//       0 or above kMaxPriority (2^31 - 1), for a range lo > hi, or when the map is full
//   erase(key, mask, priority) / erase(lo, hi, priority)   removes that entry, if present
//   find(k) -> const V*, lookup(k, V&) -> bool, size()
//
// Priorities are distinct, so a lookup never depends on the order entries were inserted in,
// on any target (P4Runtime's priorities: a higher number wins). On a switch a map that
// process() only reads becomes a `ternary` (or `range`) table with entry priorities; one that
// process() or on_timer() writes stays on the server with its lookups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "tandem/state.hh"

#ifdef TANDEM_ANALYSIS
extern "C" {
const void* tandem_api_tern_find(const void* map, const void* key, uint64_t key_size,
                                 uint64_t value_size, uint64_t capacity);
bool tandem_api_tern_lookup(const void* map, const void* key, uint64_t key_size,
                            void* value_out, uint64_t value_size, uint64_t capacity);
bool tandem_api_tern_insert(void* map, const void* key, const void* mask, uint64_t key_size,
                            const void* value, uint64_t value_size, uint64_t capacity,
                            uint64_t priority);
void tandem_api_tern_erase(void* map, const void* key, const void* mask, uint64_t key_size,
                           uint64_t capacity, uint64_t priority);
uint64_t tandem_api_tern_size(const void* map);
const void* tandem_api_range_find(const void* map, const void* key, uint64_t key_size,
                                  uint64_t value_size, uint64_t capacity);
bool tandem_api_range_lookup(const void* map, const void* key, uint64_t key_size,
                             void* value_out, uint64_t value_size, uint64_t capacity);
bool tandem_api_range_insert(void* map, const void* lo, const void* hi, uint64_t key_size,
                             const void* value, uint64_t value_size, uint64_t capacity,
                             uint64_t priority);
void tandem_api_range_erase(void* map, const void* lo, const void* hi, uint64_t key_size,
                            uint64_t capacity, uint64_t priority);
uint64_t tandem_api_range_size(const void* map);
}
#endif

namespace tandem {

/// The largest priority of a TernaryMap or RangeMap entry (P4Runtime priorities are positive
/// 32-bit integers).
constexpr uint32_t kMaxPriority = 0x7fffffff;

#ifdef TANDEM_ANALYSIS

template <class K, class V, size_t Capacity>
class TernaryMap {
  static_assert(is_plain_data_v<K>, "TernaryMap key: a struct of integers without padding");
  static_assert(is_plain_data_v<V>, "TernaryMap value: a struct of integers without padding");

 public:
  const V* find(const K& k) const {
    return static_cast<const V*>(tandem_api_tern_find(this, &k, sizeof(K), sizeof(V), Capacity));
  }
  bool lookup(const K& k, V& out) const {
    return tandem_api_tern_lookup(this, &k, sizeof(K), &out, sizeof(V), Capacity);
  }
  bool insert(const K& key, const K& mask, uint32_t priority, const V& v) {
    return tandem_api_tern_insert(this, &key, &mask, sizeof(K), &v, sizeof(V), Capacity,
                                  priority);
  }
  void erase(const K& key, const K& mask, uint32_t priority) {
    tandem_api_tern_erase(this, &key, &mask, sizeof(K), Capacity, priority);
  }
  size_t size() const { return tandem_api_tern_size(this); }
  static constexpr size_t capacity() { return Capacity; }

 private:
  uint64_t opaque_ = 0;
};

// The key type is checked by the front end (a coded diagnostic naming the line).
template <class K, class V, size_t Capacity>
class RangeMap {
  static_assert(is_plain_data_v<V>, "RangeMap value: a struct of integers without padding");

 public:
  const V* find(const K& k) const {
    return static_cast<const V*>(
        tandem_api_range_find(this, &k, sizeof(K), sizeof(V), Capacity));
  }
  bool lookup(const K& k, V& out) const {
    return tandem_api_range_lookup(this, &k, sizeof(K), &out, sizeof(V), Capacity);
  }
  bool insert(const K& lo, const K& hi, uint32_t priority, const V& v) {
    return tandem_api_range_insert(this, &lo, &hi, sizeof(K), &v, sizeof(V), Capacity,
                                   priority);
  }
  void erase(const K& lo, const K& hi, uint32_t priority) {
    tandem_api_range_erase(this, &lo, &hi, sizeof(K), Capacity, priority);
  }
  size_t size() const { return tandem_api_range_size(this); }
  static constexpr size_t capacity() { return Capacity; }

 private:
  uint64_t opaque_ = 0;
};

#else  // native build

namespace detail {

/// Entries of a priority-matched map, highest priority first (priorities are distinct).
/// `Match` holds what names an entry besides its priority (key and mask, or lo and hi).
template <class Match, class V, size_t Capacity>
class PriorityTable {
 public:
  struct Entry {
    Match match;
    uint32_t priority;
    V value;
  };

  PriorityTable() : entries_(new Entry[Capacity]()) {}

  /// The first (highest-priority) entry `pred` accepts.
  template <class Pred>
  const Entry* first(Pred&& pred) const {
    for (size_t i = 0; i < n_; ++i)
      if (pred(entries_[i].match)) return &entries_[i];
    return nullptr;
  }

  bool insert(const Match& m, uint32_t priority, const V& v) {
    if (priority == 0 || priority > kMaxPriority) return false;
    size_t at = 0;
    while (at < n_ && entries_[at].priority > priority) ++at;
    if (at < n_ && entries_[at].priority == priority) {
      if (std::memcmp(&entries_[at].match, &m, sizeof(Match)) != 0) return false;
      entries_[at].value = v;
      return true;
    }
    if (n_ >= Capacity) return false;
    for (size_t i = n_; i > at; --i) entries_[i] = entries_[i - 1];
    entries_[at] = Entry{m, priority, v};
    ++n_;
    return true;
  }

  bool erase(const Match& m, uint32_t priority) {
    for (size_t i = 0; i < n_; ++i) {
      if (entries_[i].priority != priority) continue;
      if (std::memcmp(&entries_[i].match, &m, sizeof(Match)) != 0) return false;
      for (size_t j = i + 1; j < n_; ++j) entries_[j - 1] = entries_[j];
      --n_;
      return true;
    }
    return false;
  }

  size_t size() const { return n_; }
  const Entry* begin() const { return entries_.get(); }
  const Entry* end() const { return entries_.get() + n_; }

 private:
  std::unique_ptr<Entry[]> entries_;
  size_t n_ = 0;
};

}  // namespace detail

/// Ternary match with priorities (see the top of this header).
template <class K, class V, size_t Capacity>
class TernaryMap {
  static_assert(is_plain_data_v<K>, "TernaryMap key: a struct of integers without padding");
  static_assert(is_plain_data_v<V>, "TernaryMap value: a struct of integers without padding");
  static_assert(Capacity > 0, "TernaryMap capacity must be positive");

 public:
  /// The value of the highest-priority entry matching `k`, or nullptr. Valid until the next
  /// insert or erase.
  const V* find(const K& k) const {
    auto* e = table_.first([&](const Match& m) { return matches(m, k); });
    return e ? &e->value : nullptr;
  }
  bool lookup(const K& k, V& out) const {
    const V* v = find(k);
    if (v) out = *v;
    return v != nullptr;
  }
  bool insert(const K& key, const K& mask, uint32_t priority, const V& v) {
    return table_.insert(make(key, mask), priority, v);
  }
  void erase(const K& key, const K& mask, uint32_t priority) { table_.erase(make(key, mask), priority); }
  size_t size() const { return table_.size(); }
  static constexpr size_t capacity() { return Capacity; }

  /// f(key, mask, priority, value) for every entry (the key masked).
  template <class F>
  void for_each(F&& f) const {
    for (auto& e : table_) f(e.match.key, e.match.mask, e.priority, e.value);
  }

 private:
  struct Match {
    K key;
    K mask;
  };
  static Match make(const K& key, const K& mask) {
    Match m;
    const uint8_t* k = reinterpret_cast<const uint8_t*>(&key);
    const uint8_t* mk = reinterpret_cast<const uint8_t*>(&mask);
    uint8_t* out = reinterpret_cast<uint8_t*>(&m.key);
    for (size_t i = 0; i < sizeof(K); ++i) out[i] = k[i] & mk[i];
    m.mask = mask;
    return m;
  }
  static bool matches(const Match& m, const K& k) {
    const uint8_t* x = reinterpret_cast<const uint8_t*>(&k);
    const uint8_t* key = reinterpret_cast<const uint8_t*>(&m.key);
    const uint8_t* mask = reinterpret_cast<const uint8_t*>(&m.mask);
    for (size_t i = 0; i < sizeof(K); ++i)
      if ((x[i] & mask[i]) != key[i]) return false;
    return true;
  }
  detail::PriorityTable<Match, V, Capacity> table_;
};

/// Range match with priorities (see the top of this header).
template <class K, class V, size_t Capacity>
class RangeMap {
  static_assert(std::is_integral_v<K> && std::is_unsigned_v<K> && !std::is_same_v<K, bool>,
                "RangeMap key: one unsigned integer (e.g. a port as a host-order uint16_t)");
  static_assert(is_plain_data_v<V>, "RangeMap value: a struct of integers without padding");
  static_assert(Capacity > 0, "RangeMap capacity must be positive");

 public:
  const V* find(const K& k) const {
    auto* e = table_.first([&](const Match& m) { return m.lo <= k && k <= m.hi; });
    return e ? &e->value : nullptr;
  }
  bool lookup(const K& k, V& out) const {
    const V* v = find(k);
    if (v) out = *v;
    return v != nullptr;
  }
  bool insert(const K& lo, const K& hi, uint32_t priority, const V& v) {
    if (lo > hi) return false;
    return table_.insert(Match{lo, hi}, priority, v);
  }
  void erase(const K& lo, const K& hi, uint32_t priority) { table_.erase(Match{lo, hi}, priority); }
  size_t size() const { return table_.size(); }
  static constexpr size_t capacity() { return Capacity; }

  /// f(lo, hi, priority, value) for every entry.
  template <class F>
  void for_each(F&& f) const {
    for (auto& e : table_) f(e.match.lo, e.match.hi, e.priority, e.value);
  }

 private:
  struct Match {
    K lo;
    K hi;
  };
  detail::PriorityTable<Match, V, Capacity> table_;
};

#endif

}  // namespace tandem
