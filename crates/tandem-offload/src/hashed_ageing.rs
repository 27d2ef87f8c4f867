//! Ageing of maps held in hash-indexed registers (docs/hashed-storage.md): the switch's
//! hits on such a map must count as uses of the server's expiring map.
//!
//! A hashed map has no table entries, so the switch's idle-timeout machinery
//! ([`crate::ageing`]) cannot see its hits. The switch program records them instead: per way a
//! register of last-hit times, one cell per slot, written by every lookup that hits the slot
//! (`tandem_p4::lower::hashed`, manifest `hashed.hit_time_registers`). The runtime knows
//! where each key sits (the sync engine's slot allocator publishes it in a [`SlotIndex`]),
//! so the server can read a key's last hit: lazily, when its own copy of the key looks
//! expired at a look-up ([`HashedAgeReader::last`], on a control plane that gives register
//! readers), or for every placed key at a pull ([`HashedAgeReader::drain_into`], and through
//! the control plane's `register_read` otherwise).
//!
//! ```text
//! before (CoFilter, 2 s idle timeout): `table__class` hashed, data packets answered on
//!   the switch; the server's `table` sees nothing of them
//!   0.0 s  SYN  -> server: insert table, table__class (slot w1[77])
//!   1.5 s  data -> switch: table__class hit (no trace)
//!   3.0 s  data -> switch: table__class hit (no trace)
//!   3.2 s  FIN  -> server: table[k] last used 0.0 s -> expired  (NF: used 3.0 s -> alive)
//! after:
//!   1.5 s, 3.0 s  data -> switch: table__class hit, table__class_t1[77] = now
//!   3.2 s  FIN  -> server: table[k] looks expired -> slot w1[77] -> last hit 3.0 s -> alive
//! ```
//!
//! A slot's time cell is cleared when a key is placed there and copied along when a key is
//! relocated, so a key never inherits another's hits nor loses its own. Resolution: the
//! architecture's timestamp (v1model: 1 µs; TNA: 1,024 ns, wrapping every 2^32 units ≈ 73
//! minutes, unwrapped against the server's clock): a hit is read as the start of its unit,
//! so at most one unit of idle time before the timeout the server may see a key expire
//! that the NF still holds.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tandem_switch::AgeList;

/// Reads one cell of a switch register on demand (`ControlPlane::register_reader`).
pub type RegisterReader = Arc<dyn Fn(u32) -> Option<u64> + Send + Sync>;

/// Where each key of one hashed map sits on the switch: way and slot, as the sync engine
/// last wrote them (shared with the ageing pull).
#[derive(Clone, Debug, Default)]
pub struct SlotIndex(Arc<Mutex<Slots>>);

/// Key → (way, slot).
type Slots = HashMap<Vec<u64>, (u32, u32)>;

impl SlotIndex {
    fn map(&self) -> std::sync::MutexGuard<'_, Slots> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `key` now sits at `way`, `slot`.
    pub fn place(&self, key: &[u64], way: u32, slot: u32) {
        self.map().insert(key.to_vec(), (way, slot));
    }

    /// `key` left the switch.
    pub fn remove(&self, key: &[u64]) {
        self.map().remove(key);
    }

    /// Forgets every key.
    pub fn clear(&self) {
        self.map().clear();
    }

    /// Where `key` sits.
    pub fn get(&self, key: &[u64]) -> Option<(u32, u32)> {
        self.map().get(key).copied()
    }

    /// Every placed key with its way and slot.
    pub fn entries(&self) -> Vec<(Vec<u64>, u32, u32)> {
        self.map()
            .iter()
            .map(|(k, &(w, s))| (k.clone(), w, s))
            .collect()
    }
}

/// How a hit time read from the switch becomes nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct TimeUnit {
    /// Nanoseconds per unit.
    pub unit_ns: u64,
    /// Bits of a time cell (it wraps at `2^bits` units).
    pub bits: u32,
}

impl TimeUnit {
    /// The cell the switch holds for a time of `ns`: its unit count, wrapped to the cell.
    pub fn units(self, ns: u64) -> u64 {
        (ns / self.unit_ns.max(1)) & self.mask()
    }

    /// The largest cell value.
    pub fn mask(self) -> u64 {
        if self.bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.bits) - 1
        }
    }

    /// The hit time `cell` (0: never hit) in ns: the time nearest `now_ns` (the server's
    /// clock, which may lag the switch's) whose unit count ends in `cell`.
    pub fn to_ns(self, cell: u64, now_ns: u64) -> Option<u64> {
        if cell == 0 || self.unit_ns == 0 {
            return None;
        }
        let now = now_ns / self.unit_ns;
        let units = if self.bits >= 64 {
            cell
        } else {
            let m = (1u64 << self.bits) - 1;
            let back = now.wrapping_sub(cell) & m;
            if back <= m / 2 {
                now.checked_sub(back).unwrap_or(cell)
            } else {
                // ahead of the server's clock
                now + ((cell.wrapping_sub(now)) & m)
            }
        };
        Some(units * self.unit_ns)
    }
}

/// The last hits of one hashed map's keys, read on demand from the switch.
#[derive(Clone)]
pub struct HashedAgeReader {
    /// Where each key sits.
    pub index: SlotIndex,
    /// The time register of each way.
    pub registers: Vec<RegisterReader>,
    /// The cells' unit.
    pub unit: TimeUnit,
}

impl std::fmt::Debug for HashedAgeReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HashedAgeReader")
            .field("ways", &self.registers.len())
            .field("unit", &self.unit)
            .finish()
    }
}

impl HashedAgeReader {
    /// The last hit (ns) of `key` on the switch, if it sits there and was hit.
    pub fn last(&self, key: &[u64], now_ns: u64) -> Option<u64> {
        let (way, slot) = self.index.get(key)?;
        let cell = self.registers.get(way as usize)?(slot)?;
        self.unit.to_ns(cell, now_ns)
    }

    /// Every placed key that was hit, with its last hit, into `out` (cleared first).
    pub fn drain_into(&self, out: &mut AgeList, now_ns: u64) {
        out.clear();
        for (k, way, slot) in self.index.entries() {
            let Some(read) = self.registers.get(way as usize) else {
                continue;
            };
            if let Some(t) = read(slot).and_then(|c| self.unit.to_ns(c, now_ns)) {
                out.push(&k, t);
            }
        }
    }
}

/// A source of a switch copy's last hits per key: an age group of tables, or a hashed map's
/// time registers.
#[derive(Clone, Debug)]
pub enum AgeSource {
    /// Tables with idle timeouts ([`tandem_switch::AgeReader`]).
    Tables(tandem_switch::AgeReader),
    /// A hashed map's per-slot hit times.
    Hashed(HashedAgeReader),
}

impl AgeSource {
    /// `key`'s last hit (ns).
    pub fn last(&self, key: &[u64], now_ns: u64) -> Option<u64> {
        match self {
            AgeSource::Tables(r) => r.last(key),
            AgeSource::Hashed(r) => r.last(key, now_ns),
        }
    }

    /// The keys hit (since the last poll, for tables; every hit key, for a hashed map:
    /// refreshing a key to a time it already has changes nothing) into `out`.
    pub fn drain_into(&self, out: &mut AgeList, now_ns: u64) {
        match self {
            AgeSource::Tables(r) => r.drain_into(out),
            AgeSource::Hashed(r) => r.drain_into(out, now_ns),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_times_unwrap_against_the_clock() {
        let us = TimeUnit {
            unit_ns: 1000,
            bits: 48,
        };
        assert_eq!(us.to_ns(0, 5_000_000), None);
        assert_eq!(us.to_ns(1500, 5_000_000), Some(1_500_000));
        let tna = TimeUnit {
            unit_ns: 1024,
            bits: 32,
        };
        // now is 2^32 + 10 units: a cell of 5 is 5 units before now, not 2^32 + 5
        let now = ((1u64 << 32) + 10) * 1024;
        assert_eq!(tna.to_ns(5, now), Some(((1u64 << 32) + 5) * 1024));
        // a cell a little past now's low bits: the switch's clock is ahead of the server's
        assert_eq!(tna.to_ns(20, now), Some(((1u64 << 32) + 20) * 1024));
        // far past them: the previous lap
        assert_eq!(
            tna.to_ns(1 << 31 | 20, now),
            Some(((1u64 << 31) + 20) * 1024)
        );
        // v1model's µs never wrap in practice; a server clock behind the hit still reads it
        assert_eq!(us.to_ns(1500, 1_000_000), Some(1_500_000));
    }
}
