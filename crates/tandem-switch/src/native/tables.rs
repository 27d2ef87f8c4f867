//! Tables specialised to their contents (ESWITCH's "direct code" template): a table whose
//! classifier is a straight list of at most `LINEAR_MAX` entries, or empty, becomes a
//! function of its own — one compare chain per entry with the key values, masks, bounds and
//! the action's arguments as immediates. Larger tables keep their data-structure classifier
//! (one hash probe for exact tables, the 8-bit-stride trie for LPM, tuple space otherwise),
//! reached through `rt_apply`.
//!
//! Before (table `acl` with two entries, through the general lookup):
//!
//! ```text
//!   store rt.keys[0], k ; r = call rt_apply(rt, 3)   -- classifier dispatch, entry loop, args copied
//! ```
//!
//! After (the table's own code, `fn(rt) -> action | hit << 31`):
//!
//! ```text
//!   k = load rt.keys[0]
//!   brif (k & 0xffff) == 0x50, e0, next0
//! e0:    store phv[param0], 7 ; return 2 | 1 << 31
//! next0: brif 1000 <= k <= 2000, e1, miss
//! e1:    ...
//! miss:  store phv[param0], 0 ; return default
//! ```
//!
//! Update protocol (the trampoline): a batch builds the new table states, then this code for
//! each touched small table, beside the old code; the new snapshot carries the new entry
//! points (`Snapshot::lookups`) and owns the code, and one pointer swap publishes the
//! snapshot. A packet reads the snapshot once, so it runs the old code or the new code of
//! every table in the batch, never a mix; old code is freed when the last packet holding the
//! old snapshot drops it.

use super::raw::{CodeFn, JitCode};
use super::{RT_KEYS, RT_PHV};
use crate::program::{ix, Compiled};
use crate::table::{Entry, TableState};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{AbiParam, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};

/// One table's compiled lookup; owns its code.
pub(crate) struct TableCode {
    pub entry: CodeFn,
    _code: JitCode,
}

impl std::fmt::Debug for TableCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TableCode")
    }
}

/// The compiled lookup of table `t` in state `ts`, when its classifier is a short list.
/// `fault`: the entries' action arguments are compiled plus one (a negative control).
pub(crate) fn compile_table(
    prog: &Compiled,
    t: u32,
    ts: &TableState,
    fault: bool,
) -> Option<TableCode> {
    let order = ts.linear_order()?;
    let def = prog.tables.get(t as usize)?;
    if def.direct_counter.is_some() || def.ageing {
        // Each hit counts in its entry's cell, or refreshes its age (a miss once idle): the
        // general lookup (`rt_apply`) does that.
        return None;
    }
    let isa = super::codegen::isa().ok()?;
    let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(I64));
    sig.returns.push(AbiParam::new(I32));
    let id = module
        .declare_function(&format!("table{t}"), Linkage::Local, &sig)
        .ok()?;
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    let mut fbc = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fbc);
        let start = b.create_block();
        b.append_block_params_for_function_params(start);
        b.switch_to_block(start);
        let rt = b.block_params(start)[0];
        let flags = MemFlagsData::new().with_notrap();
        let phv = b.ins().load(I64, flags, rt, RT_PHV);
        let nkeys = def.keys.len().min(crate::table::MAX_KEYS);
        let keys: Vec<Value> = (0..nkeys)
            .map(|i| b.ins().load(I64, flags, rt, RT_KEYS + 8 * i as i32))
            .collect();
        let hit_entry = |b: &mut FunctionBuilder, action: u32, args: &[u64], hit: bool| {
            if let Some(adef) = prog.actions.get(action as usize) {
                for (&(slot, m), &v) in adef.param_masks.iter().zip(args) {
                    let v = if fault && hit { v.wrapping_add(1) } else { v };
                    let c = b.ins().iconst(I64, (v & m) as i64);
                    b.ins().store(flags, c, phv, (ix(slot) * 8) as i32);
                }
            }
            let r = b
                .ins()
                .iconst(I32, i64::from(action | (u32::from(hit) << 31)));
            b.ins().return_(&[r]);
        };
        for e in order {
            let Entry {
                fields,
                action,
                args,
                ..
            } = e;
            let mut cond = b.ins().iconst(I32, 1);
            for (f, &k) in fields.iter().zip(&keys) {
                let m = b.ins().band_imm_u(k, f.mask as i64);
                let c = b.ins().icmp_imm_u(IntCC::Equal, m, f.value as i64);
                let lo = b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, k, f.lo as i64);
                let hi = b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, k, f.hi as i64);
                let c = b.ins().band(c, lo);
                let c = b.ins().band(c, hi);
                let c = b.ins().uextend(I32, c);
                cond = b.ins().band(cond, c);
            }
            let (yes, no) = (b.create_block(), b.create_block());
            b.ins().brif(cond, yes, &[], no, &[]);
            b.switch_to_block(yes);
            hit_entry(&mut b, *action, args, true);
            b.switch_to_block(no);
        }
        hit_entry(&mut b, ts.default_action, &ts.default_args, false);
        b.seal_all_blocks();
        b.finalize(module.target_config());
    }
    if module.define_function(id, &mut ctx).is_err() || module.finalize_definitions().is_err() {
        super::raw::discard(module);
        return None;
    }
    let (code, fns) = JitCode::new(module, &[id]);
    Some(TableCode {
        entry: *fns.first()?,
        _code: code,
    })
}
