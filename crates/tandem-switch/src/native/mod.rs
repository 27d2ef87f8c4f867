//! The native back end: the flat program (`program::Code`, after `opt` and `flatten`)
//! compiled to machine code with Cranelift, one function per control block and one per
//! action (ESWITCH's templates, for P4). The interpreter (`exec`) stays the reference and
//! the fallback: a block the code generator does not handle runs interpreted, never refused.
//!
//! Before (the interpreter's flat code for `hdr.ipv4.ttl = hdr.ipv4.ttl - 1; ipv4_lpm.apply();`):
//!
//! ```text
//!   12: LoadBswap(t40, ipv4+8 [7:0], 1)     -- dispatch, decode operands, run
//!   13: AddC(t41, t40, 0xff, 0xff)          -- dispatch, decode operands, run
//!   14: StoreBswap(ipv4+8 [7:0], t41, 1)    -- ...
//!   15: Apply { table: 0, .. }              -- keys, lookup, params, push pc, jump
//! ```
//!
//! After (one Cranelift function per block; slots are constant PHV offsets, header fields
//! 8-byte big-endian windows at `phv[base] + off`, tables a run-time lookup followed by a
//! direct call of the action's own function):
//!
//! ```text
//!   v1 = load.i64 phv+8*base ; v2 = load.i64 hb+((v1+off)&MASK) ; v3 = bswap v2 ; ...
//!   store phv+8*41, (v3 - 1) & 0xff ; ... field store ...
//!   store rt.keys[0], ... ; v9 = call rt_apply(rt, 0)
//!   brif v9 == 3, call_ipv4_forward, next   -- the action called directly
//! ```
//!
//! Effects that need run-time state (registers, counters, meters, hashes, checksums,
//! header extraction and emission, whole-header copies) are calls into the interpreter's
//! own implementations (`raw::rt_*`), so both engines share one definition of them. The
//! unsafe code (JIT memory, entering compiled code, the run-time calls) is confined to
//! [`raw`], with its invariants.

mod codegen;
mod promote;
pub(crate) mod raw;
mod tables;

pub(crate) use tables::compile_table;

use crate::exec::Stateful;
use crate::program::{Code, Compiled, Op, Slot};
use std::fmt;

/// What compiled code gets: the PHV, the packet buffer, the interpreter context for
/// run-time calls, and room for a table's key values (`raw` invariant 1).
#[repr(C)]
pub(crate) struct Rt {
    pub phv: *mut u64,
    pub hb: *mut u8,
    pub ctx: *mut std::ffi::c_void,
    pub keys: [u64; crate::table::MAX_KEYS],
    /// the snapshot's compiled table lookups, one entry point per table (0: none)
    pub lookups: *const usize,
    /// the parser's cursor (bytes into the packet) and the packet's length
    pub cursor: u64,
    pub pkt_len: u64,
    /// headers extracted by compiled code, in order (the first [`EXT_MAX`]) and how many
    pub n_ext: u64,
    pub ext: [u32; EXT_MAX],
}

/// Extractions one run of compiled code records (more make the deparser rebuild the frame,
/// which gives the same bytes).
pub(crate) const EXT_MAX: usize = 16;

/// Byte offset of `Rt::keys` (what `codegen` writes key values to).
pub(crate) const RT_KEYS: i32 = std::mem::offset_of!(Rt, keys) as i32;
pub(crate) const RT_PHV: i32 = std::mem::offset_of!(Rt, phv) as i32;
pub(crate) const RT_HB: i32 = std::mem::offset_of!(Rt, hb) as i32;
pub(crate) const RT_LOOKUPS: i32 = std::mem::offset_of!(Rt, lookups) as i32;
pub(crate) const RT_CURSOR: i32 = std::mem::offset_of!(Rt, cursor) as i32;
pub(crate) const RT_PKT_LEN: i32 = std::mem::offset_of!(Rt, pkt_len) as i32;
pub(crate) const RT_N_EXT: i32 = std::mem::offset_of!(Rt, n_ext) as i32;
pub(crate) const RT_EXT: i32 = std::mem::offset_of!(Rt, ext) as i32;

/// How one block of the pipeline runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockStatus {
    /// compiled to machine code
    Native,
    /// empty (nothing to run)
    Empty,
    /// run by the interpreter, with the reason
    Interpreted(String),
    /// run in Rust without the interpreter loop (checksum-only compute, emit-only deparser)
    Direct,
}

impl fmt::Display for BlockStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockStatus::Native => write!(f, "native"),
            BlockStatus::Empty => write!(f, "empty"),
            BlockStatus::Direct => write!(f, "direct (no interpreter loop)"),
            BlockStatus::Interpreted(r) => write!(f, "interpreted ({r})"),
        }
    }
}

/// A program's compiled blocks and actions.
pub(crate) struct NativeProgram {
    /// (entry position in `Code::ops`, compiled function)
    blocks: Vec<(u32, raw::CodeFn)>,
    /// per pipeline block: (name, status)
    pub report: Vec<(&'static str, BlockStatus)>,
    /// actions compiled / all actions
    pub actions: (usize, usize),
    _code: Option<raw::JitCode>,
}

impl fmt::Debug for NativeProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NativeProgram")
            .field("report", &self.report)
            .field("actions", &self.actions)
            .finish()
    }
}

/// Largest function (in flat ops reachable from its entry) compiled natively.
const MAX_OPS: usize = 50_000;

impl NativeProgram {
    /// Compiles every block and action of `prog` that the code generator handles.
    /// `fault` turns on deliberately wrong rules (`FAULT_ADD`, `FAULT_CSUM`) for the
    /// differential test's negative control.
    pub(crate) fn compile(prog: &Compiled, state: &Stateful, fault: u8) -> NativeProgram {
        let code = &prog.code;
        let mut blocks: Vec<(&'static str, u32)> = Vec::new();
        if prog.passes.is_empty() {
            blocks.push(("parser", code.parser));
            if code.parser_end != code.ingress {
                blocks.push(("verify", code.verify));
            }
            blocks.extend([
                ("ingress", code.ingress),
                ("egress", code.egress),
                ("compute", code.compute),
                ("deparser", code.deparser),
            ]);
        }
        // TNA: each pass's three blocks (passes alternate ingress, egress: `check::tna`)
        for (i, p) in code.passes.iter().enumerate() {
            let names = if i % 2 == 0 {
                ["ingress_parser", "ingress", "ingress_deparser"]
            } else {
                ["egress_parser", "egress", "egress_deparser"]
            };
            blocks.extend(names.into_iter().zip([p.parser, p.control, p.deparser]));
        }
        let empty = |e: u32| matches!(code.ops.get(e as usize), Some(Op::End) | None);
        let mut report: Vec<(&'static str, BlockStatus)> = Vec::new();
        let mut wanted = Vec::new();
        for &(name, entry) in &blocks {
            let direct = (name == "compute" && code.compute_checksums.is_some())
                || (name == "deparser" && code.deparser_emits.is_some());
            if empty(entry) {
                report.push((name, BlockStatus::Empty));
            } else if direct {
                report.push((name, BlockStatus::Direct));
            } else {
                report.push((name, BlockStatus::Interpreted(String::new())));
                wanted.push((name, entry));
            }
        }
        // register cells are read and written in place (`raw` invariant 1)
        let regs: Vec<(u64, u64)> = state
            .registers
            .iter()
            .map(|r| (r.as_ptr() as u64, r.len() as u64))
            .collect();
        match codegen::compile(prog, &wanted, &regs, fault) {
            Ok(out) => {
                for (name, st) in report.iter_mut() {
                    if let Some(r) = out.failed.iter().find(|f| f.0 == *name) {
                        *st = BlockStatus::Interpreted(r.1.clone());
                    } else if matches!(st, BlockStatus::Interpreted(_)) {
                        *st = BlockStatus::Native;
                    }
                }
                NativeProgram {
                    blocks: out.blocks,
                    report,
                    actions: out.actions,
                    _code: Some(out.code),
                }
            }
            Err(reason) => {
                for (_, st) in report.iter_mut() {
                    if matches!(st, BlockStatus::Interpreted(_)) {
                        *st = BlockStatus::Interpreted(reason.clone());
                    }
                }
                NativeProgram {
                    blocks: vec![],
                    report,
                    actions: (0, prog.actions.len()),
                    _code: None,
                }
            }
        }
    }

    /// The compiled function of the block starting at `entry`, if any.
    #[inline]
    pub(crate) fn block(&self, entry: u32) -> Option<raw::CodeFn> {
        self.blocks.iter().find(|b| b.0 == entry).map(|b| b.1)
    }

    /// One line per block: `parser native`, `egress empty`, ...
    pub(crate) fn describe(&self) -> String {
        let mut s = String::from("engine: native\n");
        for (name, st) in &self.report {
            s.push_str(&format!("  {name:<9} {st}\n"));
        }
        s.push_str(&format!(
            "  actions   {} compiled (those a block can run; {} declared)\n",
            self.actions.0, self.actions.1
        ));
        s
    }
}

/// Calls `w` on every slot `op` writes (whole slots; a header field's write is the packet
/// buffer's, not a slot's).
pub(crate) fn slot_writes(prog: &Compiled, op: &Op, w: &mut impl FnMut(Slot)) {
    promote::op_slots(prog, op, &mut |_| {}, w);
}

/// The flat positions reachable from `entry` within one function: successors of each op,
/// calls (`Apply`, `CallAction`) continuing at the next op, `Ret` and `End` ending it.
pub(crate) fn successors(code: &Code, pc: usize, out: &mut Vec<usize>) {
    let Some(op) = code.ops.get(pc) else {
        return;
    };
    let pe = code.parser_end as usize;
    match op {
        Op::Jump(t) => out.push(*t as usize),
        Op::Jz(_, t) | Op::Jnz(_, t) | Op::JEqC(_, _, t) | Op::JNeC(_, _, t) => {
            out.extend([*t as usize, pc + 1])
        }
        Op::JumpIfZero(_, t) => out.extend([*t as usize, pc + 1]),
        Op::SwitchJump(_, arms, d) => {
            out.extend(arms.iter().map(|a| a.1 as usize));
            out.push(*d as usize);
        }
        Op::Goto(t) => out.extend([*t as usize, pe]),
        Op::Select { cases, .. } => {
            out.extend(cases.iter().map(|c| c.1 as usize));
            out.push(pe);
        }
        Op::Select1 { cases, .. } => {
            out.extend(cases.iter().map(|c| c.1 as usize));
            out.push(pe);
        }
        Op::Extract(_) => out.extend([pc + 1, pe]),
        Op::Ret | Op::End => {}
        _ => out.push(pc + 1),
    }
}
