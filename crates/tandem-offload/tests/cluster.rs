//! Several server hosts behind one switch (`tandem check --servers N`, CLIP §III-B): every
//! example below is checked with 1, 2 and 4 servers against the native NF. The NATs' and the
//! load balancer's global state (port counters, reply tables) has one owner the other
//! servers defer to ([`tandem_offload::owner`]); their flows spread all the same.
//!
//! Knobs: `TANDEM_CHECK_PACKETS` (default 3000).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;

use common::*;

fn run(nf: &str, addr: Addr, workload: &str, owned: bool) {
    let packets = env_or("TANDEM_CHECK_PACKETS", 3000);
    for servers in [1, 2, 4] {
        let r = check_nf_servers(nf, addr, workload, "tofino1", packets, servers);
        assert_passed(&format!("{nf} with {servers} servers"), &r);
        let used = r.per_server.len().max(1);
        eprintln!(
            "{nf}/{workload}, {servers} servers ({used} used): {} packets, via server {}, per server {:?}\n{}",
            r.packets,
            r.offloaded.via_server,
            r.per_server.iter().map(|l| l.packets).collect::<Vec<_>>(),
            r.sharding.clone().unwrap_or_default()
        );
        if servers > 1 {
            let text = r.sharding.clone().unwrap();
            assert!(text.contains("shardable-state analysis"), "{text}");
            assert_eq!(used, servers);
            // Every server works (the firewall sends no packet to any server).
            assert!(
                r.offloaded.via_server == 0 || r.per_server.iter().all(|l| l.packets > 0),
                "every server works: {:?}",
                r.per_server
            );
            assert_eq!(text.contains("single owner"), owned, "{text}");
        }
    }
}

#[test]
fn mazunat() {
    run("mazunat", Addr::Nat, "enterprise", true);
}

#[test]
fn l4lb() {
    run("l4lb", Addr::Lb, "datamining", true);
}

#[test]
fn firewall() {
    run("firewall", Addr::Plain, "enterprise", false);
}

#[test]
fn snat() {
    run("snat", Addr::Nat, "enterprise", true);
}

#[test]
fn trd() {
    run("trd", Addr::Plain, "enterprise", false);
}

/// The NATs and the load balancer on datamining too (the second workload), 2 and 4
/// servers, every server working.
#[test]
fn global_state_on_datamining() {
    run("mazunat", Addr::Nat, "datamining", true);
    run("snat", Addr::Nat, "datamining", true);
    run("l4lb", Addr::Lb, "enterprise", true);
}

/// Negative control for the single owner: without the loan each server allocates from its
/// own copy of the port counter (two servers handing out the same ports — overlapping
/// ranges) and keeps its own reply table, so the outputs differ from the NF's.
#[test]
fn without_the_owner_the_allocations_collide() {
    for (nf, addr) in [
        ("mazunat", Addr::Nat),
        ("snat", Addr::Nat),
        ("l4lb", Addr::Lb),
    ] {
        let b = bundle(nf, "tofino1", &P4Options::default());
        let mut pkts = trace(addr, "enterprise", 300, 7).take(3000);
        let r = check(
            &b,
            native(nf),
            &mut pkts,
            CheckOptions {
                run: RunOptions {
                    cache_dir: cache(),
                    ..RunOptions::default()
                },
                servers: 2,
                lending: false,
                ..CheckOptions::default()
            },
        );
        match r {
            Ok(r) => assert!(!r.passed(), "{nf} without the owner must fail the check"),
            Err(e) => eprintln!("{nf} without the owner: error {e}"),
        }
    }
}

/// On uniform traffic (every flow 10 kB) with 4 servers, each server's share of the server
/// packets is within ±15% of the mean (flows spread by the endpoint hash). A count, not a
/// timing.
#[test]
fn four_servers_share_the_load() {
    let cdf = std::env::temp_dir().join(format!("tandem-uniform-{}.cdf", std::process::id()));
    std::fs::write(&cdf, "10000 0.5\n10000 1.0\n").unwrap();
    let packets = env_or("TANDEM_CHECK_PACKETS", 12_000).max(12_000);
    let b = bundle("trd", "tofino1", &dispatching(None));
    let mut pkts =
        trace(Addr::Plain, cdf.to_str().unwrap(), (packets / 10) as u64, 7).take(packets);
    let r = check(
        &b,
        native("trd"),
        &mut pkts,
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                ..RunOptions::default()
            },
            servers: 4,
            ..CheckOptions::default()
        },
    )
    .unwrap();
    std::fs::remove_file(&cdf).ok();
    assert_passed("trd, uniform, 4 servers", &r);
    let loads: Vec<u64> = r.per_server.iter().map(|l| l.packets).collect();
    assert_eq!(loads.len(), 4);
    let mean = loads.iter().sum::<u64>() as f64 / 4.0;
    assert!(mean > 1000.0, "too few server packets: {loads:?}");
    eprintln!("trd, uniform, 4 servers: per-server packets {loads:?} (mean {mean})");
    for l in &loads {
        let off = (*l as f64 - mean).abs() / mean;
        assert!(off <= 0.15, "per-server packets {loads:?} (mean {mean})");
    }
}

/// The owner of global state weighted down (`CheckOptions::owner_share`, docs/cluster.md,
/// "Balancing the owner"): the switch's slot tables give server 0 a quarter of an even
/// share of the flows, the check passes (the switch and the runtime's mirror agree on
/// every packet), and the owner handles far fewer packets than the others; unweighted
/// (the control) it handles about as many.
#[test]
fn a_weighted_owner_takes_fewer_flows() {
    let b = bundle("mazunat", "tofino1", &dispatching(None));
    let run = |share: Option<u32>| {
        let mut pkts = trace(Addr::Nat, "enterprise", 300, 7).take(3000);
        let r = check(
            &b,
            native("mazunat"),
            &mut pkts,
            CheckOptions {
                run: RunOptions {
                    cache_dir: cache(),
                    ..RunOptions::default()
                },
                servers: 4,
                owner_share: share,
                ..CheckOptions::default()
            },
        )
        .unwrap();
        assert_passed(&format!("mazunat, 4 servers, owner share {share:?}"), &r);
        assert_eq!(r.membership.as_ref().unwrap().0.disagreements, 0);
        let loads: Vec<u64> = r.per_server.iter().map(|l| l.packets).collect();
        let others = loads[1..].iter().sum::<u64>() as f64 / 3.0;
        eprintln!("mazunat, 4 servers, owner share {share:?}: per server {loads:?}");
        loads[0] as f64 / others
    };
    let light = run(Some(25));
    assert!(light < 0.5, "weighted owner / others: {light}");
    let even = run(None);
    assert!(even > 0.6, "unweighted owner / others: {even}");
}

/// The scale: ≥ 100,000 packets, enterprise and datamining, 1, 2 and 4 servers
/// (`cargo test -p tandem-offload --test cluster -- --ignored`; `TANDEM_CLUSTER_NFS=snat,trd`
/// runs only those NFs).
#[test]
#[ignore]
fn hundred_thousand_packets() {
    let only = std::env::var("TANDEM_CLUSTER_NFS").unwrap_or_default();
    let picked = |nf: &str| only.is_empty() || only.split(',').any(|x| x == nf);
    for (nf, addr) in [
        ("mazunat", Addr::Nat),
        ("l4lb", Addr::Lb),
        ("snat", Addr::Nat),
        ("trd", Addr::Plain),
    ] {
        if !picked(nf) {
            continue;
        }
        for workload in ["enterprise", "datamining"] {
            for servers in [1, 2, 4] {
                let r = check_nf_servers(nf, addr, workload, "tofino1", 100_000, servers);
                assert_passed(&format!("{nf}/{workload} with {servers} servers"), &r);
                assert!(r.packets >= 100_000);
                if servers > 1 {
                    assert_eq!(r.per_server.len(), servers);
                    assert!(r.per_server.iter().all(|l| l.packets > 0));
                }
                eprintln!(
                    "{nf}/{workload}, {servers} servers: PASS, {} packets, per server {:?}",
                    r.packets,
                    r.per_server.iter().map(|l| l.packets).collect::<Vec<_>>()
                );
            }
        }
    }
}

fn check_changes(
    packets: usize,
    changes: Vec<(u64, tandem_offload::GroupChange)>,
    bloom: Option<tandem_offload::membership::BloomShape>,
    pinning: bool,
) -> CheckReport {
    try_changes(packets, changes, bloom, pinning).unwrap()
}

/// P4 options whose program picks the server (Bloom filters of `bloom`'s shape).
fn dispatching(bloom: Option<tandem_offload::membership::BloomShape>) -> P4Options {
    P4Options {
        dispatch: Some(bloom.map_or_else(tandem_p4::DispatchShape::default, |b| {
            tandem_p4::DispatchShape {
                bloom_bits: b.bits,
                bloom_hashes: b.hashes,
            }
        })),
        ..P4Options::default()
    }
}

fn try_changes(
    packets: usize,
    changes: Vec<(u64, tandem_offload::GroupChange)>,
    bloom: Option<tandem_offload::membership::BloomShape>,
    pinning: bool,
) -> Result<CheckReport, tandem_offload::OffloadError> {
    let b = bundle("trd", "tofino1", &dispatching(bloom));
    try_changes_with(&b, packets, changes, bloom, pinning)
}

fn try_changes_with(
    b: &tandem_offload::Bundle,
    packets: usize,
    changes: Vec<(u64, tandem_offload::GroupChange)>,
    bloom: Option<tandem_offload::membership::BloomShape>,
    pinning: bool,
) -> Result<CheckReport, tandem_offload::OffloadError> {
    // Many short flows: new flows begin all through the trace.
    let mut pkts = trace(Addr::Plain, "enterprise", (packets / 2) as u64, 7).take(packets);
    check(
        b,
        native("trd"),
        &mut pkts,
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                ..RunOptions::default()
            },
            servers: 1,
            changes,
            bloom,
            pinning,
            ..CheckOptions::default()
        },
    )
}

/// Membership changes mid-trace, 1 → 2 → 3 → 2 servers: flows begun under an earlier group
/// keep their server (Bloom filters, then pins), new flows spread over the new group, the
/// removed server drains; outputs and final state equal the reference, so no packet is lost.
#[test]
fn membership_changes_mid_trace() {
    use tandem_offload::GroupChange::*;
    let packets = env_or("TANDEM_CHECK_PACKETS", 4000).max(4000);
    let n = packets as u64;
    let r = check_changes(
        packets,
        vec![(n / 4, Add), (n / 2, Add), (3 * n / 4, Remove(1))],
        None,
        true,
    );
    assert_passed("trd 1 → 2 → 3 → 2", &r);
    let loads: Vec<u64> = r.per_server.iter().map(|l| l.packets).collect();
    eprintln!(
        "trd 1 → 2 → 3 → 2: per-server packets {loads:?}, membership {:?}",
        r.membership
    );
    assert_eq!(loads.len(), 3);
    assert!(loads.iter().all(|&l| l > 0), "{loads:?}");
    let (m, _) = r.membership.unwrap();
    assert_eq!(m.version, 3);
}

/// A removed server's flows migrate: their flow-local entries move from its primary copy and
/// mirror to their new servers' (`tandem_offload::migrate`), the old group's slots naming
/// it are rewritten, so it holds nothing afterwards; check PASS. Draining (the flows stay
/// pinned to it) passes too. Negative control: the flows move without their state — the
/// new servers miss it and the check fails.
#[test]
fn a_removed_servers_flows_migrate_with_their_state() {
    use tandem_offload::GroupChange::*;
    use tandem_offload::Removal;
    let packets = 3000;
    let changes = [(600, Add), (1200, Add), (1800, Remove(1))];
    let b = bundle("trd", "tofino1", &dispatching(None));
    let run_n = |removal: Removal, packets: usize| {
        let changes: Vec<_> = changes
            .iter()
            .copied()
            .filter(|(at, _)| *at < packets as u64)
            .collect();
        let mut pkts = trace(Addr::Plain, "enterprise", 300, 7).take(packets);
        check(
            &b,
            native("trd"),
            &mut pkts,
            CheckOptions {
                run: RunOptions {
                    cache_dir: cache(),
                    ..RunOptions::default()
                },
                changes,
                removal,
                ..CheckOptions::default()
            },
        )
    };
    let run = |removal: Removal| run_n(removal, packets);
    let migrated = run(Removal::Migrate).unwrap();
    assert_passed("trd 1 → 2 → 3 → 2, migrating", &migrated);
    let (m, pinned) = migrated.membership.clone().unwrap();
    eprintln!(
        "migrating: {m:?}, pinned now {pinned}, per server {:?}",
        migrated.per_server
    );
    assert!(m.migrated > 0, "server 1 held flows: {m:?}");
    let drained = run(Removal::Drain).unwrap();
    assert_passed("trd 1 → 2 → 3 → 2, draining", &drained);
    let (d, _) = drained.membership.clone().unwrap();
    assert_eq!(d.migrated, 0);
    // Server 1 takes no packet after its removal when its flows migrate; draining, it
    // keeps serving them.
    let (l_m, l_d) = (
        migrated.per_server[1].packets,
        drained.per_server[1].packets,
    );
    let before = run_n(Removal::Migrate, 1800).unwrap().per_server[1].packets;
    eprintln!(
        "server 1: {before} packets before its removal; in all {l_m} migrating, {l_d} draining"
    );
    assert_eq!(l_m, before, "server 1 took packets after its removal");
    assert!(
        l_m < l_d,
        "server 1: {l_m} packets migrating, {l_d} draining"
    );
    match run(Removal::RedirectOnly) {
        Ok(r) => assert!(
            !r.passed(),
            "flows moved without their state, yet check passed"
        ),
        Err(e) => assert!(e.to_string().contains("already exists"), "{e}"),
    }
}

/// A Bloom filter of one bit: once any flow is recorded every flow "collides" in it, so a
/// flow begun after a change is sent to the old group (a false positive), and after the next
/// change its record points at another group than the one holding its state. The change
/// detects that from the servers' flow-local keys and pins the flow to its server:
/// affinity holds (check PASS) and the mismatches are counted.
#[test]
fn bloom_filter_collisions_are_detected_and_pinned() {
    use tandem_offload::GroupChange::*;
    let packets = 3000;
    let tiny = tandem_offload::membership::BloomShape { bits: 1, hashes: 1 };
    let changes = vec![(500, Add), (1500, Add), (2200, Add)];
    let r = check_changes(packets, changes.clone(), Some(tiny), true);
    assert_passed("trd with colliding Bloom filters", &r);
    let (m, pinned) = r.membership.clone().unwrap();
    eprintln!(
        "collisions: {m:?}, pinned {pinned}, per server {:?}",
        r.per_server
    );
    assert!(m.mismatches > 0, "{m:?}");
    assert!(pinned > 0);
    // Negative control: without the pins the mismatched flows reach a server without their
    // state: the check sees different outputs, or the second server's insert meets the
    // first one's entry on the switch.
    match try_changes(packets, changes, Some(tiny), false) {
        Ok(r) => assert!(!r.passed(), "affinity broke, yet check passed"),
        Err(e) => assert!(e.to_string().contains("already exists"), "{e}"),
    }
}

/// MazuNAT (global state with one owner) through 1 → 2 → 3 → 2 servers: PASS; removing the
/// owner is refused with the reason.
#[test]
fn membership_changes_with_an_owner() {
    let b = bundle("mazunat", "tofino1", &P4Options::default());
    let go = |changes: Vec<(u64, tandem_offload::GroupChange)>| {
        let mut pkts = trace(Addr::Nat, "enterprise", 300, 7).take(3000);
        check(
            &b,
            native("mazunat"),
            &mut pkts,
            CheckOptions {
                run: RunOptions {
                    cache_dir: cache(),
                    ..RunOptions::default()
                },
                changes,
                ..CheckOptions::default()
            },
        )
    };
    use tandem_offload::GroupChange::{Add, Remove};
    let r = go(vec![(600, Add), (1200, Add), (1800, Remove(1))]).unwrap();
    assert_passed("mazunat 1 -> 2 -> 3 -> 2", &r);
    assert!(
        r.per_server.iter().all(|l| l.packets > 0),
        "{:?}",
        r.per_server
    );
    let e = go(vec![(600, Add), (1200, Remove(0))]).expect_err("the owner stays");
    assert!(e.to_string().contains("owns the global state"), "{e}");
}

/// TRD on 4 servers with a program that picks the server and a trace of short flows.
fn check_trd_four(b: &tandem_offload::Bundle, packets: usize) -> CheckReport {
    let mut pkts = trace(Addr::Plain, "enterprise", (packets / 4) as u64, 7).take(packets);
    check(
        b,
        native("trd"),
        &mut pkts,
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                ..RunOptions::default()
            },
            servers: 4,
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

/// The switch program picks the server (`P4Options::dispatch`): the cluster hands each
/// frame to the server named in its transfer header, and that is the server the runtime's
/// definition gives (no disagreement). Negative controls: the same program with its slot
/// hash changed (CRC-16 for CRC-32), or without the smaller-endpoint-first order, sends
/// frames elsewhere — counted as disagreements, and check fails.
#[test]
fn the_switch_picks_the_server() {
    let packets = 2000;
    let b = bundle("trd", "tofino1", &dispatching(None));
    assert!(b.manifest.dispatch.is_some());
    let r = check_trd_four(&b, packets);
    assert_passed("trd, 4 servers, switch dispatch", &r);
    let (m, _) = r.membership.clone().unwrap();
    assert_eq!(m.disagreements, 0);
    let loads: Vec<u64> = r.per_server.iter().map(|l| l.packets).collect();
    eprintln!("switch dispatch, 4 servers: per server {loads:?}");
    assert!(loads.iter().all(|&l| l > 0), "{loads:?}");

    let slot_hash = b
        .switch_p4
        .lines()
        .find(|l| l.contains("hash(meta.tandem_slot"))
        .expect("the slot hash")
        .to_string();
    let mutants = [
        (
            "CRC-16 slot hash",
            b.switch_p4.replace(
                &slot_hash,
                &slot_hash.replace("HashAlgorithm.crc32", "HashAlgorithm.crc16"),
            ),
        ),
        (
            "endpoints not ordered",
            b.switch_p4.replace(
                "if ((meta.tandem_a1 < meta.tandem_a0)",
                "if (false && (meta.tandem_a1 < meta.tandem_a0)",
            ),
        ),
    ];
    for (what, p4) in mutants {
        assert_ne!(p4, b.switch_p4, "{what}: the mutation applies");
        let mut bad = b.clone();
        bad.switch_p4 = p4;
        let r = check_trd_four(&bad, packets);
        let (m, _) = r.membership.clone().unwrap();
        eprintln!(
            "{what}: disagreements {}, passed {}",
            m.disagreements,
            r.passed()
        );
        assert!(m.disagreements > 0, "{what}");
        assert!(!r.passed(), "{what}: a wrong dispatch must fail the check");
    }
}

/// The two-process deployment does not lend state between server processes: a switch daemon
/// for two servers refuses an NF with global state, naming the objects and why.
#[test]
fn two_processes_refuse_global_state_with_the_reason() {
    let b = bundle("mazunat", "tofino1", &dispatching(None));
    let dir = tempfile::tempdir().unwrap();
    let e = tandem_offload::net::SwitchDaemon::start_cluster(
        &b,
        &tandem_offload::net::SwitchConfig {
            dir: dir.path().to_path_buf(),
            ports: vec![0, 1],
        },
        2,
    )
    .err()
    .expect("refused");
    let e = e.to_string();
    assert!(
        e.contains("next_port") && e.contains("one owner") && e.contains("in-process"),
        "{e}"
    );
}
