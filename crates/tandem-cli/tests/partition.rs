//! `tandem partition` end to end on the lifted golden NFs (no clang needed).

mod common;

use common::*;

const MINILB: &str = "crates/tandem-lift/tests/golden/minilb.nfir";

#[test]
fn partition_prints_the_report_and_writes_plan_and_dot() {
    let dir = std::env::temp_dir().join(format!("tandem-partition-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan = dir.join("plan.json");
    let dot = dir.join("minilb.dot");
    let out = tandem(&[
        "partition",
        MINILB,
        "--profile",
        "tofino1",
        "--no-split-joins",
        "-o",
        plan.to_str().unwrap(),
        "--dot",
        dot.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("MiniLB on tofino1"), "{stdout}");
    assert!(stdout.contains("== server =="), "{stdout}");
    assert!(
        stdout.contains("not on the switch: [unsupported]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("examples/nfs/minilb/minilb.cc:40"),
        "{stdout}"
    );
    // The summary in the NF's terms comes first: each line of minilb.cc, where it runs, why.
    let by_line = stdout
        .split_once("== by line of examples/nfs/minilb/minilb.cc ==")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no by-line section:\n{stdout}"));
    assert!(
        by_line.find("s0 ").unwrap_or(usize::MAX) > by_line.find("== pre ==").unwrap_or(0),
        "the by-line section comes before the IR detail"
    );
    let row = |n: &str| {
        by_line
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    };
    let r40 = row("40");
    assert!(
        r40.contains("server")
            && r40.ends_with("uint32_t idx = hash32 % uint32_t(backends.size());"),
        "{r40}"
    );
    assert_eq!(row("48"), "48 switch pkt.send(out_port);");
    assert!(
        by_line.contains("why: [unsupported] remainder by a value")
            && by_line.contains(
                "why: [R2] it depends on something that cannot run before the server (root \
                 cause: line 40)"
            ),
        "{by_line}"
    );
    // The IR detail points at the NF's lines, not into the NF API's headers.
    assert!(!stdout.contains("tandem/state.hh"), "{stdout}");
    let explained = ok(&tandem(&["explain", "R2"]));
    assert!(explained.starts_with("R2 (partitioning)"), "{explained}");
    assert!(stdout.contains("transfer header bytes"), "{stdout}");
    assert!(
        stdout.contains("== transfer header (EtherType 0x88b5, 12 bytes) =="),
        "{stdout}"
    );
    let json = std::fs::read_to_string(&plan).unwrap();
    let plan = tandem_partition::Plan::from_json(&json).unwrap();
    assert_eq!(plan.target, "tofino1");
    assert!(std::fs::read_to_string(&dot)
        .unwrap()
        .starts_with("digraph"));
    let shown = tandem(&["partition", MINILB, "--profile", "bmv2", "--show-plan"]);
    assert!(shown.status.success());
    assert!(String::from_utf8_lossy(&shown.stdout).contains("\"version\": 3"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn partition_reports_bad_targets() {
    let out = tandem(&["partition", MINILB, "--profile", "tofino9"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown target `tofino9`; built-in targets: tofino1"),
        "{err}"
    );
    let dir = std::env::temp_dir().join(format!("tandem-partition-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    let text = std::fs::read_to_string(repo_root().join("targets/tofino1.toml"))
        .unwrap()
        .replace("stages = 12", "stages = -3");
    std::fs::write(&bad, text).unwrap();
    let out = tandem(&["partition", MINILB, "--profile", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml: key `stages`: expected an integer from 1"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn partition_splits_joins_by_default() {
    let out = tandem(&["partition", MINILB, "--show-plan"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plan = tandem_partition::Plan::from_json(&String::from_utf8_lossy(&out.stdout)).unwrap();
    let module = plan.module().unwrap();
    assert!(module.process.blocks.len() > 13, "block4's tail was copied");
    let rewrites: Vec<_> = plan
        .statements
        .iter()
        .filter(|s| s.text.starts_with("hdr.write ipv4.daddr"))
        .map(|s| s.partition)
        .collect();
    assert_eq!(
        rewrites,
        vec![
            tandem_partition::Partition::Pre,
            tandem_partition::Partition::Post
        ]
    );
}

#[test]
fn partial_maps_on_the_command_line() {
    let out = tandem(&["partition", MINILB, "--partial", "map=64", "--show-plan"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("\"switch_entries\": 64"), "{stdout}");
    for (spec, want) in [
        (
            "map=lots",
            "--partial map=lots: `lots` is not a number of entries",
        ),
        ("=5", "give a map name"),
        ("backends", "--partial backends: a vector cannot be partial"),
        ("nosuch", "--partial nosuch: no state object of this name"),
    ] {
        let out = tandem(&["partition", MINILB, "--partial", spec]);
        assert!(!out.status.success(), "{spec}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{spec}: {err}");
    }
}

/// `--profile NAME:folded` plans for a folded path (twice the stages); a one-pipe target
/// cannot fold, and says why.
#[test]
fn a_folded_profile_is_named_and_a_one_pipe_target_refuses() {
    let out = tandem(&["partition", MINILB, "--profile", "tofino1:folded"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("on tofino1:folded"), "{stdout}");
    let out = tandem(&["partition", MINILB, "--profile", "tiny:folded"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("cannot be folded"), "{stderr}");
}

/// `--compress` says what of the chosen compression the generated program holds: on
/// tofino1 at Sailfish scale `compile` emits `vm_nc6` as key digests (its conflict table is
/// in switch.p4) and says folding and splitting are modelled only, on stderr and in
/// report.txt; `partition --compress` prints the same lines. Negative control: at a small
/// scale (`partition --compress`, the same lines) nothing is folded and no line claims a
/// modelled-only step (key digests, which still shrink `vm_nc6`, are emitted and named).
#[test]
fn compress_says_what_is_emitted_and_what_is_modelled_only() {
    const XGW: &str = "crates/tandem-lift/tests/golden/xgw.nfir";
    const SAILFISH: &str = "routes4=75000,routes6=25000,vm_nc4=750000,vm_nc6=250000";
    let dir = std::env::temp_dir().join(format!("tandem-compress-cli-{}", std::process::id()));
    let out = tandem(&[
        "compile",
        XGW,
        "--profile",
        "tofino1",
        "--compress",
        SAILFISH,
        "-o",
        dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    let report = std::fs::read_to_string(dir.join("report.txt")).unwrap();
    let p4 = std::fs::read_to_string(dir.join("switch.p4")).unwrap();
    let modelled = "modelled only, NOT in the generated P4: pipeline folding, table splitting between pipelines";
    // v1model (the default target) is one pipe: folding is modelled only, and says why.
    let modelled_v1 = "modelled only, NOT in the generated P4: pipeline folding (v1model is one pipe; --target tna emits it), table splitting between pipelines";
    for text in [&stderr, &report] {
        assert!(text.contains(modelled_v1), "{text}");
        assert!(
            text.contains("emitted in the generated P4: key digests vm_nc6"),
            "{text}"
        );
    }
    assert!(stderr.contains("planning on tofino1:folded"), "{stderr}");
    assert!(p4.contains("vm_nc6_cfl"), "the conflict table is emitted");
    let out = tandem(&["partition", XGW, "--compress", SAILFISH]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(modelled),
        "{stdout}"
    );
    let out = tandem(&[
        "partition",
        XGW,
        "--compress",
        "routes4=1000,routes6=1000,vm_nc4=1000,vm_nc6=1000",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(!stdout.contains("modelled only"), "{stdout}");
    // Key digests still shrink vm_nc6's SRAM: emitted, and said so.
    assert!(stdout.contains("emitted in the generated P4: key digests vm_nc6"));
    // TNA emits the fold: two Pipelines, and the note lists folding as emitted.
    let out = tandem(&[
        "compile",
        XGW,
        "--target",
        "tna",
        "--profile",
        "tofino1",
        "--compress",
        SAILFISH,
        "-o",
        dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("emitted in the generated P4: pipeline folding (TNA"),
        "{stderr}"
    );
    assert!(stderr
        .contains("modelled only, NOT in the generated P4: table splitting between pipelines ("));
    assert!(
        stderr.contains("note: pipeline folding emitted (TNA, two pipes"),
        "{stderr}"
    );
    let p4 = std::fs::read_to_string(dir.join("switch.p4")).unwrap();
    assert!(p4.contains("Switch(pipe0, pipe1) main;"), "{p4}");
    // The report shows the emitted gresses' memory (the plan's sizes, within a pipe) and
    // the emitted cut at the --compress scale (whole tables: over a pipe) next to
    // compress's modelled placement.
    let report = std::fs::read_to_string(dir.join("report.txt")).unwrap();
    assert!(
        report.contains("memory (SRAM/TCAM blocks) per gress ingress0/egress1/ingress1"),
        "{report}"
    );
    assert!(report.contains("placement (fits):"), "{report}");
    assert!(
        report.contains("emitted fold at this scale (whole tables"),
        "{report}"
    );
    assert!(
        report.contains("OVER: does not fit one pipe at this scale"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
