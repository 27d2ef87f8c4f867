//! The P4-16 abstract syntax tree.
//!
//! The tree is deliberately plain: public fields, owned strings, no interning. It
//! covers the subset of P4-16 that v1model programs use (see the crate docs).
//! Every declaration, statement and expression carries the [`Span`] of its first
//! token; spans are ignored by the printer, so `print(parse(print(p))) == print(p)`.

/// A source position (1-based line and column). `Span::default()` (0:0) means
/// "synthesised, no source position".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub line: u32,
    pub col: u32,
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// A whole P4 source file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    pub items: Vec<Decl>,
}

/// An annotation such as `@name("x")` or `@atomic`. The body is kept as raw text.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    pub name: String,
    /// Raw text between the parentheses, if any.
    pub body: Option<String>,
}

/// A top-level or control-local declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    pub span: Span,
    pub annotations: Vec<Annotation>,
    pub kind: DeclKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    /// A preprocessor line kept verbatim, e.g. `#include <v1model.p4>`.
    Preprocessor(String),
    Header {
        name: String,
        fields: Vec<Field>,
    },
    HeaderUnion {
        name: String,
        fields: Vec<Field>,
    },
    Struct {
        name: String,
        fields: Vec<Field>,
    },
    /// `typedef T name;` (`is_type` for `type T name;`).
    Typedef {
        ty: Type,
        name: String,
        is_type: bool,
    },
    Const {
        ty: Type,
        name: String,
        value: Expr,
    },
    /// `enum [bit<N>] Name { A [= v], ... }`
    Enum {
        name: String,
        underlying: Option<Type>,
        members: Vec<(String, Option<Expr>)>,
    },
    /// `error { A, B }`
    Error(Vec<String>),
    /// `match_kind { a, b }`
    MatchKind(Vec<String>),
    Parser {
        name: String,
        params: Vec<Param>,
        locals: Vec<Decl>,
        states: Vec<ParserState>,
    },
    Control {
        name: String,
        params: Vec<Param>,
        locals: Vec<Decl>,
        apply: Block,
    },
    Action {
        name: String,
        params: Vec<Param>,
        body: Block,
    },
    Table(Table),
    /// A variable declaration `T name [= init];` (control locals and statements).
    Variable {
        ty: Type,
        name: String,
        init: Option<Expr>,
    },
    /// `Type<args>(ctor args) name;`, e.g. `register<bit<32>>(1024) r;` or
    /// `V1Switch(P(), ...) main;`.
    Instantiation {
        ty: Type,
        args: Vec<Expr>,
        name: String,
    },
    /// `extern` declarations are kept as raw text (they only matter to architectures).
    Extern {
        name: String,
        text: String,
    },
}

/// A struct/header field.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub annotations: Vec<Annotation>,
    pub ty: Type,
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    None,
    In,
    Out,
    InOut,
}

/// A parameter of a parser, control or action.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub direction: Direction,
    pub ty: Type,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Bool,
    /// `bit<N>`
    Bit(u32),
    /// `int<N>`
    Int(u32),
    /// `varbit<N>`
    Varbit(u32),
    /// arbitrary-precision `int`
    InfInt,
    Void,
    Error,
    /// `packet_in`, `headers`, ...; `args` holds type arguments: `register<bit<8>>`.
    Named {
        name: String,
        args: Vec<Type>,
    },
    /// `T[N]` (header stack)
    Stack(Box<Type>, u32),
    /// `_` don't-care type (type argument position).
    DontCare,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParserState {
    pub span: Span,
    pub name: String,
    pub body: Vec<Stmt>,
    pub transition: Transition,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Transition {
    /// `transition state;` (including `accept` and `reject`)
    Goto(String),
    /// `transition select(e, ...) { keyset: state; ... }`
    Select {
        exprs: Vec<Expr>,
        cases: Vec<SelectCase>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct SelectCase {
    /// One keyset expression per select expression; a single `default`/`_` may
    /// stand for all.
    pub keys: Vec<Expr>,
    pub next: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: String,
    pub keys: Vec<KeyElement>,
    pub actions: Vec<ActionRef>,
    pub default_action: Option<(ActionRef, bool)>,
    pub const_default: bool,
    pub entries: Vec<ConstEntry>,
    pub size: Option<Expr>,
    /// Other properties (`counters = c;`, `implementation = ...;`) kept as-is.
    pub other: Vec<(String, Expr)>,
    /// Whether `entries` was declared `const entries`.
    pub const_entries: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct KeyElement {
    pub expr: Expr,
    pub match_kind: String,
    pub annotations: Vec<Annotation>,
}

/// A reference to an action with optional arguments: `a`, `a(1, 2)`.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionRef {
    pub span: Span,
    pub name: String,
    pub args: Option<Vec<Expr>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConstEntry {
    pub span: Span,
    pub keys: Vec<Expr>,
    pub action: ActionRef,
    pub priority: Option<Expr>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub span: Span,
    pub kind: StmtKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Empty,
    Assign {
        lhs: Expr,
        rhs: Expr,
    },
    /// A call used as a statement: `mark_to_drop(sm);`, `t.apply();`, `r.read(x, 0);`.
    Call(Expr),
    If {
        cond: Expr,
        then: Block,
        els: Option<Block>,
    },
    /// `switch (t.apply().action_run) { a: {...} default: {...} }`
    Switch {
        expr: Expr,
        cases: Vec<SwitchCase>,
    },
    Block(Block),
    /// A local variable or constant declaration.
    Decl(Box<Decl>),
    Return(Option<Expr>),
    Exit,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// Label name, or `None` for `default`.
    pub label: Option<String>,
    /// `None` = fall through to the next case (`a: b: {...}`).
    pub body: Option<Block>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub span: Span,
    pub kind: ExprKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    BitNot,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    AddSat,
    SubSat,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
    Concat,
    /// `a &&& b` (keyset mask)
    Mask,
    /// `a .. b` (keyset range)
    Range,
}

impl BinOp {
    /// The operator's source text.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::AddSat => "|+|",
            BinOp::SubSat => "|-|",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitXor => "^",
            BinOp::BitOr => "|",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Concat => "++",
            BinOp::Mask => "&&&",
            BinOp::Range => "..",
        }
    }

    /// Binding strength (higher binds tighter), following the P4-16 spec.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Mask | BinOp::Range => 1,
            BinOp::Or => 2,
            BinOp::And => 3,
            BinOp::BitOr => 4,
            BinOp::BitXor => 5,
            BinOp::BitAnd => 6,
            BinOp::Eq | BinOp::Ne => 7,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 8,
            BinOp::Shl | BinOp::Shr => 9,
            BinOp::Concat | BinOp::Add | BinOp::Sub | BinOp::AddSat | BinOp::SubSat => 10,
            BinOp::Mul | BinOp::Div | BinOp::Mod => 11,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Bool(bool),
    /// An integer literal: `5`, `0x0800`, `16w0x800`, `8s-1` (`width`, `signed` from the prefix).
    Int {
        value: u128,
        width: Option<u32>,
        signed: bool,
    },
    Str(String),
    Name(String),
    /// `.name` (top-level scope)
    DotName(String),
    Member(Box<Expr>, String),
    Index(Box<Expr>, Box<Expr>),
    /// `e[hi:lo]`
    Slice(Box<Expr>, Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(Type, Box<Expr>),
    /// `f<T..>(args)`
    Call {
        func: Box<Expr>,
        type_args: Vec<Type>,
        args: Vec<Expr>,
    },
    /// `{ a, b }`
    List(Vec<Expr>),
    /// `default` in keysets / switch labels
    Default,
    /// `_` don't-care
    DontCare,
    /// Named type used as an expression (e.g. constructor call callee `register<bit<8>>`).
    TypeRef(Type),
}

impl Expr {
    pub fn new(span: Span, kind: ExprKind) -> Expr {
        Expr { span, kind }
    }
}
