//! Canonical P4-16 printer. Output is valid input for [`crate::parse_program`], and
//! printing is a fixed point: `print(parse(print(p))) == print(p)`.

use crate::ast::*;
use std::fmt::Write;

/// Prints a whole program.
pub fn print_program(p: &Program) -> String {
    let mut w = Printer::default();
    for (i, d) in p.items.iter().enumerate() {
        if i > 0 && !matches!(d.kind, DeclKind::Preprocessor(_)) {
            w.out.push('\n');
        }
        w.decl(d);
    }
    w.out
}

/// Prints one expression.
pub fn print_expr(e: &Expr) -> String {
    let mut s = String::new();
    expr(&mut s, e);
    s
}

/// Prints one type.
pub fn print_type(t: &Type) -> String {
    let mut s = String::new();
    ty(&mut s, t);
    s
}

#[derive(Default)]
struct Printer {
    out: String,
    indent: usize,
}

impl Printer {
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn annotations(a: &[Annotation]) -> String {
        let mut s = String::new();
        for an in a {
            s.push('@');
            s.push_str(&an.name);
            if let Some(b) = &an.body {
                let _ = write!(s, "({b})");
            }
            s.push(' ');
        }
        s
    }

    fn fields(&mut self, kw: &str, name: &str, fields: &[Field], ann: &str) {
        self.line(&format!("{ann}{kw} {name} {{"));
        self.indent += 1;
        for f in fields {
            self.line(&format!(
                "{}{} {};",
                Self::annotations(&f.annotations),
                print_type(&f.ty),
                f.name
            ));
        }
        self.indent -= 1;
        self.line("}");
    }

    fn decl(&mut self, d: &Decl) {
        let ann = Self::annotations(&d.annotations);
        match &d.kind {
            DeclKind::Preprocessor(s) => self.line(s),
            DeclKind::Header { name, fields } => self.fields("header", name, fields, &ann),
            DeclKind::HeaderUnion { name, fields } => {
                self.fields("header_union", name, fields, &ann)
            }
            DeclKind::Struct { name, fields } => self.fields("struct", name, fields, &ann),
            DeclKind::Typedef {
                ty: t,
                name,
                is_type,
            } => self.line(&format!(
                "{ann}{} {} {name};",
                if *is_type { "type" } else { "typedef" },
                print_type(t)
            )),
            DeclKind::Const { ty: t, name, value } => self.line(&format!(
                "{ann}const {} {name} = {};",
                print_type(t),
                print_expr(value)
            )),
            DeclKind::Enum {
                name,
                underlying,
                members,
            } => {
                let u = underlying
                    .as_ref()
                    .map(|t| format!("{} ", print_type(t)))
                    .unwrap_or_default();
                self.line(&format!("{ann}enum {u}{name} {{"));
                self.indent += 1;
                let n = members.len();
                for (i, (m, v)) in members.iter().enumerate() {
                    let comma = if i + 1 < n { "," } else { "" };
                    match v {
                        Some(v) => self.line(&format!("{m} = {}{comma}", print_expr(v))),
                        None => self.line(&format!("{m}{comma}")),
                    }
                }
                self.indent -= 1;
                self.line("}");
            }
            DeclKind::Error(names) => self.line(&format!("{ann}error {{ {} }}", names.join(", "))),
            DeclKind::MatchKind(names) => {
                self.line(&format!("{ann}match_kind {{ {} }}", names.join(", ")))
            }
            DeclKind::Parser {
                name,
                params,
                locals,
                states,
            } => {
                self.line(&format!("{ann}parser {name}({}) {{", print_params(params)));
                self.indent += 1;
                for l in locals {
                    self.decl(l);
                }
                for s in states {
                    self.line(&format!("state {} {{", s.name));
                    self.indent += 1;
                    for st in &s.body {
                        self.stmt(st);
                    }
                    match &s.transition {
                        Transition::Goto(n) => self.line(&format!("transition {n};")),
                        Transition::Select { exprs, cases } => {
                            let es: Vec<String> = exprs.iter().map(print_expr).collect();
                            self.line(&format!("transition select({}) {{", es.join(", ")));
                            self.indent += 1;
                            for c in cases {
                                self.line(&format!("{}: {};", keyset(&c.keys), c.next));
                            }
                            self.indent -= 1;
                            self.line("}");
                        }
                    }
                    self.indent -= 1;
                    self.line("}");
                }
                self.indent -= 1;
                self.line("}");
            }
            DeclKind::Control {
                name,
                params,
                locals,
                apply,
            } => {
                self.line(&format!("{ann}control {name}({}) {{", print_params(params)));
                self.indent += 1;
                for l in locals {
                    self.decl(l);
                }
                self.line("apply {");
                self.block_body(apply);
                self.line("}");
                self.indent -= 1;
                self.line("}");
            }
            DeclKind::Action { name, params, body } => {
                self.line(&format!("{ann}action {name}({}) {{", print_params(params)));
                self.block_body(body);
                self.line("}");
            }
            DeclKind::Table(t) => {
                self.line(&format!("{ann}table {} {{", t.name));
                self.indent += 1;
                if !t.keys.is_empty() {
                    self.line("key = {");
                    self.indent += 1;
                    for k in &t.keys {
                        let a = Self::annotations(&k.annotations);
                        let a = if a.is_empty() {
                            a
                        } else {
                            format!(" {}", a.trim_end())
                        };
                        self.line(&format!("{}: {}{a};", print_expr(&k.expr), k.match_kind));
                    }
                    self.indent -= 1;
                    self.line("}");
                }
                self.line("actions = {");
                self.indent += 1;
                for a in &t.actions {
                    self.line(&format!("{};", action_ref(a)));
                }
                self.indent -= 1;
                self.line("}");
                if let Some((a, c)) = &t.default_action {
                    let c = if *c { "const " } else { "" };
                    self.line(&format!("{c}default_action = {};", action_ref(a)));
                }
                if let Some(s) = &t.size {
                    self.line(&format!("size = {};", print_expr(s)));
                }
                for (k, v) in &t.other {
                    self.line(&format!("{k} = {};", print_expr(v)));
                }
                if !t.entries.is_empty() {
                    let c = if t.const_entries { "const " } else { "" };
                    self.line(&format!("{c}entries = {{"));
                    self.indent += 1;
                    for e in &t.entries {
                        let p = e
                            .priority
                            .as_ref()
                            .map(|p| format!("priority = {}: ", print_expr(p)))
                            .unwrap_or_default();
                        let ks = keyset(&e.keys);
                        self.line(&format!("{p}{ks}: {};", action_ref(&e.action)));
                    }
                    self.indent -= 1;
                    self.line("}");
                }
                self.indent -= 1;
                self.line("}");
            }
            DeclKind::Variable { ty: t, name, init } => match init {
                Some(i) => self.line(&format!(
                    "{ann}{} {name} = {};",
                    print_type(t),
                    print_expr(i)
                )),
                None => self.line(&format!("{ann}{} {name};", print_type(t))),
            },
            DeclKind::Instantiation { ty: t, args, name } => {
                let a: Vec<String> = args.iter().map(print_expr).collect();
                self.line(&format!("{ann}{}({}) {name};", print_type(t), a.join(", ")))
            }
            DeclKind::Extern { text, .. } => self.line(&format!("{ann}{text}")),
        }
    }

    fn block_body(&mut self, b: &Block) {
        self.indent += 1;
        for s in &b.stmts {
            self.stmt(s);
        }
        self.indent -= 1;
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Empty => self.line(";"),
            StmtKind::Assign { lhs, rhs } => {
                self.line(&format!("{} = {};", print_expr(lhs), print_expr(rhs)))
            }
            StmtKind::Call(e) => self.line(&format!("{};", print_expr(e))),
            StmtKind::If { cond, then, els } => {
                self.line(&format!("if ({}) {{", print_expr(cond)));
                self.block_body(then);
                match els {
                    Some(e) => {
                        self.line("} else {");
                        self.block_body(e);
                        self.line("}");
                    }
                    None => self.line("}"),
                }
            }
            StmtKind::Switch { expr: e, cases } => {
                self.line(&format!("switch ({}) {{", print_expr(e)));
                self.indent += 1;
                for c in cases {
                    let l = c.label.as_deref().unwrap_or("default");
                    match &c.body {
                        Some(b) => {
                            self.line(&format!("{l}: {{"));
                            self.block_body(b);
                            self.line("}");
                        }
                        None => self.line(&format!("{l}:")),
                    }
                }
                self.indent -= 1;
                self.line("}");
            }
            StmtKind::Block(b) => {
                self.line("{");
                self.block_body(b);
                self.line("}");
            }
            StmtKind::Decl(d) => self.decl(d),
            StmtKind::Return(e) => match e {
                Some(e) => self.line(&format!("return {};", print_expr(e))),
                None => self.line("return;"),
            },
            StmtKind::Exit => self.line("exit;"),
        }
    }
}

fn keyset(keys: &[Expr]) -> String {
    if keys.len() == 1 {
        let k = print_expr(&keys[0]);
        // A single key that starts with `(` would read back as a tuple keyset.
        return if k.starts_with('(') {
            format!("({k})")
        } else {
            k
        };
    }
    let k: Vec<String> = keys.iter().map(print_expr).collect();
    format!("({})", k.join(", "))
}

fn action_ref(a: &ActionRef) -> String {
    match &a.args {
        Some(args) => {
            let v: Vec<String> = args.iter().map(print_expr).collect();
            format!("{}({})", a.name, v.join(", "))
        }
        None => a.name.clone(),
    }
}

fn print_params(ps: &[Param]) -> String {
    let v: Vec<String> = ps
        .iter()
        .map(|p| {
            let d = match p.direction {
                Direction::None => "",
                Direction::In => "in ",
                Direction::Out => "out ",
                Direction::InOut => "inout ",
            };
            format!("{d}{} {}", print_type(&p.ty), p.name)
        })
        .collect();
    v.join(", ")
}

fn ty(s: &mut String, t: &Type) {
    match t {
        Type::Bool => s.push_str("bool"),
        Type::Bit(w) => {
            let _ = write!(s, "bit<{w}>");
        }
        Type::Int(w) => {
            let _ = write!(s, "int<{w}>");
        }
        Type::Varbit(w) => {
            let _ = write!(s, "varbit<{w}>");
        }
        Type::InfInt => s.push_str("int"),
        Type::Void => s.push_str("void"),
        Type::Error => s.push_str("error"),
        Type::DontCare => s.push('_'),
        Type::Named { name, args } => {
            s.push_str(name);
            if !args.is_empty() {
                s.push('<');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    ty(s, a);
                }
                // A space keeps `>>` from forming when type arguments nest.
                s.push_str(" >");
            }
        }
        Type::Stack(t, n) => {
            ty(s, t);
            let _ = write!(s, "[{n}]");
        }
    }
}

fn needs_parens(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Binary(..) | ExprKind::Ternary(..) | ExprKind::Cast(..) | ExprKind::Unary(..)
    )
}

fn sub(s: &mut String, e: &Expr) {
    if needs_parens(e) {
        s.push('(');
        expr(s, e);
        s.push(')');
    } else {
        expr(s, e);
    }
}

fn expr(s: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        ExprKind::Int {
            value,
            width,
            signed,
        } => {
            if let Some(w) = width {
                let _ = write!(s, "{w}{}", if *signed { 's' } else { 'w' });
            }
            if *value >= 256 {
                let _ = write!(s, "0x{value:x}");
            } else {
                let _ = write!(s, "{value}");
            }
        }
        ExprKind::Str(v) => {
            let _ = write!(s, "\"{v}\"");
        }
        ExprKind::Name(n) => s.push_str(n),
        ExprKind::DotName(n) => {
            s.push('.');
            s.push_str(n);
        }
        ExprKind::Member(b, m) => {
            sub(s, b);
            s.push('.');
            s.push_str(m);
        }
        ExprKind::Index(b, i) => {
            sub(s, b);
            s.push('[');
            expr(s, i);
            s.push(']');
        }
        ExprKind::Slice(b, h, l) => {
            sub(s, b);
            s.push('[');
            expr(s, h);
            s.push(':');
            expr(s, l);
            s.push(']');
        }
        ExprKind::Unary(op, a) => {
            s.push_str(match op {
                UnOp::Not => "!",
                UnOp::BitNot => "~",
                UnOp::Neg => "-",
            });
            sub(s, a);
        }
        ExprKind::Binary(op, a, b) => {
            sub(s, a);
            let _ = write!(s, " {} ", op.symbol());
            sub(s, b);
        }
        ExprKind::Ternary(c, a, b) => {
            sub(s, c);
            s.push_str(" ? ");
            sub(s, a);
            s.push_str(" : ");
            sub(s, b);
        }
        ExprKind::Cast(t, a) => {
            s.push('(');
            ty(s, t);
            s.push_str(") ");
            sub(s, a);
        }
        ExprKind::Call {
            func,
            type_args,
            args,
        } => {
            sub(s, func);
            if !type_args.is_empty() {
                s.push('<');
                for (i, a) in type_args.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    ty(s, a);
                }
                s.push_str(" >");
            }
            s.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                expr(s, a);
            }
            s.push(')');
        }
        ExprKind::List(v) => {
            s.push('{');
            for (i, a) in v.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                expr(s, a);
            }
            s.push('}');
        }
        ExprKind::Default => s.push_str("default"),
        ExprKind::DontCare => s.push('_'),
        ExprKind::TypeRef(t) => ty(s, t),
    }
}
