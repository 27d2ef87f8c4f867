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
//! `ctpop` (SWAR on 64 bits), `cttz`/`ctlz` (population counts of the trailing-zero mask and
//! of the right-smeared value; the width for 0), `{u,s}{min,max}` and `abs` (compare and
//! select), funnel shifts and rotates `fshl`/`fshr` by any amount (the IR's shifts by the
//! width give 0, which makes an amount of 0 come out right).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use llvm_ir::instruction as li;
use llvm_ir::terminator as lt;
use llvm_ir::types::Types;
use llvm_ir::{
    Constant, Function as LFunction, Instruction, IntPredicate, Module as LModule, Name, Operand,
    Terminator, Type as LType, TypeRef,
};
use tandem_ir::{
    BinOp, Block, BlockCall, CastOp, Effect, Header, HeaderField, InstKind, IntCC, Layout, Meta,
    Module, SourceLoc, StateId, StateKind, Type, Value, ValueDef,
};

use crate::diag::{Code, Diagnostic, SrcLoc};

mod access;
mod api;
mod headers;
mod lpm;
mod meter;
mod narrow;
mod scan;
use crate::layout;
use crate::srcmap::{SrcMap, UserLoc};

pub(crate) const ENTRY: &str = "tandem_nf_process_entry";
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
    /// `tandem::LpmMap` (see `lpm`).
    Lpm,
}

#[derive(Clone, Debug, Default)]
struct MemberUse {
    map: Option<(MapFlavor, u64, u64, u64)>, // flavor, key size, value size, capacity
    vec: Option<(u64, u64)>,                 // elem size, capacity
    scalar_width: Option<u64>,
    key_bounds: BTreeSet<u64>,
    val_bounds: BTreeSet<u64>,
    vec_size_used: bool,
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
    /// 32-bit versions of vector indices made in a block (`narrow32`), so a get and a set of
    /// the same index use one value (the partitioner fuses them into one register access).
    narrowed: HashMap<(Value, Block), Value>,
    scalar_states: HashMap<usize, StateId>,
    vals: HashMap<Name, Lowered>,
    finds: Vec<Option<FindRes>>,
    blocks: HashMap<Name, Block>,
    /// Per LLVM block with parameters: the phis (name, param) then one param per slot.
    phi_params: HashMap<Name, Vec<(Name, Value)>>,
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
            narrowed: HashMap::new(),
            scalar_states: HashMap::new(),
            vals: HashMap::new(),
            finds: Vec::new(),
            blocks: HashMap::new(),
            phi_params: HashMap::new(),
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
                let col = d.col.unwrap_or(0);
                self.srcloc = Some(SrcLoc {
                    file: file.clone(),
                    line: d.line,
                    col,
                });
                let fid = match self.files.get(&file) {
                    Some(f) => *f,
                    None => {
                        let id = self.module.add_file(file.clone());
                        self.files.insert(file, id);
                        id
                    }
                };
                self.loc = Some(SourceLoc {
                    file: fid,
                    line: d.line,
                    col,
                });
            }
            None => {
                self.loc = None;
            }
        }
    }

    // ---- Members ------------------------------------------------------------------------

    /// Reads `tandem_nf_describe` and `tandem_nf_state_names`.
    pub(crate) fn read_members(&mut self) {
        let names: Vec<String> = global_string(self.lm, STATE_NAMES)
            .map(|s| {
                s.split(',')
                    .filter(|x| !x.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let Some(describe) = self.lm.functions.iter().find(|f| f.name == DESCRIBE) else {
            return;
        };
        let self_name = describe.parameters.first().map(|p| p.name.clone());
        let ptrs_name = describe.parameters.get(1).map(|p| p.name.clone());
        // name -> (is_self_based, offset)
        let mut offs: HashMap<Name, (bool, i64)> = HashMap::new();
        if let Some(s) = &self_name {
            offs.insert(s.clone(), (true, 0));
        }
        if let Some(p) = &ptrs_name {
            offs.insert(p.clone(), (false, 0));
        }
        let mut element_size: Option<i64> = None;
        let mut slots: BTreeMap<i64, i64> = BTreeMap::new();
        for bb in &describe.basic_blocks {
            for inst in &bb.instrs {
                match inst {
                    Instruction::GetElementPtr(g) => {
                        let Some(base) = local_name(&g.address).and_then(|n| offs.get(n).copied())
                        else {
                            continue;
                        };
                        if base.0 && element_size.is_none() {
                            if let LType::NamedStructType { .. } = g.source_element_type.as_ref() {
                                element_size =
                                    layout::size_align(self.types, &g.source_element_type)
                                        .map(|(s, _)| s as i64);
                            }
                        }
                        if let Some((off, dynamic)) = gep_offset(self.types, g) {
                            if dynamic.is_empty() {
                                offs.insert(g.dest.clone(), (base.0, base.1 + off));
                            }
                        }
                    }
                    Instruction::Store(s) => {
                        let (Some(v), Some(a)) = (
                            local_name(&s.value).and_then(|n| offs.get(n).copied()),
                            local_name(&s.address).and_then(|n| offs.get(n).copied()),
                        ) else {
                            continue;
                        };
                        if v.0 && !a.0 {
                            slots.insert(a.1 / 8, v.1);
                        }
                    }
                    _ => {}
                }
            }
        }
        let offsets: Vec<i64> = slots.values().copied().collect();
        let sizes = global_u64s(self.lm, "tandem_nf_state_sizes").unwrap_or_default();
        if let Some(s) =
            global_u64s(self.lm, "tandem_nf_element_size").and_then(|v| v.first().copied())
        {
            element_size = Some(s as i64);
        }
        for (i, name) in names.iter().enumerate() {
            let Some(&offset) = offsets.get(i) else { break };
            self.members.push(Member {
                name: name.clone(),
                offset,
                size: sizes.get(i).map_or(0, |&s| s as i64),
            });
        }
        if self.members.iter().all(|m| m.size > 0) {
            self.uses = vec![MemberUse::default(); self.members.len()];
            return;
        }
        let mut sorted: Vec<usize> = (0..self.members.len()).collect();
        sorted.sort_by_key(|&i| self.members[i].offset);
        for w in 0..sorted.len() {
            let end = sorted
                .get(w + 1)
                .map(|&j| self.members[j].offset)
                .or(element_size)
                .unwrap_or(i64::MAX);
            let m = &mut self.members[sorted[w]];
            m.size = end - m.offset;
        }
        self.uses = vec![MemberUse::default(); self.members.len()];
    }

    /// The member containing element offset `off`.
    fn member_at(&self, off: i64) -> Option<usize> {
        self.members
            .iter()
            .position(|m| off >= m.offset && off < m.offset + m.size.max(1))
    }

    // ---- State declarations --------------------------------------------------------------

    /// Declares a state object for every member process() uses, in TANDEM_NF order.
    /// Reads the declared headers and the parse graph (`TANDEM_PARSE`).
    pub(crate) fn read_headers(&mut self) {
        let diags = headers::read_parse_graph(self.lm, &mut self.module);
        self.diags.extend(diags);
    }

    pub(crate) fn declare_state(&mut self) {
        for mi in 0..self.members.len() {
            let u = self.uses[mi].clone();
            let name = self.members[mi].name.clone();
            if let Some(c) = &u.conflict {
                self.srcloc = u.conflict_loc.clone();
                self.err(Code::StateMisuse, format!("state member `{name}` is {c}"));
                continue;
            }
            if let Some((flavor, ks, vs, cap)) = u.map {
                let key = make_layout(&u.key_bounds, ks, "k");
                let value = make_layout(&u.val_bounds, vs, "v");
                let kind = match flavor {
                    MapFlavor::Plain => StateKind::HashMap {
                        key,
                        value,
                        capacity: cap,
                    },
                    MapFlavor::Expiring(t) => StateKind::ExpiringMap {
                        key,
                        value,
                        capacity: cap,
                        idle_timeout_ns: t,
                    },
                    MapFlavor::Lpm => StateKind::LpmMap {
                        key,
                        value,
                        capacity: cap,
                    },
                };
                let id = self.module.add_state(name, kind);
                self.map_states.insert(mi, id);
            } else if let Some((es, n)) = u.vec {
                let elem = make_layout(&u.val_bounds, es, "e");
                let id = self
                    .module
                    .add_state(name.clone(), StateKind::Vector { elem, len: n });
                // The vector's current length (set by configure(); `size()` reads it). It is
                // at most the capacity, so 32 bits hold it when the capacity fits: bounds
                // checks of 32-bit indices then fit 32-bit switch ALUs.
                let ty = if n <= u64::from(u32::MAX) {
                    Type::I32
                } else {
                    Type::I64
                };
                let size = self
                    .module
                    .add_state(format!("{name}_size"), StateKind::Scalar { ty });
                self.vec_states.insert(mi, VecState { vec: id, size });
            } else if u.vec_size_used {
                let size = self
                    .module
                    .add_state(format!("{name}_size"), StateKind::Scalar { ty: Type::I64 });
                self.vec_states.insert(mi, VecState { vec: size, size });
            } else if let Some((len, unit)) = u.meter {
                let id = self.module.add_state(name, StateKind::Meter { len, unit });
                self.meter_states.insert(mi, id);
            } else if let Some(w) = u.scalar_width {
                let id = self
                    .module
                    .add_state(name, StateKind::Scalar { ty: ty_of_bytes(w) });
                self.scalar_states.insert(mi, id);
            }
        }
    }

    // ---- Pass 2 --------------------------------------------------------------------------

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

    pub(crate) fn translate(&mut self, order: &[&'a llvm_ir::BasicBlock]) {
        if let Some(p) = self.f.parameters.first() {
            self.vals
                .insert(p.name.clone(), Lowered::Ptr(Ptr::Element(0)));
        }
        if let Some(p) = self.f.parameters.get(1) {
            self.vals.insert(p.name.clone(), Lowered::Ptr(Ptr::Packet));
        }
        let reachable: HashSet<&Name> = order.iter().map(|b| &b.name).collect();
        self.narrow_phis = self.narrow_index_phis();
        for bb in order {
            for s in successors(&bb.term) {
                if reachable.contains(&s) {
                    let p = self.preds.entry(s.clone()).or_default();
                    if !p.contains(&bb.name) {
                        p.push(bb.name.clone());
                    }
                }
            }
        }
        // Blocks and their parameters.
        for (i, bb) in order.iter().enumerate() {
            let b = self.module.process.add_block();
            self.blocks.insert(bb.name.clone(), b);
            let npreds = self.preds.get(&bb.name).map_or(0, Vec::len);
            if i == 0 || npreds < 2 {
                continue;
            }
            let mut phis = Vec::new();
            for inst in &bb.instrs {
                if let Instruction::Phi(p) = inst {
                    let ty = match p.to_type.as_ref() {
                        LType::IntegerType { .. } if self.narrow_phis.contains(&p.dest) => {
                            Type::I32
                        }
                        LType::IntegerType { bits } => Type::int(*bits).unwrap_or(Type::I64),
                        // A choice between places carries the index of the place; a payload
                        // pointer carries its offset.
                        _ if matches!(self.provs.get(&p.dest), Some(Prov::OneOf(_))) => Type::I8,
                        _ => Type::I64,
                    };
                    let v = self.module.process.add_block_param(b, ty);
                    phis.push((p.dest.clone(), v));
                }
            }
            self.phi_params.insert(bb.name.clone(), phis);
            let slot_types: Vec<Vec<u64>> = self
                .allocas
                .iter()
                .map(|a| a.slots.iter().map(|s| s.1).collect())
                .collect();
            let params = slot_types
                .into_iter()
                .map(|ws| {
                    ws.into_iter()
                        .map(|w| self.module.process.add_block_param(b, ty_of_bytes(w)))
                        .collect()
                })
                .collect();
            self.slot_params.insert(bb.name.clone(), params);
        }
        let index: HashMap<&Name, usize> = self
            .f
            .basic_blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (&b.name, i))
            .collect();
        let shape_ok = self.srcmap.blocks.len() == self.f.basic_blocks.len()
            && self
                .f
                .basic_blocks
                .iter()
                .zip(&self.srcmap.blocks)
                .all(|(b, m)| m.len() == b.instrs.len() + 1);
        if !shape_ok {
            // The text did not have the shape of the parsed module: innermost locations only.
            self.srcmap.blocks.clear();
        }
        for (i, bb) in order.iter().enumerate() {
            self.cur = self.blocks[&bb.name];
            self.srcloc = None;
            self.loc = None;
            self.user = UserLoc::default();
            let bi = index.get(&bb.name).copied().unwrap_or(usize::MAX);
            // Incoming local-memory state.
            if i == 0 {
                let widths: Vec<Vec<u64>> = self
                    .allocas
                    .iter()
                    .map(|a| a.slots.iter().map(|s| s.1).collect())
                    .collect();
                self.slots = widths
                    .into_iter()
                    .map(|ws| {
                        ws.into_iter()
                            .map(|w| self.iconst(ty_of_bytes(w), 0))
                            .collect()
                    })
                    .collect();
            } else if let Some(p) = self.slot_params.get(&bb.name) {
                self.slots = p.clone();
                for (n, v) in self.phi_params[&bb.name].clone() {
                    self.bind_phi(&n, v, bb);
                }
            } else {
                let pred = self.preds.get(&bb.name).and_then(|p| p.first()).cloned();
                self.slots = pred
                    .and_then(|p| self.end_slots.get(&p).cloned())
                    .unwrap_or_default();
            }
            for (k, inst) in bb.instrs.iter().enumerate() {
                self.at = (bi, k);
                self.translate_inst(inst, bb);
                // An instruction that failed defines its result as 0, so that its uses do not
                // report further errors.
                if let Some(dest) = inst.try_get_result() {
                    if !self.vals.contains_key(dest) {
                        let ty = self.types.type_of(inst);
                        let z = self.zero_of(&ty);
                        self.vals.insert(dest.clone(), z);
                    }
                }
            }
            self.at = (bi, bb.instrs.len());
            self.translate_term(bb);
        }
    }

    fn bind_phi(&mut self, name: &Name, v: Value, bb: &llvm_ir::BasicBlock) {
        let is_ptr = bb.instrs.iter().any(|i| match i {
            Instruction::Phi(p) => &p.dest == name && is_ptr(&p.to_type),
            _ => false,
        });
        if is_ptr {
            let ptr = match self.provs.get(name) {
                Some(Prov::OneOf(alts)) => {
                    let alts = alts.iter().filter_map(prov_to_ptr).collect();
                    Ptr::OneOf(v, alts)
                }
                _ => Ptr::Payload(v),
            };
            self.vals.insert(name.clone(), Lowered::Ptr(ptr));
        } else if self.narrow_phis.contains(name) {
            let wide = self.resize(v, Type::I64);
            self.def(name, wide);
        } else {
            self.def(name, v);
        }
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
            (Lowered::Int(a), Lowered::Int(b)) => self.icmp(cc, a, b),
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

    /// Is `p` a real place: a present header, a hit, anything but null.
    fn present(&mut self, p: &Ptr) -> Value {
        match p {
            Ptr::Header(h, _) => self.ins1(InstKind::HdrValid { header: *h }, Type::I1),
            Ptr::Found(fi, _) => match &self.finds[*fi] {
                Some(f) => f.hit,
                None => self.iconst(Type::I1, 0),
            },
            Ptr::Null => self.iconst(Type::I1, 0),
            Ptr::OneOf(sel, alts) => {
                let (sel, alts) = (*sel, alts.clone());
                let vals: Vec<Value> = alts.iter().map(|a| self.present(a)).collect();
                self.choose(sel, &vals)
            }
            _ => self.iconst(Type::I1, 1),
        }
    }

    /// `vals[sel]` as a chain of selects.
    fn choose(&mut self, sel: Value, vals: &[Value]) -> Value {
        let mut acc = vals[0];
        for (i, &v) in vals.iter().enumerate().skip(1) {
            let k = self.iconst(self.ty(sel), i as u64);
            let is = self.icmp(IntCC::Eq, sel, k);
            let ty = self.ty(v);
            acc = self.ins1(
                InstKind::Select {
                    cond: is,
                    if_true: v,
                    if_false: acc,
                },
                ty,
            );
        }
        acc
    }

    /// The index (an i8 value) of place `p` among `alts`.
    fn index_in(&mut self, alts: &[Ptr], p: &Ptr) -> Option<Value> {
        match p {
            Ptr::OneOf(sel, inner) => {
                let idx: Option<Vec<u64>> = inner
                    .iter()
                    .map(|i| alts.iter().position(|a| same_place(a, i)).map(|x| x as u64))
                    .collect();
                let idx = idx?;
                let sel = *sel;
                let vals: Vec<Value> = idx.into_iter().map(|i| self.iconst(Type::I8, i)).collect();
                Some(self.choose(sel, &vals))
            }
            other => {
                let i = alts.iter().position(|a| same_place(a, other))?;
                Some(self.iconst(Type::I8, i as u64))
            }
        }
    }

    fn translate_select(&mut self, x: &li::Select) {
        let c = self.int(&x.condition);
        let a = self.lower(&x.true_value);
        let b = self.lower(&x.false_value);
        match (a, b) {
            (Lowered::Int(a), Lowered::Int(b)) => {
                let ty = self.ty(a);
                let v = self.ins1(
                    InstKind::Select {
                        cond: c,
                        if_true: a,
                        if_false: b,
                    },
                    ty,
                );
                self.def(&x.dest, v);
            }
            (Lowered::Ptr(Ptr::Payload(a)), Lowered::Ptr(Ptr::Payload(b))) => {
                let v = self.ins1(
                    InstKind::Select {
                        cond: c,
                        if_true: a,
                        if_false: b,
                    },
                    Type::I64,
                );
                self.vals
                    .insert(x.dest.clone(), Lowered::Ptr(Ptr::Payload(v)));
            }
            (Lowered::Ptr(a), Lowered::Ptr(b)) => {
                let mut alts: Vec<Ptr> = Vec::new();
                for p in [&a, &b] {
                    let inner: Vec<Ptr> = match p {
                        Ptr::OneOf(_, inner) => inner.clone(),
                        other if is_place(other) => vec![other.clone()],
                        _ => vec![],
                    };
                    for i in inner {
                        if !alts.iter().any(|x| same_place(x, &i)) {
                            alts.push(i);
                        }
                    }
                }
                match (self.index_in(&alts, &a), self.index_in(&alts, &b)) {
                    (Some(ia), Some(ib)) => {
                        let sel = self.ins1(
                            InstKind::Select {
                                cond: c,
                                if_true: ia,
                                if_false: ib,
                            },
                            Type::I8,
                        );
                        self.vals
                            .insert(x.dest.clone(), Lowered::Ptr(Ptr::OneOf(sel, alts)));
                    }
                    _ => {
                        self.err(
                            Code::UntraceablePointer,
                            "a pointer chosen at run time between objects",
                        );
                        self.vals.insert(x.dest.clone(), Lowered::Ptr(a));
                    }
                }
            }
            (_, b) => {
                self.err(
                    Code::UntraceablePointer,
                    "a select mixing pointers and integers",
                );
                self.vals.insert(x.dest.clone(), b);
            }
        }
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
            o = self.binary(BinOp::Add, o, i);
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

    fn edge_args(&mut self, from: &Name, to: &Name) -> (Block, Vec<Value>) {
        let b = self.blocks[to];
        let Some(phis) = self.phi_params.get(to).cloned() else {
            return (b, vec![]);
        };
        let mut args = Vec::new();
        let target = self.f.basic_blocks.iter().find(|bb| &bb.name == to);
        for (pname, param) in phis {
            let incoming = target.and_then(|bb| {
                bb.instrs.iter().find_map(|i| match i {
                    Instruction::Phi(p) if p.dest == pname => p
                        .incoming_values
                        .iter()
                        .find(|(_, pred)| pred == from)
                        .map(|(op, _)| op.clone()),
                    _ => None,
                })
            });
            let ty = self.ty(param);
            let target_alts = match self.provs.get(&pname) {
                Some(Prov::OneOf(alts)) => {
                    Some(alts.iter().filter_map(prov_to_ptr).collect::<Vec<_>>())
                }
                _ => None,
            };
            let v = match incoming.map(|op| self.lower(&op)) {
                Some(Lowered::Int(v)) if self.narrow_phis.contains(&pname) => self.low32(v, 4),
                Some(Lowered::Int(v)) => self.resize(v, ty),
                Some(Lowered::Ptr(p)) if target_alts.is_some() => {
                    let alts = target_alts.unwrap_or_default();
                    match self.index_in(&alts, &p) {
                        Some(v) => v,
                        None => {
                            self.err(
                                Code::UntraceablePointer,
                                "a pointer chosen at run time between objects",
                            );
                            self.iconst(ty, 0)
                        }
                    }
                }
                Some(Lowered::Ptr(Ptr::Payload(o))) => o,
                Some(Lowered::Ptr(_)) => {
                    self.err(
                        Code::UntraceablePointer,
                        "a pointer chosen at run time between objects",
                    );
                    self.iconst(ty, 0)
                }
                None => self.iconst(ty, 0),
            };
            args.push(v);
        }
        args.extend(self.slots.iter().flatten().copied());
        (b, args)
    }

    fn translate_term(&mut self, bb: &llvm_ir::BasicBlock) {
        let dl = match &bb.term {
            Terminator::Ret(r) => r.debugloc.clone(),
            Terminator::Br(r) => r.debugloc.clone(),
            Terminator::CondBr(r) => r.debugloc.clone(),
            Terminator::Switch(r) => r.debugloc.clone(),
            Terminator::Unreachable(r) => r.debugloc.clone(),
            _ => None,
        };
        self.set_loc(&dl);
        self.end_slots.insert(bb.name.clone(), self.slots.clone());
        match &bb.term {
            Terminator::Ret(_) | Terminator::Unreachable(_) => {
                self.ins(InstKind::Return, &[]);
            }
            Terminator::Br(lt::Br { dest, .. }) => {
                let (b, args) = self.edge_args(&bb.name, dest);
                self.ins(
                    InstKind::Jump {
                        dest: BlockCall::new(b, args),
                    },
                    &[],
                );
            }
            Terminator::CondBr(c) => {
                let cond = self.int(&c.condition);
                let (tb, ta) = self.edge_args(&bb.name, &c.true_dest);
                let (fb, fa) = self.edge_args(&bb.name, &c.false_dest);
                self.ins(
                    InstKind::Brif {
                        cond,
                        then_dest: BlockCall::new(tb, ta),
                        else_dest: BlockCall::new(fb, fa),
                    },
                    &[],
                );
            }
            Terminator::Switch(s) => {
                let arg = self.int(&s.operand);
                let (db, da) = self.edge_args(&bb.name, &s.default_dest);
                let mut cases = Vec::new();
                for (k, d) in &s.dests {
                    let Constant::Int { value, .. } = k.as_ref() else {
                        continue;
                    };
                    let (b, a) = self.edge_args(&bb.name, d);
                    cases.push((*value, BlockCall::new(b, a)));
                }
                self.ins(
                    InstKind::Switch {
                        arg,
                        default: BlockCall::new(db, da),
                        cases,
                    },
                    &[],
                );
            }
            other => {
                self.err(
                    Code::UnsupportedInstruction,
                    format!("the terminator `{other}` (exceptions?)"),
                );
                self.ins(InstKind::Return, &[]);
            }
        }
    }
}

// ---- helpers -----------------------------------------------------------------------------

fn offset_prov(base: Prov, off: i64) -> Prov {
    match base {
        Prov::OneOf(alts) => Prov::OneOf(alts.into_iter().map(|a| offset_prov(a, off)).collect()),
        Prov::Const(n, o) => Prov::Const(n, o + off),
        Prov::Element(o) => Prov::Element(o + off),
        Prov::Alloca(a, o) => Prov::Alloca(a, o + off),
        Prov::Found(f, o) => Prov::Found(f, o + off),
        Prov::Header(h, o) => Prov::Header(h, o + off),
        p => p,
    }
}

fn prov_to_ptr(p: &Prov) -> Option<Ptr> {
    Some(match p {
        Prov::Element(o) => Ptr::Element(*o),
        Prov::Alloca(a, o) => Ptr::Alloca(*a, *o),
        Prov::Found(f, o) => Ptr::Found(*f, *o),
        Prov::Header(h, o) => Ptr::Header(*h, *o),
        Prov::Null => Ptr::Null,
        _ => return None,
    })
}

fn is_place(p: &Ptr) -> bool {
    matches!(
        p,
        Ptr::Element(_) | Ptr::Alloca(..) | Ptr::Found(..) | Ptr::Header(..) | Ptr::Null
    )
}

fn same_place(a: &Ptr, b: &Ptr) -> bool {
    match (a, b) {
        (Ptr::Element(x), Ptr::Element(y)) => x == y,
        (Ptr::Alloca(a1, o1), Ptr::Alloca(a2, o2)) => a1 == a2 && o1 == o2,
        (Ptr::Found(f1, o1), Ptr::Found(f2, o2)) => f1 == f2 && o1 == o2,
        (Ptr::Header(h1, o1), Ptr::Header(h2, o2)) => h1 == h2 && o1 == o2,
        (Ptr::Null, Ptr::Null) => true,
        _ => false,
    }
}

fn offset_ptr(p: Ptr, off: i64) -> Ptr {
    match p {
        Ptr::Element(o) => Ptr::Element(o + off),
        Ptr::Alloca(a, o) => Ptr::Alloca(a, o + off),
        Ptr::Found(f, o) => Ptr::Found(f, o + off),
        Ptr::Header(h, o) => Ptr::Header(h, o + off),
        p => p,
    }
}

/// Which map API a call belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MapFamily {
    Plain,
    Expiring,
    Lpm,
}

/// Argument positions of `tandem_api_{map,emap,lpm}_{find,lookup,insert,erase}(map, key,
/// key_size, ...)`: (family, value-size argument, capacity argument (an expiring map's idle
/// timeout follows it; an LPM insert's or erase's prefix length is last), whether argument 3
/// points to a value).
fn map_call_shape(callee: &str) -> Option<(MapFamily, Option<usize>, usize, bool)> {
    let (op, family) = if let Some(op) = callee.strip_prefix("tandem_api_map_") {
        (op, MapFamily::Plain)
    } else if let Some(op) = callee.strip_prefix("tandem_api_emap_") {
        (op, MapFamily::Expiring)
    } else {
        (callee.strip_prefix("tandem_api_lpm_")?, MapFamily::Lpm)
    };
    Some(match op {
        "find" => (family, Some(3), 4, false),
        "lookup" | "insert" => (family, Some(4), 5, true),
        // The value size too (not for LPM maps, whose erase names a prefix): a map that
        // process() only erases from still has values (from configure()), which the state
        // the compiler declares must hold.
        "erase" if family == MapFamily::Lpm => (family, None, 3, false),
        "erase" => (family, Some(3), 4, false),
        _ => return None,
    })
}

/// A choice between places; `Unknown` when an alternative is unknown or the payload.
fn one_of(provs: Vec<Prov>) -> Prov {
    let mut alts: Vec<Prov> = Vec::new();
    for p in provs {
        match p {
            Prov::OneOf(inner) => {
                for i in inner {
                    if !alts.contains(&i) {
                        alts.push(i);
                    }
                }
            }
            Prov::Element(_)
            | Prov::Alloca(..)
            | Prov::Found(..)
            | Prov::Header(..)
            | Prov::Null => {
                if !alts.contains(&p) {
                    alts.push(p);
                }
            }
            Prov::Unknown(why) => return Prov::Unknown(why),
            _ => return Prov::Unknown(
                "a pointer chosen at run time between the payload or a constant and another object"
                    .into(),
            ),
        }
    }
    if alts.len() > 255 {
        return Prov::Unknown("a pointer chosen among too many objects".into());
    }
    Prov::OneOf(alts)
}

/// The bytes of a constant global array of integers (string literals, lookup tables).
fn const_global_bytes(m: &LModule, name: &Name) -> Option<Vec<u8>> {
    let g = m.global_vars.iter().find(|g| &g.name == name)?;
    if !g.is_constant {
        return None;
    }
    let init = g.initializer.as_ref()?;
    let mut out = Vec::new();
    fn push(c: &Constant, out: &mut Vec<u8>) -> Option<()> {
        match c {
            Constant::Int { bits, value } => {
                let n = bits.div_ceil(8);
                for i in 0..n {
                    out.push((value >> (8 * i)) as u8);
                }
                Some(())
            }
            Constant::Array { elements, .. } => {
                for e in elements {
                    push(e, out)?;
                }
                Some(())
            }
            _ => None,
        }
    }
    push(init, &mut out)?;
    if out.len() > 256 {
        return None;
    }
    Some(out)
}

fn ptr_desc(p: &Ptr) -> &'static str {
    match p {
        Ptr::Element(_) => "an element member",
        Ptr::Alloca(..) => "a local array",
        Ptr::Found(..) => "a map value",
        Ptr::Header(..) => "a header",
        _ => "a pointer",
    }
}

/// Splits sorted boundaries into ranges of at most 8 bytes.
fn split_ranges(bounds: &[u64]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        let (mut a, b) = (w[0], w[1]);
        while a < b {
            let len = (b - a).min(8);
            out.push((a, len));
            a += len;
        }
    }
    out
}

fn make_layout(bounds: &BTreeSet<u64>, size: u64, prefix: &str) -> Layout {
    let mut b: Vec<u64> = bounds.iter().copied().filter(|&x| x <= size).collect();
    b.push(0);
    b.push(size);
    b.sort_unstable();
    b.dedup();
    let fields: Vec<(String, Type, u32)> = split_ranges(&b)
        .into_iter()
        .map(|(o, w)| (format!("{prefix}{o}"), ty_of_bytes(w), o as u32))
        .collect();
    Layout::with_offsets(fields, size as u32)
}

fn local_name(op: &Operand) -> Option<&Name> {
    match op {
        Operand::LocalOperand { name, .. } => Some(name),
        _ => None,
    }
}

fn is_ptr(t: &TypeRef) -> bool {
    matches!(t.as_ref(), LType::PointerType { .. })
}

fn is_ptr_operand(types: &Types, op: &Operand) -> bool {
    is_ptr(&types.type_of(op))
}

/// The constant byte offset of a GEP and its run-time indices with their scales (the dynamic
/// part of the address is the sum of `index * scale`).
fn gep_offset(types: &Types, g: &li::GetElementPtr) -> Option<(i64, Vec<(Operand, u64)>)> {
    let mut off: i64 = 0;
    let mut dynamic: Vec<(Operand, u64)> = Vec::new();
    let mut ty = g.source_element_type.clone();
    for (i, idx) in g.indices.iter().enumerate() {
        let c = match idx {
            Operand::ConstantOperand(k) => match k.as_ref() {
                Constant::Int { bits, value } => Some(sign_extend(*value, *bits)),
                _ => None,
            },
            _ => None,
        };
        if i == 0 {
            let (size, _) = layout::size_align(types, &ty)?;
            match c {
                Some(k) => off += k * size as i64,
                None => dynamic.push((idx.clone(), size)),
            }
            continue;
        }
        match c {
            Some(k) => {
                let (o, next) = layout::step_into(types, &ty, k as u64)?;
                off += o as i64;
                ty = next;
            }
            None => {
                if layout::struct_fields(types, &ty).is_some() {
                    return None;
                }
                let (o, next) = layout::step_into(types, &ty, 1)?;
                let (base, _) = layout::step_into(types, &ty, 0)?;
                dynamic.push((idx.clone(), o - base));
                ty = next;
            }
        }
    }
    Some((off, dynamic))
}

fn sign_extend(v: u64, bits: u32) -> i64 {
    if bits >= 64 || bits == 0 {
        v as i64
    } else {
        let sh = 64 - bits;
        ((v << sh) as i64) >> sh
    }
}

fn callee_name(c: &li::Call) -> Option<String> {
    match &c.function {
        either::Either::Right(Operand::ConstantOperand(k)) => match k.as_ref() {
            Constant::GlobalReference { name, .. } => Some(name_str(name)),
            _ => None,
        },
        _ => None,
    }
}

fn is_allocator(name: &str) -> bool {
    matches!(
        name,
        "malloc"
            | "calloc"
            | "realloc"
            | "free"
            | "_Znwm"
            | "_Znam"
            | "_ZdlPv"
            | "_ZdaPv"
            | "_ZdlPvm"
            | "_ZnwmSt11align_val_t"
    ) || name.starts_with("_Znw")
        || name.starts_with("_Zna")
}

/// The C++ name of a (possibly mangled) symbol.
fn demangle_hint(name: &str) -> String {
    crate::srcmap::demangle(name)
}

fn constant_kind(c: &Constant) -> &'static str {
    match c {
        Constant::Float(_) => "floating point",
        Constant::Struct { .. } => "a struct constant",
        Constant::Array { .. } => "an array constant",
        Constant::Vector(_) => "a vector constant",
        _ => "an expression",
    }
}

fn successors(t: &Terminator) -> Vec<Name> {
    match t {
        Terminator::Br(b) => vec![b.dest.clone()],
        Terminator::CondBr(c) => vec![c.true_dest.clone(), c.false_dest.clone()],
        Terminator::Switch(s) => {
            let mut v = vec![s.default_dest.clone()];
            v.extend(s.dests.iter().map(|d| d.1.clone()));
            v
        }
        _ => vec![],
    }
}

/// Blocks reachable from the entry, in reverse post-order.
pub(crate) fn rpo(f: &LFunction) -> Vec<&llvm_ir::BasicBlock> {
    let by_name: HashMap<&Name, &llvm_ir::BasicBlock> =
        f.basic_blocks.iter().map(|b| (&b.name, b)).collect();
    let Some(entry) = f.basic_blocks.first() else {
        return vec![];
    };
    let mut seen: HashSet<&Name> = HashSet::new();
    let mut post: Vec<&llvm_ir::BasicBlock> = Vec::new();
    // Iterative DFS: (block, next successor index).
    let mut stack: Vec<(&llvm_ir::BasicBlock, usize)> = vec![(entry, 0)];
    seen.insert(&entry.name);
    while let Some((b, i)) = stack.pop() {
        let succ = successors(&b.term);
        if i < succ.len() {
            stack.push((b, i + 1));
            if let Some(&s) = by_name.get(&succ[i]) {
                if seen.insert(&s.name) {
                    stack.push((s, 0));
                }
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post
}

fn global_string(m: &LModule, name: &str) -> Option<String> {
    let g = m.global_vars.iter().find(|g| name_str(&g.name) == name)?;
    let init = g.initializer.as_ref()?;
    match init.as_ref() {
        Constant::Array { elements, .. } => {
            let bytes: Vec<u8> = elements
                .iter()
                .filter_map(|e| match e.as_ref() {
                    Constant::Int { value, .. } => Some(*value as u8),
                    _ => None,
                })
                .take_while(|b| *b != 0)
                .collect();
            Some(String::from_utf8_lossy(&bytes).into_owned())
        }
        _ => None,
    }
}

/// The integers of a constant global (`i64` scalar or array).
fn global_u64s(m: &LModule, name: &str) -> Option<Vec<u64>> {
    let g = m.global_vars.iter().find(|g| name_str(&g.name) == name)?;
    match g.initializer.as_ref()?.as_ref() {
        Constant::Int { value, .. } => Some(vec![*value]),
        Constant::Array { elements, .. } => Some(
            elements
                .iter()
                .filter_map(|e| match e.as_ref() {
                    Constant::Int { value, .. } => Some(*value),
                    _ => None,
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The NF's type name (`tandem_nf_type_name`).
pub(crate) fn nf_type_name(m: &LModule) -> Option<String> {
    global_string(m, TYPE_NAME)
}

fn inst_debugloc(i: &Instruction) -> Option<llvm_ir::DebugLoc> {
    use llvm_ir::HasDebugLoc;
    i.get_debug_loc().clone()
}

/// Why an LLVM instruction has no NF IR counterpart, for the L002 message.
fn describe_unsupported(op: &str) -> String {
    let what = match op {
        "fadd" | "fsub" | "fmul" | "fdiv" | "frem" | "fneg" | "fcmp" | "uitofp" | "sitofp"
        | "fptoui" | "fptosi" | "fpext" | "fptrunc" => "floating point arithmetic",
        "extractelement" | "insertelement" | "shufflevector" => "SIMD vector operations",
        "atomicrmw" | "cmpxchg" | "fence" => "atomic operations",
        "landingpad" | "catchpad" | "cleanuppad" | "invoke" | "resume" => "exceptions",
        "va_arg" => "variadic arguments",
        _ => "an LLVM instruction",
    };
    format!("{what} (`{op}`)")
}

fn inst_opcode(i: &Instruction) -> String {
    let s = format!("{i}");
    // "%x = fadd double ..." -> "fadd"
    let body = s.split_once(" = ").map_or(s.as_str(), |(_, b)| b);
    body.split_whitespace().next().unwrap_or("?").to_string()
}

fn operands_of(i: &Instruction) -> Vec<Operand> {
    match i {
        Instruction::Call(c) => c.arguments.iter().map(|a| a.0.clone()).collect(),
        Instruction::Phi(p) => p.incoming_values.iter().map(|x| x.0.clone()).collect(),
        Instruction::Select(s) => vec![
            s.condition.clone(),
            s.true_value.clone(),
            s.false_value.clone(),
        ],
        Instruction::Store(s) => vec![s.address.clone(), s.value.clone()],
        Instruction::Load(l) => vec![l.address.clone()],
        Instruction::GetElementPtr(g) => {
            let mut v = vec![g.address.clone()];
            v.extend(g.indices.iter().cloned());
            v
        }
        Instruction::ICmp(c) => vec![c.operand0.clone(), c.operand1.clone()],
        Instruction::Trunc(x) => vec![x.operand.clone()],
        Instruction::ZExt(x) => vec![x.operand.clone()],
        Instruction::SExt(x) => vec![x.operand.clone()],
        Instruction::Freeze(x) => vec![x.operand.clone()],
        Instruction::BitCast(x) => vec![x.operand.clone()],
        other => binary_operands(other),
    }
}

fn binary_operands(i: &Instruction) -> Vec<Operand> {
    macro_rules! two {
        ($($v:ident),*) => {
            match i {
                $(Instruction::$v(x) => vec![x.operand0.clone(), x.operand1.clone()],)*
                _ => vec![],
            }
        };
    }
    two!(Add, Sub, Mul, UDiv, SDiv, URem, SRem, And, Or, Xor, Shl, LShr, AShr)
}

fn term_operands(t: &Terminator) -> Vec<Operand> {
    match t {
        Terminator::CondBr(c) => vec![c.condition.clone()],
        Terminator::Switch(s) => vec![s.operand.clone()],
        Terminator::Ret(r) => r.return_operand.iter().cloned().collect(),
        _ => vec![],
    }
}
