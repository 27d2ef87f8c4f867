//! Shared by the end-to-end tests: the runtime tests' helpers (one copy, included from
//! `tandem-offload/tests/common`) plus lifting C++ files through the front end.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

#[path = "../../../tandem-offload/tests/common/mod.rs"]
mod offload;
pub use offload::*;

use tandem_partition::{PartitionOptions, TargetProfile};

/// A test NF of this crate (`tests/nfs/<name>.cc`).
pub fn test_nf(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/nfs/{name}.cc"))
}

/// Lifts a C++ file through the front end's driver.
pub fn lift_file(src: &Path) -> tandem_ir::Module {
    let include = tandem_host::nfapi::materialize(&cache()).unwrap();
    let ll = tandem_lift::driver::emit_llvm(
        &tandem_host::build::find_cxx(),
        &include,
        src,
        &cache().join("analysis"),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    tandem_lift::lift(&ll)
        .unwrap_or_else(|e| panic!("{} does not lift:\n{e}", src.display()))
        .module
}

/// `check` of a C++ file: lifted, partitioned for `profile`, run as the offloaded pair against
/// its native build on `packets` packets of `workload`.
pub fn check_file(
    src: &Path,
    addr: Addr,
    workload: &str,
    profile: &str,
    packets: usize,
) -> CheckReport {
    let profile = TargetProfile::builtin(profile).unwrap();
    check_file_on(src, addr, workload, &profile, packets)
}

/// [`check_file`] with a profile value (e.g. a built-in one with an operation removed).
pub fn check_file_on(
    src: &Path,
    addr: Addr,
    workload: &str,
    profile: &TargetProfile,
    packets: usize,
) -> CheckReport {
    let b = compile_bundle(
        &lift_file(src),
        profile,
        &PartitionOptions::default(),
        &P4Options::default(),
        None,
    )
    .unwrap();
    let flows = (packets as u64 / 20).max(50);
    let mut pkts = trace(addr, workload, flows, 7).take(packets);
    check_native(&b, native_file(src), &mut pkts, None)
}
