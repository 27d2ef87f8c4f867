//! The C++ front end: an NF's analysis build (clang → LLVM IR) lifted to the NF IR.
//!
//! ```text
//! nf.cc ──driver::emit_llvm (clang++-16 -DTANDEM_ANALYSIS)──▶ LLVM IR text
//!       ──lift──▶ tandem_ir::Module (+ warnings) or the diagnostics that stop it
//! ```
//!
//! [`lift`] is pure: it takes LLVM IR text and returns the module; only [`driver`] runs a
//! process. The lifting itself is described in [`translate`] (with the byte-order rules);
//! [`cleanup`] tidies the result; every error carries a [`diag::Code`] and the C++ location.

pub mod cleanup;
pub mod diag;
pub mod driver;
mod layout;
pub mod loads;
/// The payload operations (moved to the IR crate; re-exported for the front end's users).
pub use tandem_ir::payload;
mod srcmap;
pub mod translate;

pub use diag::{Code, Diagnostic, Severity, SrcLoc};
pub use tandem_ir::payload::PayloadOps;

/// A lifted NF.
#[derive(Debug)]
pub struct Lifted {
    pub module: tandem_ir::Module,
    /// Warnings (statements kept as opaque server-only calls, ...).
    pub warnings: Vec<Diagnostic>,
}

/// Why lifting failed: the diagnostics (at least one error), in source order.
#[derive(Debug, thiserror::Error)]
#[error("{}", render(.diagnostics))]
pub struct LiftError {
    pub diagnostics: Vec<Diagnostic>,
}

fn render(d: &[Diagnostic]) -> String {
    d.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Lifts the analysis build's LLVM IR (text) to the NF IR.
pub fn lift(llvm_ir_text: &str) -> Result<Lifted, LiftError> {
    let lm = llvm_ir::Module::from_ir_str(llvm_ir_text).map_err(|e| LiftError {
        diagnostics: vec![Diagnostic::new(
            Code::UnsupportedInstruction,
            format!("LLVM could not parse the analysis build: {e}"),
            None,
        )],
    })?;
    let Some(entry) = lm.functions.iter().find(|f| f.name == translate::ENTRY) else {
        return Err(LiftError {
            diagnostics: vec![Diagnostic::new(
                Code::NoEntry,
                "no `TANDEM_NF(...)` registration found",
                None,
            )],
        });
    };
    let name = translate::nf_type_name(&lm).unwrap_or_else(|| "nf".to_string());
    let srcmap = srcmap::SrcMap::read(llvm_ir_text, translate::ENTRY, Some(&name));
    let timer = lm
        .functions
        .iter()
        .find(|f| f.name == translate::TIMER_ENTRY)
        .filter(|_| has_timer(&lm));
    let mut l = translate::Lifter::new(&lm, entry, name.clone(), srcmap);
    l.read_members();
    l.read_headers();
    let order = translate::rpo(entry);
    l.scan(&order);
    match timer {
        None => {
            l.declare_state();
            l.translate(&order);
        }
        Some(t) => {
            // State is declared from what both functions use: scan on_timer too, declare,
            // lift on_timer, then scan process() again (scanning is per function) and lift it.
            let torder = translate::rpo(t);
            let tmap = srcmap::SrcMap::read(llvm_ir_text, translate::TIMER_ENTRY, Some(&name));
            l.start_function(t, tmap, tandem_ir::FuncId::Timer);
            l.scan(&torder);
            l.declare_state();
            l.translate(&torder);
            let pmap = srcmap::SrcMap::read(llvm_ir_text, translate::ENTRY, Some(&name));
            l.start_function(entry, pmap, tandem_ir::FuncId::Process);
            l.scan(&order);
            l.translate(&order);
        }
    }
    let mut module = l.module;
    cleanup::remove_redundant_params(&mut module.process);
    loads::reuse_scalar_loads(&mut module.process);
    cleanup::remove_dead_code(&mut module.process);
    if let Some(t) = module.timer.as_mut() {
        cleanup::remove_redundant_params(&mut t.func);
        cleanup::remove_dead_code(&mut t.func);
    }
    module.server_functions = vec!["configure".into()];
    l.diags.extend(timer_packet_uses(&module));
    let mut diags = first_error_per_statement(l.diags);
    diags.sort_by(|a, b| a.loc.cmp(&b.loc));
    let (errors, warnings): (Vec<_>, Vec<_>) = diags.into_iter().partition(Diagnostic::is_error);
    if !errors.is_empty() {
        return Err(LiftError {
            diagnostics: errors.into_iter().chain(warnings).collect(),
        });
    }
    Ok(Lifted { module, warnings })
}

/// Drops the diagnostics that follow an error of the same statement (source line), in the
/// order they were found: once a statement cannot be lifted, what the front end says about the
/// rest of it is a consequence, not news.
fn first_error_per_statement(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut failed: Vec<(String, u32)> = Vec::new();
    let mut out = Vec::with_capacity(diags.len());
    for d in diags {
        let stmt = d.loc.as_ref().map(|l| (l.file.clone(), l.line));
        if let Some(s) = &stmt {
            if failed.contains(s) {
                continue;
            }
            if d.is_error() {
                failed.push(s.clone());
            }
        }
        out.push(d);
    }
    out
}

/// What on_timer() lifted to that needs a packet (the verifier refuses it): `L015` at its
/// line. The front end reports unknown calls itself; this catches the rest.
fn timer_packet_uses(module: &tandem_ir::Module) -> Vec<Diagnostic> {
    use tandem_ir::{InstKind, Meta};
    let Some(t) = &module.timer else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (_, b) in t.func.blocks.iter() {
        for &i in &b.insts {
            let d = &t.func.insts[i];
            let what = match &d.kind {
                InstKind::HdrRead { .. }
                | InstKind::HdrWrite { .. }
                | InstKind::HdrValid { .. } => "reads or writes a packet header",
                InstKind::MetaRead {
                    meta: Meta::InPort | Meta::Length,
                } => "reads packet metadata",
                InstKind::Send { .. } | InstKind::Drop => "sends or drops a packet",
                InstKind::Opaque { .. } => "runs code the front end does not know",
                _ => continue,
            };
            let loc = d.loc.map(|l| l.user()).map(|l| SrcLoc {
                file: module.files.get(l.file).cloned().unwrap_or_default(),
                line: l.line,
                col: l.col,
            });
            out.push(Diagnostic::new(
                Code::TimerUnsupported,
                format!("on_timer() {what}, but a timer tick has no packet"),
                loc,
            ));
        }
    }
    out
}

/// Whether the NF defines on_timer(): its timer entry does more than return.
fn has_timer(lm: &llvm_ir::Module) -> bool {
    lm.functions
        .iter()
        .find(|f| f.name == "tandem_nf_timer_entry")
        .is_some_and(|f| {
            f.basic_blocks.len() > 1
                || f.basic_blocks.iter().any(|b| {
                    b.instrs.iter().any(|i| match i {
                        llvm_ir::Instruction::Call(c) => !c
                            .function
                            .as_ref()
                            .right()
                            .is_some_and(|o| format!("{o}").contains("llvm.dbg")),
                        _ => true,
                    })
                })
        })
}
