//! `tandem run`: the compiled pair — switch program on the software switch, server partition
//! in the server host — on a trace or a generated workload.

use std::path::{Path, PathBuf};

use anyhow::Context;
use tandem_offload::partial::{Hotness, PartialOptions};
use tandem_offload::{Bundle, Offloaded, RunOptions, RunStats};

use crate::cmd::host::{drive, load_nf, write_json, TrafficArgs};

#[derive(clap::Args)]
pub struct Args {
    /// A directory written by `tandem compile`.
    pub compiled: PathBuf,
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// Stop after this many packets.
    #[arg(long)]
    pub packets: Option<usize>,
    /// Where to write port<N>.pcap and summary.json.
    #[arg(long, default_value = "out/run")]
    pub out_dir: PathBuf,
    /// The NF source, when the compiled directory's nf.json does not say (or moved).
    #[arg(long)]
    pub nf: Option<PathBuf>,
    /// The NF's configuration (default: what nf.json says).
    #[arg(long)]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub promote: PromoteArgs,
    /// The server meter's rate at run time, instead of the compiled one (the program must
    /// be compiled with `--server-rate`).
    #[arg(long, value_name = "PPS[:BURST]")]
    pub server_rate: Option<tandem_p4::ServerRate>,
    #[command(flatten)]
    pub concurrent: super::check::ConcurrentArgs,
}

/// How partial maps are rebalanced (`tandem_offload::partial`).
#[derive(clap::Args, Clone, Debug)]
pub struct PromoteArgs {
    /// Hotness of partial maps' entries: `sketch` (the switch's count-min sketch and the
    /// server's counts), `counters` (the switch table's per-entry hit counters and the
    /// server's counts) or `off` (no promotion: the switch keeps the entries it took first).
    #[arg(
        long,
        alias = "hotness",
        value_name = "HOTNESS",
        default_value = "sketch"
    )]
    pub promote: String,
    /// Rebalance partial maps every N packets.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub promote_every: u64,
}

impl PromoteArgs {
    pub fn options(&self) -> anyhow::Result<PartialOptions> {
        let hotness: Hotness = self
            .promote
            .parse()
            .map_err(|e| anyhow::anyhow!("--promote: {e}"))?;
        if self.promote_every == 0 {
            anyhow::bail!("--promote-every must be at least 1");
        }
        Ok(PartialOptions {
            hotness,
            every: self.promote_every,
            ..PartialOptions::default()
        })
    }
}

/// The configured NF's initial state (configure() on the native build) for a bundle.
pub fn initial_state(
    bundle: &Bundle,
    nf: Option<&Path>,
    config: Option<&Path>,
) -> anyhow::Result<serde_json::Value> {
    let (source, cfg) = match (nf, &bundle.nf) {
        (Some(n), _) => (n.to_path_buf(), config.map(Path::to_path_buf)),
        (None, Some(s)) => {
            if let Some(why) = s.staleness() {
                eprintln!("warning: {why}");
            }
            (
                s.source.clone(),
                config.map(Path::to_path_buf).or_else(|| s.config.clone()),
            )
        }
        (None, None) => anyhow::bail!(
            "the compiled directory does not say where the NF source is (no nf.json): give --nf FILE.cc"
        ),
    };
    let mut native = load_nf(&source, cfg.as_deref())
        .with_context(|| format!("running configure() of {}", source.display()))?;
    if native.timer_interval_ns() != bundle.module.timer_interval_ns() {
        anyhow::bail!(
            "{}: the NF ticks every {} ns, the compiled one every {} ns: recompile",
            source.display(),
            native.timer_interval_ns(),
            bundle.module.timer_interval_ns()
        );
    }
    Ok(native.dump_state(0)?)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let bundle = Bundle::load(&args.compiled)?;
    let initial = initial_state(&bundle, args.nf.as_deref(), args.config.as_deref())?;
    let options = RunOptions {
        partial: args.promote.options()?,
        server_rate: args.server_rate,
        ..RunOptions::default()
    };
    let t0 = std::time::Instant::now();
    let (files, stats) = if args.concurrent.concurrent {
        run_concurrent(&args, &bundle, &initial, &options)?
    } else {
        let mut sys = Offloaded::new(&bundle, &initial, &options, None)?;
        let files = drive(&args.traffic, args.packets, &args.out_dir, |pkt| {
            Ok(sys.process(pkt)?)
        })?;
        (files, sys.stats())
    };
    let mut v = serde_json::to_value(&stats)?;
    v["nf"] = bundle.plan.nf.clone().into();
    v["target"] = bundle.plan.target.clone().into();
    v["fast_path_share"] = stats.fast_path_share().into();
    v["wall_ns"] = (t0.elapsed().as_nanos() as u64).into();
    write_json(&args.out_dir.join("summary.json"), &v)?;
    println!(
        "offloaded {} ({}, {})",
        bundle.plan.nf, bundle.manifest.arch, bundle.plan.target
    );
    print_stats(&stats);
    for f in files {
        println!("  wrote {}", f.display());
    }
    println!("  wrote {}", args.out_dir.join("summary.json").display());
    Ok(())
}

/// `tandem run --concurrent`: the whole trace through switch and server at once; outputs
/// written in the order they left. Open loop only: a closed loop rewrites each reply from an
/// output, which needs the outputs one at a time.
fn run_concurrent(
    args: &Args,
    bundle: &Bundle,
    initial: &serde_json::Value,
    options: &RunOptions,
) -> anyhow::Result<(Vec<PathBuf>, RunStats)> {
    if !args.traffic.open_loop {
        anyhow::bail!(
            "--concurrent runs the whole trace at once, so replies cannot be rewritten from the outputs: add --open-loop (or use `tandem check --concurrent`, which makes the closed-loop trace with the reference first)"
        );
    }
    let packets = args
        .traffic
        .packets()?
        .take(args.packets.unwrap_or(usize::MAX))
        .collect::<Result<Vec<_>, _>>()?;
    let conc = args.concurrent.options()?;
    let (run, stats, _) =
        tandem_offload::run_concurrent(bundle, initial, options, &conc, &packets)?;
    let mut sink = tandem_host::PortPcapSink::create(&args.out_dir)?;
    for &i in &run.emitted {
        if let tandem_host::Verdict::Send { port, frame } = &run.verdicts[i] {
            sink.write(*port, packets[i].ts_ns, frame)?;
        }
    }
    println!(
        "concurrent: control latency {}, server queue {}: {} packets passed the switch while one was at the server, {} waited for their flow, {} ran serially",
        args.concurrent.control_latency,
        args.concurrent.server_queue,
        run.overtaking,
        run.waited_for_flow,
        run.serial
    );
    Ok((sink.finish()?, stats))
}

pub fn print_stats(s: &RunStats) {
    let pct = |n: u64| {
        if s.packets == 0 {
            0.0
        } else {
            100.0 * n as f64 / s.packets as f64
        }
    };
    println!("  packets in        {:>10}", s.packets);
    println!(
        "  switch only       {:>10}  ({:.2}%: the fast path)",
        s.fast_path,
        pct(s.fast_path)
    );
    println!(
        "  via the server    {:>10}  ({:.2}%)",
        s.via_server,
        pct(s.via_server)
    );
    if let Some(m) = s.metered {
        println!(
            "  metered           {:>10}  (server-bound, dropped at the switch by --server-rate)",
            m
        );
    }
    if s.whole_on_server > 0 {
        println!(
            "  whole on server   {:>10}  (keys a full switch table could not take)",
            s.whole_on_server
        );
    }
    if s.runts > 0 {
        println!(
            "  runts             {:>10}  (shorter than an Ethernet header: run whole on the server)",
            s.runts
        );
    }
    for (port, n) in &s.out_per_port {
        println!("    out port {port:<3}    {n:>10}");
    }
    println!("  dropped           {:>10}", s.dropped);
    if s.timer_ticks > 0 {
        println!(
            "  timer ticks       {:>10}  (on_timer on the server, the switch updated before the next packet)",
            s.timer_ticks
        );
    }
    let y = &s.sync;
    let sizes: Vec<String> = y
        .batch_sizes
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| {
            if k + 1 == y.batch_sizes.len() {
                format!("{k}+:{n}")
            } else {
                format!("{k}:{n}")
            }
        })
        .collect();
    println!(
        "  table updates     {:>10}  atomic batches, {} entries (entries per batch {})",
        y.batches,
        y.entries,
        if sizes.is_empty() {
            "-".into()
        } else {
            sizes.join(" ")
        }
    );
    println!(
        "  control plane     {:>10}  requests, {} retried, {} register writes",
        y.requests, y.retries, y.register_writes
    );
    if y.table_full > 0 || y.server_only > 0 {
        println!(
            "  table full        {:>10}  keys refused; {} kept on the server only now",
            y.table_full, y.server_only
        );
    }
    if let Some(h) = &y.hashed {
        println!(
            "  hashed registers  {:>10}  keys in register cells, {} through the collision table",
            h.keys, h.collisions
        );
    }
    println!(
        "  server time       {:>10.3} ms  (server partition + synchronisation)",
        s.server_ns as f64 / 1e6
    );
    if let Some(p) = &s.partial {
        print_partial(p);
    }
}

/// Partial maps: rebalances and, over time, the switch's share of the entries and the
/// server's share of the packets (at most 12 rows: samples merged evenly).
fn print_partial(p: &tandem_offload::partial::PartialStats) {
    println!(
        "  partial maps      {:>10}  rebalances, {} promoted, {} evicted",
        p.rebalances, p.promoted, p.evicted
    );
    if p.samples.is_empty() {
        return;
    }
    println!(
        "    {:>10}  {:>14}  {:>14}",
        "packets", "switch entries", "server packets"
    );
    let per = p.samples.len().div_ceil(12);
    for chunk in p.samples.chunks(per) {
        let (Some(last), srv, n) = (
            chunk.last(),
            chunk.iter().map(|x| x.server_packets).sum::<u64>(),
            chunk.iter().map(|x| x.interval_packets).sum::<u64>(),
        ) else {
            continue;
        };
        println!(
            "    {:>10}  {:>6} {:>6.2}%  {:>13.3}%",
            last.packets,
            last.switch_entries,
            100.0 * last.switch_share(),
            if n == 0 {
                0.0
            } else {
                100.0 * srv as f64 / n as f64
            }
        );
    }
}
