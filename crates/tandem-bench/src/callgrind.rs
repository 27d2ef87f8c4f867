//! Instruction counts under `valgrind --tool=callgrind`: repeatable where wall time on a
//! shared machine is not.
//!
//! Collection is off at start and toggled on entry to (and off on exit from) the symbols
//! below, so only the work we mean is counted: trace loading, the software switch and the
//! process set-up are not. Work done inside a counted call that is not the server's — the
//! switch applying table writes, which a hardware switch's driver does — is then
//! subtracted: the profile records the inclusive cost of every call, and the calls into
//! [`SERVER_EXCLUDE`] are summed and taken off the total.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

use crate::BenchError;

/// What the baseline's count covers: the original NF's process() per packet.
pub const BASELINE_TOGGLES: &[&str] = &["tandem_host::native::NativeNf::process"];

/// What the offloaded server's count covers: handling a packet from the switch (server
/// partition, primary copy, composing and confirming the state update), running a packet
/// whole, releasing a held packet...
pub const SERVER_TOGGLES: &[&str] = &[
    "tandem_offload::system::ServerHost::handle",
    "tandem_offload::system::ServerHost::whole_on_server",
    "tandem_offload::system::ServerHost::release_held",
];

/// What the switch-alone count covers: one replay of the trace through a worker of the
/// switch the offloaded run left (`measure::replay_switch`); the offloaded run and the
/// worker's creation are outside it.
pub const SWITCH_TOGGLES: &[&str] = &["tandem_bench::measure::replay_switch"];

/// ...minus calls into these (name prefixes): the in-process switch applying the writes.
pub const SERVER_EXCLUDE: &[&str] =
    &["<tandem_offload::control::SwitchControl as tandem_offload::control::ControlPlane>::"];

/// `valgrind --version`, or `None` when valgrind is not installed.
pub fn valgrind_version() -> Option<String> {
    let out = Command::new("valgrind").arg("--version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Runs `program args` under callgrind, counting instructions only inside `toggles`, less
/// the inclusive cost of calls into functions whose names start with one of `exclude`;
/// `out_file` receives callgrind's profile (open it with `callgrind_annotate`).
pub fn count(
    program: &Path,
    args: &[OsString],
    toggles: &[&str],
    exclude: &[&str],
    out_file: &Path,
) -> Result<u64, BenchError> {
    if valgrind_version().is_none() {
        return Err(BenchError::Callgrind(
            "valgrind is not installed (scripts/bootstrap.sh installs it; or pass --no-callgrind)"
                .into(),
        ));
    }
    let mut cmd = Command::new("valgrind");
    cmd.arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg("--collect-atstart=no");
    for t in toggles {
        cmd.arg(format!("--toggle-collect={t}"));
    }
    cmd.arg(program).args(args);
    log::info!("running {cmd:?}");
    let out = cmd
        .output()
        .map_err(|e| BenchError::Callgrind(format!("running valgrind: {e}")))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(15).collect();
        return Err(BenchError::Callgrind(format!(
            "{} failed ({}):\n{}",
            program.display(),
            out.status,
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        )));
    }
    let text = std::fs::read_to_string(out_file).map_err(|e| BenchError::Io {
        what: format!("reading {}", out_file.display()),
        source: e,
    })?;
    let total = parse_total(&text).ok_or_else(|| {
        BenchError::Callgrind(format!(
            "{}: no `totals:` or `summary:` line",
            out_file.display()
        ))
    })?;
    Ok(total.saturating_sub(calls_into(&text, exclude)))
}

/// Sum of the inclusive cost (first event) of calls into functions whose names start with
/// one of `prefixes`, from callers that do not (so nested calls count once).
pub fn calls_into(profile: &str, prefixes: &[&str]) -> u64 {
    let mut names: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    // `fn=(12) name` defines id 12, `fn=(12)` refers to it; fn and cfn share one namespace.
    let mut resolve = |spec: &str| -> String {
        let spec = spec.trim();
        match spec.strip_prefix('(').and_then(|r| r.split_once(')')) {
            Some((id, rest)) => {
                let rest = rest.trim();
                if rest.is_empty() {
                    names.get(id).cloned().unwrap_or_default()
                } else {
                    names.insert(id.to_string(), rest.to_string());
                    rest.to_string()
                }
            }
            None => spec.to_string(),
        }
    };
    let matches = |name: &str| prefixes.iter().any(|p| name.starts_with(p));
    let (mut caller, mut callee) = (String::new(), String::new());
    let mut after_calls = false;
    let mut sum = 0u64;
    for line in profile.lines() {
        if let Some(spec) = line.strip_prefix("fn=") {
            caller = resolve(spec);
        } else if let Some(spec) = line.strip_prefix("cfn=") {
            callee = resolve(spec);
        } else if line.starts_with("calls=") {
            after_calls = true;
        } else if after_calls {
            after_calls = false;
            if matches(&callee) && !matches(&caller) {
                sum += line
                    .split_whitespace()
                    .nth(1)
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or(0);
            }
        }
    }
    sum
}

/// The instruction total of a callgrind profile (`totals:`, else `summary:`).
pub fn parse_total(profile: &str) -> Option<u64> {
    let find = |key: &str| {
        profile.lines().find_map(|l| {
            l.strip_prefix(key)
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|n| n.parse::<u64>().ok())
        })
    };
    find("totals:").or_else(|| find("summary:"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_line_wins_over_summary() {
        let p = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 120\nfn=(1) main\n3 5\ntotals: 123\n";
        assert_eq!(parse_total(p), Some(123));
        assert_eq!(parse_total("events: Ir\nsummary: 77\n"), Some(77));
        assert_eq!(parse_total("events: Ir\n"), None);
    }

    #[test]
    fn calls_into_sums_inclusive_costs_of_matching_callees_once() {
        let p = "events: Ir
fn=(1) server::handle
5 100
cfn=(2) switch::write
calls=2 10
6 1000
cfn=(3) other
calls=1 3
7 50
cfn=(2)
calls=1 10
8 300
fn=(2)
10 40
cfn=(4) switch::inner
calls=1 1
11 200
fn=(5) switch::helper
cfn=(2)
calls=1 1
12 7
totals: 1850
";
        // handle -> write (1000 + 300); write -> inner is nested; helper is itself excluded
        assert_eq!(calls_into(p, &["switch::"]), 1300);
        assert_eq!(calls_into(p, &["other"]), 50);
        assert_eq!(calls_into(p, &["nothing"]), 0);
    }
}
