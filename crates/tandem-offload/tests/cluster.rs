//! Several server hosts behind one switch (`tandem check --servers N`, CLIP §III-B): every
//! example below is checked with 1, 2 and 4 servers against the native NF. NFs the
//! shardable-state analysis keeps on one server say why in the report.
//!
//! Knobs: `TANDEM_CHECK_PACKETS` (default 3000).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;

use common::*;

fn run(nf: &str, addr: Addr, workload: &str, sharded: bool) {
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
            if sharded {
                assert_eq!(used, servers);
            } else {
                assert_eq!(used, 1);
                assert!(text.contains("runs on one server"), "{text}");
            }
        }
    }
}

#[test]
fn mazunat() {
    run("mazunat", Addr::Nat, "enterprise", false);
}

#[test]
fn l4lb() {
    run("l4lb", Addr::Lb, "datamining", false);
}

#[test]
fn firewall() {
    run("firewall", Addr::Plain, "enterprise", true);
}

#[test]
fn trd() {
    run("trd", Addr::Plain, "enterprise", true);
}

/// On uniform traffic (every flow 10 kB) with 4 servers, each server's share of the server
/// packets is within ±15% of the mean (flows spread by the endpoint hash). A count, not a
/// timing.
#[test]
fn four_servers_share_the_load() {
    let cdf = std::env::temp_dir().join(format!("tandem-uniform-{}.cdf", std::process::id()));
    std::fs::write(&cdf, "10000 0.5\n10000 1.0\n").unwrap();
    let packets = env_or("TANDEM_CHECK_PACKETS", 12_000).max(12_000);
    let b = bundle("trd", "tofino1", &P4Options::default());
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

/// The scale: ≥ 100,000 packets, enterprise and datamining, 1, 2 and 4 servers
/// (`cargo test -p tandem-offload --test cluster -- --ignored`).
#[test]
#[ignore]
fn hundred_thousand_packets() {
    for (nf, addr, sharded) in [
        ("mazunat", Addr::Nat, false),
        ("l4lb", Addr::Lb, false),
        ("trd", Addr::Plain, true),
    ] {
        for workload in ["enterprise", "datamining"] {
            for servers in [1, 2, 4] {
                let r = check_nf_servers(nf, addr, workload, "tofino1", 100_000, servers);
                assert_passed(&format!("{nf}/{workload} with {servers} servers"), &r);
                assert!(r.packets >= 100_000);
                if servers > 1 {
                    assert_eq!(r.per_server.len(), if sharded { servers } else { 1 });
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
