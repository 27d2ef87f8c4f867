//! Packets/s of the engine on one core, 64-byte packets, in memory.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tandem_switch::bench;

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
    let (sw, pkts) = bench::lpm(10_000, 4096).expect("lpm");
    run(c, "lpm_10k_routes", sw, pkts);
}

criterion_group!(benches_group, benches);
criterion_main!(benches_group);
