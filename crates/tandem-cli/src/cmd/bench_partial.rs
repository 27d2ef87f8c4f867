//! `tandem bench-partial`: a partial map under Zipf traffic, with promotion (count-min
//! sketch, per-entry hit counters) and without, side by side on the same traces, each run
//! through `tandem check` (`tandem_bench::partial`), with the floor no runtime could beat on
//! the trace (`tandem_bench::partial_bound`); `tandem bench-report --partial` puts the
//! result in BENCHMARKS.md.
//!
//! With `--entries-share F` the switch table is sized per α to `F` of the map's distinct
//! keys over the trace (a first run records each packet's key; the table of the measured
//! runs holds `floor(F × keys)` entries): the whole budget, not a guess made before the
//! trace was known.

use std::path::PathBuf;

use anyhow::Context;
use tandem_bench::partial::{measure_recording, PartialBench};
use tandem_bench::partial_bound::bound;
use tandem_offload::partial::Hotness;
use tandem_offload::{compile_bundle, NfSource};
use tandem_p4::P4Options;
use tandem_partition::PartitionOptions;
use tandem_traffic::{GenOptions, Generator, Plan, Workload};

use crate::cmd::host::load_nf;

#[derive(clap::Args)]
pub struct Args {
    /// The NF source (`.cc`).
    pub nf: PathBuf,
    /// The NF's configuration (default: `<stem>.toml` beside the source, if any).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Target profile for partitioning.
    #[arg(long, default_value = "tofino1")]
    pub profile: String,
    /// The map kept partial.
    #[arg(long)]
    pub map: String,
    /// Entries its switch table holds (with --entries-share: the first, recording run's).
    #[arg(long)]
    pub entries: u64,
    /// Size the switch table per α to this share of the map's distinct keys over the trace
    /// (0..1], e.g. 0.1 for the 10% budget.
    #[arg(long, value_name = "SHARE")]
    pub entries_share: Option<f64>,
    /// Hotness sources to run, side by side (`sketch`, `counters`, `off`); the report
    /// compares `sketch` with `off`.
    #[arg(long, value_delimiter = ',', default_value = "sketch,counters,off")]
    pub hotness: Vec<String>,
    /// Zipf exponents of the flows' popularity, one run pair each.
    #[arg(long, value_delimiter = ',', default_value = "0.8,0.9,1.1")]
    pub alphas: Vec<f64>,
    /// A built-in workload or a CDF file.
    #[arg(short, long, default_value = "datamining")]
    pub workload: String,
    /// Flows (and Zipf identities).
    #[arg(short = 'n', long, default_value_t = 4000)]
    pub flows: u64,
    /// Address plan.
    #[arg(short, long, default_value = "lb")]
    pub plan: String,
    /// Seed.
    #[arg(short, long, default_value_t = 1)]
    pub seed: u64,
    /// Concurrent connections.
    #[arg(long, default_value_t = 100)]
    pub concurrency: u32,
    /// Stop after this many packets per run.
    #[arg(long)]
    pub packets: Option<usize>,
    /// Rebalance every N packets.
    #[arg(long, default_value_t = 1000)]
    pub every: u64,
    /// Write the result as JSON here.
    #[arg(long, value_name = "FILE")]
    pub json: PathBuf,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let profile = super::partition::load_profile(&a.profile)?;
    let module = super::partition::load_module(&a.nf)?;
    let compile = |entries: u64| {
        let opts = PartitionOptions {
            partial: [(a.map.clone(), Some(entries))].into_iter().collect(),
            ..PartitionOptions::default()
        };
        let source = NfSource::new(a.nf.clone(), a.config.clone());
        compile_bundle(
            &module,
            &profile,
            &opts,
            &P4Options::default(),
            Some(source),
        )
        .with_context(|| format!("compiling {}", a.nf.display()))
    };
    if let Some(f) = a.entries_share {
        if !(f > 0.0 && f <= 1.0) {
            anyhow::bail!("--entries-share {f}: give a share in (0, 1]");
        }
    }
    let hotness: Vec<Hotness> = a
        .hotness
        .iter()
        .map(|h| h.parse().map_err(|e| anyhow::anyhow!("--hotness: {e}")))
        .collect::<anyhow::Result<_>>()?;
    let bundle = compile(a.entries)?;
    let workload = Workload::resolve(&a.workload)?;
    let plan: Plan = a.plan.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut runs = Vec::new();
    let mut bounds = Vec::new();
    let mut largest = 0;
    for &alpha in &a.alphas {
        let trace = || -> anyhow::Result<_> {
            let gen = GenOptions {
                flows: a.flows,
                seed: a.seed,
                plan,
                concurrency: a.concurrency,
                zipf: Some(alpha),
                ..GenOptions::default()
            };
            Ok(Generator::new(&workload, gen)?.take(a.packets.unwrap_or(usize::MAX)))
        };
        // The first run records the packets' keys (the same whatever the hotness); with
        // --entries-share it only does that, on the --entries table.
        let mut keys = Vec::new();
        let mut sized = None;
        if a.entries_share.is_some() {
            let native = load_nf(&a.nf, a.config.as_deref())?;
            keys = measure_recording(
                &bundle,
                native,
                &mut trace()?,
                alpha,
                Hotness::Off,
                a.every,
                true,
            )?
            .1;
        }
        for &h in &hotness {
            if let (Some(f), None) = (a.entries_share, &sized) {
                let distinct: std::collections::HashSet<_> = keys.iter().flatten().collect();
                let n = ((f * distinct.len() as f64).floor() as u64).max(1);
                println!(
                    "α {alpha}: {} distinct keys, switch table {n} entries ({:.2}%)",
                    distinct.len(),
                    100.0 * n as f64 / distinct.len().max(1) as f64
                );
                sized = Some((n, compile(n)?));
            }
            let (table, b) = match &sized {
                Some((n, b)) => (*n, b),
                None => (a.entries, &bundle),
            };
            largest = largest.max(table);
            let native = load_nf(&a.nf, a.config.as_deref())?;
            let record = keys.is_empty();
            let (r, k) = measure_recording(b, native, &mut trace()?, alpha, h, a.every, record)?;
            if record {
                keys = k;
            }
            println!(
                "α {alpha} {:<8}: {} packets, {} entries ({} on the switch, table {}), server share {:.3}% (after warm-up {:.3}%; for server-only keys {:.3}%, {} of them repeat misses), {} promoted, {} evicted, check {}",
                r.hotness,
                r.packets,
                r.entries,
                r.switch_entries,
                r.table,
                100.0 * r.server_share,
                100.0 * r.warm_server_share,
                100.0 * r.warm_server_only_share,
                r.repeat_misses,
                r.promoted,
                r.evicted,
                if r.passed { "PASS" } else { "FAIL" }
            );
            runs.push(r);
        }
        let table = sized.as_ref().map_or(a.entries, |(n, _)| *n);
        let warm_from = keys.len() / 2;
        let f = bound(&keys, table, warm_from);
        println!(
            "α {alpha} floor: {} keys, table {table}: after warm-up (packets {warm_from}..) {:.3}% of the packets are a key's first, {:.3}% miss even a clairvoyant table (Belady); the {table} busiest keys carry {:.2}% of all packets",
            f.keys,
            100.0 * f.warm_compulsory_share,
            100.0 * f.warm_belady_share,
            100.0 * f.top_share
        );
        bounds.push((alpha, f));
    }
    let mut command = format!(
        "tandem bench-partial {} --profile {} --map {} --entries {} --hotness {} --alphas {} --workload {} --flows {} --plan {} --seed {} --concurrency {} --every {}",
        a.nf.display(),
        a.profile,
        a.map,
        a.entries,
        a.hotness.join(","),
        a.alphas
            .iter()
            .map(f64::to_string)
            .collect::<Vec<_>>()
            .join(","),
        a.workload,
        a.flows,
        a.plan,
        a.seed,
        a.concurrency,
        a.every
    );
    if let Some(n) = a.packets {
        command += &format!(" --packets {n}");
    }
    if let Some(f) = a.entries_share {
        command += &format!(" --entries-share {f}");
    }
    let bench = PartialBench {
        nf: bundle.plan.nf.clone(),
        map: a.map.clone(),
        switch_entries: if a.entries_share.is_some() {
            largest
        } else {
            a.entries
        },
        entries_share: a.entries_share,
        bounds,
        workload: workload.name.clone(),
        flows: a.flows,
        every: a.every,
        runs,
        command,
    };
    if let Some(dir) = a.json.parent() {
        std::fs::create_dir_all(dir).ok();
    }
    std::fs::write(&a.json, serde_json::to_string_pretty(&bench)? + "\n")
        .with_context(|| format!("writing {}", a.json.display()))?;
    println!("wrote {}", a.json.display());
    if bench.runs.iter().any(|r| !r.passed) {
        anyhow::bail!("a run's outputs or state differ from the reference host's: run `tandem check` with the same options");
    }
    Ok(())
}
