//! `tandem bench` and `tandem bench-report` on small traces (benchmarks are not timed
//! tests: these check that the measurement runs and its figures are consistent, not how
//! fast anything is).

mod common;

use common::{err, ok, tandem};
use serde_json::Value;

fn bench(nf: &str, plan: &str, out: &std::path::Path) -> Value {
    let src = format!("examples/nfs/{nf}/{nf}.cc");
    let o = tandem(&[
        "bench",
        &src,
        "--workload",
        "enterprise",
        "--flows",
        "40",
        "--plan",
        plan,
        "--reps",
        "1",
        "--switch-ms",
        "5",
        "--keep-trace",
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    let stdout = ok(&o);
    assert!(stdout.contains("server instructions"), "{stdout}");
    serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap()
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

#[test]
fn bench_counts_server_work_and_the_report_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let lb = bench("minilb", "lb", &dir.path().join("minilb"));
    let fw = bench("firewall", "plain", &dir.path().join("firewall"));
    for r in [&lb, &fw] {
        let packets = u(&r["trace"]["packets"]);
        let o = &r["offloaded"];
        assert!(packets > 100, "{r}");
        assert_eq!(o["outputs_equal"], true, "{r}");
        assert_eq!(
            u(&o["fast_path"]) + u(&o["via_server"]) + u(&o["whole_on_server"]),
            packets
        );
        // the flow-size classes cover every packet and every flow
        let flows = r["flows"].as_array().unwrap();
        assert_eq!(flows.iter().map(|b| u(&b["packets"])).sum::<u64>(), packets);
        assert_eq!(
            flows.iter().map(|b| u(&b["flows"])).sum::<u64>(),
            u(&r["trace"]["flows"])
        );
        assert!(u(&r["baseline"]["instructions"]) > 10 * packets, "{r}");
        let stages: Vec<&str> = r["compile"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["stage"].as_str().unwrap())
            .collect();
        assert!(
            stages.contains(&"lift") && stages.contains(&"P4"),
            "{stages:?}"
        );
        assert!(r["switch"]["ns_per_packet"].as_f64().unwrap() > 0.0);
        // the switch alone, counted over one replay of the trace (not the offloaded run)
        let sw = u(&r["switch"]["instructions"]);
        assert!(sw > 50 * packets && sw < 100_000 * packets, "{r}");
    }
    // MiniLB sends each new flow's first packet to the server: it does work there;
    // the firewall's packets all stay on the switch, so its server does none.
    assert!(u(&lb["offloaded"]["via_server"]) >= 40);
    assert!(u(&lb["offloaded"]["server_instructions"]) > 0);
    assert_eq!(u(&fw["offloaded"]["via_server"]), 0);
    assert_eq!(u(&fw["offloaded"]["server_instructions"]), 0, "{fw}");
    // the recorded trace opens in tcpdump's format
    let trace =
        tandem_traffic::TraceReader::read_all(dir.path().join("minilb/trace.pcapng")).unwrap();
    assert_eq!(trace.len() as u64, u(&lb["trace"]["packets"]));

    let md = dir.path().join("BENCHMARKS.md");
    let figs = dir.path().join("figs");
    let a = dir.path().join("minilb/bench.json");
    let b = dir.path().join("firewall/bench.json");
    let stdout = ok(&tandem(&[
        "bench-report",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--output",
        md.to_str().unwrap(),
        "--figures",
        figs.to_str().unwrap(),
    ]));
    assert!(stdout.contains("BENCHMARKS.md"), "{stdout}");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.contains("| MiniLB |") && text.contains("## Goals"),
        "{text}"
    );
    assert!(text.contains("(figs/server_work.svg)"), "{text}");
    for f in ["server_work.svg", "fast_path_by_flow_size.svg"] {
        let svg = std::fs::read_to_string(figs.join(f)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("MiniLB"), "{f}");
    }
    // An existing report is never overwritten by a smaller run without --force.
    let one = |force: bool| {
        let mut args = vec![
            "bench-report",
            a.to_str().unwrap(),
            "--output",
            md.to_str().unwrap(),
            "--figures",
            figs.to_str().unwrap(),
        ];
        if force {
            args.push("--force");
        }
        tandem(&args)
    };
    let e = err(&one(false));
    assert!(e.contains("--force") && e.contains("exists"), "{e}");
    assert_eq!(
        std::fs::read_to_string(&md).unwrap(),
        text,
        "changed without --force"
    );
    ok(&one(true));
    assert!(!std::fs::read_to_string(&md)
        .unwrap()
        .contains("| Firewall |"));
}

#[test]
fn bench_errors_are_clear() {
    let e = err(&tandem(&["bench", "examples/nfs/minilb/minilb.cc"]));
    assert!(e.contains("--workload"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"nf\": 3}").unwrap();
    let e = err(&tandem(&["bench-report", bad.to_str().unwrap()]));
    assert!(e.contains("bad.json"), "{e}");
}

/// `tandem bench-cluster` on MazuNAT (global state, one owner), packet counts only: every
/// server of 2 and 4 listed; `--owner-share 0` leaves the owner (server 0) no server packet
/// with 4 servers, while the unweighted run gives it some (the control); a share list of the
/// wrong length is refused with the reason.
#[test]
fn bench_cluster_weights_the_owner() {
    let dir = tempfile::tempdir().unwrap();
    let run = |share: Option<&str>, sub: &str| -> Vec<Value> {
        let out = dir.path().join(sub);
        let json = out.join("rows.json");
        let mut args = vec![
            "bench-cluster",
            "examples/nfs/mazunat/mazunat.cc",
            "--plan",
            "nat",
            "--workload",
            "enterprise",
            "--flows",
            "60",
            "--servers",
            "2,4",
            "--no-callgrind",
            "--out-dir",
            out.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ];
        if let Some(s) = share {
            args.extend(["--owner-share", s]);
        }
        let stdout = ok(&tandem(&args));
        assert!(stdout.contains("N=4 server 3"), "{stdout}");
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        v.as_array().unwrap().clone()
    };
    let owner4 = |rows: &[Value]| {
        rows.iter()
            .find(|r| r["servers"] == 4 && r["server"] == 0)
            .map(|r| u(&r["packets"]))
            .unwrap()
    };
    let weighted = run(Some("100,0"), "weighted");
    assert_eq!(weighted.len(), 6);
    assert_eq!(owner4(&weighted), 0, "{weighted:?}");
    let even = run(None, "even");
    assert!(owner4(&even) > 0, "{even:?}");
    let e = err(&tandem(&[
        "bench-cluster",
        "examples/nfs/mazunat/mazunat.cc",
        "--plan",
        "nat",
        "--flows",
        "10",
        "--servers",
        "1,2,4",
        "--owner-share",
        "50,0",
        "--no-callgrind",
        "--out-dir",
        dir.path().join("bad").to_str().unwrap(),
    ]));
    assert!(e.contains("one value, or one per cluster size"), "{e}");
}
