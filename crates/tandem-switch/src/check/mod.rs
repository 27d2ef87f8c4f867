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

mod blocks;
mod expr;
mod register_action;
mod stmt;
mod tna;

pub use tna::INTRINSIC as TNA_INTRINSIC;

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
    Meter(u32),
    /// A `direct_counter` (qualified name): counts the hits of the table naming it in its
    /// `counters` property.
    DirectCounter(String),
    /// A TNA `Hash<bit<W>>(algo)`.
    Hash {
        algo: Algo,
        width: u32,
    },
    /// A TNA `RegisterAction` (`register_action`).
    RegisterAction(Rc<register_action::RegAction>),
    /// A TNA `Meter`: the meter array and its (red, yellow, green) colour values.
    TnaMeter {
        meter: u32,
        colors: [u64; 3],
    },
    PacketIn,
    PacketOut,
    /// enum type / `error` / extern-ignored object
    Namespace(String),
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
    /// the program is bound to TNA (`tna`)
    tna: bool,
    /// TNA: the first slot of each intrinsic-metadata struct instance
    intrinsic: Vec<Slot>,
}

/// Checks `prog` against v1model or TNA (`tna`) and lowers it to statement trees (no flat code yet: see
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
            meters: vec![],
            asserts: vec![],
            std: StdSlots::default(),
            init: vec![],
            phv0: vec![],
            optimize: false,
            scratch_size: 0,
            code: Default::default(),
            passes: vec![],
            pipes: vec![],
        },
        initial_entries: vec![],
        block: String::new(),
        action_out: vec![vec![]],
        tna: false,
        intrinsic: vec![],
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
    if tna::is_tna(prog) {
        cx.tna_builtins();
    }
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
        let mut pipelines = HashMap::new();
        for d in &prog.items {
            match &d.kind {
                DeclKind::Instantiation { ty, args, name } => {
                    let tn = match ty {
                        Type::Named { name, .. } => name.as_str(),
                        _ => "",
                    };
                    if tn == "V1Switch" || (self.tna && tn == "Switch") {
                        main = Some((d, args));
                    } else if self.tna && tn == "Pipeline" {
                        pipelines.insert(name.clone(), (d, &args[..]));
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
        if self.tna {
            self.bind_tna(&pipelines, (main_decl, &args[..]));
            return;
        }
        self.bind_v1model(main_decl, args);
    }

    /// Binds `V1Switch(p, vr, ig, eg, ck, dep) main` (`args`).
    fn bind_v1model(&mut self, main_decl: &'a Decl, args: &'a [Expr]) {
        if args.len() != 6 {
            self.err(main_decl.span, "V1Switch takes 6 blocks");
            return;
        }
        let mut blocks = Vec::new();
        for a in args.iter() {
            match tna::block_name(a) {
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
        self.compile_parser(
            parser,
            vec![Obj::PacketIn, hdr.clone(), meta.clone(), std.clone()],
        );
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
        if self.tna {
            if let Some(o) = self.tna_extern(span, tn, targs, args, name) {
                return o;
            }
        }
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
            "meter" => {
                let size = args.first().and_then(|a| self.const_expr(a));
                let Some(size) = size.filter(|s| (1..=1 << 24).contains(s)) else {
                    self.err(span, "meter size must be a constant from 1 to 2^24");
                    return None;
                };
                let bytes = match args.get(1).map(|a| &a.kind) {
                    Some(ExprKind::Member(_, m)) if m == "bytes" => true,
                    Some(ExprKind::Member(_, m)) if m == "packets" => false,
                    _ => {
                        self.err(
                            span,
                            "meter type must be MeterType.bytes or MeterType.packets",
                        );
                        return None;
                    }
                };
                self.c.meters.push(MeterDef {
                    name: self.qualify(name),
                    size: size as u32,
                    bytes,
                });
                Some(Obj::Meter((self.c.meters.len() - 1) as u32))
            }
            // One cell per entry of the table that names it (`counters = ...`), counted on
            // every hit (bmv2's rule: with or without `count()` in the action).
            "direct_counter" => Some(Obj::DirectCounter(self.qualify(name))),
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
