// Tandem NF API: configuration read by Element::configure().
//
// The host reads the NF's TOML or JSON file and flattens it into keys: tables become dotted
// keys (`backend.port`), arrays indexed keys (`backends[0]`, `rules[2].src`). Every getter
// checks presence, type and range and throws ConfigError naming the key and the file.
// configure() always runs on the server and is never analysed; Config is the same in both
// builds.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tandem/abi.hh"
#include "tandem/net.hh"

namespace tandem {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Config {
 public:
  explicit Config(const tandem_cfg* raw) : raw_(raw) {}

  /// The keys configure() never asked for (`get_*`, `*_or`, `has`), comma-separated: most
  /// often a typo (`out_prot`), which would otherwise leave the default in place silently.
  std::string unread_keys() const {
    std::string out;
    if (!raw_) return out;
    for (size_t i = 0; i < raw_->n_items; ++i)
      if (i >= used_.size() || !used_[i]) {
        if (!out.empty()) out += ", ";
        out += raw_->items[i].key;
      }
    return out;
  }

  /// The file the configuration came from.
  std::string file() const { return raw_ && raw_->file ? raw_->file : "<no config>"; }

  bool has(const std::string& key) const { return find(key) != nullptr; }

  /// Number of elements of the array `key` (0 when absent): `backends` has
  /// `backends[0]` ... `backends[len-1]` (scalars or tables).
  uint32_t len(const std::string& key) const {
    uint32_t n = 0;
    while (has_prefix(key + "[" + std::to_string(n) + "]")) ++n;
    return n;
  }

  int64_t get_int(const std::string& key) const { return int_in(key, INT64_MIN, INT64_MAX, "integer"); }
  uint64_t get_u64(const std::string& key) const { return uint64_t(int_in(key, 0, INT64_MAX, "unsigned integer")); }
  uint32_t get_u32(const std::string& key) const { return uint32_t(int_in(key, 0, UINT32_MAX, "unsigned 32-bit integer")); }
  uint16_t get_u16(const std::string& key) const { return uint16_t(int_in(key, 0, UINT16_MAX, "unsigned 16-bit integer")); }
  uint8_t get_u8(const std::string& key) const { return uint8_t(int_in(key, 0, UINT8_MAX, "unsigned 8-bit integer")); }

  bool get_bool(const std::string& key) const {
    const tandem_cfg_item* it = require(key);
    if (it->kind != TANDEM_CFG_BOOL) fail(key, "expected a boolean, found " + describe(it));
    return it->i != 0;
  }

  double get_float(const std::string& key) const {
    const tandem_cfg_item* it = require(key);
    if (it->kind == TANDEM_CFG_FLOAT) return it->f;
    if (it->kind == TANDEM_CFG_INT) return double(it->i);
    fail(key, "expected a number, found " + describe(it));
  }

  std::string get_string(const std::string& key) const {
    const tandem_cfg_item* it = require(key);
    if (it->kind != TANDEM_CFG_STRING) fail(key, "expected a string, found " + describe(it));
    return it->s;
  }

  /// A dotted-quad IPv4 address ("10.0.0.1"), returned in network byte order.
  uint32_t get_ipv4(const std::string& key) const {
    std::string s = get_string(key);
    unsigned a, b, c, d;
    char extra;
    if (std::sscanf(s.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &extra) != 4 || a > 255 ||
        b > 255 || c > 255 || d > 255)
      fail(key, "expected an IPv4 address like \"10.0.0.1\", found \"" + s + "\"");
    return ipv4_addr(uint8_t(a), uint8_t(b), uint8_t(c), uint8_t(d));
  }

  /// An IPv6 address in RFC 4291 text form without an embedded IPv4 part ("fd00::1",
  /// "2001:db8:0:0:0:0:0:1") as two 64-bit halves in host order (`hi` holds the first 8
  /// bytes on the wire; see tandem/ipv6.hh).
  void get_ipv6(const std::string& key, uint64_t& hi, uint64_t& lo) const {
    std::string s = get_string(key);
    uint16_t g[8] = {};
    if (!parse_ipv6(s, g)) fail(key, "expected an IPv6 address like \"fd00::1\", found \"" + s + "\"");
    hi = lo = 0;
    for (int i = 0; i < 4; ++i) hi = (hi << 16) | g[i];
    for (int i = 4; i < 8; ++i) lo = (lo << 16) | g[i];
  }

  // Getters with a default for optional keys (type and range are still checked).
  int64_t get_int_or(const std::string& k, int64_t d) const { return has(k) ? get_int(k) : d; }
  uint64_t get_u64_or(const std::string& k, uint64_t d) const { return has(k) ? get_u64(k) : d; }
  uint32_t get_u32_or(const std::string& k, uint32_t d) const { return has(k) ? get_u32(k) : d; }
  uint16_t get_u16_or(const std::string& k, uint16_t d) const { return has(k) ? get_u16(k) : d; }
  uint8_t get_u8_or(const std::string& k, uint8_t d) const { return has(k) ? get_u8(k) : d; }
  bool get_bool_or(const std::string& k, bool d) const { return has(k) ? get_bool(k) : d; }
  double get_float_or(const std::string& k, double d) const { return has(k) ? get_float(k) : d; }
  /// `d` in network byte order, as `get_ipv4` returns (`ipv4_addr(10, 0, 0, 1)`).
  uint32_t get_ipv4_or(const std::string& k, uint32_t d) const { return has(k) ? get_ipv4(k) : d; }
  std::string get_string_or(const std::string& k, const std::string& d) const {
    return has(k) ? get_string(k) : d;
  }

  /// Throws ConfigError for `key` with `reason`; for NF-specific validation.
  [[noreturn]] void fail(const std::string& key, const std::string& reason) const {
    throw ConfigError(file() + ": key `" + key + "`: " + reason);
  }

 private:
  // RFC 4291 §2.2 forms 1 and 2: eight groups of 1-4 hex digits, one "::" for zero groups.
  static bool parse_ipv6(const std::string& s, uint16_t* out) {
    uint16_t head[8], tail[8];
    int nh = 0, nt = 0;
    bool gap = false;
    size_t i = 0;
    if (s.compare(0, 2, "::") == 0) {
      gap = true;
      i = 2;
    }
    while (i < s.size()) {
      uint32_t v = 0;
      size_t d = 0;
      for (; i < s.size() && d < 5; ++i, ++d) {
        char c = s[i];
        int x = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (x < 0) break;
        v = v * 16 + uint32_t(x);
      }
      if (d == 0 || d > 4 || nh + nt >= 8) return false;
      (gap ? tail[nt++] : head[nh++]) = uint16_t(v);
      if (i == s.size()) break;
      if (s[i] != ':') return false;
      if (i + 1 < s.size() && s[i + 1] == ':') {
        if (gap) return false;
        gap = true;
        i += 2;
      } else {
        if (++i == s.size()) return false;
      }
    }
    if (gap ? nh + nt > 7 : nh != 8) return false;
    for (int k = 0; k < 8; ++k) out[k] = 0;
    for (int k = 0; k < nh; ++k) out[k] = head[k];
    for (int k = 0; k < nt; ++k) out[8 - nt + k] = tail[k];
    return true;
  }

  mutable std::vector<bool> used_;
  const tandem_cfg* raw_;

  // Built on first use: each key's item (the first, if a key repeats), and every key and
  // every prefix of one that ends before a '.' or '[' (what has_prefix asks), so lookups
  // cost O(1) and configure() stays linear in a large configuration (a region's VMs).
  mutable std::unordered_map<std::string, size_t> index_;
  mutable std::unordered_set<std::string> prefixes_;
  mutable bool indexed_ = false;

  void build_index() const {
    if (indexed_ || !raw_) return;
    indexed_ = true;
    index_.reserve(raw_->n_items);
    for (size_t i = 0; i < raw_->n_items; ++i) {
      std::string k = raw_->items[i].key;
      index_.emplace(k, i);
      prefixes_.insert(k);
      for (size_t p = 0; p < k.size(); ++p)
        if (k[p] == '.' || k[p] == '[') prefixes_.insert(k.substr(0, p));
    }
  }

  const tandem_cfg_item* find(const std::string& key) const {
    if (!raw_) return nullptr;
    build_index();
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    if (used_.size() < raw_->n_items) used_.resize(raw_->n_items, false);
    used_[it->second] = true;
    return &raw_->items[it->second];
  }

  bool has_prefix(const std::string& prefix) const {
    if (!raw_) return false;
    build_index();
    return prefixes_.count(prefix) != 0;
  }

  const tandem_cfg_item* require(const std::string& key) const {
    const tandem_cfg_item* it = find(key);
    if (!it) {
      if (has_prefix(key)) fail(key, "expected a value, found a table or array");
      fail(key, "missing");
    }
    return it;
  }

  static std::string describe(const tandem_cfg_item* it) {
    switch (it->kind) {
      case TANDEM_CFG_INT: return "integer " + std::to_string(it->i);
      case TANDEM_CFG_FLOAT: return "number " + std::to_string(it->f);
      case TANDEM_CFG_STRING: return "string \"" + std::string(it->s) + "\"";
      case TANDEM_CFG_BOOL: return it->i ? "boolean true" : "boolean false";
    }
    return "unknown value";
  }

  int64_t int_in(const std::string& key, int64_t lo, int64_t hi, const char* what) const {
    const tandem_cfg_item* it = require(key);
    if (it->kind != TANDEM_CFG_INT) fail(key, std::string("expected an ") + what + ", found " + describe(it));
    if (it->i < lo || it->i > hi)
      fail(key, std::string("expected an ") + what + ", found " + std::to_string(it->i) + " (out of range)");
    return it->i;
  }
};

}  // namespace tandem
