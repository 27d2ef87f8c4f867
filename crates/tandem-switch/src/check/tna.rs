//! The TNA binding (Tofino Native Architecture, `tna.p4` / `tofino1_base.p4`): a
//! `Switch(pipe0 [, pipe1, ...]) main;` of `Pipeline(ip, ig, idp, ep, eg, edp)` instances
//! becomes a list of gress *passes* ([`PassDef`]: parser, control, deparser) and pipes
//! ([`PipeDef`]); `crate::tna` runs them with the traffic manager in between.
//!
//! ```text
//! before (P4):
//!   parser IP(packet_in pkt, out H hdr, out M md, out ingress_intrinsic_metadata_t ig_intr_md) {
//!       state start { pkt.extract(ig_intr_md); pkt.advance(PORT_METADATA_SIZE);
//!                     pkt.extract(hdr.eth); transition accept; } }
//!   control IG(inout H hdr, inout M md, in ingress_intrinsic_metadata_t ig_intr_md, ...,
//!              inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
//!       Register<bit<32>, bit<32>>(32w16) r;
//!       apply { md.x = r.read(32w0); ig_tm_md.ucast_egress_port = 9w2; } }
//!   Pipeline(IP(), IG(), IDP(), EP(), EG(), EDP()) pipe;  Switch(pipe) main;
//! after (program):
//!   states  [start: Extract(hdr.eth)]            (intrinsic extract, advance: no bytes)
//!   passes  [pipe.ingress {start 0, control [RegRead r[0] -> $t; Set(md.x, $t);
//!                                            Set(ig_tm_md.ucast_egress_port, 2)], ...},
//!            pipe.egress  {...}]
//!   pipes   [pipe {ingress 0, egress 1}]
//! ```
//!
//! Each pass has its own header and metadata instances (bound positionally from the
//! parser's `out` parameters) and its own intrinsic-metadata structs (slots; their slot
//! numbers are recorded in [`IntrSlots`]). The intrinsic metadata are scalars, not packet
//! bytes: `pkt.extract(ig_intr_md)` / `extract(eg_intr_md)` fill nothing and consume
//! nothing (the runner writes the slots before the parser), and the port-metadata prefix
//! that hardware puts before the frame is not modelled, so `pkt.advance(PORT_METADATA_SIZE)`
//! consumes no bytes either (any other `advance` is refused).
//!
//! Externs, mapped onto the v1model engines: `Register<T, I>(size)` with `read(i)` (a value)
//! and `write(i, v)`; `Hash<bit<W>>(HashAlgorithm_t.CRC32|CRC16|IDENTITY|XOR16)` with
//! `get({..})` (the low W bits); `Meter<I>(n, MeterType_t.*[, red, yellow, green])` with
//! `execute(i)` (BMv2's two-rate three-colour marker; the colour values default to
//! `MeterColor_t`: GREEN 0, YELLOW 1, RED 3); `Counter<W, I>(n, CounterType_t.*)` with
//! `count(i)`; `DirectCounter<W>(CounterType_t.*)` named by a table's `counters` property;
//! tables with `idle_timeout = true` age; `RegisterAction<T, I, U>(reg)` with `execute(i)`
//! (`check::register_action`). Anything else is refused with a diagnostic.

use super::*;

/// Non-padding fields of the intrinsic metadata types (`tofino1_base.p4`); also the
/// P4 back end's list (`tandem_p4::constraints`), so the two cannot disagree.
pub const INTRINSIC: &[(&str, &[(&str, u32)])] = &[
    (
        "ingress_intrinsic_metadata_t",
        &[
            ("resubmit_flag", 1),
            ("packet_version", 2),
            ("ingress_port", 9),
            ("ingress_mac_tstamp", 48),
        ],
    ),
    (
        "ingress_intrinsic_metadata_for_tm_t",
        &[
            ("ucast_egress_port", 9),
            ("bypass_egress", 1),
            ("deflect_on_drop", 1),
            ("ingress_cos", 3),
            ("qid", 7),
            ("icos_for_copy_to_cpu", 3),
            ("copy_to_cpu", 1),
            ("packet_color", 2),
            ("disable_ucast_cutthru", 1),
            ("enable_mcast_cutthru", 1),
            ("mcast_grp_a", 16),
            ("mcast_grp_b", 16),
            ("level1_mcast_hash", 13),
            ("level2_mcast_hash", 13),
            ("level1_exclusion_id", 16),
            ("level2_exclusion_id", 9),
            ("rid", 16),
        ],
    ),
    (
        "ingress_intrinsic_metadata_from_parser_t",
        &[
            ("global_tstamp", 48),
            ("global_ver", 32),
            ("parser_err", 16),
        ],
    ),
    (
        "ingress_intrinsic_metadata_for_deparser_t",
        &[
            ("drop_ctl", 3),
            ("digest_type", 3),
            ("resubmit_type", 3),
            ("mirror_type", 3),
        ],
    ),
    (
        "egress_intrinsic_metadata_t",
        &[
            ("egress_port", 9),
            ("enq_qdepth", 19),
            ("enq_congest_stat", 2),
            ("enq_tstamp", 18),
            ("deq_qdepth", 19),
            ("deq_congest_stat", 2),
            ("app_pool_congest_stat", 8),
            ("deq_timedelta", 18),
            ("egress_rid", 16),
            ("egress_rid_first", 1),
            ("egress_qid", 7),
            ("egress_cos", 3),
            ("deflection_flag", 1),
            ("pkt_length", 16),
        ],
    ),
    (
        "egress_intrinsic_metadata_from_parser_t",
        &[
            ("global_tstamp", 48),
            ("global_ver", 32),
            ("parser_err", 16),
        ],
    ),
    (
        "egress_intrinsic_metadata_for_deparser_t",
        &[
            ("drop_ctl", 3),
            ("mirror_type", 3),
            ("coalesce_flush", 1),
            ("coalesce_length", 7),
        ],
    ),
    (
        "egress_intrinsic_metadata_for_output_port_t",
        &[("capture_tstamp_on_tx", 1), ("update_delay_on_tx", 1)],
    ),
];

static BIT3: Type = Type::Bit(3);
static BIT7: Type = Type::Bit(7);
static BIT9: Type = Type::Bit(9);
static BIT10: Type = Type::Bit(10);
static BIT16: Type = Type::Bit(16);

/// `tofino1_specs.p4` / `tofino1_base.p4` typedefs.
const TYPEDEFS: &[(&str, &Type)] = &[
    ("PortId_t", &BIT9),
    ("MulticastGroupId_t", &BIT16),
    ("QueueId_t", &BIT7),
    ("MirrorType_t", &BIT3),
    ("MirrorId_t", &BIT10),
    ("ResubmitType_t", &BIT3),
    ("DigestType_t", &BIT3),
    ("ReplicationId_t", &BIT16),
    ("L1ExclusionId_t", &BIT16),
    ("L2ExclusionId_t", &BIT9),
];

/// An enum: name, width, members with values.
type EnumDef = (&'static str, u32, &'static [(&'static str, u64)]);

/// Enums of `tofino1_base.p4`.
const ENUMS: &[EnumDef] = &[
    (
        "HashAlgorithm_t",
        32,
        &[
            ("IDENTITY", 0),
            ("RANDOM", 1),
            ("XOR8", 2),
            ("XOR16", 3),
            ("XOR32", 4),
            ("CRC8", 5),
            ("CRC16", 6),
            ("CRC32", 7),
            ("CRC64", 8),
            ("CUSTOM", 9),
        ],
    ),
    ("MeterType_t", 32, &[("PACKETS", 0), ("BYTES", 1)]),
    (
        "CounterType_t",
        32,
        &[("PACKETS", 0), ("BYTES", 1), ("PACKETS_AND_BYTES", 2)],
    ),
    (
        "MeterColor_t",
        8,
        &[("GREEN", 0), ("YELLOW", 1), ("RED", 3)],
    ),
];

/// `PORT_METADATA_SIZE` on Tofino 1 (bits), the only `advance` the binding accepts.
pub(crate) const PORT_METADATA_SIZE: u64 = 64;

/// Whether `prog` is a TNA program: it instantiates the `Switch` package.
pub(super) fn is_tna(prog: &Program) -> bool {
    prog.items.iter().any(|d| {
        matches!(&d.kind, DeclKind::Instantiation { ty: Type::Named { name, .. }, .. }
            if name == "Switch")
    })
}

/// The two gresses of a pipe.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gress {
    Ingress,
    Egress,
}

impl<'a> Cx<'a> {
    /// Declares the TNA types, enums and constants (before the program's own declarations,
    /// which may shadow them).
    pub(super) fn tna_builtins(&mut self) {
        self.tna = true;
        for (name, fields) in INTRINSIC {
            let fs = fields
                .iter()
                .map(|(f, w)| (f.to_string(), Ty::Bit(*w)))
                .collect();
            self.structs.insert(name.to_string(), fs);
        }
        for (name, t) in TYPEDEFS {
            self.typedefs.insert(name.to_string(), t);
        }
        for (name, w, members) in ENUMS {
            let ms = members.iter().map(|(m, v)| (m.to_string(), *v)).collect();
            self.enums.insert(name.to_string(), (ms, *w));
            self.globals
                .insert(name.to_string(), Obj::Namespace(name.to_string()));
        }
        self.globals.insert(
            "PORT_METADATA_SIZE".into(),
            Obj::Const {
                value: PORT_METADATA_SIZE,
                ty: Ty::Bit(32),
            },
        );
        // extract failures record their error here; the runner copies it into parser_err
        let pe = self.new_slot("$parser_error".into());
        let unused = self.new_slot("$v1model".into());
        // byte meters read the length here; the runner sets it before each pass
        let len = self.new_slot("$packet_length".into());
        self.c.std = StdSlots {
            ingress_port: unused,
            egress_spec: unused,
            egress_port: unused,
            packet_length: len,
            mcast_grp: unused,
            checksum_error: unused,
            parser_error: pe,
            ingress_global_timestamp: unused,
            egress_global_timestamp: unused,
        };
    }

    /// Binds `Switch(...) main` (`main`) and its `Pipeline`s (`pipelines`, by name).
    pub(super) fn bind_tna(
        &mut self,
        pipelines: &HashMap<String, (&'a Decl, &'a [Expr])>,
        main: (&'a Decl, &'a [Expr]),
    ) {
        if main.1.is_empty() {
            self.err(main.0.span, "Switch needs at least one Pipeline");
            return;
        }
        if main.1.len() > 4 {
            self.err(main.0.span, "Switch takes at most 4 pipes (Tofino 1)");
            return;
        }
        for a in main.1 {
            let Some(pname) = block_name(a) else {
                self.err(a.span, "expected the name of a Pipeline");
                continue;
            };
            let Some(&(pdecl, args)) = pipelines.get(&pname) else {
                self.err(a.span, format!("unknown Pipeline `{pname}`"));
                continue;
            };
            if args.len() != 6 {
                self.err(
                    pdecl.span,
                    "Pipeline takes 6 blocks (parser, ingress, deparser, egress parser, egress, egress deparser)",
                );
                continue;
            }
            let mut blocks = Vec::new();
            for b in args {
                match block_name(b) {
                    Some(n) => blocks.push((n, b.span)),
                    None => self.err(b.span, "expected a parser or control instantiation"),
                }
            }
            if blocks.len() != 6 {
                continue;
            }
            let ig = self.tna_pass(&pname, Gress::Ingress, &blocks[0..3]);
            let eg = self.tna_pass(&pname, Gress::Egress, &blocks[3..6]);
            if let (Some(ig), Some(eg)) = (ig, eg) {
                self.c.passes.push(ig);
                self.c.passes.push(eg);
                let n = self.c.passes.len();
                self.c.pipes.push(PipeDef {
                    name: pname,
                    ingress: n - 2,
                    egress: n - 1,
                });
            }
        }
        self.tna_unique_names(main.0.span);
    }

    /// One gress of pipe `pipe`: `blocks` = parser, control, deparser.
    fn tna_pass(&mut self, pipe: &str, g: Gress, blocks: &[(String, Span)]) -> Option<PassDef> {
        let gname = if g == Gress::Ingress {
            "ingress"
        } else {
            "egress"
        };
        let Some(parser) = self.parsers.get(&blocks[0].0).copied() else {
            self.err(blocks[0].1, format!("unknown parser `{}`", blocks[0].0));
            return None;
        };
        let DeclKind::Parser { params, .. } = &parser.kind else {
            return None;
        };
        if params.len() != 4 {
            self.err(
                parser.span,
                format!("TNA {gname} parser takes (packet_in, out H, out M, out {gname}_intrinsic_metadata_t)"),
            );
            return None;
        }
        let (Ok(h_ty), Ok(m_ty)) = (
            self.resolve_type(parser.span, &params[1].ty),
            self.resolve_type(parser.span, &params[2].ty),
        ) else {
            return None;
        };
        let prefix = format!("{pipe}.{gname}");
        let hdr = self.instantiate(&h_ty, &format!("{prefix}.hdr"), parser.span)?;
        let meta = self.instantiate(&m_ty, &format!("{prefix}.meta"), parser.span)?;
        let types: [&str; 4] = if g == Gress::Ingress {
            [
                "ingress_intrinsic_metadata_t",
                "ingress_intrinsic_metadata_from_parser_t",
                "ingress_intrinsic_metadata_for_deparser_t",
                "ingress_intrinsic_metadata_for_tm_t",
            ]
        } else {
            [
                "egress_intrinsic_metadata_t",
                "egress_intrinsic_metadata_from_parser_t",
                "egress_intrinsic_metadata_for_deparser_t",
                "egress_intrinsic_metadata_for_output_port_t",
            ]
        };
        let mut intr = Vec::new();
        for t in types {
            let o =
                self.instantiate(&Ty::Struct(t.into()), &format!("{prefix}.{t}"), parser.span)?;
            if let Some(s) = first_slot(&o) {
                self.intrinsic.push(s);
            }
            intr.push(o);
        }
        let Some(slots) = intr_slots(&intr, g) else {
            self.err(
                parser.span,
                format!("the {gname} intrinsic metadata types lack a field the switch needs (port, global_tstamp, parser_err, drop_ctl)"),
            );
            return None;
        };
        let start = self.compile_parser(
            parser,
            vec![Obj::PacketIn, hdr.clone(), meta.clone(), intr[0].clone()],
        )?;
        let mut bodies = Vec::new();
        for (i, (name, span)) in blocks.iter().enumerate().skip(1) {
            let Some(ctl) = self.controls.get(name).copied() else {
                self.err(*span, format!("unknown control `{name}`"));
                return None;
            };
            let binds = if i == 1 {
                let mut b = vec![hdr.clone(), meta.clone()];
                b.extend(intr.iter().cloned());
                b
            } else {
                vec![Obj::PacketOut, hdr.clone(), meta.clone(), intr[2].clone()]
            };
            bodies.push(self.compile_control(ctl, binds));
        }
        let deparser = bodies.pop().unwrap_or_default();
        let control = bodies.pop().unwrap_or_default();
        Some(PassDef {
            name: prefix,
            start,
            control,
            deparser,
            intr: slots,
        })
    }

    /// A TNA extern instantiation; `None` if `tn` is not a TNA extern.
    pub(super) fn tna_extern(
        &mut self,
        span: Span,
        tn: &str,
        targs: &[Type],
        args: &[Expr],
        name: &str,
    ) -> Option<Option<Obj>> {
        let width_arg = |cx: &mut Self, i: usize, what: &str| -> Option<u32> {
            match targs.get(i).map(|t| cx.resolve_type(span, t)) {
                Some(Ok(Ty::Bit(w))) if w <= 64 => Some(w),
                _ => {
                    cx.err(span, format!("{what}: expected a bit<W> type argument"));
                    None
                }
            }
        };
        let size_arg = |cx: &mut Self, what: &str| -> Option<u32> {
            let size = args.first().and_then(|a| cx.const_expr(a));
            match size.filter(|s| (1..=1 << 24).contains(s)) {
                Some(s) => Some(s as u32),
                None => {
                    cx.err(
                        span,
                        format!("{what} size must be a constant from 1 to 2^24"),
                    );
                    None
                }
            }
        };
        Some(match tn {
            "Register" => (|| {
                let width = width_arg(self, 0, "Register<T, I>")?;
                let size = size_arg(self, "Register")?;
                if let Some(init) = args.get(1) {
                    if self.const_expr(init) != Some(0) {
                        self.err(
                            init.span,
                            "Register initial values other than 0 are not supported",
                        );
                        return None;
                    }
                }
                self.c.registers.push(RegisterDef {
                    name: self.qualify(name),
                    size,
                    width,
                });
                Some(Obj::Register((self.c.registers.len() - 1) as u32))
            })(),
            "Hash" => (|| {
                let width = width_arg(self, 0, "Hash<T>")?;
                if width >= 64 {
                    self.err(span, "Hash<bit<64>> is not supported");
                    return None;
                }
                if args.len() != 1 {
                    self.err(span, "Hash takes one argument (a HashAlgorithm_t); custom polynomials are not supported");
                    return None;
                }
                let algo = self.tna_algo(&args[0])?;
                Some(Obj::Hash { algo, width })
            })(),
            "Meter" => (|| {
                let size = size_arg(self, "Meter")?;
                self.tna_meter(span, size, args, name)
            })(),
            "Counter" => (|| {
                let size = size_arg(self, "Counter")?;
                let kind = match args.get(1).map(|a| &a.kind) {
                    Some(ExprKind::Member(_, m)) if m == "BYTES" => CounterKind::Bytes,
                    Some(ExprKind::Member(_, m)) if m == "PACKETS" => CounterKind::Packets,
                    _ => CounterKind::Both,
                };
                self.c.counters.push(CounterDef {
                    name: self.qualify(name),
                    size,
                    kind,
                });
                Some(Obj::Counter((self.c.counters.len() - 1) as u32))
            })(),
            "DirectCounter" => Some(Obj::DirectCounter(self.qualify(name))),
            _ => return None,
        })
    }

    /// `Meter<I>(size, MeterType_t.*[, red, yellow, green]) name;` (size checked).
    fn tna_meter(&mut self, span: Span, size: u32, args: &[Expr], name: &str) -> Option<Obj> {
        let bytes = match args.get(1).map(|a| &a.kind) {
            Some(ExprKind::Member(_, m)) if m == "BYTES" => true,
            Some(ExprKind::Member(_, m)) if m == "PACKETS" => false,
            _ => {
                self.err(
                    span,
                    "meter type must be MeterType_t.BYTES or MeterType_t.PACKETS",
                );
                return None;
            }
        };
        // (red, yellow, green) colour values; MeterColor_t by default
        let mut colors = [3u64, 1, 0];
        if args.len() == 5 {
            for (c, a) in colors.iter_mut().zip(&args[2..5]) {
                match self.const_expr(a) {
                    Some(v) => *c = v & 0xff,
                    None => {
                        self.err(a.span, "meter colour values must be constants");
                        return None;
                    }
                }
            }
        } else if args.len() != 2 {
            self.err(
                span,
                "Meter takes (size, type) or (size, type, red, yellow, green)",
            );
            return None;
        }
        self.c.meters.push(MeterDef {
            name: self.qualify(name),
            size,
            bytes,
        });
        let meter = (self.c.meters.len() - 1) as u32;
        Some(Obj::TnaMeter { meter, colors })
    }

    fn tna_algo(&mut self, e: &Expr) -> Option<Algo> {
        if let ExprKind::Member(b, m) = &e.kind {
            if matches!(&b.kind, ExprKind::Name(n) if n == "HashAlgorithm_t") {
                let a = match m.as_str() {
                    "CRC32" => Algo::Crc32,
                    "CRC16" => Algo::Crc16,
                    "IDENTITY" => Algo::Identity,
                    "XOR16" => Algo::Xor16,
                    _ => {
                        self.err(
                            e.span,
                            format!("hash algorithm `HashAlgorithm_t.{m}` is not supported"),
                        );
                        return None;
                    }
                };
                return Some(a);
            }
        }
        self.err(e.span, "expected HashAlgorithm_t.<name>");
        None
    }

    /// A TNA extern method call used as a value (`r.read(i)`, `h.get({..})`,
    /// `m.execute(i)`): the call is hoisted into `pre` with its result in a fresh slot.
    /// `None` if `obj.m` is not one.
    pub(super) fn tna_call_value(
        &mut self,
        span: Span,
        obj: &Obj,
        m: &str,
        args: &[Expr],
    ) -> Option<R<(Ex, Ty)>> {
        let one_arg = |cx: &mut Self| -> R<()> {
            if args.len() == 1 {
                Ok(())
            } else {
                cx.err(span, format!("`{m}` takes one argument"));
                Err(())
            }
        };
        let index = |cx: &mut Self| -> R<Ex> {
            one_arg(cx)?;
            let (idx, it) = cx.expr(&args[0])?;
            cx.loose(args[0].span, idx, &it, &Ty::Bit(32))
        };
        Some((|| match (obj, m) {
            (Obj::Register(r), "read") => {
                let idx = index(self)?;
                let w = self.c.registers[*r as usize].width;
                let t = self.new_slot(format!("$read{}", self.c.nslots));
                self.pre.push(St::RegRead {
                    reg: *r,
                    dst: Dst::Slot(t),
                    idx,
                });
                Ok((Ex::Slot(t), Ty::Bit(w)))
            }
            (Obj::Hash { algo, width }, "get") => {
                one_arg(self)?;
                let data = Self::flatten_fields_plain(self.field_list(&args[0])?);
                let t = self.new_slot(format!("$hash{}", self.c.nslots));
                self.pre.push(St::Hash {
                    dst: Dst::Slot(t),
                    dst_mask: mask(*width),
                    algo: *algo,
                    base: Ex::Const(0),
                    data,
                    max: Ex::Const(1u64 << *width),
                });
                Ok((Ex::Slot(t), Ty::Bit(*width)))
            }
            (Obj::RegisterAction(ra), "execute") => {
                let ra = ra.clone();
                self.execute_register_action(span, &ra, args)
            }
            (Obj::TnaMeter { meter, colors }, "execute") => {
                let idx = index(self)?;
                // the engine's colour (0 green, 1 yellow, 2 red), then the program's values
                let t = self.new_slot(format!("$color{}", self.c.nslots));
                self.pre.push(St::Meter {
                    meter: *meter,
                    idx,
                    dst: Dst::Slot(t),
                });
                let [red, yellow, green] = *colors;
                let pick = |v: u64, a: u64, b: Ex| {
                    Ex::Cond(
                        Box::new(Ex::SlotConst(BinK::Eq, t, v, 1)),
                        Box::new(Ex::Const(a)),
                        Box::new(b),
                    )
                };
                let ex = pick(0, green, pick(1, yellow, Ex::Const(red)));
                Ok((ex, Ty::Bit(8)))
            }
            _ => {
                self.err(span, format!("`{m}` cannot be used as a value here"));
                Err(())
            }
        })())
    }

    /// `x = port_metadata_unpack<T>(pkt);` (TNA): the port metadata are not modelled, so
    /// `x`'s values become 0 (scalars and structs of scalars; a header is refused).
    /// `None` if `rhs` is not that call.
    pub(super) fn port_metadata_unpack(
        &mut self,
        span: Span,
        target: &Obj,
        rhs: &Expr,
    ) -> Option<R<St>> {
        let ExprKind::Call { func, .. } = &rhs.kind else {
            return None;
        };
        if !self.tna || !matches!(&func.kind, ExprKind::Name(n) if n == "port_metadata_unpack") {
            return None;
        }
        fn zero(o: &Obj, out: &mut Vec<Slot>) -> bool {
            match o {
                Obj::Val { slot, .. } => {
                    out.push(*slot);
                    true
                }
                Obj::Struct { members } => members.iter().all(|m| zero(&m.1, out)),
                _ => false,
            }
        }
        let mut slots = Vec::new();
        if !zero(target, &mut slots) {
            self.err(
                span,
                "port_metadata_unpack: the target must be a struct of bit<N> values",
            );
            return Some(Err(()));
        }
        let items = slots
            .into_iter()
            .map(|s| St::Set(Dst::Slot(s), Ex::Const(0)))
            .collect();
        Some(Ok(St::If(Ex::Const(1), items, vec![])))
    }

    /// Refuses tables and externs declared twice under one name: a control instantiated in
    /// two pipes would get one copy per pipe, which the control plane (one name space) cannot
    /// address.
    pub(super) fn tna_unique_names(&mut self, span: Span) {
        let mut names: Vec<(&str, &str)> = Vec::new();
        names.extend(
            self.c
                .tables
                .iter()
                .map(|t| ("table", t.qualified.as_str())),
        );
        names.extend(
            self.c
                .registers
                .iter()
                .map(|r| ("register", r.name.as_str())),
        );
        names.extend(self.c.counters.iter().map(|c| ("counter", c.name.as_str())));
        names.extend(self.c.meters.iter().map(|m| ("meter", m.name.as_str())));
        let mut seen = std::collections::HashSet::new();
        let mut dups = Vec::new();
        for (kind, n) in names {
            if !seen.insert((kind, n)) {
                dups.push(format!("{kind} `{n}`"));
            }
        }
        dups.dedup();
        for d in dups {
            self.err(
                span,
                format!("{d} is declared once per pipe that uses its control; per-pipe copies are not supported: give each Pipeline its own control"),
            );
        }
    }

    /// `pkt.extract(x)` where `x` is an intrinsic metadata struct: nothing to do.
    pub(super) fn is_intrinsic(&self, o: &Obj) -> bool {
        self.tna && first_slot(o).is_some_and(|s| self.intrinsic.contains(&s))
    }
}

/// The block name of a `Name()` instantiation argument or a plain name.
pub(super) fn block_name(a: &Expr) -> Option<String> {
    match &a.kind {
        ExprKind::Call { func, .. } => match &func.kind {
            ExprKind::Name(n) => Some(n.clone()),
            _ => None,
        },
        ExprKind::Name(n) => Some(n.clone()),
        _ => None,
    }
}

fn first_slot(o: &Obj) -> Option<Slot> {
    match o {
        Obj::Struct { members } => members.first().and_then(|m| first_slot(&m.1)),
        Obj::Val { slot, .. } => Some(*slot),
        _ => None,
    }
}

fn member_slot(o: &Obj, name: &str) -> Option<Slot> {
    match o {
        Obj::Struct { members } => members
            .iter()
            .find(|m| m.0 == name)
            .and_then(|m| match m.1 {
                Obj::Val { slot, .. } => Some(slot),
                _ => None,
            }),
        _ => None,
    }
}

/// The runner's slots among the four intrinsic structs of a pass.
fn intr_slots(intr: &[Obj], g: Gress) -> Option<IntrSlots> {
    let [md, prsr, dprsr, last] = intr else {
        return None;
    };
    Some(if g == Gress::Ingress {
        IntrSlots {
            port: member_slot(md, "ingress_port")?,
            mac_tstamp: member_slot(md, "ingress_mac_tstamp"),
            global_tstamp: member_slot(prsr, "global_tstamp")?,
            pkt_length: None,
            parser_err: member_slot(prsr, "parser_err")?,
            drop_ctl: member_slot(dprsr, "drop_ctl")?,
            ucast_egress_port: member_slot(last, "ucast_egress_port"),
            bypass_egress: member_slot(last, "bypass_egress"),
        }
    } else {
        IntrSlots {
            port: member_slot(md, "egress_port")?,
            mac_tstamp: None,
            global_tstamp: member_slot(prsr, "global_tstamp")?,
            pkt_length: member_slot(md, "pkt_length"),
            parser_err: member_slot(prsr, "parser_err")?,
            drop_ctl: member_slot(dprsr, "drop_ctl")?,
            ucast_egress_port: None,
            bypass_egress: None,
        }
    })
}
