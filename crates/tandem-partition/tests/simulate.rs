//! Plans run like the original NF: the simulator (tests/sim.rs) executes each plan's pre,
//! server and post partitions in turn on pseudo-random traffic and compares every packet's
//! fate and bytes, and the final state, with the IR interpreter running the original.

mod common;
mod sim;

use tandem_ir::interp::Packet;
use tandem_partition::*;

fn traffic(n: usize) -> Vec<Packet> {
    let mut seed = 11u64;
    (0..n)
        .map(|i| {
            let mut p = common::packet(&mut seed);
            p.timestamp_ns = i as u64 * 7_000_000_000;
            p
        })
        .collect()
}

#[test]
fn plans_run_like_the_original_nf() {
    let packets = traffic(400);
    for target in ["tofino1", "bmv2", "tiny"] {
        let p = TargetProfile::builtin(target).unwrap();
        for name in common::NFS {
            for split_joins in [false, true] {
                let m = common::golden(name);
                let options = PartitionOptions {
                    split_joins,
                    ..PartitionOptions::default()
                };
                let out = partition_module(&m, &p, &options).unwrap();
                let store = common::store(&out.module);
                sim::check(&out.module, &out.info, &out.plan, &store, &packets);
            }
        }
    }
}

/// The traffic reaches the server for every NF that has server statements (so the cuts are
/// exercised), and a plan missing a cut value is caught.
#[test]
fn the_simulation_exercises_the_cuts() {
    let packets = traffic(400);
    let p = TargetProfile::builtin("tofino1").unwrap();
    for name in common::NFS {
        let m = common::golden(name);
        let out = partition_module(&m, &p, &PartitionOptions::default()).unwrap();
        let store = common::store(&out.module);
        let visits = sim::check(&out.module, &out.info, &out.plan, &store, &packets);
        if out.plan.summary.server > 0 {
            assert!(visits > 0, "{name}: no packet visited the server");
        }
    }
    let m = common::golden("minilb");
    let out = partition_module(&m, &p, &PartitionOptions::default()).unwrap();
    let mut bad = out.plan.clone();
    bad.cuts.server_to_post.clear();
    let store = common::store(&out.module);
    let caught =
        std::panic::catch_unwind(|| sim::check(&out.module, &out.info, &bad, &store, &packets));
    assert!(
        caught.is_err(),
        "a plan without the backend address must fail"
    );
}
