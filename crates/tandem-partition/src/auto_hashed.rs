//! The partitioner's choice of hash-indexed register storage ([`crate::hashed`], CoFilter
//! §III-C) for a map whose exact-match table does not fit the profile's SRAM.
//!
//! An exact table spends `capacity × (key + value)` bits. When that alone exceeds the
//! profile's SRAM (`stages × SRAM blocks per stage × block bits`), the map could not sit on
//! the switch at all; a map the switch only reads (the runtime writes it) and looks up once
//! can instead live in register arrays indexed by a hash of the key, each cell holding a
//! fingerprint beside the value, with a small collision table the server fills. The plan
//! records the layout ([`AutoHashed`]); the P4 back end lowers it like `--state-layout
//! MAP=hashed` (which still overrides it), the runtime places keys through the manifest.
//!
//! ```text
//! before: ExpiringMap<FlowKey, Track, 2097152>, derived class map table__class (128-bit
//!         key, 8-bit class) on tofino1 (120 Mbit SRAM):
//!           table table__class { key = {...: exact}; size = 2097152; }   // 272.0 Mbit
//!           → does not fit: the map stays on the server
//! after:  storage: `table__class` in hash-indexed registers — the exact table needs
//!           272.0 Mbit (2176 blocks), tofino1 has 120.0 Mbit (960 blocks); hashed: 4 ways ×
//!           262144 slots × 32-bit cells (16-bit fingerprint) + 2097 collision entries =
//!           32.3 Mbit (259 blocks)
//! ```
//!
//! The choice is made per map from the map's shape and the profile alone (not from the
//! search), so every plan the search considers prices the map the same way.

use serde::{Deserialize, Serialize};
use tandem_ir::StateKind;

use crate::hashed::{HashedLayout, HashedSpec, KeyCheck};
use crate::TargetProfile;

/// Ways of an automatically chosen layout (the `--state-layout` default).
const WAYS: u32 = 4;

/// The widest value an automatic layout holds: a 32-bit cell keeps at least an 8-bit
/// fingerprint beside it.
const MAX_VALUE_BITS: u32 = 24;

/// A map the partitioner holds in hash-indexed registers, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoHashed {
    /// Ways (register arrays).
    pub ways: u32,
    /// Slots per way.
    pub slots_per_way: u64,
    /// Fingerprint bits stored beside the value.
    pub fingerprint_bits: u32,
    /// Value bits a cell holds.
    pub value_bits: u32,
    /// Collision-table entries.
    pub collision_entries: u64,
    /// SRAM bits the exact table would need.
    pub exact_bits: u64,
    /// SRAM bits of the hashed layout (cells and collision table).
    pub hashed_bits: u64,
    /// The profile's SRAM bits.
    pub budget_bits: u64,
    /// Bits of each slot's hit time when the map expires (or is the derived class map of a
    /// map that does): one register per way, one cell per slot, the switch's expiry check
    /// (`tandem_p4::lower::hashed`); counted in `hashed_bits`. 0 otherwise.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hit_time_bits: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// Bits of a slot's hit time on the switch: TNA's 32-bit registers (v1model's BMv2 cells
/// are 48 bits wide; the SRAM model is Tofino's).
pub const HIT_TIME_BITS: u32 = 32;

impl AutoHashed {
    /// The `--state-layout` spec of this layout.
    pub fn spec(&self) -> HashedSpec {
        HashedSpec {
            ways: Some(self.ways),
            slots_per_way: Some(self.slots_per_way),
            fingerprint_bits: Some(self.fingerprint_bits),
            collision_entries: Some(self.collision_entries),
            packed: false,
        }
    }

    /// One report line.
    pub fn to_text(&self, map: &str, profile: &TargetProfile) -> String {
        let mbit = |b: u64| b as f64 / (1u64 << 20) as f64;
        let blocks = |b: u64| b.div_ceil(profile.sram_block_bits.max(1));
        let cell = crate::hashed::register_width(self.fingerprint_bits + self.value_bits);
        let times = if self.hit_time_bits > 0 {
            format!(" + {}-bit hit times", self.hit_time_bits)
        } else {
            String::new()
        };
        format!(
            "storage: `{map}` in hash-indexed registers — the exact table needs {:.1} Mbit \
             ({} blocks), {} has {:.1} Mbit ({} blocks); hashed: {} ways × {} slots × \
             ({cell}-bit cells ({}-bit fingerprint){times}) + {} collision entries = {:.1} \
             Mbit ({} blocks)\n",
            mbit(self.exact_bits),
            blocks(self.exact_bits),
            profile.name,
            mbit(self.budget_bits),
            blocks(self.budget_bits),
            self.ways,
            self.slots_per_way,
            self.fingerprint_bits,
            self.collision_entries,
            mbit(self.hashed_bits),
            blocks(self.hashed_bits),
        )
    }
}

/// The hashed layout for map `kind` on `profile` when its exact table does not fit the
/// profile's SRAM, the map is looked up once on the switch (`copies == 1`), is not partial,
/// is not written by the switch, and its value leaves room for a fingerprint; `None`
/// otherwise (the exact table stays, and the search places the map as before).
pub fn choose(
    profile: &TargetProfile,
    kind: &StateKind,
    copies: u32,
    partial: bool,
    switch_writes: bool,
) -> Option<AutoHashed> {
    let ages = matches!(kind, StateKind::ExpiringMap { .. });
    choose_with(profile, kind, copies, partial, switch_writes, ages)
}

/// [`choose`] for a map whose slots carry hit times (`ages`: it expires, or it is the derived
/// class map of a map that does): each slot also costs [`HIT_TIME_BITS`], and the layout is
/// sized with them.
pub fn choose_with(
    profile: &TargetProfile,
    kind: &StateKind,
    copies: u32,
    partial: bool,
    switch_writes: bool,
    ages: bool,
) -> Option<AutoHashed> {
    let (key, value, capacity) = match kind {
        StateKind::HashMap {
            key,
            value,
            capacity,
        }
        | StateKind::ExpiringMap {
            key,
            value,
            capacity,
            ..
        } => (key, value, *capacity),
        _ => return None,
    };
    if copies != 1 || partial || switch_writes {
        return None;
    }
    let budget_bits = profile.total_sram_blocks()? * profile.sram_block_bits;
    let key_bits: Vec<u32> = key.fields.iter().map(|f| f.ty.bits()).collect();
    let value_bits: u32 = value.fields.iter().map(|f| f.ty.bits()).sum();
    let exact_bits = capacity * (crate::build::layout_bits(key) + crate::build::layout_bits(value));
    if exact_bits <= budget_bits || value_bits > MAX_VALUE_BITS {
        return None;
    }
    // A small value shares a 16-bit cell with a fingerprint of at least 12 bits; a wider one
    // takes a 32-bit cell.
    let fp = if value_bits <= 4 {
        16 - value_bits
    } else {
        32 - value_bits.max(16)
    };
    let collision_entries = (capacity / 1000).max(64);
    // Twice the capacity in slots (load ≤ ½) when that fits half the SRAM; otherwise the
    // largest layout that does.
    let spec = HashedSpec {
        ways: Some(WAYS),
        slots_per_way: None,
        fingerprint_bits: Some(fp),
        collision_entries: Some(collision_entries),
        packed: false,
    };
    let time_bits = if ages { HIT_TIME_BITS } else { 0 };
    let total = |l: &HashedLayout| l.sram_bits() + l.slots() * u64::from(time_bits);
    let layout = spec.layout(key_bits.clone(), value_bits, capacity).ok()?;
    let layout = if total(&layout) <= budget_bits / 2 {
        layout
    } else {
        // The cells' share of half the SRAM, then halved until the hit times fit too.
        let cell = crate::hashed::register_width(fp + value_bits);
        let share = budget_bits / 2 / (cell + u64::from(time_bits)) * cell;
        let mut l = HashedLayout::fit(
            share,
            WAYS,
            KeyCheck::Fingerprint(fp),
            key_bits.clone(),
            value_bits,
            collision_entries,
        )
        .ok()?;
        while total(&l) > budget_bits / 2 && l.slots_per_way > 1 {
            l = HashedLayout::new(
                l.ways,
                l.slots_per_way / 2,
                l.check,
                key_bits.clone(),
                value_bits,
                collision_entries,
            )
            .ok()?;
        }
        l
    };
    Some(AutoHashed {
        ways: layout.ways,
        slots_per_way: layout.slots_per_way,
        fingerprint_bits: fp,
        value_bits,
        collision_entries,
        exact_bits,
        hashed_bits: total(&layout),
        budget_bits,
        hit_time_bits: time_bits,
    })
}
