//! End-to-end regression tests for bugs found on NFs written outside this project (issue 14):
//! small NFs in `tests/nfs/`, lifted, partitioned and run as the offloaded pair against their
//! native build by `check` (byte-exact outputs and final state).

mod common;

use common::*;

/// A 6-byte store to `eth->src` keeps the EtherType (the lifter wrote `eth.ethertype` too).
#[test]
fn six_byte_header_store() {
    let r = check_file(
        &test_nf("set_src_mac"),
        Addr::Plain,
        "enterprise",
        "tofino1",
        1000,
    );
    assert_passed("set_src_mac", &r);
}

/// A 1-byte payload read and a 4-byte one in the same NF: each gets its own width on the
/// server (the width was recorded per opaque name, first one winning).
#[test]
fn payload_reads_of_two_widths() {
    let r = check_file(
        &test_nf("payload_widths"),
        Addr::Plain,
        "enterprise",
        "tofino1",
        1000,
    );
    assert_passed("payload_widths", &r);
}

/// now() written into header fields: the offloaded pair gives the packet's timestamp in ns,
/// as the reference host does (the switch program read BMv2's microsecond
/// `ingress_global_timestamp`, which the software switch never set).
#[test]
fn now_is_the_packet_timestamp_in_ns() {
    for profile in ["tofino1", "bmv2"] {
        let r = check_file(
            &test_nf("now_stamp"),
            Addr::Plain,
            "enterprise",
            profile,
            1000,
        );
        assert_passed(&format!("now_stamp/{profile}"), &r);
    }
}
