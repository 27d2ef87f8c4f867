//! Software P4-16 (v1model and TNA) switch with specialised tables and atomic control.
//!
//! Tandem's default target: it runs the generated `switch.p4` (and hand-written
//! v1model programs) so the offloaded NF can be run, tested and measured
//! without a hardware switch. It is ESWITCH applied to P4.
//!
//! # Pipeline
//! `pipeline::compile` runs steps 2–4 in order; `program` holds the data they pass on.
//! 1. [`tandem_p4_syntax`] parses the source (or the P4 back end hands over an
//!    AST: [`Switch::from_program`]).
//! 2. `check` resolves names, types and widths, binds the program to v1model
//!    (`V1Switch`, `standard_metadata_t`, externs), folds constants, and lowers
//!    it to statement trees over *slots* (one flat `u64` vector per packet for
//!    metadata, locals and action parameters) and *field locations* (big-endian
//!    windows in the packet buffer). All diagnostics are collected, with
//!    line:column.
//! 3. `opt` optimises the control blocks' trees (off with
//!    [`CompileOptions`]): slot liveness over the structured code (table
//!    applies as calls of any of their actions; user metadata and locals are
//!    internal, `standard_metadata` and header validity observable), forward
//!    substitution of temporaries into their single later use (copies and
//!    constants into every use), and removal of dead and self assignments.
//! 4. `flatten` flattens the trees into one instruction array (jumps for `if`,
//!    `switch` and parser transitions, call/return for actions); `exec` runs it
//!    in a single loop. Optimised programs have their assignments and branch
//!    conditions lowered to register ops: three-address code over slots with
//!    per-statement temporaries past the program's slots, constant operands
//!    and compare-and-branch inline, byte swaps fused with field loads and
//!    stores, and the shift or mask making an operand fused into the `+` or
//!    `^` using it (the checksum-update idiom). Headers are not copied: `extract` records where a header
//!    starts, fields are read and written in the packet buffer, and when the
//!    deparser emits exactly the parsed headers the modified buffer *is* the
//!    output frame. csum16 over header bytes is summed in place.
//! 5. `table` compiles each table to the classifier that fits its current
//!    entries: none → default action; ≤ [`LINEAR_MAX`] entries or any range →
//!    straight-line compares; every entry exact → one hash probe; a single `lpm`
//!    key → an 8-bit-stride trie; otherwise tuple-space search (one hash per
//!    mask).
//!    Tables whose keys are all `exact` keep their entries in a persistent hash
//!    trie instead, so a batch of k operations on an n-entry exact table costs
//!    O(k log n) plus an amortised O(k) for remaking the flat index packets
//!    probe (a few µs for one entry into 50,000), not a rebuild.
//! 6. [`Switch`] holds all table state in one immutable snapshot behind an
//!    `ArcSwap`. [`Switch::apply_batch`] builds new table states (and
//!    classifiers) beside the old ones and publishes them with one pointer swap;
//!    a packet reads the snapshot once, so it sees a whole batch or none of it.
//!    Packets never take the control-plane lock.
//!
//! # Using it
//! ```no_run
//! use tandem_switch::{KeyMatch, Switch, TableEntry};
//! let src = std::fs::read_to_string("lpm.p4").unwrap();
//! let sw = Switch::from_source(&src).unwrap();
//! sw.insert("ipv4_lpm", TableEntry {
//!     matches: vec![KeyMatch::Lpm(0x0a00_0000, 8)],
//!     action: "ipv4_forward".into(),
//!     args: vec![0x0000_0000_0002, 2],
//!     priority: None,
//! }).unwrap();
//! let mut w = sw.worker(); // one per packet thread
//! let frame = [0u8; 64];
//! if let Some((port, out)) = w.process(1, &frame) {
//!     let _ = (port, out);
//! }
//! ```
//!
//! # v1model semantics followed (BMv2 `simple_switch`)
//! A parser error does not drop the packet: it reaches ingress with
//! `parser_error` set (`PacketTooShort`, `NoMatch`). `egress_spec` = 511
//! ([`DROP_PORT`]) after ingress or after egress drops it; `mark_to_drop` sets it
//! and clears `mcast_grp`. Unparsed bytes follow the deparsed headers. Fields of
//! invalid headers and uninitialised metadata read as zero. Registers and
//! counters are per-index atomics (a read-modify-write in P4 is not atomic
//! across threads, as in BMv2 without `@atomic`).
//!
//! `meter` arrays (`execute_meter`) follow BMv2's two-rate three-colour marker in exact
//! integer arithmetic on the packet's time ([`MeterCell`]; `meter` module docs); the
//! control API reads and writes whole cells ([`Switch::meter_read`],
//! [`Switch::meter_write`]).
//!
//! # TNA
//! A program instantiating `Switch(pipe0 [, pipe1, ...]) main;` of `Pipeline`s is bound to
//! TNA (`check::tna`: intrinsic metadata, `Register`/`Hash`/`Meter`/`Counter`/
//! `DirectCounter`) and run pass by pass (`tna`: ingress, traffic manager on `drop_ctl` and
//! `ucast_egress_port`, egress; port P in pipe `P >> 7`; loopback ports from
//! [`CompileOptions::loopback`] re-enter ingress, at most [`MAX_INGRESS_PASSES`] times).
//!
//! Not modelled: clone/resubmit/recirculate, multicast, direct meters, digests,
//! `random`, `verify()` in parsers, header stacks and unions, varbit, values
//! wider than 64 bits, parser value sets, `lookahead`/`advance`, direct counters
//! (accepted and ignored). Frames longer than ~128 KiB are dropped.
//!
//! Invariant: no file or network I/O in this crate; callers pass bytes in and
//! out (the `tandem switch` command reads and writes pcaps).

mod ageing;
pub mod bench;
mod check;
mod cow;
mod deparse;
pub mod entries;
mod exec;
mod flatten;
mod hash;
mod lpm;
mod meter;
mod native;
mod opt;
mod pipeline;
mod pmap;
mod program;
mod switch;
mod table;
mod tna;

pub use ageing::AgeList;
pub use check::{Diagnostic, TNA_INTRINSIC};
pub use entries::{
    apply_commands, apply_entries, parse_commands, parse_entries, parse_value, Command,
    EntriesError,
};
pub use meter::MeterCell;
pub use native::BlockStatus;
pub use program::{MatchKind, DROP_PORT};
pub use switch::{
    AgeReader, CompileOptions, ControlError, ControlOp, Engine, KeyMatch, LoadError, Switch,
    TableEntry, TableInfo, Worker, FAULT_ADD, FAULT_CSUM, FAULT_TABLE_ARGS,
};
pub use table::{ClassifierKind, LINEAR_MAX, MAX_KEYS};
pub use tna::{PortSet, MAX_INGRESS_PASSES};
