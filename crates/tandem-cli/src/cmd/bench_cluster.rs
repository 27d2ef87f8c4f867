//! `tandem bench-cluster`: the NF on 1, 2, 4… servers behind one switch (docs/cluster.md), on
//! one recorded trace: per server, the packets it handled and its instructions (callgrind,
//! counting only that server: `tandem_offload::cluster::counted_handle`/`counted_whole`, and
//! for the owner of global state `tandem_offload::owner::counted_publish`), and their spread
//! around the mean.

use std::ffi::OsString;

use anyhow::Context;
use tandem_bench::{callgrind, measure, BenchError};
use tandem_offload::{Cluster, RunOptions};
use tandem_traffic::TracePacket;

use crate::cmd::bench::{
    compile_timed, initial_state, server_setup, source, write_trace, WorkerArgs,
};
use crate::cmd::host::load_nf;

/// What `tandem bench-cluster` counts: the measured server's calls only.
const CLUSTER_TOGGLES: &[&str] = &[
    "tandem_offload::cluster::counted_handle",
    "tandem_offload::cluster::counted_whole",
    // The owner publishing what other servers' packets changed in its global objects.
    "tandem_offload::owner::counted_publish",
];

#[derive(clap::Args)]
pub struct ClusterArgs {
    #[command(flatten)]
    pub bench: super::bench::Args,
    /// Cluster sizes to measure.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4")]
    pub servers: Vec<usize>,
    /// The share of new flows the owner of global state (server 0) takes, in percent of
    /// an even share (`check --owner-share`); one value, or one per cluster size.
    #[arg(long, value_delimiter = ',', value_name = "PERCENT")]
    pub owner_share: Vec<u32>,
    /// Callgrind workers run at once (each counts one server; the counts do not depend
    /// on it).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
}

/// One server of one cluster size.
#[derive(Debug)]
struct Row {
    servers: usize,
    server: usize,
    packets: u64,
    instructions: Option<u64>,
}

pub fn run(a: ClusterArgs) -> anyhow::Result<()> {
    if a.owner_share.len() > 1 && a.owner_share.len() != a.servers.len() {
        anyhow::bail!(
            "--owner-share: one value, or one per cluster size ({} sizes, {} shares)",
            a.servers.len(),
            a.owner_share.len()
        );
    }
    let b = &a.bench;
    let out = &b.out_dir;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let cache = tempfile::Builder::new()
        .prefix("tandem-bench-cluster-")
        .tempdir()
        .context("creating a build directory")?;
    let compiled = out.join("compiled");
    // The switch program picks the server (docs/cluster.md).
    let dispatch = Some(tandem_p4::DispatchShape::default());
    let (bundle, _) = compile_timed(b, cache.path(), &compiled, dispatch)?;
    let mut nf =
        load_nf(&b.nf, b.config.as_deref()).map_err(|e| BenchError::Setup(format!("{e:#}")))?;
    let rec = measure::record(&mut nf, source(b)?, !b.traffic.open_loop)?;
    drop(nf);
    let trace_path = out.join("trace.pcapng");
    write_trace(&rec, &trace_path)?;
    let initial = initial_state(&b.nf, b.config.as_deref())?;
    let options = RunOptions {
        cache_dir: cache.path().to_path_buf(),
        time_server: false,
        ..RunOptions::default()
    };
    let exe = std::env::current_exe().context("finding the tandem executable")?;
    let share = |k: usize| a.owner_share.get(k).or(a.owner_share.first()).copied();
    let mut rows = Vec::new();
    // (row, worker arguments, profile) per server to count under callgrind.
    let mut jobs: Vec<(usize, Vec<OsString>, std::path::PathBuf)> = Vec::new();
    for (k, &n) in a.servers.iter().enumerate() {
        let mut c = Cluster::new(&bundle, &initial, &options, n)?;
        if let Some(w) = share(k) {
            c.set_weight(0, w)?;
        }
        if let Some(note) = c.note() {
            println!("{n} servers: the NF {note}");
        }
        for p in &rec.packets {
            c.process(p)?;
        }
        for (i, l) in c.loads().iter().enumerate() {
            let mut args: Vec<OsString> = vec![
                "bench-worker".into(),
                "--role".into(),
                "cluster".into(),
                "--trace".into(),
                trace_path.clone().into(),
                "--nf".into(),
                b.nf.clone().into(),
                "--compiled".into(),
                compiled.clone().into(),
                "--cache".into(),
                cache.path().into(),
                "--servers".into(),
                n.to_string().into(),
                "--measure".into(),
                i.to_string().into(),
            ];
            if let Some(w) = share(k) {
                args.push("--owner-share".into());
                args.push(w.to_string().into());
            }
            if let Some(cfg) = &b.config {
                args.push("--config".into());
                args.push(cfg.into());
            }
            rows.push(Row {
                servers: c.servers(),
                server: i,
                packets: l.packets,
                instructions: None,
            });
            jobs.push((
                rows.len() - 1,
                args,
                out.join(format!("callgrind.cluster{n}.server{i}.out")),
            ));
        }
    }
    if !b.no_callgrind {
        for (row, count) in count_all(&exe, &jobs, a.jobs.max(1))? {
            rows[row].instructions = Some(count);
        }
    }
    println!(
        "{} packets; per server: packets, instructions, instructions per server packet",
        rec.packets.len()
    );
    for n in &a.servers {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.servers == *n).collect();
        if mine.is_empty() {
            continue;
        }
        let mean = mine.iter().map(|r| r.packets).sum::<u64>() as f64 / mine.len() as f64;
        for r in &mine {
            let per = r
                .instructions
                .map(|i| format!("{:.0}", i as f64 / r.packets.max(1) as f64))
                .unwrap_or_else(|| "-".into());
            println!(
                "  N={} server {}: {:>8} packets ({:+.1}% of the mean), {:>12} instructions, {per}/packet",
                r.servers,
                r.server,
                r.packets,
                100.0 * (r.packets as f64 - mean) / mean.max(1.0),
                r.instructions.map(|i| i.to_string()).unwrap_or_else(|| "-".into()),
            );
        }
    }
    if let Some(path) = &b.json {
        let json: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "servers": r.servers,
                    "server": r.server,
                    "packets": r.packets,
                    "instructions": r.instructions,
                })
            })
            .collect();
        std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Runs the callgrind workers, `jobs` at a time: (row, instructions) for each.
fn count_all(
    exe: &std::path::Path,
    jobs: &[(usize, Vec<OsString>, std::path::PathBuf)],
    at_once: usize,
) -> anyhow::Result<Vec<(usize, u64)>> {
    let mut counts = Vec::new();
    for chunk in jobs.chunks(at_once) {
        let done: Vec<Result<u64, BenchError>> = std::thread::scope(|s| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|(_, args, profile)| {
                    s.spawn(move || {
                        callgrind::count(
                            exe,
                            args,
                            CLUSTER_TOGGLES,
                            callgrind::SERVER_EXCLUDE,
                            profile,
                        )
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(BenchError::Callgrind(
                            "a callgrind worker thread panicked".into(),
                        ))
                    })
                })
                .collect()
        });
        for ((row, _, _), c) in chunk.iter().zip(done) {
            counts.push((*row, c?));
        }
    }
    Ok(counts)
}

/// `bench-worker --role cluster`: the cluster on the recorded trace, one server counted.
pub fn worker(a: &WorkerArgs, packets: &[TracePacket]) -> anyhow::Result<()> {
    let (bundle, initial, options) = server_setup(a, "cluster")?;
    let mut c = Cluster::new(&bundle, &initial, &options, a.servers)?;
    if let Some(w) = a.owner_share {
        c.set_weight(0, w)?;
    }
    c.set_measured(Some(a.measure));
    for p in packets {
        c.process(p)?;
    }
    Ok(())
}
