//! `specialize_state_classes`: the switch stores a map's derived state class, the server keeps
//! the full value (CoFilter §III-B, with the classes derived by
//! [`tandem_analysis::classes`]).
//!
//! The pass adds a map `NAME__class` (same key, same capacity and expiry, one `i8` value:
//! the class index) and rewrites the module so that:
//! - `process` starts with a dispatcher: it computes the map's key, looks the class up, and
//!   runs, for that class, the decision diagram the analysis derived — straight to a fate
//!   (port, header writes) for packets that change nothing, or into the original `process`
//!   (unchanged) for packets that visit the server (they change state: control packets) and
//!   for values outside the analysed domain;
//! - every `map.insert NAME` (in `process` and `on_timer`) is followed, when it succeeded, by
//!   `map.insert NAME__class` of the new value's class, and every `map.erase NAME` by
//!   `map.erase NAME__class`: the server publishes the class whenever its update changes
//!   it, through the runtime's usual atomic batches.
//!
//! The partitioner then places the dispatcher on the switch (a class lookup and branches on
//! packet bits) and the original code on the server; [`crate::partition_module`] keeps the
//! rewrite only when more packets stay on the switch.
//!
//! Before (a door lock keyed by user, `mode` 1..=4):
//!
//! ```text
//! block0:
//!     v0:i32 = hdr.read ipv4.saddr
//!     v1:i1, v2:i8, v3:i8 = map.find locks(v0)
//!     ... branches on v2, v3 and tcp.flags; map.insert locks(v0) -> (v11, v16) ...
//! ```
//!
//! After:
//!
//! ```text
//! block0:
//!     v40:i32 = hdr.read ipv4.saddr
//!     v41:i8 = hdr.read tcp.flags
//!     v42:i1 = icmp eq v41, 0
//!     v43:i1, v44:i8 = map.find locks__class(v40)
//!     brif v43, block21, block22          ; present: by class; absent: class c0's diagram
//! block21:
//!     switch v44, block20, [0: block22, 1: block23, 2: block24]   ; unknown -> original
//! block23:
//!     brif v42, block25, block20          ; use request: send 1; control: the original code
//! block20:                                ; the original block0, unchanged
//!     v0:i32 = hdr.read ipv4.saddr
//!     v1:i1, v2:i8, v3:i8 = map.find locks(v0)
//!     ...
//!     v17:i1 = map.insert locks(v0) -> (v11, v16)
//!     ... v50:i8 = the class of (v11, v16) ...
//!     brif v17, block26, block27
//! block26:
//!     v51:i1 = map.insert locks__class(v0) -> (v50)
//!     br block27
//! ```

use std::collections::HashMap;
use tandem_analysis::classes::{Atom, Derivation, Leaf, NodeId, NodeView, Term, TermId};
use tandem_ir::{
    Block, BlockCall, FuncBuilder, FuncId, Function, InstKind, Layout, Module, StateId, StateKind,
    Type, Value,
};
use thiserror::Error;

/// The suffix of the class map's name (`conns` → `conns__class`).
pub const CLASS_SUFFIX: &str = "__class";

/// Why a map cannot be specialised (it keeps today's placement).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SpecializeError {
    /// The module already has a state of the class map's name.
    #[error("a state named `{0}` exists already")]
    NameTaken(String),
    /// No packet looks the map up, so there is nothing to dispatch on.
    #[error("no run of `process` looks the map up")]
    NoLookup,
    /// Neither `process` nor `on_timer` inserts into the map: its entries come from
    /// `configure` or the control plane, whose classes nobody would publish.
    #[error("the NF's code never inserts into the map (its entries come from configuration)")]
    NotLearned,
    /// More classes than an `i8` index holds.
    #[error("{0} classes do not fit an 8-bit class index")]
    TooManyClasses(usize),
    /// The bounded value fields are wider than 64 bits together.
    #[error("the bounded value fields are {0} bits together, more than 64")]
    WideValue(u32),
    /// A behaviour mentions something the dispatcher cannot compute.
    #[error("the switch-side behaviour uses {0}")]
    Unsupported(String),
    /// `process` updates registers or meters, which the switch could do itself: the
    /// dispatcher treats every state update as "visit the server", so it would send those
    /// packets to the server.
    #[error("`process` updates a register, vector or meter, which the dispatcher would send to the server")]
    SwitchWrites,
    /// The dispatcher would nest deeper or have more nodes than a switch program should
    /// (every level is a nested branch in P4).
    #[error("the class dispatcher needs {depth} nested branches and {nodes} nodes (limits {max_depth} and {max_nodes})", max_depth = MAX_DEPTH, max_nodes = MAX_NODES)]
    TooComplex {
        /// Longest branch chain.
        depth: usize,
        /// Diagram nodes.
        nodes: usize,
    },
    /// The rewritten module does not verify (an internal error).
    #[error("the rewritten module does not verify: {0}")]
    Verify(String),
}

/// Longest chain of nested branches a dispatcher may have.
pub const MAX_DEPTH: usize = 40;
/// Most diagram nodes a dispatcher may have.
pub const MAX_NODES: usize = 2048;

/// Depth and node count of the diagrams under the roots.
fn diagram_size(d: &Derivation) -> (usize, usize) {
    fn walk(d: &Derivation, n: NodeId, memo: &mut HashMap<NodeId, usize>) -> usize {
        if let Some(&k) = memo.get(&n) {
            return k;
        }
        let k = match d.node(n) {
            NodeView::Leaf(_) => 0,
            NodeView::Branch { hi, lo, .. } => 1 + walk(d, hi, memo).max(walk(d, lo, memo)),
        };
        memo.insert(n, k);
        k
    }
    let mut memo = HashMap::new();
    let max = d
        .roots
        .iter()
        .map(|&r| walk(d, r, &mut memo))
        .max()
        .unwrap_or(0);
    (max, memo.len())
}

/// Rewrites `module` so the switch keeps `d`'s map as classes (see the module docs).
pub fn specialize_state_classes(
    module: &Module,
    d: &Derivation,
) -> Result<Module, SpecializeError> {
    let c = &d.classes;
    let (depth, nodes) = diagram_size(d);
    if depth > MAX_DEPTH || nodes > MAX_NODES {
        return Err(SpecializeError::TooComplex { depth, nodes });
    }
    if c.classes.len() > 255 {
        return Err(SpecializeError::TooManyClasses(c.classes.len()));
    }
    let key = d.key.clone().ok_or(SpecializeError::NoLookup)?;
    let learned = module.functions().any(|(_, f)| {
        f.insts
            .iter()
            .any(|(_, i)| matches!(&i.kind, InstKind::MapInsert { state, .. } if *state == c.state))
    });
    if !learned {
        return Err(SpecializeError::NotLearned);
    }
    let switch_writes = module.process.insts.iter().any(|(_, i)| {
        matches!(
            i.kind,
            InstKind::VecSet { .. } | InstKind::ScalarStore { .. } | InstKind::MeterExecute { .. }
        )
    });
    if switch_writes {
        return Err(SpecializeError::SwitchWrites);
    }
    let name = format!("{}{CLASS_SUFFIX}", c.name);
    if module.state_by_name(&name).is_some() {
        return Err(SpecializeError::NameTaken(name));
    }
    let obj = module
        .states
        .get(c.state)
        .ok_or_else(|| SpecializeError::Unsupported("an unknown state".into()))?;
    let class_layout = Layout::with_offsets([("class", Type::I8, 0)], 1);
    let kind = match &obj.kind {
        StateKind::HashMap { key, capacity, .. } => StateKind::HashMap {
            key: key.clone(),
            value: class_layout,
            capacity: *capacity,
        },
        StateKind::ExpiringMap {
            key,
            capacity,
            idle_timeout_ns,
            ..
        } => StateKind::ExpiringMap {
            key: key.clone(),
            value: class_layout,
            capacity: *capacity,
            idle_timeout_ns: *idle_timeout_ns,
        },
        _ => {
            return Err(SpecializeError::Unsupported(
                "a state that is not a map".into(),
            ))
        }
    };
    let mut m = module.clone();
    let class_map = m.add_state(name, kind);
    let classify = Classify::new(d)?;
    classify.add_class_writes(&mut m.process, c.state, class_map);
    if let Some(t) = &mut m.timer {
        classify.add_class_writes(&mut t.func, c.state, class_map);
    }
    let orig = move_entry(&mut m.process);
    let mut b = FuncBuilder::new(&mut m);
    // Every path of the dispatcher meets at `tail(to_server)`: the original code runs only
    // when the diagram said "server", and the partitions that do not run the dispatcher
    // (the server) skip it to its post-dominator, needing one bit, not its conditions.
    let tail = b.create_block();
    let to_server = b.append_block_param(tail, Type::I1);
    let done = b.create_block();
    let server = b.create_block();
    let here = b.current_block();
    b.switch_to_block(tail);
    b.brif(to_server, orig, &[], done, &[]);
    b.switch_to_block(done);
    b.ret();
    b.switch_to_block(server);
    let one = b.iconst(Type::I1, 1);
    b.jump(tail, &[one]);
    b.switch_to_block(here);
    let mut gen = Dispatcher {
        d,
        orig: server,
        tail,
        terms: HashMap::new(),
        results: HashMap::new(),
        blocks: HashMap::new(),
        module,
    };
    // Every term the diagrams use, straight-line in the entry block (they only read the
    // packet, configuration and other state), then the class lookup and the dispatch.
    let mut needed = key.clone();
    for &r in &d.roots {
        gen.collect(r, &mut needed);
    }
    for &t in &needed {
        gen.term(&mut b, t)?;
    }
    let key_vals: Vec<Value> = key.iter().map(|t| gen.terms[t]).collect();
    let (hit, fields) = b.map_find(class_map, &key_vals);
    let absent = c.absent_class().unwrap_or(0);
    let present = b.create_block();
    let absent_block = gen.block(&mut b, d.roots[absent])?;
    b.brif(hit, present, &[], absent_block, &[]);
    let mut cases = Vec::new();
    for (k, &root) in d.roots.iter().enumerate() {
        let blk = gen.block(&mut b, root)?;
        cases.push((k as u64, BlockCall::new(blk, Vec::new())));
    }
    b.switch_to_block(present);
    b.switch(fields[0], BlockCall::new(server, Vec::new()), cases);
    tandem_ir::verify_module(&m).map_err(|e| SpecializeError::Verify(e.to_string()))?;
    Ok(m)
}

/// Moves the entry block's instructions to a new block (branches to the entry follow) and
/// returns it; the entry is left empty.
fn move_entry(f: &mut Function) -> Block {
    let entry = f.entry().unwrap_or_else(|| f.add_block());
    let orig = f.add_block();
    let insts = std::mem::take(&mut f.blocks[entry].insts);
    f.blocks[orig].insts = insts;
    let all: Vec<tandem_ir::Inst> = f.blocks.iter().flat_map(|(_, b)| b.insts.clone()).collect();
    for i in all {
        let retarget = |c: &mut BlockCall| {
            if c.block == entry {
                c.block = orig;
            }
        };
        match &mut f.insts[i].kind {
            InstKind::Jump { dest } => retarget(dest),
            InstKind::Brif {
                then_dest,
                else_dest,
                ..
            } => {
                retarget(then_dest);
                retarget(else_dest);
            }
            InstKind::Switch { default, cases, .. } => {
                retarget(default);
                cases.iter_mut().for_each(|(_, c)| retarget(c));
            }
            _ => {}
        }
    }
    orig
}

/// The class of a value, as IR: the bounded fields packed into one integer, compared with
/// each member.
struct Classify {
    /// `(field index, bits)` of the bounded fields, packed most significant first.
    fields: Vec<(usize, u32)>,
    /// `(packed member, class)`.
    members: Vec<(u64, u64)>,
    /// The class of values outside the domain: a number no class has (the dispatcher sends
    /// it to the original code).
    unknown: u64,
}

impl Classify {
    fn new(d: &Derivation) -> Result<Classify, SpecializeError> {
        let fields: Vec<(usize, u32)> = d
            .classes
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.values.is_some())
            .map(|(i, f)| (i, f.bits))
            .collect();
        let total: u32 = fields.iter().map(|f| f.1).sum();
        if total > 64 {
            return Err(SpecializeError::WideValue(total));
        }
        let mut members = Vec::new();
        for (k, class) in d.classes.classes.iter().enumerate() {
            for m in &class.members {
                let packed = m
                    .iter()
                    .zip(&fields)
                    .fold(0u64, |acc, (&v, &(_, bits))| (acc << bits.min(63)) | v);
                members.push((packed, k as u64));
            }
        }
        Ok(Classify {
            fields,
            members,
            unknown: d.classes.classes.len() as u64,
        })
    }

    /// After every insert into `map`, the insert of the class (when the insert succeeded);
    /// after every erase, the erase of the class.
    fn add_class_writes(&self, f: &mut Function, map: StateId, class_map: StateId) {
        let sites: Vec<tandem_ir::Inst> = f
            .blocks
            .iter()
            .flat_map(|(_, b)| b.insts.clone())
            .filter(|&i| {
                matches!(&f.insts[i].kind,
                    InstKind::MapInsert { state, .. } | InstKind::MapErase { state, .. } if *state == map)
            })
            .collect();
        for site in sites {
            let Some((block, pos)) = f
                .blocks
                .iter()
                .find_map(|(b, d)| d.insts.iter().position(|&i| i == site).map(|p| (b, p)))
            else {
                continue;
            };
            let loc = f.insts[site].loc;
            match f.insts[site].kind.clone() {
                InstKind::MapErase { key, .. } => {
                    let e = f.create_inst(
                        InstKind::MapErase {
                            state: class_map,
                            key,
                        },
                        &[],
                        loc,
                    );
                    f.blocks[block].insts.insert(pos + 1, e);
                }
                InstKind::MapInsert { key, value, .. } => {
                    // block: ..., insert, brif ok, classify, rest
                    // classify: packed = the bounded fields,
                    //           switch packed -> one block per class (default: unknown)
                    // class k: br put(k)
                    // put(class): map.insert NAME__class(key) -> (class); br rest
                    // rest: what followed the insert
                    // (the classification depends on the insert's result, so it runs where
                    // the insert runs: on the server.)
                    let ok = f.inst_results(site)[0];
                    let tail: Vec<_> = f.blocks[block].insts.split_off(pos + 1);
                    let rest = f.add_block();
                    f.blocks[rest].insts = tail;
                    let classify = f.add_block();
                    let put = f.add_block();
                    let class = f.add_block_param(put, Type::I8);
                    let jump = |f: &mut Function, from: Block, to: Block, args: Vec<Value>| {
                        f.append_inst(
                            from,
                            InstKind::Jump {
                                dest: BlockCall::new(to, args),
                            },
                            &[],
                            loc,
                        );
                    };
                    f.append_inst(
                        block,
                        InstKind::Brif {
                            cond: ok,
                            then_dest: BlockCall::new(classify, Vec::new()),
                            else_dest: BlockCall::new(rest, Vec::new()),
                        },
                        &[],
                        loc,
                    );
                    let mut new = Vec::new();
                    let packed = self.emit_packed(f, &value, loc, &mut new);
                    f.blocks[classify].insts.extend(new);
                    let mut class_blocks = Vec::new();
                    for k in 0..=self.unknown {
                        let cb = f.add_block();
                        let kv = f.append_inst(cb, InstKind::Const { imm: k }, &[Type::I8], loc);
                        let kv = f.inst_results(kv)[0];
                        jump(f, cb, put, vec![kv]);
                        class_blocks.push(cb);
                    }
                    let cases = self
                        .members
                        .iter()
                        .map(|&(m, k)| (m, BlockCall::new(class_blocks[k as usize], Vec::new())))
                        .collect();
                    f.append_inst(
                        classify,
                        InstKind::Switch {
                            arg: packed,
                            default: BlockCall::new(
                                class_blocks[self.unknown as usize],
                                Vec::new(),
                            ),
                            cases,
                        },
                        &[],
                        loc,
                    );
                    f.append_inst(
                        put,
                        InstKind::MapInsert {
                            state: class_map,
                            key,
                            value: vec![class],
                        },
                        &[Type::I1],
                        loc,
                    );
                    jump(f, put, rest, Vec::new());
                }
                _ => {}
            }
        }
    }

    /// Instructions packing the bounded fields of `value` into one `i64` (appended to
    /// `out`, not placed).
    fn emit_packed(
        &self,
        f: &mut Function,
        value: &[Value],
        loc: Option<tandem_ir::SourceLoc>,
        out: &mut Vec<tandem_ir::Inst>,
    ) -> Value {
        let mut ins = |f: &mut Function, kind: InstKind, ty: Type| {
            let i = f.create_inst(kind, &[ty], loc);
            out.push(i);
            f.inst_results(i)[0]
        };
        let mut packed = ins(f, InstKind::Const { imm: 0 }, Type::I64);
        for &(i, bits) in &self.fields {
            let v = value[i];
            let wide = if f.value_type(v) == Some(Type::I64) {
                v
            } else {
                ins(
                    f,
                    InstKind::Cast {
                        op: tandem_ir::CastOp::Zext,
                        arg: v,
                    },
                    Type::I64,
                )
            };
            let sh = ins(
                f,
                InstKind::Const {
                    imm: u64::from(bits),
                },
                Type::I64,
            );
            let shifted = ins(
                f,
                InstKind::Binary {
                    op: tandem_ir::BinOp::Shl,
                    args: [packed, sh],
                },
                Type::I64,
            );
            packed = ins(
                f,
                InstKind::Binary {
                    op: tandem_ir::BinOp::Or,
                    args: [shifted, wide],
                },
                Type::I64,
            );
        }
        packed
    }
}

/// Emits the dispatcher: terms as instructions, diagram nodes as blocks.
struct Dispatcher<'d> {
    d: &'d Derivation,
    module: &'d Module,
    /// Where "visits the server" leaves go.
    orig: Block,
    /// Where the other leaves go (with 0).
    tail: Block,
    terms: HashMap<TermId, Value>,
    results: HashMap<tandem_ir::Inst, Vec<Value>>,
    blocks: HashMap<NodeId, Block>,
}

impl Dispatcher<'_> {
    /// The terms the diagram under `n` uses (conditions, ports, header values).
    fn collect(&self, root: NodeId, out: &mut Vec<TermId>) {
        let mut stack = vec![root];
        let mut seen = std::collections::HashSet::new();
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            match self.d.node(n) {
                NodeView::Branch { var, hi, lo } => {
                    out.push(var);
                    stack.push(hi);
                    stack.push(lo);
                }
                NodeView::Leaf(k) => {
                    if let Some(Leaf::Done { send, writes, .. }) = self.d.leaf(k) {
                        out.extend(send.iter().copied());
                        out.extend(writes.iter().map(|&(_, t)| t));
                    }
                }
            }
        }
    }

    fn term(&mut self, b: &mut FuncBuilder<'_>, t: TermId) -> Result<Value, SpecializeError> {
        if let Some(&v) = self.terms.get(&t) {
            return Ok(v);
        }
        let ty = |bits: u32| {
            Type::int(bits).ok_or_else(|| SpecializeError::Unsupported(format!("an i{bits} term")))
        };
        let v = match self.d.term(t).clone() {
            Term::Const(k, bits) => b.iconst(ty(bits)?, k),
            Term::Atom(a, _) => match a {
                Atom::Field(f) => b.hdr_read(f),
                Atom::Valid(h) => b.hdr_valid(h),
                Atom::Meta(m) => b.meta_read(m),
                Atom::Scalar(s) => b.scalar_load(s),
                Atom::Result(inst, i) => {
                    let results = self.result(b, inst)?;
                    results.get(i).copied().ok_or_else(|| {
                        SpecializeError::Unsupported(format!("result {i} of {inst}"))
                    })?
                }
                Atom::ValueField(i) => {
                    return Err(SpecializeError::Unsupported(format!("value field {i}")))
                }
            },
            Term::Bin(op, x, y, _) => {
                let (x, y) = (self.term(b, x)?, self.term(b, y)?);
                b.binary(op, x, y)
            }
            Term::Icmp(pred, x, y) => {
                let (x, y) = (self.term(b, x)?, self.term(b, y)?);
                b.icmp(pred, x, y)
            }
            Term::Cast(op, x, bits) => {
                let x = self.term(b, x)?;
                b.cast(op, x, ty(bits)?)
            }
            Term::Select(c, x, y, _) => {
                let (c, x, y) = (self.term(b, c)?, self.term(b, x)?, self.term(b, y)?);
                b.select(c, x, y)
            }
            Term::Bswap(x, _) => {
                let x = self.term(b, x)?;
                b.bswap(x)
            }
            Term::Hash(algo, args) => {
                let vals = args
                    .iter()
                    .map(|&a| self.term(b, a))
                    .collect::<Result<Vec<_>, _>>()?;
                b.hash(algo, &vals)
            }
        };
        self.terms.insert(t, v);
        Ok(v)
    }

    /// Re-emits another lookup whose results a behaviour uses.
    fn result(
        &mut self,
        b: &mut FuncBuilder<'_>,
        inst: tandem_ir::Inst,
    ) -> Result<Vec<Value>, SpecializeError> {
        if let Some(r) = self.results.get(&inst) {
            return Ok(r.clone());
        }
        let args = self
            .d
            .result_args
            .get(&inst)
            .cloned()
            .ok_or_else(|| SpecializeError::Unsupported(format!("the results of {inst}")))?;
        let vals = args
            .iter()
            .map(|&a| self.term(b, a))
            .collect::<Result<Vec<_>, _>>()?;
        let kind = self
            .module
            .func(FuncId::Process)
            .and_then(|f| f.insts.get(inst))
            .map(|d| d.kind.clone());
        let r = match kind {
            Some(InstKind::MapFind { state, .. }) => {
                let (hit, fields) = b.map_find(state, &vals);
                std::iter::once(hit).chain(fields).collect()
            }
            Some(InstKind::VecGet { state, .. }) => b.vec_get(state, vals[0]),
            _ => {
                return Err(SpecializeError::Unsupported(format!(
                    "the results of {inst}"
                )))
            }
        };
        self.results.insert(inst, r.clone());
        Ok(r)
    }

    /// The block running the diagram under `n`.
    fn block(&mut self, b: &mut FuncBuilder<'_>, n: NodeId) -> Result<Block, SpecializeError> {
        if let Some(&blk) = self.blocks.get(&n) {
            return Ok(blk);
        }
        let here = b.current_block();
        let blk = match self.d.node(n) {
            NodeView::Leaf(k) => match self.d.leaf(k) {
                Some(Leaf::Server) => self.orig,
                Some(Leaf::Done {
                    send,
                    writes,
                    layout,
                }) => {
                    let blk = b.create_block();
                    b.switch_to_block(blk);
                    for &(h, push) in layout {
                        let kind = if push {
                            InstKind::HdrPush { header: h }
                        } else {
                            InstKind::HdrPop { header: h }
                        };
                        b.ins(kind, &[]);
                    }
                    for &(field, t) in writes {
                        let v = self.terms[&t];
                        b.hdr_write(field, v);
                    }
                    match send {
                        Some(p) => {
                            let v = self.terms[p];
                            b.send(v);
                        }
                        None => {
                            b.drop_packet();
                        }
                    }
                    let zero = b.iconst(Type::I1, 0);
                    b.jump(self.tail, &[zero]);
                    blk
                }
                None => return Err(SpecializeError::Unsupported("a boolean outcome".into())),
            },
            NodeView::Branch { var, hi, lo } => {
                let blk = b.create_block();
                let (hi, lo) = (self.block(b, hi)?, self.block(b, lo)?);
                b.switch_to_block(blk);
                let c = self.terms[&var];
                b.brif(c, hi, &[], lo, &[]);
                blk
            }
        };
        b.switch_to_block(here);
        self.blocks.insert(n, blk);
        Ok(blk)
    }
}

/// The class map's original, when `name` is a class map's name.
pub fn class_map_of(name: &str) -> Option<&str> {
    name.strip_suffix(CLASS_SUFFIX)
}
