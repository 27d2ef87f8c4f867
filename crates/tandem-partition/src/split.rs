//! `split_server_joins`: tail duplication at joins where a path through the server meets a
//! path that never visits it.
//!
//! Before (MiniLB): the hit path (`block2`) and the miss path (`block3`, whose `urem`, vector
//! read and insert run on the server) join in `block4`, which rewrites the destination; that
//! one rewrite depends on a server value, so it runs in post for every packet.
//!
//! ```text
//! block2: br block4(v10)            block3: ...server...; br block4(v23)
//! block4(v25): hdr.write ipv4.daddr, bswap(v25); ...; send; return
//! ```
//!
//! After: the server path gets its own copy of the tail, so the hit path's rewrite runs in
//! pre and only the copy (reached through the server) runs in post — the paper's Figure 4.
//!
//! ```text
//! block2: br block4(v10)            block3: ...server...; br block13(v23)
//! block4(v25): ... (pre)            block13(v130): ... (post)
//! ```
//!
//! The tail is every block reachable from the join; it is copied only when it has no cycle
//! and its size is within the given budget. It may hold server statements of its own (the
//! load balancer's FIN/RST `erase` after the join of its hit and new-connection paths): the
//! switch-only path's copy then visits the server only when it reaches them.

use crate::Partition;
use std::collections::BTreeMap;
use tandem_analysis::DepInfo;
use tandem_ir::{Block, EntityRef, InstKind, Module, Value};

fn retarget(kind: &mut InstKind, f: impl Fn(Block) -> Block) {
    match kind {
        InstKind::Jump { dest } => dest.block = f(dest.block),
        InstKind::Brif {
            then_dest,
            else_dest,
            ..
        } => {
            then_dest.block = f(then_dest.block);
            else_dest.block = f(else_dest.block);
        }
        InstKind::Switch { default, cases, .. } => {
            default.block = f(default.block);
            for (_, c) in cases {
                c.block = f(c.block);
            }
        }
        _ => {}
    }
}

/// Copies the tail of one join whose incoming paths differ in visiting the server, for the
/// paths that do; returns the new module and the join. `parts` is the current plan's
/// partition of each statement; joins in `tried` are skipped. Returns `None` when no join
/// qualifies. `max_insts` bounds the instructions copied.
pub fn split_server_joins(
    module: &Module,
    info: &DepInfo,
    parts: &[Partition],
    max_insts: usize,
    tried: &std::collections::BTreeSet<Block>,
) -> Option<(Module, Block)> {
    let g = &info.graph;
    let cfg = &info.cfg;
    let f = &module.process;
    let server_blocks: Vec<Block> = {
        let mut v: Vec<Block> = g
            .stmts
            .iter()
            .zip(parts)
            .filter(|(_, p)| **p == Partition::Server)
            .map(|(s, _)| s.block)
            .collect();
        v.sort();
        v.dedup();
        v
    };
    if server_blocks.is_empty() {
        return None;
    }
    let tainted = |p: Block| server_blocks.iter().any(|&s| s == p || cfg.path(s, p));
    for &join in &cfg.rpo {
        let preds = &cfg.preds[join.index()];
        if preds.len() < 2 || tried.contains(&join) {
            continue;
        }
        let (dirty, clean): (Vec<Block>, Vec<Block>) = preds.iter().partition(|&&p| tainted(p));
        if dirty.is_empty() || clean.is_empty() {
            continue;
        }
        // The tail: the join and everything reachable from it.
        let tail: Vec<Block> = cfg
            .rpo
            .iter()
            .copied()
            .filter(|&b| b == join || cfg.path(join, b))
            .collect();
        if tail.iter().any(|&b| cfg.in_cycle(b)) {
            continue;
        }
        let size: usize = tail.iter().map(|&b| f.blocks[b].insts.len()).sum();
        if size > max_insts {
            continue;
        }
        return Some((copy_tail(module, &tail, join, &dirty), join));
    }
    None
}

fn copy_tail(module: &Module, tail: &[Block], join: Block, dirty: &[Block]) -> Module {
    let mut m = module.clone();
    let func = &mut m.process;
    let mut bmap: BTreeMap<Block, Block> = BTreeMap::new();
    let mut vmap: BTreeMap<Value, Value> = BTreeMap::new();
    for &b in tail {
        let nb = func.add_block();
        bmap.insert(b, nb);
        for p in module.process.blocks[b].params.clone() {
            let ty = module.process.values[p].ty;
            let np = func.add_block_param(nb, ty);
            vmap.insert(p, np);
        }
    }
    // Blocks in reverse post-order: definitions are copied before their uses.
    for &b in tail {
        let nb = bmap[&b];
        for &inst in &module.process.blocks[b].insts {
            let data = &module.process.insts[inst];
            let mut kind = data.kind.clone();
            kind.map_args(|v| vmap.get(&v).copied().unwrap_or(v));
            retarget(&mut kind, |t| bmap.get(&t).copied().unwrap_or(t));
            let types: Vec<tandem_ir::Type> = data
                .results
                .iter()
                .map(|r| module.process.values[*r].ty)
                .collect();
            let ni = func.append_inst(nb, kind, &types, data.loc);
            let new_results = func.inst_results(ni).to_vec();
            for (old, new) in data.results.iter().zip(new_results) {
                vmap.insert(*old, new);
            }
        }
    }
    // The paths through the server enter the copy.
    let copy = bmap[&join];
    for &p in dirty {
        if let Some(t) = func.terminator(p) {
            retarget(
                &mut func.insts[t].kind,
                |b| if b == join { copy } else { b },
            );
        }
    }
    m
}
