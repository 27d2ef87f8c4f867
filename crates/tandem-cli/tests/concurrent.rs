//! `tandem check --concurrent`: switch and server host at once, compared with the reference
//! run in the same serial order (docs/runtime.md, "Concurrent execution").

mod common;

use common::*;

/// `--virtual-clock`: 10 ms per control request on the simulated clock, in the wall time of
/// a 10 µs run; the packets still overtake the server's.
#[test]
fn check_concurrent_at_10ms_on_the_simulated_clock() {
    let t0 = std::time::Instant::now();
    let text = ok(&tandem(&[
        "check",
        "examples/nfs/trojan/trojan.cc",
        "--workload",
        "enterprise",
        "--plan",
        "endhosts",
        "--flows",
        "100",
        "--packets",
        "3000",
        "--concurrent",
        "--control-latency",
        "10ms",
        "--virtual-clock",
    ]));
    assert!(
        text.contains("control latency 10ms (simulated clock:") && text.contains("PASS"),
        "{text}"
    );
    assert!(
        !text.contains(": 0 packets passed the switch while"),
        "{text}"
    );
    eprintln!("{:.1} s wall", t0.elapsed().as_secs_f64());
}

#[test]
fn check_concurrent_passes_and_refuses_bad_latencies() {
    for latency in ["10us", "1ms"] {
        let text = ok(&tandem(&[
            "check",
            "examples/nfs/mazunat/mazunat.cc",
            "--workload",
            "enterprise",
            "--plan",
            "nat",
            "--flows",
            "60",
            "--packets",
            "1500",
            "--concurrent",
            "--control-latency",
            latency,
        ]));
        assert!(
            text.contains("concurrent: control latency") && text.contains("PASS"),
            "{text}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let compiled = dir.path().join("c");
    ok(&tandem(&[
        "compile",
        "examples/nfs/mazunat/mazunat.cc",
        "-o",
        compiled.to_str().unwrap(),
    ]));
    let out = dir.path().join("r");
    let run = |extra: &[&str]| {
        let mut a = vec![
            "run",
            compiled.to_str().unwrap(),
            "--workload",
            "enterprise",
            "--plan",
            "nat",
            "--flows",
            "50",
            "--concurrent",
            "--out-dir",
        ];
        a.push(out.to_str().unwrap());
        a.extend_from_slice(extra);
        tandem(&a)
    };
    let text = ok(&run(&["--open-loop"]));
    assert!(text.contains("concurrent: control latency 10us"), "{text}");
    assert!(dir.path().join("r/port1.pcap").is_file());
    let e = err(&run(&[]));
    assert!(e.contains("--open-loop"), "{e}");
    for (bad, why) in [("10", "unit"), ("fast", "number"), ("2s", "at most")] {
        let e = err(&tandem(&[
            "check",
            "examples/nfs/mazunat/mazunat.cc",
            "--workload",
            "enterprise",
            "--plan",
            "nat",
            "--flows",
            "5",
            "--concurrent",
            "--control-latency",
            bad,
        ]));
        assert!(e.contains(why), "{bad}: {e}");
    }
}
