//! Packets/s of the engine on one core, 64-byte packets, in memory; and the cost
//! of small control-plane batches on a 50,000-entry exact table.
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use tandem_switch::{bench, ControlOp, Switch};

fn run(c: &mut Criterion, name: &str, sw: tandem_switch::Switch, pkts: Vec<Vec<u8>>) {
    let mut w = sw.worker();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(pkts.len() as u64));
    g.bench_function("process", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for p in &pkts {
                if let Some((port, out)) = w.process(1, black_box(p)) {
                    n = n.wrapping_add(port + out.len() as u32);
                }
            }
            black_box(n)
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let (sw, pkts) = bench::minilb(1024).expect("minilb");
    run(c, "minilb_1k_flows", sw, pkts);
    let (sw, pkts) = bench::minilb_generated(1024).expect("minilb generated");
    run(c, "minilb_generated_1k_flows", sw, pkts);
    let (sw, pkts) = bench::lpm(10_000, 4096).expect("lpm");
    run(c, "lpm_10k_routes", sw, pkts);
}

fn delete_of(op: &ControlOp) -> ControlOp {
    match op {
        ControlOp::Insert { table, entry } => ControlOp::Delete {
            table: table.clone(),
            matches: entry.matches.clone(),
            priority: None,
        },
        _ => unreachable!("an insert"),
    }
}

fn control(c: &mut Criterion) {
    const N: usize = 50_000;
    let entries = bench::minilb_entries(N);
    let sw = Switch::from_source(bench::MINILB_P4).expect("load");
    sw.apply_batch(&entries).expect("bulk");
    let mut g = c.benchmark_group("control_50k_exact");
    for k in [1usize, 4] {
        let ins: Vec<ControlOp> = (0..k).map(bench::minilb_extra_entry).collect();
        let del: Vec<ControlOp> = ins.iter().map(delete_of).collect();
        // one batch of k inserts, then one batch of k deletes (so the table stays at N)
        g.bench_function(format!("insert{k}_then_delete{k}"), |b| {
            b.iter(|| {
                sw.apply_batch(black_box(&ins)).expect("insert");
                sw.apply_batch(black_box(&del)).expect("delete");
            })
        });
    }
    // for scale: loading all N entries into an empty table in one batch
    g.sample_size(10);
    g.bench_function("bulk_load_50k", |b| {
        b.iter_batched(
            || Switch::from_source(bench::MINILB_P4).expect("load"),
            |sw| sw.apply_batch(&entries).expect("bulk"),
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches_group, benches, control);
criterion_main!(benches_group);
