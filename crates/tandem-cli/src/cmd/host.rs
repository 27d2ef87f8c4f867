//! `tandem host`: run an NF natively on the reference host.

use std::path::{Path, PathBuf};

use anyhow::Context;
use tandem_runtime::{
    compile_native, BuildOptions, Host, NativeNf, NfConfig, PortPcapSink, Verdict,
};
use tandem_traffic::TraceReader;

use crate::cmd::progress;

#[derive(clap::Args)]
pub struct Args {
    /// The NF source (C++ against the Tandem NF API).
    pub nf: PathBuf,
    /// The NF's configuration (TOML or JSON). Default: `<nf stem>.toml` beside the source,
    /// if it exists.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Input trace (pcapng with ports as interfaces, or pcap).
    #[arg(long = "in", value_name = "TRACE")]
    pub input: PathBuf,
    /// Ingress port for classic pcap input (pcapng carries its own ports).
    #[arg(long, default_value_t = 0)]
    pub in_port: u32,
    /// Where to write port<N>.pcap, summary.json and state.json.
    #[arg(long, default_value = "out/host")]
    pub out_dir: PathBuf,
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
    let reader = TraceReader::open(&args.input)?.with_default_port(args.in_port);
    let mut sink = PortPcapSink::create(&args.out_dir)?;
    let bar = progress::spinner("packets");
    for pkt in reader {
        let pkt = pkt?;
        if let Verdict::Send { port, frame } = host.process(&pkt)? {
            sink.write(port, pkt.ts_ns, &frame)?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let files = sink.finish()?;
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

pub fn write_json(path: &Path, v: &serde_json::Value) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(v)?;
    std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))
}

pub fn print_summary(s: &tandem_runtime::RunSummary) {
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
