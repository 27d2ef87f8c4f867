//! Traffic for Tandem: packet traces on disk (pcap/pcapng), workloads (flow-size
//! distributions from published research) and a deterministic flow-level generator.
//!
//! This crate does file I/O (it reads and writes traces) but no networking.

pub mod pcap;
pub mod workload;

pub use pcap::{PcapFileWriter, TraceError, TracePacket, TraceReader, TraceWriter};
pub use workload::{builtin_workloads, BuiltinWorkload, Cdf, Workload, WorkloadError};
