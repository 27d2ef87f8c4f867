//! The compiled pair as two processes joined by UNIX datagram sockets in one directory
//! (`tandem_offload::net`, docs/deploy.md):
//!
//! - `tandem switch serve out/ --sock DIR`: the switch program on the software switch;
//! - `tandem server serve out/ --sock DIR`: the server partition, which installs the NF's
//!   configured state on that switch and keeps it in sync;
//! - `tandem switch feed --sock DIR --workload …`: a traffic client that sends a trace into
//!   the switch's port sockets one packet at a time and writes what leaves per port;
//! - `tandem switch stop --sock DIR`: the `shutdown` control request (stops both).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use tandem_host::PortPcapSink;
use tandem_offload::net::{
    PortClient, RemoteControl, ServerConfig, ServerDaemon, SwitchConfig, SwitchDaemon,
};
use tandem_offload::{Bundle, RunOptions};
use tandem_traffic::ReplyRewriter;

use crate::cmd::host::{write_json, TrafficArgs};
use crate::cmd::progress;
use crate::cmd::run::initial_state;

/// `tandem switch serve`.
#[derive(clap::Args)]
pub struct SwitchServeArgs {
    /// A directory written by `tandem compile` (its switch.p4 and manifest.json).
    pub compiled: PathBuf,
    /// The socket directory (created if needed): control.sock, port<N>.sock, server.sock.
    #[arg(long, value_name = "DIR")]
    pub sock: PathBuf,
    /// The NF ports that get a socket DIR/port<N>.sock (the server port gets
    /// DIR/server.sock).
    #[arg(long, value_delimiter = ',', default_value = "0,1")]
    pub ports: Vec<u32>,
    /// Server processes in the group at start (ids 0..N; `tandem server serve --server-id
    /// K`); more than one needs a program compiled with `--cluster` (docs/cluster.md).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub servers: usize,
}

/// `tandem server …`.
#[derive(clap::Subcommand)]
pub enum ServerArgs {
    /// Serve the server partition to a switch started with `tandem switch serve`: runs the
    /// NF's configure() as `tandem run` does, resets the switch, installs the state, then
    /// handles the packets the switch sends to its server port until the switch stops
    /// (`tandem switch stop`) or Ctrl-C.
    Serve(ServerServeArgs),
}

/// `tandem server serve`.
#[derive(clap::Args)]
pub struct ServerServeArgs {
    /// A directory written by `tandem compile` (the same one the switch serves).
    pub compiled: PathBuf,
    /// The switch's socket directory.
    #[arg(long, value_name = "DIR")]
    pub sock: PathBuf,
    /// The NF source, when the compiled directory's nf.json does not say (or moved).
    #[arg(long)]
    pub nf: Option<PathBuf>,
    /// The NF's configuration (default: what nf.json says).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// How long one control request waits for the switch's reply before it is retried, ms.
    #[arg(long, default_value_t = 2000)]
    pub control_timeout_ms: u64,
    /// How long to wait for the switch at start, ms.
    #[arg(long, default_value_t = 30_000)]
    pub wait_ms: u64,
    /// This server's id behind a cluster switch: 0 resets the switch and installs the
    /// state; another joins the servers already there (docs/cluster.md).
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub server_id: u32,
    /// The journal of committed updates (default DIR/server<K>.journal): a server killed
    /// and started again continues from it instead of resetting the switch; a clean stop
    /// removes it (docs/runtime.md "Crash recovery").
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Keep no journal: a restarted server runs configure() and resets the switch.
    #[arg(long, conflicts_with = "journal")]
    pub no_journal: bool,
}

/// `tandem switch feed`.
#[derive(clap::Args)]
pub struct FeedArgs {
    /// The switch's socket directory.
    #[arg(long, value_name = "DIR")]
    pub sock: PathBuf,
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// Stop after this many packets.
    #[arg(long)]
    pub packets: Option<usize>,
    /// Where to write port<N>.pcap and summary.json.
    #[arg(long, default_value = "out/feed")]
    pub out_dir: PathBuf,
    /// How long to wait for each packet's outcome, ms.
    #[arg(long, default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// How long to wait for the switch and its server at start, ms.
    #[arg(long, default_value_t = 120_000)]
    pub wait_ms: u64,
    /// Stop the switch (and with it the server) at the end.
    #[arg(long)]
    pub shutdown: bool,
    /// A membership change before packet P (from 0): `P:add=K` (server K, attached with
    /// `--server-id K`, joins the group) or `P:remove=K` (server K leaves and drains).
    /// Repeatable (docs/cluster.md).
    #[arg(long = "change", value_name = "P:add=K|P:remove=K")]
    pub changes: Vec<String>,
    /// Before packet P (from 0), nothing in flight, create `--pause-file` and wait until it
    /// is removed; then attach again to the switch (it may have been restarted) and wait for
    /// its server before going on. For crash tests: kill and restart a process meanwhile.
    #[arg(long, value_name = "P", requires = "pause_file")]
    pub pause_at: Option<u64>,
    /// The file `--pause-at` creates and waits on.
    #[arg(long, value_name = "FILE", requires = "pause_at")]
    pub pause_file: Option<PathBuf>,
}

/// A `--change` of `tandem switch feed`: before packet `at`, add or remove a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FeedChange {
    at: u64,
    add: Option<u32>,
    remove: Option<u32>,
}

fn parse_feed_change(spec: &str) -> anyhow::Result<FeedChange> {
    let bad =
        || anyhow::anyhow!("--change {spec}: expected P:add=K or P:remove=K (e.g. 1000:add=1)");
    let (at, what) = spec.split_once(':').ok_or_else(bad)?;
    let at: u64 = at.trim().parse().map_err(|_| bad())?;
    let (verb, k) = what.split_once('=').ok_or_else(bad)?;
    let k: u32 = k.trim().parse().map_err(|_| bad())?;
    match verb.trim() {
        "add" => Ok(FeedChange {
            at,
            add: Some(k),
            remove: None,
        }),
        "remove" => Ok(FeedChange {
            at,
            add: None,
            remove: Some(k),
        }),
        _ => Err(bad()),
    }
}

/// `tandem switch stop`.
#[derive(clap::Args)]
pub struct StopArgs {
    /// The switch's socket directory.
    #[arg(long, value_name = "DIR")]
    pub sock: PathBuf,
}

/// `tandem switch member`.
#[derive(clap::Args)]
pub struct MemberArgs {
    /// The switch's socket directory.
    #[arg(long, value_name = "DIR")]
    pub sock: PathBuf,
    /// The server joining (attached with `tandem server serve --server-id K`).
    #[arg(
        long,
        value_name = "K",
        conflicts_with = "remove",
        required_unless_present = "remove"
    )]
    pub add: Option<u32>,
    /// The server leaving; its flows stay pinned to it until they end.
    #[arg(long, value_name = "K")]
    pub remove: Option<u32>,
}

pub fn member(a: MemberArgs) -> anyhow::Result<()> {
    let mut rc = RemoteControl::connect(&a.sock, Duration::from_secs(5))?;
    let (group, m) = rc
        .member(a.add, a.remove)
        .with_context(|| format!("changing the group of the switch in {}", a.sock.display()))?;
    println!(
        "group {group:?} (version {}, {} flows pinned, {} Bloom mismatches, {} switch/runtime disagreements)",
        m.version, m.pinned, m.mismatches, m.disagreements
    );
    Ok(())
}

pub fn switch_serve(a: SwitchServeArgs) -> anyhow::Result<()> {
    let bundle = Bundle::load(&a.compiled)?;
    let daemon = SwitchDaemon::start_cluster(
        &bundle,
        &SwitchConfig {
            dir: a.sock.clone(),
            ports: a.ports.clone(),
        },
        a.servers,
    )
    .with_context(|| format!("serving in {}", a.sock.display()))?;
    let info = daemon.info();
    let ports: Vec<String> = info.ports.iter().map(|p| format!("port{p}.sock")).collect();
    println!(
        "switch: {} ({}) serving in {}: control.sock, {}, server.sock (server port {})",
        info.nf,
        bundle.plan.target,
        daemon.dir().display(),
        ports.join(", "),
        info.server_port
    );
    println!(
        "  stop with `tandem switch stop --sock {}` or Ctrl-C",
        a.sock.display()
    );
    let s = daemon.wait();
    println!("switch stopped");
    for (port, n) in &s.frames_in {
        println!("  in  port {port:<5} {n:>10}");
    }
    for (port, n) in &s.frames_out {
        println!("  out port {port:<5} {n:>10}");
    }
    println!("  to the server    {:>10}", s.to_server);
    println!("  dropped          {:>10}", s.dropped);
    if s.ticks + s.ticks_lost > 0 {
        println!(
            "  timer ticks      {:>10}  ({} lost without a server, {} not confirmed)",
            s.ticks, s.ticks_lost, s.tick_timeouts
        );
    }
    println!(
        "  control          {:>10}  requests ({} failed, {} repeats answered from the cache, {} resets)",
        s.control_requests, s.control_failed, s.control_duplicates, s.resets
    );
    let bad = s.malformed + s.control_malformed + s.foreign;
    if bad + s.unattached + s.send_errors + s.loops + s.lost > 0 {
        println!(
            "  malformed or foreign {bad}, to no attached peer {}, send errors {}, loops {}, lost {}",
            s.unattached, s.send_errors, s.loops, s.lost
        );
    }
    Ok(())
}

pub fn server(a: ServerArgs) -> anyhow::Result<()> {
    let ServerArgs::Serve(a) = a;
    let bundle = Bundle::load(&a.compiled)?;
    let initial = initial_state(&bundle, a.nf.as_deref(), a.config.as_deref())?;
    let mut config = ServerConfig::new(&a.sock);
    config.control_timeout = Duration::from_millis(a.control_timeout_ms);
    config.connect_timeout = Duration::from_millis(a.wait_ms);
    config.server_id = a.server_id;
    if !a.no_journal && a.server_id == 0 {
        config.journal = Some(
            a.journal
                .clone()
                .unwrap_or_else(|| a.sock.join(format!("server{}.journal", a.server_id))),
        );
    }
    let daemon = ServerDaemon::start(&bundle, &initial, RunOptions::default(), &config)
        .with_context(|| format!("serving the switch in {}", a.sock.display()))?;
    if let Some(r) = daemon.recovered() {
        println!(
            "server: recovered from {}: {} journal records replayed{}, switch-owned registers read back from the running switch",
            config.journal.as_deref().unwrap_or(std::path::Path::new("?")).display(),
            r.records,
            if r.torn_tail { " (a last record cut short by the kill: dropped)" } else { "" }
        );
    }
    if a.server_id == 0 {
        println!(
            "server: {} attached to the switch in {}; its state is installed",
            bundle.plan.nf,
            a.sock.display()
        );
    } else {
        println!(
            "server {}: {} attached to the switch in {} (joined the servers there)",
            a.server_id,
            bundle.plan.nf,
            a.sock.display()
        );
    }
    let s = daemon.wait()?;
    println!("server stopped");
    println!("  packets handled  {:>10}", s.frames);
    if s.reinstalls > 0 {
        println!(
            "  switch restarts  {:>10}  (attached again, state re-installed)",
            s.reinstalls
        );
    }
    println!("  sent back        {:>10}", s.returned);
    if s.ticks > 0 {
        println!("  timer ticks      {:>10}", s.ticks);
    }
    if s.consumed + s.errors + s.malformed + s.foreign > 0 {
        println!(
            "  consumed {}, errors {}, malformed {}, foreign {}",
            s.consumed, s.errors, s.malformed, s.foreign
        );
    }
    Ok(())
}

pub fn stop(a: StopArgs) -> anyhow::Result<()> {
    let mut rc = RemoteControl::connect(&a.sock, Duration::from_secs(5))?;
    rc.shutdown()
        .with_context(|| format!("stopping the switch in {}", a.sock.display()))?;
    println!("stopped the switch in {}", a.sock.display());
    Ok(())
}

#[derive(Default)]
struct FeedSummary {
    packets: u64,
    out_per_port: std::collections::BTreeMap<u32, u64>,
    dropped: u64,
    via_server: u64,
    /// Packets the switch could not finish (no server attached, server error).
    errors: u64,
    /// Packets that left on a port whose frame did not reach this client.
    not_received: u64,
    /// Packets with no answer in time.
    timeouts: u64,
    wall_ns: u64,
}

/// Creates `file` and waits until it is removed (`--pause-at`).
fn pause(file: &std::path::Path, at: u64) -> anyhow::Result<()> {
    std::fs::write(file, format!("paused before packet {at}\n"))
        .with_context(|| format!("--pause-file {}", file.display()))?;
    println!(
        "paused before packet {at}: remove {} to go on",
        file.display()
    );
    while file.exists() {
        std::thread::sleep(Duration::from_millis(20));
    }
    println!("resumed at packet {at}");
    Ok(())
}

/// Waits until the switch in `sock` answers and has a server attached.
fn wait_for_server(
    rc: &mut RemoteControl,
    sock: &std::path::Path,
    patience: Duration,
) -> anyhow::Result<tandem_offload::net::SwitchInfo> {
    let t0 = Instant::now();
    loop {
        let info = rc.wait_for_switch(patience.saturating_sub(t0.elapsed()))?;
        if info.server_attached {
            return Ok(info);
        }
        if t0.elapsed() > patience {
            anyhow::bail!(
                "no server attached to the switch in {} (start `tandem server serve … --sock {}`)",
                sock.display(),
                sock.display()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

pub fn feed(a: FeedArgs) -> anyhow::Result<()> {
    // The switch may still be starting (it creates the directory): wait, but say so.
    if std::fs::read_dir(&a.sock).map_or(true, |mut d| d.next().is_none()) {
        eprintln!(
            "waiting up to {:.1} s (--wait-ms) for a switch at {} (`tandem switch serve … --sock {}`)",
            a.wait_ms as f64 / 1000.0,
            a.sock.display(),
            a.sock.display()
        );
    }
    let mut rc = RemoteControl::connect(&a.sock, Duration::from_secs(5))?;
    let patience = Duration::from_millis(a.wait_ms);
    let info = wait_for_server(&mut rc, &a.sock, patience)?;
    let mut changes: Vec<FeedChange> = a
        .changes
        .iter()
        .map(|c| parse_feed_change(c))
        .collect::<anyhow::Result<_>>()?;
    changes.sort_by_key(|c| c.at);
    let mut changes = changes.into_iter().peekable();
    let mut client = PortClient::connect(&a.sock)?;
    client.attach(&info.ports, patience)?;
    let mut sink = PortPcapSink::create(&a.out_dir)?;
    let mut replies = (!a.traffic.open_loop).then(ReplyRewriter::new);
    let timeout = Duration::from_millis(a.timeout_ms);
    let mut s = FeedSummary::default();
    let bar = progress::spinner("packets");
    let t0 = Instant::now();
    for pkt in a.traffic.packets()?.take(a.packets.unwrap_or(usize::MAX)) {
        let mut pkt = pkt?;
        if !info.ports.contains(&pkt.port) {
            anyhow::bail!(
                "packet {} enters port {}, but the switch serves ports {:?} (--ports)",
                s.packets,
                pkt.port,
                info.ports
            );
        }
        if a.pause_at == Some(s.packets) {
            if let Some(f) = &a.pause_file {
                pause(f, s.packets)?;
                // The switch (or its server) may have been restarted meanwhile.
                wait_for_server(&mut rc, &a.sock, patience)?;
                client.attach(&info.ports, patience)?;
            }
        }
        while let Some(c) = changes.next_if(|c| c.at <= s.packets) {
            let (group, m) = rc
                .member(c.add, c.remove)
                .map_err(|e| anyhow::anyhow!("--change before packet {}: {e}", c.at))?;
            println!(
                "before packet {}: group {group:?} (version {}, {} flows pinned, {} Bloom mismatches, {} switch/runtime disagreements)",
                c.at, m.version, m.pinned, m.mismatches, m.disagreements
            );
        }
        if let Some(r) = replies.as_mut() {
            r.rewrite(&mut pkt);
        }
        s.packets += 1;
        let Some(o) = client.process(pkt.port, &pkt.data, pkt.ts_ns, timeout)? else {
            log::warn!("packet {}: no answer within {timeout:?}", s.packets - 1);
            s.timeouts += 1;
            continue;
        };
        s.via_server += u64::from(o.via_server);
        s.errors += u64::from(o.error);
        match o.egress {
            None if !o.error => s.dropped += 1,
            None => {}
            Some(p) => *s.out_per_port.entry(p).or_default() += 1,
        }
        if o.egress.is_some() && o.outputs.is_empty() {
            s.not_received += 1;
        }
        for (port, frame) in &o.outputs {
            sink.write(*port, pkt.ts_ns, frame)?;
        }
        if let Some(r) = replies.as_mut() {
            let outs: Vec<(u32, &[u8])> =
                o.outputs.iter().map(|(p, f)| (*p, f.as_slice())).collect();
            r.observe(&pkt.data, pkt.port, &outs);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    s.wall_ns = t0.elapsed().as_nanos() as u64;
    let files = sink.finish()?;
    let switch = rc.switch_stats().ok();
    let out_per_port: serde_json::Map<String, serde_json::Value> = s
        .out_per_port
        .iter()
        .map(|(p, n)| (p.to_string(), (*n).into()))
        .collect();
    let mut v = serde_json::json!({
        "nf": info.nf,
        "packets": s.packets,
        "out_per_port": out_per_port,
        "dropped": s.dropped,
        "via_server": s.via_server,
        "errors": s.errors,
        "not_received": s.not_received,
        "timeouts": s.timeouts,
        "wall_ns": s.wall_ns,
    });
    if let Some(sw) = &switch {
        v["switch"] = serde_json::to_value(sw)?;
    }
    write_json(&a.out_dir.join("summary.json"), &v)?;
    if a.shutdown {
        rc.shutdown().context("stopping the switch")?;
    }
    println!("fed {} through the switch in {}", info.nf, a.sock.display());
    println!("  packets in        {:>10}", s.packets);
    println!("  via the server    {:>10}", s.via_server);
    for (port, n) in &s.out_per_port {
        println!("    out port {port:<3}    {n:>10}");
    }
    println!("  dropped           {:>10}", s.dropped);
    if s.errors + s.timeouts + s.not_received > 0 {
        println!(
            "  not finished      {:>10}  ({} errors, {} timeouts, {} left on a port not attached here)",
            s.errors + s.timeouts + s.not_received,
            s.errors,
            s.timeouts,
            s.not_received
        );
    }
    println!("  wall time         {:>10.3} ms", s.wall_ns as f64 / 1e6);
    for f in files {
        println!("  wrote {}", f.display());
    }
    println!("  wrote {}", a.out_dir.join("summary.json").display());
    if a.shutdown {
        println!("  stopped the switch and its server");
    }
    if s.errors + s.timeouts > 0 {
        anyhow::bail!(
            "{} packet(s) were not finished (see the log with -v)",
            s.errors + s.timeouts
        );
    }
    Ok(())
}
