//! Resource refinement (Gallium §4.2.2): move statements to the server until the switch
//! partitions fit the target. In order:
//!
//! 1. **C2 stages**: remove `pre` from statements whose dependency distance from the start
//!    of the pipeline exceeds the stage count, and `post` from those whose distance to the
//!    end exceeds it (pre runs in ingress, post in egress: each has `stages` stages).
//! 2. **C3 one access per state object**: for every state object that the switch writes (or
//!    every object, when the profile does not allow duplicate read-only tables) and that
//!    keeps more than one switch access, try every choice of the one access that stays on
//!    the switch (or none), re-running the labelling for each, and keep the choice with the
//!    most switch statements (exhaustive up to a limit of combinations, then state by state).
//! 3. **C1 memory**: while SRAM, tables or stateful ALUs are over budget, move every access
//!    of the largest switch state object to the server.
//! 4. **C4 metadata and C5 transfer header**: the candidates are the switch statements on
//!    the server boundary in a fixed topological order — post statements first, then pre
//!    statements backwards from it (Gallium's greedy scan). Each step tries the first
//!    [`GREEDY_TRIES`] candidates, re-running the labelling for each, and takes the move that
//!    lowers the excess while sending the smallest share of packets to the server
//!    ([`crate::build::server_share`]; ties: the larger reduction, then the earlier
//!    candidate). Moving the one statement every packet runs (`send(out_port)`'s load) would
//!    also shrink the header, but it would end the fast path; moving work on paths that
//!    visit the server anyway costs nothing. When no candidate lowers the excess, the one
//!    that costs the fewest packets moves regardless.

use crate::build::Evaluation;
use crate::evaluate::evaluate;
use crate::labels::{Context, Labelling, Reason, Rule, Which};
use tandem_analysis::StmtId;

fn reason(rule: Rule, s: StmtId, detail: String) -> Reason {
    Reason {
        rule,
        origin: s,
        via: None,
        state: None,
        detail,
    }
}

/// C2: dependency distances.
pub(crate) fn trim_stages(ctx: &Context, lab: &mut Labelling) -> u32 {
    let Some(k) = ctx.profile.stages else {
        return 0;
    };
    let k = u64::from(k);
    let mut moves = 0;
    let depth = ctx.depths(|i| lab.pre[i]);
    for (i, &d) in depth.iter().enumerate() {
        if lab.pre[i] && d > k {
            let s = StmtId(i as u32);
            let why = format!(
                "it ends {d} stages into the pipeline; {} has {k} stages",
                ctx.profile.name
            );
            moves += u32::from(lab.remove(s, Which::Pre, reason(Rule::Stages, s, why)));
        }
    }
    let height = ctx.heights(|i| lab.post[i]);
    for (i, &h) in height.iter().enumerate() {
        if lab.post[i] && h > k {
            let s = StmtId(i as u32);
            let why = format!(
                "{h} stages of dependent work start with it; {} has {k} stages",
                ctx.profile.name
            );
            moves += u32::from(lab.remove(s, Which::Post, reason(Rule::Stages, s, why)));
        }
    }
    ctx.fixpoint(lab);
    moves
}

/// Access units of a state object that are still on the switch (a fused load/store is one),
/// grouped by [`exclusive_groups`].
fn switch_units(ctx: &Context, lab: &Labelling, state: usize) -> Vec<Vec<StmtId>> {
    let mut units: Vec<Vec<StmtId>> = Vec::new();
    for &s in &ctx.accesses_of[state] {
        if !lab.on_switch(s) {
            continue;
        }
        if let Some(partner) = ctx.fused_with[s.index()] {
            if let Some(u) = units.iter_mut().find(|u| u.contains(&partner)) {
                u.push(s);
                continue;
            }
        }
        units.push(vec![s]);
    }
    let kind = &ctx.module.states[tandem_ir::StateId::from_u32(state as u32)].kind;
    if matches!(
        kind,
        tandem_ir::StateKind::Scalar { .. } | tandem_ir::StateKind::Vector { .. }
    ) {
        exclusive_groups(ctx, units)
    } else {
        units
    }
}

/// Groups the access units of a register-held object (scalar, vector) that no single
/// packet can run together: two units on mutually exclusive paths (neither reachable from the other in the CFG — the two arms of an `if`)
/// never compete for the object's one access per pass, so they stay on the switch together.
/// A pipeline, like a Tofino register with one `RegisterAction` per arm, serves each packet
/// at most one of them.
///
/// Before (the counter is bumped in both arms of `if (in_port == outside)`):
/// `[[load, store]@then, [load, store]@else]` — two units compete, one goes to the server.
/// After: `[[load, store, load, store]]` — one group, both stay.
///
/// Units are grouped greedily in program order: a unit joins the first group whose every
/// unit is exclusive with it. Maps are not grouped: a map the switch holds is a table, and
/// a table is applied at one place (p4c-bm2-ss: "table has multiple successors").
fn exclusive_groups(ctx: &Context, units: Vec<Vec<StmtId>>) -> Vec<Vec<StmtId>> {
    let g = &ctx.info.graph;
    let cfg = &ctx.info.cfg;
    let together = |a: StmtId, b: StmtId| {
        a == b || g.can_happen_after(cfg, a, b) || g.can_happen_after(cfg, b, a)
    };
    let mut groups: Vec<Vec<StmtId>> = Vec::new();
    for u in units {
        let home = groups
            .iter_mut()
            .find(|grp| grp.iter().all(|&x| u.iter().all(|&y| !together(x, y))));
        match home {
            Some(grp) => grp.extend(u),
            None => groups.push(u),
        }
    }
    groups
}

fn needs_single_access(ctx: &Context, lab: &Labelling, state: usize) -> bool {
    !ctx.profile.duplicate_readonly_tables
        || ctx.accesses_of[state]
            .iter()
            .any(|s| lab.on_switch(*s) && ctx.access[s.index()].is_some_and(|a| a.writes))
}

fn apply_choice(
    ctx: &Context,
    lab: &mut Labelling,
    choice: &[(usize, Vec<Vec<StmtId>>, usize)],
) -> u32 {
    let mut moves = 0;
    for (state, units, keep) in choice {
        let name = &ctx.module.states[tandem_ir::StateId::from_u32(*state as u32)].name;
        for (i, u) in units.iter().enumerate() {
            if i == *keep {
                continue;
            }
            let kept = units
                .get(*keep)
                .map(|k| format!("{} stays on the switch", k[0]))
                .unwrap_or_else(|| "no access stays on the switch".into());
            for &s in u {
                let mut r = reason(
                    Rule::SingleAccess,
                    s,
                    format!(
                        "`{name}` can be accessed once per pass through the switch pipeline; {} accesses compete ({kept})",
                        units.len()
                    ),
                );
                r.state = Some(tandem_ir::StateId::from_u32(*state as u32));
                moves += u32::from(lab.move_to_server(s, r));
            }
        }
    }
    ctx.fixpoint(lab);
    moves
}

/// C3: one access per state object, by exhaustive search.
pub(crate) fn single_access(ctx: &Context, lab: &mut Labelling, limit: usize) -> u32 {
    let mut moves = 0;
    loop {
        let conflicts: Vec<(usize, Vec<Vec<StmtId>>)> = (0..ctx.accesses_of.len())
            .filter(|&s| needs_single_access(ctx, lab, s))
            .map(|s| (s, switch_units(ctx, lab, s)))
            .filter(|(_, u)| u.len() > 1)
            .collect();
        if conflicts.is_empty() {
            return moves;
        }
        let combos: usize = conflicts
            .iter()
            .map(|(_, u)| u.len() + 1)
            .try_fold(1usize, |a, b| a.checked_mul(b))
            .unwrap_or(usize::MAX);
        // Exhaustive over all conflicting states when small, else the first state alone.
        let scope = if combos <= limit { conflicts.len() } else { 1 };
        let scoped = &conflicts[..scope];
        let mut best: Option<(usize, Vec<usize>)> = None;
        let mut idx = vec![0usize; scope];
        loop {
            let choice: Vec<(usize, Vec<Vec<StmtId>>, usize)> = scoped
                .iter()
                .zip(&idx)
                .map(|((s, u), &k)| (*s, u.clone(), k))
                .collect();
            let mut trial = lab.clone();
            apply_choice(ctx, &mut trial, &choice);
            let score = trial.switch_count();
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, idx.clone()));
            }
            // Next combination (odometer); option `len` = keep none.
            let mut carry = true;
            for (j, (_, u)) in scoped.iter().enumerate() {
                if !carry {
                    break;
                }
                idx[j] += 1;
                if idx[j] > u.len() {
                    idx[j] = 0;
                } else {
                    carry = false;
                }
            }
            if carry {
                break;
            }
        }
        let Some((_, pick)) = best else { return moves };
        let choice: Vec<(usize, Vec<Vec<StmtId>>, usize)> = scoped
            .iter()
            .zip(&pick)
            .map(|((s, u), &k)| (*s, u.clone(), k))
            .collect();
        moves += apply_choice(ctx, lab, &choice);
    }
}

/// C1: memory, tables and stateful ALUs.
pub(crate) fn fit_memory(ctx: &Context, lab: &mut Labelling) -> u32 {
    let mut moves = 0;
    loop {
        let ev = evaluate(ctx, lab);
        let res = ev.resources(ctx);
        if res.sram_blocks.fits()
            && res.tcam_blocks.fits()
            && res.tables.fits()
            && res.stateful_alus.fits()
        {
            return moves;
        }
        // The largest switch state object goes to the server.
        let Some((si, st)) = ev
            .states
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.switch_accesses.is_empty())
            .max_by(|a, b| {
                (a.1.sram_blocks + a.1.tcam_blocks)
                    .cmp(&(b.1.sram_blocks + b.1.tcam_blocks))
                    .then(b.0.cmp(&a.0))
            })
        else {
            return moves;
        };
        let detail = format!(
            "`{}` needs {} SRAM blocks{} on the switch; {} is over its memory budget (SRAM {}/{}, {}tables {}/{}, stateful ALUs {}/{})",
            st.name,
            st.sram_blocks,
            if st.tcam_blocks > 0 { format!(" and {} TCAM blocks", st.tcam_blocks) } else { String::new() },
            ctx.profile.name,
            res.sram_blocks.used,
            fmt_budget(res.sram_blocks.budget),
            if res.tcam_blocks.used > 0 {
                format!("TCAM {}/{}, ", res.tcam_blocks.used, fmt_budget(res.tcam_blocks.budget))
            } else {
                String::new()
            },
            res.tables.used,
            fmt_budget(res.tables.budget),
            res.stateful_alus.used,
            fmt_budget(res.stateful_alus.budget)
        );
        for &s in &ctx.accesses_of[si] {
            let mut r = reason(Rule::Memory, s, detail.clone());
            r.state = Some(tandem_ir::StateId::from_u32(si as u32));
            moves += u32::from(lab.move_to_server(s, r));
        }
        ctx.fixpoint(lab);
    }
}

pub(crate) fn fmt_budget(b: Option<u64>) -> String {
    b.map(|b| b.to_string())
        .unwrap_or_else(|| "unbounded".into())
}

/// How far over the C4/C5 budgets an evaluation is (0 = fits).
fn excess(ctx: &Context, ev: &Evaluation) -> u64 {
    let r = ev.resources(ctx);
    [r.metadata_pre, r.metadata_post, r.transfer_header]
        .iter()
        .map(|u| u.budget.map(|b| u.used.saturating_sub(b)).unwrap_or(0))
        .sum()
}

/// How many candidates one greedy step tries.
const GREEDY_TRIES: usize = 48;

/// C4 and C5: greedy moves.
pub(crate) fn fit_transfer(ctx: &Context, lab: &mut Labelling) -> u32 {
    let mut moves = 0;
    let mut ev = evaluate(ctx, lab);
    let mut cur = excess(ctx, &ev);
    while cur > 0 {
        // Fixed order: post statements in program order, then pre statements backwards —
        // only those on the boundary of their partition (a dependency crosses it).
        let g = &ctx.info.graph;
        let post = crate::Partition::Post;
        let pre = crate::Partition::Pre;
        let mut order: Vec<usize> = (0..ctx.n)
            .filter(|&i| {
                ev.parts[i] == post && g.preds[i].iter().any(|p| ev.parts[p.index()] != post)
            })
            .collect();
        order.extend((0..ctx.n).rev().filter(|&i| {
            ev.parts[i] == pre && g.succs[i].iter().any(|q| ev.parts[q.index()] != pre)
        }));
        if order.is_empty() {
            order = (0..ctx.n)
                .filter(|&i| ev.parts[i] != crate::Partition::Server)
                .collect();
        }
        if order.is_empty() {
            break;
        }
        let r = ev.resources(ctx);
        let what = if r.transfer_header.fits() {
            Rule::Metadata
        } else {
            Rule::TransferHeader
        };
        let detail = |r: &crate::Resources| match what {
            Rule::Metadata => format!(
                "per-packet metadata {}+{} bytes (pre+post) exceeds {}'s {} bytes",
                r.metadata_pre.used,
                r.metadata_post.used,
                ctx.profile.name,
                fmt_budget(r.metadata_pre.budget)
            ),
            _ => format!(
                "the transfer header needs {} bytes; {} allows {}",
                r.transfer_header.used,
                ctx.profile.name,
                fmt_budget(r.transfer_header.budget)
            ),
        };
        // (lowers the excess, share of packets to the server, excess after, trial)
        let mut best: Option<(bool, f64, u64, Labelling, Evaluation)> = None;
        for &i in order.iter().take(GREEDY_TRIES) {
            if !lab.on_switch(StmtId(i as u32)) {
                continue;
            }
            let mut trial = lab.clone();
            let s = StmtId(i as u32);
            trial.move_to_server(s, reason(what, s, detail(&r)));
            ctx.fixpoint(&mut trial);
            let tev = evaluate(ctx, &trial);
            let t = excess(ctx, &tev);
            let share = crate::build::server_share(ctx, &tev.parts);
            let lowers = t < cur;
            let better = match &best {
                None => true,
                Some((b_lowers, b_share, b_t, _, _)) => {
                    if lowers != *b_lowers {
                        lowers
                    } else if (share - b_share).abs() > 1e-12 {
                        share < *b_share
                    } else {
                        t < *b_t
                    }
                }
            };
            if better {
                best = Some((lowers, share, t, trial, tev));
            }
        }
        match best {
            Some((_, _, t, trial, tev)) => {
                *lab = trial;
                ev = tev;
                cur = t;
            }
            None => {
                let s = StmtId(order[0] as u32);
                lab.move_to_server(s, reason(what, s, detail(&r)));
                ctx.fixpoint(lab);
                ev = evaluate(ctx, lab);
                cur = excess(ctx, &ev);
            }
        }
        moves += 1;
    }
    moves
}
