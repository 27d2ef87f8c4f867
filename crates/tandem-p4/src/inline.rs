//! `inline_single_use_values`: a value computed by a pure expression and read exactly once is
//! folded into the expression that reads it, so temporaries of straight-line arithmetic (the
//! NFs' incremental checksum updates) need no metadata field and no statement of their own.
//!
//! ```text
//! meta.v31 = meta.v29 ^ 16w0xffff;
//! meta.v32 = (bit<32>) meta.v31;         ==>  meta.v32 = (bit<32>) (meta.v29 ^ 16w0xffff);
//! ```
//!
//! Only SSA values (`meta.vN`) with one assignment in the ingress `apply` block and one read
//! there move; the expression may read literals and metadata fields that are written at most
//! once (a table apply counts as one write of every field its actions assign), never headers or
//! calls, so it computes the same value at the read as at the assignment.

use std::collections::{HashMap, HashSet};

use tandem_p4_syntax::{BinOp, Block, DeclKind, Expr, ExprKind, Program, StmtKind, UnOp};

fn is_value(name: &str) -> bool {
    name.strip_prefix('v')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

fn meta_field(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Member(base, f) if matches!(&base.kind, ExprKind::Name(n) if n == "meta") => {
            Some(f)
        }
        _ => None,
    }
}

/// Reads of `meta.*` fields in an expression (every occurrence).
fn reads(e: &Expr, out: &mut Vec<String>) {
    if let Some(f) = meta_field(e) {
        out.push(f.to_string());
        return;
    }
    match &e.kind {
        ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => reads(a, out),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            reads(a, out);
            reads(b, out);
        }
        ExprKind::Slice(a, b, c) | ExprKind::Ternary(a, b, c) => {
            reads(a, out);
            reads(b, out);
            reads(c, out);
        }
        ExprKind::Call { func, args, .. } => {
            reads(func, out);
            for a in args {
                reads(a, out);
            }
        }
        ExprKind::List(items) => {
            for a in items {
                reads(a, out);
            }
        }
        _ => {}
    }
}

/// Literals, operators and metadata fields only.
fn pure(e: &Expr, writes: &HashMap<String, usize>) -> bool {
    if let Some(f) = meta_field(e) {
        return writes.get(f).copied().unwrap_or(0) <= 1;
    }
    match &e.kind {
        ExprKind::Int { .. } | ExprKind::Bool(_) => true,
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => pure(a, writes),
        ExprKind::Binary(_, a, b) => pure(a, writes) && pure(b, writes),
        ExprKind::Slice(a, b, c) | ExprKind::Ternary(a, b, c) => {
            pure(a, writes) && pure(b, writes) && pure(c, writes)
        }
        _ => false,
    }
}

#[derive(Default)]
struct Counts {
    /// Assignments `meta.f = ...` in apply.
    assigns: HashMap<String, usize>,
    /// Every write: assignments, table applies (once per table), `read(meta.f, ..)` outputs.
    writes: HashMap<String, usize>,
    /// Reads in apply.
    reads: HashMap<String, usize>,
}

fn applied_table(e: &Expr) -> Option<&str> {
    let ExprKind::Call { func, .. } = &e.kind else {
        return None;
    };
    match &func.kind {
        ExprKind::Member(base, m) if m == "apply" => match &base.kind {
            ExprKind::Name(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

fn count_block(b: &Block, tables: &HashMap<String, HashSet<String>>, c: &mut Counts) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Assign { lhs, rhs } => {
                let mut rs = Vec::new();
                reads(rhs, &mut rs);
                match meta_field(lhs) {
                    Some(f) => {
                        *c.assigns.entry(f.to_string()).or_default() += 1;
                        *c.writes.entry(f.to_string()).or_default() += 1;
                    }
                    None => reads(lhs, &mut rs),
                }
                for r in rs {
                    *c.reads.entry(r).or_default() += 1;
                }
            }
            StmtKind::Call(e) => {
                if let Some(t) = applied_table(e) {
                    for f in tables.get(t).into_iter().flatten() {
                        *c.writes.entry(f.clone()).or_default() += 1;
                    }
                }
                // Calls that write a metadata field through an out argument.
                let mut rs = Vec::new();
                if let ExprKind::Call { func, args, .. } = &e.kind {
                    let out_arg = crate::build::out_arg(func);
                    for (i, a) in args.iter().enumerate() {
                        match meta_field(a) {
                            Some(f) if out_arg == Some(i) => {
                                *c.writes.entry(f.to_string()).or_default() += 1;
                            }
                            _ => reads(a, &mut rs),
                        }
                    }
                }
                for r in rs {
                    *c.reads.entry(r).or_default() += 1;
                }
            }
            StmtKind::If { cond, then, els } => {
                let mut rs = Vec::new();
                reads(cond, &mut rs);
                for r in rs {
                    *c.reads.entry(r).or_default() += 1;
                }
                count_block(then, tables, c);
                if let Some(e) = els {
                    count_block(e, tables, c);
                }
            }
            StmtKind::Block(b) => count_block(b, tables, c),
            _ => {}
        }
    }
}

/// Replaces `meta.f` for every `f` in `defs` (recursively, as the definitions may themselves
/// have been folded).
fn substitute(e: &mut Expr, defs: &mut HashMap<String, Expr>) {
    if let Some(f) = meta_field(e) {
        if let Some(rhs) = defs.remove(f) {
            *e = rhs;
        }
        return;
    }
    match &mut e.kind {
        ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => {
            substitute(a, defs)
        }
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            substitute(a, defs);
            substitute(b, defs);
        }
        ExprKind::Slice(a, b, c) | ExprKind::Ternary(a, b, c) => {
            substitute(a, defs);
            substitute(b, defs);
            substitute(c, defs);
        }
        ExprKind::Call { func, args, .. } => {
            substitute(func, defs);
            for a in args {
                substitute(a, defs);
            }
        }
        ExprKind::List(items) => {
            for a in items {
                substitute(a, defs);
            }
        }
        _ => {}
    }
}

fn bit1(e: &Expr) -> Option<u128> {
    match e.kind {
        ExprKind::Int {
            value,
            width: Some(1),
            ..
        } => Some(value),
        _ => None,
    }
}

/// Boolean clean-ups after folding: `(c ? 1w1 : 1w0) == 1w1` is `c` (and `!c` against
/// `1w0`); `(x ^ 1w1) == 1w0` is `x == 1w1`.
fn simplify(e: &mut Expr) {
    match &mut e.kind {
        ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => simplify(a),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            simplify(a);
            simplify(b);
        }
        ExprKind::Slice(a, b, c) | ExprKind::Ternary(a, b, c) => {
            simplify(a);
            simplify(b);
            simplify(c);
        }
        ExprKind::Call { args, .. } => args.iter_mut().for_each(simplify),
        _ => {}
    }
    let ExprKind::Binary(BinOp::Eq, lhs, rhs) = &e.kind else {
        return;
    };
    let Some(k) = bit1(rhs) else {
        return;
    };
    let replacement = match &lhs.kind {
        ExprKind::Ternary(c, t, f) if bit1(t) == Some(1) && bit1(f) == Some(0) => Some(if k == 1 {
            (**c).clone()
        } else {
            Expr::new(e.span, ExprKind::Unary(UnOp::Not, c.clone()))
        }),
        ExprKind::Binary(BinOp::BitXor, x, one) if bit1(one) == Some(1) => Some(Expr::new(
            e.span,
            ExprKind::Binary(BinOp::Eq, x.clone(), Box::new(flip(rhs))),
        )),
        _ => None,
    };
    if let Some(r) = replacement {
        *e = r;
    }
}

/// `1w1` ↔ `1w0`.
fn flip(e: &Expr) -> Expr {
    let mut f = e.clone();
    if let ExprKind::Int { value, .. } = &mut f.kind {
        *value ^= 1;
    }
    f
}

fn simplify_block(b: &mut Block) {
    for s in &mut b.stmts {
        match &mut s.kind {
            StmtKind::Assign { rhs, .. } => simplify(rhs),
            StmtKind::If { cond, then, els } => {
                simplify(cond);
                simplify_block(then);
                if let Some(e) = els {
                    simplify_block(e);
                }
            }
            StmtKind::Block(inner) => simplify_block(inner),
            _ => {}
        }
    }
}

fn rewrite_block(b: &mut Block, movable: &HashSet<String>, defs: &mut HashMap<String, Expr>) {
    let stmts = std::mem::take(&mut b.stmts);
    for mut s in stmts {
        match &mut s.kind {
            StmtKind::Assign { lhs, rhs } => {
                substitute(rhs, defs);
                if meta_field(lhs).is_none() {
                    substitute(lhs, defs);
                }
                if let Some(f) = meta_field(lhs) {
                    if movable.contains(f) {
                        defs.insert(f.to_string(), rhs.clone());
                        continue;
                    }
                }
            }
            StmtKind::Call(e) => substitute(e, defs),
            StmtKind::If { cond, then, els } => {
                substitute(cond, defs);
                rewrite_block(then, movable, defs);
                if let Some(e) = els {
                    rewrite_block(e, movable, defs);
                }
            }
            StmtKind::Block(inner) => rewrite_block(inner, movable, defs),
            _ => {}
        }
        b.stmts.push(s);
    }
}

/// Folds single-use pure values into their readers in control `control`; returns how many
/// values were folded.
pub fn inline_single_use_values(program: &mut Program, control: &str) -> usize {
    let Some((locals, apply)) = program.items.iter_mut().find_map(|d| match &mut d.kind {
        DeclKind::Control {
            name,
            locals,
            apply,
            ..
        } if name == control => Some((locals, apply)),
        _ => None,
    }) else {
        return 0;
    };
    // Fields each table's actions assign; reads in actions and keys pin fields.
    let mut action_writes: HashMap<String, HashSet<String>> = HashMap::new();
    let mut pinned: HashSet<String> = HashSet::new();
    for d in locals.iter() {
        if let DeclKind::Action { name, body, .. } = &d.kind {
            let mut c = Counts::default();
            count_block(body, &HashMap::new(), &mut c);
            action_writes.insert(name.clone(), c.assigns.keys().cloned().collect());
            pinned.extend(c.reads.keys().cloned());
        }
    }
    let mut tables: HashMap<String, HashSet<String>> = HashMap::new();
    for d in locals.iter() {
        if let DeclKind::Table(t) = &d.kind {
            let mut fs = HashSet::new();
            for a in &t.actions {
                fs.extend(action_writes.get(&a.name).cloned().unwrap_or_default());
            }
            for k in &t.keys {
                let mut rs = Vec::new();
                reads(&k.expr, &mut rs);
                pinned.extend(rs);
            }
            tables.insert(t.name.clone(), fs);
        }
    }
    // A hash unit reads fields: what its field list reads stays a field.
    hash_inputs(apply, &mut pinned);
    let mut c = Counts::default();
    count_block(apply, &tables, &mut c);
    // Candidates: assigned once (and written nowhere else), read once, pure right-hand side.
    let mut movable = HashSet::new();
    collect_movable(apply, &c, &pinned, &mut movable);
    let n = movable.len();
    let mut defs = HashMap::new();
    rewrite_block(apply, &movable, &mut defs);
    simplify_block(apply);
    // Drop the fields from the metadata struct.
    for d in &mut program.items {
        if let DeclKind::Struct { name, fields } = &mut d.kind {
            if name == "meta_t" {
                fields.retain(|f| !movable.contains(&f.name));
            }
        }
    }
    n
}

/// The hash calls' field lists (`{...}` arguments of v1model's `hash(...)` and of TNA's
/// `Hash.get(...)`): the fields they read.
fn hash_inputs(b: &Block, out: &mut HashSet<String>) {
    fn visit(e: &Expr, out: &mut HashSet<String>) {
        if let ExprKind::Call { func, args, .. } = &e.kind {
            let hash = matches!(&func.kind, ExprKind::Name(n) if n == "hash")
                || matches!(&func.kind, ExprKind::Member(_, m) if m == "get");
            for a in args {
                if hash && matches!(a.kind, ExprKind::List(_)) {
                    let mut rs = Vec::new();
                    reads(a, &mut rs);
                    out.extend(rs);
                }
            }
        }
    }
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Assign { rhs, .. } => visit(rhs, out),
            StmtKind::Call(e) => visit(e, out),
            StmtKind::If { then, els, .. } => {
                hash_inputs(then, out);
                if let Some(e) = els {
                    hash_inputs(e, out);
                }
            }
            StmtKind::Block(inner) => hash_inputs(inner, out),
            _ => {}
        }
    }
}

fn collect_movable(b: &Block, c: &Counts, pinned: &HashSet<String>, out: &mut HashSet<String>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Assign { lhs, rhs } => {
                if let Some(f) = meta_field(lhs) {
                    let ok = is_value(f)
                        && !pinned.contains(f)
                        && c.assigns.get(f) == Some(&1)
                        && c.writes.get(f) == Some(&1)
                        && c.reads.get(f) == Some(&1)
                        && pure(rhs, &c.writes);
                    if ok {
                        out.insert(f.to_string());
                    }
                }
            }
            StmtKind::If { then, els, .. } => {
                collect_movable(then, c, pinned, out);
                if let Some(e) = els {
                    collect_movable(e, c, pinned, out);
                }
            }
            StmtKind::Block(inner) => collect_movable(inner, c, pinned, out),
            _ => {}
        }
    }
}
