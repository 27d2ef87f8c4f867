//! The state store: every state object's contents (map entries with their last-use time,
//! vector elements, scalars), the map rules the `map.*` instructions enforce (capacity, idle
//! timeout, longest prefix), and the host-side API by name and by id.

use std::collections::BTreeMap;

use super::priority;
use crate::hash::FxHashMap;
use crate::words::Words;
use crate::{EntityRef, Layout, MapMatch, Module, StateId, StateKind};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MapEntry {
    pub(super) value: Words,
    pub(super) last_used: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    Map(FxHashMap<Words, MapEntry>),
    Vector(VecSlot),
    Scalar(u64),
    Meter(super::meter::MeterSlot),
}

/// A vector's elements; elements never written are all-zero and not stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct VecSlot {
    pub(super) len: u64,
    pub(super) fields: usize,
    pub(super) elems: BTreeMap<u64, Vec<u64>>,
}

impl VecSlot {
    pub(super) fn get(&self, i: u64) -> Option<Vec<u64>> {
        if i >= self.len {
            return None;
        }
        Some(
            self.elems
                .get(&i)
                .cloned()
                .unwrap_or_else(|| vec![0; self.fields]),
        )
    }

    pub(super) fn set(&mut self, i: u64, v: Vec<u64>) -> bool {
        if i >= self.len {
            return false;
        }
        self.elems.insert(i, v);
        true
    }
}

/// Errors of the state store's host-side API and of dumps.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// No state object has this name.
    #[error("no state named `{0}`")]
    NoSuchState(String),
    /// The operation does not fit the state's kind or layout.
    #[error("state `{name}`: {message}")]
    Shape {
        /// State name.
        name: String,
        /// What does not fit.
        message: String,
    },
    /// A C++-format dump needs byte offsets and sizes that the layout lacks.
    #[error("state `{0}`: layout has no C++ offsets/size for a native-format dump")]
    NoCppLayout(String),
}

/// The contents of every state object of a module: map entries, vector elements, scalars.
///
/// Values are kept per layout field, each wrapped to its field type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateStore {
    pub(super) slots: Vec<Slot>,
    /// The latest packet time seen; expiring-map entries idle for longer than their timeout
    /// at this time are omitted from dumps.
    pub clock_ns: u64,
}

/// Is the entry live at `now`? Entries of expiring maps (`timeout` is `Some`) expire once
/// they have been idle for more than `timeout` ns (the native `tandem::ExpiringMap` rule).
pub(super) fn live(e: &MapEntry, now: u64, timeout: Option<u64>) -> bool {
    match timeout {
        None => true,
        Some(t) => now.saturating_sub(e.last_used) <= t,
    }
}

/// An LPM map's prefix: `bits` wide over the key's last `words` words (each `bits / words`
/// wide, most significant first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LpmShape {
    /// The prefix's width in bits (0..=len matches).
    pub bits: u32,
    /// How many trailing key words it spans.
    pub words: u32,
}

impl LpmShape {
    /// The shape of an LPM map; `None` for other kinds.
    pub fn of(kind: &StateKind) -> Option<LpmShape> {
        Some(LpmShape {
            bits: kind.lpm_bits()?,
            words: kind.lpm_fields()?,
        })
    }

    /// `addr` (the prefix's words, most significant first) masked to its top `len` bits.
    pub fn mask_into(&self, addr: &[u64], len: u32, out: &mut [u64]) {
        let w = self.bits / self.words.max(1);
        let mut left = len;
        for (o, a) in out.iter_mut().zip(addr) {
            let take = left.min(w);
            *o = a & prefix_mask(w, take);
            left -= take;
        }
    }
}

/// The entry of the longest prefix of `key`'s trailing (prefix) words among those with its
/// other (exact) words, in an LPM map's slot (entries keyed by `[exact..., prefix...,
/// length]`).
fn lpm_get<'m>(
    m: &'m FxHashMap<Words, MapEntry>,
    shape: LpmShape,
    key: &[u64],
) -> Option<&'m MapEntry> {
    let n = key.len().checked_sub(shape.words as usize)?;
    let (exact, addr) = key.split_at(n);
    let mut probe: Vec<u64> = Vec::with_capacity(key.len() + 1);
    probe.extend_from_slice(exact);
    probe.extend(addr.iter().map(|_| 0));
    probe.push(0);
    let last = probe.len() - 1;
    (0..=shape.bits).rev().find_map(|len| {
        shape.mask_into(addr, len, &mut probe[n..last]);
        probe[last] = u64::from(len);
        m.get(&probe[..])
    })
}

/// An LPM entry name `[exact..., prefix..., length]` with the prefix masked to its length;
/// `None` when the length is above the prefix's width or the name is too short.
fn lpm_entry(shape: LpmShape, key: &[u64]) -> Option<Vec<u64>> {
    let (&len, rest) = key.split_last()?;
    let n = rest.len().checked_sub(shape.words as usize)?;
    if len > u64::from(shape.bits) {
        return None;
    }
    let mut out = key.to_vec();
    let words = shape.words as usize;
    shape.mask_into(&rest[n..], len as u32, &mut out[n..n + words]);
    Some(out)
}

fn check_fields(name: &str, what: &str, layout: &Layout, vals: &[u64]) -> Result<(), StoreError> {
    if vals.len() != layout.fields.len() {
        return Err(StoreError::Shape {
            name: name.to_string(),
            message: format!(
                "{what} needs {} fields, got {}",
                layout.fields.len(),
                vals.len()
            ),
        });
    }
    for (f, &v) in layout.fields.iter().zip(vals) {
        if f.ty.wrap(v) != v {
            return Err(StoreError::Shape {
                name: name.to_string(),
                message: format!(
                    "{what} field `{}` value {v} does not fit in {}",
                    f.name, f.ty
                ),
            });
        }
    }
    Ok(())
}

/// What `map.*` instructions enforce on a map: its capacity and, for an expiring map, the
/// idle timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapRules {
    /// Maximum number of entries (live ones, for an expiring map).
    pub capacity: u64,
    /// Idle timeout in ns of an expiring map; `None` for a plain hash map.
    pub idle_timeout_ns: Option<u64>,
    /// The prefix of an LPM map (longest prefix wins; entries keyed by prefix and length);
    /// `None` for exact-match maps.
    pub lpm_bits: Option<LpmShape>,
    /// How lookups match (ternary and range maps: the highest-priority matching entry;
    /// entries keyed by [`crate::StateKind::entry_key_layout`]).
    pub matching: MapMatch,
    /// Fields of a looked-up key.
    pub key_fields: usize,
}

/// The mask of the top `len` bits of a `bits`-wide key (`len <= bits <= 64`).
pub fn prefix_mask(bits: u32, len: u32) -> u64 {
    let all = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if len == 0 {
        0
    } else if len >= bits {
        all
    } else {
        all & !((1u64 << (bits - len)) - 1)
    }
}

/// The number of key fields of a map kind (0 for other kinds).
fn kl_len(kind: &StateKind) -> usize {
    kind.map_layouts().map_or(0, |(k, _)| k.fields.len())
}

impl MapRules {
    /// The rules of a map state; `None` for other kinds.
    pub fn of(kind: &StateKind) -> Option<MapRules> {
        match kind {
            StateKind::HashMap { capacity, .. }
            | StateKind::LpmMap { capacity, .. }
            | StateKind::TernaryMap { capacity, .. }
            | StateKind::RangeMap { capacity, .. } => Some(MapRules {
                capacity: *capacity,
                idle_timeout_ns: None,
                lpm_bits: LpmShape::of(kind),
                matching: kind.map_match()?,
                key_fields: kind.map_layouts()?.0.fields.len(),
            }),
            StateKind::ExpiringMap {
                capacity,
                idle_timeout_ns,
                key,
                ..
            } => Some(MapRules {
                capacity: *capacity,
                idle_timeout_ns: Some(*idle_timeout_ns),
                lpm_bits: None,
                matching: MapMatch::Exact,
                key_fields: key.fields.len(),
            }),
            _ => None,
        }
    }
}

impl StateStore {
    /// Exchanges state object `s` with `other`'s, in O(1) (a cluster lends a global object
    /// from its owner's store to the server running a packet, and takes it back). `false`:
    /// `s` is in neither store, or the two hold different kinds of object for it.
    pub fn swap_object(&mut self, other: &mut StateStore, s: StateId) -> bool {
        let i = s.index();
        match (self.slots.get_mut(i), other.slots.get_mut(i)) {
            (Some(a), Some(b)) if std::mem::discriminant(a) == std::mem::discriminant(b) => {
                std::mem::swap(a, b);
                true
            }
            _ => false,
        }
    }

    /// Empty maps, zeroed vectors and scalars for every state object of `module`.
    pub fn new(module: &Module) -> StateStore {
        let slots = module
            .states
            .values()
            .map(|s| match &s.kind {
                StateKind::HashMap { .. }
                | StateKind::ExpiringMap { .. }
                | StateKind::LpmMap { .. }
                | StateKind::TernaryMap { .. }
                | StateKind::RangeMap { .. } => Slot::Map(FxHashMap::default()),
                StateKind::Vector { elem, len } => Slot::Vector(VecSlot {
                    len: *len,
                    fields: elem.fields.len(),
                    elems: BTreeMap::new(),
                }),
                StateKind::Scalar { .. } => Slot::Scalar(0),
                StateKind::Meter { len, unit } => Slot::Meter(super::meter::MeterSlot {
                    len: *len,
                    unit: *unit,
                    cells: BTreeMap::new(),
                }),
            })
            .collect();
        StateStore { slots, clock_ns: 0 }
    }

    pub(super) fn lookup<'a>(
        &self,
        module: &'a Module,
        name: &str,
    ) -> Result<(StateId, &'a StateKind), StoreError> {
        let id = module
            .state_by_name(name)
            .ok_or_else(|| StoreError::NoSuchState(name.into()))?;
        Ok((id, &module.states[id].kind))
    }

    pub(super) fn shape_err(name: &str, message: &str) -> StoreError {
        StoreError::Shape {
            name: name.to_string(),
            message: message.to_string(),
        }
    }

    /// Host-side insert (e.g. entries written by `configure`); capacity is not enforced.
    /// Expiring-map entries count as used at [`StateStore::clock_ns`]. An LPM map's key is
    /// the prefix and its length (`[prefix, len]`); the prefix is masked to its length. A
    /// ternary or range map's key is the entry's name (`[key..., mask..., priority]`, the
    /// key masked, or `[lo, hi, priority]`).
    pub fn map_insert(
        &mut self,
        module: &Module,
        name: &str,
        key: &[u64],
        value: &[u64],
    ) -> Result<(), StoreError> {
        let (id, kind) = self.lookup(module, name)?;
        let (kl, vl) = kind
            .map_layouts()
            .ok_or_else(|| Self::shape_err(name, "not a map"))?;
        let masked;
        let key = if let Some(bits) = LpmShape::of(kind) {
            if key.len() != kl.fields.len() + 1 {
                return Err(Self::shape_err(
                    name,
                    "an lpm_map key is [exact fields..., prefix, length]",
                ));
            }
            check_fields(name, "key", kl, &key[..kl.fields.len()])?;
            let Some(m) = lpm_entry(bits, key) else {
                let (prefix, len) = (key[key.len() - 2], key[key.len() - 1]);
                return Err(Self::shape_err(
                    name,
                    &format!(
                        "prefix {prefix:#x}/{len} does not fit a {}-bit key",
                        bits.bits
                    ),
                ));
            };
            masked = m;
            &masked[..]
        } else if let Some(m) = kind.map_match().filter(|m| m.has_priority()) {
            let layout = kind.entry_key_layout().unwrap_or_default();
            check_fields(name, "entry", &layout, key)?;
            masked = priority::entry_name(m, key).ok_or_else(|| {
                Self::shape_err(
                    name,
                    "an entry needs a priority 1..=2^31-1 (and a range lo <= hi)",
                )
            })?;
            &masked[..]
        } else {
            check_fields(name, "key", kl, key)?;
            key
        };
        check_fields(name, "value", vl, value)?;
        let clock = self.clock_ns;
        match self.slots.get_mut(id.index()) {
            Some(Slot::Map(m)) => {
                m.insert(
                    Words::new(key),
                    MapEntry {
                        value: Words::new(value),
                        last_used: clock,
                    },
                );
                Ok(())
            }
            _ => Err(Self::shape_err(name, "store does not match module")),
        }
    }

    /// Host-side lookup (ignores expiry, does not refresh).
    pub fn map_get(
        &self,
        module: &Module,
        name: &str,
        key: &[u64],
    ) -> Result<Option<Vec<u64>>, StoreError> {
        let (id, _) = self.lookup(module, name)?;
        match self.slots.get(id.index()) {
            Some(Slot::Map(m)) => Ok(m.get(key).map(|e| e.value.to_vec())),
            _ => Err(Self::shape_err(name, "not a map")),
        }
    }

    /// Host-side lookup of a live entry: like [`StateStore::map_get`], but an expiring-map
    /// entry idle for longer than its timeout at [`StateStore::clock_ns`] reads as absent.
    /// On an LPM map a one-word key is an address: its longest matching prefix's value.
    /// Does not refresh.
    pub fn map_get_live(
        &self,
        module: &Module,
        name: &str,
        key: &[u64],
    ) -> Result<Option<Vec<u64>>, StoreError> {
        let (id, kind) = self.lookup(module, name)?;
        let timeout = match kind {
            StateKind::ExpiringMap {
                idle_timeout_ns, ..
            } => Some(*idle_timeout_ns),
            _ => None,
        };
        if let Some(bits) = LpmShape::of(kind).filter(|_| key.len() == kl_len(kind)) {
            return match self.slots.get(id.index()) {
                Some(Slot::Map(m)) => Ok(lpm_get(m, bits, key).map(|e| e.value.to_vec())),
                _ => Err(Self::shape_err(name, "not a map")),
            };
        }
        if let (Some(m), Some((kl, _))) = (
            kind.map_match().filter(|m| m.has_priority()),
            kind.map_layouts(),
        ) {
            if key.len() == kl.fields.len() {
                return match self.slots.get(id.index()) {
                    Some(Slot::Map(map)) => {
                        Ok(priority::best(map, m, key).map(|e| e.value.to_vec()))
                    }
                    _ => Err(Self::shape_err(name, "not a map")),
                };
            }
        }
        match self.slots.get(id.index()) {
            Some(Slot::Map(m)) => Ok(m
                .get(key)
                .filter(|e| live(e, self.clock_ns, timeout))
                .map(|e| e.value.to_vec())),
            _ => Err(Self::shape_err(name, "not a map")),
        }
    }

    /// Number of entries in map `id` (expired but unreclaimed entries included); `None`
    /// when `id` is not a map.
    pub fn map_len_at(&self, id: StateId) -> Option<usize> {
        match self.slots.get(id.index()) {
            Some(Slot::Map(m)) => Some(m.len()),
            _ => None,
        }
    }

    /// Number of entries in a map (expired but unreclaimed entries included).
    pub fn map_len(&self, module: &Module, name: &str) -> Result<usize, StoreError> {
        let (id, _) = self.lookup(module, name)?;
        match self.slots.get(id.index()) {
            Some(Slot::Map(m)) => Ok(m.len()),
            _ => Err(Self::shape_err(name, "not a map")),
        }
    }

    /// Host-side element write.
    pub fn vec_set(
        &mut self,
        module: &Module,
        name: &str,
        index: u64,
        elem: &[u64],
    ) -> Result<(), StoreError> {
        let (id, kind) = self.lookup(module, name)?;
        let StateKind::Vector { elem: layout, .. } = kind else {
            return Err(Self::shape_err(name, "not a vector"));
        };
        check_fields(name, "element", layout, elem)?;
        match self.slots.get_mut(id.index()) {
            Some(Slot::Vector(v)) => {
                if v.set(index, elem.to_vec()) {
                    Ok(())
                } else {
                    Err(Self::shape_err(name, "index out of range"))
                }
            }
            _ => Err(Self::shape_err(name, "store does not match module")),
        }
    }

    /// Host-side element read.
    pub fn vec_get(&self, module: &Module, name: &str, index: u64) -> Result<Vec<u64>, StoreError> {
        let (id, _) = self.lookup(module, name)?;
        match self.slots.get(id.index()) {
            Some(Slot::Vector(v)) => v
                .get(index)
                .ok_or_else(|| Self::shape_err(name, "index out of range")),
            _ => Err(Self::shape_err(name, "not a vector")),
        }
    }

    /// Host-side scalar write.
    pub fn scalar_set(
        &mut self,
        module: &Module,
        name: &str,
        value: u64,
    ) -> Result<(), StoreError> {
        let (id, kind) = self.lookup(module, name)?;
        let StateKind::Scalar { ty } = kind else {
            return Err(Self::shape_err(name, "not a scalar"));
        };
        if ty.wrap(value) != value {
            return Err(Self::shape_err(name, "value does not fit"));
        }
        match self.slots.get_mut(id.index()) {
            Some(Slot::Scalar(s)) => {
                *s = value;
                Ok(())
            }
            _ => Err(Self::shape_err(name, "store does not match module")),
        }
    }

    /// Host-side scalar read.
    pub fn scalar_get(&self, module: &Module, name: &str) -> Result<u64, StoreError> {
        let (id, _) = self.lookup(module, name)?;
        match self.slots.get(id.index()) {
            Some(Slot::Scalar(s)) => Ok(*s),
            _ => Err(Self::shape_err(name, "not a scalar")),
        }
    }

    fn map_slot(&mut self, id: StateId) -> Option<&mut FxHashMap<Words, MapEntry>> {
        match self.slots.get_mut(id.index()) {
            Some(Slot::Map(m)) => Some(m),
            _ => None,
        }
    }

    /// `map.find` exactly as the interpreter executes it, on map `id` at time `now`: a live
    /// entry is refreshed (expiring maps) and its value fields copied into `out` (as many as
    /// `out` holds); an expired entry is removed. Whether the key was found live; `None`
    /// when `id` is not a map of this store. Keys and values are taken as given (the
    /// interpreter passes them wrapped to their operand types).
    pub fn map_find_at(
        &mut self,
        id: StateId,
        rules: MapRules,
        key: &[u64],
        now: u64,
        out: &mut [u64],
    ) -> Option<bool> {
        self.map_find_used_elsewhere(id, rules, key, now, out, || None)
    }

    /// [`StateStore::map_find_at`] for a key that may also have been used elsewhere (a
    /// switch's copy of the map, hit without this store knowing): when the entry looks
    /// expired by its own last use, `elsewhere()` gives the key's last use there, and the
    /// entry is live when that one is recent enough. Called only then — a live entry's
    /// last use becomes `now` anyway, later than any other — so a look-up pays for the
    /// other copy's time only for the rare entry that looks expired.
    pub fn map_find_used_elsewhere(
        &mut self,
        id: StateId,
        rules: MapRules,
        key: &[u64],
        now: u64,
        out: &mut [u64],
        elsewhere: impl FnOnce() -> Option<u64>,
    ) -> Option<bool> {
        let map = self.map_slot(id)?;
        if rules.matching.has_priority() {
            return Some(match priority::best(map, rules.matching, key) {
                Some(e) => {
                    for (o, v) in out.iter_mut().zip(e.value.iter()) {
                        *o = *v;
                    }
                    true
                }
                None => false,
            });
        }
        if let Some(bits) = rules.lpm_bits {
            return Some(match lpm_get(map, bits, key) {
                Some(e) => {
                    for (o, v) in out.iter_mut().zip(e.value.iter()) {
                        *o = *v;
                    }
                    true
                }
                None => false,
            });
        }
        match map.get_mut(key) {
            None => return Some(false),
            Some(e) => {
                if !live(e, now, rules.idle_timeout_ns) {
                    if let Some(t) = elsewhere() {
                        e.last_used = e.last_used.max(t);
                    }
                }
                if live(e, now, rules.idle_timeout_ns) {
                    e.last_used = now;
                    for (o, v) in out.iter_mut().zip(e.value.iter()) {
                        *o = *v;
                    }
                    return Some(true);
                }
            }
        }
        map.remove(key);
        Some(false)
    }

    /// `map.insert` exactly as the interpreter executes it: an existing key is overwritten
    /// (and refreshed); a new key is added only while the map holds fewer than `capacity`
    /// entries (a full expiring map first drops its expired entries). Whether the key is in
    /// the map afterwards (the instruction's result); `None` when `id` is not a map.
    pub fn map_insert_at(
        &mut self,
        id: StateId,
        rules: MapRules,
        key: &[u64],
        value: &[u64],
        now: u64,
    ) -> Option<bool> {
        if rules.matching.has_priority() {
            let map = self.map_slot(id)?;
            return Some(priority::insert(
                map,
                rules.matching,
                rules.capacity,
                key,
                value,
                now,
            ));
        }
        let masked;
        let key = match rules.lpm_bits {
            Some(bits) => {
                let Some(m) = lpm_entry(bits, key) else {
                    // Out of range: nothing inserted (the native API refuses it too).
                    return self.map_slot(id).map(|_| false);
                };
                masked = m;
                &masked[..]
            }
            None => key,
        };
        let map = self.map_slot(id)?;
        if (map.len() as u64) < rules.capacity {
            // Room for a new key: one hash lookup either way.
            match map.entry(Words::new(key)) {
                std::collections::hash_map::Entry::Occupied(mut o) => {
                    let e = o.get_mut();
                    e.value.set(value);
                    e.last_used = now;
                }
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(MapEntry {
                        value: Words::new(value),
                        last_used: now,
                    });
                }
            }
            return Some(true);
        }
        if let Some(e) = map.get_mut(key) {
            e.value.set(value);
            e.last_used = now;
            return Some(true);
        }
        if map.len() as u64 >= rules.capacity && rules.idle_timeout_ns.is_some() {
            map.retain(|_, e| live(e, now, rules.idle_timeout_ns));
        }
        if (map.len() as u64) < rules.capacity {
            map.insert(
                Words::new(key),
                MapEntry {
                    value: Words::new(value),
                    last_used: now,
                },
            );
            Some(true)
        } else {
            Some(false)
        }
    }

    /// Removes `key`'s entry from an exact map and returns its value and last-use time, to
    /// move it into another store ([`StateStore::map_put_entry`]: a cluster's flow
    /// migration). `None` when the key is absent or `id` is not a map.
    pub fn map_take_entry(&mut self, id: StateId, key: &[u64]) -> Option<(Vec<u64>, u64)> {
        let e = self.map_slot(id)?.remove(key)?;
        Some((e.value.as_slice().to_vec(), e.last_used))
    }

    /// Puts an entry [`StateStore::map_take_entry`] took into an exact map holding fewer
    /// than `capacity` entries (or holding the key): value and last-use time kept. Whether
    /// it is in the map afterwards; `None` when `id` is not a map.
    pub fn map_put_entry(
        &mut self,
        id: StateId,
        key: &[u64],
        value: &[u64],
        last_used: u64,
        capacity: u64,
    ) -> Option<bool> {
        let map = self.map_slot(id)?;
        if (map.len() as u64) >= capacity && !map.contains_key(key) {
            return Some(false);
        }
        map.insert(
            Words::new(key),
            MapEntry {
                value: Words::new(value),
                last_used,
            },
        );
        Some(true)
    }

    /// Moves `key`'s last-use time forward to `at` (an entry used elsewhere: a switch's
    /// copy of the map was hit); nothing when the key is absent. `None` when `id` is not a map.
    pub fn map_refresh(&mut self, id: StateId, key: &[u64], at: u64) -> Option<()> {
        if let Some(e) = self.map_slot(id)?.get_mut(key) {
            e.last_used = e.last_used.max(at);
        }
        Some(())
    }

    /// `key`'s last-use time, live or not; `None` when absent or `id` is not a map.
    pub fn map_last_used(&mut self, id: StateId, key: &[u64]) -> Option<u64> {
        self.map_slot(id)?.get(key).map(|e| e.last_used)
    }

    /// `key`'s last-use time (live or not) in map `id`, without changing anything.
    pub fn map_last_used_ref(&self, id: StateId, key: &[u64]) -> Option<u64> {
        match self.slots.get(id.index()) {
            Some(Slot::Map(m)) => m.get(key).map(|e| e.last_used),
            _ => None,
        }
    }

    /// Every entry's key and last-use time (live or not) of an exact map.
    pub fn map_ages(&mut self, id: StateId) -> Vec<(Vec<u64>, u64)> {
        match self.map_slot(id) {
            Some(m) => m.iter().map(|(k, e)| (k.to_vec(), e.last_used)).collect(),
            None => Vec::new(),
        }
    }

    /// `map.erase` on an exact-match map; `None` when `id` is not a map.
    pub fn map_erase_at(&mut self, id: StateId, key: &[u64]) -> Option<()> {
        self.map_slot(id)?.remove(key);
        Some(())
    }

    /// `map.erase` exactly as the interpreter executes it, with the map's rules; `None` when
    /// `id` is not a map. On an LPM map, `key` is `[prefix, len]`: the prefix is masked to
    /// its length, and a length above the key's width erases nothing; on a ternary or range
    /// map it is the entry's name (key masked first).
    pub fn map_erase_rules(&mut self, id: StateId, rules: MapRules, key: &[u64]) -> Option<()> {
        let map = self.map_slot(id)?;
        if rules.matching.has_priority() {
            priority::erase(map, rules.matching, key);
            return Some(());
        }
        match rules.lpm_bits {
            Some(bits) => {
                if let Some(m) = lpm_entry(bits, key) {
                    map.remove(&m[..]);
                }
            }
            None => {
                map.remove(key);
            }
        }
        Some(())
    }

    /// Host-side lookup of a live entry by state index (see [`StateStore::map_get_live`]);
    /// `None` also when `id` is not a map. Does not refresh. On a ternary or range map, `key`
    /// is either a looked-up key (the highest-priority match) or an entry's name
    /// ([`super::entry_name`]: that entry).
    pub fn map_get_live_at(&self, id: StateId, rules: MapRules, key: &[u64]) -> Option<&[u64]> {
        if let (true, Some(Slot::Map(m))) =
            (rules.matching.has_priority(), self.slots.get(id.index()))
        {
            // A lookup key (one word per key field), or an entry's name (longer: key, mask or
            // range, and priority).
            return if key.len() == rules.key_fields {
                priority::best(m, rules.matching, key).map(|e| e.value.as_slice())
            } else {
                m.get(key).map(|e| e.value.as_slice())
            };
        }
        match (self.slots.get(id.index()), rules.lpm_bits) {
            (Some(Slot::Map(m)), Some(bits)) if key.len() == rules.key_fields => {
                lpm_get(m, bits, key).map(|e| e.value.as_slice())
            }
            (Some(Slot::Map(m)), _) => m
                .get(key)
                .filter(|e| live(e, self.clock_ns, rules.idle_timeout_ns))
                .map(|e| e.value.as_slice()),
            _ => None,
        }
    }

    /// Makes room in every map for up to `max` entries (or its capacity, if smaller) ahead
    /// of time, so that inserts do not grow the table while packets are being processed.
    pub fn reserve_maps(&mut self, module: &Module, max: u64) {
        for (id, obj) in module.states.iter() {
            let (Some(rules), Some(Slot::Map(m))) =
                (MapRules::of(&obj.kind), self.slots.get_mut(id.index()))
            else {
                continue;
            };
            let want = rules.capacity.min(max) as usize;
            m.reserve(want.saturating_sub(m.len()));
        }
    }

    /// A scalar by state index; `None` when `id` is not a scalar.
    pub fn scalar_at(&self, id: StateId) -> Option<u64> {
        match self.slots.get(id.index()) {
            Some(Slot::Scalar(s)) => Some(*s),
            _ => None,
        }
    }

    /// Writes a scalar by state index (the caller wraps the value to the scalar's type);
    /// `None` when `id` is not a scalar.
    pub fn set_scalar_at(&mut self, id: StateId, value: u64) -> Option<()> {
        match self.slots.get_mut(id.index()) {
            Some(Slot::Scalar(s)) => {
                *s = value;
                Some(())
            }
            _ => None,
        }
    }

    /// Copies element `index` of vector `id` into `out` (zeros for an element never
    /// written). `Some(false)` when the index is out of range, `None` when `id` is not a
    /// vector.
    pub fn vec_get_at(&self, id: StateId, index: u64, out: &mut [u64]) -> Option<bool> {
        let Some(Slot::Vector(v)) = self.slots.get(id.index()) else {
            return None;
        };
        if index >= v.len {
            return Some(false);
        }
        match v.elems.get(&index) {
            Some(e) => {
                for (o, x) in out.iter_mut().zip(e) {
                    *o = *x;
                }
            }
            None => out.iter_mut().for_each(|o| *o = 0),
        }
        Some(true)
    }

    /// Writes element `index` of vector `id` (the caller checks the fields against the
    /// layout). `Some(false)` when the index is out of range, `None` when `id` is not a
    /// vector.
    pub fn vec_set_at(&mut self, id: StateId, index: u64, elem: &[u64]) -> Option<bool> {
        let Some(Slot::Vector(v)) = self.slots.get_mut(id.index()) else {
            return None;
        };
        if index >= v.len {
            return Some(false);
        }
        match v.elems.get_mut(&index) {
            Some(e) => {
                e.clear();
                e.extend_from_slice(elem);
            }
            None => {
                v.elems.insert(index, elem.to_vec());
            }
        }
        Some(true)
    }
}
