//! Shared by the integration tests: compile an example NF in memory and check it. The NFs'
//! IR is the lifter's golden output, so nothing here needs the front end (LLVM); the
//! end-to-end tests from C++ source (`tandem-e2e`) include this file and add lifting.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use tandem_host::{compile_native, BuildOptions, NativeNf, NfConfig};
pub use tandem_offload::{
    check, compile_bundle, Bundle, CheckOptions, CheckReport, ControlPlane, RunOptions,
    SwitchControl,
};
pub use tandem_p4::P4Options;
use tandem_partition::{PartitionOptions, TargetProfile};
pub use tandem_traffic::Plan as Addr;
use tandem_traffic::{GenOptions, Generator, Workload};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn cache() -> PathBuf {
    std::env::temp_dir().join("tandem-test-cache-offload")
}

pub fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The NF's IR (the lifter's golden output, which its own tests keep equal to a fresh lift).
pub fn module(nf: &str) -> tandem_ir::Module {
    let text =
        std::fs::read_to_string(repo().join(format!("crates/tandem-lift/tests/golden/{nf}.nfir")))
            .unwrap();
    tandem_ir::parse_module(&text).unwrap()
}

pub fn bundle(nf: &str, profile: &str, p4: &P4Options) -> Bundle {
    let profile = TargetProfile::builtin(profile).unwrap();
    compile_bundle(
        &module(nf),
        &profile,
        &PartitionOptions::default(),
        p4,
        None,
    )
    .unwrap()
}

/// The native build of an example NF.
pub fn native(nf: &str) -> NativeNf {
    native_file(&repo().join(format!("examples/nfs/{nf}/{nf}.cc")))
}

/// The native build of a C++ file (configuration: `<src>.toml` when there is one).
pub fn native_file(src: &Path) -> NativeNf {
    let toml = src.with_extension("toml");
    let cfg = if toml.is_file() {
        NfConfig::load(&toml).unwrap()
    } else {
        NfConfig::default()
    };
    let opts = BuildOptions {
        cache_dir: cache(),
        ..BuildOptions::default()
    };
    NativeNf::load(&compile_native(src, &opts).unwrap(), &cfg).unwrap()
}

pub fn trace(addr: Addr, workload: &str, flows: u64, seed: u64) -> Generator {
    let w = Workload::resolve(workload).unwrap();
    let opts = GenOptions {
        flows,
        seed,
        plan: addr,
        ..GenOptions::default()
    };
    Generator::new(&w, opts).unwrap()
}

pub type Wrap = Box<dyn FnOnce(SwitchControl) -> Box<dyn ControlPlane>>;

/// Run options that give up on the switch quickly (3 attempts, microseconds apart): for
/// tests of outages.
pub fn impatient() -> RunOptions {
    RunOptions {
        cache_dir: cache(),
        retry: tandem_offload::RetryPolicy {
            attempts: 3,
            backoff: std::time::Duration::from_micros(10),
            max_backoff: std::time::Duration::from_micros(100),
        },
        ..RunOptions::default()
    }
}

/// `check` with the tests' cache and default options.
pub fn check_with(
    b: &Bundle,
    nf: &str,
    pkts: &mut dyn Iterator<Item = tandem_traffic::TracePacket>,
    control: Option<Wrap>,
) -> CheckReport {
    check_native(b, native(nf), pkts, control)
}

/// [`check_with`] against a given native build.
pub fn check_native(
    b: &Bundle,
    native: NativeNf,
    pkts: &mut dyn Iterator<Item = tandem_traffic::TracePacket>,
    control: Option<Wrap>,
) -> CheckReport {
    check(
        b,
        native,
        pkts,
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                ..RunOptions::default()
            },
            control,
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

pub fn check_nf(
    nf: &str,
    addr: Addr,
    workload: &str,
    profile: &str,
    packets: usize,
    p4: &P4Options,
    control: Option<Wrap>,
) -> CheckReport {
    let b = bundle(nf, profile, p4);
    let flows = (packets as u64 / 20).max(50);
    let mut pkts = trace(addr, workload, flows, 7).take(packets);
    check_with(&b, nf, &mut pkts, control)
}

/// Asserts a check passed, showing the first difference when it did not.
pub fn assert_passed(what: &str, report: &CheckReport) {
    assert!(
        report.passed() && report.differing_packets == 0,
        "{what}: {:#?}\n{}",
        report.multiset_differences,
        report.first_difference.clone().unwrap_or_default()
    );
}

/// `check` of an example NF with `servers` server hosts behind the switch.
pub fn check_nf_servers(
    nf: &str,
    addr: Addr,
    workload: &str,
    profile: &str,
    packets: usize,
    servers: usize,
) -> CheckReport {
    // Several servers: the switch program picks the server (P4Options::dispatch).
    let p4 = P4Options {
        dispatch: (servers > 1).then(tandem_p4::DispatchShape::default),
        ..P4Options::default()
    };
    let b = bundle(nf, profile, &p4);
    let flows = (packets as u64 / 20).max(50);
    let mut pkts = trace(addr, workload, flows, 7).take(packets);
    check(
        &b,
        native(nf),
        &mut pkts,
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                ..RunOptions::default()
            },
            servers,
            ..CheckOptions::default()
        },
    )
    .unwrap()
}
