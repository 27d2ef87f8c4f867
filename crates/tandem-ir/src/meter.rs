//! Meters: arrays of two-rate three-colour markers (RFC 2698, colour-blind) — the NF API's
//! `tandem::Meter`, the NF IR's `meter` state and `meter.execute`, v1model's `meter` extern
//! and TNA's `Meter`. This module is the reference for their integer semantics; the native
//! build (`nfapi/include/tandem/meter.hh`), Tandem's software switch and the server partition
//! compute the same colours bit for bit.
//!
//! A meter cell holds its configuration — committed and peak rate in units per second
//! (`cir`, `pir`), committed and peak burst in units (`cburst`, `pburst`), as P4Runtime's
//! `MeterConfig` — and its state: the two bucket levels `tc`, `tp` and the packet time of the
//! last refill `last_ns`. A unit is a byte of the frame ([`MeterUnit::Bytes`]) or a packet
//! ([`MeterUnit::Packets`]). Executing it at packet time `now` (ns) for `n` units:
//!
//! 1. A cell whose four configuration words are all 0 is unconfigured: [`GREEN`], no change
//!    (BMv2's unconfigured meter).
//! 2. If `now > last_ns`: with `tokens(t, r) = floor(t * r / 10^9)` (exact, 128-bit),
//!    `tc = min(tc + tokens(now, cir) - tokens(last_ns, cir), cburst)`, likewise `tp` with
//!    `pir` and `pburst`, and `last_ns = now`. An earlier or equal `now` adds nothing.
//! 3. `tp < n`: [`RED`]. Else `tp -= n`; then `tc < n`: [`YELLOW`]. Else `tc -= n`:
//!    [`GREEN`].
//!
//! Setting a cell's rates fills both buckets (`tc = cburst`, `tp = pburst`) and sets
//! `last_ns = 0`. Counting tokens from time 0 rather than between refills makes the
//! arithmetic exact: the tokens added over any run of refills telescope to
//! `tokens(t_end, r) - tokens(t_start, r)`, and refilling both buckets at every execution is
//! the same as BMv2's refilling only the buckets it looks at (capping is idempotent).

/// The colour [`MeterCell::execute`] returns for traffic within the committed rate.
pub const GREEN: u8 = 0;
/// Above the committed rate, within the peak rate.
pub const YELLOW: u8 = 1;
/// Above the peak rate.
pub const RED: u8 = 2;

/// What a meter counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MeterUnit {
    /// One unit per packet.
    Packets,
    /// One unit per byte of the frame (its length as it arrived).
    Bytes,
}

impl MeterUnit {
    /// The text-form name (`packets`, `bytes`), also v1model's `MeterType` member.
    pub fn name(self) -> &'static str {
        match self {
            MeterUnit::Packets => "packets",
            MeterUnit::Bytes => "bytes",
        }
    }

    /// Parses [`MeterUnit::name`].
    pub fn from_name(s: &str) -> Option<MeterUnit> {
        match s {
            "packets" => Some(MeterUnit::Packets),
            "bytes" => Some(MeterUnit::Bytes),
            _ => None,
        }
    }

    /// The units a packet of `frame_len` bytes counts for.
    pub fn amount(self, frame_len: u64) -> u64 {
        match self {
            MeterUnit::Packets => 1,
            MeterUnit::Bytes => frame_len,
        }
    }
}

/// One meter: configuration and bucket state (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MeterCell {
    /// Committed information rate, units per second.
    pub cir: u64,
    /// Committed burst size, units.
    pub cburst: u64,
    /// Peak information rate, units per second.
    pub pir: u64,
    /// Peak burst size, units.
    pub pburst: u64,
    /// Committed bucket level, units.
    pub tc: u64,
    /// Peak bucket level, units.
    pub tp: u64,
    /// Packet time of the last refill, ns.
    pub last_ns: u64,
}

/// `floor(t * r / 10^9)`, exact.
fn tokens(t: u64, r: u64) -> u128 {
    u128::from(t) * u128::from(r) / 1_000_000_000
}

fn refill(level: u64, burst: u64, now: u64, last: u64, rate: u64) -> u64 {
    let sum = u128::from(level) + (tokens(now, rate) - tokens(last, rate));
    sum.min(u128::from(burst)) as u64
}

impl MeterCell {
    /// The names of the seven words, in dump order.
    pub const FIELDS: [&'static str; 7] = ["cir", "cburst", "pir", "pburst", "tc", "tp", "last_ns"];

    /// A configured cell with full buckets (`set_rates`).
    pub fn configured(cir: u64, cburst: u64, pir: u64, pburst: u64) -> MeterCell {
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

    /// Whether any configuration word is non-zero.
    pub fn is_configured(&self) -> bool {
        (self.cir | self.cburst | self.pir | self.pburst) != 0
    }

    /// Whether every word is zero (a meter never configured).
    pub fn is_zero(&self) -> bool {
        *self == MeterCell::default()
    }

    /// The seven words, in [`MeterCell::FIELDS`] order.
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

    /// A cell from [`MeterCell::words`] (missing words are 0).
    pub fn from_words(w: &[u64]) -> MeterCell {
        let g = |i: usize| w.get(i).copied().unwrap_or(0);
        MeterCell {
            cir: g(0),
            cburst: g(1),
            pir: g(2),
            pburst: g(3),
            tc: g(4),
            tp: g(5),
            last_ns: g(6),
        }
    }

    /// Executes the meter for `amount` units at packet time `now_ns`; returns the colour
    /// ([`GREEN`], [`YELLOW`], [`RED`]).
    pub fn execute(&mut self, now_ns: u64, amount: u64) -> u8 {
        if !self.is_configured() {
            return GREEN;
        }
        if now_ns > self.last_ns {
            self.tc = refill(self.tc, self.cburst, now_ns, self.last_ns, self.cir);
            self.tp = refill(self.tp, self.pburst, now_ns, self.last_ns, self.pir);
            self.last_ns = now_ns;
        }
        if self.tp < amount {
            return RED;
        }
        self.tp -= amount;
        if self.tc < amount {
            return YELLOW;
        }
        self.tc -= amount;
        GREEN
    }

    /// The layout of a cell in state dumps: seven `i64` words at offsets 0, 8, … 48, struct
    /// size 56 (the native `tandem::detail::MeterCell`).
    pub fn layout() -> crate::Layout {
        crate::Layout::with_offsets(
            MeterCell::FIELDS
                .iter()
                .enumerate()
                .map(|(i, n)| (*n, crate::Type::I64, 8 * i as u32)),
            56,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// Hand-computed: 1000 bytes/s committed (burst 300), 2000 bytes/s peak (burst 500).
    #[test]
    fn colours_by_hand() {
        let mut m = MeterCell::configured(1000, 300, 2000, 500);
        // t = 1 s: refill from time 0 fills both (already full). 200 B: green (tc 100, tp 300).
        assert_eq!(m.execute(1_000 * MS, 200), GREEN);
        assert_eq!((m.tc, m.tp), (100, 300));
        // Same instant, 200 B: tc 100 < 200 -> yellow, tp 100.
        assert_eq!(m.execute(1_000 * MS, 200), YELLOW);
        assert_eq!((m.tc, m.tp), (100, 100));
        // Same instant, 200 B: tp 100 < 200 -> red, nothing taken.
        assert_eq!(m.execute(1_000 * MS, 200), RED);
        assert_eq!((m.tc, m.tp), (100, 100));
        // 50 ms later: +50 committed, +100 peak -> tc 150, tp 200; 150 B green.
        assert_eq!(m.execute(1_050 * MS, 150), GREEN);
        assert_eq!((m.tc, m.tp, m.last_ns), (0, 50, 1_050 * MS));
        // 0.9 ms later: floor(1050.9) - 1050 = 0 committed tokens, floor(2101.8) - 2100 = 1
        // peak token: tp 51 covers 1 B (tp 50), tc 0 does not -> yellow.
        assert_eq!(m.execute(1_050_900_000, 1), YELLOW);
        assert_eq!((m.tc, m.tp), (0, 50));
    }

    #[test]
    fn packets_meter_and_caps() {
        // 10 packets/s, burst 2, peak 20/s, burst 4.
        let mut m = MeterCell::configured(10, 2, 20, 4);
        let c: Vec<u8> = (0..5).map(|_| m.execute(5 * 1_000 * MS, 1)).collect();
        assert_eq!(c, vec![GREEN, GREEN, YELLOW, YELLOW, RED]);
        // A long gap refills to the bursts, never beyond.
        m.execute(100_000 * MS, 0);
        assert_eq!((m.tc, m.tp), (2, 4));
    }

    #[test]
    fn unconfigured_time_backwards_and_huge_values() {
        let mut z = MeterCell::default();
        assert_eq!(z.execute(7, 1_000_000), GREEN);
        assert!(z.is_zero());
        let mut m = MeterCell::configured(1, 0, 1, 0);
        assert_eq!(
            m.execute(10 * 1_000 * MS, 1),
            RED,
            "zero bursts block everything"
        );
        let mut m = MeterCell::configured(u64::MAX, u64::MAX, u64::MAX, u64::MAX);
        assert_eq!(m.execute(u64::MAX, u64::MAX), GREEN);
        let mut m = MeterCell::configured(1000, 100, 1000, 100);
        m.execute(2_000 * MS, 100);
        let before = m;
        assert_eq!(
            m.execute(1_000 * MS, 1),
            RED,
            "an earlier time adds nothing"
        );
        assert_eq!(m.last_ns, before.last_ns);
    }

    #[test]
    fn refilling_in_steps_is_refilling_at_once() {
        // Telescoping: many small refills add exactly what one large refill adds.
        let (rate, burst) = (333_333_333, u64::MAX);
        let mut a = MeterCell::configured(rate, burst, rate, burst);
        a.tc = 0;
        a.tp = 0;
        let mut b = a;
        for t in (1..=1000).map(|k| k * 7_777) {
            a.execute(t, 0);
        }
        b.execute(7_777_000, 0);
        assert_eq!(a, b);
    }
}
