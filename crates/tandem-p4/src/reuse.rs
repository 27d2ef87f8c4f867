//! `reuse_metadata_slots`: SSA values whose live ranges do not overlap share one metadata field
//! (Gallium's metadata reuse), so a partition needs the peak of its live values in metadata,
//! not their sum.
//!
//! The ingress control is acyclic. Two conservative interference relations are computed, and
//! the smaller colouring wins:
//! - liveness: backward over the statement tree (live sets join at branches; a table apply
//!   writes the fields its actions assign but ends no live range, as an action may not write
//!   them); a value written interferes with everything live after the write;
//! - textual ranges: statements numbered in order (both arms of an `if` in turn), a value's
//!   range from its first to its last occurrence (a table apply counts as an occurrence of every
//!   field its key and actions touch); overlapping ranges interfere. Better for the predicated
//!   form, where a skipped guard keeps values live in liveness terms.
//!
//! Either way no path sees a field overwritten while its value is live.
//!
//! ```text
//! meta.v31 = meta.v29 ^ 16w0xffff;       meta.tmp16_2 = meta.tmp16_1 ^ 16w0xffff;
//! meta.v32 = (bit<32>) meta.v31;    ==>  meta.tmp32_0 = (bit<32>) meta.tmp16_2;
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};

use tandem_p4_syntax::{Block, DeclKind, Expr, ExprKind, Program, Stmt, StmtKind, Type};

/// What slot reuse achieved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReuseInfo {
    /// Metadata fields before.
    pub fields_before: usize,
    /// Metadata fields after.
    pub fields_after: usize,
    /// Metadata bits before.
    pub bits_before: u64,
    /// Metadata bits after.
    pub bits_after: u64,
}

/// SSA values only: block flags of the predicated form are read on paths that never set
/// them (they must stay 0 there), so they keep their own fields.
fn candidate(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    name.strip_prefix('v').is_some_and(digits)
}

/// `meta.NAME` fields occurring in an expression.
fn expr_fields(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Member(base, f) => {
            if matches!(&base.kind, ExprKind::Name(n) if n == "meta") {
                out.push(f.clone());
            } else {
                expr_fields(base, out);
            }
        }
        ExprKind::Index(a, b) => {
            expr_fields(a, out);
            expr_fields(b, out);
        }
        ExprKind::Slice(a, b, c) | ExprKind::Ternary(a, b, c) => {
            expr_fields(a, out);
            expr_fields(b, out);
            expr_fields(c, out);
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => expr_fields(a, out),
        ExprKind::Binary(_, a, b) => {
            expr_fields(a, out);
            expr_fields(b, out);
        }
        ExprKind::Call { func, args, .. } => {
            expr_fields(func, out);
            for a in args {
                expr_fields(a, out);
            }
        }
        ExprKind::List(items) => {
            for a in items {
                expr_fields(a, out);
            }
        }
        _ => {}
    }
}

fn block_fields(b: &Block, out: &mut Vec<String>) {
    for s in &b.stmts {
        stmt_fields_deep(s, out);
    }
}

fn stmt_fields_deep(s: &Stmt, out: &mut Vec<String>) {
    match &s.kind {
        StmtKind::Assign { lhs, rhs } => {
            expr_fields(lhs, out);
            expr_fields(rhs, out);
        }
        StmtKind::Call(e) => expr_fields(e, out),
        StmtKind::If { cond, then, els } => {
            expr_fields(cond, out);
            block_fields(then, out);
            if let Some(e) = els {
                block_fields(e, out);
            }
        }
        StmtKind::Block(b) => block_fields(b, out),
        _ => {}
    }
}

/// The table applied by `t.apply()`.
fn applied_table(e: &Expr) -> Option<&str> {
    let ExprKind::Call { func, .. } = &e.kind else {
        return None;
    };
    let ExprKind::Member(base, m) = &func.kind else {
        return None;
    };
    match (&base.kind, m.as_str()) {
        (ExprKind::Name(t), "apply") => Some(t),
        _ => None,
    }
}

struct Ranges<'a> {
    pos: usize,
    ranges: BTreeMap<String, (usize, usize)>,
    table_fields: &'a HashMap<String, Vec<String>>,
}

impl Ranges<'_> {
    fn note(&mut self, fields: &[String]) {
        for f in fields {
            if candidate(f) {
                let r = self.ranges.entry(f.clone()).or_insert((self.pos, self.pos));
                r.0 = r.0.min(self.pos);
                r.1 = r.1.max(self.pos);
            }
        }
    }

    fn block(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        self.pos += 1;
        let mut here = Vec::new();
        match &s.kind {
            StmtKind::Assign { lhs, rhs } => {
                expr_fields(lhs, &mut here);
                expr_fields(rhs, &mut here);
            }
            StmtKind::Call(e) => {
                expr_fields(e, &mut here);
                if let Some(t) = applied_table(e) {
                    if let Some(fs) = self.table_fields.get(t) {
                        here.extend(fs.iter().cloned());
                    }
                }
            }
            StmtKind::If { cond, then, els } => {
                expr_fields(cond, &mut here);
                self.note(&here);
                self.block(then);
                if let Some(e) = els {
                    self.block(e);
                }
                return;
            }
            StmtKind::Block(b) => {
                self.block(b);
                return;
            }
            _ => {}
        }
        self.note(&here);
    }
}

/// Fields a table apply reads (keys, action bodies) and writes (action assignments).
#[derive(Default, Clone)]
struct TableUse {
    reads: Vec<String>,
    writes: Vec<String>,
}

/// Backward liveness over the structured control, recording which values interfere: a value
/// written by a statement interferes with every value live after it and with the other values
/// the same statement writes. Conservative at branches (live sets join) and for table applies
/// (an action may leave a field unwritten, so an apply does not end a live range).
struct Interference<'a> {
    tables: &'a HashMap<String, TableUse>,
    edges: HashMap<String, HashSet<String>>,
}

impl Interference<'_> {
    fn add(&mut self, a: &str, b: &str) {
        if a != b {
            self.edges.entry(a.into()).or_default().insert(b.into());
            self.edges.entry(b.into()).or_default().insert(a.into());
        }
    }

    fn defs(&mut self, defs: &[String], live: &HashSet<String>) {
        for d in defs.iter().filter(|d| candidate(d)) {
            for l in live {
                self.add(d, l);
            }
            for e in defs.iter().filter(|e| candidate(e)) {
                self.add(d, e);
            }
        }
    }

    fn block(&mut self, b: &Block, mut live: HashSet<String>) -> HashSet<String> {
        for s in b.stmts.iter().rev() {
            live = self.stmt(s, live);
        }
        live
    }

    fn stmt(&mut self, s: &Stmt, mut live: HashSet<String>) -> HashSet<String> {
        let uses = |e: &Expr, live: &mut HashSet<String>| {
            let mut fs = Vec::new();
            expr_fields(e, &mut fs);
            live.extend(fs.into_iter().filter(|f| candidate(f)));
        };
        match &s.kind {
            StmtKind::Assign { lhs, rhs } => {
                let mut d = Vec::new();
                match &lhs.kind {
                    ExprKind::Member(base, f) if matches!(&base.kind, ExprKind::Name(n) if n == "meta") => {
                        d.push(f.clone())
                    }
                    _ => uses(lhs, &mut live),
                }
                self.defs(&d, &live);
                for f in &d {
                    live.remove(f);
                }
                uses(rhs, &mut live);
            }
            StmtKind::Call(e) => {
                if let Some(t) = applied_table(e) {
                    let tu = self.tables.get(t).cloned().unwrap_or_default();
                    self.defs(&tu.writes, &live);
                    live.extend(tu.reads.into_iter().filter(|f| candidate(f)));
                    return live;
                }
                // Calls that write a metadata field through an out argument.
                if let ExprKind::Call { func, args, .. } = &e.kind {
                    let out_arg = crate::build::out_arg(func);
                    let mut d = Vec::new();
                    for (i, a) in args.iter().enumerate() {
                        match &a.kind {
                            ExprKind::Member(base, f)
                                if out_arg == Some(i)
                                    && matches!(&base.kind, ExprKind::Name(n) if n == "meta") =>
                            {
                                d.push(f.clone())
                            }
                            _ => {}
                        }
                    }
                    self.defs(&d, &live);
                    for f in &d {
                        live.remove(f);
                    }
                    for (i, a) in args.iter().enumerate() {
                        if out_arg != Some(i) {
                            uses(a, &mut live);
                        }
                    }
                    uses(func, &mut live);
                }
            }
            StmtKind::If { cond, then, els } => {
                let after = live.clone();
                let mut l = self.block(then, after.clone());
                if let Some(e) = els {
                    l.extend(self.block(e, after));
                } else {
                    l.extend(after);
                }
                live = l;
                uses(cond, &mut live);
            }
            StmtKind::Block(b) => live = self.block(b, live),
            _ => {}
        }
        live
    }
}

fn rename_expr(e: &mut Expr, map: &HashMap<String, String>) {
    match &mut e.kind {
        ExprKind::Member(base, f) => {
            if matches!(&base.kind, ExprKind::Name(n) if n == "meta") {
                if let Some(n) = map.get(f.as_str()) {
                    *f = n.clone();
                }
            } else {
                rename_expr(base, map);
            }
        }
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            rename_expr(a, map);
            rename_expr(b, map);
        }
        ExprKind::Slice(a, b, c) | ExprKind::Ternary(a, b, c) => {
            rename_expr(a, map);
            rename_expr(b, map);
            rename_expr(c, map);
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => rename_expr(a, map),
        ExprKind::Call { func, args, .. } => {
            rename_expr(func, map);
            for a in args {
                rename_expr(a, map);
            }
        }
        ExprKind::List(items) => {
            for a in items {
                rename_expr(a, map);
            }
        }
        _ => {}
    }
}

fn rename_block(b: &mut Block, map: &HashMap<String, String>) {
    for s in &mut b.stmts {
        match &mut s.kind {
            StmtKind::Assign { lhs, rhs } => {
                rename_expr(lhs, map);
                rename_expr(rhs, map);
            }
            StmtKind::Call(e) => rename_expr(e, map),
            StmtKind::If { cond, then, els } => {
                rename_expr(cond, map);
                rename_block(then, map);
                if let Some(e) = els {
                    rename_block(e, map);
                }
            }
            StmtKind::Block(b) => rename_block(b, map),
            _ => {}
        }
    }
}

/// Greedy colouring in order of first occurrence: each value takes the lowest slot of its
/// width that no interfering value holds. Returns the renaming and the slots used per width.
fn colour(
    order: &[(usize, String)],
    widths: &HashMap<String, u32>,
    edges: &HashMap<String, HashSet<String>>,
) -> (HashMap<String, String>, BTreeMap<u32, usize>) {
    let mut slots: BTreeMap<u32, usize> = BTreeMap::new();
    let mut map: HashMap<String, String> = HashMap::new();
    for (_, name) in order {
        let Some(&w) = widths.get(name) else {
            continue;
        };
        let taken: HashSet<&String> = edges
            .get(name)
            .into_iter()
            .flatten()
            .filter_map(|n| map.get(n))
            .collect();
        let k = (0..)
            .find(|k| !taken.contains(&format!("tmp{w}_{k}")))
            .unwrap_or(0);
        let used = slots.entry(w).or_default();
        *used = (*used).max(k + 1);
        map.insert(name.clone(), format!("tmp{w}_{k}"));
    }
    (map, slots)
}

/// Shares metadata fields of SSA values (`vN`) between values whose live
/// ranges in control `control` do not overlap; rewrites the control and the `meta_t` struct.
pub fn reuse_metadata_slots(program: &mut Program, control: &str) -> ReuseInfo {
    let mut info = ReuseInfo::default();
    // Widths from meta_t.
    let mut widths: HashMap<String, u32> = HashMap::new();
    for d in &program.items {
        if let DeclKind::Struct { name, fields } = &d.kind {
            if name == "meta_t" {
                for f in fields {
                    if let Type::Bit(w) = f.ty {
                        widths.insert(f.name.clone(), w);
                    }
                }
                info.fields_before = fields.len();
                info.bits_before = fields
                    .iter()
                    .map(|f| match f.ty {
                        Type::Bit(w) => u64::from(w),
                        _ => 0,
                    })
                    .sum();
            }
        }
    }
    let Some(ctl) = program.items.iter_mut().find_map(|d| match &mut d.kind {
        DeclKind::Control {
            name,
            locals,
            apply,
            ..
        } if name == control => Some((locals, apply)),
        _ => None,
    }) else {
        return info;
    };
    let (locals, apply) = ctl;
    // Fields each table touches (keys and action bodies).
    let mut action_fields: HashMap<String, Vec<String>> = HashMap::new();
    for d in locals.iter() {
        if let DeclKind::Action { name, body, .. } = &d.kind {
            let mut fs = Vec::new();
            block_fields(body, &mut fs);
            action_fields.insert(name.clone(), fs);
        }
    }
    let mut table_fields: HashMap<String, Vec<String>> = HashMap::new();
    for d in locals.iter() {
        if let DeclKind::Table(t) = &d.kind {
            let mut fs = Vec::new();
            for k in &t.keys {
                expr_fields(&k.expr, &mut fs);
            }
            for a in &t.actions {
                fs.extend(action_fields.get(&a.name).cloned().unwrap_or_default());
            }
            table_fields.insert(t.name.clone(), fs);
        }
    }
    let mut r = Ranges {
        pos: 0,
        ranges: BTreeMap::new(),
        table_fields: &table_fields,
    };
    r.block(apply);
    // Interference from liveness, then greedy colouring per width in order of first
    // occurrence.
    let mut tables: HashMap<String, TableUse> = HashMap::new();
    for d in locals.iter() {
        if let DeclKind::Table(t) = &d.kind {
            let mut tu = TableUse::default();
            for k in &t.keys {
                expr_fields(&k.expr, &mut tu.reads);
            }
            for a in &t.actions {
                let Some(body) = locals.iter().find_map(|d| match &d.kind {
                    DeclKind::Action { name, body, .. } if *name == a.name => Some(body),
                    _ => None,
                }) else {
                    continue;
                };
                for st in &body.stmts {
                    if let StmtKind::Assign { lhs, rhs } = &st.kind {
                        expr_fields(lhs, &mut tu.writes);
                        expr_fields(rhs, &mut tu.reads);
                    }
                }
            }
            tables.insert(t.name.clone(), tu);
        }
    }
    let mut inter = Interference {
        tables: &tables,
        edges: HashMap::new(),
    };
    inter.block(apply, HashSet::new());
    let ranges: Vec<(String, (usize, usize))> = r.ranges.into_iter().collect();
    let mut order: Vec<(usize, String)> =
        ranges.iter().map(|(n, (s, _))| (*s, n.clone())).collect();
    order.sort();
    // The textual live ranges are the better bound for the predicated form (a guard that may be
    // skipped keeps everything live in liveness terms); take whichever colouring is smaller.
    let mut by_range: HashMap<String, HashSet<String>> = HashMap::new();
    for (a, (s1, e1)) in &ranges {
        for (b, (s2, e2)) in &ranges {
            if a != b && s1 <= e2 && s2 <= e1 {
                by_range.entry(a.clone()).or_default().insert(b.clone());
            }
        }
    }
    let (map_a, slots_a) = colour(&order, &widths, &inter.edges);
    let (map_b, slots_b) = colour(&order, &widths, &by_range);
    let bits = |slots: &BTreeMap<u32, usize>| -> u64 {
        slots.iter().map(|(w, n)| u64::from(*w) * *n as u64).sum()
    };
    let (map, slots) = if bits(&slots_a) <= bits(&slots_b) {
        (map_a, slots_a)
    } else {
        (map_b, slots_b)
    };
    rename_block(apply, &map);
    for d in locals.iter_mut() {
        match &mut d.kind {
            DeclKind::Action { body, .. } => rename_block(body, &map),
            DeclKind::Table(t) => {
                for k in &mut t.keys {
                    rename_expr(&mut k.expr, &map);
                }
            }
            _ => {}
        }
    }
    // The struct: kept fields, then the slots.
    for d in &mut program.items {
        if let DeclKind::Struct { name, fields } = &mut d.kind {
            if name == "meta_t" {
                fields.retain(|f| !map.contains_key(&f.name));
                for (w, used) in &slots {
                    for k in 0..*used {
                        fields.push(tandem_p4_syntax::Field {
                            annotations: Vec::new(),
                            ty: Type::Bit(*w),
                            name: format!("tmp{w}_{k}"),
                        });
                    }
                }
                info.fields_after = fields.len();
                info.bits_after = fields
                    .iter()
                    .map(|f| match f.ty {
                        Type::Bit(w) => u64::from(w),
                        _ => 0,
                    })
                    .sum();
            }
        }
    }
    info
}
