//! The server's primary copy of the NF state and the `tandem_state_ops` the generated
//! `server.cc` calls (ABI of `include/tandem/server.h`).
//!
//! The primary copy is an IR [`StateStore`]; map operations are the store's own `map.*`
//! operations ([`StateStore::map_find_at`] and friends, which the interpreter runs too), with
//! operands and results wrapped to the types of the module's own `map.*` instruction of that
//! map — so capacity, expiry and refresh follow the NF IR's semantics exactly (the same
//! semantics the native build has, as the lifter's differential test checks;
//! `tests/primary.rs` checks the callbacks against the interpreter). The callbacks work by
//! state index and do not allocate for keys and values of up to 16 fields. Every map key a
//! server packet inserts or erases, and every scalar or vector cell it writes, is remembered
//! ([`Touched`]), so the runtime can send the switch exactly what changed
//! ([`Primary::touched`]).
//!
//! The callbacks never unwind into C++: an error is recorded ([`Primary::take_error`]) and
//! the callback returns a neutral value; the runtime then fails the packet.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::Arc;

use tandem_ir::interp::{MapRules, OpaqueHandler, StateStore};
use tandem_ir::payload::opaque_names;
use tandem_ir::{InstKind, Module, StateId, StateKind, Type, Value};

/// `tandem_state_ops` (include/tandem/server.h).
#[repr(C)]
pub(crate) struct Ops {
    pub ctx: *mut c_void,
    pub map_find: extern "C" fn(*mut c_void, u32, *const u64, *mut u64) -> c_int,
    pub map_insert: extern "C" fn(*mut c_void, u32, *const u64, *const u64) -> c_int,
    pub map_erase: extern "C" fn(*mut c_void, u32, *const u64),
    pub vec_get: extern "C" fn(*mut c_void, u32, u64, *mut u64),
    pub vec_set: extern "C" fn(*mut c_void, u32, u64, *const u64),
    pub scalar_load: extern "C" fn(*mut c_void, u32) -> u64,
    pub scalar_store: extern "C" fn(*mut c_void, u32, u64),
    #[allow(clippy::type_complexity)]
    pub opaque:
        extern "C" fn(*mut c_void, *const c_char, *const u64, u32, *mut u64, u32, *mut u8, u32),
    pub meter_execute: extern "C" fn(*mut c_void, u32, u64, u64, u64) -> u8,
}

/// The longest key or value (in fields) the callbacks handle without allocating.
const INLINE_FIELDS: usize = 16;

/// Operand types of one of the module's map instructions (what the interpreter wraps the
/// operands and results to).
#[derive(Clone, Debug, Default)]
struct OpTypes {
    /// Key operands (as masks: [`Type::mask`]).
    key: Vec<u64>,
    /// Value operands (insert) or value results (find), as masks.
    value: Vec<u64>,
}

/// What the callbacks need of one state object, by index.
#[derive(Clone, Debug)]
enum StateInfo {
    Map {
        rules: MapRules,
        key_len: usize,
        /// Words naming an entry (`map_insert`/`map_erase` keys): the key; an LPM map's
        /// prefix and length; a ternary map's key, mask and priority; a range map's low,
        /// high and priority.
        entry_len: usize,
        value_len: usize,
        /// The module's first `map.find`/`map.insert`/`map.erase` of this map.
        find: Option<OpTypes>,
        insert: Option<OpTypes>,
        erase: Option<OpTypes>,
    },
    Vector {
        fields: Vec<Type>,
    },
    Scalar {
        ty: Type,
    },
    Meter,
}

/// What a server packet changed since the last [`Primary::clear_touched`]: map keys inserted
/// or erased, and scalars/vector cells written. No allocation once warmed up.
#[derive(Clone, Debug, Default)]
pub struct Touched {
    /// (state, start, len) into `keys`.
    entries: Vec<(u32, u32, u32)>,
    keys: Vec<u64>,
    /// Scalars and vector cells written: (state, cell) — `None` for a scalar, or for "any
    /// cell" of a vector.
    others: Vec<(u32, Option<u64>)>,
    /// `entries` and `others` are sorted and free of duplicates.
    sorted: bool,
}

impl Touched {
    /// Forgets everything (keeps the buffers).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.keys.clear();
        self.others.clear();
        self.sorted = true;
    }

    /// Records a map key inserted or erased.
    pub fn key(&mut self, state: u32, key: &[u64]) {
        let start = self.keys.len() as u32;
        self.keys.extend_from_slice(key);
        self.entries.push((state, start, key.len() as u32));
        self.sorted = false;
    }

    /// Records a scalar (`cell` `None`) or a vector cell written; a vector with `None`: any
    /// of its cells.
    pub fn other(&mut self, state: u32, cell: Option<u64>) {
        if self.others.last() != Some(&(state, cell)) {
            self.others.push((state, cell));
            self.sorted = false;
        }
    }

    /// The changes a fallback walk reports ([`crate::fallback::Walk`]): map keys per state,
    /// and scalars/vectors written (any cell).
    pub fn from_sets(maps: &BTreeMap<u32, BTreeSet<Vec<u64>>>, others: &BTreeSet<u32>) -> Touched {
        let mut t = Touched::default();
        for (&s, keys) in maps {
            for k in keys {
                t.key(s, k);
            }
        }
        for &s in others {
            t.other(s, None);
        }
        t.sort();
        t
    }

    /// Sorts by state and key and removes duplicates (so changes are published in a fixed
    /// order whatever order the server partition made them in).
    pub fn sort(&mut self) {
        if self.sorted {
            return;
        }
        if self.entries.len() > 1 {
            let keys = &self.keys;
            let k = |&(s, a, n): &(u32, u32, u32)| (s, &keys[a as usize..(a + n) as usize]);
            // Usually already in order without duplicates (a few keys, one per state).
            if !self.entries.windows(2).all(|w| k(&w[0]) < k(&w[1])) {
                self.entries.sort_unstable_by(|a, b| k(a).cmp(&k(b)));
                self.entries.dedup_by(|a, b| k(a) == k(b));
            }
        }
        if self.others.len() > 1 {
            self.others.sort_unstable();
            self.others.dedup();
        }
        self.sorted = true;
    }

    /// Whether nothing was touched.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.others.is_empty()
    }

    /// Map keys, in the order recorded (sorted by state and key after [`Touched::sort`]).
    pub fn keys(&self) -> impl Iterator<Item = (u32, &[u64])> + '_ {
        self.entries
            .iter()
            .map(|&(s, a, n)| (s, &self.keys[a as usize..(a + n) as usize]))
    }

    /// The `i`-th map key of [`Touched::keys`].
    pub fn key_at(&self, i: usize) -> (u32, &[u64]) {
        let (s, a, n) = self.entries[i];
        (s, &self.keys[a as usize..(a + n) as usize])
    }

    /// Scalars and vector cells written.
    pub fn others(&self) -> &[(u32, Option<u64>)] {
        &self.others
    }
}

/// Map keys with their state index, packed in reusable buffers (the keys of ageing maps a
/// server packet used).
#[derive(Clone, Debug, Default)]
struct UsedKeys {
    words: Vec<u64>,
    /// (state, end of the key in `words`).
    ents: Vec<(u32, u32)>,
}

impl UsedKeys {
    fn push(&mut self, state: u32, key: &[u64]) {
        self.words.extend_from_slice(key);
        self.ents.push((state, self.words.len() as u32));
    }

    fn clear(&mut self) {
        self.words.clear();
        self.ents.clear();
    }

    fn iter(&self) -> impl Iterator<Item = (u32, &[u64])> + '_ {
        let mut start = 0usize;
        self.ents.iter().map(move |&(s, end)| {
            let k = &self.words[start..end as usize];
            start = end as usize;
            (s, k)
        })
    }
}

/// The primary copy of every state object, as the server partition sees it.
pub struct Primary {
    module: Arc<Module>,
    /// The state.
    pub store: StateStore,
    now: u64,
    /// Per state index.
    info: Vec<StateInfo>,
    /// What was changed since the last [`Primary::clear_touched`].
    touched: Touched,
    error: Option<String>,
    /// Opaque operations met so far, by the address of their name (a string literal of the
    /// loaded server partition).
    opaque_seen: Vec<OpaqueOp>,
    /// A copy of the packet for opaque operations that take it by `Vec`.
    frame: Vec<u8>,
    /// Per state index: an expiring map whose switch copy ages (`crate::ageing`).
    ageing: Vec<bool>,
    /// Keys of ageing maps found or inserted since the last [`Primary::clear_used`]: their
    /// last-use time moved, and the switch's copy must learn it.
    used: UsedKeys,
    /// The switch's age groups pulled lazily ([`crate::ageing`]), each with the maps whose
    /// keys its hits refresh: a key's last hit is read when the key is looked up, the whole
    /// hit list only before an insert into a full map.
    age_groups: Vec<(crate::hashed_ageing::AgeSource, Vec<u32>)>,
    /// Per state index: its groups in `age_groups`.
    age_of: Vec<Vec<u32>>,
    /// Reused by a whole pull through an age reader.
    age_buf: tandem_switch::AgeList,
    /// Per state index: the object is lent by its owner for this packet
    /// ([`crate::owner`]); its changes are recorded in `lent_touched` (empty: none lent).
    lent: Vec<bool>,
    /// What the packet changed in lent objects (the owner publishes it).
    lent_touched: Touched,
}

/// The payload accessors the server partition calls most, done in place on the packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OpaqueKind {
    PayloadLoad,
    PayloadLen,
    /// Anything else: through [`tandem_ir::payload::PayloadOps`].
    Other,
}

/// An opaque operation met before. The name is all the call carries: one name (one string
/// literal) serves every instruction with that name, whatever its result widths, so nothing
/// width-dependent may be recorded here (see [`cb_opaque`]).
#[derive(Clone, Debug)]
struct OpaqueOp {
    ptr: usize,
    name: String,
    kind: OpaqueKind,
}

fn types(func: &tandem_ir::Function, vals: &[Value]) -> Vec<Type> {
    vals.iter()
        .map(|&v| func.value_type(v).unwrap_or(Type::I64))
        .collect()
}

fn masks(func: &tandem_ir::Function, vals: &[Value]) -> Vec<u64> {
    types(func, vals).into_iter().map(Type::mask).collect()
}

impl Primary {
    /// A primary copy holding `store`.
    pub fn new(module: Arc<Module>, store: StateStore) -> Primary {
        let mut info: Vec<StateInfo> = module
            .states
            .values()
            .map(|o| match &o.kind {
                StateKind::HashMap { key, value, .. }
                | StateKind::ExpiringMap { key, value, .. }
                | StateKind::LpmMap { key, value, .. }
                | StateKind::TernaryMap { key, value, .. }
                | StateKind::RangeMap { key, value, .. } => StateInfo::Map {
                    rules: MapRules::of(&o.kind).expect("a map"),
                    key_len: key.fields.len(),
                    entry_len: o.kind.entry_key_layout().map_or(0, |l| l.fields.len()),
                    value_len: value.fields.len(),
                    find: None,
                    insert: None,
                    erase: None,
                },
                StateKind::Vector { elem, .. } => StateInfo::Vector {
                    fields: elem.fields.iter().map(|f| f.ty).collect(),
                },
                StateKind::Scalar { ty } => StateInfo::Scalar { ty: *ty },
                StateKind::Meter { .. } => StateInfo::Meter,
            })
            .collect();
        // process() first, then on_timer: the first operation of each kind gives its types.
        let insts = module
            .functions()
            .flat_map(|(_, f)| f.insts.iter().map(move |(_, d)| (f, d)));
        for (f, d) in insts {
            let (state, which, t) = match &d.kind {
                InstKind::MapFind { state, key } => {
                    let value: Vec<Value> = d.results.iter().skip(1).copied().collect();
                    let t = OpTypes {
                        key: masks(f, key),
                        value: masks(f, &value),
                    };
                    (state, 0, t)
                }
                InstKind::MapInsert { state, key, value } => {
                    let t = OpTypes {
                        key: masks(f, key),
                        value: masks(f, value),
                    };
                    (state, 1, t)
                }
                InstKind::MapErase { state, key } => {
                    let t = OpTypes {
                        key: masks(f, key),
                        value: Vec::new(),
                    };
                    (state, 2, t)
                }
                _ => continue,
            };
            if let Some(StateInfo::Map {
                find,
                insert,
                erase,
                ..
            }) = info.get_mut(state.as_u32() as usize)
            {
                let slot = [find, insert, erase].into_iter().nth(which).expect("3");
                if slot.is_none() {
                    *slot = Some(t);
                }
            }
        }
        Primary {
            module,
            store,
            now: 0,
            info,
            touched: Touched {
                sorted: true,
                ..Touched::default()
            },
            error: None,
            opaque_seen: Vec::new(),
            frame: Vec::new(),
            ageing: Vec::new(),
            used: UsedKeys::default(),
            age_groups: Vec::new(),
            age_of: Vec::new(),
            age_buf: tandem_switch::AgeList::default(),
            lent: Vec::new(),
            lent_touched: Touched {
                sorted: true,
                ..Touched::default()
            },
        }
    }

    /// Marks the objects of `lent` (per state index) as lent by their owner: what a packet
    /// changes in them is recorded apart ([`Primary::take_lent_touched`]). An empty slice
    /// ends the loan.
    pub(crate) fn set_lent(&mut self, lent: &[bool]) {
        self.lent.clear();
        self.lent.extend_from_slice(lent);
    }

    /// What packets changed in lent objects since the last call (moved out, sorted).
    pub(crate) fn take_lent_touched(&mut self) -> Touched {
        let mut t = std::mem::take(&mut self.lent_touched);
        t.sort();
        self.lent_touched.sorted = true;
        t
    }

    /// Adds `other`'s changes to what was touched (an owner takes back a lent object's).
    pub(crate) fn absorb_touched(&mut self, other: &Touched) {
        for (s, k) in other.keys() {
            self.touched.key(s, k);
        }
        for &(s, c) in other.others() {
            self.touched.other(s, c);
        }
    }

    /// Where changes to state `s` are recorded: apart when `s` is lent.
    fn touched_for(&mut self, s: u32) -> &mut Touched {
        if self.lent.get(s as usize).copied().unwrap_or(false) {
            &mut self.lent_touched
        } else {
            &mut self.touched
        }
    }

    /// Records from now on the keys of map `state` that are found or inserted
    /// ([`Primary::take_used`]): its switch copy ages.
    pub fn set_ageing(&mut self, state: u32) {
        let i = state as usize;
        if self.ageing.len() <= i {
            self.ageing.resize(i + 1, false);
        }
        self.ageing[i] = true;
    }

    /// Pulls the hits of one switch age group lazily through `reader` from now on: they
    /// refresh the keys of the maps `states` (the runtime no longer pulls them before every
    /// packet, [`crate::ageing::Ageing::pull_for_packet`]).
    pub fn add_age_reader(&mut self, reader: crate::hashed_ageing::AgeSource, states: &[u32]) {
        let g = self.age_groups.len() as u32;
        for &s in states {
            let i = s as usize;
            if self.age_of.len() <= i {
                self.age_of.resize(i + 1, Vec::new());
            }
            self.age_of[i].push(g);
        }
        self.age_groups.push((reader, states.to_vec()));
    }

    /// Forgets every age reader ([`Primary::add_age_reader`]).
    pub fn clear_age_readers(&mut self) {
        self.age_groups.clear();
        self.age_of.clear();
    }

    /// Before a look-up of `key` in map `s` pulled lazily: its last hit on the switch.
    #[inline]
    fn pull_key(&mut self, s: u32, key: &[u64]) {
        let Some(groups) = self.age_of.get(s as usize) else {
            return;
        };
        for &g in groups {
            if let Some(t) = self.age_groups[g as usize].0.last(key, self.now) {
                let _ = self.store.map_refresh(StateId::from_u32(s), key, t);
            }
        }
    }

    /// Before an insert into map `s` pulled lazily: when the map is full (the insert reads
    /// every entry's last use to drop the expired ones), every hit since the last pull.
    fn pull_if_full(&mut self, s: u32, capacity: u64) {
        let Some(groups) = self.age_of.get(s as usize) else {
            return;
        };
        if groups.is_empty()
            || (self.store.map_len_at(StateId::from_u32(s)).unwrap_or(0) as u64) < capacity
        {
            return;
        }
        for &g in groups {
            let (r, states) = &self.age_groups[g as usize];
            r.drain_into(&mut self.age_buf, self.now);
            for (k, t) in self.age_buf.iter() {
                for &m in states {
                    let _ = self.store.map_refresh(StateId::from_u32(m), k, t);
                }
            }
        }
    }

    fn ages(&self, state: u32) -> bool {
        self.ageing.get(state as usize).copied().unwrap_or(false)
    }

    /// Records that a key of an ageing map was used (found or inserted), given keys and
    /// states walked elsewhere (a whole-NF run on the store).
    pub fn note_used(&mut self, state: u32, key: &[u64]) {
        if self.ages(state) {
            self.used.push(state, key);
        }
    }

    /// The keys of ageing maps used since the last [`Primary::clear_used`].
    pub fn take_used(&mut self) -> Vec<(u32, Vec<u64>)> {
        let v = self.used.iter().map(|(s, k)| (s, k.to_vec())).collect();
        self.used.clear();
        v
    }

    /// Whether no key of an ageing map was used since the last [`Primary::clear_used`].
    pub fn no_used(&self) -> bool {
        self.used.ents.is_empty()
    }

    /// The keys of map `state` used since the last [`Primary::clear_used`], each with its
    /// last-use time now, into `out` (cleared first; a key used twice appears twice).
    pub fn used_ages(&mut self, state: u32, out: &mut tandem_switch::AgeList) {
        out.clear();
        for (s, k) in self.used.iter() {
            if s != state {
                continue;
            }
            if let Some(t) = self.store.map_last_used(StateId::from_u32(s), k) {
                out.push(k, t);
            }
        }
    }

    /// Forgets the used keys (keeps the buffers).
    pub fn clear_used(&mut self) {
        self.used.clear();
    }

    /// Moves `key`'s last-use time forward to `at` (the switch's copy was hit then).
    pub fn refresh(&mut self, state: u32, key: &[u64], at: u64) {
        let _ = self.store.map_refresh(StateId::from_u32(state), key, at);
    }

    /// `key`'s last-use time (live or not) in the primary copy as it stands (no pull).
    pub fn last_used_ref(&self, state: u32, key: &[u64]) -> Option<u64> {
        self.store.map_last_used_ref(StateId::from_u32(state), key)
    }

    /// `key`'s last-use time (live or not).
    pub fn last_used(&mut self, state: u32, key: &[u64]) -> Option<u64> {
        self.pull_key(state, key);
        self.store.map_last_used(StateId::from_u32(state), key)
    }

    /// The module.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The latest time the primary copy has seen (the packet's, or its clock's).
    pub fn now(&self) -> u64 {
        self.now.max(self.store.clock_ns)
    }

    /// Sets the time the next operations happen at (the packet's arrival time).
    pub fn set_now(&mut self, now: u64) {
        self.now = now;
        self.store.clock_ns = self.store.clock_ns.max(now);
    }

    /// Map keys inserted or erased and other states written since the last
    /// [`Primary::clear_touched`] (sorted once [`Primary::sort_touched`] ran).
    pub fn touched(&self) -> &Touched {
        &self.touched
    }

    /// Sorts what was touched by state and key, without duplicates (see [`Touched::sort`]).
    pub fn sort_touched(&mut self) {
        self.touched.sort();
    }

    /// Forgets what was touched (once it has been published).
    pub fn clear_touched(&mut self) {
        self.touched.clear();
    }

    /// The first error a callback met since the last call.
    pub fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    /// The key's value if it is live in the map (present and, for an expiring map, not idle
    /// past its timeout at the current time). Does not refresh.
    pub fn map_value(&self, state: u32, key: &[u64]) -> Option<Vec<u64>> {
        self.map_value_ref(state, key).map(<[u64]>::to_vec)
    }

    /// Takes `key`'s entry out of an exact map (value, last-use time) to move it to another
    /// server's primary copy ([`crate::migrate`]); `None`: absent, or not an exact map.
    pub fn take_entry(&mut self, state: u32, key: &[u64]) -> Option<(Vec<u64>, u64)> {
        self.pull_key(state, key);
        match self.info.get(state as usize)? {
            StateInfo::Map { rules, .. }
                if rules.lpm_bits.is_none() && !rules.matching.has_priority() =>
            {
                self.store.map_take_entry(StateId::from_u32(state), key)
            }
            _ => None,
        }
    }

    /// Puts an entry [`Primary::take_entry`] took; false when the map is full or not an
    /// exact map.
    pub fn put_entry(&mut self, state: u32, key: &[u64], value: &[u64], last_used: u64) -> bool {
        match self.info.get(state as usize) {
            Some(StateInfo::Map { rules, .. })
                if rules.lpm_bits.is_none() && !rules.matching.has_priority() =>
            {
                let cap = rules.capacity;
                self.store
                    .map_put_entry(StateId::from_u32(state), key, value, last_used, cap)
                    .unwrap_or(false)
            }
            _ => false,
        }
    }

    /// [`Primary::map_value`] without copying.
    pub fn map_value_ref(&self, state: u32, key: &[u64]) -> Option<&[u64]> {
        match self.info.get(state as usize)? {
            StateInfo::Map { rules, .. } => {
                self.store
                    .map_get_live_at(StateId::from_u32(state), *rules, key)
            }
            _ => None,
        }
    }

    fn fail(&mut self, msg: String) {
        if self.error.is_none() {
            self.error = Some(msg);
        }
    }

    /// `map.find` on the primary copy, as the module's own `map.find` of this map runs on
    /// the interpreter (operands and results wrapped to their types, expiring entries
    /// refreshed or reclaimed); a map the NF never looks up in `process()` is read host-side
    /// (live entries, no refresh). The value goes to `out`; whether the key was found.
    pub fn find_into(&mut self, s: u32, key: &[u64], out: &mut [u64]) -> bool {
        let Some(StateInfo::Map { rules, find, .. }) = self.info.get(s as usize) else {
            self.fail(format!("map_find: state {s} is not a map"));
            return false;
        };
        let Some(t) = find else {
            // The NF never looks this map up in process(): a host-side read.
            self.pull_key(s, key);
            return match self.map_value_ref(s, key) {
                Some(v) => {
                    for (o, x) in out.iter_mut().zip(v) {
                        *o = *x;
                    }
                    true
                }
                None => false,
            };
        };
        let rules = *rules;
        let mut k = [0u64; INLINE_FIELDS];
        let mut heap = Vec::new();
        let key = wrap_into(&t.key, key, &mut k, &mut heap);
        // A key that looks expired here may have been kept alive by the switch's hits.
        let (groups, readers) = (self.age_of.get(s as usize), &self.age_groups);
        let now = self.now;
        let elsewhere = || {
            groups?
                .iter()
                .filter_map(|&g| readers[g as usize].0.last(key, now))
                .max()
        };
        let hit = match self.store.map_find_used_elsewhere(
            StateId::from_u32(s),
            rules,
            key,
            self.now,
            out,
            elsewhere,
        ) {
            Some(h) => h,
            None => {
                self.fail(format!("state {s} is not a map in the store"));
                return false;
            }
        };
        if hit && self.ages(s) {
            self.used.push(s, key);
        }
        let Some(StateInfo::Map { find: Some(t), .. }) = self.info.get(s as usize) else {
            return hit;
        };
        if hit {
            for (o, m) in out.iter_mut().zip(&t.value) {
                *o &= m;
            }
        }
        hit
    }

    /// `map.find` on the primary copy (see [`Primary::find_into`]).
    pub fn find(&mut self, s: u32, key: &[u64]) -> Option<Vec<u64>> {
        let n = match self.info.get(s as usize) {
            Some(StateInfo::Map { value_len, .. }) => *value_len,
            _ => 0,
        };
        let mut out = vec![0; n];
        self.find_into(s, key, &mut out).then_some(out)
    }

    /// `map.insert` on the primary copy, as the module's own `map.insert` of this map runs
    /// on the interpreter (capacity, expiry); false when the map is full.
    pub fn insert(&mut self, s: u32, key: &[u64], value: &[u64]) -> bool {
        let Some(StateInfo::Map {
            rules,
            insert: Some(t),
            ..
        }) = self.info.get(s as usize)
        else {
            self.fail(format!("state {s}: the NF never inserts into it"));
            return false;
        };
        let rules = *rules;
        let (mut k, mut v) = ([0u64; INLINE_FIELDS], [0u64; INLINE_FIELDS]);
        let (mut kh, mut vh) = (Vec::new(), Vec::new());
        let key = wrap_into(&t.key, key, &mut k, &mut kh);
        let value = wrap_into(&t.value, value, &mut v, &mut vh);
        self.pull_if_full(s, rules.capacity);
        let ok = match self
            .store
            .map_insert_at(StateId::from_u32(s), rules, key, value, self.now)
        {
            Some(ok) => ok,
            None => {
                self.fail(format!("state {s} is not a map in the store"));
                false
            }
        };
        self.touch_entry(s, rules, key);
        if ok && self.ages(s) {
            self.used.push(s, key);
        }
        ok
    }

    /// Records the map entry `key` names as touched: a ternary or range map's by its
    /// normalised name (the key masked; nothing when no entry can have that name).
    fn touch_entry(&mut self, s: u32, rules: MapRules, key: &[u64]) {
        if rules.matching.has_priority() {
            if let Some(name) = tandem_ir::interp::entry_name(rules.matching, key) {
                self.touched_for(s).key(s, &name);
            }
        } else {
            self.touched_for(s).key(s, key);
        }
    }

    /// `map.erase` on the primary copy.
    pub fn erase(&mut self, s: u32, key: &[u64]) {
        let Some(StateInfo::Map { erase: Some(t), .. }) = self.info.get(s as usize) else {
            self.fail(format!("state {s}: the NF never erases from it"));
            return;
        };
        let mut k = [0u64; INLINE_FIELDS];
        let mut kh = Vec::new();
        let key = wrap_into(&t.key, key, &mut k, &mut kh);
        let Some(StateInfo::Map { rules, .. }) = self.info.get(s as usize) else {
            return;
        };
        let rules = *rules;
        if self
            .store
            .map_erase_rules(StateId::from_u32(s), rules, key)
            .is_none()
        {
            self.fail(format!("state {s} is not a map in the store"));
        }
        self.touch_entry(s, rules, key);
    }

    fn key_len(&self, s: u32) -> usize {
        match self.info.get(s as usize) {
            Some(StateInfo::Map { key_len, .. }) => *key_len,
            _ => 0,
        }
    }

    /// Words of an entry key for `map_insert`/`map_erase` (`server.h`): see
    /// `StateInfo::Map::entry_len`.
    fn entry_key_len(&self, s: u32) -> usize {
        match self.info.get(s as usize) {
            Some(StateInfo::Map { entry_len, .. }) => *entry_len,
            _ => 0,
        }
    }

    fn value_len(&self, s: u32) -> usize {
        match self.info.get(s as usize) {
            Some(StateInfo::Map { value_len, .. }) => *value_len,
            Some(StateInfo::Vector { fields }) => fields.len(),
            _ => 0,
        }
    }

    fn valid_state(&self, s: u32) -> bool {
        (s as usize) < self.info.len()
    }

    fn state_name(&self, s: u32) -> &str {
        &self.module.states[StateId::from_u32(s)].name
    }

    /// Element `index` of vector `s` into `out` (host-side read, as `StateStore::vec_get`).
    fn vec_get_into(&mut self, s: u32, index: u64, out: &mut [u64]) {
        match self.store.vec_get_at(StateId::from_u32(s), index, out) {
            Some(true) => {}
            Some(false) => {
                let name = self.state_name(s).to_string();
                self.fail(format!("state `{name}`: index out of range"));
            }
            None => {
                let name = self.state_name(s).to_string();
                self.fail(format!("state `{name}`: not a vector"));
            }
        }
    }

    /// Writes element `index` of vector `s` (host-side write, as `StateStore::vec_set`:
    /// every field must fit its type).
    fn vec_set_from(&mut self, s: u32, index: u64, elem: &[u64]) {
        let name = || self.module.states[StateId::from_u32(s)].name.clone();
        let Some(StateInfo::Vector { fields }) = self.info.get(s as usize) else {
            let n = name();
            self.fail(format!("state `{n}`: not a vector"));
            return;
        };
        if fields.len() != elem.len() || fields.iter().zip(elem).any(|(t, &v)| t.wrap(v) != v) {
            // The host-side API's own message.
            let module = self.module.clone();
            let n = name();
            if let Err(e) = self.store.vec_set(&module, &n, index, elem) {
                self.fail(e.to_string());
            }
            return;
        }
        match self.store.vec_set_at(StateId::from_u32(s), index, elem) {
            Some(true) => {}
            _ => {
                let n = name();
                self.fail(format!("state `{n}`: index out of range"));
            }
        }
    }

    fn scalar_load(&mut self, s: u32) -> u64 {
        match self.store.scalar_at(StateId::from_u32(s)) {
            Some(v) => v,
            None => {
                let name = self.state_name(s).to_string();
                self.fail(format!("state `{name}`: not a scalar"));
                0
            }
        }
    }

    fn scalar_store(&mut self, s: u32, v: u64) {
        let ok = match self.info.get(s as usize) {
            Some(StateInfo::Scalar { ty }) if ty.wrap(v) == v => {
                self.store.set_scalar_at(StateId::from_u32(s), v).is_some()
            }
            _ => false,
        };
        if !ok {
            let module = self.module.clone();
            let name = self.state_name(s).to_string();
            if let Err(e) = self.store.scalar_set(&module, &name, v) {
                self.fail(e.to_string());
            }
        }
    }

    /// The callbacks, with `self` as their context. The pointer is valid while `self` is
    /// neither moved nor dropped.
    pub(crate) fn ops(&mut self) -> Ops {
        Ops {
            ctx: self as *mut Primary as *mut c_void,
            map_find: cb_map_find,
            map_insert: cb_map_insert,
            map_erase: cb_map_erase,
            vec_get: cb_vec_get,
            vec_set: cb_vec_set,
            scalar_load: cb_scalar_load,
            scalar_store: cb_scalar_store,
            opaque: cb_opaque,
            meter_execute: cb_meter_execute,
        }
    }
}

/// `vals` wrapped to the operand types (`masks`: [`Type::mask`]; missing operands are 0, as
/// unset interpreter values), in `buf` when it fits, else in `heap`.
#[inline(always)]
fn wrap_into<'a>(
    masks: &[u64],
    vals: &[u64],
    buf: &'a mut [u64; INLINE_FIELDS],
    heap: &'a mut Vec<u64>,
) -> &'a [u64] {
    let n = masks.len();
    let out: &mut [u64] = if n <= INLINE_FIELDS {
        &mut buf[..n]
    } else {
        heap.resize(n, 0);
        heap
    };
    if vals.len() >= n {
        let (out, vals) = (&mut out[..n], &vals[..n]);
        for i in 0..n {
            out[i] = vals[i] & masks[i];
        }
    } else {
        for (i, (o, &m)) in out.iter_mut().zip(masks).enumerate() {
            *o = vals.get(i).copied().unwrap_or(0) & m;
        }
    }
    out
}

fn primary<'a>(ctx: *mut c_void) -> &'a mut Primary {
    // SAFETY: `ctx` is the `Primary` that built these ops (`Primary::ops`), alive and not
    // otherwise borrowed for the duration of the server call that invokes the callback.
    unsafe { &mut *(ctx as *mut Primary) }
}

fn slice<'a>(p: *const u64, n: usize) -> &'a [u64] {
    if n == 0 || p.is_null() {
        return &[];
    }
    // SAFETY: the generated code passes arrays of the layout's length (server.h contract).
    unsafe { std::slice::from_raw_parts(p, n) }
}

fn write_out(p: *mut u64, vals: &[u64]) {
    if p.is_null() {
        return;
    }
    for (i, v) in vals.iter().enumerate() {
        // SAFETY: the caller's array has one slot per layout field (server.h contract).
        unsafe { *p.add(i) = *v };
    }
}

extern "C" fn cb_map_find(ctx: *mut c_void, s: u32, key: *const u64, value: *mut u64) -> c_int {
    let p = primary(ctx);
    if !p.valid_state(s) {
        p.fail(format!("map_find: no state {s}"));
        return 0;
    }
    let key = slice(key, p.key_len(s));
    let n = p.value_len(s);
    with_scratch(n, |out| {
        if p.find_into(s, key, out) {
            write_out(value, out);
            1
        } else {
            0
        }
    })
}

extern "C" fn cb_map_insert(ctx: *mut c_void, s: u32, key: *const u64, value: *const u64) -> c_int {
    let p = primary(ctx);
    if !p.valid_state(s) {
        p.fail(format!("map_insert: no state {s}"));
        return 0;
    }
    let key = slice(key, p.entry_key_len(s));
    let value = slice(value, p.value_len(s));
    c_int::from(p.insert(s, key, value))
}

extern "C" fn cb_map_erase(ctx: *mut c_void, s: u32, key: *const u64) {
    let p = primary(ctx);
    if !p.valid_state(s) {
        p.fail(format!("map_erase: no state {s}"));
        return;
    }
    let key = slice(key, p.entry_key_len(s));
    p.erase(s, key);
}

extern "C" fn cb_vec_get(ctx: *mut c_void, s: u32, index: u64, elem: *mut u64) {
    let p = primary(ctx);
    if !p.valid_state(s) {
        p.fail(format!("vec_get: no state {s}"));
        return;
    }
    let n = p.value_len(s);
    with_scratch(n, |out| {
        p.vec_get_into(s, index, out);
        if p.error.is_none() {
            write_out(elem, out);
        }
    })
}

/// Runs `f` on `n` zeroed words: on the stack when they fit [`INLINE_FIELDS`].
fn with_scratch<R>(n: usize, f: impl FnOnce(&mut [u64]) -> R) -> R {
    let mut buf = [0u64; INLINE_FIELDS];
    if n <= INLINE_FIELDS {
        f(&mut buf[..n])
    } else {
        f(&mut vec![0; n])
    }
}

extern "C" fn cb_vec_set(ctx: *mut c_void, s: u32, index: u64, elem: *const u64) {
    let p = primary(ctx);
    if !p.valid_state(s) {
        p.fail(format!("vec_set: no state {s}"));
        return;
    }
    let e = slice(elem, p.value_len(s));
    p.vec_set_from(s, index, e);
    p.touched_for(s).other(s, Some(index));
}

extern "C" fn cb_scalar_load(ctx: *mut c_void, s: u32) -> u64 {
    let p = primary(ctx);
    if !p.valid_state(s) {
        p.fail(format!("scalar_load: no state {s}"));
        return 0;
    }
    p.scalar_load(s)
}

extern "C" fn cb_scalar_store(ctx: *mut c_void, s: u32, v: u64) {
    let p = primary(ctx);
    if !p.valid_state(s) {
        p.fail(format!("scalar_store: no state {s}"));
        return;
    }
    p.scalar_store(s, v);
    p.touched_for(s).other(s, None);
}

extern "C" fn cb_meter_execute(ctx: *mut c_void, s: u32, index: u64, now: u64, len: u64) -> u8 {
    let p = primary(ctx);
    match p
        .store
        .meter_execute_at(StateId::from_u32(s), index, now, len)
    {
        Some(c) => {
            p.touched_for(s).other(s, Some(index));
            c
        }
        None => {
            p.fail(format!("meter_execute: no meter {s}"));
            0
        }
    }
}

/// `tandem.payload_load` of [`tandem_ir::payload::PayloadOps`] without copying the packet: the
/// little-endian value of the `ty`-wide payload bytes at `off` (0 beyond the end).
fn payload_load(packet: &[u8], off: u64, ty: Type) -> u64 {
    let start = tandem_ir::payload::payload_offset(packet);
    let off = off as i64;
    let mut v = 0u64;
    for i in 0..i64::from(ty.bytes()) {
        let pos = start as i64 + off + i;
        let b = usize::try_from(pos)
            .ok()
            .and_then(|p| packet.get(p))
            .copied()
            .unwrap_or(0);
        v |= u64::from(b) << (8 * i);
    }
    v
}

/// `tandem.payload_len` of [`tandem_ir::payload::PayloadOps`] without copying the packet.
fn payload_len(packet: &[u8]) -> u64 {
    (packet.len() - tandem_ir::payload::payload_offset(packet)) as u64
}

#[allow(clippy::too_many_arguments)]
extern "C" fn cb_opaque(
    ctx: *mut c_void,
    name: *const c_char,
    args: *const u64,
    nargs: u32,
    results: *mut u64,
    nresults: u32,
    pkt: *mut u8,
    len: u32,
) {
    let p = primary(ctx);
    if name.is_null() || pkt.is_null() {
        p.fail("opaque: null name or packet".into());
        return;
    }
    let at = match p.opaque_seen.iter().position(|o| o.ptr == name as usize) {
        Some(i) => i,
        None => {
            // SAFETY: the generated code passes a NUL-terminated string literal.
            let n = match unsafe { CStr::from_ptr(name) }.to_str() {
                Ok(n) => n.to_string(),
                Err(_) => {
                    p.fail("opaque: name is not UTF-8".into());
                    return;
                }
            };
            let kind = match n.as_str() {
                opaque_names::PAYLOAD_LOAD => OpaqueKind::PayloadLoad,
                opaque_names::PAYLOAD_LEN => OpaqueKind::PayloadLen,
                _ => OpaqueKind::Other,
            };
            p.opaque_seen.push(OpaqueOp {
                ptr: name as usize,
                name: n,
                kind,
            });
            p.opaque_seen.len() - 1
        }
    };
    // SAFETY: `pkt` points to `len` bytes owned by the caller for the duration of the call.
    let bytes = unsafe { std::slice::from_raw_parts_mut(pkt, len as usize) };
    let args = slice(args, nargs as usize);
    let op = &p.opaque_seen[at];
    // Result widths are per instruction and the call does not carry them: results are given
    // 64 bits wide and the generated code masks each to its instruction's width. For a payload
    // load (little-endian, 0 beyond the end) the low N bits of the 8-byte load are the N-bit
    // load.
    let one = match op.kind {
        OpaqueKind::PayloadLoad => Some(payload_load(
            bytes,
            args.first().copied().unwrap_or(0),
            Type::I64,
        )),
        OpaqueKind::PayloadLen => Some(payload_len(bytes)),
        OpaqueKind::Other => None,
    };
    if let Some(v) = one {
        if nresults > 0 {
            write_out(results, &[v]);
        }
        return;
    }
    let name = op.name.clone();
    let types = vec![Type::I64; nresults as usize];
    let mut frame = std::mem::take(&mut p.frame);
    frame.clear();
    frame.extend_from_slice(bytes);
    match tandem_ir::payload::PayloadOps.call(&name, args, &types, &mut frame, &mut p.store) {
        Ok(out) => {
            let n = bytes.len().min(frame.len());
            bytes[..n].copy_from_slice(&frame[..n]);
            let out: Vec<u64> = out.into_iter().take(nresults as usize).collect();
            write_out(results, &out);
        }
        Err(e) => p.fail(format!("opaque `{name}`: {e}")),
    }
    p.frame = frame;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The in-place payload accessors against [`tandem_ir::payload::PayloadOps`] on assorted
    /// frames (TCP with options, UDP, IPv4 with options, bare Ethernet, runts).
    #[test]
    fn payload_accessors_match_payload_ops() {
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut store = StateStore::new(&Module::new("x"));
        for _ in 0..3000 {
            let len = (next() % 120) as usize;
            let mut f: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            if len > 14 && next() % 4 != 0 {
                f[12] = 0x08;
                f[13] = 0x00;
                if len > 24 {
                    f[14] = 0x40 | (5 + (next() % 3) as u8);
                    f[23] = [6u8, 17, 1][(next() % 3) as usize];
                }
            }
            let off = next() % 80;
            for ty in [Type::I8, Type::I16, Type::I32, Type::I64] {
                let mut frame = f.clone();
                let want = tandem_ir::payload::PayloadOps
                    .call(
                        opaque_names::PAYLOAD_LOAD,
                        &[off],
                        &[ty],
                        &mut frame,
                        &mut store,
                    )
                    .unwrap();
                assert_eq!(vec![payload_load(&f, off, ty)], want);
                // What the server does: an 8-byte load masked to the instruction's width.
                assert_eq!(vec![payload_load(&f, off, Type::I64) & ty.mask()], want);
            }
            let mut frame = f.clone();
            let want = tandem_ir::payload::PayloadOps
                .call(
                    opaque_names::PAYLOAD_LEN,
                    &[],
                    &[Type::I32],
                    &mut frame,
                    &mut store,
                )
                .unwrap();
            assert_eq!(vec![payload_len(&f)], want);
        }
    }
}
