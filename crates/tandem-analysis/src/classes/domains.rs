//! Value sets: which values each field of a map's value can hold, from the values the NF
//! ever stores into it (a flow-insensitive value-set analysis to a fixed point: constants,
//! `select`s and arithmetic of small sets, copies of the map's own fields).

use super::terms::{binary_const, bswap_const, cast_const, icmp_const};
use std::collections::{BTreeSet, HashMap};
use tandem_ir::{BinOp, FuncId, Function, InstKind, Module, StateId, StateKind, Type, Value};

/// A value set; `None` is "unbounded".
pub type Set = Option<BTreeSet<u64>>;

/// Sets larger than this are unbounded.
pub const SET_LIMIT: usize = 4096;
/// Operations over operand sets whose product is larger than this give "unbounded".
const PRODUCT_LIMIT: usize = 1 << 16;
/// Rounds of the fixed point before giving up (every set then unbounded).
const MAX_ROUNDS: usize = 64;
/// A value whose set grew this many times is unbounded.
const WIDEN_AFTER: u32 = 16;

fn full(ty: Type) -> Set {
    (ty.bits() <= 2).then(|| (0..=ty.mask()).collect())
}

fn join(into: &mut Option<Set>, s: &Set) -> bool {
    match into {
        None => {
            *into = Some(s.clone());
            true
        }
        Some(None) => false,
        Some(Some(cur)) => match s {
            None => {
                *into = Some(None);
                true
            }
            Some(s) => {
                let before = cur.len();
                cur.extend(s.iter().copied());
                if cur.len() > SET_LIMIT {
                    *into = Some(None);
                    return true;
                }
                cur.len() != before
            }
        },
    }
}

fn join_set(into: &mut Set, s: &Set) {
    let mut o = Some(into.clone());
    join(&mut o, s);
    *into = o.flatten();
}

/// Is the instruction a pure operation whose operands the cone evaluation follows?
fn pure_args(kind: &InstKind) -> Option<Vec<Value>> {
    match kind {
        InstKind::Binary { args, .. } | InstKind::Icmp { args, .. } => Some(args.to_vec()),
        InstKind::Cast { arg, .. } | InstKind::Bswap { arg } => Some(vec![*arg]),
        InstKind::Select {
            cond,
            if_true,
            if_false,
        } => Some(vec![*cond, *if_true, *if_false]),
        InstKind::Const { .. } => Some(Vec::new()),
        _ => None,
    }
}

/// Evaluates `v` from the values of the cone's leaves.
fn eval(func: &Function, v: Value, leaves: &HashMap<Value, u64>) -> u64 {
    if let Some(&x) = leaves.get(&v) {
        return x;
    }
    let ty = |v: Value| func.value_type(v).unwrap_or(Type::I64);
    let tandem_ir::ValueDef::Result(inst, _) = func.values[v].def else {
        return 0;
    };
    let r = match &func.insts[inst].kind {
        InstKind::Const { imm } => *imm,
        InstKind::Binary { op, args } => binary_const(
            *op,
            ty(args[0]).bits(),
            eval(func, args[0], leaves),
            eval(func, args[1], leaves),
        ),
        InstKind::Icmp { pred, args } => icmp_const(
            *pred,
            ty(args[0]).bits(),
            eval(func, args[0], leaves),
            eval(func, args[1], leaves),
        ),
        InstKind::Cast { op, arg } => {
            cast_const(*op, ty(*arg).bits(), ty(v).bits(), eval(func, *arg, leaves))
        }
        InstKind::Bswap { arg } => bswap_const(ty(*arg).bits(), eval(func, *arg, leaves)),
        InstKind::Select {
            cond,
            if_true,
            if_false,
        } => {
            if eval(func, *cond, leaves) != 0 {
                eval(func, *if_true, leaves)
            } else {
                eval(func, *if_false, leaves)
            }
        }
        _ => 0,
    };
    ty(v).wrap(r)
}

/// The values of `x op k` (or `k op x`) for any `x`, when a constant operand bounds them to
/// a small set: a mask with few bits, a remainder, a shift leaving few bits.
fn bounded_by_constant(
    op: BinOp,
    bits: u32,
    a: Option<u64>,
    b: Option<u64>,
) -> Option<BTreeSet<u64>> {
    const MAX_BITS: u32 = 12;
    match (op, a, b) {
        (BinOp::And, Some(m), _) | (BinOp::And, _, Some(m)) if m.count_ones() <= MAX_BITS => {
            // Every sub-mask of m.
            let mut out = BTreeSet::new();
            let mut sub = m;
            loop {
                out.insert(sub);
                if sub == 0 {
                    return Some(out);
                }
                sub = (sub - 1) & m;
            }
        }
        (BinOp::Urem, _, Some(k)) if k > 0 && k <= 1 << MAX_BITS => Some((0..k).collect()),
        (BinOp::Lshr, _, Some(c))
            if c < u64::from(bits) && u64::from(bits) - c <= u64::from(MAX_BITS) =>
        {
            Some((0..1u64 << (u64::from(bits) - c)).collect())
        }
        _ => None,
    }
}

struct Vsa {
    /// `Some(set)` once computed; absent while nothing reaches the value.
    values: HashMap<(FuncId, Value), Set>,
    /// Each map's value fields (absent entries: nothing stored yet).
    fields: HashMap<StateId, Vec<Option<Set>>>,
    /// How often each value's set grew.
    growth: HashMap<(FuncId, Value), u32>,
}

impl Vsa {
    fn get(&self, f: FuncId, v: Value) -> Option<&Set> {
        self.values.get(&(f, v))
    }

    fn set(&mut self, f: FuncId, v: Value, s: Set) -> bool {
        let mut cur = self.values.get(&(f, v)).cloned();
        let changed = join(&mut cur, &s);
        if changed {
            // Widening: a set that keeps growing is unbounded (a counter).
            let n = self.growth.entry((f, v)).or_insert(0);
            *n += 1;
            let widened = if *n > WIDEN_AFTER {
                None
            } else {
                cur.unwrap_or(None)
            };
            self.values.insert((f, v), widened);
        }
        changed
    }

    /// The leaves of `v`'s cone of pure operations (block parameters, lookups, reads).
    fn leaves(func: &Function, v: Value, out: &mut Vec<Value>, depth: u32, max_depth: u32) {
        let def = func.values.get(v).map(|d| d.def);
        let args = match def {
            Some(tandem_ir::ValueDef::Result(inst, _)) if depth < max_depth => {
                pure_args(&func.insts[inst].kind)
            }
            _ => None,
        };
        match args {
            Some(args) => {
                for a in args {
                    Self::leaves(func, a, out, depth + 1, max_depth);
                }
            }
            None => {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }

    /// The set of a pure operation's result, evaluated over its cone's leaves together (so
    /// `select (x < 2), x + 1, x` stays within the values of `x`); `None` while a leaf has
    /// no set yet.
    fn cone(&self, fid: FuncId, func: &Function, kind: &InstKind, r: Value) -> Option<Set> {
        // The whole cone first; when one of its leaves is unbounded, the operands alone.
        match self.cone_to(fid, func, kind, r, 64)? {
            None => self.cone_to(fid, func, kind, r, 1),
            s => Some(s),
        }
    }

    fn cone_to(
        &self,
        fid: FuncId,
        func: &Function,
        kind: &InstKind,
        r: Value,
        max_depth: u32,
    ) -> Option<Set> {
        let rty = func.value_type(r).unwrap_or(Type::I64);
        let mut leaves = Vec::new();
        Self::leaves(func, r, &mut leaves, 0, max_depth);
        let mut sets = Vec::with_capacity(leaves.len());
        let mut unbounded = false;
        for &l in &leaves {
            match self.get(fid, l)? {
                Some(s) => sets.push(s.iter().copied().collect::<Vec<u64>>()),
                None => unbounded = true,
            }
        }
        if unbounded {
            if let InstKind::Binary { op, args } = kind {
                let konst = |v: Value| match self.get(fid, v) {
                    Some(Some(s)) if s.len() == 1 => s.first().copied(),
                    _ => None,
                };
                let bits = func.value_type(args[0]).unwrap_or(Type::I64).bits();
                if let Some(s) = bounded_by_constant(*op, bits, konst(args[0]), konst(args[1])) {
                    return Some(Some(s));
                }
            }
            return Some(full(rty));
        }
        let n: usize = sets.iter().map(|s| s.len().max(1)).product();
        if n > PRODUCT_LIMIT {
            return Some(full(rty));
        }
        let mut out = BTreeSet::new();
        let mut idx = vec![0usize; sets.len()];
        let mut assign = HashMap::new();
        loop {
            for ((&l, s), &i) in leaves.iter().zip(&sets).zip(&idx) {
                assign.insert(l, s.get(i).copied().unwrap_or(0));
            }
            out.insert(eval(func, r, &assign));
            if out.len() > SET_LIMIT {
                return Some(full(rty));
            }
            let mut k = 0;
            loop {
                if k == idx.len() {
                    return Some(Some(out));
                }
                idx[k] += 1;
                if idx[k] < sets[k].len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
        }
    }

    fn round(&mut self, fid: FuncId, func: &Function) -> bool {
        let mut changed = false;
        for (_, block) in func.blocks.iter() {
            for &inst in &block.insts {
                let data = &func.insts[inst];
                changed |= self.inst(fid, func, &data.kind, &data.results);
            }
        }
        changed
    }

    fn inst(&mut self, fid: FuncId, func: &Function, kind: &InstKind, results: &[Value]) -> bool {
        let ty = |v: Value| func.value_type(v).unwrap_or(Type::I64);
        let mut changed = false;
        let out: Option<Set> = match kind {
            InstKind::Const { imm } => Some(Some(BTreeSet::from([*imm]))),
            InstKind::Binary { .. }
            | InstKind::Icmp { .. }
            | InstKind::Cast { .. }
            | InstKind::Select { .. }
            | InstKind::Bswap { .. } => self.cone(fid, func, kind, results[0]),
            InstKind::MapFind { state, .. } if self.fields.contains_key(state) => {
                changed |= self.set(fid, results[0], full(Type::I1));
                for (i, &r) in results.iter().enumerate().skip(1) {
                    // The fields read 0 on a miss.
                    let mut s: Set = Some(BTreeSet::from([0]));
                    if let Some(d) = self.fields[state].get(i - 1).cloned().flatten() {
                        join_set(&mut s, &d);
                    }
                    changed |= self.set(fid, r, s);
                }
                None
            }
            InstKind::MapInsert { state, value, .. } if self.fields.contains_key(state) => {
                for (i, &v) in value.iter().enumerate() {
                    if let Some(s) = self.get(fid, v).cloned() {
                        if let Some(f) = self.fields.get_mut(state).and_then(|f| f.get_mut(i)) {
                            changed |= join(f, &s);
                        }
                    }
                }
                Some(full(Type::I1))
            }
            InstKind::Jump { .. } | InstKind::Brif { .. } | InstKind::Switch { .. } => {
                for call in kind.successors() {
                    let params = &func.blocks[call.block].params;
                    for (&p, &a) in params.iter().zip(&call.args) {
                        if let Some(s) = self.get(fid, a).cloned() {
                            changed |= self.set(fid, p, s);
                        }
                    }
                }
                None
            }
            _ => {
                for &r in results {
                    changed |= self.set(fid, r, full(ty(r)));
                }
                None
            }
        };
        if let (Some(s), Some(&r)) = (out, results.first()) {
            changed |= self.set(fid, r, s);
        }
        changed
    }
}

/// The set of values each value field of every hash map and expiring map can hold (`None`:
/// unbounded, or never stored by the NF's code — its values then come from configuration).
pub fn field_domains(module: &Module) -> HashMap<StateId, Vec<Set>> {
    let maps: HashMap<StateId, Vec<Option<Set>>> = module
        .states
        .iter()
        .filter_map(|(s, o)| match &o.kind {
            StateKind::HashMap { value, .. } | StateKind::ExpiringMap { value, .. } => {
                Some((s, vec![None; value.fields.len()]))
            }
            _ => None,
        })
        .collect();
    let mut vsa = Vsa {
        values: HashMap::new(),
        fields: maps,
        growth: HashMap::new(),
    };
    let funcs: Vec<(FuncId, &Function)> = module.functions().collect();
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        for &(fid, func) in &funcs {
            changed |= vsa.round(fid, func);
        }
        if !changed {
            return vsa
                .fields
                .into_iter()
                .map(|(s, f)| (s, f.into_iter().map(Option::flatten).collect()))
                .collect();
        }
    }
    vsa.fields
        .into_iter()
        .map(|(s, f)| (s, vec![None; f.len()]))
        .collect()
}
