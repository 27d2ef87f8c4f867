//! P4-16 AST, lexer, parser and canonical printer.
//!
//! Shared by the P4 back end (which builds an [`ast::Program`] and prints it) and the
//! software switch (which parses and executes it). Invariants:
//! - [`parse_program`] never panics, on any input; failures are a [`SyntaxError`]
//!   carrying the line and column of the offending token.
//! - [`print_program`] output parses back, and printing is a fixed point:
//!   `print(parse(print(p))) == print(p)`.
//! - No I/O: `#include` lines are kept as [`ast::DeclKind::Preprocessor`] items and
//!   never expanded; the consumer decides what an include means (the switch treats
//!   `core.p4` / `v1model.p4` as built in).
//!
//! Covered: headers, header unions, structs, typedefs, consts, enums (plain and
//! serializable), `error`/`match_kind` declarations, parsers with `select`
//! (masks `&&&`, ranges `..`, `default`, `_`), controls, actions, tables (keys,
//! actions, default_action, size, `const entries`, other properties), all P4-16
//! operators including `++`, `|+|`, slices and casts, `switch`, `if`, `exit`,
//! `return`, instantiations with type arguments. `extern`/`package` declarations
//! are kept as raw text.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod printer;

pub use ast::*;
pub use parser::{parse_expr, parse_program, raw_text};
pub use printer::{print_expr, print_program, print_type};

/// A syntax error at a source position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{span}: {message}")]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

impl SyntaxError {
    pub fn new(span: Span, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            span,
            message: message.into(),
        }
    }
}
