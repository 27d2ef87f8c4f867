//! `tandem/server.h`: the ABI between a generated `server.cc` and the Tandem runtime.

/// The ABI version (`TANDEM_SERVER_ABI_VERSION`, returned by `tandem_server_abi_version`).
pub const SERVER_ABI_VERSION: u32 = 3;

/// Where `server.cc` includes the header from.
pub const SERVER_H_PATH: &str = "tandem/server.h";

/// The header text.
pub const SERVER_H: &str = r#"// tandem/server.h — the ABI between a generated server partition (server.cc) and the
// Tandem runtime. Version 3 (version 2: a partition that pushes or pops headers may point
// `data` at a frame of another length, which the runtime copies out right after the call;
// version 3: meter_execute). C ABI; the runtime loads server.so and calls
// tandem_server_process once per packet that the switch sent to the server (and
// tandem_server_timer at every timer tick, for an NF with on_timer()).
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TANDEM_SERVER_ABI_VERSION 3u

extern "C" {

// State operations. `state` is the state object's index in the NF's declaration order
// (manifest `states`, plan `states`); keys, values and vector elements are arrays of
// uint64_t, one per layout field, in layout order. The runtime owns the primary copy of every
// state object and synchronises replicated ones with the switch (atomic update, output commit).
// On an LPM map (`lpm_map`, longest prefix match) map_find's key is the looked-up address
// (the longest matching prefix's value is returned), and map_insert's and map_erase's key is
// {prefix, prefix length} (two words). On a ternary or range map (`ternary_map`, `range_map`)
// map_find's key is the looked-up key (the highest-priority matching entry's value is
// returned), and map_insert's and map_erase's key names the entry: {key fields..., mask
// fields..., priority}, or {lo, hi, priority}.
typedef struct tandem_state_ops {
    void* ctx;
    // 1 and the value on a hit, else 0 (value untouched).
    int (*map_find)(void* ctx, uint32_t state, const uint64_t* key, uint64_t* value);
    // 1 if stored, 0 if the map is full.
    int (*map_insert)(void* ctx, uint32_t state, const uint64_t* key, const uint64_t* value);
    void (*map_erase)(void* ctx, uint32_t state, const uint64_t* key);
    void (*vec_get)(void* ctx, uint32_t state, uint64_t index, uint64_t* elem);
    void (*vec_set)(void* ctx, uint32_t state, uint64_t index, const uint64_t* elem);
    uint64_t (*scalar_load)(void* ctx, uint32_t state);
    void (*scalar_store)(void* ctx, uint32_t state, uint64_t value);
    // Code the lifter did not understand (`opaque "name"` in the NF IR), run by the runtime
    // against the packet; results[0..nresults] receive its results.
    void (*opaque)(void* ctx, const char* name, const uint64_t* args, uint32_t nargs,
                   uint64_t* results, uint32_t nresults, uint8_t* pkt, uint32_t len);
    // Executes meter `index` of a meter array for a packet of `frame_len` bytes that arrived
    // at `now_ns` (NF IR `meter.execute`); the colour: 0 green, 1 yellow, 2 red.
    uint8_t (*meter_execute)(void* ctx, uint32_t state, uint64_t index, uint64_t now_ns,
                             uint64_t frame_len);
} tandem_state_ops;

// The packet as the NF sees it: the transfer header removed and the original EtherType
// restored by the runtime. Header writes are made in place.
typedef struct tandem_packet {
    uint8_t* data;
    uint32_t len;
    uint16_t in_port;   // the port the packet first arrived on, when the plan carries it
    uint64_t now_ns;    // arrival time
} tandem_packet;

// in[i], out[i]: the value of transfer-header field i (manifest transfer_header.fields,
// tag and pad included) as an unsigned integer. The server reads the fields pre wrote and
// writes every field of out: pre's values unchanged, its own values, and the fate.
// Returns 0.
int tandem_server_process(const tandem_state_ops* ops, tandem_packet* pkt,
                          const uint64_t* in, uint64_t* out);
// Only for an NF with on_timer(): the whole timer, which the runtime calls at every tick
// (`now`: the tick's time) on the primary copy, then bringing the switch up to date. Returns 0.
int tandem_server_timer(const tandem_state_ops* ops, uint64_t now);
uint32_t tandem_server_abi_version(void);

}  // extern "C"

// ---- helpers used by generated code (header presence and byte order as in the NF IR) ----

enum { TANDEM_ETH = 0, TANDEM_IPV4 = 1, TANDEM_TCP = 2, TANDEM_UDP = 3 };
// Declared headers (the NF's `TANDEM_HEADER`s) are numbered from 4 in declaration order.
#define TANDEM_MAX_HEADERS 32

#define TANDEM_SCRATCH 512

struct tandem_headers {
    int32_t off[TANDEM_MAX_HEADERS];  // byte offset of each header, -1 when absent
    uint32_t end;        // where the parsed headers end (the payload starts)
    uint32_t ipv4_len;   // the parsed IPv4 header's length, options included
    uint32_t frame_len;  // offsets from here on are pushed headers, in `scratch`
    uint32_t used;
    int relaid;          // a push or pop changed which headers are present
    uint8_t scratch[TANDEM_SCRATCH];
};

// One parse-graph edge: after header `from`, when its `sel_bytes`-byte field at `sel_at`
// equals `value` (always, when sel_bytes is 0), header `to` follows.
typedef struct tandem_parse_edge {
    int from;
    uint32_t sel_at;
    uint32_t sel_bytes;
    uint64_t value;
    int to;
} tandem_parse_edge;

static const tandem_parse_edge tandem_builtin_edges[3] = {
    {TANDEM_ETH, 12, 2, 0x0800, TANDEM_IPV4},
    {TANDEM_IPV4, 9, 1, 6, TANDEM_TCP},
    {TANDEM_IPV4, 9, 1, 17, TANDEM_UDP},
};

// The parse graph of the NF IR (tandem_ir::parse_graph): from Ethernet, at each header the
// first edge whose condition holds (the NF's edges, then the built-in ones); the next header
// is present when the whole of it is in the frame (IPv4: version 4, ihl >= 5, 4*ihl bytes).
// `sizes[i]` is declared header 4+i's size.
static inline tandem_headers tandem_parse_with(const uint8_t* p, uint32_t len,
                                               const tandem_parse_edge* edges, unsigned nedges,
                                               const uint32_t* sizes) {
    tandem_headers h;
    for (int i = 0; i < TANDEM_MAX_HEADERS; i++) h.off[i] = -1;
    h.end = 0;
    h.ipv4_len = 0;
    h.frame_len = len;
    h.used = 0;
    h.relaid = 0;
    if (len < 14) return h;
    h.off[TANDEM_ETH] = 0;
    h.end = 14;
    int cur = TANDEM_ETH;
    uint32_t at = 0, end = 14;
    for (unsigned step = 0; step <= nedges + 3; step++) {
        const tandem_parse_edge* e = 0;
        for (unsigned i = 0; i < nedges + 3 && !e; i++) {
            const tandem_parse_edge* c = i < nedges ? &edges[i] : &tandem_builtin_edges[i - nedges];
            if (c->from != cur) continue;
            uint64_t v = 0;
            for (uint32_t b = 0; b < c->sel_bytes; b++) v = (v << 8) | p[at + c->sel_at + b];
            if (v == c->value) e = c;
        }
        if (!e || e->to >= TANDEM_MAX_HEADERS || h.off[e->to] >= 0) break;
        uint32_t next_end;
        if (e->to == TANDEM_IPV4) {
            if (len < end + 20) break;
            uint32_t ihl = p[end] & 0x0f;
            if ((p[end] >> 4) != 4 || ihl < 5 || len < end + 4 * ihl) break;
            next_end = end + 4 * ihl;
        } else {
            uint32_t size = e->to == TANDEM_TCP ? 20 : e->to == TANDEM_UDP ? 8 : sizes[e->to - 4];
            if (len < end + size) break;
            next_end = end + size;
        }
        h.off[e->to] = (int32_t)end;
        if (e->to == TANDEM_IPV4) h.ipv4_len = next_end - end;
        cur = e->to;
        at = end;
        end = next_end;
        h.end = end;
    }
    return h;
}

// Byte `i` of the frame, or of a pushed header (offsets from frame_len on).
static inline uint8_t* tandem_byte(tandem_packet* pkt, tandem_headers* h, uint32_t i) {
    return i < h->frame_len ? &pkt->data[i] : &h->scratch[i - h->frame_len];
}

// NF IR `hdr.push`: header `id` (of `size` bytes) present with every byte 0.
static inline void tandem_push(tandem_headers* h, int id, uint32_t size) {
    if (h->off[id] >= 0 || h->used + size > TANDEM_SCRATCH) return;
    memset(h->scratch + h->used, 0, size);
    h->off[id] = (int32_t)(h->frame_len + h->used);
    h->used += size;
    h->relaid = 1;
}

// NF IR `hdr.pop`.
static inline void tandem_pop(tandem_headers* h, int id) {
    if (h->off[id] < 0) return;
    h->off[id] = -1;
    h->relaid = 1;
}

// After a push or pop: the frame as a deparser emits it (the present headers in `order`,
// then the bytes after the parsed headers), in a buffer of this thread's; `pkt` points at it.
static inline void tandem_deparse(tandem_packet* pkt, tandem_headers* h, const int* order,
                                  unsigned n, const uint32_t* sizes) {
    static thread_local uint8_t buf[65536 + TANDEM_SCRATCH];
    if (!h->relaid) return;
    uint32_t len = 0;
    for (unsigned k = 0; k < n; k++) {
        int id = order[k];
        if (h->off[id] < 0) continue;
        uint32_t at = (uint32_t)h->off[id];
        uint32_t size = id == TANDEM_ETH ? 14 : id == TANDEM_IPV4 ? (at < h->frame_len ? h->ipv4_len : 20)
                      : id == TANDEM_TCP ? 20 : id == TANDEM_UDP ? 8 : sizes[id - 4];
        for (uint32_t i = 0; i < size && len < sizeof(buf); i++) buf[len++] = *tandem_byte(pkt, h, at + i);
    }
    for (uint32_t i = h->end; i < h->frame_len && len < sizeof(buf); i++) buf[len++] = pkt->data[i];
    pkt->data = buf;
    pkt->len = len;
}

static inline tandem_headers tandem_parse(const uint8_t* p, uint32_t len) {
    return tandem_parse_with(p, len, 0, 0, 0);
}

// Big-endian value of `bytes` bytes at `at` in header `hdr`; 0 when the header is absent.
static inline uint64_t tandem_read(const tandem_packet* pkt, const tandem_headers* h, int hdr,
                                   uint32_t at, uint32_t bytes) {
    if (h->off[hdr] < 0) return 0;
    uint64_t v = 0;
    for (uint32_t i = 0; i < bytes; i++)
        v = (v << 8) | *tandem_byte((tandem_packet*)pkt, (tandem_headers*)h, (uint32_t)h->off[hdr] + at + i);
    return v;
}

// Stores `v` big-endian; ignored when the header is absent.
static inline void tandem_write(tandem_packet* pkt, const tandem_headers* h, int hdr,
                                uint32_t at, uint32_t bytes, uint64_t v) {
    if (h->off[hdr] < 0) return;
    for (uint32_t i = 0; i < bytes; i++)
        *tandem_byte(pkt, (tandem_headers*)h, (uint32_t)h->off[hdr] + at + bytes - 1 - i) = (uint8_t)(v >> (8 * i));
}

static inline uint64_t tandem_mask(unsigned bits) {
    return bits >= 64 ? ~0ull : ((1ull << bits) - 1);
}
static inline int64_t tandem_sext(uint64_t x, unsigned bits) {
    return bits >= 64 ? (int64_t)x : (int64_t)(x << (64 - bits)) >> (64 - bits);
}
static inline uint64_t tandem_udiv(uint64_t a, uint64_t b) { return b ? a / b : 0; }
static inline uint64_t tandem_urem(uint64_t a, uint64_t b) { return b ? a % b : a; }
static inline uint64_t tandem_sdiv(uint64_t a, uint64_t b, unsigned bits) {
    int64_t x = tandem_sext(a, bits), y = tandem_sext(b, bits);
    if (y == 0) return 0;
    if (y == -1) return (uint64_t)(0 - (uint64_t)x) & tandem_mask(bits);
    return (uint64_t)(x / y) & tandem_mask(bits);
}
static inline uint64_t tandem_srem(uint64_t a, uint64_t b, unsigned bits) {
    int64_t x = tandem_sext(a, bits), y = tandem_sext(b, bits);
    if (y == 0) return a;
    if (y == -1) return 0;
    return (uint64_t)(x % y) & tandem_mask(bits);
}
static inline uint64_t tandem_shl(uint64_t a, uint64_t b, unsigned bits) {
    return b >= bits ? 0 : (a << b) & tandem_mask(bits);
}
static inline uint64_t tandem_lshr(uint64_t a, uint64_t b, unsigned bits) {
    return b >= bits ? 0 : a >> b;
}
static inline uint64_t tandem_ashr(uint64_t a, uint64_t b, unsigned bits) {
    int64_t x = tandem_sext(a, bits);
    return (uint64_t)(x >> (b >= bits ? bits - 1 : b)) & tandem_mask(bits);
}
/* tandem::crc16 / crc32 / identity (NF IR `hash`): over the operands' big-endian bytes. */
static inline uint64_t tandem_hash(unsigned algo, const uint64_t* v, const unsigned* bits,
                                   unsigned n) {
    uint32_t c32 = 0xFFFFFFFFu;
    uint16_t c16 = 0;
    uint64_t id = 0;
    unsigned len = 0;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned k = bits[i] / 8; k-- > 0;) {
            uint8_t b = (uint8_t)(v[i] >> (8 * k));
            c32 ^= b;
            c16 ^= b;
            for (int j = 0; j < 8; j++) {
                c32 = (c32 & 1) ? (c32 >> 1) ^ 0xEDB88320u : c32 >> 1;
                c16 = (c16 & 1) ? (uint16_t)((c16 >> 1) ^ 0xA001u) : (uint16_t)(c16 >> 1);
            }
            if (len++ < 8) id = (id << 8) | b;
        }
    }
    return algo == 16 ? c16 : algo == 32 ? (uint64_t)(c32 ^ 0xFFFFFFFFu) : id;
}
static inline uint64_t tandem_bswap(uint64_t a, unsigned bits) {
    uint64_t r = 0;
    for (unsigned i = 0; i < bits / 8; i++) r = (r << 8) | ((a >> (8 * i)) & 0xff);
    return r;
}
"#;
