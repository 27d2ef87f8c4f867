//! Partial maps (`tandem_partition::partial`): sizing of the switch table and the sketch,
//! resources, and the errors for maps that cannot be partial.

mod common;

use std::collections::BTreeMap;

use tandem_analysis::compute_deps;
use tandem_partition::*;

fn plan_with(
    nf: &str,
    profile: &str,
    partial: &[(&str, Option<u64>)],
) -> Result<Plan, PartitionError> {
    let m = common::golden(nf);
    let p = TargetProfile::builtin(profile).unwrap();
    let opts = PartitionOptions {
        partial: partial
            .iter()
            .map(|(n, e)| (n.to_string(), *e))
            .collect::<BTreeMap<_, _>>(),
        split_joins: false,
        ..PartitionOptions::default()
    };
    let plan = partition_with(&m, &compute_deps(&m), &p, &opts)?;
    verify_plan(&m, &compute_deps(&m), &p, &plan).unwrap();
    Ok(plan)
}

#[test]
fn a_partial_map_gets_a_small_table_and_a_sketch_sized_from_the_profile() {
    let whole = plan_with("mazunat", "tofino1", &[]).unwrap();
    let part = plan_with("mazunat", "tofino1", &[("int2ext", Some(4096))]).unwrap();
    let st = |p: &Plan| {
        p.states
            .iter()
            .find(|s| s.name == "int2ext")
            .unwrap()
            .clone()
    };
    assert_eq!(st(&whole).partial, None);
    let pt = st(&part).partial.expect("partial");
    // tofino1: 128 Kbit SRAM blocks → 4096 32-bit counters per row, two rows.
    assert_eq!(
        pt,
        PartialTable {
            switch_entries: 4096,
            sketch_rows: 2,
            sketch_width: 4096
        }
    );
    assert!(st(&part).sram_blocks < st(&whole).sram_blocks);
    assert_eq!(
        part.resources.stateful_alus.used,
        whole.resources.stateful_alus.used + 2
    );
    // Statements stay where they were: only the state's placement details change.
    assert_eq!(part.summary, whole.summary);
    // The default: a tenth of the capacity (65,536).
    let d = plan_with("mazunat", "tofino1", &[("int2ext", None)]).unwrap();
    assert_eq!(st(&d).partial.unwrap().switch_entries, 6554);
    // The plan round-trips through JSON with the field, and plans without it omit it.
    let back = Plan::from_json(&part.to_json()).unwrap();
    assert_eq!(back, part);
    assert!(!whole.to_json().contains("\"partial\""));
}

#[test]
fn maps_that_cannot_be_partial_are_errors_naming_the_map() {
    let e = |nf: &str, m: &str, n: Option<u64>| {
        plan_with(nf, "tofino1", &[(m, n)]).unwrap_err().to_string()
    };
    let msg = e("mazunat", "nosuch", None);
    assert!(
        msg.contains("--partial nosuch") && msg.contains("no state"),
        "{msg}"
    );
    let msg = e("lpmrouter", "routes", None);
    assert!(msg.contains("lpm_map cannot be partial"), "{msg}");
    let msg = e("mazunat", "int2ext", Some(0));
    assert!(msg.contains("1..=65536"), "{msg}");
    let msg = e("mazunat", "int2ext", Some(70_000));
    assert!(msg.contains("1..=65536"), "{msg}");
    // A vector is no map.
    let msg = e("minilb", "backends", None);
    assert!(msg.contains("cannot be partial"), "{msg}");
}

#[test]
fn memory_is_planned_for_the_partial_size() {
    // bmv2-sized SRAM is unbounded; on a profile with little SRAM a 65,536-entry map does not
    // fit and goes to the server, but its 1,024-entry partial replica does.
    let mut p = TargetProfile::builtin("tofino1").unwrap();
    p.sram_blocks_per_stage = Some(1);
    let m = common::golden("minilb");
    let plan = |partial: BTreeMap<String, Option<u64>>| {
        let opts = PartitionOptions {
            partial,
            split_joins: false,
            ..PartitionOptions::default()
        };
        partition_with(&m, &compute_deps(&m), &p, &opts)
    };
    let whole = plan(BTreeMap::new()).unwrap();
    let st = |pl: &Plan| pl.states.iter().find(|s| s.name == "map").unwrap().clone();
    assert_eq!(st(&whole).placement, Placement::Server);
    let part = plan(BTreeMap::from([("map".to_string(), Some(1024))])).unwrap();
    assert_eq!(st(&part).placement, Placement::Replicated);
    assert_eq!(st(&part).partial.unwrap().switch_entries, 1024);
    assert!(
        part.resources.sram_blocks.fits(),
        "{:?}",
        part.resources.sram_blocks
    );
}

#[test]
fn maps_too_large_for_the_profile_become_partial_when_asked() {
    // 12 SRAM blocks in all: MiniLB's 65,536-entry map (24 blocks) exceeds them alone.
    let mut p = TargetProfile::builtin("tofino1").unwrap();
    p.sram_blocks_per_stage = Some(1);
    let m = common::golden("minilb");
    let plan = |auto_partial: bool| {
        let opts = PartitionOptions {
            auto_partial,
            split_joins: false,
            ..PartitionOptions::default()
        };
        partition_with(&m, &compute_deps(&m), &p, &opts).unwrap()
    };
    let st = |pl: &Plan| pl.states.iter().find(|s| s.name == "map").unwrap().clone();
    assert_eq!(st(&plan(false)).placement, Placement::Server);
    let auto = plan(true);
    let s = st(&auto);
    assert_eq!(s.placement, Placement::Replicated);
    // A quarter of 12 blocks of 128 Kbit, 48 bits per entry.
    assert_eq!(s.partial.unwrap().switch_entries, 12 * 131_072 / 4 / 48);
    assert!(auto.resources.sram_blocks.fits());
    // On tofino1 the map fits whole: nothing changes.
    let t1 = TargetProfile::builtin("tofino1").unwrap();
    let opts = PartitionOptions {
        auto_partial: true,
        ..PartitionOptions::default()
    };
    let whole = partition_with(&m, &compute_deps(&m), &t1, &PartitionOptions::default()).unwrap();
    assert_eq!(
        partition_with(&m, &compute_deps(&m), &t1, &opts).unwrap(),
        whole
    );
}
