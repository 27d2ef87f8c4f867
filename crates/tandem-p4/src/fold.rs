//! `fold_program`: pipeline folding for TNA (Sailfish §4.4). A one-pipe TNA program whose
//! ingress block `lower::fold` cut into gresses (with `__tandem_fold_boundary();` markers)
//! becomes a two-pipe program: ingress 0 (pipe 0) → egress 1 → loopback on
//! `TANDEM_FOLD_PORT` → ingress 1 → egress 0 (pipe 0, the real port).
//!
//! - each gress is its own control with the table, register, meter and counter objects it
//!   uses (an object used by two gresses is an error: it lives in one gress of one pipe);
//!   actions and hashes are copied where used; manifest names follow their object
//!   (`TandemEgress_p1.routes4_0`);
//! - the metadata fields live across boundary `k` (read in a later gress before any write
//!   there, and written before the boundary: a field never written holds the parser's zero
//!   on both sides) travel in header `hdr.bridgedK`, with a `tandem` bit (the transfer
//!   header is present: the next parser extracts it only then). The gress before the
//!   boundary fills it last, its deparser emits it first; the parser after it extracts it
//!   right after the intrinsic metadata and the gress copies it back into `meta`;
//! - ingress 0 sends every packet to `TANDEM_FOLD_PORT` (a pipe-1 port); ingress 1 sets the
//!   real port (front-panel ports and `TANDEM_SERVER_PORT` are in pipe 0, so the packet
//!   leaves through egress 0); egress 0 strips the bridged header (its deparser does not
//!   emit it).
//!
//! ```text
//! before:                                   after:
//! control TandemIngress(..) {               control TandemIngress(..) {           // pipe 0
//!   apply { pre piece 1;                      apply { ig_tm_md.ucast_egress_port = TANDEM_FOLD_PORT;
//!           __tandem_fold_boundary();                 pre piece 1;
//!           pre piece 2; ...; fate } }                hdr.bridged0.setValid(); hdr.bridged0.v7 = meta.v7; } }
//! Pipeline(TandemIngressParser(), ..) pipe; control TandemEgress_p1(..) {         // pipe 1
//! Switch(pipe) main;                          apply { meta.v7 = hdr.bridged0.v7; pre piece 2; ... } }
//!                                           Pipeline(..) pipe0; Pipeline(..) pipe1;
//!                                           Switch(pipe0, pipe1) main;
//! ```

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use tandem_p4_syntax::{
    Decl, DeclKind, Direction, Expr, ExprKind, Field, Param, Program, Stmt, StmtKind, Transition,
    Type,
};

use crate::build::*;
use crate::lower::{ctor, tna_deparser_params, tna_egress_params, FOLD_MARK, INGRESS, NF_GRESSES};
use crate::manifest::Manifest;
use crate::P4Error;

/// The default fold port: the first port of pipe 1 (`pipe = port >> 7`).
pub const FOLD_PORT: u16 = 128;

/// Controls of the folded program, in the packet's order: (name, pipe, is ingress).
pub const GRESSES: [(&str, usize, bool); 4] = [
    (INGRESS, 0, true),
    ("TandemEgress_p1", 1, false),
    ("TandemIngress_p1", 1, true),
    ("TandemEgress_p0", 0, false),
];

/// One boundary between consecutive gresses and what crosses it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bridge {
    /// `ingress0->egress1`, `egress1->ingress1`, `ingress1->egress0`.
    pub boundary: String,
    /// The header carrying it (`bridged0`).
    pub header: String,
    /// Metadata fields carried, with their widths.
    pub fields: Vec<(String, u32)>,
    /// Header bytes (fields, the `tandem` bit, padding to whole bytes).
    pub bytes: u32,
}

/// What folding did: where each object went and what each boundary carries.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FoldInfo {
    /// The gress control of each stateful object (tables, registers, meters, counters).
    pub objects: BTreeMap<String, String>,
    /// Tables in apply order per gress control.
    pub applies: Vec<(String, Vec<String>)>,
    /// The three boundaries.
    pub bridges: Vec<Bridge>,
}

fn gress_name(k: usize) -> &'static str {
    ["ingress0", "egress1", "ingress1", "egress0"][k]
}

/// Identifier tokens of printed P4 text.
fn tokens(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Printed statements (inside a throwaway control).
fn print_stmts(stmts: &[Stmt]) -> String {
    tandem_p4_syntax::print_program(&Program {
        items: vec![decl(DeclKind::Control {
            name: "x".into(),
            params: Vec::new(),
            locals: Vec::new(),
            apply: block(stmts.to_vec()),
        })],
    })
}

fn print_decl(d: &Decl) -> String {
    tandem_p4_syntax::print_program(&Program {
        items: vec![d.clone()],
    })
}

/// `meta.X` fields in printed text: (read, written) — a write is `meta.X =` (not `==`).
fn meta_refs(text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut reads, mut writes) = (BTreeSet::new(), BTreeSet::new());
    let mut rest = text;
    while let Some(i) = rest.find("meta.") {
        let before_ok = i == 0
            || !rest[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        let tail = &rest[i + 5..];
        let n = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        let field = &tail[..n];
        let after = tail[n..].trim_start();
        if before_ok && !field.is_empty() {
            if after.starts_with('=') && !after.starts_with("==") {
                writes.insert(field.to_string());
            } else {
                reads.insert(field.to_string());
            }
        }
        rest = &tail[n..];
    }
    (reads, writes)
}

/// Whether `d` is a stateful object (one gress may hold it).
fn stateful(d: &Decl) -> bool {
    match &d.kind {
        DeclKind::Table(_) => true,
        DeclKind::Instantiation { ty, .. } => {
            let t = tandem_p4_syntax::print_type(ty);
            [
                "Register",
                "Meter",
                "Counter",
                "DirectCounter",
                "DirectMeter",
                "RegisterAction",
            ]
            .iter()
            .any(|k| t.starts_with(k))
        }
        _ => false,
    }
}

fn decl_name(d: &Decl) -> Option<&str> {
    match &d.kind {
        DeclKind::Table(t) => Some(&t.name),
        DeclKind::Action { name, .. }
        | DeclKind::Instantiation { name, .. }
        | DeclKind::Variable { name, .. } => Some(name),
        _ => None,
    }
}

/// The locals a statement list needs (transitively, in declaration order).
fn needed(locals: &[Decl], texts: &[String], stmts: &[Stmt]) -> Vec<usize> {
    let mut want = tokens(&print_stmts(stmts));
    let mut take = vec![false; locals.len()];
    loop {
        let mut grew = false;
        for (i, d) in locals.iter().enumerate() {
            if !take[i] && decl_name(d).is_some_and(|n| want.contains(n)) {
                take[i] = true;
                want.extend(tokens(&texts[i]));
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    (0..locals.len()).filter(|&i| take[i]).collect()
}

/// Applies `f` to every expression in `stmts` (depth first, children before parents).
fn map_exprs(stmts: &mut [Stmt], f: &mut impl FnMut(&mut Expr)) {
    fn ex(e: &mut Expr, f: &mut impl FnMut(&mut Expr)) {
        match &mut e.kind {
            ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => ex(a, f),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                ex(a, f);
                ex(b, f);
            }
            ExprKind::Slice(a, b, c) | ExprKind::Ternary(a, b, c) => {
                ex(a, f);
                ex(b, f);
                ex(c, f);
            }
            ExprKind::Call { func, args, .. } => {
                ex(func, f);
                args.iter_mut().for_each(|a| ex(a, f));
            }
            ExprKind::List(xs) => xs.iter_mut().for_each(|a| ex(a, f)),
            _ => {}
        }
        f(e);
    }
    for s in stmts {
        match &mut s.kind {
            StmtKind::Assign { lhs, rhs } => {
                ex(lhs, f);
                ex(rhs, f);
            }
            StmtKind::Call(e) | StmtKind::Return(Some(e)) => ex(e, f),
            StmtKind::If { cond, then, els } => {
                ex(cond, f);
                map_exprs(&mut then.stmts, f);
                if let Some(b) = els {
                    map_exprs(&mut b.stmts, f);
                }
            }
            StmtKind::Switch { expr, cases } => {
                ex(expr, f);
                for c in cases {
                    if let Some(b) = &mut c.body {
                        map_exprs(&mut b.stmts, f);
                    }
                }
            }
            StmtKind::Block(b) => map_exprs(&mut b.stmts, f),
            _ => {}
        }
    }
}

/// Rewrites ingress intrinsic metadata an egress gress may read into its egress
/// counterpart; any other ingress intrinsic field there is an error.
fn to_egress(stmts: &mut [Stmt], gress: &str) -> Result<(), P4Error> {
    map_exprs(stmts, &mut |e| {
        let new = match tandem_p4_syntax::print_expr(e).as_str() {
            "ig_prsr_md.global_tstamp" => Some("eg_prsr_md.global_tstamp"),
            "ig_dprsr_md.drop_ctl" => Some("eg_dprsr_md.drop_ctl"),
            _ => None,
        };
        if let Some(n) = new {
            *e = path(n);
        }
    });
    let mut bad = None;
    map_exprs(stmts, &mut |e| {
        if let ExprKind::Name(n) = &e.kind {
            if n.starts_with("ig_") && bad.is_none() {
                bad = Some(n.clone());
            }
        }
    });
    match bad {
        Some(n) => Err(P4Error::Unsupported {
            statement: format!("pipeline folding, {gress}"),
            reason: format!(
                "a statement cut into an egress gress uses ingress intrinsic metadata `{n}` \
                 (the egress port is set in ingress only)"
            ),
        }),
        None => Ok(()),
    }
}

/// An `exit` not right after a drop would skip the bridged header: refused.
fn check_exits(stmts: &[Stmt]) -> Result<(), P4Error> {
    for (i, s) in stmts.iter().enumerate() {
        match &s.kind {
            StmtKind::Exit => {
                let after_drop = i > 0
                    && matches!(&stmts[i - 1].kind, StmtKind::Assign { lhs, .. }
                        if tandem_p4_syntax::print_expr(lhs) == "ig_dprsr_md.drop_ctl");
                if !after_drop {
                    return Err(P4Error::Unsupported {
                        statement: "pipeline folding".into(),
                        reason: "an `exit` that does not drop the packet (a partial map's \
                                 miss sent to the server whole): use --partial-probe with \
                                 a folded profile"
                            .into(),
                    });
                }
            }
            StmtKind::If { then, els, .. } => {
                check_exits(&then.stmts)?;
                if let Some(b) = els {
                    check_exits(&b.stmts)?;
                }
            }
            StmtKind::Block(b) => check_exits(&b.stmts)?,
            StmtKind::Switch { cases, .. } => {
                for c in cases {
                    if let Some(b) = &c.body {
                        check_exits(&b.stmts)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Tables applied in `stmts`, in order.
pub fn applied_tables(stmts: &[Stmt]) -> Vec<String> {
    let text = print_stmts(stmts);
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(i) = rest.find(".apply()") {
            let head = &rest[..i];
            let start = head
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |j| j + 1);
            if !head[start..].is_empty() {
                out.push(head[start..].to_string());
            }
            rest = &rest[i + 8..];
        }
    }
    out
}

/// Splits the ingress block at its markers into the NF gresses (egress 0 empty).
fn split_at_marks(stmts: Vec<Stmt>) -> Vec<Vec<Stmt>> {
    let mut out = vec![Vec::new()];
    for s in stmts {
        let mark = matches!(&s.kind, StmtKind::Call(e)
            if matches!(&e.kind, ExprKind::Call { func, .. }
                if matches!(&func.kind, ExprKind::Name(n) if n == FOLD_MARK)));
        if mark {
            out.push(Vec::new());
        } else if let Some(last) = out.last_mut() {
            last.push(s);
        }
    }
    out
}

/// Per gress: fields it may read before writing them (`use`), fields it writes on every
/// path at top level (`def`), and every field it may write.
fn gress_liveness(
    body: &[Stmt],
    locals: &[Decl],
    texts: &[String],
) -> (BTreeSet<String>, BTreeSet<String>, BTreeSet<String>) {
    let (mut used, mut def, mut written) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for s in body {
        let one = std::slice::from_ref(s);
        let mut text = print_stmts(one);
        for i in needed(locals, texts, one) {
            text.push_str(&texts[i]);
        }
        let (r, w) = meta_refs(&text);
        used.extend(r.into_iter().filter(|f| !def.contains(f)));
        written.extend(w);
        if let StmtKind::Assign { lhs, .. } = &s.kind {
            if let Some(f) = tandem_p4_syntax::print_expr(lhs).strip_prefix("meta.") {
                def.insert(f.to_string());
            }
        }
    }
    (used, def, written)
}

/// The fields crossing each boundary: live after it and written before it.
fn bridged_fields(
    bodies: &[Vec<Stmt>],
    locals: &[Decl],
    texts: &[String],
) -> Vec<BTreeSet<String>> {
    let l: Vec<_> = bodies
        .iter()
        .map(|b| gress_liveness(b, locals, texts))
        .collect();
    let n = bodies.len();
    let mut live = vec![BTreeSet::new(); n];
    // live[k]: live on entry to gress k.
    for k in (1..n).rev() {
        let after = live.get(k + 1).cloned().unwrap_or_default();
        let (u, d, _) = &l[k];
        let mut s: BTreeSet<String> = after.difference(d).cloned().collect();
        s.extend(u.iter().cloned());
        live[k] = s;
    }
    (0..n - 1)
        .map(|k| {
            let before: BTreeSet<String> =
                l[..=k].iter().flat_map(|x| x.2.iter().cloned()).collect();
            live[k + 1].intersection(&before).cloned().collect()
        })
        .collect()
}

fn take_item(items: &mut Vec<Decl>, pred: impl Fn(&Decl) -> bool) -> Option<Decl> {
    let i = items.iter().position(pred)?;
    Some(items.remove(i))
}

fn named(d: &Decl, n: &str) -> bool {
    match &d.kind {
        DeclKind::Parser { name, .. }
        | DeclKind::Control { name, .. }
        | DeclKind::Struct { name, .. }
        | DeclKind::Instantiation { name, .. } => name == n,
        _ => false,
    }
}

fn bad(reason: String) -> P4Error {
    P4Error::Unsupported {
        statement: "pipeline folding".into(),
        reason,
    }
}

/// The gress control of each object a single gress uses; a table, register, meter or
/// counter that two gresses use is an error.
fn place_objects(
    locals: &[Decl],
    need: &[Vec<usize>],
) -> Result<BTreeMap<String, String>, P4Error> {
    let mut objects = BTreeMap::new();
    for (i, d) in locals.iter().enumerate() {
        let users: Vec<usize> = (0..need.len()).filter(|&g| need[g].contains(&i)).collect();
        let Some(n) = decl_name(d) else { continue };
        if stateful(d) && users.len() > 1 {
            return Err(bad(format!(
                "`{n}` is used in {} and {}: a table or register lives in one gress",
                gress_name(users[0]),
                gress_name(users[1])
            )));
        }
        if let Some(&g) = users.first().filter(|_| users.len() == 1) {
            objects.insert(n.to_string(), GRESSES[g].0.to_string());
        }
    }
    Ok(objects)
}

/// The boundaries' bridges: the live fields ([`bridged_fields`]) with their `meta_t`
/// widths, whole-byte fields first (each starts on a byte boundary).
fn make_bridges(
    items: &[Decl],
    bodies: &[Vec<Stmt>],
    locals: &[Decl],
    texts: &[String],
) -> Result<Vec<Bridge>, P4Error> {
    let widths: HashMap<String, u32> = items
        .iter()
        .find_map(|d| match &d.kind {
            DeclKind::Struct { name, fields } if name == "meta_t" => Some(
                fields
                    .iter()
                    .filter_map(|f| match f.ty {
                        Type::Bit(w) => Some((f.name.clone(), w)),
                        _ => None,
                    })
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_default();
    let mut out = Vec::new();
    for (k, set) in bridged_fields(bodies, locals, texts)
        .into_iter()
        .enumerate()
    {
        let mut fields: Vec<(String, u32)> = set
            .into_iter()
            .map(|f| {
                let w = widths.get(&f).copied().unwrap_or(0);
                (f, w)
            })
            .collect();
        fields.sort_by_key(|(_, w)| !w.is_multiple_of(8));
        if let Some((f, _)) = fields.iter().find(|(_, w)| *w == 0) {
            return Err(bad(format!(
                "metadata field `{f}` is not a bit<N> field of meta_t"
            )));
        }
        let bits: u32 = 1 + fields.iter().map(|(_, w)| w).sum::<u32>();
        out.push(Bridge {
            boundary: format!("{}->{}", gress_name(k), gress_name(k + 1)),
            header: format!("bridged{k}"),
            fields,
            bytes: bits.div_ceil(8),
        });
    }
    Ok(out)
}

/// Folds a TNA program whose ingress block holds the gress markers (see the module doc);
/// the manifest's object names follow their gress, and it gets `fold_port` and the bridges.
pub fn fold_program(
    program: &mut Program,
    manifest: &mut Manifest,
    fold_port: u16,
) -> Result<FoldInfo, P4Error> {
    if fold_port >> 7 != 1 {
        return Err(bad(format!(
            "the fold port {fold_port} is not a pipe-1 port (128..255)"
        )));
    }
    let items = &mut program.items;
    let Some(Decl {
        kind:
            DeclKind::Control {
                params: ig_params,
                locals,
                apply,
                ..
            },
        ..
    }) = take_item(items, |d| named(d, INGRESS))
    else {
        return Err(bad(format!("no control {INGRESS}")));
    };
    let mut bodies = split_at_marks(apply.stmts);
    if bodies.len() != NF_GRESSES {
        return Err(bad(format!(
            "{} gress markers, expected {}",
            bodies.len() - 1,
            NF_GRESSES - 1
        )));
    }
    bodies.push(Vec::new());
    for b in &bodies {
        check_exits(b)?;
    }
    let texts: Vec<String> = locals.iter().map(print_decl).collect();
    let need: Vec<Vec<usize>> = bodies.iter().map(|b| needed(&locals, &texts, b)).collect();
    let mut info = FoldInfo {
        objects: place_objects(&locals, &need)?,
        ..FoldInfo::default()
    };
    let with_tandem = items.iter().any(|d| {
        matches!(&d.kind, DeclKind::Struct { name, fields }
            if name == "headers_t" && fields.iter().any(|f| f.name == "tandem"))
    });
    info.bridges = make_bridges(items, &bodies, &locals, &texts)?;
    for (g, b) in bodies.iter().enumerate() {
        info.applies
            .push((GRESSES[g].0.to_string(), applied_tables(b)));
    }
    build_shell(
        items,
        &ig_params,
        &locals,
        &need,
        bodies,
        &info.bridges,
        with_tandem,
    )?;
    program.items.insert(
        program
            .items
            .iter()
            .position(
                |d| matches!(&d.kind, DeclKind::Const { name, .. } if name == "TANDEM_SERVER_PORT"),
            )
            .map_or(0, |i| i + 1),
        decl(DeclKind::Const {
            ty: Type::Bit(9),
            name: "TANDEM_FOLD_PORT".into(),
            value: lit(u64::from(fold_port), 9),
        }),
    );
    rename_manifest(manifest, &info.objects, &locals)?;
    manifest.fold_port = Some(fold_port);
    manifest.fold_bridges = info.bridges.clone();
    Ok(info)
}

/// Manifest names `TandemIngress.X` of objects moved to another gress (and of the actions
/// only their tables use) become `<gress control>.X`.
fn rename_manifest(
    manifest: &mut Manifest,
    objects: &BTreeMap<String, String>,
    locals: &[Decl],
) -> Result<(), P4Error> {
    let mut map: HashMap<String, String> = HashMap::new();
    for (n, c) in objects {
        if c != INGRESS {
            map.insert(format!("{INGRESS}.{n}"), format!("{c}.{n}"));
        }
    }
    // Actions: the gress of the tables listing them, when all are in one gress.
    for d in locals {
        if let DeclKind::Table(t) = &d.kind {
            let Some(c) = objects.get(&t.name).filter(|c| *c != INGRESS) else {
                continue;
            };
            for a in &t.actions {
                let q = format!("{INGRESS}.{}", a.name);
                map.entry(q).or_insert_with(|| format!("{c}.{}", a.name));
            }
        }
    }
    let mut v = serde_json::to_value(&*manifest).map_err(|e| bad(e.to_string()))?;
    fn walk(v: &mut serde_json::Value, map: &HashMap<String, String>) {
        match v {
            serde_json::Value::String(s) => {
                if let Some(n) = map.get(s.as_str()) {
                    *s = n.clone();
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(|x| walk(x, map)),
            serde_json::Value::Object(o) => o.values_mut().for_each(|x| walk(x, map)),
            _ => {}
        }
    }
    walk(&mut v, &map);
    *manifest = serde_json::from_value(v).map_err(|e| bad(e.to_string()))?;
    Ok(())
}

/// `hdr.bridgedK`.
fn bridged(k: usize) -> Expr {
    member(name("hdr"), &format!("bridged{k}"))
}

/// The statements that fill boundary `b`'s header (last in the gress before it).
fn bridge_out(b: &Bridge, k: usize, with_tandem: bool) -> Vec<Stmt> {
    let mut out = vec![call_stmt(method(bridged(k), "setValid", vec![]))];
    out.push(assign(
        member(bridged(k), "tandem"),
        if with_tandem {
            ternary(
                method(member(name("hdr"), "tandem"), "isValid", vec![]),
                lit(1, 1),
                lit(0, 1),
            )
        } else {
            lit(0, 1)
        },
    ));
    for (f, _) in &b.fields {
        out.push(assign(member(bridged(k), f), member(name("meta"), f)));
    }
    out
}

/// A parser after boundary `k` from the ingress parser: the intrinsic metadata (and port
/// metadata in ingress), then `hdr.bridgedK`, then the ingress parser's states with the
/// server-port test replaced by the bridged `tandem` bit.
fn derived_parser(base: &Decl, name_: &str, k: usize, ingress: bool) -> Result<Decl, P4Error> {
    let DeclKind::Parser {
        params: ps,
        locals,
        states,
        ..
    } = &base.kind
    else {
        return Err(bad("the ingress parser is not a parser".into()));
    };
    let mut states = states.clone();
    let Some(start) = states.iter_mut().find(|s| s.name == "start") else {
        return Err(bad("the ingress parser has no start state".into()));
    };
    let intrinsic = if ingress { "ig_intr_md" } else { "eg_intr_md" };
    let mut body = vec![call_stmt(method(
        name("packet"),
        "extract",
        vec![name(intrinsic)],
    ))];
    if ingress {
        body.push(call_stmt(method(
            name("packet"),
            "advance",
            vec![name("PORT_METADATA_SIZE")],
        )));
    }
    body.push(call_stmt(method(
        name("packet"),
        "extract",
        vec![bridged(k)],
    )));
    body.extend(start.body.drain(..).filter(|s| {
        let t = print_stmts(std::slice::from_ref(s));
        !t.contains("ig_intr_md") && !t.contains("PORT_METADATA_SIZE")
    }));
    start.body = body;
    for s in states.iter_mut() {
        if let Transition::Select { exprs, cases } = &mut s.transition {
            let mut hit = false;
            for e in exprs.iter_mut() {
                if tandem_p4_syntax::print_expr(e) == "ig_intr_md.ingress_port" {
                    *e = member(bridged(k), "tandem");
                    hit = true;
                }
            }
            if hit {
                for c in cases.iter_mut() {
                    for key in c.keys.iter_mut() {
                        if tandem_p4_syntax::print_expr(key) == "TANDEM_SERVER_PORT" {
                            *key = lit(1, 1);
                        }
                    }
                }
            }
        }
    }
    let mut params = ps.clone();
    if !ingress {
        params = crate::build::params(&[
            (Direction::None, "packet_in", "packet"),
            (Direction::Out, "headers_t", "hdr"),
            (Direction::Out, "meta_t", "meta"),
            (Direction::Out, "egress_intrinsic_metadata_t", "eg_intr_md"),
        ]);
    }
    Ok(decl(DeclKind::Parser {
        name: name_.into(),
        params,
        locals: locals.clone(),
        states,
    }))
}

/// A deparser emitting `emit_bridged` (if any) before the packet's headers `emits`.
fn deparser(name_: &str, ingress: bool, emit_bridged: Option<usize>, emits: &[Stmt]) -> Decl {
    let mut body: Vec<Stmt> = emit_bridged
        .map(|k| call_stmt(method(name("packet"), "emit", vec![bridged(k)])))
        .into_iter()
        .collect();
    body.extend(emits.iter().cloned());
    decl(DeclKind::Control {
        name: name_.into(),
        params: tna_deparser_params("headers_t", "meta_t", ingress),
        locals: Vec::new(),
        apply: block(body),
    })
}

/// The bridged header types, before `headers_t`, and their fields in it.
fn add_bridged_headers(items: &mut Vec<Decl>, bridges: &[Bridge]) -> Result<(), P4Error> {
    let hpos = items
        .iter()
        .position(|d| named(d, "headers_t"))
        .ok_or_else(|| bad("no headers_t".into()))?;
    for (k, b) in bridges.iter().enumerate().rev() {
        // The whole-byte fields first (`fold_program` sorts them), so each starts on a byte.
        let mut fields: Vec<Field> = b
            .fields
            .iter()
            .map(|(f, w)| field(Type::Bit(*w), f))
            .collect();
        fields.push(field(Type::Bit(1), "tandem"));
        let bits: u32 = 1 + b.fields.iter().map(|(_, w)| w).sum::<u32>();
        if !bits.is_multiple_of(8) {
            fields.push(field(Type::Bit(8 - bits % 8), "pad"));
        }
        items.insert(
            hpos,
            decl(DeclKind::Header {
                name: format!("tandem_bridged{k}_h"),
                fields,
            }),
        );
    }
    if let Some(DeclKind::Struct { fields, .. }) = items
        .iter_mut()
        .find(|d| named(d, "headers_t"))
        .map(|d| &mut d.kind)
    {
        for k in 0..bridges.len() {
            fields.push(Field {
                annotations: Vec::new(),
                ty: named_ty(&format!("tandem_bridged{k}_h")),
                name: format!("bridged{k}"),
            });
        }
    }
    Ok(())
}

/// The four gress controls: each with the locals it uses, its bridged header copied into
/// `meta` first and the next one filled last; ingress 0 sends every packet to the fold port.
fn gress_controls(
    ig_params: &[Param],
    locals: &[Decl],
    need: &[Vec<usize>],
    bodies: Vec<Vec<Stmt>>,
    bridges: &[Bridge],
    with_tandem: bool,
) -> Result<Vec<Decl>, P4Error> {
    let mut controls = Vec::new();
    for (g, mut body) in bodies.into_iter().enumerate() {
        let (cname, _, ingress) = GRESSES[g];
        let mut apply = Vec::new();
        if g == 0 {
            apply.push(assign(
                path("ig_tm_md.ucast_egress_port"),
                name("TANDEM_FOLD_PORT"),
            ));
        } else {
            apply.extend(
                bridges[g - 1]
                    .fields
                    .iter()
                    .map(|(f, _)| assign(member(name("meta"), f), member(bridged(g - 1), f))),
            );
        }
        if !ingress {
            to_egress(&mut body, gress_name(g))?;
        }
        apply.extend(body);
        if let Some(b) = bridges.get(g) {
            apply.extend(bridge_out(b, g, with_tandem));
        }
        let mut own: Vec<Decl> = need[g].iter().map(|&i| locals[i].clone()).collect();
        if !ingress {
            for d in own.iter_mut() {
                if let DeclKind::Action { body, .. } = &mut d.kind {
                    to_egress(&mut body.stmts, gress_name(g))?;
                }
            }
        }
        controls.push(decl(DeclKind::Control {
            name: cname.into(),
            params: if ingress {
                ig_params.to_vec()
            } else {
                tna_egress_params("headers_t", "meta_t")
            },
            locals: own,
            apply: block(apply),
        }));
    }
    Ok(controls)
}

/// Replaces the one-pipe shell in `items` with the four gresses of the two pipes.
fn build_shell(
    items: &mut Vec<Decl>,
    ig_params: &[Param],
    locals: &[Decl],
    need: &[Vec<usize>],
    bodies: Vec<Vec<Stmt>>,
    bridges: &[Bridge],
    with_tandem: bool,
) -> Result<(), P4Error> {
    for n in [
        "eg_headers_t",
        "eg_meta_t",
        "TandemEgressParser",
        "TandemEgress",
        "TandemEgressDeparser",
        "pipe",
        "main",
    ] {
        take_item(items, |d| named(d, n));
    }
    let Some(ig_parser) = items
        .iter()
        .find(|d| named(d, "TandemIngressParser"))
        .cloned()
    else {
        return Err(bad("no TandemIngressParser".into()));
    };
    let Some(DeclKind::Control { apply: dep, .. }) =
        take_item(items, |d| named(d, "TandemIngressDeparser")).map(|d| d.kind)
    else {
        return Err(bad("no TandemIngressDeparser".into()));
    };
    add_bridged_headers(items, bridges)?;
    let controls = gress_controls(ig_params, locals, need, bodies, bridges, with_tandem)?;
    let mut c = controls.into_iter();
    let (ig0, eg1, ig1, eg0) = match (c.next(), c.next(), c.next(), c.next()) {
        (Some(a), Some(b), Some(x), Some(y)) => (a, b, x, y),
        _ => return Err(bad("four gresses expected".into())),
    };
    let emits = dep.stmts;
    let pos = items
        .iter()
        .position(|d| named(d, "TandemIngressParser"))
        .map_or(items.len(), |i| i + 1);
    let shell = vec![
        ig0,
        deparser("TandemIngressDeparser", true, Some(0), &emits),
        derived_parser(&ig_parser, "TandemEgressParser_p1", 0, false)?,
        eg1,
        deparser("TandemEgressDeparser_p1", false, Some(1), &emits),
        derived_parser(&ig_parser, "TandemIngressParser_p1", 1, true)?,
        ig1,
        deparser("TandemIngressDeparser_p1", true, Some(2), &emits),
        derived_parser(&ig_parser, "TandemEgressParser_p0", 2, false)?,
        eg0,
        deparser("TandemEgressDeparser_p0", false, None, &emits),
        pipeline(
            "pipe0",
            [
                "TandemIngressParser",
                INGRESS,
                "TandemIngressDeparser",
                "TandemEgressParser_p0",
                "TandemEgress_p0",
                "TandemEgressDeparser_p0",
            ],
        ),
        pipeline(
            "pipe1",
            [
                "TandemIngressParser_p1",
                "TandemIngress_p1",
                "TandemIngressDeparser_p1",
                "TandemEgressParser_p1",
                "TandemEgress_p1",
                "TandemEgressDeparser_p1",
            ],
        ),
        decl(DeclKind::Instantiation {
            ty: named_ty("Switch"),
            args: vec![name("pipe0"), name("pipe1")],
            name: "main".into(),
        }),
    ];
    let tail = items.split_off(pos);
    items.extend(shell);
    items.extend(tail);
    Ok(())
}

fn pipeline(n: &str, blocks: [&str; 6]) -> Decl {
    decl(DeclKind::Instantiation {
        ty: named_ty("Pipeline"),
        args: blocks.iter().map(|b| ctor(b)).collect(),
        name: n.into(),
    })
}
