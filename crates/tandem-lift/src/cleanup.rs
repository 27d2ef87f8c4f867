//! `remove_redundant_params` and `remove_dead_code`: tidy the lifter's output.
//!
//! The lifter turns every local variable into SSA with a parameter per slot on every join
//! block ("maximal SSA"). Most of those parameters receive the same value on every edge:
//!
//! ```text
//! block3(v10: i16):            ; every predecessor passes v4
//! ```
//!
//! becomes `block3:` with `v10` replaced by `v4`. Then instructions without side effects whose
//! results are unused are deleted. Both run to a fixed point.

use std::collections::{HashMap, HashSet};

use tandem_ir::{Block, Function, InstKind, Value, ValueDef};

/// Removes block parameters that receive one value (or themselves) on every incoming edge.
pub fn remove_redundant_params(f: &mut Function) {
    loop {
        let mut incoming: HashMap<(Block, usize), HashSet<Value>> = HashMap::new();
        let mut has_preds: HashSet<Block> = HashSet::new();
        for b in f.blocks.keys() {
            for &i in &f.blocks[b].insts {
                for call in f.insts[i].kind.successors() {
                    has_preds.insert(call.block);
                    for (k, &a) in call.args.iter().enumerate() {
                        incoming.entry((call.block, k)).or_default().insert(a);
                    }
                }
            }
        }
        // One parameter per round keeps the incoming-edge indices simple.
        let found = f
            .blocks
            .keys()
            .filter(|b| has_preds.contains(b))
            .find_map(|b| {
                f.blocks[b].params.iter().enumerate().find_map(|(k, &p)| {
                    let vals: Vec<Value> = incoming
                        .get(&(b, k))
                        .map(|s| s.iter().copied().filter(|&v| v != p).collect())
                        .unwrap_or_default();
                    (vals.len() == 1).then(|| (b, k, vals[0]))
                })
            });
        let Some((b, k, v)) = found else { break };
        let p = remove_param(f, b, k);
        replace_uses(f, p, v);
    }
}

/// Removes parameter `k` of block `b` and the matching argument of every edge into `b`;
/// returns the removed parameter (now unused).
fn remove_param(f: &mut Function, b: Block, k: usize) -> Value {
    let p = f.blocks[b].params.remove(k);
    f.values[p].def = ValueDef::Unused;
    for (idx, &q) in f.blocks[b].params.iter().enumerate() {
        f.values[q].def = ValueDef::Param(b, idx);
    }
    let insts: Vec<_> = f.insts.keys().collect();
    for i in insts {
        edit_successors(&mut f.insts[i].kind, |call_block, args| {
            if call_block == b && k < args.len() {
                args.remove(k);
            }
        });
    }
    p
}

fn replace_uses(f: &mut Function, from: Value, to: Value) {
    let insts: Vec<_> = f.insts.keys().collect();
    for i in insts {
        f.insts[i].kind.map_args(|x| if x == from { to } else { x });
    }
}

fn edit_successors(kind: &mut InstKind, mut f: impl FnMut(Block, &mut Vec<Value>)) {
    match kind {
        InstKind::Jump { dest } => f(dest.block, &mut dest.args),
        InstKind::Brif {
            then_dest,
            else_dest,
            ..
        } => {
            f(then_dest.block, &mut then_dest.args);
            f(else_dest.block, &mut else_dest.args);
        }
        InstKind::Switch { default, cases, .. } => {
            f(default.block, &mut default.args);
            for (_, c) in cases {
                f(c.block, &mut c.args);
            }
        }
        _ => {}
    }
}

fn is_pure(k: &InstKind) -> bool {
    matches!(
        k,
        InstKind::Const { .. }
            | InstKind::Binary { .. }
            | InstKind::Icmp { .. }
            | InstKind::Cast { .. }
            | InstKind::Select { .. }
            | InstKind::Bswap { .. }
            | InstKind::Hash { .. }
            | InstKind::HdrRead { .. }
            | InstKind::HdrValid { .. }
            | InstKind::MetaRead { .. }
            | InstKind::VecGet { .. }
            | InstKind::ScalarLoad { .. }
    )
}

/// Deletes pure instructions whose results are unused, and unused block parameters.
pub fn remove_dead_code(f: &mut Function) {
    loop {
        let mut used: HashSet<Value> = HashSet::new();
        for b in f.blocks.keys() {
            for &i in &f.blocks[b].insts {
                f.insts[i].kind.visit_args(|v| {
                    used.insert(v);
                });
            }
        }
        let mut changed = false;
        let blocks: Vec<Block> = f.blocks.keys().collect();
        for b in blocks {
            let insts = f.blocks[b].insts.clone();
            let keep: Vec<_> = insts
                .iter()
                .copied()
                .filter(|&i| {
                    let d = &f.insts[i];
                    !(is_pure(&d.kind) && d.results.iter().all(|r| !used.contains(r)))
                })
                .collect();
            if keep.len() != insts.len() {
                for &i in &insts {
                    if !keep.contains(&i) {
                        for &r in &f.insts[i].results {
                            f.values[r].def = ValueDef::Unused;
                        }
                    }
                }
                f.blocks[b].insts = keep;
                changed = true;
            }
            // Unused parameters of blocks that are not the entry.
            if Some(b) != f.entry() {
                while let Some(k) = f.blocks[b].params.iter().position(|p| !used.contains(p)) {
                    remove_param(f, b, k);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}
