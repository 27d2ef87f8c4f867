//! LLVM IR (analysis build of an NF) → NF IR.
//!
//! The analysis build (`-DTANDEM_ANALYSIS`, see `nfapi/include/tandem/nf.hh`) leaves every NF
//! API operation as a call to an undefined `tandem_api_*` function and inlines the rest of
//! `process()` into `tandem_nf_process_entry(self, pkt)`. Lifting that function:
//!
//! 1. **Members.** `tandem_nf_describe(self, ptrs)` stores the address of each state member
//!    listed in `TANDEM_NF`; `tandem_nf_state_names` names them. This gives offset → name.
//! 2. **Scan** (pass 1): trace every pointer to what it points into — a header, an element
//!    member, a local (`alloca`), a map value returned by `find`, or the payload — and record
//!    the byte ranges each access touches. From these come the state objects (kind, capacity,
//!    key/value layouts split at the boundaries the code uses) and the *slots* of each local.
//! 3. **Translate** (pass 2, blocks in reverse post-order): integer instructions map one to
//!    one; loads and stores of headers become `hdr.read`/`hdr.write` of the fields they cover;
//!    locals become SSA values (one variable per slot, joined by block parameters at merge
//!    points, like LLVM's mem2reg); API calls become state and packet operations.
//!
//! **Byte order.** Header structs hold wire bytes and this host is little-endian, so an LLVM
//! `load i32` of `ip->daddr` is `bswap(hdr.read ipv4.daddr)`; C++ `ntohl` adds another bswap
//! and the two cancel (the builder folds `bswap(bswap(x))` to `x`). In general a load of `n`
//! bytes at offset `o` is the little-endian number formed by those bytes, assembled from the
//! fields that overlap `[o, o+n)`; a store splits the same way (read-modify-write when it
//! covers only part of a field). Map keys and values are host structs: a layout field at C++
//! offset `o` of `w` bytes holds the little-endian number of those bytes.
//!
//! **Intrinsics** the NF IR has no instruction for are expanded into its integer operations
//! with LLVM's results: saturating `{u,s}{add,sub}.sat` (wrap, compare, select the bound),
//! `ctpop` (`popcount`: the few bits that can be set summed, else SWAR in 32 or 64 bits), `cttz`/`ctlz` (population counts of the trailing-zero mask and
//! of the right-smeared value; the width for 0), `{u,s}{min,max}` and `abs` (compare and
//! select), funnel shifts and rotates `fshl`/`fshr` by any amount (the IR's shifts by the
//! width give 0, which makes an amount of 0 come out right).
//!
//! Files: `members` (step 1 and the state declarations), `scan` (step 2), this module and
//! `flow` (step 3: instructions; block order, phis and terminators), `access` (loads, stores,
//! IR building), `header_bytes` (options past a built-in header's fixed fields), `select`
//! (pointer selects), `api` (NF API calls, intrinsics), `popcount`, `const_table` (loads
//! from constant arrays at run-time indices), `lpm`
//! (`LpmMap` calls), `helpers` (free functions over LLVM IR).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use llvm_ir::instruction as li;
use llvm_ir::terminator as lt;
use llvm_ir::types::Types;
use llvm_ir::{
    Constant, Function as LFunction, Instruction, IntPredicate, Module as LModule, Name, Operand,
    Terminator, Type as LType, TypeRef,
};
use tandem_ir::{
    BinOp, Block, BlockCall, CastOp, Effect, FuncId, Header, HeaderField, InstKind, IntCC, Layout,
    Meta, Module, SourceLoc, StateId, StateKind, Type, Value, ValueDef,
};

use crate::diag::{Code, Diagnostic, SrcLoc};

mod access;
mod api;
mod const_table;
mod flow;
mod header_bytes;
mod headers;
mod helpers;
mod lpm;
mod members;
mod meter;
mod narrow;
mod popcount;
mod scan;
mod select;
mod ternary;
use crate::layout;
use crate::srcmap::{SrcMap, UserLoc};
use helpers::*;
pub(crate) use helpers::{nf_type_name, rpo};

pub(crate) const ENTRY: &str = "tandem_nf_process_entry";
/// The timer's entry in the analysis build: `tandem_nf_timer_entry(self, now)`.
pub(crate) const TIMER_ENTRY: &str = "tandem_nf_timer_entry";
const TIMER_INTERVAL: &str = "tandem_nf_timer_interval_ns";
const DESCRIBE: &str = "tandem_nf_describe";
const STATE_NAMES: &str = "tandem_nf_state_names";
const TYPE_NAME: &str = "tandem_nf_type_name";

/// Opaque operations the lifter emits for payload access (defined beside their interpreter
/// implementation, [`tandem_ir::payload::PayloadOps`]).
pub use tandem_ir::payload::opaque_names;

/// What an LLVM pointer points into.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Prov {
    Element(i64),
    Alloca(usize, i64),
    Found(usize, i64),
    Header(Header, i64),
    /// A built-in header's start plus a run-time offset (TCP or IPv4 options).
    HeaderBytes(Header),
    Payload,
    Packet,
    Null,
    /// A constant global (string literal, table) at an offset.
    Const(Name, i64),
    /// One of several places, chosen at run time (pointer phi or select).
    OneOf(Vec<Prov>),
    Unknown(String),
}

/// A lowered LLVM value.
#[derive(Clone, Debug)]
enum Lowered {
    Int(Value),
    Ptr(Ptr),
}

#[derive(Clone, Debug)]
enum Ptr {
    Element(i64),
    Alloca(usize, i64),
    /// Into the value returned by the `find` with this index.
    Found(usize, i64),
    Header(Header, i64),
    /// A built-in header's first byte + `off` (an i64 value): bytes past its fixed fields
    /// (options) reached at a run-time offset, read and written by the server through
    /// `tandem.header_load.H` / `tandem.header_store.H` (see `header_bytes`).
    HeaderBytes(Header, Value),
    /// Payload start + `off` (an i64 value).
    Payload(Value),
    Packet,
    Null,
    /// Bytes of a constant global at a run-time offset (an i64 value).
    Const(std::rc::Rc<Vec<u8>>, Value),
    /// `alts[sel]`: one of several places chosen at run time (`sel` is an i8 value).
    OneOf(Value, Vec<Ptr>),
}

#[derive(Clone, Debug)]
struct Member {
    name: String,
    offset: i64,
    size: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MapFlavor {
    Plain,
    Expiring(u64),
    /// `tandem::LpmMap` (see `lpm`), with the number of 64-bit words its prefix spans (2
    /// for an `LpmAddr128`, else 1).
    Lpm(u32),
    /// `tandem::TernaryMap` and `tandem::RangeMap` (see `ternary`).
    Ternary,
    Range,
}

#[derive(Clone, Debug, Default)]
struct MemberUse {
    map: Option<(MapFlavor, u64, u64, u64)>, // flavor, key size, value size, capacity
    vec: Option<(u64, u64)>,                 // elem size, capacity
    scalar_width: Option<u64>,
    key_bounds: BTreeSet<u64>,
    val_bounds: BTreeSet<u64>,
    vec_size_used: bool,
    /// `process()` or `on_timer` calls the vector's `set` (configure() is not lifted).
    vec_written: bool,
    meter: Option<(u64, tandem_ir::MeterUnit)>, // len, unit
    conflict: Option<String>,
    conflict_loc: Option<SrcLoc>,
}

struct AllocaInfo {
    size: u64,
    bounds: BTreeSet<u64>,
    /// (offset, width) of each slot, in order.
    slots: Vec<(u64, u64)>,
}

#[derive(Clone)]
struct FindRes {
    hit: Value,
    /// (byte offset, width in bytes, value) of each value field.
    fields: Vec<(u64, u64, Value)>,
}

/// The scalars that hold each vector's current size.
struct VecState {
    vec: StateId,
    size: StateId,
}

pub(crate) struct Lifter<'a> {
    lm: &'a LModule,
    types: &'a Types,
    f: &'a LFunction,
    /// The function being lifted: `process` from `tandem_nf_process_entry(self, pkt)`, or the
    /// timer's `on_timer` from `tandem_nf_timer_entry(self, now)`.
    building: FuncId,
    pub(crate) module: Module,
    pub(crate) diags: Vec<Diagnostic>,
    members: Vec<Member>,
    uses: Vec<MemberUse>,
    provs: HashMap<Name, Prov>,
    alloca_index: HashMap<Name, usize>,
    allocas: Vec<AllocaInfo>,
    find_index: HashMap<Name, usize>,
    find_member: Vec<usize>,
    used_names: HashSet<Name>,
    /// Values called as functions (function pointers): the call reports them (L003), not
    /// the load that produced them.
    call_targets: HashSet<Name>,
    // pass 2
    map_states: HashMap<usize, StateId>,
    vec_states: HashMap<usize, VecState>,
    meter_states: HashMap<usize, StateId>,
    /// i64 phis given 32-bit parameters (`narrow`).
    narrow_phis: HashSet<Name>,
    /// Blocks whose terminator jumps back to a block at or before them (a loop's latch).
    loop_latches: HashSet<Name>,
    /// 32-bit versions of vector indices made in a block (`narrow32`), so a get and a set of
    /// the same index use one value (the partitioner fuses them into one register access).
    narrowed: HashMap<(Value, Block), Value>,
    scalar_states: HashMap<usize, StateId>,
    vals: HashMap<Name, Lowered>,
    finds: Vec<Option<FindRes>>,
    blocks: HashMap<Name, Block>,
    /// Per LLVM block with parameters: the phis (name, param) then one param per slot.
    phi_params: HashMap<Name, Vec<(Name, Value)>>,
    /// Per pointer phi choosing among places that include `find` results: for each such
    /// find (its scan index), block parameters carrying its hit and value fields to the join
    /// (after the block's phis, before its slots), since the find need not dominate it.
    found_params: HashMap<Name, Vec<(usize, Vec<Value>)>>,
    /// The find a find result that arrived through such parameters stands for.
    find_origin: HashMap<usize, usize>,
    slot_params: HashMap<Name, Vec<Vec<Value>>>,
    preds: HashMap<Name, Vec<Name>>,
    end_slots: HashMap<Name, Vec<Vec<Value>>>,
    cur: Block,
    slots: Vec<Vec<Value>>,
    loc: Option<SourceLoc>,
    srcloc: Option<SrcLoc>,
    files: HashMap<String, tandem_ir::FileId>,
    /// Positions in the user's source and member names from the debug metadata.
    srcmap: SrcMap,
    /// Where diagnostics of the current instruction point: the user's line that led to it.
    user: UserLoc,
    /// Block index (in the LLVM function) and instruction index of the current instruction.
    at: (usize, usize),
}

fn name_str(n: &Name) -> String {
    match n {
        Name::Name(s) => s.to_string(),
        Name::Number(k) => k.to_string(),
    }
}

/// Strips the cache directory from paths of the NF API headers (`.../tandem/net.hh` →
/// `tandem/net.hh`) so locations do not depend on where the headers were materialised.
pub(crate) fn display_path(filename: &str, directory: Option<&str>) -> String {
    if let Some(i) = filename.rfind("/tandem/") {
        if filename[i..].ends_with(".hh") {
            return filename[i + 1..].to_string();
        }
    }
    let _ = directory;
    filename.to_string()
}

fn ty_of_bytes(bytes: u64) -> Type {
    Type::int((bytes * 8) as u32).unwrap_or(Type::I64)
}

impl<'a> Lifter<'a> {
    pub(crate) fn new(lm: &'a LModule, f: &'a LFunction, nf_name: String, srcmap: SrcMap) -> Self {
        Lifter {
            lm,
            types: &lm.types,
            f,
            building: FuncId::Process,
            module: Module::new(nf_name),
            diags: Vec::new(),
            members: Vec::new(),
            uses: Vec::new(),
            provs: HashMap::new(),
            alloca_index: HashMap::new(),
            allocas: Vec::new(),
            find_index: HashMap::new(),
            find_member: Vec::new(),
            used_names: HashSet::new(),
            call_targets: HashSet::new(),
            map_states: HashMap::new(),
            vec_states: HashMap::new(),
            meter_states: HashMap::new(),
            narrow_phis: HashSet::new(),
            loop_latches: HashSet::new(),
            narrowed: HashMap::new(),
            scalar_states: HashMap::new(),
            vals: HashMap::new(),
            finds: Vec::new(),
            blocks: HashMap::new(),
            phi_params: HashMap::new(),
            found_params: HashMap::new(),
            find_origin: HashMap::new(),
            slot_params: HashMap::new(),
            preds: HashMap::new(),
            end_slots: HashMap::new(),
            cur: Block::from_u32(0),
            slots: Vec::new(),
            loc: None,
            srcloc: None,
            files: HashMap::new(),
            srcmap,
            user: UserLoc::default(),
            at: (0, 0),
        }
    }

    /// Switches to lifting another entry function (`which`: what it becomes). Forgets
    /// everything learnt about the previous function's values, locals and blocks; keeps the
    /// members, their uses and the declared state. Lifting `on_timer` gives the module a
    /// timer (the interval from `tandem_nf_timer_interval_ns`).
    pub(crate) fn start_function(&mut self, f: &'a LFunction, srcmap: SrcMap, which: FuncId) {
        self.f = f;
        self.building = which;
        self.srcmap = srcmap;
        self.provs.clear();
        self.alloca_index.clear();
        self.allocas.clear();
        self.find_index.clear();
        self.find_member.clear();
        self.used_names.clear();
        self.call_targets.clear();
        self.narrowed.clear();
        self.vals.clear();
        self.finds.clear();
        self.blocks.clear();
        self.phi_params.clear();
        self.slot_params.clear();
        self.preds.clear();
        self.end_slots.clear();
        self.slots.clear();
        self.loc = None;
        self.srcloc = None;
        self.user = UserLoc::default();
        self.at = (0, 0);
        if which == FuncId::Timer && self.module.timer.is_none() {
            let interval_ns = timer_interval(self.lm).unwrap_or(0);
            self.module.timer = Some(tandem_ir::Timer {
                interval_ns,
                func: tandem_ir::Function::new("on_timer"),
            });
        }
    }

    /// The function being built.
    pub(super) fn out(&self) -> &tandem_ir::Function {
        match (self.building, &self.module.timer) {
            (FuncId::Timer, Some(t)) => &t.func,
            _ => &self.module.process,
        }
    }

    /// The function being built, mutably.
    pub(super) fn out_mut(&mut self) -> &mut tandem_ir::Function {
        match (self.building, &mut self.module.timer) {
            (FuncId::Timer, Some(t)) => &mut t.func,
            _ => &mut self.module.process,
        }
    }

    /// Reports a diagnostic at the current instruction: at the user's line that led to it,
    /// naming the library function it came from when it was inlined from one.
    fn err(&mut self, code: Code, msg: impl Into<String>) {
        let mut msg = msg.into();
        let loc = match &self.user.loc {
            Some(l) => {
                if let Some(inside) = &self.user.inside {
                    msg = format!("{msg}, inside `{inside}` called here");
                }
                Some(l.clone())
            }
            None => self.srcloc.clone(),
        };
        let d = Diagnostic::new(code, msg, loc);
        if !self.diags.contains(&d) {
            self.diags.push(d);
        }
    }

    fn set_loc(&mut self, dl: &Option<llvm_ir::DebugLoc>) {
        self.user = self
            .srcmap
            .at(self.at.0, self.at.1)
            .cloned()
            .unwrap_or_default();
        match dl {
            Some(d) => {
                let file = display_path(&d.filename, d.directory.as_deref());
                let display = file.clone();
                let col = d.col.unwrap_or(0);
                self.srcloc = Some(SrcLoc {
                    file: file.clone(),
                    line: d.line,
                    col,
                });
                let fid = self.file_id(file);
                // Code inlined from the NF API or a system header (`tandem/state.hh`) also
                // records the NF's own line that called into it: what reports show.
                let site = match self.user.loc.clone() {
                    Some(u) if (u.line, u.col) != (d.line, col) || u.file != display => {
                        Some(tandem_ir::SourcePos {
                            file: self.file_id(u.file),
                            line: u.line,
                            col: u.col,
                        })
                    }
                    _ => None,
                };
                self.loc = Some(SourceLoc {
                    file: fid,
                    line: d.line,
                    col,
                    site,
                });
            }
            None => {
                self.loc = None;
            }
        }
    }

    /// The module's id for a source file, declared on first use.
    fn file_id(&mut self, file: String) -> tandem_ir::FileId {
        match self.files.get(&file) {
            Some(f) => *f,
            None => {
                let id = self.module.add_file(file.clone());
                self.files.insert(file, id);
                id
            }
        }
    }

    fn lower(&mut self, op: &Operand) -> Lowered {
        match op {
            Operand::LocalOperand { name, ty } => match self.vals.get(name) {
                Some(v) => v.clone(),
                None => {
                    self.err(
                        Code::UntraceablePointer,
                        format!(
                            "value %{} is used before the front end could define it",
                            name_str(name)
                        ),
                    );
                    self.zero_of(ty)
                }
            },
            Operand::ConstantOperand(c) => match c.as_ref() {
                Constant::Int { bits, value } => match Type::int(*bits) {
                    Some(t) => Lowered::Int(self.iconst(t, *value)),
                    None => {
                        self.err(
                            Code::UnsupportedInstruction,
                            format!("a {bits}-bit integer"),
                        );
                        Lowered::Int(self.iconst(Type::I64, 0))
                    }
                },
                Constant::Null(_) => Lowered::Ptr(Ptr::Null),
                Constant::Undef(t) | Constant::Poison(t) => self.zero_of(t),
                Constant::AggregateZero(t) => self.zero_of(t),
                Constant::GlobalReference { name, .. }
                    if const_global_bytes(self.lm, name).is_some() =>
                {
                    let bytes = const_global_bytes(self.lm, name).unwrap_or_default();
                    let z = self.iconst(Type::I64, 0);
                    Lowered::Ptr(Ptr::Const(std::rc::Rc::new(bytes), z))
                }
                Constant::GlobalReference { name, .. } => {
                    self.err(
                        Code::GlobalVariable,
                        format!(
                            "process() uses the global `{}`",
                            demangle_hint(&name_str(name))
                        ),
                    );
                    Lowered::Ptr(Ptr::Null)
                }
                other => {
                    self.err(
                        Code::UnsupportedInstruction,
                        format!("a constant expression ({})", constant_kind(other)),
                    );
                    Lowered::Int(self.iconst(Type::I64, 0))
                }
            },
            Operand::MetadataOperand => Lowered::Int(self.iconst(Type::I1, 0)),
        }
    }

    fn zero_of(&mut self, ty: &TypeRef) -> Lowered {
        match ty.as_ref() {
            LType::IntegerType { bits } => {
                let t = Type::int(*bits).unwrap_or(Type::I64);
                Lowered::Int(self.iconst(t, 0))
            }
            LType::PointerType { .. } => Lowered::Ptr(Ptr::Null),
            _ => Lowered::Int(self.iconst(Type::I64, 0)),
        }
    }

    fn int(&mut self, op: &Operand) -> Value {
        match self.lower(op) {
            Lowered::Int(v) => v,
            Lowered::Ptr(_) => {
                self.err(Code::UntraceablePointer, "a pointer used as an integer");
                self.iconst(Type::I64, 0)
            }
        }
    }

    fn ptr(&mut self, op: &Operand) -> Ptr {
        match self.lower(op) {
            Lowered::Ptr(p) => p,
            Lowered::Int(_) => {
                self.err(Code::UntraceablePointer, "an integer used as a pointer");
                Ptr::Null
            }
        }
    }

    fn def(&mut self, name: &Name, v: Value) {
        self.vals.insert(name.clone(), Lowered::Int(v));
    }

    fn translate_inst(&mut self, inst: &'a Instruction, bb: &llvm_ir::BasicBlock) {
        self.set_loc(&inst_debugloc(inst));
        macro_rules! bin {
            ($x:expr, $op:expr) => {{
                let a = self.int(&$x.operand0);
                let b = self.int(&$x.operand1);
                let v = self.binary($op, a, b);
                self.def(&$x.dest, v);
            }};
        }
        match inst {
            Instruction::Add(x) => bin!(x, BinOp::Add),
            Instruction::Sub(x) => bin!(x, BinOp::Sub),
            Instruction::Mul(x) => bin!(x, BinOp::Mul),
            Instruction::UDiv(x) => bin!(x, BinOp::Udiv),
            Instruction::SDiv(x) => bin!(x, BinOp::Sdiv),
            Instruction::URem(x) => bin!(x, BinOp::Urem),
            Instruction::SRem(x) => bin!(x, BinOp::Srem),
            Instruction::And(x) => bin!(x, BinOp::And),
            Instruction::Or(x) => bin!(x, BinOp::Or),
            Instruction::Xor(x) => bin!(x, BinOp::Xor),
            Instruction::Shl(x) => bin!(x, BinOp::Shl),
            Instruction::LShr(x) => bin!(x, BinOp::Lshr),
            Instruction::AShr(x) => bin!(x, BinOp::Ashr),
            Instruction::Trunc(x) => self.cast(&x.operand, &x.to_type, CastOp::Trunc, &x.dest),
            Instruction::ZExt(x) => self.cast(&x.operand, &x.to_type, CastOp::Zext, &x.dest),
            Instruction::SExt(x) => self.cast(&x.operand, &x.to_type, CastOp::Sext, &x.dest),
            Instruction::Freeze(x) => {
                let v = self.lower(&x.operand);
                self.vals.insert(x.dest.clone(), v);
            }
            Instruction::ICmp(x) => self.translate_icmp(x),
            Instruction::Select(x) => self.translate_select(x),
            Instruction::Phi(p) => {
                // Phis of blocks with one predecessor (LCSSA) just forward the value; phis of
                // join blocks were bound to block parameters on entry.
                if !self.phi_params.contains_key(&bb.name) {
                    if let Some((op, _)) = p.incoming_values.first() {
                        let v = self.lower(op);
                        self.vals.insert(p.dest.clone(), v);
                    }
                }
            }
            Instruction::Alloca(a) => {
                let id = self.alloca_index[&a.dest];
                self.vals
                    .insert(a.dest.clone(), Lowered::Ptr(Ptr::Alloca(id, 0)));
            }
            Instruction::GetElementPtr(g) => self.translate_gep(g),
            Instruction::Load(l) => {
                let p = self.ptr(&l.address);
                let len = layout::store_size(self.types, &l.loaded_ty).unwrap_or(0);
                if is_ptr(&l.loaded_ty) {
                    if !self.call_targets.contains(&l.dest) {
                        let (code, msg) = self.pointer_load_reason(&p);
                        self.err(code, msg);
                    }
                    self.vals.insert(l.dest.clone(), Lowered::Ptr(Ptr::Null));
                    return;
                }
                let v = self.load_ptr(&p, 0, len);
                let ty = match l.loaded_ty.as_ref() {
                    LType::IntegerType { bits } => Type::int(*bits).unwrap_or(Type::I64),
                    _ => {
                        self.err(
                            Code::UnsupportedInstruction,
                            "a load of a non-integer value",
                        );
                        Type::I64
                    }
                };
                let v = self.resize(v, ty);
                self.def(&l.dest, v);
            }
            Instruction::Store(s) => {
                let p = self.ptr(&s.address);
                let vt = self.types.type_of(&s.value);
                if is_ptr(&vt) {
                    self.err(Code::UntraceablePointer, "a pointer stored to memory");
                    return;
                }
                let len = layout::store_size(self.types, &vt).unwrap_or(0);
                let v = self.int(&s.value);
                let v = self.resize(v, ty_of_bytes(len));
                self.store_ptr(&p, 0, len, v);
            }
            Instruction::Call(c) => self.translate_call(c),
            Instruction::PtrToInt(_) | Instruction::IntToPtr(_) => self.err(
                Code::UntraceablePointer,
                "a conversion between pointers and integers",
            ),
            Instruction::BitCast(b) => {
                let v = self.lower(&b.operand);
                self.vals.insert(b.dest.clone(), v);
            }
            other => self.err(
                Code::UnsupportedInstruction,
                describe_unsupported(&inst_opcode(other)),
            ),
        }
    }

    fn cast(&mut self, op: &Operand, to: &TypeRef, cop: CastOp, dest: &Name) {
        let a = self.int(op);
        let to = match to.as_ref() {
            LType::IntegerType { bits } => Type::int(*bits).unwrap_or(Type::I64),
            _ => {
                self.err(Code::UnsupportedInstruction, "a cast to a non-integer type");
                Type::I64
            }
        };
        let v = if self.ty(a) == to {
            a
        } else if cop == CastOp::Trunc || cop == CastOp::Zext {
            self.resize(a, to)
        } else {
            self.ins1(InstKind::Cast { op: cop, arg: a }, to)
        };
        self.def(dest, v);
    }

    fn translate_icmp(&mut self, x: &li::ICmp) {
        let cc = match x.predicate {
            IntPredicate::EQ => IntCC::Eq,
            IntPredicate::NE => IntCC::Ne,
            IntPredicate::UGT => IntCC::Ugt,
            IntPredicate::UGE => IntCC::Uge,
            IntPredicate::ULT => IntCC::Ult,
            IntPredicate::ULE => IntCC::Ule,
            IntPredicate::SGT => IntCC::Sgt,
            IntPredicate::SGE => IntCC::Sge,
            IntPredicate::SLT => IntCC::Slt,
            IntPredicate::SLE => IntCC::Sle,
        };
        let a = self.lower(&x.operand0);
        let b = self.lower(&x.operand1);
        let v = match (a, b) {
            (Lowered::Int(a), Lowered::Int(b)) => match self.narrow_compare(cc, a, b) {
                Some((cc, a, b)) => self.icmp(cc, a, b),
                None => self.icmp(cc, a, b),
            },
            (Lowered::Ptr(p), Lowered::Ptr(Ptr::Null))
            | (Lowered::Ptr(Ptr::Null), Lowered::Ptr(p)) => {
                // "p != null": is the header present / did the lookup hit.
                let present = self.present(&p);
                match cc {
                    IntCC::Eq => {
                        let one = self.iconst(Type::I1, 1);
                        self.binary(BinOp::Xor, present, one)
                    }
                    IntCC::Ne => present,
                    _ => {
                        self.err(
                            Code::UntraceablePointer,
                            "an ordered comparison with a null pointer",
                        );
                        present
                    }
                }
            }
            (Lowered::Ptr(Ptr::Payload(a)), Lowered::Ptr(Ptr::Payload(b))) => self.icmp(cc, a, b),
            (Lowered::Ptr(a), Lowered::Ptr(b)) if self.same_header_bytes(&a, &b) => {
                let (a, b) = (self.header_offset(&a), self.header_offset(&b));
                self.icmp(cc, a, b)
            }
            _ => {
                self.err(
                    Code::UntraceablePointer,
                    "a comparison of pointers into different objects",
                );
                self.iconst(Type::I1, 0)
            }
        };
        self.def(&x.dest, v);
    }

    /// `o + off + sum(index * scale)` as an i64 value.
    fn dynamic_offset(&mut self, o: Value, off: i64, dynamic: &[(Operand, u64)]) -> Value {
        let mut o = o;
        if off != 0 {
            let c = self.iconst(Type::I64, off as u64);
            o = self.binary(BinOp::Add, o, c);
        }
        for (idx, scale) in dynamic {
            let i = self.int(idx);
            let i = if self.ty(i).bits() < 64 {
                self.ins1(
                    InstKind::Cast {
                        op: CastOp::Sext,
                        arg: i,
                    },
                    Type::I64,
                )
            } else {
                i
            };
            let i = if *scale != 1 {
                let s = self.iconst(Type::I64, *scale);
                self.binary(BinOp::Mul, i, s)
            } else {
                i
            };
            o = if self.const_value(o) == Some(0) {
                i
            } else {
                self.binary(BinOp::Add, o, i)
            };
        }
        o
    }

    fn translate_gep(&mut self, g: &li::GetElementPtr) {
        let base = self.ptr(&g.address);
        let Some((off, dynamic)) = gep_offset(self.types, g) else {
            self.err(
                Code::UntraceablePointer,
                "an address computation the front end does not understand",
            );
            self.vals.insert(g.dest.clone(), Lowered::Ptr(base));
            return;
        };
        let p = match base {
            Ptr::Payload(o) => Ptr::Payload(self.dynamic_offset(o, off, &dynamic)),
            Ptr::Const(bytes, o) => Ptr::Const(bytes, self.dynamic_offset(o, off, &dynamic)),
            Ptr::HeaderBytes(h, o) => Ptr::HeaderBytes(h, self.dynamic_offset(o, off, &dynamic)),
            Ptr::Header(h, o) if !dynamic.is_empty() && self.header_bytes_ok(h) => {
                let base = self.iconst(Type::I64, o as u64);
                Ptr::HeaderBytes(h, self.dynamic_offset(base, off, &dynamic))
            }
            base if !dynamic.is_empty() => {
                self.err(
                    Code::VariableIndex,
                    format!("{} indexed by a run-time value", ptr_desc(&base)),
                );
                base
            }
            Ptr::OneOf(sel, alts) => {
                Ptr::OneOf(sel, alts.into_iter().map(|a| offset_ptr(a, off)).collect())
            }
            other => offset_ptr(other, off),
        };
        self.vals.insert(g.dest.clone(), Lowered::Ptr(p));
    }

    fn member_of(&mut self, p: &Ptr) -> Option<usize> {
        match p {
            Ptr::Element(o) => {
                let m = self.member_at(*o);
                if m.is_none() {
                    let msg = self.unlisted_member(*o);
                    self.err(Code::UndeclaredState, msg);
                }
                m
            }
            _ => {
                self.err(
                    Code::UntraceablePointer,
                    "a state operation on something that is not a member",
                );
                None
            }
        }
    }
}
