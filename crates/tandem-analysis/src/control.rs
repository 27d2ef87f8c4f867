//! Control dependence (Ferrante, Ottenstein and Warren): block `b` is control dependent on
//! block `a` when `a`'s branch decides whether `b` runs — `b` post-dominates one successor of
//! `a` but does not strictly post-dominate `a`.

use crate::{Cfg, PostDomTree};
use tandem_ir::{Block, EntityRef};

/// For every block, the blocks whose terminators it is directly control dependent on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControlDeps {
    /// `deps[b]`: sorted, distinct controlling blocks of `b`.
    pub deps: Vec<Vec<Block>>,
}

impl ControlDeps {
    /// The blocks whose branch decides whether `b` runs (directly).
    pub fn of(&self, b: Block) -> &[Block] {
        self.deps.get(b.index()).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The transitive closure: every block whose branch `b`'s execution depends on.
    pub fn transitive(&self, b: Block) -> Vec<Block> {
        let mut out: Vec<Block> = Vec::new();
        let mut stack: Vec<Block> = self.of(b).to_vec();
        while let Some(a) = stack.pop() {
            if !out.contains(&a) {
                out.push(a);
                stack.extend_from_slice(self.of(a));
            }
        }
        out.sort();
        out
    }
}

/// Computes control dependences from the CFG and post-dominator tree.
pub fn compute_control_deps(cfg: &Cfg, pdom: &PostDomTree) -> ControlDeps {
    let mut deps = vec![Vec::new(); cfg.num_blocks];
    for &a in &cfg.rpo {
        if cfg.succs[a.index()].len() < 2 {
            continue;
        }
        let stop = pdom.ipdom(a);
        for &s in &cfg.succs[a.index()] {
            // Walk up the post-dominator tree from s until ipdom(a).
            let mut cur = Some(s);
            while let Some(c) = cur {
                if Some(c) == stop {
                    break;
                }
                deps[c.index()].push(a);
                cur = pdom.ipdom(c);
            }
        }
    }
    for d in &mut deps {
        d.sort();
        d.dedup();
    }
    ControlDeps { deps }
}
