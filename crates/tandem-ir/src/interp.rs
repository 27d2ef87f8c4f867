//! The interpreter: runs `process` on one packet against a [`StateStore`].
//!
//! It implements the semantic contract of the crate docs exactly; the differential test
//! compares it with the native NF on real traffic. Header presence follows the NF API's native
//! accessors (see [`HeaderOffsets::parse`]) and is decided once, when the packet arrives.

use crate::hash::FxHashMap;
use crate::meter::{MeterCell, MeterUnit};
use crate::words::Words;
use crate::{
    BinOp, CastOp, EntityRef, HeaderField, Inst, InstKind, IntCC, Layout, Meta, Module, StateId,
    StateKind, Type, Value, VerifyErrors,
};
use std::collections::BTreeMap;

/// A packet handed to the NF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// The frame, starting with the Ethernet header.
    pub bytes: Vec<u8>,
    /// The port it arrived on.
    pub in_port: u16,
    /// Arrival time in nanoseconds (`meta.read now`).
    pub timestamp_ns: u64,
}

/// What the NF decided to do with the packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Transmit on this port.
    Send(u16),
    /// Discard.
    Drop,
}

/// The result of running one packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The packet's fate (the last `send`/`drop` executed; `Drop` if none).
    pub action: Action,
    /// The packet bytes after header writes.
    pub packet: Vec<u8>,
    /// Number of instructions executed (terminators included).
    pub steps: u64,
}

/// Interpreter settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterpOptions {
    /// Maximum instructions executed per packet before [`InterpError::OutOfFuel`].
    pub fuel: u64,
}

impl Default for InterpOptions {
    fn default() -> Self {
        InterpOptions { fuel: 1_000_000 }
    }
}

/// Why a packet could not be run. The state store may have been partly updated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InterpError {
    /// A header field of an absent header was read or written.
    #[error("`{inst}`: header `{header}` is not present in this packet")]
    AbsentHeader {
        /// The header.
        header: crate::Header,
        /// The instruction's text.
        inst: String,
    },
    /// The fuel ran out (probably an endless loop).
    #[error("out of fuel after {0} instructions")]
    OutOfFuel(u64),
    /// `vec.get`/`vec.set` with an index `>= len`.
    #[error("`{inst}`: index {index} is out of range for a vector of length {len}")]
    IndexOutOfRange {
        /// The index.
        index: u64,
        /// The vector length.
        len: u64,
        /// The instruction's text.
        inst: String,
    },
    /// The opaque-call handler failed (or there is none).
    #[error("`{inst}`: {message}")]
    Opaque {
        /// The handler's message.
        message: String,
        /// The instruction's text.
        inst: String,
    },
    /// The state store does not match the module (built for another module?).
    #[error("state store does not match the module: {0}")]
    StoreMismatch(String),
    /// The module is malformed in a way the verifier should have caught.
    #[error("malformed module: {0}")]
    Malformed(String),
}

/// Runs code the lifter could not understand (`opaque` instructions).
pub trait OpaqueHandler {
    /// Executes `name(args)`, returning one value per entry of `result_types` (wrapped to the
    /// type by the interpreter). It may edit the packet bytes and the state store.
    fn call(
        &mut self,
        name: &str,
        args: &[u64],
        result_types: &[Type],
        packet: &mut Vec<u8>,
        store: &mut StateStore,
    ) -> Result<Vec<u64>, String>;
}

/// The handler used by [`Interpreter::run`]: every opaque call is an error.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOpaque;

impl OpaqueHandler for NoOpaque {
    fn call(
        &mut self,
        name: &str,
        _: &[u64],
        _: &[Type],
        _: &mut Vec<u8>,
        _: &mut StateStore,
    ) -> Result<Vec<u64>, String> {
        Err(format!("no handler for opaque call \"{name}\""))
    }
}

pub use crate::parse_graph::HeaderOffsets;

#[derive(Clone, Debug, PartialEq, Eq)]
struct MapEntry {
    value: Words,
    last_used: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Slot {
    Map(FxHashMap<Words, MapEntry>),
    Vector(VecSlot),
    Scalar(u64),
    Meter(MeterSlot),
}

/// A meter array; cells never written are all-zero (unconfigured) and not stored.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MeterSlot {
    len: u64,
    unit: MeterUnit,
    cells: BTreeMap<u64, MeterCell>,
}

/// A vector's elements; elements never written are all-zero and not stored.
#[derive(Clone, Debug, PartialEq, Eq)]
struct VecSlot {
    len: u64,
    fields: usize,
    elems: BTreeMap<u64, Vec<u64>>,
}

impl VecSlot {
    fn get(&self, i: u64) -> Option<Vec<u64>> {
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

    fn set(&mut self, i: u64, v: Vec<u64>) -> bool {
        if i >= self.len {
            return false;
        }
        self.elems.insert(i, v);
        true
    }
}

/// Vectors longer than this cannot be dumped (the dump lists every element).
const MAX_DUMP_ELEMS: u64 = 1 << 24;

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
    slots: Vec<Slot>,
    /// The latest packet time seen; expiring-map entries idle for longer than their timeout
    /// at this time are omitted from dumps.
    pub clock_ns: u64,
}

/// One state object's contents in dump form.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StateDump {
    /// State name.
    pub name: String,
    /// `hashmap`, `vector`, `scalar` or `expiring_map`.
    pub kind: String,
    /// Entries sorted by key bytes.
    pub entries: Vec<DumpEntry>,
}

/// One entry of a [`StateDump`]; bytes as lowercase hex.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct DumpEntry {
    /// Key bytes (empty for scalars; the element index for vectors).
    pub key: String,
    /// Value bytes.
    pub value: String,
}

/// How a dump encodes keys and values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpFormat {
    /// Packed: each layout field as `ceil(bits/8)` big-endian bytes, in layout order. Vector
    /// keys are the index as 4 big-endian bytes; scalars are `ceil(bits/8)` big-endian bytes.
    Canonical,
    /// The native host's raw memory image: a zeroed buffer of the layout's C++ `size` with
    /// each field stored little-endian (`ceil(bits/8)` bytes) at its C++ offset. Vector keys
    /// are the index as 4 little-endian bytes; a scalar is little-endian in the smallest of
    /// 1, 2, 4, 8 bytes that holds it. Needs offsets and a size on every non-empty map/vector
    /// layout; an empty layout (a set-like map's value) encodes as no bytes.
    Cpp,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn be_bytes(v: u64, n: usize) -> Vec<u8> {
    (0..n)
        .rev()
        .map(|i| if i < 8 { (v >> (8 * i)) as u8 } else { 0 })
        .collect()
}

fn le_bytes(v: u64, n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| if i < 8 { (v >> (8 * i)) as u8 } else { 0 })
        .collect()
}

fn encode(
    name: &str,
    layout: &Layout,
    vals: &[u64],
    format: DumpFormat,
) -> Result<Vec<u8>, StoreError> {
    match format {
        DumpFormat::Canonical => Ok(layout
            .fields
            .iter()
            .zip(vals)
            .flat_map(|(f, &v)| be_bytes(v, f.ty.bytes() as usize))
            .collect()),
        DumpFormat::Cpp => {
            let size = layout
                .size
                .ok_or_else(|| StoreError::NoCppLayout(name.to_string()))?;
            let mut buf = vec![0u8; size as usize];
            for (f, &v) in layout.fields.iter().zip(vals) {
                let off = f
                    .offset
                    .ok_or_else(|| StoreError::NoCppLayout(name.to_string()))?;
                let bytes = le_bytes(v, f.ty.bytes() as usize);
                let dst = buf
                    .get_mut(off as usize..off as usize + bytes.len())
                    .ok_or_else(|| StoreError::NoCppLayout(name.to_string()))?;
                dst.copy_from_slice(&bytes);
            }
            Ok(buf)
        }
    }
}

/// Is the entry live at `now`? Entries of expiring maps (`timeout` is `Some`) expire once
/// they have been idle for more than `timeout` ns (the native `tandem::ExpiringMap` rule).
fn live(e: &MapEntry, now: u64, timeout: Option<u64>) -> bool {
    match timeout {
        None => true,
        Some(t) => now.saturating_sub(e.last_used) <= t,
    }
}

/// The entry of the longest prefix of `addr` in an LPM map's slot (entries keyed by
/// `[prefix, length]`).
fn lpm_get(m: &FxHashMap<Words, MapEntry>, bits: u32, addr: u64) -> Option<&MapEntry> {
    (0..=bits)
        .rev()
        .find_map(|len| m.get(&[addr & prefix_mask(bits, len), u64::from(len)][..]))
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
    /// The key width of an LPM map (longest prefix wins; entries keyed by prefix and
    /// length); `None` for exact-match maps.
    pub lpm_bits: Option<u32>,
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

impl MapRules {
    /// The rules of a map state; `None` for other kinds.
    pub fn of(kind: &StateKind) -> Option<MapRules> {
        match kind {
            StateKind::HashMap { capacity, .. } => Some(MapRules {
                capacity: *capacity,
                idle_timeout_ns: None,
                lpm_bits: None,
            }),
            StateKind::LpmMap { capacity, .. } => Some(MapRules {
                capacity: *capacity,
                idle_timeout_ns: None,
                lpm_bits: kind.lpm_bits(),
            }),
            StateKind::ExpiringMap {
                capacity,
                idle_timeout_ns,
                ..
            } => Some(MapRules {
                capacity: *capacity,
                idle_timeout_ns: Some(*idle_timeout_ns),
                lpm_bits: None,
            }),
            _ => None,
        }
    }
}

impl StateStore {
    /// Empty maps, zeroed vectors and scalars for every state object of `module`.
    pub fn new(module: &Module) -> StateStore {
        let slots = module
            .states
            .values()
            .map(|s| match &s.kind {
                StateKind::HashMap { .. }
                | StateKind::ExpiringMap { .. }
                | StateKind::LpmMap { .. } => Slot::Map(FxHashMap::default()),
                StateKind::Vector { elem, len } => Slot::Vector(VecSlot {
                    len: *len,
                    fields: elem.fields.len(),
                    elems: BTreeMap::new(),
                }),
                StateKind::Scalar { .. } => Slot::Scalar(0),
                StateKind::Meter { len, unit } => Slot::Meter(MeterSlot {
                    len: *len,
                    unit: *unit,
                    cells: BTreeMap::new(),
                }),
            })
            .collect();
        StateStore { slots, clock_ns: 0 }
    }

    fn lookup<'a>(
        &self,
        module: &'a Module,
        name: &str,
    ) -> Result<(StateId, &'a StateKind), StoreError> {
        let id = module
            .state_by_name(name)
            .ok_or_else(|| StoreError::NoSuchState(name.into()))?;
        Ok((id, &module.states[id].kind))
    }

    fn shape_err(name: &str, message: &str) -> StoreError {
        StoreError::Shape {
            name: name.to_string(),
            message: message.to_string(),
        }
    }

    /// Host-side insert (e.g. entries written by `configure`); capacity is not enforced.
    /// Expiring-map entries count as used at [`StateStore::clock_ns`]. An LPM map's key is
    /// the prefix and its length (`[prefix, len]`); the prefix is masked to its length.
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
        let key = if let Some(bits) = kind.lpm_bits() {
            let (&[prefix, len], Some(f)) = (key, kl.fields.first()) else {
                return Err(Self::shape_err(name, "an lpm_map key is [prefix, length]"));
            };
            if len > u64::from(bits) || f.ty.wrap(prefix) != prefix {
                return Err(Self::shape_err(
                    name,
                    &format!("prefix {prefix:#x}/{len} does not fit a {bits}-bit key"),
                ));
            }
            masked = [prefix & prefix_mask(bits, len as u32), len];
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
        if let (Some(bits), &[addr]) = (kind.lpm_bits(), key) {
            return match self.slots.get(id.index()) {
                Some(Slot::Map(m)) => Ok(lpm_get(m, bits, addr).map(|e| e.value.to_vec())),
                _ => Err(Self::shape_err(name, "not a map")),
            };
        }
        match self.slots.get(id.index()) {
            Some(Slot::Map(m)) => Ok(m
                .get(key)
                .filter(|e| live(e, self.clock_ns, timeout))
                .map(|e| e.value.to_vec())),
            _ => Err(Self::shape_err(name, "not a map")),
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
        let map = self.map_slot(id)?;
        if let Some(bits) = rules.lpm_bits {
            let addr = key.first().copied().unwrap_or(0);
            return Some(match lpm_get(map, bits, addr) {
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
            Some(e) if live(e, now, rules.idle_timeout_ns) => {
                e.last_used = now;
                for (o, v) in out.iter_mut().zip(e.value.iter()) {
                    *o = *v;
                }
                return Some(true);
            }
            Some(_) => {}
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
        let masked;
        let key = match (rules.lpm_bits, key) {
            (Some(bits), &[prefix, len]) => {
                if len > u64::from(bits) {
                    // Out of range: nothing inserted (the native API refuses it too).
                    return self.map_slot(id).map(|_| false);
                }
                masked = [prefix & prefix_mask(bits, len as u32), len];
                &masked[..]
            }
            _ => key,
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

    /// `map.erase` exactly as the interpreter executes it; `None` when `id` is not a map.
    /// On an LPM map, `key` is `[prefix, len]`: the prefix is masked to its length, and a
    /// length above the key's width erases nothing.
    pub fn map_erase_at(&mut self, id: StateId, key: &[u64]) -> Option<()> {
        self.map_erase_rules(id, None, key)
    }

    /// [`StateStore::map_erase_at`] with the map's rules (needed for LPM maps).
    pub fn map_erase_rules(
        &mut self,
        id: StateId,
        lpm_bits: Option<u32>,
        key: &[u64],
    ) -> Option<()> {
        let map = self.map_slot(id)?;
        match (lpm_bits, key) {
            (Some(bits), &[prefix, len]) => {
                if len <= u64::from(bits) {
                    map.remove(&[prefix & prefix_mask(bits, len as u32), len][..]);
                }
            }
            _ => {
                map.remove(key);
            }
        }
        Some(())
    }

    /// Host-side lookup of a live entry by state index (see [`StateStore::map_get_live`]);
    /// `None` also when `id` is not a map. Does not refresh.
    pub fn map_get_live_at(&self, id: StateId, rules: MapRules, key: &[u64]) -> Option<&[u64]> {
        match (self.slots.get(id.index()), rules.lpm_bits, key) {
            (Some(Slot::Map(m)), Some(bits), &[addr]) => {
                lpm_get(m, bits, addr).map(|e| e.value.as_slice())
            }
            (Some(Slot::Map(m)), _, _) => m
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

    /// Host-side meter write: meter `index` of meter array `name` becomes `cell`.
    pub fn meter_set(
        &mut self,
        module: &Module,
        name: &str,
        index: u64,
        cell: MeterCell,
    ) -> Result<(), StoreError> {
        let (id, _) = self.lookup(module, name)?;
        match self.meter_set_at(id, index, cell) {
            Some(true) => Ok(()),
            Some(false) => Err(Self::shape_err(name, "index out of range")),
            None => Err(Self::shape_err(name, "not a meter")),
        }
    }

    /// Host-side meter read (an all-zero cell for a meter never configured).
    pub fn meter_get(
        &self,
        module: &Module,
        name: &str,
        index: u64,
    ) -> Result<MeterCell, StoreError> {
        let (id, _) = self.lookup(module, name)?;
        match self.meter_at(id, index) {
            Some(Some(c)) => Ok(c),
            Some(None) => Err(Self::shape_err(name, "index out of range")),
            None => Err(Self::shape_err(name, "not a meter")),
        }
    }

    /// Meter `index` of meter array `id`: `Some(None)` when the index is out of range,
    /// `None` when `id` is not a meter array.
    pub fn meter_at(&self, id: StateId, index: u64) -> Option<Option<MeterCell>> {
        let Some(Slot::Meter(m)) = self.slots.get(id.index()) else {
            return None;
        };
        Some((index < m.len).then(|| m.cells.get(&index).copied().unwrap_or_default()))
    }

    /// Writes meter `index` of meter array `id`. `Some(false)` when the index is out of
    /// range, `None` when `id` is not a meter array.
    pub fn meter_set_at(&mut self, id: StateId, index: u64, cell: MeterCell) -> Option<bool> {
        let Some(Slot::Meter(m)) = self.slots.get_mut(id.index()) else {
            return None;
        };
        if index >= m.len {
            return Some(false);
        }
        if cell.is_zero() {
            m.cells.remove(&index);
        } else {
            m.cells.insert(index, cell);
        }
        Some(true)
    }

    /// The meters of array `id` that are not all-zero, by index (`None` when `id` is not a
    /// meter array).
    pub fn meter_cells_at(&self, id: StateId) -> Option<Vec<(u64, MeterCell)>> {
        match self.slots.get(id.index()) {
            Some(Slot::Meter(m)) => Some(m.cells.iter().map(|(i, c)| (*i, *c)).collect()),
            _ => None,
        }
    }

    /// `meter.execute` exactly as the interpreter executes it: meter `index` of array `id`
    /// for a packet of `frame_len` bytes at `now` ns; the colour (0 for an index out of
    /// range, which changes nothing). `None` when `id` is not a meter array.
    pub fn meter_execute_at(
        &mut self,
        id: StateId,
        index: u64,
        now: u64,
        frame_len: u64,
    ) -> Option<u8> {
        let Some(Slot::Meter(m)) = self.slots.get_mut(id.index()) else {
            return None;
        };
        if index >= m.len {
            return Some(crate::meter::GREEN);
        }
        let amount = m.unit.amount(frame_len);
        let Some(cell) = m.cells.get_mut(&index) else {
            // Unconfigured: green, and it stays all-zero.
            return Some(crate::meter::GREEN);
        };
        Some(cell.execute(now, amount))
    }

    /// Dumps every state object, in declaration order, entries sorted by key bytes.
    /// Expiring-map entries that are expired at [`StateStore::clock_ns`] are left out.
    pub fn dump(&self, module: &Module, format: DumpFormat) -> Result<Vec<StateDump>, StoreError> {
        let mut out = Vec::new();
        for (id, obj) in module.states.iter() {
            let name = obj.name.as_str();
            if format == DumpFormat::Cpp {
                let ready = |l: &Layout| {
                    l.fields.is_empty()
                        || (l.size.is_some() && l.fields.iter().all(|f| f.offset.is_some()))
                };
                let ok = match &obj.kind {
                    StateKind::HashMap { key, value, .. }
                    | StateKind::ExpiringMap { key, value, .. }
                    | StateKind::LpmMap { key, value, .. } => ready(key) && ready(value),
                    StateKind::Vector { elem, .. } => ready(elem),
                    StateKind::Scalar { .. } | StateKind::Meter { .. } => true,
                };
                if !ok {
                    return Err(StoreError::NoCppLayout(name.to_string()));
                }
            }
            let slot = self
                .slots
                .get(id.index())
                .ok_or_else(|| Self::shape_err(name, "missing from store"))?;
            let mut entries: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
            match (&obj.kind, slot) {
                (StateKind::HashMap { key, value, .. }, Slot::Map(m))
                | (StateKind::ExpiringMap { key, value, .. }, Slot::Map(m)) => {
                    let timeout = match obj.kind {
                        StateKind::ExpiringMap {
                            idle_timeout_ns, ..
                        } => Some(idle_timeout_ns),
                        _ => None,
                    };
                    for (k, e) in m {
                        if live(e, self.clock_ns, timeout) {
                            entries.push((
                                encode(name, key, k, format)?,
                                encode(name, value, &e.value, format)?,
                            ));
                        }
                    }
                }
                (StateKind::LpmMap { key, value, .. }, Slot::Map(m)) => {
                    // Key: the prefix as the key field, then its length as one byte.
                    for (k, e) in m {
                        let mut kb = encode(name, key, &k[..1], format)?;
                        kb.push(k.get(1).copied().unwrap_or(0) as u8);
                        entries.push((kb, encode(name, value, &e.value, format)?));
                    }
                }
                (StateKind::Vector { elem, .. }, Slot::Vector(v)) => {
                    if v.len > MAX_DUMP_ELEMS {
                        return Err(Self::shape_err(name, "vector too long to dump"));
                    }
                    for i in 0..v.len {
                        let k = match format {
                            DumpFormat::Canonical => be_bytes(i, 4),
                            DumpFormat::Cpp => le_bytes(i, 4),
                        };
                        let e = v.get(i).unwrap_or_default();
                        entries.push((k, encode(name, elem, &e, format)?));
                    }
                }
                (StateKind::Meter { .. }, Slot::Meter(m)) => {
                    // Key: the index (4 bytes); value: the cell's seven words.
                    let layout = MeterCell::layout();
                    for (&i, c) in &m.cells {
                        let k = match format {
                            DumpFormat::Canonical => be_bytes(i, 4),
                            DumpFormat::Cpp => le_bytes(i, 4),
                        };
                        entries.push((k, encode(name, &layout, &c.words(), format)?));
                    }
                }
                (StateKind::Scalar { ty }, Slot::Scalar(s)) => {
                    let v = match format {
                        DumpFormat::Canonical => be_bytes(*s, ty.bytes() as usize),
                        DumpFormat::Cpp => le_bytes(*s, ty.bytes().next_power_of_two() as usize),
                    };
                    entries.push((Vec::new(), v));
                }
                _ => return Err(Self::shape_err(name, "store does not match module")),
            }
            entries.sort();
            out.push(StateDump {
                name: name.to_string(),
                kind: obj.kind.keyword().to_string(),
                entries: entries
                    .into_iter()
                    .map(|(k, v)| DumpEntry {
                        key: hex(&k),
                        value: hex(&v),
                    })
                    .collect(),
            });
        }
        Ok(out)
    }

    /// [`StateStore::dump`] as a JSON array of `{"name", "kind", "entries": [{"key", "value"}]}`
    /// objects — the native reference host's format when `format` is [`DumpFormat::Cpp`].
    pub fn dump_json(&self, module: &Module, format: DumpFormat) -> Result<String, StoreError> {
        let d = self.dump(module, format)?;
        // Serialising plain strings and vectors cannot fail.
        Ok(serde_json::to_string(&d).unwrap_or_default())
    }
}

/// Runs a module's `process` function on packets.
#[derive(Clone, Copy, Debug)]
pub struct Interpreter<'m> {
    module: &'m Module,
    options: InterpOptions,
}

impl Ctx<'_> {
    /// The frame as a deparser emits it: the present headers in the deparse order, then the
    /// bytes after the parsed headers. Without a push or pop, the bytes as they are.
    fn frame(&self) -> Vec<u8> {
        if !self.relaid {
            return self.bytes.clone();
        }
        let mut out = Vec::with_capacity(self.bytes.len());
        for h in crate::deparse_order(self.module) {
            let Some(at) = self.hdrs.get(h) else { continue };
            let parsed = at < self.frame_len;
            let len = if h == crate::Header::Ipv4 && parsed {
                self.hdrs.ipv4_len
            } else {
                h.size()
            };
            out.extend_from_slice(self.bytes.get(at..at + len).unwrap_or_default());
        }
        out.extend_from_slice(
            self.bytes
                .get(self.hdrs.end..self.frame_len)
                .unwrap_or_default(),
        );
        out
    }
}

struct Ctx<'a> {
    module: &'a Module,
    vals: Vec<u64>,
    bytes: Vec<u8>,
    hdrs: HeaderOffsets,
    /// The frame's length; pushed headers live after it in `bytes` until [`Ctx::frame`].
    frame_len: usize,
    /// Whether a push or pop changed which headers are present.
    relaid: bool,
    action: Action,
    steps: u64,
}

impl<'m> Interpreter<'m> {
    /// Verifies `module` and prepares to run it.
    pub fn new(module: &'m Module, options: InterpOptions) -> Result<Self, VerifyErrors> {
        crate::verify_module(module)?;
        Ok(Interpreter { module, options })
    }

    /// Runs one packet; `opaque` instructions are errors.
    pub fn run(&self, store: &mut StateStore, packet: &Packet) -> Result<Outcome, InterpError> {
        self.run_with(store, packet, &mut NoOpaque)
    }

    /// Runs one packet, executing `opaque` instructions with `handler`.
    pub fn run_with(
        &self,
        store: &mut StateStore,
        packet: &Packet,
        handler: &mut dyn OpaqueHandler,
    ) -> Result<Outcome, InterpError> {
        let m = self.module;
        let f = &m.process;
        if store.slots.len() != m.states.len() {
            return Err(InterpError::StoreMismatch(
                "wrong number of state objects".into(),
            ));
        }
        store.clock_ns = store.clock_ns.max(packet.timestamp_ns);
        let mut cx = Ctx {
            module: m,
            vals: vec![0; f.values.len()],
            bytes: packet.bytes.clone(),
            hdrs: HeaderOffsets::parse_in(m, &packet.bytes),
            frame_len: packet.bytes.len(),
            relaid: false,
            action: Action::Drop,
            steps: 0,
        };
        let mut block = f
            .entry()
            .ok_or_else(|| InterpError::Malformed("no entry block".into()))?;
        loop {
            let data = f
                .blocks
                .get(block)
                .ok_or_else(|| InterpError::Malformed(format!("no {block}")))?;
            let mut next = None;
            for &inst in &data.insts {
                cx.steps += 1;
                if cx.steps > self.options.fuel {
                    return Err(InterpError::OutOfFuel(self.options.fuel));
                }
                match cx.exec(inst, store, packet, handler)? {
                    Flow::Next => {}
                    Flow::Goto(b, args) => {
                        next = Some((b, args));
                        break;
                    }
                    Flow::Return => {
                        return Ok(Outcome {
                            action: cx.action,
                            packet: cx.frame(),
                            steps: cx.steps,
                        })
                    }
                }
            }
            let Some((b, args)) = next else {
                return Err(InterpError::Malformed(format!("{block} has no terminator")));
            };
            let params = &f
                .blocks
                .get(b)
                .ok_or_else(|| InterpError::Malformed(format!("no {b}")))?
                .params;
            if params.len() != args.len() {
                return Err(InterpError::Malformed(format!(
                    "wrong argument count for {b}"
                )));
            }
            for (&p, a) in params.iter().zip(args) {
                cx.set(p, a)?;
            }
            block = b;
        }
    }
}

enum Flow {
    Next,
    Goto(crate::Block, Vec<u64>),
    Return,
}

/// What one executed instruction does to control flow ([`Machine::exec`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Continue with the next instruction of the block.
    Next,
    /// Jump to the block, passing these parameter values.
    Goto(crate::Block, Vec<u64>),
    /// The function returned.
    Return,
}

/// The interpreter's machine state for one packet — SSA values, packet bytes, fate — with
/// single-instruction execution, for tools that run parts of `process` in their own order
/// (the partition simulator runs a plan's pre, server and post parts in turn, each with its
/// own values). Same semantics as [`Interpreter::run_with`]; the caller verifies the module
/// and chooses which instructions to execute.
pub struct Machine<'m> {
    cx: Ctx<'m>,
}

impl<'m> Machine<'m> {
    /// A machine for `packet` (values 0, fate drop); advances the store's clock to the
    /// packet's time as [`Interpreter::run_with`] does.
    pub fn new(module: &'m Module, store: &mut StateStore, packet: &Packet) -> Machine<'m> {
        store.clock_ns = store.clock_ns.max(packet.timestamp_ns);
        Machine {
            cx: Ctx {
                module,
                vals: vec![0; module.process.values.len()],
                bytes: packet.bytes.clone(),
                hdrs: HeaderOffsets::parse_in(module, &packet.bytes),
                frame_len: packet.bytes.len(),
                relaid: false,
                action: Action::Drop,
                steps: 0,
            },
        }
    }

    /// Executes one instruction (branch arguments are evaluated, not assigned: on
    /// [`Step::Goto`] the caller assigns the target's parameters with
    /// [`Machine::set_value`]).
    pub fn exec(
        &mut self,
        inst: Inst,
        store: &mut StateStore,
        packet: &Packet,
        handler: &mut dyn OpaqueHandler,
    ) -> Result<Step, InterpError> {
        self.cx.steps += 1;
        Ok(match self.cx.exec(inst, store, packet, handler)? {
            Flow::Next => Step::Next,
            Flow::Goto(b, args) => Step::Goto(b, args),
            Flow::Return => Step::Return,
        })
    }

    /// The current value of `v` (0 until set or computed).
    pub fn value(&self, v: Value) -> Option<u64> {
        self.cx.vals.get(v.index()).copied()
    }

    /// Sets `v` (wrapped to its type).
    pub fn set_value(&mut self, v: Value, x: u64) -> Result<(), InterpError> {
        self.cx.set(v, x)
    }

    /// The frame as it would leave now: header writes so far, pushed and popped headers in
    /// the deparse order.
    pub fn bytes(&self) -> Vec<u8> {
        self.cx.frame()
    }

    /// Replaces the packet bytes (same frame with other header values; header presence and
    /// offsets are those of the original packet, which never change).
    pub fn set_bytes(&mut self, bytes: Vec<u8>) {
        self.cx.bytes = bytes;
    }

    /// The packet's fate so far.
    pub fn action(&self) -> Action {
        self.cx.action
    }

    /// Sets the packet's fate.
    pub fn set_action(&mut self, action: Action) {
        self.cx.action = action;
    }

    /// Instructions executed.
    pub fn steps(&self) -> u64 {
        self.cx.steps
    }
}

impl Ctx<'_> {
    fn get(&self, v: Value) -> Result<u64, InterpError> {
        self.vals
            .get(v.index())
            .copied()
            .ok_or_else(|| InterpError::Malformed(format!("no {v}")))
    }

    fn set(&mut self, v: Value, x: u64) -> Result<(), InterpError> {
        let ty = self
            .module
            .process
            .value_type(v)
            .ok_or_else(|| InterpError::Malformed(format!("no {v}")))?;
        let slot = self
            .vals
            .get_mut(v.index())
            .ok_or_else(|| InterpError::Malformed(format!("no {v}")))?;
        *slot = ty.wrap(x);
        Ok(())
    }

    fn ty(&self, v: Value) -> Result<Type, InterpError> {
        self.module
            .process
            .value_type(v)
            .ok_or_else(|| InterpError::Malformed(format!("no {v}")))
    }

    fn text(&self, inst: Inst) -> String {
        crate::print_inst(self.module, &self.module.process, inst)
    }

    fn field_range(
        &self,
        field: HeaderField,
        inst: Inst,
    ) -> Result<std::ops::Range<usize>, InterpError> {
        let h = field.header();
        let start = self.hdrs.get(h).ok_or_else(|| InterpError::AbsentHeader {
            header: h,
            inst: self.text(inst),
        })? + field.byte_offset();
        let end = start + field.bits() as usize / 8;
        if end > self.bytes.len() {
            return Err(InterpError::Malformed(format!(
                "{} lies beyond the packet end",
                field.name()
            )));
        }
        Ok(start..end)
    }

    fn exec(
        &mut self,
        inst: Inst,
        store: &mut StateStore,
        packet: &Packet,
        handler: &mut dyn OpaqueHandler,
    ) -> Result<Flow, InterpError> {
        let f = &self.module.process;
        let data = f
            .insts
            .get(inst)
            .ok_or_else(|| InterpError::Malformed(format!("no {inst}")))?;
        let results = &data.results;
        let res = |i: usize| {
            results
                .get(i)
                .copied()
                .ok_or_else(|| InterpError::Malformed("missing result".into()))
        };
        let state_kind = |s: StateId| {
            self.module
                .states
                .get(s)
                .map(|o| &o.kind)
                .ok_or_else(|| InterpError::Malformed(format!("no {s}")))
        };
        match &data.kind {
            InstKind::Const { imm } => self.set(res(0)?, *imm)?,
            InstKind::Binary { op, args } => {
                let ty = self.ty(args[0])?;
                let (a, b) = (self.get(args[0])?, self.get(args[1])?);
                self.set(res(0)?, binary(*op, ty, a, b))?;
            }
            InstKind::Icmp { pred, args } => {
                let ty = self.ty(args[0])?;
                let (a, b) = (self.get(args[0])?, self.get(args[1])?);
                let (sa, sb) = (ty.to_signed(a), ty.to_signed(b));
                let r = match pred {
                    IntCC::Eq => a == b,
                    IntCC::Ne => a != b,
                    IntCC::Ult => a < b,
                    IntCC::Ule => a <= b,
                    IntCC::Ugt => a > b,
                    IntCC::Uge => a >= b,
                    IntCC::Slt => sa < sb,
                    IntCC::Sle => sa <= sb,
                    IntCC::Sgt => sa > sb,
                    IntCC::Sge => sa >= sb,
                };
                self.set(res(0)?, u64::from(r))?;
            }
            InstKind::Cast { op, arg } => {
                let a = self.get(*arg)?;
                let r = match op {
                    CastOp::Zext | CastOp::Trunc => a,
                    CastOp::Sext => self.ty(*arg)?.to_signed(a) as u64,
                };
                self.set(res(0)?, r)?;
            }
            InstKind::Select {
                cond,
                if_true,
                if_false,
            } => {
                let r = if self.get(*cond)? != 0 {
                    self.get(*if_true)?
                } else {
                    self.get(*if_false)?
                };
                self.set(res(0)?, r)?;
            }
            InstKind::Hash { algo, args } => {
                let mut fields = Vec::with_capacity(args.len());
                for &a in args {
                    fields.push((self.get(a)?, self.ty(a)?.bits()));
                }
                self.set(res(0)?, algo.compute_fields(&fields))?;
            }
            InstKind::Bswap { arg } => {
                let n = self.ty(*arg)?.bytes();
                let a = self.get(*arg)?;
                let r = (0..n).fold(0u64, |acc, i| (acc << 8) | ((a >> (8 * i)) & 0xff));
                self.set(res(0)?, r)?;
            }
            InstKind::HdrRead { field } => {
                // A field of an absent header reads as 0 (P4: invalid headers' fields are
                // unspecified; the lifter only uses such values under a `select` that
                // discards them).
                let v = if self.hdrs.get(field.header()).is_none() {
                    0
                } else {
                    let r = self.field_range(*field, inst)?;
                    self.bytes[r]
                        .iter()
                        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
                };
                self.set(res(0)?, v)?;
            }
            InstKind::HdrWrite { field, value } => {
                if self.hdrs.get(field.header()).is_none() {
                    // Writing a field of an absent header does nothing (as in P4).
                    return Ok(Flow::Next);
                }
                let r = self.field_range(*field, inst)?;
                let v = self.get(*value)?;
                let n = r.len();
                for (i, b) in self.bytes[r].iter_mut().enumerate() {
                    *b = (v >> (8 * (n - 1 - i))) as u8;
                }
            }
            InstKind::HdrValid { header } => {
                let v = u64::from(self.hdrs.get(*header).is_some());
                self.set(res(0)?, v)?;
            }
            InstKind::HdrPush { header } => {
                if self.hdrs.get(*header).is_none() {
                    let at = self.bytes.len();
                    self.bytes.resize(at + header.size(), 0);
                    self.hdrs.set(*header, at);
                    self.relaid = true;
                }
            }
            InstKind::HdrPop { header } => {
                if self.hdrs.get(*header).is_some() {
                    self.hdrs.remove(*header);
                    self.relaid = true;
                }
            }
            InstKind::MetaRead { meta } => {
                let v = match meta {
                    Meta::InPort => u64::from(packet.in_port),
                    Meta::Length => packet.bytes.len() as u64,
                    Meta::Now => packet.timestamp_ns,
                };
                self.set(res(0)?, v)?;
            }
            InstKind::MapFind { state, key }
            | InstKind::MapInsert { state, key, .. }
            | InstKind::MapErase { state, key } => {
                let kind = state_kind(*state)?;
                let rules = MapRules::of(kind)
                    .ok_or_else(|| InterpError::Malformed(format!("{state} is not a map")))?;
                let k: Vec<u64> = key.iter().map(|&v| self.get(v)).collect::<Result<_, _>>()?;
                let now = packet.timestamp_ns;
                let mismatch =
                    || InterpError::StoreMismatch(format!("{state} is not a map in the store"));
                match &data.kind {
                    InstKind::MapFind { .. } => {
                        let mut vals = vec![0; results.len().saturating_sub(1)];
                        let hit = store
                            .map_find_at(*state, rules, &k, now, &mut vals)
                            .ok_or_else(mismatch)?;
                        if !hit {
                            vals.iter_mut().for_each(|v| *v = 0);
                        }
                        self.set(res(0)?, u64::from(hit))?;
                        for (i, v) in vals.into_iter().enumerate() {
                            self.set(res(i + 1)?, v)?;
                        }
                    }
                    InstKind::MapInsert { value, .. } => {
                        let v: Vec<u64> = value
                            .iter()
                            .map(|&v| self.get(v))
                            .collect::<Result<_, _>>()?;
                        let ok = store
                            .map_insert_at(*state, rules, &k, &v, now)
                            .ok_or_else(mismatch)?;
                        self.set(res(0)?, u64::from(ok))?;
                    }
                    _ => {
                        store
                            .map_erase_rules(*state, rules.lpm_bits, &k)
                            .ok_or_else(mismatch)?;
                    }
                }
            }
            InstKind::VecGet { state, index } | InstKind::VecSet { state, index, .. } => {
                let idx = self.get(*index)?;
                let Some(Slot::Vector(vec)) = store.slots.get_mut(state.index()) else {
                    return Err(InterpError::StoreMismatch(format!(
                        "{state} is not a vector in the store"
                    )));
                };
                let len = vec.len;
                let Some(elem) = vec.get(idx) else {
                    return Err(InterpError::IndexOutOfRange {
                        index: idx,
                        len,
                        inst: self.text(inst),
                    });
                };
                if let InstKind::VecSet { value, .. } = &data.kind {
                    let v = value
                        .iter()
                        .map(|&v| self.get(v))
                        .collect::<Result<_, _>>()?;
                    vec.set(idx, v);
                } else {
                    let e = elem;
                    for (i, v) in e.into_iter().enumerate() {
                        self.set(res(i)?, v)?;
                    }
                }
            }
            InstKind::MeterExecute { state, index } => {
                let idx = self.get(*index)?;
                let c = store
                    .meter_execute_at(*state, idx, packet.timestamp_ns, packet.bytes.len() as u64)
                    .ok_or_else(|| {
                        InterpError::StoreMismatch(format!("{state} is not a meter in the store"))
                    })?;
                self.set(res(0)?, u64::from(c))?;
            }
            InstKind::ScalarLoad { state } => {
                let Some(Slot::Scalar(s)) = store.slots.get(state.index()) else {
                    return Err(InterpError::StoreMismatch(format!(
                        "{state} is not a scalar in the store"
                    )));
                };
                let s = *s;
                self.set(res(0)?, s)?;
            }
            InstKind::ScalarStore { state, value } => {
                let v = self.get(*value)?;
                let Some(Slot::Scalar(s)) = store.slots.get_mut(state.index()) else {
                    return Err(InterpError::StoreMismatch(format!(
                        "{state} is not a scalar in the store"
                    )));
                };
                *s = v;
            }
            InstKind::Send { port } => self.action = Action::Send(self.get(*port)? as u16),
            InstKind::Drop => self.action = Action::Drop,
            InstKind::Opaque { name, args, .. } => {
                let a: Vec<u64> = args
                    .iter()
                    .map(|&v| self.get(v))
                    .collect::<Result<_, _>>()?;
                let tys: Vec<Type> = results
                    .iter()
                    .map(|&r| self.ty(r))
                    .collect::<Result<_, _>>()?;
                let out = handler
                    .call(name, &a, &tys, &mut self.bytes, store)
                    .map_err(|message| InterpError::Opaque {
                        message,
                        inst: self.text(inst),
                    })?;
                if out.len() != results.len() {
                    return Err(InterpError::Opaque {
                        message: format!(
                            "handler returned {} values, expected {}",
                            out.len(),
                            results.len()
                        ),
                        inst: self.text(inst),
                    });
                }
                for (i, v) in out.into_iter().enumerate() {
                    self.set(res(i)?, v)?;
                }
            }
            InstKind::Jump { dest } => {
                let args = dest
                    .args
                    .iter()
                    .map(|&v| self.get(v))
                    .collect::<Result<_, _>>()?;
                return Ok(Flow::Goto(dest.block, args));
            }
            InstKind::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                let dest = if self.get(*cond)? != 0 {
                    then_dest
                } else {
                    else_dest
                };
                let args = dest
                    .args
                    .iter()
                    .map(|&v| self.get(v))
                    .collect::<Result<_, _>>()?;
                return Ok(Flow::Goto(dest.block, args));
            }
            InstKind::Switch {
                arg,
                default,
                cases,
            } => {
                let a = self.get(*arg)?;
                let dest = cases
                    .iter()
                    .find(|(k, _)| *k == a)
                    .map_or(default, |(_, c)| c);
                let args = dest
                    .args
                    .iter()
                    .map(|&v| self.get(v))
                    .collect::<Result<_, _>>()?;
                return Ok(Flow::Goto(dest.block, args));
            }
            InstKind::Return => return Ok(Flow::Return),
        }
        Ok(Flow::Next)
    }
}

/// Evaluates a binary operation on values of type `ty` (operands already wrapped), following
/// the crate's semantic contract (wrap-around; division by zero and over-wide shifts defined).
pub fn binary(op: BinOp, ty: Type, a: u64, b: u64) -> u64 {
    let bits = u64::from(ty.bits());
    let (sa, sb) = (ty.to_signed(a), ty.to_signed(b));
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Udiv => a.checked_div(b).unwrap_or(0),
        BinOp::Sdiv => {
            if sb == 0 {
                0
            } else {
                sa.wrapping_div(sb) as u64
            }
        }
        BinOp::Urem => a.checked_rem(b).unwrap_or(a),
        BinOp::Srem => {
            if sb == 0 {
                a
            } else {
                sa.wrapping_rem(sb) as u64
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => {
            if b >= bits {
                0
            } else {
                a << b
            }
        }
        BinOp::Lshr => {
            if b >= bits {
                0
            } else {
                a >> b
            }
        }
        BinOp::Ashr => (sa >> b.min(63)) as u64,
    };
    ty.wrap(r)
}
