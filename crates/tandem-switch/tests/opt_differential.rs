//! The optimisation passes change nothing observable: every program runs with
//! `CompileOptions { optimize: false }` and with the default options on the
//! same packets, tables and registers, and must give the same output frames,
//! ports, drops and register contents. Programs: every test program, the
//! generated MiniLB, and random programs (proptest over a generator seed) built
//! from the shapes the P4 back end emits and the passes rewrite: metadata
//! temporaries, self-copies, byte swaps, `c ? 1 : 0` / `^ 1` / `== 0` chains,
//! slices and concatenations, nested `if`s, table applies, `exit`, registers,
//! and metadata read in egress.

mod common;

use common::{compare, random_entries, random_program, variants};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tandem_switch::{bench, parse_commands, CompileOptions, ControlOp, Switch};

const OFF: CompileOptions = CompileOptions {
    optimize: false,
    engine: tandem_switch::Engine::Interp,
    native_fault: 0,
    loopback: tandem_switch::PortSet::NONE,
};

/// Both compilations of `src`.
fn pair(src: &str) -> (Switch, Switch) {
    let a = Switch::from_source_with(src, OFF).expect("load unoptimised");
    let b = Switch::from_source(src).expect("load optimised");
    (a, b)
}

#[test]
fn test_programs_and_fixtures() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // the generated MiniLB with its bench entries, also on the server port
    let (a, pkts) = bench::minilb_generated(256).expect("fixture");
    let src = bench::MINILB_GENERATED_P4;
    let b = Switch::from_source(src).expect("load");
    let a2 = Switch::from_source_with(src, OFF).expect("load");
    let cmds = bench::minilb_generated_entries(256);
    for sw in [&b, &a2] {
        let c = parse_commands(&cmds, sw).expect("entries");
        tandem_switch::apply_commands(sw, &c).expect("apply");
    }
    drop(a);
    // a server reply: transfer header tag 2 after Ethernet
    let mut reply = pkts[0].clone();
    reply[12..14].copy_from_slice(&[0x88, 0xb5]);
    let mut th = vec![2u8, 0x08, 0x00, 0x0a, 0x01, 0x00, 0x07, 0x80, 0, 0, 0, 0];
    th.truncate(12);
    reply.splice(14..14, th);
    let mut base = pkts.clone();
    base.push(reply);
    let ps = variants(&mut rng, &base, 4000);
    compare(&a2, &b, &ps, &[], "minilb generated");
    // the same with the visibility flag set and a write-back entry
    for sw in [&b, &a2] {
        sw.register_write("tandem_visible", 0, 1).expect("flag");
        let c = parse_commands("table_add map_wb map_wb_deleted 5 =>\n", sw).expect("wb");
        tandem_switch::apply_commands(sw, &c).expect("apply");
    }
    compare(&a2, &b, &ps, &[], "minilb generated, visible");

    // the hand-written programs with their bench fixtures
    let (_, pkts) = bench::minilb(64).expect("fixture");
    let (a, b) = pair(bench::MINILB_P4);
    let ops = minilb_ops(64);
    a.apply_batch(&ops).expect("a");
    b.apply_batch(&ops).expect("b");
    compare(&a, &b, &variants(&mut rng, &pkts, 3000), &[], "minilb");
    let (lsw, pkts) = bench::lpm(200, 64).expect("fixture");
    let (a, b) = pair(bench::LPM_P4);
    let entries = lsw.entries("ipv4_lpm").expect("entries");
    for e in entries {
        a.insert("ipv4_lpm", e.clone()).expect("a");
        b.insert("ipv4_lpm", e).expect("b");
    }
    compare(&a, &b, &variants(&mut rng, &pkts, 3000), &[], "lpm");

    // every test program, empty tables, random and mutated frames
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/programs");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "p4"))
        .collect();
    paths.sort();
    for p in paths {
        let src = std::fs::read_to_string(&p).expect("read");
        let (a, b) = pair(&src);
        let mut base: Vec<Vec<u8>> = bench::minilb_packets(8);
        for _ in 0..8 {
            let n = rng.gen_range(0..120);
            base.push((0..n).map(|_| rng.gen()).collect());
        }
        base.retain(|p| !p.is_empty());
        compare(
            &a,
            &b,
            &variants(&mut rng, &base, 2000),
            &[],
            &p.display().to_string(),
        );
    }
}

fn minilb_ops(n: usize) -> Vec<ControlOp> {
    bench::minilb_entries(n)
}

fn check_random(seed: u64) {
    let src = random_program(seed);
    let a = match Switch::from_source_with(&src, OFF) {
        Ok(s) => s,
        Err(e) => panic!("generated program does not load: {e}\n{src}"),
    };
    let b = Switch::from_source(&src).expect("optimised load");
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let ops = random_entries(&mut rng);
    a.apply_batch(&ops).expect("entries a");
    b.apply_batch(&ops).expect("entries b");
    let mut pkts = Vec::new();
    for _ in 0..200 {
        let n = [0, 5, 14, 15, 18, 19, 30][rng.gen_range(0..7)];
        let mut p: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
        if n > 3 && rng.gen_range(0..3) == 0 {
            // hit the table: the key is hdr.g.y (bytes 13..15)
            if let Some(x) = p.get_mut(0) {
                *x |= 1;
            }
            let k = [0u8, 1][rng.gen_range(0..2)];
            if p.len() >= 15 {
                p[13] = 0;
                p[14] = k;
            }
        }
        pkts.push((rng.gen_range(0..4), p));
    }
    let what = format!("seed {seed}\n{src}");
    compare(&a, &b, &pkts, &[("r", 4)], &what);
}

#[test]
fn random_programs_load() {
    // the generator writes programs the checker accepts
    for seed in 0..50 {
        let src = random_program(seed);
        if let Err(e) = Switch::from_source_with(&src, OFF) {
            panic!("seed {seed}: {e}\n{src}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn random_programs_same_with_and_without_optimisation(seed in any::<u64>()) {
        check_random(seed);
    }
}
