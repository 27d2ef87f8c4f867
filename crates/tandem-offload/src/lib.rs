//! The offloaded NF at run time (Gallium §4.3): the generated switch program on the software
//! switch, the generated server partition in the server host, and what joins them.
//!
//! - [`codec`]: the transfer header, driven by the manifest;
//! - [`primary`]: the server's primary copy of the state and the `tandem_state_ops` the
//!   server partition calls;
//! - [`server`]: compiling and calling `server.so`;
//! - [`control`]: the control plane (direct, or with injected faults) and retries;
//! - [`sync`]: atomic update and output commit, full tables;
//! - [`hashed_ageing`]: the switch's hits on a hashed map as uses of the server's expiring map;
//! - [`fallback`]: whole-NF runs on the server for keys a full table could not take;
//! - [`system`]: the whole, one packet at a time;
//! - [`cluster`]: several server hosts behind one switch, flows spread by a hash;
//! - [`membership`]: servers joining and leaving a cluster, flows keeping their server;
//! - [`concurrent`]: switch and server host in two threads at once, with control latency;
//! - [`net`]: switch and server as two processes over UNIX datagram sockets;
//! - [`check`]: the offloaded pair against the reference host on the same traffic.
//!
//! This crate does I/O only to compile and load the server partition (and in [`check`] the
//! native NF), and in [`net`] on its sockets; elsewhere packets come and go through
//! function calls.

pub mod ageing;
pub mod check;
pub mod check_concurrent;
pub mod cluster;
pub mod codec;
pub mod concurrent;
pub mod control;
pub mod fallback;
pub mod hashed_ageing;
pub mod journal;
pub mod membership;
mod meters;
pub mod migrate;
pub mod net;
pub mod owner;
pub mod partial;
pub mod primary;
pub mod server;
pub mod server_meter;
pub mod switch_dispatch;
pub mod sync;
pub mod system;
mod vclock;

pub use check::{check, CheckOptions, CheckReport, GroupChange};
pub use check_concurrent::check_concurrent;
pub use cluster::{Cluster, Removal, ServerLoad};
pub use concurrent::{run_concurrent, ConcurrentOptions};
pub use control::{
    ControlFailure, ControlPlane, ControlWrap, Fault, FaultyControl, RetryPolicy, SwitchControl,
};
pub use system::{
    compile_bundle, load_switch, switch_options, Bundle, NfSource, Offloaded, RunOptions, RunStats,
    ServerHost,
};

/// Errors of the offloaded runtime.
#[derive(Debug, thiserror::Error)]
pub enum OffloadError {
    /// A file or socket could not be read, written, created or bound.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file, directory or socket.
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// An operating-system call on no file failed (starting a thread, an unbound socket,
    /// receiving, running the C++ compiler).
    #[error("{what}: {source}")]
    Os {
        /// What was being done.
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// Plan, manifest or transfer header are inconsistent.
    #[error("bad compiled NF: {0}")]
    Manifest(String),
    /// Partitioning failed (`PartitionError::Infeasible`: no plan fits the profile).
    #[error("partitioning: {0}")]
    Partition(#[from] tandem_partition::PartitionError),
    /// The P4 back end refused the plan (or its self-check caught a program its target
    /// would refuse).
    #[error("generating P4: {0}")]
    P4(#[from] tandem_p4::P4Error),
    /// The C++ back end refused the plan.
    #[error("generating C++: {0}")]
    Cpp(#[from] tandem_cpp::CppError),
    /// The switch program did not load, or the switch misbehaved.
    #[error("switch: {0}")]
    Switch(String),
    /// The server partition did not compile.
    #[error("server.cc did not compile:\n{0}")]
    ServerBuild(String),
    /// The server partition did not load.
    #[error("server.so: {0}")]
    ServerLoad(String),
    /// The server partition failed on a packet.
    #[error("server partition: {0}")]
    Server(String),
    /// State could not be loaded or read.
    #[error("state: {0}")]
    State(String),
    /// A control-plane request failed for good (after retries); the packet was held and the
    /// primary copy keeps the update.
    #[error("control plane: {0}")]
    Control(#[from] control::ControlFailure),
    /// A packet is held until the switch confirms its updates
    /// ([`Offloaded::retry_held`]); no other packet visits the server meanwhile.
    #[error("a packet is held until the switch confirms its state updates")]
    Held,
    /// The native NF (reference host, configure) failed.
    #[error("{0}")]
    Native(String),
}
