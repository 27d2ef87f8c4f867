//! `mark_partial`: partial replicas of large maps (Sailfish §4.2 table sharing, CLIP §III-D
//! automatic flow replacement).
//!
//! [`resolve`] checks the requests and sizes them; the partitioner plans memory for those
//! sizes (`Context::switch_entries`: a map too large for the profile whole can stay on the
//! switch as a partial replica). [`mark_partial`] then annotates the built plan.
//!
//! A map marked partial keeps every entry on the server (the primary copy, as for any map)
//! while its switch table holds only `switch_entries` of them: the ones the runtime finds
//! hottest. A packet that needs an entry the switch does not hold runs on the server, which
//! answers it; the runtime promotes hot server-only entries and evicts cold switch entries
//! in atomic batches. The pass runs after the plan is built; it does not move statements —
//! the map's lookups stay where the partitioner put them — it only sizes the switch table
//! and adds the count-min sketch that counts the map's lookups on the switch (`rows`
//! register arrays of `width` 32-bit counters, one CRC-32 hash per row), and charges both to
//! the plan's resources.
//!
//! ```text
//! before: states[int2ext] = { placement: replicated, sram_blocks: 48, ... }
//! after:  states[int2ext] = { placement: replicated, sram_blocks: 7, ...,
//!                             partial: { switch_entries: 6554, sketch_rows: 2,
//!                                        sketch_width: 4096 } }
//! ```
//!
//! The sketch is sized from the profile: one SRAM block of 32-bit counters per row (width =
//! `sram_block_bits / 32`, rounded down to a power of two, at most 65,536), and two rows
//! (CLIP's "1024 2-way count-min sketch") — one when the profile has a single stateful ALU
//! left. Only exact-match maps (`hashmap`, `expiring_map`) the plan puts on the switch can
//! be partial: an LPM, ternary or range table that lacks some entries would answer some
//! lookups with a wrong entry rather than a miss.

use std::collections::BTreeMap;

use tandem_ir::{Module, StateKind};

use crate::plan::{PartialTable, Placement, Plan};
use crate::{PartitionError, TargetProfile};

/// Bits of one sketch counter.
pub const SKETCH_COUNTER_BITS: u64 = 32;

/// The share of a map's capacity a partial map without an explicit size keeps on the
/// switch: one tenth (Sailfish keeps ~5% of the entries, which carry ~95% of the traffic).
pub const DEFAULT_SHARE_DIVISOR: u64 = 10;

/// The switch entries of each requested partial map (name → entries; `None`: a tenth of
/// the capacity), checked: the map exists, is an exact-match map, and the size is within
/// its capacity. The partitioner plans memory for these sizes.
pub fn resolve(
    module: &Module,
    requests: &BTreeMap<String, Option<u64>>,
) -> Result<BTreeMap<String, u64>, PartitionError> {
    let mut out = BTreeMap::new();
    for (name, entries) in requests {
        let err = |reason: String| PartitionError::Partial {
            state: name.clone(),
            reason,
        };
        let sid = module
            .state_by_name(name)
            .ok_or_else(|| err("no state object of this name".into()))?;
        let capacity = match &module.states[sid].kind {
            StateKind::HashMap { capacity, .. } | StateKind::ExpiringMap { capacity, .. } => {
                *capacity
            }
            k => {
                return Err(err(format!(
                    "a {} cannot be partial: only exact-match maps (hashmap, expiring_map) \
                     answer a lookup of a missing entry with a miss",
                    k.keyword()
                )))
            }
        };
        let n = entries.unwrap_or(capacity.div_ceil(DEFAULT_SHARE_DIVISOR));
        if n == 0 || n > capacity {
            return Err(err(format!(
                "{n} switch entries: give 1..={capacity} (the map's capacity)"
            )));
        }
        out.insert(name.clone(), n);
    }
    Ok(out)
}

/// Exact-match maps not requested in `explicit` whose whole table alone exceeds the
/// profile's SRAM (`PartitionOptions::auto_partial`): name → the entries that fit in a
/// quarter of the SRAM (at least one).
pub fn auto_partial(
    module: &Module,
    profile: &TargetProfile,
    explicit: &BTreeMap<String, u64>,
) -> BTreeMap<String, u64> {
    let Some(blocks) = profile.total_sram_blocks() else {
        return BTreeMap::new();
    };
    let budget_bits = blocks * profile.sram_block_bits;
    let mut out = BTreeMap::new();
    for (_, obj) in module.states.iter() {
        let (StateKind::HashMap { capacity, .. } | StateKind::ExpiringMap { capacity, .. }) =
            obj.kind
        else {
            continue;
        };
        let Some((key, value)) = obj.kind.map_layouts() else {
            continue;
        };
        let per_entry = (crate::build::layout_bits(key) + crate::build::layout_bits(value)).max(1);
        if explicit.contains_key(&obj.name) || capacity * per_entry <= budget_bits {
            continue;
        }
        out.insert(
            obj.name.clone(),
            (budget_bits / 4 / per_entry).clamp(1, capacity),
        );
    }
    out
}

/// Whether `plan` looks map `name` up on the switch exactly once (what a partial map needs).
pub fn eligible(plan: &Plan, name: &str) -> bool {
    plan.states.iter().any(|s| {
        s.name == name
            && matches!(s.placement, Placement::Replicated | Placement::SwitchTable)
            && s.switch_accesses.len() == 1
    })
}

/// Marks the maps in `sizes` (from [`resolve`]: name → switch entries) partial in `plan`.
/// Errors name the map and why it cannot be partial.
pub fn mark_partial(
    plan: &mut Plan,
    module: &Module,
    profile: &TargetProfile,
    sizes: &BTreeMap<String, u64>,
) -> Result<(), PartitionError> {
    for (name, &n) in sizes {
        let err = |reason: String| PartitionError::Partial {
            state: name.clone(),
            reason,
        };
        let sid = module
            .state_by_name(name)
            .ok_or_else(|| err("no state object of this name".into()))?;
        let Some((key, value)) = module.states[sid].kind.map_layouts() else {
            return Err(err("not a map".into()));
        };
        let free_salus = plan
            .resources
            .stateful_alus
            .budget
            .map(|b| b.saturating_sub(plan.resources.stateful_alus.used));
        let Some(sp) = plan.states.iter_mut().find(|s| &s.name == name) else {
            return Err(err("not in the plan".into()));
        };
        if !matches!(sp.placement, Placement::Replicated | Placement::SwitchTable) {
            return Err(err(format!(
                "the plan keeps it {} (only a map the switch looks up can be partial)",
                match sp.placement {
                    Placement::Server => "on the server",
                    _ => "in switch registers",
                }
            )));
        }
        if sp.switch_accesses.len() != 1 {
            return Err(err(format!(
                "the switch looks it up {} times; a partial map needs exactly one switch \
                 lookup (its sketch counts that one)",
                sp.switch_accesses.len()
            )));
        }
        let rows: u32 = match free_salus {
            Some(0) => {
                return Err(err(format!(
                    "its count-min sketch needs a stateful ALU; {} has none left",
                    profile.name
                )))
            }
            Some(1) => 1,
            _ => 2,
        };
        let width = sketch_width(profile);
        let bits_per_entry = crate::build::layout_bits(key) + crate::build::layout_bits(value);
        let table_blocks = (n * bits_per_entry)
            .div_ceil(profile.sram_block_bits)
            .max(1)
            * u64::from(sp.copies);
        let sketch_blocks =
            u64::from(rows) * (width * SKETCH_COUNTER_BITS).div_ceil(profile.sram_block_bits);
        let r = &mut plan.resources;
        r.sram_blocks.used = r.sram_blocks.used - sp.sram_blocks + table_blocks + sketch_blocks;
        r.stateful_alus.used += u64::from(rows);
        sp.sram_blocks = table_blocks + sketch_blocks;
        sp.partial = Some(PartialTable {
            switch_entries: n,
            sketch_rows: rows,
            sketch_width: width,
        });
        if !plan.resources.sram_blocks.fits() {
            return Err(err(format!(
                "with its sketch the switch needs {} SRAM blocks, {} has {}",
                plan.resources.sram_blocks.used,
                profile.name,
                crate::refine::fmt_budget(plan.resources.sram_blocks.budget)
            )));
        }
    }
    Ok(())
}

/// Counters per sketch row for `profile`: one SRAM block of 32-bit counters, a power of two
/// in 64..=65,536.
pub fn sketch_width(profile: &TargetProfile) -> u64 {
    let w = (profile.sram_block_bits / SKETCH_COUNTER_BITS).clamp(64, 1 << 16);
    1 << (63 - w.leading_zeros())
}
