//! No input makes the switch panic: random and mutated packets through every
//! test program, random bytes and token soup through program loading, and random
//! control operations. (Stand-in for `cargo fuzz`, which needs nightly; the
//! `fuzz/` targets run the same properties under libFuzzer when available.)

use proptest::prelude::*;
use tandem_switch::{bench, parse_commands, ControlOp, KeyMatch, Switch, TableEntry};

/// Every test program, loaded once (loading compiles native code; the properties run
/// thousands of cases against the same programs).
fn programs() -> &'static [Switch] {
    static P: std::sync::OnceLock<Vec<Switch>> = std::sync::OnceLock::new();
    P.get_or_init(load_programs)
}

fn load_programs() -> Vec<Switch> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/programs");
    let mut v = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "p4"))
        .collect();
    paths.sort();
    for p in paths {
        let src = std::fs::read_to_string(&p).expect("read");
        v.push(Switch::from_source(&src).expect("load"));
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_packets(data in proptest::collection::vec(any::<u8>(), 0..200), port in 0u32..600) {
        for sw in programs().iter().take(8) {
            let mut w = sw.worker();
            let _ = w.process(port, &data);
        }
    }

    #[test]
    fn mutated_valid_packets(pos in 0usize..64, byte in any::<u8>(), cut in 0usize..70) {
        let (sw, pkts) = bench::minilb(8).expect("fixture");
        let mut w = sw.worker();
        for p in &pkts {
            let mut q = p.clone();
            q[pos] = byte;
            q.truncate(cut);
            let _ = w.process(1, &q);
        }
        let (sw, pkts) = bench::lpm(16, 8).expect("fixture");
        let mut w = sw.worker();
        for p in &pkts {
            let mut q = p.clone();
            q[pos] = byte;
            q.truncate(cut);
            let _ = w.process(1, &q);
        }
    }

    #[test]
    fn random_sources_never_panic(s in "\\PC{0,300}") {
        let _ = Switch::from_source(&s);
    }

    #[test]
    fn mutated_programs_never_panic(pos in 0usize..5000, len in 0usize..30, junk in "[a-z0-9_<>(){};=.+*&|!:\\[\\] ]{0,12}") {
        let src = bench::MINILB_P4;
        let mut b: Vec<char> = src.chars().collect();
        let p = pos.min(b.len());
        let e = (p + len).min(b.len());
        b.splice(p..e, junk.chars());
        let s: String = b.into_iter().collect();
        if let Ok(sw) = Switch::from_source(&s) {
            let mut w = sw.worker();
            for pkt in bench::minilb(2).expect("fixture").1 {
                let _ = w.process(1, &pkt);
            }
        }
    }

    /// The same on a generated TNA program (passes, intrinsic metadata, TNA externs), with
    /// the fold port 128 as a loopback port.
    #[test]
    fn mutated_tna_programs_never_panic(pos in 0usize..12000, len in 0usize..30, junk in "[a-z0-9_<>(){};=.+*&|!:\\[\\] ]{0,12}") {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tandem-p4/tests/golden/minilb.tna.p4"
        ))
        .expect("golden");
        let mut b: Vec<char> = src.chars().collect();
        let p = pos.min(b.len());
        let e = (p + len).min(b.len());
        b.splice(p..e, junk.chars());
        let s: String = b.into_iter().collect();
        let opts = tandem_switch::CompileOptions {
            loopback: tandem_switch::PortSet::of(&[128]),
            ..tandem_switch::CompileOptions::default()
        };
        if let Ok(sw) = Switch::from_source_with(&s, opts) {
            let mut w = sw.worker();
            for pkt in bench::minilb(2).expect("fixture").1 {
                for port in [1, 64, 128, 300] {
                    let _ = w.process(port, &pkt);
                }
            }
        }
    }

    #[test]
    fn random_entries_text_never_panics(s in "(table_add|table_delete|table_set_default|register_write|x) (conn|ipv4_lpm|a) [a-z_]{0,12} [0-9./:&>*-]{0,20} (=>)? [0-9a-fx:.]{0,20}") {
        for sw in programs().iter().take(4) {
            if let Ok(cmds) = parse_commands(&s, sw) {
                let _ = tandem_switch::apply_commands(sw, &cmds);
            }
        }
    }

    #[test]
    fn random_control_ops(vals in proptest::collection::vec((any::<u64>(), 0u32..40, any::<u8>()), 1..20)) {
        let sw = Switch::from_source(bench::LPM_P4).expect("load");
        let ops: Vec<ControlOp> = vals.iter().map(|(v, l, k)| match k % 3 {
            0 => ControlOp::Insert { table: "ipv4_lpm".into(), entry: TableEntry {
                matches: vec![KeyMatch::Lpm(*v, *l)], action: "ipv4_forward".into(),
                args: vec![*v & 0xffff, (*v >> 60) & 0x1ff], priority: None } },
            1 => ControlOp::Delete { table: "ipv4_lpm".into(), matches: vec![KeyMatch::Lpm(*v, *l)], priority: None },
            _ => ControlOp::SetDefault { table: "ipv4_lpm".into(), action: "drop".into(), args: vec![] },
        }).collect();
        let _ = sw.apply_batch(&ops);
        for op in &ops {
            let _ = sw.apply_batch(std::slice::from_ref(op));
        }
        let mut w = sw.worker();
        for p in bench::lpm(4, 4).expect("fixture").1 {
            let _ = w.process(1, &p);
        }
    }
}
