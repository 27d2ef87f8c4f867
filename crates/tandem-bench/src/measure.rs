//! The in-process measurements: recording the trace, timing the baseline, running the
//! offloaded pair, and the switch alone.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tandem_host::{NativeNf, Verdict};
use tandem_offload::control::{ControlFailure, ControlPlane, ExactBatch};
use tandem_offload::{ControlWrap, Offloaded};
use tandem_switch::{ControlOp, Switch};
use tandem_traffic::{FiveTuple, ReplyRewriter, TracePacket};

use crate::{Baseline, BenchError, FlowBucket, OffloadedFigures, SwitchRate, TraceSummary};

/// Outputs as per-port multisets: count and a commutative sum of frame hashes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Digest {
    ports: BTreeMap<u32, (u64, u64)>,
    dropped: u64,
}

impl Digest {
    /// Adds one verdict.
    pub fn add(&mut self, v: &Verdict) {
        match v {
            Verdict::Send { port, frame } => {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                frame.hash(&mut h);
                let e = self.ports.entry(*port).or_default();
                e.0 += 1;
                e.1 = e.1.wrapping_add(h.finish());
            }
            Verdict::Drop => self.dropped += 1,
        }
    }
}

/// The trace every measurement replays: the packets as the reference host was fed them.
pub struct Recorded {
    pub packets: Vec<TracePacket>,
    /// Flow index of each packet (dense, from 0).
    pub flow: Vec<u32>,
    /// Number of flows.
    pub flows: u64,
    /// The reference host's outputs.
    pub digest: Digest,
}

impl Recorded {
    /// Packets, bytes and flows.
    pub fn summary(&self) -> TraceSummary {
        TraceSummary {
            packets: self.packets.len() as u64,
            bytes: self.packets.iter().map(|p| p.data.len() as u64).sum(),
            flows: self.flows,
        }
    }
}

/// Unordered five-tuple: both directions of a connection map to one flow.
fn flow_key(frame: &[u8]) -> Option<FiveTuple> {
    let t = FiveTuple::of_frame(frame)?;
    Some(t.min(t.reverse()))
}

/// Runs the reference host over `source` (each packet with its generator flow index, or
/// `None` to group by five-tuple) and records the packets as fed: closed loop (`replies`)
/// rewrites replies to the addresses the NF chose for their flow, as real servers would
/// answer. The recording is what every other measurement replays, open loop.
pub fn record(
    nf: &mut NativeNf,
    source: impl Iterator<Item = Result<(Option<u64>, TracePacket), BenchError>>,
    closed_loop: bool,
) -> Result<Recorded, BenchError> {
    let mut replies = closed_loop.then(ReplyRewriter::new);
    let mut ids: HashMap<u64, u32> = HashMap::new();
    let mut tuples: HashMap<Option<FiveTuple>, u32> = HashMap::new();
    let mut rec = Recorded {
        packets: Vec::new(),
        flow: Vec::new(),
        flows: 0,
        digest: Digest::default(),
    };
    for item in source {
        let (flow, mut pkt) = item?;
        let next = (ids.len() + tuples.len()) as u32;
        let id = match flow {
            Some(f) => *ids.entry(f).or_insert(next),
            None => *tuples.entry(flow_key(&pkt.data)).or_insert(next),
        };
        if let Some(r) = replies.as_mut() {
            r.rewrite(&mut pkt);
        }
        let mut frame = pkt.data.clone();
        let out = nf
            .process(&mut frame, pkt.port, pkt.ts_ns)
            .map_err(tandem_host::HostError::from)?;
        let verdict = match out {
            Some(port) => Verdict::Send { port, frame },
            None => Verdict::Drop,
        };
        if let (Some(r), Verdict::Send { port, frame }) = (replies.as_mut(), &verdict) {
            r.observe(&pkt.data, pkt.port, &[(*port, frame.as_slice())]);
        }
        rec.digest.add(&verdict);
        rec.packets.push(pkt);
        rec.flow.push(id);
    }
    rec.flows = (ids.len() + tuples.len()) as u64;
    Ok(rec)
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// Runs every recorded packet through the NF (the frame copied into a reused buffer, as a
/// server copies it out of its receive ring).
#[inline(never)]
pub fn replay_baseline(nf: &mut NativeNf, packets: &[TracePacket]) -> Result<u64, BenchError> {
    let mut buf = Vec::with_capacity(2048);
    let mut sent = 0u64;
    for p in packets {
        buf.clear();
        buf.extend_from_slice(&p.data);
        let out = nf
            .process(&mut buf, p.port, p.ts_ns)
            .map_err(tandem_host::HostError::from)?;
        sent += u64::from(black_box(out).is_some());
    }
    Ok(sent)
}

/// Wall time of the baseline: `reps` replays of the recording, each on a fresh NF from
/// `fresh` (configured, empty state).
pub fn time_baseline(
    mut fresh: impl FnMut() -> Result<NativeNf, BenchError>,
    rec: &Recorded,
    reps: usize,
) -> Result<Baseline, BenchError> {
    let mut runs_ns = Vec::new();
    for _ in 0..reps.max(1) {
        let mut nf = fresh()?;
        let t0 = Instant::now();
        replay_baseline(&mut nf, &rec.packets)?;
        runs_ns.push(t0.elapsed().as_nanos() as u64);
    }
    let n = rec.packets.len().max(1) as f64;
    let mut per: Vec<f64> = runs_ns.iter().map(|&t| t as f64 / n).collect();
    Ok(Baseline {
        ns_per_packet: median(&mut per),
        runs_ns,
        instructions: None,
    })
}

/// A control plane that times the one it wraps (the switch's own work, which is not the
/// server's).
struct TimedControl {
    inner: Box<dyn ControlPlane>,
    ns: Arc<AtomicU64>,
}

impl TimedControl {
    fn timed<T>(&mut self, f: impl FnOnce(&mut dyn ControlPlane) -> T) -> T {
        let t0 = Instant::now();
        let r = f(self.inner.as_mut());
        self.ns
            .fetch_add(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
        r
    }
}

impl ControlPlane for TimedControl {
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        self.timed(|c| c.write(ops))
    }
    fn write_exact(&mut self, batch: &ExactBatch<'_>) -> Result<(), ControlFailure> {
        self.timed(|c| c.write_exact(batch))
    }
    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        self.timed(|c| c.register_write(name, index, value))
    }
    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure> {
        self.timed(|c| c.register_read(name, index))
    }
    fn meter_write(
        &mut self,
        name: &str,
        index: u32,
        cell: &tandem_switch::MeterCell,
    ) -> Result<(), ControlFailure> {
        self.timed(|c| c.meter_write(name, index, cell))
    }
    fn meter_read(
        &mut self,
        name: &str,
        index: u32,
    ) -> Result<tandem_switch::MeterCell, ControlFailure> {
        self.timed(|c| c.meter_read(name, index))
    }
    fn direct_counters(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        self.timed(|c| c.direct_counters(table))
    }
    fn configure_ageing(&mut self, tables: &[&str], timeout_ns: u64) -> Result<(), ControlFailure> {
        self.timed(|c| c.configure_ageing(tables, timeout_ns))
    }
    fn set_ages(&mut self, table: &str, ages: &[(Vec<u64>, u64)]) -> Result<(), ControlFailure> {
        self.timed(|c| c.set_ages(table, ages))
    }
    fn read_ages(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        self.timed(|c| c.read_ages(table))
    }
    fn read_ages_into(
        &mut self,
        table: &str,
        out: &mut tandem_switch::AgeList,
    ) -> Result<(), ControlFailure> {
        self.timed(|c| c.read_ages_into(table, out))
    }
    fn set_ages_list(
        &mut self,
        table: &str,
        ages: &tandem_switch::AgeList,
    ) -> Result<(), ControlFailure> {
        self.timed(|c| c.set_ages_list(table, ages))
    }
    fn age_reader(&mut self, table: &str) -> Option<tandem_switch::AgeReader> {
        self.inner.age_reader(table)
    }
}

/// A control-plane wrapper for [`Offloaded::new`] that adds the time spent in the switch's
/// control plane to `ns`.
pub fn timed_control(ns: Arc<AtomicU64>) -> ControlWrap {
    Box::new(move |direct| {
        Box::new(TimedControl {
            inner: Box::new(direct),
            ns,
        }) as Box<dyn ControlPlane>
    })
}

/// What [`run_offloaded`] saw.
pub struct OffloadedRun {
    pub figures: OffloadedFigures,
    /// Per packet: handled by the switch alone.
    pub fast: Vec<bool>,
}

/// Runs the recording through the offloaded pair. `control_ns` is the counter the
/// [`timed_control`] wrapper given to `sys` adds to.
pub fn run_offloaded(
    sys: &mut Offloaded,
    rec: &Recorded,
    control_ns: &AtomicU64,
) -> Result<OffloadedRun, BenchError> {
    let mut digest = Digest::default();
    let mut fast = Vec::with_capacity(rec.packets.len());
    let mut fast_so_far = 0;
    // The install's control-plane time (before the first packet) is not in the server's
    // packet time: only what the packets' handling spends there is subtracted from it.
    let control_at_start = control_ns.load(Ordering::Relaxed);
    for p in &rec.packets {
        let v = sys.process(p)?;
        digest.add(&v);
        let now = sys.fast_path();
        fast.push(now > fast_so_far);
        fast_so_far = now;
    }
    let s = sys.stats();
    let control = control_ns
        .load(Ordering::Relaxed)
        .saturating_sub(control_at_start);
    Ok(OffloadedRun {
        figures: OffloadedFigures {
            fast_path: s.fast_path,
            via_server: s.via_server,
            // Every packet the server ran whole: full-table keys and runts.
            whole_on_server: s.whole_on_server + s.runts,
            server_ns: s.server_ns.saturating_sub(control),
            control_ns: control,
            batches: s.sync.batches,
            entries: s.sync.entries,
            server_instructions: None,
            outputs_equal: digest == rec.digest,
        },
        fast,
    })
}

/// Fast-path share by flow size: flows grouped by their packet count into powers of two.
pub fn flow_buckets(rec: &Recorded, fast: &[bool]) -> Vec<FlowBucket> {
    let mut size = vec![0u64; rec.flows as usize];
    let mut on_switch = vec![0u64; rec.flows as usize];
    for (i, &f) in rec.flow.iter().enumerate() {
        size[f as usize] += 1;
        on_switch[f as usize] += u64::from(fast.get(i).copied().unwrap_or(false));
    }
    let mut buckets: BTreeMap<u32, FlowBucket> = BTreeMap::new();
    for (n, s) in size.iter().zip(&on_switch) {
        if *n == 0 {
            continue;
        }
        let k = 63 - n.leading_zeros();
        let b = buckets.entry(k).or_insert_with(|| FlowBucket {
            min: 1 << k,
            max: (1u64 << k) * 2 - 1,
            ..FlowBucket::default()
        });
        b.flows += 1;
        b.packets += n;
        b.fast_path += s;
    }
    buckets.into_values().collect()
}

/// One replay of `packets` through worker `w` (what `tandem bench`'s callgrind count of the
/// switch alone runs: [`crate::callgrind::SWITCH_TOGGLES`] names this function, so the
/// offloaded run before it and the worker's creation are not counted); the number of
/// packets forwarded.
#[inline(never)]
pub fn replay_switch(w: &mut tandem_switch::Worker, packets: &[TracePacket]) -> u64 {
    let mut sent = 0u64;
    for p in packets {
        sent += u64::from(black_box(w.process_at(p.port, black_box(&p.data), p.ts_ns)).is_some());
    }
    sent
}

/// Packets/s of the switch alone: the recording replayed through `sw` (as the offloaded run
/// left its tables) for at least `min_ms` per repetition; the median of `reps`.
pub fn switch_rate(sw: &Switch, rec: &Recorded, reps: usize, min_ms: u64) -> SwitchRate {
    let mut w = sw.worker();
    let mut per = Vec::new();
    let mut total = 0u64;
    if rec.packets.is_empty() {
        return SwitchRate::default();
    }
    for _ in 0..reps.max(1) {
        let t0 = Instant::now();
        let mut n = 0u64;
        loop {
            for p in &rec.packets {
                black_box(w.process(p.port, black_box(&p.data)).map(|(port, _)| port));
            }
            n += rec.packets.len() as u64;
            if t0.elapsed().as_millis() as u64 >= min_ms {
                break;
            }
        }
        per.push(t0.elapsed().as_nanos() as f64 / n as f64);
        total += n;
    }
    SwitchRate {
        packets: total,
        ns_per_packet: median(&mut per),
        instructions: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_group_flows_by_powers_of_two() {
        let rec = Recorded {
            packets: vec![],
            // flow 0: 1 packet; flow 1: 3 packets; flow 2: 2 packets
            flow: vec![0, 1, 1, 2, 1, 2],
            flows: 3,
            digest: Digest::default(),
        };
        let fast = [false, false, true, false, true, true];
        let b = flow_buckets(&rec, &fast);
        assert_eq!(b.len(), 2);
        assert_eq!(
            (b[0].min, b[0].max, b[0].flows, b[0].fast_path),
            (1, 1, 1, 0)
        );
        assert_eq!(
            (b[1].min, b[1].max, b[1].flows, b[1].packets, b[1].fast_path),
            (2, 3, 2, 5, 3)
        );
    }

    #[test]
    fn digest_is_a_multiset() {
        let a = Verdict::Send {
            port: 1,
            frame: vec![1, 2, 3],
        };
        let b = Verdict::Send {
            port: 1,
            frame: vec![4, 5],
        };
        let mut x = Digest::default();
        x.add(&a);
        x.add(&b);
        x.add(&Verdict::Drop);
        let mut y = Digest::default();
        y.add(&Verdict::Drop);
        y.add(&b);
        y.add(&a);
        assert_eq!(x, y);
        y.add(&a);
        assert_ne!(x, y);
        let mut z = Digest::default();
        z.add(&Verdict::Send {
            port: 2,
            frame: vec![1, 2, 3],
        });
        z.add(&b);
        z.add(&Verdict::Drop);
        assert_ne!(x, z, "the same frame on another port is a different output");
    }

    #[test]
    fn median_of_even_and_odd() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
    }
}
