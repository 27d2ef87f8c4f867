//! `tandem check`: compile an NF, run the reference host and the offloaded pair on the same
//! traffic, and compare outputs (per port, as multisets, byte-exact) and final state.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use tandem_offload::{
    check, check_concurrent, compile_bundle, CheckOptions, ConcurrentOptions, GroupChange,
    NfSource, RunOptions,
};
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
    /// Switch architecture: `v1model` or `tna` (both run on the software switch).
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
    #[command(flatten)]
    pub layout: super::partition::LayoutArgs,
    /// Rate-limit the packets the switch sends to the server: PPS packets per second,
    /// bursts of BURST (default PPS/10); excess ones are dropped at the switch and counted
    /// (docs/runtime.md "Server meter").
    #[arg(long, value_name = "PPS[:BURST]")]
    pub server_rate: Option<tandem_p4::ServerRate>,
    /// Do not copy join tails (see `tandem partition --help`).
    #[arg(long)]
    pub no_split_joins: bool,
    /// Do not keep derived state classes on the switch (see `tandem partition --help`).
    #[arg(long)]
    pub no_state_classes: bool,
    /// Write the report as JSON here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Server hosts behind the switch: flows spread by a hash of their endpoints when the
    /// shardable-state analysis allows (its result is printed), else one server.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub servers: usize,
    /// A membership change before packet P (from 0): `P:add` (a server joins) or
    /// `P:remove=ID` (server ID leaves; its flows migrate with their state). Repeatable; flows
    /// keep their server otherwise.
    #[arg(long = "change", value_name = "P:add|P:remove=ID")]
    pub changes: Vec<String>,
    /// The share of new flows the owner of global state (server 0) takes, in percent of
    /// an even share (100); less leaves it room for publishing the other servers' changes
    /// (docs/cluster.md, "Balancing the owner").
    #[arg(long, value_name = "PERCENT")]
    pub owner_share: Option<u32>,
    #[command(flatten)]
    pub concurrent: ConcurrentArgs,
}

/// Parses `--change` values.
fn parse_changes(specs: &[String]) -> anyhow::Result<Vec<(u64, GroupChange)>> {
    specs
        .iter()
        .map(|s| {
            let bad = || anyhow::anyhow!("--change {s}: expected P:add or P:remove=ID");
            let (at, what) = s.split_once(':').ok_or_else(bad)?;
            let at: u64 = at.parse().map_err(|_| bad())?;
            let c = match what {
                "add" => GroupChange::Add,
                w => GroupChange::Remove(
                    w.strip_prefix("remove=")
                        .and_then(|id| id.parse().ok())
                        .ok_or_else(bad)?,
                ),
            };
            Ok((at, c))
        })
        .collect()
}

/// Concurrent execution (`tandem_offload::concurrent`).
#[derive(clap::Args, Clone, Debug)]
pub struct ConcurrentArgs {
    /// Run the switch and the server host at once (two threads, control latency, bounded
    /// server queue) and compare with the reference run in the same serial order, each
    /// flow's packets in arrival order (docs/runtime.md, "Concurrent execution").
    #[arg(long)]
    pub concurrent: bool,
    /// With --concurrent: delay of every control-plane request (`500ns`, `10us`, `1ms`, `10ms`).
    #[arg(long, value_name = "DURATION", default_value = "10us")]
    pub control_latency: String,
    /// With --concurrent: packets the server queue holds (the switch waits when it is full).
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub server_queue: usize,
    /// With --concurrent: count the control latency on a simulated clock (the packets'
    /// arrival times) instead of sleeping it: the threads race as the latency lets them,
    /// and a 10 ms run costs the wall time of a 10 µs one.
    #[arg(long)]
    pub virtual_clock: bool,
}

impl ConcurrentArgs {
    pub fn options(&self) -> anyhow::Result<ConcurrentOptions> {
        if self.server_queue == 0 {
            anyhow::bail!("--server-queue must be at least 1");
        }
        Ok(ConcurrentOptions {
            latency: parse_duration(&self.control_latency)?,
            queue: self.server_queue,
            virtual_clock: self.virtual_clock,
            ..ConcurrentOptions::default()
        })
    }
}

/// `10us`, `1ms`, `500ns`, `1s` (at most one second).
pub fn parse_duration(text: &str) -> anyhow::Result<Duration> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    let n: u64 = n.parse().map_err(|_| {
        anyhow::anyhow!("--control-latency {text}: expected a number and a unit, e.g. 10us")
    })?;
    let ns = match unit {
        "ns" => n,
        "us" | "µs" => n.saturating_mul(1_000),
        "ms" => n.saturating_mul(1_000_000),
        "s" => n.saturating_mul(1_000_000_000),
        _ => anyhow::bail!("--control-latency {text}: the unit must be ns, us, ms or s"),
    };
    if ns > 1_000_000_000 {
        anyhow::bail!("--control-latency {text}: at most 1s");
    }
    Ok(Duration::from_nanos(ns))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    // both architectures run on Tandem's software switch (v1model; TNA: tandem_switch::tna)
    let arch = Arch::from_name(&args.target)?;
    let given = super::partition::load_profile(&args.profile)?;
    let module = super::partition::load_module(&args.nf)?;
    let mut profile = super::partition::compressed_profile(
        &args.layout,
        &module,
        &given,
        Some(arch == Arch::Tna),
    )?;
    // What the architecture cannot do on the switch (TNA: no frame length in ingress) is
    // planned on the server, as `compile` plans it.
    arch.constrain(&mut profile);
    let pools = args.layout.parse_pool(&module, &given)?;
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
            hashed: args.layout.parse()?,
            alpm: args.layout.parse_alpm(&module, &given)?,
            digest: args.layout.parse_digest(&module, &given)?,
            pool: pools.0,
            pool_auto: pools.1,
            partial_miss_to_server: !args.partial.partial_probe,
            server_rate: args.server_rate,
            // Several servers: the switch program picks the server (docs/cluster.md).
            dispatch: (args.servers > 1 || !args.changes.is_empty())
                .then(tandem_p4::DispatchShape::default),
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
    let options = CheckOptions {
        run: RunOptions {
            partial: args.promote.options()?,
            ..RunOptions::default()
        },
        closed_loop: !args.traffic.open_loop,
        control: None,
        progress: Some(Box::new(move |_| tick.inc(1))),
        servers: args.servers,
        changes: parse_changes(&args.changes)?,
        owner_share: args.owner_share,
        ..CheckOptions::default()
    };
    let report = if args.concurrent.concurrent {
        let conc = args.concurrent.options()?;
        let second = load_nf(&args.nf, args.config.as_deref())?;
        check_concurrent(&bundle, native, second, &mut packets, options, &conc)?
    } else {
        check(&bundle, native, &mut packets, options)?
    };
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
    if let Some(m) = report.metered {
        println!("  not given (metered) {m:>8}");
    }
    println!("offloaded:");
    super::run::print_stats(&report.offloaded);
    if let Some(text) = &report.sharding {
        print!("{text}");
        for (i, l) in report.per_server.iter().enumerate() {
            println!("  server {i:<3}         {:>10} packets", l.packets);
        }
        if let (Some(w), false) = (args.owner_share, report.per_server.is_empty()) {
            println!(
                "  dispatch weight: server 0 (the owner) takes {w}% of an even share of new flows"
            );
        }
        if let Some((m, pinned)) = &report.membership {
            println!(
                "  membership: version {}, {} flows pinned at the last change ({} Bloom-filter mismatches), {} migrated, {pinned} pinned now",
                m.version, m.pinned, m.mismatches, m.migrated
            );
        }
    }
    if let Some(path) = &args.json {
        std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(c) = &report.concurrent {
        println!(
            "concurrent: control latency {}{}, server queue {}: {} packets passed the switch while one was at the server, {} waited for their flow, {} ran serially, at most {} at the server, {} server packets with stale switch reads ({} run again whole on the server)",
            args.concurrent.control_latency,
            if c.virtual_end_ns > 0 {
                format!(
                    " (simulated clock: {:.3} s virtual)",
                    c.virtual_end_ns as f64 / 1e9
                )
            } else {
                String::new()
            },
            args.concurrent.server_queue,
            c.overtaking,
            c.waited_for_flow,
            c.serial,
            c.max_in_flight,
            c.stale_reads,
            c.reexecuted
        );
    }
    if report.passed() && report.concurrent.is_some() {
        println!(
            "PASS: every packet's verdict equal to the reference run in the concurrent run's serial order, each flow in arrival order, final state equal"
        );
        return Ok(());
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
    for d in &report.order_violations {
        println!("  {d}");
    }
    if report.concurrent.is_some() && report.differing_packets > 0 {
        println!(
            "  {} packets differ from the reference run in the same order",
            report.differing_packets
        );
    }
    if let Some(first) = &report.first_difference {
        println!("first differing {first}");
    }
    anyhow::bail!("the offloaded NF differs from the original")
}
