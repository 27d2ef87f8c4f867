//! `check_constraints`: what each target's compiler accepts, checked on a generated program
//! before anyone sees it (docs/targets.md lists the rules, where each comes from and how it was
//! verified).
//!
//! The P4-16 language accepts far more than the targets do: p4c's BMv2 back end
//! (`p4c-bm2-ss`) refuses a shift whose amount is wider than 8 bits, Tofino has no run-time
//! division, Tandem's own switch reads a header field through one 8-byte window. A program
//! that breaks one of these rules must never be written as `switch.p4`: the generator's
//! self-check ([`crate::self_check`]) prints the program, parses it back (so every node has a
//! real line), runs [`check_constraints`] and, for v1model, loads it on Tandem's switch.
//!
//! ```text
//! before (a plan whose NF shifts by a 32-bit value, generated without the shift rule):
//!     meta.v3 = meta.v1 >> meta.v2;
//! check_constraints(.., Arch::V1Model):
//!     switch.p4:412: [bmv2-shift-amount] the amount of `>>` is bit<32>; p4c-bm2-ss accepts at
//!     most bit<8> ("shift amount limited to 8 bits on this target")
//! ```
//!
//! Types are inferred over the generator's subset of P4 (fields of declared headers and
//! structs, the architectures' intrinsic metadata, literals, casts, slices, operators); an
//! expression whose type cannot be inferred is not judged by the type rules (the switch's
//! own checker, run next for v1model, is complete for its subset).

use std::collections::HashMap;
use std::fmt;

use tandem_p4_syntax::{
    BinOp, Block, Decl, DeclKind, Expr, ExprKind, Param, Program, Span, Stmt, StmtKind, Transition,
    Type, UnOp,
};

use crate::Arch;

/// One rule a target imposes on the programs it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// p4c-bm2-ss: the right operand of `<<`/`>>` is at most `bit<8>` (constants too).
    Bmv2ShiftAmount,
    /// Shift amounts are unsigned (P4-16 §8.5; p4c's type checker).
    ShiftAmountUnsigned,
    /// Every header is a whole number of bytes (p4c-bm2-ss, Tofino).
    HeaderBytes,
    /// Tandem's switch and this generator keep values at most 64 bits wide.
    ValueWidth,
    /// Tandem's switch reads a field through one 8-byte window: a field wider than 56 bits
    /// starts on a byte boundary.
    WideFieldAligned,
    /// Parser `select` operands are header/metadata fields or slices of them.
    SelectOperand,
    /// Select keysets are constants, masks (`&&&`), ranges, `_` or `default`.
    SelectKeyset,
    /// Table keys are fields, slices of fields or `isValid()`; match kinds the architecture
    /// defines; at most one `lpm` key per table.
    TableKey,
    /// Register indices are `bit<32>` (v1model `register<T>`; TNA `Register<T, bit<32>>` as
    /// generated).
    RegisterIndex,
    /// Intrinsic metadata fields exist in the architecture (`standard_metadata_t`, TNA's
    /// `ig_intr_md*` structs) with the widths used.
    IntrinsicField,
    /// `/` and `%` only on values known at compile time (p4c's `CompileTimeOperations`
    /// mid-end pass, run by p4c-bm2-ss and p4test alike; a constant power of two is
    /// strength-reduced to a shift or mask before it).
    CompileTimeDivision,
    /// No method call, `return` or `exit` under an `if` inside an action (p4c's
    /// `Predication`: "Conditional execution in actions unsupported on this target").
    ActionConditional,
    /// Each table is applied at one place (p4c-bm2-ss: "table has multiple successors").
    TableAppliedOnce,
    /// Action parameters are `bit<N>`/`int<N>` (p4c-bm2-ss: "action parameters must be
    /// bit<> or int<> on this target").
    ActionParamType,
    /// A deparser only emits headers (p4c-bm2-ss: "within a deparser on this target").
    DeparserEmitOnly,
    /// `if` conditions are `bool` (P4-16; p4c "does not evaluate to a bool").
    IfConditionBool,
    /// `mark_to_drop(standard_metadata)` with its one argument (p4c-bm2-ss: "Expected 1
    /// argument").
    MarkToDropArgument,
    /// The TNA ingress parser starts with `extract(ig_intr_md)` and skips the port metadata.
    TnaParserStart,
    /// Binary operands of arithmetic, bitwise and comparison operators have one width
    /// (P4-16 has no implicit width conversion between `bit<N>` types).
    OperandWidths,
    /// The field list a hash unit reads (v1model `hash(.., {..}, ..)`, TNA `Hash.get({..})`)
    /// holds fields, constant slices of fields and typed constants.
    HashOperand,
    /// A meter's index has the meter's index type (v1model `meter`: `bit<32>`; TNA
    /// `Meter<I>`: `I`) and v1model's `execute_meter` writes its colour into a `bit<W>`,
    /// `W >= 2`.
    MeterCall,
}

impl Rule {
    /// Every rule, in the order docs/targets.md lists them.
    pub const ALL: [Rule; 21] = [
        Rule::Bmv2ShiftAmount,
        Rule::ShiftAmountUnsigned,
        Rule::HeaderBytes,
        Rule::ValueWidth,
        Rule::WideFieldAligned,
        Rule::SelectOperand,
        Rule::SelectKeyset,
        Rule::TableKey,
        Rule::RegisterIndex,
        Rule::IntrinsicField,
        Rule::CompileTimeDivision,
        Rule::TnaParserStart,
        Rule::OperandWidths,
        Rule::ActionConditional,
        Rule::TableAppliedOnce,
        Rule::ActionParamType,
        Rule::DeparserEmitOnly,
        Rule::IfConditionBool,
        Rule::MarkToDropArgument,
        Rule::HashOperand,
        Rule::MeterCall,
    ];

    /// The rule's identifier (docs/targets.md).
    pub fn id(self) -> &'static str {
        match self {
            Rule::Bmv2ShiftAmount => "bmv2-shift-amount",
            Rule::ShiftAmountUnsigned => "shift-amount-unsigned",
            Rule::HeaderBytes => "header-bytes",
            Rule::ValueWidth => "value-width",
            Rule::WideFieldAligned => "wide-field-aligned",
            Rule::SelectOperand => "select-operand",
            Rule::SelectKeyset => "select-keyset",
            Rule::TableKey => "table-key",
            Rule::RegisterIndex => "register-index",
            Rule::IntrinsicField => "intrinsic-field",
            Rule::CompileTimeDivision => "compile-time-division",
            Rule::ActionConditional => "action-conditional",
            Rule::TableAppliedOnce => "table-applied-once",
            Rule::ActionParamType => "action-param-type",
            Rule::DeparserEmitOnly => "deparser-emit-only",
            Rule::IfConditionBool => "if-condition-bool",
            Rule::MarkToDropArgument => "mark-to-drop-argument",
            Rule::TnaParserStart => "tna-parser-start",
            Rule::OperandWidths => "operand-widths",
            Rule::HashOperand => "hash-operand",
            Rule::MeterCall => "meter-call",
        }
    }

    /// Whether `arch` imposes this rule.
    pub fn applies_to(self, arch: Arch) -> bool {
        match self {
            Rule::Bmv2ShiftAmount
            | Rule::WideFieldAligned
            | Rule::TableAppliedOnce
            | Rule::ActionParamType
            | Rule::DeparserEmitOnly
            | Rule::MarkToDropArgument => arch == Arch::V1Model,
            Rule::TnaParserStart => arch == Arch::Tna,
            _ => true,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A place where a program breaks a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule.
    pub rule: Rule,
    /// Where (line and column of the offending construct; 0:0 for a synthesised program that
    /// was not parsed back).
    pub span: Span,
    /// What is wrong, in the target's terms.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: [{}] {}", self.span, self.rule, self.detail)
    }
}

/// Checks `program` against every rule of `arch`.
pub fn check_constraints(program: &Program, arch: Arch) -> Vec<Violation> {
    let mut c = Checker::new(program, arch);
    c.check_program(program);
    c.out
}

/// A P4 type as far as the rules need it.
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Bool,
    Bit(u32),
    Int(u32),
    /// An integer literal without a width, with its value.
    InfInt(u128),
    /// A header or struct type by name.
    Named(String),
}

impl Ty {
    fn show(&self) -> String {
        match self {
            Ty::Bool => "bool".into(),
            Ty::Bit(w) => format!("bit<{w}>"),
            Ty::Int(w) => format!("int<{w}>"),
            Ty::InfInt(_) => "int".into(),
            Ty::Named(n) => n.clone(),
        }
    }
}

/// Intrinsic metadata of the architectures, as their includes declare it (p4c
/// `p4include/v1model.p4`; Open-Tofino `tofino1_arch.p4`/`tofino.p4`).
fn intrinsic_structs(arch: Arch) -> Vec<(&'static str, Vec<(&'static str, u32)>)> {
    match arch {
        Arch::V1Model => vec![(
            "standard_metadata_t",
            vec![
                ("ingress_port", 9),
                ("egress_spec", 9),
                ("egress_port", 9),
                ("instance_type", 32),
                ("packet_length", 32),
                ("enq_timestamp", 32),
                ("enq_qdepth", 19),
                ("deq_timedelta", 32),
                ("deq_qdepth", 19),
                ("ingress_global_timestamp", 48),
                ("egress_global_timestamp", 48),
                ("mcast_grp", 16),
                ("egress_rid", 16),
                ("checksum_error", 1),
                ("priority", 3),
            ],
        )],
        // Tandem's switch binds TNA to the same list (`tandem_switch::TNA_INTRINSIC`).
        Arch::Tna => tandem_switch::TNA_INTRINSIC
            .iter()
            .map(|&(n, fields)| (n, fields.to_vec()))
            .collect(),
    }
}

struct Checker {
    arch: Arch,
    /// Header and struct types: name -> fields.
    types: HashMap<String, Vec<(String, Type)>>,
    headers: Vec<String>,
    typedefs: HashMap<String, Type>,
    consts: HashMap<String, Ty>,
    /// Intrinsic structs of the architecture (fields and widths).
    intrinsic: HashMap<&'static str, Vec<(&'static str, u32)>>,
    /// Variables in scope: name -> type (control/parser parameters and locals).
    scope: Vec<HashMap<String, Type>>,
    /// Register instances: name -> declared index type.
    registers: HashMap<String, Type>,
    /// Meter instances: name -> index type.
    meters: HashMap<String, Type>,
    /// Inside an action: how many `if`s deep (None outside actions).
    action_ifs: Option<u32>,
    /// Tables applied in the current control: name -> (count, first place).
    applies: HashMap<String, (usize, Span)>,
    out: Vec<Violation>,
}

impl Checker {
    fn new(program: &Program, arch: Arch) -> Checker {
        let mut c = Checker {
            arch,
            types: HashMap::new(),
            headers: Vec::new(),
            typedefs: HashMap::new(),
            consts: HashMap::new(),
            intrinsic: intrinsic_structs(arch).into_iter().collect(),
            scope: vec![HashMap::new()],
            registers: HashMap::new(),
            meters: HashMap::new(),
            action_ifs: None,
            applies: HashMap::new(),
            out: Vec::new(),
        };
        for d in &program.items {
            match &d.kind {
                DeclKind::Header { name, fields } => {
                    c.headers.push(name.clone());
                    c.types.insert(
                        name.clone(),
                        fields
                            .iter()
                            .map(|f| (f.name.clone(), f.ty.clone()))
                            .collect(),
                    );
                }
                DeclKind::Struct { name, fields } => {
                    c.types.insert(
                        name.clone(),
                        fields
                            .iter()
                            .map(|f| (f.name.clone(), f.ty.clone()))
                            .collect(),
                    );
                }
                DeclKind::Typedef { ty, name, .. } => {
                    c.typedefs.insert(name.clone(), ty.clone());
                }
                _ => {}
            }
        }
        for d in &program.items {
            if let DeclKind::Const { ty, name, .. } = &d.kind {
                let t = c.lower_type(ty);
                if let Some(t) = t {
                    c.consts.insert(name.clone(), t);
                }
            }
        }
        c
    }

    fn violation(&mut self, rule: Rule, span: Span, detail: String) {
        if rule.applies_to(self.arch) {
            self.out.push(Violation { rule, span, detail });
        }
    }

    fn resolve(&self, ty: &Type) -> Type {
        let mut t = ty.clone();
        for _ in 0..8 {
            match &t {
                Type::Named { name, args } if args.is_empty() => match self.typedefs.get(name) {
                    Some(u) => t = u.clone(),
                    None => break,
                },
                _ => break,
            }
        }
        t
    }

    fn lower_type(&self, ty: &Type) -> Option<Ty> {
        match self.resolve(ty) {
            Type::Bool => Some(Ty::Bool),
            Type::Bit(w) => Some(Ty::Bit(w)),
            Type::Int(w) => Some(Ty::Int(w)),
            Type::Named { name, .. } => Some(Ty::Named(name)),
            _ => None,
        }
    }

    // ----- declarations -----

    fn check_program(&mut self, program: &Program) {
        for d in &program.items {
            match &d.kind {
                DeclKind::Header { name, fields } => self.check_header(d.span, name, fields),
                DeclKind::Struct { name, fields } => {
                    for f in fields {
                        self.check_width(d.span, &format!("{name}.{}", f.name), &f.ty);
                    }
                }
                DeclKind::Parser {
                    name,
                    params,
                    locals,
                    states,
                } => {
                    self.enter(params, locals);
                    if self.arch == Arch::Tna && name.contains("Ingress") {
                        self.check_tna_parser_start(d.span, name, states);
                    }
                    for s in states {
                        for st in &s.body {
                            self.stmt(st);
                        }
                        if let Transition::Select { exprs, cases } = &s.transition {
                            for e in exprs {
                                self.select_operand(e);
                            }
                            for case in cases {
                                for k in &case.keys {
                                    self.select_keyset(k);
                                }
                            }
                        }
                    }
                    self.scope.pop();
                }
                DeclKind::Control {
                    name,
                    params,
                    locals,
                    apply,
                } => {
                    self.enter(params, locals);
                    if params.iter().any(|p| is_named(&p.ty, "packet_out")) {
                        self.check_deparser(name, apply);
                    }
                    for l in locals {
                        self.local(l);
                    }
                    self.block(apply);
                    self.scope.pop();
                    self.registers.clear();
                    self.meters.clear();
                    let mut twice: Vec<(String, usize, Span)> = self
                        .applies
                        .drain()
                        .filter(|(_, (n, _))| *n > 1)
                        .map(|(t, (n, sp))| (t, n, sp))
                        .collect();
                    twice.sort_by_key(|(_, _, sp)| *sp);
                    for (t, n, sp) in twice {
                        self.violation(
                            Rule::TableAppliedOnce,
                            sp,
                            format!("control `{name}` applies table `{t}` at {n} places (p4c-bm2-ss: \"table has multiple successors\")"),
                        );
                    }
                }
                DeclKind::Action { name, params, body } => {
                    self.enter(params, &[]);
                    self.action(d.span, name, params, body);
                    self.scope.pop();
                }
                _ => {}
            }
        }
    }

    fn enter(&mut self, params: &[Param], locals: &[Decl]) {
        let mut s: HashMap<String, Type> = params
            .iter()
            .map(|p| (p.name.clone(), p.ty.clone()))
            .collect();
        for l in locals {
            match &l.kind {
                DeclKind::Variable { ty, name, .. } => {
                    s.insert(name.clone(), ty.clone());
                }
                DeclKind::Instantiation {
                    ty: Type::Named { name: t, args },
                    name,
                    ..
                } => {
                    let index = match (t.as_str(), args.as_slice()) {
                        ("register", [_]) => Some(Type::Bit(32)),
                        ("register", [_, i]) | ("Register", [_, i]) => Some(i.clone()),
                        _ => None,
                    };
                    if let Some(i) = index {
                        self.registers.insert(name.clone(), i);
                    }
                    let meter = match (t.as_str(), args.as_slice()) {
                        ("meter", []) => Some(Type::Bit(32)),
                        ("Meter", [i]) => Some(i.clone()),
                        _ => None,
                    };
                    if let Some(i) = meter {
                        self.meters.insert(name.clone(), i);
                    }
                }
                _ => {}
            }
        }
        self.scope.push(s);
    }

    fn local(&mut self, d: &Decl) {
        match &d.kind {
            DeclKind::Action { name, params, body } => {
                self.enter(params, &[]);
                self.action(d.span, name, params, body);
                self.scope.pop();
            }
            DeclKind::Table(t) => {
                let mut lpm = 0;
                for k in &t.keys {
                    let kinds: &[&str] = match self.arch {
                        Arch::V1Model => {
                            &["exact", "lpm", "ternary", "range", "optional", "selector"]
                        }
                        Arch::Tna => &[
                            "exact",
                            "lpm",
                            "ternary",
                            "range",
                            "selector",
                            "atcam_partition_index",
                        ],
                    };
                    if !kinds.contains(&k.match_kind.as_str()) {
                        self.violation(
                            Rule::TableKey,
                            k.expr.span,
                            format!(
                                "table `{}`: match kind `{}` is not defined by the architecture",
                                t.name, k.match_kind
                            ),
                        );
                    }
                    lpm += usize::from(k.match_kind == "lpm");
                    if !is_field_or_slice(&k.expr) && !is_valid_call(&k.expr) {
                        self.violation(
                            Rule::TableKey,
                            k.expr.span,
                            format!(
                                "table `{}`: key `{}` is not a field, a slice of a field or isValid()",
                                t.name,
                                tandem_p4_syntax::print_expr(&k.expr)
                            ),
                        );
                    }
                    self.expr(&k.expr);
                }
                if lpm > 1 {
                    self.violation(
                        Rule::TableKey,
                        t.keys.first().map(|k| k.expr.span).unwrap_or_default(),
                        format!("table `{}` has {lpm} lpm keys (at most one)", t.name),
                    );
                }
            }
            DeclKind::Variable { ty, name, init } => {
                self.check_width(d.span, name, ty);
                if let Some(e) = init {
                    self.expr(e);
                }
            }
            _ => {}
        }
    }

    fn action(&mut self, span: Span, name: &str, params: &[Param], body: &Block) {
        for p in params {
            if !matches!(self.resolve(&p.ty), Type::Bit(_) | Type::Int(_)) {
                self.violation(
                    Rule::ActionParamType,
                    span,
                    format!(
                        "action `{name}`: parameter `{}` is {} (bit<N> or int<N> only)",
                        p.name,
                        tandem_p4_syntax::print_type(&p.ty)
                    ),
                );
            }
        }
        self.action_ifs = Some(0);
        self.block(body);
        self.action_ifs = None;
    }

    fn check_deparser(&mut self, name: &str, apply: &Block) {
        for s in &apply.stmts {
            let emits = matches!(&s.kind, StmtKind::Call(e)
                if matches!(&e.kind, ExprKind::Call { func, .. }
                    if matches!(&func.kind, ExprKind::Member(_, m) if m == "emit")));
            if !emits {
                self.violation(
                    Rule::DeparserEmitOnly,
                    s.span,
                    format!("deparser `{name}`: a statement other than `emit`"),
                );
            }
        }
    }

    fn check_header(&mut self, span: Span, name: &str, fields: &[tandem_p4_syntax::Field]) {
        let mut bit = 0u64;
        for f in fields {
            let w = match self.resolve(&f.ty) {
                Type::Bit(w) | Type::Int(w) | Type::Varbit(w) => w,
                Type::Bool => 1,
                _ => 0,
            };
            self.check_width(span, &format!("{name}.{}", f.name), &f.ty);
            if w > 56 && !bit.is_multiple_of(8) {
                self.violation(
                    Rule::WideFieldAligned,
                    span,
                    format!(
                        "header `{name}`: field `{}` (bit<{w}>) starts at bit {bit}, not on a byte boundary; Tandem's switch reads a field through one 8-byte window",
                        f.name
                    ),
                );
            }
            bit += u64::from(w);
        }
        if !bit.is_multiple_of(8) {
            self.violation(
                Rule::HeaderBytes,
                span,
                format!("header `{name}` is {bit} bits, not a whole number of bytes"),
            );
        }
    }

    fn check_width(&mut self, span: Span, what: &str, ty: &Type) {
        if let Type::Bit(w) | Type::Int(w) = self.resolve(ty) {
            if w == 0 || w > 64 {
                self.violation(
                    Rule::ValueWidth,
                    span,
                    format!("`{what}` is {w} bits wide (1 to 64 supported)"),
                );
            }
        }
    }

    fn check_tna_parser_start(
        &mut self,
        span: Span,
        name: &str,
        states: &[tandem_p4_syntax::ParserState],
    ) {
        let Some(start) = states.iter().find(|s| s.name == "start") else {
            self.violation(
                Rule::TnaParserStart,
                span,
                format!("parser `{name}` has no start state"),
            );
            return;
        };
        let calls: Vec<String> = start
            .body
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Call(e) => Some(tandem_p4_syntax::print_expr(e)),
                _ => None,
            })
            .collect();
        let ok = calls
            .first()
            .is_some_and(|c| c.contains(".extract(ig_intr_md)"))
            && calls.get(1).is_some_and(|c| {
                c.contains(".advance(PORT_METADATA_SIZE)") || c.contains("port_metadata_unpack")
            });
        if !ok {
            self.violation(
                Rule::TnaParserStart,
                start.span,
                format!(
                    "parser `{name}`: the start state must extract ig_intr_md and then skip or unpack the port metadata (found: {})",
                    if calls.is_empty() { "no calls".to_string() } else { calls.join("; ") }
                ),
            );
        }
    }

    // ----- parser -----

    fn select_operand(&mut self, e: &Expr) {
        if !is_field_or_slice(e) {
            self.violation(
                Rule::SelectOperand,
                e.span,
                format!(
                    "select on `{}`: only fields and slices of fields are supported",
                    tandem_p4_syntax::print_expr(e)
                ),
            );
        }
        self.expr(e);
    }

    fn select_keyset(&mut self, k: &Expr) {
        let ok = match &k.kind {
            ExprKind::Default | ExprKind::DontCare | ExprKind::Int { .. } => true,
            ExprKind::Name(n) => self.consts.contains_key(n),
            ExprKind::List(items) => {
                for i in items {
                    self.select_keyset(i);
                }
                true
            }
            ExprKind::Binary(BinOp::Mask | BinOp::Range, a, b) => {
                is_constant(a, &self.consts) && is_constant(b, &self.consts)
            }
            _ => false,
        };
        if !ok {
            self.violation(
                Rule::SelectKeyset,
                k.span,
                format!(
                    "keyset `{}` is not a constant, mask, range or default",
                    tandem_p4_syntax::print_expr(k)
                ),
            );
        }
    }

    // ----- statements and expressions -----

    fn block(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Assign { lhs, rhs } => {
                let lt = self.expr(lhs);
                let rt = self.expr(rhs);
                if let (Some(l), Some(r)) = (lt, rt) {
                    self.same_width(s.span, "=", &l, &r);
                }
            }
            StmtKind::Call(e) => {
                self.conditional_in_action(s.span, "a method call");
                self.expr(e);
            }
            StmtKind::If { cond, then, els } => {
                let t = self.expr(cond);
                if let Some(t) = t.filter(|t| *t != Ty::Bool) {
                    self.violation(
                        Rule::IfConditionBool,
                        s.span,
                        format!("`if` on a {} (bool only)", t.show()),
                    );
                }
                if let Some(d) = self.action_ifs.as_mut() {
                    *d += 1;
                }
                self.block(then);
                if let Some(b) = els {
                    self.block(b);
                }
                if let Some(d) = self.action_ifs.as_mut() {
                    *d -= 1;
                }
            }
            StmtKind::Switch { expr, cases } => {
                self.expr(expr);
                for c in cases {
                    if let Some(b) = &c.body {
                        self.block(b);
                    }
                }
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::Decl(d) => {
                if let DeclKind::Variable { ty, name, init } = &d.kind {
                    self.check_width(d.span, name, ty);
                    if let Some(sc) = self.scope.last_mut() {
                        sc.insert(name.clone(), ty.clone());
                    }
                    if let Some(e) = init {
                        self.expr(e);
                    }
                }
            }
            StmtKind::Return(e) => {
                self.conditional_in_action(s.span, "`return`");
                if let Some(e) = e {
                    self.expr(e);
                }
            }
            StmtKind::Exit => self.conditional_in_action(s.span, "`exit`"),
            StmtKind::Empty => {}
        }
    }

    fn conditional_in_action(&mut self, span: Span, what: &str) {
        if self.action_ifs.is_some_and(|d| d > 0) {
            self.violation(
                Rule::ActionConditional,
                span,
                format!("{what} under an `if` inside an action (p4c: \"Conditional execution in actions unsupported on this target\")"),
            );
        }
    }

    fn lookup(&self, name: &str) -> Option<Ty> {
        for s in self.scope.iter().rev() {
            if let Some(t) = s.get(name) {
                return self.lower_type(t);
            }
        }
        self.consts.get(name).cloned()
    }

    fn field_of(&mut self, base: &Ty, field: &str, span: Span) -> Option<Ty> {
        let Ty::Named(n) = base else { return None };
        if let Some(fields) = self.types.get(n) {
            let t = fields
                .iter()
                .find(|(f, _)| f == field)
                .map(|(_, t)| t.clone());
            return t.and_then(|t| self.lower_type(&t));
        }
        if let Some(fields) = self.intrinsic.get(n.as_str()) {
            match fields.iter().find(|(f, _)| *f == field) {
                Some((_, w)) => return Some(Ty::Bit(*w)),
                None => {
                    let detail = format!("`{n}` has no field `{field}`");
                    self.violation(Rule::IntrinsicField, span, detail);
                }
            }
        }
        None
    }

    /// The expression's type, checking the rules on the way.
    fn expr(&mut self, e: &Expr) -> Option<Ty> {
        match &e.kind {
            ExprKind::Bool(_) => Some(Ty::Bool),
            ExprKind::Int {
                value,
                width,
                signed,
            } => Some(match (width, signed) {
                (Some(w), false) => Ty::Bit(*w),
                (Some(w), true) => Ty::Int(*w),
                (None, _) => Ty::InfInt(*value),
            }),
            ExprKind::Name(n) => self.lookup(n),
            ExprKind::Member(base, f) => {
                let bt = self.expr(base)?;
                self.field_of(&bt, f, e.span)
            }
            ExprKind::Slice(a, hi, lo) => {
                self.expr(a);
                match (int_value(hi), int_value(lo)) {
                    (Some(h), Some(l)) if h >= l => Some(Ty::Bit((h - l + 1) as u32)),
                    _ => None,
                }
            }
            ExprKind::Cast(t, a) => {
                self.expr(a);
                if let Some(Ty::Bit(w) | Ty::Int(w)) = self.lower_type(t) {
                    if w == 0 || w > 64 {
                        self.violation(
                            Rule::ValueWidth,
                            e.span,
                            format!("cast to {w} bits (1 to 64 supported)"),
                        );
                    }
                }
                self.lower_type(t)
            }
            ExprKind::Unary(op, a) => {
                let t = self.expr(a);
                match op {
                    UnOp::Not => Some(Ty::Bool),
                    _ => t,
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(e.span, *op, a, b),
            ExprKind::Ternary(c, a, b) => {
                self.expr(c);
                let ta = self.expr(a);
                let tb = self.expr(b);
                if let (Some(x), Some(y)) = (&ta, &tb) {
                    self.same_width(e.span, "?:", x, y);
                }
                match ta {
                    Some(Ty::InfInt(_)) | None => tb,
                    t => t,
                }
            }
            ExprKind::Call { func, args, .. } => {
                for a in args {
                    self.expr(a);
                }
                self.call(e.span, func, args)
            }
            ExprKind::List(items) => {
                for i in items {
                    self.expr(i);
                }
                None
            }
            ExprKind::Index(a, i) => {
                self.expr(a);
                self.expr(i);
                None
            }
            _ => None,
        }
    }

    fn call(&mut self, span: Span, func: &Expr, args: &[Expr]) -> Option<Ty> {
        if matches!(&func.kind, ExprKind::Name(n) if n == "mark_to_drop") && args.len() != 1 {
            self.violation(
                Rule::MarkToDropArgument,
                span,
                format!(
                    "mark_to_drop with {} arguments (one: standard_metadata)",
                    args.len()
                ),
            );
        }
        let hash_data = match &func.kind {
            ExprKind::Name(n) if n == "hash" => args.get(3),
            ExprKind::Member(_, m) if m == "get" && self.arch == Arch::Tna => args.first(),
            _ => None,
        };
        if let Some(ExprKind::List(items)) = hash_data.map(|d| &d.kind) {
            for it in items {
                let typed_const = matches!(it.kind, ExprKind::Int { width: Some(_), .. });
                if !(is_field_or_slice(it) || typed_const) {
                    self.violation(
                        Rule::HashOperand,
                        it.span,
                        format!(
                            "hash input `{}`: a hash unit reads fields, slices of fields and typed constants (BMv2 field lists; Tofino's hash input crossbar reads PHV fields)",
                            tandem_p4_syntax::print_expr(it)
                        ),
                    );
                }
            }
        }
        let ExprKind::Member(base, m) = &func.kind else {
            return None;
        };
        if m == "isValid" {
            return Some(Ty::Bool);
        }
        if m == "apply" {
            if let ExprKind::Name(t) = &base.kind {
                let e = self.applies.entry(t.clone()).or_insert((0, span));
                e.0 += 1;
            }
            return None;
        }
        if let ExprKind::Name(obj) = &base.kind {
            if let Some(index_ty) = self.registers.get(obj).cloned() {
                // v1model: read(out T, in I index) / write(in I index, in T value);
                // TNA: read(in I index) / write(in I index, in T value).
                let index = match (self.arch, m.as_str()) {
                    (Arch::V1Model, "read") => args.get(1),
                    (_, "read" | "write") => args.first(),
                    _ => None,
                };
                if let Some(i) = index {
                    self.check_index(Rule::RegisterIndex, "register", obj, &index_ty, i, span);
                }
            }
            if let Some(index_ty) = self.meters.get(obj).cloned() {
                // v1model: execute_meter(in bit<32> index, out T result), T = bit<W>, W >= 2;
                // TNA: execute(in I index).
                let call = matches!(
                    (self.arch, m.as_str()),
                    (Arch::V1Model, "execute_meter") | (Arch::Tna, "execute")
                );
                if let (true, Some(i)) = (call, args.first()) {
                    self.check_index(Rule::MeterCall, "meter", obj, &index_ty, i, span);
                }
                if let (Arch::V1Model, true, Some(r)) = (self.arch, call, args.get(1)) {
                    let got = self.expr(r);
                    if !matches!(got, Some(Ty::Bit(w)) if w >= 2) {
                        self.violation(
                            Rule::MeterCall,
                            span,
                            format!(
                                "meter `{obj}`: the colour goes into `{}`, which is {}; execute_meter writes a bit<W> with W >= 2",
                                tandem_p4_syntax::print_expr(r),
                                got.map(|t| t.show()).unwrap_or_else(|| "?".into()),
                            ),
                        );
                    }
                }
                if matches!(self.arch, Arch::Tna) && m == "execute" {
                    return Some(Ty::Bit(8));
                }
            }
        }
        None
    }

    /// An extern's index argument `i` against its declared index type (`bit<32>` as
    /// generated).
    fn check_index(
        &mut self,
        rule: Rule,
        what: &str,
        obj: &str,
        index_ty: &Type,
        i: &Expr,
        span: Span,
    ) {
        let want = self.lower_type(index_ty);
        let got = self.expr(i);
        let fits = match (&want, &got) {
            (Some(Ty::Bit(w)), Some(Ty::Bit(g))) => w == g,
            (Some(Ty::Bit(w)), Some(Ty::InfInt(v))) => *v < (1u128 << *w),
            _ => true,
        };
        if want != Some(Ty::Bit(32)) || !fits {
            self.violation(
                rule,
                span,
                format!(
                    "{what} `{obj}`: index `{}` is {}, the {what}'s index type is {}",
                    tandem_p4_syntax::print_expr(i),
                    got.map(|t| t.show()).unwrap_or_else(|| "?".into()),
                    want.map(|t| t.show()).unwrap_or_else(|| "?".into()),
                ),
            );
        }
    }

    fn binary(&mut self, span: Span, op: BinOp, a: &Expr, b: &Expr) -> Option<Ty> {
        let ta = self.expr(a);
        let tb = self.expr(b);
        match op {
            BinOp::Shl | BinOp::Shr => {
                match &tb {
                    Some(Ty::Bit(w)) if *w > 8 => self.violation(
                        Rule::Bmv2ShiftAmount,
                        span,
                        format!(
                            "the amount of `{}` is bit<{w}>; p4c-bm2-ss accepts at most bit<8> (\"shift amount limited to 8 bits on this target\")",
                            op.symbol()
                        ),
                    ),
                    Some(Ty::InfInt(v)) if *v > 256 => self.violation(
                        Rule::Bmv2ShiftAmount,
                        span,
                        format!(
                            "the amount of `{}` is {v}; p4c-bm2-ss accepts at most 256 (\"shift amount limited to 256 on this target\")",
                            op.symbol()
                        ),
                    ),
                    Some(Ty::Int(_)) => self.violation(
                        Rule::ShiftAmountUnsigned,
                        span,
                        format!("the amount of `{}` is signed", op.symbol()),
                    ),
                    _ => {}
                }
                ta
            }
            BinOp::Div | BinOp::Mod => {
                let pow2 = const_value(b).is_some_and(|v| v.is_power_of_two());
                let folded = is_constant(a, &self.consts) && is_constant(b, &self.consts);
                if !(pow2 || folded) {
                    self.violation(
                        Rule::CompileTimeDivision,
                        span,
                        format!(
                            "`{}` by a run-time value (p4c: \"could not evaluate at compilation time\")",
                            op.symbol()
                        ),
                    );
                }
                self.arith(span, op, ta, tb)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                if let (Some(x), Some(y)) = (&ta, &tb) {
                    self.same_width(span, op.symbol(), x, y);
                }
                Some(Ty::Bool)
            }
            BinOp::And | BinOp::Or => Some(Ty::Bool),
            BinOp::Concat => match (ta, tb) {
                (Some(Ty::Bit(x) | Ty::Int(x)), Some(Ty::Bit(y) | Ty::Int(y))) => {
                    if x + y > 64 {
                        self.violation(
                            Rule::ValueWidth,
                            span,
                            format!("`++` makes a {}-bit value (1 to 64 supported)", x + y),
                        );
                    }
                    Some(Ty::Bit(x + y))
                }
                _ => None,
            },
            BinOp::Mask | BinOp::Range => None,
            _ => self.arith(span, op, ta, tb),
        }
    }

    fn arith(&mut self, span: Span, op: BinOp, ta: Option<Ty>, tb: Option<Ty>) -> Option<Ty> {
        if let (Some(x), Some(y)) = (&ta, &tb) {
            self.same_width(span, op.symbol(), x, y);
        }
        match ta {
            Some(Ty::InfInt(_)) | None => tb,
            t => t,
        }
    }

    fn same_width(&mut self, span: Span, what: &str, a: &Ty, b: &Ty) {
        let w = |t: &Ty| match t {
            Ty::Bit(w) | Ty::Int(w) => Some(*w),
            _ => None,
        };
        if let (Some(x), Some(y)) = (w(a), w(b)) {
            if x != y {
                self.violation(
                    Rule::OperandWidths,
                    span,
                    format!("`{what}` between {} and {}", a.show(), b.show()),
                );
            }
        }
    }
}

fn int_value(e: &Expr) -> Option<u128> {
    match &e.kind {
        ExprKind::Int { value, .. } => Some(*value),
        _ => None,
    }
}

fn const_value(e: &Expr) -> Option<u128> {
    match &e.kind {
        ExprKind::Int { value, .. } => Some(*value),
        ExprKind::Cast(_, a) => const_value(a),
        _ => None,
    }
}

fn is_constant(e: &Expr, consts: &HashMap<String, Ty>) -> bool {
    match &e.kind {
        ExprKind::Int { .. } | ExprKind::Bool(_) => true,
        ExprKind::Name(n) => consts.contains_key(n),
        ExprKind::Cast(_, a) | ExprKind::Unary(_, a) => is_constant(a, consts),
        ExprKind::Binary(_, a, b) => is_constant(a, consts) && is_constant(b, consts),
        _ => false,
    }
}

/// `a.b.c` or `a.b[hi:lo]` (with constant bounds).
fn is_field_or_slice(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Member(base, _) => {
            matches!(base.kind, ExprKind::Name(_)) || is_field_or_slice(base)
        }
        ExprKind::Slice(a, hi, lo) => {
            is_field_or_slice(a) && int_value(hi).is_some() && int_value(lo).is_some()
        }
        _ => false,
    }
}

fn is_valid_call(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { func, args, .. }
        if args.is_empty() && matches!(&func.kind, ExprKind::Member(_, m) if m == "isValid"))
}

fn is_named(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Named { name: n, .. } if n == name)
}
