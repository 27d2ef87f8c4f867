//! The `tandem` command: the only crate that uses `anyhow`, prints to the terminal and
//! decides process exit codes. Each subcommand lives in `cmd/<name>.rs` and exposes
//! `Args` (a clap `Args` or `Subcommand` type) and `run(args) -> anyhow::Result<()>`.
#![allow(clippy::print_stdout, clippy::print_stderr)] // the CLI is where printing belongs

mod cmd;

use clap::{Parser, Subcommand};

/// Tandem: offload a C++ network function to a programmable switch plus a server.
///
/// The usual path: `tandem scenario` / `tandem host` the NF as written, `tandem compile` it to
/// a P4 switch program plus a server program, `tandem run` the pair on the built-in software
/// switch, `tandem check` it against the original on the same traffic, and `tandem bench` what
/// offloading saves. README.md's Usage block walks through each command.
#[derive(Parser)]
#[command(name = "tandem", version)]
struct Cli {
    /// More log output (repeat for more).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    /// Stop with an error when the NF's native code (process(), or the server partition) has
    /// not returned on one packet after this many seconds — a loop that never ends; 0: wait
    /// forever.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 10.0)]
    call_timeout: f64,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run an NF natively on the reference host (the oracle and all-software baseline).
    Host(cmd::host::Args),
    /// Run packet scenario files on the reference host.
    Scenario(cmd::scenario::Args),
    /// Lift an NF to the NF IR (the C++ front end).
    Lift(cmd::lift::Args),
    /// Split an NF between switch and server for a target and explain the plan.
    Partition(cmd::partition::Args),
    /// Compile an NF to a switch program (P4) and a server program (C++), with the plan,
    /// manifest and report.
    Compile(cmd::compile::Args),
    /// How many keys of an NF's maps fit an SRAM size in hash-indexed register storage
    /// (CoFilter §III-C): random keys inserted with the switch's hash, collision-table
    /// entries counted.
    Capacity(cmd::capacity::Args),
    /// Run a compiled NF offloaded: the switch program on the software switch, the server
    /// partition in the server host.
    Run(cmd::run::Args),
    /// Check an NF offloaded against the original on the same traffic (outputs and state).
    Check(cmd::check::Args),
    /// Measure what offloading saves: the original NF (every packet on the server) and the
    /// offloaded pair on the same trace — fast-path share, server instructions and time,
    /// switch packet rate, compile time per stage.
    Bench(cmd::bench::Args),
    /// Write BENCHMARKS.md and the figures from `tandem bench` results.
    BenchReport(cmd::bench::ReportArgs),
    /// A partial map under Zipf traffic: count-min promotion and none, side by side, each
    /// checked against the original NF.
    BenchPartial(cmd::bench_partial::Args),
    /// The NF on 1, 2, 4… servers behind one switch: per server, packets and instructions
    /// (callgrind), and their spread (docs/cluster.md).
    BenchCluster(cmd::bench_cluster::ClusterArgs),
    /// The process `tandem bench` counts instructions of under callgrind.
    #[command(hide = true)]
    BenchWorker(cmd::bench::WorkerArgs),
    /// The random-NF differential fuzzer: random C++ NFs, lifted, partitioned for random
    /// profiles, compiled and checked against the original (docs/fuzzing.md).
    FuzzNfs(cmd::fuzz::Args),
    /// Explain a diagnostic code or a report's reason code (e.g. `tandem explain L005`, `R2`).
    Explain(cmd::lift::ExplainArgs),
    /// Generate and inspect traffic traces.
    #[command(subcommand)]
    Traffic(cmd::traffic::Args),
    /// Run P4 programs on the built-in software switch.
    #[command(subcommand)]
    Switch(cmd::switch::Args),
    /// Serve a compiled NF's server partition to a switch in another process.
    #[command(subcommand)]
    Server(cmd::serve::ServerArgs),
}

fn main() {
    // Output piped into `head` and closed early ends the process quietly, as it ends `cat`
    // (Rust ignores SIGPIPE, so every print would fail and panic instead).
    #[cfg(unix)]
    // SAFETY: restoring a signal's default disposition at start-up, before any thread runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let level = match cli.verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level)).init();
    if let Ok(limit) = std::time::Duration::try_from_secs_f64(cli.call_timeout) {
        tandem_host::watchdog::start(limit, |s| {
            eprintln!(
                "error: {} has not returned on packet {} after {:.1} s: a loop whose exit \
                 depends on packet data or state may never end on this packet (`tandem lift` \
                 warns about such loops, L102); stopping (outputs and state are not written; \
                 --call-timeout changes the limit)",
                s.what,
                s.index,
                s.elapsed.as_secs_f64()
            );
            std::process::exit(1);
        });
    }
    let result = match cli.command {
        Command::Host(a) => cmd::host::run(a),
        Command::Scenario(a) => cmd::scenario::run(a),
        Command::Lift(a) => cmd::lift::run(a),
        Command::Partition(a) => cmd::partition::run(a),
        Command::Compile(a) => cmd::compile::run(a),
        Command::Capacity(a) => cmd::capacity::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::BenchReport(a) => cmd::bench::report(a),
        Command::BenchPartial(a) => cmd::bench_partial::run(a),
        Command::BenchCluster(a) => cmd::bench_cluster::run(a),
        Command::BenchWorker(a) => cmd::bench::worker(a),
        Command::FuzzNfs(a) => cmd::fuzz::run(a),
        Command::Explain(a) => cmd::lift::explain(a),
        Command::Traffic(a) => cmd::traffic::run(a),
        Command::Switch(a) => cmd::switch::run(a),
        Command::Server(a) => cmd::serve::server(a),
    };
    if let Err(e) = result {
        eprintln!("error: {}", error_chain(&e));
        std::process::exit(1);
    }
}

/// The error and its causes joined by `: `, leaving out a cause whose text the message before
/// it already ends with (library errors often print their source in their own message too).
fn error_chain(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}
