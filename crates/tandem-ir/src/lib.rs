//! The NF IR: the typed, SSA-form, per-packet program that every Tandem compiler stage works
//! on — its data model, semantic contract, text form, verifier and interpreter.
//!
//! The lifter (`tandem-lift`) builds a [`Module`] from a C++ network function; analyses,
//! the partitioner and the back ends read it. This crate depends on no other Tandem crate,
//! does no I/O, uses no clocks or threads and is deterministic. It stores no analysis
//! results: those are values computed beside the IR.
//!
//! # Data model
//!
//! * A [`Module`] has a name, a file table (for [`SourceLoc`]s), global **state objects**
//!   ([`StateObject`]: `hashmap`, `vector`, `scalar`, `expiring_map`, `lpm_map`,
//!   `ternary_map`, `range_map`, `meter`, with [`Layout`]s), one
//!   per-packet function `process` ([`Function`]), optionally a **timer** ([`Timer`]: an
//!   interval and the function `on_timer` run at each tick), and the names of **server-only
//!   functions** (`configure`, ...) that are not lifted and run only on the server.
//! * Objects live in arenas ([`Arena`]) and are named by typed indices: [`Block`], [`Value`],
//!   [`Inst`], [`StateId`], [`FileId`].
//! * A [`Function`] is a list of blocks; `block0` is the entry. A block has **parameters**
//!   (the SSA join mechanism — there are no phi instructions; branches pass arguments) and a
//!   list of instructions whose last one is its only terminator (`br`, `brif`, `switch`,
//!   `return`). Every instruction ([`InstData`]) has an [`InstKind`], result values, and an
//!   optional [`SourceLoc`]. Values have an integer [`Type`] `i1`..`i64`.
//! * Loops are ordinary back edges in the CFG (the partitioner keeps them off the switch).
//!
//! Build modules with [`Module::new`], [`Module::add_state`], [`Module::add_file`],
//! [`Module::add_server_function`] and the [`FuncBuilder`] from [`Module::builder`]; then
//! [`verify_module`], [`print_module`], [`parse_module`], and [`Interpreter`]. [`renumber`]
//! gives values canonical numbers before printing golden files.
//!
//! # Semantic contract
//!
//! `process` runs once per packet, to completion, against the packet, its metadata and the
//! global state. Instructions execute one at a time in block order; each completes (all its
//! reads, then its writes) before the next starts. Operands are evaluated before the
//! operation; there is no other evaluation-order freedom and no undefined behaviour: every
//! operation is total, and the cases where the C++ original has undefined behaviour are given
//! one fixed result here (noted below). A program that relies on them is not guaranteed to
//! match the native build.
//!
//! ## Integers
//! Values of type `iN` are bit patterns of `N` bits (stored zero-extended in a `u64`); signed
//! operations read them as two's complement.
//! * `add`, `sub`, `mul` wrap around modulo `2^N`.
//! * `udiv`/`urem` are unsigned; `sdiv` truncates toward zero and `srem` takes the dividend's
//!   sign. **Division by zero is defined**: `x / 0 = 0` and `x % 0 = x` (signed and unsigned;
//!   this keeps `(x / y) * y + x % y == x`). `MIN sdiv -1 = MIN`, `MIN srem -1 = 0`. In C++
//!   these are undefined behaviour (on x86 they trap).
//! * `shl`, `lshr`, `ashr` take the amount as an unsigned `iN`; amounts `>= N` give `0`
//!   (`shl`, `lshr`) or all sign bits (`ashr`) — as P4 does; C++ leaves this undefined.
//! * `icmp` predicates `eq ne ult ule ugt uge slt sle sgt sge` give `i1` (1 = true).
//! * `zext`/`sext` widen, `trunc` keeps the low bits; `select c, a, b` is `a` if `c == 1`.
//! * `bswap` reverses the bytes of an `iN` with `N` a multiple of 8 (LLVM's `llvm.bswap`, and whole fields of declared headers).
//! * `const` results are given in decimal in the text form.
//!
//! ## Headers and byte order
//! Headers are those of the NF API: `eth`, `ipv4`, `tcp`, `udp`, with the fields and widths of
//! [`HeaderField`]. **A field's IR value is the big-endian number formed by its wire bytes**,
//! i.e. the value a P4 parser would extract: for `ipv4.daddr = 10.0.0.1` on the wire
//! (`0a 00 00 01`), `hdr.read ipv4.daddr` yields `0x0a000001`. `hdr.write f, v` stores `v`
//! big-endian into the field's bytes.
//!
//! The C++ header structs hold fields in network byte order in memory, and the analysis build
//! runs on a little-endian host, so the lifter must apply these rules:
//! 1. A load of a whole multi-byte header member (`ip->daddr`, an `i32` in LLVM) is
//!    `bswap(hdr.read ipv4.daddr)`; a store of `x` to it is `hdr.write ipv4.daddr, bswap(x)`.
//! 2. `ntohl`/`ntohs`/`htonl`/`htons` are `bswap` (LLVM already shows them as
//!    `llvm.bswap`), so `ntohl(ip->daddr)` is `bswap(bswap(hdr.read ...))` and simplifies to
//!    the plain field read — which is why byte swaps of whole fields vanish in P4.
//! 3. One-byte members (`ttl`, `protocol`, `tcp.flags`, ...) need no swap.
//! 4. Byte `i` of a field of `n` bytes (e.g. `eth.dst[i]` as a `uint8_t[6]`) is
//!    `trunc(lshr(field, 8*(n-1-i)))` to `i8`.
//!
//! **Presence** is decided once when the packet arrives, exactly as the NF API's native
//! accessors decide it (see [`parse_graph`]): `eth` if `len >= 14`; `ipv4` if
//! `eth`, `ethertype == 0x0800`, `len >= 34`, version 4, `ihl >= 5` and `len >= 14 + 4*ihl`;
//! `tcp` if `ipv4`, `protocol == 6` and `len >= l4 + 20`; `udp` if `ipv4`, `protocol == 17`
//! and `len >= l4 + 8`, where `l4 = 14 + 4*ihl`. A module may declare more headers
//! (`header vlan {tci: i16, ethertype: i16}`) and parse-graph edges
//! (`parse eth.ethertype == 0x8100 -> vlan`, `parse vlan.ethertype == 0x800 -> ipv4`); the
//! offsets then follow the graph. Writes to `ethertype`, `version_ihl`, `protocol` or any select
//! field do not change presence or offsets. `hdr.valid h` tests presence. As in P4,
//! reading a field of an absent header gives 0 and writing one does nothing: the lifter turns
//! `tcp ? tcp->sport : udp->sport` into two reads and a `select`, and a store through such a
//! pointer into guarded writes. `hdr.push h` makes `h` present with every field 0 and
//! `hdr.pop h` makes it absent (each does nothing when `h` already is / is not present); the
//! frame that leaves is then, as a P4 deparser emits it, the present headers in
//! [`deparse_order`] (a parsed IPv4 header with its options) followed by the bytes after the
//! parsed headers — so a header pushed before another keeps every other header's fields as
//! they are. `meta.read length` stays the arrival length.
//!
//! ## Metadata
//! `meta.read in_port: i16` (arrival port), `meta.read length: i16` (frame length in bytes,
//! modulo 2^16), `meta.read now: i64` (arrival timestamp, ns).
//!
//! ## State
//! Keys, values and vector elements are passed as one SSA value per [`Layout`] field, in
//! layout order. State starts empty (maps) or zero (vectors, scalars); `configure` fills it on
//! the server before packets arrive.
//! * `v_hit:i1, v_fields... = map.find m(key...)`: `hit = 1` and the stored value fields if
//!   the key is present (and, for an expiring map, live), else `hit = 0` and all fields 0.
//!   A hit on an expiring map refreshes the entry's last-use time to `now`.
//! * `v_ok:i1 = map.insert m(key...) -> (value...)`: if the key is present, overwrite the
//!   value (ok = 1); else if the map holds fewer than `capacity` entries, add it (ok = 1);
//!   else do nothing (ok = 0). For an expiring map, expired entries are removed before the
//!   capacity check, and the entry's last-use time becomes `now`.
//! * `map.erase m(key...)`: remove the key if present.
//! * Expiring maps: an entry last used at `t` is live at packet time `now` iff
//!   `now - t <= idle_timeout_ns` (saturating), as in the native `tandem::ExpiringMap`.
//!   Expired entries behave as absent.
//! * LPM maps (`lpm_map<{addr: iN}, V, capacity>`, longest prefix match): an entry is a
//!   prefix `p` and a length `l` (`0 <= l <= N`, the bits of `p` below the top `l` are zero).
//!   `map.find m(a)` hits the entry with the **longest** `l` whose top `l` bits equal `a`'s
//!   (unsigned, most significant bit first; `l = 0` matches everything); finds do not change
//!   the map. `map.insert m(p, l) -> (value...)` and `map.erase m(p, l)` take the length as an
//!   `i8`; `p` is masked to its top `l` bits first (as the native `tandem::LpmMap`); `l > N`
//!   inserts nothing (ok = 0) and erases nothing. Capacity counts prefixes. The state dump
//!   key of an entry is the prefix (as the key field) followed by one byte of length. A
//!   prefix may span the key's last `n` fields (`lpm_map<K, V, capacity, n>`, all of one
//!   width `w`: an IPv6 address as two `i64`s), read as one `n·w`-bit number, the first of
//!   them most significant; `l` is then `0..=n·w` and `p` is each of those fields.
//! * Ternary maps (`ternary_map<K, V, capacity>`): an entry is a key, a mask (one per key
//!   field) and a priority `p` (`1 <= p <= 2^31-1`, [`MAX_PRIORITY`]), the key stored masked.
//!   `map.find m(k...)` hits the entry with the **highest priority** among those with
//!   `k_i & mask_i == key_i` for every field. `map.insert m(key..., mask..., p) -> (value...)`
//!   overwrites the entry with that key (masked), mask and priority; otherwise it inserts
//!   nothing (ok = 0) when another entry already has priority `p` (priorities are distinct,
//!   so a lookup never depends on the order of entries), when `p` is out of range, or when
//!   the map is full; `map.erase m(key..., mask..., p)` removes that entry. `p` is an `i32`.
//!   Dump key: the key, the mask (each as the key layout), then the priority in 4 bytes.
//! * Range maps (`range_map<{k: iN}, V, capacity>`): entries are `lo..=hi` (unsigned) with a
//!   priority, with the ternary maps' rules; `map.find m(k)` hits the highest-priority entry
//!   with `lo <= k <= hi`; `map.insert m(lo, hi, p) -> (value...)` refuses `lo > hi` too;
//!   `map.erase m(lo, hi, p)`. Dump key: lo, hi, priority.
//! * `fields... = vec.get v[i]`, `vec.set v[i](fields...)`: element `i` (unsigned, any width).
//!   An index `>= len` is an interpreter error (undefined behaviour in C++).
//! * `x = scalar.load s`, `scalar.store s, x`.
//! * `c:i8 = meter.execute m[i]` (`meter<len, bytes|packets>`, [`meter`]): executes meter `i`
//!   — a two-rate three-colour marker (RFC 2698, colour-blind) with its rates, bursts and
//!   bucket levels in the state — for this packet: its arrival time `now` and, for a `bytes`
//!   meter, its frame length (1 for `packets`). `c` is 0 (green), 1 (yellow) or 2 (red);
//!   an index `>= len` gives 0 and changes nothing, as does a meter whose configuration is
//!   all zero (never configured). The exact integer arithmetic is in [`meter`]; the state
//!   dump of a meter array lists its non-zero cells keyed by index (like a vector), each
//!   value the seven words `cir, cburst, pir, pburst, tc, tp, last_ns`.
//! * `h = hash ALGO(a, b, ...)`: [`HashAlgo`] over the operands' values, each big-endian at
//!   its type's width (a multiple of 8 bits), concatenated — v1model's `hash` extern on
//!   BMv2 over the field list `{a, b, ...}`. No effects.
//!
//! ## The timer
//! A module with a [`Timer`] runs `on_timer` at every multiple `k·interval_ns` of packet time
//! that an arriving packet's timestamp reaches (`k·interval <= now`), in order, before that
//! packet; the first packet fixes the start (its own time fires nothing), and a gap of more
//! than 100,000 intervals fires only its last tick — the reference host's rule
//! (`tandem_host::host`). `on_timer` runs to completion against the global state alone, with
//! the same state instructions and their semantics as `process`; it has **no packet**, so
//! header instructions, `meta.read in_port`/`length`, `send`, `drop` and `opaque` are not
//! allowed in it (the verifier checks), and `meta.read now` is the tick's time (the store's
//! clock, which expiring maps age by, advances to it). Loops (back edges) are ordinary
//! control flow: `on_timer` always runs on the server, so resetting every element of a
//! vector is a loop of `vec.set`s.
//!
//! ## Packet fate
//! `send p` (`p: i16`) and `drop` set the packet's fate; **the last one executed wins**.
//! Reaching `return` without any `send` or `drop` drops the packet. After `return` the
//! packet (with all header writes applied) goes out on the chosen port.
//!
//! ## Opaque code
//! `results = opaque "name"(args) reads [...] writes [...]` stands for code the lifter did not
//! understand (payload access, checksums over the payload, unknown calls). It pins its
//! statement to the server. Its [`Effect`] sets (`payload`, header fields, `state NAME`,
//! `action`, `all`) are what dependency analysis must assume it reads and writes; nothing else
//! is known about it. The interpreter runs it through an [`OpaqueHandler`].
//!
//! # Text form
//!
//! ```text
//! nf minilb
//!
//! file f0 = "examples/nfs/minilb/minilb.cc"
//!
//! state conn: hashmap<{hash: i16 @0} size 2, {backend: i32 @0} size 4, 65536>
//! state backends: vector<{addr: i32 @0} size 4, 4>
//!
//! server fn configure
//!
//! fn process {
//! block0:
//!     v0:i1 = hdr.valid ipv4 at f0:20:13
//!     brif v0, block1, block2
//!
//! block1:
//!     v1:i32 = hdr.read ipv4.saddr at f0:22:21
//!     v2:i16 = trunc v1
//!     v3:i1, v4:i32 = map.find conn(v2)
//!     v5:i1 = map.insert conn(v2) -> (v1)
//!     hdr.write ipv4.daddr, v4
//!     v6:i16 = const 1
//!     send v6
//!     return
//!
//! block2:
//!     drop
//!     return
//! }
//! ```
//!
//! * Sections in order: `nf NAME`; `file fN = "path"` (numbered from 0); `state NAME: KIND`;
//!   `server fn NAME`; `fn process { ... }`; with a timer, `fn on_timer every INTERVAL_NS {
//!   ... }` (value and block numbers are per function). Sections are separated by one blank
//!   line.
//! * State kinds: `hashmap<K, V, capacity>`, `vector<E, len>`, `scalar<iN>`,
//!   `expiring_map<K, V, capacity, idle_timeout_ns>`, `lpm_map<K, V, capacity>`,
//!   `ternary_map<K, V, capacity>`, `range_map<K, V, capacity>`, `meter<len, bytes|packets>`.
//!   A layout is `{name: iN, ...}`; a field
//!   may carry its C++ byte offset `@off` and the layout its C++ `size N`.
//! * An instruction may end with its C++ position, `at fN:LINE:COL`; code inlined from a library
//!   header (the NF API's `tandem/state.hh`) adds the NF's own line that called into it:
//!   `v3:i1, v4:i32 = map.find conn(v2) at f2:66:34 from f0:23:20` ([`SourceLoc::site`];
//!   reports show that line).
//! * Every instruction result is written with its type (`v3:i32 = ...`); block parameters
//!   likewise (`block3(v7:i32):`). Value and block numbers are kept as written; blocks must be
//!   numbered `block0..blockN` (in any order; printed in order).
//! * `at fN:LINE:COL` after an instruction is its source location.
//! * `;` starts a comment to the end of the line (comments are not preserved).
//! * Numbers may be written in hex (`0xffff`) by hand; the printer writes decimal.
//! * Canonical text (what [`print_module`] emits): 4-space indentation of instructions, one
//!   blank line between blocks, decimal constants. `print(parse(t)) == t` for canonical `t`;
//!   for any verified `m`, `parse(print(m))` equals `m` up to the numbering of instructions
//!   (which the text does not show) and instructions not placed in any block, so
//!   `print(parse(print(m))) == print(m)`.

mod entity;
pub mod hash;
pub mod hash_mod;
mod header;
mod inst;
pub mod interp;
pub mod meter;
mod module;
mod parse;
pub mod parse_graph;
pub mod payload;
mod print;
mod renumber;
mod state;
mod types;
pub mod verify;
pub mod words;

pub use entity::{Arena, Block, EntityRef, FileId, Inst, StateId, Value};
pub use header::{Header, HeaderDecl, HeaderError, HeaderField, Meta, MAX_HEADER_FIELDS};
pub use inst::{
    crc32_iter, BinOp, BlockCall, CastOp, Effect, HashAlgo, InstKind, IntCC, SourceLoc, SourcePos,
};
pub use interp::{
    Action, DumpEntry, DumpFormat, InterpError, InterpOptions, Interpreter, Machine, MapRules,
    OpaqueHandler, Outcome, Packet, StateDump, StateStore, Step, StoreError,
};
pub use meter::{MeterCell, MeterUnit};
pub use module::{
    BlockData, FuncBuilder, FuncId, Function, InstData, InstEffects, Module, Timer, ValueData,
    ValueDef,
};
pub use parse::{parse_module, ParseError};
pub use parse_graph::{deparse_order, HeaderOffsets, ParseEdge};
pub use print::{print_inst, print_layout, print_module};
pub use renumber::renumber;
pub use state::{Layout, LayoutField, MapMatch, StateKind, StateObject, MAX_PRIORITY};
pub use types::Type;
pub use verify::{verify_module, ErrorLocation, VerifyError, VerifyErrors};

#[cfg(test)]
mod tests {
    /// The example in the crate docs is canonical text of a valid module.
    #[test]
    fn doc_example_round_trips() {
        let doc = include_str!("lib.rs");
        let text: String = doc
            .lines()
            .skip_while(|l| !l.starts_with("//! nf minilb"))
            .take_while(|l| !l.starts_with("//! ```"))
            .map(|l| {
                format!(
                    "{}\n",
                    l.trim_start_matches("//!").strip_prefix(' ').unwrap_or("")
                )
            })
            .collect();
        let m = crate::parse_module(&text).unwrap();
        crate::verify_module(&m).unwrap();
        assert_eq!(crate::print_module(&m), text);
    }
}
