//! Parsers, controls, actions and tables.

use super::*;

impl<'a> Cx<'a> {
    /// Compiles parser `d` with its parameters bound to `binds`; its states are appended to
    /// the program's. Returns the start state's index (also set as the program's start).
    pub(super) fn compile_parser(&mut self, d: &'a Decl, binds: Vec<Obj>) -> Option<u32> {
        let DeclKind::Parser {
            name,
            params,
            locals,
            states,
        } = &d.kind
        else {
            return None;
        };
        self.block = name.clone();
        let base = self.c.states.len() as u32;
        let mut scope = HashMap::new();
        for (p, o) in params.iter().zip(binds) {
            scope.insert(p.name.clone(), o);
        }
        self.scopes = vec![scope];
        for l in locals {
            self.local(l);
        }
        let index: HashMap<&str, u32> = states
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.as_str(), base + i as u32))
            .collect();
        let Some(&start) = index.get("start") else {
            self.err(d.span, format!("parser `{name}` has no `start` state"));
            return None;
        };
        self.c.start = start;
        let target = |cx: &mut Self, n: &str, span: Span| -> Target {
            match n {
                "accept" => Target::Accept,
                "reject" => Target::Reject,
                _ => match index.get(n) {
                    Some(i) => Target::State(*i),
                    None => {
                        cx.err(span, format!("unknown parser state `{n}`"));
                        Target::Reject
                    }
                },
            }
        };
        for s in states {
            self.scopes.push(HashMap::new());
            let body = self.stmts(&s.body);
            let trans = match &s.transition {
                Transition::Goto(n) => match target(self, n, s.span) {
                    Target::Accept => Trans::Accept,
                    Target::Reject => Trans::Reject,
                    Target::State(i) => Trans::Goto(i),
                },
                Transition::Select { exprs, cases } => {
                    let mut keys = Vec::new();
                    let mut widths = Vec::new();
                    for e in exprs {
                        if let Ok((x, t)) = self.expr(e) {
                            widths.push(t.width().unwrap_or(64));
                            keys.push((x, t));
                        }
                    }
                    let mut cs = Vec::new();
                    for c in cases {
                        let t = target(self, &c.next, s.span);
                        let single_default = c.keys.len() == 1
                            && matches!(c.keys[0].kind, ExprKind::Default | ExprKind::DontCare);
                        let mut ks = Vec::new();
                        if single_default {
                            ks = vec![KeySet::Mask(0, 0); keys.len()];
                        } else if c.keys.len() != keys.len() {
                            self.err(s.span, "keyset arity does not match the select");
                        } else {
                            for (k, (_, kt)) in c.keys.iter().zip(&keys) {
                                if let Some(v) = self.keyset(k, kt) {
                                    ks.push(v);
                                }
                            }
                        }
                        cs.push((ks, t));
                    }
                    if keys.len() > MAX_KEYS {
                        self.err(s.span, "too many select keys");
                    }
                    Trans::Select {
                        keys: keys.into_iter().map(|k| k.0).collect(),
                        cases: cs,
                    }
                }
            };
            self.scopes.pop();
            self.c.states.push(PState {
                name: s.name.clone(),
                body,
                trans,
            });
        }
        self.pre.clear();
        Some(start)
    }

    pub(super) fn keyset(&mut self, k: &Expr, kt: &Ty) -> Option<KeySet> {
        let w = kt.width().unwrap_or(64);
        let full = mask(w);
        match &k.kind {
            ExprKind::Default | ExprKind::DontCare => Some(KeySet::Mask(0, 0)),
            ExprKind::Binary(BinOp::Mask, v, m) => {
                let v = self.expr_as(v, kt).ok()?.as_const();
                let m = self.expr_as(m, kt).ok()?.as_const();
                match (v, m) {
                    (Some(v), Some(m)) => Some(KeySet::Mask(v & m, m & full)),
                    _ => {
                        self.err(k.span, "keyset values must be constants");
                        None
                    }
                }
            }
            ExprKind::Binary(BinOp::Range, lo, hi) => {
                let lo = self.expr_as(lo, kt).ok()?.as_const();
                let hi = self.expr_as(hi, kt).ok()?.as_const();
                match (lo, hi) {
                    (Some(l), Some(h)) => Some(KeySet::Range(l, h)),
                    _ => {
                        self.err(k.span, "keyset values must be constants");
                        None
                    }
                }
            }
            _ => match self.expr_as(k, kt).ok()?.as_const() {
                Some(v) => Some(KeySet::Mask(v & full, full)),
                None => {
                    self.err(k.span, "keyset values must be constants");
                    None
                }
            },
        }
    }

    pub(super) fn compile_control(&mut self, d: &'a Decl, binds: Vec<Obj>) -> Vec<St> {
        let DeclKind::Control {
            name,
            params,
            locals,
            apply,
        } = &d.kind
        else {
            return vec![];
        };
        self.block = name.clone();
        if params.len() != binds.len() {
            self.err(
                d.span,
                format!(
                    "control `{name}` has {} parameters; the architecture expects {}",
                    params.len(),
                    binds.len()
                ),
            );
            return vec![];
        }
        let mut scope = HashMap::new();
        for (p, o) in params.iter().zip(binds) {
            scope.insert(p.name.clone(), o);
        }
        self.scopes = vec![scope];
        let mut out = Vec::new();
        for l in locals {
            out.extend(self.local(l));
        }
        out.extend(self.stmts(&apply.stmts));
        self.scopes.clear();
        self.block.clear();
        out
    }

    /// A control/parser-local declaration; returns initialisation statements.
    pub(super) fn local(&mut self, d: &'a Decl) -> Vec<St> {
        match &d.kind {
            DeclKind::Action { name, params, body } => {
                if let Ok(a) = self.action(d.span, name, params, body) {
                    self.bind(name, Obj::Action(a));
                }
                vec![]
            }
            DeclKind::Table(t) => {
                if let Some(i) = self.table(d.span, t) {
                    self.bind(&t.name, Obj::Table(i));
                }
                vec![]
            }
            DeclKind::Instantiation { ty, args, name } => {
                if let Some(o) = self.instantiate_extern(d.span, ty, args, name) {
                    self.bind(name, o);
                }
                vec![]
            }
            DeclKind::Extern { name, text } if self.tna && text.starts_with("RegisterAction") => {
                if let Some(o) = self.register_action(d.span, name, text) {
                    self.bind(name, o);
                }
                vec![]
            }
            _ => {
                let s = Stmt {
                    span: d.span,
                    kind: StmtKind::Decl(Box::new(d.clone())),
                };
                self.stmts(std::slice::from_ref(&s))
            }
        }
    }

    pub(super) fn action(
        &mut self,
        span: Span,
        name: &str,
        params: &[Param],
        body: &Block,
    ) -> R<u32> {
        let mut scope = HashMap::new();
        let mut ps = Vec::new();
        for p in params {
            let t = self.resolve_type(span, &p.ty)?;
            let Some(w) = t.width() else {
                self.err(
                    span,
                    format!("action parameter `{}` must be a scalar", p.name),
                );
                return Err(());
            };
            let slot = self.new_slot(format!("{name}.{}", p.name));
            ps.push((slot, w));
            scope.insert(p.name.clone(), Obj::Val { slot, ty: t });
        }
        self.scopes.push(scope);
        let body = self.stmts(&body.stmts);
        self.scopes.pop();
        self.c.actions.push(ActionDef {
            name: name.to_string(),
            param_masks: ps.iter().map(|&(s, w)| (s, mask(w))).collect(),
            params: ps,
            body,
        });
        self.action_out.push(
            params
                .iter()
                .map(|p| matches!(p.direction, Direction::Out | Direction::InOut))
                .collect(),
        );
        Ok((self.c.actions.len() - 1) as u32)
    }

    pub(super) fn action_id(&mut self, a: &ActionRef) -> Option<u32> {
        let n = a.name.trim_start_matches('.');
        match self.lookup(n) {
            Some(Obj::Action(i)) => Some(i),
            _ => {
                self.err(a.span, format!("unknown action `{n}`"));
                None
            }
        }
    }

    pub(super) fn const_args(&mut self, a: &ActionRef, action: u32) -> Option<Vec<u64>> {
        let params = self.c.actions[action as usize].params.clone();
        let args = a.args.clone().unwrap_or_default();
        if args.len() != params.len() {
            self.err(
                a.span,
                format!(
                    "action `{}` takes {} arguments, {} given",
                    a.name,
                    params.len(),
                    args.len()
                ),
            );
            return None;
        }
        let mut v = Vec::new();
        for (e, (_, w)) in args.iter().zip(params) {
            match self.const_expr(e) {
                Some(x) => v.push(x & mask(w)),
                None => {
                    self.err(e.span, "action arguments here must be constants");
                    return None;
                }
            }
        }
        Some(v)
    }

    pub(super) fn table(&mut self, span: Span, t: &Table) -> Option<u32> {
        let mut keys = Vec::new();
        for k in &t.keys {
            let Ok((ex, ty)) = self.expr(&k.expr) else {
                continue;
            };
            let Some(width) = ty.width() else {
                self.err(k.expr.span, "table keys must be scalars");
                continue;
            };
            let kind = match k.match_kind.as_str() {
                "exact" => MatchKind::Exact,
                "lpm" => MatchKind::Lpm,
                "ternary" => MatchKind::Ternary,
                "range" => MatchKind::Range,
                "optional" => MatchKind::Optional,
                other => {
                    self.err(
                        k.expr.span,
                        format!("match kind `{other}` is not supported"),
                    );
                    continue;
                }
            };
            keys.push(KeyDef {
                name: print_expr(&k.expr),
                ex,
                width,
                kind,
            });
        }
        if !self.pre.is_empty() {
            self.err(span, "table keys cannot apply tables");
            self.pre.clear();
        }
        if keys.len() > MAX_KEYS {
            self.err(span, format!("tables may have at most {MAX_KEYS} keys"));
            return None;
        }
        if keys.iter().filter(|k| k.kind == MatchKind::Lpm).count() > 1 {
            self.err(span, "a table may have at most one lpm key");
        }
        let mut actions = Vec::new();
        for a in &t.actions {
            if let Some(i) = self.action_id(a) {
                actions.push(i);
            }
        }
        let default_action = match &t.default_action {
            Some((a, _)) => {
                let id = self.action_id(a)?;
                if !actions.contains(&id) {
                    self.err(
                        a.span,
                        format!("default action `{}` is not in the table's actions", a.name),
                    );
                }
                (id, self.const_args(a, id)?)
            }
            None => (0, vec![]),
        };
        let size = match &t.size {
            Some(e) => self.const_expr(e).unwrap_or(1024),
            None => 1024,
        };
        let idx = self.c.tables.len() as u32;
        let mut direct_counter = None;
        let mut ageing = false;
        for (prop, e) in &t.other {
            if prop == "support_timeout" || prop == "idle_timeout" {
                // v1model / TNA: the table's entries can age (`crate::ageing`)
                ageing = matches!(e.kind, ExprKind::Bool(true));
                continue;
            }
            if prop != "counters" {
                continue;
            }
            match &e.kind {
                ExprKind::Name(n) | ExprKind::DotName(n) => match self.lookup(n) {
                    Some(Obj::DirectCounter(q)) => direct_counter = Some(q),
                    _ => self.err(e.span, format!("`counters = {n}`: not a direct_counter")),
                },
                _ => self.err(e.span, "`counters` must name a direct_counter"),
            }
        }
        // const entries
        let mut entries = Vec::new();
        let n = t.entries.len();
        for (i, ce) in t.entries.iter().enumerate() {
            let Some(action) = self.action_id(&ce.action) else {
                continue;
            };
            let Some(args) = self.const_args(&ce.action, action) else {
                continue;
            };
            let kset: Vec<&Expr> = if keys.len() > 1 && ce.keys.len() == 1 {
                if matches!(ce.keys[0].kind, ExprKind::Default | ExprKind::DontCare) {
                    vec![&ce.keys[0]; keys.len()]
                } else {
                    vec![&ce.keys[0]]
                }
            } else {
                ce.keys.iter().collect()
            };
            if kset.len() != keys.len() {
                self.err(ce.span, "entry has the wrong number of keys");
                continue;
            }
            let mut fields = Vec::new();
            let mut prefix = 0i64;
            for (k, kd) in kset.iter().zip(&keys) {
                let kt = Ty::Bit(kd.width);
                let Some(ks) = self.keyset(k, &kt) else {
                    continue;
                };
                let full = mask(kd.width);
                let fm = match ks {
                    KeySet::Mask(v, m) => {
                        if kd.kind == MatchKind::Lpm {
                            prefix = m.count_ones() as i64;
                        }
                        FieldMatch {
                            value: v & m,
                            mask: m,
                            lo: 0,
                            hi: full,
                        }
                    }
                    KeySet::Range(lo, hi) => FieldMatch {
                        value: 0,
                        mask: 0,
                        lo,
                        hi,
                    },
                };
                fields.push(fm);
            }
            if fields.len() != keys.len() {
                continue;
            }
            let has_prio_kind = keys.iter().any(|k| {
                matches!(
                    k.kind,
                    MatchKind::Ternary | MatchKind::Range | MatchKind::Optional
                )
            });
            let priority = match &ce.priority {
                Some(p) => self.const_expr(p).unwrap_or(0) as i64,
                None if has_prio_kind => (n - i) as i64,
                None => prefix,
            };
            entries.push(Entry {
                fields: fields.into(),
                priority,
                action,
                args: args.into(),
                hits: crate::table::Hits::new(direct_counter.is_some()),
                age: Default::default(),
            });
        }
        self.c.tables.push(TableDef {
            name: t.name.clone(),
            qualified: self.qualify(&t.name),
            keys,
            actions,
            default_action,
            const_default: t.const_default,
            const_entries: t.const_entries,
            size,
            direct_counter,
            ageing,
        });
        self.initial_entries.push(entries);
        Some(idx)
    }
}
