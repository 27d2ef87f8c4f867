//! `flatten`: flat code for the interpreter: the statement trees produced by the checker are
//! lowered to one instruction array with jumps (`if`, `switch`, parser
//! transitions) and call/return (actions). The interpreter is a single loop with
//! a small fixed return stack: no recursion, no per-packet allocation.
//!
//! Before/after for `if (c) { a(); } else { t.apply(); }`:
//! ```text
//! If(c, [CallAction a], [Apply t])   =>   0: JumpIfZero(c, 3)
//!                                          1: CallAction a        (push 2, jump a)
//!                                          2: Jump 4
//!                                          3: Apply t             (push 4, jump action)
//!                                          4: ...
//! ```

use crate::program::*;

/// The ops of the block at `entry` up to its `End`, if each satisfies `f`.
fn straight_block<T>(ops: &[Op], entry: u32, f: impl Fn(u32, &Op) -> Option<T>) -> Option<Vec<T>> {
    let mut out = Vec::new();
    for (i, op) in ops.iter().enumerate().skip(entry as usize) {
        if let Op::End = op {
            return Some(out);
        }
        out.push(f(i as u32, op)?);
    }
    None
}

struct Lower {
    ops: Vec<Op>,
    /// first temporary slot; temporaries of a statement are `tbase..tnext`
    tbase: u32,
    tnext: u32,
    /// register ops on (else every expression is one tree op)
    regs: bool,
}

/// A flattened expression's value: in a slot or a constant.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Opd {
    S(Slot),
    C(u64),
}

fn commutes(k: BinK) -> bool {
    use BinK::*;
    matches!(
        k,
        Add | Mul | And | Or | Xor | Eq | Ne | LAnd | LOr | AddSat
    )
}

fn is_cmp(k: BinK) -> bool {
    use BinK::*;
    matches!(
        k,
        Eq | Ne | Lt | Le | Gt | Ge | SLt(_) | SLe(_) | SGt(_) | SGe(_) | LAnd | LOr
    )
}

/// Whether `e` is always 0 or 1.
fn is_bool(e: &Ex) -> bool {
    match e {
        Ex::SlotConst(k, ..) | Ex::FieldConst(k, ..) | Ex::SlotSlot(k, ..) | Ex::Bin(k, ..) => {
            is_cmp(*k)
        }
        Ex::Not(_) | Ex::Bool(_) => true,
        Ex::Const(c) => *c <= 1,
        _ => false,
    }
}

/// The comparison with the opposite result.
fn neg_cmp(k: BinK) -> Option<BinK> {
    use BinK::*;
    Some(match k {
        Eq => Ne,
        Ne => Eq,
        Lt => Ge,
        Ge => Lt,
        Le => Gt,
        Gt => Le,
        SLt(w) => SGe(w),
        SGe(w) => SLt(w),
        SLe(w) => SGt(w),
        SGt(w) => SLe(w),
        _ => return None,
    })
}

/// `!x` (1 if `x` is 0, else 0) for a simplified `x`, without a `Not` node
/// where a comparison can be inverted.
fn negate(x: Ex) -> Ex {
    match x {
        Ex::Const(c) => Ex::Const((c == 0) as u64),
        Ex::Not(y) if is_bool(&y) => *y,
        Ex::Not(y) => Ex::Bool(y),
        Ex::Bool(y) => Ex::Not(y),
        Ex::SlotConst(k, s, c, m) if neg_cmp(k).is_some() => {
            Ex::SlotConst(neg_cmp(k).unwrap_or(k), s, c, m)
        }
        Ex::FieldConst(k, f, c, m) if neg_cmp(k).is_some() => {
            Ex::FieldConst(neg_cmp(k).unwrap_or(k), f, c, m)
        }
        Ex::SlotSlot(k, a, c, m) if neg_cmp(k).is_some() => {
            Ex::SlotSlot(neg_cmp(k).unwrap_or(k), a, c, m)
        }
        Ex::Bin(k, a, c, m) if neg_cmp(k).is_some() => Ex::Bin(neg_cmp(k).unwrap_or(k), a, c, m),
        x => Ex::Not(Box::new(x)),
    }
}

/// `Some((x, n))` if `e` is `x[7:0] ++ x[15:8] ++ ... ` over the low `n` ≥ 2
/// bytes of `x` (a byte swap, as generated code writes `ntohl`).
fn bswap_of(e: &Ex) -> Option<(&Ex, u32)> {
    fn leaves<'a>(e: &'a Ex, out: &mut Vec<(&'a Ex, u32)>) -> Option<()> {
        match e {
            Ex::Concat(a, b, 8) => {
                leaves(a, out)?;
                match &**b {
                    Ex::Slice(x, lo, 255) => out.push((x, *lo)),
                    _ => return None,
                }
            }
            Ex::Slice(x, lo, 255) => out.push((x, *lo)),
            _ => return None,
        }
        Some(())
    }
    let mut v = Vec::new();
    leaves(e, &mut v)?;
    let x = v.first()?.0;
    let ok = v.len() >= 2
        && v.len() <= 8
        && v.iter()
            .enumerate()
            .all(|(i, (y, lo))| *y == x && *lo == 8 * i as u32);
    ok.then_some((x, v.len() as u32))
}

/// Cheaper equivalents of common expression shapes: byte swaps, slices of
/// slots, `c ? 1 : 0`, masks of slots and fields (bottom-up).
pub(crate) fn simplify(e: &Ex) -> Ex {
    let b = |x: &Ex| Box::new(simplify(x));
    match e {
        Ex::Bin(k, x, y, m) => match (simplify(x), simplify(y)) {
            (Ex::Const(x), Ex::Const(y)) if !matches!(k, BinK::LAnd | BinK::LOr) => {
                Ex::Const(binop(*k, x, y, *m))
            }
            // comparisons of booleans with 0/1, and `b ^ 1`
            (x, Ex::Const(c)) if is_bool(&x) && c <= 1 && matches!(k, BinK::Eq | BinK::Ne) => {
                if (*k == BinK::Eq) == (c == 1) {
                    x
                } else {
                    negate(x)
                }
            }
            (x, Ex::Const(1)) if is_bool(&x) && *k == BinK::Xor => negate(x),
            (Ex::Slot(s), Ex::Const(c)) => Ex::SlotConst(*k, s, c, *m),
            (Ex::Field(f), Ex::Const(c)) => Ex::FieldConst(*k, f, c, *m),
            (Ex::Slot(a), Ex::Slot(c)) => Ex::SlotSlot(*k, a, c, *m),
            (x, y) => Ex::Bin(*k, Box::new(x), Box::new(y), *m),
        },
        Ex::Not(x) => negate(simplify(x)),
        Ex::BitNot(x, m) => Ex::BitNot(b(x), *m),
        Ex::Slice(x, lo, m) => match simplify(x) {
            Ex::Slot(s) => Ex::SlotSlice(s, *lo, *m),
            x => Ex::Slice(Box::new(x), *lo, *m),
        },
        Ex::Concat(x, y, bw) => match bswap_of(e) {
            Some((x, n)) => match simplify(x) {
                Ex::Slot(s) => Ex::SlotBswap(s, n),
                x => Ex::Bswap(Box::new(x), n),
            },
            None => Ex::Concat(b(x), b(y), *bw),
        },
        Ex::SExt(x, from, m) => Ex::SExt(b(x), *from, *m),
        Ex::Mask(x, m) => match simplify(x) {
            Ex::Slot(s) => Ex::SlotConst(BinK::And, s, *m, *m),
            Ex::Field(f) => Ex::FieldConst(BinK::And, f, *m, *m),
            x => Ex::Mask(Box::new(x), *m),
        },
        Ex::Cond(c, x, y) => {
            let (c, x, y) = (simplify(c), simplify(x), simplify(y));
            match (x, y) {
                (Ex::Const(1), Ex::Const(0)) if is_bool(&c) => c,
                (Ex::Const(1), Ex::Const(0)) => Ex::Bool(Box::new(c)),
                (Ex::Const(0), Ex::Const(1)) => negate(c),
                (x, y) => Ex::Cond(Box::new(c), Box::new(x), Box::new(y)),
            }
        }
        Ex::Bswap(x, n) => Ex::Bswap(b(x), *n),
        Ex::Bool(x) => match simplify(x) {
            x if is_bool(&x) => x,
            x => Ex::Bool(Box::new(x)),
        },
        Ex::Const(_)
        | Ex::Slot(_)
        | Ex::Field(_)
        | Ex::SlotConst(..)
        | Ex::FieldConst(..)
        | Ex::SlotSlot(..)
        | Ex::SlotSlice(..)
        | Ex::SlotBswap(..) => e.clone(),
    }
}

impl Lower {
    fn here(&self) -> u32 {
        self.ops.len() as u32
    }

    fn patch(&mut self, at: u32, to: u32) {
        match self.ops.get_mut(at as usize) {
            Some(Op::JumpIfZero(_, t))
            | Some(Op::Jump(t))
            | Some(Op::Jz(_, t))
            | Some(Op::Jnz(_, t))
            | Some(Op::JEqC(_, _, t))
            | Some(Op::JNeC(_, _, t)) => *t = to,
            _ => {}
        }
    }

    fn temp(&mut self) -> Option<Slot> {
        if (self.tnext as usize) < PHV_SLOTS {
            self.tnext += 1;
            Some(self.tnext - 1)
        } else {
            None
        }
    }

    /// `d`, or a new temporary.
    fn out(&mut self, d: Option<Slot>) -> Option<Slot> {
        d.or_else(|| self.temp())
    }

    /// The operand in a slot (constants go to a temporary).
    fn in_slot(&mut self, o: Opd) -> Option<Slot> {
        match o {
            Opd::S(s) => Some(s),
            Opd::C(c) => {
                let t = self.temp()?;
                self.ops.push(Op::SetSlotConst(t, c));
                Some(t)
            }
        }
    }

    fn bin(&mut self, k: BinK, a: Opd, b: Opd, m: u64, d: Option<Slot>) -> Option<Opd> {
        let (a, b) = match (a, b) {
            (Opd::C(x), Opd::C(y)) => return Some(Opd::C(binop(k, x, y, m))),
            (Opd::C(_), Opd::S(_)) if commutes(k) => (b, a),
            (Opd::C(_), _) => (Opd::S(self.in_slot(a)?), b),
            _ => (a, b),
        };
        let Opd::S(a) = a else { return None };
        let op = match b {
            Opd::C(c) => {
                let d = self.out(d)?;
                match k {
                    BinK::Add => Op::AddC(d, a, c, m),
                    BinK::Sub => Op::AddC(d, a, c.wrapping_neg(), m),
                    BinK::And => Op::AndC(d, a, c),
                    BinK::Or => Op::OrC(d, a, c),
                    BinK::Xor => Op::XorC(d, a, c),
                    BinK::Shr if c >= 64 => Op::SetSlotConst(d, 0),
                    BinK::Shr => Op::ShrC(d, a, c as u32),
                    BinK::Shl if c >= 64 => Op::SetSlotConst(d, 0),
                    BinK::Shl => Op::ShlC(d, a, c as u32, m),
                    BinK::Eq => Op::EqC(d, a, c),
                    BinK::Ne => Op::NeC(d, a, c),
                    k => Op::BinC(k, d, a, c, m),
                }
            }
            Opd::S(b) => {
                let d = self.out(d)?;
                match k {
                    BinK::Add => Op::Add(d, a, b, m),
                    BinK::Sub => Op::Sub(d, a, b, m),
                    BinK::And => Op::And(d, a, b),
                    BinK::Or => Op::Or(d, a, b),
                    BinK::Xor => Op::Xor(d, a, b),
                    k => Op::Bin(k, d, a, b, m),
                }
            }
        };
        let d = match op {
            Op::AddC(d, ..)
            | Op::AndC(d, ..)
            | Op::OrC(d, ..)
            | Op::XorC(d, ..)
            | Op::SetSlotConst(d, _)
            | Op::ShrC(d, ..)
            | Op::ShlC(d, ..)
            | Op::EqC(d, ..)
            | Op::NeC(d, ..)
            | Op::BinC(_, d, ..)
            | Op::Add(d, ..)
            | Op::Sub(d, ..)
            | Op::And(d, ..)
            | Op::Or(d, ..)
            | Op::Xor(d, ..)
            | Op::Bin(_, d, ..) => d,
            _ => return None,
        };
        self.ops.push(op);
        Some(Opd::S(d))
    }

    /// A one-operand op on `x`'s value.
    fn unary(&mut self, x: &Ex, d: Option<Slot>, f: impl FnOnce(Slot, Slot) -> Op) -> Option<Opd> {
        let o = self.ex(x, None)?;
        let a = self.in_slot(o)?;
        let d = self.out(d)?;
        self.ops.push(f(d, a));
        Some(Opd::S(d))
    }

    /// Emits register ops computing `e`; the last op writes `d` if given and an
    /// op is needed. `None`: out of temporaries.
    fn ex(&mut self, e: &Ex, d: Option<Slot>) -> Option<Opd> {
        Some(match e {
            Ex::Const(c) => Opd::C(*c),
            Ex::Slot(s) => Opd::S(*s),
            Ex::Field(f) => {
                let d = self.out(d)?;
                self.ops.push(Op::SetSlotField(d, *f));
                Opd::S(d)
            }
            Ex::SlotConst(k, a, c, m) => self.bin(*k, Opd::S(*a), Opd::C(*c), *m, d)?,
            Ex::SlotSlot(k, a, b, m) => self.bin(*k, Opd::S(*a), Opd::S(*b), *m, d)?,
            Ex::FieldConst(k, f, c, m) => {
                let a = self.ex(&Ex::Field(*f), None)?;
                self.bin(*k, a, Opd::C(*c), *m, d)?
            }
            Ex::Bin(k, a, b, m) => {
                let a = self.ex(a, None)?;
                let b = self.ex(b, None)?;
                self.bin(*k, a, b, *m, d)?
            }
            Ex::Not(x) => {
                let a = self.ex(x, None)?;
                self.bin(BinK::Eq, a, Opd::C(0), 1, d)?
            }
            Ex::Bool(x) => {
                let a = self.ex(x, None)?;
                self.bin(BinK::Ne, a, Opd::C(0), 1, d)?
            }
            Ex::Mask(x, m) => {
                let a = self.ex(x, None)?;
                self.bin(BinK::And, a, Opd::C(*m), *m, d)?
            }
            Ex::BitNot(x, m) => self.unary(x, d, |d, a| Op::BitNotR(d, a, *m))?,
            Ex::Slice(x, lo, m) => self.unary(x, d, |d, a| Op::SliceR(d, a, *lo, *m))?,
            Ex::SlotSlice(s, lo, m) => {
                let d = self.out(d)?;
                self.ops.push(Op::SliceR(d, *s, *lo, *m));
                Opd::S(d)
            }
            Ex::SExt(x, from, m) => self.unary(x, d, |d, a| Op::SExtR(d, a, *from, *m))?,
            Ex::SlotBswap(s, n) => {
                let d = self.out(d)?;
                self.ops.push(Op::BswapR(d, *s, *n));
                Opd::S(d)
            }
            Ex::Bswap(x, n) => match &**x {
                Ex::Field(f) => {
                    let d = self.out(d)?;
                    self.ops.push(Op::LoadBswap(d, *f, *n));
                    Opd::S(d)
                }
                x => self.unary(x, d, |d, a| Op::BswapR(d, a, *n))?,
            },
            Ex::Concat(x, y, bw) => {
                let a = self.ex(x, None)?;
                let a = self.in_slot(a)?;
                let b = self.ex(y, None)?;
                let b = self.in_slot(b)?;
                let d = self.out(d)?;
                self.ops.push(Op::ConcatR(d, a, b, *bw));
                Opd::S(d)
            }
            Ex::Cond(c, x, y) => {
                let c = self.ex(c, None)?;
                let c = self.in_slot(c)?;
                let a = self.ex(x, None)?;
                let a = self.in_slot(a)?;
                let b = self.ex(y, None)?;
                let b = self.in_slot(b)?;
                let d = self.out(d)?;
                self.ops.push(Op::CondR(d, c, a, b));
                Opd::S(d)
            }
        })
    }

    /// Fuses the shifts and masks that make a temporary into the `Add` or
    /// `XorC` that uses it (each temporary of a statement is written once and
    /// read once, by a later op of the same statement).
    fn fuse(&mut self, at: usize) {
        let tb = self.tbase;
        // the (x, shift, mask) op at or after `at` and before `i` writing `t`
        let prod = |ops: &[Op], i: usize, t: Slot| -> Option<(usize, (Slot, u32, u64))> {
            if t < tb {
                return None;
            }
            for (k, op) in ops.iter().enumerate().take(i).skip(at) {
                match *op {
                    Op::AndC(d, x, c) if d == t => return Some((k, (x, 0, c))),
                    Op::ShrC(d, x, c) if d == t => return Some((k, (x, c, u64::MAX))),
                    Op::SliceR(d, x, lo, m) if d == t => return Some((k, (x, lo, m))),
                    _ => {}
                }
            }
            None
        };
        let mut i = at;
        while i < self.ops.len() {
            let (new, gone) = match self.ops[i] {
                Op::Add(d, a, b, m) => match (prod(&self.ops, i, a), prod(&self.ops, i, b)) {
                    (Some((ka, (x, s1, k1))), Some((kb, (y, s2, k2)))) => {
                        (Op::AddSM2(d, x, s1, k1, y, s2, k2, m), vec![ka, kb])
                    }
                    (None, Some((kb, (x, s, k)))) => (Op::AddSM(d, a, x, s, k, m), vec![kb]),
                    (Some((ka, (x, s, k))), None) => (Op::AddSM(d, b, x, s, k, m), vec![ka]),
                    (None, None) => {
                        i += 1;
                        continue;
                    }
                },
                Op::XorC(d, t, c) => match prod(&self.ops, i, t) {
                    Some((k, (x, s, mk))) => (Op::XorSMC(d, x, s, mk, c), vec![k]),
                    None => {
                        i += 1;
                        continue;
                    }
                },
                _ => {
                    i += 1;
                    continue;
                }
            };
            self.ops[i] = new;
            let mut gone = gone;
            gone.sort_unstable();
            for k in gone.iter().rev() {
                self.ops.remove(*k);
            }
            i = i + 1 - gone.len();
        }
    }

    /// `d = e` as register ops; false (nothing emitted) if out of temporaries.
    fn set_regs(&mut self, d: Dst, e: &Ex) -> bool {
        let at = self.ops.len();
        self.tnext = self.tbase;
        let ok = match d {
            Dst::Slot(s) => match self.ex(e, Some(s)) {
                Some(Opd::S(x)) if x == s => true,
                Some(Opd::S(x)) => {
                    self.ops.push(Op::SetSlotSlot(s, x));
                    true
                }
                Some(Opd::C(c)) => {
                    self.ops.push(Op::SetSlotConst(s, c));
                    true
                }
                None => false,
            },
            Dst::Field(f) => {
                let swap = match e {
                    Ex::SlotBswap(x, n) => Some((Opd::S(*x), *n)),
                    Ex::Bswap(x, n) => self.ex(x, None).map(|o| (o, *n)),
                    _ => None,
                };
                match swap {
                    Some((Opd::S(x), n)) => {
                        self.ops.push(Op::StoreBswap(f, x, n));
                        true
                    }
                    _ => {
                        self.ops.truncate(at);
                        self.tnext = self.tbase;
                        match self.ex(e, None) {
                            Some(Opd::S(x)) => {
                                self.ops.push(Op::SetFieldSlot(f, x));
                                true
                            }
                            Some(Opd::C(c)) => {
                                self.ops.push(Op::SetFieldConst(f, c));
                                true
                            }
                            None => false,
                        }
                    }
                }
            }
        };
        if ok {
            self.fuse(at);
        } else {
            self.ops.truncate(at);
        }
        ok
    }

    /// A conditional jump taken when `c` is zero (target patched later).
    fn branch_regs(&mut self, c: &Ex) {
        let at = self.ops.len();
        self.tnext = self.tbase;
        let op = match c {
            Ex::SlotConst(BinK::Eq, s, k, _) => Some(Op::JNeC(*s, *k, 0)),
            Ex::SlotConst(BinK::Ne, s, k, _) => Some(Op::JEqC(*s, *k, 0)),
            Ex::Slot(s) => Some(Op::Jz(*s, 0)),
            Ex::Not(x) => match self.ex(x, None) {
                Some(Opd::S(s)) => Some(Op::Jnz(s, 0)),
                _ => None,
            },
            Ex::Bool(x) => match self.ex(x, None) {
                Some(Opd::S(s)) => Some(Op::Jz(s, 0)),
                _ => None,
            },
            Ex::FieldConst(k @ (BinK::Eq | BinK::Ne), f, v, _) => match self.temp() {
                Some(t) => {
                    self.ops.push(Op::SetSlotField(t, *f));
                    Some(if *k == BinK::Eq {
                        Op::JNeC(t, *v, 0)
                    } else {
                        Op::JEqC(t, *v, 0)
                    })
                }
                None => None,
            },
            c => match self.ex(c, None) {
                Some(Opd::S(s)) => Some(Op::Jz(s, 0)),
                _ => None,
            },
        };
        match op {
            Some(op) => self.ops.push(op),
            None => {
                self.ops.truncate(at);
                self.ops.push(Op::JumpIfZero(Box::new(c.clone()), 0));
            }
        }
    }

    fn block(&mut self, stmts: &[St], in_action: bool) {
        for s in stmts {
            self.stmt(s, in_action);
        }
    }

    fn stmt(&mut self, s: &St, in_action: bool) {
        let op = match s {
            St::Set(d, e) if self.regs => {
                let e = simplify(e);
                if self.set_regs(*d, &e) {
                    return;
                }
                match d {
                    Dst::Slot(a) => Op::SetSlot(*a, Box::new(e)),
                    d => Op::Set(*d, Box::new(e)),
                }
            }
            St::Set(d, e) => match (d, simplify(e)) {
                // `x = x`
                (Dst::Slot(a), Ex::Slot(b)) if *a == b => return,
                (Dst::Slot(a), Ex::Slot(b)) => Op::SetSlotSlot(*a, b),
                (Dst::Slot(a), Ex::Const(c)) => Op::SetSlotConst(*a, c),
                (Dst::Slot(a), Ex::Field(f)) => Op::SetSlotField(*a, f),
                (Dst::Slot(a), e) => Op::SetSlot(*a, Box::new(e)),
                (Dst::Field(f), Ex::Slot(b)) => Op::SetFieldSlot(*f, b),
                (Dst::Field(f), Ex::Const(c)) => Op::SetFieldConst(*f, c),
                (d, e) => Op::Set(*d, Box::new(e)),
            },
            St::SetSlice(a, b, c, e) => Op::SetSlice(*a, *b, *c, Box::new(simplify(e))),
            St::Copy(v) => Op::Copy(v.clone()),
            St::If(c, t, f) => {
                let c = simplify(c);
                if self.regs {
                    self.branch_regs(&c);
                } else {
                    self.ops.push(Op::JumpIfZero(Box::new(c), 0));
                }
                let j = self.here() - 1;
                self.block(t, in_action);
                if f.is_empty() {
                    let end = self.here();
                    self.patch(j, end);
                } else {
                    let k = self.here();
                    self.ops.push(Op::Jump(0));
                    let else_at = self.here();
                    self.patch(j, else_at);
                    self.block(f, in_action);
                    let end = self.here();
                    self.patch(k, end);
                }
                return;
            }
            St::Switch(slot, arms, default) => {
                let sw = self.here();
                self.ops.push(Op::SwitchJump(*slot, vec![], 0));
                let mut targets = Vec::new();
                let mut ends = Vec::new();
                for (v, body) in arms {
                    targets.push((*v, self.here()));
                    self.block(body, in_action);
                    ends.push(self.here());
                    self.ops.push(Op::Jump(0));
                }
                let def = self.here();
                self.block(default, in_action);
                let end = self.here();
                for e in ends {
                    self.patch(e, end);
                }
                if let Some(Op::SwitchJump(_, t, d)) = self.ops.get_mut(sw as usize) {
                    *t = targets;
                    *d = def;
                }
                return;
            }
            St::Apply {
                table,
                hit,
                action_run,
            } => Op::Apply {
                table: *table,
                hit: *hit,
                action_run: *action_run,
            },
            St::CallAction {
                action,
                args,
                copy_out,
            } => {
                self.ops.push(Op::CallAction {
                    action: *action,
                    args: args.clone(),
                });
                if !copy_out.is_empty() {
                    self.ops.push(Op::CopyOut(copy_out.clone()));
                }
                return;
            }
            St::MarkToDrop => Op::MarkToDrop,
            St::RegRead { reg, dst, idx } => Op::RegRead {
                reg: *reg,
                dst: *dst,
                idx: Box::new(idx.clone()),
            },
            St::RegWrite { reg, idx, val, m } => Op::RegWrite {
                reg: *reg,
                idx: Box::new(idx.clone()),
                val: Box::new(val.clone()),
                m: *m,
            },
            St::Count { counter, idx } => Op::Count {
                counter: *counter,
                idx: Box::new(idx.clone()),
            },
            St::Meter { meter, idx, dst } => Op::Meter {
                meter: *meter,
                idx: Box::new(idx.clone()),
                dst: *dst,
            },
            St::Hash { .. } => Op::Hash(Box::new(s.clone())),
            St::Checksum { .. } => Op::Checksum(Box::new(s.clone())),
            St::Extract(h) => Op::Extract(*h),
            St::Emit(h) => Op::Emit(*h),
            St::Exit => Op::End,
            St::Return => {
                if in_action {
                    Op::Ret
                } else {
                    Op::End
                }
            }
        };
        self.ops.push(op);
    }

    fn control(&mut self, stmts: &[St]) -> u32 {
        let at = self.here();
        self.block(stmts, false);
        self.ops.push(Op::End);
        at
    }
}

/// Lowers the checked program's statement trees to flat code.
pub(crate) fn lower(c: &Compiled) -> Code {
    let mut l = Lower {
        ops: Vec::new(),
        tbase: c.nslots as u32,
        tnext: c.nslots as u32,
        regs: c.optimize,
    };
    // a shared End for parser accept/reject
    let end = l.here();
    l.ops.push(Op::End);
    let mut action_entry = Vec::new();
    for a in &c.actions {
        action_entry.push(l.here());
        l.block(&a.body, true);
        l.ops.push(Op::Ret);
    }
    // parser states: bodies, then transitions with state targets patched after
    let mut state_at = Vec::new();
    let mut fixups: Vec<u32> = Vec::new();
    let mut accepts: Vec<u32> = Vec::new();
    for st in &c.states {
        state_at.push(l.here());
        l.block(&st.body, false);
        match &st.trans {
            Trans::Accept | Trans::Reject => {
                accepts.push(l.here());
                l.ops.push(Op::Jump(u32::MAX));
            }
            Trans::Goto(s) => {
                fixups.push(l.here());
                l.ops.push(Op::Goto(*s));
            }
            Trans::Select { keys, cases } => {
                fixups.push(l.here());
                if let [key] = &keys[..] {
                    let cs = cases
                        .iter()
                        .map(|(ks, t)| {
                            let t = match t {
                                Target::State(s) => *s,
                                Target::Accept | Target::Reject => u32::MAX,
                            };
                            (ks.first().cloned().unwrap_or(KeySet::Mask(0, 0)), t)
                        })
                        .collect();
                    l.ops.push(Op::Select1 {
                        key: Box::new(key.clone()),
                        cases: cs,
                    });
                    continue;
                }
                let cs = cases
                    .iter()
                    .map(|(ks, t)| {
                        let t = match t {
                            Target::State(s) => *s,
                            Target::Accept | Target::Reject => u32::MAX,
                        };
                        (ks.clone(), t)
                    })
                    .collect();
                l.ops.push(Op::Select {
                    keys: keys.clone().into_boxed_slice(),
                    cases: cs,
                });
            }
        }
    }
    let verify = l.control(&c.verify);
    let ingress = l.control(&c.ingress);
    let egress = l.control(&c.egress);
    let compute = l.control(&c.compute);
    let deparser = l.control(&c.deparser);
    // TNA passes: control and deparser blocks; their parsers start at their start states
    let pass_blocks: Vec<(u32, u32, u32)> = c
        .passes
        .iter()
        .map(|p| (p.start, l.control(&p.control), l.control(&p.deparser)))
        .collect();
    // With an empty verify block the parser ends by jumping into ingress, so
    // both run in one pass of the interpreter loop (v1model only: a TNA parser ends at
    // the shared End, and its pass runs the control next).
    let parser_end = if c.verify.is_empty() && c.passes.is_empty() {
        ingress
    } else {
        end
    };
    let resolve = |s: u32| -> u32 {
        if s == u32::MAX {
            parser_end
        } else {
            state_at.get(s as usize).copied().unwrap_or(parser_end)
        }
    };
    for f in fixups {
        match l.ops.get_mut(f as usize) {
            Some(Op::Goto(s)) => *s = resolve(*s),
            Some(Op::Select { cases, .. }) => {
                for c in cases.iter_mut() {
                    c.1 = resolve(c.1);
                }
            }
            Some(Op::Select1 { cases, .. }) => {
                for c in cases.iter_mut() {
                    c.1 = resolve(c.1);
                }
            }
            _ => {}
        }
    }
    for a in accepts {
        l.patch(a, parser_end);
    }
    let parser = state_at
        .get(c.start as usize)
        .copied()
        .unwrap_or(parser_end);
    let passes = pass_blocks
        .iter()
        .map(|&(start, control, deparser)| PassCode {
            parser: state_at.get(start as usize).copied().unwrap_or(parser_end),
            control,
            deparser,
        })
        .collect();
    let compute_checksums = straight_block(&l.ops, compute, |i, op| {
        matches!(op, Op::Checksum(_)).then_some(i)
    });
    let deparser_emits = straight_block(&l.ops, deparser, |_, op| match op {
        Op::Emit(h) => Some((*h, c.headers.get(*h as usize)?.valid)),
        _ => None,
    });
    Code {
        parser_end,
        compute_checksums,
        deparser_emits,
        in_place: None,
        ops: l.ops,
        action_entry,
        parser,
        verify,
        ingress,
        egress,
        compute,
        deparser,
        passes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn slice(x: Ex, lo: u32) -> Ex {
        Ex::Slice(Box::new(x), lo, 255)
    }

    fn concat(a: Ex, b: Ex) -> Ex {
        Ex::Concat(Box::new(a), Box::new(b), 8)
    }

    /// A random expression over slots 0..4 (values of any width).
    fn gen(rng: &mut ChaCha8Rng, depth: u32) -> Ex {
        let leaf = depth == 0 || rng.gen_range(0..3) == 0;
        if leaf {
            return match rng.gen_range(0..3) {
                0 => Ex::Const(rng.gen_range(0..3)),
                _ => Ex::Slot(rng.gen_range(0..4)),
            };
        }
        let m = crate::program::mask(rng.gen_range(1..=64));
        let x = gen(rng, depth - 1);
        match rng.gen_range(0..9) {
            0 => {
                // a byte swap of 2..=8 bytes, sometimes spoiled
                let n = rng.gen_range(2..=8u32);
                let mut e = slice(x.clone(), 0);
                for i in 1..n {
                    let lo = if rng.gen_range(0..6) == 0 {
                        8 * i + 1
                    } else {
                        8 * i
                    };
                    e = concat(e, slice(x.clone(), lo));
                }
                e
            }
            1 => Ex::Slice(Box::new(x), rng.gen_range(0..60), m),
            2 => Ex::Mask(Box::new(x), m),
            3 => Ex::Cond(
                Box::new(x),
                Box::new(Ex::Const(rng.gen_range(0..2))),
                Box::new(Ex::Const(rng.gen_range(0..2))),
            ),
            4 => Ex::Not(Box::new(x)),
            5 => {
                let y = gen(rng, depth - 1);
                let k = [
                    BinK::Add,
                    BinK::Xor,
                    BinK::Eq,
                    BinK::Lt,
                    BinK::LAnd,
                    BinK::Shr,
                ][rng.gen_range(0..6)];
                Ex::Bin(k, Box::new(x), Box::new(y), m)
            }
            6 => Ex::Cond(
                Box::new(Ex::Bin(BinK::Eq, Box::new(x), Box::new(Ex::Const(1)), 1)),
                Box::new(Ex::Const(1)),
                Box::new(Ex::Const(0)),
            ),
            7 => {
                // comparisons of (often boolean) values with 0/1, `b ^ 1`
                let k = [BinK::Eq, BinK::Ne, BinK::Xor, BinK::Lt][rng.gen_range(0..4)];
                let c = Ex::Const(rng.gen_range(0..3));
                Ex::Bin(
                    k,
                    Box::new(x),
                    Box::new(c),
                    [1, 1, 0xff][rng.gen_range(0..3)],
                )
            }
            _ => Ex::Concat(
                Box::new(x),
                Box::new(gen(rng, depth - 1)),
                rng.gen_range(1..32),
            ),
        }
    }

    #[test]
    fn simplify_keeps_values() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut phv: Box<Phv> = Box::new([0; PHV_SLOTS]);
        let hb: Box<Hb> = vec![0u8; HB_SIZE + 8]
            .into_boxed_slice()
            .try_into()
            .expect("hb");
        let mut swaps = 0;
        for _ in 0..20_000 {
            let e = gen(&mut rng, 4);
            let s = simplify(&e);
            if matches!(s, Ex::SlotBswap(..) | Ex::Bswap(..)) {
                swaps += 1;
            }
            for _ in 0..4 {
                for v in phv.iter_mut().take(4) {
                    *v = match rng.gen_range(0..3) {
                        0 => rng.gen_range(0..3),
                        _ => rng.gen(),
                    };
                }
                assert_eq!(s.eval(&phv, &hb), e.eval(&phv, &hb), "{e:?} => {s:?}");
            }
        }
        assert!(swaps > 100, "{swaps} byte swaps recognised");
    }

    #[test]
    fn byte_swaps_are_recognised() {
        let x = Ex::Slot(7);
        let e = concat(
            concat(
                concat(slice(x.clone(), 0), slice(x.clone(), 8)),
                slice(x.clone(), 16),
            ),
            slice(x.clone(), 24),
        );
        assert_eq!(simplify(&e), Ex::SlotBswap(7, 4));
        // bytes out of order: not a swap
        let e = concat(slice(x.clone(), 8), slice(x, 0));
        assert!(matches!(simplify(&e), Ex::Concat(..)));
    }
}
