//! Shared by the integration tests: compile an example NF in memory and check it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub use tandem_offload::{
    check, compile_bundle, Bundle, CheckOptions, CheckReport, ControlPlane, RunOptions,
    SwitchControl,
};
pub use tandem_p4::P4Options;
use tandem_partition::{PartitionOptions, TargetProfile};
use tandem_runtime::{compile_native, BuildOptions, NativeNf, NfConfig};
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

pub fn native(nf: &str) -> NativeNf {
    let src = repo().join(format!("examples/nfs/{nf}/{nf}.cc"));
    let cfg = NfConfig::load(&src.with_extension("toml")).unwrap();
    let opts = BuildOptions {
        cache_dir: cache(),
        ..BuildOptions::default()
    };
    NativeNf::load(&compile_native(&src, &opts).unwrap(), &cfg).unwrap()
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

/// `check` with the tests' cache and default options.
pub fn check_with(
    b: &Bundle,
    nf: &str,
    pkts: &mut dyn Iterator<Item = tandem_traffic::TracePacket>,
    control: Option<Wrap>,
) -> CheckReport {
    check(
        b,
        native(nf),
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
