//! Hosts that run an NF whole (not offloaded): everything that runs the original NF.
//!
//! - [`build`]: compiles an NF's C++ source with clang++-16 (native build), cached.
//! - [`native`]: loads the shared object and calls the NF through the C ABI.
//! - [`config`]: reads the NF's TOML/JSON configuration and flattens it for `tandem::Config`.
//! - [`host`]: the reference host — every packet through the native NF, timers driven by
//!   packet timestamps, outputs per egress port, final state dump.
//! - [`watchdog`]: reports a call into native NF code that does not return (a loop that
//!   never ends on some packet).
//!
//! This crate touches files and processes (clang, dlopen); the compiler crates never do.

mod abi;
pub mod build;
pub mod config;
pub mod host;
pub mod irhost;
pub mod native;
pub mod nfapi;
pub mod scenario;
pub mod watchdog;

use std::path::PathBuf;

pub use build::{compile_native, BuildOptions};
pub use config::{ConfigError, NfConfig};
pub use host::{Host, HostError, PortPcapSink, RunSummary, Verdict};
pub use native::{NativeNf, NfError};

/// Errors compiling an NF.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot run the C++ compiler {compiler}: {source} (run scripts/bootstrap.sh, or set TANDEM_CXX)")]
    Compiler {
        compiler: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{file} does not compile:\n{diagnostics}")]
    Compile { file: PathBuf, diagnostics: String },
}
