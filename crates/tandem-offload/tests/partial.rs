//! Partial maps (`tandem_offload::partial`): the switch holds a hot subset of a map the
//! server holds whole; the runtime promotes and evicts entries in atomic batches while
//! `check` compares every packet and the final state with the reference host.
//!
//! ```text
//!  probe(pkt) ──▶ rebalance (pkt in flight: probed, not yet in the switch) ──▶ switch(pkt)
//!                 delete last round's drained keys; promote hot server-only keys;
//!                 drain cold switch keys (server-only now, deleted next round)
//! ```
//!
//! The in-flight test rebalances often enough that keys of the packet in flight are
//! evicted; with the drain `check` passes, without it (`skip_drain`, the negative control)
//! the packet misses on the switch and the NAT allocates a second port for its flow, which
//! `check` catches.
#![allow(clippy::print_stderr)] // test figures go to the test log

mod common;

use std::collections::BTreeMap;

use common::*;
use tandem_offload::partial::{sketch_index, Hotness, PartialOptions};
use tandem_offload::{Offloaded, RunStats};
use tandem_partition::{PartitionOptions, TargetProfile};
use tandem_traffic::{GenOptions, Generator, TracePacket, Workload};

fn partial_bundle(nf: &str, maps: &[(&str, u64)]) -> Bundle {
    partial_bundle_with(nf, maps, &P4Options::default())
}

/// A bundle whose partial maps' misses the runtime finds by probing each packet (not the
/// switch program: `P4Options::partial_miss_to_server` off).
fn probed_bundle(nf: &str, maps: &[(&str, u64)]) -> Bundle {
    let p4 = P4Options {
        partial_miss_to_server: false,
        ..P4Options::default()
    };
    partial_bundle_with(nf, maps, &p4)
}

fn partial_bundle_with(nf: &str, maps: &[(&str, u64)], p4: &P4Options) -> Bundle {
    let opts = PartitionOptions {
        partial: maps
            .iter()
            .map(|(m, n)| (m.to_string(), Some(*n)))
            .collect::<BTreeMap<_, _>>(),
        ..PartitionOptions::default()
    };
    compile_bundle(
        &module(nf),
        &TargetProfile::builtin("tofino1").unwrap(),
        &opts,
        p4,
        None,
    )
    .unwrap()
}

fn zipf_trace(addr: Addr, workload: &str, flows: u64, alpha: f64) -> Generator {
    let opts = GenOptions {
        flows,
        seed: 11,
        plan: addr,
        zipf: Some(alpha),
        ..GenOptions::default()
    };
    Generator::new(&Workload::resolve(workload).unwrap(), opts).unwrap()
}

fn check_partial(
    nf: &str,
    b: &Bundle,
    pkts: &mut dyn Iterator<Item = TracePacket>,
    partial: PartialOptions,
) -> CheckReport {
    check(
        b,
        native(nf),
        pkts,
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                partial,
                ..RunOptions::default()
            },
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

fn partial_stats(r: &RunStats) -> tandem_offload::partial::PartialStats {
    r.partial.clone().expect("partial stats")
}

/// Two workloads, promotion and eviction throughout: outputs and state equal the reference.
fn promotion_passes(packets: usize) {
    for (nf, map, n, addr, w, alpha) in [
        ("minilb", "map", 64, Addr::Lb, "enterprise", 1.1),
        ("mazunat", "int2ext", 32, Addr::Nat, "datamining", 0.9),
    ] {
        let b = partial_bundle(nf, &[(map, n)]);
        let flows = (packets as u64 / 20).max(50);
        let mut pkts = zipf_trace(addr, w, flows, alpha).take(packets);
        let opts = PartialOptions {
            every: 200,
            ..PartialOptions::default()
        };
        let r = check_partial(nf, &b, &mut pkts, opts);
        assert_passed(nf, &r);
        let p = partial_stats(&r.offloaded);
        eprintln!(
            "{nf}: {} packets, {} whole on the server, {} rebalances, {} promoted, {} evicted",
            r.packets, r.offloaded.whole_on_server, p.rebalances, p.promoted, p.evicted
        );
        assert!(
            p.promoted > 0 && p.evicted > 0,
            "{nf}: {} promoted, {} evicted",
            p.promoted,
            p.evicted
        );
        let last = p.samples.last().unwrap();
        assert!(last.switch_entries <= n, "{nf}: {last:?}");
    }
}

#[test]
fn promotion_and_eviction_keep_check_passing() {
    promotion_passes(env_or("TANDEM_PARTIAL_PACKETS", 12_000));
}

#[test]
#[ignore = "100,000 packets per workload (make bench runs the measurements)"]
fn promotion_and_eviction_keep_check_passing_100k() {
    promotion_passes(100_000);
}

/// MazuNAT with a 16-entry partial `int2ext`, rebalanced every 20 packets, each rebalance
/// evicting the key of the packet in flight when the switch holds it.
fn in_flight(skip_drain: bool) -> CheckReport {
    let b = probed_bundle("mazunat", &[("int2ext", 16)]);
    let mut pkts = zipf_trace(Addr::Nat, "enterprise", 600, 1.1).take(12_000);
    check_partial(
        "mazunat",
        &b,
        &mut pkts,
        PartialOptions {
            every: 20,
            max_swaps: 4,
            skip_drain,
            evict_in_flight: true,
            ..PartialOptions::default()
        },
    )
}

#[test]
fn an_entry_evicted_while_its_packets_are_in_flight() {
    let r = in_flight(false);
    assert_passed("drained eviction", &r);
    let p = partial_stats(&r.offloaded);
    assert!(
        p.evicted_in_flight > 0,
        "no key of a packet in flight was evicted: {p:?}"
    );
    eprintln!(
        "in flight: {} evictions of a key the packet in flight needs, of {} evictions",
        p.evicted_in_flight, p.evicted
    );
    // The negative control: the same run deleting evicted keys at once.
    let bad = in_flight(true);
    let pb = partial_stats(&bad.offloaded);
    assert!(
        pb.evicted_in_flight > 0,
        "{} in flight",
        pb.evicted_in_flight
    );
    assert!(
        !bad.passed(),
        "eviction without the drain was not caught ({} evictions in flight)",
        pb.evicted_in_flight
    );
    eprintln!(
        "without the drain: {} differing packets, {} state differences",
        bad.differing_packets,
        bad.state_differences.len()
    );
}

/// SNAT with a 16-entry partial `out` whose misses the switch program sends to the server
/// whole (tag 3), rebalanced every 20 packets, each rebalance run while a packet the switch
/// sent to the server is in flight (after the switch, before the server) and moving that
/// packet's keys: a switch key is evicted (a FIN that hit it on the switch, on its way to the
/// server to erase it), a server-only key is promoted (a packet that missed it, on its way
/// to be run whole). `split` reads the promoted values at the rebalance but publishes them
/// after the packet's server run (promotion not atomic with respect to it).
fn in_flight_tag3(split: bool) -> CheckReport {
    let b = partial_bundle("snat", &[("out", 16)]);
    let sm = b
        .manifest
        .states
        .iter()
        .find(|s| s.partial.is_some())
        .unwrap();
    assert!(
        sm.partial.as_ref().unwrap().miss_to_server,
        "SNAT's `out` misses go to the server from the switch program"
    );
    let mut pkts = zipf_trace(Addr::Nat, "enterprise", 600, 1.1).take(12_000);
    check_partial(
        "snat",
        &b,
        &mut pkts,
        PartialOptions {
            every: 20,
            max_swaps: 4,
            evict_in_flight: true,
            split_promotion: split,
            ..PartialOptions::default()
        },
    )
}

#[test]
fn tag3_an_entry_moved_while_its_packets_are_in_flight() {
    let r = in_flight_tag3(false);
    assert_passed("atomic promotion and eviction, packets in flight", &r);
    let p = partial_stats(&r.offloaded);
    eprintln!(
        "tag 3 in flight: {} evictions and {} promotions of a key the packet in flight needs \
         ({} evictions, {} promotions in all), {} packets run whole",
        p.evicted_in_flight,
        p.promoted_in_flight,
        p.evicted,
        p.promoted,
        r.offloaded.whole_on_server
    );
    assert!(p.evicted_in_flight > 0, "no in-flight eviction: {p:?}");
    assert!(p.promoted_in_flight > 0, "no in-flight promotion: {p:?}");
    // The negative control: the same run with the promotion split around the packet.
    let bad = in_flight_tag3(true);
    let pb = partial_stats(&bad.offloaded);
    assert!(pb.promoted_in_flight > 0, "{pb:?}");
    assert!(
        !bad.passed(),
        "promotion split around the packet in flight was not caught ({} in flight)",
        pb.promoted_in_flight
    );
    eprintln!(
        "split promotion: {} differing packets, {} state differences",
        bad.differing_packets,
        bad.state_differences.len()
    );
}

#[test]
fn without_promotion_the_switch_keeps_its_first_entries() {
    let b = partial_bundle("minilb", &[("map", 64)]);
    let mut pkts = zipf_trace(Addr::Lb, "enterprise", 400, 1.1).take(6000);
    let r = check_partial(
        "minilb",
        &b,
        &mut pkts,
        PartialOptions {
            hotness: Hotness::Off,
            every: 200,
            ..PartialOptions::default()
        },
    );
    assert_passed("no promotion", &r);
    let p = partial_stats(&r.offloaded);
    assert_eq!((p.promoted, p.evicted), (0, 0));
    assert!(r.offloaded.whole_on_server > 0);
}

/// The runtime's sketch index is the switch's: after N packets of one key through the
/// switch, every row's counter at the runtime's index holds N (a wrong hash, width or field
/// order would read another counter).
#[test]
fn the_runtime_reads_the_counters_the_switch_increments() {
    let b = partial_bundle("minilb", &[("map", 64)]);
    let part = b
        .manifest
        .states
        .iter()
        .find_map(|s| s.partial.clone())
        .unwrap();
    let initial = native("minilb").dump_state(0).unwrap();
    let opts = RunOptions {
        cache_dir: cache(),
        partial: PartialOptions {
            hotness: Hotness::Off,
            ..PartialOptions::default()
        },
        ..RunOptions::default()
    };
    let mut sys = Offloaded::new(&b, &initial, &opts, None).unwrap();
    // One flow: the first packet inserts the key (server), the rest hit on the switch.
    let pkts: Vec<TracePacket> = zipf_trace(Addr::Lb, "enterprise", 1, 1.0)
        .take(40)
        .collect();
    for p in &pkts {
        sys.process(p).unwrap();
    }
    let (saddr, daddr) = {
        let d = &pkts[0].data;
        (
            u32::from_le_bytes(d[26..30].try_into().unwrap()),
            u32::from_le_bytes(d[30..34].try_into().unwrap()),
        )
    };
    // MiniLB's key: (saddr ^ daddr) & 0xffff of the addresses as loaded (network order).
    let key = u64::from((saddr ^ daddr) & 0xffff);
    let lookups = pkts.len() as u64;
    assert!(lookups > 3, "{lookups} packets");
    for (row, reg) in part.sketch.iter().enumerate() {
        let i = sketch_index(&[16], row as u32, &[key], part.sketch_width);
        let v = sys.switch().register_read(reg, i).unwrap();
        assert_eq!(v, lookups, "row {row} index {i}");
        let other = sketch_index(&[16], row as u32, &[key ^ 1], part.sketch_width);
        if other != i {
            assert_eq!(sys.switch().register_read(reg, other).unwrap(), 0);
        }
    }
}

/// Fails some reads of the sketch for good (every attempt of a few of them): the rebalance
/// that makes them fails, its keys stay server-only, the next commit rebuilds the switch's
/// copies, and every packet still matches the reference.
struct FlakySketch {
    inner: SwitchControl,
    reads: u64,
}

impl ControlPlane for FlakySketch {
    fn write(
        &mut self,
        ops: &[tandem_switch::ControlOp],
    ) -> Result<(), tandem_offload::ControlFailure> {
        self.inner.write(ops)
    }
    fn register_write(
        &mut self,
        name: &str,
        index: u32,
        value: u64,
    ) -> Result<(), tandem_offload::ControlFailure> {
        self.inner.register_write(name, index, value)
    }
    fn register_read(
        &mut self,
        name: &str,
        index: u32,
    ) -> Result<u64, tandem_offload::ControlFailure> {
        if name.contains("_cms") {
            self.reads += 1;
            // Reads 3000..3010 and 9000..9010 fail: more than the 3 attempts of `impatient`.
            if (3000..3010).contains(&self.reads) || (9000..9010).contains(&self.reads) {
                return Err(tandem_offload::ControlFailure::Transient(
                    "sketch read lost".into(),
                ));
            }
        }
        self.inner.register_read(name, index)
    }
}

#[test]
fn a_failed_rebalance_keeps_packets_correct() {
    let b = partial_bundle("minilb", &[("map", 32)]);
    let mut pkts = zipf_trace(Addr::Lb, "enterprise", 400, 1.1).take(8000);
    let wrap: Wrap = Box::new(|sc| {
        Box::new(FlakySketch {
            inner: sc,
            reads: 0,
        })
    });
    let r = check(
        &b,
        native("minilb"),
        &mut pkts,
        CheckOptions {
            run: RunOptions {
                partial: PartialOptions {
                    every: 100,
                    ..PartialOptions::default()
                },
                ..impatient()
            },
            control: Some(wrap),
            ..CheckOptions::default()
        },
    )
    .unwrap();
    assert_passed("failed rebalance", &r);
    let p = partial_stats(&r.offloaded);
    assert!(p.failures > 0, "no rebalance failed");
    assert!(p.promoted > 0);
}

/// A miss of a partial map on the switch leaves the switch program as the frame that
/// arrived, under a transfer header tagged "run whole" (`lower/miss.rs`): the switch alone,
/// with an empty partial table, sends every packet that looks the map up to the server
/// whole; the probing build sends none so.
#[test]
fn a_switch_miss_goes_to_the_server_whole() {
    let sent_whole = |b: &Bundle| {
        let sw = tandem_switch::Switch::from_source(&b.switch_p4).unwrap();
        let mut worker = sw.worker();
        let codec = tandem_offload::codec::TransferCodec::new(&b.manifest.transfer_header)
            .expect("transfer header");
        let mut whole = 0;
        for p in zipf_trace(Addr::Nat, "enterprise", 50, 1.1).take(200) {
            let Some((port, out)) = worker.process_at(p.port, &p.data, p.ts_ns) else {
                continue;
            };
            if let Some(original) = codec.decode_whole(out) {
                assert_eq!(port, u32::from(b.manifest.server_port));
                assert_eq!(original, p.data, "the frame sent whole is not the original");
                whole += 1;
            }
        }
        whole
    };
    let b = partial_bundle("mazunat", &[("int2ext", 16)]);
    let st = b
        .manifest
        .states
        .iter()
        .find(|s| s.name == "int2ext")
        .unwrap();
    assert!(st.partial.as_ref().unwrap().miss_to_server);
    assert_eq!(b.manifest.transfer_header.tag_whole, Some(3));
    let n = sent_whole(&b);
    assert!(n > 0, "no packet was sent to the server whole");
    let probed = probed_bundle("mazunat", &[("int2ext", 16)]);
    assert!(!probed
        .manifest
        .states
        .iter()
        .any(|s| s.partial.as_ref().is_some_and(|p| p.miss_to_server)));
    assert_eq!(sent_whole(&probed), 0);
    eprintln!("{n} of 200 packets missed the empty partial table and went to the server whole");
}

/// With misses sent through the switch program the runtime probes nothing, and `check`
/// passes; the negative control trusts the switch's misses (the manifest claims the program
/// sends them, the program does not): `check` catches the packets the switch answered
/// with a miss the server would not have given.
#[test]
fn trusting_switch_misses_the_program_does_not_send_is_caught() {
    let run = |b: &Bundle| {
        let mut pkts = zipf_trace(Addr::Nat, "enterprise", 400, 1.1).take(4000);
        check_partial(
            "mazunat",
            b,
            &mut pkts,
            PartialOptions {
                every: 200,
                ..PartialOptions::default()
            },
        )
    };
    let b = partial_bundle("mazunat", &[("int2ext", 16)]);
    let r = run(&b);
    assert_passed("misses through the switch program", &r);
    assert!(r.offloaded.whole_on_server > 0);
    let mut bad = probed_bundle("mazunat", &[("int2ext", 16)]);
    for s in &mut bad.manifest.states {
        if let Some(p) = s.partial.as_mut() {
            p.miss_to_server = true;
        }
    }
    bad.manifest.transfer_header.tag_whole = Some(3);
    let r = run(&bad);
    assert!(
        !r.passed(),
        "switch misses trusted without the program sending them were not caught"
    );
    eprintln!(
        "trusting the switch's misses: {} differing packets",
        r.differing_packets
    );
}

/// The two-process deployment has no path for a partial map's switch misses (the frame the
/// program sends to run whole, or the probe) nor for promotions: both daemons refuse such a
/// compilation at start, naming the map, instead of consuming its misses without an output.
#[test]
fn the_two_process_deployment_refuses_partial_maps() {
    let b = partial_bundle("minilb", &[("map", 64)]);
    let dir = tempfile::tempdir().unwrap();
    let e = tandem_offload::net::SwitchDaemon::start(
        &b,
        &tandem_offload::net::SwitchConfig {
            dir: dir.path().to_path_buf(),
            ports: vec![0, 1],
        },
    )
    .err()
    .expect("a switch daemon for a partial map");
    let text = e.to_string();
    assert!(
        text.contains("partial maps (map)") && text.contains("one process"),
        "{text}"
    );
    // Without partial maps the same NF deploys.
    let plain = bundle("minilb", "tofino1", &P4Options::default());
    let sw = tandem_offload::net::SwitchDaemon::start(
        &plain,
        &tandem_offload::net::SwitchConfig {
            dir: dir.path().to_path_buf(),
            ports: vec![0, 1],
        },
    )
    .unwrap();
    sw.shutdown();
}
