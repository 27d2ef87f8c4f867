//! Modules, functions, blocks, values, and the [`FuncBuilder`] the lifter uses to build them.

use crate::{
    Arena, BinOp, Block, BlockCall, CastOp, Effect, FileId, Header, HeaderField, Inst, InstKind,
    IntCC, Meta, SourceLoc, StateId, StateKind, StateObject, Type, Value,
};

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Parameter number `.1` of block `.0`.
    Param(Block, usize),
    /// Result number `.1` of instruction `.0`.
    Result(Inst, usize),
    /// Defined by nothing: a gap in the numbering (e.g. left by the parser when the text skips
    /// a number, or by a pass that deleted the definition). Using it is a verifier error.
    Unused,
}

/// An SSA value's type and definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueData {
    /// Its type.
    pub ty: Type,
    /// Its definition.
    pub def: ValueDef,
}

/// One instruction: operation, results, and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstData {
    /// What it does, with its operands.
    pub kind: InstKind,
    /// The values it defines, in order.
    pub results: Vec<Value>,
    /// Source position in the C++ program, when known.
    pub loc: Option<SourceLoc>,
}

/// A basic block: parameters (the SSA join mechanism; there are no phis), then instructions,
/// the last of which is its only terminator.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BlockData {
    /// Block parameters, in order.
    pub params: Vec<Value>,
    /// The instructions, in execution order.
    pub insts: Vec<Inst>,
}

/// A function body. Block `block0` is the entry; blocks are printed in index order.
///
/// Instructions and values are owned by the function's arenas; an instruction is part of the
/// program only when it is listed in a block's `insts`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Function {
    /// The function's name (`process` for the per-packet program).
    pub name: String,
    /// All blocks.
    pub blocks: Arena<Block, BlockData>,
    /// All instructions.
    pub insts: Arena<Inst, InstData>,
    /// All values.
    pub values: Arena<Value, ValueData>,
}

impl Function {
    /// An empty function (no blocks yet).
    pub fn new(name: impl Into<String>) -> Function {
        Function {
            name: name.into(),
            ..Function::default()
        }
    }

    /// The entry block (`block0`), if the function has blocks.
    pub fn entry(&self) -> Option<Block> {
        self.blocks.keys().next()
    }

    /// Adds an empty block.
    pub fn add_block(&mut self) -> Block {
        self.blocks.push(BlockData::default())
    }

    /// Appends a parameter of type `ty` to `block` and returns it.
    pub fn add_block_param(&mut self, block: Block, ty: Type) -> Value {
        let idx = self.blocks[block].params.len();
        let v = self.values.push(ValueData {
            ty,
            def: ValueDef::Param(block, idx),
        });
        self.blocks[block].params.push(v);
        v
    }

    /// Creates an instruction with fresh results of the given types, appends it to `block`,
    /// and returns it.
    pub fn append_inst(
        &mut self,
        block: Block,
        kind: InstKind,
        result_types: &[Type],
        loc: Option<SourceLoc>,
    ) -> Inst {
        let inst = self.create_inst(kind, result_types, loc);
        self.blocks[block].insts.push(inst);
        inst
    }

    /// Creates an instruction with fresh results, without placing it in a block.
    pub fn create_inst(
        &mut self,
        kind: InstKind,
        result_types: &[Type],
        loc: Option<SourceLoc>,
    ) -> Inst {
        let inst = self.insts.next_key();
        let results = result_types
            .iter()
            .enumerate()
            .map(|(i, &ty)| {
                self.values.push(ValueData {
                    ty,
                    def: ValueDef::Result(inst, i),
                })
            })
            .collect();
        self.insts.push(InstData { kind, results, loc })
    }

    /// The results of `inst`.
    pub fn inst_results(&self, inst: Inst) -> &[Value] {
        self.insts
            .get(inst)
            .map(|d| d.results.as_slice())
            .unwrap_or(&[])
    }

    /// The type of `v`, if `v` exists.
    pub fn value_type(&self, v: Value) -> Option<Type> {
        self.values.get(v).map(|d| d.ty)
    }

    /// The last instruction of `block` if it is a terminator.
    pub fn terminator(&self, block: Block) -> Option<Inst> {
        let last = *self.blocks.get(block)?.insts.last()?;
        self.insts
            .get(last)
            .filter(|d| d.kind.is_terminator())
            .map(|_| last)
    }

    /// The blocks `block` branches to, in text order (duplicates kept).
    pub fn successors(&self, block: Block) -> Vec<Block> {
        self.terminator(block)
            .map(|t| {
                self.insts[t]
                    .kind
                    .successors()
                    .iter()
                    .map(|c| c.block)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Makes value number `v` exist (filling gaps with [`ValueDef::Unused`] `i1` values), for
    /// builders that choose value numbers themselves, such as the parser.
    pub fn reserve_value(&mut self, v: Value) {
        while self.values.len() <= v.index_usize() {
            self.values.push(ValueData {
                ty: Type::I1,
                def: ValueDef::Unused,
            });
        }
    }
}

impl Value {
    fn index_usize(self) -> usize {
        crate::EntityRef::index(self)
    }
}

/// The NF's periodic timer: `on_timer`, run at every multiple of `interval_ns` that packet
/// time passes, before the packet that passes it (the reference host's rule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timer {
    /// The tick period in nanoseconds (the NF's `kTimerInterval`), at least 1.
    pub interval_ns: u64,
    /// The function run at each tick (named `on_timer`). It has no packet: it reads and
    /// writes state only, and `meta.read now` is the tick's time.
    pub func: Function,
}

/// Which function of a module: the per-packet `process` or the timer's `on_timer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FuncId {
    /// `process`, run once per packet.
    Process,
    /// `on_timer`, run at each timer tick ([`Module::timer`]).
    Timer,
}

/// A whole NF: its state, its per-packet `process` function, its timer function (if any) and
/// its server-only functions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// The NF's name (an identifier).
    pub name: String,
    /// Source files referenced by [`SourceLoc`]s.
    pub files: Arena<FileId, String>,
    /// Global state objects, in declaration order.
    pub states: Arena<StateId, StateObject>,
    /// The per-packet program.
    pub process: Function,
    /// The periodic timer (`on_timer`), when the NF has one.
    pub timer: Option<Timer>,
    /// Names of functions that exist only on the server and are not lifted (`configure`,
    /// ...), in declaration order.
    pub server_functions: Vec<String>,
    /// Headers the NF declared, in declaration order (built-in headers are not listed).
    pub headers: Vec<Header>,
    /// The NF's parse-graph edges, in the order they are tried (the built-in edges are
    /// implied: [`crate::parse_graph`]).
    pub parse_edges: Vec<crate::ParseEdge>,
}

impl Module {
    /// A module named `name` with an empty `process` function.
    pub fn new(name: impl Into<String>) -> Module {
        Module {
            name: name.into(),
            files: Arena::new(),
            states: Arena::new(),
            process: Function::new("process"),
            timer: None,
            server_functions: Vec::new(),
            headers: Vec::new(),
            parse_edges: Vec::new(),
        }
    }

    /// A function of the module (`None`: the module has no timer).
    pub fn func(&self, id: FuncId) -> Option<&Function> {
        match id {
            FuncId::Process => Some(&self.process),
            FuncId::Timer => self.timer.as_ref().map(|t| &t.func),
        }
    }

    /// A function of the module, mutably.
    pub fn func_mut(&mut self, id: FuncId) -> Option<&mut Function> {
        match id {
            FuncId::Process => Some(&mut self.process),
            FuncId::Timer => self.timer.as_mut().map(|t| &mut t.func),
        }
    }

    /// Every function with its id: `process`, then `on_timer` when there is a timer.
    pub fn functions(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        std::iter::once((FuncId::Process, &self.process))
            .chain(self.timer.as_ref().map(|t| (FuncId::Timer, &t.func)))
    }

    /// The timer's period in ns (0: no timer).
    pub fn timer_interval_ns(&self) -> u64 {
        self.timer.as_ref().map_or(0, |t| t.interval_ns)
    }

    /// The state objects `on_timer` may read and write (its instructions' effects), each
    /// sorted and without duplicates; both empty without a timer.
    pub fn timer_state_effects(&self) -> (Vec<StateId>, Vec<StateId>) {
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        let Some(t) = &self.timer else {
            return (reads, writes);
        };
        let all: Vec<StateId> = self.states.keys().collect();
        for (_, b) in t.func.blocks.iter() {
            for &i in &b.insts {
                let Some(d) = t.func.insts.get(i) else {
                    continue;
                };
                let e = self.inst_effects(&d.kind);
                for (list, out) in [(&e.reads, &mut reads), (&e.writes, &mut writes)] {
                    for eff in list {
                        match eff {
                            Effect::State(s) => out.push(*s),
                            Effect::All => out.extend(all.iter().copied()),
                            _ => {}
                        }
                    }
                }
            }
        }
        for v in [&mut reads, &mut writes] {
            v.sort();
            v.dedup();
        }
        (reads, writes)
    }

    /// The header named `name`: a built-in one or one this module declares.
    pub fn header_by_name(&self, name: &str) -> Option<Header> {
        Header::from_name(name).or_else(|| self.headers.iter().copied().find(|h| h.name() == name))
    }

    /// The field named `header.field` of a built-in or declared header.
    pub fn field_by_name(&self, name: &str) -> Option<HeaderField> {
        let (h, f) = name.split_once('.')?;
        self.header_by_name(h)?.field(f)
    }

    /// Interns a file path and returns its id.
    pub fn add_file(&mut self, path: impl Into<String>) -> FileId {
        let path = path.into();
        if let Some((id, _)) = self.files.iter().find(|(_, p)| **p == path) {
            return id;
        }
        self.files.push(path)
    }

    /// Declares a state object.
    pub fn add_state(&mut self, name: impl Into<String>, kind: StateKind) -> StateId {
        self.states.push(StateObject {
            name: name.into(),
            kind,
        })
    }

    /// Finds a state object by name.
    pub fn state_by_name(&self, name: &str) -> Option<StateId> {
        self.states
            .iter()
            .find(|(_, s)| s.name == name)
            .map(|(id, _)| id)
    }

    /// Records a server-only function by name.
    pub fn add_server_function(&mut self, name: impl Into<String>) {
        self.server_functions.push(name.into());
    }

    /// A builder appending to `process`, positioned at its entry block (created if needed).
    pub fn builder(&mut self) -> FuncBuilder<'_> {
        FuncBuilder::new(self)
    }

    /// Gives the module a timer run every `interval_ns` (an empty `on_timer`, replacing any
    /// timer it had) and returns a builder appending to it.
    pub fn timer_builder(&mut self, interval_ns: u64) -> FuncBuilder<'_> {
        self.timer = Some(Timer {
            interval_ns,
            func: Function::new("on_timer"),
        });
        FuncBuilder::for_func(self, FuncId::Timer)
    }
}

/// Appends instructions to a module's `process` function (or, from
/// [`Module::timer_builder`], its `on_timer`), inferring result types.
///
/// The builder never fails: ill-typed operands produce ill-typed instructions that
/// [`crate::verify_module`] reports. Every instruction gets the builder's current source
/// location ([`FuncBuilder::set_loc`]).
///
/// ```
/// use tandem_ir::*;
/// let mut m = Module::new("ttl");
/// let mut b = m.builder();
/// let ttl = b.hdr_read(HeaderField::Ipv4Ttl);
/// let one = b.iconst(Type::I8, 1);
/// let dec = b.binary(BinOp::Sub, ttl, one);
/// b.hdr_write(HeaderField::Ipv4Ttl, dec);
/// let port = b.iconst(Type::I16, 1);
/// b.send(port);
/// b.ret();
/// assert!(verify_module(&m).is_ok());
/// ```
pub struct FuncBuilder<'m> {
    module: &'m mut Module,
    which: FuncId,
    block: Block,
    loc: Option<SourceLoc>,
}

impl<'m> FuncBuilder<'m> {
    /// A builder for `module.process`, positioned at the end of its entry block.
    pub fn new(module: &'m mut Module) -> FuncBuilder<'m> {
        FuncBuilder::for_func(module, FuncId::Process)
    }

    /// A builder for one of the module's functions (an absent timer builds into a new empty
    /// one with interval 1), positioned at the end of its entry block.
    pub fn for_func(module: &'m mut Module, which: FuncId) -> FuncBuilder<'m> {
        if which == FuncId::Timer && module.timer.is_none() {
            module.timer = Some(Timer {
                interval_ns: 1,
                func: Function::new("on_timer"),
            });
        }
        let mut b = FuncBuilder {
            module,
            which,
            block: Block::from_u32(0),
            loc: None,
        };
        b.block = match b.f().entry() {
            Some(e) => e,
            None => b.f_mut().add_block(),
        };
        b
    }

    fn f(&self) -> &Function {
        match self.which {
            FuncId::Process => &self.module.process,
            FuncId::Timer => match &self.module.timer {
                Some(t) => &t.func,
                None => &self.module.process,
            },
        }
    }

    fn f_mut(&mut self) -> &mut Function {
        match (self.which, &mut self.module.timer) {
            (FuncId::Timer, Some(t)) => &mut t.func,
            _ => &mut self.module.process,
        }
    }

    /// The function being built.
    pub fn func(&self) -> &Function {
        self.f()
    }

    /// The module being built.
    pub fn module(&self) -> &Module {
        self.module
    }

    /// Creates a new empty block (does not switch to it).
    pub fn create_block(&mut self) -> Block {
        self.f_mut().add_block()
    }

    /// Makes subsequent instructions go to the end of `block`.
    pub fn switch_to_block(&mut self, block: Block) {
        self.block = block;
    }

    /// The block instructions are appended to.
    pub fn current_block(&self) -> Block {
        self.block
    }

    /// Appends a parameter to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        self.f_mut().add_block_param(block, ty)
    }

    /// Sets the source location given to subsequent instructions.
    pub fn set_loc(&mut self, loc: Option<SourceLoc>) {
        self.loc = loc;
    }

    /// Appends any instruction with explicit result types.
    pub fn ins(&mut self, kind: InstKind, result_types: &[Type]) -> Inst {
        let (block, loc) = (self.block, self.loc);
        self.f_mut().append_inst(block, kind, result_types, loc)
    }

    fn ins1(&mut self, kind: InstKind, ty: Type) -> Value {
        let i = self.ins(kind, &[ty]);
        self.f().inst_results(i)[0]
    }

    fn ty(&self, v: Value) -> Type {
        self.f().value_type(v).unwrap_or(Type::I1)
    }

    fn layout_types(&self, state: StateId, value_part: bool) -> Vec<Type> {
        match self.module.states.get(state).map(|s| &s.kind) {
            Some(StateKind::HashMap { key, value, .. })
            | Some(StateKind::ExpiringMap { key, value, .. })
            | Some(StateKind::LpmMap { key, value, .. })
            | Some(StateKind::TernaryMap { key, value, .. })
            | Some(StateKind::RangeMap { key, value, .. }) => {
                if value_part {
                    value.types().collect()
                } else {
                    key.types().collect()
                }
            }
            Some(StateKind::Vector { elem, .. }) => elem.types().collect(),
            Some(StateKind::Scalar { ty }) => vec![*ty],
            Some(StateKind::Meter { .. }) | None => Vec::new(),
        }
    }

    /// `const`: the constant `imm` (wrapped to `ty`).
    pub fn iconst(&mut self, ty: Type, imm: u64) -> Value {
        self.ins1(InstKind::Const { imm: ty.wrap(imm) }, ty)
    }

    /// A binary operation; the result has `a`'s type.
    pub fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.ins1(InstKind::Binary { op, args: [a, b] }, ty)
    }

    /// `icmp pred a, b` (result `i1`).
    pub fn icmp(&mut self, pred: IntCC, a: Value, b: Value) -> Value {
        self.ins1(InstKind::Icmp { pred, args: [a, b] }, Type::I1)
    }

    /// `zext`/`sext`/`trunc` of `a` to `to`.
    pub fn cast(&mut self, op: CastOp, a: Value, to: Type) -> Value {
        self.ins1(InstKind::Cast { op, arg: a }, to)
    }

    /// `select cond, a, b`.
    pub fn select(&mut self, cond: Value, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.ins1(
            InstKind::Select {
                cond,
                if_true: a,
                if_false: b,
            },
            ty,
        )
    }

    /// `bswap a`.
    pub fn bswap(&mut self, a: Value) -> Value {
        let ty = self.ty(a);
        self.ins1(InstKind::Bswap { arg: a }, ty)
    }

    /// `hash algo(args...)`.
    pub fn hash(&mut self, algo: crate::HashAlgo, args: &[Value]) -> Value {
        self.ins1(
            InstKind::Hash {
                algo,
                args: args.to_vec(),
            },
            algo.result_type(),
        )
    }

    /// `hdr.read field`.
    pub fn hdr_read(&mut self, field: HeaderField) -> Value {
        self.ins1(InstKind::HdrRead { field }, field.ty())
    }

    /// `hdr.write field, value`.
    pub fn hdr_write(&mut self, field: HeaderField, value: Value) -> Inst {
        self.ins(InstKind::HdrWrite { field, value }, &[])
    }

    /// `hdr.valid header`.
    pub fn hdr_valid(&mut self, header: Header) -> Value {
        self.ins1(InstKind::HdrValid { header }, Type::I1)
    }

    /// `meta.read item`.
    pub fn meta_read(&mut self, meta: Meta) -> Value {
        self.ins1(InstKind::MetaRead { meta }, meta.ty())
    }

    /// `map.find`: returns the hit flag and the value fields.
    pub fn map_find(&mut self, state: StateId, key: &[Value]) -> (Value, Vec<Value>) {
        let mut tys = vec![Type::I1];
        tys.extend(self.layout_types(state, true));
        let i = self.ins(
            InstKind::MapFind {
                state,
                key: key.to_vec(),
            },
            &tys,
        );
        let r = self.f().inst_results(i);
        (r[0], r[1..].to_vec())
    }

    /// `map.insert`: returns the `ok` flag.
    pub fn map_insert(&mut self, state: StateId, key: &[Value], value: &[Value]) -> Value {
        let kind = InstKind::MapInsert {
            state,
            key: key.to_vec(),
            value: value.to_vec(),
        };
        self.ins1(kind, Type::I1)
    }

    /// `map.erase`.
    pub fn map_erase(&mut self, state: StateId, key: &[Value]) -> Inst {
        self.ins(
            InstKind::MapErase {
                state,
                key: key.to_vec(),
            },
            &[],
        )
    }

    /// `vec.get`: returns the element fields.
    pub fn vec_get(&mut self, state: StateId, index: Value) -> Vec<Value> {
        let tys = self.layout_types(state, false);
        let i = self.ins(InstKind::VecGet { state, index }, &tys);
        self.f().inst_results(i).to_vec()
    }

    /// `vec.set`.
    pub fn vec_set(&mut self, state: StateId, index: Value, value: &[Value]) -> Inst {
        self.ins(
            InstKind::VecSet {
                state,
                index,
                value: value.to_vec(),
            },
            &[],
        )
    }

    /// `meter.execute`: the colour (`i8`).
    pub fn meter_execute(&mut self, state: StateId, index: Value) -> Value {
        self.ins1(InstKind::MeterExecute { state, index }, Type::I8)
    }

    /// `scalar.load`.
    pub fn scalar_load(&mut self, state: StateId) -> Value {
        let ty = self
            .layout_types(state, false)
            .first()
            .copied()
            .unwrap_or(Type::I1);
        self.ins1(InstKind::ScalarLoad { state }, ty)
    }

    /// `scalar.store`.
    pub fn scalar_store(&mut self, state: StateId, value: Value) -> Inst {
        self.ins(InstKind::ScalarStore { state, value }, &[])
    }

    /// `send port`.
    pub fn send(&mut self, port: Value) -> Inst {
        self.ins(InstKind::Send { port }, &[])
    }

    /// `drop`.
    pub fn drop_packet(&mut self) -> Inst {
        self.ins(InstKind::Drop, &[])
    }

    /// `opaque "name"(args) reads [..] writes [..]` with results of `result_types`.
    pub fn opaque(
        &mut self,
        name: impl Into<String>,
        args: &[Value],
        result_types: &[Type],
        reads: Vec<Effect>,
        writes: Vec<Effect>,
    ) -> Vec<Value> {
        let kind = InstKind::Opaque {
            name: name.into(),
            args: args.to_vec(),
            reads,
            writes,
        };
        let i = self.ins(kind, result_types);
        self.f().inst_results(i).to_vec()
    }

    /// `br block(args)`.
    pub fn jump(&mut self, block: Block, args: &[Value]) -> Inst {
        self.ins(
            InstKind::Jump {
                dest: BlockCall::new(block, args.to_vec()),
            },
            &[],
        )
    }

    /// `brif cond, then(args), else(args)`.
    pub fn brif(
        &mut self,
        cond: Value,
        then_block: Block,
        then_args: &[Value],
        else_block: Block,
        else_args: &[Value],
    ) -> Inst {
        let kind = InstKind::Brif {
            cond,
            then_dest: BlockCall::new(then_block, then_args.to_vec()),
            else_dest: BlockCall::new(else_block, else_args.to_vec()),
        };
        self.ins(kind, &[])
    }

    /// `switch arg, default, [cases]`.
    pub fn switch(&mut self, arg: Value, default: BlockCall, cases: Vec<(u64, BlockCall)>) -> Inst {
        self.ins(
            InstKind::Switch {
                arg,
                default,
                cases,
            },
            &[],
        )
    }

    /// `return`.
    pub fn ret(&mut self) -> Inst {
        self.ins(InstKind::Return, &[])
    }
}

/// What one instruction may read and write, by the semantic contract — the raw material of
/// dependency analysis. Values (SSA operands) are not listed; they are explicit in the IR.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstEffects {
    /// Locations read.
    pub reads: Vec<Effect>,
    /// Locations written.
    pub writes: Vec<Effect>,
}

impl Module {
    /// The read and write sets of an instruction of this module.
    ///
    /// Packet metadata never changes, so `meta.read` has no effects; `hdr.valid` reads the
    /// `layout`, which `hdr.push`/`hdr.pop` read and write (with every field of their header:
    /// a pushed header's fields become 0, a popped one's read 0). `map.find` on an
    /// **expiring** map also writes it (a hit refreshes the entry's last-use time);
    /// `map.insert` reads and writes its map (capacity check, expiry); `map.erase` writes it;
    /// `meter.execute` reads and writes its meter array (the packet's time and arrival
    /// length it also reads never change). `send`/`drop` write `action`. `opaque` has its
    /// declared sets.
    pub fn inst_effects(&self, kind: &InstKind) -> InstEffects {
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        match kind {
            InstKind::HdrRead { field } => reads.push(Effect::Field(*field)),
            InstKind::HdrWrite { field, .. } => writes.push(Effect::Field(*field)),
            InstKind::MapFind { state, .. } => {
                reads.push(Effect::State(*state));
                if matches!(
                    self.states.get(*state).map(|s| &s.kind),
                    Some(StateKind::ExpiringMap { .. })
                ) {
                    writes.push(Effect::State(*state));
                }
            }
            InstKind::MapInsert { state, .. } => {
                reads.push(Effect::State(*state));
                writes.push(Effect::State(*state));
            }
            InstKind::MapErase { state, .. }
            | InstKind::VecSet { state, .. }
            | InstKind::ScalarStore { state, .. } => writes.push(Effect::State(*state)),
            InstKind::VecGet { state, .. } | InstKind::ScalarLoad { state } => {
                reads.push(Effect::State(*state))
            }
            InstKind::MeterExecute { state, .. } => {
                reads.push(Effect::State(*state));
                writes.push(Effect::State(*state));
            }
            InstKind::HdrValid { .. } => reads.push(Effect::Layout),
            InstKind::HdrPush { header } | InstKind::HdrPop { header } => {
                reads.push(Effect::Layout);
                writes.push(Effect::Layout);
                writes.extend(header.fields().map(Effect::Field));
            }
            InstKind::Send { .. } | InstKind::Drop => writes.push(Effect::Action),
            InstKind::Opaque {
                reads: r,
                writes: w,
                ..
            } => {
                reads.clone_from(r);
                writes.clone_from(w);
            }
            InstKind::Const { .. }
            | InstKind::Binary { .. }
            | InstKind::Icmp { .. }
            | InstKind::Cast { .. }
            | InstKind::Select { .. }
            | InstKind::Bswap { .. }
            | InstKind::Hash { .. }
            | InstKind::MetaRead { .. }
            | InstKind::Jump { .. }
            | InstKind::Brif { .. }
            | InstKind::Switch { .. }
            | InstKind::Return => {}
        }
        InstEffects { reads, writes }
    }
}
