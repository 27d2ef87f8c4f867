//! Global state objects: maps, vectors, scalars, expiring maps and meters, and their layouts.

use crate::Type;

/// One named integer field of a [`Layout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutField {
    /// Field name (an identifier; unique within the layout).
    pub name: String,
    /// The field's type; its width is the C++ member's width.
    pub ty: Type,
    /// Byte offset of the member inside the C++ struct, when the lifter knows it. Used only to
    /// reproduce the native host's raw-memory state dump ([`crate::interp::DumpFormat::Cpp`]).
    pub offset: Option<u32>,
}

/// An ordered list of named integer fields: the key or value of a map, the element of a
/// vector. Field order is significant: state operations take and return one SSA value per
/// field, in this order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Layout {
    /// The fields, in order.
    pub fields: Vec<LayoutField>,
    /// `sizeof` of the C++ struct, when the lifter knows it (see [`LayoutField::offset`]).
    pub size: Option<u32>,
}

impl Layout {
    /// A layout of `(name, type)` fields without C++ offsets.
    pub fn new<S: Into<String>>(fields: impl IntoIterator<Item = (S, Type)>) -> Layout {
        Layout {
            fields: fields
                .into_iter()
                .map(|(name, ty)| LayoutField {
                    name: name.into(),
                    ty,
                    offset: None,
                })
                .collect(),
            size: None,
        }
    }

    /// A layout whose fields carry C++ byte offsets: `(name, type, offset)`, struct size `size`.
    pub fn with_offsets<S: Into<String>>(
        fields: impl IntoIterator<Item = (S, Type, u32)>,
        size: u32,
    ) -> Layout {
        Layout {
            fields: fields
                .into_iter()
                .map(|(name, ty, off)| LayoutField {
                    name: name.into(),
                    ty,
                    offset: Some(off),
                })
                .collect(),
            size: Some(size),
        }
    }

    /// The field types, in order.
    pub fn types(&self) -> impl Iterator<Item = Type> + '_ {
        self.fields.iter().map(|f| f.ty)
    }

    /// Size in bytes of the packed big-endian encoding (sum of the fields' whole bytes).
    pub fn packed_bytes(&self) -> u32 {
        self.fields.iter().map(|f| f.ty.bytes()).sum()
    }
}

/// What kind of state object, with its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// `hashmap<K, V, capacity>`: an exact-match map holding at most `capacity` entries.
    HashMap {
        /// Key layout.
        key: Layout,
        /// Value layout.
        value: Layout,
        /// Maximum number of entries.
        capacity: u64,
    },
    /// `vector<E, len>`: a fixed-length array of `len` elements, zero-initialised.
    Vector {
        /// Element layout.
        elem: Layout,
        /// Number of elements.
        len: u64,
    },
    /// `scalar<iN>`: one integer, zero-initialised.
    Scalar {
        /// Its type.
        ty: Type,
    },
    /// `expiring_map<K, V, capacity, idle_timeout_ns>`: a hash map whose entries disappear when
    /// not used for `idle_timeout_ns` nanoseconds of packet time.
    ExpiringMap {
        /// Key layout.
        key: Layout,
        /// Value layout.
        value: Layout,
        /// Maximum number of live entries.
        capacity: u64,
        /// Idle timeout in nanoseconds.
        idle_timeout_ns: u64,
    },
    /// `lpm_map<K, V, capacity>`: a longest-prefix-match map. The key layout's last field
    /// is an unsigned integer matched from its most significant bit (an IPv4 address as
    /// the number P4 sees); the fields before it, if any, are matched exactly (a VNI: one
    /// map holds every tenant's routes, P4 `exact` keys before the `lpm` one). An entry is
    /// the exact fields, a prefix and its length (`0..=bits` of the last field; the bits
    /// below the length are zero). `map.find MAP(exact..., addr)` returns the value of the
    /// entry with the same exact fields and the longest prefix that matches `addr`;
    /// `map.insert MAP(exact..., prefix, len) -> (value...)` and `map.erase MAP(exact...,
    /// prefix, len)` take the prefix and its length as an `i8` (the prefix is masked to its
    /// length; a length above the field's width inserts nothing and returns 0, erases
    /// nothing). At most `capacity` entries.
    ///
    /// A prefix wider than one field (an IPv6 address: 128 bits) spans the key's last
    /// `prefix_fields` fields, all of one width, most significant first (`lpm_map<{vni: i64,
    /// hi: i64, lo: i64}, V, capacity, 2>`: the VNI exact, then a prefix of 0..=128 bits over
    /// `hi` then `lo`); `map.insert MAP(exact..., p_hi, p_lo, len)` masks every word to the
    /// prefix.
    LpmMap {
        /// Key layout (exact fields, then the prefix-matched fields).
        key: Layout,
        /// Value layout.
        value: Layout,
        /// Maximum number of entries (prefixes).
        capacity: u64,
        /// How many trailing key fields the prefix spans (1: the last one).
        prefix_fields: u32,
    },
    /// `ternary_map<K, V, capacity>`: entries are a key, a mask (one value per key field
    /// each) and a priority; `map.find MAP(k...)` returns the value of the entry with the
    /// highest priority whose masked key fields equal `k`'s under its mask. Priorities are
    /// distinct (1..=2^31−1, as in P4Runtime), so the answer never depends on order.
    /// `map.insert MAP(key..., mask..., prio) -> (value...)` and `map.erase MAP(key...,
    /// mask..., prio)` name an entry by all three (`prio` an `i32`).
    TernaryMap {
        /// Key layout (the looked-up fields; masks have the same layout).
        key: Layout,
        /// Value layout.
        value: Layout,
        /// Maximum number of entries.
        capacity: u64,
    },
    /// `range_map<K, V, capacity>`: the key is one unsigned integer; entries are a range
    /// `lo..=hi` and a priority; `map.find MAP(k)` returns the value of the entry with the
    /// highest priority whose range holds `k`. `map.insert MAP(lo, hi, prio) -> (value...)`,
    /// `map.erase MAP(lo, hi, prio)`; priorities are distinct as for ternary maps.
    RangeMap {
        /// Key layout (one unsigned integer field).
        key: Layout,
        /// Value layout.
        value: Layout,
        /// Maximum number of entries.
        capacity: u64,
    },
    /// `meter<len, unit>`: `len` two-rate three-colour meters counting `unit`s (see
    /// [`crate::meter`]). Each meter's configuration (rates and bursts) is state, set by
    /// `configure`; `meter.execute` reads and writes its buckets.
    Meter {
        /// Number of meters.
        len: u64,
        /// What they count.
        unit: crate::meter::MeterUnit,
    },
}

/// How a map's lookups match its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapMatch {
    /// The key equals the entry's (hash maps, expiring maps).
    Exact,
    /// The longest matching prefix wins (LPM maps).
    Lpm,
    /// Masked fields equal; the highest priority wins (ternary maps).
    Ternary,
    /// The key lies in the entry's range; the highest priority wins (range maps).
    Range,
}

impl MapMatch {
    /// Whether entries carry a priority (ternary and range maps).
    pub fn has_priority(self) -> bool {
        matches!(self, MapMatch::Ternary | MapMatch::Range)
    }
}

/// The largest priority of a ternary or range map entry (P4Runtime's `int32` priorities,
/// which must be positive).
pub const MAX_PRIORITY: u64 = 0x7fff_ffff;

impl StateKind {
    /// The text-form keyword (`hashmap`, `vector`, `scalar`, `expiring_map`, `lpm_map`,
    /// `meter`), also the `kind`
    /// of state dumps.
    pub fn keyword(&self) -> &'static str {
        match self {
            StateKind::HashMap { .. } => "hashmap",
            StateKind::Vector { .. } => "vector",
            StateKind::Scalar { .. } => "scalar",
            StateKind::ExpiringMap { .. } => "expiring_map",
            StateKind::LpmMap { .. } => "lpm_map",
            StateKind::TernaryMap { .. } => "ternary_map",
            StateKind::RangeMap { .. } => "range_map",
            StateKind::Meter { .. } => "meter",
        }
    }

    /// How lookups match, for the map kinds; `None` for vectors and scalars.
    pub fn map_match(&self) -> Option<MapMatch> {
        match self {
            StateKind::HashMap { .. } | StateKind::ExpiringMap { .. } => Some(MapMatch::Exact),
            StateKind::LpmMap { .. } => Some(MapMatch::Lpm),
            StateKind::TernaryMap { .. } => Some(MapMatch::Ternary),
            StateKind::RangeMap { .. } => Some(MapMatch::Range),
            _ => None,
        }
    }

    /// The values that name one entry of a map (the operands of `map.erase`, and of
    /// `map.insert` before the value), as a layout: the key fields (exact maps); the prefix
    /// and `prefix_len: i8` (LPM); the key fields, a mask per field (`mask_<field>`) and
    /// `priority: i32` (ternary); `lo`, `hi` of the key's type and `priority: i32` (range).
    /// No C++ offsets.
    pub fn entry_key_layout(&self) -> Option<Layout> {
        let (key, _) = self.map_layouts()?;
        let plain = |f: &crate::LayoutField| (f.name.clone(), f.ty);
        let mut out: Vec<(String, Type)> = Vec::new();
        match self.map_match()? {
            MapMatch::Exact => out.extend(key.fields.iter().map(plain)),
            MapMatch::Lpm => {
                out.extend(key.fields.iter().map(plain));
                out.push(("prefix_len".into(), Type::I8));
            }
            MapMatch::Ternary => {
                out.extend(key.fields.iter().map(plain));
                out.extend(
                    key.fields
                        .iter()
                        .map(|f| (format!("mask_{}", f.name), f.ty)),
                );
                out.push(("priority".into(), Type::I32));
            }
            MapMatch::Range => {
                let ty = key.fields.first().map_or(Type::I64, |f| f.ty);
                out.push(("lo".into(), ty));
                out.push(("hi".into(), ty));
                out.push(("priority".into(), Type::I32));
            }
        }
        Some(Layout::new(out))
    }

    /// The width of an LPM map's prefix (its last key field, or its last `prefix_fields`
    /// together); `None` for other kinds.
    pub fn lpm_bits(&self) -> Option<u32> {
        match self {
            StateKind::LpmMap {
                key, prefix_fields, ..
            } => {
                let n = (*prefix_fields).max(1) as usize;
                let tail = key.fields.len().checked_sub(n)?;
                Some(key.fields[tail..].iter().map(|f| f.ty.bits()).sum())
            }
            _ => None,
        }
    }

    /// How many trailing key fields an LPM map's prefix spans (1 for one field); `None` for
    /// other kinds.
    pub fn lpm_fields(&self) -> Option<u32> {
        match self {
            StateKind::LpmMap { prefix_fields, .. } => Some((*prefix_fields).max(1)),
            _ => None,
        }
    }

    /// Key and value layouts, for the map kinds (for LPM, ternary and range maps the key is
    /// what lookups take; entries are named by [`StateKind::entry_key_len`] values).
    pub fn map_layouts(&self) -> Option<(&Layout, &Layout)> {
        match self {
            StateKind::HashMap { key, value, .. }
            | StateKind::ExpiringMap { key, value, .. }
            | StateKind::LpmMap { key, value, .. }
            | StateKind::TernaryMap { key, value, .. }
            | StateKind::RangeMap { key, value, .. } => Some((key, value)),
            _ => None,
        }
    }

    /// A map's capacity; `None` for vectors and scalars.
    pub fn map_capacity(&self) -> Option<u64> {
        match self {
            StateKind::HashMap { capacity, .. }
            | StateKind::ExpiringMap { capacity, .. }
            | StateKind::LpmMap { capacity, .. }
            | StateKind::TernaryMap { capacity, .. }
            | StateKind::RangeMap { capacity, .. } => Some(*capacity),
            _ => None,
        }
    }
}

/// A named global state object of the NF (a member of the C++ element).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateObject {
    /// Name (an identifier, unique in the module).
    pub name: String,
    /// Kind and shape.
    pub kind: StateKind,
}
