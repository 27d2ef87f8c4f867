//! README.md's Usage block, run as written: every command, in order, in a fresh directory
//! that holds only the repository's `examples/` and `scripts/` (so a command that reads a file
//! an earlier command never wrote fails here, as it would for a new user). The README is this
//! test's input, so the two cannot drift apart.
//!
//! Optional arguments shown as `[--flag value]` run with the flag. The few commands that take
//! minutes at README scale run scaled down by the substitutions in `SCALE_DOWNS`; each must
//! match the README exactly once, so editing those lines fails the test until the table here
//! is updated too.

use std::path::{Path, PathBuf};
use std::process::Command;

/// (text in a README command, what the test runs instead).
const SCALE_DOWNS: &[(&str, &str)] = &[
    (
        "--sram 16MB --target tofino1",
        "--sram 64KB --target tofino1",
    ),
    (
        "--check fp8 --packed --any-count --relocate 3",
        "--sram 64KB --check fp8 --packed --any-count --relocate 3",
    ),
    (
        "scripts/check-all.sh 100000",
        "NFS=minilb scripts/check-all.sh 1000",
    ),
    (
        "scripts/fuzz-nfs.sh 200 --seed 1",
        "scripts/fuzz-nfs.sh 2 --seed 1",
    ),
    (
        "--flows 20000 --partial map=300 --promote-every 100 --packets 200000",
        "--flows 500 --partial map=30 --promote-every 100 --packets 4000",
    ),
    (
        "bench-partial examples/nfs/minilb/minilb.cc --map map --entries 300",
        "bench-partial examples/nfs/minilb/minilb.cc --map map --entries 30 --flows 300 --packets 3000 --alphas 0.9",
    ),
    (
        "tandem switch bench             #",
        "tandem switch bench --seconds 0.2 #",
    ),
    (
        "tandem switch bench --callgrind --workers 2 --updates-per-sec 1000",
        "tandem switch bench --callgrind --workers 2 --updates-per-sec 1000 --seconds 0.2",
    ),
    (
        "--workload datamining --flows 2000 --plan nat --out-dir out/bench/mazunat",
        "--workload datamining --flows 150 --plan nat --out-dir out/bench/mazunat",
    ),
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The commands of the fenced block after `## Usage`: comments and blank lines dropped,
/// `\`-continued lines joined.
fn usage_commands(readme: &str) -> Vec<String> {
    let start = readme
        .find("## Usage")
        .expect("README has a `## Usage` section");
    let rest = &readme[start..];
    let open = rest.find("```").expect("Usage has a code block") + 3;
    let body = &rest[open..];
    let body = &body[body.find('\n').unwrap_or(0) + 1..];
    let close = body.find("```").expect("the code block ends");
    let mut out: Vec<String> = Vec::new();
    let mut pending = String::new();
    for line in body[..close].lines() {
        let t = line.trim();
        if pending.is_empty() && (t.is_empty() || t.starts_with('#')) {
            continue;
        }
        if let Some(head) = t.strip_suffix('\\') {
            pending.push_str(head.trim_end());
            pending.push(' ');
            continue;
        }
        pending.push_str(t);
        out.push(std::mem::take(&mut pending));
    }
    out
}

/// `[--flag value]` → `--flag value` (optional arguments are run).
fn with_optionals(cmd: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in cmd.chars() {
        match c {
            '[' if cmd.contains("[-") => depth += 1,
            ']' if depth > 0 => depth -= 1,
            _ => out.push(c),
        }
    }
    out
}

#[test]
fn readme_usage_block_runs_as_written() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let commands = usage_commands(&readme);
    assert!(
        commands.len() >= 15 && commands.iter().all(|c| !c.is_empty()),
        "{commands:?}"
    );
    let mut used = vec![0; SCALE_DOWNS.len()];
    let dir = tempfile::tempdir().unwrap();
    for d in ["examples", "scripts"] {
        std::os::unix::fs::symlink(repo().join(d).canonicalize().unwrap(), dir.path().join(d))
            .unwrap();
    }
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_tandem"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for cmd in &commands {
        let mut run = with_optionals(cmd);
        for (i, (from, to)) in SCALE_DOWNS.iter().enumerate() {
            if run.contains(from) {
                used[i] += 1;
                run = run.replace(from, to);
            }
        }
        let out = Command::new("bash")
            .args(["-c", &run])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("TANDEM", &bin)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README command failed ({}): {run}\n--- stdout (tail)\n{}\n--- stderr\n{}",
            out.status,
            tail(&out.stdout),
            tail(&out.stderr)
        );
    }
    for (i, (from, _)) in SCALE_DOWNS.iter().enumerate() {
        assert_eq!(
            used[i], 1,
            "the README no longer has exactly one command containing `{from}`: update SCALE_DOWNS"
        );
    }
    // What the block says it writes, where it says.
    for f in [
        "trace.pcapng",
        "out/minilb/state.json",
        "minilb.nfir",
        "plan.json",
        "deps.dot",
        "out/mazunat/switch.p4",
        "out/mazunat/report.html",
        "out/run/summary.json",
        "out/bench/mazunat/bench.json",
        "out/bench/mazunat/report.html",
        "out/BENCHMARKS.md",
        "out/figures/server_work.svg",
        "out/sw/1_out.pcap",
    ] {
        assert!(dir.path().join(f).exists(), "{f} was not written");
    }
}

fn tail(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

#[test]
fn usage_parsing_joins_continuations_and_skips_comments() {
    let md = "x\n## Usage\n\n```\n# c\ntandem a \\\n  --b\n\ntandem c [--d] [-o e]\n```\n";
    let cmds = usage_commands(md);
    assert_eq!(cmds, vec!["tandem a --b", "tandem c [--d] [-o e]"]);
    assert_eq!(with_optionals(&cmds[1]), "tandem c --d -o e");
}
