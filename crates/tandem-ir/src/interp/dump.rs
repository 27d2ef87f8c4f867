//! Dumps of a [`StateStore`]: every object's entries as hex bytes, canonical (packed
//! big-endian fields) or in the native host's memory image, sorted by key.

use super::store::{live, Slot};
use super::{StateStore, StoreError};
use crate::{EntityRef, Layout, Module, StateKind};

/// Vectors longer than this cannot be dumped (the dump lists every element).
const MAX_DUMP_ELEMS: u64 = 1 << 24;

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
    /// are the index as 4 little-endian bytes; a scalar is little-endian in `ceil(bits/8)`
    /// bytes (an integer member's own size; a byte-array member such as `uint8_t mac[6]` lifts
    /// to one 48-bit scalar and dumps its 6 bytes). Needs offsets and a size on every non-empty map/vector
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

impl StateStore {
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
                    | StateKind::LpmMap { key, value, .. }
                    | StateKind::TernaryMap { key, value, .. }
                    | StateKind::RangeMap { key, value, .. } => ready(key) && ready(value),
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
                    // Key: the exact fields and the prefix as the key layout, then the
                    // prefix length as one byte.
                    for (k, e) in m {
                        let (len, fields) = k.split_last().unwrap_or((&0, &[]));
                        let mut kb = encode(name, key, fields, format)?;
                        kb.push(*len as u8);
                        entries.push((kb, encode(name, value, &e.value, format)?));
                    }
                }
                (StateKind::TernaryMap { key, value, .. }, Slot::Map(m))
                | (StateKind::RangeMap { key, value, .. }, Slot::Map(m)) => {
                    // Key: the key (or lo) as the key layout, the mask (or hi) likewise, then
                    // the priority in 4 bytes.
                    let n = if matches!(obj.kind, StateKind::RangeMap { .. }) {
                        1
                    } else {
                        key.fields.len()
                    };
                    for (k, e) in m {
                        let mut kb = encode(name, key, &k[..n], format)?;
                        kb.extend(encode(name, key, &k[n..2 * n], format)?);
                        let prio = k.get(2 * n).copied().unwrap_or(0);
                        kb.extend(match format {
                            DumpFormat::Canonical => be_bytes(prio, 4),
                            DumpFormat::Cpp => le_bytes(prio, 4),
                        });
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
                    let layout = crate::meter::MeterCell::layout();
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
                        DumpFormat::Cpp => le_bytes(*s, ty.bytes() as usize),
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
