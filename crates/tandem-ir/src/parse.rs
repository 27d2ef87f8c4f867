//! The parser: text → [`Module`]. Never panics; errors carry `line:col`.
//!
//! The parser checks syntax and name resolution (states, files, block and value numbering).
//! Everything else — types, operand counts, dominance — is the verifier's job, so a module
//! that parses may still fail [`crate::verify_module`].

use crate::{
    Block, BlockCall, CastOp, Effect, EntityRef, FileId, FuncId, Function, Header, Inst, InstData,
    InstKind, IntCC, Layout, LayoutField, Meta, Module, SourceLoc, StateId, StateKind, Timer, Type,
    Value, ValueData, ValueDef,
};

/// A syntax or name-resolution error, with its 1-based position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

/// Largest value or block number the parser accepts (keeps hostile input from allocating).
const MAX_NUMBER: u64 = 1 << 20;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(u64),
    Str(String),
    Punct(char),
    Arrow,
    Eof,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Num(n) => format!("number {n}"),
            Tok::Str(s) => format!("string {}", crate::print::quote(s)),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::Arrow => "`->`".to_string(),
            Tok::Eof => "end of input".to_string(),
        }
    }
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: u32,
    col: u32,
}

fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let err = |line, col, message: String| ParseError { line, col, message };
    while i < chars.len() {
        let c = chars[i];
        let (tl, tc) = (line, col);
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        if c == ';' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || "_.".contains(chars[i])) {
                i += 1;
            }
            col += (i - start) as u32;
            toks.push(Token {
                tok: Tok::Ident(chars[start..i].iter().collect()),
                line: tl,
                col: tc,
            });
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphanumeric() {
                i += 1;
            }
            col += (i - start) as u32;
            let s: String = chars[start..i].iter().collect();
            let parsed = if let Some(hex) = s.strip_prefix("0x") {
                u64::from_str_radix(hex, 16)
            } else {
                s.parse::<u64>()
            };
            let n = parsed.map_err(|_| err(tl, tc, format!("invalid number `{s}`")))?;
            toks.push(Token {
                tok: Tok::Num(n),
                line: tl,
                col: tc,
            });
            continue;
        }
        if c == '"' {
            i += 1;
            col += 1;
            let mut s = String::new();
            loop {
                let Some(&d) = chars.get(i) else {
                    return Err(err(tl, tc, "unterminated string".into()));
                };
                i += 1;
                col += 1;
                match d {
                    '"' => break,
                    '\n' => return Err(err(tl, tc, "unterminated string".into())),
                    '\\' => {
                        let Some(&e) = chars.get(i) else {
                            return Err(err(tl, tc, "unterminated string".into()));
                        };
                        i += 1;
                        col += 1;
                        match e {
                            '"' => s.push('"'),
                            '\\' => s.push('\\'),
                            'n' => s.push('\n'),
                            't' => s.push('\t'),
                            'u' => {
                                if chars.get(i) != Some(&'{') {
                                    return Err(err(line, col, "expected `{` after `\\u`".into()));
                                }
                                let start = i + 1;
                                let mut j = start;
                                while j < chars.len()
                                    && chars[j].is_ascii_hexdigit()
                                    && j < start + 6
                                {
                                    j += 1;
                                }
                                if chars.get(j) != Some(&'}') || j == start {
                                    return Err(err(line, col, "bad `\\u{...}` escape".into()));
                                }
                                let hex: String = chars[start..j].iter().collect();
                                let ch =
                                    u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                                let Some(ch) = ch else {
                                    return Err(err(line, col, "bad `\\u{...}` escape".into()));
                                };
                                s.push(ch);
                                col += (j + 1 - i) as u32;
                                i = j + 1;
                            }
                            other => {
                                return Err(err(
                                    line,
                                    col - 1,
                                    format!("unknown escape `\\{other}`"),
                                ))
                            }
                        }
                    }
                    d => s.push(d),
                }
            }
            toks.push(Token {
                tok: Tok::Str(s),
                line: tl,
                col: tc,
            });
            continue;
        }
        if c == '-' && chars.get(i + 1) == Some(&'>') {
            i += 2;
            col += 2;
            toks.push(Token {
                tok: Tok::Arrow,
                line: tl,
                col: tc,
            });
            continue;
        }
        if "{}()[]<>,:=@".contains(c) {
            i += 1;
            col += 1;
            toks.push(Token {
                tok: Tok::Punct(c),
                line: tl,
                col: tc,
            });
            continue;
        }
        return Err(err(tl, tc, format!("unexpected character {c:?}")));
    }
    toks.push(Token {
        tok: Tok::Eof,
        line,
        col,
    });
    Ok(toks)
}

/// Parses a module from its text form.
///
/// ```
/// let m = tandem_ir::parse_module("nf tiny\n\nfn process {\nblock0:\n    drop\n    return\n}\n")
///     .unwrap();
/// assert_eq!(m.name, "tiny");
/// ```
pub fn parse_module(text: &str) -> Result<Module, ParseError> {
    let toks = lex(text)?;
    let mut p = Parser {
        toks,
        pos: 0,
        module: Module::new(""),
        cur: FuncId::Process,
        defined_blocks: Vec::new(),
    };
    p.module()?;
    Ok(p.module)
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    module: Module,
    /// The function being parsed.
    cur: FuncId,
    /// For each reserved block of the function being parsed: where it was first referenced,
    /// and whether it has a label.
    defined_blocks: Vec<(u32, u32, bool)>,
}

impl Parser {
    /// The function being parsed (`module()` creates the timer before parsing its body).
    fn f(&mut self) -> &mut Function {
        match (self.cur, &mut self.module.timer) {
            (FuncId::Timer, Some(t)) => &mut t.func,
            _ => &mut self.module.process,
        }
    }

    fn peek(&self) -> &Token {
        // `lex` always ends the stream with `Eof`, and `bump` never moves past it.
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn err_at<T>(&self, t: &Token, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            line: t.line,
            col: t.col,
            message: message.into(),
        })
    }

    fn unexpected<T>(&self, what: &str) -> Result<T, ParseError> {
        let t = self.peek().clone();
        self.err_at(&t, format!("expected {what}, found {}", t.tok.describe()))
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek().tok == Tok::Punct(c)
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.unexpected(&format!("`{c}`"))
        }
    }

    fn is_keyword(&self, kw: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(s) if s == kw)
    }

    fn expect_keyword(&mut self, kw: &str) -> Result<(), ParseError> {
        if self.is_keyword(kw) {
            self.bump();
            Ok(())
        } else {
            self.unexpected(&format!("`{kw}`"))
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, Token), ParseError> {
        let t = self.peek().clone();
        match &t.tok {
            Tok::Ident(s) => {
                let s = s.clone();
                self.bump();
                Ok((s, t))
            }
            _ => self.unexpected(what),
        }
    }

    /// A plain identifier (no dots), for names of the module, states, fields, functions.
    fn name(&mut self, what: &str) -> Result<String, ParseError> {
        let (s, t) = self.ident(what)?;
        if s.contains('.') {
            return self.err_at(&t, format!("{what} `{s}` must not contain `.`"));
        }
        Ok(s)
    }

    fn number(&mut self, what: &str) -> Result<u64, ParseError> {
        match self.peek().tok {
            Tok::Num(n) => {
                self.bump();
                Ok(n)
            }
            _ => self.unexpected(what),
        }
    }

    /// An `lpm_map`'s optional fourth argument: how many trailing key fields its prefix
    /// spans (1 when absent).
    fn lpm_prefix_fields(&mut self) -> Result<u32, ParseError> {
        if !self.eat_punct(',') {
            return Ok(1);
        }
        let t = self.peek().clone();
        let n = self.number_u32("the number of prefix fields")?;
        if n == 0 {
            return self.err_at(
                &t,
                "an lpm_map's prefix spans at least one field".to_string(),
            );
        }
        Ok(n)
    }

    fn number_u32(&mut self, what: &str) -> Result<u32, ParseError> {
        let t = self.peek().clone();
        let n = self.number(what)?;
        u32::try_from(n).or_else(|_| self.err_at(&t, format!("{what} {n} is too large")))
    }

    fn ty(&mut self) -> Result<Type, ParseError> {
        let (s, t) = self.ident("a type like `i32`")?;
        s.strip_prefix('i')
            .and_then(|d| {
                if d.starts_with('0') {
                    None
                } else {
                    d.parse::<u32>().ok()
                }
            })
            .and_then(Type::int)
            .map_or_else(
                || self.err_at(&t, format!("expected a type `i1`..`i64`, found `{s}`")),
                Ok,
            )
    }

    fn numbered(&mut self, prefix: &str, what: &str) -> Result<(u32, Token), ParseError> {
        let (s, t) = self.ident(what)?;
        let n = s
            .strip_prefix(prefix)
            .filter(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
            .filter(|d| *d == "0" || !d.starts_with('0'))
            .and_then(|d| d.parse::<u64>().ok());
        match n {
            Some(n) if n < MAX_NUMBER => Ok((n as u32, t)),
            Some(_) => self.err_at(&t, format!("{what} `{s}` is numbered too high")),
            None => self.err_at(&t, format!("expected {what}, found `{s}`")),
        }
    }

    fn value(&mut self) -> Result<Value, ParseError> {
        let (n, _) = self.numbered("v", "a value like `v3`")?;
        let v = Value::from_u32(n);
        self.f().reserve_value(v);
        Ok(v)
    }

    fn block_ref(&mut self) -> Result<Block, ParseError> {
        let (n, t) = self.numbered("block", "a block like `block2`")?;
        let b = Block::from_u32(n);
        while self.f().blocks.len() <= n as usize {
            self.f().add_block();
            self.defined_blocks.push((t.line, t.col, false));
        }
        Ok(b)
    }

    fn state_ref(&mut self) -> Result<StateId, ParseError> {
        let (s, t) = self.ident("a state name")?;
        match self.module.state_by_name(&s) {
            Some(id) => Ok(id),
            None => self.err_at(&t, format!("no state named `{s}`")),
        }
    }

    fn module(&mut self) -> Result<(), ParseError> {
        self.expect_keyword("nf")?;
        self.module.name = self.name("the NF name")?;
        let mut seen_process = false;
        loop {
            let t = self.peek().clone();
            match &t.tok {
                Tok::Eof => break,
                Tok::Ident(kw) if kw == "file" => {
                    self.bump();
                    let (n, ft) = self.numbered("f", "a file id like `f0`")?;
                    if n as usize != self.module.files.len() {
                        let expected = self.module.files.len();
                        return self.err_at(
                            &ft,
                            format!(
                                "file ids must be f0, f1, ... in order; expected `f{expected}`"
                            ),
                        );
                    }
                    self.expect_punct('=')?;
                    let path = match self.bump().tok {
                        Tok::Str(s) => s,
                        _ => return self.err_at(&ft, "expected a quoted file path after `=`"),
                    };
                    self.module.files.push(path);
                }
                Tok::Ident(kw) if kw == "state" => {
                    self.bump();
                    let nt = self.peek().clone();
                    let name = self.name("a state name")?;
                    if self.module.state_by_name(&name).is_some() {
                        return self.err_at(&nt, format!("state `{name}` is declared twice"));
                    }
                    self.expect_punct(':')?;
                    let kind = self.state_kind()?;
                    self.module.add_state(name, kind);
                }
                Tok::Ident(kw) if kw == "header" => {
                    self.bump();
                    self.header_decl()?;
                }
                Tok::Ident(kw) if kw == "parse" => {
                    self.bump();
                    self.parse_edge()?;
                }
                Tok::Ident(kw) if kw == "server" => {
                    self.bump();
                    self.expect_keyword("fn")?;
                    let name = self.name("a function name")?;
                    self.module.server_functions.push(name);
                }
                Tok::Ident(kw) if kw == "fn" => {
                    self.bump();
                    let nt = self.peek().clone();
                    let name = self.name("a function name")?;
                    match name.as_str() {
                        "process" if seen_process => {
                            return self.err_at(&nt, "`fn process` is defined twice");
                        }
                        "process" => {
                            seen_process = true;
                            self.cur = FuncId::Process;
                        }
                        "on_timer" if self.module.timer.is_some() => {
                            return self.err_at(&nt, "`fn on_timer` is defined twice");
                        }
                        "on_timer" => {
                            self.expect_keyword("every")?;
                            let interval_ns = self.number("the timer interval in ns")?;
                            self.module.timer = Some(Timer {
                                interval_ns,
                                func: Function::new("on_timer"),
                            });
                            self.cur = FuncId::Timer;
                        }
                        _ => return self.err_at(&nt, format!("only `process` and `on_timer` have a body; declare `{name}` with `server fn {name}`")),
                    }
                    self.defined_blocks.clear();
                    self.function()?;
                }
                _ => {
                    return self
                        .unexpected("`file`, `header`, `parse`, `state`, `server fn` or `fn`")
                }
            }
        }
        if !seen_process {
            let t = self.peek().clone();
            return self.err_at(&t, "missing `fn process { ... }`");
        }
        Ok(())
    }

    /// `header NAME {field: iN, ...}`
    fn header_decl(&mut self) -> Result<(), ParseError> {
        let nt = self.peek().clone();
        let name = self.name("a header name")?;
        if self.module.header_by_name(&name).is_some() {
            return self.err_at(&nt, format!("header `{name}` is declared twice"));
        }
        self.expect_punct('{')?;
        let mut fields = Vec::new();
        while !self.eat_punct('}') {
            if !fields.is_empty() {
                self.expect_punct(',')?;
            }
            let f = self.name("a field name")?;
            self.expect_punct(':')?;
            fields.push((f, self.ty()?.bits()));
        }
        let decl = crate::HeaderDecl { name, fields };
        match Header::declare(&decl) {
            Ok(h) => {
                self.module.headers.push(h);
                Ok(())
            }
            Err(e) => self.err_at(&nt, e.to_string()),
        }
    }

    /// `parse FROM.FIELD == VALUE -> TO` or `parse FROM -> TO`
    fn parse_edge(&mut self) -> Result<(), ParseError> {
        let (from, ft) = self.ident("a header or a header field")?;
        let (header, select, value) = if self.is_punct('=') {
            let Some(field) = self.module.field_by_name(&from) else {
                return self.err_at(&ft, format!("unknown header field `{from}`"));
            };
            self.expect_punct('=')?;
            self.expect_punct('=')?;
            (
                field.header(),
                Some(field),
                self.number("the field's value")?,
            )
        } else {
            let Some(h) = self.module.header_by_name(&from) else {
                return self.err_at(&ft, format!("unknown header `{from}`"));
            };
            (h, None, 0)
        };
        if self.peek().tok != Tok::Arrow {
            return self.unexpected("`->` and the header that follows");
        }
        self.bump();
        let (to, tt) = self.ident("the header that follows")?;
        let Some(to) = self.module.header_by_name(&to) else {
            return self.err_at(&tt, format!("unknown header `{to}`"));
        };
        self.module.parse_edges.push(crate::ParseEdge {
            from: header,
            select,
            value,
            to,
        });
        Ok(())
    }

    fn layout(&mut self) -> Result<Layout, ParseError> {
        self.expect_punct('{')?;
        let mut fields = Vec::new();
        if !self.eat_punct('}') {
            loop {
                let name = self.name("a field name")?;
                self.expect_punct(':')?;
                let ty = self.ty()?;
                let offset = if self.eat_punct('@') {
                    Some(self.number_u32("a byte offset")?)
                } else {
                    None
                };
                fields.push(LayoutField { name, ty, offset });
                if self.eat_punct('}') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        let size = if self.is_keyword("size") {
            self.bump();
            Some(self.number_u32("a byte size")?)
        } else {
            None
        };
        Ok(Layout { fields, size })
    }

    fn state_kind(&mut self) -> Result<StateKind, ParseError> {
        let (kw, t) = self.ident(
            "`hashmap`, `vector`, `scalar`, `expiring_map`, `lpm_map`, `ternary_map`, `range_map` or `meter`",
        )?;
        self.expect_punct('<')?;
        let kind = match kw.as_str() {
            "lpm_map" | "ternary_map" | "range_map" => {
                let key = self.layout()?;
                self.expect_punct(',')?;
                let value = self.layout()?;
                self.expect_punct(',')?;
                let capacity = self.number("a capacity")?;
                match kw.as_str() {
                    "lpm_map" => StateKind::LpmMap {
                        key,
                        value,
                        capacity,
                        prefix_fields: self.lpm_prefix_fields()?,
                    },
                    "ternary_map" => StateKind::TernaryMap {
                        key,
                        value,
                        capacity,
                    },
                    _ => StateKind::RangeMap {
                        key,
                        value,
                        capacity,
                    },
                }
            }
            "hashmap" | "expiring_map" => {
                let key = self.layout()?;
                self.expect_punct(',')?;
                let value = self.layout()?;
                self.expect_punct(',')?;
                let capacity = self.number("a capacity")?;
                if kw == "hashmap" {
                    StateKind::HashMap {
                        key,
                        value,
                        capacity,
                    }
                } else {
                    self.expect_punct(',')?;
                    let idle_timeout_ns = self.number("an idle timeout in ns")?;
                    StateKind::ExpiringMap {
                        key,
                        value,
                        capacity,
                        idle_timeout_ns,
                    }
                }
            }
            "vector" => {
                let elem = self.layout()?;
                self.expect_punct(',')?;
                let len = self.number("a length")?;
                StateKind::Vector { elem, len }
            }
            "scalar" => StateKind::Scalar { ty: self.ty()? },
            "meter" => {
                let len = self.number("a number of meters")?;
                self.expect_punct(',')?;
                let (u, ut) = self.ident("`bytes` or `packets`")?;
                let Some(unit) = crate::meter::MeterUnit::from_name(&u) else {
                    return self.err_at(&ut, format!("unknown meter unit `{u}` (expected bytes, packets)"));
                };
                StateKind::Meter { len, unit }
            }
            _ => {
                return self.err_at(
                    &t,
                    format!(
                    "unknown state kind `{kw}` (expected hashmap, vector, scalar, expiring_map, lpm_map, ternary_map, range_map, meter)"
                ),
                )
            }
        };
        self.expect_punct('>')?;
        Ok(kind)
    }

    fn function(&mut self) -> Result<(), ParseError> {
        self.expect_punct('{')?;
        let mut current: Option<Block> = None;
        loop {
            let t = self.peek().clone();
            match &t.tok {
                Tok::Punct('}') => {
                    self.bump();
                    break;
                }
                Tok::Ident(s) if s.starts_with("block") => {
                    let b = self.block_ref()?;
                    let idx = b.index();
                    if self.defined_blocks[idx].2 {
                        return self.err_at(&t, format!("block `{b}` is defined twice"));
                    }
                    self.defined_blocks[idx] = (t.line, t.col, true);
                    if self.eat_punct('(') && !self.eat_punct(')') {
                        loop {
                            let pt = self.peek().clone();
                            let v = self.value()?;
                            self.expect_punct(':')?;
                            let ty = self.ty()?;
                            let pidx = self.f().blocks[b].params.len();
                            self.define_value(v, ty, ValueDef::Param(b, pidx), &pt)?;
                            self.f().blocks[b].params.push(v);
                            if self.eat_punct(')') {
                                break;
                            }
                            self.expect_punct(',')?;
                        }
                    }
                    self.expect_punct(':')?;
                    current = Some(b);
                }
                Tok::Eof => return self.unexpected("`}` closing the function"),
                _ => {
                    let Some(b) = current else {
                        return self.unexpected("a block label like `block0:`");
                    };
                    let inst = self.inst()?;
                    self.f().blocks[b].insts.push(inst);
                }
            }
        }
        if let Some((i, &(line, col, _))) =
            self.defined_blocks.iter().enumerate().find(|(_, d)| !d.2)
        {
            return Err(ParseError {
                line,
                col,
                message: format!("block `block{i}` is used but has no label (blocks must be numbered block0, block1, ...)"),
            });
        }
        Ok(())
    }

    fn define_value(
        &mut self,
        v: Value,
        ty: Type,
        def: ValueDef,
        t: &Token,
    ) -> Result<(), ParseError> {
        let f: &mut Function = self.f();
        f.reserve_value(v);
        if f.values[v].def != ValueDef::Unused {
            return self.err_at(t, format!("value `{v}` is defined twice"));
        }
        f.values[v] = ValueData { ty, def };
        Ok(())
    }

    fn value_list(&mut self, close: char) -> Result<Vec<Value>, ParseError> {
        let mut out = Vec::new();
        if self.eat_punct(close) {
            return Ok(out);
        }
        loop {
            out.push(self.value()?);
            if self.eat_punct(close) {
                return Ok(out);
            }
            self.expect_punct(',')?;
        }
    }

    fn block_call(&mut self) -> Result<BlockCall, ParseError> {
        let block = self.block_ref()?;
        let args = if self.eat_punct('(') {
            self.value_list(')')?
        } else {
            Vec::new()
        };
        Ok(BlockCall { block, args })
    }

    fn effects(&mut self) -> Result<Vec<Effect>, ParseError> {
        self.expect_punct('[')?;
        let mut out = Vec::new();
        if self.eat_punct(']') {
            return Ok(out);
        }
        loop {
            let (s, t) =
                self.ident("an effect (`payload`, a field, `state NAME`, `action`, `all`)")?;
            let e = match s.as_str() {
                "payload" => Effect::Payload,
                "layout" => Effect::Layout,
                "action" => Effect::Action,
                "all" => Effect::All,
                "state" => Effect::State(self.state_ref()?),
                _ => match self.module.field_by_name(&s) {
                    Some(f) => Effect::Field(f),
                    None => return self.err_at(&t, format!("unknown effect `{s}`")),
                },
            };
            out.push(e);
            if self.eat_punct(']') {
                return Ok(out);
            }
            self.expect_punct(',')?;
        }
    }

    fn inst(&mut self) -> Result<Inst, ParseError> {
        // Results.
        let mut results: Vec<(Value, Type, Token)> = Vec::new();
        if matches!(&self.peek().tok, Tok::Ident(s) if s.starts_with('v'))
            && (self.peek_at(1) == &Tok::Punct(':') || self.peek_at(1) == &Tok::Punct(','))
        {
            loop {
                let t = self.peek().clone();
                let v = self.value()?;
                self.expect_punct(':')?;
                let ty = self.ty()?;
                results.push((v, ty, t));
                if self.eat_punct('=') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        let (op, ot) = self.ident("an instruction")?;
        let kind = self.inst_kind(&op, &ot)?;
        let loc = if self.is_keyword("at") {
            self.bump();
            let at = self.source_pos()?;
            let site = if self.is_keyword("from") {
                self.bump();
                Some(self.source_pos()?)
            } else {
                None
            };
            Some(SourceLoc {
                file: at.file,
                line: at.line,
                col: at.col,
                site,
            })
        } else {
            None
        };
        let inst = self.f().insts.push(InstData {
            kind,
            results: Vec::new(),
            loc,
        });
        for (i, (v, ty, t)) in results.into_iter().enumerate() {
            self.define_value(v, ty, ValueDef::Result(inst, i), &t)?;
            self.f().insts[inst].results.push(v);
        }
        Ok(inst)
    }

    /// `fN:LINE:COL`, the file declared.
    fn source_pos(&mut self) -> Result<crate::SourcePos, ParseError> {
        let (n, ft) = self.numbered("f", "a file id like `f0`")?;
        let file = FileId::from_u32(n);
        if !self.module.files.is_valid(file) {
            return self.err_at(&ft, format!("no file `{file}` declared"));
        }
        self.expect_punct(':')?;
        let line = self.number_u32("a line number")?;
        self.expect_punct(':')?;
        let col = self.number_u32("a column number")?;
        Ok(crate::SourcePos { file, line, col })
    }

    fn inst_kind(&mut self, op: &str, ot: &Token) -> Result<InstKind, ParseError> {
        if let Some(op) = crate::BinOp::from_name(op) {
            let a = self.value()?;
            self.expect_punct(',')?;
            let b = self.value()?;
            return Ok(InstKind::Binary { op, args: [a, b] });
        }
        if let Some(op) = CastOp::from_name(op) {
            return Ok(InstKind::Cast {
                op,
                arg: self.value()?,
            });
        }
        Ok(match op {
            "const" => InstKind::Const {
                imm: self.number("a constant")?,
            },
            "icmp" => {
                let (p, pt) = self.ident("a predicate like `eq`")?;
                let Some(pred) = IntCC::from_name(&p) else {
                    return self.err_at(&pt, format!("unknown icmp predicate `{p}`"));
                };
                let a = self.value()?;
                self.expect_punct(',')?;
                let b = self.value()?;
                InstKind::Icmp { pred, args: [a, b] }
            }
            "select" => {
                let cond = self.value()?;
                self.expect_punct(',')?;
                let if_true = self.value()?;
                self.expect_punct(',')?;
                let if_false = self.value()?;
                InstKind::Select {
                    cond,
                    if_true,
                    if_false,
                }
            }
            "bswap" => InstKind::Bswap { arg: self.value()? },
            "hash" => {
                let (a, at) = self.ident("a hash algorithm (`crc16`, `crc32`, `identity`)")?;
                let Some(algo) = crate::HashAlgo::from_name(&a) else {
                    return self.err_at(&at, format!("unknown hash algorithm `{a}`"));
                };
                self.expect_punct('(')?;
                let args = self.value_list(')')?;
                InstKind::Hash { algo, args }
            }
            "hdr.read" | "hdr.write" => {
                let (f, ft) = self.ident("a header field like `ipv4.daddr`")?;
                let Some(field) = self.module.field_by_name(&f) else {
                    return self.err_at(&ft, format!("unknown header field `{f}`"));
                };
                if op == "hdr.read" {
                    InstKind::HdrRead { field }
                } else {
                    self.expect_punct(',')?;
                    InstKind::HdrWrite {
                        field,
                        value: self.value()?,
                    }
                }
            }
            "hdr.valid" | "hdr.push" | "hdr.pop" => {
                let (h, ht) =
                    self.ident("a header (`eth`, `ipv4`, `tcp`, `udp` or a declared one)")?;
                let Some(header) = self.module.header_by_name(&h) else {
                    return self.err_at(&ht, format!("unknown header `{h}`"));
                };
                match op {
                    "hdr.valid" => InstKind::HdrValid { header },
                    "hdr.push" => InstKind::HdrPush { header },
                    _ => InstKind::HdrPop { header },
                }
            }
            "meta.read" => {
                let (m, mt) = self.ident("`in_port`, `length` or `now`")?;
                let Some(meta) = Meta::from_name(&m) else {
                    return self.err_at(&mt, format!("unknown metadata `{m}`"));
                };
                InstKind::MetaRead { meta }
            }
            "map.find" | "map.erase" | "map.insert" => {
                let state = self.state_ref()?;
                self.expect_punct('(')?;
                let key = self.value_list(')')?;
                match op {
                    "map.find" => InstKind::MapFind { state, key },
                    "map.erase" => InstKind::MapErase { state, key },
                    _ => {
                        if self.peek().tok != Tok::Arrow {
                            return self.unexpected("`->` and the value fields");
                        }
                        self.bump();
                        self.expect_punct('(')?;
                        let value = self.value_list(')')?;
                        InstKind::MapInsert { state, key, value }
                    }
                }
            }
            "vec.get" | "vec.set" => {
                let state = self.state_ref()?;
                self.expect_punct('[')?;
                let index = self.value()?;
                self.expect_punct(']')?;
                if op == "vec.get" {
                    InstKind::VecGet { state, index }
                } else {
                    self.expect_punct('(')?;
                    InstKind::VecSet {
                        state,
                        index,
                        value: self.value_list(')')?,
                    }
                }
            }
            "meter.execute" => {
                let state = self.state_ref()?;
                self.expect_punct('[')?;
                let index = self.value()?;
                self.expect_punct(']')?;
                InstKind::MeterExecute { state, index }
            }
            "scalar.load" => InstKind::ScalarLoad {
                state: self.state_ref()?,
            },
            "scalar.store" => {
                let state = self.state_ref()?;
                self.expect_punct(',')?;
                InstKind::ScalarStore {
                    state,
                    value: self.value()?,
                }
            }
            "send" => InstKind::Send {
                port: self.value()?,
            },
            "drop" => InstKind::Drop,
            "opaque" => {
                let name = match self.peek().tok.clone() {
                    Tok::Str(s) => {
                        self.bump();
                        s
                    }
                    _ => return self.unexpected("a quoted callee name"),
                };
                self.expect_punct('(')?;
                let args = self.value_list(')')?;
                self.expect_keyword("reads")?;
                let reads = self.effects()?;
                self.expect_keyword("writes")?;
                let writes = self.effects()?;
                InstKind::Opaque {
                    name,
                    args,
                    reads,
                    writes,
                }
            }
            "br" => InstKind::Jump {
                dest: self.block_call()?,
            },
            "brif" => {
                let cond = self.value()?;
                self.expect_punct(',')?;
                let then_dest = self.block_call()?;
                self.expect_punct(',')?;
                let else_dest = self.block_call()?;
                InstKind::Brif {
                    cond,
                    then_dest,
                    else_dest,
                }
            }
            "switch" => {
                let arg = self.value()?;
                self.expect_punct(',')?;
                let default = self.block_call()?;
                self.expect_punct(',')?;
                self.expect_punct('[')?;
                let mut cases = Vec::new();
                if !self.eat_punct(']') {
                    loop {
                        let k = self.number("a case constant")?;
                        self.expect_punct(':')?;
                        cases.push((k, self.block_call()?));
                        if self.eat_punct(']') {
                            break;
                        }
                        self.expect_punct(',')?;
                    }
                }
                InstKind::Switch {
                    arg,
                    default,
                    cases,
                }
            }
            "return" => InstKind::Return,
            _ => return self.err_at(ot, format!("unknown instruction `{op}`")),
        })
    }
}
