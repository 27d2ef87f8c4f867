// Hashes the switch computes: tandem::crc16, tandem::crc32, tandem::identity.
//
//   uint32_t h = tandem::crc32(ntohl(ip->saddr), ntohl(ip->daddr), ip->protocol);
//
// The input is the operands' values, each written big-endian at its own type's width
// (uint8_t: 1 byte ... uint64_t: 8 bytes), one after the other — exactly what v1model's
// `hash(out, HashAlgorithm.crc32, 0, {a, b, c}, 2^32)` computes over fields of those widths on
// BMv2, and what Tofino's `Hash<bit<32>>(HashAlgorithm_t.CRC32).get({a, b, c})` computes. Pass
// `ntohl(ip->saddr)` to hash the address's wire bytes in wire order.
//
//   crc32     CRC-32 (IEEE 802.3): poly 0x04C11DB7 reflected, init and final xor 0xFFFFFFFF
//   crc16     CRC-16/ARC: poly 0x8005 reflected, init 0, no final xor
//   identity  the first (at most) 8 bytes as a big-endian number (server only: 64 bits wide)
//
// Operands are integers (1 to 16 of them); hashing anything else is an error (L011 in the
// analysis build, a static_assert in the native build).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#ifdef TANDEM_ANALYSIS
extern "C" {
// `widths`: 4 bits per operand (operand k in bits 4k..4k+3), its size in bytes.
uint64_t tandem_api_hash(uint64_t algo, const uint64_t* values, uint64_t widths, uint64_t n);
// A hash operand that is not an integer (sizeof it): reported by the front end (L011).
void tandem_api_hash_bad_operand(uint64_t size);
}
#endif

namespace tandem {
namespace detail {

enum HashKind : uint64_t { kHashCrc16 = 16, kHashCrc32 = 32, kHashIdentity = 64 };

template <class T>
constexpr bool hash_operand_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

#ifdef TANDEM_ANALYSIS

template <class T>
inline uint64_t hash_value(const T& x) {
  if constexpr (hash_operand_v<T>) {
    return uint64_t(std::make_unsigned_t<T>(x));
  } else {
    tandem_api_hash_bad_operand(sizeof(T));
    return 0;
  }
}

template <class... Ts>
inline uint64_t hash(HashKind kind, const Ts&... xs) {
  static_assert(sizeof...(Ts) >= 1 && sizeof...(Ts) <= 16, "tandem hashes take 1 to 16 operands");
  const uint64_t values[] = {hash_value(xs)...};
  uint64_t widths = 0;
  unsigned k = 0;
  ((widths |= uint64_t(sizeof(Ts) & 15) << (4 * k++)), ...);
  return tandem_api_hash(kind, values, widths, sizeof...(Ts));
}

#else  // native build

template <class... Ts>
inline uint64_t hash(HashKind kind, const Ts&... xs) {
  static_assert(sizeof...(Ts) >= 1 && sizeof...(Ts) <= 16, "tandem hashes take 1 to 16 operands");
  static_assert((hash_operand_v<Ts> && ...),
                "tandem::crc16/crc32/identity hash integers (uint8_t ... uint64_t): hash a "
                "struct's members one by one");
  uint32_t c32 = 0xFFFFFFFFu;
  uint16_t c16 = 0;
  uint64_t id = 0;
  unsigned len = 0;
  auto byte = [&](uint8_t b) {
    c32 ^= b;
    c16 ^= b;
    for (int j = 0; j < 8; j++) {
      c32 = (c32 & 1) ? (c32 >> 1) ^ 0xEDB88320u : c32 >> 1;
      c16 = (c16 & 1) ? uint16_t((c16 >> 1) ^ 0xA001u) : uint16_t(c16 >> 1);
    }
    if (len++ < 8) id = (id << 8) | b;
  };
  auto operand = [&](auto x) {
    uint64_t v = uint64_t(std::make_unsigned_t<decltype(x)>(x));
    for (size_t k = sizeof(x); k-- > 0;) byte(uint8_t(v >> (8 * k)));
  };
  (operand(xs), ...);
  switch (kind) {
    case kHashCrc16: return c16;
    case kHashCrc32: return c32 ^ 0xFFFFFFFFu;
    default: return id;
  }
}

#endif

}  // namespace detail

/// CRC-32 of the operands' big-endian bytes (v1model `HashAlgorithm.crc32`).
template <class... Ts>
inline uint32_t crc32(const Ts&... xs) {
  return uint32_t(detail::hash(detail::kHashCrc32, xs...));
}

/// CRC-16/ARC of the operands' big-endian bytes (v1model `HashAlgorithm.crc16`).
template <class... Ts>
inline uint16_t crc16(const Ts&... xs) {
  return uint16_t(detail::hash(detail::kHashCrc16, xs...));
}

/// The first (at most) 8 of the operands' big-endian bytes as a number (v1model
/// `HashAlgorithm.identity`).
template <class... Ts>
inline uint64_t identity(const Ts&... xs) {
  return detail::hash(detail::kHashIdentity, xs...);
}

}  // namespace tandem
