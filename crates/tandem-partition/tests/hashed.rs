//! Hash-indexed register storage (`tandem_partition::hashed`): tiny hash spaces force
//! collisions; the switch's lookup (`SwitchModel`) must return each held key's own value and
//! never another key's; a negative control turns the check word off and must be caught.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tandem_partition::hashed::{
    measure_capacity, measure_capacity_with, CapacityStop, Fit, HashedLayout, KeyCheck, Slot,
    SlotAllocator, SwitchModel,
};

/// A 5-tuple-shaped key layout that is not statefilter's: (a: 32, b: 16, proto: 8).
fn tiny(ways: u32, slots: u64, check: KeyCheck, collisions: u64) -> HashedLayout {
    HashedLayout::new(ways, slots, check, vec![32, 16, 8], 4, collisions).unwrap()
}

/// Two distinct keys with the same candidate at every way.
fn sharing_pair(l: &HashedLayout) -> (Vec<u64>, Vec<u64>) {
    let first = vec![0x0a00_0001, 1000, 6];
    let c = l.candidates(&first).unwrap();
    for port in 1001..100_000u64 {
        let k = vec![0x0a00_0001, port, 6];
        if l.candidates(&k).unwrap() == c {
            return (first, k);
        }
    }
    panic!("no key shares the slot");
}

/// Applies inserts/erases to the allocator, the switch model and a reference map; then every
/// key the switch holds must read back its own value, and (with a full-key check) every other
/// key must miss. Returns the first disagreement.
fn run(l: &HashedLayout, ops: &[(bool, Vec<u64>, u64)], compare_check: bool) -> Result<(), String> {
    let mut a = SlotAllocator::new(l.clone());
    let mut sw = SwitchModel::new(l.clone());
    sw.compare_check = compare_check;
    let mut reference: BTreeMap<Vec<u64>, u64> = BTreeMap::new();
    let mut seen = Vec::new();
    for (insert, key, value) in ops {
        seen.push(key.clone());
        if *insert {
            let slot = a.insert(key).unwrap();
            sw.write(key, slot, *value).unwrap();
            reference.insert(key.clone(), *value);
        } else if let Some(slot) = a.remove(key).unwrap() {
            sw.clear(key, slot);
            reference.remove(key);
        }
        for k in &seen {
            let got = sw.lookup(k).unwrap();
            match (reference.get(k), a.get(k)) {
                (Some(v), Some(s)) if s != Slot::Server => {
                    if got != Some(*v) {
                        return Err(format!("{k:?} at {s:?}: switch reads {got:?}, want {v}"));
                    }
                }
                (Some(_), _) => {} // on the server: its packets take the server path
                (None, _) => {
                    if l.check == KeyCheck::FullKey && got.is_some() {
                        return Err(format!("absent {k:?} read {got:?}"));
                    }
                }
            }
        }
    }
    Ok(())
}

#[test]
fn two_live_keys_sharing_a_slot_each_read_their_own_value() {
    for check in [KeyCheck::FullKey, KeyCheck::Fingerprint(8)] {
        let l = tiny(1, 4, check, 4);
        let (k1, k2) = sharing_pair(&l);
        let mut a = SlotAllocator::new(l.clone());
        let s1 = a.insert(&k1).unwrap();
        let s2 = a.insert(&k2).unwrap();
        assert!(matches!(s1, Slot::Home { .. }), "{s1:?}");
        assert!(matches!(s2, Slot::Collision { .. }), "{s2:?}");
        assert_ne!(s1.at(), s2.at());
        let ops = vec![(true, k1.clone(), 3), (true, k2.clone(), 5)];
        run(&l, &ops, true).unwrap();
        // Erasing the home key leaves the collided one readable through its entry.
        let ops2 = [ops.clone(), vec![(false, k1.clone(), 0)]].concat();
        run(&l, &ops2, true).unwrap();
    }
}

#[test]
fn negative_control_without_the_check_word_the_mix_up_is_caught() {
    let l = tiny(1, 4, KeyCheck::FullKey, 4);
    let (k1, k2) = sharing_pair(&l);
    // k2 is never inserted: reading k1's slot for it is the mix-up the check prevents.
    let ops = vec![(true, k1, 3), (false, k2, 0)];
    run(&l, &ops, true).unwrap();
    let err = run(&l, &ops, false).unwrap_err();
    assert!(err.contains("absent"), "{err}");
}

#[test]
fn a_full_array_and_collision_table_keep_the_key_on_the_server() {
    let l = tiny(1, 1, KeyCheck::FullKey, 0);
    let mut a = SlotAllocator::new(l.clone());
    let k1 = vec![1, 2, 6];
    let k2 = vec![3, 4, 17];
    assert!(matches!(a.insert(&k1).unwrap(), Slot::Home { .. }));
    assert_eq!(a.insert(&k2).unwrap(), Slot::Server);
    assert_eq!(a.stats().on_server, 1);
    // The server still holds it; erasing the first frees the slot for the next key.
    assert_eq!(a.get(&k2), Some(Slot::Server));
    assert!(a.remove(&k1).unwrap().is_some());
    assert!(matches!(a.insert(&[5, 6, 6]).unwrap(), Slot::Home { .. }));
    assert_eq!(a.remove(&k2).unwrap(), Some(Slot::Server));
    assert_eq!(a.stats().keys, 1);
}

#[test]
fn random_churn_in_tiny_hash_spaces_matches_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    for round in 0..60 {
        let check = if round % 2 == 0 {
            KeyCheck::FullKey
        } else {
            // 3 bits: fingerprints collide all the time.
            KeyCheck::Fingerprint(3)
        };
        let ways = 1 + round % 3;
        let l = tiny(ways, 1 << (round % 3), check, round as u64 % 4);
        let ops: Vec<(bool, Vec<u64>, u64)> = (0..40)
            .map(|_| {
                let k = vec![rng.gen_range(0..4u64), rng.gen_range(0..3u64), 6];
                (rng.gen_bool(0.7), k, rng.gen_range(0..16u64))
            })
            .collect();
        run(&l, &ops, true).unwrap_or_else(|e| panic!("round {round}: {e}"));
    }
}

#[test]
fn negative_control_churn_without_the_check_word_is_caught() {
    // The same churn with the check word ignored must find a disagreement somewhere.
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    let mut caught = 0;
    for round in 0..60 {
        let l = tiny(1 + round % 3, 2, KeyCheck::FullKey, round as u64 % 4);
        let ops: Vec<(bool, Vec<u64>, u64)> = (0..40)
            .map(|_| {
                let k = vec![rng.gen_range(0..4u64), rng.gen_range(0..3u64), 6];
                (rng.gen_bool(0.7), k, rng.gen_range(0..16u64))
            })
            .collect();
        caught += usize::from(run(&l, &ops, false).is_err());
    }
    assert!(caught > 30, "{caught} of 60");
}

#[test]
fn fit_respects_the_budget_and_capacity_counts_add_up() {
    let sram = 1u64 << 20; // 128 KB
    let l = HashedLayout::fit(
        sram,
        4,
        KeyCheck::Fingerprint(8),
        vec![32, 32, 16, 16, 8],
        4,
        64,
    )
    .unwrap();
    assert!(l.sram_bits() <= sram, "{l:?}");
    assert!(l.slots_per_way.is_power_of_two());
    // Doubling the slots would not fit.
    let mut bigger = l.clone();
    bigger.slots_per_way *= 2;
    assert!(bigger.sram_bits() > sram);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let cap = measure_capacity(l.clone(), 1e-2, u64::MAX, || {
        vec![
            rng.gen::<u32>() as u64,
            rng.gen::<u32>() as u64,
            rng.gen::<u16>() as u64,
            rng.gen::<u16>() as u64,
            6,
        ]
    })
    .unwrap();
    assert!(
        cap.connections > 0 && cap.connections <= l.slots(),
        "{cap:?}"
    );
    assert!(cap.collision_rate <= 1e-2, "{cap:?}");
    assert_ne!(cap.stop, CapacityStop::Limit);
    assert!(
        HashedLayout::fit(10, 4, KeyCheck::FullKey, vec![32], 4, 64).is_err(),
        "a budget below one slot is an error"
    );
}

#[test]
fn bad_geometry_and_key_shapes_are_errors() {
    assert!(HashedLayout::new(0, 4, KeyCheck::FullKey, vec![8], 1, 0).is_err());
    assert!(HashedLayout::new(1, 0, KeyCheck::FullKey, vec![8], 1, 0).is_err());
    // Any slot count is a layout (the P4 back end takes powers of two only).
    assert!(HashedLayout::new(1, 3, KeyCheck::FullKey, vec![8], 1, 0).is_ok());
    assert!(HashedLayout::new(1, 4, KeyCheck::Fingerprint(0), vec![8], 1, 0).is_err());
    assert!(HashedLayout::new(1, 4, KeyCheck::FullKey, vec![], 1, 0).is_err());
    let l = tiny(1, 4, KeyCheck::FullKey, 0);
    assert!(l.candidate(0, &[1, 2]).is_err());
    assert!(SlotAllocator::new(l).insert(&[1]).is_err());
}

#[test]
fn the_hash_is_the_switch_crc32_over_the_rotated_key() {
    // Way 0: crc32 over 0a000001 ++ 03e8 ++ 06 (the key at its byte widths), as the generated
    // P4's `hash(..., HashAlgorithm.crc32, 32w0, {k0, k1, k2}, ...)`; way 1 the bytes rotated.
    let l = tiny(2, 1 << 16, KeyCheck::Fingerprint(16), 0);
    let k = [0x0a00_0001, 1000, 6];
    let bytes = [0x0au8, 0, 0, 1, 0x03, 0xe8, 6];
    let h0 = tandem_ir::HashAlgo::Crc32.compute(&bytes);
    assert_eq!(l.candidate(0, &k).unwrap(), h0 & 0xffff);
    let mut reversed = bytes;
    reversed.reverse();
    let hf = tandem_ir::HashAlgo::Crc32.compute(&reversed);
    assert_eq!(l.fingerprint(&k).unwrap(), Some((hf >> 16).max(1)));
    let mut rotated = bytes;
    rotated.rotate_left(l.rotation(1));
    assert_ne!(l.rotation(1), 0);
    let h1 = tandem_ir::HashAlgo::Crc32.compute(&rotated);
    assert_eq!(l.candidate(1, &k).unwrap(), h1 & 0xffff);
}

/// The key's bytes as the switch hashes them, built independently of the layout.
fn reference_bytes(key_bits: &[u32], key: &[u64]) -> Vec<u8> {
    let mut out = Vec::new();
    for (&v, &b) in key.iter().zip(key_bits) {
        let n = b.div_ceil(8);
        for i in (0..n).rev() {
            out.push((v >> (8 * i)) as u8);
        }
    }
    out
}

#[test]
fn candidates_and_fingerprints_equal_the_rotated_crc_for_any_layout() {
    // The allocation-free hashing (bytes built once on the stack, each way's rotation hashed
    // as two chained halves) against the plain definition, on odd widths, many ways and a key
    // too long for the stack buffer (10 fields of 64 bits = 80 bytes).
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    let shapes: [&[u32]; 5] = [
        &[32, 16, 8],
        &[1],
        &[13, 7, 64, 3],
        &[64; 10],
        &[32, 32, 16, 16, 8],
    ];
    for key_bits in shapes {
        for ways in [1u32, 2, 3, 4, 7, 16] {
            let l = HashedLayout::new(
                ways,
                1 << 12,
                KeyCheck::Fingerprint(12),
                key_bits.to_vec(),
                4,
                0,
            )
            .unwrap();
            for _ in 0..50 {
                let key: Vec<u64> = key_bits
                    .iter()
                    .map(|&b| rng.gen::<u64>() & (u64::MAX >> (64 - b)))
                    .collect();
                let bytes = reference_bytes(key_bits, &key);
                assert_eq!(l.key_bytes(&key).unwrap(), bytes);
                let cands = l.candidates(&key).unwrap();
                assert_eq!(cands.len(), ways as usize);
                for (w, &c) in cands.iter().enumerate() {
                    let mut rotated = bytes.clone();
                    rotated.rotate_left(l.rotation(w as u32));
                    let h = tandem_ir::HashAlgo::Crc32.compute(&rotated);
                    assert_eq!(c, h % (1 << 12), "{key_bits:?} way {w}");
                    assert_eq!(l.candidate(w as u32, &key).unwrap(), c);
                }
                let mut reversed = bytes.clone();
                reversed.reverse();
                let f = tandem_ir::HashAlgo::Crc32.compute(&reversed) >> 20;
                assert_eq!(l.fingerprint(&key).unwrap(), Some(f.max(1)));
            }
        }
    }
}

#[test]
fn ways_and_fingerprints_are_independent_for_random_keys() {
    // CRC is affine: keys colliding at way 0 must not collide at way 1 as a rule, and keys
    // sharing a slot must not share a fingerprint as a rule.
    let l = tiny(2, 1 << 8, KeyCheck::Fingerprint(8), 0);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let keys: Vec<Vec<u64>> = (0..2000)
        .map(|_| vec![rng.gen::<u32>() as u64, rng.gen::<u16>() as u64, 6])
        .collect();
    let (mut same0, mut same_both, mut same_fp) = (0, 0, 0);
    for (i, a) in keys.iter().enumerate() {
        for b in &keys[i + 1..i + 20.min(keys.len() - i)] {
            if l.candidate(0, a).unwrap() == l.candidate(0, b).unwrap() {
                same0 += 1;
                same_both += usize::from(l.candidate(1, a).unwrap() == l.candidate(1, b).unwrap());
                same_fp += usize::from(l.fingerprint(a).unwrap() == l.fingerprint(b).unwrap());
            }
        }
    }
    assert!(same0 > 50, "{same0}");
    assert!(same_both * 10 < same0, "{same_both} of {same0}");
    assert!(same_fp * 10 < same0, "{same_fp} of {same0}");
}

/// The exactness bound (docs/hashed-storage.md, "Exactness"): a key never inserted reads a
/// value only when a candidate slot holds a key with its fingerprint, so the share of absent
/// keys that hit is at most `ways · 2^-f` (and about `Σ_w load_w · 2^-f`); with a full-key
/// check it is zero. Measured with an 8-bit fingerprint so that hits are frequent enough to
/// count; the negative control is the full-key check, which must never hit.
#[test]
fn absent_keys_hit_at_most_at_the_fingerprint_bound() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut key = || vec![rng.gen::<u32>() as u64, rng.gen::<u16>() as u64, 6];
    let held: Vec<Vec<u64>> = (0..3900).map(|_| key()).collect();
    let absent: Vec<Vec<u64>> = (0..20_000).map(|_| key()).collect();
    // Greedy and relocating placement (at a higher load: the bound does not depend on it).
    for (check, relocate, n) in [
        (KeyCheck::Fingerprint(8), 0, 3000),
        (KeyCheck::FullKey, 0, 3000),
        (KeyCheck::Fingerprint(8), 3, 3900),
        (KeyCheck::FullKey, 3, 3900),
    ] {
        let l = tiny(4, 1 << 10, check, 64);
        let mut a = SlotAllocator::new(l.clone()).relocating(relocate);
        let mut sw = SwitchModel::new(l.clone());
        let mut values = BTreeMap::new();
        for k in held.iter().take(n) {
            let s = a.insert(k).unwrap();
            for m in a.take_moves() {
                let v = values[&m.key];
                sw.write(
                    &m.key,
                    Slot::Home {
                        way: m.to.0,
                        slot: m.to.1,
                    },
                    v,
                )
                .unwrap();
                sw.clear(
                    &m.key,
                    Slot::Home {
                        way: m.from.0,
                        slot: m.from.1,
                    },
                );
            }
            sw.write(k, s, 1).unwrap();
            values.insert(k.clone(), 1u64);
        }
        let held_set: std::collections::BTreeSet<&Vec<u64>> = held.iter().collect();
        let hits = absent
            .iter()
            .filter(|k| !held_set.contains(k))
            .filter(|k| sw.lookup(k).unwrap().is_some())
            .count();
        let rate = hits as f64 / absent.len() as f64;
        match check {
            KeyCheck::Fingerprint(f) => {
                let bound = f64::from(l.ways) / f64::from(1u32 << f);
                assert!(rate <= bound, "false hits {rate} > {bound}");
                assert!(
                    hits > 0,
                    "an 8-bit fingerprint must let some absent key through"
                );
            }
            KeyCheck::FullKey => assert_eq!(hits, 0),
        }
    }
}

/// Inserts and erases through an allocator that relocates (`depth` keys deep), writing the
/// switch model as the runtime does: each move's new cell before its old one is cleared, then
/// the new key. After every write, every held key other than the one being inserted must read
/// its own value (a key is never unreadable mid-batch). `apply_moves` false is the negative
/// control: the runtime forgetting the moves.
fn run_relocating(
    l: &HashedLayout,
    ops: &[(bool, Vec<u64>, u64)],
    depth: u32,
    apply_moves: bool,
) -> Result<usize, String> {
    let mut a = SlotAllocator::new(l.clone()).relocating(depth);
    let mut sw = SwitchModel::new(l.clone());
    let mut reference: BTreeMap<Vec<u64>, u64> = BTreeMap::new();
    let mut moved = 0;
    let check = |sw: &SwitchModel,
                 a: &SlotAllocator,
                 reference: &BTreeMap<Vec<u64>, u64>,
                 skip: Option<&Vec<u64>>|
     -> Result<(), String> {
        for (k, v) in reference {
            if Some(k) == skip || a.get(k) == Some(Slot::Server) {
                continue;
            }
            let got = sw.lookup(k).unwrap();
            if got != Some(*v) {
                return Err(format!(
                    "{k:?} at {:?}: switch reads {got:?}, want {v}",
                    a.get(k)
                ));
            }
        }
        Ok(())
    };
    for (insert, key, value) in ops {
        if *insert {
            let slot = a.insert(key).unwrap();
            let moves = a.take_moves();
            moved += moves.len();
            if apply_moves {
                for m in moves {
                    let v = reference[&m.key];
                    sw.write(
                        &m.key,
                        Slot::Home {
                            way: m.to.0,
                            slot: m.to.1,
                        },
                        v,
                    )
                    .unwrap();
                    check(&sw, &a, &reference, Some(key))?;
                    sw.clear(
                        &m.key,
                        Slot::Home {
                            way: m.from.0,
                            slot: m.from.1,
                        },
                    );
                    check(&sw, &a, &reference, Some(key))?;
                }
            }
            sw.write(key, slot, *value).unwrap();
            reference.insert(key.clone(), *value);
        } else if let Some(slot) = a.remove(key).unwrap() {
            sw.clear(key, slot);
            reference.remove(key);
        }
        check(&sw, &a, &reference, None)?;
    }
    Ok(moved)
}

#[test]
fn relocation_keeps_every_key_readable_and_matches_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    let mut moved = 0;
    for round in 0..80 {
        let check = match round % 3 {
            0 => KeyCheck::FullKey,
            1 => KeyCheck::Fingerprint(3),
            _ => KeyCheck::Fingerprint(6),
        };
        let ways = 2 + round % 3;
        // Non-power-of-two slot counts too.
        let l = tiny(ways, 3 + round as u64 % 4, check, round as u64 % 3);
        let ops: Vec<(bool, Vec<u64>, u64)> = (0..60)
            .map(|_| {
                let k = vec![rng.gen_range(0..6u64), rng.gen_range(0..4u64), 6];
                (rng.gen_bool(0.75), k, rng.gen_range(0..16u64))
            })
            .collect();
        moved += run_relocating(&l, &ops, 1 + round % 3, true)
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
    }
    assert!(
        moved > 50,
        "the churn must exercise relocation ({moved} moves)"
    );
}

#[test]
fn negative_control_moves_not_written_are_caught() {
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let mut caught = 0;
    for round in 0..40 {
        let l = tiny(2 + round % 2, 4, KeyCheck::Fingerprint(6), 0);
        let ops: Vec<(bool, Vec<u64>, u64)> = (0..40)
            .map(|_| {
                let k = vec![rng.gen_range(0..6u64), rng.gen_range(0..4u64), 6];
                (rng.gen_bool(0.8), k, rng.gen_range(1..16u64))
            })
            .collect();
        if run_relocating(&l, &ops, 2, false).is_err() {
            caught += 1;
        }
    }
    assert!(
        caught > 10,
        "forgetting the moves must be caught ({caught} of 40)"
    );
}

/// Relocation and the model's layout choices raise the keys held within the collision rate:
/// same SRAM, same random keys.
#[test]
fn relocation_and_packing_hold_more_keys_within_the_rate() {
    let sram = 1u64 << 20;
    let keys = |seed| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        move || vec![rng.gen::<u32>() as u64, rng.gen::<u16>() as u64, 6]
    };
    let fit = |f: Fit| {
        HashedLayout::fit_with(
            sram,
            8,
            KeyCheck::Fingerprint(10),
            vec![32, 16, 8],
            2,
            64,
            f,
        )
        .unwrap()
    };
    let plain = fit(Fit::default());
    let packed = fit(Fit {
        any_count: true,
        packed: true,
        ..Fit::default()
    });
    assert!(packed.sram_bits() <= sram && plain.sram_bits() <= sram);
    // A 32-bit hit time per slot (a map that expires) is sized in: fewer slots, within the
    // SRAM with the times; without counting them the packed layout would overrun it.
    let timed = fit(Fit {
        any_count: true,
        packed: true,
        hit_time_bits: 32,
    });
    assert!(timed.sram_bits() + 32 * timed.slots() <= sram, "{timed:?}");
    assert!(packed.sram_bits() + 32 * packed.slots() > sram);
    assert!(timed.slots() < packed.slots());
    assert_eq!(packed.slots_per_word(), 2);
    assert!(packed.slots() > plain.slots(), "{packed:?} vs {plain:?}");
    let greedy = measure_capacity(plain.clone(), 1e-3, u64::MAX, keys(5)).unwrap();
    let moved = measure_capacity_with(
        SlotAllocator::untracked(plain.clone()).relocating(3),
        1e-3,
        u64::MAX,
        keys(5),
    )
    .unwrap();
    let both = measure_capacity_with(
        SlotAllocator::untracked(packed.clone()).relocating(3),
        1e-3,
        u64::MAX,
        keys(5),
    )
    .unwrap();
    assert!(
        moved.connections > greedy.connections,
        "{moved:?} vs {greedy:?}"
    );
    assert!(
        both.connections > moved.connections,
        "{both:?} vs {moved:?}"
    );
    assert!(both.collision_rate <= 1e-3, "{both:?}");
}
