//! Shared by the CLI tests: run the built `tandem` binary from the repository root with a
//! test cache, and read its output.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn cache() -> PathBuf {
    std::env::temp_dir().join("tandem-test-cache-cli")
}

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// `tandem ARGS`, not yet started.
pub fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tandem"));
    c.args(args)
        .env("TANDEM_CACHE_DIR", cache())
        .current_dir(repo_root());
    c
}

/// `tandem ARGS`, run to completion.
pub fn tandem(args: &[&str]) -> Output {
    command(args).output().unwrap()
}

/// Standard output of a run that must succeed.
pub fn ok(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Standard error of a run that must fail.
pub fn err(out: &Output) -> String {
    assert!(!out.status.success(), "unexpectedly succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `tandem traffic gen` of `flows` enterprise flows to `path` (plus `extra` arguments).
#[allow(dead_code)] // not every test binary generates traffic
pub fn gen_trace(path: &std::path::Path, flows: u32, extra: &[&str]) {
    let flows = flows.to_string();
    let mut args = vec![
        "traffic",
        "gen",
        "--workload",
        "enterprise",
        "--flows",
        &flows,
        "-o",
        path.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ok(&tandem(&args));
}
