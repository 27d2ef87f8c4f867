//! The switch's copy of a map held in hash-indexed registers (manifest `states[].hashed`,
//! docs/hashed-storage.md): where the engine would write a main-table entry it asks the
//! server's slot allocator (`tandem_partition::hashed::SlotAllocator`) for the key's slot and
//! writes the slot's cell (`fingerprint ++ value`), plus a collision-table entry when the key
//! sits away from its candidates; an erase clears the cell and removes the entry. A key with
//! no room stays server-only, as a key refused by a full table does.
//!
//! ```text
//! before (exact main table):   insert conns[k] = v   → table write `conns: k → conns_hit(v)`
//! after (hashed):              insert conns[k] = v   → slot = allocator.insert(k)
//!                                                      register write conns_w{way}[slot] = fp(k) ++ v
//!                                                      (collision) table write `conns_col: k → alt(way, slot)`
//! ```
//!
//! These writes happen where main-table writes happen: at install and when the engine retires
//! a batch, while the write-back table (an exact table in front of the registers) still shows
//! the batch, so packets never see a half-written key.
//!
//! The allocator relocates ([`RELOCATE_DEPTH`] keys deep, `SlotAllocator::relocating`): a
//! new key with no candidate it may take moves placed keys to other candidates of theirs.
//! Each moved key's cell is written at its new slot before its old slot is cleared (the
//! engine mirrors the cells it wrote to know what to copy), in the same flush as the new
//! key, so every key reads its own value at every step.

use tandem_ir::MapMatch;
use tandem_p4::manifest::HashedMap;
use tandem_partition::hashed::{HashedLayout, KeyCheck, Slot, SlotAllocator};

/// How many keys deep the runtime's allocator relocates to make room for a new key.
pub(crate) const RELOCATE_DEPTH: u32 = 3;

use super::{send_exact, send_register, OpBuf, SyncStats, HIT};
use crate::control::{ControlFailure, ControlPlane, RetryPolicy};
use crate::hashed_ageing::{SlotIndex, TimeUnit};
use crate::primary::Primary;

/// A write to the per-slot hit times (`crate::hashed_ageing`).
#[derive(Clone, Debug)]
enum TimeOp {
    /// A key was placed at (way, slot): the slot's time becomes the key's last use in the
    /// primary copy (a time the switch finds stale when it is not known).
    Place(u32, u64, Vec<u64>),
    /// A key moved from one (way, slot) to another: its hits move along.
    Copy((u32, u64), (u32, u64)),
}

/// How the slots of a map that expires are timed: the unit of the switch's hit times, the
/// largest age the switch answers, and the map whose last uses the placements copy.
#[derive(Clone, Copy, Debug)]
pub(super) struct SlotTimes {
    pub unit: TimeUnit,
    /// `hashed.hit_time_ttl_units`.
    pub ttl_units: u64,
    /// The expiring map holding the keys' last uses (the map itself, or the original of a
    /// derived class map).
    pub state: Option<u32>,
}
use crate::OffloadError;

/// The expiring map whose last uses time the slots of hashed map `sid`: the map itself
/// when it expires, else the original of a derived class map (`NAME__class` → `NAME`).
pub(super) fn expiring_original(module: &tandem_ir::Module, sid: u32) -> Option<u32> {
    let expiring = |id: tandem_ir::StateId| {
        matches!(
            module.states[id].kind,
            tandem_ir::StateKind::ExpiringMap { .. }
        )
    };
    let id = tandem_ir::StateId::from_u32(sid);
    if expiring(id) {
        return Some(sid);
    }
    let orig = tandem_partition::class_map_of(&module.states[id].name)?;
    let o = module.state_by_name(orig)?;
    expiring(o).then(|| o.as_u32())
}

/// One hashed map's registers, collision table and allocator.
#[derive(Debug)]
pub(super) struct HashedSync {
    alloc: SlotAllocator,
    /// The cell last written per way and slot (what a relocated key's cell holds).
    written: Vec<Vec<u64>>,
    registers: Vec<String>,
    value_bits: Vec<u32>,
    /// Cell writes queued: (way, slot, cell).
    cells: Vec<(u32, u64, u64)>,
    col: OpBuf,
    /// The hit-time register of each way (empty: the map does not age).
    times: Vec<String>,
    /// Hit-time writes queued, in order.
    time_ops: Vec<TimeOp>,
    /// Where each key sits, for the ageing pull (kept only when `times` is set).
    index: SlotIndex,
    /// How the slots are timed (when `times` is set).
    timing: Option<SlotTimes>,
    /// The latest time (ns) the primary copy showed: a placement whose key's last use is
    /// not known gets a time this far behind that the switch finds it stale.
    clock_ns: u64,
    /// Tests only (the negative control of packed words): a slot's write does not keep the
    /// other slots of its word.
    lossy_words: bool,
}

impl HashedSync {
    /// From the manifest's description; `key_bits`/`value_bits` from the map's layouts.
    pub(super) fn new(
        name: &str,
        h: &HashedMap,
        collision_action: String,
        key_bits: Vec<u32>,
        value_bits: Vec<u32>,
        last_use_state: Option<u32>,
    ) -> Result<HashedSync, OffloadError> {
        let bad = |m: String| OffloadError::Manifest(format!("hashed `{name}`: {m}"));
        if h.registers.len() != h.ways as usize {
            return Err(bad(format!(
                "{} registers for {} ways",
                h.registers.len(),
                h.ways
            )));
        }
        let vw: u32 = value_bits.iter().sum();
        if (h.fingerprint_bits + vw) * (h.slots_per_word.max(1) as u32) > h.cell_bits
            || h.cell_bits > 64
        {
            return Err(bad(format!(
                "a {}-bit fingerprint and {vw} value bits in a {}-bit cell",
                h.fingerprint_bits, h.cell_bits
            )));
        }
        let mut layout = HashedLayout::new(
            h.ways,
            h.slots_per_way,
            KeyCheck::Fingerprint(h.fingerprint_bits),
            key_bits,
            vw,
            h.collision_entries,
        )
        .map_err(|e| bad(e.to_string()))?;
        if h.slots_per_word > 1 {
            layout = layout.with_packing().map_err(|e| bad(e.to_string()))?;
            if layout.slots_per_word() != h.slots_per_word
                || layout.slots_per_way != h.slots_per_way
            {
                return Err(bad(format!(
                    "{} slots packed {} to a word; the layout packs {} slots {} to a word",
                    h.slots_per_way,
                    h.slots_per_word,
                    layout.slots_per_way,
                    layout.slots_per_word()
                )));
            }
        }
        if !h.hit_time_registers.is_empty() && h.hit_time_registers.len() != h.ways as usize {
            return Err(bad(format!(
                "{} hit-time registers for {} ways",
                h.hit_time_registers.len(),
                h.ways
            )));
        }
        let timing = (!h.hit_time_registers.is_empty()).then_some(SlotTimes {
            unit: TimeUnit {
                unit_ns: h.hit_time_unit_ns,
                bits: h.hit_time_bits,
            },
            ttl_units: h.hit_time_ttl_units,
            state: last_use_state,
        });
        Ok(HashedSync {
            lossy_words: false,
            timing,
            clock_ns: 0,
            times: h.hit_time_registers.clone(),
            time_ops: Vec::new(),
            index: SlotIndex::default(),
            written: vec![vec![0; layout.slots_per_way as usize]; layout.ways as usize],
            alloc: SlotAllocator::new(layout).relocating(RELOCATE_DEPTH),
            registers: h.registers.clone(),
            value_bits,
            cells: Vec::new(),
            col: OpBuf::new(&h.collision_table, vec![collision_action], MapMatch::Exact),
        })
    }

    /// The allocator's counts (keys without room are not kept, so `on_server` is 0).
    pub(super) fn stats(&self) -> tandem_partition::hashed::AllocatorStats {
        self.alloc.stats()
    }

    /// Where each key sits (shared; kept current only when the map records hit times).
    pub(super) fn slot_index(&self) -> Option<SlotIndex> {
        (!self.times.is_empty()).then(|| self.index.clone())
    }

    /// The collision table.
    pub(super) fn collision_table(&self) -> &str {
        &self.col.table[0]
    }

    /// The cell of `key` → `value`: the key's fingerprint, then the value's fields.
    fn cell(&self, key: &[u64], value: &[u64]) -> u64 {
        let fp = match self.alloc.layout().fingerprint(key) {
            Ok(Some(f)) => f,
            _ => 0,
        };
        self.cell_with(fp, value)
    }

    /// The cell of a key whose fingerprint is `fp`, holding `value`.
    fn cell_with(&self, fp: u64, value: &[u64]) -> u64 {
        let mut c = fp;
        for (&v, &b) in value.iter().zip(&self.value_bits) {
            let mask = if b >= 64 { u64::MAX } else { (1u64 << b) - 1 };
            c = (c << b) | (v & mask);
        }
        c
    }

    /// Queues the writes that make the switch show `key` → `value`; `false` when the key has
    /// no room (it stays on the server).
    pub(super) fn put(&mut self, key: &[u64], value: &[u64]) -> bool {
        let known = self.alloc.get(key);
        let slot = match known {
            Some(s) => s,
            None => match self.alloc.insert(key) {
                Ok(s) => {
                    for m in self.alloc.take_moves() {
                        let cell = self.written[m.from.0 as usize][m.from.1 as usize];
                        self.push_cell(m.to.0, m.to.1, cell);
                        self.push_cell(m.from.0, m.from.1, 0);
                        if !self.times.is_empty() {
                            self.time_ops.push(TimeOp::Copy(m.from, m.to));
                            self.index.place(&m.key, m.to.0, m.to.1 as u32);
                        }
                    }
                    s
                }
                Err(_) => return false,
            },
        };
        let Some((way, index)) = slot.at() else {
            // No room: forget it, so a later write of the key tries again.
            let _ = self.alloc.remove(key);
            return false;
        };
        let cell = match known {
            // A placed key's cell holds its fingerprint already (moves carry the cell
            // along): a new value does not hash the key again.
            Some(_) => {
                let vw: u32 = self.value_bits.iter().sum();
                let old = self.written[way as usize][index as usize];
                self.cell_with(old.checked_shr(vw).unwrap_or(0), value)
            }
            None => self.cell(key, value),
        };
        self.push_cell(way, index, cell);
        if known.is_none() && !self.times.is_empty() {
            self.time_ops.push(TimeOp::Place(way, index, key.to_vec()));
            self.index.place(key, way, index as u32);
        }
        if known.is_none() {
            if let Slot::Collision { way, slot } = slot {
                let args = self.alt_args(way, slot);
                self.col.entry(false, key, HIT, &args);
            }
        }
        true
    }

    /// Mirrors `cell` at (way, slot) and queues the register write that shows it: the
    /// slot's cell, or — slots packed `k` to a 32-bit word — the whole word `slot / k`,
    /// composed from the mirror so the word's other slots keep what they hold (slot `p` of
    /// a word is bits `[p·b, p·b + b)`, `tandem_partition::hashed::HashedLayout::packed`).
    /// Writes go out in this order, so a relocation's new cell is shown before its old one
    /// is cleared, word or not.
    fn push_cell(&mut self, way: u32, index: u64, cell: u64) {
        self.written[way as usize][index as usize] = cell;
        let k = self.alloc.layout().slots_per_word();
        if k <= 1 {
            self.cells.push((way, index, cell));
            return;
        }
        let b = self.alloc.layout().slot_bits();
        let mask = (1u64 << b) - 1;
        let word = index / k;
        let value = if self.lossy_words {
            (cell & mask) << ((index % k) * b)
        } else {
            let row = &self.written[way as usize];
            (0..k).fold(0, |acc, p| {
                acc | ((row[(word * k + p) as usize] & mask) << (p * b))
            })
        };
        self.cells.push((way, word, value));
    }

    /// Tests: writes a slot's word without the word's other slots (the negative control).
    #[cfg(test)]
    pub(super) fn lose_word_neighbours(&mut self) {
        self.lossy_words = true;
    }

    /// The collision entry's action arguments for a key at (way, slot): way and slot, and
    /// for packed slots also the word and the position in it (the switch cannot divide).
    fn alt_args(&self, way: u32, slot: u64) -> Vec<u64> {
        let k = self.alloc.layout().slots_per_word();
        if k <= 1 {
            vec![u64::from(way), slot]
        } else {
            vec![u64::from(way), slot, slot / k, slot % k]
        }
    }

    /// Queues the writes that erase `key` from the switch.
    pub(super) fn delete(&mut self, key: &[u64]) {
        if let Ok(Some(slot)) = self.alloc.remove(key) {
            if !self.times.is_empty() {
                self.index.remove(key);
            }
            if let Some((way, index)) = slot.at() {
                self.push_cell(way, index, 0);
            }
            if matches!(slot, Slot::Collision { .. }) {
                self.col.delete(key);
            }
        }
    }

    /// The hit time a key placed now gets: its last use in the primary copy, in the switch's
    /// units (the switch answers it until the NF would forget it, then sends its packets to
    /// the server); without one, a time the switch finds stale (the server decides).
    fn placement_time(&mut self, key: &[u64], primary: Option<&Primary>) -> u64 {
        let Some(t) = self.timing else {
            return 0;
        };
        if let Some(p) = primary {
            self.clock_ns = self.clock_ns.max(p.now());
            if let Some(ns) = t.state.and_then(|s| p.last_used_ref(s, key)) {
                return t.unit.units(ns);
            }
        }
        t.unit.units(self.clock_ns).wrapping_sub(t.ttl_units + 1) & t.unit.mask()
    }

    /// Sends the queued writes: the cells, then the collision table's entries (one request).
    /// `primary` gives placed keys their last use (docs/hashed-storage.md, ageing).
    pub(super) fn flush(
        &mut self,
        policy: &RetryPolicy,
        stats: &mut SyncStats,
        cp: &mut dyn ControlPlane,
        primary: Option<&Primary>,
    ) -> Result<(), ControlFailure> {
        // Hit times first: a moved key's hits are copied before its old cell is cleared.
        for op in std::mem::take(&mut self.time_ops) {
            let (way, index, t) = match op {
                TimeOp::Place(way, index, key) => (way, index, self.placement_time(&key, primary)),
                TimeOp::Copy((fw, fi), (tw, ti)) => {
                    let r = &self.times[fw as usize];
                    let t = policy.run(&mut stats.retries, || cp.register_read(r, fi as u32))?;
                    stats.requests += 1;
                    (tw, ti, t)
                }
            };
            send_register(
                policy,
                stats,
                cp,
                &self.times[way as usize],
                index as u32,
                t,
            )?;
            stats.register_writes += 1;
        }
        for &(way, index, cell) in &self.cells {
            send_register(
                policy,
                stats,
                cp,
                &self.registers[way as usize],
                index as u32,
                cell,
            )?;
            stats.register_writes += 1;
        }
        self.cells.clear();
        send_exact(policy, stats, cp, &self.col.batch())?;
        self.col.clear();
        Ok(())
    }

    /// Clears every occupied cell and forgets every key (a resync; the collision table is
    /// cleared with the other tables).
    pub(super) fn reset(
        &mut self,
        policy: &RetryPolicy,
        stats: &mut SyncStats,
        cp: &mut dyn ControlPlane,
    ) -> Result<(), ControlFailure> {
        let occupied: Vec<(u32, u64)> = self.alloc.occupied().collect();
        self.cells.clear();
        self.col.clear();
        self.time_ops.clear();
        self.index.clear();
        for w in self.written.iter_mut() {
            w.fill(0);
        }
        for (way, index) in occupied {
            self.push_cell(way, index, 0);
        }
        self.alloc = SlotAllocator::new(self.alloc.layout().clone()).relocating(RELOCATE_DEPTH);
        let cells = std::mem::take(&mut self.cells);
        for (way, index, cell) in cells {
            send_register(
                policy,
                stats,
                cp,
                &self.registers[way as usize],
                index as u32,
                cell,
            )?;
            stats.register_writes += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
