//! Atomic batches under load: a control thread rewrites two tables together in
//! each batch while a packet thread streams packets; every packet must see both
//! changes of a batch or neither (the two tables' values always agree), and no
//! packet may see an older batch than one it already saw.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tandem_switch::{bench::frame64, ControlOp, KeyMatch, Switch, TableEntry};

const SRC: u32 = 0x0a00_0001;
const DST: u32 = 0x0a00_0002;

fn batch(i: u64, insert: bool) -> Vec<ControlOp> {
    let a = TableEntry {
        matches: vec![KeyMatch::Exact(DST as u64)],
        action: "set_a".into(),
        args: vec![i & 0xff],
        priority: None,
    };
    let b = TableEntry {
        matches: vec![KeyMatch::Lpm(SRC as u64 & 0xffff_ff00, 24)],
        action: "set_b".into(),
        args: vec![i & 0xff],
        priority: None,
    };
    if insert {
        vec![
            ControlOp::Insert {
                table: "a".into(),
                entry: a,
            },
            ControlOp::Insert {
                table: "b".into(),
                entry: b,
            },
        ]
    } else {
        vec![
            ControlOp::Modify {
                table: "a".into(),
                entry: a,
            },
            ControlOp::Modify {
                table: "b".into(),
                entry: b,
            },
        ]
    }
}

#[test]
fn packets_never_see_half_a_batch() {
    let src = include_str!("programs/twotables.p4");
    let sw = Switch::from_source(src).expect("load");
    sw.apply_batch(&batch(1, true)).expect("initial batch");
    // pad the tables so the classifiers are rebuilt as hash / trie too
    let mut pad = Vec::new();
    for k in 0..20u64 {
        pad.push(ControlOp::Insert {
            table: "a".into(),
            entry: TableEntry {
                matches: vec![KeyMatch::Exact(0xc000_0000 + k)],
                action: "set_a".into(),
                args: vec![0],
                priority: None,
            },
        });
        pad.push(ControlOp::Insert {
            table: "b".into(),
            entry: TableEntry {
                matches: vec![KeyMatch::Lpm(0xc000_0000 + (k << 8), 24)],
                action: "set_b".into(),
                args: vec![0],
                priority: None,
            },
        });
    }
    sw.apply_batch(&pad).expect("pad");
    let stop = Arc::new(AtomicBool::new(false));
    let pkt = frame64(SRC, DST, 17, 1, 2);
    let reader = {
        let sw = sw.clone();
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut w = sw.worker();
            let (mut n, mut last, mut changes) = (0u64, 0u8, 0u64);
            while !stop.load(Ordering::Relaxed) {
                let (port, out) = w.process(0, &pkt).expect("forwarded");
                assert_eq!(port, 1);
                let (dscp, ttl) = (out[15], out[22]);
                assert_eq!(dscp, ttl, "packet {n} saw half a batch");
                if ttl != last {
                    changes += 1;
                    last = ttl;
                }
                n += 1;
            }
            (n, changes)
        })
    };
    let t = Instant::now();
    let mut i = 2u64;
    while t.elapsed() < Duration::from_millis(700) {
        sw.apply_batch(&batch(i, false)).expect("batch");
        i += 1;
    }
    stop.store(true, Ordering::Relaxed);
    let (n, changes) = reader.join().expect("reader thread");
    eprintln!("{i} batches, {n} packets, {changes} observed changes");
    assert!(n > 1000, "too few packets: {n}");
    assert!(changes > 10, "packets never observed batches: {changes}");
}

#[test]
fn failed_batch_changes_nothing() {
    let sw = Switch::from_source(include_str!("programs/twotables.p4")).expect("load");
    sw.apply_batch(&batch(7, true)).expect("batch");
    let before = (sw.entries("a").expect("a"), sw.entries("b").expect("b"));
    let mut ops = batch(9, false);
    ops.push(ControlOp::Delete {
        table: "a".into(),
        matches: vec![KeyMatch::Exact(12345)],
        priority: None,
    });
    assert!(sw.apply_batch(&ops).is_err());
    assert_eq!(
        before,
        (sw.entries("a").expect("a"), sw.entries("b").expect("b"))
    );
    let mut w = sw.worker();
    let (_, out) = w.process(0, &frame64(SRC, DST, 17, 1, 2)).expect("fwd");
    assert_eq!((out[15], out[22]), (7, 7));
}
