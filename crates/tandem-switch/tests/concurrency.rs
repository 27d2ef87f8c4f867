//! Atomic batches under load: a control thread rewrites two tables together in
//! each batch while a packet thread streams packets; every packet must see both
//! changes of a batch or neither (the two tables' values always agree), and no
//! packet may see an older batch than one it already saw. Synchronised by packet counts,
//! not by time: after each batch the control thread waits until the packet thread has
//! processed packets that started after it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
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
    let processed = Arc::new(AtomicU64::new(0));
    let pkt = frame64(SRC, DST, 17, 1, 2);
    let reader = {
        let (sw, stop, processed) = (sw.clone(), stop.clone(), processed.clone());
        std::thread::spawn(move || {
            let mut w = sw.worker();
            let (mut n, mut last, mut changes) = (0u64, 1u8, 0u64);
            while !stop.load(Ordering::SeqCst) {
                let (port, out) = w.process(0, &pkt).expect("forwarded");
                assert_eq!(port, 1);
                let (dscp, ttl) = (out[15], out[22]);
                assert_eq!(dscp, ttl, "packet {n} saw half a batch");
                // Batch ids only grow: a packet never sees an older batch than one before it.
                assert!(ttl >= last, "packet {n} saw batch {ttl} after batch {last}");
                if ttl != last {
                    changes += 1;
                    last = ttl;
                }
                n += 1;
                processed.fetch_add(1, Ordering::SeqCst);
            }
            (n, changes)
        })
    };
    // A fixed number of batches (ids 2..=BATCHES+1 fit the 8-bit fields without wrapping).
    // After each, the writer waits for two more packets: the second one started after the
    // batch was applied, so every batch is seen.
    const BATCHES: u64 = 250;
    for i in 2..BATCHES + 2 {
        sw.apply_batch(&batch(i, false)).expect("batch");
        let from = processed.load(Ordering::SeqCst);
        while processed.load(Ordering::SeqCst) < from + 2 {
            std::thread::yield_now();
        }
    }
    stop.store(true, Ordering::SeqCst);
    let (n, changes) = reader.join().expect("reader thread");
    assert!(n >= 2 * BATCHES, "too few packets: {n}");
    assert_eq!(changes, BATCHES, "every batch observed, in order");
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

/// `--workers N`: packets split by flow hash over two threads on the native engine; the
/// counters (shared atomics) add up to exactly the packets sent, and every flow stayed on
/// one worker.
#[test]
fn two_workers_count_exactly() {
    let src = include_str!("programs/features.p4");
    let sw = Switch::from_source(src).expect("load");
    let pkts: Vec<Vec<u8>> = (0..64u32)
        .map(|i| frame64(0x0a00_0000 + i, 0x0a64_0001, 17, 1000 + i as u16, 80))
        .collect();
    let mut shares = vec![Vec::new(), Vec::new()];
    for p in &pkts {
        shares[tandem_switch::bench::flow_worker(p, 2)].push(p.clone());
    }
    assert!(
        shares.iter().all(|s| !s.is_empty()),
        "both workers get flows"
    );
    // the same flow always goes to the same worker, and so does its reply
    let reply = frame64(0x0a64_0001, 0x0a00_0000, 17, 80, 1000);
    assert_eq!(
        tandem_switch::bench::flow_worker(&reply, 2),
        tandem_switch::bench::flow_worker(&pkts[0], 2)
    );
    const ROUNDS: usize = 200;
    std::thread::scope(|s| {
        for share in &shares {
            let sw = &sw;
            s.spawn(move || {
                let mut w = sw.worker();
                for _ in 0..ROUNDS {
                    for p in share {
                        w.process(1, p);
                    }
                }
            });
        }
    });
    let (n, bytes) = sw.counter_read("port_ctr", 1).expect("counter");
    assert_eq!(n, (ROUNDS * pkts.len()) as u64);
    assert_eq!(bytes, (ROUNDS * pkts.len() * 64) as u64);
}
