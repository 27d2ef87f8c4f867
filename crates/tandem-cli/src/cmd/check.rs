//! `tandem check`: compile an NF, run the reference host and the offloaded pair on the same
//! traffic, and compare outputs (per port, as multisets, byte-exact) and final state.

use std::path::PathBuf;

use anyhow::Context;
use tandem_offload::{check, compile_bundle, CheckOptions, NfSource, RunOptions};
use tandem_p4::{Arch, P4Options};
use tandem_partition::PartitionOptions;

use crate::cmd::host::{load_nf, TrafficArgs};
use crate::cmd::progress;

#[derive(clap::Args)]
pub struct Args {
    /// The NF source (`.cc`).
    pub nf: PathBuf,
    /// The NF's configuration (default: `<stem>.toml` beside the source, if any).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Switch architecture (only `v1model` runs on the software switch).
    #[arg(long, default_value = "v1model")]
    pub target: String,
    /// Target profile for partitioning (tofino1, tofino2, bmv2, tiny, or a `.toml`).
    #[arg(long, default_value = "tofino1")]
    pub profile: String,
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// Stop after this many packets.
    #[arg(long)]
    pub packets: Option<usize>,
    /// Size switch tables for at most N entries (see `tandem compile --help`).
    #[arg(long, value_name = "N")]
    pub max_table_size: Option<u64>,
    #[command(flatten)]
    pub partial: super::partition::PartialArgs,
    #[command(flatten)]
    pub promote: super::run::PromoteArgs,
    /// Do not copy join tails (see `tandem partition --help`).
    #[arg(long)]
    pub no_split_joins: bool,
    /// Do not keep derived state classes on the switch (see `tandem partition --help`).
    #[arg(long)]
    pub no_state_classes: bool,
    /// Write the report as JSON here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let arch = Arch::from_name(&args.target)?;
    if arch != Arch::V1Model {
        anyhow::bail!(
            "`tandem check` runs the switch program on Tandem's software switch, which runs v1model; `--target {}` cannot be checked here",
            args.target
        );
    }
    let profile = super::partition::load_profile(&args.profile)?;
    let module = super::partition::load_module(&args.nf)?;
    let bundle = compile_bundle(
        &module,
        &profile,
        &PartitionOptions {
            split_joins: !args.no_split_joins,
            partial: args.partial.parse()?,
            auto_partial: args.partial.partial_auto,
            state_classes: !args.no_state_classes,
            ..PartitionOptions::default()
        },
        &P4Options {
            arch,
            max_table_size: args.max_table_size,
            partial_miss_to_server: !args.partial.partial_probe,
            ..P4Options::default()
        },
        Some(NfSource::new(args.nf.clone(), args.config.clone())),
    )
    .with_context(|| format!("compiling {}", args.nf.display()))?;
    let native = load_nf(&args.nf, args.config.as_deref())?;
    let bar = progress::spinner("packets");
    let tick = bar.clone();
    let mut error = None;
    let mut packets = args
        .traffic
        .packets()?
        .take(args.packets.unwrap_or(usize::MAX))
        .map_while(|p| match p {
            Ok(p) => Some(p),
            Err(e) => {
                error = Some(e);
                None
            }
        });
    let report = check(
        &bundle,
        native,
        &mut packets,
        CheckOptions {
            run: RunOptions {
                partial: args.promote.options()?,
                ..RunOptions::default()
            },
            closed_loop: !args.traffic.open_loop,
            control: None,
            progress: Some(Box::new(move |_| tick.inc(1))),
        },
    )?;
    drop(packets);
    bar.finish_and_clear();
    if let Some(e) = error {
        return Err(e.context("reading the traffic"));
    }
    if report.packets == 0 {
        anyhow::bail!(
            "no packets to check (an empty trace, --flows 0 or --packets 0): a check on no traffic shows nothing"
        );
    }
    println!(
        "check {} ({}, {}): {} packets",
        bundle.plan.nf, bundle.manifest.arch, bundle.plan.target, report.packets
    );
    println!("reference host:");
    for (port, n) in &report.reference_out {
        println!("    out port {port:<3}    {n:>10}");
    }
    println!("  dropped           {:>10}", report.reference_dropped);
    println!("offloaded:");
    super::run::print_stats(&report.offloaded);
    if let Some(path) = &args.json {
        std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if report.passed() {
        println!(
            "PASS: every port's output equal to the reference (byte-exact multisets), final state equal"
        );
        return Ok(());
    }
    println!("FAIL:");
    for (port, (missing, extra)) in &report.multiset_differences {
        println!(
            "  port {port}: {missing} frames of the reference missing, {extra} frames not in the reference"
        );
    }
    for d in &report.state_differences {
        println!("  {d}");
    }
    if let Some(first) = &report.first_difference {
        println!("first differing {first}");
    }
    anyhow::bail!("the offloaded NF differs from the original")
}
