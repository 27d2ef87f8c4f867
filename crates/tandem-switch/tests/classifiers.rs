//! Differential tests of the specialised classifiers against a brute-force
//! reference: random entries (so the table moves through linear, hash, trie and
//! tuple-space forms) and random packets; the action run must be the one the
//! P4 rules pick (highest priority; longest prefix for pure LPM).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tandem_switch::{bench::frame64, ClassifierKind, ControlOp, KeyMatch, Switch, TableEntry};

fn out_byte(sw: &Switch, src: u32, dst: u32, proto: u8, at: usize) -> Option<u8> {
    let mut w = sw.worker();
    w.process(0, &frame64(src, dst, proto, 1, 2))
        .map(|(_, o)| o[at])
}

#[test]
fn tuple_space_matches_brute_force() {
    let sw = Switch::from_source(include_str!("programs/mixed.p4")).expect("load");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // (src value, src mask, proto, dst prefix, dst len, priority, arg)
    let mut rules: Vec<(u32, u32, u8, u32, u32, i64, u8)> = Vec::new();
    let masks = [
        0u32,
        0xff00_0000,
        0xffff_0000,
        0xffff_ff00,
        0xffff_ffff,
        0x0f0f_0000,
    ];
    for round in 0..6 {
        let mut ops = Vec::new();
        for _ in 0..(if round == 0 { 3 } else { 40 }) {
            let m = masks[rng.gen_range(0..masks.len())];
            let v = rng.gen::<u32>() & 0x0a0b_ffff & m;
            let proto = [6u8, 17][rng.gen_range(0..2)];
            let len = rng.gen_range(0..=32u32);
            let p = rng.gen::<u32>() & 0x0a0b_ffff & if len == 0 { 0 } else { !0u32 << (32 - len) };
            let prio = rng.gen_range(1..1000i64);
            if rules
                .iter()
                .any(|r| (r.0, r.1, r.2, r.3, r.4, r.5) == (v, m, proto, p, len, prio))
            {
                continue;
            }
            let arg = rng.gen_range(1..=255u8);
            rules.push((v, m, proto, p, len, prio, arg));
            ops.push(ControlOp::Insert {
                table: "t".into(),
                entry: TableEntry {
                    matches: vec![
                        KeyMatch::Ternary(v as u64, m as u64),
                        KeyMatch::Exact(proto as u64),
                        KeyMatch::Lpm(p as u64, len),
                    ],
                    action: "set_b".into(),
                    args: vec![arg as u64],
                    priority: Some(prio),
                },
            });
        }
        sw.apply_batch(&ops).expect("batch");
        let kind = sw.classifier("t").expect("t");
        if round == 0 {
            assert_eq!(kind, ClassifierKind::Linear);
        } else {
            assert_eq!(kind, ClassifierKind::TupleSpace);
        }
        for _ in 0..500 {
            let src = rng.gen::<u32>() & 0x0a0b_ffff;
            let dst = rng.gen::<u32>() & 0x0a0b_ffff;
            let proto = [6u8, 17][rng.gen_range(0..2)];
            let mut best: Option<(i64, u8)> = None;
            for r in &rules {
                let dm = if r.4 == 0 { 0 } else { !0u32 << (32 - r.4) };
                if src & r.1 == r.0 && proto == r.2 && dst & dm == r.3 {
                    // ties: the earlier-inserted entry wins
                    if best.is_none_or(|b| r.5 > b.0) {
                        best = Some((r.5, r.6));
                    }
                }
            }
            let want = best.map(|b| b.1).unwrap_or(0);
            assert_eq!(
                out_byte(&sw, src, dst, proto, 15),
                Some(want),
                "src {src:#x} dst {dst:#x} proto {proto}"
            );
        }
    }
}

#[test]
fn lpm_trie_matches_brute_force() {
    let sw = Switch::from_source(include_str!("programs/twotables.p4")).expect("load");
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut routes: Vec<(u32, u32, u8)> = Vec::new();
    for round in 0..5 {
        let mut ops = Vec::new();
        let n = if round == 0 { 2 } else { 300 };
        for _ in 0..n {
            let len = rng.gen_range(0..=32u32);
            let p = rng.gen::<u32>() & 0x0a0b_ffff & if len == 0 { 0 } else { !0u32 << (32 - len) };
            if routes.iter().any(|r| r.0 == p && r.1 == len) {
                continue;
            }
            let arg = rng.gen_range(1..=255u8);
            routes.push((p, len, arg));
            ops.push(ControlOp::Insert {
                table: "b".into(),
                entry: TableEntry {
                    matches: vec![KeyMatch::Lpm(p as u64, len)],
                    action: "set_b".into(),
                    args: vec![arg as u64],
                    priority: None,
                },
            });
        }
        // and delete a few
        if round > 1 {
            for _ in 0..20 {
                let i = rng.gen_range(0..routes.len());
                let (p, len, _) = routes.remove(i);
                ops.push(ControlOp::Delete {
                    table: "b".into(),
                    matches: vec![KeyMatch::Lpm(p as u64, len)],
                    priority: None,
                });
            }
        }
        sw.apply_batch(&ops).expect("batch");
        let want_kind = if routes.len() <= tandem_switch::LINEAR_MAX {
            ClassifierKind::Linear
        } else {
            ClassifierKind::Lpm
        };
        assert_eq!(sw.classifier("b").expect("b"), want_kind);
        for _ in 0..1000 {
            let src = rng.gen::<u32>() & 0x0a0b_ffff;
            let best = routes
                .iter()
                .filter(|r| r.1 == 0 || src & (!0u32 << (32 - r.1)) == r.0)
                .max_by_key(|r| r.1)
                .map(|r| r.2)
                .unwrap_or(0);
            assert_eq!(
                out_byte(&sw, src, 0x0a00_0002, 17, 15),
                Some(best),
                "src {src:#x}"
            );
        }
    }
}

#[test]
fn control_errors() {
    use tandem_switch::ControlError as E;
    let sw = Switch::from_source(include_str!("programs/twotables.p4")).expect("load");
    let e = |action: &str, args: Vec<u64>, m: KeyMatch| TableEntry {
        matches: vec![m],
        action: action.into(),
        args,
        priority: None,
    };
    assert!(matches!(
        sw.insert("nope", e("set_a", vec![1], KeyMatch::Exact(1))),
        Err(E::UnknownTable(_))
    ));
    assert!(matches!(
        sw.insert("a", e("set_b", vec![1], KeyMatch::Exact(1))),
        Err(E::UnknownAction { .. })
    ));
    assert!(matches!(
        sw.insert("a", e("set_a", vec![], KeyMatch::Exact(1))),
        Err(E::ArgCount { .. })
    ));
    assert!(matches!(
        sw.insert("a", e("set_a", vec![256], KeyMatch::Exact(1))),
        Err(E::TooWide { .. })
    ));
    assert!(matches!(
        sw.insert("a", e("set_a", vec![1], KeyMatch::Exact(1 << 32))),
        Err(E::TooWide { .. })
    ));
    assert!(matches!(
        sw.insert("a", e("set_a", vec![1], KeyMatch::Lpm(1, 8))),
        Err(E::BadKey { .. })
    ));
    assert!(matches!(
        sw.insert("b", e("set_b", vec![1], KeyMatch::Lpm(1, 33))),
        Err(E::BadKey { .. })
    ));
    sw.insert("a", e("set_a", vec![1], KeyMatch::Exact(1)))
        .expect("insert");
    assert!(matches!(
        sw.insert("a", e("set_a", vec![2], KeyMatch::Exact(1))),
        Err(E::Duplicate(_))
    ));
    assert!(matches!(
        sw.delete("a", vec![KeyMatch::Exact(2)], None),
        Err(E::NotFound(_))
    ));
    assert!(matches!(
        sw.register_read("nope", 0),
        Err(E::UnknownRegister(_))
    ));
    assert_eq!(sw.entries("a").expect("a").len(), 1);
    sw.set_default("a", "set_a", vec![9]).expect("default");
    let mut w = sw.worker();
    let (_, o) = w.process(0, &frame64(1, 5, 17, 1, 2)).expect("fwd");
    assert_eq!(o[22], 9, "default action with argument");
}
