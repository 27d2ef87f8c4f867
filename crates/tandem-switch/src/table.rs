//! Match-action table state and the classifiers it is compiled to.
//!
//! A [`TableState`] is immutable once built: the control plane builds a new one
//! beside the old (see `switch.rs`) and swaps the whole [`Snapshot`]. Each state
//! carries the classifier that best fits its *current* entries (ESWITCH style):
//!
//! | contents                                  | classifier                    |
//! |-------------------------------------------|-------------------------------|
//! | none                                      | `Empty` (default action)      |
//! | ≤ [`LINEAR_MAX`] entries, or any range    | `Linear`: straight compares   |
//! | every entry matches every bit             | `Exact`: one hash probe       |
//! | one `lpm` key                             | `Lpm`: DIR-24-8 (`lpm.rs`)    |
//! | anything else                             | `TupleSpace`: hash per mask   |
//!
//! Tables whose keys are all `exact` (≤ 128 bits together) keep their entries in
//! an [`ExactStore`] instead: a persistent hash trie ([`crate::pmap`]) that a
//! batch edits by copying only the paths to the keys it changes, so inserting one
//! entry into a table of n entries costs O(log n), not a rebuild. Packets probe a
//! flat hash index plus a small trie of the changes made since the index was
//! built; the index is remade when the changes reach a quarter of it (O(1)
//! amortised per operation). Such a table reports `Empty`, `Linear`
//! (≤ [`LINEAR_MAX`] entries, compared in insertion order) or `Exact`. Every
//! other table is rebuilt by each batch that touches it.

use crate::lpm::LpmStore;
use crate::pmap::PMap;
use crate::program::{mask, MatchKind};
use std::collections::HashMap;
use std::sync::Arc;

/// Most key fields a table may have.
pub const MAX_KEYS: usize = 8;
/// Tables with at most this many entries use straight-line compares.
pub const LINEAR_MAX: usize = 4;
const NONE: u32 = u32::MAX;

/// One field of an entry's match, normalised: `key & mask == value` and
/// `lo <= key <= hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FieldMatch {
    pub value: u64,
    pub mask: u64,
    pub lo: u64,
    pub hi: u64,
}

impl FieldMatch {
    #[inline]
    fn matches(&self, k: u64) -> bool {
        k & self.mask == self.value && k >= self.lo && k <= self.hi
    }
    fn is_range(&self, w: u32) -> bool {
        self.lo != 0 || self.hi != mask(w)
    }
}

/// An installed entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub fields: Box<[FieldMatch]>,
    /// higher wins
    pub priority: i64,
    pub action: u32,
    pub args: Box<[u64]>,
    /// The entry's direct counter cell (a table with `counters = <direct_counter>`).
    pub hits: Hits,
    /// The entry's last-hit time (a table that ages: `crate::ageing`).
    pub age: crate::ageing::Age,
}

/// One entry's direct-counter cell (v1model `direct_counter`): packets and bytes of the
/// lookups that hit the entry. Shared by every copy of the entry (each snapshot's
/// classifier holds a clone), created by the insert, kept by a modify, dropped with the
/// entry. Counters do not make entries differ: equality ignores them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Hits(Option<Arc<[std::sync::atomic::AtomicU64; 2]>>);

impl Hits {
    /// A fresh zero cell when the table has a direct counter, none otherwise.
    pub(crate) fn new(counted: bool) -> Hits {
        Hits(counted.then(|| Arc::new(Default::default())))
    }

    /// Counts one hit of a packet of `bytes` bytes.
    #[inline]
    pub(crate) fn count(&self, bytes: usize) {
        if let Some(c) = &self.0 {
            c[0].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            c[1].fetch_add(bytes as u64, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// (packets, bytes) so far; `None` when the table has no direct counter.
    pub(crate) fn read(&self) -> Option<(u64, u64)> {
        self.0.as_ref().map(|c| {
            (
                c[0].load(std::sync::atomic::Ordering::Relaxed),
                c[1].load(std::sync::atomic::Ordering::Relaxed),
            )
        })
    }
}

impl PartialEq for Hits {
    fn eq(&self, _: &Hits) -> bool {
        true
    }
}

impl Eq for Hits {}

/// Table hash maps use the project's one Fx hasher (`rustc-hash`, as `tandem_ir::hash`).
type FxMap<K, V> = HashMap<K, V, rustc_hash::FxBuildHasher>;

/// Packs up to 128 bits of key fields into one `u128`, injectively (every field
/// gets its own bit range). When the fields can be placed in two 64-bit words
/// without straddling (first fit, widest first), each field is one 64-bit shift
/// and or; otherwise they are concatenated with `u128` shifts.
#[derive(Clone, Debug)]
struct Packer {
    widths: Box<[u32]>,
    /// per field: (word, shift) in the split layout
    place: Option<Box<[(u8, u8)]>>,
}

impl Packer {
    fn new(widths: &[u32]) -> Option<Packer> {
        if widths.iter().sum::<u32>() > 128 || widths.len() > MAX_KEYS {
            return None;
        }
        let mut order: Vec<usize> = (0..widths.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(widths[i]));
        let mut used = [0u32; 2];
        let mut place = vec![(0u8, 0u8); widths.len()];
        let mut fits = true;
        for i in order {
            let w = widths[i];
            match (0..2).find(|&j| used[j] + w <= 64) {
                Some(j) => {
                    place[i] = (j as u8, used[j] as u8);
                    used[j] += w;
                }
                None => fits = false,
            }
        }
        Some(Packer {
            widths: widths.into(),
            place: fits.then(|| place.into()),
        })
    }
    /// `key` holds one value per field, each within its width.
    #[inline]
    fn pack(&self, key: &[u64]) -> u128 {
        match &self.place {
            Some(place) => {
                let mut w = [0u64; 2];
                for (k, &(j, s)) in key.iter().zip(place.iter()) {
                    w[j as usize & 1] |= k << (s & 63);
                }
                ((w[1] as u128) << 64) | w[0] as u128
            }
            None => {
                let mut acc = 0u128;
                for (k, w) in key.iter().zip(self.widths.iter()) {
                    acc = (acc << w) | *k as u128;
                }
                acc
            }
        }
    }
    #[inline]
    fn pack_masked(&self, key: &[u64], masks: &[u64]) -> u128 {
        let mut k = [0u64; MAX_KEYS];
        for ((d, v), m) in k.iter_mut().zip(key).zip(masks) {
            *d = v & m;
        }
        self.pack(&k[..key.len().min(MAX_KEYS)])
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct TSlot {
    entry: u32,
    child: u32,
}

/// Multibit trie, stride 8, built by controlled prefix expansion.
#[derive(Clone, Debug)]
struct Trie {
    width: u32,
    levels: u32,
    default: u32,
    #[allow(clippy::vec_box)] // nodes are 2 KiB; boxing keeps pushes cheap
    nodes: Vec<Box<[TSlot; 256]>>,
}

impl Trie {
    fn new_node() -> Box<[TSlot; 256]> {
        Box::new(
            [TSlot {
                entry: NONE,
                child: NONE,
            }; 256],
        )
    }

    /// `prefixes`: (value, prefix length, entry index), any order.
    fn build(width: u32, mut prefixes: Vec<(u64, u32, u32)>) -> Trie {
        prefixes.sort_by_key(|p| p.1);
        let mut t = Trie {
            width,
            levels: width.div_ceil(8).max(1),
            default: NONE,
            nodes: vec![Self::new_node()],
        };
        for (value, len, idx) in prefixes {
            let kv = t.align(value);
            if len == 0 {
                t.default = idx;
                continue;
            }
            let level = (len - 1) / 8;
            let mut node = 0usize;
            for l in 0..level {
                let byte = ((kv >> (56 - 8 * l)) & 0xff) as usize;
                let child = t.nodes[node][byte].child;
                node = if child == NONE {
                    t.nodes.push(Self::new_node());
                    let c = t.nodes.len() - 1;
                    t.nodes[node][byte].child = c as u32;
                    c
                } else {
                    child as usize
                };
            }
            let byte = ((kv >> (56 - 8 * level)) & 0xff) as usize;
            let bits = len - 8 * level;
            let span = 1usize << (8 - bits);
            let base = byte & !(span - 1);
            for b in base..base + span {
                t.nodes[node][b].entry = idx;
            }
        }
        t
    }

    #[inline]
    fn align(&self, v: u64) -> u64 {
        if self.width >= 64 {
            v
        } else {
            v << (64 - self.width)
        }
    }

    #[inline]
    fn lookup(&self, key: u64) -> u32 {
        let kv = self.align(key);
        let mut best = self.default;
        let mut node = 0usize;
        for l in 0..self.levels {
            let byte = ((kv >> (56 - 8 * l)) & 0xff) as usize;
            let s = self.nodes[node][byte];
            if s.entry != NONE {
                best = s.entry;
            }
            if s.child == NONE {
                break;
            }
            node = s.child as usize;
        }
        best
    }
}

#[derive(Clone, Debug)]
struct Group {
    masks: Box<[u64]>,
    max_prio: i64,
    map: FxMap<u128, u32>,
}

#[derive(Clone, Debug)]
enum Classifier {
    Empty,
    /// entry indices, highest priority first
    Linear(Vec<u32>),
    Exact(Packer, FxMap<u128, u32>),
    Lpm(Trie),
    /// groups, highest `max_prio` first
    TupleSpace(Packer, Vec<Group>),
}

/// The kind of classifier a table currently uses (for tests and statistics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassifierKind {
    Empty,
    Linear,
    Exact,
    Lpm,
    TupleSpace,
}

/// An entry of an exact-match store: `seq` orders entries by insertion (a
/// modified entry keeps its place), as the `Vec` of the general store does.
#[derive(Debug)]
pub(crate) struct SeqEntry {
    pub seq: u64,
    pub entry: Entry,
}

/// The entries of a table whose keys are all `exact` (together ≤ 128 bits).
///
/// `map`, a persistent hash trie from the packed key, holds every entry: a batch
/// copies only the paths it changes (see [`crate::pmap`]). Packets look keys up
/// in `base`, a flat hash table (one probe, like a rebuilt classifier), made
/// from `map` at some earlier batch, and in `delta`, a small trie of the changes
/// since then (`None`: deleted). When `delta` outgrows a quarter of `base`, the
/// batch that ends remakes `base` and empties `delta`: a rebuild every Ω(n)
/// operations, so O(1) amortised per operation on top of the trie's O(log n).
#[derive(Clone, Debug)]
pub(crate) struct ExactStore {
    packer: Packer,
    map: PMap<Arc<SeqEntry>>,
    base: Arc<FxMap<u128, Arc<SeqEntry>>>,
    delta: PMap<Option<Arc<SeqEntry>>>,
    next_seq: u64,
}

impl ExactStore {
    fn new(packer: Packer) -> ExactStore {
        ExactStore {
            packer,
            map: PMap::new(),
            base: Arc::default(),
            delta: PMap::new(),
            next_seq: 0,
        }
    }

    fn key(&self, fields: &[FieldMatch]) -> u128 {
        let mut k = [0u64; MAX_KEYS];
        for (d, f) in k.iter_mut().zip(fields) {
            *d = f.value;
        }
        self.packer.pack(&k[..fields.len().min(MAX_KEYS)])
    }

    fn set(&mut self, k: u128, e: Arc<SeqEntry>) {
        self.map.insert(k, e.clone());
        self.delta.insert(k, Some(e));
    }

    fn unset(&mut self, k: u128) -> bool {
        if self.map.remove(k).is_none() {
            return false;
        }
        if self.base.contains_key(&k) {
            self.delta.insert(k, None);
        } else {
            self.delta.remove(k);
        }
        true
    }

    fn clear(&mut self) {
        self.map.clear();
        self.base = Arc::default();
        self.delta.clear();
    }

    /// Remakes `base` if `delta` has grown large (end of a batch).
    fn settle(&mut self) {
        if self.delta.len() <= 64 + self.base.len() / 4 {
            return;
        }
        let mut base = FxMap::default();
        base.reserve(self.map.len());
        self.map.for_each(|k, e| {
            base.insert(k, e.clone());
        });
        self.base = Arc::new(base);
        self.delta.clear();
    }

    #[inline]
    fn lookup(&self, k: u128) -> Option<&Entry> {
        if !self.delta.is_empty() {
            if let Some(d) = self.delta.get(k) {
                return d.as_ref().map(|e| &e.entry);
            }
        }
        self.base.get(&k).map(|e| &e.entry)
    }
}

/// A table's entries while a batch edits them: a copy of the `Vec` for general
/// tables (O(n)), a clone of the trie for exact tables (O(1)).
#[derive(Clone, Debug)]
pub(crate) enum WorkEntries {
    Flat(Vec<Entry>),
    Exact(ExactStore),
    Lpm(Box<LpmStore>),
}

impl WorkEntries {
    pub(crate) fn len(&self) -> usize {
        match self {
            WorkEntries::Flat(v) => v.len(),
            WorkEntries::Exact(s) => s.map.len(),
            WorkEntries::Lpm(s) => s.len(),
        }
    }

    /// Whether an entry with these fields and priority exists.
    pub(crate) fn contains(&self, fields: &[FieldMatch], priority: i64) -> bool {
        match self {
            WorkEntries::Flat(v) => v.iter().any(|e| same(e, fields, priority)),
            WorkEntries::Exact(s) => priority == 0 && s.map.get(s.key(fields)).is_some(),
            WorkEntries::Lpm(s) => s.contains(fields),
        }
    }

    /// Appends an entry (the caller checked it is not a duplicate). Entries of an
    /// exact store have full masks and priority 0, as `Switch` builds them.
    pub(crate) fn push(&mut self, e: Entry) {
        match self {
            WorkEntries::Flat(v) => v.push(e),
            WorkEntries::Exact(s) => {
                let k = s.key(&e.fields);
                let seq = s.next_seq;
                s.next_seq += 1;
                s.set(k, Arc::new(SeqEntry { seq, entry: e }));
            }
            WorkEntries::Lpm(s) => s.set(e),
        }
    }

    /// Replaces the action of the matching entry; false if there is none.
    pub(crate) fn modify(
        &mut self,
        fields: &[FieldMatch],
        priority: i64,
        action: u32,
        args: Box<[u64]>,
    ) -> bool {
        match self {
            WorkEntries::Flat(v) => match v.iter_mut().find(|e| same(e, fields, priority)) {
                Some(e) => {
                    e.action = action;
                    e.args = args;
                    true
                }
                None => false,
            },
            WorkEntries::Exact(s) => {
                let k = s.key(fields);
                let Some(old) = s.map.get(k).filter(|_| priority == 0) else {
                    return false;
                };
                let new = SeqEntry {
                    seq: old.seq,
                    entry: Entry {
                        fields: old.entry.fields.clone(),
                        priority: old.entry.priority,
                        action,
                        args,
                        hits: old.entry.hits.clone(),
                        age: old.entry.age.clone(),
                    },
                };
                s.set(k, Arc::new(new));
                true
            }
            WorkEntries::Lpm(s) => {
                let Some(old) = s.get(fields).filter(|e| same(e, fields, priority)).cloned() else {
                    return false;
                };
                s.set(Entry {
                    action,
                    args,
                    ..old
                });
                true
            }
        }
    }

    /// Removes the matching entry; false if there is none.
    pub(crate) fn remove(&mut self, fields: &[FieldMatch], priority: i64) -> bool {
        match self {
            WorkEntries::Flat(v) => match v.iter().position(|e| same(e, fields, priority)) {
                Some(i) => {
                    v.remove(i);
                    true
                }
                None => false,
            },
            WorkEntries::Exact(s) => priority == 0 && s.unset(s.key(fields)),
            WorkEntries::Lpm(s) => s.contains(fields) && s.remove(fields),
        }
    }

    pub(crate) fn clear(&mut self) {
        match self {
            WorkEntries::Flat(v) => v.clear(),
            WorkEntries::Exact(s) => s.clear(),
            WorkEntries::Lpm(s) => s.clear(),
        }
    }
}

fn same(a: &Entry, f: &[FieldMatch], p: i64) -> bool {
    *a.fields == *f && a.priority == p
}

#[derive(Clone, Debug)]
enum Body {
    /// general tables: entries in insertion order and the classifier built from
    /// them (rebuilt by every batch that touches the table)
    Built {
        entries: Vec<Entry>,
        cls: Classifier,
    },
    /// exact tables: the trie, plus the entries in insertion order while there
    /// are at most [`LINEAR_MAX`] (then they are compared one by one)
    Exact {
        store: ExactStore,
        small: Box<[(u128, Arc<SeqEntry>)]>,
    },
    /// single-`lpm`-key tables: the path-copied trie (`crate::lpm`)
    Lpm { store: Box<LpmStore> },
}

/// One table's entries, default action and compiled classifier. Immutable.
#[derive(Clone, Debug)]
pub(crate) struct TableState {
    pub default_action: u32,
    pub default_args: Box<[u64]>,
    body: Body,
}

/// Whether a table with these keys keeps its entries in an [`ExactStore`].
fn exact_packer(kinds: &[(MatchKind, u32)]) -> Option<Packer> {
    if kinds.is_empty() || kinds.iter().any(|k| k.0 != MatchKind::Exact) {
        return None;
    }
    let widths: Vec<u32> = kinds.iter().map(|k| k.1).collect();
    Packer::new(&widths)
}

/// The key width of a table with a single `lpm` key of at most 64 bits.
fn lpm_width(kinds: &[(MatchKind, u32)]) -> Option<u32> {
    match kinds {
        [(MatchKind::Lpm, w)] if (1..=64).contains(w) => Some(*w),
        _ => None,
    }
}

impl TableState {
    /// Builds the state for `entries` (in insertion order): an exact store when
    /// every key is `exact` and every entry is a plain exact match without
    /// duplicates, an LPM store for one `lpm` key and plain prefixes, otherwise the
    /// classifier that fits the entries.
    pub(crate) fn build(
        kinds: &[(MatchKind, u32)],
        entries: Vec<Entry>,
        default_action: u32,
        default_args: Box<[u64]>,
    ) -> TableState {
        if let Some(w) = lpm_width(kinds) {
            let plain = entries.iter().all(|e| {
                e.fields.len() == 1
                    && {
                        let f = &e.fields[0];
                        let n = f.mask.count_ones();
                        let pm = if n == 0 { 0 } else { mask(w) & !mask(w - n) };
                        f.mask == pm && f.value & !pm == 0 && !f.is_range(w)
                    }
                    && e.priority == i64::from(e.fields[0].mask.count_ones())
            });
            if plain {
                let mut s = WorkEntries::Lpm(Box::new(LpmStore::new(w)));
                let n = entries.len();
                for e in entries.iter() {
                    if s.contains(&e.fields, e.priority) {
                        break;
                    }
                    s.push(e.clone());
                }
                if s.len() == n {
                    return TableState::finish(kinds, s, default_action, default_args);
                }
            }
        }
        if let Some(packer) = exact_packer(kinds) {
            let plain = entries.iter().all(|e| {
                e.priority == 0
                    && e.fields.len() == kinds.len()
                    && e.fields
                        .iter()
                        .zip(kinds)
                        .all(|(f, k)| f.mask == mask(k.1) && !f.is_range(k.1))
            });
            if plain {
                let mut w = WorkEntries::Exact(ExactStore::new(packer));
                let n = entries.len();
                for e in entries.iter() {
                    if w.contains(&e.fields, e.priority) {
                        break;
                    }
                    w.push(e.clone());
                }
                if w.len() == n {
                    return TableState::finish(kinds, w, default_action, default_args);
                }
            }
        }
        TableState {
            body: Body::Built {
                cls: Classifier::build(kinds, &entries),
                entries,
            },
            default_action,
            default_args,
        }
    }

    /// The entries, for a batch to edit.
    pub(crate) fn work_entries(&self) -> WorkEntries {
        match &self.body {
            Body::Built { entries, .. } => WorkEntries::Flat(entries.clone()),
            Body::Exact { store, .. } => WorkEntries::Exact(store.clone()),
            Body::Lpm { store } => WorkEntries::Lpm(store.clone()),
        }
    }

    /// The new state after a batch: O(1) plus at most [`LINEAR_MAX`] entries for
    /// an exact store, a rebuild otherwise.
    pub(crate) fn finish(
        kinds: &[(MatchKind, u32)],
        w: WorkEntries,
        default_action: u32,
        default_args: Box<[u64]>,
    ) -> TableState {
        match w {
            WorkEntries::Flat(entries) => {
                TableState::build(kinds, entries, default_action, default_args)
            }
            WorkEntries::Lpm(store) => TableState {
                body: Body::Lpm { store },
                default_action,
                default_args,
            },
            WorkEntries::Exact(mut store) => {
                store.settle();
                let small = if store.map.len() <= LINEAR_MAX {
                    let mut v = Vec::new();
                    store.map.for_each(|k, e| v.push((k, e.clone())));
                    v.sort_by_key(|(_, e)| e.seq);
                    v.into()
                } else {
                    Box::default()
                };
                TableState {
                    body: Body::Exact { store, small },
                    default_action,
                    default_args,
                }
            }
        }
    }

    /// The entries in insertion order.
    pub(crate) fn entries(&self) -> Vec<&Entry> {
        match &self.body {
            Body::Built { entries, .. } => entries.iter().collect(),
            Body::Exact { store, .. } => {
                let mut v: Vec<&SeqEntry> = Vec::with_capacity(store.map.len());
                store.map.for_each(|_, e| v.push(e));
                v.sort_by_key(|e| e.seq);
                v.into_iter().map(|e| &e.entry).collect()
            }
            Body::Lpm { store } => store.entries(),
        }
    }

    /// The entries in the order a lookup tries them, when the lookup is a straight list
    /// (empty, or at most [`LINEAR_MAX`] entries, or a `Linear` classifier); `None` when it
    /// is a hash, trie or tuple space.
    pub(crate) fn linear_order(&self) -> Option<Vec<&Entry>> {
        match &self.body {
            Body::Built {
                entries,
                cls: Classifier::Linear(order),
            } if order.len() <= LINEAR_MAX => Some(
                order
                    .iter()
                    .filter_map(|&i| entries.get(i as usize))
                    .collect(),
            ),
            Body::Built {
                cls: Classifier::Empty,
                ..
            } => Some(vec![]),
            Body::Exact { store, small } if store.map.len() <= LINEAR_MAX => {
                Some(small.iter().map(|(_, e)| &e.entry).collect())
            }
            Body::Lpm { store } if store.len() <= LINEAR_MAX => {
                // longest prefix first (two prefixes of one length never both match)
                let mut v = store.entries();
                v.sort_by_key(|e| std::cmp::Reverse(e.priority));
                Some(v)
            }
            _ => None,
        }
    }

    pub(crate) fn kind(&self) -> ClassifierKind {
        match &self.body {
            Body::Built { cls, .. } => cls.kind(),
            Body::Exact { store, .. } => match store.map.len() {
                0 => ClassifierKind::Empty,
                n if n <= LINEAR_MAX => ClassifierKind::Linear,
                _ => ClassifierKind::Exact,
            },
            Body::Lpm { store } => match store.len() {
                0 => ClassifierKind::Empty,
                n if n <= LINEAR_MAX => ClassifierKind::Linear,
                _ => ClassifierKind::Lpm,
            },
        }
    }

    /// The LPM store of a single-`lpm`-key table (whose leaves carry packed records).
    #[inline]
    pub(crate) fn lpm(&self) -> Option<&LpmStore> {
        match &self.body {
            Body::Lpm { store } => Some(store),
            _ => None,
        }
    }

    /// Looks `key` up; `None` = miss.
    #[inline(never)]
    pub(crate) fn lookup(&self, key: &[u64]) -> Option<&Entry> {
        match &self.body {
            Body::Built { entries, cls } => cls.lookup(entries, key),
            Body::Exact { store, small } => {
                let k = store.packer.pack(key);
                if store.map.len() <= LINEAR_MAX {
                    small.iter().find(|(sk, _)| *sk == k).map(|(_, e)| &e.entry)
                } else {
                    store.lookup(k)
                }
            }
            Body::Lpm { store } => store.lookup(key.first().copied().unwrap_or(0)),
        }
    }
}

impl Classifier {
    /// The classifier that fits `entries`.
    fn build(kinds: &[(MatchKind, u32)], entries: &[Entry]) -> Classifier {
        let widths: Vec<u32> = kinds.iter().map(|k| k.1).collect();
        let n = entries.len();
        let has_range = entries
            .iter()
            .any(|e| e.fields.iter().zip(&widths).any(|(f, w)| f.is_range(*w)));
        let packer = Packer::new(&widths);
        let by_prio = |entries: &[Entry]| {
            let mut idx: Vec<u32> = (0..entries.len() as u32).collect();
            // stable: equal priorities keep insertion order
            idx.sort_by_key(|&i| std::cmp::Reverse(entries[i as usize].priority));
            idx
        };
        if n == 0 {
            Classifier::Empty
        } else if n <= LINEAR_MAX || has_range || packer.is_none() {
            Classifier::Linear(by_prio(entries))
        } else if let Some(packer) = packer {
            let all_exact = entries.iter().all(|e| {
                e.fields
                    .iter()
                    .zip(&widths)
                    .all(|(f, w)| f.mask == mask(*w))
            });
            if all_exact {
                let mut map = FxMap::default();
                map.reserve(n);
                for i in by_prio(entries) {
                    let key: Vec<u64> =
                        entries[i as usize].fields.iter().map(|f| f.value).collect();
                    map.entry(packer.pack(&key)).or_insert(i);
                }
                Classifier::Exact(packer, map)
            } else if kinds.len() == 1 && kinds[0].0 == MatchKind::Lpm {
                let w = kinds[0].1;
                let prefixes = entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (e.fields[0].value, e.fields[0].mask.count_ones(), i as u32))
                    .collect();
                Classifier::Lpm(Trie::build(w, prefixes))
            } else {
                let mut groups: Vec<Group> = Vec::new();
                let mut index: FxMap<Box<[u64]>, usize> = FxMap::default();
                for i in by_prio(entries) {
                    let e = &entries[i as usize];
                    let masks: Box<[u64]> = e.fields.iter().map(|f| f.mask).collect();
                    let g = *index.entry(masks.clone()).or_insert_with(|| {
                        groups.push(Group {
                            masks,
                            max_prio: e.priority,
                            map: FxMap::default(),
                        });
                        groups.len() - 1
                    });
                    let vals: Vec<u64> = e.fields.iter().map(|f| f.value).collect();
                    let k = packer.pack(&vals);
                    groups[g].map.entry(k).or_insert(i);
                }
                groups.sort_by_key(|g| std::cmp::Reverse(g.max_prio));
                Classifier::TupleSpace(packer, groups)
            }
        } else {
            Classifier::Linear(by_prio(entries))
        }
    }

    fn kind(&self) -> ClassifierKind {
        match self {
            Classifier::Empty => ClassifierKind::Empty,
            Classifier::Linear(_) => ClassifierKind::Linear,
            Classifier::Exact(..) => ClassifierKind::Exact,
            Classifier::Lpm(_) => ClassifierKind::Lpm,
            Classifier::TupleSpace(..) => ClassifierKind::TupleSpace,
        }
    }

    #[inline]
    fn lookup<'e>(&self, entries: &'e [Entry], key: &[u64]) -> Option<&'e Entry> {
        let i = match self {
            Classifier::Empty => return None,
            Classifier::Linear(order) => *order.iter().find(|&&i| {
                entries[i as usize]
                    .fields
                    .iter()
                    .zip(key)
                    .all(|(f, k)| f.matches(*k))
            })?,
            Classifier::Exact(p, map) => *map.get(&p.pack(key))?,
            Classifier::Lpm(t) => {
                let i = t.lookup(key[0]);
                if i == NONE {
                    return None;
                }
                i
            }
            Classifier::TupleSpace(p, groups) => {
                let mut best: Option<u32> = None;
                let mut best_prio = i64::MIN;
                for g in groups {
                    if best.is_some() && g.max_prio <= best_prio {
                        break;
                    }
                    if let Some(&i) = g.map.get(&p.pack_masked(key, &g.masks)) {
                        let pr = entries[i as usize].priority;
                        if best.is_none() || pr > best_prio {
                            best = Some(i);
                            best_prio = pr;
                        }
                    }
                }
                best?
            }
        };
        entries.get(i as usize)
    }
}

/// All tables' states at one instant. A packet uses exactly one snapshot.
#[derive(Clone, Debug, Default)]
pub(crate) struct Snapshot {
    pub tables: Vec<Arc<TableState>>,
    /// Native engine: per table, the entry point of its compiled lookup (0: none, use the
    /// classifier) — the trampoline compiled code calls through.
    pub lookups: Box<[usize]>,
    /// The owners of that code (kept alive as long as the snapshot).
    pub lookup_code: Vec<Option<Arc<dyn std::any::Any + Send + Sync>>>,
}

impl Snapshot {
    /// The snapshot of `tables` without compiled lookups.
    pub(crate) fn of(tables: Vec<Arc<TableState>>) -> Snapshot {
        let n = tables.len();
        Snapshot {
            tables,
            lookups: vec![0; n].into(),
            lookup_code: vec![None; n],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fm(value: u64, mask: u64, w: u32) -> FieldMatch {
        FieldMatch {
            value: value & mask,
            mask,
            lo: 0,
            hi: crate::program::mask(w),
        }
    }

    fn lpm_entry(v: u64, len: u32, a: u32) -> Entry {
        let m = if len == 0 {
            0
        } else {
            (!0u64 << (32 - len)) & 0xffff_ffff
        };
        Entry {
            fields: vec![fm(v, m, 32)].into(),
            priority: len as i64,
            action: a,
            args: Box::new([]),
            hits: Hits::default(),
            age: Default::default(),
        }
    }

    #[test]
    fn trie_matches_linear() {
        let mut entries = vec![
            lpm_entry(0x0a00_0000, 8, 1),
            lpm_entry(0x0a01_0000, 16, 2),
            lpm_entry(0x0a01_0100, 24, 3),
            lpm_entry(0x0a01_0101, 32, 4),
            lpm_entry(0, 0, 5),
            lpm_entry(0x0a01_0180, 25, 6),
            lpm_entry(0xc000_0000, 2, 7),
        ];
        let kinds = [(MatchKind::Lpm, 32)];
        let trie = TableState::build(&kinds, entries.clone(), 0, Box::new([]));
        assert_eq!(trie.kind(), ClassifierKind::Lpm);
        // the same entries through the linear classifier
        entries.truncate(7);
        let lin = TableState {
            body: Body::Built {
                cls: Classifier::Linear({
                    let mut v: Vec<u32> = (0..7).collect();
                    v.sort_by_key(|&i| std::cmp::Reverse(entries[i as usize].priority));
                    v
                }),
                entries,
            },
            default_action: 0,
            default_args: Box::new([]),
        };
        for k in [
            0x0a01_0101u64,
            0x0a01_0102,
            0x0a01_0181,
            0x0a01_0201,
            0x0a02_0000,
            0x0b00_0000,
            0xc1_00_00_00,
            0xff_ff_ff_ff,
        ] {
            assert_eq!(
                trie.lookup(&[k]).map(|e| e.action),
                lin.lookup(&[k]).map(|e| e.action),
                "{k:x}"
            );
        }
    }
}
