//! The switch's copy of an exact map held as key digests (manifest `states[].digest`, the
//! lowering in `tandem_p4::lower::digest`): where the engine would write a main-table entry
//! it records the map's entry, and on flush rewrites the digests it touched: a digest one
//! held key has is a digest-table entry, a digest two or more share moves all of them to the
//! conflict table on their full keys (`tandem_partition::digest::home_of`), in every lookup
//! copy.
//!
//! ```text
//! before (one exact table): insert vm_nc6[(7, a, b)] = v → table write `vm_nc6: 7, a, b → hit(v)`
//! after (digests):          insert vm_nc6[(7, a, b)] = v → d = crc32(7, a, b); on flush:
//!                           d held by this key only:  `vm_nc6: d → hit(v)`
//!                           d shared with (7, c, e):  `vm_nc6_cfl: 7, a, b → hit(v)`,
//!                                                     `vm_nc6_cfl: 7, c, e → hit(v')`,
//!                                                     delete `vm_nc6: d`
//! ```
//!
//! Conflict entries are written before the digest entry they replace is deleted, so a held
//! key is answered right throughout the flush.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use tandem_p4::manifest::DigestMap;
use tandem_partition::digest::{digest, home_of, Home};
use tandem_switch::{ControlOp, KeyMatch, TableEntry};

use super::{send, SyncStats};
use crate::control::{ControlPlane, RetryPolicy};
use crate::OffloadError;

type Keyed = BTreeMap<Vec<u64>, Vec<u64>>;

/// One digested map's tables, its entries by digest, and what the switch holds.
#[derive(Debug)]
pub(super) struct DigestSync {
    name: String,
    key_bits: Vec<u32>,
    /// (conflict table, its hit action), (digest table, its hit action), per lookup copy.
    copies: Vec<((String, String), (String, String))>,
    /// Conflict-table entries each copy holds at most.
    conflict_size: u64,
    by_digest: HashMap<u32, Keyed>,
    /// What the switch holds per digest.
    installed: HashMap<u32, Home>,
    conflicts: u64,
    dirty: BTreeSet<u32>,
}

impl DigestSync {
    /// From the manifest's description: `table` gives a table's hit action (short name) and
    /// size.
    pub(super) fn new(
        name: &str,
        d: &DigestMap,
        table: impl Fn(&str) -> Option<(String, u64)>,
        key_bits: Vec<u32>,
    ) -> Result<DigestSync, OffloadError> {
        let bad = |m: String| OffloadError::Manifest(format!("digest `{name}`: {m}"));
        if d.conflict_tables.len() != d.digest_tables.len() || d.conflict_tables.is_empty() {
            return Err(bad(format!(
                "{} conflict tables for {} digest tables",
                d.conflict_tables.len(),
                d.digest_tables.len()
            )));
        }
        if let Some(b) = key_bits.iter().find(|&&b| b > 64) {
            return Err(bad(format!("a {b}-bit key field")));
        }
        let mut copies = Vec::new();
        let mut conflict_size = u64::MAX;
        for (c, t) in d.conflict_tables.iter().zip(&d.digest_tables) {
            let (ca, cs) = table(c).ok_or_else(|| bad(format!("no conflict table `{c}`")))?;
            let (ta, _) = table(t).ok_or_else(|| bad(format!("no digest table `{t}`")))?;
            conflict_size = conflict_size.min(cs);
            copies.push(((c.clone(), ca), (t.clone(), ta)));
        }
        Ok(DigestSync {
            name: name.into(),
            key_bits,
            copies,
            conflict_size,
            by_digest: HashMap::new(),
            installed: HashMap::new(),
            conflicts: 0,
            dirty: BTreeSet::new(),
        })
    }

    /// The tables it writes.
    pub(super) fn tables(&self) -> impl Iterator<Item = &str> {
        self.copies
            .iter()
            .flat_map(|(c, t)| [c.0.as_str(), t.0.as_str()])
    }

    fn digest(&self, key: &[u64]) -> Result<u32, OffloadError> {
        digest(&self.key_bits, key)
            .map_err(|e| OffloadError::State(format!("digest `{}`: {e}", self.name)))
    }

    /// Records `key` → `value`.
    pub(super) fn put(&mut self, key: &[u64], value: &[u64]) -> Result<(), OffloadError> {
        let d = self.digest(key)?;
        self.by_digest
            .entry(d)
            .or_default()
            .insert(key.to_vec(), value.to_vec());
        self.dirty.insert(d);
        Ok(())
    }

    /// Records the erase of `key`.
    pub(super) fn delete(&mut self, key: &[u64]) -> Result<(), OffloadError> {
        let d = self.digest(key)?;
        if let Some(m) = self.by_digest.get_mut(&d) {
            if m.remove(key).is_some() {
                self.dirty.insert(d);
            }
            if m.is_empty() {
                self.by_digest.remove(&d);
            }
        }
        Ok(())
    }

    /// Forgets every entry and what the switch held (a resync clears the tables).
    pub(super) fn reset(&mut self) {
        self.by_digest.clear();
        self.installed.clear();
        self.conflicts = 0;
        self.dirty.clear();
    }

    /// The writes that take the switch's copy from `old` to `new` for digest `d`, in one
    /// copy: conflict inserts and rewrites, then the digest entry, then stale conflicts.
    fn ops(
        d: u32,
        old: &Home,
        new: &Home,
        (ct, ca): &(String, String),
        (dt, da): &(String, String),
        out: &mut Vec<ControlOp>,
    ) {
        let exact = |k: &[u64]| k.iter().map(|&x| KeyMatch::Exact(x)).collect::<Vec<_>>();
        let entry = |matches, action: &String, args: &[u64]| TableEntry {
            matches,
            action: action.clone(),
            args: args.to_vec(),
            priority: None,
        };
        let empty = Keyed::new();
        let (old_c, new_c) = (
            match old {
                Home::Conflict(m) => m,
                _ => &empty,
            },
            match new {
                Home::Conflict(m) => m,
                _ => &empty,
            },
        );
        for (k, v) in new_c {
            match old_c.get(k) {
                Some(o) if o == v => {}
                Some(_) => out.push(ControlOp::Modify {
                    table: ct.clone(),
                    entry: entry(exact(k), ca, v),
                }),
                None => out.push(ControlOp::Insert {
                    table: ct.clone(),
                    entry: entry(exact(k), ca, v),
                }),
            }
        }
        let dkey = vec![KeyMatch::Exact(u64::from(d))];
        match (old, new) {
            (Home::Digest(o), Home::Digest(v)) if o == v => {}
            (Home::Digest(_), Home::Digest(v)) => out.push(ControlOp::Modify {
                table: dt.clone(),
                entry: entry(dkey, da, v),
            }),
            (_, Home::Digest(v)) => out.push(ControlOp::Insert {
                table: dt.clone(),
                entry: entry(dkey, da, v),
            }),
            (Home::Digest(_), _) => out.push(ControlOp::Delete {
                table: dt.clone(),
                matches: dkey,
                priority: None,
            }),
            _ => {}
        }
        for k in old_c.keys().filter(|k| !new_c.contains_key(*k)) {
            out.push(ControlOp::Delete {
                table: ct.clone(),
                matches: exact(k),
                priority: None,
            });
        }
    }

    /// Rewrites the digests touched since the last flush (one request per copy).
    pub(super) fn flush(
        &mut self,
        policy: &RetryPolicy,
        stats: &mut SyncStats,
        cp: &mut dyn ControlPlane,
    ) -> Result<(), OffloadError> {
        if self.dirty.is_empty() {
            return Ok(());
        }
        let mut changes = Vec::new();
        let mut conflicts = self.conflicts;
        for &d in &self.dirty {
            let new = self.by_digest.get(&d).map_or(Home::Absent, home_of);
            let old = self.installed.get(&d).cloned().unwrap_or(Home::Absent);
            let n = |h: &Home| match h {
                Home::Conflict(m) => m.len() as u64,
                _ => 0,
            };
            conflicts = conflicts + n(&new) - n(&old);
            changes.push((d, old, new));
        }
        if conflicts > self.conflict_size {
            return Err(OffloadError::State(format!(
                "digest `{}`: {conflicts} keys share digests, the conflict table holds {} \
                 (give a larger one: --state-layout {}=digest:conflicts=N)",
                self.name, self.conflict_size, self.name
            )));
        }
        for (c, t) in &self.copies {
            let mut ops = Vec::new();
            for (d, old, new) in &changes {
                Self::ops(*d, old, new, c, t, &mut ops);
            }
            send(policy, stats, cp, &ops)?;
        }
        for (d, _, new) in changes {
            match new {
                Home::Absent => self.installed.remove(&d),
                h => self.installed.insert(d, h),
            };
        }
        self.conflicts = conflicts;
        self.dirty.clear();
        Ok(())
    }
}
