//! Statements: assignments, calls of externs and actions, emits, field lists.

use super::*;

impl<'a> Cx<'a> {
    pub(super) fn stmts(&mut self, ss: &[Stmt]) -> Vec<St> {
        let mut out = Vec::new();
        for s in ss {
            self.stmt(s, &mut out);
        }
        out
    }

    pub(super) fn flush_pre(&mut self, out: &mut Vec<St>) {
        out.append(&mut self.pre);
    }

    pub(super) fn stmt(&mut self, s: &Stmt, out: &mut Vec<St>) {
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Block(b) => {
                self.scopes.push(HashMap::new());
                let v = self.stmts(&b.stmts);
                self.scopes.pop();
                out.extend(v);
            }
            StmtKind::Assign { lhs, rhs } => {
                let r = self.assign(s.span, lhs, rhs);
                self.flush_pre(out);
                if let Ok(st) = r {
                    out.push(st);
                }
            }
            StmtKind::Call(e) => {
                let r = self.call_stmt(e);
                self.flush_pre(out);
                if let Ok(st) = r {
                    out.extend(st);
                }
            }
            StmtKind::If { cond, then, els } => {
                let c = self.bool_expr(cond);
                self.flush_pre(out);
                self.scopes.push(HashMap::new());
                let t = self.stmts(&then.stmts);
                self.scopes.pop();
                self.scopes.push(HashMap::new());
                let f = els
                    .as_ref()
                    .map(|b| self.stmts(&b.stmts))
                    .unwrap_or_default();
                self.scopes.pop();
                if let Ok(c) = c {
                    match c {
                        Ex::Const(v) => out.extend(if v != 0 { t } else { f }),
                        c => out.push(St::If(c, t, f)),
                    }
                }
            }
            StmtKind::Switch { expr, cases } => {
                let table = match &expr.kind {
                    ExprKind::Member(b, m) if m == "action_run" => self.table_apply_target(b),
                    _ => None,
                };
                let Some(table) = table else {
                    self.err(
                        expr.span,
                        "only `switch (t.apply().action_run)` is supported",
                    );
                    return;
                };
                let slot = self.new_slot(format!("$action_run{}", self.c.nslots));
                out.push(St::Apply {
                    table,
                    hit: None,
                    action_run: Some(slot),
                });
                let mut arms = Vec::new();
                let mut default = Vec::new();
                let mut pending: Vec<Option<u64>> = Vec::new();
                for c in cases {
                    match &c.label {
                        Some(l) => {
                            let id = match self.lookup(l) {
                                Some(Obj::Action(i))
                                    if self.c.tables[table as usize].actions.contains(&i) =>
                                {
                                    Some(i as u64)
                                }
                                _ => {
                                    self.err(
                                        s.span,
                                        format!("`{l}` is not an action of the table"),
                                    );
                                    None
                                }
                            };
                            pending.push(id);
                        }
                        None => pending.push(None),
                    }
                    if let Some(b) = &c.body {
                        self.scopes.push(HashMap::new());
                        let body = self.stmts(&b.stmts);
                        self.scopes.pop();
                        for p in pending.drain(..) {
                            match p {
                                Some(v) => arms.push((v, body.clone())),
                                None => default = body.clone(),
                            }
                        }
                    }
                }
                out.push(St::Switch(slot, arms, default));
            }
            StmtKind::Decl(d) => match &d.kind {
                DeclKind::Variable { ty, name, init } => {
                    let Ok(t) = self.resolve_type(d.span, ty) else {
                        return;
                    };
                    let Some(o) = self.instantiate(&t, &format!("{}.{name}", self.block), d.span)
                    else {
                        return;
                    };
                    if let Some(init) = init {
                        if let Obj::Val { slot, ty } = &o {
                            let r = self.expr_as(init, ty);
                            self.flush_pre(out);
                            if let Ok(x) = r {
                                out.push(St::Set(Dst::Slot(*slot), x));
                            }
                        } else {
                            self.err(d.span, "initialisers are only supported for scalars");
                        }
                    }
                    self.bind(name, o);
                }
                DeclKind::Const { ty, name, value } => {
                    let Ok(t) = self.resolve_type(d.span, ty) else {
                        return;
                    };
                    match self.expr_as(value, &t) {
                        Ok(Ex::Const(v)) => self.bind(name, Obj::Const { value: v, ty: t }),
                        Ok(_) => self.err(value.span, "not a compile-time constant"),
                        Err(()) => {}
                    }
                }
                _ => self.err(d.span, "unsupported declaration here"),
            },
            StmtKind::Return(e) => {
                if e.is_some() {
                    self.err(s.span, "return with a value is not supported");
                }
                out.push(St::Return);
            }
            StmtKind::Exit => out.push(St::Exit),
        }
    }

    /// Copy items for `dst = src` of two same-shaped headers/structs (validity
    /// included).
    pub(super) fn copy_items(&self, d: &Obj, src: &Obj, out: &mut Vec<CopyItem>) {
        match (d, src) {
            (Obj::Val { slot: a, .. }, Obj::Val { slot: b, .. }) => {
                out.push(CopyItem::Slot(*a, *b))
            }
            (Obj::Header { hdr: a }, Obj::Header { hdr: b }) => {
                let (ha, hb) = (&self.c.headers[*a as usize], &self.c.headers[*b as usize]);
                out.push(CopyItem::Slot(ha.valid, hb.valid));
                out.push(CopyItem::Bytes(ha.base, hb.base, ha.bytes));
            }
            (Obj::Struct { members: x }, Obj::Struct { members: y }) => {
                for (p, q) in x.iter().zip(y.iter()) {
                    self.copy_items(&p.1, &q.1, out);
                }
            }
            _ => {}
        }
    }

    pub(super) fn same_shape(&self, a: &Obj, b: &Obj) -> bool {
        match (a, b) {
            (Obj::Val { ty: x, .. }, Obj::Val { ty: y, .. }) => x == y,
            (Obj::Header { hdr: x }, Obj::Header { hdr: y }) => {
                let fx: Vec<_> = self.header_fields[*x as usize]
                    .iter()
                    .map(|f| (&f.0, &f.2))
                    .collect();
                let fy: Vec<_> = self.header_fields[*y as usize]
                    .iter()
                    .map(|f| (&f.0, &f.2))
                    .collect();
                fx == fy
            }
            (Obj::Struct { members: x }, Obj::Struct { members: y }) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|(p, q)| p.0 == q.0 && self.same_shape(&p.1, &q.1))
            }
            _ => false,
        }
    }

    pub(super) fn assign(&mut self, span: Span, lhs: &Expr, rhs: &Expr) -> R<St> {
        if let ExprKind::Slice(b, hi, lo) = &lhs.kind {
            let (dst, ty) = match self.path(b)? {
                Some(Obj::Val { slot, ty }) => (Dst::Slot(slot), ty),
                Some(Obj::Field { loc, ty, .. }) => (Dst::Field(loc), ty),
                _ => {
                    self.err(span, "cannot assign to this slice");
                    return Err(());
                }
            };
            let (Some(h), Some(l)) = (self.const_expr(hi), self.const_expr(lo)) else {
                self.err(span, "slice bounds must be constants");
                return Err(());
            };
            let w = ty.width().unwrap_or(0) as u64;
            if h < l || h >= w {
                self.err(span, "slice out of range");
                return Err(());
            }
            let sw = (h - l + 1) as u32;
            let x = self.expr_as(rhs, &Ty::Bit(sw))?;
            return Ok(match dst {
                Dst::Slot(slot) => St::SetSlice(slot, l as u32, mask(sw), x),
                Dst::Field(f) => St::Set(Dst::Field(f.slice(l as u32, sw)), x),
            });
        }
        let Some(target) = self.path(lhs)? else {
            self.err(lhs.span, "cannot assign to this expression");
            return Err(());
        };
        if let Some(st) = self.port_metadata_unpack(span, &target, rhs) {
            return st;
        }
        match &target {
            Obj::Val { slot, ty } => {
                let x = self.expr_as(rhs, ty)?;
                Ok(St::Set(Dst::Slot(*slot), x))
            }
            Obj::Field { loc, ty, .. } => {
                let x = self.expr_as(rhs, ty)?;
                Ok(St::Set(Dst::Field(*loc), x))
            }
            Obj::Header { .. } | Obj::Struct { .. } => {
                let src = self.path(rhs)?;
                match src {
                    Some(src) if self.same_shape(&target, &src) => {
                        let mut items = Vec::new();
                        self.copy_items(&target, &src, &mut items);
                        Ok(St::Copy(items))
                    }
                    _ => {
                        self.err(rhs.span, "right-hand side must be a value of the same type");
                        Err(())
                    }
                }
            }
            _ => {
                self.err(lhs.span, "cannot assign to this name");
                Err(())
            }
        }
    }

    /// A field list: (value, width, header field position if it is one).
    pub(super) fn field_list(&mut self, e: &Expr) -> R<Vec<ListItem>> {
        let items: Vec<&Expr> = match &e.kind {
            ExprKind::List(v) => v.iter().collect(),
            _ => vec![e],
        };
        let mut out = Vec::new();
        for it in items {
            match self.path(it) {
                Ok(Some(o @ (Obj::Header { .. } | Obj::Struct { .. }))) => {
                    // a whole header/struct: all its fields (not validity)
                    self.flatten_fields(&o, &mut out);
                    continue;
                }
                Ok(Some(Obj::Field { loc, ty, hdr, bit })) => {
                    out.push((Ex::Field(loc), ty.width().unwrap_or(1), Some((hdr, bit))));
                    continue;
                }
                _ => {}
            }
            let (x, t) = self.expr(it)?;
            match t {
                Ty::Bit(w) | Ty::Int(w) => out.push((x, w, None)),
                _ => {
                    self.err(it.span, "field list items must be bit<N>");
                    return Err(());
                }
            }
        }
        Ok(out)
    }

    pub(super) fn flatten_fields(&self, o: &Obj, out: &mut Vec<ListItem>) {
        match o {
            Obj::Val { slot, ty } => out.push((Ex::Slot(*slot), ty.width().unwrap_or(1), None)),
            Obj::Header { hdr } => {
                for f in &self.header_fields[*hdr as usize] {
                    out.push((Ex::Field(f.1), f.2.width().unwrap_or(1), Some((*hdr, f.3))));
                }
            }
            Obj::Struct { members } => {
                for m in members.iter() {
                    self.flatten_fields(&m.1, out);
                }
            }
            _ => {}
        }
    }

    /// The csum16 plan for a field list: runs of consecutive fields of one header
    /// that start on a byte boundary, sit on a 16-bit boundary of the data and
    /// cover a multiple of 16 bits are summed in place as bytes.
    pub(super) fn csum_plan(&self, data: &[ListItem]) -> Option<Vec<CsumItem>> {
        let total: u32 = data.iter().map(|d| d.1).sum();
        if !total.is_multiple_of(16) {
            return None;
        }
        let mut plan = Vec::new();
        let mut pos = 0u32; // stream bit position of item i
        let mut i = 0;
        while i < data.len() {
            // extend a run of contiguous fields of the same header
            let mut j = i + 1;
            let mut run_bits = data[i].1;
            if let Some((h, b)) = data[i].2 {
                while j < data.len() {
                    match data[j].2 {
                        Some((h2, b2)) if h2 == h && b2 == b + run_bits => {
                            run_bits += data[j].1;
                            j += 1;
                        }
                        _ => break,
                    }
                }
                if b.is_multiple_of(8) && pos.is_multiple_of(16) && run_bits.is_multiple_of(16) {
                    let base = self.c.headers[h as usize].base;
                    plan.push(CsumItem::Bytes(base, b / 8, run_bits / 8));
                    pos += run_bits;
                    i = j;
                    continue;
                }
                j = i + 1;
                run_bits = data[i].1;
            }
            let end = pos + run_bits;
            plan.push(CsumItem::Val(data[i].0.clone(), (total - end) % 16));
            pos = end;
            i = j;
        }
        Some(plan)
    }

    pub(super) fn flatten_fields_plain(data: Vec<ListItem>) -> Vec<(Ex, u32)> {
        data.into_iter().map(|(x, w, _)| (x, w)).collect()
    }

    pub(super) fn algo(&mut self, e: &Expr) -> R<Algo> {
        if let ExprKind::Member(b, m) = &e.kind {
            if matches!(&b.kind, ExprKind::Name(n) if n == "HashAlgorithm") {
                if let Some(a) = Algo::from_name(m) {
                    return Ok(a);
                }
                self.err(e.span, format!("hash algorithm `{m}` is not supported"));
                return Err(());
            }
        }
        self.err(e.span, "expected HashAlgorithm.<name>");
        Err(())
    }

    pub(super) fn out_slot(&mut self, e: &Expr) -> R<(Dst, Ty)> {
        match self.path(e)? {
            Some(Obj::Val { slot, ty }) => Ok((Dst::Slot(slot), ty)),
            Some(Obj::Field { loc, ty, .. }) => Ok((Dst::Field(loc), ty)),
            _ => {
                self.err(e.span, "expected a scalar l-value");
                Err(())
            }
        }
    }

    pub(super) fn call_stmt(&mut self, e: &Expr) -> R<Vec<St>> {
        let ExprKind::Call { func, args, .. } = &e.kind else {
            self.err(e.span, "expected a call");
            return Err(());
        };
        let nargs = |cx: &mut Self, n: usize| -> R<()> {
            if args.len() != n {
                cx.err(
                    e.span,
                    format!("expected {n} arguments, found {}", args.len()),
                );
                return Err(());
            }
            Ok(())
        };
        match &func.kind {
            ExprKind::Member(base, m) => {
                if let Some(t) = self.table_apply_target(e) {
                    return Ok(vec![St::Apply {
                        table: t,
                        hit: None,
                        action_run: None,
                    }]);
                }
                let Some(obj) = self.path(base)? else {
                    self.err(e.span, "unsupported method call");
                    return Err(());
                };
                match (obj, m.as_str()) {
                    (Obj::PacketIn, "extract") => {
                        nargs(self, 1)?;
                        match self.path(&args[0])? {
                            Some(Obj::Header { hdr }) => Ok(vec![St::Extract(hdr)]),
                            // TNA intrinsic metadata: set by the runner, no packet bytes
                            Some(o) if self.is_intrinsic(&o) => Ok(vec![]),
                            _ => {
                                self.err(args[0].span, "extract needs a header");
                                Err(())
                            }
                        }
                    }
                    (Obj::PacketIn, "advance") if self.tna => {
                        nargs(self, 1)?;
                        // the port-metadata prefix is not modelled (`check::tna`)
                        if self.const_expr(&args[0]) == Some(tna::PORT_METADATA_SIZE) {
                            Ok(vec![])
                        } else {
                            self.err(
                                args[0].span,
                                "advance is supported only as advance(PORT_METADATA_SIZE)",
                            );
                            Err(())
                        }
                    }
                    (Obj::PacketOut, "emit") => {
                        nargs(self, 1)?;
                        let Some(o) = self.path(&args[0])? else {
                            self.err(args[0].span, "emit needs a header or struct");
                            return Err(());
                        };
                        let mut v = Vec::new();
                        self.emits(&o, &mut v);
                        Ok(v)
                    }
                    (Obj::Header { hdr }, "setValid" | "setInvalid") => {
                        nargs(self, 0)?;
                        let valid = self.c.headers[hdr as usize].valid;
                        Ok(vec![St::Set(
                            Dst::Slot(valid),
                            Ex::Const((m == "setValid") as u64),
                        )])
                    }
                    (Obj::Register(r), "read") => {
                        nargs(self, 2)?;
                        let (dst, _) = self.out_slot(&args[0])?;
                        let (idx, it) = self.expr(&args[1])?;
                        let idx = self.loose(args[1].span, idx, &it, &Ty::Bit(32))?;
                        Ok(vec![St::RegRead { reg: r, dst, idx }])
                    }
                    (Obj::Register(r), "write") => {
                        nargs(self, 2)?;
                        let (idx, it) = self.expr(&args[0])?;
                        let idx = self.loose(args[0].span, idx, &it, &Ty::Bit(32))?;
                        let w = self.c.registers[r as usize].width;
                        let val = self.expr_as(&args[1], &Ty::Bit(w))?;
                        Ok(vec![St::RegWrite {
                            reg: r,
                            idx,
                            val,
                            m: mask(w),
                        }])
                    }
                    (Obj::RegisterAction(ra), "execute") => {
                        // the result unused: read, body and write-back land in `pre`
                        self.execute_register_action(e.span, &ra, args)?;
                        Ok(vec![])
                    }
                    (Obj::Counter(c), "count") => {
                        nargs(self, 1)?;
                        let (idx, it) = self.expr(&args[0])?;
                        let idx = self.loose(args[0].span, idx, &it, &Ty::Bit(32))?;
                        Ok(vec![St::Count { counter: c, idx }])
                    }
                    (Obj::Meter(mt), "execute_meter") => {
                        nargs(self, 2)?;
                        let (idx, it) = self.expr(&args[0])?;
                        let idx = self.loose(args[0].span, idx, &it, &Ty::Bit(32))?;
                        let (dst, dt) = self.out_slot(&args[1])?;
                        if dt.width().is_none_or(|w| w < 2) {
                            self.err(
                                args[1].span,
                                "execute_meter's result must be bit<W>, W >= 2",
                            );
                            return Err(());
                        }
                        Ok(vec![St::Meter {
                            meter: mt,
                            idx,
                            dst,
                        }])
                    }
                    (Obj::DirectCounter(_), "count") => Ok(vec![]),
                    (_, m) => {
                        self.err(e.span, format!("unsupported method `{m}`"));
                        Err(())
                    }
                }
            }
            ExprKind::Name(n) => match n.as_str() {
                "mark_to_drop" => Ok(vec![St::MarkToDrop]),
                "hash" => {
                    nargs(self, 5)?;
                    let (dst, dt) = self.out_slot(&args[0])?;
                    let algo = self.algo(&args[1])?;
                    let (base, bt) = self.expr(&args[2])?;
                    let base = self.loose(args[2].span, base, &bt, &dt)?;
                    let data = Self::flatten_fields_plain(self.field_list(&args[3])?);
                    let (max, _) = self.expr(&args[4])?;
                    Ok(vec![St::Hash {
                        dst,
                        dst_mask: mask(dt.width().unwrap_or(64)),
                        algo,
                        base,
                        data,
                        max,
                    }])
                }
                "verify_checksum"
                | "update_checksum"
                | "verify_checksum_with_payload"
                | "update_checksum_with_payload" => {
                    nargs(self, 4)?;
                    let cond = self.bool_expr(&args[0])?;
                    let data = self.field_list(&args[1])?;
                    let (field, ft) = self.out_slot(&args[2])?;
                    let algo = self.algo(&args[3])?;
                    let plan = if algo == Algo::Csum16 {
                        self.csum_plan(&data)
                    } else {
                        None
                    };
                    let data = Self::flatten_fields_plain(data);
                    Ok(vec![St::Checksum {
                        verify: n.starts_with("verify"),
                        payload: n.ends_with("payload"),
                        cond,
                        plan,
                        data,
                        field,
                        width: ft.width().unwrap_or(16),
                        algo,
                    }])
                }
                "log_msg" => Ok(vec![]),
                "assert" | "assume" => {
                    nargs(self, 1)?;
                    let c = self.bool_expr(&args[0])?;
                    Ok(self.assertion(c, func.span.line))
                }
                _ => match self.lookup(n) {
                    Some(Obj::Action(a)) => self.direct_action_call(e.span, a, args),
                    _ => {
                        self.err(func.span, format!("unknown or unsupported function `{n}`"));
                        Err(())
                    }
                },
            },
            _ => {
                self.err(e.span, "unsupported call");
                Err(())
            }
        }
    }

    /// `assert(c)` / `assume(c)` at `line`. BMv2 stops the switch when one fails; here the
    /// packet is dropped, the failure counted for that call site ([`Switch::assert_failures`]),
    /// and `tandem switch run` reports it and fails:
    /// `if (!c) { count($asserts[site]); mark_to_drop(); exit; }`.
    ///
    /// [`Switch::assert_failures`]: crate::Switch::assert_failures
    fn assertion(&mut self, c: Ex, line: u32) -> Vec<St> {
        use crate::program::{CounterDef, CounterKind, ASSERT_COUNTER};
        let site = self.c.asserts.len() as u64;
        self.c.asserts.push(line);
        let counter = match self
            .c
            .counters
            .iter()
            .position(|k| k.name == ASSERT_COUNTER)
        {
            Some(i) => i,
            None => {
                self.c.counters.push(CounterDef {
                    name: ASSERT_COUNTER.into(),
                    size: 0,
                    kind: CounterKind::Packets,
                });
                self.c.counters.len() - 1
            }
        };
        self.c.counters[counter].size = self.c.asserts.len() as u32;
        let fail = vec![
            St::Count {
                counter: counter as u32,
                idx: Ex::Const(site),
            },
            St::MarkToDrop,
            St::Exit,
        ];
        match c {
            Ex::Const(v) if v != 0 => vec![],
            Ex::Const(_) => fail,
            c => vec![St::If(Ex::Not(Box::new(c)), fail, vec![])],
        }
    }

    pub(super) fn emits(&mut self, o: &Obj, out: &mut Vec<St>) {
        match o {
            Obj::Header { hdr } => out.push(St::Emit(*hdr)),
            Obj::Struct { members } => {
                for m in members.iter() {
                    self.emits(&m.1, out);
                }
            }
            _ => {}
        }
    }

    pub(super) fn direct_action_call(&mut self, span: Span, a: u32, args: &[Expr]) -> R<Vec<St>> {
        let params = self.c.actions[a as usize].params.clone();
        let outs = self.action_out.get(a as usize).cloned().unwrap_or_default();
        if params.len() != args.len() {
            self.err(
                span,
                format!(
                    "action takes {} arguments, {} given",
                    params.len(),
                    args.len()
                ),
            );
            return Err(());
        }
        let mut xs = Vec::new();
        let mut copy_out = Vec::new();
        for (i, (arg, (pslot, w))) in args.iter().zip(params).enumerate() {
            let (x, t) = self.expr(arg)?;
            let x = self.loose(arg.span, x, &t, &Ty::Bit(w))?;
            if outs.get(i).copied().unwrap_or(false) {
                match self.path(arg) {
                    Ok(Some(Obj::Val { slot, .. })) => copy_out.push((Dst::Slot(slot), pslot)),
                    Ok(Some(Obj::Field { loc, .. })) => copy_out.push((Dst::Field(loc), pslot)),
                    _ => self.err(arg.span, "out/inout arguments must be l-values"),
                }
            }
            xs.push(x);
        }
        Ok(vec![St::CallAction {
            action: a,
            args: xs,
            copy_out,
        }])
    }

    /// Converts between scalar types the way extern arguments allow: exact types,
    /// integer literals, or a width change of bit/int/bool/enum values.
    pub(super) fn loose(&mut self, span: Span, x: Ex, from: &Ty, to: &Ty) -> R<Ex> {
        if from == to || *from == Ty::InfInt {
            return self.coerce(span, x, from, to);
        }
        match (from.width(), to.width()) {
            (Some(_), Some(w)) => Ok(match x {
                Ex::Const(v) => Ex::Const(v & mask(w)),
                x => Ex::Mask(Box::new(x), mask(w)),
            }),
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
}
