//! Checker and lowering: resolves names, computes widths and types, binds the
//! program to the v1model architecture, and lowers it to the statement trees of
//! [`crate::program`]. Diagnostics are collected (not first-error) and carry the
//! source line and column.
//!
//! v1model binding: the `V1Switch(p, vr, ig, eg, ck, dep) main;` instantiation
//! names the six blocks; their parameters are bound positionally to one global
//! headers instance (type taken from the parser's `out` parameter), one metadata
//! instance and `standard_metadata`. `core.p4`/`v1model.p4` are built in:
//! `#include` lines are accepted and not read.

use crate::hash::Algo;
use crate::program::*;
use crate::table::{Entry, FieldMatch, MAX_KEYS};
use std::collections::HashMap;
use std::rc::Rc;
use tandem_p4_syntax::*;

/// One problem found in the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub span: Span,
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ty {
    Bit(u32),
    Int(u32),
    Bool,
    InfInt,
    /// enum name, width in bits
    Enum(String, u32),
    Error,
    Header(String),
    Struct(String),
    Void,
}

impl Ty {
    fn width(&self) -> Option<u32> {
        match self {
            Ty::Bit(w) | Ty::Int(w) => Some(*w),
            Ty::Bool => Some(1),
            Ty::Enum(_, w) => Some(*w),
            Ty::Error => Some(8),
            _ => None,
        }
    }
    fn is_scalar(&self) -> bool {
        self.width().is_some()
    }
    fn show(&self) -> String {
        match self {
            Ty::Bit(w) => format!("bit<{w}>"),
            Ty::Int(w) => format!("int<{w}>"),
            Ty::Bool => "bool".into(),
            Ty::InfInt => "int".into(),
            Ty::Enum(n, _) => n.clone(),
            Ty::Error => "error".into(),
            Ty::Header(n) | Ty::Struct(n) => n.clone(),
            Ty::Void => "void".into(),
        }
    }
}

#[derive(Clone, Debug)]
enum Obj {
    Val {
        slot: Slot,
        ty: Ty,
    },
    /// a header field: location, type, header, bit offset in the header
    Field {
        loc: FieldLoc,
        ty: Ty,
        hdr: u32,
        bit: u32,
    },
    Header {
        hdr: u32,
    },
    Struct {
        members: Rc<Vec<(String, Obj)>>,
    },
    Const {
        value: u64,
        ty: Ty,
    },
    Table(u32),
    Action(u32),
    Register(u32),
    Counter(u32),
    PacketIn,
    PacketOut,
    /// enum type / `error` / extern-ignored object
    Namespace(String),
    Ignored,
}

const STD_FIELDS: &[(&str, u32)] = &[
    ("ingress_port", 9),
    ("egress_spec", 9),
    ("egress_port", 9),
    ("clone_spec", 32),
    ("instance_type", 32),
    ("drop", 1),
    ("recirculate_port", 16),
    ("packet_length", 32),
    ("enq_timestamp", 32),
    ("enq_qdepth", 19),
    ("deq_timedelta", 32),
    ("deq_qdepth", 19),
    ("ingress_global_timestamp", 48),
    ("egress_global_timestamp", 48),
    ("lf_field_list", 32),
    ("mcast_grp", 16),
    ("resubmit_flag", 32),
    ("egress_rid", 16),
    ("checksum_error", 1),
    ("recirculate_flag", 32),
    ("priority", 3),
];

const BUILTIN_ERRORS: &[&str] = &[
    "NoError",
    "PacketTooShort",
    "NoMatch",
    "StackOutOfBounds",
    "HeaderTooShort",
    "ParserTimeout",
    "ParserInvalidArgument",
];

const BUILTIN_ENUMS: &[(&str, &[&str])] = &[
    (
        "HashAlgorithm",
        &[
            "crc32",
            "crc32_custom",
            "crc16",
            "crc16_custom",
            "random",
            "identity",
            "csum16",
            "xor16",
        ],
    ),
    ("CounterType", &["packets", "bytes", "packets_and_bytes"]),
    ("MeterType", &["packets", "bytes"]),
    ("CloneType", &["I2E", "E2E"]),
];

/// What was found in the program besides the compiled form.
pub(crate) struct Checked {
    pub compiled: Compiled,
    /// initial entries of each table (const entries)
    pub initial_entries: Vec<Vec<Entry>>,
}

type R<T> = Result<T, ()>;

/// A field-list item: value, width, and (header, bit offset) if it is a header field.
type ListItem = (Ex, u32, Option<(u32, u32)>);

struct Cx<'a> {
    diags: Vec<Diagnostic>,
    typedefs: HashMap<String, &'a Type>,
    headers: HashMap<String, Vec<(String, Ty)>>,
    structs: HashMap<String, Vec<(String, Ty)>>,
    enums: HashMap<String, (Vec<(String, u64)>, u32)>,
    errors: Vec<String>,
    parsers: HashMap<String, &'a Decl>,
    controls: HashMap<String, &'a Decl>,
    globals: HashMap<String, Obj>,
    scopes: Vec<HashMap<String, Obj>>,
    /// statements hoisted out of the expression being compiled (table applies)
    pre: Vec<St>,
    /// fields of each header instance: name -> (slot, ty)
    /// per header instance: (field name, location, type, bit offset in header)
    header_fields: Vec<Vec<(String, FieldLoc, Ty, u32)>>,
    c: Compiled,
    initial_entries: Vec<Vec<Entry>>,
    /// control name prefix for qualified table names
    block: String,
    /// per action: which parameters are out/inout
    action_out: Vec<Vec<bool>>,
}

/// Checks `prog` against v1model and lowers it to statement trees (no flat code yet: see
/// [`crate::pipeline::compile`]).
pub(crate) fn check_program(prog: &Program) -> Result<Checked, Vec<Diagnostic>> {
    let mut cx = Cx {
        diags: vec![],
        typedefs: HashMap::new(),
        headers: HashMap::new(),
        structs: HashMap::new(),
        enums: HashMap::new(),
        errors: BUILTIN_ERRORS.iter().map(|s| s.to_string()).collect(),
        parsers: HashMap::new(),
        controls: HashMap::new(),
        globals: HashMap::new(),
        scopes: vec![],
        pre: vec![],
        header_fields: vec![],
        c: Compiled {
            nslots: 0,
            slot_names: vec![],
            headers: vec![],
            states: vec![],
            start: 0,
            verify: vec![],
            ingress: vec![],
            egress: vec![],
            compute: vec![],
            deparser: vec![],
            actions: vec![ActionDef {
                name: "NoAction".into(),
                params: vec![],
                param_masks: vec![],
                body: vec![],
            }],
            tables: vec![],
            registers: vec![],
            counters: vec![],
            std: StdSlots::default(),
            init: vec![],
            phv0: vec![],
            optimize: false,
            scratch_size: 0,
            code: Default::default(),
        },
        initial_entries: vec![],
        block: String::new(),
        action_out: vec![vec![]],
    };
    cx.globals.insert("NoAction".into(), Obj::Action(0));
    for (name, members) in BUILTIN_ENUMS {
        let m = members
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), i as u64))
            .collect();
        cx.enums.insert(name.to_string(), (m, 32));
        cx.globals
            .insert(name.to_string(), Obj::Namespace(name.to_string()));
    }
    cx.globals
        .insert("error".into(), Obj::Namespace("error".into()));
    let std_fields: Vec<(String, Ty)> = STD_FIELDS
        .iter()
        .map(|(n, w)| (n.to_string(), Ty::Bit(*w)))
        .chain(std::iter::once(("parser_error".to_string(), Ty::Error)))
        .collect();
    cx.structs.insert("standard_metadata_t".into(), std_fields);
    cx.run(prog);
    if cx.c.nslots > PHV_SLOTS {
        cx.err(
            Span::default(),
            format!(
                "program needs {} value slots; at most {PHV_SLOTS} are supported",
                cx.c.nslots
            ),
        );
    }
    if cx.c.scratch_size > HB_SIZE / 2 {
        cx.err(Span::default(), "headers too large for the packet buffer");
    }
    let mut phv0 = vec![0; cx.c.nslots.min(PHV_SLOTS)];
    for &(s, v) in &cx.c.init {
        if let Some(x) = phv0.get_mut(s as usize) {
            *x = v;
        }
    }
    cx.c.phv0 = phv0;
    if cx.diags.is_empty() {
        Ok(Checked {
            compiled: cx.c,
            initial_entries: cx.initial_entries,
        })
    } else {
        Err(cx.diags)
    }
}

impl<'a> Cx<'a> {
    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic {
            span,
            message: msg.into(),
        });
    }

    fn new_slot(&mut self, name: String) -> Slot {
        self.c.slot_names.push(name);
        self.c.nslots += 1;
        (self.c.nslots - 1) as Slot
    }

    // ------------------------------------------------------------ declarations

    fn run(&mut self, prog: &'a Program) {
        // pass 1: types and global names
        for d in &prog.items {
            self.declare(d);
        }
        // pass 2: global instantiations and actions, then the V1Switch blocks
        let mut main = None;
        for d in &prog.items {
            match &d.kind {
                DeclKind::Instantiation { ty, args, name } => {
                    if matches!(ty, Type::Named { name: n, .. } if n == "V1Switch") {
                        main = Some((d, args));
                    } else if let Some(o) = self.instantiate_extern(d.span, ty, args, name) {
                        self.globals.insert(name.clone(), o);
                    }
                }
                DeclKind::Action { name, params, body } => {
                    if let Ok(a) = self.action(d.span, name, params, body) {
                        self.globals.insert(name.clone(), Obj::Action(a));
                    }
                }
                _ => {}
            }
        }
        let Some((main_decl, args)) = main else {
            self.err(Span::default(), "no `V1Switch(...) main;` instantiation");
            return;
        };
        if args.len() != 6 {
            self.err(main_decl.span, "V1Switch takes 6 blocks");
            return;
        }
        let mut blocks = Vec::new();
        for a in args.iter() {
            let name = match &a.kind {
                ExprKind::Call { func, .. } => match &func.kind {
                    ExprKind::Name(n) => Some(n.clone()),
                    _ => None,
                },
                ExprKind::Name(n) => Some(n.clone()),
                _ => None,
            };
            match name {
                Some(n) => blocks.push((n, a.span)),
                None => {
                    self.err(a.span, "expected a parser or control instantiation");
                    return;
                }
            }
        }
        let Some(parser) = self.parsers.get(&blocks[0].0).copied() else {
            self.err(blocks[0].1, format!("unknown parser `{}`", blocks[0].0));
            return;
        };
        let DeclKind::Parser { params, .. } = &parser.kind else {
            return;
        };
        if params.len() != 4 {
            self.err(
                parser.span,
                "v1model parser takes (packet_in, out H, inout M, inout standard_metadata_t)",
            );
            return;
        }
        let (Ok(h_ty), Ok(m_ty)) = (
            self.resolve_type(parser.span, &params[1].ty),
            self.resolve_type(parser.span, &params[2].ty),
        ) else {
            return;
        };
        let hdr = self.instantiate(&h_ty, "hdr", parser.span);
        let meta = self.instantiate(&m_ty, "meta", parser.span);
        let std = self.instantiate(
            &Ty::Struct("standard_metadata_t".into()),
            "standard_metadata",
            parser.span,
        );
        if let Some(Obj::Struct { members }) = &std {
            let get = |n: &str| -> Slot {
                members
                    .iter()
                    .find(|m| m.0 == n)
                    .and_then(|m| match m.1 {
                        Obj::Val { slot, .. } => Some(slot),
                        _ => None,
                    })
                    .unwrap_or(0)
            };
            self.c.std = StdSlots {
                ingress_port: get("ingress_port"),
                egress_spec: get("egress_spec"),
                egress_port: get("egress_port"),
                packet_length: get("packet_length"),
                mcast_grp: get("mcast_grp"),
                checksum_error: get("checksum_error"),
                parser_error: get("parser_error"),
                ingress_global_timestamp: get("ingress_global_timestamp"),
                egress_global_timestamp: get("egress_global_timestamp"),
            };
        }
        let (Some(hdr), Some(meta), Some(std)) = (hdr, meta, std) else {
            return;
        };
        self.compile_parser(parser, &hdr, &meta, &std);
        for (i, (name, span)) in blocks.iter().enumerate().skip(1) {
            let Some(ctl) = self.controls.get(name).copied() else {
                self.err(*span, format!("unknown control `{name}`"));
                continue;
            };
            let binds: Vec<Obj> = match i {
                1 | 4 => vec![hdr.clone(), meta.clone()],
                2 | 3 => vec![hdr.clone(), meta.clone(), std.clone()],
                _ => vec![Obj::PacketOut, hdr.clone()],
            };
            let body = self.compile_control(ctl, binds);
            match i {
                1 => self.c.verify = body,
                2 => self.c.ingress = body,
                3 => self.c.egress = body,
                4 => self.c.compute = body,
                _ => self.c.deparser = body,
            }
        }
    }

    fn declare(&mut self, d: &'a Decl) {
        match &d.kind {
            DeclKind::Typedef { ty, name, .. } => {
                self.typedefs.insert(name.clone(), ty);
            }
            DeclKind::Header { name, fields } | DeclKind::Struct { name, fields } => {
                let mut fs = Vec::new();
                for f in fields {
                    if let Ok(t) = self.resolve_type(d.span, &f.ty) {
                        if let (DeclKind::Header { .. }, Some(w)) = (&d.kind, t.width()) {
                            if w > 64 {
                                self.err(
                                    d.span,
                                    format!(
                                        "field `{}`: fields wider than 64 bits are not supported",
                                        f.name
                                    ),
                                );
                            }
                        }
                        fs.push((f.name.clone(), t));
                    }
                }
                if matches!(d.kind, DeclKind::Header { .. }) {
                    if fs.iter().any(|f| !f.1.is_scalar()) {
                        self.err(
                            d.span,
                            format!("header `{name}`: fields must be bit<N>, int<N> or bool"),
                        );
                    }
                    self.headers.insert(name.clone(), fs);
                } else {
                    self.structs.insert(name.clone(), fs);
                }
            }
            DeclKind::HeaderUnion { name, .. } => {
                self.err(d.span, format!("header_union `{name}` is not supported"));
            }
            DeclKind::Enum {
                name,
                underlying,
                members,
            } => {
                let width = match underlying {
                    Some(t) => match self.resolve_type(d.span, t) {
                        Ok(Ty::Bit(w)) | Ok(Ty::Int(w)) => w,
                        _ => {
                            self.err(d.span, "enum underlying type must be bit<N> or int<N>");
                            32
                        }
                    },
                    None => 32,
                };
                let mut ms = Vec::new();
                for (i, (m, v)) in members.iter().enumerate() {
                    let val = match v {
                        Some(e) => match self.const_expr(e) {
                            Some(v) => v & mask(width),
                            None => {
                                self.err(e.span, "enum value must be a constant");
                                0
                            }
                        },
                        None => i as u64,
                    };
                    ms.push((m.clone(), val));
                }
                self.enums.insert(name.clone(), (ms, width));
                self.globals
                    .insert(name.clone(), Obj::Namespace(name.clone()));
            }
            DeclKind::Error(names) => {
                for n in names {
                    if !self.errors.contains(n) {
                        self.errors.push(n.clone());
                    }
                }
            }
            DeclKind::Const { ty, name, value } => {
                let Ok(t) = self.resolve_type(d.span, ty) else {
                    return;
                };
                match self.expr(value) {
                    Ok((Ex::Const(v), vt)) => {
                        let v = match t.width() {
                            Some(w) if vt == Ty::InfInt || vt == t => v & mask(w),
                            Some(_) => {
                                self.err(
                                    value.span,
                                    format!(
                                        "constant `{name}`: expected {}, found {}",
                                        t.show(),
                                        vt.show()
                                    ),
                                );
                                v
                            }
                            None => v,
                        };
                        self.globals
                            .insert(name.clone(), Obj::Const { value: v, ty: t });
                    }
                    Ok(_) => self.err(
                        value.span,
                        format!("`{name}` must be a compile-time constant"),
                    ),
                    Err(()) => {}
                }
            }
            DeclKind::Parser { name, .. } => {
                self.parsers.insert(name.clone(), d);
            }
            DeclKind::Control { name, .. } => {
                self.controls.insert(name.clone(), d);
            }
            DeclKind::Table(t) => self.err(
                d.span,
                format!("table `{}` must be declared inside a control", t.name),
            ),
            DeclKind::Variable { name, .. } => {
                self.err(d.span, format!("global variable `{name}` is not supported"))
            }
            DeclKind::Preprocessor(_)
            | DeclKind::MatchKind(_)
            | DeclKind::Extern { .. }
            | DeclKind::Action { .. }
            | DeclKind::Instantiation { .. } => {}
        }
    }

    fn resolve_type(&mut self, span: Span, t: &Type) -> R<Ty> {
        self.resolve_type_depth(span, t, 0)
    }

    fn resolve_type_depth(&mut self, span: Span, t: &Type, depth: u32) -> R<Ty> {
        if depth > 32 {
            self.err(span, "typedef cycle");
            return Err(());
        }
        Ok(match t {
            Type::Bool => Ty::Bool,
            Type::Bit(w) | Type::Int(w) if *w == 0 || *w > 64 => {
                // wide types are only allowed where they are never stored; reject early
                if *w == 0 {
                    self.err(span, "zero-width types are not supported");
                    return Err(());
                }
                if matches!(t, Type::Bit(_)) {
                    Ty::Bit(*w)
                } else {
                    Ty::Int(*w)
                }
            }
            Type::Bit(w) => Ty::Bit(*w),
            Type::Int(w) => Ty::Int(*w),
            Type::InfInt => Ty::InfInt,
            Type::Error => Ty::Error,
            Type::Void => Ty::Void,
            Type::Named { name, .. } => {
                if let Some(td) = self.typedefs.get(name).copied() {
                    return self.resolve_type_depth(span, td, depth + 1);
                }
                if self.headers.contains_key(name) {
                    Ty::Header(name.clone())
                } else if self.structs.contains_key(name) {
                    Ty::Struct(name.clone())
                } else if let Some((_, w)) = self.enums.get(name) {
                    Ty::Enum(name.clone(), *w)
                } else {
                    self.err(span, format!("unknown type `{name}`"));
                    return Err(());
                }
            }
            Type::Varbit(_) => {
                self.err(span, "varbit is not supported");
                return Err(());
            }
            Type::Stack(..) => {
                self.err(span, "header stacks are not supported");
                return Err(());
            }
            Type::DontCare => {
                self.err(span, "`_` is not a type here");
                return Err(());
            }
        })
    }

    /// Allocates storage for a value of type `ty`.
    fn instantiate(&mut self, ty: &Ty, name: &str, span: Span) -> Option<Obj> {
        match ty {
            Ty::Header(h) => {
                let fields = self.headers.get(h).cloned().unwrap_or_default();
                let valid = self.new_slot(format!("{name}.$valid"));
                let base_slot = self.new_slot(format!("{name}.$base"));
                let base = self.c.scratch_size as u32;
                let mut named = Vec::new();
                let mut bit = 0u32;
                for (f, t) in &fields {
                    let w = t.width().unwrap_or(1).min(64);
                    let byte = bit / 8;
                    let end = bit + w;
                    // the field's bits inside the 8-byte window starting at `byte`
                    // (a field wider than 57 bits and not byte-aligned cannot fit one
                    // window; the checker rejects those)
                    let lshift = 64u32.saturating_sub(bit - byte * 8 + w);
                    if bit - byte * 8 + w > 64 {
                        self.err(
                            span,
                            format!(
                                "{name}.{f}: unaligned fields wider than 56 bits are not supported"
                            ),
                        );
                    }
                    named.push((
                        f.clone(),
                        FieldLoc {
                            base: base_slot,
                            off: byte,
                            lshift,
                            m: mask(w),
                        },
                        t.clone(),
                        bit,
                    ));
                    bit = end;
                }
                let bytes = bit.div_ceil(8);
                self.c.scratch_size += bytes as usize + 8;
                self.c.init.push((base_slot, base as u64));
                self.c.headers.push(HeaderLayout {
                    name: name.to_string(),
                    valid,
                    base: base_slot,
                    scratch: base,
                    bytes,
                    nfields: named.len() as u32,
                });
                self.header_fields.push(named);
                Some(Obj::Header {
                    hdr: (self.c.headers.len() - 1) as u32,
                })
            }
            Ty::Struct(s) => {
                let fields = self.structs.get(s).cloned().unwrap_or_default();
                let mut members = Vec::new();
                for (f, t) in &fields {
                    let o = self.instantiate(t, &format!("{name}.{f}"), span)?;
                    members.push((f.clone(), o));
                }
                Some(Obj::Struct {
                    members: Rc::new(members),
                })
            }
            t if t.is_scalar() => {
                if t.width().unwrap_or(0) > 64 {
                    self.err(
                        span,
                        format!("`{name}`: values wider than 64 bits are not supported"),
                    );
                    return None;
                }
                Some(Obj::Val {
                    slot: self.new_slot(name.to_string()),
                    ty: t.clone(),
                })
            }
            t => {
                self.err(span, format!("cannot declare a value of type {}", t.show()));
                None
            }
        }
    }

    fn instantiate_extern(
        &mut self,
        span: Span,
        ty: &Type,
        args: &[Expr],
        name: &str,
    ) -> Option<Obj> {
        let Type::Named {
            name: tn,
            args: targs,
        } = ty
        else {
            self.err(span, "expected an extern or block instantiation");
            return None;
        };
        match tn.as_str() {
            "register" => {
                let width = match targs.first().map(|t| self.resolve_type(span, t)) {
                    Some(Ok(t)) if t.is_scalar() => t.width().unwrap_or(32),
                    _ => {
                        self.err(span, "register<T>: T must be bit<N>");
                        return None;
                    }
                };
                let size = args.first().and_then(|a| self.const_expr(a));
                let Some(size) = size.filter(|s| *s <= 1 << 24) else {
                    self.err(span, "register size must be a constant ≤ 2^24");
                    return None;
                };
                self.c.registers.push(RegisterDef {
                    name: self.qualify(name),
                    size: size as u32,
                    width,
                });
                Some(Obj::Register((self.c.registers.len() - 1) as u32))
            }
            "counter" => {
                let size = args.first().and_then(|a| self.const_expr(a));
                let Some(size) = size.filter(|s| *s <= 1 << 24) else {
                    self.err(span, "counter size must be a constant ≤ 2^24");
                    return None;
                };
                let kind = match args.get(1).map(|a| &a.kind) {
                    Some(ExprKind::Member(_, m)) if m == "bytes" => CounterKind::Bytes,
                    Some(ExprKind::Member(_, m)) if m == "packets" => CounterKind::Packets,
                    _ => CounterKind::Both,
                };
                self.c.counters.push(CounterDef {
                    name: self.qualify(name),
                    size: size as u32,
                    kind,
                });
                Some(Obj::Counter((self.c.counters.len() - 1) as u32))
            }
            // Direct counters only observe; the engine does not maintain them.
            "direct_counter" => Some(Obj::Ignored),
            _ => {
                self.err(span, format!("extern `{tn}` is not supported"));
                None
            }
        }
    }

    fn qualify(&self, name: &str) -> String {
        if self.block.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.block)
        }
    }

    fn const_expr(&mut self, e: &Expr) -> Option<u64> {
        match self.expr(e) {
            Ok((Ex::Const(v), _)) => Some(v),
            _ => None,
        }
    }

    // ------------------------------------------------------------ names

    fn lookup(&self, n: &str) -> Option<Obj> {
        for s in self.scopes.iter().rev() {
            if let Some(o) = s.get(n) {
                return Some(o.clone());
            }
        }
        self.globals.get(n).cloned()
    }

    fn bind(&mut self, n: &str, o: Obj) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(n.to_string(), o);
        }
    }

    /// Resolves a name/member path to an object; `Ok(None)` if `e` is not a path.
    fn path(&mut self, e: &Expr) -> R<Option<Obj>> {
        match &e.kind {
            ExprKind::Name(n) | ExprKind::DotName(n) => match self.lookup(n) {
                Some(o) => Ok(Some(o)),
                None => {
                    self.err(e.span, format!("unknown name `{n}`"));
                    Err(())
                }
            },
            ExprKind::Member(base, m) => {
                let Some(b) = self.path(base)? else {
                    return Ok(None);
                };
                match b {
                    Obj::Struct { members } => match members.iter().find(|x| &x.0 == m) {
                        Some((_, o)) => Ok(Some(o.clone())),
                        None => {
                            self.err(e.span, format!("no member `{m}`"));
                            Err(())
                        }
                    },
                    Obj::Header { hdr } => {
                        match self.header_fields[hdr as usize].iter().find(|x| &x.0 == m) {
                            Some((_, loc, ty, bit)) => Ok(Some(Obj::Field {
                                loc: *loc,
                                ty: ty.clone(),
                                hdr,
                                bit: *bit,
                            })),
                            None => {
                                self.err(e.span, format!("header has no field `{m}`"));
                                Err(())
                            }
                        }
                    }
                    Obj::Namespace(ns) if ns == "error" => {
                        match self.errors.iter().position(|x| x == m) {
                            Some(i) => Ok(Some(Obj::Const {
                                value: i as u64,
                                ty: Ty::Error,
                            })),
                            None => {
                                self.err(e.span, format!("unknown error `{m}`"));
                                Err(())
                            }
                        }
                    }
                    Obj::Namespace(ns) => {
                        let found = self
                            .enums
                            .get(&ns)
                            .and_then(|(ms, w)| ms.iter().find(|x| &x.0 == m).map(|x| (x.1, *w)));
                        match found {
                            Some((v, w)) => Ok(Some(Obj::Const {
                                value: v,
                                ty: Ty::Enum(ns, w),
                            })),
                            None => {
                                self.err(e.span, format!("`{ns}` has no member `{m}`"));
                                Err(())
                            }
                        }
                    }
                    _ => {
                        self.err(e.span, format!("`{m}`: not a field"));
                        Err(())
                    }
                }
            }
            _ => Ok(None),
        }
    }

    // ------------------------------------------------------------ expressions

    fn coerce(&mut self, span: Span, ex: Ex, from: &Ty, to: &Ty) -> R<Ex> {
        if from == to {
            return Ok(ex);
        }
        match (from, to) {
            (Ty::Enum(_, w), Ty::Bit(v)) if w == v => Ok(ex),
            (Ty::InfInt, t) if t.is_scalar() && !matches!(t, Ty::Bool) => {
                let w = t.width().unwrap_or(64);
                Ok(match ex {
                    Ex::Const(v) => Ex::Const(v & mask(w)),
                    e => Ex::Mask(Box::new(e), mask(w)),
                })
            }
            _ => {
                self.err(
                    span,
                    format!(
                        "type mismatch: expected {}, found {}",
                        to.show(),
                        from.show()
                    ),
                );
                Err(())
            }
        }
    }

    fn expr_as(&mut self, e: &Expr, want: &Ty) -> R<Ex> {
        let (x, t) = self.expr(e)?;
        self.coerce(e.span, x, &t, want)
    }

    fn bool_expr(&mut self, e: &Expr) -> R<Ex> {
        let (x, t) = self.expr(e)?;
        if t != Ty::Bool {
            self.err(e.span, format!("expected bool, found {}", t.show()));
            return Err(());
        }
        Ok(x)
    }

    fn expr(&mut self, e: &Expr) -> R<(Ex, Ty)> {
        match &e.kind {
            ExprKind::Bool(b) => Ok((Ex::Const(*b as u64), Ty::Bool)),
            ExprKind::Int {
                value,
                width,
                signed,
            } => {
                let v = *value as u64;
                match width {
                    Some(0) => {
                        self.err(e.span, "zero-width literal");
                        Err(())
                    }
                    Some(w) if *w > 64 => {
                        self.err(e.span, "literals wider than 64 bits are not supported");
                        Err(())
                    }
                    Some(w) => {
                        if *value > mask(*w) as u128 {
                            self.err(e.span, format!("value does not fit in {w} bits"));
                        }
                        let t = if *signed { Ty::Int(*w) } else { Ty::Bit(*w) };
                        Ok((Ex::Const(v & mask(*w)), t))
                    }
                    None => {
                        if *value > u64::MAX as u128 {
                            self.err(e.span, "integer literal larger than 64 bits");
                            return Err(());
                        }
                        Ok((Ex::Const(v), Ty::InfInt))
                    }
                }
            }
            ExprKind::Name(_) | ExprKind::DotName(_) | ExprKind::Member(..) => {
                if let ExprKind::Member(base, m) = &e.kind {
                    if m == "hit" || m == "miss" {
                        if let Some(t) = self.table_apply_target(base) {
                            let slot = self.new_slot(format!("$hit{}", self.c.nslots));
                            self.pre.push(St::Apply {
                                table: t,
                                hit: Some(slot),
                                action_run: None,
                            });
                            let ex = if m == "hit" {
                                Ex::Slot(slot)
                            } else {
                                Ex::Not(Box::new(Ex::Slot(slot)))
                            };
                            return Ok((ex, Ty::Bool));
                        }
                    }
                }
                match self.path(e)? {
                    Some(Obj::Val { slot, ty }) => Ok((Ex::Slot(slot), ty)),
                    Some(Obj::Field { loc, ty, .. }) => Ok((Ex::Field(loc), ty)),
                    Some(Obj::Const { value, ty }) => Ok((Ex::Const(value), ty)),
                    _ => {
                        self.err(e.span, "expected a value");
                        Err(())
                    }
                }
            }
            ExprKind::Call { func, args, .. } => {
                if let ExprKind::Member(base, m) = &func.kind {
                    if m == "isValid" && args.is_empty() {
                        if let Ok(Some(Obj::Header { hdr })) = self.path(base) {
                            return Ok((Ex::Slot(self.c.headers[hdr as usize].valid), Ty::Bool));
                        }
                    }
                }
                self.err(e.span, "this call cannot be used as a value");
                Err(())
            }
            ExprKind::Slice(b, hi, lo) => {
                let (x, t) = self.expr(b)?;
                let (Some(h), Some(l)) = (self.const_expr(hi), self.const_expr(lo)) else {
                    self.err(e.span, "slice bounds must be constants");
                    return Err(());
                };
                let w = match t {
                    Ty::Bit(w) | Ty::Int(w) => w,
                    _ => {
                        self.err(e.span, format!("cannot slice {}", t.show()));
                        return Err(());
                    }
                };
                if h < l || h >= w as u64 {
                    self.err(e.span, format!("slice [{h}:{l}] out of range for bit<{w}>"));
                    return Err(());
                }
                let sw = (h - l + 1) as u32;
                let ex = match x {
                    Ex::Const(v) => Ex::Const((v >> l) & mask(sw)),
                    Ex::Field(f) => Ex::Field(f.slice(l as u32, sw)),
                    x => Ex::Slice(Box::new(x), l as u32, mask(sw)),
                };
                Ok((ex, Ty::Bit(sw)))
            }
            ExprKind::Unary(op, a) => {
                let (x, t) = self.expr(a)?;
                match op {
                    UnOp::Not => {
                        if t != Ty::Bool {
                            self.err(e.span, "`!` needs a bool");
                            return Err(());
                        }
                        Ok((
                            match x {
                                Ex::Const(v) => Ex::Const((v == 0) as u64),
                                x => Ex::Not(Box::new(x)),
                            },
                            Ty::Bool,
                        ))
                    }
                    UnOp::BitNot | UnOp::Neg => {
                        let m = match &t {
                            Ty::Bit(w) | Ty::Int(w) => mask(*w),
                            Ty::InfInt if *op == UnOp::Neg => u64::MAX,
                            _ => {
                                self.err(
                                    e.span,
                                    format!("operator needs bit<N>, found {}", t.show()),
                                );
                                return Err(());
                            }
                        };
                        let ex = if *op == UnOp::BitNot {
                            match x {
                                Ex::Const(v) => Ex::Const(!v & m),
                                x => Ex::BitNot(Box::new(x), m),
                            }
                        } else {
                            mk_bin(BinK::Sub, Ex::Const(0), x, m)
                        };
                        Ok((ex, t))
                    }
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(e.span, *op, a, b),
            ExprKind::Ternary(c, a, b) => {
                let cx = self.bool_expr(c)?;
                let (xa, ta) = self.expr(a)?;
                let (xb, tb) = self.expr(b)?;
                let (xa, xb, t) = self.unify(e.span, xa, ta, xb, tb)?;
                Ok((
                    match cx {
                        Ex::Const(v) => {
                            if v != 0 {
                                xa
                            } else {
                                xb
                            }
                        }
                        c => Ex::Cond(Box::new(c), Box::new(xa), Box::new(xb)),
                    },
                    t,
                ))
            }
            ExprKind::Cast(t, a) => {
                let to = self.resolve_type(e.span, t)?;
                let (x, from) = self.expr(a)?;
                self.cast(e.span, x, &from, &to).map(|x| (x, to))
            }
            _ => {
                self.err(e.span, "unsupported expression");
                Err(())
            }
        }
    }

    fn cast(&mut self, span: Span, x: Ex, from: &Ty, to: &Ty) -> R<Ex> {
        let fold = |x: Ex, f: &dyn Fn(u64) -> u64| match x {
            Ex::Const(v) => Ex::Const(f(v)),
            x => x,
        };
        match (from, to) {
            (a, b) if a == b => Ok(x),
            (Ty::InfInt, Ty::Bit(w) | Ty::Int(w)) => Ok(fold(x, &|v| v & mask(*w))),
            (Ty::Bit(_), Ty::Bool) | (Ty::Bool, Ty::Bit(_)) => Ok(x),
            (Ty::Bit(a) | Ty::Enum(_, a), Ty::Bit(b) | Ty::Int(b)) => {
                if b >= a {
                    Ok(x)
                } else {
                    let m = mask(*b);
                    Ok(match x {
                        Ex::Const(v) => Ex::Const(v & m),
                        x => Ex::Mask(Box::new(x), m),
                    })
                }
            }
            (Ty::Int(a), Ty::Bit(b) | Ty::Int(b)) => {
                let m = mask(*b);
                if b > a {
                    Ok(match x {
                        Ex::Const(v) => {
                            let s = 64 - a;
                            Ex::Const(((((v << s) as i64) >> s) as u64) & m)
                        }
                        x => Ex::SExt(Box::new(x), *a, m),
                    })
                } else {
                    Ok(match x {
                        Ex::Const(v) => Ex::Const(v & m),
                        x => Ex::Mask(Box::new(x), m),
                    })
                }
            }
            (Ty::Bit(_) | Ty::InfInt, Ty::Enum(_, w)) => Ok(fold(x, &|v| v & mask(*w))),
            _ => {
                self.err(
                    span,
                    format!("cannot cast {} to {}", from.show(), to.show()),
                );
                Err(())
            }
        }
    }

    fn unify(&mut self, span: Span, a: Ex, ta: Ty, b: Ex, tb: Ty) -> R<(Ex, Ex, Ty)> {
        if ta == tb {
            return Ok((a, b, ta));
        }
        // serializable enums convert implicitly to their underlying type
        match (&ta, &tb) {
            (Ty::Enum(_, w), Ty::Bit(v)) | (Ty::Bit(v), Ty::Enum(_, w)) if w == v => {
                return Ok((a, b, Ty::Bit(*w)));
            }
            _ => {}
        }
        if ta == Ty::InfInt {
            let a = self.coerce(span, a, &ta, &tb)?;
            return Ok((a, b, tb));
        }
        if tb == Ty::InfInt {
            let b = self.coerce(span, b, &tb, &ta)?;
            return Ok((a, b, ta));
        }
        self.err(
            span,
            format!(
                "operands have different types: {} and {}",
                ta.show(),
                tb.show()
            ),
        );
        Err(())
    }

    fn binary(&mut self, span: Span, op: BinOp, a: &Expr, b: &Expr) -> R<(Ex, Ty)> {
        let (xa, ta) = self.expr(a)?;
        let (xb, tb) = self.expr(b)?;
        match op {
            BinOp::And | BinOp::Or => {
                if ta != Ty::Bool || tb != Ty::Bool {
                    self.err(span, "`&&`/`||` need bool operands");
                    return Err(());
                }
                let k = if op == BinOp::And {
                    BinK::LAnd
                } else {
                    BinK::LOr
                };
                Ok((mk_bin(k, xa, xb, 1), Ty::Bool))
            }
            BinOp::Shl | BinOp::Shr => {
                if !matches!(tb, Ty::Bit(_) | Ty::InfInt) {
                    self.err(span, "shift amount must be unsigned");
                    return Err(());
                }
                let (k, m) = match (&ta, op) {
                    (Ty::Bit(w), BinOp::Shl) | (Ty::Int(w), BinOp::Shl) => (BinK::Shl, mask(*w)),
                    (Ty::Bit(w), _) => (BinK::Shr, mask(*w)),
                    (Ty::Int(w), _) => (BinK::Sar(*w), mask(*w)),
                    (Ty::InfInt, BinOp::Shl) => (BinK::Shl, u64::MAX),
                    (Ty::InfInt, _) => (BinK::Shr, u64::MAX),
                    _ => {
                        self.err(span, format!("cannot shift {}", ta.show()));
                        return Err(());
                    }
                };
                Ok((mk_bin(k, xa, xb, m), ta))
            }
            BinOp::Concat => {
                let (Some(wa), Some(wb)) = (
                    matches!(ta, Ty::Bit(_) | Ty::Int(_))
                        .then(|| ta.width())
                        .flatten(),
                    matches!(tb, Ty::Bit(_) | Ty::Int(_))
                        .then(|| tb.width())
                        .flatten(),
                ) else {
                    self.err(span, "`++` needs bit<N> operands of known width");
                    return Err(());
                };
                if wa + wb > 64 {
                    self.err(span, "concatenation wider than 64 bits is not supported");
                    return Err(());
                }
                let ex = match (&xa, &xb) {
                    (Ex::Const(x), Ex::Const(y)) => Ex::Const((x << wb) | y),
                    _ => Ex::Concat(Box::new(xa), Box::new(xb), wb),
                };
                Ok((ex, Ty::Bit(wa + wb)))
            }
            BinOp::Mask | BinOp::Range => {
                self.err(span, "`&&&` and `..` are only allowed in keysets");
                Err(())
            }
            _ => {
                let (xa, xb, t) = self.unify(span, xa, ta, xb, tb)?;
                let signed = matches!(t, Ty::Int(_));
                let w = t.width().unwrap_or(64);
                let m = if t == Ty::InfInt { u64::MAX } else { mask(w) };
                let cmp = |u: BinK, s: BinK| if signed { s } else { u };
                let (k, rt) = match op {
                    BinOp::Eq => (BinK::Eq, Ty::Bool),
                    BinOp::Ne => (BinK::Ne, Ty::Bool),
                    BinOp::Lt => (cmp(BinK::Lt, BinK::SLt(w)), Ty::Bool),
                    BinOp::Le => (cmp(BinK::Le, BinK::SLe(w)), Ty::Bool),
                    BinOp::Gt => (cmp(BinK::Gt, BinK::SGt(w)), Ty::Bool),
                    BinOp::Ge => (cmp(BinK::Ge, BinK::SGe(w)), Ty::Bool),
                    _ => {
                        if !matches!(t, Ty::Bit(_) | Ty::Int(_) | Ty::InfInt) {
                            self.err(span, format!("arithmetic on {}", t.show()));
                            return Err(());
                        }
                        let k = match op {
                            BinOp::Add => BinK::Add,
                            BinOp::Sub => BinK::Sub,
                            BinOp::Mul => BinK::Mul,
                            BinOp::Div => BinK::Div,
                            BinOp::Mod => BinK::Mod,
                            BinOp::AddSat => BinK::AddSat,
                            BinOp::SubSat => BinK::SubSat,
                            BinOp::BitAnd => BinK::And,
                            BinOp::BitOr => BinK::Or,
                            _ => BinK::Xor,
                        };
                        if signed
                            && matches!(k, BinK::AddSat | BinK::SubSat | BinK::Div | BinK::Mod)
                        {
                            self.err(span, "this operator on int<N> is not supported");
                            return Err(());
                        }
                        (k, t.clone())
                    }
                };
                if matches!(rt, Ty::Bool) && matches!(t, Ty::Header(_) | Ty::Struct(_) | Ty::Void) {
                    self.err(span, "cannot compare these values");
                    return Err(());
                }
                Ok((mk_bin(k, xa, xb, m), rt))
            }
        }
    }

    /// If `e` is `t.apply()`, returns the table.
    fn table_apply_target(&mut self, e: &Expr) -> Option<u32> {
        if let ExprKind::Call { func, args, .. } = &e.kind {
            if let ExprKind::Member(t, m) = &func.kind {
                if m == "apply" && args.is_empty() {
                    if let ExprKind::Name(n) = &t.kind {
                        if let Some(Obj::Table(i)) = self.lookup(n) {
                            return Some(i);
                        }
                    }
                }
            }
        }
        None
    }

    // ------------------------------------------------------------ blocks

    fn compile_parser(&mut self, d: &'a Decl, hdr: &Obj, meta: &Obj, std: &Obj) {
        let DeclKind::Parser {
            name,
            params,
            locals,
            states,
        } = &d.kind
        else {
            return;
        };
        self.block = name.clone();
        let mut scope = HashMap::new();
        let binds = [Obj::PacketIn, hdr.clone(), meta.clone(), std.clone()];
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
            .map(|(i, s)| (s.name.as_str(), i as u32))
            .collect();
        let Some(&start) = index.get("start") else {
            self.err(d.span, format!("parser `{name}` has no `start` state"));
            return;
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
    }

    fn keyset(&mut self, k: &Expr, kt: &Ty) -> Option<KeySet> {
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

    fn compile_control(&mut self, d: &'a Decl, binds: Vec<Obj>) -> Vec<St> {
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
                    "control `{name}` has {} parameters; v1model expects {}",
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
    fn local(&mut self, d: &'a Decl) -> Vec<St> {
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
            _ => {
                let s = Stmt {
                    span: d.span,
                    kind: StmtKind::Decl(Box::new(d.clone())),
                };
                self.stmts(std::slice::from_ref(&s))
            }
        }
    }

    fn action(&mut self, span: Span, name: &str, params: &[Param], body: &Block) -> R<u32> {
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

    fn action_id(&mut self, a: &ActionRef) -> Option<u32> {
        let n = a.name.trim_start_matches('.');
        match self.lookup(n) {
            Some(Obj::Action(i)) => Some(i),
            _ => {
                self.err(a.span, format!("unknown action `{n}`"));
                None
            }
        }
    }

    fn const_args(&mut self, a: &ActionRef, action: u32) -> Option<Vec<u64>> {
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

    fn table(&mut self, span: Span, t: &Table) -> Option<u32> {
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
        });
        self.initial_entries.push(entries);
        Some(idx)
    }

    // ------------------------------------------------------------ statements

    fn stmts(&mut self, ss: &[Stmt]) -> Vec<St> {
        let mut out = Vec::new();
        for s in ss {
            self.stmt(s, &mut out);
        }
        out
    }

    fn flush_pre(&mut self, out: &mut Vec<St>) {
        out.append(&mut self.pre);
    }

    fn stmt(&mut self, s: &Stmt, out: &mut Vec<St>) {
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Block(b) => {
                self.scopes.push(HashMap::new());
                let v = self.stmts(&b.stmts);
                self.scopes.pop();
                out.extend(v);
            }
            StmtKind::Assign { lhs, rhs } => {
                let r = self.assign(s.span, lhs, rhs);
                self.flush_pre(out);
                if let Ok(st) = r {
                    out.push(st);
                }
            }
            StmtKind::Call(e) => {
                let r = self.call_stmt(e);
                self.flush_pre(out);
                if let Ok(st) = r {
                    out.extend(st);
                }
            }
            StmtKind::If { cond, then, els } => {
                let c = self.bool_expr(cond);
                self.flush_pre(out);
                self.scopes.push(HashMap::new());
                let t = self.stmts(&then.stmts);
                self.scopes.pop();
                self.scopes.push(HashMap::new());
                let f = els
                    .as_ref()
                    .map(|b| self.stmts(&b.stmts))
                    .unwrap_or_default();
                self.scopes.pop();
                if let Ok(c) = c {
                    match c {
                        Ex::Const(v) => out.extend(if v != 0 { t } else { f }),
                        c => out.push(St::If(c, t, f)),
                    }
                }
            }
            StmtKind::Switch { expr, cases } => {
                let table = match &expr.kind {
                    ExprKind::Member(b, m) if m == "action_run" => self.table_apply_target(b),
                    _ => None,
                };
                let Some(table) = table else {
                    self.err(
                        expr.span,
                        "only `switch (t.apply().action_run)` is supported",
                    );
                    return;
                };
                let slot = self.new_slot(format!("$action_run{}", self.c.nslots));
                out.push(St::Apply {
                    table,
                    hit: None,
                    action_run: Some(slot),
                });
                let mut arms = Vec::new();
                let mut default = Vec::new();
                let mut pending: Vec<Option<u64>> = Vec::new();
                for c in cases {
                    match &c.label {
                        Some(l) => {
                            let id = match self.lookup(l) {
                                Some(Obj::Action(i))
                                    if self.c.tables[table as usize].actions.contains(&i) =>
                                {
                                    Some(i as u64)
                                }
                                _ => {
                                    self.err(
                                        s.span,
                                        format!("`{l}` is not an action of the table"),
                                    );
                                    None
                                }
                            };
                            pending.push(id);
                        }
                        None => pending.push(None),
                    }
                    if let Some(b) = &c.body {
                        self.scopes.push(HashMap::new());
                        let body = self.stmts(&b.stmts);
                        self.scopes.pop();
                        for p in pending.drain(..) {
                            match p {
                                Some(v) => arms.push((v, body.clone())),
                                None => default = body.clone(),
                            }
                        }
                    }
                }
                out.push(St::Switch(slot, arms, default));
            }
            StmtKind::Decl(d) => match &d.kind {
                DeclKind::Variable { ty, name, init } => {
                    let Ok(t) = self.resolve_type(d.span, ty) else {
                        return;
                    };
                    let Some(o) = self.instantiate(&t, &format!("{}.{name}", self.block), d.span)
                    else {
                        return;
                    };
                    if let Some(init) = init {
                        if let Obj::Val { slot, ty } = &o {
                            let r = self.expr_as(init, ty);
                            self.flush_pre(out);
                            if let Ok(x) = r {
                                out.push(St::Set(Dst::Slot(*slot), x));
                            }
                        } else {
                            self.err(d.span, "initialisers are only supported for scalars");
                        }
                    }
                    self.bind(name, o);
                }
                DeclKind::Const { ty, name, value } => {
                    let Ok(t) = self.resolve_type(d.span, ty) else {
                        return;
                    };
                    match self.expr_as(value, &t) {
                        Ok(Ex::Const(v)) => self.bind(name, Obj::Const { value: v, ty: t }),
                        Ok(_) => self.err(value.span, "not a compile-time constant"),
                        Err(()) => {}
                    }
                }
                _ => self.err(d.span, "unsupported declaration here"),
            },
            StmtKind::Return(e) => {
                if e.is_some() {
                    self.err(s.span, "return with a value is not supported");
                }
                out.push(St::Return);
            }
            StmtKind::Exit => out.push(St::Exit),
        }
    }

    /// Copy items for `dst = src` of two same-shaped headers/structs (validity
    /// included).
    fn copy_items(&self, d: &Obj, src: &Obj, out: &mut Vec<CopyItem>) {
        match (d, src) {
            (Obj::Val { slot: a, .. }, Obj::Val { slot: b, .. }) => {
                out.push(CopyItem::Slot(*a, *b))
            }
            (Obj::Header { hdr: a }, Obj::Header { hdr: b }) => {
                let (ha, hb) = (&self.c.headers[*a as usize], &self.c.headers[*b as usize]);
                out.push(CopyItem::Slot(ha.valid, hb.valid));
                out.push(CopyItem::Bytes(ha.base, hb.base, ha.bytes));
            }
            (Obj::Struct { members: x }, Obj::Struct { members: y }) => {
                for (p, q) in x.iter().zip(y.iter()) {
                    self.copy_items(&p.1, &q.1, out);
                }
            }
            _ => {}
        }
    }

    fn same_shape(&self, a: &Obj, b: &Obj) -> bool {
        match (a, b) {
            (Obj::Val { ty: x, .. }, Obj::Val { ty: y, .. }) => x == y,
            (Obj::Header { hdr: x }, Obj::Header { hdr: y }) => {
                let fx: Vec<_> = self.header_fields[*x as usize]
                    .iter()
                    .map(|f| (&f.0, &f.2))
                    .collect();
                let fy: Vec<_> = self.header_fields[*y as usize]
                    .iter()
                    .map(|f| (&f.0, &f.2))
                    .collect();
                fx == fy
            }
            (Obj::Struct { members: x }, Obj::Struct { members: y }) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|(p, q)| p.0 == q.0 && self.same_shape(&p.1, &q.1))
            }
            _ => false,
        }
    }

    fn assign(&mut self, span: Span, lhs: &Expr, rhs: &Expr) -> R<St> {
        if let ExprKind::Slice(b, hi, lo) = &lhs.kind {
            let (dst, ty) = match self.path(b)? {
                Some(Obj::Val { slot, ty }) => (Dst::Slot(slot), ty),
                Some(Obj::Field { loc, ty, .. }) => (Dst::Field(loc), ty),
                _ => {
                    self.err(span, "cannot assign to this slice");
                    return Err(());
                }
            };
            let (Some(h), Some(l)) = (self.const_expr(hi), self.const_expr(lo)) else {
                self.err(span, "slice bounds must be constants");
                return Err(());
            };
            let w = ty.width().unwrap_or(0) as u64;
            if h < l || h >= w {
                self.err(span, "slice out of range");
                return Err(());
            }
            let sw = (h - l + 1) as u32;
            let x = self.expr_as(rhs, &Ty::Bit(sw))?;
            return Ok(match dst {
                Dst::Slot(slot) => St::SetSlice(slot, l as u32, mask(sw), x),
                Dst::Field(f) => St::Set(Dst::Field(f.slice(l as u32, sw)), x),
            });
        }
        let Some(target) = self.path(lhs)? else {
            self.err(lhs.span, "cannot assign to this expression");
            return Err(());
        };
        match &target {
            Obj::Val { slot, ty } => {
                let x = self.expr_as(rhs, ty)?;
                Ok(St::Set(Dst::Slot(*slot), x))
            }
            Obj::Field { loc, ty, .. } => {
                let x = self.expr_as(rhs, ty)?;
                Ok(St::Set(Dst::Field(*loc), x))
            }
            Obj::Header { .. } | Obj::Struct { .. } => {
                let src = self.path(rhs)?;
                match src {
                    Some(src) if self.same_shape(&target, &src) => {
                        let mut items = Vec::new();
                        self.copy_items(&target, &src, &mut items);
                        Ok(St::Copy(items))
                    }
                    _ => {
                        self.err(rhs.span, "right-hand side must be a value of the same type");
                        Err(())
                    }
                }
            }
            _ => {
                self.err(lhs.span, "cannot assign to this name");
                Err(())
            }
        }
    }

    /// A field list: (value, width, header field position if it is one).
    fn field_list(&mut self, e: &Expr) -> R<Vec<ListItem>> {
        let items: Vec<&Expr> = match &e.kind {
            ExprKind::List(v) => v.iter().collect(),
            _ => vec![e],
        };
        let mut out = Vec::new();
        for it in items {
            match self.path(it) {
                Ok(Some(o @ (Obj::Header { .. } | Obj::Struct { .. }))) => {
                    // a whole header/struct: all its fields (not validity)
                    self.flatten_fields(&o, &mut out);
                    continue;
                }
                Ok(Some(Obj::Field { loc, ty, hdr, bit })) => {
                    out.push((Ex::Field(loc), ty.width().unwrap_or(1), Some((hdr, bit))));
                    continue;
                }
                _ => {}
            }
            let (x, t) = self.expr(it)?;
            match t {
                Ty::Bit(w) | Ty::Int(w) => out.push((x, w, None)),
                _ => {
                    self.err(it.span, "field list items must be bit<N>");
                    return Err(());
                }
            }
        }
        Ok(out)
    }

    fn flatten_fields(&self, o: &Obj, out: &mut Vec<ListItem>) {
        match o {
            Obj::Val { slot, ty } => out.push((Ex::Slot(*slot), ty.width().unwrap_or(1), None)),
            Obj::Header { hdr } => {
                for f in &self.header_fields[*hdr as usize] {
                    out.push((Ex::Field(f.1), f.2.width().unwrap_or(1), Some((*hdr, f.3))));
                }
            }
            Obj::Struct { members } => {
                for m in members.iter() {
                    self.flatten_fields(&m.1, out);
                }
            }
            _ => {}
        }
    }

    /// The csum16 plan for a field list: runs of consecutive fields of one header
    /// that start on a byte boundary, sit on a 16-bit boundary of the data and
    /// cover a multiple of 16 bits are summed in place as bytes.
    fn csum_plan(&self, data: &[ListItem]) -> Option<Vec<CsumItem>> {
        let total: u32 = data.iter().map(|d| d.1).sum();
        if !total.is_multiple_of(16) {
            return None;
        }
        let mut plan = Vec::new();
        let mut pos = 0u32; // stream bit position of item i
        let mut i = 0;
        while i < data.len() {
            // extend a run of contiguous fields of the same header
            let mut j = i + 1;
            let mut run_bits = data[i].1;
            if let Some((h, b)) = data[i].2 {
                while j < data.len() {
                    match data[j].2 {
                        Some((h2, b2)) if h2 == h && b2 == b + run_bits => {
                            run_bits += data[j].1;
                            j += 1;
                        }
                        _ => break,
                    }
                }
                if b.is_multiple_of(8) && pos.is_multiple_of(16) && run_bits.is_multiple_of(16) {
                    let base = self.c.headers[h as usize].base;
                    plan.push(CsumItem::Bytes(base, b / 8, run_bits / 8));
                    pos += run_bits;
                    i = j;
                    continue;
                }
                j = i + 1;
                run_bits = data[i].1;
            }
            let end = pos + run_bits;
            plan.push(CsumItem::Val(data[i].0.clone(), (total - end) % 16));
            pos = end;
            i = j;
        }
        Some(plan)
    }

    fn flatten_fields_plain(data: Vec<ListItem>) -> Vec<(Ex, u32)> {
        data.into_iter().map(|(x, w, _)| (x, w)).collect()
    }

    fn algo(&mut self, e: &Expr) -> R<Algo> {
        if let ExprKind::Member(b, m) = &e.kind {
            if matches!(&b.kind, ExprKind::Name(n) if n == "HashAlgorithm") {
                if let Some(a) = Algo::from_name(m) {
                    return Ok(a);
                }
                self.err(e.span, format!("hash algorithm `{m}` is not supported"));
                return Err(());
            }
        }
        self.err(e.span, "expected HashAlgorithm.<name>");
        Err(())
    }

    fn out_slot(&mut self, e: &Expr) -> R<(Dst, Ty)> {
        match self.path(e)? {
            Some(Obj::Val { slot, ty }) => Ok((Dst::Slot(slot), ty)),
            Some(Obj::Field { loc, ty, .. }) => Ok((Dst::Field(loc), ty)),
            _ => {
                self.err(e.span, "expected a scalar l-value");
                Err(())
            }
        }
    }

    fn call_stmt(&mut self, e: &Expr) -> R<Vec<St>> {
        let ExprKind::Call { func, args, .. } = &e.kind else {
            self.err(e.span, "expected a call");
            return Err(());
        };
        let nargs = |cx: &mut Self, n: usize| -> R<()> {
            if args.len() != n {
                cx.err(
                    e.span,
                    format!("expected {n} arguments, found {}", args.len()),
                );
                return Err(());
            }
            Ok(())
        };
        match &func.kind {
            ExprKind::Member(base, m) => {
                if let Some(t) = self.table_apply_target(e) {
                    return Ok(vec![St::Apply {
                        table: t,
                        hit: None,
                        action_run: None,
                    }]);
                }
                let Some(obj) = self.path(base)? else {
                    self.err(e.span, "unsupported method call");
                    return Err(());
                };
                match (obj, m.as_str()) {
                    (Obj::PacketIn, "extract") => {
                        nargs(self, 1)?;
                        match self.path(&args[0])? {
                            Some(Obj::Header { hdr }) => Ok(vec![St::Extract(hdr)]),
                            _ => {
                                self.err(args[0].span, "extract needs a header");
                                Err(())
                            }
                        }
                    }
                    (Obj::PacketOut, "emit") => {
                        nargs(self, 1)?;
                        let Some(o) = self.path(&args[0])? else {
                            self.err(args[0].span, "emit needs a header or struct");
                            return Err(());
                        };
                        let mut v = Vec::new();
                        self.emits(&o, &mut v);
                        Ok(v)
                    }
                    (Obj::Header { hdr }, "setValid" | "setInvalid") => {
                        nargs(self, 0)?;
                        let valid = self.c.headers[hdr as usize].valid;
                        Ok(vec![St::Set(
                            Dst::Slot(valid),
                            Ex::Const((m == "setValid") as u64),
                        )])
                    }
                    (Obj::Register(r), "read") => {
                        nargs(self, 2)?;
                        let (dst, _) = self.out_slot(&args[0])?;
                        let (idx, it) = self.expr(&args[1])?;
                        let idx = self.loose(args[1].span, idx, &it, &Ty::Bit(32))?;
                        Ok(vec![St::RegRead { reg: r, dst, idx }])
                    }
                    (Obj::Register(r), "write") => {
                        nargs(self, 2)?;
                        let (idx, it) = self.expr(&args[0])?;
                        let idx = self.loose(args[0].span, idx, &it, &Ty::Bit(32))?;
                        let w = self.c.registers[r as usize].width;
                        let val = self.expr_as(&args[1], &Ty::Bit(w))?;
                        Ok(vec![St::RegWrite {
                            reg: r,
                            idx,
                            val,
                            m: mask(w),
                        }])
                    }
                    (Obj::Counter(c), "count") => {
                        nargs(self, 1)?;
                        let (idx, it) = self.expr(&args[0])?;
                        let idx = self.loose(args[0].span, idx, &it, &Ty::Bit(32))?;
                        Ok(vec![St::Count { counter: c, idx }])
                    }
                    (Obj::Ignored, _) => Ok(vec![]),
                    (_, m) => {
                        self.err(e.span, format!("unsupported method `{m}`"));
                        Err(())
                    }
                }
            }
            ExprKind::Name(n) => match n.as_str() {
                "mark_to_drop" => Ok(vec![St::MarkToDrop]),
                "hash" => {
                    nargs(self, 5)?;
                    let (dst, dt) = self.out_slot(&args[0])?;
                    let algo = self.algo(&args[1])?;
                    let (base, bt) = self.expr(&args[2])?;
                    let base = self.loose(args[2].span, base, &bt, &dt)?;
                    let data = Self::flatten_fields_plain(self.field_list(&args[3])?);
                    let (max, _) = self.expr(&args[4])?;
                    Ok(vec![St::Hash {
                        dst,
                        dst_mask: mask(dt.width().unwrap_or(64)),
                        algo,
                        base,
                        data,
                        max,
                    }])
                }
                "verify_checksum"
                | "update_checksum"
                | "verify_checksum_with_payload"
                | "update_checksum_with_payload" => {
                    nargs(self, 4)?;
                    let cond = self.bool_expr(&args[0])?;
                    let data = self.field_list(&args[1])?;
                    let (field, ft) = self.out_slot(&args[2])?;
                    let algo = self.algo(&args[3])?;
                    let plan = if algo == Algo::Csum16 {
                        self.csum_plan(&data)
                    } else {
                        None
                    };
                    let data = Self::flatten_fields_plain(data);
                    Ok(vec![St::Checksum {
                        verify: n.starts_with("verify"),
                        payload: n.ends_with("payload"),
                        cond,
                        plan,
                        data,
                        field,
                        width: ft.width().unwrap_or(16),
                        algo,
                    }])
                }
                "log_msg" | "assert" | "assume" => Ok(vec![]),
                _ => match self.lookup(n) {
                    Some(Obj::Action(a)) => self.direct_action_call(e.span, a, args),
                    _ => {
                        self.err(func.span, format!("unknown or unsupported function `{n}`"));
                        Err(())
                    }
                },
            },
            _ => {
                self.err(e.span, "unsupported call");
                Err(())
            }
        }
    }

    fn emits(&mut self, o: &Obj, out: &mut Vec<St>) {
        match o {
            Obj::Header { hdr } => out.push(St::Emit(*hdr)),
            Obj::Struct { members } => {
                for m in members.iter() {
                    self.emits(&m.1, out);
                }
            }
            _ => {}
        }
    }

    fn direct_action_call(&mut self, span: Span, a: u32, args: &[Expr]) -> R<Vec<St>> {
        let params = self.c.actions[a as usize].params.clone();
        let outs = self.action_out.get(a as usize).cloned().unwrap_or_default();
        if params.len() != args.len() {
            self.err(
                span,
                format!(
                    "action takes {} arguments, {} given",
                    params.len(),
                    args.len()
                ),
            );
            return Err(());
        }
        let mut xs = Vec::new();
        let mut copy_out = Vec::new();
        for (i, (arg, (pslot, w))) in args.iter().zip(params).enumerate() {
            let (x, t) = self.expr(arg)?;
            let x = self.loose(arg.span, x, &t, &Ty::Bit(w))?;
            if outs.get(i).copied().unwrap_or(false) {
                match self.path(arg) {
                    Ok(Some(Obj::Val { slot, .. })) => copy_out.push((Dst::Slot(slot), pslot)),
                    Ok(Some(Obj::Field { loc, .. })) => copy_out.push((Dst::Field(loc), pslot)),
                    _ => self.err(arg.span, "out/inout arguments must be l-values"),
                }
            }
            xs.push(x);
        }
        Ok(vec![St::CallAction {
            action: a,
            args: xs,
            copy_out,
        }])
    }

    /// Converts between scalar types the way extern arguments allow: exact types,
    /// integer literals, or a width change of bit/int/bool/enum values.
    fn loose(&mut self, span: Span, x: Ex, from: &Ty, to: &Ty) -> R<Ex> {
        if from == to || *from == Ty::InfInt {
            return self.coerce(span, x, from, to);
        }
        match (from.width(), to.width()) {
            (Some(_), Some(w)) => Ok(match x {
                Ex::Const(v) => Ex::Const(v & mask(w)),
                x => Ex::Mask(Box::new(x), mask(w)),
            }),
            _ => {
                self.err(
                    span,
                    format!(
                        "type mismatch: expected {}, found {}",
                        to.show(),
                        from.show()
                    ),
                );
                Err(())
            }
        }
    }
}

fn mk_bin(k: BinK, a: Ex, b: Ex, m: u64) -> Ex {
    match (&a, &b) {
        (Ex::Const(x), Ex::Const(y)) => Ex::Const(binop(k, *x, *y, m)),
        (Ex::Slot(s), Ex::Const(c)) => Ex::SlotConst(k, *s, *c, m),
        (Ex::Field(f), Ex::Const(c)) => Ex::FieldConst(k, *f, *c, m),
        (Ex::Slot(a), Ex::Slot(b)) => Ex::SlotSlot(k, *a, *b, m),
        _ => Ex::Bin(k, Box::new(a), Box::new(b), m),
    }
}
