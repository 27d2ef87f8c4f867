//! Hotness of partial maps from per-entry hit counters (`--hotness counters`): the switch
//! table's direct counter (`lower/hits.rs` in `tandem-p4`) counts each entry's hits, the
//! runtime reads them all at once per rebalance (`ControlPlane::direct_counters`).
//!
//! ```text
//!  packets ──▶ switch: map.apply() ── hit ──▶ entry's counter += 1
//!                                  └─ miss ─▶ server (whole), counted by the server
//!  rebalance: read every entry's count; hits since the last read = hotness
//! ```
//!
//! The first test checks the counts against the packets themselves (each key's lookups
//! minus its first, which missed and inserted it on the server); the second that
//! promotion and eviction driven by them keep `check` passing; the third is the negative
//! control: a control plane that reports the counts upside down (the busiest entry as the
//! idlest) makes the rebalance evict the hot entries, and the server's share of the packets
//! grows — so the counts the runtime reads are what decides.
#![allow(clippy::print_stderr)] // test figures go to the test log

mod common;

use std::collections::{BTreeMap, HashMap};

use common::*;
use tandem_offload::partial::{Hotness, PartialOptions};
use tandem_offload::{ControlFailure, Offloaded};
use tandem_partition::{PartitionOptions, TargetProfile};
use tandem_traffic::{GenOptions, Generator, TracePacket, Workload};

fn partial_bundle(nf: &str, map: &str, n: u64) -> Bundle {
    let opts = PartitionOptions {
        partial: [(map.to_string(), Some(n))]
            .into_iter()
            .collect::<BTreeMap<_, _>>(),
        ..PartitionOptions::default()
    };
    compile_bundle(
        &module(nf),
        &TargetProfile::builtin("tofino1").unwrap(),
        &opts,
        &P4Options::default(),
        None,
    )
    .unwrap()
}

fn zipf_trace(flows: u64, alpha: f64) -> Generator {
    let opts = GenOptions {
        flows,
        seed: 11,
        plan: Addr::Lb,
        zipf: Some(alpha),
        ..GenOptions::default()
    };
    Generator::new(&Workload::resolve("enterprise").unwrap(), opts).unwrap()
}

/// MiniLB's key of a frame: (saddr ^ daddr) & 0xffff of the addresses as loaded.
fn minilb_key(d: &[u8]) -> u64 {
    let s = u32::from_le_bytes(d[26..30].try_into().unwrap());
    let t = u32::from_le_bytes(d[30..34].try_into().unwrap());
    u64::from((s ^ t) & 0xffff)
}

/// Every key's count summed over the map's tables (main and write-back).
fn counts(sys: &Offloaded, tables: &[String]) -> HashMap<u64, u64> {
    let mut cp = SwitchControl::new(sys.switch().clone());
    let mut out: HashMap<u64, u64> = HashMap::new();
    for t in tables {
        for (k, n) in cp.direct_counters(t).unwrap() {
            *out.entry(k[0]).or_default() += n;
        }
    }
    out
}

#[test]
fn each_entrys_counter_holds_its_hits() {
    let b = partial_bundle("minilb", "map", 64);
    let part = b
        .manifest
        .states
        .iter()
        .find_map(|s| s.partial.clone())
        .unwrap();
    // The main table and its write-back table.
    assert_eq!(part.hit_counters.len(), 2, "{part:?}");
    let tables: Vec<String> = part.hit_counters.iter().map(|h| h.table.clone()).collect();
    let initial = native("minilb").dump_state(0).unwrap();
    let opts = RunOptions {
        cache_dir: cache(),
        partial: PartialOptions {
            hotness: Hotness::Off,
            ..PartialOptions::default()
        },
        ..RunOptions::default()
    };
    let mut sys = Offloaded::new(&b, &initial, &opts, None).unwrap();
    // Fewer keys than the table holds: every key goes onto the switch after its first
    // packet (a miss the server answers and inserts) and stays.
    let pkts: Vec<TracePacket> = zipf_trace(30, 1.1).take(6000).collect();
    let (first, second) = pkts.split_at(pkts.len() / 2);
    let mut known: HashMap<u64, u64> = HashMap::new();
    for p in first {
        sys.process(p).unwrap();
        *known.entry(minilb_key(&p.data)).or_default() += 1;
    }
    assert!(known.len() > 3 && known.len() < 64, "{} keys", known.len());
    let before = counts(&sys, &tables);
    assert_eq!(before.len(), known.len(), "every key is on the switch");
    // Then the known keys' packets only: no batch moves an entry between the tables, and
    // each key's count grows by exactly its lookups.
    let mut lookups: HashMap<u64, u64> = known.keys().map(|&k| (k, 0)).collect();
    for p in second {
        if let Some(n) = lookups.get_mut(&minilb_key(&p.data)) {
            sys.process(p).unwrap();
            *n += 1;
        }
    }
    let after = counts(&sys, &tables);
    for (k, n) in &lookups {
        assert_eq!(after[k] - before[k], *n, "key {k:#x}");
    }
    // Up to then each key missed once (its insert) and hit on every other lookup.
    let total: u64 = known.values().sum::<u64>() - known.len() as u64;
    assert!(before.values().sum::<u64>() <= total);
    let mut by: Vec<u64> = lookups.values().copied().collect();
    by.sort_unstable();
    eprintln!(
        "{} keys, {}..{} lookups each: every key's count grew by its lookups",
        by.len(),
        by[0],
        by[by.len() - 1]
    );
}

fn check_counters(b: &Bundle, control: Option<Wrap>) -> CheckReport {
    let mut pkts = zipf_trace(400, 1.1).take(8000);
    check(
        b,
        native("minilb"),
        &mut pkts,
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                partial: PartialOptions {
                    hotness: Hotness::Counters,
                    every: 200,
                    ..PartialOptions::default()
                },
                ..RunOptions::default()
            },
            control,
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

/// Reports every entry's count as (largest - count): the busiest entry looks idlest.
struct UpsideDown {
    inner: SwitchControl,
}

impl ControlPlane for UpsideDown {
    fn write(&mut self, ops: &[tandem_switch::ControlOp]) -> Result<(), ControlFailure> {
        self.inner.write(ops)
    }
    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        self.inner.register_write(name, index, value)
    }
    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure> {
        self.inner.register_read(name, index)
    }
    fn direct_counters(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        let mut v = self.inner.direct_counters(table)?;
        let max = v.iter().map(|x| x.1).max().unwrap_or(0);
        for x in &mut v {
            x.1 = max - x.1;
        }
        Ok(v)
    }
}

#[test]
fn promotion_by_hit_counters_keeps_check_passing_and_depends_on_them() {
    let b = partial_bundle("minilb", "map", 32);
    let r = check_counters(&b, None);
    assert_passed("promotion by hit counters", &r);
    let p = r.offloaded.partial.clone().unwrap();
    assert!(p.promoted > 0 && p.evicted > 0, "{p:?}");
    // The negative control: counts upside down.
    let wrap: Wrap = Box::new(|sc| Box::new(UpsideDown { inner: sc }));
    let bad = check_counters(&b, Some(wrap));
    assert_passed("upside-down counts (still correct, only slower)", &bad);
    let share = |r: &CheckReport| r.offloaded.whole_on_server as f64 / r.packets as f64;
    eprintln!(
        "server share, whole runs: {:.2}% with the counts, {:.2}% upside down ({} / {} evictions)",
        100.0 * share(&r),
        100.0 * share(&bad),
        p.evicted,
        bad.offloaded.partial.as_ref().unwrap().evicted
    );
    assert!(
        share(&bad) > 1.5 * share(&r),
        "upside-down counts were not noticed: {:.4} vs {:.4}",
        share(&bad),
        share(&r)
    );
}
