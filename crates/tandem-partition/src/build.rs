//! From labels to an assignment, and from an assignment to everything the Plan records:
//! followed branches, cut values, recomputed values, the transfer header, state placement
//! and resource use.

use crate::labels::{Context, Labelling, Reason, Rule};
use crate::plan::*;
use std::collections::{BTreeMap, BTreeSet};
use tandem_analysis::{StmtId, StmtKind};
use tandem_ir::{Block, EntityRef, InstKind, Type, Value};

/// Partitions from labels: `pre` if allowed, else `post` if allowed, else `server`; then
/// **sinking**, backwards in program order: a statement that could run in pre or post moves
/// to post when every statement depending on it runs in post — pure operations, header
/// reads, joins, branches, and reads of state the switch never writes; `send` and `drop`
/// move even without dependents (the packet's fate is then decided after the server and
/// need not travel). This keeps values only post needs out of the pre → post cut; stage
/// limits still hold because the statement kept its `post` label.
pub(crate) fn assign(ctx: &Context, lab: &Labelling) -> Vec<Partition> {
    let g = &ctx.info.graph;
    let mut parts: Vec<Partition> = (0..ctx.n)
        .map(|i| {
            if lab.pre[i] {
                Partition::Pre
            } else if lab.post[i] {
                Partition::Post
            } else {
                Partition::Server
            }
        })
        .collect();
    let switch_written: Vec<bool> = ctx
        .accesses_of
        .iter()
        .map(|list| {
            list.iter()
                .any(|s| lab.on_switch(*s) && ctx.access[s.index()].is_some_and(|a| a.writes))
        })
        .collect();
    for i in (0..ctx.n).rev() {
        if parts[i] != Partition::Pre || !lab.post[i] {
            continue;
        }
        let stmt = g.stmt(StmtId(i as u32));
        let (movable, vacuous) = match stmt.kind {
            StmtKind::Param { .. } => (true, false),
            StmtKind::Inst(inst) => match &ctx.module.process.insts[inst].kind {
                InstKind::Binary { .. }
                | InstKind::Icmp { .. }
                | InstKind::Cast { .. }
                | InstKind::Select { .. }
                | InstKind::Bswap { .. }
                | InstKind::Hash { .. }
                | InstKind::HdrRead { .. }
                | InstKind::HdrValid { .. }
                | InstKind::Brif { .. }
                | InstKind::Switch { .. } => (true, false),
                InstKind::Send { .. } | InstKind::Drop => (true, true),
                InstKind::MapFind { state, .. }
                | InstKind::VecGet { state, .. }
                | InstKind::ScalarLoad { state } => (!switch_written[state.index()], false),
                _ => (false, false),
            },
        };
        if movable
            && (vacuous || !g.succs[i].is_empty())
            && g.succs[i]
                .iter()
                .all(|q| parts[q.index()] == Partition::Post)
        {
            parts[i] = Partition::Post;
        }
    }
    parts
}

/// One value crossing one cut.
#[derive(Clone, Debug)]
pub(crate) struct CutEntry {
    pub name: String,
    pub bits: u32,
    pub def: Option<StmtId>,
    pub from: Partition,
    pub to: Partition,
    /// Carried in the transfer header (a packet that visits the server may need it).
    pub in_header: bool,
}

/// Everything derived from an assignment.
#[derive(Clone, Debug)]
pub(crate) struct Evaluation {
    pub parts: Vec<Partition>,
    pub follows: BTreeMap<Partition, BTreeSet<Block>>,
    pub cuts: Vec<CutEntry>,
    pub remat: BTreeMap<Partition, BTreeSet<Value>>,
    pub header: TransferHeader,
    pub chain_pre: u64,
    pub chain_post: u64,
    pub meta_pre: u64,
    pub meta_post: u64,
    pub states: Vec<StatePlacement>,
    pub sram: u64,
    pub tcam: u64,
    pub tables: u64,
    pub salus: u64,
}

impl Evaluation {
    pub fn resources(&self, ctx: &Context) -> Resources {
        let p = ctx.profile;
        let b = |x: Option<u32>| x.map(u64::from);
        Resources {
            stages_pre: Use {
                used: self.chain_pre,
                budget: b(p.stages),
            },
            stages_post: Use {
                used: self.chain_post,
                budget: b(p.stages),
            },
            sram_blocks: Use {
                used: self.sram,
                budget: p.total_sram_blocks(),
            },
            // Left out of the plan when no LPM table uses TCAM (then it reads back as this
            // default), so plans without LPM maps are as before.
            tcam_blocks: if self.tcam == 0 {
                Use::default()
            } else {
                Use {
                    used: self.tcam,
                    budget: p.total_tcam_blocks(),
                }
            },
            tables: Use {
                used: self.tables,
                budget: p.total_tables(),
            },
            stateful_alus: Use {
                used: self.salus,
                budget: p.total_salus(),
            },
            metadata_pre: Use {
                used: self.meta_pre,
                budget: b(p.metadata_bytes),
            },
            metadata_post: Use {
                used: self.meta_post,
                budget: b(p.metadata_bytes),
            },
            transfer_header: Use {
                used: u64::from(self.header.bytes),
                budget: b(p.transfer_header_bytes),
            },
        }
    }
}

pub(crate) fn bits_of(ctx: &Context, v: Value) -> u32 {
    ctx.module
        .process
        .value_type(v)
        .map(Type::bits)
        .unwrap_or(1)
}

pub(crate) fn follows_of(ctx: &Context, parts: &[Partition], x: Partition) -> BTreeSet<Block> {
    let g = &ctx.info.graph;
    let mut out = BTreeSet::new();
    let mut done_blocks: BTreeSet<Block> = BTreeSet::new();
    for (i, s) in g.stmts.iter().enumerate() {
        if parts[i] != x {
            continue;
        }
        if done_blocks.insert(s.block) {
            out.extend(ctx.ctrl_closure[s.block.index()].iter().copied());
        }
        if let StmtKind::Param { block, .. } = s.kind {
            out.extend(ctx.gating_closure[block.index()].iter().copied());
        }
        if g.term_stmt(s.block).is_some_and(|t| t.index() == i) {
            out.insert(s.block);
        }
    }
    out
}

/// Can partition `x` recompute the value defined by `d` (needed in block `at`) for free,
/// from what it has? Header presence; a header field that no earlier partition may write
/// after the read, nor relayout (push, pop, select-field write), on a path through `at`; on
/// the server, a scalar the switch never writes
/// (the server holds the primary copy); and zero-stage operations (casts, byte swaps,
/// slices, boolean logic) of such values. Real work (a stage on the switch, cycles on the
/// server) is never duplicated.
fn recomputable(
    ctx: &Context,
    parts: &[Partition],
    d: StmtId,
    x: Partition,
    at: Block,
    depth: u32,
) -> bool {
    if depth > 64 {
        return false;
    }
    let g = &ctx.info.graph;
    let stmt = g.stmt(d);
    let Some(inst) = stmt.inst() else {
        return false;
    };
    match &ctx.module.process.insts[inst].kind {
        // Presence is the parser's unless a push or pop may change it.
        InstKind::HdrValid { .. } => ctx.relayouts.is_empty(),
        // A field, unless an earlier partition may write it after the read, or may push, pop
        // or write a select field on a path through `at` (before or after the read: the
        // frame `x` re-parses is the one that partition rebuilt, its headers elsewhere).
        InstKind::HdrRead { field } => {
            !ctx.field_writers[field].iter().any(|&w| {
                parts[w.index()] < x
                    && g.can_happen_after(&ctx.info.cfg, d, w)
                    && share_path(ctx, g.stmt(w).block, at)
            }) && !ctx
                .relayouts
                .iter()
                .any(|&w| parts[w.index()] < x && share_path(ctx, g.stmt(w).block, at))
        }
        InstKind::ScalarLoad { state } => {
            x == Partition::Server
                && !ctx.accesses_of[state.index()].iter().any(|&a| {
                    parts[a.index()].on_switch() && ctx.access[a.index()].is_some_and(|a| a.writes)
                })
        }
        kind @ (InstKind::Binary { .. }
        | InstKind::Icmp { .. }
        | InstKind::Cast { .. }
        | InstKind::Select { .. }
        | InstKind::Bswap { .. }) => {
            // A select of recomputable values is a choice of field (`tcp ? tcp->sport :
            // udp->sport`), not work: the server makes it too.
            let free = ctx.cost[d.index()] == 0
                || (x == Partition::Server && matches!(kind, InstKind::Select { .. }));
            free && stmt.uses.iter().all(|&u| match g.def_stmt(u) {
                None => true,
                Some(du) => {
                    parts[du.index()] == x || recomputable(ctx, parts, du, x, at, depth + 1)
                }
            })
        }
        _ => false,
    }
}

/// Values partition `x` uses, each with the block where it is used (for a join parameter:
/// the predecessor passing it).
fn needs_of(
    ctx: &Context,
    parts: &[Partition],
    x: Partition,
    follows: &BTreeSet<Block>,
) -> Vec<(Value, Block)> {
    let g = &ctx.info.graph;
    let f = &ctx.module.process;
    let mut need = Vec::new();
    for (i, s) in g.stmts.iter().enumerate() {
        if parts[i] != x {
            continue;
        }
        match s.kind {
            StmtKind::Param { block, index } => {
                for &p in &ctx.info.cfg.preds[block.index()] {
                    let Some(t) = f.terminator(p) else { continue };
                    for c in f.insts[t].kind.successors() {
                        if c.block == block {
                            if let Some(&a) = c.args.get(index) {
                                need.push((a, p));
                            }
                        }
                    }
                }
            }
            StmtKind::Inst(_) => need.extend(s.uses.iter().map(|&u| (u, s.block))),
        }
    }
    for &b in follows {
        if let Some(t) = g.term_stmt(b) {
            if parts[t.index()] != x {
                need.extend(g.stmt(t).uses.iter().map(|&u| (u, b)));
            }
        }
    }
    need.sort();
    need.dedup();
    need
}

/// A value crossing into a partition: where from, and the blocks where it is used.
#[derive(Clone, Debug)]
pub(crate) struct Crossing {
    pub from: Partition,
    pub uses: BTreeSet<Block>,
}

pub(crate) type CutMap = BTreeMap<(Value, Partition), Crossing>;

/// Cut values and recomputed values for server and post.
pub(crate) fn cuts_of(
    ctx: &Context,
    parts: &[Partition],
    follows: &BTreeMap<Partition, BTreeSet<Block>>,
) -> (CutMap, BTreeMap<Partition, BTreeSet<Value>>) {
    let g = &ctx.info.graph;
    let mut cut: CutMap = BTreeMap::new();
    let mut remat: BTreeMap<Partition, BTreeSet<Value>> = BTreeMap::new();
    for x in [Partition::Server, Partition::Post] {
        let mut rm: BTreeSet<Value> = BTreeSet::new();
        let mut work = needs_of(ctx, parts, x, &follows[&x]);
        let mut seen = BTreeSet::new();
        while let Some((v, at)) = work.pop() {
            if !seen.insert((v, at)) {
                continue;
            }
            let Some(d) = g.def_stmt(v) else { continue };
            if parts[d.index()] >= x {
                continue;
            }
            if recomputable(ctx, parts, d, x, at, 0) {
                rm.insert(v);
                work.extend(g.stmt(d).uses.iter().map(|&u| (u, at)));
            } else {
                cut.entry((v, x))
                    .or_insert(Crossing {
                        from: parts[d.index()],
                        uses: BTreeSet::new(),
                    })
                    .uses
                    .insert(at);
            }
        }
        // A free cast or byte swap of a value that crosses anyway is recomputed instead.
        loop {
            let mut changed = false;
            let keys: Vec<Value> = cut.keys().filter(|k| k.1 == x).map(|k| k.0).collect();
            for v in keys {
                let Some(d) = g.def_stmt(v) else { continue };
                let Some(inst) = g.stmt(d).inst() else {
                    continue;
                };
                let (InstKind::Cast { arg, .. } | InstKind::Bswap { arg }) =
                    ctx.module.process.insts[inst].kind
                else {
                    continue;
                };
                // The argument must be there at every block that uses `v`: crossing, computed
                // in `x`, or recomputable at each of those blocks (a header field pre writes on
                // a path through one of them is not: `rm` holds what is recomputable at
                // *some* use).
                let uses = cut.get(&(v, x)).map(|c| &c.uses);
                let here = cut.contains_key(&(arg, x))
                    || g.def_stmt(arg).is_some_and(|da| parts[da.index()] == x)
                    || (rm.contains(&arg)
                        && g.def_stmt(arg).is_some_and(|da| {
                            uses.into_iter()
                                .flatten()
                                .all(|&at| recomputable(ctx, parts, da, x, at, 0))
                        }));
                if here && ctx.cost[d.index()] == 0 {
                    if let Some(c) = cut.remove(&(v, x)) {
                        if let Some(a) = cut.get_mut(&(arg, x)) {
                            a.uses.extend(c.uses);
                        }
                    }
                    rm.insert(v);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // A value that must travel for one use is not recomputed for another.
        rm.retain(|v| !cut.contains_key(&(*v, x)));
        remat.insert(x, rm);
    }
    (cut, remat)
}

/// Can one packet's path pass through both blocks?
pub(crate) fn share_path(ctx: &Context, a: Block, b: Block) -> bool {
    a == b || ctx.info.cfg.path(a, b) || ctx.info.cfg.path(b, a)
}

pub(crate) fn layout_bits(l: &tandem_ir::Layout) -> u64 {
    l.types().map(|t| u64::from(t.bits())).sum()
}

fn loc_string(ctx: &Context, loc: Option<tandem_ir::SourceLoc>, col: bool) -> Option<String> {
    // The NF's own line (for code inlined from the NF API, the line that called it).
    let l = loc?.user();
    let file = ctx.module.files.get(l.file)?;
    Some(if col {
        format!("{file}:{}:{}", l.line, l.col)
    } else {
        format!("{file}:{}", l.line)
    })
}

/// A statement's C++ position: its own; for an instruction without one, the nearest
/// located instruction of its block (before it, then after it); otherwise (and for a join
/// parameter) the last located instruction of the nearest predecessor block.
pub(crate) fn stmt_loc(ctx: &Context, s: StmtId) -> Option<tandem_ir::SourceLoc> {
    let st = ctx.info.graph.stmt(s);
    if st.loc.is_some() {
        return st.loc;
    }
    let f = &ctx.module.process;
    if let StmtKind::Inst(_) = st.kind {
        let insts = &f.blocks[st.block].insts;
        let before = insts[..st.pos].iter().rev();
        let after = insts[st.pos + 1..].iter();
        if let Some(l) = before.chain(after).find_map(|&i| f.insts[i].loc) {
            return Some(l);
        }
    }
    // Breadth-first backwards through predecessors.
    let mut seen = BTreeSet::new();
    let mut queue = std::collections::VecDeque::from(ctx.info.cfg.preds[st.block.index()].clone());
    while let Some(b) = queue.pop_front() {
        if !seen.insert(b) {
            continue;
        }
        if let Some(l) = f.blocks[b].insts.iter().rev().find_map(|&i| f.insts[i].loc) {
            return Some(l);
        }
        queue.extend(ctx.info.cfg.preds[b.index()].iter().copied());
    }
    None
}

/// The IR text of a statement.
pub(crate) fn stmt_text(ctx: &Context, s: StmtId) -> String {
    let st = ctx.info.graph.stmt(s);
    match st.kind {
        StmtKind::Inst(i) => {
            let text = tandem_ir::print_inst(ctx.module, &ctx.module.process, i);
            // The position is reported separately.
            match text.rfind(" at f") {
                Some(k) if ctx.module.process.insts[i].loc.is_some() => text[..k].to_string(),
                _ => text,
            }
        }
        StmtKind::Param { block, index } => {
            let v = ctx.module.process.blocks[block].params[index];
            format!("{block}({v}:{})", ctx.module.process.values[v].ty)
        }
    }
}

/// One sentence explaining a reason.
pub(crate) fn explain(ctx: &Context, r: &Reason, label: &str) -> String {
    let state = r
        .state
        .and_then(|s| ctx.module.states.get(s))
        .map(|s| s.name.clone())
        .unwrap_or_default();
    let via = r.via.map(|v| format!("{v}")).unwrap_or_default();
    match r.rule {
        Rule::Unsupported => r.detail.clone(),
        Rule::R5 => r.detail.clone(),
        Rule::R1 => format!("{via} depends on it and cannot run in post"),
        Rule::R2 => format!("it depends on {via}, which cannot run in pre"),
        Rule::R3 => format!(
            "{via} accesses `{state}` before it (a dependency) and can run in pre; one access per pass"
        ),
        Rule::R4 => format!(
            "{via} accesses `{state}` after it (a dependency) and can run in post; one access per pass"
        ),
        Rule::R6 => format!(
            "it writes `{state}`, which {via} accesses on the server; replicated state is written only by the server"
        ),
        Rule::R7 => format!("its register read-modify-write partner {via} cannot run in {label}"),
        Rule::R8 if r.via.is_none() => r.detail.clone(),
        Rule::R8 => format!(
            "{via} before it changes how the frame parses and runs on the server, so the switch would re-parse the frame the server rebuilt"
        ),
        Rule::Memory | Rule::Stages | Rule::SingleAccess | Rule::Metadata | Rule::TransferHeader => {
            r.detail.clone()
        }
    }
}

fn why(ctx: &Context, r: &Reason, label: &str) -> Why {
    Why {
        rule: r.rule.code().to_string(),
        reason: explain(ctx, r, label),
        origin: r.origin.0,
        origin_text: stmt_text(ctx, r.origin),
        origin_loc: loc_string(ctx, stmt_loc(ctx, r.origin), false),
        via: r.via.map(|v| v.0),
    }
}

/// The estimated share of packets that visit the server: the probability of reaching a
/// block that holds a server statement when every branch splits its packets evenly (a
/// static estimate without a traffic profile; back edges carry nothing — loops run on the
/// server anyway). The refinement uses it to keep the common path on the switch.
///
/// ```text
/// block0: brif syn, block1, block2      block1 on the server: 0.5
/// block1: (server) ...                  block2 on the server too: 1.0
/// ```
pub(crate) fn server_share(ctx: &Context, parts: &[Partition]) -> f64 {
    estimated_server_share(ctx.info, parts)
}

/// [`server_share`] from the dependency info alone (`parts[i]`: statement `i`'s partition).
pub fn estimated_server_share(info: &tandem_analysis::DepInfo, parts: &[Partition]) -> f64 {
    let cfg = &info.cfg;
    let server = server_block_flags(info, parts);
    // Mass reaching each block without having visited the server.
    let mut mass = vec![0.0f64; cfg.num_blocks];
    let Some(&entry) = cfg.rpo.first() else {
        return 0.0;
    };
    mass[entry.index()] = 1.0;
    let mut visited = 0.0;
    for &b in &cfg.rpo {
        let m = mass[b.index()];
        if m == 0.0 {
            continue;
        }
        if server[b.index()] {
            visited += m;
            continue;
        }
        let here = cfg.rpo_index.get(b.index()).copied().flatten();
        let succs = &cfg.succs[b.index()];
        let share = m / succs.len().max(1) as f64;
        for &t in succs {
            if cfg.rpo_index.get(t.index()).copied().flatten() > here {
                mass[t.index()] += share;
            }
        }
    }
    visited.min(1.0)
}

/// Per block: does it hold a server statement?
fn server_block_flags(info: &tandem_analysis::DepInfo, parts: &[Partition]) -> Vec<bool> {
    let mut server = vec![false; info.cfg.num_blocks];
    for (i, s) in info.graph.stmts.iter().enumerate() {
        if parts[i] == Partition::Server {
            server[s.block.index()] = true;
        }
    }
    server
}

/// Statements in blocks reachable from the entry without passing a server block.
fn fast_path(ctx: &Context, parts: &[Partition]) -> u32 {
    let g = &ctx.info.graph;
    let cfg = &ctx.info.cfg;
    let server = server_block_flags(ctx.info, parts);
    let mut seen = vec![false; cfg.num_blocks];
    let mut stack: Vec<Block> = cfg.rpo.first().copied().into_iter().collect();
    while let Some(b) = stack.pop() {
        if server[b.index()] || std::mem::replace(&mut seen[b.index()], true) {
            continue;
        }
        stack.extend(cfg.succs[b.index()].iter().copied());
    }
    g.stmts.iter().filter(|s| seen[s.block.index()]).count() as u32
}

pub(crate) fn build_plan(ctx: &Context, lab: &Labelling, ev: &Evaluation, moves: u32) -> Plan {
    let g = &ctx.info.graph;
    let mut statements = Vec::new();
    let mut counts = [0u32; 3];
    for (i, s) in g.stmts.iter().enumerate() {
        let id = StmtId(i as u32);
        let part = ev.parts[i];
        counts[part as usize] += 1;
        let (w, wp) = match part {
            Partition::Pre => (None, None),
            Partition::Post => (
                lab.why_not_pre[i].as_ref().map(|r| why(ctx, r, "pre")),
                None,
            ),
            Partition::Server => {
                let a = lab.why_not_pre[i].as_ref().map(|r| why(ctx, r, "pre"));
                let b = lab.why_not_post[i].as_ref().map(|r| why(ctx, r, "post"));
                let b = if a.as_ref().map(|w| (&w.rule, w.origin))
                    == b.as_ref().map(|w| (&w.rule, w.origin))
                {
                    None
                } else {
                    b
                };
                (a, b)
            }
        };
        let (index, param) = match s.kind {
            StmtKind::Inst(_) => (Some(s.pos as u32), None),
            StmtKind::Param { index, .. } => (None, Some(index as u32)),
        };
        statements.push(PlanStmt {
            id: id.0,
            block: s.block.as_u32(),
            index,
            param,
            text: stmt_text(ctx, id),
            loc: loc_string(ctx, stmt_loc(ctx, id), true),
            partition: part,
            stage_cost: ctx.cost[i],
            why: w,
            why_not_post: wp,
        });
    }
    let ir = tandem_ir::print_module(ctx.module);
    let mut cuts = Cuts::default();
    for c in &ev.cuts {
        let cv = CutValue {
            value: c.name.clone(),
            bits: c.bits,
            def: c.def.map(|d| d.0),
            in_header: c.in_header,
        };
        match (c.from, c.to) {
            (Partition::Pre, Partition::Server) => cuts.pre_to_server.push(cv),
            (Partition::Pre, Partition::Post) => cuts.pre_to_post.push(cv),
            _ => cuts.server_to_post.push(cv),
        }
    }
    let names = |x: Partition| -> Vec<String> {
        ev.remat
            .get(&x)
            .map(|s| s.iter().map(|v| v.to_string()).collect())
            .unwrap_or_default()
    };
    let blocks = |x: Partition| -> Vec<u32> {
        ev.follows
            .get(&x)
            .map(|s| s.iter().map(|b| b.as_u32()).collect())
            .unwrap_or_default()
    };
    Plan {
        version: PLAN_VERSION,
        nf: ctx.module.name.clone(),
        target: ctx.profile.name.clone(),
        ir_digest: ir_digest(&ir),
        ir,
        summary: Summary {
            pre: counts[0],
            server: counts[1],
            post: counts[2],
            label_removals: moves,
            fast_path: fast_path(ctx, &ev.parts),
        },
        statements,
        cuts,
        remat: Remat {
            server: names(Partition::Server),
            post: names(Partition::Post),
        },
        follows: Follows {
            pre: blocks(Partition::Pre),
            server: blocks(Partition::Server),
            post: blocks(Partition::Post),
        },
        transfer_header: ev.header.clone(),
        states: ev.states.clone(),
        resources: ev.resources(ctx),
        state_classes: Vec::new(),
    }
}
