//! Analyses on the lifted golden NFs and on small hand-written modules.

use tandem_analysis::*;
use tandem_ir::{parse_module, Block, EntityRef, InstKind, Module, StateId};

const NFS: [&str; 8] = [
    "minilb",
    "mazunat",
    "l4lb",
    "firewall",
    "proxy",
    "statefilter",
    "cofilter",
    "trojan",
];

fn golden(name: &str) -> Module {
    let path = format!(
        "{}/../tandem-lift/tests/golden/{name}.nfir",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("golden file");
    parse_module(&text).expect("golden parses")
}

fn b(n: u32) -> Block {
    Block::from_u32(n)
}

/// The statement of the first instruction satisfying `pred`.
fn find_stmt(m: &Module, g: &StmtGraph, pred: impl Fn(&InstKind) -> bool) -> StmtId {
    g.stmts
        .iter()
        .position(|s| s.inst().is_some_and(|i| pred(&m.process.insts[i].kind)))
        .map(|i| StmtId(i as u32))
        .expect("statement exists")
}

fn has_edge(g: &StmtGraph, from: StmtId, to: StmtId, kind: DepKind) -> bool {
    g.deps
        .iter()
        .any(|d| d.from == from && d.to == to && d.kind == kind)
}

#[test]
fn minilb_cfg_dominators_and_control_dependence() {
    let m = golden("minilb");
    let info = compute_deps(&m);
    // block1 splits into the hit path (block2) and the miss path (block3), joined at block4.
    assert_eq!(info.dom.idom(b(4)), Some(b(1)));
    assert_eq!(info.pdom.ipdom(b(1)), Some(b(4)));
    assert_eq!(info.control.of(b(3)), &[b(1)]);
    assert_eq!(info.control.of(b(2)), &[b(1)]);
    assert_eq!(info.control.of(b(4)), &[b(0)]);
    assert!(info.control.of(b(12)).is_empty());
    assert_eq!(info.control.transitive(b(5)), vec![b(0), b(4)]);
    assert!(info.cfg.rpo.iter().all(|&x| !info.cfg.in_cycle(x)));
}

#[test]
fn minilb_dependency_edges() {
    let m = golden("minilb");
    let info = compute_deps(&m);
    let g = &info.graph;
    let map = m.state_by_name("map").unwrap();
    let is_map = |s: StateId| s == map;
    let find = find_stmt(
        &m,
        g,
        |k| matches!(k, InstKind::MapFind { state, .. } if is_map(*state)),
    );
    let insert = find_stmt(
        &m,
        g,
        |k| matches!(k, InstKind::MapInsert { state, .. } if is_map(*state)),
    );
    let urem = find_stmt(&m, g, |k| {
        matches!(
            k,
            InstKind::Binary {
                op: tandem_ir::BinOp::Urem,
                ..
            }
        )
    });
    let xor = g.def_stmt(tandem_ir::Value::from_u32(7)).unwrap(); // hash32
    let hit_branch = g.term_stmt(b(1)).unwrap();
    let phi = g.def_stmt(tandem_ir::Value::from_u32(23)).unwrap(); // block4's first parameter
                                                                   // find reads the map, insert reads and writes it: RAW would need a write first.
    assert!(has_edge(g, find, insert, DepKind::War));
    assert!(!has_edge(g, insert, find, DepKind::Raw));
    assert!(has_edge(g, xor, urem, DepKind::Data));
    assert!(has_edge(g, hit_branch, insert, DepKind::Control));
    assert!(
        has_edge(g, hit_branch, phi, DepKind::Control),
        "the join is gated by the branch"
    );
    assert!(matches!(g.stmt(phi).kind, StmtKind::Param { .. }));
    assert_eq!(g.stmt(phi).uses.len(), 2);
    // the destination write depends on the header read before it (WAR on ipv4.daddr).
    let read_daddr = g.def_stmt(tandem_ir::Value::from_u32(5)).unwrap();
    let write_daddr = find_stmt(&m, g, |k| {
        matches!(
            k,
            InstKind::HdrWrite {
                field: tandem_ir::HeaderField::Ipv4Daddr,
                ..
            }
        )
    });
    assert!(has_edge(g, read_daddr, write_daddr, DepKind::War));
    // the two `send`/`drop` are on exclusive paths: no edge.
    let drop = find_stmt(&m, g, |k| matches!(k, InstKind::Drop));
    let send = find_stmt(&m, g, |k| matches!(k, InstKind::Send { .. }));
    assert!(!has_edge(g, drop, send, DepKind::Waw) && !has_edge(g, send, drop, DepKind::Waw));
}

#[test]
fn minilb_liveness() {
    let m = golden("minilb");
    let info = compute_deps(&m);
    let v = tandem_ir::Value::from_u32;
    // hash32 (v7) is live out of block1 (the miss path needs it), and not out of block4.
    assert!(info.liveness.live_out[1].contains(&v(7)));
    assert!(info.liveness.live_in[3].contains(&v(7)));
    assert!(!info.liveness.live_out[4].contains(&v(7)));
    // the join parameters are live into block4; the branch arguments out of block2/3.
    assert!(info.liveness.live_in[4].contains(&v(23)));
    assert!(info.liveness.live_out[2].contains(&v(10)));
    assert!(info.liveness.live_out[3].contains(&v(20)));
    let before = info.liveness.live_before_each(&m.process, b(3));
    assert!(before[0].contains(&v(7)) && before[0].contains(&v(8)));
}

/// Every data edge goes from a definition to a use it dominates; outside loops every edge
/// goes forward in program order; every edge follows control flow.
#[test]
fn golden_graphs_are_well_formed() {
    for name in NFS {
        let m = golden(name);
        let info = compute_deps(&m);
        let g = &info.graph;
        assert!(!g.stmts.is_empty(), "{name}");
        for d in &g.deps {
            let in_loop = g.stmt(d.from).in_loop && g.stmt(d.to).in_loop;
            assert!(
                d.from < d.to || in_loop,
                "{name}: backward edge {d:?} outside loops"
            );
            assert!(
                g.can_happen_after(&info.cfg, d.from, d.to),
                "{name}: {d:?} against control flow"
            );
            if d.kind == DepKind::Data {
                let (a, c) = (g.stmt(d.from).block, g.stmt(d.to).block);
                // Parameters use values from predecessors: the def dominates a predecessor.
                let ok = info.dom.dominates(a, c)
                    || info.cfg.preds[c.index()]
                        .iter()
                        .any(|&p| info.dom.dominates(a, p));
                assert!(ok, "{name}: {d:?} def does not dominate use");
            }
        }
        let loops = g.stmts.iter().filter(|s| s.in_loop).count();
        // Only the Trojan detector scans the payload in a loop.
        assert_eq!(
            loops > 0,
            name == "trojan",
            "{name}: {loops} statements in loops"
        );
    }
}

/// Gallium §4.1: "for programs with loops, S can happen after itself".
#[test]
fn loops_are_detected_and_post_dominators_handle_them() {
    let text = "nf loop

fn process {
block0:
    v0:i8 = const 0
    br block1(v0)

block1(v1:i8):
    v2:i8 = const 1
    v3:i8 = add v1, v2
    v4:i8 = const 5
    v5:i1 = icmp ult v3, v4
    brif v5, block1(v3), block2

block2:
    hdr.write ipv4.ttl, v3
    drop
    return
}
";
    let m = parse_module(text).unwrap();
    tandem_ir::verify_module(&m).unwrap();
    let info = compute_deps(&m);
    assert!(info.cfg.in_cycle(b(1)));
    assert!(!info.cfg.in_cycle(b(2)));
    assert_eq!(info.pdom.ipdom(b(1)), Some(b(2)));
    assert_eq!(info.control.of(b(1)), &[b(1)]);
    let add = info.graph.def_stmt(tandem_ir::Value::from_u32(3)).unwrap();
    assert!(info.graph.stmt(add).in_loop);
    assert!(
        info.graph.reachable_from(add)[add.index()],
        "dependency cycle through the phi"
    );
}
