//! Splitting joins (tail duplication): MiniLB becomes the paper's Figure 4 exactly, and the
//! split modules behave like the originals on random packets (the IR interpreter runs both).

mod common;

use common::{packet, store};
use tandem_ir::interp::DumpFormat;
use tandem_ir::{InstKind, InterpOptions, Interpreter, Module};
use tandem_partition::*;

fn split(name: &str) -> (Module, Partitioned) {
    let m = common::golden(name);
    let p = TargetProfile::builtin("tofino1").unwrap();
    let options = PartitionOptions {
        split_joins: true,
        ..PartitionOptions::default()
    };
    let out = partition_module(&m, &p, &options).unwrap();
    if let Err(e) = verify_plan(&out.module, &out.info, &p, &out.plan) {
        panic!("{name}: {e:#?}");
    }
    (m, out)
}

#[test]
fn minilb_hit_path_rewrite_runs_in_pre() {
    let (m, out) = split("minilb");
    assert_ne!(out.module, m, "the join was split");
    let rewrites: Vec<&PlanStmt> = out
        .plan
        .statements
        .iter()
        .filter(|s| s.text.starts_with("hdr.write ipv4.daddr"))
        .collect();
    let parts: Vec<Partition> = rewrites.iter().map(|s| s.partition).collect();
    assert_eq!(
        parts,
        vec![Partition::Pre, Partition::Post],
        "hit path pre, miss path post"
    );
    // The server still runs exactly the miss path's work, and the header is unchanged.
    let kinds: Vec<&InstKind> = out
        .plan
        .statements
        .iter()
        .filter(|s| s.partition == Partition::Server)
        .filter_map(|s| out.info.graph.stmts[s.id as usize].inst())
        .map(|i| &out.module.process.insts[i].kind)
        .collect();
    assert!(kinds
        .iter()
        .any(|k| matches!(k, InstKind::MapInsert { .. })));
    assert_eq!(out.plan.transfer_header.bytes, 12);
    // Hit packets need nothing from pre in post any more.
    assert!(out.plan.cuts.pre_to_post.iter().all(|c| c.value != "v10"));
    // The plan carries the module it refers to.
    assert_eq!(out.plan.module().unwrap(), out.module);
}

#[test]
fn split_modules_behave_like_the_originals() {
    let mut split_any = 0;
    for name in [
        "minilb",
        "mazunat",
        "l4lb",
        "firewall",
        "proxy",
        "statefilter",
        "cofilter",
    ] {
        let (m, out) = split(name);
        if out.module == m {
            continue;
        }
        split_any += 1;
        let (a, b) = (&m, &out.module);
        let ia = Interpreter::new(a, InterpOptions::default()).unwrap();
        let ib = Interpreter::new(b, InterpOptions::default()).unwrap();
        let (mut sa, mut sb) = (store(a), store(b));
        let mut seed = 7u64;
        for i in 0..300 {
            let mut p = packet(&mut seed);
            p.timestamp_ns = i * 1_000_000;
            // Behaviour, not step counts (a module may also carry derived state classes).
            let ra = ia.run(&mut sa, &p).map(|o| (o.action, o.packet));
            let rb = ib.run(&mut sb, &p).map(|o| (o.action, o.packet));
            assert_eq!(ra, rb, "{name}: packet {i} differs");
        }
        let dump = |m: &tandem_ir::Module, s: &tandem_ir::StateStore| {
            let mut d = s.dump(m, DumpFormat::Canonical).unwrap();
            d.retain(|x| !x.name.ends_with(tandem_partition::CLASS_SUFFIX));
            d
        };
        assert_eq!(dump(a, &sa), dump(b, &sb), "{name}: final state differs");
    }
    assert!(split_any >= 2, "MiniLB and at least one more NF are split");
}
