//! Shared by the front end's tests: lifting a C++ file through the real driver.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

pub fn cache() -> PathBuf {
    std::env::temp_dir().join("tandem-test-cache-lift")
}

/// LLVM IR of the analysis build of `src`.
pub fn analysis_ll(src: &Path) -> Result<String, tandem_lift::driver::DriverError> {
    let include = tandem_runtime::nfapi::materialize(&cache()).unwrap();
    tandem_lift::driver::emit_llvm(
        &tandem_runtime::build::find_cxx(),
        &include,
        src,
        &cache().join("analysis"),
    )
}

pub fn example_src(nf: &str) -> PathBuf {
    repo_root().join(format!("examples/nfs/{nf}/{nf}.cc"))
}

/// Lifts an example NF, with source paths made relative to the repository.
pub fn lift_example(nf: &str) -> tandem_lift::Lifted {
    let ll = analysis_ll(&example_src(nf)).unwrap();
    let mut lifted = tandem_lift::lift(&ll).unwrap_or_else(|e| panic!("{nf} does not lift:\n{e}"));
    let root = format!("{}/", repo_root().display());
    let files: Vec<_> = lifted.module.files.keys().collect();
    for f in files {
        let p = lifted.module.files[f].replace(&root, "");
        lifted.module.files[f] = p;
    }
    lifted
}

pub const EXAMPLES: &[&str] = &[
    "minilb",
    "mazunat",
    "l4lb",
    "firewall",
    "proxy",
    "statefilter",
    "trojan",
];
