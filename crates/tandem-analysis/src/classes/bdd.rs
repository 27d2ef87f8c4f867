//! Reduced ordered multi-terminal decision diagrams over atomic packet conditions: the
//! canonical form of "what the switch does with a packet" that makes two state values'
//! behaviours comparable by handle. Variables are condition terms, ordered by handle;
//! terminals are outcomes (0 and 1 are the booleans `false` and `true`).

use super::terms::TermId;
use std::collections::HashMap;

/// A diagram handle; equal handles are equal functions.
pub type NodeId = u32;

/// The terminal `false`.
pub const FALSE: NodeId = 0;
/// The terminal `true`.
pub const TRUE: NodeId = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    Leaf(u32),
    Branch { var: TermId, hi: NodeId, lo: NodeId },
}

/// A node, seen from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeView {
    /// A terminal: outcome `k` (0 and 1 are the booleans).
    Leaf(u32),
    /// `if var { hi } else { lo }`.
    Branch {
        /// The condition (an `i1` term).
        var: TermId,
        /// Where it holds.
        hi: NodeId,
        /// Where it does not.
        lo: NodeId,
    },
}

/// Most nodes one table holds. Diagrams of arithmetic (an adder's carry chain, a checksum
/// loop) grow exponentially; past this the table is [`Bdd::exhausted`] and the analysis
/// gives up on the map instead of running out of memory or time.
pub const MAX_NODES: usize = 200_000;

/// Deepest `ite` recursion (one level per condition variable on a path): past it the table
/// is exhausted rather than overflowing the thread's stack.
const MAX_DEPTH: u32 = 2_000;

/// The diagram table (unique table and `ite` memo).
pub struct Bdd {
    nodes: Vec<Node>,
    unique: HashMap<Node, NodeId>,
    ite_memo: HashMap<(NodeId, NodeId, NodeId), NodeId>,
    exhausted: bool,
}

impl Default for Bdd {
    fn default() -> Self {
        let mut b = Bdd {
            nodes: Vec::new(),
            unique: HashMap::new(),
            ite_memo: HashMap::new(),
            exhausted: false,
        };
        b.leaf(0);
        b.leaf(1);
        b
    }
}

impl Bdd {
    fn make(&mut self, n: Node) -> NodeId {
        if let Node::Branch { hi, lo, .. } = n {
            if hi == lo {
                return hi;
            }
        }
        if let Some(&id) = self.unique.get(&n) {
            return id;
        }
        if self.nodes.len() >= MAX_NODES {
            self.exhausted = true;
            return FALSE;
        }
        let id = self.nodes.len() as NodeId;
        self.nodes.push(n);
        self.unique.insert(n, id);
        id
    }

    /// The terminal for outcome `k` (0 and 1 are the booleans).
    pub fn leaf(&mut self, k: u32) -> NodeId {
        self.make(Node::Leaf(k))
    }

    /// What a node is: a terminal (its outcome) or a branch on a condition.
    pub fn view(&self, n: NodeId) -> NodeView {
        match self.nodes[n as usize] {
            Node::Leaf(k) => NodeView::Leaf(k),
            Node::Branch { var, hi, lo } => NodeView::Branch { var, hi, lo },
        }
    }

    /// The diagram of one condition variable.
    pub fn var(&mut self, v: TermId) -> NodeId {
        self.make(Node::Branch {
            var: v,
            hi: TRUE,
            lo: FALSE,
        })
    }

    fn top(&self, n: NodeId) -> Option<TermId> {
        match self.nodes[n as usize] {
            Node::Branch { var, .. } => Some(var),
            Node::Leaf(_) => None,
        }
    }

    fn cofactor(&self, n: NodeId, v: TermId, value: bool) -> NodeId {
        match self.nodes[n as usize] {
            Node::Branch { var, hi, lo } if var == v => {
                if value {
                    hi
                } else {
                    lo
                }
            }
            _ => n,
        }
    }

    /// The budget ([`MAX_NODES`] nodes, [`MAX_DEPTH`] levels) ran out: every diagram built
    /// since is meaningless, and the caller must give up.
    pub fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// If-then-else: `f` a boolean diagram; `g` where it holds, `h` elsewhere.
    pub fn ite(&mut self, f: NodeId, g: NodeId, h: NodeId) -> NodeId {
        self.ite_at(f, g, h, 0)
    }

    fn ite_at(&mut self, f: NodeId, g: NodeId, h: NodeId, depth: u32) -> NodeId {
        if self.exhausted {
            return FALSE;
        }
        if depth > MAX_DEPTH {
            self.exhausted = true;
            return FALSE;
        }
        if f == TRUE || g == h {
            return g;
        }
        if f == FALSE {
            return h;
        }
        if g == TRUE && h == FALSE {
            return f;
        }
        if let Some(&r) = self.ite_memo.get(&(f, g, h)) {
            return r;
        }
        let v = [f, g, h]
            .iter()
            .filter_map(|&n| self.top(n))
            .min()
            .unwrap_or(0);
        let (f1, g1, h1) = (
            self.cofactor(f, v, true),
            self.cofactor(g, v, true),
            self.cofactor(h, v, true),
        );
        let (f0, g0, h0) = (
            self.cofactor(f, v, false),
            self.cofactor(g, v, false),
            self.cofactor(h, v, false),
        );
        let hi = self.ite_at(f1, g1, h1, depth + 1);
        let lo = self.ite_at(f0, g0, h0, depth + 1);
        let r = self.make(Node::Branch { var: v, hi, lo });
        self.ite_memo.insert((f, g, h), r);
        r
    }

    /// Negation of a boolean diagram.
    pub fn not(&mut self, f: NodeId) -> NodeId {
        self.ite(f, FALSE, TRUE)
    }

    /// Conjunction of boolean diagrams.
    pub fn and(&mut self, f: NodeId, g: NodeId) -> NodeId {
        self.ite(f, g, FALSE)
    }

    /// The terminals and variables a diagram reaches.
    pub fn support(&self, n: NodeId, leaves: &mut Vec<u32>, vars: &mut Vec<TermId>) {
        let mut stack = vec![n];
        let mut seen = std::collections::HashSet::new();
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            match self.nodes[n as usize] {
                Node::Leaf(k) => leaves.push(k),
                Node::Branch { var, hi, lo } => {
                    vars.push(var);
                    stack.push(hi);
                    stack.push(lo);
                }
            }
        }
    }
}
