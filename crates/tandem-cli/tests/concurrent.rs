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
