//! `compile`: a parsed P4 program to the form the switch runs, in one visible order (as
//! Cranelift's `Context::optimize` lays out its passes):
//!
//! ```text
//! check     names, types, widths, v1model binding -> statement trees over slots (program)
//! optimize  dead/self stores, forward substitution, boolean folding (CompileOptions)
//! flatten   trees -> one instruction array with jumps and action calls (program::Code)
//! deparse   the emit-only deparser's in-place test, precomputed (deparse::InPlace)
//! ```
//!
//! The interpreter (`exec`) runs the result; a native-code back end plugs in after `flatten`
//! (or beside it, from the optimised trees).

use tandem_p4_syntax::Program;

use crate::check::{check_program, Checked, Diagnostic};

/// Checks, optimises (when `optimize`) and flattens `prog`.
pub(crate) fn compile(prog: &Program, optimize: bool) -> Result<Checked, Vec<Diagnostic>> {
    let mut checked = check_program(prog)?;
    // the optimiser knows v1model's blocks only: TNA passes are not optimised
    let optimize = optimize && checked.compiled.passes.is_empty();
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
    Ok(checked)
}
