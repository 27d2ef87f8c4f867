//! Dominators and post-dominators (Cooper, Harvey and Kennedy's iterative algorithm).

use crate::Cfg;
use tandem_ir::{Block, EntityRef};

/// A dominator tree: the immediate dominator of every reachable block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomTree {
    /// `idom[b]`: the immediate dominator of `b`; `None` for the root and unreachable blocks.
    pub idom: Vec<Option<Block>>,
    root: Option<Block>,
}

impl DomTree {
    /// Does `a` dominate `b` (reflexively)?
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        let mut cur = Some(b);
        while let Some(c) = cur {
            if c == a {
                return true;
            }
            cur = self.idom.get(c.index()).copied().flatten();
        }
        false
    }

    /// The immediate dominator of `b`.
    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom.get(b.index()).copied().flatten()
    }

    /// The root (the entry block).
    pub fn root(&self) -> Option<Block> {
        self.root
    }
}

/// The post-dominator tree over the reachable blocks, rooted at a virtual exit that every
/// `return` block (and every block that cannot reach one) flows into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostDomTree {
    /// `ipdom[b]`: the immediate post-dominator of `b`; `None` when it is the virtual exit
    /// (or `b` is unreachable).
    pub ipdom: Vec<Option<Block>>,
}

impl PostDomTree {
    /// Does `a` post-dominate `b` (reflexively)?
    pub fn post_dominates(&self, a: Block, b: Block) -> bool {
        let mut cur = Some(b);
        while let Some(c) = cur {
            if c == a {
                return true;
            }
            cur = self.ipdom.get(c.index()).copied().flatten();
        }
        false
    }

    /// The immediate post-dominator of `b` (`None`: the virtual exit).
    pub fn ipdom(&self, b: Block) -> Option<Block> {
        self.ipdom.get(b.index()).copied().flatten()
    }
}

/// Generic CHK on nodes `0..n` with a root, an order (reverse post-order of the graph) and
/// predecessor lists; returns the immediate dominator of each node (`usize::MAX` = none).
fn chk(n: usize, order: &[usize], preds: &[Vec<usize>]) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let mut pos = vec![NONE; n];
    for (i, &b) in order.iter().enumerate() {
        pos[b] = i;
    }
    let mut idom = vec![NONE; n];
    let Some(&root) = order.first() else {
        return idom;
    };
    idom[root] = root;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new = NONE;
            for &p in &preds[b] {
                if pos[p] == NONE || idom[p] == NONE {
                    continue;
                }
                new = if new == NONE {
                    p
                } else {
                    let (mut x, mut y) = (p, new);
                    while x != y {
                        while pos[x] > pos[y] {
                            x = idom[x];
                        }
                        while pos[y] > pos[x] {
                            y = idom[y];
                        }
                    }
                    x
                };
            }
            if new != NONE && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom[root] = NONE;
    idom
}

/// Computes the dominator tree of `cfg`.
pub fn compute_dominators(cfg: &Cfg) -> DomTree {
    let n = cfg.num_blocks;
    let order: Vec<usize> = cfg.rpo.iter().map(|b| b.index()).collect();
    let preds: Vec<Vec<usize>> = cfg
        .preds
        .iter()
        .map(|p| p.iter().map(|b| b.index()).collect())
        .collect();
    let idom = chk(n, &order, &preds);
    DomTree {
        idom: idom
            .into_iter()
            .map(|d| (d != usize::MAX).then(|| Block::new(d)))
            .collect(),
        root: cfg.rpo.first().copied(),
    }
}

/// Computes the post-dominator tree of `cfg` (dominators of the reverse graph from a virtual
/// exit node).
pub fn compute_post_dominators(cfg: &Cfg) -> PostDomTree {
    let n = cfg.num_blocks;
    let exit = n; // virtual node
                  // Reverse graph: node b's "preds" are its CFG successors; the exit's successors are exits.
    let mut rsuccs: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    let mut rpreds: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    let mut sinks: Vec<usize> = cfg.exits().iter().map(|b| b.index()).collect();
    // Blocks that cannot reach an exit (infinite loops) hang off the virtual exit too.
    for &b in &cfg.rpo {
        let reaches_exit =
            cfg.succs[b.index()].is_empty() || cfg.exits().iter().any(|&e| cfg.path(b, e));
        if !reaches_exit && !sinks.contains(&b.index()) {
            sinks.push(b.index());
        }
    }
    for &s in &sinks {
        rsuccs[exit].push(s);
        rpreds[s].push(exit);
    }
    for &b in &cfg.rpo {
        for &t in &cfg.succs[b.index()] {
            rsuccs[t.index()].push(b.index());
            rpreds[b.index()].push(t.index());
        }
    }
    // Reverse post-order of the reverse graph from the exit.
    let mut visited = vec![false; n + 1];
    let mut post = Vec::new();
    let mut stack: Vec<(usize, usize)> = vec![(exit, 0)];
    visited[exit] = true;
    while let Some(&mut (b, ref mut i)) = stack.last_mut() {
        if *i < rsuccs[b].len() {
            let t = rsuccs[b][*i];
            *i += 1;
            if !visited[t] {
                visited[t] = true;
                stack.push((t, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    let order: Vec<usize> = post.into_iter().rev().collect();
    let idom = chk(n + 1, &order, &rpreds);
    PostDomTree {
        ipdom: (0..n)
            .map(|b| {
                let d = idom[b];
                (d != usize::MAX && d != exit).then(|| Block::new(d))
            })
            .collect(),
    }
}
