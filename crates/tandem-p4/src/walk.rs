//! `structure_partition`: one switch partition's walk of the CFG as a tree of nested
//! branches (P4 has no jumps).
//!
//! A followed branch at block `b` becomes an `If`/`Switch` whose arms run from each successor
//! up to `ipdom(b)`; the walk then continues at `ipdom(b)`. A branch the partition does not
//! follow is skipped: the walk continues at `ipdom(b)`. Blocks shared by arms before the
//! join are emitted once per arm (tail duplication); the total is capped.
//!
//! ```text
//! block1: ...; brif v12, block3, block2      if (v12 == 1) { <block3 .. block4> }
//! block2: br block4(v10)             ==>      else { v25 = v10; }
//! block3: ...; br block4(v23)                 <block4 ..>
//! ```

use tandem_ir::{Block, EntityRef, InstKind, Value};
use tandem_partition::Partition;

use crate::view::View;
use crate::P4Error;

/// Largest number of tree nodes one partition may produce (tail duplication bound).
pub const MAX_NODES: usize = 200_000;

/// One step of a partition's structured walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// Run an instruction (not a terminator).
    Inst(tandem_ir::Inst),
    /// Assign a block parameter on the edge that reaches its block.
    Param {
        /// The parameter.
        param: Value,
        /// The argument passed.
        arg: Value,
    },
    /// The walk reached a block holding server statements.
    ToServer,
    /// A two-way branch on an `i1`.
    If {
        /// Condition.
        cond: Value,
        /// Taken when it is 1.
        then: Vec<Node>,
        /// Taken when it is 0.
        els: Vec<Node>,
    },
    /// Run `body` when the walk reached `block` (predicated form).
    Guard {
        /// The partition (names the flag).
        part: Partition,
        /// The block.
        block: Block,
        /// Its statements and outgoing edges.
        body: Vec<Node>,
    },
    /// Mark `block` reached (predicated form).
    Reach {
        /// The partition.
        part: Partition,
        /// The block.
        block: Block,
    },
    /// Apply the shared table of pooled pair `pool` (`lower::pool`; placed by
    /// [`crate::pool_order`]) and hand its result to whichever of its two lookups ran.
    PoolApply {
        /// The pool's index.
        pool: usize,
    },
    /// A multi-way branch.
    Switch {
        /// Scrutinee.
        arg: Value,
        /// Case values and arms.
        cases: Vec<(u64, Vec<Node>)>,
        /// Default arm.
        default: Vec<Node>,
    },
}

struct Walker<'v, 'a> {
    view: &'v View<'a>,
    part: Partition,
    nodes: usize,
    path: Vec<Block>,
    /// Blocks whose statements were emitted more than once (tail duplication).
    duplicated: bool,
    emitted: std::collections::HashSet<Block>,
}

/// The walk of switch partition `part`: nested branches when that needs no copies of blocks
/// (a P4 table may be applied at one place only), else the predicated form
/// ([`predicate_partition`]); with pooled pairs of lookups (`pools`, pool `k`'s two lookups)
/// in the partition, the predicated form ordered for them ([`crate::pool_order`]).
pub fn structure_partition(
    view: &View<'_>,
    part: Partition,
    pools: &[(tandem_ir::Inst, tandem_ir::Inst)],
) -> Result<Vec<Node>, P4Error> {
    if pools
        .iter()
        .any(|&(a, b)| view.runs_inst(part, a) && view.runs_inst(part, b))
    {
        let flat = predicate_partition(view, part)?;
        return crate::pool_order::order_for_pools(flat, part, pools);
    }
    let mut w = Walker {
        view,
        part,
        nodes: 0,
        path: Vec::new(),
        duplicated: false,
        emitted: Default::default(),
    };
    let mut out = Vec::new();
    let Some(entry) = view.module.process.entry() else {
        return Ok(out);
    };
    match w.region(entry, None, &mut out) {
        Ok(()) if !w.duplicated => {
            // Copies of blocks without lookups are allowed while they stay small.
            let flat = predicate_partition(view, part)?;
            if size(&out) > 2 * size(&flat) {
                Ok(flat)
            } else {
                Ok(out)
            }
        }
        Ok(()) | Err(P4Error::TooLarge(_)) => predicate_partition(view, part),
        Err(e) => Err(e),
    }
}

/// The predicated form of partition `part`'s walk ([`predicate_partition`]), ordered for
/// pooled pairs of lookups as [`structure_partition`] orders it: the form pipeline folding
/// cuts into gresses (`lower::fold`).
pub fn predicated_walk(
    view: &View<'_>,
    part: Partition,
    pools: &[(tandem_ir::Inst, tandem_ir::Inst)],
) -> Result<Vec<Node>, P4Error> {
    let flat = predicate_partition(view, part)?;
    if pools
        .iter()
        .any(|&(a, b)| view.runs_inst(part, a) && view.runs_inst(part, b))
    {
        return crate::pool_order::order_for_pools(flat, part, pools);
    }
    Ok(flat)
}

/// Number of nodes in a tree.
pub fn size(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| {
            1 + match n {
                Node::If { then, els, .. } => size(then) + size(els),
                Node::Guard { body, .. } => size(body),
                Node::Switch { cases, default, .. } => {
                    cases.iter().map(|(_, a)| size(a)).sum::<usize>() + size(default)
                }
                _ => 0,
            }
        })
        .sum()
}

/// The predicated form of a partition's walk: every block it may reach, in reverse
/// post-order, guarded by a per-block "reached" flag that its predecessors set.
///
/// ```text
/// block4: brif v53, block5, block33     if (pre_b4 == 1) { ...; if (v53 == 1) { pre_b5 = 1; }
///                                                               else { pre_b33 = 1; } }
/// ```
pub fn predicate_partition(view: &View<'_>, part: Partition) -> Result<Vec<Node>, P4Error> {
    let func = &view.module.process;
    let cfg = tandem_analysis::compute_cfg(func);
    let mut reached: std::collections::HashSet<Block> = Default::default();
    let mut out = Vec::new();
    let Some(entry) = func.entry() else {
        return Ok(out);
    };
    reached.insert(entry);
    let mut w = Walker {
        view,
        part,
        nodes: 0,
        path: Vec::new(),
        duplicated: false,
        emitted: Default::default(),
    };
    for &b in &cfg.rpo {
        if !reached.contains(&b) {
            continue;
        }
        let Some(data) = func.blocks.get(b) else {
            continue;
        };
        let mut body = Vec::new();
        if part == Partition::Pre && view.has_server(b) {
            body.push(Node::ToServer);
        }
        let mut term = None;
        for &inst in &data.insts {
            let kind = &func.insts[inst].kind;
            if kind.is_terminator() {
                term = Some(kind);
                break;
            }
            if view.runs_inst(part, inst) {
                w.count()?;
                body.push(Node::Inst(inst));
            }
        }
        let followed = view.follows(part, b);
        let here = cfg.rpo_index.get(b.index()).copied().flatten();
        let goto = |w: &mut Walker<'_, '_>,
                    dest: &tandem_ir::BlockCall,
                    arm: &mut Vec<Node>,
                    reached: &mut std::collections::HashSet<Block>|
         -> Result<(), P4Error> {
            let there = cfg.rpo_index.get(dest.block.index()).copied().flatten();
            if there <= here {
                return Err(P4Error::Loop {
                    partition: part.name().into(),
                    block: dest.block.to_string(),
                });
            }
            w.edge(dest, arm)?;
            arm.push(Node::Reach {
                part,
                block: dest.block,
            });
            reached.insert(dest.block);
            Ok(())
        };
        let retreats = |dest: &tandem_ir::BlockCall| {
            cfg.rpo_index.get(dest.block.index()).copied().flatten() <= here
        };
        match term {
            None | Some(InstKind::Return) => {}
            Some(InstKind::Jump { dest }) => goto(&mut w, dest, &mut body, &mut reached)?,
            Some(InstKind::Brif {
                then_dest,
                else_dest,
                ..
            }) if followed && (retreats(then_dest) != retreats(else_dest)) => {
                // A loop's exit test: only the exit edge (see `Walker::region`).
                let exit = if retreats(then_dest) {
                    else_dest
                } else {
                    then_dest
                };
                goto(&mut w, exit, &mut body, &mut reached)?;
            }
            Some(InstKind::Brif {
                cond,
                then_dest,
                else_dest,
            }) if followed => {
                let mut then = Vec::new();
                goto(&mut w, then_dest, &mut then, &mut reached)?;
                let mut els = Vec::new();
                goto(&mut w, else_dest, &mut els, &mut reached)?;
                body.push(Node::If {
                    cond: *cond,
                    then,
                    els,
                });
            }
            Some(InstKind::Switch {
                arg,
                default,
                cases,
            }) if followed => {
                let mut arms = Vec::new();
                for (val, dest) in cases {
                    let mut arm = Vec::new();
                    goto(&mut w, dest, &mut arm, &mut reached)?;
                    arms.push((*val, arm));
                }
                let mut def = Vec::new();
                goto(&mut w, default, &mut def, &mut reached)?;
                body.push(Node::Switch {
                    arg: *arg,
                    cases: arms,
                    default: def,
                });
            }
            Some(kind) => {
                if let Some(next) = view.pdom.ipdom(b) {
                    if let Some(dest) = sole_edge(func, kind, next) {
                        w.edge(dest, &mut body)?;
                    }
                    body.push(Node::Reach { part, block: next });
                    reached.insert(next);
                }
            }
        }
        if b == entry {
            out.extend(body);
        } else {
            out.push(Node::Guard {
                part,
                block: b,
                body,
            });
        }
    }
    Ok(out)
}

/// The edge of terminator `term` to `next` when it is `next`'s only incoming edge.
fn sole_edge<'f>(
    func: &tandem_ir::Function,
    term: &'f InstKind,
    next: Block,
) -> Option<&'f tandem_ir::BlockCall> {
    let dest = term.successors().into_iter().find(|d| d.block == next)?;
    let incoming: usize = func
        .blocks
        .iter()
        .filter_map(|(b, _)| func.terminator(b))
        .map(|t| {
            func.insts[t]
                .kind
                .successors()
                .iter()
                .filter(|d| d.block == next)
                .count()
        })
        .sum();
    (incoming == 1).then_some(dest)
}

impl Walker<'_, '_> {
    fn count(&mut self) -> Result<(), P4Error> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(P4Error::TooLarge(self.part.name().into()));
        }
        Ok(())
    }

    fn has_lookup(&self, b: Block) -> bool {
        let func = &self.view.module.process;
        func.blocks.get(b).is_some_and(|d| {
            d.insts.iter().any(|&i| {
                matches!(func.insts[i].kind, InstKind::MapFind { .. })
                    && self.view.runs_inst(self.part, i)
            })
        })
    }

    fn edge(&mut self, dest: &tandem_ir::BlockCall, out: &mut Vec<Node>) -> Result<(), P4Error> {
        let func = &self.view.module.process;
        let Some(data) = func.blocks.get(dest.block) else {
            return Err(P4Error::BadPlan(format!("no {}", dest.block)));
        };
        for (&param, &arg) in data.params.iter().zip(&dest.args) {
            if self.view.runs_param(self.part, param) {
                self.count()?;
                out.push(Node::Param { param, arg });
            }
        }
        Ok(())
    }

    fn region(
        &mut self,
        start: Block,
        stop: Option<Block>,
        out: &mut Vec<Node>,
    ) -> Result<(), P4Error> {
        let func = &self.view.module.process;
        let depth = self.path.len();
        let mut b = start;
        let result = loop {
            if Some(b) == stop {
                break Ok(());
            }
            if self.path.contains(&b) {
                break Err(P4Error::Loop {
                    partition: self.part.name().into(),
                    block: b.to_string(),
                });
            }
            self.path.push(b);
            let Some(data) = func.blocks.get(b) else {
                break Err(P4Error::BadPlan(format!("no {b}")));
            };
            // A P4 table may be applied at one place only: copying a block with a lookup
            // forces the predicated form.
            if !self.emitted.insert(b) && self.has_lookup(b) {
                self.duplicated = true;
            }
            if self.part == Partition::Pre && self.view.has_server(b) {
                self.count()?;
                out.push(Node::ToServer);
            }
            let mut term = None;
            for &inst in &data.insts {
                let kind = &func.insts[inst].kind;
                if kind.is_terminator() {
                    term = Some(kind);
                    break;
                }
                if self.view.runs_inst(self.part, inst) {
                    self.count()?;
                    out.push(Node::Inst(inst));
                }
            }
            let ipdom = self.view.pdom.ipdom(b);
            let followed = self.view.follows(self.part, b);
            // A loop's exit test (one successor is a block of the walk so far, reached again by
            // the back edge): the loop runs on the server (P4 has no loops), so a switch
            // partition that gets here is past it and only the exit edge can be taken.
            if let Some(InstKind::Brif {
                then_dest,
                else_dest,
                ..
            }) = term
            {
                let (t, e) = (
                    self.path.contains(&then_dest.block),
                    self.path.contains(&else_dest.block),
                );
                if followed && t != e {
                    let exit = if t { else_dest } else { then_dest };
                    self.edge(exit, out)?;
                    b = exit.block;
                    continue;
                }
            }
            match term {
                None | Some(InstKind::Return) => break Ok(()),
                Some(InstKind::Jump { dest }) => {
                    self.edge(dest, out)?;
                    b = dest.block;
                    continue;
                }
                Some(InstKind::Brif {
                    cond,
                    then_dest,
                    else_dest,
                }) if followed => {
                    let mut then = Vec::new();
                    self.edge(then_dest, &mut then)?;
                    self.region(then_dest.block, ipdom, &mut then)?;
                    let mut els = Vec::new();
                    self.edge(else_dest, &mut els)?;
                    self.region(else_dest.block, ipdom, &mut els)?;
                    self.count()?;
                    out.push(Node::If {
                        cond: *cond,
                        then,
                        els,
                    });
                }
                Some(InstKind::Switch {
                    arg,
                    default,
                    cases,
                }) if followed => {
                    let mut arms = Vec::new();
                    for (val, dest) in cases {
                        let mut arm = Vec::new();
                        self.edge(dest, &mut arm)?;
                        self.region(dest.block, ipdom, &mut arm)?;
                        arms.push((*val, arm));
                    }
                    let mut def = Vec::new();
                    self.edge(default, &mut def)?;
                    self.region(default.block, ipdom, &mut def)?;
                    self.count()?;
                    out.push(Node::Switch {
                        arg: *arg,
                        cases: arms,
                        default: def,
                    });
                }
                Some(kind) => {
                    // Not followed: the walk goes on at the immediate post-dominator, whose
                    // parameters are still assigned when its only incoming edge is from here.
                    if let Some(dest) = ipdom.and_then(|next| sole_edge(func, kind, next)) {
                        self.edge(dest, out)?;
                    }
                }
            }
            match ipdom {
                Some(next) => b = next,
                None => break Ok(()),
            }
        };
        self.path.truncate(depth);
        result
    }
}
