//! Traffic for Tandem: packet traces on disk (pcap/pcapng), workloads (flow-size
//! distributions from published research) and a deterministic flow-level generator.
//!
//! This crate does file I/O (it reads and writes traces) but no networking.

pub mod gen;
pub mod pcap;
pub mod replies;
pub mod stats;
pub mod workload;

pub use gen::{
    generate, write_trace, GenError, GenOptions, GenSummary, Generator, Plan, CLIENT_PORT,
    SERVER_PORT,
};
pub use pcap::{PcapFileWriter, TraceError, TracePacket, TraceReader, TraceWriter};
pub use replies::{FiveTuple, ReplyRewriter};
pub use stats::{PortCounts, TraceStats};
pub use workload::{builtin_workloads, BuiltinWorkload, Cdf, Workload, WorkloadError};
