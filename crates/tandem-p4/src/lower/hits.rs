//! Per-entry hit counters of a partial map's switch table (Sailfish §4.2, CLIP §III-D):
//! a direct counter on the table, one packet count per entry, incremented by every lookup
//! that hits the entry. The runtime reads the counts of all entries of the table at once
//! (P4Runtime: the table's `DirectCounterEntry`s) and takes the difference since its last
//! read as the entry's hotness (`--hotness counters`), the alternative to the count-min
//! sketch (`lower/sketch.rs`), which also counts lookups of keys the table does not hold.
//!
//! ```text
//! before: table map { key = { meta.map_k0: exact; } actions = { map_hit; map_miss; } }
//! after (v1model):
//!   direct_counter(CounterType.packets) map_hits;
//!   action map_hit(bit<32> v) { meta.v10 = v; meta.v9 = 1w1; map_hits.count(); }
//!   table map { key = { meta.map_k0: exact; } actions = { map_hit; map_miss; }
//!               counters = map_hits; }
//! after (TNA): `DirectCounter<bit<32>>(CounterType_t.PACKETS) map_hits;`, the same
//!   `counters` property and `count()` call (TNA counts only where an action calls it;
//!   v1model counts every hit, and the call is allowed).
//! ```
//!
//! The write-back table of the map gets one too: a key a batch installs sits there until
//! the next batch retires it into the main table, and its hits meanwhile count there. The
//! runtime sums a key's counts over the tables; the retirement deletes the write-back
//! entry, so the hits since the runtime's last read of it are lost (a key's hits between
//! two batches, once per installation). Only the hit action counts (TNA counts where an
//! action calls `count()`; v1model counts every hit, a deleted marker's too — a key the
//! switch does not hold, whose score the runtime does not read).

use tandem_p4_syntax::{DeclKind, Expr, Stmt, Type};

use super::{Gen, INGRESS};
use crate::build::*;
use crate::manifest;

impl Gen<'_, '_> {
    /// Whether `state`'s tables count their entries' hits (it is a partial map).
    pub(super) fn counts_hits(&self, state: &str) -> bool {
        self.view
            .plan
            .states
            .iter()
            .any(|s| s.name == state && s.partial.is_some())
    }

    /// Declares the direct counter of table `tname`; returns its name.
    pub(super) fn declare_hit_counter(&mut self, tname: &str) -> String {
        let cname = format!("{tname}_hits");
        let (ty, args) = if self.tna() {
            (
                Type::Named {
                    name: "DirectCounter".into(),
                    args: vec![Type::Bit(32)],
                },
                vec![member(name("CounterType_t"), "PACKETS")],
            )
        } else {
            (
                Type::Named {
                    name: "direct_counter".into(),
                    args: Vec::new(),
                },
                vec![member(name("CounterType"), "packets")],
            )
        };
        self.locals.push(decl(DeclKind::Instantiation {
            ty,
            args,
            name: cname.clone(),
        }));
        cname
    }
}

/// `<counter>.count();` in the table's hit action.
pub(super) fn count_hit(counter: &str) -> Stmt {
    call_stmt(method(name(counter), "count", vec![]))
}

/// The table property `counters = <counter>;`.
pub(super) fn counters_property(counter: &str) -> (String, Expr) {
    ("counters".into(), name(counter))
}

/// The manifest's record of table `tname`'s direct counter.
pub(super) fn manifest_hit_counter(tname: &str, counter: &str) -> manifest::HitCounter {
    manifest::HitCounter {
        table: format!("{INGRESS}.{tname}"),
        counter: format!("{INGRESS}.{counter}"),
    }
}
