//! `tandem bench`: the baseline (original NF, every packet on the server) and the offloaded
//! pair on the same trace, as ratios; `tandem bench-report`: BENCHMARKS.md and the figures
//! from many results. The measuring itself is in `tandem-bench`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use tandem_bench::measure::{self, Recorded};
use tandem_bench::report::{EngineRate, ReportInputs};
use tandem_bench::{callgrind, BenchError, BenchResult, Machine, StageTime};
use tandem_offload::{Bundle, NfSource, Offloaded, RunOptions};
use tandem_p4::P4Options;
use tandem_partition::PartitionOptions;
use tandem_traffic::{
    GenOptions, Generator, Plan, TracePacket, TraceReader, TraceWriter, Workload,
};

use crate::cmd::host::{load_nf, TrafficArgs};

#[derive(clap::Args)]
pub struct Args {
    /// The NF source (`.cc`).
    pub nf: PathBuf,
    /// The NF's configuration (default: `<stem>.toml` beside the source, if any).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Target profile for partitioning (tofino1, tofino2, bmv2, tiny, or a `.toml`).
    #[arg(long, default_value = "tofino1")]
    pub profile: String,
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// Stop after this many packets (default: every packet of every flow).
    #[arg(long)]
    pub packets: Option<usize>,
    /// Where to write bench.json, the compiled pair, the callgrind profiles (and the recorded
    /// trace, with --keep-trace).
    #[arg(long, default_value = "out/bench")]
    pub out_dir: PathBuf,
    /// Also write the result (JSON) here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Skip the instruction counts (callgrind); only wall time.
    #[arg(long)]
    pub no_callgrind: bool,
    /// Repetitions of each wall-time measurement (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub reps: usize,
    /// Keep the recorded trace (out-dir/trace.pcapng; large for long workloads).
    #[arg(long)]
    pub keep_trace: bool,
    /// Minimum milliseconds per repetition of the switch-alone measurement.
    #[arg(long, default_value_t = 300)]
    pub switch_ms: u64,
}

/// The process `tandem bench` runs under callgrind.
#[derive(clap::Args)]
pub struct WorkerArgs {
    /// `baseline` (the original NF), `server` (the offloaded pair; only the server counts)
    /// or `switch` (the offloaded run, then one replay through the switch alone, counted).
    #[arg(long)]
    pub role: String,
    /// The recorded trace (pcapng).
    #[arg(long)]
    pub trace: PathBuf,
    /// The NF source.
    #[arg(long)]
    pub nf: PathBuf,
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The compiled pair (role `server`).
    #[arg(long)]
    pub compiled: Option<PathBuf>,
    /// Where the compiled server partition is cached.
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Role `cluster`: server hosts behind the switch.
    #[arg(long, default_value_t = 1)]
    pub servers: usize,
    /// Role `cluster`: the server whose work is counted.
    #[arg(long, default_value_t = 0)]
    pub measure: usize,
    /// Role `cluster`: the owner's dispatch weight (`bench-cluster --owner-share`).
    #[arg(long)]
    pub owner_share: Option<u32>,
}

#[derive(clap::Args)]
pub struct ReportArgs {
    /// `bench.json` files written by `tandem bench`.
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// The markdown file to write.
    #[arg(short, long, default_value = "BENCHMARKS.md")]
    pub output: PathBuf,
    /// Directory for the SVG figures (linked relative to the markdown file).
    #[arg(long, default_value = "docs/bench")]
    pub figures: PathBuf,
    /// `tandem switch bench --json` output, for the switch engine section.
    #[arg(long, value_name = "FILE")]
    pub engine: Option<PathBuf>,
    /// Hand-written notes (markdown) to include after the figures.
    #[arg(long, value_name = "FILE")]
    pub notes: Option<PathBuf>,
    /// The command that reproduces the whole file.
    #[arg(long, default_value = "make bench")]
    pub command: String,
    /// Replace --output (and the figures) if it exists: the report is rewritten whole from
    /// the results given, so without this an existing file is never touched.
    #[arg(long)]
    pub force: bool,
    /// `tandem bench-partial --json` files: partial maps under Zipf traffic.
    #[arg(long, value_name = "FILE")]
    pub partial: Vec<PathBuf>,
}

/// report.html beside bench.json: the compiled pair's HTML report with this run's figures
/// (server instructions per packet, fast-path share by flow size) and headline numbers.
fn bench_html(
    plan: &tandem_partition::Plan,
    r: &BenchResult,
    out: &Path,
) -> anyhow::Result<PathBuf> {
    use tandem_partition::html::{escape, html_report, Section};
    let figs = out.join("figures");
    std::fs::create_dir_all(&figs).with_context(|| format!("creating {}", figs.display()))?;
    let one = std::slice::from_ref(r);
    let work = figs.join("server_work.svg");
    tandem_bench::plot::server_work(one, &work)?;
    let share = figs.join("fast_path_by_flow_size.svg");
    tandem_bench::plot::fast_path_by_flow_size(one, &share)?;
    let svg =
        |p: &Path| std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()));
    let instr = match (r.baseline_instr_per_packet(), r.server_instr_per_packet()) {
        (Some(b), Some(s)) => {
            format!("; server instructions per packet {b:.1} → {s:.1} (callgrind)")
        }
        _ => String::new(),
    };
    let summary = format!(
        "<p>{} packets of {} ({} flows): {:.2}% on the fast path{instr}; outputs {} the \
         baseline's.</p>",
        r.trace.packets,
        escape(&r.workload),
        r.trace.flows,
        100.0 * r.fast_path_share(),
        if r.offloaded.outputs_equal {
            "equal to"
        } else {
            "differ from"
        },
    );
    let html = html_report(
        plan,
        |f| std::fs::read_to_string(f).ok(),
        &[Section {
            title: format!("Benchmark: {}", r.workload),
            html: format!("{summary}{}{}", svg(&work)?, svg(&share)?),
        }],
    );
    let path = out.join("report.html");
    std::fs::write(&path, html).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

fn timed<T>(stages: &mut Vec<StageTime>, name: &str, f: impl FnOnce() -> T) -> T {
    let t0 = Instant::now();
    let r = f();
    stages.push(StageTime {
        stage: name.into(),
        ms: t0.elapsed().as_secs_f64() * 1e3,
    });
    r
}

/// Compiles the NF stage by stage (a fresh cache, so nothing is reused) and writes the
/// pair to `dir` as `tandem compile` would.
pub(super) fn compile_timed(
    a: &Args,
    cache: &Path,
    dir: &Path,
    dispatch: Option<tandem_p4::DispatchShape>,
) -> anyhow::Result<(Bundle, Vec<StageTime>)> {
    let profile = super::partition::load_profile(&a.profile)?;
    let include = tandem_host::nfapi::materialize(cache)?;
    let mut st = Vec::new();
    let ll = timed(&mut st, "clang (analysis build)", || {
        tandem_lift::driver::emit_llvm(
            &tandem_host::build::find_cxx(),
            &include,
            &a.nf,
            &cache.join("analysis"),
        )
    })
    .with_context(|| format!("compiling {}", a.nf.display()))?;
    let module = timed(&mut st, "lift", || -> anyhow::Result<_> {
        let lifted = tandem_lift::lift(&ll).map_err(|e| anyhow::anyhow!("{e}"))?;
        tandem_ir::verify_module(&lifted.module)
            .map_err(|e| anyhow::anyhow!("the lifted module does not verify:\n{e}"))?;
        Ok(tandem_ir::renumber(&lifted.module))
    })?;
    let plan = timed(&mut st, "partition", || {
        tandem_partition::partition_module(&module, &profile, &PartitionOptions::default())
    })?
    .plan;
    let m = plan.module()?;
    let (p4_text, manifest) = timed(&mut st, "P4", || -> anyhow::Result<_> {
        let p4 = P4Options {
            dispatch,
            ..P4Options::default()
        };
        let out = tandem_p4::generate(&plan, &m, &p4)?;
        Ok((tandem_p4_syntax::print_program(&out.program), out.manifest))
    })?;
    let cc = timed(&mut st, "C++", || tandem_cpp::generate(&plan, &m))?;
    timed(&mut st, "server build (clang++ -O2)", || {
        tandem_offload::server::compile_server(&cc, cache)
    })?;
    timed(&mut st, "switch load", || {
        tandem_switch::Switch::from_source(&p4_text).map_err(|e| anyhow::anyhow!("{e}"))
    })?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text)
            .with_context(|| format!("writing {}", dir.join(name).display()))
    };
    write("plan.json", &(plan.to_json() + "\n"))?;
    write("manifest.json", &(manifest.to_json() + "\n"))?;
    write("switch.p4", &p4_text)?;
    write("server.cc", &cc)?;
    let nf = NfSource::new(
        std::fs::canonicalize(&a.nf).unwrap_or_else(|_| a.nf.clone()),
        a.config.clone(),
    );
    write("nf.json", &serde_json::to_string_pretty(&nf)?)?;
    let bundle = Bundle::new(plan, manifest, p4_text, cc, Some(nf))?;
    Ok((bundle, st))
}

/// Packets with their generator flow index (none for a trace file).
type Source = Box<dyn Iterator<Item = Result<(Option<u64>, TracePacket), BenchError>>>;

/// The packets with their generator flow index (none for a trace file).
pub(super) fn source(a: &Args) -> anyhow::Result<Source> {
    let limit = a.packets.unwrap_or(usize::MAX);
    let t = &a.traffic;
    match (&t.input, &t.workload) {
        (Some(path), _) => {
            let r = TraceReader::open(path)?.with_default_port(t.in_port);
            Ok(Box::new(r.take(limit).map(|p| {
                p.map(|p| (None, p))
                    .map_err(|e| BenchError::Setup(e.to_string()))
            })))
        }
        (None, Some(w)) => {
            let workload = Workload::resolve(w)?;
            let plan: Plan = t.plan.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
            let mut g = Generator::new(
                &workload,
                GenOptions {
                    flows: t.flows,
                    seed: t.seed,
                    plan,
                    zipf: t.zipf,
                    xgw: t.xgw.options(),
                    ..GenOptions::default()
                },
            )?;
            Ok(Box::new(
                std::iter::from_fn(move || g.next_with_flow())
                    .take(limit)
                    .map(|(f, p)| Ok((Some(f), p))),
            ))
        }
        (None, None) => anyhow::bail!("give a trace (--in FILE) or a workload (--workload NAME)"),
    }
}

pub(super) fn write_trace(rec: &Recorded, path: &Path) -> anyhow::Result<()> {
    let ports = rec.packets.iter().map(|p| p.port + 1).max().unwrap_or(1);
    let mut w = TraceWriter::create(path, ports)?;
    for p in &rec.packets {
        w.write(p)?;
    }
    w.finish()?;
    Ok(())
}

pub(super) fn initial_state(nf: &Path, config: Option<&Path>) -> anyhow::Result<serde_json::Value> {
    let mut native = load_nf(nf, config)?;
    if native.timer_interval_ns() > 0 {
        anyhow::bail!(
            "{}: `tandem bench` does not measure NFs with on_timer() yet (its baseline times process() alone); `tandem check` and `tandem run` run them",
            nf.display()
        );
    }
    Ok(native.dump_state(0)?)
}

/// The command line that reproduces `a`.
fn command_line(a: &Args) -> String {
    let mut c = format!("tandem bench {}", a.nf.display());
    if let Some(cfg) = &a.config {
        c += &format!(" --config {}", cfg.display());
    }
    c += &format!(" --profile {}", a.profile);
    match (&a.traffic.input, &a.traffic.workload) {
        (Some(p), _) => c += &format!(" --in {}", p.display()),
        (None, Some(w)) => {
            c += &format!(
                " --workload {w} --flows {} --seed {} --plan {}",
                a.traffic.flows, a.traffic.seed, a.traffic.plan
            );
            if let Some(z) = a.traffic.zipf {
                c += &format!(" --zipf {z}");
            }
        }
        _ => {}
    }
    if let Some(n) = a.packets {
        c += &format!(" --packets {n}");
    }
    if a.traffic.open_loop {
        c += " --open-loop";
    }
    c
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let out = &a.out_dir;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let cache = tempfile::Builder::new()
        .prefix("tandem-bench-")
        .tempdir()
        .context("creating a build directory")?;
    let compiled = out.join("compiled");
    println!(
        "compiling {} (stage by stage, nothing cached)",
        a.nf.display()
    );
    let (bundle, compile) = compile_timed(&a, cache.path(), &compiled, None)?;
    let fresh =
        || load_nf(&a.nf, a.config.as_deref()).map_err(|e| BenchError::Setup(format!("{e:#}")));

    let mut nf = fresh()?;
    let rec = measure::record(&mut nf, source(&a)?, !a.traffic.open_loop)?;
    drop(nf);
    let trace_path = out.join("trace.pcapng");
    write_trace(&rec, &trace_path)?;
    let trace = rec.summary();
    if trace.packets == 0 {
        return Err(BenchError::Setup(
            "no packets to measure (an empty trace, --flows 0 or --packets 0)".into(),
        )
        .into());
    }
    println!(
        "trace: {} packets, {} flows, {} bytes",
        trace.packets, trace.flows, trace.bytes
    );

    let mut baseline = measure::time_baseline(fresh, &rec, a.reps)?;

    let initial = initial_state(&a.nf, a.config.as_deref())?;
    let control_ns = Arc::new(AtomicU64::new(0));
    let options = RunOptions {
        cache_dir: cache.path().to_path_buf(),
        ..RunOptions::default()
    };
    let mut sys = Offloaded::new(
        &bundle,
        &initial,
        &options,
        Some(measure::timed_control(control_ns.clone())),
    )?;
    let run = measure::run_offloaded(&mut sys, &rec, &control_ns)?;
    let flows = measure::flow_buckets(&rec, &run.fast);
    let mut switch = measure::switch_rate(sys.switch(), &rec, a.reps, a.switch_ms);
    let mut offloaded = run.figures;
    drop(sys);

    let mut machine = Machine::detect();
    if !a.no_callgrind {
        machine.valgrind = callgrind::valgrind_version();
        let exe = std::env::current_exe().context("finding the tandem executable")?;
        let worker = |role: &str, toggles: &[&str], exclude: &[&str]| -> anyhow::Result<u64> {
            let mut args: Vec<OsString> = vec![
                "bench-worker".into(),
                "--role".into(),
                role.into(),
                "--trace".into(),
                trace_path.clone().into(),
                "--nf".into(),
                a.nf.clone().into(),
                "--compiled".into(),
                compiled.clone().into(),
                "--cache".into(),
                cache.path().into(),
            ];
            if let Some(c) = &a.config {
                args.push("--config".into());
                args.push(c.into());
            }
            let profile = out.join(format!("callgrind.{role}.out"));
            Ok(callgrind::count(&exe, &args, toggles, exclude, &profile)?)
        };
        println!(
            "counting instructions under callgrind: baseline, server and switch alone, in parallel"
        );
        let (base, server, sw) = std::thread::scope(|s| {
            let b = s.spawn(|| worker("baseline", callgrind::BASELINE_TOGGLES, &[]));
            let sw = s.spawn(|| worker("switch", callgrind::SWITCH_TOGGLES, &[]));
            let server = worker(
                "server",
                callgrind::SERVER_TOGGLES,
                callgrind::SERVER_EXCLUDE,
            );
            (b.join(), server, sw.join())
        });
        let base = base.map_err(|_| anyhow::anyhow!("the baseline's callgrind run panicked"))?;
        let sw = sw.map_err(|_| anyhow::anyhow!("the switch's callgrind run panicked"))?;
        baseline.instructions = Some(base?);
        offloaded.server_instructions = Some(server?);
        switch.instructions = Some(sw?);
    }
    if !a.keep_trace {
        let _ = std::fs::remove_file(&trace_path);
    }

    let result = BenchResult {
        nf: bundle.plan.nf.clone(),
        workload: a
            .traffic
            .workload
            .clone()
            .or_else(|| a.traffic.input.as_ref().map(|p| p.display().to_string()))
            .unwrap_or_default(),
        profile: bundle.plan.target.clone(),
        trace,
        compile,
        baseline,
        offloaded,
        switch,
        flows,
        machine,
        command: command_line(&a),
    };
    let text = serde_json::to_string_pretty(&result)? + "\n";
    let json = out.join("bench.json");
    std::fs::write(&json, &text).with_context(|| format!("writing {}", json.display()))?;
    if let Some(p) = &a.json {
        std::fs::write(p, &text).with_context(|| format!("writing {}", p.display()))?;
    }
    print_result(&result);
    println!("  wrote {}", json.display());
    let html = bench_html(&bundle.plan, &result, out)?;
    println!("  wrote {}", html.display());
    if !result.offloaded.outputs_equal {
        anyhow::bail!(
            "the offloaded outputs differ from the baseline's: run `tandem check` on this NF and workload"
        );
    }
    Ok(())
}

fn print_result(r: &BenchResult) {
    println!(
        "bench {} ({}, {}): {} packets, {} flows",
        r.nf, r.workload, r.profile, r.trace.packets, r.trace.flows
    );
    let o = &r.offloaded;
    println!(
        "  fast path           {:>9.2}%  ({} via the server, {} whole on the server; {:.2} server visits per flow)",
        100.0 * r.fast_path_share(),
        o.via_server,
        o.whole_on_server,
        r.visits_per_flow()
    );
    if let (Some(b), Some(s), Some(x)) = (
        r.baseline_instr_per_packet(),
        r.server_instr_per_packet(),
        r.instr_reduction(),
    ) {
        println!(
            "  server instructions {b:>10.1} → {s:.1} per packet  ({:.2}% fewer)",
            100.0 * x
        );
    }
    println!(
        "  server wall time    {:>10.1} → {:.1} ns per packet  ({:.2}% less; switch control-plane time {:.1} ms not counted)",
        r.baseline.ns_per_packet,
        r.server_ns_per_packet(),
        100.0 * r.time_reduction(),
        o.control_ns as f64 / 1e6
    );
    println!(
        "  switch alone        {:>10.2} Mpps per core on the generated program ({:.1}× the baseline host's {:.2} Mpps)",
        r.switch_pps() / 1e6,
        if r.baseline_pps() > 0.0 {
            r.switch_pps() / r.baseline_pps()
        } else {
            0.0
        },
        r.baseline_pps() / 1e6
    );
    if let (Some(b), Some(s)) = (r.baseline_instr_per_packet(), r.switch_instr_per_packet()) {
        println!(
            "  switch instructions {s:>10.1} per packet alone vs the baseline host's {b:.1}  (rate ratio {:.2}×)",
            if s > 0.0 { b / s } else { 0.0 }
        );
    }
    let stages: Vec<String> = r
        .compile
        .iter()
        .map(|s| format!("{} {:.1}", s.stage, s.ms))
        .collect();
    println!(
        "  compile             {:>10.1} ms  ({})",
        r.compile_ms(),
        stages.join(", ")
    );
    println!(
        "  outputs             {}",
        if o.outputs_equal {
            "equal to the baseline's on every port"
        } else {
            "DIFFER from the baseline's"
        }
    );
}

/// What a server-side worker role measures from: the compiled bundle (`--compiled`), the
/// NF's initial state and run options that leave out the server timers (callgrind counts).
pub(crate) fn server_setup(
    a: &WorkerArgs,
    role: &str,
) -> anyhow::Result<(Bundle, serde_json::Value, RunOptions)> {
    let dir = a
        .compiled
        .as_deref()
        .with_context(|| format!("--compiled is needed for role `{role}`"))?;
    let bundle = Bundle::load(dir)?;
    let initial = initial_state(&a.nf, a.config.as_deref())?;
    let mut options = RunOptions {
        time_server: false,
        ..RunOptions::default()
    };
    if let Some(c) = &a.cache {
        options.cache_dir = c.clone();
    }
    Ok((bundle, initial, options))
}

pub fn worker(a: WorkerArgs) -> anyhow::Result<()> {
    let packets = TraceReader::read_all(&a.trace)?;
    match a.role.as_str() {
        "baseline" => {
            let mut nf = load_nf(&a.nf, a.config.as_deref())?;
            measure::replay_baseline(&mut nf, &packets)?;
        }
        "server" => {
            let (bundle, initial, options) = server_setup(&a, "server")?;
            let mut sys = Offloaded::new(&bundle, &initial, &options, None)?;
            for p in &packets {
                sys.process(p)?;
            }
        }
        "switch" => {
            // the offloaded run fills the switch's tables; only the replay after it counts
            let (bundle, initial, options) = server_setup(&a, "switch")?;
            let mut sys = Offloaded::new(&bundle, &initial, &options, None)?;
            for p in &packets {
                sys.process(p)?;
            }
            let mut w = sys.switch().worker();
            measure::replay_switch(&mut w, &packets);
        }
        "cluster" => super::bench_cluster::worker(&a, &packets)?,
        other => anyhow::bail!("unknown role `{other}` (baseline, server, switch or cluster)"),
    }
    Ok(())
}

pub fn report(a: ReportArgs) -> anyhow::Result<()> {
    let mut results = Vec::new();
    for p in &a.results {
        let text =
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
        let r: BenchResult =
            serde_json::from_str(&text).with_context(|| format!("parsing {}", p.display()))?;
        results.push(r);
    }
    if a.output.exists() && !a.force {
        anyhow::bail!(
            "{} exists; bench-report rewrites it whole from the {} result(s) given (and the \
             figures in {}): pass --force to replace it, or --output/--figures elsewhere",
            a.output.display(),
            a.results.len(),
            a.figures.display()
        );
    }
    let engine: Vec<EngineRate> = match &a.engine {
        Some(p) => serde_json::from_str(
            &std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
        )
        .with_context(|| format!("parsing {}", p.display()))?,
        None => Vec::new(),
    };
    std::fs::create_dir_all(&a.figures)
        .with_context(|| format!("creating {}", a.figures.display()))?;
    let base = a.output.parent().unwrap_or(Path::new(""));
    let rel = |p: &Path| -> String { p.strip_prefix(base).unwrap_or(p).display().to_string() };
    let work = a.figures.join("server_work.svg");
    tandem_bench::plot::server_work(&results, &work)?;
    let share = a.figures.join("fast_path_by_flow_size.svg");
    tandem_bench::plot::fast_path_by_flow_size(&results, &share)?;
    let mut partial = Vec::new();
    for p in &a.partial {
        let text =
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
        partial.push(
            serde_json::from_str::<tandem_bench::partial::PartialBench>(&text)
                .with_context(|| format!("parsing {}", p.display()))?,
        );
    }
    let mut figures = vec![
        ("server instructions per packet".into(), rel(&work)),
        ("fast-path share by flow size".into(), rel(&share)),
    ];
    if !partial.is_empty() {
        let f = a.figures.join("partial_server_share.svg");
        tandem_bench::plot::partial_server_share(&partial, &f)?;
        figures.push((
            "partial maps: the server's packet share over time".into(),
            rel(&f),
        ));
    }
    let notes = match &a.notes {
        Some(p) => {
            Some(std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?)
        }
        None => None,
    };
    let md = tandem_bench::report::markdown(
        &results,
        &ReportInputs {
            engine,
            figures,
            notes,
            command: a.command.clone(),
            partial,
        },
    );
    std::fs::write(&a.output, md).with_context(|| format!("writing {}", a.output.display()))?;
    println!(
        "wrote {}, {}, {}",
        a.output.display(),
        work.display(),
        share.display()
    );
    Ok(())
}
