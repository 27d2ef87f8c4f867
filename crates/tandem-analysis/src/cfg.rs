//! The control-flow graph of a function: reachable blocks, predecessors and successors,
//! reverse post-order, block reachability and blocks that lie on a cycle.

use tandem_ir::{Block, EntityRef, Function};

/// The CFG of one function. Only blocks reachable from the entry take part; the others are
/// listed as unreachable and have no edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cfg {
    /// Number of blocks in the function (reachable or not).
    pub num_blocks: usize,
    /// Distinct successors of each block, in text order (empty for unreachable blocks).
    pub succs: Vec<Vec<Block>>,
    /// Distinct reachable predecessors of each block, in block order.
    pub preds: Vec<Vec<Block>>,
    /// Reachable blocks in reverse post-order (the entry first).
    pub rpo: Vec<Block>,
    /// Position of each block in `rpo` (`None` for unreachable blocks).
    pub rpo_index: Vec<Option<usize>>,
    /// `reach[a][b]`: there is a path of at least one edge from `a` to `b`.
    reach: Vec<Vec<bool>>,
}

impl Cfg {
    /// Is `b` reachable from the entry?
    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_index.get(b.index()).is_some_and(|i| i.is_some())
    }

    /// Is there a path of one or more edges from `a` to `b`?
    pub fn path(&self, a: Block, b: Block) -> bool {
        self.reach
            .get(a.index())
            .and_then(|r| r.get(b.index()))
            .copied()
            .unwrap_or(false)
    }

    /// Does `b` lie on a cycle (a path of one or more edges from `b` back to `b`)?
    pub fn in_cycle(&self, b: Block) -> bool {
        self.path(b, b)
    }

    /// Blocks ending in `return` (no successors), reachable ones only.
    pub fn exits(&self) -> Vec<Block> {
        self.rpo
            .iter()
            .copied()
            .filter(|b| self.succs[b.index()].is_empty())
            .collect()
    }
}

/// Builds the CFG of `func`.
pub fn compute_cfg(func: &Function) -> Cfg {
    let n = func.blocks.len();
    let mut succs = vec![Vec::new(); n];
    let mut preds = vec![Vec::new(); n];
    let mut rpo_index = vec![None; n];
    let mut rpo = Vec::new();
    if let Some(entry) = func.entry() {
        // Iterative DFS for post-order.
        let mut visited = vec![false; n];
        let mut post = Vec::new();
        let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
        visited[entry.index()] = true;
        let mut all_succs = vec![Vec::new(); n];
        for b in func.blocks.keys() {
            let mut s: Vec<Block> = Vec::new();
            for t in func.successors(b) {
                if t.index() < n && !s.contains(&t) {
                    s.push(t);
                }
            }
            all_succs[b.index()] = s;
        }
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            let s = &all_succs[b.index()];
            if *i < s.len() {
                let t = s[*i];
                *i += 1;
                if !visited[t.index()] {
                    visited[t.index()] = true;
                    stack.push((t, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        rpo = post.into_iter().rev().collect();
        for (i, b) in rpo.iter().enumerate() {
            rpo_index[b.index()] = Some(i);
        }
        for &b in &rpo {
            succs[b.index()] = all_succs[b.index()].clone();
            for &t in &all_succs[b.index()] {
                preds[t.index()].push(b);
            }
        }
        for p in &mut preds {
            p.sort();
            p.dedup();
        }
    }
    // Reachability by one or more edges (blocks are few: a BFS per block is cheap).
    let mut reach = vec![vec![false; n]; n];
    for &a in &rpo {
        let mut stack: Vec<Block> = succs[a.index()].clone();
        while let Some(b) = stack.pop() {
            if !reach[a.index()][b.index()] {
                reach[a.index()][b.index()] = true;
                stack.extend(succs[b.index()].iter().copied());
            }
        }
    }
    Cfg {
        num_blocks: n,
        succs,
        preds,
        rpo,
        rpo_index,
        reach,
    }
}
