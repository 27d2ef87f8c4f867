//! Ternary and range maps offloaded: the ACL firewall's `range` and `ternary` tables on the
//! switch (entries written by the runtime with priorities), and tables too small for the
//! rules (every lookup then runs whole on the server: a missing higher-priority entry would
//! change the answer).

mod common;

use common::*;

#[test]
fn aclfw_runs_on_the_switch_for_both_profiles() {
    for profile in ["tofino1", "bmv2"] {
        for workload in ["enterprise", "datamining"] {
            let r = check_nf(
                "aclfw",
                Addr::Plain,
                workload,
                profile,
                3000,
                &P4Options::default(),
                None,
            );
            assert_passed(&format!("aclfw/{profile}/{workload}"), &r);
            assert_eq!(r.offloaded.via_server, 0, "{profile}/{workload}");
            assert!(r.offloaded.fast_path_share() > 0.99);
            assert!(r.reference_dropped > 0, "some packets are denied");
        }
    }
}

#[test]
fn full_ternary_and_range_tables_send_lookups_to_the_server() {
    let p4 = P4Options {
        max_table_size: Some(4),
        ..P4Options::default()
    };
    let r = check_nf(
        "aclfw",
        Addr::Plain,
        "enterprise",
        "tofino1",
        2000,
        &p4,
        None,
    );
    assert_passed("aclfw with 4 table entries", &r);
    assert!(r.offloaded.sync.table_full > 0);
    assert_eq!(r.offloaded.whole_on_server, r.offloaded.packets);
}
