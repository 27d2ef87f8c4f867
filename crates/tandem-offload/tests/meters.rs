//! Meters offloaded: the `ratelimit` example's meter array on the switch (v1model `meter`,
//! executed in pre, its buckets read back for the state comparison), the same NF with its
//! meters on the server (a profile without meters: `ops->meter_execute` on the primary copy),
//! and negative controls — a wrong meter lowering and a wrong colour must fail `check`.

mod common;

use common::*;
use tandem_partition::{PartitionOptions, TargetProfile};

/// Every packet on the switch for both profiles and workloads, and every colour seen: some
/// packets dropped (red), the state comparison covering the buckets.
#[test]
fn ratelimit_runs_on_the_switch_for_both_profiles() {
    for profile in ["tofino1", "bmv2"] {
        for workload in ["enterprise", "datamining"] {
            let r = check_nf(
                "ratelimit",
                Addr::Plain,
                workload,
                profile,
                6000,
                &P4Options::default(),
                None,
            );
            let what = format!("ratelimit/{profile}/{workload}");
            assert_passed(&what, &r);
            assert!(r.state_differences.is_empty(), "{what}");
            assert_eq!(r.offloaded.via_server, 0, "{what}");
            assert!(r.reference_dropped > 0, "{what}: no packet was red");
        }
    }
}

/// A target without meters: the meter runs on the server, on the runtime's primary copy (and
/// the packets visit the server); the result is the same.
#[test]
fn meters_run_on_the_server_without_switch_meters() {
    let mut profile = TargetProfile::builtin("tofino1").unwrap();
    profile.ops.remove("meter");
    let b = compile_bundle(
        &module("ratelimit"),
        &profile,
        &PartitionOptions::default(),
        &P4Options::default(),
        None,
    )
    .unwrap();
    assert!(!b.switch_p4.contains("meter("), "no meter on the switch");
    let mut pkts = trace(Addr::Plain, "datamining", 100, 7).take(3000);
    let r = check_with(&b, "ratelimit", &mut pkts, None);
    assert_passed("ratelimit, meters on the server", &r);
    assert!(r.offloaded.via_server > 0);
    assert!(r.reference_dropped > 0);
}

fn broken(from: &str, to: &str) -> CheckReport {
    let mut b = bundle("ratelimit", "bmv2", &P4Options::default());
    assert!(b.switch_p4.contains(from), "{from}");
    b.switch_p4 = b.switch_p4.replacen(from, to, 1);
    let mut pkts = trace(Addr::Plain, "datamining", 100, 7).take(3000);
    check_with(&b, "ratelimit", &mut pkts, None)
}

/// Negative controls: a meter that counts packets instead of bytes, and a colour taken from
/// the wrong meter, are caught (outputs or the meters' state differ).
#[test]
fn a_wrong_meter_lowering_fails_the_check() {
    for (from, to) in [
        ("MeterType.bytes", "MeterType.packets"),
        (".execute_meter(", ".execute_meter(32w1 ^ "),
    ] {
        let r = broken(from, to);
        assert!(!r.passed(), "`{to}` passed");
        assert!(
            r.differing_packets > 0 || !r.state_differences.is_empty(),
            "`{to}`: {:?}",
            r.multiset_differences
        );
    }
}
