//! LPM maps offloaded: the router's `lpm` table on the switch (entries written by the runtime
//! as prefixes), a data-plane-written LPM map on the server (the primary copy's LPM
//! operations through `server.h`), and a table too small for the routes (every lookup then
//! runs whole on the server: a missing longer prefix would change the answer).

mod common;

use common::*;

fn repo() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn lpmrouter_runs_on_the_switch_for_both_profiles() {
    for profile in ["tofino1", "bmv2"] {
        for workload in ["enterprise", "datamining"] {
            let r = check_nf(
                "lpmrouter",
                Addr::Plain,
                workload,
                profile,
                3000,
                &P4Options::default(),
                None,
            );
            assert_passed(&format!("lpmrouter/{profile}/{workload}"), &r);
            assert_eq!(r.offloaded.via_server, 0, "{profile}/{workload}");
            assert!(r.offloaded.fast_path_share() > 0.99);
        }
    }
}

#[test]
fn lpm_written_by_packets_stays_on_the_server() {
    let src = repo().join("crates/tandem-lift/tests/nfs/lpm_learn.cc");
    for profile in ["tofino1", "bmv2"] {
        let r = check_file(&src, Addr::Plain, "enterprise", profile, 3000);
        assert_passed(&format!("lpm_learn/{profile}"), &r);
        assert!(
            r.offloaded.via_server > 0,
            "{profile}: the LPM writes run on the server"
        );
    }
}

#[test]
fn a_full_lpm_table_sends_lookups_to_the_server() {
    let p4 = P4Options {
        max_table_size: Some(100),
        ..P4Options::default()
    };
    let r = check_nf(
        "lpmrouter",
        Addr::Plain,
        "enterprise",
        "tofino1",
        2000,
        &p4,
        None,
    );
    assert_passed("lpmrouter with 100 table entries", &r);
    assert!(r.offloaded.sync.table_full > 0);
}
