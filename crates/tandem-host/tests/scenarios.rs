//! Every scenario file of every example NF (`examples/nfs/<nf>/scenarios/*.toml`) on the
//! reference host. One test per NF; a failing test lists every failing file of that NF.
#![allow(clippy::print_stdout, clippy::print_stderr)] // test progress and figures go to the test log

use std::path::{Path, PathBuf};

use tandem_host::scenario::run_native;
use tandem_host::BuildOptions;
use tandem_traffic::scenario::scenario_files;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Build options with a cache of this test binary's own (tests run in parallel).
fn build_opts() -> BuildOptions {
    BuildOptions {
        cache_dir: std::env::temp_dir().join("tandem-test-cache-scenarios"),
        ..BuildOptions::default()
    }
}

/// The NFs that have scenarios; `every_nf_with_scenarios_is_listed` keeps this complete.
const NFS: &[&str] = &[
    "minilb",
    "mazunat",
    "l4lb",
    "firewall",
    "proxy",
    "statefilter",
    "cofilter",
    "trojan",
    "pktcount",
    "cmsketch",
    "lpmrouter",
    "hhdetect",
    "aclfw",
    "vxlangw",
    "vlantrunk",
    "ratelimit",
    "xgw",
    "trd",
    "snat",
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

nf_tests!(
    minilb,
    mazunat,
    l4lb,
    firewall,
    proxy,
    statefilter,
    cofilter,
    trojan,
    pktcount,
    cmsketch,
    lpmrouter,
    hhdetect,
    aclfw,
    vxlangw,
    vlantrunk,
    ratelimit,
    xgw,
    trd,
    snat
);

/// The runner really compares: a wrong expectation on a real NF fails, naming the file, the
/// step and the field, with expected and actual values.
#[test]
fn a_wrong_expectation_fails_with_expected_and_actual() {
    let dir = tempfile::tempdir().unwrap();
    let nf = repo_root().join("examples/nfs/mazunat/mazunat.cc");
    let path = dir.path().join("wrong.toml");
    std::fs::write(
        &path,
        format!(
            r#"nf = "{}"
[[step]]
name = "syn"
port = 0
ipv4 = {{ src = "10.0.0.5", dst = "198.51.100.7" }}
tcp = {{ sport = 40000, dport = 80, flags = "S" }}
expect = {{ send = 1, tcp = {{ sport = 2000 }} }}
"#,
            nf.display()
        ),
    )
    .unwrap();
    let e = run_native(&path, &build_opts()).unwrap_err().to_string();
    assert!(e.contains("wrong.toml"), "{e}");
    assert!(e.contains("step 1 (syn)"), "{e}");
    assert!(e.contains("tcp.sport: expected 2000, actual 1024"), "{e}");

    // A drop where a send was expected, and a state assertion that does not hold.
    std::fs::write(
        &path,
        format!(
            r#"nf = "{}"
[[step]]
port = 1
ipv4 = {{ src = "198.51.100.7", dst = "203.0.113.1" }}
tcp = {{ sport = 80, dport = 1024, flags = "SA" }}
expect = {{ send = 0 }}
"#,
            nf.display()
        ),
    )
    .unwrap();
    let e = run_native(&path, &build_opts()).unwrap_err().to_string();
    assert!(e.contains("actual: dropped"), "{e}");
    std::fs::write(
        &path,
        format!(
            "nf = \"{}\"\n[[step]]\nstate = {{ int2ext = 3 }}\n",
            nf.display()
        ),
    )
    .unwrap();
    let e = run_native(&path, &build_opts()).unwrap_err().to_string();
    assert!(
        e.contains("state `int2ext` entries: expected 3, actual 0"),
        "{e}"
    );
}
