//! Execution labels and Gallium's label-removing rules (§4.2.1), run to a fixed point.
//!
//! Every statement starts with the labels `{pre, server, post}` if the target can express
//! it, else `{server}`. `server` is never removed. The rules (with `S' ⇝ S`: S depends on S'):
//!
//! * **R1** `S' ⇝ S ∧ post ∉ L(S) ⇒ post ∉ L(S')` (applied edge by edge, which reaches the
//!   transitive closure at the fixed point);
//! * **R2** `S' ⇝ S ∧ pre ∉ L(S') ⇒ pre ∉ L(S)`;
//! * **R3** `S' ⇝* S`, both access the same state, `pre ∈ L(S') ⇒ pre ∉ L(S)`;
//! * **R4** `S' ⇝* S`, both access the same state, `post ∈ L(S) ⇒ post ∉ L(S')`;
//! * **R5** a statement in a loop is server-only, and so is one whose execution depends on a
//!   branch in a loop (a loop's exit decided on the server: a switch partition would have to
//!   follow the loop to know which way it left; applied once, at the start).
//!
//! R3/R4 skip two pairs that the target can do anyway: two lookups of a map the switch only
//! reads when the profile allows duplicate read-only tables (each lookup gets its own table),
//! and the load and store of one register read-modify-write (one stateful-ALU action). Two
//! more rules keep state placement sound:
//!
//! * **R6** (replication) a state object that some server-only statement accesses cannot be
//!   written on the switch: replicated state is written only by the server;
//! * **R7** (fusion) the load and store of a register read-modify-write keep equal labels.
//! * **R8** (relayout) a statement that changes how the frame parses — a header push or pop,
//!   or a write to a field the parse graph selects on (`eth.ethertype`, `ipv4.protocol`,
//!   `ipv4.version_ihl`, the NF's select fields) — never runs in pre (the server and post
//!   re-parse the frames the switch hands on, and would find other headers), and a statement
//!   touching headers on a path with a server-side one — after it, or before it in program
//!   order — loses post (post runs after the server and would re-parse the frame the server
//!   rebuilt).
//!
//! Each removed label records *why*: the rule, the statement where the chain of removals
//! started (its origin) and the neighbour it came through.

use crate::ops::{self, StateAccess};
use crate::TargetProfile;
use tandem_analysis::{DepInfo, StmtId, StmtKind};
use tandem_ir::{EntityRef, InstKind, Module, StateId, Value};

/// Why a label was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// The target cannot express the statement.
    Unsupported,
    /// R1: a statement depending on it cannot run in post.
    R1,
    /// R2: it depends on a statement that cannot run in pre.
    R2,
    /// R3: an earlier dependent access to the same state can run in pre.
    R3,
    /// R4: a later dependent access to the same state can run in post.
    R4,
    /// R5: it is in a loop.
    R5,
    /// R6: replicated state is written only by the server.
    R6,
    /// R7: a register read-modify-write is placed whole.
    R7,
    /// R8: a header push or pop runs in post or on the server, and header code after a
    /// server-side one runs on the server too.
    R8,
    /// Constraint 1: switch memory (SRAM, tables, stateful ALUs).
    Memory,
    /// Constraint 2: the dependency chain is longer than the pipeline.
    Stages,
    /// Constraint 3: one access per state object on the switch.
    SingleAccess,
    /// Constraint 4: per-packet metadata.
    Metadata,
    /// Constraint 5: transfer-header bytes.
    TransferHeader,
}

impl Rule {
    /// A short stable code (`unsupported`, `R1`..`R7`, `C1`..`C5`).
    pub fn code(self) -> &'static str {
        match self {
            Rule::Unsupported => "unsupported",
            Rule::R1 => "R1",
            Rule::R2 => "R2",
            Rule::R3 => "R3",
            Rule::R4 => "R4",
            Rule::R5 => "R5",
            Rule::R6 => "R6",
            Rule::R7 => "R7",
            Rule::R8 => "R8",
            Rule::Memory => "C1",
            Rule::Stages => "C2",
            Rule::SingleAccess => "C3",
            Rule::Metadata => "C4",
            Rule::TransferHeader => "C5",
        }
    }
}

/// A removed label's explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// The rule or constraint.
    pub rule: Rule,
    /// Where the chain of removals started (the statement itself for a root cause).
    pub origin: StmtId,
    /// The neighbour it came through (rules R1–R4, R6, R7).
    pub via: Option<StmtId>,
    /// The state object involved, if any.
    pub state: Option<StateId>,
    /// Human-readable detail of the root cause.
    pub detail: String,
}

/// Labels of every statement (`server` is implicit: always present).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labelling {
    /// `pre ∈ L(S)`.
    pub pre: Vec<bool>,
    /// `post ∈ L(S)`.
    pub post: Vec<bool>,
    /// Why `pre` was removed.
    pub why_not_pre: Vec<Option<Reason>>,
    /// Why `post` was removed.
    pub why_not_post: Vec<Option<Reason>>,
}

/// Which label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    Pre,
    Post,
}

impl Labelling {
    /// Has the statement a switch label (pre or post)?
    pub fn on_switch(&self, s: StmtId) -> bool {
        self.pre[s.index()] || self.post[s.index()]
    }

    /// Removes one label; returns whether it was present.
    pub(crate) fn remove(&mut self, s: StmtId, which: Which, reason: Reason) -> bool {
        let i = s.index();
        let (flag, why) = match which {
            Which::Pre => (&mut self.pre[i], &mut self.why_not_pre[i]),
            Which::Post => (&mut self.post[i], &mut self.why_not_post[i]),
        };
        if !*flag {
            return false;
        }
        *flag = false;
        if why.is_none() {
            *why = Some(reason);
        }
        true
    }

    /// Removes both switch labels.
    pub(crate) fn move_to_server(&mut self, s: StmtId, reason: Reason) -> bool {
        let a = self.remove(s, Which::Pre, reason.clone());
        let b = self.remove(s, Which::Post, reason);
        a || b
    }

    /// Number of statements with a switch label.
    pub fn switch_count(&self) -> usize {
        (0..self.pre.len())
            .filter(|&i| self.pre[i] || self.post[i])
            .count()
    }
}

/// Everything about the module and target the rules need, computed once.
pub(crate) struct Context<'a> {
    pub module: &'a Module,
    pub info: &'a DepInfo,
    pub profile: &'a TargetProfile,
    /// Entries the switch table of each state holds when less than its capacity (partial
    /// maps, [`crate::partial`]): memory is planned for that many.
    pub switch_entries: Vec<Option<u64>>,
    pub n: usize,
    /// State access of each statement.
    pub access: Vec<Option<StateAccess>>,
    /// Accesses of each state object, in program order.
    pub accesses_of: Vec<Vec<StmtId>>,
    /// Fused register read-modify-write pairs (load, store).
    pub fused: Vec<(StmtId, StmtId)>,
    /// Partner of each fused statement.
    pub fused_with: Vec<Option<StmtId>>,
    /// (S', S, state): S' ⇝* S, same state, not exempt from R3/R4.
    pub state_pairs: Vec<(StmtId, StmtId, StateId)>,
    /// Why the target cannot run each statement.
    pub unsupported: Vec<Option<String>>,
    /// Stage cost of each statement.
    pub cost: Vec<u32>,
    /// Live values before each instruction of each reachable block (and at its end).
    pub live_points: Vec<Vec<Vec<Value>>>,
    /// Dependencies that need a later stage (data, RAW, WAW): `(pred, is_data)` per
    /// statement; control and WAR dependencies allow the same stage (RMT predication).
    pub stage_preds: Vec<Vec<(StmtId, bool)>>,
    /// The same, from the other end: `(succ, is_data)`.
    pub stage_succs: Vec<Vec<(StmtId, bool)>>,
    /// Per block: every block whose branch decides whether it runs (transitively).
    pub ctrl_closure: Vec<Vec<tandem_ir::Block>>,
    /// Per block: the branches deciding which edge enters it (see
    /// [`tandem_analysis::deciding_gating_blocks`]: not a loop exit test forgotten before the
    /// join) and their own controllers.
    pub gating_closure: Vec<Vec<tandem_ir::Block>>,
    /// Statements that may write each header field (opaque `all` writers included).
    pub field_writers: std::collections::BTreeMap<tandem_ir::HeaderField, Vec<StmtId>>,
    /// Header pushes and pops (rule R8).
    pub relayouts: Vec<StmtId>,
    /// Statements reading or writing header fields or presence (rule R8).
    pub header_stmts: Vec<StmtId>,
}

impl<'a> Context<'a> {
    /// Stage depth of every statement in partition `x` (`member`): a statement finishes
    /// `cost` stages after its data dependences, and no earlier than its control and WAR
    /// dependences (which RMT resolves in the same stage by predication).
    pub fn depths(&self, member: impl Fn(usize) -> bool) -> Vec<u64> {
        let mut dist = vec![0u64; self.n];
        for i in 0..self.n {
            if !member(i) {
                continue;
            }
            let own = u64::from(self.cost[i]);
            let mut d = own;
            for &(p, data) in &self.stage_preds[i] {
                if p.index() < i && member(p.index()) {
                    let via = dist[p.index()] + if data { own } else { 0 };
                    d = d.max(via);
                }
            }
            dist[i] = d;
        }
        dist
    }

    /// Stages from the start of each statement to the end of partition `x` (conservative
    /// mirror of [`Context::depths`]).
    pub fn heights(&self, member: impl Fn(usize) -> bool) -> Vec<u64> {
        let mut h = vec![0u64; self.n];
        for i in (0..self.n).rev() {
            if !member(i) {
                continue;
            }
            let own = u64::from(self.cost[i]);
            let mut d = own;
            for &(q, data) in &self.stage_succs[i] {
                if q.index() > i && member(q.index()) {
                    let via = h[q.index()] + if data { own } else { 0 };
                    d = d.max(via);
                }
            }
            h[i] = d;
        }
        h
    }

    pub fn new(module: &'a Module, info: &'a DepInfo, profile: &'a TargetProfile) -> Self {
        let g = &info.graph;
        let n = g.stmts.len();
        let ids: Vec<StmtId> = (0..n).map(|i| StmtId(i as u32)).collect();
        let access: Vec<Option<StateAccess>> = g
            .stmts
            .iter()
            .map(|s| ops::state_access(module, s))
            .collect();
        let mut accesses_of = vec![Vec::new(); module.states.len()];
        for &s in &ids {
            if let Some(a) = access[s.index()] {
                accesses_of[a.state.as_u32() as usize].push(s);
            } else {
                // Opaque code touching state (server-only): it counts as a server access.
                for st in ops::opaque_states(module, g.stmt(s)) {
                    accesses_of[st.as_u32() as usize].push(s);
                }
            }
        }
        let fused = find_fused(module, info, &access);
        let mut fused_with = vec![None; n];
        for &(l, st) in &fused {
            fused_with[l.index()] = Some(st);
            fused_with[st.index()] = Some(l);
        }
        let mut state_pairs = Vec::new();
        for list in &accesses_of {
            for &a in list {
                let reach = g.reachable_from(a);
                for &b in list {
                    if a == b || !reach[b.index()] {
                        continue;
                    }
                    let (xa, xb) = (access[a.index()], access[b.index()]);
                    let (Some(xa), Some(xb)) = (xa, xb) else {
                        continue;
                    };
                    let read_only = !xa.writes && !xb.writes;
                    if fused_with[a.index()] == Some(b)
                        || (read_only && profile.duplicate_readonly_tables)
                    {
                        continue;
                    }
                    state_pairs.push((a, b, xa.state));
                }
            }
        }
        let unsupported = ids
            .iter()
            .map(|&s| {
                ops::unsupported(module, info, profile, s).or_else(|| {
                    // A vector write the P4 back end can lower is the write of a fused
                    // read-modify-write (`v[i] += n`): guarded by the read's bounds check, at
                    // the read's index. A lone `set` must respect the vector's length, which
                    // the switch does not know (found by tandem-fuzz).
                    let lone_set = g.stmt(s).inst().is_some_and(|i| {
                        matches!(module.process.insts[i].kind, InstKind::VecSet { .. })
                    }) && fused_with[s.index()].is_none();
                    lone_set.then(|| {
                        "a vector write that is not a read-modify-write of the element just read: \
                         it is bounded by the vector's length, which the switch does not know"
                            .to_string()
                    })
                })
            })
            .collect();
        let cost = ids
            .iter()
            .map(|&s| {
                let fused_store =
                    fused_with[s.index()].is_some() && access[s.index()].is_some_and(|a| a.writes);
                ops::stage_cost(module, profile, g.stmt(s), fused_store)
            })
            .collect();
        let live_points = info
            .cfg
            .rpo
            .iter()
            .flat_map(|&b| info.liveness.live_before_each(&module.process, b))
            .map(|set| set.into_iter().collect::<Vec<Value>>())
            .collect::<Vec<_>>();
        let live_points = vec![live_points];
        let mut field_writers: std::collections::BTreeMap<tandem_ir::HeaderField, Vec<StmtId>> =
            std::collections::BTreeMap::new();
        let declared = module.headers.iter().flat_map(|h| h.fields());
        for f in tandem_ir::HeaderField::ALL.iter().copied().chain(declared) {
            let w: Vec<StmtId> = ids
                .iter()
                .copied()
                .filter(|s| {
                    g.stmt(*s).writes.iter().any(|e| {
                        matches!(e, tandem_ir::Effect::All) || *e == tandem_ir::Effect::Field(f)
                    })
                })
                .collect();
            field_writers.insert(f, w);
        }
        let mut stage_preds: Vec<Vec<(StmtId, bool)>> = vec![Vec::new(); n];
        let mut stage_succs: Vec<Vec<(StmtId, bool)>> = vec![Vec::new(); n];
        for d in &g.deps {
            let data = matches!(
                d.kind,
                tandem_analysis::DepKind::Data
                    | tandem_analysis::DepKind::Raw
                    | tandem_analysis::DepKind::Waw
            );
            stage_preds[d.to.index()].push((d.from, data));
            stage_succs[d.from.index()].push((d.to, data));
        }
        let nb = module.process.blocks.len();
        let mut ctrl_closure = vec![Vec::new(); nb];
        let mut gating_closure = vec![Vec::new(); nb];
        for &b in &info.cfg.rpo {
            ctrl_closure[b.as_u32() as usize] = info.control.transitive(b);
            let mut gs = Vec::new();
            for gb in tandem_analysis::deciding_gating_blocks(&info.cfg, &info.dom, &info.pdom, b) {
                gs.push(gb);
                gs.extend(info.control.transitive(gb));
            }
            gs.sort();
            gs.dedup();
            gating_closure[b.as_u32() as usize] = gs;
        }
        // Statements that change how the frame parses: pushes, pops, and writes to a field
        // the parse graph selects on (or IPv4's version/IHL, which decide its presence).
        let select_fields: Vec<tandem_ir::HeaderField> = module
            .parse_edges
            .iter()
            .chain(&tandem_ir::parse_graph::BUILTIN_EDGES)
            .filter_map(|e| e.select)
            .chain([tandem_ir::HeaderField::Ipv4VersionIhl])
            .collect();
        let is_relayout = |s: &StmtId| {
            g.stmt(*s)
                .inst()
                .is_some_and(|i| match &module.process.insts[i].kind {
                    InstKind::HdrPush { .. } | InstKind::HdrPop { .. } => true,
                    InstKind::HdrWrite { field, .. } => select_fields.contains(field),
                    _ => false,
                })
        };
        let relayouts: Vec<StmtId> = ids.iter().copied().filter(is_relayout).collect();
        let header_stmts: Vec<StmtId> =
            ids.iter()
                .copied()
                .filter(|s| {
                    let st = g.stmt(*s);
                    st.reads.iter().chain(&st.writes).any(|e| {
                        matches!(e, tandem_ir::Effect::Field(_) | tandem_ir::Effect::Layout)
                    })
                })
                .collect();
        Context {
            switch_entries: vec![None; module.states.len()],
            relayouts,
            header_stmts,
            ctrl_closure,
            gating_closure,
            stage_preds,
            stage_succs,
            field_writers,
            live_points,
            module,
            info,
            profile,
            n,
            access,
            accesses_of,
            fused,
            fused_with,
            state_pairs,
            unsupported,
            cost,
        }
    }

    fn reason(&self, rule: Rule, origin: StmtId, via: Option<StmtId>) -> Reason {
        Reason {
            rule,
            origin,
            via,
            state: None,
            detail: String::new(),
        }
    }

    /// Initial labels: expressibility (and R5, loops).
    pub fn initial(&self) -> Labelling {
        let mut lab = Labelling {
            pre: vec![true; self.n],
            post: vec![true; self.n],
            why_not_pre: vec![None; self.n],
            why_not_post: vec![None; self.n],
        };
        for i in 0..self.n {
            let s = StmtId(i as u32);
            if let Some(why) = &self.unsupported[i] {
                let mut r = self.reason(Rule::Unsupported, s, None);
                r.detail = why.clone();
                lab.move_to_server(s, r);
            } else if self.info.graph.stmt(s).in_loop {
                let mut r = self.reason(Rule::R5, s, None);
                r.detail = "it is in a loop; P4 has no loops".into();
                lab.move_to_server(s, r);
            } else if let Some(b) = self.loop_branch_deciding(s) {
                let mut r = self.reason(Rule::R5, s, None);
                r.detail = format!(
                    "whether it runs depends on a branch inside a loop ({b}); P4 has no loops"
                );
                lab.move_to_server(s, r);
            } else if self.relayouts.contains(&s) {
                let mut r = self.reason(Rule::R8, s, None);
                r.detail = "it changes how the frame parses (a header push or pop, or a write \
                            to a field the parser selects on), and the server re-parses the \
                            frames pre sends it: it runs in post or on the server"
                    .into();
                lab.remove(s, Which::Pre, r);
            } else if self.is_meter(s) {
                // A switch meter counts the packet as the switch sees it: in post (after a
                // server visit) that is another time and a frame carrying the transfer
                // header, so a meter runs in pre or on the server.
                let mut r = self.reason(Rule::Unsupported, s, None);
                r.detail = "a meter measures the packet as it arrives: in pre or on the server, \
                            not after a server visit"
                    .into();
                lab.remove(s, Which::Post, r);
            }
        }
        lab
    }

    fn is_meter(&self, s: StmtId) -> bool {
        self.info.graph.stmt(s).inst().is_some_and(|i| {
            matches!(
                self.module.process.insts[i].kind,
                InstKind::MeterExecute { .. }
            )
        })
    }

    /// A branch inside a loop that decides whether statement `s` runs (or, for a join
    /// parameter, which edge enters its block), other than a loop's exit test whose other
    /// edge is the back edge (a switch partition past the loop knows the exit was taken).
    fn loop_branch_deciding(&self, s: StmtId) -> Option<tandem_ir::Block> {
        let stmt = self.info.graph.stmt(s);
        let cfg = &self.info.cfg;
        let gating = match stmt.kind {
            StmtKind::Param { block, .. } => self.gating_closure[block.index()].as_slice(),
            _ => &[],
        };
        self.ctrl_closure[stmt.block.index()]
            .iter()
            .chain(gating)
            .copied()
            .find(|&x| {
                if !cfg.in_cycle(x) {
                    return false;
                }
                !is_loop_exit_test(self.module, cfg, x)
            })
    }

    /// Applies R1–R4, R6 and R7 until no label can be removed.
    pub fn fixpoint(&self, lab: &mut Labelling) {
        let g = &self.info.graph;
        loop {
            let mut changed = false;
            // R2 forward.
            for i in 0..self.n {
                if !lab.pre[i] {
                    continue;
                }
                let s = StmtId(i as u32);
                if let Some(&p) = g.preds[i].iter().find(|p| !lab.pre[p.index()]) {
                    let origin = origin(&lab.why_not_pre[p.index()], p);
                    changed |= lab.remove(s, Which::Pre, self.reason(Rule::R2, origin, Some(p)));
                }
            }
            // R1 backward.
            for i in (0..self.n).rev() {
                if !lab.post[i] {
                    continue;
                }
                let s = StmtId(i as u32);
                if let Some(&q) = g.succs[i].iter().find(|q| !lab.post[q.index()]) {
                    let origin = origin(&lab.why_not_post[q.index()], q);
                    changed |= lab.remove(s, Which::Post, self.reason(Rule::R1, origin, Some(q)));
                }
            }
            // R3 / R4.
            for &(a, b, state) in &self.state_pairs {
                if lab.pre[a.index()] && lab.pre[b.index()] {
                    let mut r = self.reason(Rule::R3, a, Some(a));
                    r.state = Some(state);
                    changed |= lab.remove(b, Which::Pre, r);
                }
                if lab.post[a.index()] && lab.post[b.index()] {
                    let mut r = self.reason(Rule::R4, b, Some(b));
                    r.state = Some(state);
                    changed |= lab.remove(a, Which::Post, r);
                }
            }
            // R6 replication.
            for (si, list) in self.accesses_of.iter().enumerate() {
                let Some(&server) = list.iter().find(|s| !lab.on_switch(**s)) else {
                    continue;
                };
                for &w in list {
                    if self.access[w.index()].is_some_and(|a| a.writes) && lab.on_switch(w) {
                        let mut r = self.reason(Rule::R6, server, Some(server));
                        r.state = Some(StateId::from_u32(si as u32));
                        changed |= lab.move_to_server(w, r);
                    }
                }
            }
            // R8: header code on a path with a server-side push or pop stays on the server
            // (the switch would re-parse the frame the server rebuilt, finding other
            // headers) — also header code before it in program order: post runs after the
            // server all the same.
            let cfg = &self.info.cfg;
            for &p in &self.relayouts {
                if lab.post[p.index()] {
                    continue;
                }
                for &s in &self.header_stmts {
                    let same_path = g.can_happen_after(cfg, p, s) || g.can_happen_after(cfg, s, p);
                    if lab.post[s.index()] && s != p && same_path {
                        changed |= lab.remove(s, Which::Post, self.reason(Rule::R8, p, Some(p)));
                    }
                }
            }
            // R7 fusion.
            for &(l, st) in &self.fused {
                for (x, y) in [(l, st), (st, l)] {
                    if lab.pre[x.index()] && !lab.pre[y.index()] {
                        let o = origin(&lab.why_not_pre[y.index()], y);
                        changed |= lab.remove(x, Which::Pre, self.reason(Rule::R7, o, Some(y)));
                    }
                    if lab.post[x.index()] && !lab.post[y.index()] {
                        let o = origin(&lab.why_not_post[y.index()], y);
                        changed |= lab.remove(x, Which::Post, self.reason(Rule::R7, o, Some(y)));
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }
}

/// Is block `x`'s branch a loop's plain exit test: one edge the back edge, the other leaving
/// the loop for good? A switch partition past the loop then knows which edge was taken (the
/// exit), so following it needs no loop; P4 back end and `verify_plan` rely on this.
pub fn is_loop_exit_test(module: &Module, cfg: &tandem_analysis::Cfg, x: tandem_ir::Block) -> bool {
    let rpo = |b: tandem_ir::Block| cfg.rpo_index.get(b.index()).copied().flatten();
    let func = &module.process;
    func.terminator(x)
        .is_some_and(|t| match &func.insts[t].kind {
            InstKind::Brif {
                then_dest,
                else_dest,
                ..
            } => {
                let (t, e) = (then_dest.block, else_dest.block);
                let (t_back, e_back) = (rpo(t) <= rpo(x), rpo(e) <= rpo(x));
                (t_back && !e_back && !cfg.path(e, x)) || (e_back && !t_back && !cfg.path(t, x))
            }
            _ => false,
        })
}

fn origin(why: &Option<Reason>, s: StmtId) -> StmtId {
    why.as_ref().map(|r| r.origin).unwrap_or(s)
}

/// Register read-modify-writes, one stateful-ALU access each:
/// * a `scalar.load s` and a later `scalar.store s` in the same block, with no other access
///   to `s` between, whose stored value is computed from the load or ready before it (a
///   constant, a value defined before the load);
/// * a `vec.get v[i]` and a later `vec.set v[i]` of the same element — the set's index is the
///   get's, or the get reads at `select c, i, 0` (the NF API's bounds check) — in a block the
///   get's block dominates, with no other access to `v` between (statements are in reverse
///   post-order, so on an acyclic path every block between the two comes between them), whose
///   stored value is computed from the element read or ready before it (`seen = bloom[h];
///   ...; bloom[h] = 1`, a Bloom filter's test-and-set).
fn find_fused(
    module: &Module,
    info: &DepInfo,
    access: &[Option<StateAccess>],
) -> Vec<(StmtId, StmtId)> {
    let g = &info.graph;
    let f = &module.process;
    let mut out = Vec::new();
    for (i, s) in g.stmts.iter().enumerate() {
        let Some(inst) = s.inst() else { continue };
        let (state, values, set_index) = match &f.insts[inst].kind {
            InstKind::ScalarStore { state, value } => (*state, vec![*value], None),
            InstKind::VecSet {
                state,
                index,
                value,
            } => (*state, value.clone(), Some(*index)),
            _ => continue,
        };
        // The nearest earlier access to the state (in the same block for scalars).
        let Some(j) = (0..i).rev().find(|&j| {
            (set_index.is_some() || g.stmts[j].block == s.block)
                && access[j].is_some_and(|a| a.state == state)
        }) else {
            continue;
        };
        let Some(li) = g.stmts[j].inst() else {
            continue;
        };
        let loaded: Vec<Value> = match (&f.insts[li].kind, set_index) {
            (InstKind::ScalarLoad { .. }, None) => f.insts[li].results.to_vec(),
            (InstKind::VecGet { index, .. }, Some(si))
                if info.dom.dominates(g.stmts[j].block, s.block)
                    && crate::counters::same_element(&module.process, *index, si) =>
            {
                f.insts[li].results.to_vec()
            }
            _ => continue,
        };
        // Every stored value ready when the register is read — a constant, or computed
        // before the load (`seen = bloom[h]; ...; bloom[h] = 1`): the stateful ALU reads the
        // old element and writes the new one in the same access.
        let ready_at_load = values.iter().all(|&v| {
            crate::counters::is_const(f, v) || g.def_stmt(v).is_none_or(|d| d.index() < j)
        });
        if ready_at_load {
            out.push((StmtId(j as u32), StmtId(i as u32)));
            continue;
        }
        // Does a stored value depend on the load through pure computations (within the
        // block for scalars)?
        let mut stack = values;
        let mut seen = Vec::new();
        let mut found = false;
        while let Some(v) = stack.pop() {
            if loaded.contains(&v) {
                found = true;
                break;
            }
            if seen.contains(&v) {
                continue;
            }
            seen.push(v);
            if let Some(d) = g.def_stmt(v) {
                let ds = g.stmt(d);
                if (set_index.is_some() || ds.block == s.block) && ops::is_pure(module, ds) {
                    stack.extend(ds.uses.iter().copied());
                }
            }
        }
        if found {
            out.push((StmtId(j as u32), StmtId(i as u32)));
        }
    }
    out
}
