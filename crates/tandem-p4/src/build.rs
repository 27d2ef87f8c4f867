//! Small constructors for the `tandem-p4-syntax` AST (synthesised nodes carry no span).

use tandem_p4_syntax::{
    ActionRef, BinOp, Block, Decl, DeclKind, Expr, ExprKind, Field, Param, Stmt, StmtKind, Type,
    UnOp,
};

pub fn sp() -> tandem_p4_syntax::Span {
    tandem_p4_syntax::Span::default()
}

pub fn e(kind: ExprKind) -> Expr {
    Expr::new(sp(), kind)
}

pub fn name(n: &str) -> Expr {
    e(ExprKind::Name(n.into()))
}

/// `a.b.c` from a dotted path.
pub fn path(p: &str) -> Expr {
    let mut parts = p.split('.');
    let mut ex = name(parts.next().unwrap_or(""));
    for part in parts {
        ex = member(ex, part);
    }
    ex
}

pub fn member(base: Expr, field: &str) -> Expr {
    e(ExprKind::Member(Box::new(base), field.into()))
}

/// `Nw<value>`.
pub fn lit(value: u64, width: u32) -> Expr {
    let value = if width >= 64 {
        value
    } else {
        value & ((1u64 << width) - 1)
    };
    e(ExprKind::Int {
        value: u128::from(value),
        width: Some(width),
        signed: false,
    })
}

/// An untyped integer literal.
pub fn int(value: u64) -> Expr {
    e(ExprKind::Int {
        value: u128::from(value),
        width: None,
        signed: false,
    })
}

pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

pub fn un(op: UnOp, a: Expr) -> Expr {
    e(ExprKind::Unary(op, Box::new(a)))
}

pub fn ternary(c: Expr, a: Expr, b: Expr) -> Expr {
    e(ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)))
}

pub fn cast(bits: u32, a: Expr) -> Expr {
    e(ExprKind::Cast(Type::Bit(bits), Box::new(a)))
}

pub fn slice(a: Expr, hi: u32, lo: u32) -> Expr {
    e(ExprKind::Slice(
        Box::new(a),
        Box::new(int(u64::from(hi))),
        Box::new(int(u64::from(lo))),
    ))
}

pub fn call(func: Expr, args: Vec<Expr>) -> Expr {
    e(ExprKind::Call {
        func: Box::new(func),
        type_args: Vec::new(),
        args,
    })
}

/// `base.method(args)`.
pub fn method(base: Expr, m: &str, args: Vec<Expr>) -> Expr {
    call(member(base, m), args)
}

pub fn st(kind: StmtKind) -> Stmt {
    Stmt { span: sp(), kind }
}

pub fn assign(lhs: Expr, rhs: Expr) -> Stmt {
    st(StmtKind::Assign { lhs, rhs })
}

pub fn call_stmt(ex: Expr) -> Stmt {
    st(StmtKind::Call(ex))
}

pub fn if_stmt(cond: Expr, then: Vec<Stmt>, els: Vec<Stmt>) -> Stmt {
    st(StmtKind::If {
        cond,
        then: Block { stmts: then },
        els: if els.is_empty() {
            None
        } else {
            Some(Block { stmts: els })
        },
    })
}

pub fn block(stmts: Vec<Stmt>) -> Block {
    Block { stmts }
}

pub fn decl(kind: DeclKind) -> Decl {
    Decl {
        span: sp(),
        annotations: Vec::new(),
        kind,
    }
}

pub fn field(ty: Type, n: &str) -> Field {
    Field {
        annotations: Vec::new(),
        ty,
        name: n.into(),
    }
}

pub fn param(dir: tandem_p4_syntax::Direction, ty: Type, n: &str) -> Param {
    Param {
        direction: dir,
        ty,
        name: n.into(),
    }
}

/// Parameters from `(direction, type name, name)` triples.
pub fn params(ps: &[(tandem_p4_syntax::Direction, &str, &str)]) -> Vec<Param> {
    ps.iter()
        .map(|&(d, ty, n)| param(d, named_ty(ty), n))
        .collect()
}

pub fn named_ty(n: &str) -> Type {
    Type::Named {
        name: n.into(),
        args: Vec::new(),
    }
}

pub fn action_ref(n: &str) -> ActionRef {
    ActionRef {
        span: sp(),
        name: n.into(),
        args: None,
    }
}

/// `a == 1w1` for an `i1` value.
pub fn is_one(a: Expr) -> Expr {
    bin(BinOp::Eq, a, lit(1, 1))
}

/// `c ? 1w1 : 1w0`.
pub fn bool_to_bit(c: Expr) -> Expr {
    ternary(c, lit(1, 1), lit(0, 1))
}

/// The out argument of a call the generator emits, by position: `r.read(out, index)` and
/// `hash(out, ...)` write their first argument, `m.execute_meter(index, out)` its second.
pub fn out_arg(func: &Expr) -> Option<usize> {
    match &func.kind {
        ExprKind::Member(_, m) if m == "read" => Some(0),
        ExprKind::Name(n) if n == "hash" => Some(0),
        ExprKind::Member(_, m) if m == "execute_meter" => Some(1),
        _ => None,
    }
}

/// `{ stmts }` as one statement.
pub fn block_stmt(stmts: Vec<Stmt>) -> Stmt {
    st(StmtKind::Block(block(stmts)))
}
