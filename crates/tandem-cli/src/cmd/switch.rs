//! `tandem switch`: run P4-16 (v1model or TNA) programs on the built-in software switch.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context};
use tandem_bench::report::EngineRate;
use tandem_switch::{apply_entries, bench, parse_entries, CompileOptions, Engine, Switch};
use tandem_traffic::{PcapFileWriter, TraceReader};

#[derive(clap::Subcommand)]
pub enum Args {
    /// Run a program over pcap inputs; writes DIR/<port>_out.pcap per egress port
    /// (like BMv2's `--use-files`).
    Run(RunArgs),
    /// Packets/s per core (64-byte packets, in memory) on a MiniLB-like program,
    /// on MiniLB as `tandem compile` generates it, and on a 10,000-entry LPM
    /// router; or on any program with --program/--entries/--in.
    Bench(BenchArgs),
    /// Serve a compiled NF's switch program over UNIX datagram sockets in --sock DIR, for
    /// `tandem server serve` and `tandem switch feed` in other processes (docs/deploy.md).
    Serve(crate::cmd::serve::SwitchServeArgs),
    /// Feed a trace or workload into a serving switch's port sockets, one packet at a time
    /// (closed loop by default), and write what leaves each port to DIR/port<N>.pcap.
    Feed(crate::cmd::serve::FeedArgs),
    /// Stop a serving switch (and its server).
    Stop(crate::cmd::serve::StopArgs),
    /// Add a server process to a serving cluster switch's group, or remove one (it
    /// drains), between two packets (docs/cluster.md).
    Member(crate::cmd::serve::MemberArgs),
    /// Parse and check a program; print the compiled summary and which blocks run as
    /// native code.
    Check {
        /// The P4-16 program (v1model or TNA).
        program: PathBuf,
        /// The engine: native (machine code) or interp (the reference interpreter).
        #[arg(long, default_value = "native")]
        engine: Engine,
    },
}

#[derive(clap::Args)]
pub struct RunArgs {
    /// The P4-16 program (v1model or TNA).
    program: PathBuf,
    /// Table entries / register values (simple_switch_CLI-like commands, docs/entries-format.md), applied
    /// as one atomic batch before the first packet.
    #[arg(long)]
    entries: Option<PathBuf>,
    /// Input: PORT=file.pcap (repeatable). Packets from all inputs are merged by
    /// timestamp.
    #[arg(long = "in", value_name = "PORT=FILE", required = true)]
    inputs: Vec<String>,
    /// Directory for the per-port output pcaps.
    #[arg(long)]
    out_dir: PathBuf,
    /// Print the compiled program summary first.
    #[arg(long)]
    show_compiled: bool,
    /// The engine: native (machine code) or interp (the reference interpreter).
    #[arg(long, default_value = "native")]
    engine: Engine,
    /// TNA: a port whose egress output re-enters its pipe's ingress (repeatable; the fold
    /// port of a folded program, `manifest.json`'s `fold_port`).
    #[arg(long = "loopback-port", value_name = "PORT")]
    loopback: Vec<u16>,
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Seconds of measurement per program.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Installed connections in the MiniLB connection table.
    #[arg(long, default_value_t = 1024)]
    flows: usize,
    /// Routes in the LPM table.
    #[arg(long, default_value_t = 10_000)]
    routes: usize,
    /// Measure this program instead of the built-in ones (e.g. out/switch.p4 from
    /// `tandem compile ... --target v1model -o out/`).
    #[arg(long)]
    program: Option<PathBuf>,
    /// Table entries / register values for --program (as for `switch run`).
    #[arg(long, requires = "program")]
    entries: Option<PathBuf>,
    /// Packets for --program: PORT=file.pcap (repeatable). Default: one 64-byte
    /// packet per built-in MiniLB flow (--flows), arriving on --port.
    #[arg(long = "in", value_name = "PORT=FILE", requires = "program")]
    inputs: Vec<String>,
    /// Ingress port of the built-in packets.
    #[arg(long, default_value_t = 1)]
    port: u32,
    /// Write the entries that put the built-in MiniLB flows (--flows) on the fast
    /// path of the generated MiniLB to FILE, and exit: then
    /// `tandem switch bench --program out/switch.p4 --entries FILE`.
    #[arg(long, value_name = "FILE")]
    write_minilb_entries: Option<PathBuf>,
    /// Write the built-in programs' rates to FILE (JSON; `tandem bench-report --engine`).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Only this engine (default: the interpreter and the native engine side by side).
    #[arg(long)]
    engine: Option<Engine>,
    /// Worker threads, each with its own packets chosen by flow hash (default 1); a list
    /// (`1,2`) measures each count.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    workers: Vec<usize>,
    /// Also count instructions per packet under callgrind (valgrind), per program and engine.
    #[arg(long)]
    callgrind: bool,
    /// Run exactly N packets of one built-in program (--only) and exit: what --callgrind
    /// counts.
    #[arg(long, hide = true, requires = "only")]
    packets: Option<u64>,
    /// With --packets: the built-in program (minilb, generated, lpm).
    #[arg(long, hide = true)]
    only: Option<String>,
    /// Also measure the LPM router while the control plane inserts and deletes this many
    /// random routes per second (0: off), and the time one update takes to become visible.
    #[arg(long, default_value_t = 0)]
    updates_per_sec: u64,
    /// TNA (--program): a port whose egress output re-enters its pipe's ingress
    /// (repeatable), as for `switch run`.
    #[arg(long = "loopback-port", value_name = "PORT", requires = "program")]
    loopback: Vec<u16>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args {
        Args::Run(a) => run_program(a),
        Args::Bench(a) => run_bench(a),
        Args::Serve(a) => crate::cmd::serve::switch_serve(a),
        Args::Feed(a) => crate::cmd::serve::feed(a),
        Args::Stop(a) => crate::cmd::serve::stop(a),
        Args::Member(a) => crate::cmd::serve::member(a),
        Args::Check { program, engine } => {
            let sw = load(&program, engine, &[])?;
            print!("{}", sw.describe());
            Ok(())
        }
    }
}

/// Loads the program at `path`; `loopback`: TNA loopback ports (`tandem_switch::PortSet`).
fn load(path: &PathBuf, engine: Engine, loopback: &[u16]) -> anyhow::Result<Switch> {
    let src =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    if let Some(p) = loopback.iter().find(|p| **p > 511) {
        bail!("--loopback-port {p}: ports are 9 bits (0..=511)");
    }
    let opts = CompileOptions {
        loopback: tandem_switch::PortSet::of(loopback),
        ..CompileOptions::with_engine(engine)
    };
    Switch::from_source_with(&src, opts).with_context(|| format!("loading {}", path.display()))
}

fn load_entries(sw: &Switch, e: &PathBuf) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(e).with_context(|| format!("reading {}", e.display()))?;
    let cmds = parse_entries(&text, sw).with_context(|| format!("{}", e.display()))?;
    apply_entries(sw, &cmds).with_context(|| format!("applying {}", e.display()))?;
    Ok(())
}

/// The packets of `--in PORT=FILE` inputs, merged by timestamp.
fn read_inputs(inputs: &[String]) -> anyhow::Result<Vec<tandem_traffic::TracePacket>> {
    let mut packets = Vec::new();
    for spec in inputs {
        let Some((port, file)) = spec.split_once('=') else {
            bail!("--in expects PORT=FILE, got `{spec}`");
        };
        let port: u32 = port
            .parse()
            .with_context(|| format!("bad port in `{spec}`"))?;
        for p in TraceReader::open(file)?.with_default_port(port) {
            let mut p = p?;
            p.port = port;
            packets.push(p);
        }
    }
    packets.sort_by_key(|p| p.ts_ns);
    Ok(packets)
}

fn run_program(a: RunArgs) -> anyhow::Result<()> {
    let sw = load(&a.program, a.engine, &a.loopback)?;
    if a.show_compiled {
        print!("{}", sw.describe());
    }
    if let Some(e) = &a.entries {
        load_entries(&sw, e)?;
    }
    let packets = read_inputs(&a.inputs)?;
    std::fs::create_dir_all(&a.out_dir)
        .with_context(|| format!("creating {}", a.out_dir.display()))?;
    let mut writers: BTreeMap<u32, (PcapFileWriter, u64)> = BTreeMap::new();
    let mut w = sw.worker();
    let mut dropped = 0u64;
    for p in &packets {
        match w.process_at(p.port, &p.data, p.ts_ns) {
            Some((port, out)) => {
                let (wr, n) = match writers.entry(port) {
                    std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::btree_map::Entry::Vacant(e) => {
                        let path = a.out_dir.join(format!("{port}_out.pcap"));
                        e.insert((PcapFileWriter::create(&path)?, 0))
                    }
                };
                wr.write(p.ts_ns, out)?;
                *n += 1;
            }
            None => dropped += 1,
        }
    }
    println!("{} packet(s) in, {dropped} dropped", packets.len());
    for (port, (wr, n)) in writers {
        wr.finish()?;
        println!(
            "port {port}: {n} packet(s) -> {}",
            a.out_dir.join(format!("{port}_out.pcap")).display()
        );
    }
    let failed = sw.assert_failures();
    if !failed.is_empty() {
        let sites: Vec<String> = failed
            .iter()
            .map(|(line, n)| format!("line {line}: {n} packet(s)"))
            .collect();
        bail!(
            "{}: an assert()/assume() failed ({}); those packets were dropped (BMv2 stops \
             the switch at the first)",
            a.program.display(),
            sites.join(", ")
        );
    }
    Ok(())
}

/// CPU time consumed by the calling thread, in seconds (Linux; `None` elsewhere).
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // fields after the parenthesised command name; utime, stime are fields 14, 15
    let rest = s.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ut: f64 = f.get(11)?.parse().ok()?;
    let st: f64 = f.get(12)?.parse().ok()?;
    Some((ut + st) / 100.0)
}

/// Runs `pkts` round-robin on one worker until `seconds` pass (after a short warm-up);
/// packets and CPU seconds of this thread.
fn run_for(sw: &Switch, pkts: &[(u32, Vec<u8>)], seconds: f64) -> (u64, Option<f64>) {
    let mut w = sw.worker();
    if pkts.is_empty() {
        return (0, None);
    }
    let t0 = Instant::now();
    while t0.elapsed().as_secs_f64() < seconds.min(0.2) {
        for (port, p) in pkts {
            std::hint::black_box(w.process(*port, std::hint::black_box(p)));
        }
    }
    let cpu0 = thread_cpu_seconds();
    let t = Instant::now();
    let mut n = 0u64;
    while t.elapsed().as_secs_f64() < seconds {
        for (port, p) in pkts {
            std::hint::black_box(w.process(*port, std::hint::black_box(p)));
        }
        n += pkts.len() as u64;
    }
    let cpu = match (cpu0, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    (n, cpu)
}

/// Measures `sw` on `pkts` (ingress port, frame) with `workers` threads, each running the
/// packets whose flow hash picks it (`bench::flow_worker`).
fn measure(
    name: &str,
    sw: Switch,
    pkts: &[(u32, Vec<u8>)],
    seconds: f64,
    workers: usize,
) -> anyhow::Result<EngineRate> {
    if pkts.is_empty() {
        bail!("{name}: no packets");
    }
    let mut w = sw.worker();
    // sanity: which packets are forwarded, and where
    let mut forwarded = 0usize;
    let mut ports = std::collections::BTreeSet::new();
    for (port, p) in pkts {
        if let Some((out, _)) = w.process(*port, p) {
            forwarded += 1;
            ports.insert(out);
        }
    }
    let workers = workers.max(1);
    let mut shares: Vec<Vec<(u32, Vec<u8>)>> = vec![Vec::new(); workers];
    for (port, p) in pkts {
        shares[bench::flow_worker(p, workers)].push((*port, p.clone()));
    }
    let t = Instant::now();
    let results: Vec<(u64, Option<f64>)> = std::thread::scope(|s| {
        let hs: Vec<_> = shares
            .iter()
            .map(|share| {
                let sw = &sw;
                s.spawn(move || run_for(sw, share, seconds))
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap_or((0, None)))
            .collect()
    });
    let wall = t.elapsed().as_secs_f64() - seconds.min(0.2);
    let n: u64 = results.iter().map(|r| r.0).sum();
    let cpu: Option<f64> = results.iter().map(|r| r.1).sum();
    let wall_mpps = n as f64 / wall / 1e6;
    print!(
        "{name:<40} {wall_mpps:>6.2} Mpps wall-clock  ({:.0} ns/pkt",
        wall * 1e9 / n.max(1) as f64
    );
    if let Some(cpu) = cpu {
        let cpu_mpps = n as f64 / cpu / 1e6;
        // No ratio against BMv2: it is not installable here, so any figure for it would be a
        // constant, not a measurement (docs/targets.md).
        print!("; {cpu_mpps:.2} Mpps per CPU-second");
    }
    println!(
        "; {forwarded}/{} test packets forwarded to {} port(s))",
        pkts.len(),
        ports.len()
    );
    Ok(EngineRate {
        program: name.to_string(),
        mpps: wall_mpps,
        mpps_cpu: cpu.map(|c| n as f64 / c / 1e6),
        instr_per_pkt: None,
    })
}

/// A built-in benchmark program on `engine`: (label, switch, packets).
fn builtin(
    which: &str,
    a: &BenchArgs,
    engine: Engine,
) -> anyhow::Result<(String, Switch, Vec<Vec<u8>>)> {
    let (label, r) = match which {
        "minilb" => (
            format!("minilb ({} flows)", a.flows),
            bench::minilb_on(a.flows, engine),
        ),
        "generated" => (
            format!("minilb generated ({} flows)", a.flows),
            bench::minilb_generated_on(a.flows, engine),
        ),
        "lpm" => (
            format!("lpm ({} routes)", a.routes),
            bench::lpm_on(a.routes, 4096, engine),
        ),
        other => bail!("unknown built-in program `{other}` (minilb, generated, lpm)"),
    };
    let (sw, pkts) = r.map_err(anyhow::Error::msg)?;
    Ok((label, sw, pkts))
}

fn engine_name(e: Engine) -> &'static str {
    match e {
        Engine::Interp => "interp",
        Engine::Native => "native",
    }
}

/// Instructions per packet of `which` on `engine`: this binary under callgrind, counting
/// only `Worker::process_at`, over 20,000 packets.
fn callgrind_per_packet(which: &str, a: &BenchArgs, engine: Engine) -> anyhow::Result<f64> {
    const N: u64 = 20_000;
    let exe = std::env::current_exe()?;
    let dir = tempfile::tempdir()?;
    let out = dir.path().join("callgrind.out");
    let args: Vec<std::ffi::OsString> = [
        "switch".to_string(),
        "bench".into(),
        "--only".into(),
        which.into(),
        "--packets".into(),
        N.to_string(),
        "--engine".into(),
        engine_name(engine).into(),
        "--flows".into(),
        a.flows.to_string(),
        "--routes".into(),
        a.routes.to_string(),
    ]
    .into_iter()
    .map(Into::into)
    .collect();
    let total = tandem_bench::callgrind::count(
        &exe,
        &args,
        &["tandem_switch::switch::Worker::process_at"],
        &[],
        &out,
    )?;
    Ok(total as f64 / N as f64)
}

/// LPM throughput while a control thread inserts and deletes random routes at `rate` per
/// second, and the mean time of one single-route batch.
fn lpm_under_updates(a: &BenchArgs, engine: Engine, rate: u64) -> anyhow::Result<EngineRate> {
    let (sw, pkts) = bench::lpm_on(a.routes, 4096, engine).map_err(anyhow::Error::msg)?;
    let (_, ops) = bench::lpm_routes(a.routes, 4096);
    let extra: Vec<tandem_switch::ControlOp> = ops[a.routes..].to_vec();
    let pkts: Vec<(u32, Vec<u8>)> = pkts.into_iter().map(|p| (a.port, p)).collect();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (rate_s, (n_upd, upd_time)) = std::thread::scope(|s| {
        let ctl = s.spawn(|| {
            let mut i = 0usize;
            let mut spent = 0f64;
            let t0 = Instant::now();
            let gap = 1.0 / rate as f64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let due = i as f64 * gap;
                let now = t0.elapsed().as_secs_f64();
                if now < due {
                    std::thread::sleep(std::time::Duration::from_secs_f64((due - now).min(0.01)));
                    continue;
                }
                // insert a new route, or delete the one inserted half the list ago
                let k = i % (2 * extra.len());
                let op = if k < extra.len() {
                    extra[k].clone()
                } else {
                    match &extra[k - extra.len()] {
                        tandem_switch::ControlOp::Insert { table, entry } => {
                            tandem_switch::ControlOp::Delete {
                                table: table.clone(),
                                matches: entry.matches.clone(),
                                priority: None,
                            }
                        }
                        other => other.clone(),
                    }
                };
                let t = Instant::now();
                let _ = sw.apply_batch(&[op]);
                spent += t.elapsed().as_secs_f64();
                i += 1;
            }
            (i, spent)
        });
        let r = measure(
            &format!(
                "lpm ({} routes), {rate} updates/s [{}]",
                a.routes,
                engine_name(engine)
            ),
            sw.clone(),
            &pkts,
            a.seconds,
            1,
        );
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (r, ctl.join().unwrap_or((0, 0.0)))
    });
    let r = rate_s?;
    println!(
        "{:<40} {n_upd} updates applied, {:.1} µs per single-route update (rebuild and swap)",
        "",
        upd_time * 1e6 / n_upd.max(1) as f64
    );
    Ok(r)
}

fn run_bench(a: BenchArgs) -> anyhow::Result<()> {
    if let Some(f) = &a.write_minilb_entries {
        std::fs::write(f, bench::minilb_generated_entries(a.flows))
            .with_context(|| format!("writing {}", f.display()))?;
        println!(
            "wrote {}: entries for the generated MiniLB and {} flows",
            f.display(),
            a.flows
        );
        return Ok(());
    }
    let engines: Vec<Engine> = match a.engine {
        Some(e) => vec![e],
        None => vec![Engine::Interp, Engine::Native],
    };
    if let (Some(n), Some(which)) = (a.packets, &a.only) {
        // a fixed number of packets, for callgrind
        let (_, sw, pkts) = builtin(which, &a, engines[engines.len() - 1])?;
        let mut w = sw.worker();
        let mut i = 0u64;
        while i < n {
            for p in &pkts {
                if i == n {
                    break;
                }
                std::hint::black_box(w.process(a.port, std::hint::black_box(p)));
                i += 1;
            }
        }
        return Ok(());
    }
    let workers = a.workers.iter().copied().max().unwrap_or(1);
    println!(
        "64-byte packets, {:?} worker thread(s), in memory; {:.1} s per program",
        a.workers, a.seconds
    );
    println!("(wall-clock rates are lower when other processes share the core; the per-CPU-second rate counts only the workers' CPU time)");
    let on_port = |pkts: Vec<Vec<u8>>| -> Vec<(u32, Vec<u8>)> {
        pkts.into_iter().map(|p| (a.port, p)).collect()
    };
    if let Some(program) = &a.program {
        let pkts = if a.inputs.is_empty() {
            on_port(bench::minilb_packets(a.flows))
        } else {
            read_inputs(&a.inputs)?
                .into_iter()
                .map(|p| (p.port, p.data))
                .collect()
        };
        let name = program
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        for &e in &engines {
            let sw = load(program, e, &a.loopback)?;
            if let Some(f) = &a.entries {
                load_entries(&sw, f)?;
            }
            measure(
                &format!("{name} [{}]", engine_name(e)),
                sw,
                &pkts,
                a.seconds,
                workers,
            )?;
        }
        return Ok(());
    }
    let mut rates = Vec::new();
    for which in ["minilb", "generated", "lpm"] {
        for (&e, &nw) in engines
            .iter()
            .flat_map(|e| a.workers.iter().map(move |w| (e, w)))
        {
            let (label, sw, pkts) = builtin(which, &a, e)?;
            let wlabel = if nw > 1 {
                format!(", {nw} workers")
            } else {
                String::new()
            };
            let name = format!("{label}{wlabel} [{}]", engine_name(e));
            let mut r = measure(&name, sw, &on_port(pkts), a.seconds, nw)?;
            if a.callgrind && nw <= 1 {
                let ipp = callgrind_per_packet(which, &a, e)?;
                println!("{:<40} {ipp:.0} instructions per packet (callgrind)", "");
                r.instr_per_pkt = Some(ipp);
            }
            rates.push(r);
        }
    }
    if a.updates_per_sec > 0 {
        for &e in &engines {
            rates.push(lpm_under_updates(&a, e, a.updates_per_sec)?);
        }
    }
    if let Some(path) = &a.json {
        std::fs::write(path, serde_json::to_string_pretty(&rates)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(program: Option<PathBuf>, entries: Option<PathBuf>) -> BenchArgs {
        BenchArgs {
            seconds: 0.01,
            flows: 16,
            routes: 50,
            program,
            entries,
            inputs: vec![],
            port: 1,
            write_minilb_entries: None,
            json: None,
            engine: None,
            workers: vec![1],
            callgrind: false,
            packets: None,
            only: None,
            updates_per_sec: 0,
            loopback: vec![],
        }
    }

    #[test]
    fn bench_runs_the_builtin_and_a_given_program() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("engine.json");
        run_bench(BenchArgs {
            json: Some(json.clone()),
            ..args(None, None)
        })
        .unwrap();
        let rates: Vec<EngineRate> =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let names: Vec<&str> = rates.iter().map(|r| r.program.as_str()).collect();
        assert!(names[2].starts_with("minilb generated"), "{names:?}");
        assert!(names[3].ends_with("[native]"), "{names:?}");
        assert!(rates.iter().all(|r| r.mpps > 0.0), "{rates:?}");
        let entries = dir.path().join("minilb.entries");
        run_bench(BenchArgs {
            write_minilb_entries: Some(entries.clone()),
            ..args(None, None)
        })
        .unwrap();
        let program = dir.path().join("switch.p4");
        std::fs::write(&program, bench::MINILB_GENERATED_P4).unwrap();
        run_bench(args(Some(program.clone()), Some(entries))).unwrap();
        // packets from a pcap
        let trace = dir.path().join("t.pcap");
        let mut w = PcapFileWriter::create(&trace).unwrap();
        for p in bench::minilb_packets(4) {
            w.write(0, &p).unwrap();
        }
        w.finish().unwrap();
        run_bench(BenchArgs {
            inputs: vec![format!("1={}", trace.display())],
            ..args(Some(program), None)
        })
        .unwrap();
    }
}
