//! The native engine against the interpreter (the reference): every test program, the
//! bench fixtures, every v1model program the P4 back end generates for the example NFs
//! (`tandem-p4/tests/golden/*.v1model.p4`) with random entries installed in batches between
//! packets, and random programs (proptest over the generator of `common`), optimised and
//! not. Outputs, ports, drops and registers must be equal. The negative control compiles
//! with a deliberately wrong code-generation rule (`+` as `-`) and must be caught.

mod common;

use common::{compare, random_entries, random_program, variants};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tandem_switch::{
    bench, BlockStatus, CompileOptions, ControlOp, Engine, KeyMatch, MatchKind, Switch, TableEntry,
};

fn opts(engine: Engine, optimize: bool) -> CompileOptions {
    CompileOptions {
        loopback: tandem_switch::PortSet::NONE,
        optimize,
        engine,
        native_fault: 0,
    }
}

/// The interpreter and the native engine on `src`.
fn pair_with(src: &str, optimize: bool) -> (Switch, Switch) {
    let a = Switch::from_source_with(src, opts(Engine::Interp, optimize)).expect("interp");
    let b = Switch::from_source_with(src, opts(Engine::Native, optimize)).expect("native");
    assert_all_native(&b, src);
    (a, b)
}

/// Every block the code generator was given is native (so the comparison tests code).
fn assert_all_native(sw: &Switch, what: &str) {
    for (name, st) in sw.engine_report() {
        assert!(
            !matches!(st, BlockStatus::Interpreted(_)),
            "{name} {st}\n{what}"
        );
    }
}

fn both(a: &Switch, b: &Switch, ops: &[ControlOp]) {
    let ra = a.apply_batch(ops);
    let rb = b.apply_batch(ops);
    assert_eq!(ra, rb, "batch");
}

#[test]
fn fixtures_and_test_programs() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (_, pkts) = bench::minilb(64).expect("fixture");
    let (a, b) = pair_with(bench::MINILB_P4, true);
    both(&a, &b, &bench::minilb_entries(64));
    compare(&a, &b, &variants(&mut rng, &pkts, 3000), &[], "minilb");

    let (lsw, pkts) = bench::lpm(300, 64).expect("fixture");
    let (a, b) = pair_with(bench::LPM_P4, true);
    for e in lsw.entries("ipv4_lpm").expect("entries") {
        both(
            &a,
            &b,
            &[ControlOp::Insert {
                table: "ipv4_lpm".into(),
                entry: e,
            }],
        );
    }
    compare(&a, &b, &variants(&mut rng, &pkts, 3000), &[], "lpm");

    let src = bench::MINILB_GENERATED_P4;
    let (a, b) = pair_with(src, true);
    let cmds = bench::minilb_generated_entries(256);
    for sw in [&a, &b] {
        let c = tandem_switch::parse_commands(&cmds, sw).expect("entries");
        tandem_switch::apply_commands(sw, &c).expect("apply");
    }
    let pkts = bench::minilb_packets(256);
    compare(
        &a,
        &b,
        &variants(&mut rng, &pkts, 3000),
        &[],
        "minilb generated",
    );
    for sw in [&a, &b] {
        sw.register_write("tandem_visible", 0, 1).expect("flag");
    }
    compare(
        &a,
        &b,
        &variants(&mut rng, &pkts, 3000),
        &[],
        "minilb generated, visible",
    );

    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/programs");
    for p in p4_files(dir, ".p4") {
        let src = std::fs::read_to_string(&p).expect("read");
        for optimize in [true, false] {
            let (a, b) = pair_with(&src, optimize);
            run_with_updates(&a, &b, &mut rng, &p);
        }
    }
}

fn p4_files(dir: &str, suffix: &str) -> Vec<std::path::PathBuf> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    paths.sort();
    paths
}

/// A random entry for a table with keys `keys` and actions `actions`.
fn random_entry(
    rng: &mut ChaCha8Rng,
    keys: &[(String, MatchKind, u32)],
    actions: &[(String, Vec<u32>)],
) -> Option<TableEntry> {
    let (action, widths) = actions.get(rng.gen_range(0..actions.len().max(1)))?;
    let small = |rng: &mut ChaCha8Rng, w: u32| -> u64 {
        let m = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
        [0, 1, 2, rng.gen::<u64>()][rng.gen_range(0..4)] & m
    };
    let mut prio = None;
    let matches = keys
        .iter()
        .map(|(_, kind, w)| match kind {
            MatchKind::Exact => KeyMatch::Exact(small(rng, *w)),
            MatchKind::Lpm => {
                let len = rng.gen_range(0..=*w);
                let v = small(rng, *w);
                let m = if len == 0 {
                    0
                } else {
                    (!0u64 << (w - len)) & if *w >= 64 { u64::MAX } else { (1 << w) - 1 }
                };
                KeyMatch::Lpm(v & m, len)
            }
            MatchKind::Ternary | MatchKind::Optional => {
                prio = Some(rng.gen_range(0..100));
                if rng.gen_range(0..3) == 0 {
                    KeyMatch::Any
                } else {
                    let v = small(rng, *w);
                    KeyMatch::Ternary(v, v | small(rng, *w))
                }
            }
            MatchKind::Range => {
                prio = Some(rng.gen_range(0..100));
                let (x, y) = (small(rng, *w), small(rng, *w));
                KeyMatch::Range(x.min(y), x.max(y))
            }
        })
        .collect();
    Some(TableEntry {
        matches,
        action: action.clone(),
        args: widths.iter().map(|w| small(rng, *w)).collect(),
        priority: prio,
    })
}

/// Packets interleaved with random batches of inserts, deletes and default changes on
/// every table; both switches get the same batches (and must accept or refuse them alike).
fn run_with_updates(a: &Switch, b: &Switch, rng: &mut ChaCha8Rng, what: &std::path::Path) {
    let mut base: Vec<Vec<u8>> = bench::minilb_packets(8);
    for _ in 0..8 {
        let n = rng.gen_range(1..120);
        base.push((0..n).map(|_| rng.gen()).collect());
    }
    let tables = a.tables();
    for round in 0..6 {
        let mut ops = Vec::new();
        for t in &tables {
            for _ in 0..rng.gen_range(0..4) {
                let Some(e) = random_entry(rng, &t.keys, &t.actions) else {
                    continue;
                };
                ops.push(match rng.gen_range(0..6) {
                    0 => ControlOp::Delete {
                        table: t.name.clone(),
                        matches: e.matches,
                        priority: e.priority,
                    },
                    1 => ControlOp::SetDefault {
                        table: t.name.clone(),
                        action: e.action,
                        args: e.args,
                    },
                    _ => ControlOp::Insert {
                        table: t.name.clone(),
                        entry: e,
                    },
                });
            }
        }
        // one op at a time: a refused op (duplicate key, const table) leaves the rest in
        for op in ops {
            both(a, b, std::slice::from_ref(&op));
        }
        for sw in [a, b] {
            let _ = sw.register_write("tandem_visible", 0, round & 1);
        }
        compare(
            a,
            b,
            &variants(rng, &base, 300),
            &[],
            &format!("{} round {round}", what.display()),
        );
    }
}

#[test]
fn generated_example_programs() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tandem-p4/tests/golden");
    let files = p4_files(dir, ".v1model.p4");
    assert!(files.len() >= 5, "{files:?}");
    for p in files {
        let src = std::fs::read_to_string(&p).expect("read");
        let (a, b) = pair_with(&src, true);
        run_with_updates(&a, &b, &mut rng, &p);
    }
}

/// The generated TNA programs (`*.tna.p4`: ingress and egress passes, `crate::tna`) on both
/// engines, with random entries; the native engine compiles each pass's blocks.
#[test]
fn generated_tna_programs() {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tandem-p4/tests/golden");
    let files = p4_files(dir, ".tna.p4");
    assert!(files.len() >= 5, "{files:?}");
    for p in files {
        let src = std::fs::read_to_string(&p).expect("read");
        let (a, b) = pair_with(&src, true);
        assert!(
            b.engine_report()
                .iter()
                .any(|(n, st)| *n == "ingress" && matches!(st, BlockStatus::Native)),
            "{}: no native ingress pass",
            p.display()
        );
        run_with_updates(&a, &b, &mut rng, &p);
    }
}

/// Random program `seed` on both engines; false if they differ (with `fault`, the native
/// side is compiled with that wrong rule).
fn random_same(seed: u64, fault: u8) -> bool {
    let src = random_program(seed);
    let optimize = seed & 1 == 0;
    let a = Switch::from_source_with(&src, opts(Engine::Interp, optimize)).expect("interp");
    let b = Switch::from_source_with(
        &src,
        CompileOptions {
            native_fault: fault,
            ..opts(Engine::Native, optimize)
        },
    )
    .expect("native");
    assert_all_native(&b, &src);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let ops = random_entries(&mut rng);
    a.apply_batch(&ops).expect("entries a");
    b.apply_batch(&ops).expect("entries b");
    let (mut wa, mut wb) = (a.worker(), b.worker());
    for _ in 0..200 {
        let n = [0, 5, 14, 15, 18, 19, 30][rng.gen_range(0..7)];
        let mut p: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
        if n > 3 && rng.gen_range(0..3) == 0 {
            p[0] |= 1;
            if p.len() >= 15 {
                p[13] = 0;
                p[14] = [0u8, 1][rng.gen_range(0..2)];
            }
        }
        let port = rng.gen_range(0..4);
        let ra = wa.process(port, &p).map(|(q, o)| (q, o.to_vec()));
        let rb = wb.process(port, &p).map(|(q, o)| (q, o.to_vec()));
        if ra != rb {
            return false;
        }
    }
    (0..4).all(|i| a.register_read("r", i).ok() == b.register_read("r", i).ok())
}

#[test]
fn negative_control_wrong_rule_is_caught() {
    // the same programs pass without a fault...
    assert!((0..40).all(|s| random_same(s, 0)));
    // ...and each wrong rule (block code: `+` as `-`; table code: action arguments plus
    // one) is caught on some of them
    for fault in [tandem_switch::FAULT_ADD, tandem_switch::FAULT_TABLE_ARGS] {
        let caught = (0..40).filter(|&s| !random_same(s, fault)).count();
        assert!(
            caught > 0,
            "the differential test missed wrong rule {fault}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_programs_same_on_both_engines(seed in any::<u64>()) {
        prop_assert!(random_same(seed, 0), "seed {seed}\n{}", random_program(seed));
    }
}

/// The inline checksum (`native/codegen/csum.rs`: the LPM router's verify and update) is
/// what the comparison tests: with a checksum one off, the router's packets differ from
/// the interpreter's (the verify drops them, or the update writes another sum).
#[test]
fn negative_control_wrong_checksum_is_caught() {
    let (lsw, pkts) = bench::lpm(50, 32).expect("fixture");
    let ops: Vec<ControlOp> = lsw
        .entries("ipv4_lpm")
        .expect("entries")
        .into_iter()
        .map(|entry| ControlOp::Insert {
            table: "ipv4_lpm".into(),
            entry,
        })
        .collect();
    let run = |fault: u8| {
        let a = Switch::from_source_with(bench::LPM_P4, opts(Engine::Interp, true)).expect("a");
        let b = Switch::from_source_with(
            bench::LPM_P4,
            CompileOptions {
                native_fault: fault,
                ..opts(Engine::Native, true)
            },
        )
        .expect("b");
        assert_all_native(&b, "lpm");
        both(&a, &b, &ops);
        let (mut wa, mut wb) = (a.worker(), b.worker());
        pkts.iter()
            .filter(|p| {
                let ra = wa.process(1, p).map(|(q, o)| (q, o.to_vec()));
                let rb = wb.process(1, p).map(|(q, o)| (q, o.to_vec()));
                ra != rb
            })
            .count()
    };
    assert_eq!(run(0), 0, "the right rule agrees");
    assert_eq!(
        run(tandem_switch::FAULT_CSUM),
        pkts.len(),
        "every packet caught"
    );
}
