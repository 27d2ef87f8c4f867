//! Wide counters: a register wider than the target's registers that process() only ever
//! increments stays on the switch.
//!
//! NFs keep statistics in `uint64_t` members (`dropped++`, `bytes += pkt.len()`, per-port
//! `Vector<uint64_t, N>` counts). A 64-bit register is wider than Tofino's 32-bit registers, so
//! every access used to go to the server — and with it every packet that counts. A register
//! that is only incremented is different: Tofino's stateful ALU updates a 64-bit cell as a pair
//! of 32-bit halves in one access, the low half adding the increment and the high half adding
//! one when the low half's old value is above `~increment` (the carry, a condition on the old
//! value the condition unit evaluates). The increment must fit the low half: a constant below
//! 2^32 or a value zero-extended from at most 32 bits.
//!
//! ```text
//! before: v1:i64 = scalar.load dropped        ; "a 64-bit register is wider than tofino1's"
//!         v2:i64 = const 1                    ; (load, add, store: server)
//!         v3:i64 = add v1, v2
//!         scalar.store dropped, v3
//! after:  the same statements, supported on the switch: `dropped` is an increment-only
//!         counter (one read-modify-write per path, its value used by nothing else)
//! ```
//!
//! A counter qualifies when every access to it in process() is such a read-modify-write: each
//! load (`scalar.load`, or `vec.get` of a one-field vector) is used only by one `add` whose
//! other operand fits 32 bits, that sum is used only by one store to the same object (for a
//! vector, at the same index value) in the same block, and every store is of this shape. Any
//! other read of the value — a comparison, a header write — keeps today's placement.

use std::collections::HashMap;

use tandem_ir::{BinOp, CastOp, Function, Inst, InstKind, Module, StateId, Value, ValueDef};

/// Widest increment the low half of a counter pair adds in one access.
const INCREMENT_BITS: u32 = 32;

/// The instructions of increment-only counters wider than `max_bits` (their loads, adds and
/// stores), which a target with `max_bits`-bit registers runs as paired-half updates.
#[derive(Debug, Default)]
pub struct WideCounters {
    insts: HashMap<Inst, StateId>,
}

impl WideCounters {
    /// Finds every increment-only counter of `module` (any width; the caller compares widths).
    pub fn find(module: &Module) -> WideCounters {
        let f = &module.process;
        let uses = use_counts(f);
        let mut by_state: HashMap<StateId, Vec<Inst>> = HashMap::new();
        let mut bad: Vec<StateId> = Vec::new();
        for (_, block) in f.blocks.iter() {
            for (pos, &inst) in block.insts.iter().enumerate() {
                let kind = &f.insts[inst].kind;
                let state = match kind {
                    InstKind::ScalarStore { state, .. } | InstKind::VecSet { state, .. } => *state,
                    _ => continue,
                };
                match rmw(f, &uses, &block.insts[..pos], inst) {
                    Some(parts) => by_state.entry(state).or_default().extend(parts),
                    None => bad.push(state),
                }
            }
        }
        // Every load must belong to one of the read-modify-writes.
        for (_, block) in f.blocks.iter() {
            for &i in &block.insts {
                if let InstKind::ScalarLoad { state } | InstKind::VecGet { state, .. } =
                    &f.insts[i].kind
                {
                    if !by_state.get(state).is_some_and(|p| p.contains(&i)) {
                        bad.push(*state);
                    }
                }
            }
        }
        let mut insts = HashMap::new();
        for (state, parts) in by_state {
            if bad.contains(&state) || parts.is_empty() || !single_field(module, state) {
                continue;
            }
            for i in parts {
                insts.insert(i, state);
            }
        }
        WideCounters { insts }
    }

    /// Is `inst` a load, add or store of an increment-only counter?
    pub fn contains(&self, inst: Inst) -> bool {
        self.insts.contains_key(&inst)
    }

    /// Is `state` an increment-only counter?
    pub fn is_counter(&self, state: StateId) -> bool {
        self.insts.values().any(|s| *s == state)
    }
}

/// A scalar, or a vector whose elements have one field.
fn single_field(module: &Module, state: StateId) -> bool {
    match module.states.get(state).map(|s| &s.kind) {
        Some(tandem_ir::StateKind::Scalar { .. }) => true,
        Some(tandem_ir::StateKind::Vector { elem, .. }) => elem.fields.len() == 1,
        _ => false,
    }
}

/// How many times each value is an operand.
fn use_counts(f: &Function) -> HashMap<Value, usize> {
    let mut n = HashMap::new();
    for (_, data) in f.insts.iter() {
        for a in data.kind.args() {
            *n.entry(a).or_insert(0) += 1;
        }
    }
    n
}

/// The instruction defining `v`, if any.
fn def(f: &Function, v: Value) -> Option<(Inst, &InstKind)> {
    match f.values.get(v)?.def {
        ValueDef::Result(i, _) => Some((i, &f.insts.get(i)?.kind)),
        _ => None,
    }
}

/// The instructions of the read-modify-write ending in `store` when it is `S = S + inc` (a
/// scalar: the load and the add earlier in the same block, `before`) or `v[i] = v[i] + inc`
/// (a vector: the get read at `i` or at `select c, i, 0` — the NF API's bounds check — and
/// its value possibly `select c, got, 0`; the set under the check), every intermediate value
/// used by nothing else: the load, any selects, the add and the store.
fn rmw(
    f: &Function,
    uses: &HashMap<Value, usize>,
    before: &[Inst],
    store: Inst,
) -> Option<Vec<Inst>> {
    let (state, index, value) = match &f.insts[store].kind {
        InstKind::ScalarStore { state, value } => (*state, None, *value),
        InstKind::VecSet {
            state,
            index,
            value,
        } if value.len() == 1 => (*state, Some(*index), value[0]),
        _ => return None,
    };
    let once = |v: Value| uses.get(&v).copied() == Some(1);
    // Scalars: within the block; vectors: the value flow itself orders the get before the set.
    let placed = |i: Inst| index.is_some() || before.contains(&i);
    let (add, kind) = def(f, value)?;
    let InstKind::Binary {
        op: BinOp::Add,
        args,
    } = kind
    else {
        return None;
    };
    if !once(value) || !placed(add) {
        return None;
    }
    // The load behind `v`, through a bounds-check select, with the instructions on the way.
    let load_of = |v: Value| -> Option<Vec<Inst>> {
        let (i, k) = def(f, v)?;
        if !once(v) || !placed(i) {
            return None;
        }
        match k {
            InstKind::ScalarLoad { state: s } if *s == state && index.is_none() => Some(vec![i]),
            InstKind::VecGet {
                state: s,
                index: at,
            } if *s == state && index.is_some_and(|si| same_element(f, *at, si)) => Some(vec![i]),
            InstKind::Select {
                if_true, if_false, ..
            } if index.is_some() && is_zero(f, *if_false) => {
                let (g, gk) = def(f, *if_true)?;
                match gk {
                    InstKind::VecGet {
                        state: s,
                        index: at,
                    } if *s == state
                        && once(*if_true)
                        && index.is_some_and(|si| same_element(f, *at, si)) =>
                    {
                        Some(vec![g, i])
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    };
    let (mut parts, inc) = match (load_of(args[0]), load_of(args[1])) {
        (Some(l), _) => (l, args[1]),
        (None, Some(l)) => (l, args[0]),
        _ => return None,
    };
    parts.extend([add, store]);
    narrow_increment(f, inc).then_some(parts)
}

/// `v` is a constant.
pub(crate) fn is_const(f: &Function, v: Value) -> bool {
    matches!(def(f, v), Some((_, InstKind::Const { .. })))
}

fn is_zero(f: &Function, v: Value) -> bool {
    matches!(def(f, v), Some((_, InstKind::Const { imm: 0 })))
}

/// A get at `get` and a set at `set` address the same element when the set runs: the same
/// index — one value, two constants of the same value (`counts[3] += 1` reads and writes
/// at two `const 3`), or the same pure computation twice ([`same_computation`]) — or the get's index is `select c, i, 0` with `i` the set's index (out
/// of range the set does not run). Shared with the register read-modify-write fusion
/// (`labels::find_fused`).
pub(crate) fn same_element(f: &Function, get: Value, set: Value) -> bool {
    same_index(f, get, set)
        || matches!(def(f, get), Some((_, InstKind::Select { if_true, if_false, .. }))
            if same_index(f, *if_true, set) && is_zero(f, *if_false))
}

fn same_index(f: &Function, a: Value, b: Value) -> bool {
    same_computation(f, a, b, 6)
}

/// `a` and `b` compute the same value: one value, two constants of the same value, or the same
/// pure operation (arithmetic, comparison, cast, select, byte swap, hash) of operands that
/// compute the same values, up to `depth` operations deep. The front end may compute an
/// index twice — `bloom[h % 8192]` read in one block and written in another recomputes
/// `and (zext h), 8191` there — and both address the same element.
fn same_computation(f: &Function, a: Value, b: Value, depth: u32) -> bool {
    if a == b {
        return true;
    }
    if f.value_type(a) != f.value_type(b) {
        return false;
    }
    let (Some((_, ka)), Some((_, kb))) = (def(f, a), def(f, b)) else {
        return false;
    };
    let same = |x: Value, y: Value| depth > 0 && same_computation(f, x, y, depth - 1);
    match (ka, kb) {
        (InstKind::Const { imm: x }, InstKind::Const { imm: y }) => x == y,
        (InstKind::Binary { op: o1, args: a1 }, InstKind::Binary { op: o2, args: a2 }) => {
            o1 == o2 && same(a1[0], a2[0]) && same(a1[1], a2[1])
        }
        (InstKind::Icmp { pred: p1, args: a1 }, InstKind::Icmp { pred: p2, args: a2 }) => {
            p1 == p2 && same(a1[0], a2[0]) && same(a1[1], a2[1])
        }
        (InstKind::Cast { op: o1, arg: x }, InstKind::Cast { op: o2, arg: y }) => {
            o1 == o2 && same(*x, *y)
        }
        (InstKind::Bswap { arg: x }, InstKind::Bswap { arg: y }) => same(*x, *y),
        (
            InstKind::Select {
                cond: c1,
                if_true: t1,
                if_false: e1,
            },
            InstKind::Select {
                cond: c2,
                if_true: t2,
                if_false: e2,
            },
        ) => same(*c1, *c2) && same(*t1, *t2) && same(*e1, *e2),
        (InstKind::Hash { algo: h1, args: a1 }, InstKind::Hash { algo: h2, args: a2 }) => {
            h1 == h2 && a1.len() == a2.len() && a1.iter().zip(a2).all(|(x, y)| same(*x, *y))
        }
        _ => false,
    }
}

/// A constant below 2^32 or a zero extension of at most 32 bits.
fn narrow_increment(f: &Function, v: Value) -> bool {
    if f.value_type(v).is_some_and(|t| t.bits() <= INCREMENT_BITS) {
        return true;
    }
    match def(f, v).map(|(_, k)| k) {
        Some(InstKind::Const { imm }) => *imm >> INCREMENT_BITS == 0,
        Some(InstKind::Cast {
            op: CastOp::Zext,
            arg,
        }) => f
            .value_type(*arg)
            .is_some_and(|t| t.bits() <= INCREMENT_BITS),
        _ => false,
    }
}
