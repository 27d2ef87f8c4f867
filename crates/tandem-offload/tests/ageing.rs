//! Expiring maps age on the switch too (`tandem_offload::ageing`): L4LB with a 2-second idle
//! timeout (the example's `kIdle` changed from 5 minutes; the IR is the lifter's golden
//! output with the same change) over traffic whose flows go idle and come back — a 2.5 s
//! round trip leaves every connection idle past the timeout between its packets, a 1.5 s one
//! keeps it alive only through the switch's hits. `check` must pass; with the switch's
//! copies left un-aged (`RunOptions::switch_ageing = false`, the negative control) replies
//! of connections the NF forgot are still translated on the switch and `check` fails.

#![allow(clippy::print_stderr)] // test figures go to the test log

mod common;

use std::path::PathBuf;

use common::*;
use tandem_offload::ControlFailure;
use tandem_partition::{PartitionOptions, TargetProfile};

const IDLE_NS: u64 = 2_000_000_000;

/// L4LB's source and configuration with `kIdle = 2 * kSecond`, in a directory of its own.
fn short_idle_source() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tandem-ageing-l4lb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::fs::read_to_string(repo().join("examples/nfs/l4lb/l4lb.cc")).unwrap();
    let short = src.replace("kIdle = 300 * kSecond", "kIdle = 2 * kSecond");
    assert_ne!(
        src, short,
        "l4lb.cc no longer declares kIdle = 300 * kSecond"
    );
    std::fs::write(dir.join("l4lb2s.cc"), short).unwrap();
    std::fs::copy(
        repo().join("examples/nfs/l4lb/l4lb.toml"),
        dir.join("l4lb2s.toml"),
    )
    .unwrap();
    dir.join("l4lb2s.cc")
}

fn short_idle_bundle(profile: &str) -> Bundle {
    let text = std::fs::read_to_string(repo().join("crates/tandem-lift/tests/golden/l4lb.nfir"))
        .unwrap()
        .replace(", 65536, 300000000000>", &format!(", 65536, {IDLE_NS}>"));
    let module = tandem_ir::parse_module(&text).unwrap();
    compile_bundle(
        &module,
        &TargetProfile::builtin(profile).unwrap(),
        &PartitionOptions::default(),
        &P4Options::default(),
        None,
    )
    .unwrap()
}

fn idle_trace(rtt_ns: u64) -> Vec<tandem_traffic::TracePacket> {
    let w = tandem_traffic::Workload::resolve("enterprise").unwrap();
    let opts = tandem_traffic::GenOptions {
        flows: 300,
        seed: 11,
        plan: Addr::Lb,
        concurrency: 50,
        rtt_ns,
        ..tandem_traffic::GenOptions::default()
    };
    tandem_traffic::Generator::new(&w, opts).unwrap().collect()
}

fn run(
    b: &Bundle,
    src: &std::path::Path,
    pkts: &[tandem_traffic::TracePacket],
    ageing: bool,
) -> CheckReport {
    check(
        b,
        native_file(src),
        &mut pkts.iter().cloned(),
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                switch_ageing: ageing,
                ..RunOptions::default()
            },
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

#[test]
fn l4lb_with_a_two_second_idle_timeout_ages_on_the_switch() {
    let src = short_idle_source();
    let b = short_idle_bundle("tofino1");
    // Every connection idles 2.5 s between round trips (past the timeout); then 1.5 s
    // (within it: alive only through the switch's hits).
    for rtt in [2_500_000_000, 1_500_000_000] {
        let pkts = idle_trace(rtt);
        let span = pkts.last().unwrap().ts_ns - pkts[0].ts_ns;
        assert!(span > 10 * IDLE_NS, "trace spans {span} ns");
        let r = run(&b, &src, &pkts, true);
        assert_passed(&format!("l4lb 2 s, rtt {rtt} ns"), &r);
        assert!(
            r.offloaded.fast_path > r.offloaded.packets / 2,
            "{:?}",
            r.offloaded
        );
        eprintln!(
            "rtt {rtt} ns: {} packets over {:.1} s, {} on the fast path: PASS",
            r.offloaded.packets,
            span as f64 / 1e9,
            r.offloaded.fast_path
        );
        if rtt == 2_500_000_000 {
            // The negative control: the switch's copies never age.
            let bad = run(&b, &src, &pkts, false);
            assert!(!bad.passed(), "un-aged switch tables passed the check");
            let extra: i64 = bad
                .multiset_differences
                .values()
                .map(|(a, b)| (*a + *b) as i64)
                .sum();
            eprintln!("without switch ageing: FAIL, {extra} frames differ per port multiset");
        }
    }
}

/// How [`Readers`] hands out the switch's age groups.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// None: the runtime polls the whole hit list on every server packet.
    Polled,
    /// Each map gets the *other* map's group (the negative control of the lazy pull).
    Swapped,
}

/// A control plane passing everything through to the switch, except the age readers.
struct Readers {
    inner: SwitchControl,
    mode: Mode,
    /// The first table of each age group configured, in order.
    groups: Vec<String>,
}

impl ControlPlane for Readers {
    fn write(&mut self, ops: &[tandem_switch::ControlOp]) -> Result<(), ControlFailure> {
        self.inner.write(ops)
    }
    fn write_exact(
        &mut self,
        batch: &tandem_offload::control::ExactBatch<'_>,
    ) -> Result<(), ControlFailure> {
        self.inner.write_exact(batch)
    }
    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        self.inner.register_write(name, index, value)
    }
    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure> {
        self.inner.register_read(name, index)
    }
    fn configure_ageing(&mut self, tables: &[&str], timeout_ns: u64) -> Result<(), ControlFailure> {
        self.groups.push(tables[0].to_string());
        self.inner.configure_ageing(tables, timeout_ns)
    }
    fn set_ages(&mut self, table: &str, ages: &[(Vec<u64>, u64)]) -> Result<(), ControlFailure> {
        self.inner.set_ages(table, ages)
    }
    fn read_ages(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        self.inner.read_ages(table)
    }
    fn read_ages_into(
        &mut self,
        table: &str,
        out: &mut tandem_switch::AgeList,
    ) -> Result<(), ControlFailure> {
        self.inner.read_ages_into(table, out)
    }
    fn set_ages_list(
        &mut self,
        table: &str,
        ages: &tandem_switch::AgeList,
    ) -> Result<(), ControlFailure> {
        self.inner.set_ages_list(table, ages)
    }
    fn age_reader(&mut self, table: &str) -> Option<tandem_switch::AgeReader> {
        match self.mode {
            Mode::Polled => None,
            Mode::Swapped => {
                let other = self.groups.iter().find(|g| g.as_str() != table)?.clone();
                self.inner.age_reader(&other)
            }
        }
    }
}

fn run_with(
    b: &Bundle,
    src: &std::path::Path,
    pkts: &[tandem_traffic::TracePacket],
    mode: Mode,
) -> CheckReport {
    let wrap: tandem_offload::ControlWrap = Box::new(move |sc| {
        Box::new(Readers {
            inner: sc,
            mode,
            groups: Vec::new(),
        })
    });
    check(
        b,
        native_file(src),
        &mut pkts.iter().cloned(),
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                ..RunOptions::default()
            },
            control: Some(wrap),
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

/// `nf` (an example declaring `kIdle = 300 * kSecond`) with `kIdle = 2 * kSecond` (source
/// and the lifter's golden IR changed alike).
fn short_idle(nf: &str) -> (PathBuf, Bundle) {
    let dir = std::env::temp_dir().join(format!("tandem-ageing-{nf}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::fs::read_to_string(repo().join(format!("examples/nfs/{nf}/{nf}.cc"))).unwrap();
    let short = src.replace("kIdle = 300 * kSecond", "kIdle = 2 * kSecond");
    let short = short.replace(", 300 * kSecond>", ", 2 * kSecond>");
    assert_ne!(
        src, short,
        "{nf}.cc no longer declares a 300 s idle timeout"
    );
    std::fs::write(dir.join(format!("{nf}2s.cc")), short).unwrap();
    let text =
        std::fs::read_to_string(repo().join(format!("crates/tandem-lift/tests/golden/{nf}.nfir")))
            .unwrap();
    let short_ir = text.replace(", 300000000000>", &format!(", {IDLE_NS}>"));
    assert_ne!(text, short_ir, "{nf}.nfir: no 300 s expiring map");
    let module = tandem_ir::parse_module(&short_ir).unwrap();
    let b = compile_bundle(
        &module,
        &TargetProfile::builtin("tofino1").unwrap(),
        &PartitionOptions::default(),
        &P4Options::default(),
        None,
    )
    .unwrap();
    (dir.join(format!("{nf}2s.cc")), b)
}

/// The statefilter trace of the ageing tests: 200 datamining flows, 1.5 s round trips.
fn filter_trace() -> Vec<tandem_traffic::TracePacket> {
    let w = tandem_traffic::Workload::resolve("datamining").unwrap();
    let opts = tandem_traffic::GenOptions {
        flows: 200,
        seed: 5,
        plan: Addr::Plain,
        concurrency: 40,
        rtt_ns: 1_500_000_000,
        ..tandem_traffic::GenOptions::default()
    };
    tandem_traffic::Generator::new(&w, opts).unwrap().collect()
}

/// StateFilter with a 2 s idle timeout and 1.5 s round trips: a connection's data packets
/// stay on the switch (answered from the derived class map `conns__class` alone) for longer
/// than the timeout, so its teardown reaches a server whose own `conns` saw nothing since
/// the handshake — the connection is alive only through the switch's hits on the class
/// table, which count as uses of `conns` (`crate::ageing`; before, the server dropped the
/// teardown the NF forwards). Both the lazy pull (the default on the in-process switch: a
/// server packet reads the last hit of each key it looks up, not the whole hit list) and
/// the per-packet poll pass. The negative control: lazy readers of the wrong age group
/// (`conns__class` reads `time_wait`'s hits and the other way round) make the server forget
/// such connections, and `check` fails.
#[test]
fn lazy_ageing_pull_reads_the_hits_of_the_keys_looked_up() {
    let (src, b) = short_idle("statefilter");
    let pkts = filter_trace();
    let polled = run_with(&b, &src, &pkts, Mode::Polled);
    assert_passed("statefilter 2 s, rtt 1.5 s, polled", &polled);
    let lazy = run(&b, &src, &pkts, true);
    assert_passed("statefilter 2 s, rtt 1.5 s, lazy pull", &lazy);
    assert_eq!(lazy.offloaded.fast_path, polled.offloaded.fast_path);
    assert!(
        lazy.offloaded.fast_path > lazy.offloaded.packets / 2,
        "{:?}",
        lazy.offloaded
    );
    let bad = run_with(&b, &src, &pkts, Mode::Swapped);
    assert!(!bad.passed(), "swapped age readers passed the check");
    eprintln!(
        "lazy and polled: PASS ({} packets, {} on the fast path); swapped readers: FAIL, {} packets differ",
        lazy.offloaded.packets, lazy.offloaded.fast_path, bad.differing_packets
    );
}

/// CoFilter with a 2 s idle timeout on the same trace: its class map `table__class` is held
/// in hash-indexed registers (docs/hashed-storage.md), which have no table entries to age,
/// so the switch records each slot's last hit in a register of its own and the server's
/// pull reads it for the keys it looks up (`tandem_offload::ageing`, hashed storage).
/// Before, a connection whose data packets stayed on the switch for longer than the timeout
/// was forgotten by the server's `table` (182 of 19,813 packets differed).
#[test]
fn hashed_class_map_hits_keep_the_original_alive() {
    let (src, b) = short_idle("cofilter");
    assert!(
        b.manifest.states.iter().any(|s| s.hashed.is_some()),
        "cofilter keeps no map in hashed storage any more"
    );
    let pkts = filter_trace();
    let r = run(&b, &src, &pkts, true);
    assert_passed("cofilter 2 s, rtt 1.5 s", &r);
    assert!(
        r.offloaded.fast_path > r.offloaded.packets / 2,
        "{:?}",
        r.offloaded
    );
    // A control plane without register readers: every pull reads the placed keys' times.
    let polled = run_with(&b, &src, &pkts, Mode::Polled);
    assert_passed("cofilter 2 s, rtt 1.5 s, polled", &polled);
    assert_eq!(polled.offloaded.fast_path, r.offloaded.fast_path);
    // The negative control: the same switch program without its hit-time writes.
    let mut blind = b.clone();
    let is_time_write = |l: &&str| l.contains(".write(") && l.contains("_now)");
    assert!(
        b.switch_p4.lines().filter(is_time_write).count() >= 2,
        "no hit-time writes"
    );
    blind.switch_p4 = b
        .switch_p4
        .lines()
        .filter(|l| !is_time_write(l))
        .collect::<Vec<_>>()
        .join("\n");
    let bad = run(&blind, &src, &pkts, true);
    assert!(!bad.passed(), "a switch not recording hit times passed");
    eprintln!(
        "cofilter 2 s: PASS ({} packets, {} on the fast path); without the switch's hit-time \
         writes: FAIL, {} packets differ",
        r.offloaded.packets, r.offloaded.fast_path, bad.differing_packets
    );
}

/// CoFilter with a 2 s idle timeout and 2.5 s round trips: every connection idles past the
/// timeout between its packets, so the NF forgets it. The switch's hashed `table__class`
/// slots expire too (`tandem_p4::lower::hashed`): a lookup whose slot's hit time is older
/// than the timeout finds it stale and sends the packet to the server whole, which expires
/// the entry as the NF does (before, the cells never expired and kept answering data
/// packets: 4,132 of 19,813 packets differed; 2.1 s round trips: 785). Lazy and polled
/// pulls pass. Negative control: the same switch program with its timeout constant doubled
/// (the switch answers connections the NF forgot) fails.
#[test]
fn hashed_class_map_expires_on_the_switch() {
    let (src, b) = short_idle("cofilter");
    let pkts = rtt_trace(2_500_000_000);
    let r = run(&b, &src, &pkts, true);
    assert_passed("cofilter 2 s, rtt 2.5 s, lazy", &r);
    let polled = run_with(&b, &src, &pkts, Mode::Polled);
    assert_passed("cofilter 2 s, rtt 2.5 s, polled", &polled);
    let r21 = run(&b, &src, &rtt_trace(2_100_000_000), true);
    assert_passed("cofilter 2 s, rtt 2.1 s", &r21);
    let mut lax = b.clone();
    lax.switch_p4 = double_hashed_ttl(&b.switch_p4);
    assert_ne!(lax.switch_p4, b.switch_p4, "no hashed timeout constant");
    let bad = run(&lax, &src, &pkts, true);
    assert!(!bad.passed(), "a switch with twice the timeout passed");
    eprintln!(
        "cofilter 2 s, rtt 2.5 s: PASS ({} packets, {} on the fast path, {} whole on the \
         server); rtt 2.1 s: PASS ({} on the fast path); timeout constant doubled: FAIL, {} \
         packets differ",
        r.offloaded.packets,
        r.offloaded.fast_path,
        r.offloaded.whole_on_server,
        r21.offloaded.fast_path,
        bad.differing_packets
    );
}

/// 200 `datamining` flows (seed 5, concurrency 40) with round trips of `rtt_ns`.
fn rtt_trace(rtt_ns: u64) -> Vec<tandem_traffic::TracePacket> {
    let w = tandem_traffic::Workload::resolve("datamining").unwrap();
    let opts = tandem_traffic::GenOptions {
        flows: 200,
        seed: 5,
        plan: Addr::Plain,
        concurrency: 40,
        rtt_ns,
        ..tandem_traffic::GenOptions::default()
    };
    tandem_traffic::Generator::new(&w, opts).unwrap().collect()
}

/// `p4` with every hashed map's timeout constant (`const bit<N> <map>_ttl = NwV;`) doubled.
fn double_hashed_ttl(p4: &str) -> String {
    p4.lines()
        .map(|l| {
            let t = l.trim_start();
            let Some((head, v)) = t
                .strip_prefix("const bit<")
                .filter(|_| t.contains("_ttl = "))
                .and_then(|_| t.rsplit_once('w'))
            else {
                return l.to_string();
            };
            let v = v.trim_end_matches(';');
            let n = match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).unwrap(),
                None => v.parse::<u64>().unwrap(),
            };
            format!("{head}w{};", 2 * n)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `check --concurrent` of the same NF: the switch thread ages entries while the server
/// thread pulls its hits, control latency on the simulated clock. `TANDEM_AGEING_PACKETS`
/// sets the trace's length (the BENCHMARKS.md row: 1,000,000, `--ignored`),
/// `TANDEM_AGEING_LATENCIES` the latencies in µs (default `10 1000 10000`).
fn concurrent_ageing(packets: usize, latency_us: u64) {
    let src = short_idle_source();
    let b = short_idle_bundle("tofino1");
    let w = tandem_traffic::Workload::resolve("enterprise").unwrap();
    let opts = tandem_traffic::GenOptions {
        // ~23 packets per flow on this plan
        flows: (packets as u64 / 23).max(50),
        seed: 11,
        plan: Addr::Lb,
        concurrency: 50,
        rtt_ns: 2_500_000_000,
        ..tandem_traffic::GenOptions::default()
    };
    let mut pkts = tandem_traffic::Generator::new(&w, opts)
        .unwrap()
        .take(packets);
    let t0 = std::time::Instant::now();
    let r = tandem_offload::check_concurrent(
        &b,
        native_file(&src),
        native_file(&src),
        &mut pkts,
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                ..RunOptions::default()
            },
            ..CheckOptions::default()
        },
        &tandem_offload::ConcurrentOptions {
            latency: std::time::Duration::from_micros(latency_us),
            virtual_clock: true,
            ..tandem_offload::ConcurrentOptions::default()
        },
    )
    .unwrap();
    assert_passed(&format!("l4lb 2 s concurrent, {latency_us} µs"), &r);
    eprintln!(
        "l4lb 2 s idle, enterprise rtt 2.5 s, {} packets, {latency_us} µs simulated: {} via the server, {:.1} s wall: PASS",
        r.offloaded.packets,
        r.offloaded.packets - r.offloaded.fast_path,
        t0.elapsed().as_secs_f64()
    );
}

#[test]
fn l4lb_ages_on_the_switch_under_concurrency() {
    concurrent_ageing(7_000, 1_000);
}

#[test]
#[ignore = "1,000,000 packets: the BENCHMARKS.md row (release build)"]
fn l4lb_ages_on_the_switch_under_concurrency_1m() {
    let packets = env_or("TANDEM_AGEING_PACKETS", 1_000_000);
    let lats = std::env::var("TANDEM_AGEING_LATENCIES").unwrap_or_else(|_| "10 1000 10000".into());
    for us in lats.split_whitespace() {
        concurrent_ageing(packets, us.parse().expect("TANDEM_AGEING_LATENCIES: µs"));
    }
}
