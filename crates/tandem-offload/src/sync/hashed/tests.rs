//! Packed words (`HashedSync::push_cell`): every register write the runtime sends is replayed
//! on a word-level model of the switch's lookup (read the word, select the slot, compare
//! the fingerprint; the collision table first), and after every single write every key the
//! switch held before the batch reads its own value. Negative control: a runtime that writes
//! a slot's word without the word's other slots is caught.

use std::collections::{BTreeMap, HashMap};

use tandem_p4::manifest::HashedMap;
use tandem_partition::hashed::{HashedLayout, KeyCheck};
use tandem_switch::{ControlOp, KeyMatch};

use super::HashedSync;
use crate::control::{ControlFailure, ControlPlane, RetryPolicy};
use crate::sync::SyncStats;

/// What the runtime sent, in order.
#[derive(Debug)]
enum Event {
    Register(String, u32, u64),
    Alt(Vec<u64>, Option<Vec<u64>>),
}

#[derive(Default)]
struct Log(Vec<Event>);

impl ControlPlane for Log {
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        for op in ops {
            let key = |ms: &[KeyMatch]| {
                ms.iter()
                    .map(|m| match m {
                        KeyMatch::Exact(v) => *v,
                        _ => u64::MAX,
                    })
                    .collect::<Vec<_>>()
            };
            match op {
                ControlOp::Insert { entry, .. } | ControlOp::Modify { entry, .. } => self
                    .0
                    .push(Event::Alt(key(&entry.matches), Some(entry.args.clone()))),
                ControlOp::Delete { matches, .. } => self.0.push(Event::Alt(key(matches), None)),
                _ => {}
            }
        }
        Ok(())
    }
    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        self.0.push(Event::Register(name.into(), index, value));
        Ok(())
    }
    fn register_read(&mut self, _: &str, _: u32) -> Result<u64, ControlFailure> {
        Ok(0)
    }
}

/// xorshift64*: the churn's keys and values (no dependency for one test).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) % n
    }
}

/// The switch's registers and collision table, as the generated program reads them.
struct Switch {
    layout: HashedLayout,
    value_bits: u32,
    words: HashMap<(u32, u64), u64>,
    alt: HashMap<Vec<u64>, Vec<u64>>,
}

impl Switch {
    fn apply(&mut self, e: &Event) {
        match e {
            Event::Register(r, i, v) => {
                let way = r.trim_start_matches('w').parse().unwrap();
                self.words.insert((way, u64::from(*i)), *v);
            }
            Event::Alt(k, Some(a)) => {
                self.alt.insert(k.clone(), a.clone());
            }
            Event::Alt(k, None) => {
                self.alt.remove(k);
            }
        }
    }

    /// The packed lookup: a collision entry names (way, slot, word, position); otherwise
    /// the ways in order, word `slot / k`, bits `[(slot % k)·b, ...)`.
    fn lookup(&self, key: &[u64]) -> Option<u64> {
        let l = &self.layout;
        let k = l.slots_per_word();
        let b = l.slot_bits();
        let fp = l.fingerprint(key).unwrap().unwrap();
        let slot_at = |way: u32, word: u64, pos: u64| {
            let w = self.words.get(&(way, word)).copied().unwrap_or(0);
            (w >> (pos * b)) & ((1 << b) - 1)
        };
        let read = |cell: u64| {
            (cell >> self.value_bits == fp).then_some(cell & ((1 << self.value_bits) - 1))
        };
        if let Some(a) = self.alt.get(key) {
            assert_eq!(a[2], a[1] / k, "the entry's word");
            assert_eq!(a[3], a[1] % k, "the entry's position");
            return read(slot_at(a[0] as u32, a[2], a[3]));
        }
        for (w, c) in l.candidates(key).unwrap().into_iter().enumerate() {
            if let Some(v) = read(slot_at(w as u32, c / k, c % k)) {
                return Some(v);
            }
        }
        None
    }
}

/// Random churn on a tiny packed map; Err on the first write after which a key the switch
/// held reads anything but its own value.
fn churn(seed: u64, slots: u64, lossy: bool) -> Result<usize, String> {
    let (fp, vb) = (6, 4);
    let h = HashedMap {
        ways: 2,
        slots_per_way: slots,
        fingerprint_bits: fp,
        cell_bits: 32,
        slots_per_word: 3,
        registers: vec!["w0".into(), "w1".into()],
        collision_table: "col".into(),
        collision_entries: 2,
        hit_time_registers: Vec::new(),
        hit_time_unit_ns: 0,
        hit_time_bits: 0,
        hit_time_ttl_units: 0,
    };
    let mut hs = HashedSync::new("m", &h, "col_alt".into(), vec![32, 16], vec![vb], None)
        .map_err(|e| e.to_string())?;
    if lossy {
        hs.lose_word_neighbours();
    }
    let layout = HashedLayout::new(2, slots, KeyCheck::Fingerprint(fp), vec![32, 16], vb, 2)
        .unwrap()
        .with_packing()
        .unwrap();
    assert_eq!(layout.slots_per_word(), 3);
    let mut sw = Switch {
        layout,
        value_bits: vb,
        words: HashMap::new(),
        alt: HashMap::new(),
    };
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut held: BTreeMap<Vec<u64>, u64> = BTreeMap::new();
    let (policy, mut stats) = (RetryPolicy::default(), SyncStats::default());
    let mut writes = 0;
    for step in 0..120 {
        let key = vec![rng.below(8), rng.below(3)];
        let value = rng.below(16);
        let placed = if rng.below(10) < 7 {
            hs.put(&key, &[value])
        } else {
            hs.delete(&key);
            false
        };
        let mut log = Log::default();
        hs.flush(&policy, &mut stats, &mut log, None)
            .map_err(|e| format!("{e:?}"))?;
        for e in &log.0 {
            sw.apply(e);
            writes += usize::from(matches!(e, Event::Register(..)));
            for (k, v) in held.iter().filter(|(k, _)| **k != key) {
                let got = sw.lookup(k);
                if got != Some(*v) {
                    return Err(format!(
                        "step {step}, after {e:?}: {k:?} reads {got:?}, want {v}"
                    ));
                }
            }
        }
        if placed {
            held.insert(key.clone(), value);
        } else {
            held.remove(&key);
        }
        if let Some(v) = held.get(&key) {
            let got = sw.lookup(&key);
            if got != Some(*v) {
                return Err(format!("step {step}: {key:?} reads {got:?}, want {v}"));
            }
        }
    }
    Ok(writes)
}

#[test]
fn packed_words_keep_every_key_readable_after_every_write() {
    let mut writes = 0;
    for seed in 0..40 {
        // 3 to 5 words per way (any count: v1model's hash takes it).
        let slots = 3 * (3 + seed % 3);
        writes += churn(seed, slots, false).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
    assert!(writes > 2000, "{writes} register writes");
}

#[test]
fn negative_control_words_written_without_their_other_slots_are_caught() {
    let caught = (0..40)
        .filter(|&seed| churn(seed, 3 * (3 + seed % 3), true).is_err())
        .count();
    assert!(
        caught > 30,
        "a lossy word write was caught in {caught} of 40"
    );
}
