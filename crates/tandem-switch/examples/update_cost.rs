//! Cost of small control-plane batches on a large exact table (MiniLB's `conn`
//! with N entries): `update_cost [N] [batches]`. Uses only the public API, so the
//! same file measures any version of the crate.
#![allow(clippy::print_stdout, clippy::print_stderr)] // a measuring tool prints its figures
use std::time::Instant;
use tandem_switch::{bench, ControlOp, KeyMatch, TableEntry};

fn insert(i: u32) -> ControlOp {
    ControlOp::Insert {
        table: "conn".into(),
        entry: TableEntry {
            matches: vec![
                KeyMatch::Exact(0x0b00_0000 | (i as u64 & 0xff_ffff)),
                KeyMatch::Exact(0x0a64_0001),
                KeyMatch::Exact(6),
                KeyMatch::Exact(1234),
                KeyMatch::Exact(80),
            ],
            action: "set_backend".into(),
            args: vec![1, 2, 3],
            priority: None,
        },
    }
}

fn delete(i: u32) -> ControlOp {
    match insert(i) {
        ControlOp::Insert { table, entry } => ControlOp::Delete {
            table,
            matches: entry.matches,
            priority: None,
        },
        _ => unreachable!(),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50_000);
    let batches: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let t = Instant::now();
    let (sw, _) = bench::minilb(n).expect("setup");
    println!(
        "bulk insert of {n} entries (one batch): {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    for size in [1u32, 4] {
        let mut ins = Vec::new();
        let mut del = Vec::new();
        let mut i = 0;
        while i < batches {
            let ops: Vec<ControlOp> = (i..i + size).map(insert).collect();
            let t = Instant::now();
            sw.apply_batch(&ops).expect("insert");
            ins.push(t.elapsed().as_secs_f64() * 1e6);
            let ops: Vec<ControlOp> = (i..i + size).map(delete).collect();
            let t = Instant::now();
            sw.apply_batch(&ops).expect("delete");
            del.push(t.elapsed().as_secs_f64() * 1e6);
            i += size;
        }
        println!(
            "{size}-entry batches into {n} entries: insert median {:.2} us, delete median {:.2} us ({} batches each)",
            median(ins),
            median(del),
            batches / size
        );
    }
    // new keys only (the table grows), one per batch: the mean includes any
    // occasional reorganisation
    let t = Instant::now();
    let mut worst = 0f64;
    for i in 0..batches {
        let t1 = Instant::now();
        sw.apply_batch(&[insert(1_000_000 + i)]).expect("insert");
        worst = worst.max(t1.elapsed().as_secs_f64() * 1e6);
    }
    println!(
        "{batches} 1-entry batches of new keys into {n}+: mean {:.2} us, worst {:.0} us",
        t.elapsed().as_secs_f64() * 1e6 / batches as f64,
        worst
    );
}
