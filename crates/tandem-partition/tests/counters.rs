//! Increment-only counters wider than the target's registers (`counters.rs`): a 64-bit
//! `dropped++` or `bytes += len` stays on tofino1's switch (a pair of 32-bit register halves
//! with the carry); any other use of the wide value keeps it on the server.

use tandem_ir::parse_module;
use tandem_partition::*;

fn plan(text: &str) -> Plan {
    let m = parse_module(text).unwrap();
    let p = TargetProfile::builtin("tofino1").unwrap();
    let out = partition_module(&m, &p, &PartitionOptions::default()).unwrap();
    verify_plan(&out.module, &out.info, &p, &out.plan).unwrap();
    out.plan
}

fn placement(plan: &Plan, name: &str) -> Placement {
    plan.states
        .iter()
        .find(|s| s.name == name)
        .unwrap()
        .placement
}

/// A counter module: packets with TTL 1 are dropped and counted in `dropped` (64 bits), the
/// others add their total length to `bytes[port]` (a vector of 64-bit counters) and are
/// sent. `EXTRA` goes at the end of the send path.
fn module(extra: &str) -> String {
    format!(
        "nf counters

state dropped: scalar<i64>
state bytes: vector<{{n: i64 @0}} size 8, 4>

fn process {{
block0:
    v0:i1 = hdr.valid ipv4
    brif v0, block1, block3

block1:
    v1:i8 = hdr.read ipv4.ttl
    v2:i8 = const 1
    v3:i1 = icmp ule v1, v2
    brif v3, block2, block4

block2:
    v4:i64 = scalar.load dropped
    v5:i64 = const 1
    v6:i64 = add v4, v5
    scalar.store dropped, v6
    drop
    return

block3:
    drop
    return

block4:
    v7:i16 = hdr.read ipv4.total_len
    v8:i64 = zext v7
    v9:i32 = const 2
    v10:i64 = vec.get bytes[v9]
    v11:i64 = add v10, v8
    vec.set bytes[v9](v11)
{extra}    v12:i16 = const 1
    send v12
    return
}}
"
    )
}

#[test]
fn increment_only_wide_counters_stay_on_the_switch() {
    let plan = plan(&module(""));
    assert_eq!(placement(&plan, "dropped"), Placement::SwitchRegister);
    assert_eq!(placement(&plan, "bytes"), Placement::SwitchRegister);
    assert_eq!(plan.summary.server, 0, "{:#?}", plan.statements);
}

/// Negative control: the counter's value also written into a header (a read that is not the
/// increment) keeps `dropped` off the switch.
#[test]
fn a_wide_counter_read_elsewhere_stays_on_the_server() {
    let extra = "    v20:i64 = scalar.load dropped\n    v21:i32 = trunc v20\n    hdr.write ipv4.saddr, v21\n";
    let plan = plan(&module(extra));
    assert_eq!(placement(&plan, "dropped"), Placement::Server);
    assert_eq!(placement(&plan, "bytes"), Placement::SwitchRegister);
}

/// Negative control: an increment wider than 32 bits does not fit the low half.
#[test]
fn a_wide_increment_stays_on_the_server() {
    let text = module("").replace("    v5:i64 = const 1\n", "    v5:i64 = const 4294967296\n");
    let plan = plan(&text);
    assert_eq!(placement(&plan, "dropped"), Placement::Server);
}

/// The lifter's shape of `bytes[i] += len` (the NF API's bounds check): the get reads at
/// `select ok, i, 0`, its value is `select ok, got, 0`, and the set runs under `ok` in a later
/// block — still one read-modify-write of a 64-bit counter on the switch.
#[test]
fn a_bounds_checked_vector_counter_stays_on_the_switch() {
    let text = module("").replace(
        "    v10:i64 = vec.get bytes[v9]
    v11:i64 = add v10, v8
    vec.set bytes[v9](v11)
    v12:i16 = const 1
    send v12
    return
",
        "    v30:i32 = const 4
    v31:i1 = icmp ult v9, v30
    v32:i32 = const 0
    v33:i32 = select v31, v9, v32
    v10:i64 = vec.get bytes[v33]
    v34:i64 = const 0
    v35:i64 = select v31, v10, v34
    v11:i64 = add v35, v8
    brif v31, block5, block6

block5:
    vec.set bytes[v9](v11)
    br block6

block6:
    v12:i16 = const 1
    send v12
    return
",
    );
    assert!(text.contains("block5"), "the replacement applied");
    let plan = plan(&text);
    assert_eq!(placement(&plan, "bytes"), Placement::SwitchRegister);
    assert_eq!(plan.summary.server, 0, "{:#?}", plan.statements);
}
