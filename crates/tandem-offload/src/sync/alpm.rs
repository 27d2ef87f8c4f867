//! The switch's copy of an LPM map held as ALPM (manifest `states[].alpm`, the lowering in
//! `tandem_p4::lower::alpm`): where the engine would write a main-table entry it records the
//! map's entry, and on flush rebuilds both levels from all of them
//! (`tandem_partition::alpm::lower_entries`) and rewrites the pivot and bucket tables of
//! every lookup copy.
//!
//! ```text
//! before (one LPM table):  insert routes[(7, 10.1.0.0/16)] = v → table write `routes: 7, 10.1.0.0/16 → hit(v)`
//! after (ALPM, depth D):   insert routes[(7, 10.1.0.0/16)] = v → entries += it; on flush:
//!                          routes_piv: clear; (pivot as ternary, priority = its length) → piv_hit(bucket, cover?, cover value)
//!                          routes:     clear; (bucket, 7, 10.1.0.0/16) → hit(v)
//! ```
//!
//! A rebuild is linear in the map's entries: meant for the read-mostly route tables ALPM is
//! for (Sailfish's are configured, not learnt per packet). Between the clear and the last
//! insert of a flush the switch may answer from a partial table; the maps lowered here are
//! written by the control plane at install, before traffic.

use std::collections::BTreeMap;

use tandem_ir::MapMatch;
use tandem_p4::manifest::AlpmMap;
use tandem_partition::alpm::lower_entries;
use tandem_switch::{ControlOp, KeyMatch, TableEntry};

use super::{send, SyncStats};
use crate::control::{entry_matches, ControlPlane, RetryPolicy};
use crate::OffloadError;

/// One ALPM map's tables and the entries they are built from.
#[derive(Debug)]
pub(super) struct AlpmSync {
    name: String,
    depth: usize,
    key_bits: Vec<u32>,
    value_fields: usize,
    /// (pivot table, its hit action), (bucket table, its hit action), per lookup copy.
    copies: Vec<((String, String), (String, String))>,
    entries: BTreeMap<Vec<u64>, Vec<u64>>,
    dirty: bool,
}

impl AlpmSync {
    /// From the manifest's description: `actions` gives a table's hit action (short name).
    pub(super) fn new(
        name: &str,
        a: &AlpmMap,
        actions: impl Fn(&str) -> Option<String>,
        key_bits: Vec<u32>,
        value_fields: usize,
    ) -> Result<AlpmSync, OffloadError> {
        let bad = |m: String| OffloadError::Manifest(format!("alpm `{name}`: {m}"));
        if a.pivot_tables.len() != a.bucket_tables.len() || a.pivot_tables.is_empty() {
            return Err(bad(format!(
                "{} pivot tables for {} bucket tables",
                a.pivot_tables.len(),
                a.bucket_tables.len()
            )));
        }
        if key_bits.iter().sum::<u32>() > 128 {
            return Err(bad("a key wider than 128 bits".into()));
        }
        let mut copies = Vec::new();
        for (p, b) in a.pivot_tables.iter().zip(&a.bucket_tables) {
            let pa = actions(p).ok_or_else(|| bad(format!("no pivot table `{p}`")))?;
            let ba = actions(b).ok_or_else(|| bad(format!("no bucket table `{b}`")))?;
            copies.push(((p.clone(), pa), (b.clone(), ba)));
        }
        Ok(AlpmSync {
            name: name.into(),
            depth: a.depth.max(1) as usize,
            key_bits,
            value_fields,
            copies,
            entries: BTreeMap::new(),
            dirty: false,
        })
    }

    /// The tables it writes.
    pub(super) fn tables(&self) -> impl Iterator<Item = &str> {
        self.copies
            .iter()
            .flat_map(|(p, b)| [p.0.as_str(), b.0.as_str()])
    }

    /// Records `key` → `value` (an LPM entry key: exact fields, prefix, length).
    pub(super) fn put(&mut self, key: &[u64], value: &[u64]) {
        self.entries.insert(key.to_vec(), value.to_vec());
        self.dirty = true;
    }

    /// Records the erase of `key`.
    pub(super) fn delete(&mut self, key: &[u64]) {
        if self.entries.remove(key).is_some() {
            self.dirty = true;
        }
    }

    /// Forgets every entry (a resync clears the tables).
    pub(super) fn reset(&mut self) {
        self.entries.clear();
        self.dirty = true;
    }

    /// Rebuilds both levels when entries changed and rewrites the tables (one request per
    /// copy).
    pub(super) fn flush(
        &mut self,
        policy: &RetryPolicy,
        stats: &mut SyncStats,
        cp: &mut dyn ControlPlane,
    ) -> Result<(), OffloadError> {
        if !self.dirty {
            return Ok(());
        }
        let entries: Vec<(Vec<u64>, Vec<u64>)> = self
            .entries
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let (pivots, buckets) = lower_entries(&self.key_bits, self.depth, &entries)
            .map_err(|e| OffloadError::State(format!("alpm `{}`: {e}", self.name)))?;
        for ((ptable, paction), (btable, baction)) in &self.copies {
            let mut ops = vec![
                ControlOp::Clear {
                    table: ptable.clone(),
                },
                ControlOp::Clear {
                    table: btable.clone(),
                },
            ];
            for p in &pivots {
                let mut args = vec![p.bucket];
                match &p.cover {
                    Some(v) => {
                        args.push(1);
                        args.extend(v);
                    }
                    None => args.extend(std::iter::repeat_n(0, self.value_fields + 1)),
                }
                ops.push(ControlOp::Insert {
                    table: ptable.clone(),
                    entry: TableEntry {
                        matches: p
                            .ternary
                            .iter()
                            .map(|&(v, m)| KeyMatch::Ternary(v, m))
                            .collect(),
                        action: paction.clone(),
                        args,
                        priority: Some(i64::from(p.priority)),
                    },
                });
            }
            for b in &buckets {
                let (m, _) = entry_matches(MapMatch::Lpm, &b.key);
                let mut matches = vec![KeyMatch::Exact(b.bucket)];
                matches.extend(m);
                ops.push(ControlOp::Insert {
                    table: btable.clone(),
                    entry: TableEntry {
                        matches,
                        action: baction.clone(),
                        args: b.value.clone(),
                        priority: None,
                    },
                });
            }
            send(policy, stats, cp, &ops)?;
        }
        self.dirty = false;
        Ok(())
    }
}
