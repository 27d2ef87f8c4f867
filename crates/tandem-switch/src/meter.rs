//! v1model's `meter` extern: arrays of two-rate three-colour markers (RFC 2698,
//! colour-blind) with BMv2's algorithm — peak bucket first, then committed; red takes no
//! tokens, yellow takes peak tokens only — in exact integer arithmetic on the packet's time
//! (the time given to [`crate::Worker::process_at`], in ns), so that a run is reproducible.
//! This is the same definition as the NF API's `tandem::Meter` (docs/nf-api.md); it is
//! written here again, independently, and the tests hold the two against each other.
//!
//! Rates are in units per second and bursts in units (P4Runtime's `MeterConfig`); a unit is a
//! byte of `standard_metadata.packet_length` (`MeterType.bytes`) or a packet
//! (`MeterType.packets`). Tokens accrue as `floor(t * rate / 10^9)` counted from time 0, so
//! refills never round away tokens. A meter never configured (all rates and bursts 0) is
//! green, as in BMv2. Colours: 0 green, 1 yellow, 2 red.

use std::sync::Mutex;

use rustc_hash::FxHashMap;

/// One meter's configuration and state, as the control plane reads and writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MeterCell {
    /// Committed information rate, units per second.
    pub cir: u64,
    /// Committed burst, units.
    pub cburst: u64,
    /// Peak information rate, units per second.
    pub pir: u64,
    /// Peak burst, units.
    pub pburst: u64,
    /// Committed bucket level.
    pub tc: u64,
    /// Peak bucket level.
    pub tp: u64,
    /// Packet time (ns) of the last refill.
    pub last_ns: u64,
}

impl MeterCell {
    /// A freshly configured meter: full buckets, refilled last at time 0 (what setting the
    /// rates through the control plane does).
    pub fn with_rates(cir: u64, cburst: u64, pir: u64, pburst: u64) -> MeterCell {
        MeterCell {
            cir,
            cburst,
            pir,
            pburst,
            tc: cburst,
            tp: pburst,
            last_ns: 0,
        }
    }

    /// The seven words `cir, cburst, pir, pburst, tc, tp, last_ns`.
    pub fn words(&self) -> [u64; 7] {
        [
            self.cir,
            self.cburst,
            self.pir,
            self.pburst,
            self.tc,
            self.tp,
            self.last_ns,
        ]
    }

    /// The inverse of [`MeterCell::words`].
    pub fn from_words(w: &[u64; 7]) -> MeterCell {
        let [cir, cburst, pir, pburst, tc, tp, last_ns] = *w;
        MeterCell {
            cir,
            cburst,
            pir,
            pburst,
            tc,
            tp,
            last_ns,
        }
    }

    /// Executes the meter for `units` at `now_ns`; the colour.
    pub fn execute(&mut self, now_ns: u64, units: u64) -> u8 {
        if self.cir == 0 && self.cburst == 0 && self.pir == 0 && self.pburst == 0 {
            return 0;
        }
        if now_ns > self.last_ns {
            let add = |rate: u64| {
                let at = |t: u64| u128::from(t) * u128::from(rate) / 1_000_000_000;
                at(now_ns) - at(self.last_ns)
            };
            let (ac, ap) = (add(self.cir), add(self.pir));
            self.tc = (u128::from(self.tc) + ac).min(u128::from(self.cburst)) as u64;
            self.tp = (u128::from(self.tp) + ap).min(u128::from(self.pburst)) as u64;
            self.last_ns = now_ns;
        }
        // BMv2 (`Meter::execute`): rates from the highest (peak) down; the first whose
        // bucket cannot cover the packet gives its colour, and buckets before it pay.
        if self.tp < units {
            2
        } else if self.tc < units {
            self.tp -= units;
            1
        } else {
            self.tp -= units;
            self.tc -= units;
            0
        }
    }
}

/// A meter array's cells (only those ever configured are stored).
pub(crate) struct MeterArray {
    pub size: u32,
    pub bytes: bool,
    pub cells: Mutex<FxHashMap<u32, MeterCell>>,
}

impl MeterArray {
    pub(crate) fn new(size: u32, bytes: bool) -> MeterArray {
        MeterArray {
            size,
            bytes,
            cells: Mutex::new(FxHashMap::default()),
        }
    }

    /// `execute_meter(index, out color)` for a packet of `len` bytes at `now_ns`; an index
    /// out of range is green (v1model leaves the result unspecified; nothing is updated).
    pub(crate) fn execute(&self, index: u64, len: u64, now_ns: u64) -> u8 {
        if index >= u64::from(self.size) {
            return 0;
        }
        let units = if self.bytes { len } else { 1 };
        let mut cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
        match cells.get_mut(&(index as u32)) {
            Some(c) => c.execute(now_ns, units),
            None => 0,
        }
    }

    pub(crate) fn read(&self, index: u32) -> MeterCell {
        let cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
        cells.get(&index).copied().unwrap_or_default()
    }

    pub(crate) fn write(&self, index: u32, cell: MeterCell) {
        let mut cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
        if cell == MeterCell::default() {
            cells.remove(&index);
        } else {
            cells.insert(index, cell);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 2698 by hand: 8 packets/s committed (burst 2), 16/s peak (burst 3).
    #[test]
    fn colours_by_hand() {
        let mut m = MeterCell::with_rates(8, 2, 16, 3);
        let t = 10_000_000_000;
        let c: Vec<u8> = (0..4).map(|_| m.execute(t, 1)).collect();
        assert_eq!(c, [0, 0, 1, 2]);
        // 125 ms: +1 committed, +2 peak (tp 0 -> 2, tc 0 -> 1).
        assert_eq!(m.execute(t + 125_000_000, 1), 0);
        assert_eq!((m.tc, m.tp), (0, 1));
        assert_eq!(m.execute(t + 125_000_000, 1), 1);
        assert_eq!(m.execute(t + 125_000_000, 1), 2);
    }

    #[test]
    fn array_bounds_and_unconfigured() {
        let a = MeterArray::new(4, true);
        assert_eq!(a.execute(0, 100, 5), 0);
        a.write(1, MeterCell::with_rates(1, 0, 1, 0));
        assert_eq!(a.execute(1, 100, 5), 2);
        assert_eq!(a.execute(4, 100, 5), 0);
        assert_eq!(a.read(1).last_ns, 5);
        a.write(1, MeterCell::default());
        assert_eq!(a.execute(1, 100, 6), 0);
    }
}
