//! Memory of a folded program's gresses (`tandem_p4::fold_mem`): each gress's SRAM/TCAM
//! blocks are the plan's sizes of the tables and registers it holds, ingress 0 fits pipe 0
//! and egress 1 + ingress 1 fit pipe 1; a smaller per-stage memory moves the first cut
//! earlier or refuses the fold. Negative controls: a table counted in the wrong gress is
//! caught by the independent recount; smaller per-stage SRAM changes the outcome.

use std::collections::HashMap;
use std::path::PathBuf;

use tandem_p4::fold::{applied_tables, FoldInfo, GRESSES};
use tandem_p4::manifest::TableRole;
use tandem_p4::{generate, Arch, P4Error, P4Options, P4Output};
use tandem_partition::compress::{compress, Scale};
use tandem_partition::{partition_module, PartitionOptions, Plan, TargetProfile};

fn module(nf: &str) -> tandem_ir::Module {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../tandem-lift/tests/golden/{nf}.nfir"));
    tandem_ir::parse_module(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn plan(nf: &str, profile: &TargetProfile) -> Plan {
    partition_module(&module(nf), profile, &PartitionOptions::default())
        .unwrap()
        .plan
}

fn generate_for(plan: &Plan, arch: Arch) -> Result<P4Output, P4Error> {
    let m = plan.module().unwrap();
    generate(
        plan,
        &m,
        &P4Options {
            arch,
            ..P4Options::default()
        },
    )
}

/// Xgw's profile at Sailfish scale: what `--compress` chooses on tofino1 (folded).
fn sailfish_xgw() -> TargetProfile {
    let scale = Scale::parse("routes4=75000,routes6=25000,vm_nc4=750000,vm_nc6=250000").unwrap();
    let tofino1 = TargetProfile::builtin("tofino1").unwrap();
    let c = compress(&module("xgw"), &tofino1, &scale).unwrap();
    let p = c.profile(&tofino1);
    assert!(p.folded, "{}", p.name);
    p
}

/// The gress of each qualified manifest object (`TandemEgress_p1.vm_nc4_0`).
fn gress_of(name: &str) -> Option<usize> {
    let (ctl, _) = name.split_once('.')?;
    GRESSES[..3].iter().position(|(n, _, _)| *n == ctl)
}

/// Memory per NF gress recounted from the emitted objects: per gress, each state's
/// per-copy blocks (the plan's blocks over its copies) times the copies the gress holds
/// (main/digest tables and registers; write-back and conflict tables belong to their map).
fn recount(plan: &Plan, objects: &[(String, String)]) -> Vec<(u64, u64)> {
    let mut held: Vec<HashMap<&str, u64>> = vec![HashMap::new(); 3];
    for (name, state) in objects {
        if let Some(g) = gress_of(name).filter(|_| !state.is_empty()) {
            *held[g].entry(state.as_str()).or_default() += 1;
        }
    }
    held.iter()
        .map(|h| {
            h.iter().fold((0, 0), |(s, t), (state, n)| {
                match plan
                    .states
                    .iter()
                    .find(|p| p.name == *state && p.copies > 0)
                {
                    Some(p) => {
                        let c = u64::from(p.copies);
                        let k = (*n).min(c);
                        (
                            s + p.sram_blocks.div_ceil(c) * k,
                            t + p.tcam_blocks.div_ceil(c) * k,
                        )
                    }
                    None => (s, t),
                }
            })
        })
        .collect()
}

/// The emitted objects that hold a state's entries: (qualified name, state).
fn objects(out: &P4Output) -> Vec<(String, String)> {
    let m = &out.manifest;
    let tables = m.tables.iter().filter(|t| {
        matches!(
            t.role,
            TableRole::Main | TableRole::Digest | TableRole::AlpmBucket | TableRole::Pooled
        )
    });
    tables
        .map(|t| (t.name.clone(), t.state.clone()))
        .chain(
            m.registers
                .iter()
                .map(|r| (r.name.clone(), r.state.clone())),
        )
        .collect()
}

/// Applies of the one-pipe program (its ingress), in order.
fn one_pipe_order(out: &P4Output) -> Vec<String> {
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

fn folded_order(info: &FoldInfo) -> Vec<String> {
    info.applies.iter().flat_map(|(_, t)| t.clone()).collect()
}

#[test]
fn xgw_at_sailfish_scale_each_gress_fits_its_pipe_in_lookup_order() {
    let p = sailfish_xgw();
    let plan = plan("xgw", &p);
    let out = generate_for(&plan, Arch::Tna).unwrap();
    let (cut, info) = out.fold.clone().expect("folded");
    let pipe = cut.pipe_memory.expect("tofino1 bounds memory");
    // tofino1: 12 stages x 80 SRAM / 24 TCAM blocks a stage.
    assert_eq!((pipe.sram, pipe.tcam), (960, 288));
    let mem: Vec<(u64, u64)> = cut.memory.iter().map(|b| (b.sram, b.tcam)).collect();
    assert!(mem[0].0 <= pipe.sram && mem[0].1 <= pipe.tcam, "{mem:?}");
    assert!(
        mem[1].0 + mem[2].0 <= pipe.sram && mem[1].1 + mem[2].1 <= pipe.tcam,
        "{mem:?}"
    );
    // The gresses hold every switch copy the plan counts.
    let total = (
        plan.resources.sram_blocks.used,
        plan.resources.tcam_blocks.used,
    );
    let sum = mem.iter().fold((0, 0), |a, m| (a.0 + m.0, a.1 + m.1));
    assert_eq!(sum, total, "{mem:?}");
    // The figure is where the objects are: recounted from the manifest's gresses.
    let objs = objects(&out);
    assert_eq!(recount(&plan, &objs), mem);
    // Negative control: ingress 0's LPM copy counted in egress 1.
    let wrong: Vec<(String, String)> = objs
        .iter()
        .map(|(n, s)| match (gress_of(n), n.split_once('.')) {
            (Some(0), Some((_, t))) if s == "routes4" => {
                (format!("{}.{t}", GRESSES[1].0), s.clone())
            }
            _ => (n.clone(), s.clone()),
        })
        .collect();
    assert_ne!(wrong, objs, "ingress 0 holds a routes4 copy: {objs:?}");
    assert_ne!(recount(&plan, &wrong), mem);
    // Lookup order kept: the gresses' applies are the one-pipe program's.
    let one = generate_for(&plan, Arch::V1Model).unwrap();
    assert_eq!(folded_order(&info), one_pipe_order(&one));
    // The compile note reports it.
    assert!(
        out.notes.iter().any(|n| n.contains(&format!(
            "memory (SRAM/TCAM blocks) per gress ingress0/egress1/ingress1 {}/{}, {}/{}, {}/{}",
            mem[0].0, mem[0].1, mem[1].0, mem[1].1, mem[2].0, mem[2].1
        ))),
        "{:?}",
        out.notes
    );
}

/// `profile` with `sram` SRAM blocks a stage, folded.
fn with_sram(base: &TargetProfile, sram: u32) -> TargetProfile {
    let mut p = base.clone();
    p.sram_blocks_per_stage = Some(sram);
    p.name = format!("{}-sram{sram}", p.name.trim_end_matches(":folded"));
    if p.folded {
        // Re-fold so the name keeps the `:folded` suffix the back end reads.
        p.folded = false;
        p.stages = p.stages.map(|s| s / 2);
        p.pipelines *= 2;
    }
    p.folded().unwrap()
}

#[test]
fn smaller_per_stage_sram_moves_the_first_cut_or_refuses() {
    // xgw at Sailfish scale: egress 1 holds 523 blocks, so a pipe of 40 x 12 = 480 blocks
    // cannot hold it whatever the first cut: refused, naming the pipe and the numbers.
    let small = with_sram(&sailfish_xgw(), 40);
    let plan_x = plan("xgw", &small);
    match generate_for(&plan_x, Arch::Tna) {
        Err(P4Error::BadPlan(why)) => {
            eprintln!("xgw, 40 SRAM blocks a stage: {why}");
            assert!(why.contains("pipe 1 (egress 1 SRAM"), "{why}");
            assert!(why.contains("a pipe has SRAM 480"), "{why}");
        }
        other => panic!("expected a refusal, got {:?}", other.map(|o| o.fold)),
    }
    // mazunat on tofino1: its ingress 0 holds 186 blocks with 80 a stage (960 a pipe).
    // With 15 a stage (180 a pipe) the first cut moves earlier: the tables past pipe 0's
    // memory go to egress 1, and both pipes fit.
    let six = TargetProfile::builtin("tofino1").unwrap();
    let base = generate_for(&plan("mazunat", &six.folded().unwrap()), Arch::Tna).unwrap();
    let (cut0, info0) = base.fold.expect("folded");
    assert!(!cut0.moved_for_memory);
    assert!(cut0.memory[0].sram > 180, "{cut0:?}");
    let moved_p = with_sram(&six.folded().unwrap(), 15);
    let moved_plan = plan("mazunat", &moved_p);
    let moved = generate_for(&moved_plan, Arch::Tna).unwrap();
    let (cut, info) = moved.fold.clone().expect("folded");
    assert!(cut.moved_for_memory, "{cut:?}");
    assert_eq!(cut.pipe_memory.map(|p| p.sram), Some(180));
    assert!(cut.memory[0].sram <= 180, "{cut:?}");
    assert!(cut.memory[1].sram + cut.memory[2].sram <= 180, "{cut:?}");
    // The moved pieces' objects are in egress 1 now.
    assert!(
        cut.memory[1].sram > cut0.memory[1].sram,
        "{cut0:?} -> {cut:?}"
    );
    let at = |i: &FoldInfo, g: usize| {
        i.objects
            .values()
            .filter(|c| c.as_str() == GRESSES[g].0)
            .count()
    };
    assert!(at(&info, 1) > at(&info0, 1), "{info0:?} -> {info:?}");
    // Only the cut moved: the same lookups in the same order (mazunat's two NAT directions
    // are exclusive branches, which the predicated walk orders unlike the one-pipe
    // ingress, so the one-pipe order is not the reference here).
    assert_eq!(folded_order(&info), folded_order(&info0));
    assert!(
        moved
            .notes
            .iter()
            .any(|n| n.contains("the first cut moved earlier for ingress 0's memory")),
        "{:?}",
        moved.notes
    );
    // With 5 a stage (60 a pipe) no cut fits.
    let tiny = plan("mazunat", &with_sram(&six.folded().unwrap(), 5));
    assert!(matches!(
        generate_for(&tiny, Arch::Tna),
        Err(P4Error::BadPlan(w)) if w.contains("no cut of the lookups in order fits")
    ));
}
