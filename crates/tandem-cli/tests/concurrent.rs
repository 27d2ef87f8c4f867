//! `tandem check --concurrent`: switch and server host at once, compared with the reference
//! run in the same serial order (docs/runtime.md, "Concurrent execution").

mod common;

use common::*;

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
