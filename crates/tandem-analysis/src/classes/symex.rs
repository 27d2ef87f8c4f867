//! The symbolic run of `process` for one value of the analysed map: the packet is symbolic
//! (terms), the map's value is concrete, and the result is a decision diagram from packet
//! conditions to the switch-side outcome — the fate and port, the header writes, or
//! "visits the server" (any state write or server-only code ends the path: from there the
//! server, which holds the full value, decides).

use super::bdd::{Bdd, NodeId, FALSE, TRUE};
use super::terms::{Atom, Term, TermId, Terms};
use std::collections::{BTreeMap, HashMap};
use tandem_ir::{
    BinOp, Block, BlockCall, Header, HeaderField, InstKind, IntCC, Module, StateId, Value,
};

/// Why a symbolic run stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymError {
    /// More instructions than the budget (paths multiply, or a loop).
    StepLimit(u64),
    /// The decision diagrams outgrew their budget (arithmetic on the switch side).
    DiagramLimit(usize),
    /// The map is looked up with two different keys on one path.
    KeyMismatch,
    /// The IR uses a value no path defined (the module does not verify).
    Malformed(String),
}

/// What the switch-side code does with a packet.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Leaf {
    /// The packet visits the server (it changes state, or runs server-only code).
    Server,
    /// The packet's fate on the switch: the port sent to (`None`: dropped), the final value
    /// of every header field written, and header pushes (`true`) and pops (`false`).
    Done {
        /// The port, or `None` for a drop.
        send: Option<TermId>,
        /// Header writes (final values).
        writes: Vec<(HeaderField, TermId)>,
        /// Header pushes and pops, in order.
        layout: Vec<(Header, bool)>,
    },
}

/// The map's value for one run: `None` (absent), or each field's constant (`None`: unbounded,
/// the field is an atom).
pub type Found = Option<Vec<Option<u64>>>;

#[derive(Clone)]
struct Path {
    env: Vec<TermId>,
    pc: NodeId,
    fate: Option<Option<TermId>>,
    writes: BTreeMap<HeaderField, TermId>,
    layout: Vec<(Header, bool)>,
    key: Option<Vec<TermId>>,
}

const UNSET: TermId = TermId::MAX;

/// Terms, diagrams and outcomes shared by the runs of one analysis.
pub struct Machine<'m> {
    module: &'m Module,
    map: StateId,
    /// The term table.
    pub terms: Terms,
    /// The diagram table.
    pub bdd: Bdd,
    leaves: HashMap<Leaf, u32>,
    /// Outcome `k` is `leaf_list[k - 2]`.
    pub leaf_list: Vec<Leaf>,
    cond_memo: HashMap<TermId, NodeId>,
    steps: u64,
    limit: u64,
    /// The analysed map's keys, as terms, with the path conditions they are looked up under.
    keys: Vec<(Vec<TermId>, NodeId)>,
    /// The operands (key or index) of the other lookups whose results are atoms, likewise.
    args: HashMap<tandem_ir::Inst, Vec<(Vec<TermId>, NodeId)>>,
}

/// Adds `args` under path condition `pc` to the alternatives.
fn record(bdd: &mut Bdd, alts: &mut Vec<(Vec<TermId>, NodeId)>, args: Vec<TermId>, pc: NodeId) {
    match alts.iter_mut().find(|(a, _)| *a == args) {
        Some((_, c)) => *c = bdd.ite(*c, TRUE, pc),
        None => alts.push((args, pc)),
    }
}

impl<'m> Machine<'m> {
    /// A machine for `map` in `module`, with a budget of `limit` instructions over all runs.
    pub fn new(module: &'m Module, map: StateId, limit: u64) -> Machine<'m> {
        Machine {
            module,
            map,
            terms: Terms::default(),
            bdd: Bdd::default(),
            leaves: HashMap::new(),
            leaf_list: Vec::new(),
            cond_memo: HashMap::new(),
            steps: 0,
            limit,
            keys: Vec::new(),
            args: HashMap::new(),
        }
    }

    /// A boolean diagram as an `i1` term (`select`s over its conditions).
    fn bdd_term(&mut self, n: NodeId, memo: &mut HashMap<NodeId, TermId>) -> TermId {
        if let Some(&t) = memo.get(&n) {
            return t;
        }
        let t = match self.bdd.view(n) {
            super::bdd::NodeView::Leaf(k) => self.terms.konst(u64::from(k == 1), 1),
            super::bdd::NodeView::Branch { var, hi, lo } => {
                let (h, l) = (self.bdd_term(hi, memo), self.bdd_term(lo, memo));
                self.terms.select(var, h, l)
            }
        };
        memo.insert(n, t);
        t
    }

    /// One term vector equal to each alternative under its path condition.
    fn combine(&mut self, alts: &[(Vec<TermId>, NodeId)]) -> Option<Vec<TermId>> {
        let ((last, _), rest) = alts.split_last()?;
        let mut acc = last.clone();
        let mut memo = HashMap::new();
        for (args, pc) in rest.iter().rev() {
            let c = self.bdd_term(*pc, &mut memo);
            acc = args
                .iter()
                .zip(&acc)
                .map(|(&a, &b)| self.terms.select(c, a, b))
                .collect();
        }
        Some(acc)
    }

    /// The analysed map's key: one term per key field, equal to the key every path that
    /// looks the map up uses.
    pub fn key(&mut self) -> Option<Vec<TermId>> {
        let alts = self.keys.clone();
        self.combine(&alts)
    }

    /// The operands of each other lookup, likewise.
    pub fn result_args(&mut self) -> HashMap<tandem_ir::Inst, Vec<TermId>> {
        let all: Vec<_> = self.args.iter().map(|(&i, a)| (i, a.clone())).collect();
        all.into_iter()
            .filter_map(|(i, a)| Some((i, self.combine(&a)?)))
            .collect()
    }

    /// The outcome of a terminal index (`k >= 2`).
    pub fn leaf(&self, k: u32) -> Option<&Leaf> {
        self.leaf_list.get((k as usize).checked_sub(2)?)
    }

    fn leaf_node(&mut self, l: Leaf) -> NodeId {
        let next = self.leaf_list.len() as u32 + 2;
        let k = *self.leaves.entry(l.clone()).or_insert(next);
        if k == next {
            self.leaf_list.push(l);
        }
        self.bdd.leaf(k)
    }

    /// The diagram of an `i1` condition, over its atomic conditions.
    fn cond(&mut self, c: TermId) -> NodeId {
        if let Some(&n) = self.cond_memo.get(&c) {
            return n;
        }
        let t = self.terms.get(c).clone();
        let n = match t {
            Term::Const(k, _) => {
                if k != 0 {
                    TRUE
                } else {
                    FALSE
                }
            }
            Term::Bin(BinOp::Xor, a, b, 1) => {
                let (a, b) = (self.cond(a), self.cond(b));
                let nb = self.bdd.not(b);
                self.bdd.ite(a, nb, b)
            }
            Term::Bin(BinOp::And, a, b, 1) => {
                let (a, b) = (self.cond(a), self.cond(b));
                self.bdd.and(a, b)
            }
            Term::Bin(BinOp::Or, a, b, 1) => {
                let (a, b) = (self.cond(a), self.cond(b));
                self.bdd.ite(a, TRUE, b)
            }
            Term::Select(s, a, b, 1) => {
                let (s, a, b) = (self.cond(s), self.cond(a), self.cond(b));
                self.bdd.ite(s, a, b)
            }
            _ => self.bdd.var(c),
        };
        self.cond_memo.insert(c, n);
        n
    }

    /// Runs `process` with the map's value `found`; the diagram of its switch-side outcome.
    pub fn run(&mut self, found: &Found) -> Result<NodeId, SymError> {
        let func = &self.module.process;
        let Some(entry) = func.entry() else {
            return Ok(self.leaf_node(Leaf::Done {
                send: None,
                writes: Vec::new(),
                layout: Vec::new(),
            }));
        };
        let path = Path {
            env: vec![UNSET; func.values.len()],
            pc: TRUE,
            fate: None,
            writes: BTreeMap::new(),
            layout: Vec::new(),
            key: None,
        };
        self.exec(entry, path, found)
    }

    fn val(&self, p: &Path, v: Value) -> Result<TermId, SymError> {
        match p.env.get(tandem_ir::EntityRef::index(v)) {
            Some(&t) if t != UNSET => Ok(t),
            _ => Err(SymError::Malformed(format!("{v} used before a definition"))),
        }
    }

    fn bind(&self, p: &mut Path, call: &BlockCall) -> Result<(), SymError> {
        let params = &self.module.process.blocks[call.block].params;
        let args: Vec<TermId> = call
            .args
            .iter()
            .map(|&a| self.val(p, a))
            .collect::<Result<_, _>>()?;
        for (&param, t) in params.iter().zip(args) {
            p.env[tandem_ir::EntityRef::index(param)] = t;
        }
        Ok(())
    }

    /// Forks on condition `b`: the diagram `ite(b, then, else)` over the feasible sides.
    fn fork(
        &mut self,
        b: NodeId,
        p: Path,
        then_call: &BlockCall,
        else_call: &BlockCall,
        found: &Found,
    ) -> Result<NodeId, SymError> {
        let t = self.bdd.and(p.pc, b);
        let nb = self.bdd.not(b);
        let e = self.bdd.and(p.pc, nb);
        if t == FALSE || e == FALSE {
            let mut p = p;
            let call = if t == FALSE { else_call } else { then_call };
            self.bind(&mut p, call)?;
            return self.exec(call.block, p, found);
        }
        let mut pt = p.clone();
        pt.pc = t;
        self.bind(&mut pt, then_call)?;
        let rt = self.exec(then_call.block, pt, found)?;
        let mut pe = p;
        pe.pc = e;
        self.bind(&mut pe, else_call)?;
        let re = self.exec(else_call.block, pe, found)?;
        Ok(self.bdd.ite(b, rt, re))
    }

    fn exec(&mut self, mut block: Block, mut p: Path, found: &Found) -> Result<NodeId, SymError> {
        let module = self.module;
        let func = &module.process;
        loop {
            for &inst in &func.blocks[block].insts {
                self.steps += 1;
                if self.steps > self.limit {
                    return Err(SymError::StepLimit(self.limit));
                }
                if self.bdd.exhausted() {
                    return Err(SymError::DiagramLimit(super::bdd::MAX_NODES));
                }
                let data = &func.insts[inst];
                let bits = |v: Value| func.value_type(v).map_or(64, |t| t.bits());
                let r0 = data.results.first().copied();
                let set = |p: &mut Path, v: Option<Value>, t: TermId| {
                    if let Some(v) = v {
                        p.env[tandem_ir::EntityRef::index(v)] = t;
                    }
                };
                match &data.kind {
                    InstKind::Const { imm } => {
                        let t = self.terms.konst(*imm, r0.map_or(64, bits));
                        set(&mut p, r0, t);
                    }
                    InstKind::Binary { op, args } => {
                        let (a, b) = (self.val(&p, args[0])?, self.val(&p, args[1])?);
                        let t = self.terms.bin(*op, a, b);
                        set(&mut p, r0, t);
                    }
                    InstKind::Icmp { pred, args } => {
                        let (a, b) = (self.val(&p, args[0])?, self.val(&p, args[1])?);
                        let t = self.terms.icmp(*pred, a, b);
                        set(&mut p, r0, t);
                    }
                    InstKind::Cast { op, arg } => {
                        let a = self.val(&p, *arg)?;
                        let t = self.terms.cast(*op, a, r0.map_or(64, bits));
                        set(&mut p, r0, t);
                    }
                    InstKind::Select {
                        cond,
                        if_true,
                        if_false,
                    } => {
                        let c = self.val(&p, *cond)?;
                        let (a, b) = (self.val(&p, *if_true)?, self.val(&p, *if_false)?);
                        let t = self.terms.select(c, a, b);
                        set(&mut p, r0, t);
                    }
                    InstKind::Bswap { arg } => {
                        let a = self.val(&p, *arg)?;
                        let t = self.terms.bswap(a);
                        set(&mut p, r0, t);
                    }
                    InstKind::Hash { algo, args } => {
                        let args = args
                            .iter()
                            .map(|&a| self.val(&p, a))
                            .collect::<Result<Vec<_>, _>>()?;
                        let t = self.terms.hash(*algo, args);
                        set(&mut p, r0, t);
                    }
                    InstKind::HdrRead { field } => {
                        let b = r0.map_or(64, bits);
                        let t = if let Some(&w) = p.writes.get(field) {
                            w
                        } else if p.layout.iter().any(|(h, _)| *h == field.header()) {
                            self.terms.konst(0, b)
                        } else {
                            self.terms.atom(Atom::Field(*field), b)
                        };
                        set(&mut p, r0, t);
                    }
                    InstKind::HdrWrite { field, value } => {
                        let v = self.val(&p, *value)?;
                        p.writes.insert(*field, v);
                    }
                    InstKind::HdrValid { header } => {
                        let t = match p.layout.iter().rev().find(|(h, _)| h == header) {
                            Some(&(_, present)) => self.terms.konst(u64::from(present), 1),
                            None => self.terms.atom(Atom::Valid(*header), 1),
                        };
                        set(&mut p, r0, t);
                    }
                    InstKind::HdrPush { header } | InstKind::HdrPop { header } => {
                        let push = matches!(data.kind, InstKind::HdrPush { .. });
                        p.writes.retain(|f, _| f.header() != *header);
                        p.layout.push((*header, push));
                    }
                    InstKind::MetaRead { meta } => {
                        let t = self.terms.atom(Atom::Meta(*meta), r0.map_or(64, bits));
                        set(&mut p, r0, t);
                    }
                    InstKind::ScalarLoad { state } => {
                        let t = self.terms.atom(Atom::Scalar(*state), r0.map_or(64, bits));
                        set(&mut p, r0, t);
                    }
                    InstKind::MapFind { state, key } if *state == self.map => {
                        let key = key
                            .iter()
                            .map(|&k| self.val(&p, k))
                            .collect::<Result<Vec<_>, _>>()?;
                        match &p.key {
                            Some(k) if *k != key => return Err(SymError::KeyMismatch),
                            _ => {}
                        }
                        record(&mut self.bdd, &mut self.keys, key.clone(), p.pc);
                        p.key = Some(key);
                        for (i, &r) in data.results.iter().enumerate() {
                            let b = bits(r);
                            let t = match (i, found) {
                                (0, f) => self.terms.konst(u64::from(f.is_some()), 1),
                                (_, None) => self.terms.konst(0, b),
                                (i, Some(fields)) => match fields.get(i - 1).copied().flatten() {
                                    Some(k) => self.terms.konst(k, b),
                                    None => self.terms.atom(Atom::ValueField(i - 1), b),
                                },
                            };
                            set(&mut p, Some(r), t);
                        }
                    }
                    InstKind::MapFind { .. } | InstKind::VecGet { .. } => {
                        let args: Vec<Value> = match &data.kind {
                            InstKind::VecGet { index, .. } => vec![*index],
                            InstKind::MapFind { key, .. } => key.clone(),
                            _ => Vec::new(),
                        };
                        let terms = args
                            .iter()
                            .map(|&a| self.val(&p, a))
                            .collect::<Result<Vec<_>, _>>()?;
                        let alts = self.args.entry(inst).or_default();
                        record(&mut self.bdd, alts, terms, p.pc);
                        for (i, &r) in data.results.iter().enumerate() {
                            let t = self.terms.atom(Atom::Result(inst, i), bits(r));
                            set(&mut p, Some(r), t);
                        }
                    }
                    // A meter changes its state when executed: the server runs it.
                    InstKind::MeterExecute { .. }
                    | InstKind::MapInsert { .. }
                    | InstKind::MapErase { .. }
                    | InstKind::VecSet { .. }
                    | InstKind::ScalarStore { .. }
                    | InstKind::Opaque { .. } => return Ok(self.leaf_node(Leaf::Server)),
                    InstKind::Send { port } => {
                        let t = self.val(&p, *port)?;
                        p.fate = Some(Some(t));
                    }
                    InstKind::Drop => p.fate = Some(None),
                    InstKind::Return => {
                        let leaf = Leaf::Done {
                            send: p.fate.flatten(),
                            writes: p.writes.iter().map(|(&f, &t)| (f, t)).collect(),
                            layout: p.layout.clone(),
                        };
                        return Ok(self.leaf_node(leaf));
                    }
                    InstKind::Jump { dest } => {
                        self.bind(&mut p, dest)?;
                        block = dest.block;
                        break;
                    }
                    InstKind::Brif {
                        cond,
                        then_dest,
                        else_dest,
                    } => {
                        let c = self.val(&p, *cond)?;
                        let b = self.cond(c);
                        return self.fork(b, p, then_dest, else_dest, found);
                    }
                    InstKind::Switch {
                        arg,
                        default,
                        cases,
                    } => {
                        let a = self.val(&p, *arg)?;
                        return self.switch(a, p, default, cases, found);
                    }
                }
            }
        }
    }

    fn switch(
        &mut self,
        a: TermId,
        p: Path,
        default: &BlockCall,
        cases: &[(u64, BlockCall)],
        found: &Found,
    ) -> Result<NodeId, SymError> {
        let Some(((k, call), rest)) = cases.split_first() else {
            let mut p = p;
            self.bind(&mut p, default)?;
            return self.exec(default.block, p, found);
        };
        let kt = self.terms.konst(*k, self.terms.bits(a));
        let c = self.terms.icmp(IntCC::Eq, a, kt);
        let b = self.cond(c);
        let t = self.bdd.and(p.pc, b);
        let nb = self.bdd.not(b);
        let e = self.bdd.and(p.pc, nb);
        let rt = if t == FALSE {
            None
        } else {
            let mut pt = p.clone();
            pt.pc = t;
            self.bind(&mut pt, call)?;
            Some(self.exec(call.block, pt, found)?)
        };
        if e == FALSE {
            return Ok(rt.unwrap_or(FALSE));
        }
        let mut pe = p;
        pe.pc = e;
        let re = self.switch(a, pe, default, rest, found)?;
        Ok(match rt {
            Some(rt) => self.bdd.ite(b, rt, re),
            None => re,
        })
    }
}
