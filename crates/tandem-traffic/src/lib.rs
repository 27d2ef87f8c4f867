//! Traffic for Tandem: packet traces on disk (pcap/pcapng), workloads (flow-size
//! distributions from published research), a deterministic flow-level generator, trace
//! statistics and closed-loop reply translation for NFs that rewrite addresses.
//!
//! - [`pcap`] — [`TracePacket`], [`TraceReader`], [`TraceWriter`], [`PcapFileWriter`].
//! - [`workload`] — [`Workload::resolve`] (built-in name or CDF file), [`Cdf`] sampling.
//! - [`gen`] — [`generate`] (in memory), [`write_trace`] (pcapng file), the streaming
//!   [`Generator`]; [`GenOptions`] and address [`Plan`]s. Client side on port
//!   [`CLIENT_PORT`] (0), server side on [`SERVER_PORT`] (1).
//! - [`replies`] — [`ReplyRewriter`] (`rewrite` before feeding a packet, `observe` after).
//! - [`xgw`] — plan `xgw`'s region ([`xgw::XgwOptions`]) and the gateway configuration for
//!   it ([`xgw::region_config`]).
//! - [`stats`] — [`TraceStats`].
//! - [`scenario`] — packet scenario files (docs/scenarios.md): [`scenario::Scenario::load`]
//!   builds every step's frame and expectation; [`scenario::Expect::check`] checks an outcome.
//!
//! Invariants: everything is deterministic (same inputs → same bytes); no clocks, threads or
//! networking; file I/O only in `pcap`, `workload::Workload::from_file`, `write_trace` and reading
//! scenario files;
//! errors are `thiserror` enums that name the file or option concerned.

pub mod gen;
pub mod pcap;
pub mod replies;
pub mod scenario;
pub mod stats;
pub mod workload;
pub mod xgw;

pub use gen::{
    generate, write_trace, GenError, GenOptions, GenSummary, Generator, Plan, CLIENT_PORT,
    SERVER_PORT,
};
pub use pcap::{PcapFileWriter, TraceError, TracePacket, TraceReader, TraceWriter};
pub use replies::{FiveTuple, ReplyRewriter};
pub use stats::{PortCounts, TraceStats};
pub use workload::{builtin_workloads, BuiltinWorkload, Cdf, Workload, WorkloadError};
