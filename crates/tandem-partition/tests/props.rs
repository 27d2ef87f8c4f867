//! Property tests over every example NF and random target profiles: every plan respects
//! every dependency and every constraint of its profile, and the unbounded `bmv2` profile
//! keeps at least as many statements on the switch as any bounded one.

mod common;
mod sim;

use proptest::prelude::*;
use std::sync::OnceLock;
use tandem_analysis::{compute_deps, DepInfo};
use tandem_ir::Module;
use tandem_partition::*;

struct Nf {
    module: Module,
    info: DepInfo,
    bmv2_switch: u32,
}

fn nfs() -> &'static Vec<Nf> {
    static NFS: OnceLock<Vec<Nf>> = OnceLock::new();
    NFS.get_or_init(|| {
        let bmv2 = TargetProfile::builtin("bmv2").unwrap();
        common::NFS
            .iter()
            .map(|name| {
                let module = common::golden(name);
                let info = compute_deps(&module);
                let plan = partition(&module, &info, &bmv2).unwrap();
                verify_plan(&module, &info, &bmv2, &plan).unwrap();
                Nf {
                    bmv2_switch: plan.switch_statements(),
                    module,
                    info,
                }
            })
            .collect()
    })
}

/// A little traffic for the simulator.
fn traffic() -> Vec<tandem_ir::interp::Packet> {
    let mut seed = 5u64;
    (0..80)
        .map(|i| {
            let mut p = common::packet(&mut seed);
            p.timestamp_ns = i * 9_000_000_000;
            p
        })
        .collect()
}

fn limit(lo: u32, hi: u32) -> impl Strategy<Value = Option<u32>> {
    prop_oneof![1 => Just(None), 3 => (lo..=hi).prop_map(Some)]
}

/// A random profile no more capable than bmv2.
fn profile() -> impl Strategy<Value = TargetProfile> {
    let bmv2 = TargetProfile::builtin("bmv2").unwrap();
    let ops: Vec<String> = bmv2.ops.iter().cloned().collect();
    (
        (limit(1, 16), limit(1, 80), limit(1, 16), limit(1, 4)),
        (
            limit(4, 128),
            limit(3, 32),
            prop::sample::select(vec![16u32, 32, 64]),
        ),
        (any::<bool>(), any::<bool>()),
        prop::collection::vec(any::<bool>(), ops.len()),
        (0u32..=2, 0u32..=1, 0u32..=2, 0u32..=1),
    )
        .prop_map(move |(res, sizes, flags, keep, costs)| {
            let mut p = TargetProfile::builtin("bmv2").unwrap();
            p.name = "random".into();
            (
                p.stages,
                p.sram_blocks_per_stage,
                p.tables_per_stage,
                p.stateful_alus_per_stage,
            ) = res;
            (p.metadata_bytes, p.transfer_header_bytes, p.max_alu_bits) = sizes;
            (p.ageing, p.duplicate_readonly_tables) = flags;
            // Drop each op with probability 1/2 for a few, keep the rest.
            p.ops = ops
                .iter()
                .zip(&keep)
                .enumerate()
                .filter(|(i, (_, k))| **k || i % 3 != 0)
                .map(|(_, (o, _))| o.clone())
                .collect();
            p.stage_costs.alu = costs.0.max(1);
            p.stage_costs.slice = costs.1;
            p.stage_costs.compare = costs.2.max(1);
            p.stage_costs.checksum = costs.3;
            p
        })
}

proptest! {
    // PROPTEST_CASES=400 for a longer run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(32),
        ..ProptestConfig::default()
    })]

    #[test]
    fn split_plans_respect_dependencies_and_profiles(nf in 0usize..7, p in profile()) {
        let nf = &nfs()[nf];
        let options = PartitionOptions { split_joins: true, ..PartitionOptions::default() };
        if let Ok(out) = partition_module(&nf.module, &p, &options) {
            if let Err(e) = verify_plan(&out.module, &out.info, &p, &out.plan) {
                prop_assert!(false, "{}: {:#?}\n{:?}", nf.module.name, e, p);
            }
            prop_assert!(tandem_ir::verify_module(&out.module).is_ok());
            prop_assert_eq!(&out.plan.module().unwrap(), &out.module);
            // And the plan runs like the original NF.
            sim::check(&out.module, &out.info, &out.plan, &common::store(&out.module), &traffic());
        }
    }

    #[test]
    fn plans_respect_dependencies_and_profiles(nf in 0usize..7, p in profile()) {
        let nf = &nfs()[nf];
        match partition(&nf.module, &nf.info, &p) {
            Ok(plan) => {
                if let Err(e) = verify_plan(&nf.module, &nf.info, &p, &plan) {
                    prop_assert!(false, "{}: {:#?}\n{:?}", nf.module.name, e, p);
                }
                prop_assert!(
                    plan.switch_statements() <= nf.bmv2_switch,
                    "{}: {} on the switch, bmv2 keeps {}", nf.module.name,
                    plan.switch_statements(), nf.bmv2_switch
                );
                // It runs like the original NF.
                sim::check(&nf.module, &nf.info, &plan, &common::store(&nf.module), &traffic());
                // The plan serialises and reads back.
                prop_assert_eq!(Plan::from_json(&plan.to_json()).unwrap(), plan);
            }
            Err(PartitionError::Infeasible { .. }) => {
                // Only a header or metadata budget too small for even the all-server plan.
                prop_assert!(
                    p.transfer_header_bytes.is_some_and(|b| b < 8)
                        || p.metadata_bytes.is_some_and(|b| b < 16),
                    "{} infeasible on {:?}", nf.module.name, p
                );
            }
            Err(e) => prop_assert!(false, "{}: {e}", nf.module.name),
        }
    }
}

/// Every built-in profile gives a sound plan for every NF.
#[test]
fn builtin_profiles_give_sound_plans() {
    for name in TargetProfile::builtin_names() {
        let p = TargetProfile::builtin(name).unwrap();
        for nf in nfs() {
            let plan = partition(&nf.module, &nf.info, &p)
                .unwrap_or_else(|e| panic!("{} on {name}: {e}", nf.module.name));
            if let Err(e) = verify_plan(&nf.module, &nf.info, &p, &plan) {
                panic!("{} on {name}: {e:#?}", nf.module.name);
            }
            assert!(plan.switch_statements() <= nf.bmv2_switch);
            // Every statement off the switch says why, with the C++ line it came from.
            for s in plan
                .statements
                .iter()
                .filter(|s| s.partition == Partition::Server)
            {
                let why = s.why.as_ref().or(s.why_not_post.as_ref());
                let why = why.unwrap_or_else(|| panic!("{} s{}: no why", nf.module.name, s.id));
                assert!(
                    why.origin_loc.is_some(),
                    "{} s{}: {why:?}",
                    nf.module.name,
                    s.id
                );
            }
        }
    }
}
