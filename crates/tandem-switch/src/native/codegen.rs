//! Cranelift IR for the flat program: one function per pipeline block and per action.
//! Safe code only: it builds IR; `raw` owns what runs.
//!
//! Every PHV slot is a load or store at a constant offset from the PHV pointer; a header
//! field is the 8-byte big-endian window at `(phv[base] + off) & HB_MASK` of the packet
//! buffer, shifted and masked with constants (as `FieldLoc::load`/`store`). Jumps become
//! Cranelift blocks; `Apply` stores the key values into `Rt::keys`, calls `rt_apply` and
//! then calls the chosen action's function directly (a compare per action of the table);
//! `CallAction` evaluates its arguments and calls the action. Parser transitions count
//! against the interpreter's limit of 1024 per block.

mod csum;

use super::raw::{self, CodeFn, JitCode};
use super::{
    successors, EXT_MAX, MAX_OPS, RT_CURSOR, RT_EXT, RT_HB, RT_KEYS, RT_LOOKUPS, RT_N_EXT, RT_PHV,
    RT_PKT_LEN,
};
use crate::program::*;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{
    AbiParam, Block, FuncRef, Function, InstBuilder, MemFlagsData, SigRef, Signature, Value,
};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Linkage, Module};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What `compile` produced.
pub(super) struct Out {
    pub blocks: Vec<(u32, CodeFn)>,
    /// blocks left to the interpreter: (name, reason)
    pub failed: Vec<(&'static str, String)>,
    pub actions: (usize, usize),
    pub code: JitCode,
}

/// The host's target, made once per process (every program and table compile shares it).
pub(super) fn isa() -> Result<OwnedTargetIsa, String> {
    static ISA: std::sync::OnceLock<Result<OwnedTargetIsa, String>> = std::sync::OnceLock::new();
    ISA.get_or_init(|| {
        let mut flags = settings::builder();
        for (k, v) in [
            ("opt_level", "speed"),
            ("use_colocated_libcalls", "false"),
            ("is_pic", "false"),
        ] {
            flags.set(k, v).map_err(|e| e.to_string())?;
        }
        let b = cranelift_native::builder().map_err(|e| format!("no native target: {e}"))?;
        b.finish(settings::Flags::new(flags))
            .map_err(|e| e.to_string())
    })
    .clone()
}

/// `extern "C" fn(*mut Rt) -> u32`: compiled blocks and actions (`raw` invariant 4).
fn fn_signature(m: &JITModule) -> Signature {
    let mut s = m.make_signature();
    s.params.push(AbiParam::new(I64));
    s.returns.push(AbiParam::new(I32));
    s
}

/// `extern "C" fn(*mut Rt, u32) -> u32`: the run-time calls (`raw` invariant 4).
fn call_signature(m: &JITModule) -> Signature {
    let mut s = fn_signature(m);
    s.params.push(AbiParam::new(I32));
    s
}

/// The positions reachable from `entry` (error past [`MAX_OPS`]).
fn reachable(code: &Code, entry: usize) -> Result<BTreeSet<usize>, String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![entry];
    let mut succ = Vec::new();
    while let Some(pc) = stack.pop() {
        if pc >= code.ops.len() || !seen.insert(pc) {
            continue;
        }
        if seen.len() > MAX_OPS {
            return Err(format!("more than {MAX_OPS} operations"));
        }
        succ.clear();
        successors(code, pc, &mut succ);
        stack.append(&mut succ);
    }
    Ok(seen)
}

/// The actions a table apply may run: the table's actions and its default.
fn table_actions(prog: &Compiled, t: u32) -> Vec<u32> {
    let mut v = Vec::new();
    if let Some(def) = prog.tables.get(t as usize) {
        for &a in def.actions.iter().chain([&def.default_action.0]) {
            if !v.contains(&a) {
                v.push(a);
            }
        }
    }
    v
}

/// Actions called from the code at `pcs`.
fn called(prog: &Compiled, pcs: &BTreeSet<usize>) -> Vec<u32> {
    let mut v = Vec::new();
    for &pc in pcs {
        match prog.code.ops.get(pc) {
            Some(Op::Apply { table, .. }) => v.extend(table_actions(prog, *table)),
            Some(Op::CallAction { action, .. }) => v.push(*action),
            _ => {}
        }
    }
    v
}

/// Compiles blocks `wanted` (name, entry) and every action they call. A function the code
/// generator or Cranelift rejects is left out (its callers reach it through `rt_action`,
/// a block through the interpreter) and the module is built again without it.
pub(super) fn compile(
    prog: &Compiled,
    wanted: &[(&'static str, u32)],
    regs: &[(u64, u64)],
    fault: u8,
) -> Result<Out, String> {
    let isa = isa()?;
    let code = &prog.code;
    // every action reachable from the wanted blocks, transitively
    let mut actions: BTreeSet<u32> = BTreeSet::new();
    let mut todo: Vec<usize> = wanted.iter().map(|w| w.1 as usize).collect();
    let mut done = BTreeSet::new();
    while let Some(e) = todo.pop() {
        if !done.insert(e) {
            continue;
        }
        let Ok(r) = reachable(code, e) else { continue };
        for a in called(prog, &r) {
            if actions.insert(a) {
                if let Some(&ae) = code.action_entry.get(a as usize) {
                    todo.push(ae as usize);
                }
            }
        }
    }
    let keep = super::promote::register_temps(prog);
    let mut bad_actions: BTreeMap<u32, String> = BTreeMap::new();
    let mut bad_blocks: BTreeMap<&'static str, String> = BTreeMap::new();
    for _attempt in 0..8 {
        let mut module = JITModule::new(JITBuilder::with_isa(isa.clone(), default_libcall_names()));
        let sig = fn_signature(&module);
        let mut ids: HashMap<u32, FuncId> = HashMap::new();
        for &a in actions.iter().filter(|a| !bad_actions.contains_key(a)) {
            let id = module
                .declare_function(&format!("action{a}"), Linkage::Local, &sig)
                .map_err(|e| e.to_string())?;
            ids.insert(a, id);
        }
        let mut block_ids = Vec::new();
        for (i, &(name, entry)) in wanted.iter().enumerate() {
            if bad_blocks.contains_key(name) {
                continue;
            }
            let id = module
                .declare_function(&format!("block{i}_{name}"), Linkage::Local, &sig)
                .map_err(|e| e.to_string())?;
            block_ids.push((name, entry, id));
        }
        let mut ctx = module.make_context();
        let mut fbc = FunctionBuilderContext::new();
        let mut retry = false;
        let mut units: Vec<(Option<&'static str>, u32, FuncId)> = ids
            .iter()
            .map(|(&a, &id)| {
                (
                    None,
                    code.action_entry
                        .get(a as usize)
                        .copied()
                        .unwrap_or(u32::MAX),
                    id,
                )
            })
            .collect();
        units.sort_by_key(|u| u.1);
        let action_of: HashMap<FuncId, u32> = ids.iter().map(|(&a, &id)| (id, a)).collect();
        units.extend(block_ids.iter().map(|&(n, e, id)| (Some(n), e, id)));
        for &(name, entry, id) in &units {
            ctx.func.signature = sig.clone();
            let r = translate(
                &mut module,
                &mut ctx.func,
                &mut fbc,
                (prog, regs, &keep),
                entry as usize,
                &ids,
                fault,
            )
            .and_then(|()| {
                module
                    .define_function(id, &mut ctx)
                    .map_err(|e| format!("{e:?}"))
            });
            module.clear_context(&mut ctx);
            if let Err(reason) = r {
                retry = true;
                match name {
                    Some(n) => bad_blocks.insert(n, reason),
                    None => bad_actions.insert(action_of[&id], reason),
                };
            }
        }
        if retry {
            raw::discard(module);
            continue;
        }
        module.finalize_definitions().map_err(|e| e.to_string())?;
        let fids: Vec<FuncId> = block_ids.iter().map(|b| b.2).collect();
        let (jit, fns) = JitCode::new(module, &fids);
        return Ok(Out {
            blocks: block_ids.iter().map(|b| b.1).zip(fns).collect(),
            failed: bad_blocks.into_iter().collect(),
            actions: (ids.len(), prog.actions.len()),
            code: jit,
        });
    }
    Err("code generation kept failing".into())
}

/// Flags of PHV and packet-buffer accesses: never trap (`raw` invariant 1), maybe unaligned.
fn mem() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

struct Tr<'a, 'b> {
    b: FunctionBuilder<'b>,
    prog: &'a Compiled,
    rt: Value,
    phv: Value,
    hb: Value,
    blocks: HashMap<usize, Block>,
    ret0: Block,
    exit: Block,
    trans: Variable,
    actions: HashMap<u32, FuncRef>,
    call_sig: SigRef,
    fn_sig: SigRef,
    /// per register: address of its first cell, number of cells
    regs: &'a [(u64, u64)],
    /// per slot: kept in a register (`promote`), and its variable once declared
    keep: &'a [bool],
    vars: HashMap<Slot, Variable>,
    /// deliberately wrong rules (`FAULT_*` flags; the differential test's negative controls)
    fault: u8,
}

fn translate(
    module: &mut JITModule,
    func: &mut Function,
    fbc: &mut FunctionBuilderContext,
    (prog, regs, keep): (&Compiled, &[(u64, u64)], &[bool]),
    entry: usize,
    ids: &HashMap<u32, FuncId>,
    fault: u8,
) -> Result<(), String> {
    let code = &prog.code;
    let pcs = reachable(code, entry)?;
    let mut actions = HashMap::new();
    for a in called(prog, &pcs) {
        if let Some(&id) = ids.get(&a) {
            actions
                .entry(a)
                .or_insert_with(|| module.declare_func_in_func(id, func));
        }
    }
    let call_sig = func.import_signature(call_signature(module));
    let fn_sig = func.import_signature(fn_signature(module));
    let cfg = module.target_config();
    let mut b = FunctionBuilder::new(func, fbc);
    let start = b.create_block();
    b.append_block_params_for_function_params(start);
    let blocks: HashMap<usize, Block> = pcs.iter().map(|&pc| (pc, b.create_block())).collect();
    let ret0 = b.create_block();
    let exit = b.create_block();
    let trans = b.declare_var(I64);
    b.switch_to_block(start);
    let rt = b.block_params(start)[0];
    let phv = b.ins().load(I64, mem(), rt, RT_PHV);
    let hb = b.ins().load(I64, mem(), rt, RT_HB);
    let zero = b.ins().iconst(I64, 0);
    b.def_var(trans, zero);
    let mut t = Tr {
        b,
        prog,
        rt,
        phv,
        hb,
        blocks,
        ret0,
        exit,
        trans,
        actions,
        call_sig,
        fn_sig,
        regs,
        keep,
        vars: HashMap::new(),
        fault,
    };
    let first = t.target(entry);
    t.b.ins().jump(first, &[]);
    for &pc in &pcs {
        let blk = t.blocks[&pc];
        t.b.switch_to_block(blk);
        t.op(pc)?;
    }
    for (blk, v) in [(t.ret0, 0), (t.exit, 1)] {
        t.b.switch_to_block(blk);
        let r = t.b.ins().iconst(I32, v);
        t.b.ins().return_(&[r]);
    }
    t.b.seal_all_blocks();
    t.b.finalize(cfg);
    Ok(())
}

impl Tr<'_, '_> {
    /// The block of position `pc` (past the code: return).
    fn target(&self, pc: usize) -> Block {
        self.blocks.get(&pc).copied().unwrap_or(self.ret0)
    }

    fn goto(&mut self, pc: usize) {
        let t = self.target(pc);
        self.b.ins().jump(t, &[]);
    }

    fn k(&mut self, c: u64) -> Value {
        self.b.ins().iconst(I64, c as i64)
    }

    /// The variable of slot `s` when it is kept in a register.
    fn var(&mut self, s: Slot) -> Option<Variable> {
        if !self.keep.get(ix(s)).copied().unwrap_or(false) {
            return None;
        }
        let b = &mut self.b;
        Some(*self.vars.entry(s).or_insert_with(|| b.declare_var(I64)))
    }

    fn slot(&mut self, s: Slot) -> Value {
        match self.var(s) {
            Some(v) => self.b.use_var(v),
            None => self.b.ins().load(I64, mem(), self.phv, (ix(s) * 8) as i32),
        }
    }

    fn set_slot(&mut self, s: Slot, v: Value) {
        match self.var(s) {
            Some(x) => self.b.def_var(x, v),
            None => {
                self.b.ins().store(mem(), v, self.phv, (ix(s) * 8) as i32);
            }
        }
    }

    /// The address of field `f`'s 8-byte window (masked into the buffer).
    fn field_addr(&mut self, f: &FieldLoc) -> Value {
        let base = self.slot(f.base);
        let o = self.b.ins().iadd_imm_u(base, i64::from(f.off));
        let o = self.b.ins().band_imm_u(o, HB_MASK as i64);
        self.b.ins().iadd(self.hb, o)
    }

    fn field(&mut self, f: &FieldLoc) -> Value {
        let a = self.field_addr(f);
        let w = self.b.ins().load(I64, mem(), a, 0);
        let w = self.b.ins().bswap(w);
        let w = self.b.ins().ushr_imm_u(w, i64::from(f.lshift & 63));
        self.b.ins().band_imm_u(w, f.m as i64)
    }

    fn set_field(&mut self, f: &FieldLoc, v: Value) {
        let a = self.field_addr(f);
        let w = self.b.ins().load(I64, mem(), a, 0);
        let old = self.b.ins().bswap(w);
        let sh = f.lshift & 63;
        let keep = self.b.ins().band_imm_u(old, !(f.m << sh) as i64);
        let v = self.b.ins().band_imm_u(v, f.m as i64);
        let v = self.b.ins().ishl_imm_u(v, i64::from(sh));
        let new = self.b.ins().bor(keep, v);
        let new = self.b.ins().bswap(new);
        self.b.ins().store(mem(), new, a, 0);
    }

    fn store(&mut self, d: &Dst, v: Value) {
        match d {
            Dst::Slot(s) => self.set_slot(*s, v),
            Dst::Field(f) => self.set_field(f, v),
        }
    }

    fn bool64(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        let c = self.b.ins().icmp(cc, a, b);
        self.b.ins().uextend(I64, c)
    }

    fn nonzero(&mut self, a: Value) -> Value {
        let c = self.b.ins().icmp_imm_u(IntCC::NotEqual, a, 0);
        self.b.ins().uextend(I64, c)
    }

    /// `to_signed(v, w)` as a 64-bit value.
    fn signed(&mut self, v: Value, w: u32) -> Value {
        if w >= 64 || w == 0 {
            v
        } else {
            let s = i64::from(64 - w);
            let x = self.b.ins().ishl_imm_u(v, s);
            self.b.ins().sshr_imm_u(x, s)
        }
    }

    /// The low `n` bytes of `v` reversed (`program::bswap`).
    fn bswap_n(&mut self, v: Value, n: u32) -> Value {
        let s = self.b.ins().bswap(v);
        let sh = 64 - 8 * n.clamp(1, 8);
        if sh == 0 {
            s
        } else {
            self.b.ins().ushr_imm_u(s, i64::from(sh))
        }
    }

    fn add(&mut self, a: Value, b: Value) -> Value {
        if self.fault & crate::switch::FAULT_ADD != 0 {
            self.b.ins().isub(a, b)
        } else {
            self.b.ins().iadd(a, b)
        }
    }

    /// `program::binop`.
    fn binop(&mut self, op: BinK, a: Value, b: Value, m: u64) -> Value {
        match op {
            BinK::Add => {
                let r = self.add(a, b);
                self.b.ins().band_imm_u(r, m as i64)
            }
            BinK::Sub => {
                let r = self.b.ins().isub(a, b);
                self.b.ins().band_imm_u(r, m as i64)
            }
            BinK::Mul => {
                let r = self.b.ins().imul(a, b);
                self.b.ins().band_imm_u(r, m as i64)
            }
            BinK::Div | BinK::Mod => {
                let z = self.b.ins().icmp_imm_u(IntCC::Equal, b, 0);
                let one = self.k(1);
                let d = self.b.ins().select(z, one, b);
                let q = if op == BinK::Div {
                    self.b.ins().udiv(a, d)
                } else {
                    self.b.ins().urem(a, d)
                };
                let zero = self.k(0);
                let r = self.b.ins().select(z, zero, q);
                self.b.ins().band_imm_u(r, m as i64)
            }
            BinK::AddSat => {
                let s = self.b.ins().iadd(a, b);
                let ov = self.b.ins().icmp(IntCC::UnsignedLessThan, s, a);
                let max = self.k(u64::MAX);
                let s = self.b.ins().select(ov, max, s);
                let mk = self.k(m);
                self.b.ins().umin(s, mk)
            }
            BinK::SubSat => {
                let d = self.b.ins().isub(a, b);
                let lt = self.b.ins().icmp(IntCC::UnsignedLessThan, a, b);
                let zero = self.k(0);
                self.b.ins().select(lt, zero, d)
            }
            BinK::And => self.b.ins().band(a, b),
            BinK::Or => self.b.ins().bor(a, b),
            BinK::Xor => self.b.ins().bxor(a, b),
            BinK::Shl | BinK::Shr => {
                let big = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, b, 64);
                let s = if op == BinK::Shl {
                    let s = self.b.ins().ishl(a, b);
                    self.b.ins().band_imm_u(s, m as i64)
                } else {
                    self.b.ins().ushr(a, b)
                };
                let zero = self.k(0);
                self.b.ins().select(big, zero, s)
            }
            BinK::Sar(w) => {
                let s = self.signed(a, w);
                let k63 = self.k(63);
                let n = self.b.ins().umin(b, k63);
                let r = self.b.ins().sshr(s, n);
                self.b.ins().band_imm_u(r, m as i64)
            }
            BinK::Eq => self.bool64(IntCC::Equal, a, b),
            BinK::Ne => self.bool64(IntCC::NotEqual, a, b),
            BinK::Lt => self.bool64(IntCC::UnsignedLessThan, a, b),
            BinK::Le => self.bool64(IntCC::UnsignedLessThanOrEqual, a, b),
            BinK::Gt => self.bool64(IntCC::UnsignedGreaterThan, a, b),
            BinK::Ge => self.bool64(IntCC::UnsignedGreaterThanOrEqual, a, b),
            BinK::SLt(w) | BinK::SLe(w) | BinK::SGt(w) | BinK::SGe(w) => {
                let cc = match op {
                    BinK::SLt(_) => IntCC::SignedLessThan,
                    BinK::SLe(_) => IntCC::SignedLessThanOrEqual,
                    BinK::SGt(_) => IntCC::SignedGreaterThan,
                    _ => IntCC::SignedGreaterThanOrEqual,
                };
                let x = self.signed(a, w);
                let y = self.signed(b, w);
                self.bool64(cc, x, y)
            }
            BinK::LAnd | BinK::LOr => {
                let x = self.nonzero(a);
                let y = self.nonzero(b);
                if op == BinK::LAnd {
                    self.b.ins().band(x, y)
                } else {
                    self.b.ins().bor(x, y)
                }
            }
        }
    }

    /// `Ex::eval` (expressions are pure, so both sides of `&&`, `||` and `?:` are computed).
    fn ex(&mut self, e: &Ex) -> Value {
        match e {
            Ex::Const(v) => self.k(*v),
            Ex::Slot(s) => self.slot(*s),
            Ex::Field(f) => self.field(f),
            Ex::SlotConst(op, s, c, m) => {
                let a = self.slot(*s);
                let c = self.k(*c);
                self.binop(*op, a, c, *m)
            }
            Ex::FieldConst(op, f, c, m) => {
                let a = self.field(f);
                let c = self.k(*c);
                self.binop(*op, a, c, *m)
            }
            Ex::SlotSlot(op, a, b, m) => {
                let a = self.slot(*a);
                let b = self.slot(*b);
                self.binop(*op, a, b, *m)
            }
            Ex::Bin(op, a, b, m) => {
                let a = self.ex(a);
                let b = self.ex(b);
                self.binop(*op, a, b, *m)
            }
            Ex::Not(a) => {
                let a = self.ex(a);
                self.bool64_zero(a)
            }
            Ex::BitNot(a, m) => {
                let a = self.ex(a);
                let n = self.b.ins().bnot(a);
                self.b.ins().band_imm_u(n, *m as i64)
            }
            Ex::Slice(a, lo, m) => {
                let a = self.ex(a);
                self.slice(a, *lo, *m)
            }
            Ex::SlotSlice(s, lo, m) => {
                let a = self.slot(*s);
                self.slice(a, *lo, *m)
            }
            Ex::Concat(a, b, bw) => {
                let a = self.ex(a);
                let b = self.ex(b);
                self.concat(a, b, *bw)
            }
            Ex::SExt(a, from, m) => {
                let a = self.ex(a);
                let s = self.signed(a, *from);
                self.b.ins().band_imm_u(s, *m as i64)
            }
            Ex::Mask(a, m) => {
                let a = self.ex(a);
                self.b.ins().band_imm_u(a, *m as i64)
            }
            Ex::Cond(c, a, b) => {
                let c = self.ex(c);
                let a = self.ex(a);
                let b = self.ex(b);
                self.b.ins().select(c, a, b)
            }
            Ex::SlotBswap(s, n) => {
                let a = self.slot(*s);
                self.bswap_n(a, *n)
            }
            Ex::Bswap(a, n) => {
                let a = self.ex(a);
                self.bswap_n(a, *n)
            }
            Ex::Bool(a) => {
                let a = self.ex(a);
                self.nonzero(a)
            }
        }
    }

    fn bool64_zero(&mut self, a: Value) -> Value {
        let c = self.b.ins().icmp_imm_u(IntCC::Equal, a, 0);
        self.b.ins().uextend(I64, c)
    }

    fn slice(&mut self, a: Value, lo: u32, m: u64) -> Value {
        let s = self.b.ins().ushr_imm_u(a, i64::from(lo & 63));
        self.b.ins().band_imm_u(s, m as i64)
    }

    fn concat(&mut self, a: Value, b: Value, bw: u32) -> Value {
        let s = self.b.ins().ishl_imm_u(a, i64::from(bw & 63));
        self.b.ins().bor(s, b)
    }

    /// `(x >> sh) & mk`
    fn shift_mask(&mut self, x: Slot, sh: u32, mk: u64) -> Value {
        let v = self.slot(x);
        self.slice(v, sh, mk)
    }

    /// A run-time call `f(rt, arg)`.
    fn rt_call(&mut self, f: extern "C" fn(*mut super::Rt, u32) -> u32, arg: Value) -> Value {
        let callee = self.b.ins().iconst(I64, f as usize as i64);
        let call = self
            .b
            .ins()
            .call_indirect(self.call_sig, callee, &[self.rt, arg]);
        self.b.inst_results(call)[0]
    }

    /// Calls action `a` (its function, or the interpreter) and leaves the block on `exit`.
    fn call_action(&mut self, a: Value, known: Option<u32>) {
        let r = match known.and_then(|k| self.actions.get(&k).copied()) {
            Some(f) => {
                let call = self.b.ins().call(f, &[self.rt]);
                self.b.inst_results(call)[0]
            }
            None => self.rt_call(raw::rt_action, a),
        };
        let cont = self.b.create_block();
        self.b.ins().brif(r, self.exit, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// Register cell `i` of the register at `base` with `size` cells: its value (0 out of
    /// range), or with `write`, stores it there (nothing out of range). Cells are aligned
    /// 64-bit words (`AtomicU64`; `raw` invariant 1).
    fn reg_cell(&mut self, i: Value, base: u64, size: u64, write: Option<Value>) -> Value {
        let zero = self.k(0);
        if size == 0 {
            return zero;
        }
        let inb = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, i, size as i64);
        let j = self.b.ins().select(inb, i, zero);
        let off = self.b.ins().ishl_imm_u(j, 3);
        let b = self.k(base);
        let addr = self.b.ins().iadd(b, off);
        let flags = MemFlagsData::trusted();
        match write {
            None => {
                let v = self.b.ins().load(I64, flags, addr, 0);
                self.b.ins().select(inb, v, zero)
            }
            Some(v) => {
                let (st, cont) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(inb, st, &[], cont, &[]);
                self.b.switch_to_block(st);
                self.b.ins().store(flags, v, addr, 0);
                self.b.ins().jump(cont, &[]);
                self.b.switch_to_block(cont);
                zero
            }
        }
    }

    /// Counts one parser transition; past the limit, goes to the parser's end.
    fn transition(&mut self) {
        let n = self.b.use_var(self.trans);
        let n = self.b.ins().iadd_imm_u(n, 1);
        self.b.def_var(self.trans, n);
        let over = self.b.ins().icmp_imm_u(IntCC::UnsignedGreaterThan, n, 1024);
        let end = self.target(self.prog.code.parser_end as usize);
        let cont = self.b.create_block();
        self.b.ins().brif(over, end, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// Parser select: the first matching case's target, or `NoMatch` and the parser's end.
    fn select(&mut self, conds: Vec<Value>, targets: Vec<usize>) {
        for (c, t) in conds.into_iter().zip(targets) {
            let hit = self.target(t);
            let next = self.b.create_block();
            self.b.ins().brif(c, hit, &[], next, &[]);
            self.b.switch_to_block(next);
        }
        let e = self.k(ERR_NO_MATCH);
        self.set_slot(self.prog.std.parser_error, e);
        self.goto(self.prog.code.parser_end as usize);
    }

    fn keyset(&mut self, v: Value, k: &KeySet, mask_value: bool) -> Value {
        match *k {
            KeySet::Mask(x, m) => {
                let a = self.b.ins().band_imm_u(v, m as i64);
                let x = if mask_value { x & m } else { x };
                let c = self.b.ins().icmp_imm_u(IntCC::Equal, a, x as i64);
                self.b.ins().uextend(I64, c)
            }
            KeySet::Range(lo, hi) => {
                let a = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, v, lo as i64);
                let b = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, v, hi as i64);
                let c = self.b.ins().band(a, b);
                self.b.ins().uextend(I64, c)
            }
        }
    }

    /// A table apply: key values into `Rt::keys`, the table's compiled lookup or the
    /// classifier, hit and action run, then a direct call of the chosen action.
    fn apply(
        &mut self,
        table: u32,
        hit: Option<Slot>,
        action_run: Option<Slot>,
    ) -> Result<(), String> {
        let prog = self.prog;
        let def = prog
            .tables
            .get(table as usize)
            .ok_or_else(|| format!("no table {table}"))?;
        for (i, k) in def.keys.iter().take(crate::table::MAX_KEYS).enumerate() {
            let v = self.ex(&k.ex);
            self.b
                .ins()
                .store(mem(), v, self.rt, RT_KEYS + 8 * i as i32);
        }
        // the table's compiled lookup, if the snapshot has one; else the classifier
        let lk = self.b.ins().load(I64, mem(), self.rt, RT_LOOKUPS);
        let f = self.b.ins().load(I64, mem(), lk, 8 * table as i32);
        let (direct, general, joined) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let r = self.b.append_block_param(joined, I32);
        self.b.ins().brif(f, direct, &[], general, &[]);
        self.b.switch_to_block(direct);
        let call = self.b.ins().call_indirect(self.fn_sig, f, &[self.rt]);
        let rd = self.b.inst_results(call)[0];
        self.b.ins().jump(joined, &[rd.into()]);
        self.b.switch_to_block(general);
        let t = self.b.ins().iconst(I32, i64::from(table));
        // an LPM table whose hits change nothing in its entries reads packed leaf records
        let lpm = matches!(&def.keys[..], [k] if k.kind == MatchKind::Lpm)
            && def.direct_counter.is_none()
            && !def.ageing;
        let rg = self.rt_call(
            if lpm {
                raw::rt_apply_lpm
            } else {
                raw::rt_apply
            },
            t,
        );
        self.b.ins().jump(joined, &[rg.into()]);
        self.b.switch_to_block(joined);
        let a = self.b.ins().band_imm_u(r, 0x7fff_ffff);
        if let Some(h) = hit {
            let r64 = self.b.ins().uextend(I64, r);
            let f = self.b.ins().ushr_imm_u(r64, 31);
            self.set_slot(h, f);
        }
        if let Some(ar) = action_run {
            let a64 = self.b.ins().uextend(I64, a);
            self.set_slot(ar, a64);
        }
        let done = self.b.create_block();
        for cand in table_actions(prog, table) {
            let (call, other) = (self.b.create_block(), self.b.create_block());
            let c = self.b.ins().icmp_imm_u(IntCC::Equal, a, i64::from(cand));
            self.b.ins().brif(c, call, &[], other, &[]);
            self.b.switch_to_block(call);
            self.call_action(a, Some(cand));
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(other);
        }
        self.call_action(a, None);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(())
    }

    /// Header extraction: bounds check against the packet, base and validity, cursor, the
    /// extracted list; `PacketTooShort` and the parser's end when it does not fit.
    fn extract(&mut self, h: u32, next: usize) -> Result<(), String> {
        let prog = self.prog;
        let hl = prog
            .headers
            .get(h as usize)
            .ok_or_else(|| format!("no header {h}"))?;
        let (end, nb) = (
            self.target(prog.code.parser_end as usize),
            self.target(next),
        );
        let cur = self.b.ins().load(I64, mem(), self.rt, RT_CURSOR);
        let len = self.b.ins().load(I64, mem(), self.rt, RT_PKT_LEN);
        let to = self.b.ins().iadd_imm_u(cur, i64::from(hl.bytes));
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, to, len);
        let (ok, short) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(fits, ok, &[], short, &[]);
        self.b.switch_to_block(short);
        let e = self.k(ERR_PACKET_TOO_SHORT);
        self.set_slot(prog.std.parser_error, e);
        self.b.ins().jump(end, &[]);
        self.b.switch_to_block(ok);
        let base = self.b.ins().iadd_imm_u(cur, prog.scratch_size as i64);
        self.set_slot(hl.base, base);
        let one = self.k(1);
        self.set_slot(hl.valid, one);
        self.b.ins().store(mem(), to, self.rt, RT_CURSOR);
        // record the header (the first EXT_MAX), count every one
        let n = self.b.ins().load(I64, mem(), self.rt, RT_N_EXT);
        let n1 = self.b.ins().iadd_imm_u(n, 1);
        self.b.ins().store(mem(), n1, self.rt, RT_N_EXT);
        let room = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, n, EXT_MAX as i64);
        let (rec, done) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(room, rec, &[], done, &[]);
        self.b.switch_to_block(rec);
        let off = self.b.ins().ishl_imm_u(n, 2);
        let addr = self.b.ins().iadd(self.rt, off);
        let hv = self.b.ins().iconst(I32, i64::from(h));
        self.b.ins().store(mem(), hv, addr, RT_EXT);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        self.b.ins().jump(nb, &[]);
        Ok(())
    }

    /// Translates an assignment or register op (no control flow, no run-time state);
    /// false if `op` is not one.
    fn alu(&mut self, op: &Op) -> bool {
        match op {
            Op::Set(d, e) => {
                let v = self.ex(e);
                self.store(d, v);
            }
            Op::SetSlot(d, e) => {
                let v = self.ex(e);
                self.set_slot(*d, v);
            }
            Op::SetSlotSlot(a, b) => {
                let v = self.slot(*b);
                self.set_slot(*a, v);
            }
            Op::SetSlotConst(a, c) => {
                let v = self.k(*c);
                self.set_slot(*a, v);
            }
            Op::SetSlotField(a, f) => {
                let v = self.field(f);
                self.set_slot(*a, v);
            }
            Op::SetFieldSlot(f, b) => {
                let v = self.slot(*b);
                self.set_field(f, v);
            }
            Op::SetFieldConst(f, c) => {
                let v = self.k(*c);
                self.set_field(f, v);
            }
            Op::SetSlice(slot, lo, m, e) => {
                let v = self.ex(e);
                let v = self.b.ins().band_imm_u(v, *m as i64);
                let v = self.b.ins().ishl_imm_u(v, i64::from(lo & 63));
                let old = self.slot(*slot);
                let keep = self.b.ins().band_imm_u(old, !(m << (lo & 63)) as i64);
                let new = self.b.ins().bor(keep, v);
                self.set_slot(*slot, new);
            }
            _ => return self.arith(op),
        }
        true
    }

    /// Translates an arithmetic op on slots (its result into a slot); false if `op` is not
    /// one.
    fn arith(&mut self, op: &Op) -> bool {
        match op {
            Op::Add(d, a, b, m) => {
                let (a, b) = (self.slot(*a), self.slot(*b));
                let r = self.add(a, b);
                let r = self.b.ins().band_imm_u(r, *m as i64);
                self.set_slot(*d, r);
            }
            Op::AddC(d, a, c, m) => {
                let a = self.slot(*a);
                let c = self.k(*c);
                let r = self.add(a, c);
                let r = self.b.ins().band_imm_u(r, *m as i64);
                self.set_slot(*d, r);
            }
            Op::Sub(d, a, b, m) => {
                let (a, b) = (self.slot(*a), self.slot(*b));
                let r = self.b.ins().isub(a, b);
                let r = self.b.ins().band_imm_u(r, *m as i64);
                self.set_slot(*d, r);
            }
            Op::And(d, a, b) | Op::Or(d, a, b) | Op::Xor(d, a, b) => {
                let (x, y) = (self.slot(*a), self.slot(*b));
                let r = match op {
                    Op::And(..) => self.b.ins().band(x, y),
                    Op::Or(..) => self.b.ins().bor(x, y),
                    _ => self.b.ins().bxor(x, y),
                };
                self.set_slot(*d, r);
            }
            Op::AndC(d, a, c) | Op::OrC(d, a, c) | Op::XorC(d, a, c) => {
                let x = self.slot(*a);
                let r = match op {
                    Op::AndC(..) => self.b.ins().band_imm_u(x, *c as i64),
                    Op::OrC(..) => self.b.ins().bor_imm_u(x, *c as i64),
                    _ => self.b.ins().bxor_imm_u(x, *c as i64),
                };
                self.set_slot(*d, r);
            }
            Op::ShrC(d, a, c) => {
                let x = self.slot(*a);
                let r = self.b.ins().ushr_imm_u(x, i64::from(c & 63));
                self.set_slot(*d, r);
            }
            Op::ShlC(d, a, c, m) => {
                let x = self.slot(*a);
                let r = self.b.ins().ishl_imm_u(x, i64::from(c & 63));
                let r = self.b.ins().band_imm_u(r, *m as i64);
                self.set_slot(*d, r);
            }
            Op::EqC(d, a, c) | Op::NeC(d, a, c) => {
                let x = self.slot(*a);
                let cc = if matches!(op, Op::EqC(..)) {
                    IntCC::Equal
                } else {
                    IntCC::NotEqual
                };
                let r = self.b.ins().icmp_imm_u(cc, x, *c as i64);
                let r = self.b.ins().uextend(I64, r);
                self.set_slot(*d, r);
            }
            Op::Bin(k, d, a, b, m) => {
                let (x, y) = (self.slot(*a), self.slot(*b));
                let r = self.binop(*k, x, y, *m);
                self.set_slot(*d, r);
            }
            Op::BinC(k, d, a, c, m) => {
                let x = self.slot(*a);
                let y = self.k(*c);
                let r = self.binop(*k, x, y, *m);
                self.set_slot(*d, r);
            }
            Op::SliceR(d, a, lo, m) => {
                let r = self.shift_mask(*a, *lo, *m);
                self.set_slot(*d, r);
            }
            Op::ConcatR(d, a, b, bw) => {
                let (x, y) = (self.slot(*a), self.slot(*b));
                let r = self.concat(x, y, *bw);
                self.set_slot(*d, r);
            }
            Op::SExtR(d, a, from, m) => {
                let x = self.slot(*a);
                let s = self.signed(x, *from);
                let r = self.b.ins().band_imm_u(s, *m as i64);
                self.set_slot(*d, r);
            }
            Op::BitNotR(d, a, m) => {
                let x = self.slot(*a);
                let n = self.b.ins().bnot(x);
                let r = self.b.ins().band_imm_u(n, *m as i64);
                self.set_slot(*d, r);
            }
            Op::BswapR(d, a, n) => {
                let x = self.slot(*a);
                let r = self.bswap_n(x, *n);
                self.set_slot(*d, r);
            }
            Op::AddSM(d, a, x, sh, mk, m) => {
                let v = self.shift_mask(*x, *sh, *mk);
                let a = self.slot(*a);
                let r = self.add(a, v);
                let r = self.b.ins().band_imm_u(r, *m as i64);
                self.set_slot(*d, r);
            }
            Op::AddSM2(d, x, s1, k1, y, s2, k2, m) => {
                let a = self.shift_mask(*x, *s1, *k1);
                let b = self.shift_mask(*y, *s2, *k2);
                let r = self.add(a, b);
                let r = self.b.ins().band_imm_u(r, *m as i64);
                self.set_slot(*d, r);
            }
            Op::XorSMC(d, x, sh, mk, c) => {
                let v = self.shift_mask(*x, *sh, *mk);
                let r = self.b.ins().bxor_imm_u(v, *c as i64);
                self.set_slot(*d, r);
            }
            Op::LoadBswap(d, f, n) => {
                let v = self.field(f);
                let r = self.bswap_n(v, *n);
                self.set_slot(*d, r);
            }
            Op::StoreBswap(f, a, n) => {
                let v = self.slot(*a);
                let r = self.bswap_n(v, *n);
                self.set_field(f, r);
            }
            Op::CondR(d, c, a, b) => {
                let (c, x, y) = (self.slot(*c), self.slot(*a), self.slot(*b));
                let r = self.b.ins().select(c, x, y);
                self.set_slot(*d, r);
            }
            _ => return false,
        }
        true
    }

    /// Translates the op at `pc` and ends its block.
    fn op(&mut self, pc: usize) -> Result<(), String> {
        let prog = self.prog;
        let Some(op) = prog.code.ops.get(pc) else {
            return Err(format!("no operation at {pc}"));
        };
        let next = pc + 1;
        if let Some(r) = self.control(op, next) {
            return r;
        }
        match op {
            Op::Apply {
                table,
                hit,
                action_run,
            } => self.apply(*table, *hit, *action_run)?,
            Op::CallAction { action, args } => {
                let adef = prog
                    .actions
                    .get(*action as usize)
                    .ok_or_else(|| format!("no action {action}"))?;
                for (&(slot, m), e) in adef.param_masks.iter().zip(args) {
                    let v = self.ex(e);
                    let v = self.b.ins().band_imm_u(v, m as i64);
                    self.set_slot(slot, v);
                }
                let a = self.b.ins().iconst(I32, i64::from(*action));
                self.call_action(a, Some(*action));
            }
            Op::CopyOut(pairs) => {
                for (d, s) in pairs {
                    let v = self.slot(*s);
                    self.store(d, v);
                }
            }
            Op::MarkToDrop => {
                let std = &prog.std;
                let d = self.k(DROP_PORT);
                self.set_slot(std.egress_spec, d);
                let z = self.k(0);
                self.set_slot(std.mcast_grp, z);
            }
            Op::RegRead { reg, dst, idx } if self.regs.get(*reg as usize).is_some() => {
                let (base, size) = self.regs[*reg as usize];
                let i = self.ex(idx);
                let v = self.reg_cell(i, base, size, None);
                self.store(dst, v);
            }
            Op::RegWrite { reg, idx, val, m } if self.regs.get(*reg as usize).is_some() => {
                let (base, size) = self.regs[*reg as usize];
                let i = self.ex(idx);
                let v = self.ex(val);
                let v = self.b.ins().band_imm_u(v, *m as i64);
                self.reg_cell(i, base, size, Some(v));
            }
            Op::Checksum(st) if self.checksum(st, pc) => {}
            Op::Copy(_)
            | Op::RegRead { .. }
            | Op::RegWrite { .. }
            | Op::Count { .. }
            | Op::Meter { .. }
            | Op::Hash(_)
            | Op::Checksum(_)
            | Op::Emit(_) => {
                let p = self.b.ins().iconst(I32, pc as i64);
                self.rt_call(raw::rt_op, p);
            }
            _ => {
                if !self.alu(op) {
                    return Err(format!("no code generation rule for {}", op.show()));
                }
            }
        }
        self.goto(next);
        Ok(())
    }
    /// Translates an op that ends its block itself (jumps, returns, the parser's
    /// extractions and transitions); `None` if `op` is not one.
    fn control(&mut self, op: &Op, next: usize) -> Option<Result<(), String>> {
        match op {
            Op::Jz(a, t) | Op::Jnz(a, t) => {
                let v = self.slot(*a);
                let (tb, nb) = (self.target(*t as usize), self.target(next));
                if matches!(op, Op::Jz(..)) {
                    self.b.ins().brif(v, nb, &[], tb, &[]);
                } else {
                    self.b.ins().brif(v, tb, &[], nb, &[]);
                }
            }
            Op::JEqC(a, c, t) | Op::JNeC(a, c, t) => {
                let v = self.slot(*a);
                let cc = if matches!(op, Op::JEqC(..)) {
                    IntCC::Equal
                } else {
                    IntCC::NotEqual
                };
                let cond = self.b.ins().icmp_imm_u(cc, v, *c as i64);
                let (tb, nb) = (self.target(*t as usize), self.target(next));
                self.b.ins().brif(cond, tb, &[], nb, &[]);
            }
            Op::JumpIfZero(c, t) => {
                let v = self.ex(c);
                let (tb, nb) = (self.target(*t as usize), self.target(next));
                self.b.ins().brif(v, nb, &[], tb, &[]);
            }
            Op::Jump(t) => {
                self.goto(*t as usize);
            }
            Op::SwitchJump(slot, arms, default) => {
                let v = self.slot(*slot);
                for (k, t) in arms.iter() {
                    let c = self.b.ins().icmp_imm_u(IntCC::Equal, v, *k as i64);
                    let (tb, nb) = (self.target(*t as usize), self.b.create_block());
                    self.b.ins().brif(c, tb, &[], nb, &[]);
                    self.b.switch_to_block(nb);
                }
                self.goto(*default as usize);
            }
            Op::Ret => {
                self.b.ins().jump(self.ret0, &[]);
            }
            Op::End => {
                self.b.ins().jump(self.exit, &[]);
            }
            Op::Extract(h) => {
                return Some(self.extract(*h, next));
            }
            Op::Goto(t) => {
                self.transition();
                self.goto(*t as usize);
            }
            Op::Select1 { key, cases } => {
                self.transition();
                let v = self.ex(key);
                let conds = cases
                    .iter()
                    .map(|(k, _)| self.keyset(v, k, false))
                    .collect();
                self.select(conds, cases.iter().map(|c| c.1 as usize).collect());
            }
            Op::Select { keys, cases } => {
                self.transition();
                let vals: Vec<Value> = keys
                    .iter()
                    .take(crate::table::MAX_KEYS)
                    .map(|k| self.ex(k))
                    .collect();
                let mut conds = Vec::new();
                for (ks, _) in cases.iter() {
                    let mut c = self.k(1);
                    for (k, &v) in ks.iter().zip(&vals) {
                        let m = self.keyset(v, k, true);
                        c = self.b.ins().band(c, m);
                    }
                    conds.push(c);
                }
                self.select(conds, cases.iter().map(|c| c.1 as usize).collect());
            }
            _ => return None,
        }
        Some(Ok(()))
    }
}
