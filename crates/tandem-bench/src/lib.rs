//! Measuring what offloading saves (`tandem bench`, `make bench`).
//!
//! One benchmark runs an NF two ways on the same trace and reports the offloaded figures
//! as ratios against the all-software baseline measured in the same run:
//!
//! 1. [`measure::record`] runs the *reference host* (the original NF, compiled natively)
//!    closed loop over the generated traffic and records the packets exactly as fed
//!    (replies rewritten to the addresses the NF chose). Every later measurement replays
//!    this recording open loop, so baseline and offloaded see byte-identical inputs.
//! 2. [`measure::time_baseline`]: wall time of the reference host per packet (median of
//!    repetitions, each on a freshly configured NF).
//! 3. [`measure::run_offloaded`]: the compiled pair (switch program on the software
//!    switch, server partition in the server host) over the recording: which packets
//!    stayed on the switch (per flow, for the flow-size plot), the server's wall time
//!    without the switch's own control-plane work, and a digest of the outputs that must
//!    equal the baseline's.
//! 4. [`measure::switch_rate`]: packets/s of the software switch alone running the
//!    generated program, with the tables the run left behind, over the same packets.
//! 5. [`callgrind`]: instructions executed per input packet by the baseline host and by the
//!    offloaded server (repeatable on a noisy machine), in separate processes under
//!    `valgrind --tool=callgrind`, counting only between the symbols in
//!    [`callgrind::BASELINE_TOGGLES`] / [`callgrind::SERVER_TOGGLES`].
//!
//! [`report`] turns many [`BenchResult`]s into `BENCHMARKS.md`; [`plot`] draws the SVG
//! figures.
//!
//! Invariant: this crate measures; it never decides what is correct. A run whose outputs
//! differ from the baseline's is reported as such (`outputs_equal: false`) and the report
//! flags it; `tandem check` is the tool that explains differences.

pub mod callgrind;
pub mod measure;
pub mod partial;
pub mod partial_bound;
pub mod plot;
pub mod report;

use serde::{Deserialize, Serialize};

/// Errors of a benchmark.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("{0}")]
    Offload(#[from] tandem_offload::OffloadError),
    #[error("reference host: {0}")]
    Host(#[from] tandem_host::HostError),
    #[error("{what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("callgrind: {0}")]
    Callgrind(String),
    #[error("plot: {0}")]
    Plot(String),
    #[error("{0}")]
    Setup(String),
}

/// One NF × workload benchmark: what `tandem bench --json` writes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BenchResult {
    /// NF name (the plan's).
    pub nf: String,
    /// Workload name (or the trace file).
    pub workload: String,
    /// Target profile the NF was partitioned for.
    pub profile: String,
    /// The trace both sides ran.
    pub trace: TraceSummary,
    /// Compile time per stage, in order.
    pub compile: Vec<StageTime>,
    /// The all-software baseline: the reference host runs every packet.
    pub baseline: Baseline,
    /// The offloaded pair.
    pub offloaded: OffloadedFigures,
    /// The software switch alone on the generated program.
    pub switch: SwitchRate,
    /// Fast-path share by flow size (packets per flow, powers of two).
    pub flows: Vec<FlowBucket>,
    /// The machine it ran on.
    pub machine: Machine,
    /// The command that reproduces this result.
    pub command: String,
}

/// The trace of a benchmark.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct TraceSummary {
    pub packets: u64,
    pub bytes: u64,
    /// Flows (generator flows; for a trace file, distinct unordered five-tuples).
    pub flows: u64,
}

/// Wall time of one compile stage.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StageTime {
    pub stage: String,
    pub ms: f64,
}

/// The baseline's figures.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Baseline {
    /// Median wall time per packet over the repetitions, ns.
    pub ns_per_packet: f64,
    /// Every repetition's total, ns.
    pub runs_ns: Vec<u64>,
    /// Instructions executed in `Host::process` over the whole trace (callgrind), when
    /// measured.
    pub instructions: Option<u64>,
}

/// The offloaded pair's figures.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct OffloadedFigures {
    /// Packets handled by the switch alone.
    pub fast_path: u64,
    /// Packets that visited the server (switch → server → switch).
    pub via_server: u64,
    /// Packets the server ran whole (keys a full switch table could not take; runts).
    pub whole_on_server: u64,
    /// Server wall time over the run without the switch's own control-plane work, ns.
    pub server_ns: u64,
    /// Time inside the switch's control plane (applying table and register writes), ns.
    pub control_ns: u64,
    /// Atomic update batches and the table entries they carried.
    pub batches: u64,
    pub entries: u64,
    /// Instructions executed by the server (callgrind), when measured.
    pub server_instructions: Option<u64>,
    /// Every port's outputs equal to the baseline's (as multisets).
    pub outputs_equal: bool,
}

/// The software switch alone on the generated program.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SwitchRate {
    /// Packets processed while measuring (the trace, repeated).
    pub packets: u64,
    /// Median ns per packet over the repetitions.
    pub ns_per_packet: f64,
    /// Instructions the switch alone executed over one replay of the trace (callgrind,
    /// [`callgrind::SWITCH_TOGGLES`]), when measured.
    #[serde(default)]
    pub instructions: Option<u64>,
}

/// Fast-path share of the flows whose size (in packets) is in `min..=max`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct FlowBucket {
    pub min: u64,
    pub max: u64,
    pub flows: u64,
    pub packets: u64,
    pub fast_path: u64,
}

/// Where a benchmark ran.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub os: String,
    /// `valgrind --version`, when callgrind was used.
    pub valgrind: Option<String>,
}

impl Machine {
    /// This machine.
    pub fn detect() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|t| {
                t.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".into());
        let os = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|r| format!("{} {}", std::env::consts::OS, r.trim()))
            .unwrap_or_else(|_| std::env::consts::OS.to_string());
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os,
            valgrind: None,
        }
    }
}

fn per_packet(total: u64, packets: u64) -> Option<f64> {
    (packets > 0).then(|| total as f64 / packets as f64)
}

impl BenchResult {
    /// Share of packets handled by the switch alone.
    pub fn fast_path_share(&self) -> f64 {
        let o = &self.offloaded;
        let n = o.fast_path + o.via_server + o.whole_on_server;
        if n == 0 {
            0.0
        } else {
            o.fast_path as f64 / n as f64
        }
    }

    /// Baseline instructions per input packet.
    pub fn baseline_instr_per_packet(&self) -> Option<f64> {
        per_packet(self.baseline.instructions?, self.trace.packets)
    }

    /// Switch-alone instructions per input packet (one replay of the trace).
    pub fn switch_instr_per_packet(&self) -> Option<f64> {
        per_packet(self.switch.instructions?, self.trace.packets)
    }

    /// Offloaded server instructions per input packet.
    pub fn server_instr_per_packet(&self) -> Option<f64> {
        per_packet(self.offloaded.server_instructions?, self.trace.packets)
    }

    /// Server instructions saved: 1 − offloaded / baseline (0.9 = 90% fewer).
    pub fn instr_reduction(&self) -> Option<f64> {
        let b = self.baseline.instructions? as f64;
        let s = self.offloaded.server_instructions? as f64;
        (b > 0.0).then(|| 1.0 - s / b)
    }

    /// Offloaded server wall time per input packet, ns.
    pub fn server_ns_per_packet(&self) -> f64 {
        per_packet(self.offloaded.server_ns, self.trace.packets).unwrap_or(0.0)
    }

    /// Server wall time saved: 1 − offloaded / baseline.
    pub fn time_reduction(&self) -> f64 {
        if self.baseline.ns_per_packet <= 0.0 {
            return 0.0;
        }
        1.0 - self.server_ns_per_packet() / self.baseline.ns_per_packet
    }

    /// Server visits per flow.
    pub fn visits_per_flow(&self) -> f64 {
        let o = &self.offloaded;
        per_packet(o.via_server + o.whole_on_server, self.trace.flows).unwrap_or(0.0)
    }

    /// Switch packets/s on one core.
    pub fn switch_pps(&self) -> f64 {
        if self.switch.ns_per_packet > 0.0 {
            1e9 / self.switch.ns_per_packet
        } else {
            0.0
        }
    }

    /// Baseline packets/s on one core.
    pub fn baseline_pps(&self) -> f64 {
        if self.baseline.ns_per_packet > 0.0 {
            1e9 / self.baseline.ns_per_packet
        } else {
            0.0
        }
    }

    /// Total compile time, ms.
    pub fn compile_ms(&self) -> f64 {
        self.compile.iter().map(|s| s.ms).sum()
    }
}
