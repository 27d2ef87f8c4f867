//! One module per subcommand.
pub mod bench;
pub mod bench_cluster;
pub mod bench_partial;
pub mod capacity;
pub mod check;
pub mod compile;
pub mod fuzz;
pub mod host;
pub mod lift;
pub mod partition;
pub mod progress;
pub mod run;
pub mod scenario;
pub mod serve;
pub mod switch;
pub mod traffic;
