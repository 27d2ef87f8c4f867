//! Liveness of SSA values: which values may still be used after each program point.
//!
//! Block parameters are defined at the top of their block; branch arguments are uses at the
//! end of the predecessor (on the edge), as for phi operands.

use crate::Cfg;
use std::collections::BTreeSet;
use tandem_ir::{Block, EntityRef, Function, InstKind, Value};

/// Live-in and live-out sets of every block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Liveness {
    /// Values live at the top of each block (after its parameters are defined, parameters
    /// included when used).
    pub live_in: Vec<BTreeSet<Value>>,
    /// Values live at the end of each block (branch arguments included).
    pub live_out: Vec<BTreeSet<Value>>,
}

impl Liveness {
    /// Values live just before each instruction of `b` (index `i` = before `insts[i]`), plus
    /// one final entry for the block end (= `live_out`).
    pub fn live_before_each(&self, func: &Function, b: Block) -> Vec<BTreeSet<Value>> {
        let insts = &func.blocks[b].insts;
        let mut out = vec![BTreeSet::new(); insts.len() + 1];
        let mut live = self.live_out[b.index()].clone();
        out[insts.len()] = live.clone();
        for (i, &inst) in insts.iter().enumerate().rev() {
            let data = &func.insts[inst];
            for r in &data.results {
                live.remove(r);
            }
            data.kind.visit_args(|v| {
                live.insert(v);
            });
            out[i] = live.clone();
        }
        out
    }
}

/// Non-branch-argument uses of an instruction (branch arguments belong to edges).
fn own_uses(kind: &InstKind) -> Vec<Value> {
    match kind {
        InstKind::Jump { .. } => Vec::new(),
        InstKind::Brif { cond, .. } => vec![*cond],
        InstKind::Switch { arg, .. } => vec![*arg],
        k => k.args(),
    }
}

/// Computes liveness of `func`'s values over `cfg`.
pub fn compute_liveness(func: &Function, cfg: &Cfg) -> Liveness {
    let n = cfg.num_blocks;
    // Per block: uses before def (gen) and defs (kill), edge uses per successor.
    let mut gen = vec![BTreeSet::new(); n];
    let mut kill = vec![BTreeSet::new(); n];
    let mut edge_uses = vec![BTreeSet::new(); n];
    for &b in &cfg.rpo {
        let data = &func.blocks[b];
        for &p in &data.params {
            kill[b.index()].insert(p);
        }
        for &inst in &data.insts {
            let d = &func.insts[inst];
            for v in own_uses(&d.kind) {
                if !kill[b.index()].contains(&v) {
                    gen[b.index()].insert(v);
                }
            }
            for c in d.kind.successors() {
                for &a in &c.args {
                    edge_uses[b.index()].insert(a);
                }
            }
            for &r in &d.results {
                kill[b.index()].insert(r);
            }
        }
    }
    let mut live_in = vec![BTreeSet::new(); n];
    let mut live_out: Vec<BTreeSet<Value>> = vec![BTreeSet::new(); n];
    let mut changed = true;
    while changed {
        changed = false;
        for &b in cfg.rpo.iter().rev() {
            let bi = b.index();
            let mut out: BTreeSet<Value> = edge_uses[bi].clone();
            for &s in &cfg.succs[bi] {
                let params = &func.blocks[s].params;
                out.extend(live_in[s.index()].iter().filter(|v| !params.contains(v)));
            }
            let mut inn: BTreeSet<Value> = gen[bi].clone();
            inn.extend(out.iter().filter(|v| !kill[bi].contains(v)));
            // Parameters used in the block are live at its top.
            for &p in &func.blocks[b].params {
                if out.contains(&p) || uses_in_block(func, b, p) {
                    inn.insert(p);
                }
            }
            if out != live_out[bi] || inn != live_in[bi] {
                live_out[bi] = out;
                live_in[bi] = inn;
                changed = true;
            }
        }
    }
    Liveness { live_in, live_out }
}

fn uses_in_block(func: &Function, b: Block, v: Value) -> bool {
    func.blocks[b]
        .insts
        .iter()
        .any(|&i| func.insts[i].kind.args().contains(&v))
}
