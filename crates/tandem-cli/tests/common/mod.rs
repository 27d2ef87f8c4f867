//! Shared by the CLI tests: run the built `tandem` binary from the repository root with a
//! test cache, and read its output.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

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

/// A daemon process, killed if the test ends before it exits; its output goes to a file.
pub struct Daemon {
    child: Child,
    log: PathBuf,
}

impl Daemon {
    pub fn spawn(args: &[&str], log: PathBuf) -> Daemon {
        let f = std::fs::File::create(&log).unwrap();
        let child = command(args)
            .stdout(f.try_clone().unwrap())
            .stderr(f)
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        Daemon { child, log }
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGKILL, as `kill -9`: no clean-up runs.
    pub fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Waits for the process to exit by itself; its log.
    pub fn wait(mut self, patience: Duration) -> String {
        let t0 = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exited with {status}:\n{}", self.log());
                return self.log();
            }
            assert!(
                t0.elapsed() < patience,
                "still running after {patience:?}:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn wait_for_log(&self, text: &str, patience: Duration) {
        let t0 = Instant::now();
        while !self.log().contains(text) {
            assert!(t0.elapsed() < patience, "no `{text}` in:\n{}", self.log());
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
