//! `tandem traffic`: generate traces from workloads, print trace statistics, list workloads.

use std::path::PathBuf;

use anyhow::Context;
use tandem_traffic::{
    builtin_workloads, write_trace, GenOptions, Plan, TraceReader, TraceStats, Workload,
};

use super::progress;

#[derive(clap::Subcommand)]
pub enum Args {
    /// Generate a trace (pcapng; client side on port 0, server side on port 1).
    Gen(GenArgs),
    /// Print statistics of a trace (pcap or pcapng).
    Stats {
        /// The trace file.
        trace: PathBuf,
        /// Port given to packets of classic pcap files (which carry no port).
        #[arg(long, default_value_t = 0)]
        default_port: u32,
    },
    /// List the built-in workloads (flow-size distributions) and address plans.
    Workloads,
    /// Write the xgw NF's configuration for plan `xgw`'s region (same region options as
    /// `gen`): routes and VM-NC mappings of every tenant.
    XgwConfig {
        #[command(flatten)]
        xgw: XgwArgs,
        /// Output file (TOML).
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// The region and traffic mix of plan `xgw` (tandem_traffic::xgw).
#[derive(clap::Args, Clone, Debug)]
pub struct XgwArgs {
    /// Plan xgw: tenants (VPCs).
    #[arg(long, default_value_t = 64)]
    pub tenants: u32,
    /// Plan xgw: VMs per tenant.
    #[arg(long, default_value_t = 64)]
    pub vms_per_tenant: u32,
    /// Plan xgw: physical servers (NCs) hosting the VMs.
    #[arg(long, default_value_t = 256)]
    pub ncs: u32,
    /// Plan xgw: Zipf exponent of tenant and VM popularity.
    #[arg(long, default_value_t = 1.2)]
    pub zipf_s: f64,
    /// Plan xgw: share of flows with IPv6 inner addresses (0..1).
    #[arg(long, default_value_t = 0.0)]
    pub ipv6_share: f64,
    /// Plan xgw: share of flows to the Internet through SNAT (0..1).
    #[arg(long, default_value_t = 0.3)]
    pub internet_share: f64,
    /// Plan xgw: share of flows to a peered tenant's VM (0..1).
    #[arg(long, default_value_t = 0.2)]
    pub peer_share: f64,
}

impl XgwArgs {
    pub fn options(&self) -> tandem_traffic::xgw::XgwOptions {
        tandem_traffic::xgw::XgwOptions {
            tenants: self.tenants,
            vms_per_tenant: self.vms_per_tenant,
            ncs: self.ncs,
            zipf_s: self.zipf_s,
            ipv6_share: self.ipv6_share,
            internet_share: self.internet_share,
            peer_share: self.peer_share,
        }
    }
}

#[derive(clap::Args)]
pub struct GenArgs {
    /// A built-in workload (see `tandem traffic workloads`) or a CDF file (`size prob` rows,
    /// whitespace- or comma-separated).
    #[arg(short, long, default_value = "enterprise")]
    workload: String,
    /// Number of flows.
    #[arg(short = 'n', long, default_value_t = 10_000)]
    flows: u64,
    /// Random seed; the same seed gives a byte-identical trace.
    #[arg(short, long, default_value_t = 1)]
    seed: u64,
    /// Address plan: plain, nat, lb, endhosts, vxlan, vlan or xgw.
    #[arg(short, long, default_value = "plain")]
    plan: String,
    /// Concurrent connections, each running one flow at a time.
    #[arg(short, long, default_value_t = 100)]
    concurrency: u32,
    /// Share of UDP flows (0..1).
    #[arg(long, default_value_t = 0.1)]
    udp_share: f64,
    /// Share of TCP flows closed by RST instead of FIN (0..1).
    #[arg(long, default_value_t = 0.1)]
    rst_share: f64,
    /// Share of bulk flows whose data goes client to server (0..1).
    #[arg(long, default_value_t = 0.2)]
    upload_share: f64,
    /// Link rate in Gbit/s (each connection paces at rate / concurrency).
    #[arg(long, default_value_t = 10.0)]
    link_gbps: f64,
    /// Base round-trip time in microseconds.
    #[arg(long, default_value_t = 100.0)]
    rtt_us: f64,
    /// TCP maximum segment size.
    #[arg(long, default_value_t = 1460)]
    mss: u16,
    /// Cap on a flow's size in bytes (0 = no cap; heavy-tailed workloads get very large).
    #[arg(long, default_value_t = 1_000_000)]
    max_flow_bytes: u64,
    /// Zipf flow popularity: flows draw their address pair from --flows identities with
    /// popularity ∝ rank^-ALPHA (off by default).
    #[arg(long, value_name = "ALPHA")]
    zipf: Option<f64>,
    #[command(flatten)]
    xgw: XgwArgs,
    /// Output file (always pcapng).
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args {
        Args::Gen(g) => gen(g),
        Args::Stats {
            trace,
            default_port,
        } => stats(trace, default_port),
        Args::Workloads => workloads(),
        Args::XgwConfig { xgw, output } => {
            let o = xgw.options();
            o.validate()?;
            std::fs::write(&output, tandem_traffic::xgw::region_config(&o))
                .with_context(|| format!("writing {}", output.display()))?;
            println!(
                "{}: {} tenants, {} VMs each, {} NCs",
                output.display(),
                o.tenants,
                o.vms_per_tenant,
                o.ncs
            );
            Ok(())
        }
    }
}

fn gen(g: GenArgs) -> anyhow::Result<()> {
    let workload = Workload::resolve(&g.workload)?;
    let plan: Plan = g.plan.parse()?;
    if !(g.link_gbps.is_finite() && g.link_gbps > 0.0) {
        anyhow::bail!("--link-gbps must be positive");
    }
    if !(g.rtt_us.is_finite() && g.rtt_us > 0.0) {
        anyhow::bail!("--rtt-us must be positive");
    }
    let opts = GenOptions {
        flows: g.flows,
        seed: g.seed,
        plan,
        concurrency: g.concurrency,
        udp_share: g.udp_share,
        rst_share: g.rst_share,
        upload_share: g.upload_share,
        link_rate_bps: (g.link_gbps * 1e9) as u64,
        rtt_ns: (g.rtt_us * 1e3) as u64,
        mss: g.mss,
        max_flow_bytes: g.max_flow_bytes,
        start_ns: 0,
        zipf: g.zipf,
        xgw: g.xgw.options(),
    };
    opts.validate()?;
    if g.output.extension().is_some_and(|e| e == "pcap") {
        log::warn!(
            "{}: written as pcapng (ports are interface ids); tcpdump and Wireshark read it",
            g.output.display()
        );
    }
    if let Some(dir) = g.output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let bar = progress::bar(g.flows, "flows");
    let sum = write_trace(&workload, &opts, &g.output, |done| bar.set_position(done))
        .with_context(|| format!("generating {}", g.output.display()))?;
    bar.finish_and_clear();
    println!(
        "{}: {} flows, {} packets, {} bytes, {:.6} s ({} workload, plan {}, seed {})",
        g.output.display(),
        sum.flows,
        sum.packets,
        sum.bytes,
        sum.last_ts_ns as f64 / 1e9,
        workload.name,
        plan,
        g.seed
    );
    Ok(())
}

fn stats(trace: PathBuf, default_port: u32) -> anyhow::Result<()> {
    let reader = TraceReader::open(&trace)?.with_default_port(default_port);
    let bar = progress::spinner("packets");
    let mut s = TraceStats::new();
    for p in reader {
        s.add(&p?);
        if s.packets & 0xfff == 0 {
            bar.set_position(s.packets);
        }
    }
    bar.finish_and_clear();
    println!("{}", trace.display());
    println!("{s}");
    Ok(())
}

fn workloads() -> anyhow::Result<()> {
    println!(
        "Workloads (flow-size CDFs embedded in the binary; workloads/SOURCES.md has details):"
    );
    println!(
        "  {:<18} {:>12} {:>14}  description / source",
        "name", "mean bytes", "max bytes"
    );
    for b in builtin_workloads() {
        let w = b.load()?;
        let aliases = if b.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also: {})", b.aliases.join(", "))
        };
        println!(
            "  {:<18} {:>12.0} {:>14.0}  {}{}",
            b.name,
            w.cdf.mean(),
            w.cdf.max(),
            b.description,
            aliases
        );
        println!("  {:<18} {:>12} {:>14}  from {}", "", "", "", b.provenance);
    }
    println!("  (or any CDF file: `size prob` rows, whitespace- or comma-separated)");
    println!();
    println!("Address plans (--plan):");
    for p in Plan::ALL {
        println!("  {:<10} {}", p.name(), p.description());
    }
    Ok(())
}
