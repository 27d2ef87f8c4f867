//! Longest-prefix-match tables that a batch edits in place of rebuilding, looked up in at
//! most two dependent accesses to the table's data for keys of up to 32 bits (IPv4): a
//! DIR-24-8 layout (Gupta, Lin, McKeown) — the key's first `min(width, 24)` bits index one
//! direct array, each further 8 bits a 256-slot group — whose arrays are copy-on-write
//! chunks ([`CowArray`]) shared between snapshots, plus a persistent map of the prefixes.
//!
//! Before (the 8-bit-stride trie: every level a node behind two pointers):
//!
//! ```text
//!   lookup 10.1.2.3 -> root[10] -> node[1] -> node[2] -> node[3]: up to 4 levels, each
//!                      chunk list -> node pointer -> slot (16 bytes: entry Arc, len, child)
//! ```
//!
//! After (a slot is one `u32`: 0, a leaf + 1, or a group with bit 31 set):
//!
//! ```text
//!   lookup 10.1.2.3 -> s = first[0x0a0102]           (one access; prefixes up to /24)
//!                      s & PTR: s = groups[g*256 + 3] (the second, only under a /25../32)
//!                      leaves[s - 1]                  (the entry)
//!   insert 10.0.0.0/8 -> first[0x0a0000..0x0b0000]: every slot whose prefix is not
//!                        longer (65,536 slots: 16 chunks of 16 KB copied), groups below too
//!   insert 10.1.2.128/25 -> group g of slot 0x0a0102 (made on first use, filled with the
//!                           slot's leaf), its slots 128..256
//!   delete  -> the same slots; those the prefix held take the longest remaining shorter
//!              prefix that covers it (one walk of the map); a group left uniform folds
//!              back into its slot
//! ```
//!
//! A batch copies only the chunks it writes (plus ≤ 2 × 64 directory pointers per array),
//! and a modification that keeps the prefix only replaces the leaf. Keys wider than 32 bits
//! take one more group level per 8 bits (the first array indexes `width - 8k` bits).

use crate::cow::CowArray;
use crate::pmap::PMap;
use crate::table::{Entry, FieldMatch, SeqEntry};
use std::sync::Arc;

/// A slot pointing to a group (bits 0..31: the group's number).
const PTR: u32 = 1 << 31;
/// Slots per group (one per value of the next 8 key bits).
const GROUP: usize = 256;
/// Bits the first array indexes at most (2^24 slots, 64 MB when all written).
const FIRST_MAX: u32 = 24;

/// Leaves by number, 256 per chunk (a write copies 256 pointers, not 4,096).
type Leaves = CowArray<Option<Arc<SeqEntry>>, 8>;

/// The entries of a table with one `lpm` key (≤ 64 bits).
#[derive(Clone, Debug)]
pub(crate) struct LpmStore {
    width: u32,
    /// key bits the first array indexes; the remaining `width - first` are 8 per level
    first: u32,
    /// every entry and its leaf, by [`key`] of (value, prefix length)
    map: PMap<(u32, Arc<SeqEntry>)>,
    /// slot values: 0 none, `leaf + 1`, or `PTR | group`
    top: CowArray<u32>,
    groups: CowArray<u32>,
    groups_used: u32,
    free_groups: Vec<u32>,
    leaves: Leaves,
    leaves_used: u32,
    free_leaves: Vec<u32>,
    /// each leaf's action and arguments for the packet path, `stride` words from
    /// `leaf * stride`: `action | args << 32`, then the arguments (`stride` a power of two,
    /// so a record never straddles a chunk)
    recs: CowArray<u64, 9>,
    stride: usize,
    /// the /0 entry and its leaf + 1 (0: none)
    default: Option<Arc<SeqEntry>>,
    default_leaf: u32,
    next_seq: u64,
}

fn key(value: u64, len: u32) -> u128 {
    ((value as u128) << 8) | len as u128
}

/// (value, prefix length) of an entry's single field.
fn prefix(fields: &[FieldMatch]) -> (u64, u32) {
    fields
        .first()
        .map_or((0, 0), |f| (f.value, f.mask.count_ones()))
}

/// Which slots a paint overwrites: those whose prefix is at most this long (an insert), or
/// those holding this slot value (a delete: the deleted prefix's own slots).
#[derive(Clone, Copy)]
enum Over {
    AtMost(u32),
    Is(u32),
}

/// Writes `new` into the leaf slots of `arr[lo..hi]` that `over` selects and pushes the
/// groups found there (their slots are painted the same way by the caller).
fn paint(
    arr: &mut CowArray<u32>,
    (lo, hi): (usize, usize),
    new: u32,
    over: Over,
    leaves: &Leaves,
    below: &mut Vec<u32>,
) {
    // the prefix length of the last slot value seen (slots come in runs of one value)
    let mut memo = (u32::MAX, 0u32);
    arr.update(lo, hi, |_, s| {
        if *s & PTR != 0 {
            below.push(*s & !PTR);
            return;
        }
        let hit = match over {
            Over::AtMost(l) => {
                if memo.0 != *s {
                    memo = (*s, leaf_len(leaves, *s));
                }
                memo.1 <= l
            }
            Over::Is(v) => *s == v,
        };
        if hit {
            *s = new;
        }
    });
}

/// The prefix length of leaf slot `s` (0: none).
fn leaf_len(leaves: &Leaves, s: u32) -> u32 {
    match s.checked_sub(1).map(|l| leaves.get(l as usize)) {
        Some(Some(e)) => prefix(&e.entry.fields).1,
        _ => 0,
    }
}

impl LpmStore {
    pub(crate) fn new(width: u32) -> LpmStore {
        let width = width.clamp(1, 64);
        let first = if width <= FIRST_MAX {
            width
        } else {
            width - 8 * (width - FIRST_MAX).div_ceil(8)
        };
        LpmStore {
            width,
            first,
            map: PMap::new(),
            top: CowArray::new(1usize << first, 0),
            groups: CowArray::new(0, 0),
            groups_used: 0,
            free_groups: Vec::new(),
            leaves: CowArray::new(0, None),
            leaves_used: 0,
            free_leaves: Vec::new(),
            recs: CowArray::new(0, 0),
            stride: 1,
            default: None,
            default_leaf: 0,
            next_seq: 0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    pub(crate) fn contains(&self, e: &[FieldMatch]) -> bool {
        let (v, l) = prefix(e);
        self.map.get(key(v, l)).is_some()
    }

    /// The entry with exactly this prefix.
    pub(crate) fn get(&self, e: &[FieldMatch]) -> Option<&Entry> {
        let (v, l) = prefix(e);
        self.map.get(key(v, l)).map(|(_, e)| &e.entry)
    }

    /// Key bits below level `level` (0: the first array) still to index.
    fn shift(&self, level: u32) -> u32 {
        self.width - self.first - 8 * level
    }

    /// The index within level `level`'s array or group of `value`'s slot.
    fn index(&self, value: u64, level: u32) -> usize {
        let bits = if level == 0 { self.first } else { 8 };
        ((value >> self.shift(level)) & ((1u64 << bits) - 1)) as usize
    }

    /// The level a prefix of `len` ≥ 1 bits ends in, and its first slot and slot count
    /// there.
    fn span(&self, value: u64, len: u32) -> (u32, usize, usize) {
        let level = if len <= self.first {
            0
        } else {
            (len - self.first).div_ceil(8)
        };
        let count = 1usize << (self.first + 8 * level - len);
        (level, self.index(value, level) & !(count - 1), count)
    }

    /// A new group, every slot `fill`.
    fn new_group(&mut self, fill: u32) -> u32 {
        let g = match self.free_groups.pop() {
            Some(g) => g,
            None => {
                self.groups_used += 1;
                self.groups.grow(self.groups_used as usize * GROUP);
                self.groups_used - 1
            }
        };
        let lo = g as usize * GROUP;
        self.groups.update(lo, lo + GROUP, |_, s| *s = fill);
        g
    }

    /// The slots on `value`'s path: (in the first array?, index) of the slot at each level
    /// `0..=level`, groups made where missing when `create` (filled with the slot they
    /// replace); shorter where the path ends.
    fn path(&mut self, value: u64, level: u32, create: bool) -> Vec<(bool, usize)> {
        let mut at = vec![(true, self.index(value, 0))];
        for l in 1..=level {
            let Some(&(top, i)) = at.last() else { break };
            let slot = if top {
                *self.top.get(i)
            } else {
                *self.groups.get(i)
            };
            let g = if slot & PTR != 0 {
                slot & !PTR
            } else if create {
                let g = self.new_group(slot);
                if top {
                    self.top.set(i, PTR | g);
                } else {
                    self.groups.set(i, PTR | g);
                }
                g
            } else {
                break;
            };
            at.push((false, g as usize * GROUP + self.index(value, l)));
        }
        at
    }

    /// Paints leaf slot `new` over the slots of `value`/`len` that `over` selects, and the
    /// groups below them; returns the path to the prefix's level (empty when it ends before).
    fn fill(&mut self, value: u64, len: u32, new: u32, over: Over) -> Vec<(bool, usize)> {
        let (level, base, count) = self.span(value, len);
        let path = self.path(value, level, matches!(over, Over::AtMost(_)));
        if path.len() != level as usize + 1 {
            return Vec::new();
        }
        let lo = if level == 0 {
            base
        } else {
            (path[level as usize].1 & !(GROUP - 1)) | base
        };
        let mut below = Vec::new();
        let arr = if level == 0 {
            &mut self.top
        } else {
            &mut self.groups
        };
        paint(arr, (lo, lo + count), new, over, &self.leaves, &mut below);
        while let Some(g) = below.pop() {
            let lo = g as usize * GROUP;
            paint(
                &mut self.groups,
                (lo, lo + GROUP),
                new,
                over,
                &self.leaves,
                &mut below,
            );
        }
        path
    }

    /// Folds the groups on `path` (deepest first) whose slots are all one leaf value back
    /// into the slot that points to them.
    fn fold(&mut self, path: &[(bool, usize)]) {
        for w in path.windows(2).rev() {
            let ((ptop, pi), (_, ci)) = (w[0], w[1]);
            let lo = ci & !(GROUP - 1);
            let first = *self.groups.get(lo);
            if first & PTR != 0 || (lo..lo + GROUP).any(|i| *self.groups.get(i) != first) {
                return;
            }
            if ptop {
                self.top.set(pi, first);
            } else {
                self.groups.set(pi, first);
            }
            self.free_groups.push((lo / GROUP) as u32);
        }
    }

    /// Adds or replaces an entry (the caller checked duplicates for inserts).
    pub(crate) fn set(&mut self, entry: Entry) {
        let (value, len) = prefix(&entry.fields);
        if len > self.width {
            // `Switch` refuses such prefixes before they get here
            return;
        }
        let k = key(value, len);
        if let Some((leaf, old)) = self.map.get(k).cloned() {
            // the same prefix: only the leaf changes
            let e = Arc::new(SeqEntry {
                seq: old.seq,
                entry,
            });
            self.write_rec(leaf, &e.entry);
            self.leaves.set(leaf as usize, Some(e.clone()));
            if len == 0 {
                self.default = Some(e.clone());
            }
            self.map.insert(k, (leaf, e));
            return;
        }
        let e = Arc::new(SeqEntry {
            seq: self.next_seq,
            entry,
        });
        self.next_seq += 1;
        let leaf = match self.free_leaves.pop() {
            Some(l) => l,
            None if self.leaves_used < PTR - 1 => {
                self.leaves_used += 1;
                self.leaves.grow(self.leaves_used as usize);
                self.leaves_used - 1
            }
            // 2^31 entries: past any table's memory
            None => return,
        };
        self.write_rec(leaf, &e.entry);
        self.leaves.set(leaf as usize, Some(e.clone()));
        self.map.insert(k, (leaf, e.clone()));
        if len == 0 {
            self.default = Some(e);
            self.default_leaf = leaf + 1;
            return;
        }
        self.fill(value, len, leaf + 1, Over::AtMost(len));
    }

    /// Removes the entry with this prefix; false if there is none.
    pub(crate) fn remove(&mut self, fields: &[FieldMatch]) -> bool {
        let (value, len) = prefix(fields);
        if len > self.width {
            return false;
        }
        let Some((leaf, _)) = self.map.remove(key(value, len)) else {
            return false;
        };
        if len == 0 {
            self.default = None;
            self.default_leaf = 0;
        } else {
            // the longest remaining shorter prefix covering this one takes its slots
            let cover = (1..len).rev().find_map(|l| {
                let m = crate::program::mask(self.width) & !crate::program::mask(self.width - l);
                self.map.get(key(value & m, l)).map(|(lf, _)| lf + 1)
            });
            let path = self.fill(value, len, cover.unwrap_or(0), Over::Is(leaf + 1));
            self.fold(&path);
        }
        self.leaves.set(leaf as usize, None);
        self.free_leaves.push(leaf);
        true
    }

    pub(crate) fn clear(&mut self) {
        *self = LpmStore::new(self.width);
    }

    /// Writes leaf `leaf`'s packet-path record, widening every record first when its
    /// arguments do not fit.
    fn write_rec(&mut self, leaf: u32, e: &Entry) {
        let need = (1 + e.args.len()).next_power_of_two();
        if need > self.stride {
            let mut recs = CowArray::new(self.leaves_used as usize * need, 0);
            for l in 0..self.leaves_used as usize {
                if let Some(old) = self.rec_at(l) {
                    let old = old.to_vec();
                    recs.update(l * need, l * need + old.len(), |i, s| {
                        *s = old[i - l * need]
                    });
                }
            }
            self.recs = recs;
            self.stride = need;
        }
        let at = leaf as usize * self.stride;
        self.recs.grow(at + self.stride);
        let head = u64::from(e.action) | ((e.args.len() as u64) << 32);
        self.recs.update(at, at + 1 + e.args.len(), |i, s| {
            *s = match i - at {
                0 => head,
                j => e.args.get(j - 1).copied().unwrap_or(0),
            }
        });
    }

    /// Leaf `l`'s record: head word and arguments.
    #[inline]
    fn rec_at(&self, l: usize) -> Option<&[u64]> {
        let r = self.recs.slice(l * self.stride, self.stride)?;
        r.get(..1 + (r.first()? >> 32) as usize)
    }

    /// The slot value of `k`'s longest matching prefix ending below /0 (0: none).
    #[inline]
    fn slot(&self, k: u64) -> u32 {
        let mut shift = self.width - self.first;
        let mut s = *self
            .top
            .get((k >> shift) as usize & ((1usize << self.first) - 1));
        while s & PTR != 0 && shift >= 8 {
            shift -= 8;
            s = *self
                .groups
                .get((((s & !PTR) as usize) * GROUP) | ((k >> shift) & 0xff) as usize);
        }
        if s & PTR != 0 {
            0
        } else {
            s
        }
    }

    /// The entry of the longest prefix matching `k`.
    #[inline]
    pub(crate) fn lookup(&self, k: u64) -> Option<&Entry> {
        match self.slot(k).checked_sub(1) {
            Some(l) => self.leaves.get(l as usize).as_ref(),
            None => self.default.as_ref(),
        }
        .map(|e| &e.entry)
    }

    /// The action and arguments of the longest prefix matching `k`, from the leaf's
    /// record (one access after the slots, no entry pointer followed).
    #[inline]
    pub(crate) fn lookup_action(&self, k: u64) -> Option<(u32, &[u64])> {
        let s = match self.slot(k) {
            0 => self.default_leaf,
            s => s,
        };
        let (head, args) = self.rec_at(s.checked_sub(1)? as usize)?.split_first()?;
        Some((*head as u32, args))
    }

    /// Every entry, in insertion order.
    pub(crate) fn entries(&self) -> Vec<&Entry> {
        let mut v: Vec<&SeqEntry> = Vec::with_capacity(self.map.len());
        self.map.for_each(|_, (_, e)| v.push(e));
        v.sort_by_key(|e| e.seq);
        v.into_iter().map(|e| &e.entry).collect()
    }

    /// Groups in use (their count bounds the second array's memory).
    #[cfg(test)]
    fn groups_live(&self) -> usize {
        self.groups_used as usize - self.free_groups.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::FieldMatch;

    fn entry(v: u64, len: u32, w: u32, a: u32) -> Entry {
        let m = if len == 0 {
            0
        } else {
            crate::program::mask(w) & !crate::program::mask(w - len)
        };
        Entry {
            fields: vec![FieldMatch {
                value: v & m,
                mask: m,
                lo: 0,
                hi: crate::program::mask(w),
            }]
            .into(),
            priority: i64::from(len),
            action: a,
            args: vec![u64::from(a); (a % 3) as usize].into(),
            hits: crate::table::Hits::default(),
            age: Default::default(),
        }
    }

    /// Random inserts and deletes against a brute-force longest match, old states intact.
    #[test]
    fn matches_brute_force_under_updates() {
        let mut x = 0x1234_5678_9abc_def0u64;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for w in [32u32, 20, 8, 64] {
            let mut s = LpmStore::new(w);
            let mut live: Vec<(u64, u32, u32)> = Vec::new();
            let mut snapshots = Vec::new();
            for step in 0..600u32 {
                if live.is_empty() || rnd() % 3 != 0 {
                    let len = (rnd() % (u64::from(w) + 1)) as u32;
                    // cluster values so prefixes nest
                    let v = (rnd() & 0xff0f_00ff_0f0f_ff0f) & crate::program::mask(w);
                    let e = entry(v, len, w, step);
                    if s.contains(&e.fields) {
                        continue;
                    }
                    live.push((e.fields[0].value, len, step));
                    s.set(e);
                } else {
                    let i = (rnd() % live.len() as u64) as usize;
                    let (v, len, _) = live.swap_remove(i);
                    assert!(s.remove(&entry(v, len, w, 0).fields));
                }
                if step % 100 == 0 {
                    snapshots.push((s.clone(), live.clone()));
                }
                for (st, lv) in snapshots.iter().chain([&(s.clone(), live.clone())]) {
                    for _ in 0..8 {
                        let k = if let Some(&(v, _, _)) = lv.first() {
                            (v ^ (rnd() & 0xff)) & crate::program::mask(w)
                        } else {
                            rnd() & crate::program::mask(w)
                        };
                        let want = lv
                            .iter()
                            .filter(|(v, len, _)| {
                                let m = if *len == 0 {
                                    0
                                } else {
                                    crate::program::mask(w) & !crate::program::mask(w - len)
                                };
                                k & m == *v
                            })
                            .max_by_key(|e| e.1)
                            .map(|e| e.2);
                        assert_eq!(st.lookup(k).map(|e| e.action), want, "w {w} key {k:#x}");
                        let via_rec = st.lookup_action(k);
                        assert_eq!(via_rec.map(|r| r.0), want, "records, w {w} key {k:#x}");
                        assert_eq!(via_rec.map(|r| r.1), st.lookup(k).map(|e| &e.args[..]));
                    }
                }
            }
        }
    }

    /// Groups exist only under prefixes longer than the first array's bits: deleting the
    /// last /25../32 under a /24 folds its group back into the slot, and lookups fall back
    /// to the covering prefix.
    #[test]
    fn groups_fold_back_when_their_long_prefixes_go() {
        let mut s = LpmStore::new(32);
        s.set(entry(0x0a00_0000, 8, 32, 1));
        assert_eq!(s.groups_live(), 0);
        s.set(entry(0x0a01_0280, 25, 32, 2));
        s.set(entry(0x0a01_02c0, 26, 32, 3));
        s.set(entry(0x0a01_0300, 32, 32, 4));
        assert_eq!(s.groups_live(), 2);
        let old = s.clone();
        let act = |s: &LpmStore, k: u64| s.lookup(k).map(|e| e.action);
        assert_eq!(act(&s, 0x0a01_02c1), Some(3));
        assert_eq!(act(&s, 0x0a01_0281), Some(2));
        assert_eq!(act(&s, 0x0a01_0201), Some(1));
        assert!(s.remove(&entry(0x0a01_02c0, 26, 32, 0).fields));
        assert_eq!(act(&s, 0x0a01_02c1), Some(2));
        assert_eq!(s.groups_live(), 2);
        assert!(s.remove(&entry(0x0a01_0280, 25, 32, 0).fields));
        assert!(s.remove(&entry(0x0a01_0300, 32, 32, 0).fields));
        assert_eq!(s.groups_live(), 0);
        assert_eq!(act(&s, 0x0a01_02c1), Some(1));
        assert_eq!(act(&s, 0x0b00_0000), None);
        // the snapshot taken before is untouched
        assert_eq!(act(&old, 0x0a01_02c1), Some(3));
        assert_eq!(act(&old, 0x0a01_0300), Some(4));
        // a replaced entry keeps its slots: only the leaf changes
        s.set(entry(0x0a00_0000, 8, 32, 9));
        assert_eq!(
            (act(&s, 0x0a01_02c1), act(&old, 0x0a01_02c1)),
            (Some(9), Some(3))
        );
    }

    /// A prefix longer than the key (which `Switch` refuses first) changes nothing and
    /// does not panic.
    #[test]
    fn a_prefix_longer_than_the_key_is_ignored() {
        let mut s = LpmStore::new(8);
        let mut e = entry(0, 8, 8, 1);
        e.fields = vec![FieldMatch {
            value: 0,
            mask: 0xffff,
            lo: 0,
            hi: 0xff,
        }]
        .into();
        s.set(e.clone());
        assert_eq!(s.lookup(0).map(|e| e.action), None);
        assert!(!s.remove(&e.fields));
    }
}
