//! Meters end to end from C++ source: a switch-owned meter array while some table keys are
//! kept on the server only (packets needing them run whole on the server, with the switch's
//! meters read back before and written back after), checked against the native build.

mod common;

use common::*;
use tandem_partition::{PartitionOptions, TargetProfile};

#[test]
fn switch_meters_survive_runs_on_the_server() {
    let src = test_nf("meter_fallback");
    let p4 = P4Options {
        max_table_size: Some(100),
        ..P4Options::default()
    };
    for profile in ["tofino1", "bmv2"] {
        let b = compile_bundle(
            &lift_file(&src),
            &TargetProfile::builtin(profile).unwrap(),
            &PartitionOptions::default(),
            &p4,
            None,
        )
        .unwrap();
        assert!(
            b.switch_p4.contains("execute_meter"),
            "{profile}: meter on the switch"
        );
        let mut pkts = trace(Addr::Plain, "datamining", 100, 7).take(3000);
        let r = check_native(&b, native_file(&src), &mut pkts, None);
        assert_passed(&format!("meter_fallback/{profile}"), &r);
        assert!(
            r.offloaded.sync.table_full > 0,
            "{profile}: some keys on the server"
        );
        assert!(
            r.offloaded.whole_on_server > 0,
            "{profile}: runs on the server"
        );
        assert!(r.reference_dropped > 0, "{profile}: red packets");
    }
}
