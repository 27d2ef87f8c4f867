//! Exact tables keep their entries in a persistent trie that batches edit in
//! place of a rebuild. Differential test against a plain model: random batches of
//! inserts, modifies, deletes and clears (some failing), checking errors,
//! all-or-nothing application, `entries()` order and contents, the classifier
//! kind, and what packets see.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tandem_switch::{
    bench::frame64, ClassifierKind, ControlError, ControlOp, KeyMatch, Switch, TableEntry,
    LINEAR_MAX,
};

fn switch(size: usize) -> Switch {
    let src = include_str!("programs/twotables.p4").replace(
        "key = { hdr.ipv4.dstAddr: exact; }",
        &format!("key = {{ hdr.ipv4.dstAddr: exact; }}\n        size = {size};"),
    );
    Switch::from_source(&src).expect("load")
}

fn entry(key: u32, arg: u8) -> TableEntry {
    TableEntry {
        matches: vec![KeyMatch::Exact(key as u64)],
        action: "set_a".into(),
        args: vec![arg as u64],
        priority: None,
    }
}

/// Applies `op` to the model the way the switch must; `Err` names the error.
fn model_op(m: &mut Vec<(u32, u8)>, op: &ControlOp, size: usize) -> Result<(), &'static str> {
    let key = |ms: &[KeyMatch]| match ms[0] {
        KeyMatch::Exact(k) => k as u32,
        _ => unreachable!(),
    };
    match op {
        ControlOp::Insert { entry, .. } => {
            let k = key(&entry.matches);
            if m.iter().any(|e| e.0 == k) {
                return Err("duplicate");
            }
            if m.len() >= size {
                return Err("full");
            }
            m.push((k, entry.args[0] as u8));
        }
        ControlOp::Modify { entry, .. } => {
            let k = key(&entry.matches);
            let e = m.iter_mut().find(|e| e.0 == k).ok_or("not found")?;
            e.1 = entry.args[0] as u8;
        }
        ControlOp::Delete { matches, .. } => {
            let k = key(matches);
            let i = m.iter().position(|e| e.0 == k).ok_or("not found")?;
            m.remove(i);
        }
        ControlOp::Clear { .. } => m.clear(),
        ControlOp::SetDefault { .. } => unreachable!(),
    }
    Ok(())
}

fn kind(e: &ControlError) -> &'static str {
    match e {
        ControlError::Duplicate(_) => "duplicate",
        ControlError::Full { .. } => "full",
        ControlError::NotFound(_) => "not found",
        _ => "other",
    }
}

/// `rounds` random batches of up to `batch` operations on keys `0..keys` of a
/// table of `size` entries (from `seed`), checked against the model.
fn run_model(seed: u64, size: usize, keys: u32, batch: usize, rounds: usize) {
    {
        let sw = switch(size);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut model: Vec<(u32, u8)> = Vec::new();
        let mut w = sw.worker();
        for round in 0..rounds {
            let n = rng.gen_range(1..=batch);
            let mut ops = Vec::new();
            for _ in 0..n {
                // keys from a small domain so duplicates and misses happen
                let k = 0x0a00_0000 + rng.gen_range(0..keys);
                let arg = rng.gen_range(1..=255u8);
                let table = "a".to_string();
                ops.push(match rng.gen_range(0..1000) {
                    0..=549 => ControlOp::Insert {
                        table,
                        entry: entry(k, arg),
                    },
                    550..=749 => ControlOp::Modify {
                        table,
                        entry: entry(k, arg),
                    },
                    750..=998 => ControlOp::Delete {
                        table,
                        matches: vec![KeyMatch::Exact(k as u64)],
                        priority: None,
                    },
                    _ => ControlOp::Clear { table },
                });
            }
            let mut next = model.clone();
            let want = ops.iter().try_for_each(|op| model_op(&mut next, op, size));
            let got = sw.apply_batch(&ops);
            match (&want, &got) {
                (Ok(()), Ok(())) => model = next,
                (Err(w), Err(g)) => assert_eq!(*w, kind(g), "seed {seed} round {round}: {g}"),
                _ => panic!("seed {seed} round {round}: want {want:?}, got {got:?}"),
            }
            let entries: Vec<(u32, u8)> = sw
                .entries("a")
                .expect("a")
                .iter()
                .map(|e| match e.matches[..] {
                    [KeyMatch::Exact(k)] => (k as u32, e.args[0] as u8),
                    _ => panic!("bad entry {e:?}"),
                })
                .collect();
            assert_eq!(entries, model, "seed {seed} round {round}");
            let want_kind = match model.len() {
                0 => ClassifierKind::Empty,
                n if n <= LINEAR_MAX => ClassifierKind::Linear,
                _ => ClassifierKind::Exact,
            };
            assert_eq!(sw.classifier("a").expect("a"), want_kind);
            for _ in 0..8 {
                let k = 0x0a00_0000 + rng.gen_range(0..keys);
                let want = model.iter().find(|e| e.0 == k).map_or(0, |e| e.1);
                let (_, out) = w.process(0, &frame64(1, k, 17, 1, 2)).expect("forwarded");
                assert_eq!(out[22], want, "seed {seed} round {round} key {k:#x}");
            }
        }
    }
}

#[test]
fn exact_store_matches_a_model() {
    // small tables: duplicates, misses, full tables, linear <-> trie
    for seed in 0..4u64 {
        run_model(seed, 40, 60, 6, 400);
    }
    // larger tables with larger batches: the flat index is remade many times
    for seed in 0..2u64 {
        run_model(seed, 3000, 2500, 60, 300);
    }
}

#[test]
fn large_exact_table_takes_single_inserts() {
    let sw = Switch::from_source(tandem_switch::bench::MINILB_P4).expect("load");
    let ops = tandem_switch::bench::minilb_entries(50_000);
    sw.apply_batch(&ops).expect("bulk");
    assert_eq!(sw.classifier("conn").expect("conn"), ClassifierKind::Exact);
    let extra = tandem_switch::bench::minilb_extra_entry(50_000);
    sw.apply_batch(std::slice::from_ref(&extra))
        .expect("one more");
    assert!(matches!(
        sw.apply_batch(&[extra]),
        Err(ControlError::Duplicate(_))
    ));
    assert_eq!(sw.entries("conn").expect("conn").len(), 50_001);
}
