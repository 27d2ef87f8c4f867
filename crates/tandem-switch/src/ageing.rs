//! Entry ageing (idle timeout): a per-entry last-hit time that packets refresh, an entry idle
//! for longer than its group's timeout is a miss, and the control plane learns which entries
//! were hit (P4Runtime's idle-timeout / TNA's hit-state poll, in software).
//!
//! A table ages only when its program declares it (`support_timeout = true` in v1model,
//! `idle_timeout = true` in TNA) and the control plane has configured it
//! ([`crate::Switch::configure_ageing`]). Several tables can share one **age group**: copies of
//! one map (a main table, its write-back table, duplicated read-only copies) hold the same key,
//! and a hit on any of them keeps the key alive in all of them. The group keeps one
//! [`AgeCell`] per key; every entry of a group table with that key points at it.
//!
//! Before (a table without ageing): an entry installed at 0 s still matches at 10 s.
//!
//! ```text
//!   insert conns {k} -> hit(7)        @ 0 s
//!   lookup conns {k}                  @ 10 s  -> hit(7)
//! ```
//!
//! After (`configure_ageing([conns, conns_wb], 2 s)`): the last hit is kept per key; a lookup
//! more than 2 s after it misses (and does not refresh it), one within 2 s refreshes it and is
//! reported by the next [`crate::Switch::read_ages`].
//!
//! ```text
//!   set_ages conns {k}=0 s ; insert conns {k} -> hit(7)
//!   lookup conns {k}  @ 1.5 s -> hit(7), last = 1.5 s    read_ages -> [{k}: 1.5 s]
//!   lookup conns {k}  @ 3.6 s -> miss (idle 2.1 s > 2 s)
//! ```
//!
//! The rule is the NF API's `ExpiringMap`'s (`now - last <= timeout` is live, times in
//! nanoseconds of packet time), so a switch table and the NF's map expire the same entries.
//! A hardware target ages in sweeps (TNA: a notification some time after the TTL) and cannot
//! match it to the nanosecond; this switch checks at each lookup.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Cells hit since the last [`AgeGroup::drain`], one push per cell per drain interval.
type Dirty = Arc<Mutex<Vec<Arc<AgeCell>>>>;

/// One key's last-hit time, shared by the key's entries in every table of its group.
#[derive(Debug)]
pub(crate) struct AgeCell {
    last_ns: AtomicU64,
    /// Pushed on the group's dirty list since the last drain.
    hit: AtomicBool,
    timeout_ns: u64,
    key: Box<[u64]>,
    dirty: Dirty,
}

impl AgeCell {
    /// Whether the key is live at `now_ns`; a live key's last hit becomes `now_ns` (and the
    /// cell is reported by the next drain).
    #[inline]
    pub(crate) fn touch(self: &Arc<Self>, now_ns: u64) -> bool {
        let last = self.last_ns.load(Ordering::Relaxed);
        if now_ns.saturating_sub(last) > self.timeout_ns {
            return false;
        }
        if now_ns > last {
            self.last_ns.fetch_max(now_ns, Ordering::Relaxed);
        }
        if !self.hit.swap(true, Ordering::AcqRel) {
            if let Ok(mut d) = self.dirty.lock() {
                d.push(self.clone());
            }
        }
        true
    }
}

/// An entry's age: `None` for a table that does not age (every entry is live).
#[derive(Clone, Debug, Default)]
pub(crate) struct Age(pub(crate) Option<Arc<AgeCell>>);

impl Age {
    /// Whether the entry matches at `now_ns` (refreshing it when it ages).
    #[inline]
    pub(crate) fn live(&self, now_ns: u64) -> bool {
        match &self.0 {
            None => true,
            Some(c) => c.touch(now_ns),
        }
    }
}

impl PartialEq for Age {
    fn eq(&self, _: &Age) -> bool {
        true
    }
}

impl Eq for Age {}

/// Keys with a time each (last hits read, or last uses to set), packed in reusable buffers:
/// what [`crate::Switch::read_ages_into`] fills and [`crate::Switch::set_ages_list`] reads,
/// so a control plane polling ages on every server packet allocates nothing once warmed up
/// (the `Vec<(Vec<u64>, u64)>` form allocates one vector per key).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AgeList {
    words: Vec<u64>,
    /// Per key: end of its words in `words`, and its time.
    ents: Vec<(u32, u64)>,
}

impl AgeList {
    /// Empties the list (keeps the buffers).
    pub fn clear(&mut self) {
        self.words.clear();
        self.ents.clear();
    }

    /// Appends `key` with time `t` (ns).
    pub fn push(&mut self, key: &[u64], t: u64) {
        self.words.extend_from_slice(key);
        self.ents.push((self.words.len() as u32, t));
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.ents.len()
    }

    /// Whether there is no key.
    pub fn is_empty(&self) -> bool {
        self.ents.is_empty()
    }

    /// The keys and their times, in the order pushed.
    pub fn iter(&self) -> impl Iterator<Item = (&[u64], u64)> + '_ {
        let mut start = 0usize;
        self.ents.iter().map(move |&(end, t)| {
            let k = &self.words[start..end as usize];
            start = end as usize;
            (k, t)
        })
    }

    /// The `Vec` form (`(key, time)` pairs).
    pub fn to_pairs(&self) -> Vec<(Vec<u64>, u64)> {
        self.iter().map(|(k, t)| (k.to_vec(), t)).collect()
    }
}

/// One age group: tables sharing keys, one timeout.
#[derive(Debug)]
pub(crate) struct AgeGroup {
    timeout_ns: u64,
    cells: HashMap<Box<[u64]>, Arc<AgeCell>, rustc_hash::FxBuildHasher>,
    dirty: Dirty,
}

impl AgeGroup {
    pub(crate) fn new(timeout_ns: u64) -> AgeGroup {
        AgeGroup {
            timeout_ns,
            cells: HashMap::default(),
            dirty: Arc::default(),
        }
    }

    /// The cell of `key` (created with last hit `now_ns` when new).
    pub(crate) fn cell(&mut self, key: &[u64], now_ns: u64) -> Arc<AgeCell> {
        if let Some(c) = self.cells.get(key) {
            return c.clone();
        }
        let c = Arc::new(AgeCell {
            last_ns: AtomicU64::new(now_ns),
            hit: AtomicBool::new(false),
            timeout_ns: self.timeout_ns,
            key: key.into(),
            dirty: self.dirty.clone(),
        });
        self.cells.insert(key.into(), c.clone());
        c
    }

    /// Sets `key`'s last hit (creating its cell: entries inserted later take it).
    pub(crate) fn set(&mut self, key: &[u64], last_ns: u64) {
        let c = self.cell(key, last_ns);
        c.last_ns.store(last_ns, Ordering::Relaxed);
    }

    /// The keys hit since the last drain, with their last-hit times.
    pub(crate) fn drain(&self) -> Vec<(Vec<u64>, u64)> {
        let mut out = AgeList::default();
        self.drain_into(&mut out);
        out.to_pairs()
    }

    /// [`AgeGroup::drain`] into `out` (cleared first), keeping the dirty list's buffer.
    pub(crate) fn drain_into(&self, out: &mut AgeList) {
        out.clear();
        let Ok(mut d) = self.dirty.lock() else {
            return;
        };
        for c in d.drain(..) {
            c.hit.store(false, Ordering::Release);
            out.push(&c.key, c.last_ns.load(Ordering::Relaxed));
        }
    }

    /// The last hit of `key`, if it has a cell.
    pub(crate) fn last(&self, key: &[u64]) -> Option<u64> {
        self.cells
            .get(key)
            .map(|c| c.last_ns.load(Ordering::Relaxed))
    }
}

/// The switch's age groups: which group each table belongs to.
#[derive(Debug, Default)]
pub(crate) struct Ageing {
    pub(crate) groups: Vec<AgeGroup>,
    /// table index -> group index
    pub(crate) of_table: HashMap<u32, usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_idle_past_the_timeout_misses_and_hits_are_reported_once() {
        let mut g = AgeGroup::new(2_000);
        g.set(&[1, 2], 0);
        let c = g.cell(&[1, 2], 0);
        assert!(c.touch(1_500));
        assert!(c.touch(1_600));
        assert_eq!(g.drain(), vec![(vec![1, 2], 1_600)]);
        assert!(g.drain().is_empty());
        // 3,601 - 1,600 > 2,000: a miss, not refreshed
        assert!(!c.touch(3_601));
        assert_eq!(g.last(&[1, 2]), Some(1_600));
        assert!(g.drain().is_empty());
        // exactly the timeout is still live (as `ExpiringMap`)
        g.set(&[1, 2], 10_000);
        assert!(c.touch(12_000));
    }
}
