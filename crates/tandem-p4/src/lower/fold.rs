//! The ingress `apply` block of a folded program, cut into gresses by the plan's stage model
//! (TNA on a folded profile: `crate::fold` turns the cut block into the two-pipe program).
//!
//! Pre and post are walked in the predicated form (one `if (meta.pre_bN == 1)` per IR block,
//! [`crate::walk::predicate_partition`]), so a cut between two top-level pieces needs only
//! the reached flags and live values carried. The pieces, in lookup order (the walk's
//! order), are: the prologue (unpack or per-packet inputs), pre's pieces, the transfer
//! header's packing, post's pieces and the fate. Each piece costs the stages of its
//! statements' dependency chain (the plan's `stage_cost` per statement, a data dependence
//! starting a later stage, as the partitioner's budget counts it); a gress holds at most
//! `stages` (the unfolded profile's). The greedy fills ingress 0, then egress 1, then
//! ingress 1; a cut never separates two accesses of one state object (a table or register
//! lives in one gress of one pipe). The fate (the egress port) is always in ingress 1, the
//! last gress that may set the port; egress 0 runs no NF statement (a statement there could
//! not change the port the packet already has).
//!
//! ```text
//! before (one ingress):                     after (markers between gresses):
//! if (hdr.tandem.isValid()) { unpack }      if (hdr.tandem.isValid()) { from_server = 1; unpack }
//! else { in_port = ..; pre pieces }         else { in_port = ..; pre pieces 0..k }
//! if (to_server == 1) { pack }              __tandem_fold_boundary();
//! if (to_server == 0) { post }              if (from_server == 0) { pre pieces k..n }
//! fate                                      if (to_server == 1) { pack }
//!                                           __tandem_fold_boundary();
//!                                           if (to_server == 0) { post }  fate
//! ```

use std::collections::HashMap;

use tandem_ir::{Block, StateId, Value};
use tandem_p4_syntax::{BinOp, Stmt, StmtKind};
use tandem_partition::Partition;

use super::fold_mem::{Blocks, MemModel};
use super::transfer::tandem;
use super::{meta, Gen, FLAG_REGISTER};
use crate::build::*;
use crate::walk::Node;
use crate::P4Error;

/// The call statement that marks a gress boundary in the ingress block until
/// `crate::fold::fold_program` cuts it there.
pub const FOLD_MARK: &str = "__tandem_fold_boundary";

/// Gresses that run NF statements: ingress 0, egress 1, ingress 1.
pub const NF_GRESSES: usize = 3;

/// One piece of the folded sequence.
#[derive(Clone, Debug)]
enum Piece {
    Pre(Node, Option<Block>),
    Pack,
    Post(Node, Option<Block>),
}

/// Where the pieces went: the gress of each, and the stages each gress uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FoldCut {
    /// Stage use per NF gress (ingress 0, egress 1, ingress 1).
    pub stages: Vec<u64>,
    /// The budget per gress.
    pub budget: u64,
    /// A piece that did not fit any gress (its chain is longer than a gress), or pieces
    /// left over past ingress 1: the cut still runs them in ingress 1.
    pub overflow: bool,
    /// SRAM/TCAM blocks per NF gress ([`super::fold_mem`]).
    pub memory: Vec<Blocks>,
    /// One pipe's blocks (`None`: the profile does not bound memory).
    pub pipe_memory: Option<Blocks>,
    /// Whether ingress 0's memory moved the first cut earlier than its stages would.
    pub moved_for_memory: bool,
}

/// `pieces` of a gress, with consecutive pieces of one guarded block merged.
fn merge_guards(nodes: Vec<Node>) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::new();
    for n in nodes {
        if let (
            Some(Node::Guard {
                part: p0,
                block: b0,
                body,
            }),
            Node::Guard {
                part,
                block,
                body: more,
            },
        ) = (out.last_mut(), &n)
        {
            if p0 == part && b0 == block {
                body.extend(more.iter().cloned());
                continue;
            }
        }
        out.push(n);
    }
    out
}

/// Top-level pieces of a predicated walk, each with its IR block (`entry` for the
/// unguarded nodes): a guarded block's body is cut into one piece per top-level node (each
/// keeps the guard).
fn pieces_of(nodes: Vec<Node>, entry: Option<Block>) -> Vec<(Node, Option<Block>)> {
    let mut out = Vec::new();
    for n in nodes {
        match n {
            Node::Guard { part, block, body } => {
                out.extend(body.into_iter().map(|b| {
                    (
                        Node::Guard {
                            part,
                            block,
                            body: vec![b],
                        },
                        Some(block),
                    )
                }));
            }
            other => out.push((other, entry)),
        }
    }
    out
}

/// Whether a piece holds its block's branch (an `If` or `Switch` at its top).
fn holds_branch(n: &Node) -> bool {
    match n {
        Node::If { .. } | Node::Switch { .. } => true,
        Node::Guard { body, .. } => body.iter().any(holds_branch),
        _ => false,
    }
}

/// The stage model of the pieces, the partitioner's (`Context::depths`): each statement
/// costs its plan `stage_cost`; a data, read-after-write or write-after-write dependence
/// on an earlier statement of the same gress starts it after that one ends, a control or
/// write-after-read dependence lets it share the stage (RMT predication).
struct Model<'g> {
    graph: tandem_analysis::StmtGraph,
    cost: Vec<u64>,
    /// Per statement: (earlier statement, needs a later stage).
    preds: Vec<Vec<(usize, bool)>>,
    param_stmt: HashMap<Value, usize>,
    func: &'g tandem_ir::Function,
}

impl Model<'_> {
    /// Depth at which statement `s` ends, given the depths of the statements of this gress
    /// so far (`env`, updated).
    fn stmt_depth(&self, s: usize, env: &mut HashMap<usize, u64>) -> u64 {
        let own = self.cost.get(s).copied().unwrap_or(1);
        let mut d = own;
        for &(p, later) in self.preds.get(s).map_or(&[][..], |v| v.as_slice()) {
            if let Some(&dp) = env.get(&p) {
                d = d.max(dp + if later { own } else { 0 });
            }
        }
        env.insert(s, d);
        d
    }

    /// Depth at which `node` ends (0 when it holds no statement); its state objects go to
    /// `states`.
    fn depth(&self, node: &Node, env: &mut HashMap<usize, u64>, states: &mut Vec<StateId>) -> u64 {
        match node {
            Node::Inst(i) => {
                if let Some(s) = self.func.insts.get(*i).and_then(|d| d.kind.state()) {
                    states.push(s);
                }
                match self.graph.stmt_of_inst(*i) {
                    Some(s) => self.stmt_depth(s.index(), env),
                    None => 0,
                }
            }
            Node::Param { param, .. } => match self.param_stmt.get(param) {
                Some(&s) => self.stmt_depth(s, env),
                None => 0,
            },
            Node::PoolApply { .. } => 1,
            Node::ToServer | Node::Reach { .. } => 0,
            Node::Guard { body, .. } => self.depth_all(body, env, states),
            Node::If { then, els, .. } => {
                let a = self.depth_all(then, env, states);
                a.max(self.depth_all(els, env, states))
            }
            Node::Switch { cases, default, .. } => {
                let mut d = self.depth_all(default, env, states);
                for (_, arm) in cases {
                    d = d.max(self.depth_all(arm, env, states));
                }
                d
            }
        }
    }

    fn depth_all(
        &self,
        nodes: &[Node],
        env: &mut HashMap<usize, u64>,
        states: &mut Vec<StateId>,
    ) -> u64 {
        nodes
            .iter()
            .map(|n| self.depth(n, env, states))
            .max()
            .unwrap_or(0)
    }

    /// Statements of `node` (by id; the branch ending `block` when the node holds it), and
    /// its state objects.
    fn stmts(
        &self,
        node: &Node,
        block: Option<Block>,
        out: &mut Vec<usize>,
        states: &mut Vec<StateId>,
    ) {
        self.depth(node, &mut HashMap::new(), states);
        let mut env = HashMap::new();
        self.depth(node, &mut env, &mut Vec::new());
        out.extend(env.into_keys());
        if let Some(t) = block
            .filter(|_| holds_branch(node))
            .and_then(|b| self.graph.term_stmt(b))
        {
            out.push(t.index());
        }
    }

    /// State objects `node`'s statements write.
    fn written_states(&self, node: &Node) -> Vec<StateId> {
        let mut env = HashMap::new();
        self.depth(node, &mut env, &mut Vec::new());
        env.keys()
            .flat_map(|&s| self.graph.stmts[s].writes.iter())
            .filter_map(|e| match e {
                tandem_ir::Effect::State(id) => Some(*id),
                _ => None,
            })
            .collect()
    }

    /// The partitioner's chain depth of the statements in `member` (index order, every
    /// earlier member counts, as `Context::depths`).
    fn global_depths(&self, member: &std::collections::BTreeSet<usize>) -> HashMap<usize, u64> {
        let mut env = HashMap::new();
        for &s in member {
            self.stmt_depth(s, &mut env);
        }
        env
    }
}

/// The chain depth at which each piece ends, on the plan's model: pre's statements by
/// their depth in pre's chain (`Context::depths`), the packing one stage after pre, post's
/// statements after that by their depth in post's chain.
fn piece_depths(model: &Model<'_>, pieces: &[Piece]) -> (Vec<u64>, Vec<Vec<StateId>>) {
    let mut of = Vec::with_capacity(pieces.len());
    let mut states = Vec::with_capacity(pieces.len());
    let (mut pre, mut post) = (
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
    );
    for p in pieces {
        let (mut ss, mut st) = (Vec::new(), Vec::new());
        match p {
            Piece::Pre(n, b) => {
                model.stmts(n, *b, &mut ss, &mut st);
                pre.extend(ss.iter().copied());
            }
            Piece::Post(n, b) => {
                model.stmts(n, *b, &mut ss, &mut st);
                post.extend(ss.iter().copied());
            }
            Piece::Pack => {}
        }
        of.push(ss);
        states.push(st);
    }
    let (dpre, dpost) = (model.global_depths(&pre), model.global_depths(&post));
    let pre_end = dpre.values().copied().max().unwrap_or(0);
    let depths = pieces
        .iter()
        .zip(&of)
        .map(|(p, ss)| {
            let d = match p {
                Piece::Pre(..) => ss
                    .iter()
                    .filter_map(|s| dpre.get(s))
                    .copied()
                    .max()
                    .unwrap_or(0),
                Piece::Pack => pre_end + 1,
                Piece::Post(..) => {
                    pre_end
                        + 1
                        + ss.iter()
                            .filter_map(|s| dpost.get(s))
                            .copied()
                            .max()
                            .unwrap_or(0)
                }
            };
            if ss.is_empty() && !matches!(p, Piece::Pack) {
                0
            } else {
                d
            }
        })
        .collect();
    (depths, states)
}

/// Gress of each piece (0..[`NF_GRESSES`]): the greedy over `pieces` with `budget` stages a
/// gress, the prologue's `first` stages already used in ingress 0 and the fate's stage
/// reserved in ingress 1. A gress starts where the chain of the gresses before it ended. A
/// cut point `c` (pieces `c..` in the next gress) must not split the accesses of a state
/// object.
fn assign_gresses(
    model: &Model<'_>,
    mem: &MemModel,
    pieces: &[Piece],
    budget: u64,
    first: u64,
) -> Result<(Vec<usize>, FoldCut), P4Error> {
    let (depth, states) = piece_depths(model, pieces);
    // Cut points that split no written state object's accesses (a read-only state gets one
    // table or register copy per access: `lower::state`).
    let written: std::collections::HashSet<StateId> = pieces
        .iter()
        .flat_map(|p| match p {
            Piece::Pre(n, _) | Piece::Post(n, _) => model.written_states(n),
            Piece::Pack => Vec::new(),
        })
        .collect();
    let mut span: HashMap<StateId, (usize, usize)> = HashMap::new();
    for (i, ss) in states.iter().enumerate() {
        for s in ss.iter().filter(|s| written.contains(s)) {
            let e = span.entry(*s).or_insert((i, i));
            e.1 = i;
        }
    }
    let allowed = |c: usize| !span.values().any(|&(a, b)| a < c && c <= b);
    let mut cuts: Vec<usize> = Vec::new();
    let mut moved_for_memory = false;
    loop {
        let gress = gresses(&cuts, pieces.len());
        let (used, stage_bad) = stage_use(&depth, &gress, budget, first, cuts.len());
        let mem_bad = mem.first_over(&states, &gress, cuts.len());
        if mem_bad.is_some_and(|m| stage_bad.is_none_or(|s| m < s)) {
            moved_for_memory = true;
        }
        let bad = match (stage_bad, mem_bad) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let next = bad.filter(|_| cuts.len() < NF_GRESSES - 1).and_then(|u| {
            let start = cuts.last().copied().unwrap_or(0);
            (start + 1..=u)
                .rev()
                .find(|&c| allowed(c))
                .or_else(|| (u + 1..pieces.len()).find(|&c| allowed(c)))
        });
        match next {
            Some(c) => cuts.push(c),
            None => {
                let overflow = used.iter().any(|&s| s > budget);
                let memory = mem.gress_memory(&states, &gress);
                if let Some(why) = mem.over(&memory) {
                    return Err(P4Error::BadPlan(format!("pipeline folding: {why}")));
                }
                return Ok((
                    gress,
                    FoldCut {
                        stages: used,
                        budget,
                        overflow,
                        memory,
                        pipe_memory: mem.pipe,
                        moved_for_memory,
                    },
                ));
            }
        }
    }
}

/// The gress of each of `n` pieces with cut points `cuts`.
fn gresses(cuts: &[usize], n: usize) -> Vec<usize> {
    (0..n)
        .map(|i| cuts.iter().filter(|&&c| c <= i).count().min(NF_GRESSES - 1))
        .collect()
}

/// Stages each NF gress uses (its pieces' depths past where the chain of the gresses
/// before it ended; the fate's stage counted in ingress 1) and the first piece of gress
/// `open` (the one the greedy may still cut) past its budget, if any.
fn stage_use(
    depth: &[u64],
    gress: &[usize],
    budget: u64,
    first: u64,
    open: usize,
) -> (Vec<u64>, Option<usize>) {
    let mut used = vec![0u64; NF_GRESSES];
    let mut end = [0u64; NF_GRESSES];
    let mut bad = None;
    for (i, &d) in depth.iter().enumerate() {
        let g = gress[i];
        let base = if g == 0 {
            0
        } else {
            end[..g].iter().copied().max().unwrap_or(0)
        };
        end[g] = end[g].max(d);
        let local = d.saturating_sub(base) + if g == 0 { first } else { 0 };
        used[g] = used[g].max(local);
        let limit = if g == NF_GRESSES - 1 {
            budget.saturating_sub(1)
        } else {
            budget
        };
        if g == open && local > limit && bad.is_none() {
            bad = Some(i);
        }
    }
    used[NF_GRESSES - 1] += 1;
    (used, bad)
}

impl Gen<'_, '_> {
    /// The stage model: the plan's stage cost of each statement and the dependence graph.
    fn stage_model(&self) -> Model<'_> {
        let func = self.func();
        let graph = tandem_analysis::compute_deps(self.view.module).graph;
        let n = graph.stmts.len();
        let mut cost = vec![1u64; n];
        for s in &self.view.plan.statements {
            if let Some(c) = cost.get_mut(s.id as usize) {
                *c = u64::from(s.stage_cost);
            }
        }
        let mut preds = vec![Vec::new(); n];
        for d in &graph.deps {
            use tandem_analysis::DepKind as K;
            let later = matches!(d.kind, K::Data | K::Raw | K::Waw);
            if d.from.index() < d.to.index() {
                preds[d.to.index()].push((d.from.index(), later));
            }
        }
        let param_stmt = graph
            .stmts
            .iter()
            .enumerate()
            .filter(|(_, s)| s.inst().is_none())
            .flat_map(|(i, s)| s.defs.iter().map(move |v| (*v, i)))
            .collect();
        Model {
            graph,
            cost,
            preds,
            param_stmt,
            func,
        }
    }

    /// The folded ingress block: pre's and post's predicated walks cut into the NF gresses,
    /// with a [`FOLD_MARK`] call between gresses.
    pub(super) fn folded_apply(
        &mut self,
        pre: Vec<Node>,
        post: Vec<Node>,
        budget: u64,
    ) -> Result<(Vec<Stmt>, FoldCut), P4Error> {
        let th = &self.view.plan.transfer_header;
        let with_header = self.view.any_server() && th.bytes > 0;
        self.use_carried_fields();
        let entry = self.func().entry();
        let mut pieces: Vec<Piece> = pieces_of(pre, entry)
            .into_iter()
            .map(|(n, b)| Piece::Pre(n, b))
            .collect();
        if with_header {
            pieces.push(Piece::Pack);
        }
        pieces.extend(
            pieces_of(post, entry)
                .into_iter()
                .map(|(n, b)| Piece::Post(n, b)),
        );
        let model = self.stage_model();
        let mem = MemModel::new(self.view.module, self.view.plan, budget);
        let visible = self.manifest.visibility_flag.is_some();
        let first = 1 + u64::from(visible);
        let (gress, cut) = assign_gresses(&model, &mem, &pieces, budget, first)?;
        let mut by_gress: Vec<Vec<Piece>> = vec![Vec::new(); NF_GRESSES];
        for (p, g) in pieces.into_iter().zip(gress) {
            by_gress[g].push(p);
        }
        // Lower every gress first: the prologue sets only the inputs some piece reads.
        let mut lowered = Vec::new();
        for ps in by_gress {
            let (mut pre_n, mut pack, mut post_n) = (Vec::new(), false, Vec::new());
            for p in ps {
                match p {
                    Piece::Pre(n, _) => pre_n.push(n),
                    Piece::Pack => pack = true,
                    Piece::Post(n, _) => post_n.push(n),
                }
            }
            self.part = Partition::Pre;
            let pre_s = self.lower_nodes(&merge_guards(pre_n))?;
            let pack_s = if pack {
                let mut p = self.pack_transfer_header();
                p.extend(self.pack_server());
                Some(p)
            } else {
                None
            };
            self.part = Partition::Post;
            let post_s = self.lower_nodes(&merge_guards(post_n))?;
            lowered.push((pre_s, pack_s, post_s));
        }
        let mut apply = Vec::new();
        for (g, (pre_s, pack_s, post_s)) in lowered.into_iter().enumerate() {
            if g > 0 {
                apply.push(call_stmt(call(name(FOLD_MARK), Vec::new())));
            }
            if g == 0 {
                apply.extend(self.fold_prologue(pre_s, with_header, visible)?);
            } else if with_header && !pre_s.is_empty() {
                apply.push(if_stmt(
                    bin(BinOp::Eq, meta("from_server"), lit(0, 1)),
                    pre_s,
                    Vec::new(),
                ));
            } else {
                apply.extend(pre_s);
            }
            if let Some(p) = pack_s {
                apply.push(if_stmt(is_one(meta("to_server")), p, Vec::new()));
            }
            if !post_s.is_empty() {
                apply.push(if_stmt(
                    bin(BinOp::Eq, meta("to_server"), lit(0, 1)),
                    post_s,
                    Vec::new(),
                ));
            }
        }
        if with_header {
            apply.push(self.server_or_fate());
        } else {
            apply.push(self.fate_stmt());
        }
        Ok((apply, cut))
    }

    /// Ingress 0's part before its pre pieces: the visibility flag, then unpack for packets
    /// from the server (`meta.from_server = 1`) or the per-packet inputs and pre.
    fn fold_prologue(
        &mut self,
        pre: Vec<Stmt>,
        with_header: bool,
        visible: bool,
    ) -> Result<Vec<Stmt>, P4Error> {
        let th = &self.view.plan.transfer_header;
        let mut apply = Vec::new();
        if visible {
            apply.push(self.reg_read(FLAG_REGISTER, meta("visible"), lit(0, 32)));
        }
        let mut local = Vec::new();
        if self.meta_index.contains_key("in_port") {
            let port = self.in_port_expr();
            local.push(assign(meta("in_port"), cast(16, port)));
        }
        if self.meta_index.contains_key("pkt_len") {
            return Err(P4Error::BadPlan(
                "pipeline folding: a switch statement reads the frame length, which TNA's \
                 ingress does not have"
                    .into(),
            ));
        }
        local.extend(self.dispatch_stmts());
        local.extend(pre);
        if !with_header {
            apply.extend(local);
            return Ok(apply);
        }
        self.meta_field("from_server", 1);
        let mut unpack = vec![assign(meta("from_server"), lit(1, 1))];
        unpack.extend(self.unpack_transfer_header(false));
        let from_server = vec![if_stmt(
            bin(BinOp::Eq, tandem("tag"), lit(u64::from(th.tag_to_post), 8)),
            unpack,
            vec![self.drop_stmt(), st(StmtKind::Exit)],
        )];
        apply.push(if_stmt(
            method(member(name("hdr"), "tandem"), "isValid", vec![]),
            from_server,
            local,
        ));
        Ok(apply)
    }
}
