//! What the engine stages and mirrors, per map: reusable write requests in compact form
//! ([`OpBuf`]), the batch being staged ([`Staged`]), what the switch holds of one map
//! ([`MapSync`]) and of the registers ([`RegSync`]), and the changes a batch publishes
//! ([`Changes`]: a caller's list or the touched keys that differ from the switch).

use std::collections::BTreeMap;

use tandem_ir::hash::{FxHashMap, FxHashSet};
use tandem_ir::words::Words;
use tandem_ir::MapMatch;

use super::hashed;
use super::Change;
use crate::control::{ExactBatch, ExactKind, ExactOp};
use crate::primary::Touched;

/// A reusable write request to one table, in compact form ([`ExactBatch`]): composing an
/// entry appends its key and arguments to one word buffer, with the table and action as
/// indices (0: the hit action, 1: the delete action of a write-back table).
#[derive(Debug)]
pub(super) struct OpBuf {
    pub(super) table: [String; 1],
    pub(super) actions: Vec<String>,
    pub(super) ops: Vec<ExactOp>,
    pub(super) words: Vec<u64>,
    /// How keys match (how a key spells an entry: [`ExactBatch::matching`]).
    pub(super) matching: MapMatch,
    /// An LPM map whose prefix spans several key fields (`lpm_map<..., 2>`, an IPv6
    /// address) has a ternary table ([`WideLpm`]): entry names are respelled for it.
    pub(super) wide: Option<WideLpm>,
    /// A table shared with another map (IPv4/IPv6 pooling, `tandem_partition::pool`):
    /// entry names are first placed in the pooled key.
    pub(super) pool: Option<(
        tandem_partition::pool::PoolShape,
        tandem_partition::pool::Family,
    )>,
}

/// How an entry of an LPM map with a multi-field prefix becomes a ternary table's entry
/// (`tandem_p4` emits such a map's table with every key `ternary`: a P4 `lpm` key is one
/// field, and a switch word is 64 bits): `[exact..., prefix..., len]` →
/// `[exact..., prefix..., exact masks (all ones)..., prefix masks (the top len bits)...,
/// priority len + 1]`, so the longest matching prefix is the highest-priority match.
#[derive(Clone, Debug)]
pub(super) struct WideLpm {
    /// All-ones masks of the exact fields (their widths).
    pub(super) exact_masks: Vec<u64>,
    pub(super) shape: tandem_ir::interp::LpmShape,
}

impl WideLpm {
    /// `name` (an LPM entry name) as the ternary entry's name, appended to `out`.
    pub(super) fn respell(&self, name: &[u64], out: &mut Vec<u64>) {
        let Some((&len, rest)) = name.split_last() else {
            return;
        };
        let n = self.exact_masks.len().min(rest.len());
        let words = rest.len() - n;
        let start = out.len();
        out.extend_from_slice(rest);
        out.extend_from_slice(&self.exact_masks[..n]);
        let all = vec![u64::MAX; words];
        let at = out.len();
        out.resize(at + words, 0);
        self.shape.mask_into(&all, len as u32, &mut out[at..]);
        // The prefix's words as stored: masked to the prefix (the map stores them so).
        for i in 0..words {
            out[start + n + i] &= out[at + i];
        }
        out.push(len + 1);
    }
}

/// `a == b` for short keys (a loop, not a `memcmp` call).
#[inline]
pub(super) fn same_words(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The hit action of a table's [`OpBuf`].
pub(super) const HIT: u32 = 0;
/// The delete action of a write-back table's [`OpBuf`].
pub(super) const DELETE: u32 = 1;

impl OpBuf {
    pub(super) fn new(table: &str, actions: Vec<String>, matching: MapMatch) -> OpBuf {
        OpBuf {
            table: [table.to_string()],
            actions,
            ops: Vec::new(),
            words: Vec::new(),
            matching,
            wide: None,
            pool: None,
        }
    }

    /// The buffer of a table map `family` shares with the other map of `shape`'s pool: an
    /// exact table, or for LPM maps a ternary one over the pooled key (the tag and the other
    /// key fields exact, the prefix over the 128-bit address's two words).
    pub(super) fn pooled(
        table: &str,
        actions: Vec<String>,
        shape: tandem_partition::pool::PoolShape,
        family: tandem_partition::pool::Family,
    ) -> OpBuf {
        let mut b = if shape.lpm {
            let bits = shape.key_bits();
            let exact_masks = bits[..bits.len() - 2]
                .iter()
                .map(|&w| tandem_ir::interp::prefix_mask(w, 64))
                .collect();
            OpBuf::wide_lpm(
                table,
                actions,
                WideLpm {
                    exact_masks,
                    shape: tandem_ir::interp::LpmShape {
                        bits: 128,
                        words: 2,
                    },
                },
            )
        } else {
            OpBuf::new(table, actions, MapMatch::Exact)
        };
        b.pool = Some((shape, family));
        b
    }

    /// The buffer of a ternary table holding an LPM map with a multi-field prefix.
    pub(super) fn wide_lpm(table: &str, actions: Vec<String>, wide: WideLpm) -> OpBuf {
        let mut b = OpBuf::new(table, actions, MapMatch::Ternary);
        b.wide = Some(wide);
        b
    }

    /// Appends `key` (an entry name) as the table spells it; its length.
    #[inline]
    fn push_key(&mut self, key: &[u64]) -> u32 {
        let at = self.words.len();
        let placed;
        let key = match &self.pool {
            Some((shape, family)) => {
                placed = shape.entry(*family, key);
                placed.as_slice()
            }
            None => key,
        };
        match &self.wide {
            Some(w) => w.respell(key, &mut self.words),
            None => self.words.extend_from_slice(key),
        }
        (self.words.len() - at) as u32
    }

    pub(super) fn clear(&mut self) {
        self.ops.clear();
        self.words.clear();
    }

    pub(super) fn batch(&self) -> ExactBatch<'_> {
        ExactBatch {
            tables: &self.table,
            actions: &self.actions,
            ops: &self.ops,
            words: &self.words,
            matching: self.matching,
        }
    }

    /// Appends an insert (or, with `modify`, a modify) of `key` → `action(args)`.
    #[inline]
    pub(super) fn entry(&mut self, modify: bool, key: &[u64], action: u32, args: &[u64]) {
        let at = self.words.len() as u32;
        let key_len = self.push_key(key);
        self.words.extend_from_slice(args);
        self.ops.push(ExactOp {
            kind: if modify {
                ExactKind::Modify
            } else {
                ExactKind::Insert
            },
            table: 0,
            action,
            at,
            key_len,
            args_len: args.len() as u32,
        });
    }

    /// Appends a delete of `key`.
    #[inline]
    pub(super) fn delete(&mut self, key: &[u64]) {
        let at = self.words.len() as u32;
        let key_len = self.push_key(key);
        self.ops.push(ExactOp {
            kind: ExactKind::Delete,
            table: 0,
            action: 0,
            at,
            key_len,
            args_len: 0,
        });
    }
}

/// A staged batch: keys and values packed in one word buffer.
#[derive(Debug, Default)]
pub(super) struct Staged {
    pub(super) ents: Vec<StagedEnt>,
    pub(super) words: Vec<u64>,
}

/// One staged key: where its key and value are in [`Staged::words`].
#[derive(Clone, Copy, Debug)]
pub(super) struct StagedEnt {
    pub(super) key_at: u32,
    pub(super) key_len: u32,
    pub(super) val_at: u32,
    /// `u32::MAX`: staged as deleted.
    pub(super) val_len: u32,
}

impl Staged {
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.ents.len()
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.ents.is_empty()
    }

    pub(super) fn clear(&mut self) {
        self.ents.clear();
        self.words.clear();
    }

    #[inline]
    pub(super) fn key(&self, i: usize) -> &[u64] {
        let e = self.ents[i];
        &self.words[e.key_at as usize..(e.key_at + e.key_len) as usize]
    }

    #[inline]
    pub(super) fn value(&self, i: usize) -> Option<&[u64]> {
        let e = self.ents[i];
        (e.val_len != u32::MAX)
            .then(|| &self.words[e.val_at as usize..(e.val_at + e.val_len) as usize])
    }

    #[inline]
    pub(super) fn position(&self, key: &[u64]) -> Option<usize> {
        (0..self.ents.len()).find(|&i| same_words(self.key(i), key))
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (&[u64], Option<&[u64]>)> {
        (0..self.ents.len()).map(|i| (self.key(i), self.value(i)))
    }

    /// Appends `v` to the buffer: (start, length or `u32::MAX`).
    pub(super) fn put(&mut self, v: Option<&[u64]>) -> (u32, u32) {
        let at = self.words.len() as u32;
        match v {
            Some(v) => {
                self.words.extend_from_slice(v);
                (at, v.len() as u32)
            }
            None => (at, u32::MAX),
        }
    }

    pub(super) fn push(&mut self, key: &[u64], value: Option<&[u64]>) {
        let key_at = self.words.len() as u32;
        self.words.extend_from_slice(key);
        let (val_at, val_len) = self.put(value);
        self.ents.push(StagedEnt {
            key_at,
            key_len: key.len() as u32,
            val_at,
            val_len,
        });
    }

    pub(super) fn set_value(&mut self, i: usize, value: Option<&[u64]>) {
        let e = self.ents[i];
        match value {
            Some(v) if e.val_len as usize == v.len() => {
                self.words[e.val_at as usize..e.val_at as usize + v.len()].copy_from_slice(v);
            }
            _ => {
                let (val_at, val_len) = self.put(value);
                self.ents[i].val_at = val_at;
                self.ents[i].val_len = val_len;
            }
        }
    }
}

/// What the switch holds of one map.
#[derive(Debug)]
pub(super) struct MapSync {
    /// How lookups match: keys are entry names (an LPM map's `[prefix, length]`, a ternary
    /// map's key, mask and priority, a range map's low, high and priority).
    pub(super) matching: MapMatch,
    pub(super) name: String,
    /// Main tables (one per copy) and their hit actions.
    pub(super) main: Vec<(String, String)>,
    /// Write-back tables, their hit and their delete actions.
    pub(super) wb: Vec<(String, String, Option<String>)>,
    pub(super) key_fields: usize,
    pub(super) value_fields: usize,
    /// Entries the main tables can hold (the smallest copy).
    pub(super) size: u64,
    /// Entries the write-back tables can hold.
    pub(super) wb_size: u64,
    /// What the main tables hold.
    pub(super) on_main: FxHashMap<Words, Words>,
    /// What the write-back tables hold (visible while the flag is set). A batch is what one
    /// packet changed, a few keys: a flat buffer scanned linearly beats hashing.
    pub(super) staged: Staged,
    /// Entries of `staged` whose key the main tables do not hold (keys the batch adds).
    pub(super) staged_adds: u64,
    pub(super) server_only: FxHashSet<Words>,
    /// A partial map whose misses the switch program itself sends to the server whole
    /// (manifest `states[].partial.miss_to_server`): its server-only keys need no probe.
    pub(super) miss_to_server: bool,
    /// Request buffers: per main table; per write-back table (retiring the previous batch
    /// and staging the next one in one request).
    pub(super) main_ops: Vec<OpBuf>,
    pub(super) wb_ops: Vec<OpBuf>,
    /// Held in hash-indexed registers instead of main tables (`main` is empty).
    pub(super) hashed: Option<hashed::HashedSync>,
    /// Held as ALPM (a pivot and a bucket table per lookup) instead of main tables (`main`
    /// is empty).
    pub(super) alpm: Option<super::alpm::AlpmSync>,
    /// Held as key digests (a conflict and a digest table per lookup) instead of main
    /// tables (`main` is empty).
    pub(super) digest: Option<super::digest::DigestSync>,
}

impl MapSync {
    /// The key's value as packets see it.
    pub(super) fn visible(&self, key: &[u64]) -> Option<&[u64]> {
        self.lookup(key).0
    }

    /// The key's value as packets see it, and, when the key is not staged, whether the main
    /// tables hold it (retiring the staged batch leaves that unchanged).
    #[inline]
    pub(super) fn lookup(&self, key: &[u64]) -> (Option<&[u64]>, Option<bool>) {
        match self.staged_at(key) {
            Some(i) => (self.staged.value(i), None),
            None => match self.on_main.get(key) {
                Some(v) => (Some(v.as_slice()), Some(true)),
                None => (None, Some(false)),
            },
        }
    }

    /// Where `key` is in the staged batch.
    #[inline]
    pub(super) fn staged_at(&self, key: &[u64]) -> Option<usize> {
        self.staged.position(key)
    }

    /// Entries the main tables will hold after retiring the staged batch.
    pub(super) fn occupancy_after_retire(&self) -> u64 {
        let mut n = self.on_main.len() as i64;
        for (k, v) in self.staged.iter() {
            match (self.on_main.contains_key(k), v.is_some()) {
                (false, true) => n += 1,
                (true, false) => n -= 1,
                _ => {}
            }
        }
        n.max(0) as u64
    }

    /// Puts `key` → `value` into the batch being staged.
    pub(super) fn stage(&mut self, key: &[u64], value: Option<&[u64]>, on_main: bool) {
        let add = value.is_some() && !on_main;
        match self.staged_at(key) {
            Some(i) => {
                if self.staged.value(i).is_some() && !on_main {
                    self.staged_adds -= 1;
                }
                self.staged.set_value(i, value);
            }
            None => self.staged.push(key, value),
        }
        if add {
            self.staged_adds += 1;
        }
    }
}

/// The replicated maps by state index: a dense index instead of a search tree, since the
/// engine looks them up and walks them several times per batch.
#[derive(Debug, Default)]
pub(super) struct Maps {
    /// Position in `list` by state index (`u32::MAX`: none).
    pub(super) slot: Vec<u32>,
    /// By ascending state index.
    pub(super) list: Vec<(u32, MapSync)>,
}

impl Maps {
    pub(super) fn from_sorted(maps: BTreeMap<u32, MapSync>) -> Maps {
        let mut slot = Vec::new();
        let list: Vec<(u32, MapSync)> = maps.into_iter().collect();
        for (i, (sid, _)) in list.iter().enumerate() {
            let at = *sid as usize;
            if slot.len() <= at {
                slot.resize(at + 1, u32::MAX);
            }
            slot[at] = i as u32;
        }
        Maps { slot, list }
    }

    #[inline]
    pub(super) fn at(&self, sid: u32) -> Option<usize> {
        match self.slot.get(sid as usize) {
            Some(&i) if i != u32::MAX => Some(i as usize),
            _ => None,
        }
    }

    #[inline]
    pub(super) fn contains_key(&self, sid: &u32) -> bool {
        self.at(*sid).is_some()
    }

    #[inline]
    pub(super) fn get(&self, sid: &u32) -> Option<&MapSync> {
        self.at(*sid).map(|i| &self.list[i].1)
    }

    #[inline]
    pub(super) fn get_mut(&mut self, sid: &u32) -> Option<&mut MapSync> {
        self.at(*sid).map(|i| &mut self.list[i].1)
    }

    pub(super) fn keys(&self) -> impl Iterator<Item = &u32> {
        self.list.iter().map(|(s, _)| s)
    }

    pub(super) fn values(&self) -> impl Iterator<Item = &MapSync> {
        self.list.iter().map(|(_, m)| m)
    }

    pub(super) fn values_mut(&mut self) -> impl Iterator<Item = &mut MapSync> {
        self.list.iter_mut().map(|(_, m)| m)
    }
}

impl std::ops::Index<&u32> for Maps {
    type Output = MapSync;
    fn index(&self, sid: &u32) -> &MapSync {
        self.get(sid).expect("a replicated map")
    }
}

/// Registers holding a scalar or vector: (register name, element field index).
#[derive(Debug)]
pub(super) struct RegSync {
    pub(super) name: String,
    pub(super) regs: Vec<(String, usize)>,
    /// Values last written, per (register, index).
    pub(super) written: FxHashMap<(usize, u32), u64>,
}

/// Which cells of a scalar or vector to bring up to date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cells {
    /// Every cell, written whether changed or not.
    AllForced,
    /// Every cell whose value changed.
    AllChanged,
    /// This cell, if its value changed.
    One(u64),
    /// This cell, written whether changed or not (a switch-owned register: the switch
    /// changes it itself, so what was last written says nothing).
    OneForced(u64),
}

/// A batch of map changes, by position.
pub(super) trait Changes {
    fn count(&self) -> usize;
    fn get(&self, i: usize) -> (u32, &[u64], Option<&[u64]>);
    /// Whether the main tables hold change `i`'s key after the staged batch is retired, if
    /// already known.
    fn on_main(&self, _i: usize) -> Option<bool> {
        None
    }
}

impl Changes for [Change] {
    fn count(&self) -> usize {
        self.len()
    }

    fn get(&self, i: usize) -> (u32, &[u64], Option<&[u64]>) {
        let c = &self[i];
        (c.state, &c.key, c.value.as_deref())
    }
}

/// The changes of a server packet: the touched keys that differ from what the switch shows,
/// with their values in the primary copy (copied when the key was compared, so that the
/// primary copy is looked up once per key).
pub(super) struct Pending<'a> {
    pub(super) touched: &'a Touched,
    pub(super) idx: &'a [PendingKey],
    pub(super) vals: &'a [u64],
}

/// A touched key that differs from the switch.
#[derive(Clone, Copy, Debug)]
pub(super) struct PendingKey {
    /// Index of the touched key.
    pub(super) touched: u32,
    /// Start and length of its value in [`Pending::vals`] (length `u32::MAX`: absent).
    pub(super) start: u32,
    pub(super) len: u32,
    /// Whether the main tables hold it (see [`MapSync::lookup`]).
    pub(super) on_main: Option<bool>,
}

impl Changes for Pending<'_> {
    fn count(&self) -> usize {
        self.idx.len()
    }

    fn get(&self, i: usize) -> (u32, &[u64], Option<&[u64]>) {
        let p = self.idx[i];
        let (s, k) = self.touched.key_at(p.touched as usize);
        let v =
            (p.len != u32::MAX).then(|| &self.vals[p.start as usize..(p.start + p.len) as usize]);
        (s, k, v)
    }

    fn on_main(&self, i: usize) -> Option<bool> {
        self.idx[i].on_main
    }
}

#[cfg(test)]
mod wide_tests {
    use super::WideLpm;
    use tandem_ir::interp::LpmShape;

    /// A 128-bit prefix after a 24-bit exact field: each word's mask is its share of the
    /// length, the priority the length + 1 (a /124 beats the /48 around it; the /124's low
    /// word is not wildcarded, which a 64-bit-only lowering would do).
    #[test]
    fn respells_a_128_bit_prefix_as_ternary_masks_and_priority() {
        let w = WideLpm {
            exact_masks: vec![0xff_ffff],
            shape: LpmShape {
                bits: 128,
                words: 2,
            },
        };
        let (hi, lo) = (0xfd00_0000_0000_0001u64, 0x0123u64);
        let mut out = Vec::new();
        w.respell(&[10_000, hi, lo, 124], &mut out);
        assert_eq!(
            out,
            [10_000, hi, 0x0120, 0xff_ffff, u64::MAX, !0xf, 125],
            "/124: all of hi, the top 60 bits of lo"
        );
        out.clear();
        w.respell(&[10_000, hi, lo, 48], &mut out);
        assert_eq!(out[3..], [0xff_ffff, 0xffff_ffff_ffff_0000, 0, 49]);
        out.clear();
        w.respell(&[10_000, 0, 0, 0], &mut out);
        assert_eq!(
            out[3..],
            [0xff_ffff, 0, 0, 1],
            "/0: a wildcard at the lowest priority"
        );
    }
}
