//! Hash-consed symbolic terms over the packet, and the simplifications that make equal
//! behaviours print as equal terms (constant folding, pushing constants through a `select`
//! of constants, boolean normal forms for `i1`).

use std::collections::HashMap;
use tandem_ir::{BinOp, CastOp, HashAlgo, Header, HeaderField, Inst, IntCC, Meta, StateId, Type};

/// A term handle (an index into [`Terms`]); equal handles are equal terms.
pub type TermId = u32;

/// Something the symbolic run does not know: a packet input, configuration, other state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom {
    /// A header field as it arrived.
    Field(HeaderField),
    /// Whether a header arrived.
    Valid(Header),
    /// Packet metadata.
    Meta(Meta),
    /// A scalar's value (configuration: the switch reads it, the run does not change it).
    Scalar(StateId),
    /// Result `.1` of instruction `.0` (lookups in other state, meters, vector reads).
    Result(Inst, usize),
    /// Field `.0` of the analysed map's value, when its domain is unbounded.
    ValueField(usize),
}

/// One term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A constant of `bits` bits.
    Const(u64, u32),
    /// An unknown, of `bits` bits.
    Atom(Atom, u32),
    /// A binary operation at `bits` bits.
    Bin(BinOp, TermId, TermId, u32),
    /// A comparison (1 bit).
    Icmp(IntCC, TermId, TermId),
    /// A cast to `bits` bits.
    Cast(CastOp, TermId, u32),
    /// `select c, a, b` at `bits` bits.
    Select(TermId, TermId, TermId, u32),
    /// A byte swap at `bits` bits.
    Bswap(TermId, u32),
    /// A hash of the operands.
    Hash(HashAlgo, Vec<TermId>),
}

/// The term table, shared by every run of one analysis so equal terms get equal handles.
#[derive(Default)]
pub struct Terms {
    terms: Vec<Term>,
    index: HashMap<Term, TermId>,
}

fn ty(bits: u32) -> Type {
    Type::int(bits).unwrap_or(Type::I64)
}

/// Evaluates a comparison of two constants of `bits` bits.
fn compare(pred: IntCC, bits: u32, a: u64, b: u64) -> bool {
    let t = ty(bits);
    let (sa, sb) = (t.to_signed(a), t.to_signed(b));
    match pred {
        IntCC::Eq => a == b,
        IntCC::Ne => a != b,
        IntCC::Ult => a < b,
        IntCC::Ule => a <= b,
        IntCC::Ugt => a > b,
        IntCC::Uge => a >= b,
        IntCC::Slt => sa < sb,
        IntCC::Sle => sa <= sb,
        IntCC::Sgt => sa > sb,
        IntCC::Sge => sa >= sb,
    }
}

/// Evaluates a cast of a constant of `from` bits to `to` bits.
pub fn cast_const(op: CastOp, from: u32, to: u32, a: u64) -> u64 {
    let r = match op {
        CastOp::Zext | CastOp::Trunc => a,
        CastOp::Sext => ty(from).to_signed(a) as u64,
    };
    ty(to).wrap(r)
}

/// Evaluates a byte swap of a constant of `bits` bits.
pub fn bswap_const(bits: u32, a: u64) -> u64 {
    let n = bits / 8;
    (0..n).fold(0u64, |acc, i| (acc << 8) | ((a >> (8 * i)) & 0xff))
}

/// Evaluates `op` on constants of `bits` bits.
pub fn binary_const(op: BinOp, bits: u32, a: u64, b: u64) -> u64 {
    tandem_ir::interp::binary(op, ty(bits), a, b)
}

/// Evaluates `pred` on constants (result 0 or 1).
pub fn icmp_const(pred: IntCC, bits: u32, a: u64, b: u64) -> u64 {
    u64::from(compare(pred, bits, a, b))
}

impl Terms {
    fn intern(&mut self, t: Term) -> TermId {
        if let Some(&id) = self.index.get(&t) {
            return id;
        }
        let id = self.terms.len() as TermId;
        self.terms.push(t.clone());
        self.index.insert(t, id);
        id
    }

    /// The term behind a handle.
    pub fn get(&self, id: TermId) -> &Term {
        &self.terms[id as usize]
    }

    /// The term's width in bits.
    pub fn bits(&self, id: TermId) -> u32 {
        match self.get(id) {
            Term::Const(_, b)
            | Term::Atom(_, b)
            | Term::Bin(.., b)
            | Term::Cast(.., b)
            | Term::Select(.., b)
            | Term::Bswap(_, b) => *b,
            Term::Icmp(..) => 1,
            Term::Hash(algo, _) => algo.result_type().bits(),
        }
    }

    /// The constant, when the term is one.
    pub fn as_const(&self, id: TermId) -> Option<u64> {
        match self.get(id) {
            Term::Const(v, _) => Some(*v),
            _ => None,
        }
    }

    /// A constant.
    pub fn konst(&mut self, v: u64, bits: u32) -> TermId {
        self.intern(Term::Const(ty(bits).wrap(v), bits))
    }

    /// An atom.
    pub fn atom(&mut self, a: Atom, bits: u32) -> TermId {
        self.intern(Term::Atom(a, bits))
    }

    /// The term as a function of one `i1` term `x`: `(x, value if x, value if not x)`.
    fn bool_fn(&self, id: TermId) -> Option<(TermId, u64, u64)> {
        match *self.get(id) {
            Term::Select(c, a, b, _) => Some((c, self.as_const(a)?, self.as_const(b)?)),
            Term::Cast(CastOp::Zext, x, _) if self.bits(x) == 1 => Some((x, 1, 0)),
            Term::Cast(CastOp::Sext, x, bits) if self.bits(x) == 1 => Some((x, ty(bits).mask(), 0)),
            _ => None,
        }
    }

    /// Applies `f` to the operands when each is a constant or a function of the same `i1`
    /// term: the result is then a constant or a `select` of constants.
    fn distribute(
        &mut self,
        args: &[TermId],
        bits: u32,
        f: impl Fn(&[u64]) -> u64,
    ) -> Option<TermId> {
        let mut x = None;
        let mut hi = Vec::with_capacity(args.len());
        let mut lo = Vec::with_capacity(args.len());
        for &a in args {
            if let Some(k) = self.as_const(a) {
                hi.push(k);
                lo.push(k);
            } else if let Some((c, h, l)) = self.bool_fn(a) {
                if x.is_some_and(|x| x != c) {
                    return None;
                }
                x = Some(c);
                hi.push(h);
                lo.push(l);
            } else {
                return None;
            }
        }
        let (h, l) = (f(&hi), f(&lo));
        match x {
            None => Some(self.konst(h, bits)),
            Some(c) => {
                let (h, l) = (self.konst(h, bits), self.konst(l, bits));
                Some(self.select(c, h, l))
            }
        }
    }

    /// `not x` for an `i1` term.
    pub fn not(&mut self, x: TermId) -> TermId {
        let one = self.konst(1, 1);
        self.bin(BinOp::Xor, x, one)
    }

    /// A binary operation, simplified.
    pub fn bin(&mut self, op: BinOp, a: TermId, b: TermId) -> TermId {
        let bits = self.bits(a);
        if let Some(t) = self.distribute(&[a, b], bits, |v| binary_const(op, bits, v[0], v[1])) {
            return t;
        }
        let (ka, kb) = (self.as_const(a), self.as_const(b));
        let ones = ty(bits).mask();
        match (op, ka, kb) {
            (BinOp::And, Some(0), _) | (BinOp::And, _, Some(0)) => return self.konst(0, bits),
            (BinOp::And, Some(k), _) if k == ones => return b,
            (BinOp::And, _, Some(k)) if k == ones => return a,
            (BinOp::Or | BinOp::Xor | BinOp::Add | BinOp::Sub, _, Some(0)) => return a,
            (BinOp::Or | BinOp::Xor | BinOp::Add, Some(0), _) => return b,
            (BinOp::Or, Some(k), _) | (BinOp::Or, _, Some(k)) if k == ones => {
                return self.konst(ones, bits)
            }
            (BinOp::Xor, _, Some(1)) if bits == 1 => {
                // Double negation.
                if let Term::Bin(BinOp::Xor, x, one, 1) = *self.get(a) {
                    if self.as_const(one) == Some(1) {
                        return x;
                    }
                }
            }
            (BinOp::Xor, Some(1), _) if bits == 1 => return self.bin(BinOp::Xor, b, a),
            _ => {}
        }
        if a == b {
            match op {
                BinOp::And | BinOp::Or => return a,
                BinOp::Xor | BinOp::Sub => return self.konst(0, bits),
                _ => {}
            }
        }
        self.intern(Term::Bin(op, a, b, bits))
    }

    /// A comparison, simplified.
    pub fn icmp(&mut self, pred: IntCC, a: TermId, b: TermId) -> TermId {
        let bits = self.bits(a);
        if let Some(t) = self.distribute(&[a, b], 1, |v| icmp_const(pred, bits, v[0], v[1])) {
            return t;
        }
        if bits == 1 {
            // Comparisons of booleans with constants are the boolean or its negation.
            let (x, k) = match (self.as_const(a), self.as_const(b)) {
                (None, Some(k)) => (a, k),
                (Some(k), None) => (b, k),
                _ => (a, u64::MAX),
            };
            match (pred, k) {
                (IntCC::Eq, 1) | (IntCC::Ne, 0) => return x,
                (IntCC::Eq, 0) | (IntCC::Ne, 1) => return self.not(x),
                _ => {}
            }
        }
        if a == b {
            let r = matches!(
                pred,
                IntCC::Eq | IntCC::Ule | IntCC::Uge | IntCC::Sle | IntCC::Sge
            );
            return self.konst(u64::from(r), 1);
        }
        self.intern(Term::Icmp(pred, a, b))
    }

    /// A cast, simplified.
    pub fn cast(&mut self, op: CastOp, a: TermId, to: u32) -> TermId {
        let from = self.bits(a);
        if let Some(t) = self.distribute(&[a], to, |v| cast_const(op, from, to, v[0])) {
            return t;
        }
        if from == to {
            return a;
        }
        self.intern(Term::Cast(op, a, to))
    }

    /// A select, simplified (`i1` selects become boolean forms where they are one).
    pub fn select(&mut self, c: TermId, a: TermId, b: TermId) -> TermId {
        let bits = self.bits(a);
        if let Some(k) = self.as_const(c) {
            return if k != 0 { a } else { b };
        }
        if a == b {
            return a;
        }
        if bits == 1 {
            match (self.as_const(a), self.as_const(b)) {
                (Some(1), Some(0)) => return c,
                (Some(0), Some(1)) => return self.not(c),
                _ => {}
            }
        }
        // `select (not x), a, b` is `select x, b, a`.
        if let Term::Bin(BinOp::Xor, x, one, 1) = *self.get(c) {
            if self.as_const(one) == Some(1) {
                return self.select(x, b, a);
            }
        }
        self.intern(Term::Select(c, a, b, bits))
    }

    /// A byte swap, simplified.
    pub fn bswap(&mut self, a: TermId) -> TermId {
        let bits = self.bits(a);
        if let Some(t) = self.distribute(&[a], bits, |v| bswap_const(bits, v[0])) {
            return t;
        }
        if let Term::Bswap(x, _) = *self.get(a) {
            return x;
        }
        self.intern(Term::Bswap(a, bits))
    }

    /// A hash, folded when every operand is a constant.
    pub fn hash(&mut self, algo: HashAlgo, args: Vec<TermId>) -> TermId {
        let consts: Option<Vec<(u64, u32)>> = args
            .iter()
            .map(|&a| Some((self.as_const(a)?, self.bits(a))))
            .collect();
        if let Some(fields) = consts {
            return self.konst(algo.compute_fields(&fields), algo.result_type().bits());
        }
        self.intern(Term::Hash(algo, args))
    }

    /// Does the term mention an unbounded value field? Returns the lowest such field.
    pub fn value_field(
        &self,
        id: TermId,
        memo: &mut HashMap<TermId, Option<usize>>,
    ) -> Option<usize> {
        if let Some(&r) = memo.get(&id) {
            return r;
        }
        let r = match self.get(id) {
            Term::Const(..) => None,
            Term::Atom(Atom::ValueField(i), _) => Some(*i),
            Term::Atom(..) => None,
            Term::Bin(_, a, b, _) | Term::Icmp(_, a, b) => {
                let (a, b) = (*a, *b);
                self.value_field(a, memo)
                    .or_else(|| self.value_field(b, memo))
            }
            Term::Cast(_, a, _) | Term::Bswap(a, _) => {
                let a = *a;
                self.value_field(a, memo)
            }
            Term::Select(c, a, b, _) => {
                let (c, a, b) = (*c, *a, *b);
                self.value_field(c, memo)
                    .or_else(|| self.value_field(a, memo))
                    .or_else(|| self.value_field(b, memo))
            }
            Term::Hash(_, args) => {
                let args = args.clone();
                args.into_iter().find_map(|a| self.value_field(a, memo))
            }
        };
        memo.insert(id, r);
        r
    }
}
