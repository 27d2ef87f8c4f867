//! Pointer selects and comparisons: a `select` (or a block parameter) between pointers into
//! different places becomes the selected place's index, and loads and stores through it
//! choose among the places; `present` says whether a pointer points at a real place (a
//! present header, a map hit).

use super::*;

impl<'a> Lifter<'a> {
    /// Is `p` a real place: a present header, a hit, anything but null.
    pub(super) fn present(&mut self, p: &Ptr) -> Value {
        match p {
            Ptr::Header(h, _) | Ptr::HeaderBytes(h, _) => {
                self.ins1(InstKind::HdrValid { header: *h }, Type::I1)
            }
            Ptr::Found(fi, _) => match &self.finds[*fi] {
                Some(f) => f.hit,
                None => self.iconst(Type::I1, 0),
            },
            Ptr::Null => self.iconst(Type::I1, 0),
            Ptr::OneOf(sel, alts) => {
                let (sel, alts) = (*sel, alts.clone());
                let vals: Vec<Value> = alts.iter().map(|a| self.present(a)).collect();
                self.choose(sel, &vals)
            }
            _ => self.iconst(Type::I1, 1),
        }
    }

    /// `cond ? a : b` on two i64 offsets (pointers into the payload or into one header).
    fn select_offset(&mut self, cond: Value, a: Value, b: Value) -> Value {
        self.ins1(
            InstKind::Select {
                cond,
                if_true: a,
                if_false: b,
            },
            Type::I64,
        )
    }

    /// `vals[sel]` as a chain of selects.
    pub(super) fn choose(&mut self, sel: Value, vals: &[Value]) -> Value {
        let mut acc = vals[0];
        for (i, &v) in vals.iter().enumerate().skip(1) {
            let k = self.iconst(self.ty(sel), i as u64);
            let is = self.icmp(IntCC::Eq, sel, k);
            let ty = self.ty(v);
            acc = self.ins1(
                InstKind::Select {
                    cond: is,
                    if_true: v,
                    if_false: acc,
                },
                ty,
            );
        }
        acc
    }

    /// The index (an i8 value) of place `p` among `alts`.
    pub(super) fn index_in(&mut self, alts: &[Ptr], p: &Ptr) -> Option<Value> {
        match p {
            Ptr::OneOf(sel, inner) => {
                let idx: Option<Vec<u64>> = inner
                    .iter()
                    .map(|i| alts.iter().position(|a| same_place(a, i)).map(|x| x as u64))
                    .collect();
                let idx = idx?;
                let sel = *sel;
                let vals: Vec<Value> = idx.into_iter().map(|i| self.iconst(Type::I8, i)).collect();
                Some(self.choose(sel, &vals))
            }
            other => {
                let i = alts.iter().position(|a| same_place(a, other))?;
                Some(self.iconst(Type::I8, i as u64))
            }
        }
    }

    pub(super) fn translate_select(&mut self, x: &li::Select) {
        let c = self.int(&x.condition);
        let a = self.lower(&x.true_value);
        let b = self.lower(&x.false_value);
        match (a, b) {
            (Lowered::Int(a), Lowered::Int(b)) => {
                let ty = self.ty(a);
                let v = self.ins1(
                    InstKind::Select {
                        cond: c,
                        if_true: a,
                        if_false: b,
                    },
                    ty,
                );
                self.def(&x.dest, v);
            }
            (Lowered::Ptr(Ptr::Payload(a)), Lowered::Ptr(Ptr::Payload(b))) => {
                let v = self.select_offset(c, a, b);
                self.vals
                    .insert(x.dest.clone(), Lowered::Ptr(Ptr::Payload(v)));
            }
            (Lowered::Ptr(a), Lowered::Ptr(b)) if self.same_header_bytes(&a, &b) => {
                let h = match &a {
                    Ptr::Header(h, _) | Ptr::HeaderBytes(h, _) => *h,
                    _ => Header::Eth,
                };
                let (a, b) = (self.header_offset(&a), self.header_offset(&b));
                let v = self.select_offset(c, a, b);
                self.vals
                    .insert(x.dest.clone(), Lowered::Ptr(Ptr::HeaderBytes(h, v)));
            }
            (Lowered::Ptr(a), Lowered::Ptr(b)) => {
                let mut alts: Vec<Ptr> = Vec::new();
                for p in [&a, &b] {
                    let inner: Vec<Ptr> = match p {
                        Ptr::OneOf(_, inner) => inner.clone(),
                        other if is_place(other) => vec![other.clone()],
                        _ => vec![],
                    };
                    for i in inner {
                        if !alts.iter().any(|x| same_place(x, &i)) {
                            alts.push(i);
                        }
                    }
                }
                match (self.index_in(&alts, &a), self.index_in(&alts, &b)) {
                    (Some(ia), Some(ib)) => {
                        let sel = self.ins1(
                            InstKind::Select {
                                cond: c,
                                if_true: ia,
                                if_false: ib,
                            },
                            Type::I8,
                        );
                        self.vals
                            .insert(x.dest.clone(), Lowered::Ptr(Ptr::OneOf(sel, alts)));
                    }
                    _ => {
                        self.err(
                            Code::UntraceablePointer,
                            "a pointer chosen at run time between objects",
                        );
                        self.vals.insert(x.dest.clone(), Lowered::Ptr(a));
                    }
                }
            }
            (_, b) => {
                self.err(
                    Code::UntraceablePointer,
                    "a select mixing pointers and integers",
                );
                self.vals.insert(x.dest.clone(), b);
            }
        }
    }
}
