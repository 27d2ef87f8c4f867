//! `check` on every example NF: the offloaded pair (switch program on the software switch,
//! server.so in the server host, state synchronised through write-back tables and the
//! visibility flag) against the native NF on the same closed-loop traffic.
//!
//! Knobs for longer runs: `TANDEM_CHECK_PACKETS` (default 4000), `TANDEM_CHECK_PROFILE`
//! (tofino1), `TANDEM_CHECK_WORKLOAD` (the NF's default).

mod common;

use common::*;

fn run(nf: &str, addr: Addr, workload: &str) {
    let profile = std::env::var("TANDEM_CHECK_PROFILE").unwrap_or_else(|_| "tofino1".into());
    let workload = std::env::var("TANDEM_CHECK_WORKLOAD").unwrap_or_else(|_| workload.into());
    let packets = env_or("TANDEM_CHECK_PACKETS", 4000);
    let report = check_nf(
        nf,
        addr,
        &workload,
        &profile,
        packets,
        &P4Options::default(),
        None,
    );
    assert!(
        report.passed(),
        "{nf}: {:#?}\n{}",
        report.multiset_differences,
        report.first_difference.clone().unwrap_or_default()
    );
    assert_eq!(report.differing_packets, 0);
    eprintln!(
        "{nf}/{profile}/{workload}: {} packets, fast path {:.2}%, via server {}, batches {}",
        report.packets,
        100.0 * report.offloaded.fast_path_share(),
        report.offloaded.via_server,
        report.offloaded.sync.batches
    );
}

#[test]
fn minilb() {
    run("minilb", Addr::Lb, "enterprise");
}

#[test]
fn mazunat() {
    run("mazunat", Addr::Nat, "enterprise");
}

#[test]
fn l4lb() {
    run("l4lb", Addr::Lb, "datamining");
}

#[test]
fn firewall() {
    run("firewall", Addr::Plain, "enterprise");
}

#[test]
fn proxy() {
    run("proxy", Addr::Plain, "enterprise");
}

#[test]
fn statefilter() {
    run("statefilter", Addr::Plain, "datamining");
}

#[test]
fn trojan() {
    run("trojan", Addr::Endhosts, "enterprise");
}
