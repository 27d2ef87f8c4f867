//! `specialize_state_classes`: the rewritten NF behaves exactly as the original (outputs and
//! final state, class maps aside) on the interpreter, and the partitioner keeps it where it
//! lets more packets stay on the switch.

mod common;

use tandem_analysis::{derive_state_classes, ClassOptions};
use tandem_ir::{DumpFormat, Interpreter, Module};
use tandem_partition::{specialize_state_classes, CLASS_SUFFIX};

fn specialize(m: &Module, map: &str) -> Module {
    let s = m.state_by_name(map).unwrap();
    let d = derive_state_classes(m, s, &ClassOptions::default()).expect("classes");
    specialize_state_classes(m, &d).expect("specialised")
}

/// Runs both modules on the same packets; outputs and final states must be equal.
fn differential(orig: &Module, spec: &Module, packets: u64) {
    let io = Interpreter::new(orig, Default::default()).unwrap();
    let is = Interpreter::new(spec, Default::default()).unwrap();
    let (mut so, mut ss) = (common::store(orig), common::store(spec));
    let mut seed = 7;
    for i in 0..packets {
        let mut p = common::packet(&mut seed);
        p.timestamp_ns = i * 1_000_000;
        let a = io.run(&mut so, &p).unwrap();
        let b = is.run(&mut ss, &p).unwrap();
        assert_eq!(
            (a.action, &a.packet),
            (b.action, &b.packet),
            "packet {i}: outputs differ"
        );
    }
    let strip = |m: &Module, s: &tandem_ir::StateStore| {
        let mut d = s.dump(m, DumpFormat::Canonical).unwrap();
        d.retain(|x| !x.name.ends_with(CLASS_SUFFIX));
        d
    };
    assert_eq!(strip(orig, &so), strip(spec, &ss), "final states differ");
}

#[test]
fn statefilter_specialised_equals_the_original() {
    let m = common::golden("statefilter");
    let spec = specialize(&m, "conns");
    differential(&m, &spec, 20_000);
}

/// The door-lock state machine of `tandem-analysis/tests/classes.rs` (not connection-shaped).
fn door() -> Module {
    let text =
        include_str!("../../tandem-analysis/tests/classes/door.nfir.in").replace("HELD\n", "");
    tandem_ir::parse_module(&text).unwrap()
}

#[test]
fn door_specialised_equals_the_original() {
    let m = door();
    let spec = specialize(&m, "locks");
    assert!(spec.state_by_name("locks__class").is_some());
    differential(&m, &spec, 20_000);
}

#[test]
fn specialising_without_a_lookup_key_is_an_error() {
    // Negative control for the rewrite: a map no packet looks up has no key to dispatch on.
    let text = tandem_ir::print_module(&door()).replace(
        "v1:i1, v2:i8, v3:i8 = map.find locks(v0)",
        "v1:i1 = const 0\n    v2:i8 = const 2\n    v3:i8 = const 0",
    );
    let m = tandem_ir::parse_module(&text).unwrap();
    let s = m.state_by_name("locks").unwrap();
    let d = derive_state_classes(&m, s, &ClassOptions::default()).unwrap();
    assert_eq!(
        specialize_state_classes(&m, &d).unwrap_err(),
        tandem_partition::SpecializeError::NoLookup
    );
}

#[test]
fn statefilter_classes_move_the_fast_path_onto_tofino() {
    let m = common::golden("statefilter");
    let profile = tandem_partition::TargetProfile::builtin("tofino1").unwrap();
    let off = tandem_partition::PartitionOptions {
        state_classes: false,
        ..Default::default()
    };
    let before = tandem_partition::partition_module(&m, &profile, &off).unwrap();
    let spec = specialize(&m, "conns");
    let info = tandem_analysis::compute_deps(&spec);
    let p = tandem_partition::partition(&spec, &info, &profile).unwrap();
    println!("before {:?}\nafter {:?}", before.plan.summary, p.summary);
    assert!(p.summary.fast_path > 4 * before.plan.summary.fast_path);
    // partition_module picks the rewrite by itself.
    let auto = tandem_partition::partition_module(&m, &profile, &Default::default()).unwrap();
    assert!(auto.module.state_by_name("conns__class").is_some());
    if let Ok(path) = std::env::var("TANDEM_SPECIALIZE_REPORT") {
        std::fs::write(
            path,
            tandem_partition::report(&auto.module, &auto.info, &auto.plan),
        )
        .unwrap();
    }
}

#[test]
fn every_golden_nf_specialised_equals_the_original() {
    for nf in common::NFS {
        let m = common::golden(nf);
        for map in tandem_analysis::classes::looked_up_maps(&m) {
            let Ok(d) = derive_state_classes(&m, map, &ClassOptions::default()) else {
                continue;
            };
            let Ok(spec) = specialize_state_classes(&m, &d) else {
                continue;
            };
            println!("{nf}: {}", m.states[map].name);
            differential(&m, &spec, 5_000);
        }
    }
}

/// Negative control: the differential notices a dispatcher that runs the wrong class's
/// behaviour (the dispatcher's class switch with two targets swapped).
#[test]
#[should_panic(expected = "outputs differ")]
fn a_wrong_dispatch_is_caught() {
    let m = door();
    let mut spec = specialize(&m, "locks");
    let class_map = spec.state_by_name("locks__class").unwrap();
    let f = &mut spec.process;
    let class = f
        .insts
        .iter()
        .find_map(|(_, d)| match &d.kind {
            tandem_ir::InstKind::MapFind { state, .. } if *state == class_map => Some(d.results[1]),
            _ => None,
        })
        .expect("the class lookup");
    let sw = f
        .insts
        .iter()
        .find_map(|(i, d)| match &d.kind {
            tandem_ir::InstKind::Switch { arg, .. } if *arg == class => Some(i),
            _ => None,
        })
        .expect("the class switch");
    if let tandem_ir::InstKind::Switch { cases, .. } = &mut f.insts[sw].kind {
        let b1 = cases[1].1.clone();
        cases[1].1 = cases[2].1.clone();
        cases[2].1 = b1;
    }
    differential(&m, &spec, 5_000);
}
