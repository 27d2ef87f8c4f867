//! A register wider than the target's registers that process() never writes (a router's
//! 48-bit MAC from its configuration) stays on tofino1's switch as a read-only pair of
//! halves; the same register written by process() does not.

use tandem_ir::parse_module;
use tandem_partition::*;

fn plan(text: &str) -> Plan {
    let m = parse_module(text).unwrap();
    let p = TargetProfile::builtin("tofino1").unwrap();
    let out = partition_module(&m, &p, &PartitionOptions::default()).unwrap();
    verify_plan(&out.module, &out.info, &p, &out.plan).unwrap();
    out.plan
}

/// Ethernet frames get the router's MAC as their source; `EXTRA` goes before the send.
fn module(extra: &str) -> String {
    format!(
        "nf router

state my_mac: scalar<i48>

fn process {{
block0:
    v0:i1 = hdr.valid eth
    brif v0, block1, block2

block1:
    v1:i48 = scalar.load my_mac
    hdr.write eth.src, v1
{extra}    v2:i16 = const 1
    send v2
    return

block2:
    drop
    return
}}
"
    )
}

#[test]
fn a_read_only_48_bit_register_stays_on_tofino1() {
    let plan = plan(&module(""));
    assert_eq!(plan.summary.server, 0, "{:#?}", plan.statements);
}

/// Negative control: process() also writes the MAC (a 48-bit read-modify-write that is not a
/// counter's increment) — the register is too wide for tofino1's switch.
#[test]
fn a_written_48_bit_register_does_not() {
    let plan = plan(&module(
        "    v3:i48 = const 2
    v4:i48 = xor v1, v3
    scalar.store my_mac, v4
",
    ));
    assert!(plan.summary.server > 0, "{:#?}", plan.statements);
}
