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

#[path = "lpm.rs"]
mod lpm;
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

    // ---- Pass 1: provenance and access ranges ----------------------------------------

    fn prov_of(&self, op: &Operand) -> Prov {
        match op {
            Operand::LocalOperand { name, .. } => self
                .provs
                .get(name)
                .cloned()
                .unwrap_or_else(|| Prov::Unknown(format!("%{}", name_str(name)))),
            Operand::ConstantOperand(c) => match c.as_ref() {
                Constant::Null(_) => Prov::Null,
                Constant::GlobalReference { name, .. } => {
                    if const_global_bytes(self.lm, name).is_some() {
                        Prov::Const(name.clone(), 0)
                    } else {
                        Prov::Unknown(format!("global @{}", name_str(name)))
                    }
                }
                _ => Prov::Unknown("a constant expression".into()),
            },
            Operand::MetadataOperand => Prov::Unknown("metadata".into()),
        }
    }

    fn note_range(&mut self, p: &Prov, off: i64, len: u64) {
        match p {
            Prov::OneOf(alts) => {
                for a in alts.clone() {
                    self.note_range(&a, off, len);
                }
            }
            Prov::Alloca(a, o) => {
                let info = &mut self.allocas[*a];
                let s = (o + off).max(0) as u64;
                info.bounds.insert(s.min(info.size));
                info.bounds.insert((s + len).min(info.size));
            }
            Prov::Found(fi, o) => {
                let m = self.find_member[*fi];
                let s = (o + off).max(0) as u64;
                self.uses[m].val_bounds.insert(s);
                self.uses[m].val_bounds.insert(s + len);
            }
            Prov::Element(o) => {
                let o = o + off;
                if let Some(m) = self.member_at(o) {
                    let u = &mut self.uses[m];
                    if o != self.members[m].offset {
                        u.conflict = Some("accessed at an inner offset".into());
                    }
                    match u.scalar_width {
                        Some(w) if w != len => {
                            u.conflict = Some(format!("read as {w} and as {len} bytes"))
                        }
                        _ => u.scalar_width = Some(len),
                    }
                }
            }
            _ => {}
        }
    }

    fn const_u64(op: &Operand) -> Option<u64> {
        match op {
            Operand::ConstantOperand(c) => match c.as_ref() {
                Constant::Int { value, .. } => Some(*value),
                _ => None,
            },
            _ => None,
        }
    }

    fn record_map_use(
        &mut self,
        member_prov: &Prov,
        flavor: MapFlavor,
        ks: u64,
        vs: u64,
        cap: u64,
    ) {
        let Prov::Element(off) = member_prov else {
            return;
        };
        let Some(m) = self.member_at(*off) else {
            return;
        };
        let u = &mut self.uses[m];
        match u.map {
            Some((f, k, v, c))
                if (f, k, c) != (flavor, ks, cap) || (vs != 0 && v != 0 && v != vs) =>
            {
                u.conflict = Some("used as maps of different types".into());
            }
            Some((f, k, 0, c)) => u.map = Some((f, k, vs, c)),
            Some(_) => {}
            None => u.map = Some((flavor, ks, vs, cap)),
        }
        if u.vec.is_some() {
            u.conflict = Some("used both as a map and as a vector".into());
        }
    }

    /// Key/value sources for map layouts: the alloca range passed to an API call.
    fn note_layout_source(&mut self, member_prov: &Prov, ptr: &Prov, len: u64, is_key: bool) {
        let Prov::Element(moff) = member_prov else {
            return;
        };
        let Some(m) = self.member_at(*moff) else {
            return;
        };
        self.note_range(ptr, 0, len);
        if let Prov::Alloca(a, o) = ptr {
            let o = (*o).max(0) as u64;
            let inner: Vec<u64> = self.allocas[*a]
                .bounds
                .range(o..=o + len)
                .map(|b| b - o)
                .collect();
            let u = &mut self.uses[m];
            let set = if is_key {
                &mut u.key_bounds
            } else {
                &mut u.val_bounds
            };
            set.extend(inner);
        }
    }

    pub(crate) fn scan(&mut self, order: &[&'a llvm_ir::BasicBlock]) {
        if let Some(p) = self.f.parameters.first() {
            self.provs.insert(p.name.clone(), Prov::Element(0));
        }
        if let Some(p) = self.f.parameters.get(1) {
            self.provs.insert(p.name.clone(), Prov::Packet);
        }
        // Two rounds so that pointer phis see values defined later (loops).
        for round in 0..2 {
            for bb in order {
                for inst in &bb.instrs {
                    if round == 0 {
                        if let Instruction::Call(li::Call {
                            function: either::Either::Right(Operand::LocalOperand { name, .. }),
                            ..
                        }) = inst
                        {
                            self.call_targets.insert(name.clone());
                        }
                        for op in operands_of(inst) {
                            if let Operand::LocalOperand { name, .. } = op {
                                self.used_names.insert(name.clone());
                            }
                        }
                    }
                    self.scan_inst(inst, round);
                }
                if round == 0 {
                    for op in term_operands(&bb.term) {
                        if let Operand::LocalOperand { name, .. } = op {
                            self.used_names.insert(name.clone());
                        }
                    }
                }
            }
        }
        for a in &mut self.allocas {
            let mut b: Vec<u64> = a.bounds.iter().copied().filter(|&x| x <= a.size).collect();
            b.push(0);
            b.push(a.size);
            b.sort_unstable();
            b.dedup();
            a.slots = split_ranges(&b);
        }
    }

    fn scan_inst(&mut self, inst: &'a Instruction, round: usize) {
        self.scan_inst_inner(inst, round);
        // Blame the first access that made a member's use inconsistent.
        let loc = inst_debugloc(inst).map(|d| SrcLoc {
            file: display_path(&d.filename, d.directory.as_deref()),
            line: d.line,
            col: d.col.unwrap_or(0),
        });
        for u in &mut self.uses {
            if u.conflict.is_some() && u.conflict_loc.is_none() {
                u.conflict_loc = loc.clone();
            }
        }
    }

    fn scan_inst_inner(&mut self, inst: &'a Instruction, round: usize) {
        match inst {
            Instruction::Alloca(a) => {
                if round == 0 {
                    let size = layout::size_align(self.types, &a.allocated_type)
                        .map(|(s, _)| s)
                        .unwrap_or(0)
                        * Self::const_u64(&a.num_elements).unwrap_or(1);
                    let id = self.allocas.len();
                    self.allocas.push(AllocaInfo {
                        size,
                        bounds: BTreeSet::new(),
                        slots: Vec::new(),
                    });
                    self.alloca_index.insert(a.dest.clone(), id);
                }
                let id = self.alloca_index[&a.dest];
                self.provs.insert(a.dest.clone(), Prov::Alloca(id, 0));
            }
            Instruction::GetElementPtr(g) => {
                let base = self.prov_of(&g.address);
                let p = match gep_offset(self.types, g) {
                    Some((off, d)) if d.is_empty() => offset_prov(base, off),
                    Some(_) if base == Prov::Payload => Prov::Payload,
                    Some(_) if matches!(base, Prov::Const(..)) => base,
                    Some(_) => Prov::Unknown("a variable index".into()),
                    None => Prov::Unknown("an unsupported GEP".into()),
                };
                self.provs.insert(g.dest.clone(), p);
            }
            Instruction::Phi(p) if is_ptr(&p.to_type) => {
                let provs: Vec<Prov> = p
                    .incoming_values
                    .iter()
                    .map(|(op, _)| self.prov_of(op))
                    .collect();
                let payload = provs
                    .iter()
                    .all(|x| *x == Prov::Payload || (round == 0 && matches!(x, Prov::Unknown(_))));
                let first = provs.first().cloned();
                let same = first.as_ref().is_some_and(|f| {
                    provs.iter().all(|x| x == f) && !matches!(f, Prov::Unknown(_))
                });
                let prov = if same {
                    first.unwrap_or(Prov::Null)
                } else if payload {
                    Prov::Payload
                } else {
                    one_of(provs)
                };
                self.provs.insert(p.dest.clone(), prov);
            }
            Instruction::Select(s) if is_ptr_operand(self.types, &s.true_value) => {
                let (a, b) = (self.prov_of(&s.true_value), self.prov_of(&s.false_value));
                let prov = if a == b { a } else { one_of(vec![a, b]) };
                self.provs.insert(s.dest.clone(), prov);
            }
            Instruction::Load(l) if round == 1 => {
                let p = self.prov_of(&l.address);
                let len = layout::store_size(self.types, &l.loaded_ty).unwrap_or(0);
                self.note_range(&p, 0, len);
            }
            Instruction::Store(s) if round == 1 => {
                let p = self.prov_of(&s.address);
                let len =
                    layout::store_size(self.types, &self.types.type_of(&s.value)).unwrap_or(0);
                self.note_range(&p, 0, len);
            }
            Instruction::Call(c) => self.scan_call(c, round),
            _ => {}
        }
    }

    fn scan_call(&mut self, c: &'a li::Call, round: usize) {
        let Some(callee) = callee_name(c) else { return };
        let arg = |i: usize| c.arguments.get(i).map(|a| &a.0);
        let argc = |i: usize| arg(i).and_then(Self::const_u64).unwrap_or(0);
        if let Some(dest) = &c.dest {
            let p = match callee.as_str() {
                "tandem_api_pkt_eth" => Some(Prov::Header(Header::Eth, 0)),
                "tandem_api_pkt_ipv4" => Some(Prov::Header(Header::Ipv4, 0)),
                "tandem_api_pkt_tcp" => Some(Prov::Header(Header::Tcp, 0)),
                "tandem_api_pkt_udp" => Some(Prov::Header(Header::Udp, 0)),
                "tandem_api_pkt_payload" => Some(Prov::Payload),
                "tandem_api_map_find" | "tandem_api_emap_find" | "tandem_api_lpm_find" => {
                    let idx = match self.find_index.get(dest) {
                        Some(i) => *i,
                        None => {
                            let i = self.find_member.len();
                            let m = match arg(0).map(|a| self.prov_of(a)) {
                                Some(Prov::Element(o)) => self.member_at(o).unwrap_or(usize::MAX),
                                _ => usize::MAX,
                            };
                            self.find_member.push(m);
                            self.find_index.insert(dest.clone(), i);
                            i
                        }
                    };
                    if self.find_member[idx] == usize::MAX {
                        Some(Prov::Unknown("a map that is not a listed member".into()))
                    } else {
                        Some(Prov::Found(idx, 0))
                    }
                }
                _ => None,
            };
            if let Some(p) = p {
                self.provs.insert(dest.clone(), p);
            }
        }
        if round != 1 {
            return;
        }
        let Some(a0) = arg(0) else { return };
        let m = self.prov_of(a0);
        if let Some((family, vs_arg, cap_arg, has_value)) = map_call_shape(&callee) {
            let (ks, cap) = (argc(2), argc(cap_arg));
            let vs = vs_arg.map_or(0, argc);
            let flavor = match family {
                MapFamily::Expiring => MapFlavor::Expiring(argc(cap_arg + 1)),
                MapFamily::Plain => MapFlavor::Plain,
                MapFamily::Lpm => MapFlavor::Lpm,
            };
            let ptrs: &[(usize, u64, bool)] = if has_value {
                &[(1, ks, true), (3, vs, false)]
            } else {
                &[(1, ks, true)]
            };
            self.scan_map(&m, flavor, ks, vs, cap, ptrs, c);
            return;
        }
        match callee.as_str() {
            "tandem_api_vec_get" | "tandem_api_vec_set" => {
                let (es, n) = (argc(3), argc(4));
                if let Prov::Element(off) = m {
                    if let Some(mi) = self.member_at(off) {
                        let u = &mut self.uses[mi];
                        if u.map.is_some() || u.vec.is_some_and(|v| v != (es, n)) {
                            u.conflict =
                                Some("used as a vector of another type or as a map".into());
                        }
                        u.vec = Some((es, n));
                        if let Some(p) = arg(2).map(|a| self.prov_of(a)) {
                            self.note_layout_source(&Prov::Element(off), &p, es, false);
                        }
                    }
                }
            }
            "tandem_api_vec_size" => {
                if let Prov::Element(off) = m {
                    if let Some(mi) = self.member_at(off) {
                        self.uses[mi].vec_size_used = true;
                    }
                }
            }
            "llvm.memcpy.p0.p0.i64" | "llvm.memmove.p0.p0.i64" => {
                let n = argc(2);
                let src = arg(1).map(|a| self.prov_of(a));
                self.note_range(&m, 0, n);
                if let Some(s) = src {
                    self.note_range(&s, 0, n);
                }
            }
            "llvm.memset.p0.i64" => self.note_range(&m, 0, argc(2)),
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn scan_map(
        &mut self,
        m: &Prov,
        flavor: MapFlavor,
        ks: u64,
        vs: u64,
        cap: u64,
        ptr_args: &[(usize, u64, bool)],
        c: &li::Call,
    ) {
        self.record_map_use(m, flavor, ks, vs, cap);
        for &(i, len, is_key) in ptr_args {
            if let Some(a) = c.arguments.get(i) {
                let p = self.prov_of(&a.0);
                self.note_layout_source(m, &p, len, is_key);
            }
        }
    }

    // ---- State declarations --------------------------------------------------------------

    /// Declares a state object for every member process() uses, in TANDEM_NF order.
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
            } else if let Some(w) = u.scalar_width {
                let id = self
                    .module
                    .add_state(name, StateKind::Scalar { ty: ty_of_bytes(w) });
                self.scalar_states.insert(mi, id);
            }
        }
    }

    // ---- IR building helpers -------------------------------------------------------------

    fn ins(&mut self, kind: InstKind, tys: &[Type]) -> Vec<Value> {
        let i = self
            .module
            .process
            .append_inst(self.cur, kind, tys, self.loc);
        self.module.process.inst_results(i).to_vec()
    }

    fn ins1(&mut self, kind: InstKind, ty: Type) -> Value {
        self.ins(kind, &[ty])[0]
    }

    fn ty(&self, v: Value) -> Type {
        self.module.process.value_type(v).unwrap_or(Type::I1)
    }

    fn def_kind(&self, v: Value) -> Option<&InstKind> {
        match self.module.process.values.get(v)?.def {
            ValueDef::Result(i, _) => Some(&self.module.process.insts[i].kind),
            _ => None,
        }
    }

    fn iconst(&mut self, ty: Type, imm: u64) -> Value {
        self.ins1(InstKind::Const { imm: ty.wrap(imm) }, ty)
    }

    fn const_value(&self, v: Value) -> Option<u64> {
        match self.def_kind(v) {
            Some(InstKind::Const { imm }) => Some(*imm),
            _ => None,
        }
    }

    fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.ins1(InstKind::Binary { op, args: [a, b] }, ty)
    }

    fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        self.ins1(
            InstKind::Icmp {
                pred: cc,
                args: [a, b],
            },
            Type::I1,
        )
    }

    /// The type of a scalar state (`i64` if it is not one).
    fn state_scalar_type(&self, state: tandem_ir::StateId) -> Type {
        match self.module.states.get(state).map(|s| &s.kind) {
            Some(StateKind::Scalar { ty }) => *ty,
            _ => Type::I64,
        }
    }

    /// `idx` as a 32-bit value when its value provably fits 32 bits (a constant, a narrower
    /// integer, a zero extension of one, a mask, remainder or shift that bounds it), else
    /// `None`. Vector indices are `size_t`; this keeps bounds checks of the usual indices
    /// (ports, masked hashes) within 32-bit switch ALUs. The result is computed in 32 bits
    /// (`(zext h) & 4095` becomes `h & 4095`), once per value and block.
    fn narrow32(&mut self, idx: Value) -> Option<Value> {
        const LIMIT: u64 = 1 << 32;
        if let Some(&v) = self.narrowed.get(&(idx, self.cur)) {
            return Some(v);
        }
        let fits = self.ty(idx).bits() <= 32
            || self.const_value(idx).is_some_and(|c| c < LIMIT)
            || match self.def_kind(idx).cloned() {
                Some(InstKind::Cast {
                    op: CastOp::Zext,
                    arg,
                }) => self.ty(arg).bits() <= 32,
                Some(InstKind::Binary { op, args }) => {
                    let c1 = self.const_value(args[1]);
                    let c0 = self.const_value(args[0]);
                    match op {
                        BinOp::And => c1.or(c0).is_some_and(|c| c < LIMIT),
                        BinOp::Lshr => c1.is_some_and(|c| (32..64).contains(&c)),
                        BinOp::Urem => {
                            c1.is_some_and(|c| c != 0 && c <= LIMIT) && self.fits32(args[0])
                        }
                        _ => false,
                    }
                }
                _ => false,
            };
        if !fits {
            return None;
        }
        let v = self.low32(idx, 4);
        self.narrowed.insert((idx, self.cur), v);
        Some(v)
    }

    /// Is `v` a zero extension of at most 32 bits (or narrower, or a small constant)?
    fn fits32(&self, v: Value) -> bool {
        self.ty(v).bits() <= 32
            || self.const_value(v).is_some_and(|c| c < 1 << 32)
            || matches!(self.def_kind(v), Some(InstKind::Cast { op: CastOp::Zext, arg }) if self.ty(*arg).bits() <= 32)
    }

    /// The low 32 bits of `v`, computed in 32 bits where the operations allow (bitwise
    /// operations, addition, subtraction and multiplication commute with truncation; a
    /// remainder of a 32-bit value by a 32-bit constant too).
    fn low32(&mut self, v: Value, depth: u32) -> Value {
        if self.ty(v).bits() <= 32 {
            return self.resize(v, Type::I32);
        }
        if let Some(c) = self.const_value(v) {
            return self.iconst(Type::I32, c & 0xFFFF_FFFF);
        }
        match self.def_kind(v).cloned() {
            Some(InstKind::Cast {
                op: CastOp::Zext,
                arg,
            }) if self.ty(arg).bits() <= 32 => return self.resize(arg, Type::I32),
            Some(InstKind::Binary { op, args })
                if depth > 0
                    && (matches!(
                        op,
                        BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Add | BinOp::Sub | BinOp::Mul
                    ) || (op == BinOp::Urem
                        && self.fits32(args[0])
                        && self
                            .const_value(args[1])
                            .is_some_and(|c| c != 0 && c < 1 << 32))) =>
            {
                let a = self.low32(args[0], depth - 1);
                let b = self.low32(args[1], depth - 1);
                return self.binary(op, a, b);
            }
            _ => {}
        }
        self.resize(v, Type::I32)
    }

    /// The index and the vector's loaded size for a bounds check `idx < size`, both 32 bits
    /// wide when the size state and the index allow it, else both 64 bits.
    fn bounds_operands(&mut self, idx: Value, size_state: tandem_ir::StateId) -> (Value, Value) {
        let sty = self.state_scalar_type(size_state);
        let size = self.ins1(InstKind::ScalarLoad { state: size_state }, sty);
        if sty == Type::I32 {
            if let Some(i) = self.narrow32(idx) {
                return (i, size);
            }
        }
        let idx = self.resize(idx, Type::I64);
        let size = self.resize(size, Type::I64);
        (idx, size)
    }

    /// Casts `v` to `to` (zext/trunc, or nothing).
    fn resize(&mut self, v: Value, to: Type) -> Value {
        let from = self.ty(v);
        if from == to {
            return v;
        }
        if let Some(c) = self.const_value(v) {
            return self.iconst(to, c);
        }
        let op = if from.bits() < to.bits() {
            CastOp::Zext
        } else {
            // trunc(zext(x)) to x's type is x.
            if let Some(InstKind::Cast {
                op: CastOp::Zext,
                arg,
            }) = self.def_kind(v).cloned()
            {
                if self.ty(arg) == to {
                    return arg;
                }
            }
            CastOp::Trunc
        };
        self.ins1(InstKind::Cast { op, arg: v }, to)
    }

    fn bswap(&mut self, v: Value) -> Value {
        if let Some(InstKind::Bswap { arg }) = self.def_kind(v).cloned() {
            return arg;
        }
        let ty = self.ty(v);
        if ty.bits() <= 8 {
            return v;
        }
        self.ins1(InstKind::Bswap { arg: v }, ty)
    }

    /// Bytes `[a, b)` (relative to the piece) of the little-endian piece `v`.
    fn extract(&mut self, v: Value, a: u64, b: u64) -> Value {
        let w = self.ty(v).bits() as u64 / 8;
        if a == 0 && b >= w {
            return v;
        }
        let shifted = if a > 0 {
            let ty = self.ty(v);
            let sh = self.iconst(ty, a * 8);
            self.binary(BinOp::Lshr, v, sh)
        } else {
            v
        };
        self.resize(shifted, ty_of_bytes(b - a))
    }

    /// The little-endian number of bytes `[off, off+len)`, assembled from `pieces`
    /// `(offset, width, value)`; a later piece overrides an earlier one where they overlap;
    /// bytes no piece covers are 0.
    fn compose(&mut self, pieces: &[(u64, u64, Value)], off: u64, len: u64) -> Value {
        let ty = ty_of_bytes(len);
        let mut bounds: BTreeSet<u64> = BTreeSet::from([off, off + len]);
        for &(po, pw, _) in pieces {
            for b in [po, po + pw] {
                if b > off && b < off + len {
                    bounds.insert(b);
                }
            }
        }
        let bounds: Vec<u64> = bounds.into_iter().collect();
        let mut acc: Option<Value> = None;
        for seg in bounds.windows(2) {
            let (a, b) = (seg[0], seg[1]);
            let Some(&(po, _, pv)) = pieces
                .iter()
                .rev()
                .find(|(po, pw, _)| *po <= a && b <= po + pw)
            else {
                continue;
            };
            let part = self.extract(pv, a - po, b - po);
            let part = self.resize(part, ty);
            let part = if a > off {
                let sh = self.iconst(ty, (a - off) * 8);
                self.binary(BinOp::Shl, part, sh)
            } else {
                part
            };
            acc = Some(match acc {
                None => part,
                Some(x) => self.binary(BinOp::Or, x, part),
            });
        }
        match acc {
            Some(v) => v,
            None => self.iconst(ty, 0),
        }
    }

    fn header_pieces(&mut self, h: Header, off: u64, len: u64) -> Vec<(u64, u64, Value)> {
        let mut pieces = Vec::new();
        for f in h.fields() {
            let fo = f.byte_offset() as u64;
            let fw = u64::from(f.bits().div_ceil(8));
            if fo < off + len && off < fo + fw {
                let be = self.ins1(InstKind::HdrRead { field: f }, f.ty());
                let le = self.bswap(be);
                pieces.push((fo, fw, le));
            }
        }
        pieces
    }

    fn header_size(h: Header) -> u64 {
        h.fields()
            .map(|f| f.byte_offset() as u64 + u64::from(f.bits().div_ceil(8)))
            .max()
            .unwrap_or(0)
    }

    fn load_header(&mut self, h: Header, off: i64, len: u64) -> Value {
        if off < 0 || off as u64 + len > Self::header_size(h) {
            self.err(
                Code::UntraceablePointer,
                format!("a {len}-byte access at offset {off} lies outside the {h} header"),
            );
            return self.iconst(ty_of_bytes(len), 0);
        }
        let off = off as u64;
        let pieces = self.header_pieces(h, off, len);
        self.compose(&pieces, off, len)
    }

    fn store_header(&mut self, h: Header, off: i64, len: u64, v: Value) {
        if off < 0 || off as u64 + len > Self::header_size(h) {
            self.err(
                Code::UntraceablePointer,
                format!("a {len}-byte store at offset {off} lies outside the {h} header"),
            );
            return;
        }
        let off = off as u64;
        let fields: Vec<HeaderField> = h.fields().collect();
        for f in fields {
            let fo = f.byte_offset() as u64;
            let fw = u64::from(f.bits().div_ceil(8));
            if !(fo < off + len && off < fo + fw) {
                continue;
            }
            let le = if off <= fo && fo + fw <= off + len {
                self.extract(v, fo - off, fo + fw - off)
            } else {
                let old_be = self.ins1(InstKind::HdrRead { field: f }, f.ty());
                let old = self.bswap(old_be);
                self.compose(&[(fo, fw, old), (off, len, v)], fo, fw)
            };
            let be = self.bswap(le);
            self.ins(
                InstKind::HdrWrite {
                    field: f,
                    value: be,
                },
                &[],
            );
        }
    }

    fn alloca_pieces(&self, a: usize) -> Vec<(u64, u64, Value)> {
        self.allocas[a]
            .slots
            .iter()
            .zip(&self.slots[a])
            .map(|(&(o, w), &v)| (o, w, v))
            .collect()
    }

    fn load_alloca(&mut self, a: usize, off: i64, len: u64) -> Value {
        let pieces = self.alloca_pieces(a);
        self.compose(&pieces, off.max(0) as u64, len)
    }

    fn store_alloca(&mut self, a: usize, off: i64, len: u64, v: Value) {
        let off = off.max(0) as u64;
        let slots = self.allocas[a].slots.clone();
        for (i, (so, sw)) in slots.into_iter().enumerate() {
            if !(so < off + len && off < so + sw) {
                continue;
            }
            let old = self.slots[a][i];
            let new = self.compose(&[(so, sw, old), (off, len, v)], so, sw);
            self.slots[a][i] = new;
        }
    }

    /// Loads `len` bytes at `p + rel`.
    fn load_ptr(&mut self, p: &Ptr, rel: i64, len: u64) -> Value {
        match p {
            Ptr::Header(h, o) => self.load_header(*h, o + rel, len),
            Ptr::Alloca(a, o) => self.load_alloca(*a, o + rel, len),
            Ptr::Found(fi, o) => {
                let pieces = self.finds[*fi]
                    .as_ref()
                    .map(|f| f.fields.clone())
                    .unwrap_or_default();
                self.compose(&pieces, (o + rel).max(0) as u64, len)
            }
            Ptr::Element(o) => self.load_scalar(o + rel, len),
            Ptr::Payload(off) => {
                let off = if rel != 0 {
                    let r = self.iconst(Type::I64, rel as u64);
                    self.binary(BinOp::Add, *off, r)
                } else {
                    *off
                };
                self.ins(
                    InstKind::Opaque {
                        name: opaque_names::PAYLOAD_LOAD.into(),
                        args: vec![off],
                        reads: vec![Effect::Payload],
                        writes: vec![],
                    },
                    &[ty_of_bytes(len)],
                )[0]
            }
            Ptr::OneOf(sel, alts) => {
                let (sel, alts) = (*sel, alts.clone());
                let vals: Vec<Value> = alts
                    .iter()
                    .map(|a| match a {
                        Ptr::Null => self.iconst(ty_of_bytes(len), 0),
                        a => self.load_ptr(a, rel, len),
                    })
                    .collect();
                self.choose(sel, &vals)
            }
            Ptr::Const(bytes, off) => {
                let (bytes, off) = (bytes.clone(), *off);
                let ty = ty_of_bytes(len);
                let at = |k: usize| -> u64 {
                    (0..len as usize).fold(0u64, |acc, i| {
                        acc | (u64::from(bytes.get(k + i).copied().unwrap_or(0)) << (8 * i))
                    })
                };
                match self.const_value(off) {
                    Some(k) => {
                        let k = (k as i64 + rel).max(0) as usize;
                        self.iconst(ty, at(k))
                    }
                    None => {
                        let vals: Vec<Value> =
                            (0..bytes.len()).map(|k| self.iconst(ty, at(k))).collect();
                        let idx = if rel != 0 {
                            let r = self.iconst(Type::I64, rel as u64);
                            self.binary(BinOp::Add, off, r)
                        } else {
                            off
                        };
                        if vals.is_empty() {
                            self.iconst(ty, 0)
                        } else {
                            self.choose(idx, &vals)
                        }
                    }
                }
            }
            Ptr::Packet | Ptr::Null => {
                self.err(
                    Code::UntraceablePointer,
                    "a load through a null or packet-object pointer",
                );
                self.iconst(ty_of_bytes(len), 0)
            }
        }
    }

    fn store_ptr(&mut self, p: &Ptr, rel: i64, len: u64, v: Value) {
        let width = if matches!(p, Ptr::Payload(_)) {
            self.iconst(Type::I8, len)
        } else {
            v
        };
        match p {
            Ptr::Header(h, o) => self.store_header(*h, o + rel, len, v),
            Ptr::Alloca(a, o) => self.store_alloca(*a, o + rel, len, v),
            Ptr::Found(..) => self.err(
                Code::StateMisuse,
                "a store through the pointer HashMap::find() returned; update values with insert()",
            ),
            Ptr::Element(o) => self.store_scalar(o + rel, len, v),
            Ptr::Payload(off) => {
                let off = if rel != 0 {
                    let r = self.iconst(Type::I64, rel as u64);
                    self.binary(BinOp::Add, *off, r)
                } else {
                    *off
                };
                self.ins(
                    InstKind::Opaque {
                        name: opaque_names::PAYLOAD_STORE.into(),
                        args: vec![off, v, width],
                        reads: vec![],
                        writes: vec![Effect::Payload],
                    },
                    &[],
                );
            }
            Ptr::OneOf(sel, alts) => {
                // Store to each alternative under its own condition (absent headers ignore
                // writes, so a guarded header store is safe).
                let (sel, alts) = (*sel, alts.clone());
                for (i, a) in alts.iter().enumerate() {
                    if matches!(a, Ptr::Null) {
                        continue;
                    }
                    let k = self.iconst(Type::I8, i as u64);
                    let cond = self.icmp(IntCC::Eq, sel, k);
                    let old = self.load_ptr(a, rel, len);
                    let ty = self.ty(old);
                    let v2 = self.resize(v, ty);
                    let new = self.ins1(
                        InstKind::Select {
                            cond,
                            if_true: v2,
                            if_false: old,
                        },
                        ty,
                    );
                    self.store_ptr(a, rel, len, new);
                }
            }
            Ptr::Const(..) => self.err(Code::GlobalVariable, "a store to a constant"),
            Ptr::Packet | Ptr::Null => self.err(
                Code::UntraceablePointer,
                "a store through a null or packet-object pointer",
            ),
        }
    }

    /// "member `x` is not listed in TANDEM_NF", by the name the source gives the member at
    /// element byte offset `off`.
    fn unlisted_member(&self, off: i64) -> String {
        match self.srcmap.member_at(off) {
            Some(m) => format!(
                "member `{}` of `{}` is used but not listed in TANDEM_NF",
                m.name, self.module.name
            ),
            None => format!("the element member at byte offset {off} is not listed in TANDEM_NF"),
        }
    }

    /// Why a pointer loaded through `p` cannot be followed, in the source's terms: a member
    /// that is a standard container (std::vector, std::string, ...) or holds a pointer.
    fn pointer_load_reason(&self, p: &Ptr) -> (Code, String) {
        let Ptr::Element(off) = p else {
            return (
                Code::UntraceablePointer,
                "a pointer loaded from memory".into(),
            );
        };
        match self.srcmap.member_at(*off) {
            Some(m) if m.allocating_std_type() => (
                Code::DynamicMemory,
                format!(
                    "member `{}` is a `{}`, which allocates memory; use tandem::Vector, \
                     tandem::HashMap or tandem::ExpiringMap with a capacity",
                    m.name,
                    m.ty.as_deref().unwrap_or("standard container")
                ),
            ),
            Some(m) => (
                Code::UntraceablePointer,
                format!(
                    "a pointer loaded from memory: process() follows the pointer in member `{}`",
                    m.name
                ),
            ),
            None => (
                Code::UntraceablePointer,
                "a pointer loaded from memory".into(),
            ),
        }
    }

    fn scalar_state(&mut self, off: i64) -> Option<StateId> {
        let Some(m) = self.member_at(off) else {
            let msg = self.unlisted_member(off);
            self.err(Code::UndeclaredState, msg);
            return None;
        };
        match self.scalar_states.get(&m) {
            Some(s) => Some(*s),
            None => {
                let name = self.members[m].name.clone();
                self.err(
                    Code::StateMisuse,
                    format!("state member `{name}` is accessed directly but is not an integer"),
                );
                None
            }
        }
    }

    fn load_scalar(&mut self, off: i64, len: u64) -> Value {
        match self.scalar_state(off) {
            Some(s) => {
                let ty = ty_of_bytes(len);
                self.ins1(InstKind::ScalarLoad { state: s }, ty)
            }
            None => self.iconst(ty_of_bytes(len), 0),
        }
    }

    fn store_scalar(&mut self, off: i64, _len: u64, v: Value) {
        if let Some(s) = self.scalar_state(off) {
            self.ins(InstKind::ScalarStore { state: s, value: v }, &[]);
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

    fn translate_call(&mut self, c: &'a li::Call) {
        let callee = match &c.function {
            either::Either::Left(_) => {
                self.err(Code::UnsupportedInstruction, "inline assembly");
                return;
            }
            either::Either::Right(Operand::ConstantOperand(k)) => match k.as_ref() {
                Constant::GlobalReference { name, .. } => name_str(name),
                _ => {
                    self.err(
                        Code::FunctionPointer,
                        "a call through a computed function pointer",
                    );
                    return;
                }
            },
            either::Either::Right(_) => {
                self.err(Code::FunctionPointer, "a call through a function pointer");
                return;
            }
        };
        let args: Vec<&Operand> = c.arguments.iter().map(|a| &a.0).collect();
        let dest = c.dest.clone();
        let used = dest.as_ref().is_some_and(|d| self.used_names.contains(d));
        if let Some(rest) = callee.strip_prefix("tandem_api_") {
            self.translate_api(rest, &args, dest.as_ref(), used);
        } else if callee.starts_with("llvm.") {
            self.translate_intrinsic(&callee, &args, dest.as_ref());
        } else if let Some(f) = self.lm.functions.iter().find(|f| f.name == callee) {
            let noinline = f
                .function_attributes
                .contains(&llvm_ir::function::FunctionAttribute::NoInline);
            let why = if noinline {
                "is marked noinline, so it was not inlined into process()"
            } else {
                "was not inlined into process() (recursion?)"
            };
            self.err(
                Code::Recursion,
                format!("`{}` {why}", demangle_hint(&callee)),
            );
        } else if is_allocator(&callee) {
            self.err(
                Code::DynamicMemory,
                format!("a call to `{}`", demangle_hint(&callee)),
            );
        } else {
            self.err(
                Code::OpaqueCall,
                format!("`{}` is kept as an opaque call", demangle_hint(&callee)),
            );
            let iargs: Vec<Value> = args
                .iter()
                .filter_map(|a| match self.lower(a) {
                    Lowered::Int(v) => Some(v),
                    Lowered::Ptr(Ptr::Payload(o)) => Some(o),
                    Lowered::Ptr(_) => None,
                })
                .collect();
            let rty = match self.types.type_of(c).as_ref() {
                LType::IntegerType { bits } => Type::int(*bits),
                _ => None,
            };
            let tys: Vec<Type> = rty.into_iter().collect();
            let res = self.ins(
                InstKind::Opaque {
                    name: callee.clone(),
                    args: iargs,
                    reads: vec![Effect::All],
                    writes: vec![Effect::All],
                },
                &tys,
            );
            if let (Some(d), Some(&v)) = (dest, res.first()) {
                self.def(&d, v);
            }
        }
    }

    fn map_state(&mut self, m: usize) -> Option<StateId> {
        let s = self.map_states.get(&m).copied();
        if s.is_none() {
            let name = self.members[m].name.clone();
            self.err(Code::StateMisuse, format!("`{name}` is not a map"));
        }
        s
    }

    /// The map state and key of a `tandem_api_(e)map_*(map, key, ...)` call.
    fn map_and_key(&mut self, args: &[&Operand]) -> Option<(StateId, Vec<Value>)> {
        let mp = self.ptr(args.first()?);
        let m = self.member_of(&mp)?;
        let state = self.map_state(m)?;
        let key_ptr = args.get(1).map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
        let key = self.key_values(state, &key_ptr);
        Some((state, key))
    }

    fn key_values(&mut self, state: StateId, key_ptr: &Ptr) -> Vec<Value> {
        let layout = match &self.module.states[state].kind {
            StateKind::HashMap { key, .. }
            | StateKind::ExpiringMap { key, .. }
            | StateKind::LpmMap { key, .. } => key.clone(),
            _ => Layout::default(),
        };
        self.read_from(key_ptr, &layout)
    }

    fn value_layout(&self, state: StateId) -> Layout {
        match &self.module.states[state].kind {
            StateKind::HashMap { value, .. }
            | StateKind::ExpiringMap { value, .. }
            | StateKind::LpmMap { value, .. } => value.clone(),
            StateKind::Vector { elem, .. } => elem.clone(),
            _ => Layout::default(),
        }
    }

    /// Reads `layout`'s fields from memory at `p` (layout offsets relative to `p`).
    fn read_from(&mut self, p: &Ptr, layout: &Layout) -> Vec<Value> {
        let fields: Vec<(u64, Type)> = layout
            .fields
            .iter()
            .map(|f| (u64::from(f.offset.unwrap_or(0)), f.ty))
            .collect();
        fields
            .into_iter()
            .map(|(fo, ty)| {
                let v = self.load_ptr(p, fo as i64, u64::from(ty.bytes()));
                self.resize(v, ty)
            })
            .collect()
    }

    fn translate_api(&mut self, op: &str, args: &[&Operand], dest: Option<&Name>, used: bool) {
        let pkt_header = |h| Some(h);
        let header = match op {
            "pkt_eth" => pkt_header(Header::Eth),
            "pkt_ipv4" => pkt_header(Header::Ipv4),
            "pkt_tcp" => pkt_header(Header::Tcp),
            "pkt_udp" => pkt_header(Header::Udp),
            _ => None,
        };
        if let Some(h) = header {
            if let Some(d) = dest {
                self.vals.insert(d.clone(), Lowered::Ptr(Ptr::Header(h, 0)));
            }
            return;
        }
        let meta = |l: &mut Self, m: Meta, to: Type| {
            let v = l.ins1(InstKind::MetaRead { meta: m }, m.ty());
            l.resize(v, to)
        };
        match op {
            "pkt_in_port" => {
                let v = meta(self, Meta::InPort, Type::I32);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "pkt_length" => {
                let v = meta(self, Meta::Length, Type::I32);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "pkt_now" => {
                let v = meta(self, Meta::Now, Type::I64);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "pkt_send" => {
                let p = args.get(1).map(|a| self.int(a));
                if let Some(p) = p {
                    let p = self.resize(p, Type::I16);
                    self.ins(InstKind::Send { port: p }, &[]);
                }
            }
            "pkt_drop" => {
                self.ins(InstKind::Drop, &[]);
            }
            "pkt_payload" => {
                let z = self.iconst(Type::I64, 0);
                if let Some(d) = dest {
                    self.vals.insert(d.clone(), Lowered::Ptr(Ptr::Payload(z)));
                }
            }
            "pkt_payload_len" => {
                let v = self.ins1(
                    InstKind::Opaque {
                        name: opaque_names::PAYLOAD_LEN.into(),
                        args: vec![],
                        reads: vec![Effect::Payload],
                        writes: vec![],
                    },
                    Type::I32,
                );
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "pkt_update_checksums" => {
                let mut reads = vec![Effect::Payload];
                reads.extend(
                    [Header::Ipv4, Header::Tcp, Header::Udp]
                        .into_iter()
                        .flat_map(|h| h.fields())
                        .map(Effect::Field),
                );
                let writes = ["ipv4.check", "tcp.check", "udp.check"]
                    .into_iter()
                    .filter_map(HeaderField::from_name)
                    .map(Effect::Field)
                    .collect();
                self.ins(
                    InstKind::Opaque {
                        name: opaque_names::UPDATE_CHECKSUMS.into(),
                        args: vec![],
                        reads,
                        writes,
                    },
                    &[],
                );
            }
            "ipv4_header_checksum" => {
                let reads = Header::Ipv4.fields().map(Effect::Field).collect();
                let v = self.ins1(
                    InstKind::Opaque {
                        name: opaque_names::IPV4_CHECKSUM.into(),
                        args: vec![],
                        reads,
                        writes: vec![],
                    },
                    Type::I16,
                );
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "map_find" | "emap_find" | "map_lookup" | "emap_lookup" | "lpm_find" | "lpm_lookup" => {
                let Some((state, key)) = self.map_and_key(args) else {
                    return;
                };
                if !self.lpm_key_ok(state) {
                    return;
                }
                let tys: Vec<Type> = std::iter::once(Type::I1)
                    .chain(self.value_layout(state).types())
                    .collect();
                let res = self.ins(InstKind::MapFind { state, key }, &tys);
                let hit = res[0];
                let layout = self.value_layout(state);
                let fields: Vec<(u64, u64, Value)> = layout
                    .fields
                    .iter()
                    .zip(&res[1..])
                    .map(|(f, &v)| (u64::from(f.offset.unwrap_or(0)), u64::from(f.ty.bytes()), v))
                    .collect();
                if op.ends_with("find") {
                    let Some(d) = dest else { return };
                    let fi = self.find_index.get(d).copied().unwrap_or(0);
                    if self.finds.len() <= fi {
                        self.finds.resize_with(fi + 1, || None);
                    }
                    self.finds[fi] = Some(FindRes { hit, fields });
                    self.vals.insert(d.clone(), Lowered::Ptr(Ptr::Found(fi, 0)));
                } else {
                    // lookup(key, out): out is written only on a hit.
                    let out = args.get(3).map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
                    self.write_if(hit, &out, &fields);
                    if let Some(d) = dest {
                        self.def(d, hit);
                    }
                }
            }
            "map_insert" | "emap_insert" => {
                let Some((state, key)) = self.map_and_key(args) else {
                    return;
                };
                let val_ptr = args.get(3).map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
                let layout = self.value_layout(state);
                let value = self.read_from(&val_ptr, &layout);
                let ok = self.ins1(InstKind::MapInsert { state, key, value }, Type::I1);
                if let Some(d) = dest {
                    self.def(d, ok);
                }
            }
            "map_erase" | "emap_erase" => {
                let Some((state, key)) = self.map_and_key(args) else {
                    return;
                };
                if used {
                    // erase() returns whether the key was there.
                    let tys: Vec<Type> = std::iter::once(Type::I1)
                        .chain(self.value_layout(state).types())
                        .collect();
                    let res = self.ins(
                        InstKind::MapFind {
                            state,
                            key: key.clone(),
                        },
                        &tys,
                    );
                    if let Some(d) = dest {
                        self.def(d, res[0]);
                    }
                }
                self.ins(InstKind::MapErase { state, key }, &[]);
            }
            "lpm_insert" | "lpm_erase" | "lpm_size" => self.translate_lpm(op, args, dest),
            "map_size" | "emap_size" => {
                let v = self.ins1(
                    InstKind::Opaque {
                        name: format!("tandem.{op}"),
                        args: vec![],
                        reads: vec![Effect::All],
                        writes: vec![],
                    },
                    Type::I64,
                );
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "hash_bad_operand" => {
                let size = args.first().and_then(|a| {
                    let v = self.int(a);
                    self.const_value(v)
                });
                self.err(
                    Code::HashMisuse,
                    format!(
                        "a hash operand is not an integer ({} bytes); tandem::crc16/crc32/identity hash integers",
                        size.map_or("?".to_string(), |s| s.to_string())
                    ),
                );
            }
            "hash" => {
                let consts: Vec<Option<u64>> = [0usize, 2, 3]
                    .iter()
                    .map(|&i| {
                        args.get(i).and_then(|a| {
                            let v = self.int(a);
                            self.const_value(v)
                        })
                    })
                    .collect();
                let algo = match consts[0] {
                    Some(16) => Some(tandem_ir::HashAlgo::Crc16),
                    Some(32) => Some(tandem_ir::HashAlgo::Crc32),
                    Some(64) => Some(tandem_ir::HashAlgo::Identity),
                    _ => None,
                };
                let (Some(algo), Some(widths), Some(n)) = (algo, consts[1], consts[2]) else {
                    self.err(
                        Code::HashMisuse,
                        "a hash whose algorithm or operand widths are not compile-time constants",
                    );
                    return;
                };
                let p = args.get(1).map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
                let mut operands = Vec::new();
                for k in 0..n.min(16) {
                    let bytes = (widths >> (4 * k)) & 15;
                    let ty = match bytes {
                        1 => Type::I8,
                        2 => Type::I16,
                        4 => Type::I32,
                        8 => Type::I64,
                        _ => {
                            self.err(
                                Code::HashMisuse,
                                format!("hash operand {k} is {bytes} bytes wide, not an integer"),
                            );
                            return;
                        }
                    };
                    let v = self.load_ptr(&p, (8 * k) as i64, 8);
                    operands.push(self.resize(v, ty));
                }
                let h = self.ins1(
                    InstKind::Hash {
                        algo,
                        args: operands,
                    },
                    algo.result_type(),
                );
                // tandem_api_hash returns uint64_t; crc16/crc32 truncate it back.
                let h = self.resize(h, Type::I64);
                if let Some(d) = dest {
                    self.def(d, h);
                }
            }
            "vec_size" => {
                let Some(mp) = args.first().map(|a| self.ptr(a)) else {
                    return;
                };
                let Some(m) = self.member_of(&mp) else { return };
                let Some(vs) = self.vec_states.get(&m).map(|v| v.size) else {
                    return;
                };
                let ty = self.state_scalar_type(vs);
                let v = self.ins1(InstKind::ScalarLoad { state: vs }, ty);
                let v = self.resize(v, Type::I64);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "vec_get" | "vec_set" => {
                let Some(mp) = args.first().map(|a| self.ptr(a)) else {
                    return;
                };
                let Some(m) = self.member_of(&mp) else { return };
                let Some((state, size_state)) = self.vec_states.get(&m).map(|v| (v.vec, v.size))
                else {
                    return;
                };
                let idx = args.get(1).map(|a| self.int(a));
                let Some(idx) = idx else { return };
                let p = args.get(2).map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
                let layout = self.value_layout(state);
                let (idx, size) = self.bounds_operands(idx, size_state);
                let ity = self.ty(idx);
                if op == "vec_get" {
                    // Native semantics: index >= size() gives a zero element.
                    let in_range = self.icmp(IntCC::Ult, idx, size);
                    let zero = self.iconst(ity, 0);
                    let safe = self.ins1(
                        InstKind::Select {
                            cond: in_range,
                            if_true: idx,
                            if_false: zero,
                        },
                        ity,
                    );
                    let vals = self.ins(
                        InstKind::VecGet { state, index: safe },
                        &layout.types().collect::<Vec<_>>(),
                    );
                    let vals: Vec<Value> = vals
                        .into_iter()
                        .map(|v| {
                            let ty = self.ty(v);
                            let z = self.iconst(ty, 0);
                            self.ins1(
                                InstKind::Select {
                                    cond: in_range,
                                    if_true: v,
                                    if_false: z,
                                },
                                ty,
                            )
                        })
                        .collect();
                    let fields: Vec<(u64, u64, Value)> = layout
                        .fields
                        .iter()
                        .zip(vals)
                        .map(|(f, v)| {
                            (u64::from(f.offset.unwrap_or(0)), u64::from(f.ty.bytes()), v)
                        })
                        .collect();
                    let one = self.iconst(Type::I1, 1);
                    self.write_if(one, &p, &fields);
                } else {
                    let vals = self.read_from(&p, &layout);
                    let in_range = self.icmp(IntCC::Ult, idx, size);
                    // Native semantics: set() past size() does nothing (and returns false).
                    let set_block = self.module.process.add_block();
                    let join = self.module.process.add_block();
                    // Locals are unchanged by the set, so both paths reach `join` with the
                    // same slot values, which dominate it: no block parameters needed.
                    self.ins(
                        InstKind::Brif {
                            cond: in_range,
                            then_dest: BlockCall::new(set_block, vec![]),
                            else_dest: BlockCall::new(join, vec![]),
                        },
                        &[],
                    );
                    self.cur = set_block;
                    self.ins(
                        InstKind::VecSet {
                            state,
                            index: idx,
                            value: vals,
                        },
                        &[],
                    );
                    self.ins(
                        InstKind::Jump {
                            dest: BlockCall::new(join, vec![]),
                        },
                        &[],
                    );
                    self.cur = join;
                    if let Some(d) = dest {
                        self.def(d, in_range);
                    }
                }
            }
            other => self.err(
                Code::UnsupportedInstruction,
                format!("NF API operation `tandem_api_{other}` is not known to this front end"),
            ),
        }
    }

    /// Writes `fields` (offset, width, value) to memory at `p`, each byte only if `cond`.
    fn write_if(&mut self, cond: Value, p: &Ptr, fields: &[(u64, u64, Value)]) {
        let Ptr::Alloca(a, base) = p else {
            if !matches!(p, Ptr::Null) {
                self.err(
                    Code::UntraceablePointer,
                    "an output argument that is not a local variable",
                );
            }
            return;
        };
        let base = (*base).max(0) as u64;
        let slots = self.allocas[*a].slots.clone();
        let shifted: Vec<(u64, u64, Value)> =
            fields.iter().map(|&(o, w, v)| (o + base, w, v)).collect();
        let lo = base;
        let hi = shifted.iter().map(|f| f.0 + f.1).max().unwrap_or(base);
        let always = self.const_value(cond) == Some(1);
        for (i, (so, sw)) in slots.into_iter().enumerate() {
            if !(so < hi && lo < so + sw) {
                continue;
            }
            let old = self.slots[*a][i];
            let mut pieces = vec![(so, sw, old)];
            pieces.extend(shifted.iter().copied());
            let new = self.compose(&pieces, so, sw);
            let v = if always {
                new
            } else {
                let ty = self.ty(new);
                self.ins1(
                    InstKind::Select {
                        cond,
                        if_true: new,
                        if_false: old,
                    },
                    ty,
                )
            };
            self.slots[*a][i] = v;
        }
    }

    fn translate_intrinsic(&mut self, name: &str, args: &[&Operand], dest: Option<&Name>) {
        let base = name.split('.').take(2).collect::<Vec<_>>().join(".");
        match base.as_str() {
            "llvm.dbg" | "llvm.lifetime" | "llvm.assume" | "llvm.experimental"
            | "llvm.prefetch" => {}
            "llvm.bswap" => {
                let a = self.int(args[0]);
                let v = self.bswap(a);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.umin" | "llvm.umax" | "llvm.smin" | "llvm.smax" => {
                let a = self.int(args[0]);
                let b = self.int(args[1]);
                let cc = match base.as_str() {
                    "llvm.umin" => IntCC::Ult,
                    "llvm.umax" => IntCC::Ugt,
                    "llvm.smin" => IntCC::Slt,
                    _ => IntCC::Sgt,
                };
                let c = self.icmp(cc, a, b);
                let ty = self.ty(a);
                let v = self.ins1(
                    InstKind::Select {
                        cond: c,
                        if_true: a,
                        if_false: b,
                    },
                    ty,
                );
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.abs" => {
                let a = self.int(args[0]);
                let ty = self.ty(a);
                let z = self.iconst(ty, 0);
                let neg = self.icmp(IntCC::Slt, a, z);
                let n = self.binary(BinOp::Sub, z, a);
                let v = self.ins1(
                    InstKind::Select {
                        cond: neg,
                        if_true: n,
                        if_false: a,
                    },
                    ty,
                );
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.fshl" | "llvm.fshr" => {
                // fshl(a, b, s) = a << s | b >> (w - s); fshr(a, b, s) = a << (w - s) | b >> s,
                // with s taken modulo w. The IR's shifts by w give 0, which makes s = 0 come
                // out right (a for fshl, b for fshr) with no special case.
                let a = self.int(args[0]);
                let b = self.int(args[1]);
                let s = self.int(args[2]);
                let ty = self.ty(a);
                let w = u64::from(ty.bits());
                let wc = self.iconst(ty, w);
                let s = if w.is_power_of_two() {
                    let m = self.iconst(ty, w - 1);
                    self.binary(BinOp::And, s, m)
                } else {
                    self.binary(BinOp::Urem, s, wc)
                };
                let rest = self.binary(BinOp::Sub, wc, s);
                let (l, r) = if base == "llvm.fshl" {
                    (s, rest)
                } else {
                    (rest, s)
                };
                let x = self.binary(BinOp::Shl, a, l);
                let y = self.binary(BinOp::Lshr, b, r);
                let v = self.binary(BinOp::Or, x, y);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.uadd" | "llvm.usub" | "llvm.sadd" | "llvm.ssub" if name.contains(".sat.") => {
                let a = self.int(args[0]);
                let b = self.int(args[1]);
                let v = self.saturating(&base, a, b);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.ctpop" => {
                let a = self.int(args[0]);
                let v = self.popcount(a);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.cttz" => {
                // cttz(x) = ctpop((x & -x) - 1): the mask of the trailing zeros (all ones for
                // x = 0, giving the width, LLVM's result when zero is not poison).
                let a = self.int(args[0]);
                let ty = self.ty(a);
                let z = self.iconst(ty, 0);
                let one = self.iconst(ty, 1);
                let neg = self.binary(BinOp::Sub, z, a);
                let low = self.binary(BinOp::And, a, neg);
                let mask = self.binary(BinOp::Sub, low, one);
                let v = self.popcount(mask);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.ctlz" => {
                // ctlz(x) = w - ctpop(x smeared right): the bits from the highest set one down
                // (0 for x = 0, giving the width).
                let a = self.int(args[0]);
                let ty = self.ty(a);
                let w = u64::from(ty.bits());
                let mut x = a;
                let mut sh = 1;
                while sh < w {
                    let c = self.iconst(ty, sh);
                    let y = self.binary(BinOp::Lshr, x, c);
                    x = self.binary(BinOp::Or, x, y);
                    sh *= 2;
                }
                let ones = self.popcount(x);
                let wc = self.iconst(ty, w);
                let v = self.binary(BinOp::Sub, wc, ones);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.memset" => {
                let p = self.ptr(args[0]);
                let byte = self.int(args[1]);
                let Some(n) = Self::const_u64(args[2]) else {
                    self.err(Code::VariableIndex, "memset with a run-time length");
                    return;
                };
                let mut off = 0u64;
                while off < n {
                    let w = (n - off).min(8);
                    let ty = ty_of_bytes(w);
                    let v = match self.const_value(byte) {
                        Some(b) => {
                            let pat = (0..w).fold(0u64, |acc, _| (acc << 8) | (b & 0xff));
                            self.iconst(ty, pat)
                        }
                        None => {
                            self.err(Code::UnsupportedInstruction, "memset with a run-time byte");
                            self.iconst(ty, 0)
                        }
                    };
                    self.store_ptr(&p, off as i64, w, v);
                    off += w;
                }
            }
            "llvm.memcpy" | "llvm.memmove" => {
                let d = self.ptr(args[0]);
                let s = self.ptr(args[1]);
                let Some(n) = Self::const_u64(args[2]) else {
                    self.err(Code::VariableIndex, "memcpy with a run-time length");
                    return;
                };
                let mut chunks = Vec::new();
                let mut off = 0u64;
                while off < n {
                    let w = (n - off).min(8);
                    let v = self.load_ptr(&s, off as i64, w);
                    chunks.push((off, w, v));
                    off += w;
                }
                for (off, w, v) in chunks {
                    self.store_ptr(&d, off as i64, w, v);
                }
            }
            _ => self.err(
                Code::UnsupportedInstruction,
                format!("the intrinsic `{name}`"),
            ),
        }
    }

    /// `llvm.{u,s}{add,sub}.sat` in integer operations: the wrapped result, or the bound it
    /// crossed.
    fn saturating(&mut self, base: &str, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        let w = ty.bits();
        let select = |l: &mut Self, cond, if_true, if_false| {
            l.ins1(
                InstKind::Select {
                    cond,
                    if_true,
                    if_false,
                },
                ty,
            )
        };
        match base {
            "llvm.uadd" => {
                let sum = self.binary(BinOp::Add, a, b);
                let carry = self.icmp(IntCC::Ult, sum, a);
                let max = self.iconst(ty, ty.mask());
                select(self, carry, max, sum)
            }
            "llvm.usub" => {
                let diff = self.binary(BinOp::Sub, a, b);
                let borrow = self.icmp(IntCC::Ult, a, b);
                let zero = self.iconst(ty, 0);
                select(self, borrow, zero, diff)
            }
            _ => {
                let add = base == "llvm.sadd";
                let r = self.binary(if add { BinOp::Add } else { BinOp::Sub }, a, b);
                // Overflow: add when a and b have the same sign and r another; sub when a and
                // b differ in sign and r differs from a.
                let ra = self.binary(BinOp::Xor, r, a);
                let other = if add {
                    self.binary(BinOp::Xor, r, b)
                } else {
                    self.binary(BinOp::Xor, a, b)
                };
                let both = self.binary(BinOp::And, ra, other);
                let zero = self.iconst(ty, 0);
                let ovf = self.icmp(IntCC::Slt, both, zero);
                let neg = self.icmp(IntCC::Slt, a, zero);
                let min = self.iconst(ty, 1u64 << (w - 1));
                let max = self.iconst(ty, ty.mask() >> 1);
                let bound = select(self, neg, min, max);
                select(self, ovf, bound, r)
            }
        }
    }

    /// The number of set bits of `v`, in `v`'s type (SWAR on 64 bits).
    fn popcount(&mut self, v: Value) -> Value {
        let ty = self.ty(v);
        let x = self.resize(v, Type::I64);
        let step = |l: &mut Self, x: Value, sh: u64, mask: u64| {
            let c = l.iconst(Type::I64, sh);
            let y = l.binary(BinOp::Lshr, x, c);
            let m = l.iconst(Type::I64, mask);
            (l.binary(BinOp::And, x, m), l.binary(BinOp::And, y, m))
        };
        // x - ((x >> 1) & 0x55..): two-bit counts.
        let c1 = self.iconst(Type::I64, 1);
        let h = self.binary(BinOp::Lshr, x, c1);
        let m1 = self.iconst(Type::I64, 0x5555_5555_5555_5555);
        let h = self.binary(BinOp::And, h, m1);
        let x = self.binary(BinOp::Sub, x, h);
        // Four-bit counts, then byte counts.
        let (lo, hi) = step(self, x, 2, 0x3333_3333_3333_3333);
        let x = self.binary(BinOp::Add, lo, hi);
        let c4 = self.iconst(Type::I64, 4);
        let y = self.binary(BinOp::Lshr, x, c4);
        let x = self.binary(BinOp::Add, x, y);
        let m4 = self.iconst(Type::I64, 0x0f0f_0f0f_0f0f_0f0f);
        let x = self.binary(BinOp::And, x, m4);
        // The sum of the byte counts in the top byte.
        let k = self.iconst(Type::I64, 0x0101_0101_0101_0101);
        let x = self.binary(BinOp::Mul, x, k);
        let c56 = self.iconst(Type::I64, 56);
        let n = self.binary(BinOp::Lshr, x, c56);
        self.resize(n, ty)
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
