//! `tandem bench-partial`: a partial map under Zipf traffic, with count-min promotion and
//! without, side by side on the same traces, each run through `tandem check`
//! (`tandem_bench::partial`); `tandem bench-report --partial` puts the result in
//! BENCHMARKS.md.

use std::path::PathBuf;

use anyhow::Context;
use tandem_bench::partial::{measure, PartialBench};
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
    /// Entries its switch table holds.
    #[arg(long)]
    pub entries: u64,
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
    let opts = PartitionOptions {
        partial: [(a.map.clone(), Some(a.entries))].into_iter().collect(),
        ..PartitionOptions::default()
    };
    let source = NfSource::new(a.nf.clone(), a.config.clone());
    let bundle = compile_bundle(
        &module,
        &profile,
        &opts,
        &P4Options::default(),
        Some(source),
    )
    .with_context(|| format!("compiling {}", a.nf.display()))?;
    let workload = Workload::resolve(&a.workload)?;
    let plan: Plan = a.plan.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut runs = Vec::new();
    for &alpha in &a.alphas {
        for hotness in [Hotness::Sketch, Hotness::Off] {
            let gen = GenOptions {
                flows: a.flows,
                seed: a.seed,
                plan,
                concurrency: a.concurrency,
                zipf: Some(alpha),
                ..GenOptions::default()
            };
            let mut pkts = Generator::new(&workload, gen)?.take(a.packets.unwrap_or(usize::MAX));
            let native = load_nf(&a.nf, a.config.as_deref())?;
            let r = measure(&bundle, native, &mut pkts, alpha, hotness, a.every)?;
            println!(
                "α {alpha} {:<6}: {} packets, {} entries ({} on the switch), server share {:.3}% (after warm-up {:.3}%; for server-only keys {:.3}%, {} of them repeat misses), {} promoted, {} evicted, check {}",
                r.hotness,
                r.packets,
                r.entries,
                r.switch_entries,
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
    }
    let mut command = format!(
        "tandem bench-partial {} --profile {} --map {} --entries {} --alphas {} --workload {} --flows {} --plan {} --seed {} --concurrency {} --every {}",
        a.nf.display(),
        a.profile,
        a.map,
        a.entries,
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
    let bench = PartialBench {
        nf: bundle.plan.nf.clone(),
        map: a.map.clone(),
        switch_entries: a.entries,
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
