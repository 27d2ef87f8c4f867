//! Pipeline folding for TNA (`tandem_p4::fold`, `lower::fold`): on a folded profile the
//! generated program has two Pipelines whose gresses hold the tables in lookup order, each
//! gress within the unfolded profile's stages, and each boundary bridges the metadata live
//! across it. Each property has a negative control (a placement with two tables swapped, a
//! program with one bridged field dropped) that the check catches.

use std::path::PathBuf;

use tandem_p4::fold::{applied_tables, FoldInfo, GRESSES};
use tandem_p4::{generate, Arch, P4Options, P4Output};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};
use tandem_switch::{CompileOptions, PortSet, Switch};

fn module(nf: &str) -> tandem_ir::Module {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../tandem-lift/tests/golden/{nf}.nfir"));
    tandem_ir::parse_module(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The program of `nf` planned on `profile`, for `arch`.
fn program(nf: &str, profile: &TargetProfile, arch: Arch) -> P4Output {
    let module = module(nf);
    let plan = partition_module(&module, profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    let m = plan.module().unwrap();
    generate(
        &plan,
        &m,
        &P4Options {
            arch,
            ..P4Options::default()
        },
    )
    .unwrap()
}

fn folded(name: &str) -> TargetProfile {
    TargetProfile::builtin(name).unwrap().folded().unwrap()
}

/// Tables of a (one-pipe) program in apply order.
fn unfolded_order(out: &P4Output) -> Vec<String> {
    out.program
        .items
        .iter()
        .filter_map(|d| match &d.kind {
            tandem_p4_syntax::DeclKind::Control { name, apply, .. }
                if name == tandem_p4::INGRESS =>
            {
                Some(applied_tables(&apply.stmts))
            }
            _ => None,
        })
        .flatten()
        .collect()
}

/// The folded placement keeps lookup order: the gresses' applies, in the packet's order,
/// are the one-pipe program's applies.
fn keeps_lookup_order(unfolded: &[String], info: &FoldInfo) -> Result<(), String> {
    let folded: Vec<String> = info.applies.iter().flat_map(|(_, t)| t.clone()).collect();
    if folded == unfolded {
        Ok(())
    } else {
        Err(format!(
            "folded order {folded:?} != lookup order {unfolded:?}"
        ))
    }
}

/// Each table is applied in the control the fold says holds it, and its manifest name
/// names that control.
fn tables_where_placed(out: &P4Output, info: &FoldInfo) -> Result<(), String> {
    for (control, tables) in &info.applies {
        for t in tables {
            let at = info.objects.get(t).ok_or(format!("{t}: no gress"))?;
            if at != control {
                return Err(format!("{t} applied in {control}, placed in {at}"));
            }
            let q = format!("{control}.{t}");
            if !out.manifest.tables.iter().any(|m| m.name == q) {
                return Err(format!("manifest has no {q}"));
            }
        }
    }
    Ok(())
}

#[test]
fn xgw_folded_on_tofino1_has_two_pipelines_in_lookup_order() {
    let p = folded("tofino1");
    let out = program("xgw", &p, Arch::Tna);
    let one = program("xgw", &p, Arch::V1Model);
    let text = tandem_p4_syntax::print_program(&out.program);
    assert!(text.contains("Switch(pipe0, pipe1) main;"), "{text}");
    assert_eq!(text.matches("Pipeline(").count(), 2);
    for (c, _, _) in GRESSES {
        assert!(text.contains(&format!("control {c}(")), "{c}");
    }
    assert!(text.contains("const bit<9> TANDEM_FOLD_PORT = 9w128;"));
    assert_eq!(out.manifest.fold_port, Some(128));
    let (cut, info) = out.fold.clone().expect("folded");
    // Each gress within tofino1's 12 stages; the plan's 20-stage pre chain needs two.
    assert_eq!(cut.budget, 12);
    assert!(!cut.overflow, "{cut:?}");
    assert!(cut.stages.iter().all(|&s| s <= 12), "{cut:?}");
    assert!(
        info.applies[1].1.len() > 1,
        "egress 1 holds tables: {info:?}"
    );
    // The v1model program of the same plan is one pipe (a note says so).
    assert!(one.fold.is_none());
    assert!(one.notes.iter().any(|n| n.contains("not emitted: v1model")));
    let order = unfolded_order(&one);
    assert!(order.len() >= 10, "{order:?}");
    keeps_lookup_order(&order, &info).unwrap();
    tables_where_placed(&out, &info).unwrap();
    bridges_are_live_fields(&out, &info);
    // The folded program loads on Tandem's switch (generate checked it); negative control:
    // without the bridged header of egress 1 -> ingress 1 in `headers_t` it does not.
    tandem_p4::self_check_folded(&text, 128).unwrap();
    let broken = text.replacen("    tandem_bridged1_h bridged1;\n", "", 1);
    assert_ne!(broken, text);
    assert!(matches!(
        tandem_p4::self_check_folded(&broken, 128),
        Err(tandem_p4::P4Error::SelfCheck { .. })
    ));
    // Negative control: two tables of different gresses swapped.
    let mut swapped = info.clone();
    let a = swapped.applies[0].1.pop().unwrap();
    let b = swapped.applies[1].1.remove(0);
    swapped.applies[0].1.push(b);
    swapped.applies[1].1.insert(0, a);
    assert!(keeps_lookup_order(&order, &swapped).is_err());
    assert!(tables_where_placed(&out, &swapped).is_err());
}

/// The bridged bytes are the live fields' (the manifest says the same), and the fields
/// that must cross do.
fn bridges_are_live_fields(out: &P4Output, info: &FoldInfo) {
    assert_eq!(out.manifest.fold_bridges, info.bridges);
    for b in &info.bridges {
        let bits: u32 = 1 + b.fields.iter().map(|(_, w)| w).sum::<u32>();
        assert_eq!(b.bytes, bits.div_ceil(8), "{b:?}");
    }
    let names = |k: usize| -> Vec<&str> {
        info.bridges[k]
            .fields
            .iter()
            .map(|(f, _)| f.as_str())
            .collect()
    };
    // The fate is decided before the cut and applied in ingress 1; the write-back tables
    // in egress 1 read the visibility flag ingress 0 read.
    assert!(names(0).contains(&"fate"), "{:?}", names(0));
    assert!(names(0).contains(&"visible"), "{:?}", names(0));
    // Nothing runs in egress 0: only the transfer-header bit crosses into it.
    assert!(names(2).is_empty(), "{:?}", names(2));
}

/// IPv4 TCP and UDP frames with varied addresses and ports, plus a few non-IPv4 frames.
fn frames() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for i in 0..48u8 {
        let mut f = vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x08, 0x00];
        let proto = if i % 2 == 0 { 6 } else { 17 };
        f.extend_from_slice(&[0x45, 0, 0, 40, 0, 0, 0, 0, 64, proto, 0, 0]);
        f.extend_from_slice(&[10, 0, i % 4, 1 + i % 9, 10, 1, i % 3, 2]);
        f.extend_from_slice(&[i % 5, 80, 0x1f, 0x90 + i % 3, 0, 20, 0, 0, 0, 1]);
        f.extend_from_slice(&[0, 0, 0x50, 2, 0, 0, 0, 0, 0, 0]);
        out.push(f);
    }
    for t in [0x86ddu16, 0x0806] {
        let mut f = vec![0u8; 60];
        f[12..14].copy_from_slice(&t.to_be_bytes());
        out.push(f);
    }
    out
}

/// (port, frame) of each frame through `sw` from port 1, `None` when dropped.
fn run(sw: &Switch) -> Vec<Option<(u32, Vec<u8>)>> {
    let mut w = sw.worker();
    frames()
        .iter()
        .map(|f| w.process(1, f).map(|(p, o)| (p, o.to_vec())))
        .collect()
}

fn load(p: &tandem_p4_syntax::Program, loopback: &[u16]) -> Switch {
    let opts = CompileOptions {
        loopback: PortSet::of(loopback),
        ..CompileOptions::default()
    };
    Switch::from_program_with(p, opts).unwrap_or_else(|e| panic!("{e}"))
}

/// A folded tofino1 with `stages` a gress, so that small NFs are cut too.
fn small_folded(stages: u32) -> TargetProfile {
    let mut p = TargetProfile::builtin("tofino1").unwrap();
    p.stages = Some(stages);
    p.folded().unwrap()
}

/// The folded program behaves as the one-pipe TNA program of the same plan on the switch
/// (no table entries: every lookup misses); dropping a bridged field makes some frame come
/// out different.
#[test]
fn folded_programs_run_like_one_pipe_and_a_dropped_bridged_field_is_caught() {
    for (nf, stages) in [("firewall", 3), ("trojan", 3)] {
        let p = small_folded(stages);
        let module = module(nf);
        let plan = partition_module(&module, &p, &PartitionOptions::default())
            .unwrap()
            .plan;
        let gen = |plan: &tandem_partition::Plan| {
            let m = plan.module().unwrap();
            let opts = P4Options {
                arch: Arch::Tna,
                ..P4Options::default()
            };
            generate(plan, &m, &opts).unwrap()
        };
        let out = gen(&plan);
        let (cut, info) = out.fold.clone().expect("folded");
        // The same plan as one pipe (a plan not for a folded profile is not folded).
        let mut one_plan = plan.clone();
        one_plan.target = "tofino1".into();
        let one = gen(&one_plan);
        assert!(one.fold.is_none());
        let want = run(&load(&one.program, &[]));
        assert!(
            want.iter().filter(|o| o.is_some()).count() > 10,
            "{nf}: frames leave"
        );
        assert_eq!(
            run(&load(&out.program, &[128])),
            want,
            "{nf}: folded == one pipe"
        );
        // Pieces went to egress 1 (the cut is real).
        assert!(cut.stages[1] > 0, "{nf}: {cut:?}");
        // Negative control: without the loopback port, frames leave on the fold port.
        assert_ne!(
            run(&load(&out.program, &[])),
            want,
            "{nf}: loopback matters"
        );
        // Negative control: each bridged field of the first boundary dropped in turn (its
        // copy at ingress 0's end removed): some frame of this trace must change.
        let text = tandem_p4_syntax::print_program(&out.program);
        let mut caught = Vec::new();
        for (f, _) in &info.bridges[0].fields {
            let line = format!("hdr.bridged0.{f} = meta.{f};");
            assert!(text.contains(&line), "{line}");
            let broken = tandem_p4_syntax::parse_program(&text.replacen(&line, "", 1)).unwrap();
            if run(&load(&broken, &[128])) != want {
                caught.push(f.clone());
            }
        }
        eprintln!(
            "{nf}: {} of {} bridged fields change some frame when dropped: {caught:?}",
            caught.len(),
            info.bridges[0].fields.len()
        );
        assert!(!caught.is_empty(), "{nf}: no dropped field was caught");
    }
}
