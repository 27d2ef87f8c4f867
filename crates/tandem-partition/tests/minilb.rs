//! MiniLB partitions as in the Gallium paper's Figures 3–5: the lookup, the branch and the
//! hit path on the switch; `hash32 % size`, the vector read and the insert on the server;
//! the miss-path rewrite in post; `hash32` travels to the server and the backend back.
//!
//! The lifted MiniLB joins both paths before the rewrite (`ip->daddr = backend` follows the
//! if/else in the source), so the one rewrite statement runs in post for every packet: hit
//! packets go from pre straight to post inside the switch.

mod common;

use tandem_analysis::{compute_deps, StmtKind};
use tandem_ir::{BinOp, HeaderField, InstKind};
use tandem_partition::*;

fn minilb() -> (tandem_ir::Module, tandem_analysis::DepInfo, Plan) {
    let m = common::golden("minilb");
    let info = compute_deps(&m);
    let p = TargetProfile::builtin("tofino1").unwrap();
    let plan = partition(&m, &info, &p).unwrap();
    verify_plan(&m, &info, &p, &plan).unwrap();
    (m, info, plan)
}

/// The partition of the first statement whose instruction satisfies `f`.
fn part_of(
    m: &tandem_ir::Module,
    info: &tandem_analysis::DepInfo,
    plan: &Plan,
    f: impl Fn(&InstKind) -> bool,
) -> Partition {
    let i = info
        .graph
        .stmts
        .iter()
        .position(|s| match s.kind {
            StmtKind::Inst(i) => f(&m.process.insts[i].kind),
            _ => false,
        })
        .expect("statement exists");
    plan.statements[i].partition
}

#[test]
fn minilb_matches_figures_3_to_5() {
    let (m, info, plan) = minilb();
    let map = m.state_by_name("map").unwrap();
    let backends = m.state_by_name("backends").unwrap();
    let part = |f: &dyn Fn(&InstKind) -> bool| part_of(&m, &info, &plan, f);
    // Pre: the lookup, the branch on its result, hash32.
    assert_eq!(
        part(&|k| matches!(k, InstKind::MapFind { state, .. } if *state == map)),
        Partition::Pre
    );
    let hit_branch = info.graph.term_stmt(tandem_ir::Block::from_u32(1)).unwrap();
    assert_eq!(
        plan.statements[hit_branch.index()].partition,
        Partition::Pre
    );
    assert_eq!(
        part(&|k| matches!(k, InstKind::Binary { op: BinOp::Xor, .. })),
        Partition::Pre
    );
    // Server: hash32 % size, the vector read, the insert.
    assert_eq!(
        part(&|k| matches!(
            k,
            InstKind::Binary {
                op: BinOp::Urem,
                ..
            }
        )),
        Partition::Server
    );
    assert_eq!(
        part(&|k| matches!(k, InstKind::VecGet { state, .. } if *state == backends)),
        Partition::Server
    );
    assert_eq!(
        part(&|k| matches!(k, InstKind::MapInsert { state, .. } if *state == map)),
        Partition::Server
    );
    // Post: the destination rewrite (after the join of both paths).
    assert_eq!(
        part(&|k| matches!(
            k,
            InstKind::HdrWrite {
                field: HeaderField::Ipv4Daddr,
                ..
            }
        )),
        Partition::Post
    );
    // The hit path never visits the server: nothing server-side in block2.
    assert!(plan
        .statements
        .iter()
        .filter(|s| s.block == 2)
        .all(|s| s.partition != Partition::Server));
    // Figure 5: the branch condition (1 bit), hash32 to the server, the backend back.
    let to_server: Vec<(&str, u32)> = plan
        .cuts
        .pre_to_server
        .iter()
        .map(|c| (c.value.as_str(), c.bits))
        .collect();
    assert_eq!(to_server, vec![("v7", 32), ("v12", 1)]);
    let back: Vec<(&str, u32)> = plan
        .cuts
        .server_to_post
        .iter()
        .map(|c| (c.value.as_str(), c.bits))
        .collect();
    assert_eq!(back, vec![("v20", 32)]);
    // The key is a free truncation of hash32: recomputed, not sent.
    assert!(plan.remat.server.contains(&"v8".to_string()));
    // The hit value reaches post inside the switch only.
    let hit = plan
        .cuts
        .pre_to_post
        .iter()
        .find(|c| c.value == "v10")
        .unwrap();
    assert!(!hit.in_header);
    let h = &plan.transfer_header;
    let names: Vec<&str> = h.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        vec!["tag", "orig_ethertype", "v7", "v12", "v20", "pad"]
    );
    assert_eq!(h.bytes, 12);
    // State: the map is a switch table written by the server; the vector stays there.
    let st = |n: &str| plan.states.iter().find(|s| s.name == n).unwrap().placement;
    assert_eq!(st("map"), Placement::Replicated);
    assert_eq!(st("backends"), Placement::Server);
}

#[test]
fn minilb_explains_every_server_statement_with_a_cpp_line() {
    let (m, info, plan) = minilb();
    for s in plan
        .statements
        .iter()
        .filter(|s| s.partition == Partition::Server)
    {
        let why = s
            .why
            .as_ref()
            .unwrap_or_else(|| panic!("s{} has no why", s.id));
        assert!(
            why.origin_loc.is_some(),
            "s{}: origin without a position",
            s.id
        );
    }
    let urem = plan
        .statements
        .iter()
        .find(|s| s.text.contains("urem"))
        .unwrap();
    let why = urem.why.as_ref().unwrap();
    assert_eq!(why.rule, "unsupported");
    assert_eq!(
        why.origin_loc.as_deref(),
        Some("examples/nfs/minilb/minilb.cc:40")
    );
    let text = report(&m, &info, &plan);
    assert!(
        text.contains("remainder by a value that is not a constant power of two"),
        "{text}"
    );
    assert!(
        text.contains("== transfer header (EtherType 0x88b5, 12 bytes) =="),
        "{text}"
    );
    let dot = write_dot(&m, &info, &plan);
    assert!(dot.starts_with("digraph \"MiniLB\""));
    assert!(dot.contains("#f4a6a6") && dot.contains("#b7e4c7") && dot.contains("#a9c8f0"));
}

#[test]
fn plan_json_round_trips_and_is_versioned() {
    let (_, _, plan) = minilb();
    let json = plan.to_json();
    assert!(json.contains("\"version\": 3"));
    let back = Plan::from_json(&json).unwrap();
    assert_eq!(back, plan);
    let bad = json.replacen("\"version\": 3", "\"version\": 99", 1);
    assert!(Plan::from_json(&bad)
        .unwrap_err()
        .to_string()
        .contains("plan version 99"));
}
