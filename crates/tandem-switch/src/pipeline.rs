//! `compile`: a parsed P4 program to the form the switch runs, in one visible order (as
//! Cranelift's `Context::optimize` lays out its passes):
//!
//! ```text
//! check     names, types, widths, v1model binding -> statement trees over slots (program)
//! optimize  dead/self stores, forward substitution, boolean folding (CompileOptions)
//! flatten   trees -> one instruction array with jumps and action calls (program::Code)
//! deparse   the emit-only deparser's in-place test, precomputed (deparse::InPlace)
//! prefix    how many packet bytes the parser can reach, copied in before it runs
//! ```
//!
//! The interpreter (`exec`) runs the result; a native-code back end plugs in after `flatten`
//! (or beside it, from the optimised trees).

use tandem_p4_syntax::Program;

use crate::check::{check_program, Checked, Diagnostic};

/// Checks, optimises (when `optimize`) and flattens `prog`.
pub(crate) fn compile(prog: &Program, optimize: bool) -> Result<Checked, Vec<Diagnostic>> {
    let mut checked = check_program(prog)?;
    checked.compiled.optimize = optimize;
    if optimize {
        crate::opt::optimize(&mut checked.compiled);
    }
    checked.compiled.code = crate::flatten::lower(&checked.compiled);
    let c = &checked.compiled;
    let in_place = c
        .code
        .deparser_emits
        .as_ref()
        .and_then(|e| crate::deparse::plan(c, e));
    checked.compiled.code.in_place = in_place;
    checked.compiled.code.prefix = parse_prefix(&checked.compiled);
    Ok(checked)
}

/// Most packet bytes copied into the packet buffer up front (a parse past them copies the
/// rest when it gets there).
const MAX_PREFIX: usize = 256;

/// The bytes the parser reaches when it extracts each header it can extract once (the sum
/// of their sizes, at most [`MAX_PREFIX`]): what is copied into the packet buffer before
/// the parser runs. A parser that goes further (a header extracted twice, a larger sum)
/// still sees every byte: the extraction past the prefix copies the rest of the packet.
fn parse_prefix(c: &crate::program::Compiled) -> usize {
    let mut seen = std::collections::BTreeSet::new();
    let mut n = 0usize;
    for op in &c.code.ops {
        if let crate::program::Op::Extract(h) = op {
            if seen.insert(*h) {
                n += c.headers.get(*h as usize).map_or(0, |hl| hl.bytes as usize);
            }
        }
    }
    n.min(MAX_PREFIX)
}
