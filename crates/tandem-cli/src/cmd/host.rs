//! `tandem host`: run an NF natively on the reference host.

use std::path::{Path, PathBuf};

use anyhow::Context;
use tandem_host::{compile_native, BuildOptions, Host, NativeNf, NfConfig, PortPcapSink, Verdict};
use tandem_traffic::{
    GenOptions, Generator, Plan, ReplyRewriter, TracePacket, TraceReader, Workload,
};

use crate::cmd::progress;

#[derive(clap::Args)]
pub struct Args {
    /// The NF source (C++ against the Tandem NF API).
    pub nf: PathBuf,
    /// The NF's configuration (TOML or JSON). Default: `<nf stem>.toml` beside the source,
    /// if it exists.
    #[arg(long)]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// Where to write port<N>.pcap, summary.json and state.json.
    #[arg(long, default_value = "out/host")]
    pub out_dir: PathBuf,
}

/// Where packets come from: a trace file, or a workload generated in memory.
#[derive(clap::Args)]
pub struct TrafficArgs {
    /// Input trace (pcapng with ports as interfaces, or pcap).
    #[arg(long = "in", value_name = "TRACE", conflicts_with = "workload")]
    pub input: Option<PathBuf>,
    /// Ingress port for classic pcap input (pcapng carries its own ports).
    #[arg(long, default_value_t = 0)]
    pub in_port: u32,
    /// Generate the traffic instead: a built-in workload or a CDF file.
    #[arg(short, long)]
    pub workload: Option<String>,
    /// Flows to generate (with --workload).
    #[arg(short = 'n', long, default_value_t = 4000)]
    pub flows: u64,
    /// Seed (with --workload).
    #[arg(short, long, default_value_t = 1)]
    pub seed: u64,
    /// Address plan (with --workload): plain, nat, lb, endhosts, vxlan, vlan or xgw.
    #[arg(short, long, default_value = "plain")]
    pub plan: String,
    /// Zipf flow popularity (with --workload): flows draw their address pair from --flows
    /// identities with popularity ∝ rank^-ALPHA, so popular address pairs dominate.
    #[arg(long, value_name = "ALPHA")]
    pub zipf: Option<f64>,
    #[command(flatten)]
    pub xgw: crate::cmd::traffic::XgwArgs,
    /// Feed the trace as recorded. By default replies are rewritten to the addresses the NF
    /// produced for their flow (closed loop), as real servers behind a NAT or load balancer
    /// would answer.
    #[arg(long)]
    pub open_loop: bool,
}

impl TrafficArgs {
    /// The packets, as an iterator (generated lazily or streamed from the file).
    pub fn packets(&self) -> anyhow::Result<Box<dyn Iterator<Item = anyhow::Result<TracePacket>>>> {
        match (&self.input, &self.workload) {
            (Some(path), _) => {
                let r = TraceReader::open(path)?.with_default_port(self.in_port);
                Ok(Box::new(r.map(|p| p.map_err(anyhow::Error::from))))
            }
            (None, Some(w)) => {
                let workload = Workload::resolve(w)?;
                let plan: Plan = self.plan.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
                let opts = GenOptions {
                    flows: self.flows,
                    seed: self.seed,
                    plan,
                    zipf: self.zipf,
                    xgw: self.xgw.options(),
                    ..GenOptions::default()
                };
                Ok(Box::new(Generator::new(&workload, opts)?.map(Ok)))
            }
            (None, None) => {
                anyhow::bail!("give a trace (--in FILE) or a workload (--workload NAME)")
            }
        }
    }
}

/// The configuration file to use for `nf`: the explicit one, else `<stem>.toml` beside it.
pub fn resolve_config(nf: &Path, explicit: Option<&Path>) -> anyhow::Result<NfConfig> {
    if let Some(p) = explicit {
        return Ok(NfConfig::load(p)?);
    }
    let default = nf.with_extension("toml");
    if default.is_file() {
        return Ok(NfConfig::load(&default)?);
    }
    Ok(NfConfig::default())
}

/// Compiles and configures `nf` for the reference host.
pub fn load_nf(nf: &Path, config: Option<&Path>) -> anyhow::Result<NativeNf> {
    let cfg = resolve_config(nf, config)?;
    let so = compile_native(nf, &BuildOptions::default())?;
    NativeNf::load(&so, &cfg).with_context(|| format!("starting {}", nf.display()))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let nf = load_nf(&args.nf, args.config.as_deref())?;
    let mut host = Host::new(nf);
    let files = drive(&args.traffic, None, &args.out_dir, |pkt| {
        Ok(host.process(pkt)?)
    })?;
    let summary = host.summary();
    let state = host.dump_state()?;
    write_json(
        &args.out_dir.join("summary.json"),
        &serde_json::to_value(&summary)?,
    )?;
    write_json(&args.out_dir.join("state.json"), &state)?;
    print_summary(&summary);
    for f in files {
        println!("  wrote {}", f.display());
    }
    println!("  wrote {}", args.out_dir.join("state.json").display());
    Ok(())
}

/// Feeds the traffic (at most `limit` packets) to `process` one packet at a time, closed
/// loop unless `--open-loop`, with a progress spinner; writes each port's output to
/// `out_dir/port<N>.pcap` and returns the files written.
pub fn drive(
    traffic: &TrafficArgs,
    limit: Option<usize>,
    out_dir: &Path,
    mut process: impl FnMut(&TracePacket) -> anyhow::Result<Verdict>,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut sink = PortPcapSink::create(out_dir)?;
    let mut replies = (!traffic.open_loop).then(ReplyRewriter::new);
    let bar = progress::spinner("packets");
    for pkt in traffic.packets()?.take(limit.unwrap_or(usize::MAX)) {
        let mut pkt = pkt?;
        if let Some(r) = replies.as_mut() {
            r.rewrite(&mut pkt);
        }
        let verdict = process(&pkt)?;
        if let Verdict::Send { port, frame } = &verdict {
            sink.write(*port, pkt.ts_ns, frame)?;
            if let Some(r) = replies.as_mut() {
                r.observe(&pkt.data, pkt.port, &[(*port, frame.as_slice())]);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(sink.finish()?)
}

pub fn write_json(path: &Path, v: &serde_json::Value) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(v)?;
    std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))
}

pub fn print_summary(s: &tandem_host::RunSummary) {
    println!("reference host: {}", s.nf);
    println!(
        "  packets in     {:>10}  ({} bytes)",
        s.packets_in, s.bytes_in
    );
    for (port, n) in &s.in_per_port {
        println!("    in  port {port:<3} {n:>10}");
    }
    println!("  packets out    {:>10}", s.packets_out);
    for (port, n) in &s.out_per_port {
        println!("    out port {port:<3} {n:>10}");
    }
    println!("  dropped        {:>10}", s.dropped);
    if s.timer_ticks > 0 {
        println!("  timer ticks    {:>10}", s.timer_ticks);
    }
    println!(
        "  NF time        {:>10.3} ms  ({:.2} Mpps)",
        s.nf_time_ns as f64 / 1e6,
        s.packets_per_sec / 1e6
    );
}
