//! Processes a fixed number of packets (for `perf stat` or callgrind):
//! `pps minilb|minilb-gen|lpm|PROGRAM.p4 N`.
#![allow(clippy::print_stdout, clippy::print_stderr)] // a measuring tool prints its figures
use tandem_switch::bench;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("minilb");
    let n: usize = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
    let (sw, pkts) = match which {
        "lpm" => bench::lpm(10_000, 4096),
        "minilb" => bench::minilb(1024),
        "minilb-gen" => bench::minilb_generated(1024),
        path => {
            let src = std::fs::read_to_string(path).expect("read");
            let sw = tandem_switch::Switch::from_source(&src).expect("load");
            Ok((sw, vec![bench::frame64(0x0a000001, 0x0a000002, 6, 1, 2)]))
        }
    }
    .expect("setup");
    let mut w = sw.worker();
    let t = std::time::Instant::now();
    let mut acc = 0u64;
    for i in 0..n {
        if let Some((p, o)) = w.process(1, &pkts[i % pkts.len()]) {
            acc = acc.wrapping_add(p as u64 + o.len() as u64);
        }
    }
    let dt = t.elapsed().as_secs_f64();
    eprintln!("{which}: {:.2} Mpps ({acc})", n as f64 / dt / 1e6);
}
