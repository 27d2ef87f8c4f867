// Tandem NF API: state that lives across packets.
//
//   HashMap<K, V, Capacity>              exact-match map, at most Capacity entries
//   ExpiringMap<K, V, Capacity, IdleNs>  a HashMap whose entries vanish after IdleNs without
//                                        a hit (maps to table ageing on switches that have it)
//   Vector<T, N>                         up to N elements, filled by configure()
//   plain integer members                scalars (e.g. a port counter)
//
// Keys, values and elements are plain structs of integers without padding bytes (checked at
// compile time), compared and hashed by their bytes. Capacity is the bound the compiler
// needs to place a map on the switch (Gallium's annotation); insert() into a full map fails
// and returns false, in every build and on every target, so behaviour never depends on where
// the map lives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "tandem/vector_ref.hh"
#include "tandem/net.hh"

#ifdef TANDEM_ANALYSIS
extern "C" {
const void* tandem_api_map_find(const void* map, const void* key, uint64_t key_size,
                                uint64_t value_size, uint64_t capacity);
bool tandem_api_map_lookup(const void* map, const void* key, uint64_t key_size, void* value_out,
                           uint64_t value_size, uint64_t capacity);
bool tandem_api_map_insert(void* map, const void* key, uint64_t key_size, const void* value,
                           uint64_t value_size, uint64_t capacity);
bool tandem_api_map_erase(void* map, const void* key, uint64_t key_size, uint64_t value_size, uint64_t capacity);
uint64_t tandem_api_map_size(const void* map);
const void* tandem_api_emap_find(const void* map, const void* key, uint64_t key_size,
                                 uint64_t value_size, uint64_t capacity, uint64_t idle_ns);
bool tandem_api_emap_lookup(const void* map, const void* key, uint64_t key_size,
                            void* value_out, uint64_t value_size, uint64_t capacity,
                            uint64_t idle_ns);
bool tandem_api_emap_insert(void* map, const void* key, uint64_t key_size, const void* value,
                            uint64_t value_size, uint64_t capacity, uint64_t idle_ns);
bool tandem_api_emap_erase(void* map, const void* key, uint64_t key_size, uint64_t value_size,
                           uint64_t capacity, uint64_t idle_ns);
uint64_t tandem_api_emap_size(const void* map);
void tandem_api_vec_get(const void* vec, uint64_t index, void* out, uint64_t elem_size,
                        uint64_t capacity);
bool tandem_api_vec_set(void* vec, uint64_t index, const void* value, uint64_t elem_size,
                        uint64_t capacity);
uint64_t tandem_api_vec_size(const void* vec);
}
#endif

namespace tandem {

template <class T>
constexpr bool is_plain_data_v =
    std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T>;

#ifdef TANDEM_ANALYSIS

template <class K, class V, size_t Capacity>
class HashMap {
  static_assert(is_plain_data_v<K>, "HashMap key: a struct of integers without padding");
  static_assert(is_plain_data_v<V>, "HashMap value: a struct of integers without padding");

 public:
  const V* find(const K& k) const {
    return static_cast<const V*>(tandem_api_map_find(this, &k, sizeof(K), sizeof(V), Capacity));
  }
  bool lookup(const K& k, V& out) const {
    return tandem_api_map_lookup(this, &k, sizeof(K), &out, sizeof(V), Capacity);
  }
  bool contains(const K& k) const { return find(k) != nullptr; }
  bool insert(const K& k, const V& v) {
    return tandem_api_map_insert(this, &k, sizeof(K), &v, sizeof(V), Capacity);
  }
  bool erase(const K& k) { return tandem_api_map_erase(this, &k, sizeof(K), sizeof(V), Capacity); }
  size_t size() const { return tandem_api_map_size(this); }
  static constexpr size_t capacity() { return Capacity; }

 private:
  uint64_t opaque_ = 0;
};

template <class K, class V, size_t Capacity, Time IdleNs>
class ExpiringMap {
  static_assert(is_plain_data_v<K>, "ExpiringMap key: a struct of integers without padding");
  static_assert(is_plain_data_v<V>, "ExpiringMap value: a struct of integers without padding");

 public:
  const V* find(const K& k) const {
    return static_cast<const V*>(
        tandem_api_emap_find(this, &k, sizeof(K), sizeof(V), Capacity, IdleNs));
  }
  bool lookup(const K& k, V& out) const {
    return tandem_api_emap_lookup(this, &k, sizeof(K), &out, sizeof(V), Capacity, IdleNs);
  }
  bool contains(const K& k) const { return find(k) != nullptr; }
  bool insert(const K& k, const V& v) {
    return tandem_api_emap_insert(this, &k, sizeof(K), &v, sizeof(V), Capacity, IdleNs);
  }
  bool erase(const K& k) { return tandem_api_emap_erase(this, &k, sizeof(K), sizeof(V), Capacity, IdleNs); }
  size_t size() const { return tandem_api_emap_size(this); }
  static constexpr size_t capacity() { return Capacity; }
  static constexpr Time idle_timeout() { return IdleNs; }

 private:
  uint64_t opaque_ = 0;
};

template <class T, size_t N>
class Vector {
  static_assert(is_plain_data_v<T>, "Vector element: integers or a struct of them, no padding");

 public:
  T get(size_t i) const {
    T out;
    tandem_api_vec_get(this, i, &out, sizeof(T), N);
    return out;
  }
  T operator[](size_t i) const { return get(i); }
  VectorIndex<Vector, T> operator[](size_t i) { return vector_index<T>(*this, i); }
  bool set(size_t i, const T& v) { return tandem_api_vec_set(this, i, &v, sizeof(T), N); }
  size_t size() const { return tandem_api_vec_size(this); }
  static constexpr size_t capacity() { return N; }
  // push_back()/clear() are for configure(), which is never analysed.
  bool push_back(const T& v);
  void clear();

 private:
  uint64_t opaque_ = 0;
};

#else  // native build

namespace detail {

/// The time of the packet being processed (or of the timer tick); set by the host.
inline thread_local Time current_time = 0;

inline uint64_t hash_bytes(const void* data, size_t n) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull);
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
    p += 8;
    n -= 8;
  }
  uint64_t w = 0;
  std::memcpy(&w, p, n);
  h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 29;
  h *= 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 32);
}

constexpr size_t slots_for(size_t capacity) {
  size_t s = 8;
  while (s < capacity * 2) s <<= 1;
  return s;
}

/// Open addressing with linear probing and backward-shift deletion; at most Capacity
/// entries, at least half the slots free. `Stamp` is per-entry extra data (last use time).
template <class K, class V, size_t Capacity, class Stamp>
class Table {
 public:
  struct Slot {
    K key;
    V value;
    Stamp stamp;
    bool used;
  };

  Table() : slots_(new Slot[kSlots]()) {}
  ~Table() { delete[] slots_; }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  Slot* find(const K& k) const {
    size_t i = home(k);
    while (slots_[i].used) {
      if (std::memcmp(&slots_[i].key, &k, sizeof(K)) == 0) return &slots_[i];
      i = (i + 1) & kMask;
    }
    return nullptr;
  }

  /// Inserts or overwrites; nullptr when the key is new and the table holds Capacity entries.
  Slot* upsert(const K& k, const V& v) {
    size_t i = home(k);
    while (slots_[i].used) {
      if (std::memcmp(&slots_[i].key, &k, sizeof(K)) == 0) {
        slots_[i].value = v;
        return &slots_[i];
      }
      i = (i + 1) & kMask;
    }
    if (size_ >= Capacity) return nullptr;
    slots_[i].key = k;
    slots_[i].value = v;
    slots_[i].used = true;
    ++size_;
    return &slots_[i];
  }

  void remove(Slot* s) {
    size_t i = size_t(s - slots_);
    size_t j = i;
    for (;;) {
      j = (j + 1) & kMask;
      if (!slots_[j].used) break;
      size_t h = home(slots_[j].key);
      // Move j back to i unless its home lies cyclically in (i, j].
      bool stays = (i <= j) ? (i < h && h <= j) : (i < h || h <= j);
      if (!stays) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i].used = false;
    --size_;
  }

  bool erase(const K& k) {
    Slot* s = find(k);
    if (!s) return false;
    remove(s);
    return true;
  }

  size_t size() const { return size_; }
  Slot* begin() const { return slots_; }
  Slot* end() const { return slots_ + kSlots; }

 private:
  static constexpr size_t kSlots = slots_for(Capacity);
  static constexpr size_t kMask = kSlots - 1;
  Slot* slots_;
  size_t size_ = 0;

  size_t home(const K& k) const { return size_t(hash_bytes(&k, sizeof(K))) & kMask; }
};

struct NoStamp {};

}  // namespace detail

template <class K, class V, size_t Capacity>
class HashMap {
  static_assert(is_plain_data_v<K>, "HashMap key: a struct of integers without padding");
  static_assert(is_plain_data_v<V>, "HashMap value: a struct of integers without padding");
  static_assert(Capacity > 0, "HashMap capacity must be positive");

 public:
  /// The value stored under `k`, or nullptr. The pointer is valid until the next insert or
  /// erase; update values with insert().
  const V* find(const K& k) const {
    auto* s = table_.find(k);
    return s ? &s->value : nullptr;
  }
  bool lookup(const K& k, V& out) const {
    auto* s = table_.find(k);
    if (s) out = s->value;
    return s != nullptr;
  }
  bool contains(const K& k) const { return table_.find(k) != nullptr; }
  /// Inserts or overwrites. False (and no change) when `k` is new and the map is full.
  bool insert(const K& k, const V& v) { return table_.upsert(k, v) != nullptr; }
  bool erase(const K& k) { return table_.erase(k); }
  size_t size() const { return table_.size(); }
  static constexpr size_t capacity() { return Capacity; }

  template <class F>
  void for_each(F&& f) const {
    for (auto* s = table_.begin(); s != table_.end(); ++s)
      if (s->used) f(s->key, s->value);
  }

 private:
  detail::Table<K, V, Capacity, detail::NoStamp> table_;
};

template <class K, class V, size_t Capacity, Time IdleNs>
class ExpiringMap {
  static_assert(is_plain_data_v<K>, "ExpiringMap key: a struct of integers without padding");
  static_assert(is_plain_data_v<V>, "ExpiringMap value: a struct of integers without padding");
  static_assert(Capacity > 0, "ExpiringMap capacity must be positive");

 public:
  /// The value under `k` if it was inserted or found within the last IdleNs; a hit refreshes
  /// the entry. Expired entries are removed when touched.
  const V* find(const K& k) const {
    auto* s = live(k);
    return s ? &s->value : nullptr;
  }
  bool lookup(const K& k, V& out) const {
    auto* s = live(k);
    if (s) out = s->value;
    return s != nullptr;
  }
  bool contains(const K& k) const { return live(k) != nullptr; }
  /// Inserts or overwrites and refreshes. A full map first drops its expired entries; false
  /// when it is still full.
  bool insert(const K& k, const V& v) {
    auto* s = table_.upsert(k, v);
    if (!s) {
      sweep();
      s = table_.upsert(k, v);
    }
    if (s) s->stamp = detail::current_time;
    return s != nullptr;
  }
  bool erase(const K& k) {
    auto* s = live(k);
    if (s) table_.remove(s);
    return s != nullptr;
  }
  /// Number of live entries.
  size_t size() const {
    size_t n = 0;
    for_each([&](const K&, const V&) { ++n; });
    return n;
  }
  static constexpr size_t capacity() { return Capacity; }
  static constexpr Time idle_timeout() { return IdleNs; }

  /// Removes every expired entry.
  void sweep() const {
    for (;;) {
      bool removed = false;
      for (auto* s = table_.begin(); s != table_.end(); ++s)
        if (s->used && expired(s->stamp)) {
          table_.remove(s);
          removed = true;
        }
      if (!removed) return;
    }
  }

  template <class F>
  void for_each(F&& f) const {
    for (auto* s = table_.begin(); s != table_.end(); ++s)
      if (s->used && !expired(s->stamp)) f(s->key, s->value);
  }

  /// Like for_each, with each entry's last-use time: f(key, value, last_used).
  template <class F>
  void for_each_stamped(F&& f) const {
    for (auto* s = table_.begin(); s != table_.end(); ++s)
      if (s->used && !expired(s->stamp)) f(s->key, s->value, s->stamp);
  }

 private:
  using Table = detail::Table<K, V, Capacity, Time>;
  mutable Table table_;

  static bool expired(Time stamp) {
    Time now = detail::current_time;
    return now > stamp && now - stamp > IdleNs;
  }

  typename Table::Slot* live(const K& k) const {
    auto* s = table_.find(k);
    if (!s) return nullptr;
    if (expired(s->stamp)) {
      table_.remove(s);
      return nullptr;
    }
    s->stamp = detail::current_time;
    return s;
  }
};

template <class T, size_t N>
class Vector {
  static_assert(is_plain_data_v<T>, "Vector element: integers or a struct of them, no padding");

 public:
  /// Element `i`, or a zero-valued T when i >= size().
  T get(size_t i) const { return i < size_ ? items_[i] : T{}; }
  T operator[](size_t i) const { return get(i); }
  VectorIndex<Vector, T> operator[](size_t i) { return vector_index<T>(*this, i); }
  /// False (and no change) when i >= size().
  bool set(size_t i, const T& v) {
    if (i >= size_) return false;
    items_[i] = v;
    return true;
  }
  /// False (and no change) when the vector already holds N elements.
  bool push_back(const T& v) {
    if (size_ >= N) return false;
    items_[size_++] = v;
    return true;
  }
  void clear() { size_ = 0; }
  size_t size() const { return size_; }
  static constexpr size_t capacity() { return N; }

 private:
  T items_[N] = {};
  size_t size_ = 0;
};

#endif

}  // namespace tandem
