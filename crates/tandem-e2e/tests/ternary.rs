//! Ternary and range maps written by packets (`tandem-lift/tests/nfs/tern_learn.cc`) stay on
//! the server: the primary copy's ternary and range operations through `server.h`, checked
//! against the native build.

mod common;

use common::*;

#[test]
fn ternary_and_range_maps_written_by_packets_stay_on_the_server() {
    let src = repo().join("crates/tandem-lift/tests/nfs/tern_learn.cc");
    for profile in ["tofino1", "bmv2"] {
        let r = check_file(&src, Addr::Plain, "enterprise", profile, 3000);
        assert_passed(&format!("tern_learn/{profile}"), &r);
        assert!(
            r.offloaded.via_server > 0,
            "{profile}: the ternary and range writes run on the server"
        );
    }
}
