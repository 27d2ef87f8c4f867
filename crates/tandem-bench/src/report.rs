//! `BENCHMARKS.md`: the table of every NF × workload, the goals, compile times, the switch
//! engine, and the figures.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::BenchResult;

/// One program measured by `tandem switch bench` (64-byte packets, in memory).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EngineRate {
    pub program: String,
    /// Wall-clock packets/s, millions.
    pub mpps: f64,
    /// Packets per second of this thread's CPU time, millions (when the OS tells).
    pub mpps_cpu: Option<f64>,
    /// Instructions per packet under callgrind (`tandem switch bench --callgrind`).
    #[serde(default)]
    pub instr_per_pkt: Option<f64>,
}

/// What goes around the tables.
#[derive(Clone, Debug, Default)]
pub struct ReportInputs {
    /// `tandem switch bench --json` rows.
    pub engine: Vec<EngineRate>,
    /// Relative paths of the figures: (title, path).
    pub figures: Vec<(String, String)>,
    /// Hand-written notes (markdown) explaining the figures per NF.
    pub notes: Option<String>,
    /// How the whole file was produced.
    pub command: String,
    /// Partial-map benchmarks (`tandem bench-partial`).
    pub partial: Vec<crate::partial::PartialBench>,
}

/// The goals the benchmark is held to.
pub const GOAL_INSTR_REDUCTION: f64 = 0.90;
pub const GOAL_FAST_PATH: f64 = 0.99;
/// NF names (as plans spell them, compared without case) and how the goal table calls them.
pub const GOAL_FAST_PATH_NFS: &[&str] = &["MazuNAT", "MiniLB", "L4LB"];
pub const GOAL_FAST_PATH_WORKLOAD: &str = "datamining";
/// Switch-engine goals (issue 22): program name prefix in `tandem switch bench`, what the
/// goal table calls it, Mpps on one core with the native engine.
pub const GOAL_ENGINE: &[(&str, &str, f64)] = &[
    ("minilb generated", "generated MiniLB", 15.0),
    ("minilb (", "hand-written MiniLB", 20.0),
    ("lpm (", "LPM, 10,000 routes", 10.0),
];

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn opt_f(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "–".into(), |v| format!("{v:.digits$}"))
}

fn status(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "**missed**"
    }
}

fn goals(
    results: &[BenchResult],
    engine: &[EngineRate],
    partial_goals: &[[String; 4]],
    out: &mut String,
) {
    let _ = writeln!(out, "## Goals\n");
    let _ = writeln!(
        out,
        "| goal | target | measured | status |\n|---|---|---|---|"
    );
    let reductions: Vec<(&BenchResult, f64)> = results
        .iter()
        .filter_map(|r| r.instr_reduction().map(|x| (r, x)))
        .collect();
    if reductions.is_empty() {
        let _ = writeln!(
            out,
            "| server instructions per packet reduced, every NF × workload | ≥ {} | not measured (run without --no-callgrind) | – |",
            pct(GOAL_INSTR_REDUCTION)
        );
    } else {
        let met = reductions
            .iter()
            .filter(|(_, x)| *x >= GOAL_INSTR_REDUCTION)
            .count();
        let worst = reductions
            .iter()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(r, x)| format!("worst {} ({} on {})", pct(*x), r.nf, r.workload))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "| server instructions per packet reduced, every NF × workload | ≥ {} | {met} of {} met; {worst} | {} |",
            pct(GOAL_INSTR_REDUCTION),
            reductions.len(),
            status(met == reductions.len())
        );
    }
    for nf in GOAL_FAST_PATH_NFS {
        if let Some(r) = results
            .iter()
            .find(|r| r.nf.eq_ignore_ascii_case(nf) && r.workload == GOAL_FAST_PATH_WORKLOAD)
        {
            let s = r.fast_path_share();
            let _ = writeln!(
                out,
                "| fast-path share, {nf} on {GOAL_FAST_PATH_WORKLOAD} | ≥ {} | {} | {} |",
                pct(GOAL_FAST_PATH),
                pct(s),
                status(s >= GOAL_FAST_PATH)
            );
        }
    }
    for &(prefix, what, goal) in GOAL_ENGINE {
        let Some(e) = engine.iter().find(|e| {
            e.program.starts_with(prefix)
                && e.program.ends_with("[native]")
                && !e.program.contains("workers")
                && !e.program.contains("updates")
        }) else {
            continue;
        };
        let best = e.mpps_cpu.unwrap_or(e.mpps).max(e.mpps);
        let _ = writeln!(
            out,
            "| {what} on the native switch engine, one core, 64-byte packets | ≥ {goal} Mpps | {:.2} Mpps wall-clock{} | {} |",
            e.mpps,
            e.mpps_cpu
                .map(|c| format!(" ({c:.2} per CPU-second)"))
                .unwrap_or_default(),
            status(best >= goal)
        );
    }
    for [g, t, m, st] in partial_goals {
        let _ = writeln!(out, "| {g} | {t} | {m} | {st} |");
    }
    let unequal: Vec<String> = results
        .iter()
        .filter(|r| !r.offloaded.outputs_equal)
        .map(|r| format!("{} on {}", r.nf, r.workload))
        .collect();
    if !unequal.is_empty() {
        let _ = writeln!(
            out,
            "\n**Outputs differ from the baseline** for: {} — these figures are not of a correct offload; run `tandem check` on them.",
            unequal.join(", ")
        );
    }
    out.push('\n');
}

fn workload_table(workload: &str, rs: &[&BenchResult], out: &mut String) {
    let first = rs[0];
    let _ = writeln!(
        out,
        "## {workload}\n\nProfile {}; each NF on its own trace of the workload (the address plan it needs); every packet of every flow.\n",
        first.profile
    );
    let _ = writeln!(
        out,
        "| NF | packets | flows | fast path | server visits / flow | server instr / pkt: baseline → offloaded | saved | server ns / pkt: baseline → offloaded | saved | switch Mpps / core (× baseline host) | outputs equal |"
    );
    let _ = writeln!(out, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|:-:|");
    for r in rs {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.2} | {} → {} | {} | {:.0} → {:.1} | {} | {:.2} (× {:.1}) | {} |",
            r.nf,
            r.trace.packets,
            r.trace.flows,
            pct(r.fast_path_share()),
            r.visits_per_flow(),
            opt_f(r.baseline_instr_per_packet(), 0),
            opt_f(r.server_instr_per_packet(), 1),
            r.instr_reduction().map_or_else(|| "–".into(), pct),
            r.baseline.ns_per_packet,
            r.server_ns_per_packet(),
            pct(r.time_reduction()),
            r.switch_pps() / 1e6,
            if r.baseline_pps() > 0.0 {
                r.switch_pps() / r.baseline_pps()
            } else {
                0.0
            },
            if r.offloaded.outputs_equal { "yes" } else { "**no**" },
        );
    }
    out.push('\n');
}

fn compile_table(results: &[BenchResult], out: &mut String) {
    let mut seen: Vec<&BenchResult> = Vec::new();
    for r in results {
        if !seen.iter().any(|s| s.nf == r.nf) {
            seen.push(r);
        }
    }
    let Some(first) = seen.first() else { return };
    let stages: Vec<&str> = first.compile.iter().map(|s| s.stage.as_str()).collect();
    let _ = writeln!(out, "## Compile time per stage (ms)\n");
    let _ = writeln!(out, "| NF | {} | total |", stages.join(" | "));
    let _ = writeln!(out, "|---|{}--:|", "--:|".repeat(stages.len()));
    for r in seen {
        let cells: Vec<String> = stages
            .iter()
            .map(|st| {
                r.compile
                    .iter()
                    .find(|s| s.stage == *st)
                    .map_or_else(|| "–".into(), |s| format!("{:.1}", s.ms))
            })
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {:.1} |",
            r.nf,
            cells.join(" | "),
            r.compile_ms()
        );
    }
    out.push('\n');
}

/// The whole `BENCHMARKS.md`.
pub fn markdown(results: &[BenchResult], inputs: &ReportInputs) -> String {
    let mut out = String::from("# Benchmarks\n\n");
    out.push_str(
        "What offloading saves, measured: every example NF run two ways on the same trace — the \
         **baseline** (the original C++ NF compiled natively; the server runs every packet) and \
         the **offloaded** pair Tandem generates (the switch program on Tandem's software \
         switch, the server partition on the server). Every figure below is from one run of \
         the command at the end; ratios compare figures measured in that same run.\n\n",
    );
    let _ = writeln!(
        out,
        "- **fast path**: packets handled by the switch alone (never reaching the server).\n\
         - **server instr / pkt**: instructions the server executes per *input* packet, counted \
         by callgrind (repeatable on a shared machine): for the baseline inside the NF's \
         `process()`; for the offloaded pair inside the server host's packet handling (server \
         partition, primary copy of the state, composing and confirming each atomic update), \
         without the switch applying the writes (a hardware switch's driver does that).\n\
         - **server ns / pkt**: the same, as wall time (noisy; the machine is shared).\n\
         - **switch Mpps / core**: the software switch alone running the generated program \
         over the same packets (real frame sizes) with the tables the run left, against the \
         baseline host's packet rate.\n\
         - **outputs equal**: every port's output multiset equal to the baseline's (a digest; \
         `tandem check` compares byte by byte and explains differences).\n"
    );
    let (partial_md, partial_goals) = crate::partial::markdown(&inputs.partial);
    goals(results, &inputs.engine, &partial_goals, &mut out);
    let mut workloads: Vec<&str> = Vec::new();
    for r in results {
        if !workloads.contains(&r.workload.as_str()) {
            workloads.push(&r.workload);
        }
    }
    for w in workloads {
        let rs: Vec<&BenchResult> = results.iter().filter(|r| r.workload == w).collect();
        workload_table(w, &rs, &mut out);
    }
    compile_table(results, &mut out);
    if !inputs.partial.is_empty() {
        out.push_str(
            "## Partial maps under Zipf traffic\n\n`tandem bench-partial`: the switch holds a few \
             of a map's entries (the server all of them), flows draw their address pair with Zipf \
             popularity, and the runtime promotes hot entries (count-min sketch on the switch or \
             the switch table's per-entry hit counters, and the server's counts) or does not; \
             all run on the same trace through `tandem check`. *Server share*: packets the \
             server handled (server partition or whole NF); *after warm-up*: the second half of \
             the packets. *Floor*: on the same trace and table size, the packets that are a \
             key's first (no runtime can have it on the switch before the NF inserts it) and \
             the misses of a clairvoyant table (Belady's MIN with bypass), after warm-up \
             (`partial_bound`, docs/runtime.md).\n\n",
        );
        out.push_str(&partial_md);
    }
    if !inputs.engine.is_empty() {
        let _ = writeln!(
            out,
            "## Switch engine\n\n`tandem switch bench`: 64-byte packets, in memory; `[interp]` the interpreter, `[native]` the Cranelift engine, measured in the same run.\n\n| program | Mpps wall-clock | Mpps per CPU-second | instructions / packet (callgrind) |\n|---|--:|--:|--:|"
        );
        for e in &inputs.engine {
            let _ = writeln!(
                out,
                "| {} | {:.2} | {} | {} |",
                e.program,
                e.mpps,
                opt_f(e.mpps_cpu, 2),
                opt_f(e.instr_per_pkt, 0)
            );
        }
        out.push('\n');
    }
    if !inputs.figures.is_empty() {
        out.push_str("## Figures\n\n");
        for (title, path) in &inputs.figures {
            let _ = writeln!(out, "![{title}]({path})\n");
        }
    }
    if let Some(notes) = &inputs.notes {
        out.push_str(notes.trim_end());
        out.push_str("\n\n");
    }
    if let Some(m) = results.first().map(|r| &r.machine) {
        let _ = writeln!(
            out,
            "## Machine\n\n- CPU: {} ({} cores available)\n- OS: {}\n- valgrind: {}\n",
            m.cpu,
            m.cores,
            m.os,
            m.valgrind.as_deref().unwrap_or("not used")
        );
    }
    let _ = writeln!(out, "## Reproduce\n\n```\n{}\n```\n", inputs.command.trim());
    if !results.is_empty() {
        out.push_str("One row alone:\n\n```\n");
        for r in results.iter().take(2) {
            let _ = writeln!(out, "{}", r.command);
        }
        out.push_str("```\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    pub(crate) fn result(nf: &str, workload: &str, base: u64, server: u64) -> BenchResult {
        BenchResult {
            nf: nf.into(),
            workload: workload.into(),
            profile: "tofino1".into(),
            trace: TraceSummary {
                packets: 1000,
                bytes: 800_000,
                flows: 10,
            },
            compile: vec![
                StageTime {
                    stage: "lift".into(),
                    ms: 2.0,
                },
                StageTime {
                    stage: "P4".into(),
                    ms: 1.5,
                },
            ],
            baseline: Baseline {
                ns_per_packet: 200.0,
                runs_ns: vec![200_000],
                instructions: Some(base),
            },
            offloaded: OffloadedFigures {
                fast_path: 990,
                via_server: 10,
                server_ns: 20_000,
                server_instructions: Some(server),
                outputs_equal: true,
                ..OffloadedFigures::default()
            },
            switch: SwitchRate {
                packets: 5000,
                ns_per_packet: 100.0,
                instructions: None,
            },
            flows: vec![],
            machine: Machine::default(),
            command: format!("tandem bench examples/nfs/{nf}/{nf}.cc --workload {workload}"),
        }
    }

    #[test]
    fn goals_say_met_and_missed_from_the_figures() {
        let rs = vec![
            result("MazuNat", "datamining", 1_000_000, 50_000),
            result("minilb", "datamining", 1_000_000, 200_000),
        ];
        let md = markdown(
            &rs,
            &ReportInputs {
                engine: vec![EngineRate {
                    program: "minilb generated (1024 flows) [native]".into(),
                    mpps: 3.0,
                    mpps_cpu: Some(3.1),
                    instr_per_pkt: None,
                }],
                command: "make bench".into(),
                ..ReportInputs::default()
            },
        );
        assert!(
            md.contains("1 of 2 met; worst 80.00% (minilb on datamining) | **missed**"),
            "{md}"
        );
        assert!(
            md.contains("| fast-path share, MazuNAT on datamining | ≥ 99.00% | 99.00% | met |"),
            "{md}"
        );
        assert!(
            md.contains("3.00 Mpps wall-clock (3.10 per CPU-second) | **missed**"),
            "{md}"
        );
        assert!(
            md.contains("| MazuNat | 1000 | 10 | 99.00% | 1.00 | 1000 → 50.0 | 95.00% |"),
            "{md}"
        );
        assert!(md.contains("| MazuNat | 2.0 | 1.5 | 3.5 |"), "{md}");
        assert!(md.contains("| fast-path share, MiniLB on datamining | ≥ 99.00% | 99.00% | met |"));
        assert!(!md.contains("Outputs differ"));
    }

    #[test]
    fn unequal_outputs_are_flagged() {
        let mut r = result("proxy", "enterprise", 10, 0);
        r.offloaded.outputs_equal = false;
        let md = markdown(&[r], &ReportInputs::default());
        assert!(md.contains("**Outputs differ from the baseline** for: proxy on enterprise"));
        assert!(md.contains("| **no** |"));
    }
}
