//! One module per subcommand.
pub mod host;
pub mod switch;
pub mod traffic;
