//! Recursive-descent parser for P4-16. Never panics: all failures are a
//! [`SyntaxError`] with a line and column; nesting is bounded so hostile input
//! cannot overflow the stack.

use crate::ast::*;
use crate::lexer::{tokenize, Tok, Token};
use crate::SyntaxError;

/// Maximum nesting of expressions / statements / types.
const MAX_DEPTH: u32 = 96;

/// Parses a whole P4-16 source file.
pub fn parse_program(src: &str) -> Result<Program, SyntaxError> {
    let toks = tokenize(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let mut items = Vec::new();
    while !p.at_eof() {
        items.push(p.top_decl()?);
    }
    Ok(Program { items })
}

/// Parses a single expression (e.g. from a table-entry file or a test).
/// `src` as the parser keeps raw declarations ([`DeclKind::Extern`]): its tokens joined by
/// single spaces, so a generated raw declaration prints the same after a round trip.
pub fn raw_text(src: &str) -> Result<String, SyntaxError> {
    let toks = crate::lexer::tokenize(src)?;
    Ok(toks
        .iter()
        .filter(|t| !matches!(t.tok, Tok::Eof))
        .map(|t| tok_text(&t.tok))
        .collect::<Vec<_>>()
        .join(" "))
}

pub fn parse_expr(src: &str) -> Result<Expr, SyntaxError> {
    let toks = tokenize(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let e = p.expr()?;
    if !p.at_eof() {
        return Err(p.err_here("expected end of expression"));
    }
    Ok(e)
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: u32,
}

type PResult<T> = Result<T, SyntaxError>;

fn is_type_keyword(s: &str) -> bool {
    matches!(
        s,
        "bit" | "int" | "bool" | "varbit" | "void" | "error" | "string"
    )
}

impl Parser {
    fn peek(&self) -> &Tok {
        self.peek_at(0)
    }
    fn peek_at(&self, n: usize) -> &Tok {
        let i = (self.pos + n).min(self.toks.len() - 1);
        &self.toks[i].tok
    }
    fn tok_at(&self, n: usize) -> &Token {
        let i = (self.pos + n).min(self.toks.len() - 1);
        &self.toks[i]
    }
    fn span(&self) -> Span {
        self.tok_at(0).span
    }
    fn at_eof(&self) -> bool {
        matches!(self.peek(), Tok::Eof)
    }
    fn bump(&mut self) -> Token {
        let t = self.tok_at(0).clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn err_here(&self, msg: impl Into<String>) -> SyntaxError {
        let t = self.tok_at(0);
        let found = match &t.tok {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int { value, .. } => format!("integer {value}"),
            Tok::Str(_) => "string".to_string(),
            Tok::Preproc(_) => "preprocessor line".to_string(),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "end of input".to_string(),
        };
        SyntaxError::new(t.span, format!("{}, found {found}", msg.into()))
    }
    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }
    fn is_punct_at(&self, n: usize, p: &str) -> bool {
        matches!(self.peek_at(n), Tok::Punct(q) if *q == p)
    }
    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == k)
    }
    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn eat_kw(&mut self, k: &str) -> bool {
        if self.is_kw(k) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn expect_punct(&mut self, p: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(self.err_here(format!("expected `{p}`")))
        }
    }
    fn expect_kw(&mut self, k: &str) -> PResult<()> {
        if self.eat_kw(k) {
            Ok(())
        } else {
            Err(self.err_here(format!("expected `{k}`")))
        }
    }
    fn ident(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            _ => Err(self.err_here("expected identifier")),
        }
    }
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err_here("nesting too deep"));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    // ---------------------------------------------------------------- annotations

    fn annotations(&mut self) -> PResult<Vec<Annotation>> {
        let mut v = Vec::new();
        while self.is_punct("@") {
            self.bump();
            let name = self.ident()?;
            let body = if self.is_punct("(") && !self.tok_at(0).space_before {
                Some(self.raw_parens()?)
            } else {
                None
            };
            v.push(Annotation { name, body });
        }
        Ok(v)
    }

    /// Consumes a balanced `( ... )` and returns the inner tokens as text.
    fn raw_parens(&mut self) -> PResult<String> {
        self.expect_punct("(")?;
        let mut depth = 1;
        let mut parts = Vec::new();
        loop {
            let t = self.bump();
            match &t.tok {
                Tok::Eof => return Err(SyntaxError::new(t.span, "unbalanced parentheses")),
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            parts.push(tok_text(&t.tok));
        }
        Ok(parts.join(" "))
    }

    // ---------------------------------------------------------------- declarations

    fn top_decl(&mut self) -> PResult<Decl> {
        let span = self.span();
        if let Tok::Preproc(s) = self.peek().clone() {
            self.bump();
            return Ok(Decl {
                span,
                annotations: vec![],
                kind: DeclKind::Preprocessor(s),
            });
        }
        let annotations = self.annotations()?;
        let span = self.span();
        let kw = match self.peek() {
            Tok::Ident(s) => s.clone(),
            _ => return Err(self.err_here("expected a declaration")),
        };
        let kind = match kw.as_str() {
            "header" | "header_union" | "struct" => {
                self.bump();
                let name = self.ident()?;
                let fields = self.fields()?;
                match kw.as_str() {
                    "header" => DeclKind::Header { name, fields },
                    "header_union" => DeclKind::HeaderUnion { name, fields },
                    _ => DeclKind::Struct { name, fields },
                }
            }
            "typedef" | "type" => {
                self.bump();
                let ty = self.ty()?;
                let name = self.ident()?;
                self.expect_punct(";")?;
                DeclKind::Typedef {
                    ty,
                    name,
                    is_type: kw == "type",
                }
            }
            "enum" => {
                self.bump();
                let underlying = if self.is_kw("bit") || self.is_kw("int") {
                    Some(self.ty()?)
                } else {
                    None
                };
                let name = self.ident()?;
                self.expect_punct("{")?;
                let mut members = Vec::new();
                while !self.is_punct("}") {
                    let m = self.ident()?;
                    let v = if self.eat_punct("=") {
                        Some(self.expr()?)
                    } else {
                        None
                    };
                    members.push((m, v));
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct("}")?;
                DeclKind::Enum {
                    name,
                    underlying,
                    members,
                }
            }
            "error" | "match_kind" if self.is_punct_at(1, "{") => {
                self.bump();
                self.bump();
                let mut names = Vec::new();
                while !self.is_punct("}") {
                    names.push(self.ident()?);
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct("}")?;
                if kw == "error" {
                    DeclKind::Error(names)
                } else {
                    DeclKind::MatchKind(names)
                }
            }
            "parser" => self.parser_decl()?,
            "control" => self.control_decl()?,
            "extern" | "package" => {
                self.bump();
                let mut parts = vec![kw.clone()];
                let mut name = String::new();
                let mut depth = 0i32;
                loop {
                    let t = self.bump();
                    match &t.tok {
                        Tok::Eof => return Err(SyntaxError::new(t.span, "unterminated extern")),
                        Tok::Punct("{") | Tok::Punct("(") => depth += 1,
                        Tok::Punct("}") | Tok::Punct(")") => depth -= 1,
                        Tok::Ident(s) if name.is_empty() && !is_type_keyword(s) => name = s.clone(),
                        _ => {}
                    }
                    parts.push(tok_text(&t.tok));
                    if depth <= 0 && matches!(t.tok, Tok::Punct(";") | Tok::Punct("}")) {
                        break;
                    }
                }
                DeclKind::Extern {
                    name,
                    text: parts.join(" "),
                }
            }
            _ => return self.local_decl(annotations, span),
        };
        Ok(Decl {
            span,
            annotations,
            kind,
        })
    }

    /// The rest of `Type(args) name = { ... };` from `=`: the whole declaration from token
    /// `start` as raw text ([`DeclKind::Extern`]).
    fn raw_initializer(
        &mut self,
        start: usize,
        name: String,
        annotations: Vec<Annotation>,
        span: Span,
    ) -> PResult<Decl> {
        self.expect_punct("=")?;
        if !self.is_punct("{") {
            let t = self.bump();
            return Err(SyntaxError::new(
                t.span,
                "expected `{` after `=` of an instantiation",
            ));
        }
        let mut depth = 0i32;
        loop {
            let t = self.bump();
            match &t.tok {
                Tok::Eof => return Err(SyntaxError::new(t.span, "unterminated initializer")),
                Tok::Punct("{") | Tok::Punct("(") => depth += 1,
                Tok::Punct("}") | Tok::Punct(")") => depth -= 1,
                _ => {}
            }
            if depth <= 0 && matches!(t.tok, Tok::Punct("}")) {
                break;
            }
        }
        self.expect_punct(";")?;
        let text: Vec<String> = self.toks[start..self.pos]
            .iter()
            .map(|t| tok_text(&t.tok))
            .collect();
        Ok(Decl {
            span,
            annotations,
            kind: DeclKind::Extern {
                name,
                text: text.join(" "),
            },
        })
    }

    fn fields(&mut self) -> PResult<Vec<Field>> {
        self.expect_punct("{")?;
        let mut fields = Vec::new();
        while !self.is_punct("}") {
            let annotations = self.annotations()?;
            let ty = self.ty()?;
            let name = self.ident()?;
            self.expect_punct(";")?;
            fields.push(Field {
                annotations,
                ty,
                name,
            });
        }
        self.expect_punct("}")?;
        Ok(fields)
    }

    fn params(&mut self) -> PResult<Vec<Param>> {
        self.expect_punct("(")?;
        let mut params = Vec::new();
        while !self.is_punct(")") {
            self.annotations()?;
            let direction = if self.eat_kw("inout") {
                Direction::InOut
            } else if self.eat_kw("in") {
                Direction::In
            } else if self.eat_kw("out") {
                Direction::Out
            } else {
                Direction::None
            };
            let ty = self.ty()?;
            let name = self.ident()?;
            params.push(Param {
                direction,
                ty,
                name,
            });
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(")")?;
        Ok(params)
    }

    fn parser_decl(&mut self) -> PResult<DeclKind> {
        self.expect_kw("parser")?;
        let name = self.ident()?;
        let params = self.params()?;
        self.expect_punct("{")?;
        let mut locals = Vec::new();
        let mut states = Vec::new();
        while !self.is_punct("}") {
            let annotations = self.annotations()?;
            let span = self.span();
            if self.eat_kw("state") {
                let name = self.ident()?;
                self.expect_punct("{")?;
                let mut body = Vec::new();
                while !self.is_kw("transition") {
                    if self.is_punct("}") {
                        // A state without a transition goes to reject (P4-16 spec).
                        break;
                    }
                    body.push(self.stmt()?);
                }
                let transition = if self.eat_kw("transition") {
                    self.transition()?
                } else {
                    Transition::Goto("reject".into())
                };
                self.expect_punct("}")?;
                states.push(ParserState {
                    span,
                    name,
                    body,
                    transition,
                });
            } else {
                locals.push(self.local_decl(annotations, span)?);
            }
        }
        self.expect_punct("}")?;
        Ok(DeclKind::Parser {
            name,
            params,
            locals,
            states,
        })
    }

    fn transition(&mut self) -> PResult<Transition> {
        if self.eat_kw("select") {
            self.expect_punct("(")?;
            let mut exprs = Vec::new();
            while !self.is_punct(")") {
                exprs.push(self.expr()?);
                if !self.eat_punct(",") {
                    break;
                }
            }
            self.expect_punct(")")?;
            self.expect_punct("{")?;
            let mut cases = Vec::new();
            while !self.is_punct("}") {
                let keys = self.keyset()?;
                self.expect_punct(":")?;
                let next = self.ident()?;
                self.expect_punct(";")?;
                cases.push(SelectCase { keys, next });
            }
            self.expect_punct("}")?;
            Ok(Transition::Select { exprs, cases })
        } else {
            let n = self.ident()?;
            self.expect_punct(";")?;
            Ok(Transition::Goto(n))
        }
    }

    /// A keyset: `e`, `(e, e)`, `default`, `_`.
    fn keyset(&mut self) -> PResult<Vec<Expr>> {
        if self.is_punct("(") {
            // A tuple `(k1, k2)` — or an expression that merely starts with `(`,
            // like `(a & b) + c`: try the tuple, fall back to one expression.
            let save = (self.pos, self.depth);
            if let Ok(keys) = self.tuple_keyset() {
                if self.is_punct(":") {
                    return Ok(keys);
                }
            }
            (self.pos, self.depth) = save;
        }
        Ok(vec![self.expr()?])
    }

    fn tuple_keyset(&mut self) -> PResult<Vec<Expr>> {
        self.expect_punct("(")?;
        let mut keys = Vec::new();
        while !self.is_punct(")") {
            keys.push(self.expr()?);
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(")")?;
        // `(a &&& b)`: a single parenthesised key is just that key.
        Ok(keys)
    }

    fn control_decl(&mut self) -> PResult<DeclKind> {
        self.expect_kw("control")?;
        let name = self.ident()?;
        let params = self.params()?;
        self.expect_punct("{")?;
        let mut locals = Vec::new();
        loop {
            if self.is_kw("apply") {
                break;
            }
            if self.is_punct("}") || self.at_eof() {
                return Err(self.err_here("expected `apply` block in control"));
            }
            let annotations = self.annotations()?;
            let span = self.span();
            locals.push(self.local_decl(annotations, span)?);
        }
        self.expect_kw("apply")?;
        let apply = self.block()?;
        self.expect_punct("}")?;
        Ok(DeclKind::Control {
            name,
            params,
            locals,
            apply,
        })
    }

    /// Declarations allowed inside controls/parsers and at top level: actions,
    /// tables, constants, variables, instantiations.
    fn local_decl(&mut self, annotations: Vec<Annotation>, span: Span) -> PResult<Decl> {
        let kind = if self.eat_kw("action") {
            let name = self.ident()?;
            let params = self.params()?;
            let body = self.block()?;
            DeclKind::Action { name, params, body }
        } else if self.is_kw("table") {
            self.bump();
            DeclKind::Table(self.table()?)
        } else if self.eat_kw("const") {
            let ty = self.ty()?;
            let name = self.ident()?;
            self.expect_punct("=")?;
            let value = self.expr()?;
            self.expect_punct(";")?;
            DeclKind::Const { ty, name, value }
        } else {
            let start = self.pos;
            let ty = self.ty()?;
            if self.is_punct("(") {
                self.bump();
                let mut args = Vec::new();
                while !self.is_punct(")") {
                    args.push(self.expr()?);
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct(")")?;
                let name = self.ident()?;
                if self.is_punct("=") {
                    // An instantiation with an initializer (TNA's `RegisterAction<..>(r) a =
                    // { void apply(..) { .. } };`): kept as raw text, like an extern.
                    return self.raw_initializer(start, name, annotations, span);
                }
                self.expect_punct(";")?;
                DeclKind::Instantiation { ty, args, name }
            } else {
                let name = self.ident()?;
                let init = if self.eat_punct("=") {
                    Some(self.expr()?)
                } else {
                    None
                };
                self.expect_punct(";")?;
                DeclKind::Variable { ty, name, init }
            }
        };
        Ok(Decl {
            span,
            annotations,
            kind,
        })
    }

    fn table(&mut self) -> PResult<Table> {
        let name = self.ident()?;
        self.expect_punct("{")?;
        let mut t = Table {
            name,
            keys: vec![],
            actions: vec![],
            default_action: None,
            const_default: false,
            entries: vec![],
            size: None,
            other: vec![],
            const_entries: false,
        };
        while !self.is_punct("}") {
            self.annotations()?;
            let is_const = self.eat_kw("const");
            let prop = self.ident()?;
            match prop.as_str() {
                "key" => {
                    self.expect_punct("=")?;
                    self.expect_punct("{")?;
                    while !self.is_punct("}") {
                        let expr = self.expr()?;
                        self.expect_punct(":")?;
                        let match_kind = self.ident()?;
                        let annotations = self.annotations()?;
                        self.expect_punct(";")?;
                        t.keys.push(KeyElement {
                            expr,
                            match_kind,
                            annotations,
                        });
                    }
                    self.expect_punct("}")?;
                }
                "actions" => {
                    self.expect_punct("=")?;
                    self.expect_punct("{")?;
                    while !self.is_punct("}") {
                        self.annotations()?;
                        let a = self.action_ref()?;
                        self.expect_punct(";")?;
                        t.actions.push(a);
                    }
                    self.expect_punct("}")?;
                }
                "default_action" => {
                    self.expect_punct("=")?;
                    let a = self.action_ref()?;
                    self.expect_punct(";")?;
                    t.default_action = Some((a, is_const));
                    t.const_default = is_const;
                }
                "entries" => {
                    self.expect_punct("=")?;
                    self.expect_punct("{")?;
                    t.const_entries = is_const;
                    while !self.is_punct("}") {
                        let span = self.span();
                        let mut priority = None;
                        if self.is_kw("priority") && self.is_punct_at(1, "=") {
                            self.bump();
                            self.bump();
                            priority = Some(self.expr()?);
                            self.expect_punct(":")?;
                        }
                        let keys = self.keyset()?;
                        self.expect_punct(":")?;
                        let action = self.action_ref()?;
                        self.expect_punct(";")?;
                        t.entries.push(ConstEntry {
                            span,
                            keys,
                            action,
                            priority,
                        });
                    }
                    self.expect_punct("}")?;
                }
                "size" => {
                    self.expect_punct("=")?;
                    t.size = Some(self.expr()?);
                    self.expect_punct(";")?;
                }
                _ => {
                    self.expect_punct("=")?;
                    let e = self.expr()?;
                    self.expect_punct(";")?;
                    t.other.push((prop, e));
                }
            }
        }
        self.expect_punct("}")?;
        Ok(t)
    }

    fn action_ref(&mut self) -> PResult<ActionRef> {
        let span = self.span();
        let mut name = self.ident()?;
        // Allow dotted names such as `NoAction` or `.NoAction`.
        while self.is_punct(".") {
            self.bump();
            name.push('.');
            name.push_str(&self.ident()?);
        }
        let args = if self.is_punct("(") {
            self.bump();
            let mut args = Vec::new();
            while !self.is_punct(")") {
                args.push(self.expr()?);
                if !self.eat_punct(",") {
                    break;
                }
            }
            self.expect_punct(")")?;
            Some(args)
        } else {
            None
        };
        Ok(ActionRef { span, name, args })
    }

    // ---------------------------------------------------------------- types

    fn ty(&mut self) -> PResult<Type> {
        self.enter()?;
        let r = self.ty_inner();
        self.leave();
        r
    }

    fn ty_inner(&mut self) -> PResult<Type> {
        let name = match self.peek().clone() {
            Tok::Ident(s) => s,
            Tok::Punct(".") => {
                self.bump();
                return self.ty_inner();
            }
            _ => return Err(self.err_here("expected a type")),
        };
        self.bump();
        let base = match name.as_str() {
            "bool" => Type::Bool,
            "void" => Type::Void,
            "error" => Type::Error,
            "int" if !self.is_punct("<") => Type::InfInt,
            "bit" | "int" | "varbit" => {
                let w = if self.is_punct("<") {
                    self.bump();
                    let paren = self.eat_punct("(");
                    let w = match self.peek().clone() {
                        Tok::Int { value, .. } if value <= u32::MAX as u128 => value as u32,
                        _ => return Err(self.err_here("expected a width")),
                    };
                    self.bump();
                    if paren {
                        self.expect_punct(")")?;
                    }
                    self.expect_punct(">")?;
                    w
                } else if name == "bit" {
                    1
                } else {
                    return Err(self.err_here("expected `<`"));
                };
                match name.as_str() {
                    "bit" => Type::Bit(w),
                    "int" => Type::Int(w),
                    _ => Type::Varbit(w),
                }
            }
            "_" => Type::DontCare,
            _ => {
                let mut args = Vec::new();
                if self.is_punct("<") {
                    self.bump();
                    while !self.is_punct(">") {
                        args.push(self.ty()?);
                        if !self.eat_punct(",") {
                            break;
                        }
                    }
                    self.expect_punct(">")?;
                }
                Type::Named { name, args }
            }
        };
        if self.is_punct("[") {
            // header stack
            self.bump();
            let n = match self.peek().clone() {
                Tok::Int { value, .. } if value <= u32::MAX as u128 => value as u32,
                _ => return Err(self.err_here("expected stack size")),
            };
            self.bump();
            self.expect_punct("]")?;
            return Ok(Type::Stack(Box::new(base), n));
        }
        Ok(base)
    }

    // ---------------------------------------------------------------- statements

    fn block(&mut self) -> PResult<Block> {
        self.expect_punct("{")?;
        let mut stmts = Vec::new();
        while !self.is_punct("}") {
            if self.at_eof() {
                return Err(self.err_here("expected `}`"));
            }
            stmts.push(self.stmt()?);
        }
        self.expect_punct("}")?;
        Ok(Block { stmts })
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let r = self.stmt_inner();
        self.leave();
        r
    }

    fn looks_like_decl(&self) -> bool {
        match self.peek() {
            Tok::Ident(s) if matches!(s.as_str(), "bit" | "int" | "bool" | "varbit") => true,
            Tok::Ident(_) => {
                matches!(self.peek_at(1), Tok::Ident(_))
                    || (self.is_punct_at(1, "<")
                        && matches!(self.peek_at(2), Tok::Ident(s) if is_type_keyword(s)))
            }
            _ => false,
        }
    }

    fn stmt_inner(&mut self) -> PResult<Stmt> {
        let annotations = self.annotations()?;
        let span = self.span();
        let kind = if self.eat_punct(";") {
            StmtKind::Empty
        } else if self.is_punct("{") {
            StmtKind::Block(self.block()?)
        } else if self.eat_kw("if") {
            self.expect_punct("(")?;
            let cond = self.expr()?;
            self.expect_punct(")")?;
            let then = self.stmt_as_block()?;
            let els = if self.eat_kw("else") {
                Some(self.stmt_as_block()?)
            } else {
                None
            };
            StmtKind::If { cond, then, els }
        } else if self.eat_kw("switch") {
            self.expect_punct("(")?;
            let expr = self.expr()?;
            self.expect_punct(")")?;
            self.expect_punct("{")?;
            let mut cases = Vec::new();
            while !self.is_punct("}") {
                let label = if self.eat_kw("default") {
                    None
                } else {
                    Some(self.ident()?)
                };
                self.expect_punct(":")?;
                let body = if self.is_punct("{") {
                    Some(self.block()?)
                } else {
                    None
                };
                cases.push(SwitchCase { label, body });
            }
            self.expect_punct("}")?;
            StmtKind::Switch { expr, cases }
        } else if self.eat_kw("return") {
            let e = if self.is_punct(";") {
                None
            } else {
                Some(self.expr()?)
            };
            self.expect_punct(";")?;
            StmtKind::Return(e)
        } else if self.eat_kw("exit") {
            self.expect_punct(";")?;
            StmtKind::Exit
        } else if self.is_kw("const") || self.looks_like_decl() {
            let d = self.local_decl(annotations, span)?;
            StmtKind::Decl(Box::new(d))
        } else {
            let lhs = self.expr()?;
            if self.eat_punct("=") {
                let rhs = self.expr()?;
                self.expect_punct(";")?;
                StmtKind::Assign { lhs, rhs }
            } else {
                if !matches!(lhs.kind, ExprKind::Call { .. }) {
                    return Err(SyntaxError::new(
                        lhs.span,
                        "expected an assignment or a call statement",
                    ));
                }
                self.expect_punct(";")?;
                StmtKind::Call(lhs)
            }
        };
        Ok(Stmt { span, kind })
    }

    fn stmt_as_block(&mut self) -> PResult<Block> {
        if self.is_punct("{") {
            self.block()
        } else {
            Ok(Block {
                stmts: vec![self.stmt()?],
            })
        }
    }

    // ---------------------------------------------------------------- expressions

    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.ternary();
        self.leave();
        r
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let c = self.binary(1)?;
        if self.is_punct("?") {
            let span = c.span;
            self.bump();
            let a = self.expr()?;
            self.expect_punct(":")?;
            let b = self.expr()?;
            return Ok(Expr::new(
                span,
                ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)),
            ));
        }
        Ok(c)
    }

    /// Recognises a binary operator at the cursor; returns it and its token count.
    fn peek_binop(&self) -> Option<(BinOp, usize)> {
        let op = match self.peek() {
            Tok::Punct(p) => *p,
            _ => return None,
        };
        let b = match op {
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Mod,
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "|+|" => BinOp::AddSat,
            "|-|" => BinOp::SubSat,
            "<<" => BinOp::Shl,
            ">" => {
                if self.is_punct_at(1, ">") && !self.tok_at(1).space_before {
                    return Some((BinOp::Shr, 2));
                }
                BinOp::Gt
            }
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">=" => BinOp::Ge,
            "==" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "&" => BinOp::BitAnd,
            "^" => BinOp::BitXor,
            "|" => BinOp::BitOr,
            "&&" => BinOp::And,
            "||" => BinOp::Or,
            "++" => BinOp::Concat,
            "&&&" => BinOp::Mask,
            ".." => BinOp::Range,
            _ => return None,
        };
        Some((b, 1))
    }

    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some((op, n)) = self.peek_binop() {
            let prec = op.precedence();
            if prec < min_prec {
                break;
            }
            for _ in 0..n {
                self.bump();
            }
            self.enter()?;
            let rhs = self.binary(prec + 1);
            self.leave();
            let rhs = rhs?;
            let span = lhs.span;
            lhs = Expr::new(span, ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let span = self.span();
        let op = if self.is_punct("!") {
            Some(UnOp::Not)
        } else if self.is_punct("~") {
            Some(UnOp::BitNot)
        } else if self.is_punct("-") {
            Some(UnOp::Neg)
        } else {
            None
        };
        if let Some(op) = op {
            self.bump();
            self.enter()?;
            let e = self.unary();
            self.leave();
            return Ok(Expr::new(span, ExprKind::Unary(op, Box::new(e?))));
        }
        if self.is_punct("(") && self.looks_like_cast() {
            self.bump();
            let ty = self.ty()?;
            self.expect_punct(")")?;
            self.enter()?;
            let e = self.unary();
            self.leave();
            return Ok(Expr::new(span, ExprKind::Cast(ty, Box::new(e?))));
        }
        self.postfix()
    }

    fn looks_like_cast(&self) -> bool {
        match self.peek_at(1) {
            Tok::Ident(s) if matches!(s.as_str(), "bit" | "int" | "bool" | "varbit") => true,
            Tok::Ident(_) => {
                self.is_punct_at(2, ")")
                    && matches!(
                        self.peek_at(3),
                        Tok::Ident(_) | Tok::Int { .. } | Tok::Punct("(")
                    )
            }
            _ => false,
        }
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        loop {
            let span = e.span;
            if self.is_punct(".") {
                self.bump();
                let m = self.ident()?;
                e = Expr::new(span, ExprKind::Member(Box::new(e), m));
            } else if self.is_punct("[") {
                self.bump();
                let a = self.expr()?;
                if self.eat_punct(":") {
                    let b = self.expr()?;
                    self.expect_punct("]")?;
                    e = Expr::new(span, ExprKind::Slice(Box::new(e), Box::new(a), Box::new(b)));
                } else {
                    self.expect_punct("]")?;
                    e = Expr::new(span, ExprKind::Index(Box::new(e), Box::new(a)));
                }
            } else if self.is_punct("(") {
                let args = self.call_args()?;
                e = Expr::new(
                    span,
                    ExprKind::Call {
                        func: Box::new(e),
                        type_args: vec![],
                        args,
                    },
                );
            } else if self.is_punct("<")
                && matches!(e.kind, ExprKind::Name(_) | ExprKind::Member(..))
            {
                // Possible explicit type arguments: `f<bit<8>>(x)`.
                let save = self.pos;
                let save_depth = self.depth;
                match self.try_type_args() {
                    Some(type_args) if self.is_punct("(") => {
                        let args = self.call_args()?;
                        e = Expr::new(
                            span,
                            ExprKind::Call {
                                func: Box::new(e),
                                type_args,
                                args,
                            },
                        );
                    }
                    _ => {
                        self.pos = save;
                        self.depth = save_depth;
                        break;
                    }
                }
            } else {
                break;
            }
        }
        Ok(e)
    }

    fn try_type_args(&mut self) -> Option<Vec<Type>> {
        if !self.eat_punct("<") {
            return None;
        }
        let mut v = Vec::new();
        while !self.is_punct(">") {
            v.push(self.ty().ok()?);
            if !self.eat_punct(",") {
                break;
            }
        }
        if !self.eat_punct(">") {
            return None;
        }
        Some(v)
    }

    fn call_args(&mut self) -> PResult<Vec<Expr>> {
        self.expect_punct("(")?;
        let mut args = Vec::new();
        while !self.is_punct(")") {
            args.push(self.expr()?);
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(")")?;
        Ok(args)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let span = self.span();
        let t = self.peek().clone();
        let kind = match t {
            Tok::Int {
                value,
                width,
                signed,
            } => {
                self.bump();
                ExprKind::Int {
                    value,
                    width,
                    signed,
                }
            }
            Tok::Str(s) => {
                self.bump();
                ExprKind::Str(s)
            }
            Tok::Ident(s) => {
                self.bump();
                match s.as_str() {
                    "true" => ExprKind::Bool(true),
                    "false" => ExprKind::Bool(false),
                    "default" => ExprKind::Default,
                    "_" => ExprKind::DontCare,
                    "bit" | "int" | "varbit" | "bool" => {
                        self.pos -= 1;
                        ExprKind::TypeRef(self.ty()?)
                    }
                    _ => ExprKind::Name(s),
                }
            }
            Tok::Punct(".") => {
                self.bump();
                ExprKind::DotName(self.ident()?)
            }
            Tok::Punct("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect_punct(")")?;
                return Ok(e);
            }
            Tok::Punct("{") => {
                self.bump();
                let mut v = Vec::new();
                while !self.is_punct("}") {
                    v.push(self.expr()?);
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct("}")?;
                ExprKind::List(v)
            }
            _ => return Err(self.err_here("expected an expression")),
        };
        Ok(Expr::new(span, kind))
    }
}

fn tok_text(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => s.clone(),
        Tok::Int {
            value,
            width,
            signed,
        } => match width {
            Some(w) => format!("{w}{}{value}", if *signed { 's' } else { 'w' }),
            None => value.to_string(),
        },
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Preproc(s) => s.clone(),
        Tok::Punct(p) => p.to_string(),
        Tok::Eof => String::new(),
    }
}
