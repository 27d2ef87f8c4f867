//! The random-NF differential fuzzer (issue 14).
//!
//! - [`gen`]: from a seed, a random, valid, deterministic C++ NF against the NF API;
//! - [`profile`]: random target profiles around the built-in ones;
//! - [`run`] (feature `runner`, on by default): one NF lifted once, then for each profile
//!   partitioned, compiled to switch.p4 + server.cc and checked against the native NF on a
//!   short random trace, every outcome classified (passed, refused with a code, failed).
//!
//! The generator and the profiles do not depend on LLVM; only the runner does (through the
//! front end). Nothing here prints: `tandem fuzz-nfs` does.

pub mod gen;
pub mod profile;
pub mod rng;
#[cfg(feature = "runner")]
pub mod run;

pub use gen::{generate, GenOptions, GeneratedNf};
pub use rng::Rng;
