//! Every scenario file of every example NF (`examples/nfs/<nf>/scenarios/*.toml`) on the
//! reference host. One test per NF; a failing test lists every failing file of that NF.

mod common;

use common::*;
use tandem_runtime::scenario::{run_native, scenario_files};

/// The NFs that have scenarios; `every_nf_with_scenarios_is_listed` keeps this complete.
const NFS: &[&str] = &[
    "minilb",
    "mazunat",
    "l4lb",
    "firewall",
    "proxy",
    "statefilter",
    "trojan",
];

fn run_all(nf: &str) {
    let dir = repo_root().join(format!("examples/nfs/{nf}/scenarios"));
    let files = scenario_files(&dir).unwrap();
    assert!(!files.is_empty(), "{}: no scenarios", dir.display());
    let opts = build_opts();
    let mut failures = Vec::new();
    for f in &files {
        match run_native(f, &opts) {
            Ok(r) => eprintln!(
                "{}: ok ({} steps, {} packets: {} sent, {} dropped; {} state checks)",
                f.display(),
                r.steps,
                r.packets,
                r.sent,
                r.dropped,
                r.state_checks
            ),
            Err(e) => failures.push(e.to_string()),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_nf_with_scenarios_is_listed() {
    for e in std::fs::read_dir(repo_root().join("examples/nfs")).unwrap() {
        let e = e.unwrap();
        if e.path().join("scenarios").is_dir() {
            let name = e.file_name().to_string_lossy().into_owned();
            assert!(
                NFS.contains(&name.as_str()),
                "add {name} to NFS in tests/scenarios.rs"
            );
        }
    }
}

macro_rules! nf_tests {
    ($($name:ident),*) => {$(
        #[test]
        fn $name() {
            run_all(stringify!($name));
        }
    )*};
}

nf_tests!(minilb, mazunat, l4lb, firewall, proxy, statefilter, trojan);
