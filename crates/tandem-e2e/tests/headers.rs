//! Declared headers with push and pop, end to end (C++ → lift → partition → P4 + server.cc →
//! run → check against the native NF).

mod common;

use common::*;

/// The vlantrunk variant with two counter updates per branch keeps most packets on the
/// server (two accesses to one register on one path do not fit a pass), so the server pushes and pops
/// the VLAN tag and rebuilds the frame (server ABI v2), and rule R8 keeps the header code
/// after a server-side push or pop off the switch (post would re-parse the rebuilt frame and
/// find other headers: without R8 this check fails on every tagged frame).
#[test]
fn the_server_pushes_and_pops_headers() {
    let src = test_nf("vlan_two_counters");
    let r = check_file(&src, Addr::Vlan, "enterprise", "tofino1", 6000);
    assert_passed("vlan_two_counters", &r);
    let share = r.offloaded.fast_path_share();
    assert!(
        share < 0.5,
        "most packets visit the server: fast path {:.1}%",
        share * 100.0
    );
    // The plan: every push/pop runs on the server, and so does every header statement that
    // can follow one.
    let module = lift_file(&src);
    let profile = tandem_partition::TargetProfile::builtin("tofino1").unwrap();
    let info = tandem_analysis::compute_deps(&module);
    let plan = tandem_partition::partition(&module, &info, &profile).unwrap();
    let text = tandem_partition::report_for(&module, &info, &profile, &plan);
    assert!(text.contains("[R8]"), "{text}");
}

/// The example itself: push and pop in the switch's egress part, every packet on the switch.
#[test]
fn the_switch_pushes_and_pops_headers() {
    let src = repo().join("examples/nfs/vlantrunk/vlantrunk.cc");
    for profile in ["tofino1", "bmv2"] {
        let r = check_file(&src, Addr::Vlan, "datamining", profile, 6000);
        assert_passed(&format!("vlantrunk/{profile}"), &r);
        let share = r.offloaded.fast_path_share();
        assert!(share > 0.99, "{profile}: fast path {:.1}%", share * 100.0);
    }
}

/// A DNS filter written from docs/nf-api.md alone: a declared DNS header parsed after UDP on
/// either port 53, its flags and transaction id read on the switch, pending queries in an
/// expiring map the server writes. Responses to unseen queries are dropped on the switch.
#[test]
fn a_dns_filter_on_a_declared_header_runs_on_the_switch() {
    let src = test_nf("dns_filter");
    let r = check_file(&src, Addr::Nat, "enterprise", "tofino1", 20_000);
    assert_passed("dns_filter", &r);
    let share = r.offloaded.fast_path_share();
    assert!(share > 0.9, "fast path {:.1}%", share * 100.0);
}
