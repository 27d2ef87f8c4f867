//! The reference host: runs an NF natively on every packet of a trace.
//!
//! It is both the correctness oracle (what the offloaded pair must reproduce) and the
//! all-software baseline. Time comes from packet timestamps, never from the clock, so a run
//! is deterministic: timer ticks fire at every multiple of the NF's interval that a packet's
//! timestamp passes, before that packet is processed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;
use tandem_traffic::{PcapFileWriter, TraceError, TracePacket};

use crate::native::{NativeNf, NfError};

/// At most this many timer ticks fire for one gap between packets; a longer idle gap fires
/// only its last tick (so a trace with a jump of years does not stall the run).
pub const MAX_TICKS_PER_GAP: u64 = 100_000;

/// The tick rule of a timer with period `interval` ns: a tick at every multiple of the
/// interval that packet time reaches, in order, before the packet that reaches it. The first
/// packet fixes the start (its own time fires nothing: the first tick is the next multiple
/// after it); a gap of more than [`MAX_TICKS_PER_GAP`] intervals fires only its last tick.
///
/// The reference host fires the native `on_timer()` by it, and every runtime that runs an NF's
/// timer elsewhere (the IR host, the offloaded pair in one process or two) uses this clock, so
/// all of them tick at the same times.
///
/// ```
/// use tandem_host::host::TickClock;
/// let mut c = TickClock::new(10);
/// assert_eq!(c.due(3).collect::<Vec<_>>(), Vec::<u64>::new()); // the start
/// assert_eq!(c.due(25).collect::<Vec<_>>(), vec![10, 20]);
/// assert_eq!(c.due(29).count(), 0);
/// assert_eq!(c.due(30).collect::<Vec<_>>(), vec![30]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickClock {
    interval: u64,
    next: Option<u64>,
}

/// The ticks due at one packet time, in order ([`TickClock::due`]).
#[derive(Clone, Copy, Debug)]
pub struct Ticks {
    at: u64,
    left: u64,
    interval: u64,
}

impl Iterator for Ticks {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        if self.left == 0 {
            return None;
        }
        let t = self.at;
        self.left -= 1;
        self.at = self.at.saturating_add(self.interval);
        Some(t)
    }
}

impl TickClock {
    /// A clock for period `interval_ns` (0: a clock that never ticks).
    pub fn new(interval_ns: u64) -> TickClock {
        TickClock {
            interval: interval_ns,
            next: None,
        }
    }

    /// The period in ns (0: never ticks).
    pub fn interval_ns(&self) -> u64 {
        self.interval
    }

    /// The ticks due at packet time `now` (before that packet), which are then done.
    pub fn due(&mut self, now: u64) -> Ticks {
        let none = Ticks {
            at: 0,
            left: 0,
            interval: self.interval,
        };
        let interval = self.interval;
        if interval == 0 {
            return none;
        }
        let next = *self
            .next
            .get_or_insert_with(|| (now / interval).saturating_add(1).saturating_mul(interval));
        if now < next {
            return none;
        }
        let due = (now - next) / interval + 1;
        let first = if due > MAX_TICKS_PER_GAP { due - 1 } else { 0 };
        self.next = Some(next + due * interval);
        Ticks {
            at: next + first * interval,
            left: due - first,
            interval,
        }
    }
}

/// Errors of a reference-host run.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error(transparent)]
    Nf(#[from] NfError),
    #[error(transparent)]
    Trace(#[from] TraceError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What one packet turned into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Send { port: u32, frame: Vec<u8> },
    Drop,
}

/// Counters of a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunSummary {
    pub nf: String,
    pub packets_in: u64,
    pub bytes_in: u64,
    pub packets_out: u64,
    /// Packets sent, per egress port.
    pub out_per_port: BTreeMap<u32, u64>,
    /// Packets received, per ingress port.
    pub in_per_port: BTreeMap<u32, u64>,
    pub dropped: u64,
    pub timer_ticks: u64,
    /// Wall time spent inside the NF (process() and on_timer()), in ns.
    pub nf_time_ns: u64,
    /// Packets per second of NF time.
    pub packets_per_sec: f64,
    /// Timestamp of the last packet (the time the final state is taken at).
    pub last_ts_ns: u64,
}

/// Feeds packets to a native NF, firing timers and counting.
pub struct Host {
    nf: NativeNf,
    clock: TickClock,
    summary: RunSummary,
}

impl Host {
    pub fn new(nf: NativeNf) -> Self {
        let summary = RunSummary {
            nf: nf.name().to_owned(),
            ..RunSummary::default()
        };
        Host {
            clock: TickClock::new(nf.timer_interval_ns()),
            nf,
            summary,
        }
    }

    pub fn nf(&mut self) -> &mut NativeNf {
        &mut self.nf
    }

    /// Processes one packet (timers first). `pkt.data` is not modified; the verdict carries
    /// the rewritten frame.
    pub fn process(&mut self, pkt: &TracePacket) -> Result<Verdict, HostError> {
        let start = Instant::now();
        self.fire_due(pkt.ts_ns);
        let mut frame = pkt.data.clone();
        let out = self.nf.process(&mut frame, pkt.port, pkt.ts_ns)?;
        self.summary.nf_time_ns += start.elapsed().as_nanos() as u64;
        let s = &mut self.summary;
        s.packets_in += 1;
        s.bytes_in += pkt.data.len() as u64;
        *s.in_per_port.entry(pkt.port).or_default() += 1;
        s.last_ts_ns = s.last_ts_ns.max(pkt.ts_ns);
        Ok(match out {
            Some(port) => {
                s.packets_out += 1;
                *s.out_per_port.entry(port).or_default() += 1;
                Verdict::Send { port, frame }
            }
            None => {
                s.dropped += 1;
                Verdict::Drop
            }
        })
    }

    /// Fires the timer ticks due at time `now` (process() does this itself); returns how
    /// many fired. Lets a caller observe the state between the ticks and the packet.
    pub fn fire_timers(&mut self, now: u64) -> u64 {
        let before = self.summary.timer_ticks;
        self.fire_due(now);
        self.summary.timer_ticks - before
    }

    fn fire_due(&mut self, now: u64) {
        for t in self.clock.due(now) {
            self.nf.timer(t);
            self.summary.timer_ticks += 1;
        }
    }

    /// The counters so far, with the packet rate filled in.
    pub fn summary(&self) -> RunSummary {
        let mut s = self.summary.clone();
        if s.nf_time_ns > 0 {
            s.packets_per_sec = s.packets_in as f64 * 1e9 / s.nf_time_ns as f64;
        }
        s
    }

    /// The NF's state at the time of the last packet.
    pub fn dump_state(&mut self) -> Result<serde_json::Value, HostError> {
        let t = self.summary.last_ts_ns;
        Ok(self.nf.dump_state(t)?)
    }
}

/// Writes output packets to `<dir>/port<N>.pcap`, one file per egress port, opened lazily.
pub struct PortPcapSink {
    dir: PathBuf,
    writers: BTreeMap<u32, PcapFileWriter>,
}

impl PortPcapSink {
    pub fn create(dir: &Path) -> Result<Self, HostError> {
        std::fs::create_dir_all(dir).map_err(|e| HostError::Io {
            path: dir.to_owned(),
            source: e,
        })?;
        Ok(PortPcapSink {
            dir: dir.to_owned(),
            writers: BTreeMap::new(),
        })
    }

    pub fn path_for(dir: &Path, port: u32) -> PathBuf {
        dir.join(format!("port{port}.pcap"))
    }

    pub fn write(&mut self, port: u32, ts_ns: u64, frame: &[u8]) -> Result<(), HostError> {
        let w = match self.writers.entry(port) {
            std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(PcapFileWriter::create(Self::path_for(&self.dir, port))?)
            }
        };
        Ok(w.write(ts_ns, frame)?)
    }

    /// Flushes every file; returns the files written.
    pub fn finish(self) -> Result<Vec<PathBuf>, HostError> {
        let mut files = Vec::new();
        for (port, w) in self.writers {
            w.finish()?;
            files.push(Self::path_for(&self.dir, port));
        }
        Ok(files)
    }
}
