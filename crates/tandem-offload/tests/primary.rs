//! The primary copy's map operations (direct `StateStore` operations, as the server
//! partition's callbacks run them) against two references: the module's own `map.*`
//! instructions run on the interpreter (same results, same state), and an independent model
//! of the documented semantics (docs/nf-api.md: insert overwrites and refuses a new key when
//! the map is full; an expiring-map entry not inserted or found for more than its idle time
//! is gone, and does not count against capacity) — since both the primary copy and the
//! interpreter call the same `StateStore` code, only the model can catch a bug they share.
//! Plain and expiring maps at and past capacity, with expiry, refresh and keys/values wider
//! than their types.

use std::sync::Arc;

use tandem_ir::interp::{Machine, NoOpaque, Packet, StateStore};
use tandem_ir::{parse_module, Inst, InstKind, Module, StateId};
use tandem_offload::primary::Primary;

const NF: &str = r#"nf Maps

state flows: expiring_map<{k0: i16 @0, k2: i8 @2} size 4, {v0: i32 @0, v4: i8 @4} size 8, 4, 100>
state table: hashmap<{k0: i16 @0, k2: i8 @2} size 4, {v0: i32 @0, v4: i8 @4} size 8, 3>

fn process {
block0:
    v0:i16 = const 1
    v1:i8 = const 2
    v2:i32 = const 3
    v3:i8 = const 4
    v4:i1, v5:i32, v6:i8 = map.find flows(v0, v1)
    v7:i1 = map.insert flows(v0, v1) -> (v2, v3)
    map.erase flows(v0, v1)
    v8:i1, v9:i32, v10:i8 = map.find table(v0, v1)
    v11:i1 = map.insert table(v0, v1) -> (v2, v3)
    map.erase table(v0, v1)
    return
}
"#;

/// The operation the old runtime ran: the module's instruction on a fresh machine.
fn reference(
    module: &Module,
    store: &mut StateStore,
    inst: Inst,
    now: u64,
    operands: &[u64],
) -> Vec<u64> {
    let pkt = Packet {
        bytes: Vec::new(),
        in_port: 0,
        timestamp_ns: now,
    };
    let d = &module.process.insts[inst];
    let args: Vec<_> = match &d.kind {
        InstKind::MapFind { key, .. } | InstKind::MapErase { key, .. } => key.clone(),
        InstKind::MapInsert { key, value, .. } => key.iter().chain(value).copied().collect(),
        _ => unreachable!(),
    };
    let mut m = Machine::new(module, store, &pkt);
    for (&v, &x) in args.iter().zip(operands) {
        m.set_value(v, x).unwrap();
    }
    m.exec(inst, store, &pkt, &mut NoOpaque).unwrap();
    d.results.iter().map(|&r| m.value(r).unwrap()).collect()
}

/// The documented semantics, written from docs/nf-api.md alone: key -> (value, last used).
struct Model {
    capacity: usize,
    idle: Option<u64>,
    entries: std::collections::BTreeMap<Vec<u64>, (Vec<u64>, u64)>,
}

impl Model {
    fn live(&self, e: &(Vec<u64>, u64), now: u64) -> bool {
        self.idle.is_none_or(|idle| now.saturating_sub(e.1) <= idle)
    }

    fn find(&mut self, key: &[u64], now: u64) -> Option<Vec<u64>> {
        let live = self.entries.get(key).is_some_and(|e| self.live(e, now));
        if !live {
            return None;
        }
        let e = self.entries.get_mut(key)?;
        e.1 = now;
        Some(e.0.clone())
    }

    fn insert(&mut self, key: &[u64], value: &[u64], now: u64) -> bool {
        let live_here = self.entries.get(key).is_some_and(|e| self.live(e, now));
        let live_count = self.entries.values().filter(|e| self.live(e, now)).count();
        if !live_here && live_count >= self.capacity {
            return false;
        }
        self.entries.insert(key.to_vec(), (value.to_vec(), now));
        true
    }

    fn erase(&mut self, key: &[u64]) {
        self.entries.remove(key);
    }
}

#[test]
fn map_operations_match_the_interpreter() {
    let module = Arc::new(parse_module(NF).unwrap());
    let insts: Vec<(Inst, u32, u8)> = module
        .process
        .insts
        .iter()
        .filter_map(|(i, d)| match &d.kind {
            InstKind::MapFind { state, .. } => Some((i, state.as_u32(), 0)),
            InstKind::MapInsert { state, .. } => Some((i, state.as_u32(), 1)),
            InstKind::MapErase { state, .. } => Some((i, state.as_u32(), 2)),
            _ => None,
        })
        .collect();
    let mut primary = Primary::new(module.clone(), StateStore::new(&module));
    let mut store = StateStore::new(&module);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut now = 0u64;
    let mut refused = [0u32; 2];
    // flows: expiring, capacity 4, idle 100 ns; table: plain, capacity 3 (see NF).
    let mut models = [
        Model {
            capacity: 4,
            idle: Some(100),
            entries: Default::default(),
        },
        Model {
            capacity: 3,
            idle: None,
            entries: Default::default(),
        },
    ];
    // Keys {i16, i8} and values {i32, i8} as the NF declares them.
    let key_masks = [0xffffu64, 0xff];
    let value_masks = [0xffff_ffffu64, 0xff];
    for step in 0..20_000 {
        now += next() % 40;
        let (inst, state, op) = insts[(next() % insts.len() as u64) as usize];
        // Keys from a small set (so maps fill up), sometimes wider than the key types.
        let mut key = vec![next() % 6, next() % 2];
        if next() % 10 == 0 {
            key[0] |= 1 << 20;
            key[1] |= 0x300;
        }
        let value = vec![next() % (1 << 33), next() % 300];
        primary.set_now(now);
        let want = match op {
            0 => reference(&module, &mut store, inst, now, &key),
            1 => {
                let ops: Vec<u64> = key.iter().chain(&value).copied().collect();
                reference(&module, &mut store, inst, now, &ops)
            }
            _ => reference(&module, &mut store, inst, now, &key),
        };
        let got = match op {
            0 => match primary.find(state, &key) {
                Some(v) => [vec![1], v].concat(),
                None => vec![0, 0, 0],
            },
            1 => vec![u64::from(primary.insert(state, &key, &value))],
            _ => {
                primary.erase(state, &key);
                Vec::new()
            }
        };
        assert_eq!(
            got, want,
            "step {step}: op {op} on state {state} key {key:?} at {now}"
        );
        let mkey: Vec<u64> = key.iter().zip(key_masks).map(|(k, m)| k & m).collect();
        let mvalue: Vec<u64> = value.iter().zip(value_masks).map(|(v, m)| v & m).collect();
        let model = &mut models[state as usize];
        let expected = match op {
            0 => match model.find(&mkey, now) {
                Some(v) => [vec![1], v].concat(),
                None => vec![0, 0, 0],
            },
            1 => vec![u64::from(model.insert(&mkey, &mvalue, now))],
            _ => {
                model.erase(&mkey);
                Vec::new()
            }
        };
        assert_eq!(
            got, expected,
            "step {step}: op {op} on state {state} key {key:?} at {now}: the documented semantics"
        );
        assert!(primary.take_error().is_none());
        assert_eq!(primary.store, store, "step {step}");
        if op == 1 && got == [0] {
            refused[state as usize] += 1;
        }
        let name = &module.states[StateId::from_u32(state)].name;
        assert_eq!(
            primary.map_value(state, &key[..]),
            store.map_get_live(&module, name, &key).unwrap_or(None),
        );
    }
    // Both maps were driven past capacity.
    assert!(refused.iter().all(|&n| n > 0), "{refused:?}");
}

/// The idle-time boundary, step by step: an entry used exactly `idle` ago is live, one used
/// `idle + 1` ago is gone (docs/nf-api.md: "not inserted or found for more than IdleNs").
#[test]
fn expiry_boundary_is_more_than_the_idle_time() {
    let module = Arc::new(parse_module(NF).unwrap());
    let flows = module.state_by_name("flows").unwrap().as_u32();
    let mut primary = Primary::new(module.clone(), StateStore::new(&module));
    let (key, value) = ([1u64, 2], [3u64, 4]);
    primary.set_now(1000);
    assert!(primary.insert(flows, &key, &value));
    primary.set_now(1100);
    assert_eq!(
        primary.find(flows, &key),
        Some(value.to_vec()),
        "used 100 ns ago"
    );
    primary.set_now(1201);
    assert_eq!(primary.find(flows, &key), None, "used 101 ns ago");
}
