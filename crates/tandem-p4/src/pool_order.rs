//! `order_for_pools`: the predicated walk of a partition rearranged so that each pooled pair
//! of lookups (`lower::pool`: an IPv4 and an IPv6 map sharing one table) reads its table at
//! one place, as P4 targets require (a table is applied once).
//!
//! The two lookups sit in blocks no path joins (the pairing checks it), so each block is cut
//! after its lookup and the walk is put in a new topological order: both first halves (which
//! compute the lookup's key into the shared key fields), then the shared table's apply
//! ([`Node::PoolApply`]), then both second halves (which read its results). Every other block
//! keeps its place relative to the edges of the walk (a block after every block that marks it
//! reached); among the blocks free to go, the earliest in the old order goes first.
//!
//! ```text
//! before:                                   after:
//! if (pre_b11 == 1) { k4 = ..;              if (pre_b11 == 1) { k4 = ..; pool keys = (0, k4) }
//!   routes4.apply(); use r4; pre_b12 = 1; } if (pre_b30 == 1) { k6 = ..; pool keys = (1, k6) }
//! if (pre_b12 == 1) { .. }                  if (pre_b11 == 1 || pre_b30 == 1) { pool.apply(); }
//! if (pre_b30 == 1) { k6 = ..;              if (pre_b11 == 1) { r4 = pool result; use r4; pre_b12 = 1; }
//!   routes6.apply(); use r6; .. }           if (pre_b30 == 1) { r6 = pool result; use r6; .. }
//!                                           if (pre_b12 == 1) { .. }
//! ```

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use tandem_ir::{Block, Inst};
use tandem_partition::Partition;

use crate::walk::Node;
use crate::P4Error;

/// One item of the new order.
enum Item {
    /// A piece of a guarded block.
    Piece(Block, Vec<Node>),
    /// The shared table of pool `k`.
    Apply(usize),
}

/// Blocks a list of nodes marks reached (at any depth).
fn reaches(nodes: &[Node], out: &mut Vec<Block>) {
    for n in nodes {
        match n {
            Node::Reach { block, .. } => out.push(*block),
            Node::If { then, els, .. } => {
                reaches(then, out);
                reaches(els, out);
            }
            Node::Switch { cases, default, .. } => {
                for (_, a) in cases {
                    reaches(a, out);
                }
                reaches(default, out);
            }
            Node::Guard { body, .. } => reaches(body, out),
            _ => {}
        }
    }
}

/// Rearranges a predicated walk (`walk::predicate_partition`) for the pooled pairs `pairs`
/// (pool `k`: its two lookups); a pair whose lookups are not both in the walk is left out.
pub fn order_for_pools(
    nodes: Vec<Node>,
    part: Partition,
    pairs: &[(Inst, Inst)],
) -> Result<Vec<Node>, P4Error> {
    let pool_of: HashMap<Inst, usize> = pairs
        .iter()
        .enumerate()
        .flat_map(|(k, &(a, b))| [(a, k), (b, k)])
        .collect();
    let mut items: Vec<Item> = Vec::new();
    let mut entry = Vec::new();
    // (item ending with a pooled lookup, its pool)
    let mut ends: Vec<(usize, usize)> = Vec::new();
    let mut first_piece: HashMap<Block, usize> = HashMap::new();
    let mut next_piece: Vec<Option<usize>> = Vec::new();
    for n in nodes {
        let Node::Guard { block, body, .. } = n else {
            entry.push(n);
            continue;
        };
        let mut piece = Vec::new();
        let mut prev: Option<usize> = None;
        let mut push = |items: &mut Vec<Item>, piece: Vec<Node>, prev: &mut Option<usize>| {
            let i = items.len();
            items.push(Item::Piece(block, piece));
            next_piece.push(None);
            match *prev {
                Some(p) => next_piece[p] = Some(i),
                None => {
                    first_piece.insert(block, i);
                }
            }
            *prev = Some(i);
            i
        };
        for node in body {
            let pooled = match &node {
                Node::Inst(i) => pool_of.get(i).copied(),
                _ => None,
            };
            piece.push(node);
            if let Some(k) = pooled {
                let i = push(&mut items, std::mem::take(&mut piece), &mut prev);
                ends.push((i, k));
            }
        }
        push(&mut items, piece, &mut prev);
    }
    // Only pools with both lookups in this walk.
    let mut found = vec![0usize; pairs.len()];
    for &(_, k) in &ends {
        found[k] += 1;
    }
    // A pool with one lookup here and the other not at the top of a guarded block (the
    // entry block, or not walked) would never apply its table: refuse it.
    if let Some(k) = found.iter().position(|&n| n == 1) {
        return Err(P4Error::BadPlan(format!(
            "pool {k}: only one of its two lookups is in a guarded block of the {} walk",
            part.name()
        )));
    }
    let ends: Vec<(usize, usize)> = ends.into_iter().filter(|&(_, k)| found[k] == 2).collect();
    let mut apply_item: HashMap<usize, usize> = HashMap::new();
    for &(_, k) in &ends {
        apply_item.entry(k).or_insert_with(|| {
            items.push(Item::Apply(k));
            next_piece.push(None);
            items.len() - 1
        });
    }
    // Edges: piece -> next piece of its block (through the apply when it ends with a
    // pooled lookup), piece -> first piece of every block it marks reached.
    let n = items.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut rank: Vec<usize> = vec![0; n];
    for (i, it) in items.iter().enumerate() {
        rank[i] = 2 * i;
        if let Item::Piece(_, body) = it {
            let mut r = Vec::new();
            reaches(body, &mut r);
            for b in r {
                if let Some(&f) = first_piece.get(&b) {
                    succ[i].push(f);
                }
            }
            if let Some(nx) = next_piece[i] {
                succ[i].push(nx);
            }
        }
    }
    for &a in apply_item.values() {
        rank[a] = 0;
    }
    for &(i, k) in &ends {
        let a = apply_item[&k];
        succ[i].push(a);
        if let Some(nx) = next_piece[i] {
            succ[a].push(nx);
        }
        // The apply goes right after the later of its two first halves.
        rank[a] = rank[a].max(2 * i + 1);
    }
    let mut indeg = vec![0usize; n];
    for s in &succ {
        for &j in s {
            indeg[j] += 1;
        }
    }
    let mut heap: BinaryHeap<Reverse<(usize, usize)>> = (0..n)
        .filter(|&i| indeg[i] == 0)
        .map(|i| Reverse((rank[i], i)))
        .collect();
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse((_, i))) = heap.pop() {
        order.push(i);
        for &j in &succ[i] {
            indeg[j] -= 1;
            if indeg[j] == 0 {
                heap.push(Reverse((rank[j], j)));
            }
        }
    }
    if order.len() != n {
        return Err(P4Error::BadPlan(
            "pool: two pooled lookups lie on one path (one shared table cannot serve both)".into(),
        ));
    }
    let mut slots: Vec<Option<Item>> = items.into_iter().map(Some).collect();
    let mut out = entry;
    for i in order {
        match slots[i].take() {
            Some(Item::Piece(block, body)) => out.push(Node::Guard { part, block, body }),
            Some(Item::Apply(k)) => out.push(Node::PoolApply { pool: k }),
            None => {}
        }
    }
    Ok(out)
}
