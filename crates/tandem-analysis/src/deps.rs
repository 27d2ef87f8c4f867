//! Statements, their read and write sets, and the dependency graph between them (Gallium
//! §4.1): data (read after write: SSA uses and memory), output (write after write), reverse
//! data (write after read) and control dependences.
//!
//! A **statement** is an instruction other than `const`, `br` and `return`, or a **block
//! parameter** (the phi of an SSA join: it "reads" the arguments passed on every incoming
//! edge). Constants are rematerialised wherever they are used; unconditional jumps and
//! returns only carry control flow. Statements are numbered in program order: blocks in
//! reverse post-order, and within a block its parameters, then its instructions.
//!
//! `S2` depends on `S1` (an edge `S1 → S2`) when `S2` can happen after `S1` (it is reachable
//! from `S1` in the CFG) and
//! * `S2` uses an SSA value `S1` defines ([`DepKind::Data`]);
//! * `S1` writes a location `S2` reads ([`DepKind::Raw`]), both write it ([`DepKind::Waw`])
//!   or `S1` reads a location `S2` writes ([`DepKind::War`]) — locations are the
//!   [`tandem_ir::Effect`]s of [`tandem_ir::Module::inst_effects`]; `all` conflicts with
//!   everything;
//! * `S1` is the branch of a block `S2`'s block is control dependent on, or — for a block
//!   parameter — a branch that decides which incoming edge is taken ([`DepKind::Control`]).
//!
//! Self-dependence (a statement in a loop) is not an edge; [`Stmt::in_loop`] records it.

use crate::{Cfg, ControlDeps, DomTree, PostDomTree};
use std::fmt;
use tandem_ir::{Block, Effect, EntityRef, Inst, InstKind, Module, SourceLoc, Value, ValueDef};

/// A statement's index in [`StmtGraph::stmts`]; printed `sN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StmtId(pub u32);

impl StmtId {
    /// The index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for StmtId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}", self.0)
    }
}

/// What a statement is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// An instruction.
    Inst(Inst),
    /// Parameter `index` of `block` (an SSA join).
    Param {
        /// The block.
        block: Block,
        /// The parameter's position.
        index: usize,
    },
}

/// One statement with its read and write sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    /// Instruction or block parameter.
    pub kind: StmtKind,
    /// The block it is in.
    pub block: Block,
    /// Position: the parameter index, or the instruction's index in the block.
    pub pos: usize,
    /// SSA values it defines.
    pub defs: Vec<Value>,
    /// SSA values it reads (for a parameter: the argument of every incoming edge; for a
    /// branch: only its condition — branch arguments belong to the parameters).
    pub uses: Vec<Value>,
    /// Locations read.
    pub reads: Vec<Effect>,
    /// Locations written.
    pub writes: Vec<Effect>,
    /// It lies on a CFG cycle (so it can happen after itself).
    pub in_loop: bool,
    /// Source position, when known (parameters: none).
    pub loc: Option<SourceLoc>,
}

impl Stmt {
    /// The instruction, unless this is a block parameter.
    pub fn inst(&self) -> Option<Inst> {
        match self.kind {
            StmtKind::Inst(i) => Some(i),
            StmtKind::Param { .. } => None,
        }
    }

    /// Program-order key inside its block (parameters come first).
    fn order_key(&self) -> (u8, usize) {
        match self.kind {
            StmtKind::Param { index, .. } => (0, index),
            StmtKind::Inst(_) => (1, self.pos),
        }
    }
}

/// Why one statement depends on another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DepKind {
    /// The later statement uses an SSA value the earlier one defines.
    Data,
    /// Read after write of a location.
    Raw,
    /// Write after write of a location.
    Waw,
    /// Write after read of a location (reverse data dependence).
    War,
    /// The earlier statement is a branch deciding whether (or along which edge) the later
    /// one runs.
    Control,
}

impl DepKind {
    /// Short name (`data`, `raw`, `waw`, `war`, `control`).
    pub fn name(self) -> &'static str {
        match self {
            DepKind::Data => "data",
            DepKind::Raw => "raw",
            DepKind::Waw => "waw",
            DepKind::War => "war",
            DepKind::Control => "control",
        }
    }
}

/// One edge of the dependency graph: `to` depends on `from`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dep {
    /// The statement that must run first.
    pub from: StmtId,
    /// The dependent statement.
    pub to: StmtId,
    /// The kind.
    pub kind: DepKind,
}

/// Does an access to `a` conflict with an access to `b`?
pub fn effects_conflict(a: &Effect, b: &Effect) -> bool {
    matches!(a, Effect::All) || matches!(b, Effect::All) || a == b
}

fn any_conflict(xs: &[Effect], ys: &[Effect]) -> bool {
    xs.iter().any(|x| ys.iter().any(|y| effects_conflict(x, y)))
}

/// The statements of `module.process` and the dependency graph (see the module docs).
#[derive(Clone, Debug)]
pub struct StmtGraph {
    /// All statements in program order.
    pub stmts: Vec<Stmt>,
    /// All edges, sorted and distinct.
    pub deps: Vec<Dep>,
    /// Distinct predecessors (statements it depends on) of each statement, sorted.
    pub preds: Vec<Vec<StmtId>>,
    /// Distinct successors (statements depending on it) of each statement, sorted.
    pub succs: Vec<Vec<StmtId>>,
    stmt_of_inst: Vec<Option<StmtId>>,
    def_stmt: Vec<Option<StmtId>>,
    term_stmt: Vec<Option<StmtId>>,
}

impl StmtGraph {
    /// The statement of an instruction, if it is one.
    pub fn stmt_of_inst(&self, inst: Inst) -> Option<StmtId> {
        self.stmt_of_inst.get(inst.index()).copied().flatten()
    }
    /// The statement defining `v` (`None` for constants and unused numbers).
    pub fn def_stmt(&self, v: Value) -> Option<StmtId> {
        self.def_stmt.get(v.index()).copied().flatten()
    }
    /// The branch statement ending `b`, if `b` ends in `brif` or `switch`.
    pub fn term_stmt(&self, b: Block) -> Option<StmtId> {
        self.term_stmt.get(b.index()).copied().flatten()
    }
    /// The statement with id `s`.
    pub fn stmt(&self, s: StmtId) -> &Stmt {
        &self.stmts[s.index()]
    }
    /// All statements reachable from `s` along dependency edges (excluding `s` unless it is
    /// on a dependency cycle), as a membership vector.
    pub fn reachable_from(&self, s: StmtId) -> Vec<bool> {
        let mut seen = vec![false; self.stmts.len()];
        let mut stack: Vec<StmtId> = self.succs[s.index()].clone();
        while let Some(t) = stack.pop() {
            if !seen[t.index()] {
                seen[t.index()] = true;
                stack.extend(self.succs[t.index()].iter().copied());
            }
        }
        seen
    }
    /// Can `b` happen after `a` (is it reachable from `a` in the CFG)?
    pub fn can_happen_after(&self, cfg: &Cfg, a: StmtId, b: StmtId) -> bool {
        let (sa, sb) = (self.stmt(a), self.stmt(b));
        if sa.block == sb.block && sb.order_key() > sa.order_key() {
            return true;
        }
        cfg.path(sa.block, sb.block)
    }
}

/// Builds the statements and the dependency graph.
pub fn compute_stmt_graph(
    module: &Module,
    cfg: &Cfg,
    dom: &DomTree,
    control: &ControlDeps,
) -> StmtGraph {
    let func = &module.process;
    let mut stmts: Vec<Stmt> = Vec::new();
    let mut stmt_of_inst = vec![None; func.insts.len()];
    let mut def_stmt = vec![None; func.values.len()];
    let mut term_stmt = vec![None; func.blocks.len()];
    for &b in &cfg.rpo {
        let in_loop = cfg.in_cycle(b);
        let data = &func.blocks[b];
        for (index, &p) in data.params.iter().enumerate() {
            let mut uses = Vec::new();
            for &pred in &cfg.preds[b.index()] {
                if let Some(t) = func.terminator(pred) {
                    for c in func.insts[t].kind.successors() {
                        if c.block == b {
                            if let Some(&a) = c.args.get(index) {
                                if !uses.contains(&a) {
                                    uses.push(a);
                                }
                            }
                        }
                    }
                }
            }
            let id = StmtId(stmts.len() as u32);
            def_stmt[p.index()] = Some(id);
            stmts.push(Stmt {
                kind: StmtKind::Param { block: b, index },
                block: b,
                pos: index,
                defs: vec![p],
                uses,
                reads: Vec::new(),
                writes: Vec::new(),
                in_loop,
                loc: None,
            });
        }
        for (pos, &inst) in data.insts.iter().enumerate() {
            let d = &func.insts[inst];
            let uses = match &d.kind {
                InstKind::Const { .. } | InstKind::Jump { .. } | InstKind::Return => continue,
                InstKind::Brif { cond, .. } => vec![*cond],
                InstKind::Switch { arg, .. } => vec![*arg],
                k => {
                    let mut u = k.args();
                    u.dedup();
                    u
                }
            };
            let eff = module.inst_effects(&d.kind);
            let id = StmtId(stmts.len() as u32);
            stmt_of_inst[inst.index()] = Some(id);
            if d.kind.is_terminator() {
                term_stmt[b.index()] = Some(id);
            }
            for &r in &d.results {
                def_stmt[r.index()] = Some(id);
            }
            stmts.push(Stmt {
                kind: StmtKind::Inst(inst),
                block: b,
                pos,
                defs: d.results.clone(),
                uses,
                reads: eff.reads,
                writes: eff.writes,
                in_loop,
                loc: d.loc,
            });
        }
    }
    let mut g = StmtGraph {
        preds: vec![Vec::new(); stmts.len()],
        succs: vec![Vec::new(); stmts.len()],
        stmts,
        deps: Vec::new(),
        stmt_of_inst,
        def_stmt,
        term_stmt,
    };
    let mut deps: Vec<Dep> = Vec::new();
    // SSA data dependences.
    for (i, s) in g.stmts.iter().enumerate() {
        for &u in &s.uses {
            if let Some(d) = g.def_stmt(u) {
                if d.index() != i {
                    deps.push(Dep {
                        from: d,
                        to: StmtId(i as u32),
                        kind: DepKind::Data,
                    });
                }
            }
        }
    }
    // Memory dependences between statements with effects.
    let eff: Vec<StmtId> = (0..g.stmts.len())
        .map(|i| StmtId(i as u32))
        .filter(|&s| !g.stmt(s).reads.is_empty() || !g.stmt(s).writes.is_empty())
        .collect();
    for &a in &eff {
        for &b in &eff {
            if a == b || !g.can_happen_after(cfg, a, b) {
                continue;
            }
            let (sa, sb) = (g.stmt(a), g.stmt(b));
            let mut push = |kind| {
                deps.push(Dep {
                    from: a,
                    to: b,
                    kind,
                })
            };
            if any_conflict(&sa.writes, &sb.reads) {
                push(DepKind::Raw);
            }
            if any_conflict(&sa.writes, &sb.writes) {
                push(DepKind::Waw);
            }
            if any_conflict(&sa.reads, &sb.writes) {
                push(DepKind::War);
            }
        }
    }
    // Control dependences.
    for (i, s) in g.stmts.iter().enumerate() {
        let to = StmtId(i as u32);
        let mut controllers: Vec<Block> = control.of(s.block).to_vec();
        if let StmtKind::Param { block, .. } = s.kind {
            controllers.extend(gating_blocks(cfg, dom, block));
        }
        for a in controllers {
            if let Some(t) = g.term_stmt(a) {
                if t != to {
                    deps.push(Dep {
                        from: t,
                        to,
                        kind: DepKind::Control,
                    });
                }
            }
        }
    }
    deps.sort();
    deps.dedup();
    for d in &deps {
        g.preds[d.to.index()].push(d.from);
        g.succs[d.from.index()].push(d.to);
    }
    for v in g.preds.iter_mut().chain(g.succs.iter_mut()) {
        v.sort();
        v.dedup();
    }
    g.deps = deps;
    g
}

/// The blocks whose branches may decide which incoming edge of `b` is taken: every
/// multi-way block dominated by `b`'s immediate dominator from which `b` is reachable.
pub fn gating_blocks(cfg: &Cfg, dom: &DomTree, b: Block) -> Vec<Block> {
    if cfg.preds[b.index()].len() < 2 {
        return Vec::new();
    }
    let Some(top) = dom.idom(b) else {
        return Vec::new();
    };
    cfg.rpo
        .iter()
        .copied()
        .filter(|&x| {
            x != b && cfg.succs[x.index()].len() >= 2 && dom.dominates(top, x) && cfg.path(x, b)
        })
        .collect()
}

/// [`gating_blocks`] without those whose choice is forgotten before `b`: every path from the
/// branch to `b` passes the branch's immediate post-dominator first (a loop's exit test
/// before a later join, say). A switch partition that runs `b`'s parameters must follow
/// these branches, and only these: it cannot follow a loop's.
pub fn deciding_gating_blocks(
    cfg: &Cfg,
    dom: &DomTree,
    pdom: &PostDomTree,
    b: Block,
) -> Vec<Block> {
    gating_blocks(cfg, dom, b)
        .into_iter()
        .filter(|&x| !forgotten_before(cfg, pdom, x, b))
        .collect()
}

/// Does every path from `x` to `b` pass `x`'s immediate post-dominator (not `b` itself)
/// before reaching `b`?
fn forgotten_before(cfg: &Cfg, pdom: &PostDomTree, x: Block, b: Block) -> bool {
    let Some(p) = pdom.ipdom(x) else {
        return false;
    };
    if p == b {
        return false;
    }
    let mut seen = vec![false; cfg.succs.len()];
    let mut stack: Vec<Block> = cfg.succs[x.index()].clone();
    while let Some(y) = stack.pop() {
        if y == p || std::mem::replace(&mut seen[y.index()], true) {
            continue;
        }
        if y == b {
            return false;
        }
        stack.extend(cfg.succs[y.index()].iter().copied());
    }
    true
}

/// The constant `v` holds, if it is defined by a `const` instruction.
pub fn is_const(module: &Module, v: Value) -> Option<u64> {
    let f = &module.process;
    match f.values.get(v)?.def {
        ValueDef::Result(i, 0) => match f.insts.get(i)?.kind {
            InstKind::Const { imm } => Some(imm),
            _ => None,
        },
        _ => None,
    }
}
