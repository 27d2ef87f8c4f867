//! Names and expressions: paths to objects, typing, coercions, casts, operators.

use super::*;

impl<'a> Cx<'a> {
    pub(super) fn lookup(&self, n: &str) -> Option<Obj> {
        for s in self.scopes.iter().rev() {
            if let Some(o) = s.get(n) {
                return Some(o.clone());
            }
        }
        self.globals.get(n).cloned()
    }

    pub(super) fn bind(&mut self, n: &str, o: Obj) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(n.to_string(), o);
        }
    }

    /// Resolves a name/member path to an object; `Ok(None)` if `e` is not a path.
    pub(super) fn path(&mut self, e: &Expr) -> R<Option<Obj>> {
        match &e.kind {
            ExprKind::Name(n) | ExprKind::DotName(n) => match self.lookup(n) {
                Some(o) => Ok(Some(o)),
                None => {
                    self.err(e.span, format!("unknown name `{n}`"));
                    Err(())
                }
            },
            ExprKind::Member(base, m) => {
                let Some(b) = self.path(base)? else {
                    return Ok(None);
                };
                match b {
                    Obj::Struct { members } => match members.iter().find(|x| &x.0 == m) {
                        Some((_, o)) => Ok(Some(o.clone())),
                        None => {
                            self.err(e.span, format!("no member `{m}`"));
                            Err(())
                        }
                    },
                    Obj::Header { hdr } => {
                        match self.header_fields[hdr as usize].iter().find(|x| &x.0 == m) {
                            Some((_, loc, ty, bit)) => Ok(Some(Obj::Field {
                                loc: *loc,
                                ty: ty.clone(),
                                hdr,
                                bit: *bit,
                            })),
                            None => {
                                self.err(e.span, format!("header has no field `{m}`"));
                                Err(())
                            }
                        }
                    }
                    Obj::Namespace(ns) if ns == "error" => {
                        match self.errors.iter().position(|x| x == m) {
                            Some(i) => Ok(Some(Obj::Const {
                                value: i as u64,
                                ty: Ty::Error,
                            })),
                            None => {
                                self.err(e.span, format!("unknown error `{m}`"));
                                Err(())
                            }
                        }
                    }
                    Obj::Namespace(ns) => {
                        let found = self
                            .enums
                            .get(&ns)
                            .and_then(|(ms, w)| ms.iter().find(|x| &x.0 == m).map(|x| (x.1, *w)));
                        match found {
                            Some((v, w)) => Ok(Some(Obj::Const {
                                value: v,
                                ty: Ty::Enum(ns, w),
                            })),
                            None => {
                                self.err(e.span, format!("`{ns}` has no member `{m}`"));
                                Err(())
                            }
                        }
                    }
                    _ => {
                        self.err(e.span, format!("`{m}`: not a field"));
                        Err(())
                    }
                }
            }
            _ => Ok(None),
        }
    }

    // ------------------------------------------------------------ expressions

    pub(super) fn coerce(&mut self, span: Span, ex: Ex, from: &Ty, to: &Ty) -> R<Ex> {
        if from == to {
            return Ok(ex);
        }
        match (from, to) {
            (Ty::Enum(_, w), Ty::Bit(v)) if w == v => Ok(ex),
            (Ty::InfInt, t) if t.is_scalar() && !matches!(t, Ty::Bool) => {
                let w = t.width().unwrap_or(64);
                Ok(match ex {
                    Ex::Const(v) => Ex::Const(v & mask(w)),
                    e => Ex::Mask(Box::new(e), mask(w)),
                })
            }
            _ => {
                self.err(
                    span,
                    format!(
                        "type mismatch: expected {}, found {}",
                        to.show(),
                        from.show()
                    ),
                );
                Err(())
            }
        }
    }

    pub(super) fn expr_as(&mut self, e: &Expr, want: &Ty) -> R<Ex> {
        let (x, t) = self.expr(e)?;
        self.coerce(e.span, x, &t, want)
    }

    pub(super) fn bool_expr(&mut self, e: &Expr) -> R<Ex> {
        let (x, t) = self.expr(e)?;
        if t != Ty::Bool {
            self.err(e.span, format!("expected bool, found {}", t.show()));
            return Err(());
        }
        Ok(x)
    }

    pub(super) fn expr(&mut self, e: &Expr) -> R<(Ex, Ty)> {
        match &e.kind {
            ExprKind::Bool(b) => Ok((Ex::Const(*b as u64), Ty::Bool)),
            ExprKind::Int {
                value,
                width,
                signed,
            } => {
                let v = *value as u64;
                match width {
                    Some(0) => {
                        self.err(e.span, "zero-width literal");
                        Err(())
                    }
                    Some(w) if *w > 64 => {
                        self.err(e.span, "literals wider than 64 bits are not supported");
                        Err(())
                    }
                    Some(w) => {
                        if *value > mask(*w) as u128 {
                            self.err(e.span, format!("value does not fit in {w} bits"));
                        }
                        let t = if *signed { Ty::Int(*w) } else { Ty::Bit(*w) };
                        Ok((Ex::Const(v & mask(*w)), t))
                    }
                    None => {
                        if *value > u64::MAX as u128 {
                            self.err(e.span, "integer literal larger than 64 bits");
                            return Err(());
                        }
                        Ok((Ex::Const(v), Ty::InfInt))
                    }
                }
            }
            ExprKind::Name(_) | ExprKind::DotName(_) | ExprKind::Member(..) => {
                if let ExprKind::Member(base, m) = &e.kind {
                    if m == "hit" || m == "miss" {
                        if let Some(t) = self.table_apply_target(base) {
                            let slot = self.new_slot(format!("$hit{}", self.c.nslots));
                            self.pre.push(St::Apply {
                                table: t,
                                hit: Some(slot),
                                action_run: None,
                            });
                            let ex = if m == "hit" {
                                Ex::Slot(slot)
                            } else {
                                Ex::Not(Box::new(Ex::Slot(slot)))
                            };
                            return Ok((ex, Ty::Bool));
                        }
                    }
                }
                match self.path(e)? {
                    Some(Obj::Val { slot, ty }) => Ok((Ex::Slot(slot), ty)),
                    Some(Obj::Field { loc, ty, .. }) => Ok((Ex::Field(loc), ty)),
                    Some(Obj::Const { value, ty }) => Ok((Ex::Const(value), ty)),
                    _ => {
                        self.err(e.span, "expected a value");
                        Err(())
                    }
                }
            }
            ExprKind::Call { func, args, .. } => {
                if let ExprKind::Member(base, m) = &func.kind {
                    if m == "isValid" && args.is_empty() {
                        if let Ok(Some(Obj::Header { hdr })) = self.path(base) {
                            return Ok((Ex::Slot(self.c.headers[hdr as usize].valid), Ty::Bool));
                        }
                    }
                    if self.tna {
                        if let Ok(Some(obj)) = self.path(base) {
                            if let Some(r) = self.tna_call_value(e.span, &obj, m, args) {
                                return r;
                            }
                        }
                    }
                }
                self.err(e.span, "this call cannot be used as a value");
                Err(())
            }
            ExprKind::Slice(b, hi, lo) => {
                let (x, t) = self.expr(b)?;
                let (Some(h), Some(l)) = (self.const_expr(hi), self.const_expr(lo)) else {
                    self.err(e.span, "slice bounds must be constants");
                    return Err(());
                };
                let w = match t {
                    Ty::Bit(w) | Ty::Int(w) => w,
                    _ => {
                        self.err(e.span, format!("cannot slice {}", t.show()));
                        return Err(());
                    }
                };
                if h < l || h >= w as u64 {
                    self.err(e.span, format!("slice [{h}:{l}] out of range for bit<{w}>"));
                    return Err(());
                }
                let sw = (h - l + 1) as u32;
                let ex = match x {
                    Ex::Const(v) => Ex::Const((v >> l) & mask(sw)),
                    Ex::Field(f) => Ex::Field(f.slice(l as u32, sw)),
                    x => Ex::Slice(Box::new(x), l as u32, mask(sw)),
                };
                Ok((ex, Ty::Bit(sw)))
            }
            ExprKind::Unary(op, a) => {
                let (x, t) = self.expr(a)?;
                match op {
                    UnOp::Not => {
                        if t != Ty::Bool {
                            self.err(e.span, "`!` needs a bool");
                            return Err(());
                        }
                        Ok((
                            match x {
                                Ex::Const(v) => Ex::Const((v == 0) as u64),
                                x => Ex::Not(Box::new(x)),
                            },
                            Ty::Bool,
                        ))
                    }
                    UnOp::BitNot | UnOp::Neg => {
                        let m = match &t {
                            Ty::Bit(w) | Ty::Int(w) => mask(*w),
                            Ty::InfInt if *op == UnOp::Neg => u64::MAX,
                            _ => {
                                self.err(
                                    e.span,
                                    format!("operator needs bit<N>, found {}", t.show()),
                                );
                                return Err(());
                            }
                        };
                        let ex = if *op == UnOp::BitNot {
                            match x {
                                Ex::Const(v) => Ex::Const(!v & m),
                                x => Ex::BitNot(Box::new(x), m),
                            }
                        } else {
                            mk_bin(BinK::Sub, Ex::Const(0), x, m)
                        };
                        Ok((ex, t))
                    }
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(e.span, *op, a, b),
            ExprKind::Ternary(c, a, b) => {
                let cx = self.bool_expr(c)?;
                let (xa, ta) = self.expr(a)?;
                let (xb, tb) = self.expr(b)?;
                let (xa, xb, t) = self.unify(e.span, xa, ta, xb, tb)?;
                Ok((
                    match cx {
                        Ex::Const(v) => {
                            if v != 0 {
                                xa
                            } else {
                                xb
                            }
                        }
                        c => Ex::Cond(Box::new(c), Box::new(xa), Box::new(xb)),
                    },
                    t,
                ))
            }
            ExprKind::Cast(t, a) => {
                let to = self.resolve_type(e.span, t)?;
                let (x, from) = self.expr(a)?;
                self.cast(e.span, x, &from, &to).map(|x| (x, to))
            }
            _ => {
                self.err(e.span, "unsupported expression");
                Err(())
            }
        }
    }

    pub(super) fn cast(&mut self, span: Span, x: Ex, from: &Ty, to: &Ty) -> R<Ex> {
        let fold = |x: Ex, f: &dyn Fn(u64) -> u64| match x {
            Ex::Const(v) => Ex::Const(f(v)),
            x => x,
        };
        match (from, to) {
            (a, b) if a == b => Ok(x),
            (Ty::InfInt, Ty::Bit(w) | Ty::Int(w)) => Ok(fold(x, &|v| v & mask(*w))),
            (Ty::Bit(_), Ty::Bool) | (Ty::Bool, Ty::Bit(_)) => Ok(x),
            (Ty::Bit(a) | Ty::Enum(_, a), Ty::Bit(b) | Ty::Int(b)) => {
                if b >= a {
                    Ok(x)
                } else {
                    let m = mask(*b);
                    Ok(match x {
                        Ex::Const(v) => Ex::Const(v & m),
                        x => Ex::Mask(Box::new(x), m),
                    })
                }
            }
            (Ty::Int(a), Ty::Bit(b) | Ty::Int(b)) => {
                let m = mask(*b);
                if b > a {
                    Ok(match x {
                        Ex::Const(v) => {
                            let s = 64 - a;
                            Ex::Const(((((v << s) as i64) >> s) as u64) & m)
                        }
                        x => Ex::SExt(Box::new(x), *a, m),
                    })
                } else {
                    Ok(match x {
                        Ex::Const(v) => Ex::Const(v & m),
                        x => Ex::Mask(Box::new(x), m),
                    })
                }
            }
            (Ty::Bit(_) | Ty::InfInt, Ty::Enum(_, w)) => Ok(fold(x, &|v| v & mask(*w))),
            _ => {
                self.err(
                    span,
                    format!("cannot cast {} to {}", from.show(), to.show()),
                );
                Err(())
            }
        }
    }

    pub(super) fn unify(&mut self, span: Span, a: Ex, ta: Ty, b: Ex, tb: Ty) -> R<(Ex, Ex, Ty)> {
        if ta == tb {
            return Ok((a, b, ta));
        }
        // serializable enums convert implicitly to their underlying type
        match (&ta, &tb) {
            (Ty::Enum(_, w), Ty::Bit(v)) | (Ty::Bit(v), Ty::Enum(_, w)) if w == v => {
                return Ok((a, b, Ty::Bit(*w)));
            }
            _ => {}
        }
        if ta == Ty::InfInt {
            let a = self.coerce(span, a, &ta, &tb)?;
            return Ok((a, b, tb));
        }
        if tb == Ty::InfInt {
            let b = self.coerce(span, b, &tb, &ta)?;
            return Ok((a, b, ta));
        }
        self.err(
            span,
            format!(
                "operands have different types: {} and {}",
                ta.show(),
                tb.show()
            ),
        );
        Err(())
    }

    pub(super) fn binary(&mut self, span: Span, op: BinOp, a: &Expr, b: &Expr) -> R<(Ex, Ty)> {
        let (xa, ta) = self.expr(a)?;
        let (xb, tb) = self.expr(b)?;
        match op {
            BinOp::And | BinOp::Or => {
                if ta != Ty::Bool || tb != Ty::Bool {
                    self.err(span, "`&&`/`||` need bool operands");
                    return Err(());
                }
                let k = if op == BinOp::And {
                    BinK::LAnd
                } else {
                    BinK::LOr
                };
                Ok((mk_bin(k, xa, xb, 1), Ty::Bool))
            }
            BinOp::Shl | BinOp::Shr => {
                if !matches!(tb, Ty::Bit(_) | Ty::InfInt) {
                    self.err(span, "shift amount must be unsigned");
                    return Err(());
                }
                let (k, m) = match (&ta, op) {
                    (Ty::Bit(w), BinOp::Shl) | (Ty::Int(w), BinOp::Shl) => (BinK::Shl, mask(*w)),
                    (Ty::Bit(w), _) => (BinK::Shr, mask(*w)),
                    (Ty::Int(w), _) => (BinK::Sar(*w), mask(*w)),
                    (Ty::InfInt, BinOp::Shl) => (BinK::Shl, u64::MAX),
                    (Ty::InfInt, _) => (BinK::Shr, u64::MAX),
                    _ => {
                        self.err(span, format!("cannot shift {}", ta.show()));
                        return Err(());
                    }
                };
                Ok((mk_bin(k, xa, xb, m), ta))
            }
            BinOp::Concat => {
                let (Some(wa), Some(wb)) = (
                    matches!(ta, Ty::Bit(_) | Ty::Int(_))
                        .then(|| ta.width())
                        .flatten(),
                    matches!(tb, Ty::Bit(_) | Ty::Int(_))
                        .then(|| tb.width())
                        .flatten(),
                ) else {
                    self.err(span, "`++` needs bit<N> operands of known width");
                    return Err(());
                };
                if wa + wb > 64 {
                    self.err(span, "concatenation wider than 64 bits is not supported");
                    return Err(());
                }
                let ex = match (&xa, &xb) {
                    (Ex::Const(x), Ex::Const(y)) => Ex::Const((x << wb) | y),
                    _ => Ex::Concat(Box::new(xa), Box::new(xb), wb),
                };
                Ok((ex, Ty::Bit(wa + wb)))
            }
            BinOp::Mask | BinOp::Range => {
                self.err(span, "`&&&` and `..` are only allowed in keysets");
                Err(())
            }
            _ => {
                let (xa, xb, t) = self.unify(span, xa, ta, xb, tb)?;
                let signed = matches!(t, Ty::Int(_));
                let w = t.width().unwrap_or(64);
                let m = if t == Ty::InfInt { u64::MAX } else { mask(w) };
                let cmp = |u: BinK, s: BinK| if signed { s } else { u };
                let (k, rt) = match op {
                    BinOp::Eq => (BinK::Eq, Ty::Bool),
                    BinOp::Ne => (BinK::Ne, Ty::Bool),
                    BinOp::Lt => (cmp(BinK::Lt, BinK::SLt(w)), Ty::Bool),
                    BinOp::Le => (cmp(BinK::Le, BinK::SLe(w)), Ty::Bool),
                    BinOp::Gt => (cmp(BinK::Gt, BinK::SGt(w)), Ty::Bool),
                    BinOp::Ge => (cmp(BinK::Ge, BinK::SGe(w)), Ty::Bool),
                    _ => {
                        if !matches!(t, Ty::Bit(_) | Ty::Int(_) | Ty::InfInt) {
                            self.err(span, format!("arithmetic on {}", t.show()));
                            return Err(());
                        }
                        let k = match op {
                            BinOp::Add => BinK::Add,
                            BinOp::Sub => BinK::Sub,
                            BinOp::Mul => BinK::Mul,
                            BinOp::Div => BinK::Div,
                            BinOp::Mod => BinK::Mod,
                            BinOp::AddSat => BinK::AddSat,
                            BinOp::SubSat => BinK::SubSat,
                            BinOp::BitAnd => BinK::And,
                            BinOp::BitOr => BinK::Or,
                            _ => BinK::Xor,
                        };
                        if signed
                            && matches!(k, BinK::AddSat | BinK::SubSat | BinK::Div | BinK::Mod)
                        {
                            self.err(span, "this operator on int<N> is not supported");
                            return Err(());
                        }
                        (k, t.clone())
                    }
                };
                if matches!(rt, Ty::Bool) && matches!(t, Ty::Header(_) | Ty::Struct(_) | Ty::Void) {
                    self.err(span, "cannot compare these values");
                    return Err(());
                }
                Ok((mk_bin(k, xa, xb, m), rt))
            }
        }
    }

    /// If `e` is `t.apply()`, returns the table.
    pub(super) fn table_apply_target(&mut self, e: &Expr) -> Option<u32> {
        if let ExprKind::Call { func, args, .. } = &e.kind {
            if let ExprKind::Member(t, m) = &func.kind {
                if m == "apply" && args.is_empty() {
                    if let ExprKind::Name(n) = &t.kind {
                        if let Some(Obj::Table(i)) = self.lookup(n) {
                            return Some(i);
                        }
                    }
                }
            }
        }
        None
    }
}
