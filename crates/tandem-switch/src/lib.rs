//! Software P4-16 (v1model) switch with specialised tables and atomic control.
//!
//! Pipeline: [`tandem_p4_syntax`] parses the program; `check` resolves names,
//! widths and the v1model binding and lowers it to a flat executable form
//! (`exec`: every field a slot in one `u64` vector, precomputed header layouts,
//! no strings at packet time); `table` compiles each table to the classifier that
//! fits its current entries; [`Switch`] owns the tables behind an atomically
//! swapped snapshot and exposes the control API; [`Worker`] processes packets.
//!
//! ```no_run
//! use tandem_switch::{Switch, TableEntry, KeyMatch};
//! let sw = Switch::from_source(&std::fs::read_to_string("lpm.p4").unwrap()).unwrap();
//! sw.insert("ipv4_lpm", TableEntry {
//!     matches: vec![KeyMatch::Lpm(0x0a000000, 8)],
//!     action: "ipv4_forward".into(),
//!     args: vec![0x0000_0000_0002, 2],
//!     priority: None,
//! }).unwrap();
//! let mut w = sw.worker();
//! let frame = [0u8; 64];
//! if let Some((port, out)) = w.process(1, &frame) { let _ = (port, out); }
//! ```
//!
//! v1model semantics followed (BMv2 `simple_switch`): a parser error does not
//! drop the packet (it reaches ingress with `parser_error` set); `egress_spec`
//! 511 after ingress, or after egress, drops; unparsed bytes are appended after
//! the deparsed headers. Not modelled: clone, resubmit, recirculate, multicast,
//! meters, digests, header stacks and unions, varbit, values wider than 64 bits.
//!
//! Invariant: no file or network I/O in this crate; callers pass bytes in and out.

pub mod bench;
mod check;
pub mod entries;
mod exec;
mod hash;
mod switch;
mod table;
mod vm;

pub use check::Diagnostic;
pub use entries::{apply_commands, parse_commands, parse_value, Command, EntriesError};
pub use exec::{MatchKind, DROP_PORT};
pub use switch::{
    ControlError, ControlOp, KeyMatch, LoadError, Switch, TableEntry, TableInfo, Worker,
};
pub use table::{ClassifierKind, LINEAR_MAX, MAX_KEYS};
