// Tandem NF API: the C ABI between a native NF shared object and the Tandem host.
//
// The registration macro TANDEM_NF (nf.hh) defines the tandem_nf_* functions below in the
// native build. The host (crate tandem-host, module `native`) loads the shared object and
// calls them. Bump TANDEM_NF_ABI_VERSION on any change and mirror it in tandem-host.
#pragma once

#include <cstddef>
#include <cstdint>

#define TANDEM_NF_ABI_VERSION 2u

extern "C" {

/// One packet handed to the NF. `data` holds `len` bytes of the frame (starting with the
/// Ethernet header) and may be rewritten in place. The NF sets `out_port` (-1 = drop). An NF
/// that pushed or popped a header points `data` at the rebuilt frame (`len` bytes in a buffer
/// of the calling thread's, valid until its next call) — the host copies it out (version 2).
struct tandem_pkt {
  uint8_t* data;
  uint32_t len;
  uint32_t in_port;
  uint64_t now_ns;
  int32_t out_port;
  uint32_t reserved;
};

enum tandem_cfg_kind : uint32_t {
  TANDEM_CFG_INT = 0,
  TANDEM_CFG_FLOAT = 1,
  TANDEM_CFG_STRING = 2,
  TANDEM_CFG_BOOL = 3,
};

/// One scalar of the configuration file, flattened: tables become dotted keys (`a.b`),
/// arrays indexed keys (`a[0]`, `a[0].ip`). Integers are in `i`, booleans in `i` (0/1).
struct tandem_cfg_item {
  const char* key;
  uint32_t kind;
  int64_t i;
  double f;
  const char* s;
};

/// The whole configuration: the file it came from (for error messages) and its items.
struct tandem_cfg {
  const char* file;
  const tandem_cfg_item* items;
  size_t n_items;
};

}  // extern "C"
