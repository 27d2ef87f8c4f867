//! Any plan the partitioner makes — for random target profiles no more capable than bmv2,
//! with and without join splitting — compiles to a switch program and a server partition
//! that together behave like the NF (outputs and final state, checked against the native
//! NF). `TANDEM_PROFILE_CASES=100` for a longer run.

mod common;

use common::*;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use tandem_offload::OffloadError;
use tandem_partition::{PartitionError, PartitionOptions, TargetProfile};

/// A random profile no more capable than bmv2 (some operations removed, tight budgets).
fn random_profile() -> impl Strategy<Value = TargetProfile> {
    let bmv2 = TargetProfile::builtin("bmv2").unwrap();
    let ops: Vec<String> = bmv2.ops.iter().cloned().collect();
    let n = ops.len();
    (
        prop::option::of(2u32..16),
        prop::option::of(8u32..120),
        prop::option::of(4u32..32),
        any::<bool>(),
        prop::collection::vec(any::<bool>(), n),
    )
        .prop_map(move |(stages, meta, th, dup, keep)| {
            let mut p = TargetProfile::builtin("bmv2").unwrap();
            p.name = "random".into();
            p.stages = stages;
            p.metadata_bytes = meta;
            p.transfer_header_bytes = th;
            p.duplicate_readonly_tables = dup;
            p.ops = ops
                .iter()
                .zip(&keep)
                .enumerate()
                .filter(|(i, (_, k))| **k || i % 3 != 0)
                .map(|(_, (o, _))| o.clone())
                .collect();
            p
        })
}

const NFS: [(&str, Addr, &str); 15] = [
    ("minilb", Addr::Lb, "enterprise"),
    ("mazunat", Addr::Nat, "enterprise"),
    ("l4lb", Addr::Lb, "enterprise"),
    ("firewall", Addr::Plain, "enterprise"),
    ("proxy", Addr::Plain, "enterprise"),
    ("statefilter", Addr::Plain, "datamining"),
    ("trojan", Addr::Endhosts, "enterprise"),
    ("lpmrouter", Addr::Plain, "enterprise"),
    ("vxlangw", Addr::Vxlan, "enterprise"),
    ("vlantrunk", Addr::Vlan, "enterprise"),
    ("trd", Addr::Plain, "enterprise"),
    ("snat", Addr::Nat, "enterprise"),
    ("hhdetect", Addr::Plain, "datamining"),
    ("aclfw", Addr::Plain, "enterprise"),
    ("ratelimit", Addr::Plain, "datamining"),
];

proptest! {
    #![proptest_config(ProptestConfig {
        cases: env_or("TANDEM_PROFILE_CASES", 4) as u32,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_profiles_check(nf in 0usize..NFS.len(), profile in random_profile(), split in any::<bool>()) {
        let (name, addr, workload) = NFS[nf];
        let options = PartitionOptions { split_joins: split, ..PartitionOptions::default() };
        // No plan fits some profiles: a rejected case (proptest still runs `cases` checked
        // ones, and fails when too many are rejected). Any other failure is a bug.
        let b = match compile_bundle(&module(name), &profile, &options, &P4Options::default(), None) {
            Ok(b) => b,
            Err(OffloadError::Partition(PartitionError::Infeasible { .. })) => {
                return Err(TestCaseError::reject("no plan fits the profile"))
            }
            Err(e) => return Err(TestCaseError::fail(format!("{name}: {e}"))),
        };
        let mut pkts = trace(addr, workload, 60, 11).take(800);
        let r = check_with(&b, name, &mut pkts, None);
        prop_assert!(r.passed(), "{name}: {:?} {:?}\n{}", r.multiset_differences,
            r.state_differences, r.first_difference.unwrap_or_default());
    }
}

#[test]
fn every_nf_checks_on_every_builtin_profile() {
    let mut ran = 0;
    for profile in ["tofino2", "tiny"] {
        for (name, addr, workload) in NFS {
            let p = TargetProfile::builtin(profile).unwrap();
            let b = match compile_bundle(
                &module(name),
                &p,
                &PartitionOptions::default(),
                &P4Options::default(),
                None,
            ) {
                Ok(b) => b,
                // Only "no plan fits this profile" may skip an NF.
                Err(OffloadError::Partition(PartitionError::Infeasible { .. })) => continue,
                Err(e) => panic!("{name}/{profile}: {e}"),
            };
            ran += 1;
            let mut pkts = trace(addr, workload, 60, 13).take(1000);
            let r = check_with(&b, name, &mut pkts, None);
            assert!(
                r.passed(),
                "{name}/{profile}: {:?}\n{}",
                r.multiset_differences,
                r.first_difference.unwrap_or_default()
            );
        }
    }
    // Every example fits both profiles (everything on the server at worst): all 14 ran.
    assert_eq!(ran, 2 * NFS.len(), "NFs checked");
}
