//! One module per subcommand.
pub mod host;
pub mod progress;
pub mod switch;
pub mod traffic;
