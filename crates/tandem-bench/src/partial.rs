//! Partial maps under skewed traffic (`tandem bench-partial`, `make bench`): the switch holds
//! a few of a map's entries, the traffic's flow popularity is Zipf, and the runtime either
//! promotes hot entries (count-min sketch on the switch, the server's counts) or does not.
//! Each configuration runs through `tandem check` (outputs and final state compared with the
//! reference host), so a figure always comes with its correctness; the report compares the
//! server's packet share with and without promotion, measured in the same run on the same
//! trace.

use serde::{Deserialize, Serialize};
use tandem_host::NativeNf;
use tandem_offload::check::PartialKey;
use tandem_offload::partial::{Hotness, PartialOptions, PartialSample};
use tandem_offload::{check, Bundle, CheckOptions, RunOptions};
use tandem_traffic::TracePacket;

use crate::partial_bound::Bound;
use crate::BenchError;

/// One run: one Zipf exponent, one hotness source.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PartialRun {
    /// The traffic's Zipf exponent.
    pub alpha: f64,
    /// `sketch` or `counters` (promotion by the count-min sketch or the per-entry hit
    /// counters) or `off` (none).
    pub hotness: String,
    /// The switch table's size (entries) in this run (0 in files written before it).
    #[serde(default)]
    pub table: u64,
    /// Packets run.
    pub packets: u64,
    /// Entries the map held at the end (primary copy) and the switch's share of them.
    pub entries: u64,
    pub switch_entries: u64,
    /// Packets the server handled, overall and after warm-up (the second half).
    pub server_share: f64,
    pub warm_server_share: f64,
    /// After warm-up, the packets run whole for a server-only key (the rest of the server
    /// share visited the server partition, as they would with the whole map on the switch).
    #[serde(default)]
    pub warm_whole_share: f64,
    /// After warm-up, the packets that needed a key the server held but the switch did not
    /// (the partial table's own cost; a new flow's first packet, which the NF inserts on the
    /// server with or without a partial table, is not counted).
    #[serde(default)]
    pub warm_server_only_share: f64,
    /// Server-only packets of a key that had missed before and was not promoted since
    /// (`PartialStats::repeat_misses`, the whole run): what faster promotion could save.
    #[serde(default)]
    pub repeat_misses: u64,
    /// Promotions and evictions.
    pub promoted: u64,
    pub evicted: u64,
    /// Outputs and final state equal to the reference host's.
    pub passed: bool,
    /// The server's packet share per rebalance interval: (packets so far, share).
    pub series: Vec<(u64, f64)>,
}

/// A partial-map benchmark: one NF, map and switch size, several runs.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PartialBench {
    pub nf: String,
    pub map: String,
    /// Entries the switch table holds.
    pub switch_entries: u64,
    pub workload: String,
    pub flows: u64,
    /// Rebalance interval, packets.
    pub every: u64,
    /// The switch table sized per α to this share of the trace's distinct keys (`None`:
    /// `switch_entries` for every α).
    #[serde(default)]
    pub entries_share: Option<f64>,
    pub runs: Vec<PartialRun>,
    /// Per α: the floor under the server's share on that trace and table size
    /// (`partial_bound`).
    #[serde(default)]
    pub bounds: Vec<(f64, Bound)>,
    /// The command that reproduces it.
    pub command: String,
}

/// Runs `packets` through `bundle` beside the reference `native`, with `hotness`.
pub fn measure(
    bundle: &Bundle,
    native: NativeNf,
    packets: &mut dyn Iterator<Item = TracePacket>,
    alpha: f64,
    hotness: Hotness,
    every: u64,
) -> Result<PartialRun, BenchError> {
    Ok(measure_recording(bundle, native, packets, alpha, hotness, every, false)?.0)
}

/// [`measure`], also returning each packet's partial-map key when `record` (for
/// [`crate::partial_bound::bound`]; empty otherwise).
pub fn measure_recording(
    bundle: &Bundle,
    native: NativeNf,
    packets: &mut dyn Iterator<Item = TracePacket>,
    alpha: f64,
    hotness: Hotness,
    every: u64,
    record: bool,
) -> Result<(PartialRun, Vec<Option<PartialKey>>), BenchError> {
    let mut report = check(
        bundle,
        native,
        packets,
        CheckOptions {
            run: RunOptions {
                partial: PartialOptions {
                    hotness,
                    every,
                    ..PartialOptions::default()
                },
                ..RunOptions::default()
            },
            record_partial_keys: record,
            ..CheckOptions::default()
        },
    )?;
    let keys = std::mem::take(&mut report.partial_keys);
    let s = &report.offloaded;
    let p = s
        .partial
        .clone()
        .ok_or_else(|| BenchError::Setup("the program has no partial map".into()))?;
    let last = p.samples.last().cloned().unwrap_or_default();
    let half = report.packets / 2;
    let warm: Vec<&PartialSample> = p.samples.iter().filter(|x| x.packets > half).collect();
    let (ws, ww, wo, wn) = warm.iter().fold((0, 0, 0, 0), |(a, w, o, b), x| {
        (
            a + x.server_packets,
            w + x.whole_packets,
            o + x.server_only_packets,
            b + x.interval_packets,
        )
    });
    let server = s.via_server + s.whole_on_server + s.runts;
    let table = bundle
        .manifest
        .states
        .iter()
        .filter_map(|st| st.partial.as_ref())
        .map(|p| p.switch_entries)
        .sum();
    let run = PartialRun {
        alpha,
        hotness: hotness.name().into(),
        table,
        packets: report.packets,
        entries: last.entries,
        switch_entries: last.switch_entries,
        server_share: ratio(server, report.packets),
        warm_server_share: ratio(ws, wn),
        warm_whole_share: ratio(ww, wn),
        warm_server_only_share: ratio(wo, wn),
        repeat_misses: p.repeat_misses,
        promoted: p.promoted,
        evicted: p.evicted,
        passed: report.passed(),
        series: p
            .samples
            .iter()
            .map(|x| (x.packets, x.server_share()))
            .collect(),
    };
    Ok((run, keys))
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Goals: the switch holds ≤ 10% of the entries; ≥ 99.8% of packets on the switch after
/// warm-up at α ≥ 0.9; promotion cuts the server's share ≥ 2.4× at α ≥ 0.9.
pub const GOAL_SWITCH_SHARE: f64 = 0.998;
pub const GOAL_CUT: f64 = 2.4;
pub const GOAL_ENTRIES: f64 = 0.10;

/// The markdown section for `benches`: a row per α, promotion and none side by side, and
/// the goal rows (as `report`'s goals table rows: goal, target, measured, status).
pub fn markdown(benches: &[PartialBench]) -> (String, Vec<[String; 4]>) {
    use std::fmt::Write as _;
    let mut md = String::new();
    let mut goals = Vec::new();
    let pct = |x: f64| format!("{:.2}%", 100.0 * x);
    let status = |ok: bool| if ok { "met" } else { "**missed**" }.to_string();
    for b in benches {
        let size = match b.entries_share {
            Some(f) => format!("switch table {} of the trace's distinct keys", pct(f)),
            None => format!("{} switch entries", b.switch_entries),
        };
        let _ = writeln!(
            md,
            "### {} `{}`: {size}, {} workload, {} flows (Zipf address pairs), rebalanced every {} packets\n",
            b.nf, b.map, b.workload, b.flows, b.every
        );
        md.push_str("| α | packets | entries: switch table (share) | server share: sketch → none | after warm-up: sketch / counters → none | of which server-only keys (sketch, after warm-up) | floor after warm-up: new keys / clairvoyant | cut (warm) | promoted / evicted | check |\n|--:|--:|--:|--:|--:|--:|--:|--:|--:|:-:|\n");
        let mut alphas: Vec<f64> = b.runs.iter().map(|r| r.alpha).collect();
        alphas.sort_by(f64::total_cmp);
        alphas.dedup();
        for a in alphas {
            let get = |h: &str| b.runs.iter().find(|r| r.alpha == a && r.hotness == h);
            let (Some(on), Some(off)) = (get("sketch"), get("off")) else {
                continue;
            };
            let cut = if on.warm_server_share > 0.0 {
                off.warm_server_share / on.warm_server_share
            } else {
                f64::INFINITY
            };
            let table = if on.table > 0 {
                on.table
            } else {
                on.switch_entries
            };
            let share = ratio(table, on.entries);
            let counters = get("counters");
            let floor =
                b.bounds
                    .iter()
                    .find(|(x, _)| *x == a)
                    .map_or("–".to_string(), |(_, f)| {
                        format!(
                            "{} / {}",
                            pct(f.warm_compulsory_share),
                            pct(f.warm_belady_share)
                        )
                    });
            let passed = on.passed && off.passed && counters.is_none_or(|c| c.passed);
            let _ = writeln!(
                md,
                "| {a} | {} | {}: {table} ({}) | {} → {} | {} / {} → {} | {} | {floor} | {:.2}× | {} / {} | {} |",
                on.packets,
                on.entries,
                pct(share),
                pct(on.server_share),
                pct(off.server_share),
                pct(on.warm_server_share),
                counters.map_or("–".to_string(), |c| pct(c.warm_server_share)),
                pct(off.warm_server_share),
                pct(on.warm_server_only_share),
                cut,
                on.promoted,
                on.evicted,
                if passed { "PASS" } else { "FAIL" }
            );
            goals.push([
                format!(
                    "{} `{}` α = {a}: switch holds ≤ 10% of the entries",
                    b.nf, b.map
                ),
                "≤ 10.00%".into(),
                pct(share),
                status(share <= GOAL_ENTRIES),
            ]);
            if a >= 0.9 {
                let on_switch = 1.0 - on.warm_server_share;
                goals.push([
                    format!(
                        "{} `{}` α = {a}: packets on the switch after warm-up",
                        b.nf, b.map
                    ),
                    "≥ 99.80%".into(),
                    pct(on_switch),
                    status(on_switch >= GOAL_SWITCH_SHARE),
                ]);
                let kept = 1.0 - on.warm_server_only_share;
                goals.push([
                    format!(
                        "{} `{}` α = {a}: packets after warm-up not sent to the server for a \
                         key only the server held (new flows' inserts excluded)",
                        b.nf, b.map
                    ),
                    "≥ 99.80%".into(),
                    pct(kept),
                    status(kept >= GOAL_SWITCH_SHARE),
                ]);
                if let Some((_, f)) = b.bounds.iter().find(|(x, _)| *x == a) {
                    let best = 1.0 - f.warm_belady_share;
                    goals.push([
                        format!(
                            "{} `{}` α = {a}: the most any runtime could keep on the switch \
                             after warm-up on this trace (clairvoyant, `partial_bound`)",
                            b.nf, b.map
                        ),
                        "≥ 99.80%".into(),
                        pct(best),
                        if best >= GOAL_SWITCH_SHARE {
                            "possible"
                        } else {
                            "**impossible on this trace**"
                        }
                        .into(),
                    ]);
                }
                goals.push([
                    format!(
                        "{} `{}` α = {a}: server share cut by count-min promotion",
                        b.nf, b.map
                    ),
                    "≥ 2.40×".into(),
                    format!("{cut:.2}×"),
                    status(cut >= GOAL_CUT),
                ]);
            }
        }
        md.push('\n');
        let _ = writeln!(md, "```\n{}\n```\n", b.command);
    }
    (md, goals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(alpha: f64, hotness: &str, warm: f64) -> PartialRun {
        PartialRun {
            alpha,
            hotness: hotness.into(),
            table: 80,
            packets: 1000,
            entries: 1000,
            switch_entries: 80,
            server_share: warm,
            warm_server_share: warm,
            warm_whole_share: warm / 2.0,
            warm_server_only_share: warm / 5.0,
            repeat_misses: 0,
            promoted: 5,
            evicted: 5,
            passed: true,
            series: vec![(500, warm), (1000, warm)],
        }
    }

    fn bench() -> PartialBench {
        PartialBench {
            nf: "MiniLB".into(),
            map: "map".into(),
            switch_entries: 80,
            workload: "datamining".into(),
            flows: 100,
            every: 100,
            entries_share: None,
            bounds: vec![(
                1.1,
                Bound {
                    warm_compulsory_share: 0.0005,
                    warm_belady_share: 0.0008,
                    ..Bound::default()
                },
            )],
            runs: vec![
                run(0.8, "sketch", 0.01),
                run(0.8, "off", 0.5),
                run(1.1, "sketch", 0.001),
                run(1.1, "off", 0.002),
            ],
            command: "tandem bench-partial".into(),
        }
    }

    #[test]
    fn goals_follow_the_figures() {
        let (md, goals) = markdown(&[bench()]);
        assert!(
            md.contains(
                "| 1.1 | 1000 | 1000: 80 (8.00%) | 0.10% → 0.20% | 0.10% / – → 0.20% | 0.02% | 0.05% / 0.08% | 2.00× |"
            ),
            "{md}"
        );
        let row = |g: &str| {
            goals
                .iter()
                .find(|r| r[0].contains(g) && r[0].contains("1.1"))
                .unwrap()
                .clone()
        };
        assert_eq!(row("after warm-up")[3], "met");
        assert_eq!(row("cut by")[3], "**missed**");
        assert_eq!(row("≤ 10%")[3], "met");
        // α below 0.9 has no switch-share or cut goal.
        assert_eq!(goals.iter().filter(|r| r[0].contains("0.8")).count(), 1);
    }

    #[test]
    fn the_figure_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("partial.svg");
        crate::plot::partial_server_share(&[bench()], &p).unwrap();
        let svg = std::fs::read_to_string(&p).unwrap();
        assert!(svg.contains("count-min promotion") && svg.contains("no promotion"));
    }
}
