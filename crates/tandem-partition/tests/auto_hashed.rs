//! The partitioner holds a map in hash-indexed registers (`tandem_partition::auto_hashed`)
//! when its exact table does not fit the profile's SRAM: cofilter's 2,097,152-connection
//! table on tofino1 and tofino2; statefilter's 65,536-entry one fits and stays exact
//! (negative control), as do maps the switch writes, looks up twice, or whose value leaves
//! no room for a fingerprint.

mod common;

use tandem_ir::{Layout, StateKind, Type};
use tandem_partition::auto_hashed::{choose, choose_with, HIT_TIME_BITS};
use tandem_partition::*;

#[test]
fn a_table_too_large_for_the_sram_is_hashed() {
    let m = common::golden("cofilter");
    for target in ["tofino1", "tofino2"] {
        let p = TargetProfile::builtin(target).unwrap();
        let out = partition_module(&m, &p, &PartitionOptions::default()).unwrap();
        let s = out
            .plan
            .states
            .iter()
            .find(|s| s.name == "table__class")
            .expect("cofilter's class map");
        let h = s.hashed.as_ref().expect("held hashed");
        let budget = p.total_sram_blocks().unwrap() * p.sram_block_bits;
        assert_eq!(h.budget_bits, budget);
        assert!(h.exact_bits > budget, "{target}: the exact table fits");
        assert!(h.hashed_bits <= budget / 2, "{target}: {h:?}");
        assert_eq!(s.sram_blocks, h.hashed_bits.div_ceil(p.sram_block_bits));
        assert!(h.fingerprint_bits >= 8);
        // cofilter's `table` expires: the class map's slots carry hit times, counted.
        assert_eq!(h.hit_time_bits, HIT_TIME_BITS, "{target}");
        let slots = u64::from(h.ways) * h.slots_per_way;
        assert!(
            h.hashed_bits >= slots * u64::from(HIT_TIME_BITS),
            "{target}: {h:?}"
        );
        let text = report_for(&out.module, &out.info, &p, &out.plan);
        assert!(
            text.contains("storage: `table__class` in hash-indexed registers"),
            "{text}"
        );
    }
}

#[test]
fn a_table_that_fits_stays_exact() {
    let m = common::golden("statefilter");
    let p = TargetProfile::builtin("tofino1").unwrap();
    let out = partition_module(&m, &p, &PartitionOptions::default()).unwrap();
    assert!(out.plan.states.iter().all(|s| s.hashed.is_none()));
    let text = report_for(&out.module, &out.info, &p, &out.plan);
    assert!(!text.contains("hash-indexed registers"));
}

fn map(value_bits: u32, capacity: u64) -> StateKind {
    StateKind::HashMap {
        key: Layout::new([("a", Type::I32), ("b", Type::I32), ("c", Type::I32)]),
        value: Layout::new([("v", Type::int(value_bits).unwrap())]),
        capacity,
    }
}

#[test]
fn only_eligible_maps_are_hashed() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    let big = 1 << 22;
    assert!(choose(&p, &map(4, big), 1, false, false).is_some());
    // Fits: exact.
    assert!(choose(&p, &map(4, 1 << 10), 1, false, false).is_none());
    // Written by the switch, looked up twice, partial, or a 32-bit value: exact.
    assert!(choose(&p, &map(4, big), 1, false, true).is_none());
    assert!(choose(&p, &map(4, big), 2, false, false).is_none());
    assert!(choose(&p, &map(4, big), 1, true, false).is_none());
    assert!(choose(&p, &map(32, big), 1, false, false).is_none());
    // A small value shares a 16-bit cell with a 12-bit fingerprint.
    let h = choose(&p, &map(4, big), 1, false, false).unwrap();
    assert_eq!(h.fingerprint_bits, 12);
    // Unbounded SRAM (bmv2): nothing to fit.
    let b = TargetProfile::builtin("bmv2").unwrap();
    assert!(choose(&b, &map(4, big), 1, false, false).is_none());
}

/// A map whose slots carry hit times (it expires) counts one 32-bit word per slot more and
/// is sized with them: it still fits half the SRAM, with fewer slots than the same map
/// without hit times (the negative control: leaving the times out claims more slots than
/// the SRAM holds beside them).
#[test]
fn hit_times_are_counted_and_sized() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    let budget = p.total_sram_blocks().unwrap() * p.sram_block_bits;
    let big = 1 << 22;
    let plain = choose_with(&p, &map(4, big), 1, false, false, false).unwrap();
    let aged = choose_with(&p, &map(4, big), 1, false, false, true).unwrap();
    assert_eq!(plain.hit_time_bits, 0);
    assert_eq!(aged.hit_time_bits, HIT_TIME_BITS);
    let time_bits = |h: &tandem_partition::auto_hashed::AutoHashed| {
        u64::from(h.ways) * h.slots_per_way * u64::from(HIT_TIME_BITS)
    };
    assert!(aged.hashed_bits <= budget / 2, "{aged:?}");
    assert!(aged.slots_per_way < plain.slots_per_way);
    assert!(
        plain.hashed_bits + time_bits(&plain) > budget / 2,
        "the plain layout with hit times would fit half the SRAM"
    );
    // An expiring map is aged by `choose` itself.
    let exp = StateKind::ExpiringMap {
        key: Layout::new([("a", Type::I32), ("b", Type::I32), ("c", Type::I32)]),
        value: Layout::new([("v", Type::int(4).unwrap())]),
        capacity: big,
        idle_timeout_ns: 2_000_000_000,
    };
    assert_eq!(choose(&p, &exp, 1, false, false), Some(aged));
}
