//! `tandem fuzz-nfs`: the random-NF differential fuzzer (docs/fuzzing.md).
//!
//! Each NF runs in a worker process (this binary, `fuzz-nfs --worker --seed S`), so an abort
//! in LLVM or in a loaded server partition is a reported crash, not the end of the run;
//! `--jobs` workers run at once. The last line printed is the one-line summary and the exit
//! status is 1 when any run failed.

use std::collections::BTreeMap;
use std::io::{BufRead, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use anyhow::Context;
use tandem_fuzz::run::{run_seed, FailKind, NfRun, Outcome, ProfileRun, RunConfig};
use tandem_fuzz::GenOptions;

#[derive(clap::Args)]
pub struct Args {
    /// How many NFs (seeds `seed`, `seed + 1`, ...).
    #[arg(long, default_value_t = 100)]
    pub count: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Built-in profiles every NF is partitioned for (comma-separated).
    #[arg(long, default_value = "tofino1,bmv2,tiny", value_delimiter = ',')]
    pub profiles: Vec<String>,
    /// Use the built-in profiles as they are (by default half the runs vary their budgets
    /// and the partitioner's options).
    #[arg(long)]
    pub no_vary: bool,
    /// Packets per check, at most.
    #[arg(long, default_value_t = 300)]
    pub packets: usize,
    /// Also generate constructs that hit known, tracked bugs (MAC copies, mixed-width
    /// payload reads, now(), header arrays indexed by a loop counter, Ethernet pops).
    #[arg(long)]
    pub known_bugs: bool,
    /// No 64-bit integers in the generated NFs.
    #[arg(long)]
    pub no_int64: bool,
    /// No `Vector` state in the generated NFs.
    #[arg(long)]
    pub no_vectors: bool,
    /// No `Meter` state in the generated NFs.
    #[arg(long)]
    pub no_meters: bool,
    /// No `crc16`/`crc32`/`identity` hashes.
    #[arg(long)]
    pub no_hashes: bool,
    /// No vector read-modify-writes (`v[i] += n`, ...).
    #[arg(long)]
    pub no_vector_rmw: bool,
    /// No `LpmMap` state.
    #[arg(long)]
    pub no_lpm: bool,
    /// No declared headers or parse graphs (`TANDEM_HEADER`, `TANDEM_PARSE`).
    #[arg(long)]
    pub no_declared_headers: bool,
    /// No header push or pop.
    #[arg(long)]
    pub no_push_pop: bool,
    /// Also write the fields the parser selects on (EtherType, IPv4 version/IHL and
    /// protocol, TCP data offset, the declared headers' select fields) outside push/pop.
    #[arg(long)]
    pub structural_writes: bool,
    /// Save every failing NF here (source, profile, seed, error).
    #[arg(long, value_name = "DIR")]
    pub keep_failures: Option<PathBuf>,
    /// Worker processes at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Where sources and builds go (default: a directory under the cache).
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// Write every NF's outcome as JSON lines here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Run the NFs in this process, one at a time (no crash isolation).
    #[arg(long)]
    pub in_process: bool,
    /// Internal: run `--count` seeds in this process and print each outcome as JSON.
    #[arg(long, hide = true)]
    pub worker: bool,
}

fn config(args: &Args) -> RunConfig {
    let work = args
        .work_dir
        .clone()
        .unwrap_or_else(|| tandem_host::build::default_cache_dir().join("fuzz-nfs"));
    let mut c = RunConfig::new(work.join("nfs"), work.join("cache"));
    c.profiles = args.profiles.clone();
    c.vary_profiles = !args.no_vary;
    c.packets = args.packets;
    c.gen = GenOptions {
        known_bugs: args.known_bugs,
        int64: !args.no_int64,
        vectors: !args.no_vectors,
        meters: !args.no_meters,
        hashes: !args.no_hashes,
        vector_rmw: !args.no_vector_rmw,
        lpm: !args.no_lpm,
        declared_headers: !args.no_declared_headers,
        push_pop: !args.no_push_pop,
        structural_writes: args.structural_writes,
        ..GenOptions::default()
    };
    c
}

/// The arguments a worker gets: everything that shapes a run.
fn worker_command(args: &Args, seed: u64) -> anyhow::Result<Command> {
    let exe = std::env::current_exe().context("locating the tandem binary")?;
    let mut cmd = Command::new(exe);
    cmd.arg("fuzz-nfs")
        .arg("--worker")
        .args(["--seed", &seed.to_string(), "--count", "1"])
        .args(["--profiles", &args.profiles.join(",")])
        .args(["--packets", &args.packets.to_string()]);
    if args.no_vary {
        cmd.arg("--no-vary");
    }
    if args.known_bugs {
        cmd.arg("--known-bugs");
    }
    cmd.args(gen_flags(args));
    if let Some(w) = &args.work_dir {
        cmd.arg("--work-dir").arg(w);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Ok(cmd)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let config = config(&args);
    if args.worker {
        // Panics are caught and reported by the runner; keep the default hook quiet.
        std::panic::set_hook(Box::new(|_| {}));
        let stdout = std::io::stdout();
        for seed in args.seed..args.seed.saturating_add(args.count) {
            let nf = run_seed(seed, &config);
            let mut out = stdout.lock();
            writeln!(out, "{}", serde_json::to_string(&nf)?)?;
            out.flush()?;
        }
        return Ok(());
    }
    let start = Instant::now();
    let mut json = match &args.json {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?,
        )),
        None => None,
    };
    let mut stats = Stats::default();
    let seeds: Vec<u64> = (args.seed..args.seed.saturating_add(args.count)).collect();
    let mut record = |nf: NfRun, stats: &mut Stats| -> anyhow::Result<()> {
        println!("{}", one_line(&nf));
        stats.add(&nf);
        if nf.failed() {
            for r in &nf.runs {
                if let Outcome::Failed { kind, message } = &r.outcome {
                    let first: String = message
                        .lines()
                        .filter(|l| !l.trim().is_empty())
                        .take(2)
                        .collect::<Vec<_>>()
                        .join(" / ");
                    println!("  FAILED {} {}: {first}", r.profile, kind.as_str());
                }
            }
            if let Some(dir) = &args.keep_failures {
                save_failure(dir, &nf, &repro_flags(&args))?;
            }
        }
        if let Some(j) = json.as_mut() {
            let mut v = serde_json::to_value(&nf)?;
            if let Some(o) = v.as_object_mut() {
                o.remove("source");
            }
            writeln!(j, "{v}")?;
        }
        Ok(())
    };
    if args.in_process {
        std::panic::set_hook(Box::new(|_| {}));
        for &seed in &seeds {
            record(run_seed(seed, &config), &mut stats)?;
        }
    } else {
        let jobs = args.jobs.max(1);
        let mut next = seeds.iter().copied();
        let mut running: Vec<(u64, Child)> = Vec::new();
        loop {
            while running.len() < jobs {
                let Some(seed) = next.next() else { break };
                let child = worker_command(&args, seed)?
                    .spawn()
                    .context("starting a fuzz-nfs worker")?;
                running.push((seed, child));
            }
            if running.is_empty() {
                break;
            }
            // Wait for the oldest worker (they take about as long as each other).
            let (seed, child) = running.remove(0);
            let nf = collect(seed, child, &config)?;
            record(nf, &mut stats)?;
        }
    }
    if let Some(j) = json.as_mut() {
        j.flush()?;
    }
    println!(
        "refusals: {}",
        if stats.refusals.is_empty() {
            "none".to_string()
        } else {
            stats
                .refusals
                .iter()
                .map(|(c, n)| format!("{c} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    for (cause, n) in &stats.causes {
        println!("failed runs, {cause}: {n}");
    }
    if !stats.failures.is_empty() {
        println!(
            "failures: {}",
            stats
                .failures
                .iter()
                .map(|(c, n)| format!("{c} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    println!(
        "fuzz-nfs: {} nfs, {} runs: {} passed, {} refused, {} failed ({:.0} s)",
        stats.nfs,
        stats.runs,
        stats.passed,
        stats.refused,
        stats.failed,
        start.elapsed().as_secs_f64()
    );
    if stats.failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// A worker's result, or a crash for every profile when it died without one.
fn collect(seed: u64, mut child: Child, config: &RunConfig) -> anyhow::Result<NfRun> {
    let mut line = String::new();
    if let Some(out) = child.stdout.take() {
        let mut r = std::io::BufReader::new(out);
        r.read_line(&mut line).context("reading a worker")?;
    }
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read as _;
        let _ = e.read_to_string(&mut stderr);
    }
    let status = child.wait().context("waiting for a worker")?;
    if let Ok(nf) = serde_json::from_str::<NfRun>(line.trim()) {
        return Ok(nf);
    }
    // The worker died: regenerate the source for the record.
    let gen = tandem_fuzz::generate(seed, &config.gen);
    let tail: Vec<&str> = stderr.lines().rev().take(20).collect();
    let message = format!(
        "the worker died ({status}) without a result; its stderr ends:\n{}",
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    );
    Ok(NfRun {
        seed,
        source_path: config.work_dir.join(format!("fuzz{seed}.cc")),
        source: gen.source,
        known_bug_tags: gen.known_bug_tags.iter().map(|s| s.to_string()).collect(),
        runs: config
            .profiles
            .iter()
            .map(|p| ProfileRun {
                profile: p.clone(),
                variation: String::new(),
                trace: String::new(),
                packets: 0,
                outcome: Outcome::Failed {
                    kind: FailKind::Crash,
                    message: message.clone(),
                },
            })
            .collect(),
    })
}

fn one_line(nf: &NfRun) -> String {
    let runs: Vec<String> = nf
        .runs
        .iter()
        .map(|r| {
            let o = match &r.outcome {
                Outcome::Passed => format!("passed ({} packets)", r.packets),
                Outcome::Refused { code, .. } => format!("refused {code}"),
                Outcome::Failed { kind, .. } => format!("FAILED {}", kind.as_str()),
            };
            format!("{} {o}", r.profile)
        })
        .collect();
    let tags = if nf.known_bug_tags.is_empty() {
        String::new()
    } else {
        format!(" [known-bug constructs: {}]", nf.known_bug_tags.join(","))
    };
    format!("seed {}: {}{tags}", nf.seed, runs.join(", "))
}

/// The generator's flags that are set.
fn gen_flags(args: &Args) -> Vec<&'static str> {
    [
        (args.no_int64, "--no-int64"),
        (args.no_vectors, "--no-vectors"),
        (args.no_hashes, "--no-hashes"),
        (args.no_vector_rmw, "--no-vector-rmw"),
        (args.no_lpm, "--no-lpm"),
        (args.no_declared_headers, "--no-declared-headers"),
        (args.no_push_pop, "--no-push-pop"),
        (args.no_meters, "--no-meters"),
        (args.structural_writes, "--structural-writes"),
    ]
    .into_iter()
    .filter_map(|(on, flag)| on.then_some(flag))
    .collect()
}

/// The flags that shape a seed's NF, profiles and traffic.
fn repro_flags(args: &Args) -> String {
    let mut f = format!(
        "--profiles {} --packets {}",
        args.profiles.join(","),
        args.packets
    );
    for (on, flag) in [
        (args.no_vary, " --no-vary"),
        (args.known_bugs, " --known-bugs"),
    ] {
        if on {
            f.push_str(flag);
        }
    }
    for flag in gen_flags(args) {
        f.push(' ');
        f.push_str(flag);
    }
    f
}

fn save_failure(dir: &Path, nf: &NfRun, flags: &str) -> anyhow::Result<()> {
    let d = dir.join(format!("seed-{}", nf.seed));
    std::fs::create_dir_all(&d).with_context(|| format!("creating {}", d.display()))?;
    std::fs::write(d.join(format!("fuzz{}.cc", nf.seed)), &nf.source)?;
    for r in &nf.runs {
        if let Outcome::Failed { kind, message } = &r.outcome {
            let text = format!(
                "seed: {}\nprofile: {}\nvariation: {}\ntrace: {}\nkind: {}\nknown-bug constructs: {}\nreproduce: tandem fuzz-nfs --seed {} --count 1 {flags}\n\n{message}\n",
                nf.seed,
                r.profile,
                if r.variation.is_empty() { "none" } else { &r.variation },
                r.trace,
                kind.as_str(),
                nf.known_bug_tags.join(","),
                nf.seed,
            );
            std::fs::write(d.join(format!("{}.txt", r.profile)), text)?;
        }
    }
    Ok(())
}

#[derive(Default)]
struct Stats {
    nfs: u64,
    runs: u64,
    passed: u64,
    refused: u64,
    failed: u64,
    refusals: BTreeMap<String, u64>,
    failures: BTreeMap<String, u64>,
    causes: BTreeMap<String, u64>,
}

impl Stats {
    fn add(&mut self, nf: &NfRun) {
        self.nfs += 1;
        for r in &nf.runs {
            self.runs += 1;
            match &r.outcome {
                Outcome::Passed => self.passed += 1,
                Outcome::Refused { code, .. } => {
                    self.refused += 1;
                    *self.refusals.entry(code.clone()).or_default() += 1;
                }
                Outcome::Failed { kind, message } => {
                    self.failed += 1;
                    *self.failures.entry(kind.as_str().to_string()).or_default() += 1;
                    let cause = match tandem_fuzz::run::known_bug(message) {
                        Some(k) => format!("known: {k}"),
                        None if !nf.known_bug_tags.is_empty() => format!(
                            "in an NF with known-bug constructs ({})",
                            nf.known_bug_tags.join(",")
                        ),
                        None => "new".to_string(),
                    };
                    *self.causes.entry(cause).or_default() += 1;
                }
            }
        }
    }
}
