//! Regression tests for front-end bugs found on NFs written outside this project (issue 14):
//! small NFs in `tests/nfs/`, each lifted and run against its native build (the differential
//! check of `common::differential`), or lifted and inspected.

mod common;

use common::{differential, lift_file, test_nf};
use tandem_traffic::Plan;

/// A 6-byte store (`store i48` to `eth->src`) writes exactly `eth.src`: the EtherType is kept.
#[test]
fn six_byte_store_writes_only_its_field() {
    let lifted = lift_file(&test_nf("set_src_mac"));
    let text = tandem_ir::print_module(&lifted.module);
    assert!(text.contains("hdr.write eth.src"), "{text}");
    assert!(!text.contains("hdr.write eth.ethertype"), "{text}");
    differential(&test_nf("set_src_mac"), Plan::Plain, "enterprise", 2_000);
}
