//! C3 (one access per state object and pass) counts only accesses one packet can run
//! together: a counter bumped in both arms of an `if` keeps both bumps on the switch, the
//! same counter bumped twice on one path keeps one.

use tandem_ir::parse_module;
use tandem_partition::*;

fn plan(text: &str, profile: &str) -> Plan {
    let m = parse_module(text).unwrap();
    let p = TargetProfile::builtin(profile).unwrap();
    let out = partition_module(&m, &p, &PartitionOptions::default()).unwrap();
    verify_plan(&out.module, &out.info, &p, &out.plan).unwrap();
    out.plan
}

/// Packets from port 1 go out port 0 and the others out port 1; `THEN` and `ELSE` go at the
/// end of each arm, `AFTER` after the two arms join.
fn module(then: &str, els: &str, after: &str) -> String {
    format!(
        "nf exclusive

state translated: scalar<i32>

fn process {{
block0:
    v0:i16 = meta.read in_port
    v1:i16 = const 1
    v2:i1 = icmp eq v0, v1
    v3:i16 = const 0
    brif v2, block1, block2

block1:
{then}    br block3

block2:
{els}    br block3

block3:
{after}    v9:i16 = select v2, v3, v1
    send v9
    return
}}
"
    )
}

const BUMP_A: &str = "    v4:i32 = scalar.load translated
    v5:i32 = const 1
    v6:i32 = add v4, v5
    scalar.store translated, v6
";
const BUMP_B: &str = "    v7:i32 = scalar.load translated
    v8:i32 = const 1
    v10:i32 = add v7, v8
    scalar.store translated, v10
";

fn server_stmts(plan: &Plan) -> usize {
    plan.summary.server as usize
}

#[test]
fn a_counter_bumped_in_both_arms_stays_on_the_switch() {
    for profile in ["tofino1", "tofino2", "bmv2"] {
        let plan = plan(&module(BUMP_A, BUMP_B, ""), profile);
        assert_eq!(server_stmts(&plan), 0, "{profile}: {:#?}", plan.statements);
    }
}

/// Negative control: the same two bumps on one path (then-arm, then after the join) are two
/// accesses in one pass: one of them must leave the switch on Tofino.
#[test]
fn two_bumps_on_one_path_still_compete() {
    let plan = plan(&module(BUMP_A, "", BUMP_B), "tofino1");
    assert!(server_stmts(&plan) > 0, "{:#?}", plan.statements);
}
