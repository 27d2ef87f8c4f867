//! Splitting joins (tail duplication): MiniLB becomes the paper's Figure 4 exactly, and the
//! split modules behave like the originals on random packets (the IR interpreter runs both).

mod common;

use tandem_ir::interp::{DumpFormat, Packet};
use tandem_ir::{InstKind, InterpOptions, Interpreter, Module, StateStore};
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

fn packet(seed: &mut u64) -> Packet {
    let mut next = || {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as u32
    };
    let tcp = next() % 3 != 0;
    let l4 = if tcp { 20 } else { 8 };
    let mut p = vec![0u8; 14 + 20 + l4 + 8];
    p[12..14].copy_from_slice(&[0x08, 0x00]);
    p[14] = 0x45;
    let total = (20 + l4 + 8) as u16;
    p[16..18].copy_from_slice(&total.to_be_bytes());
    p[22] = 64;
    p[23] = if tcp { 6 } else { 17 };
    p[24..26].copy_from_slice(&((next() & 0xffff) as u16).to_be_bytes());
    p[26..30].copy_from_slice(&[10, 0, 0, (next() % 4) as u8]);
    p[30..34].copy_from_slice(&[10, 0, 1, (next() % 4) as u8]);
    p[34..36].copy_from_slice(&(1000 + (next() % 3) as u16).to_be_bytes());
    p[36..38].copy_from_slice(&[80u16, 22, 443][(next() % 3) as usize].to_be_bytes());
    if tcp {
        p[46] = 0x50;
        p[47] = [0x02, 0x12, 0x10, 0x11, 0x04][(next() % 5) as usize];
        p[50..52].copy_from_slice(&((next() & 0xffff) as u16).to_be_bytes());
    } else {
        p[38..40].copy_from_slice(&(l4 as u16 + 8).to_be_bytes());
        p[40..42].copy_from_slice(&((next() & 0xffff) as u16).to_be_bytes());
    }
    Packet {
        bytes: p,
        in_port: (next() % 2) as u16,
        timestamp_ns: 0,
    }
}

fn store(m: &Module) -> StateStore {
    let mut s = StateStore::new(m);
    if m.state_by_name("backends").is_some() {
        for i in 0..4u64 {
            s.vec_set(m, "backends", i, &[0x0a00_0200 + i]).unwrap();
        }
        s.scalar_set(m, "backends_size", 4).unwrap();
    }
    for (name, v) in [
        ("out_port", 1),
        ("outside_port", 1),
        ("backend_port", 1),
        ("first_port", 1024),
        ("next_port", 1024),
    ] {
        if m.state_by_name(name).is_some() {
            s.scalar_set(m, name, v).unwrap();
        }
    }
    s
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
            let ra = ia.run(&mut sa, &p);
            let rb = ib.run(&mut sb, &p);
            assert_eq!(ra, rb, "{name}: packet {i} differs");
        }
        assert_eq!(
            sa.dump_json(a, DumpFormat::Canonical).unwrap(),
            sb.dump_json(b, DumpFormat::Canonical).unwrap(),
            "{name}: final state differs"
        );
    }
    assert!(split_any >= 2, "MiniLB and at least one more NF are split");
}
