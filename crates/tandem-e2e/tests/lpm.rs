//! An LPM map written by packets (`tandem-lift/tests/nfs/lpm_learn.cc`) stays on the server:
//! the primary copy's LPM operations through `server.h`, checked against the native build.

mod common;

use common::*;

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
