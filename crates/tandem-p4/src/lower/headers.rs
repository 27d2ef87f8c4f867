//! The packet's headers: header types and the `headers_t`/`meta_t` structs, reading and
//! writing header fields (IPv4's presence rules), the parser and the deparser.
//!
//! ```text
//! parser:   eth ─0x88b5 (server port only)─▶ tandem ─0x0800─▶ ipv4 (+ options) ─6─▶ tcp
//!              └─0x0800───────────────────────────────────────▶                  └─17─▶ udp
//! deparser: eth, tandem, ipv4 (+ options), tcp, udp
//! ```
//!
//! Declared headers (the NF IR's `header`/`parse` lines) add a header type, a `headers_t`
//! member and a parser state each; every state selects on the fields its outgoing edges test,
//! the NF's edges first, as `tandem_ir::parse_graph` tries them. With `header vlan` and
//! `parse eth.ethertype == 0x8100 -> vlan`, `parse vlan.ethertype == 0x800 -> ipv4`:
//!
//! ```text
//! state start      { packet.extract(hdr.eth); transition select(port, hdr.eth.ethertype) {
//!                      (SERVER_PORT, 0x88b5): parse_tandem; (_, 0x8100): parse_vlan;
//!                      (_, 0x0800): parse_ipv4; default: accept; } }
//! state parse_vlan { packet.extract(hdr.vlan); transition select(hdr.vlan.ethertype) {
//!                      0x0800: parse_ipv4; default: accept; } }
//! deparser: eth, tandem, vlan, ipv4 (+ options), tcp, udp   (tandem_ir::deparse_order)
//! ```
//!
//! `ipv4.version_ihl` sits in its own one-byte header (`ipv4_vihl`): the parser reads it
//! before deciding whether the rest is an IPv4 header as the NF IR sees it (version 4, IHL at
//! least 5, all option words present), and sets `meta.ipv4_ok` where TCP/UDP would start.

use tandem_ir::{Header, HeaderField, Module, ParseEdge};
use tandem_p4_syntax::{
    Decl, DeclKind, Direction, Expr, ExprKind, ParserState, SelectCase, Stmt, Transition, Type,
};

use super::{meta, transfer, Gen};
use crate::build::*;

/// The header's member name in `headers_t` (its type is this name plus `_t`).
pub(super) fn hdr_name(h: Header) -> String {
    let n = h.name();
    if h.is_builtin() {
        return n.to_string();
    }
    if super::P4_RESERVED.contains(&n)
        || ["tandem", "ipv4_vihl"].contains(&n)
        || n.starts_with("ipv4_opt")
    {
        format!("{n}_h")
    } else {
        n.to_string()
    }
}

/// `hdr.ipv4.daddr`.
pub(super) fn field_expr(f: HeaderField) -> Expr {
    member(member(name("hdr"), &hdr_name(f.header())), f.short_name())
}

/// The parser state that extracts `h`.
fn state_of(h: Header) -> String {
    match h {
        Header::Eth => "start".into(),
        h => format!("parse_{}", hdr_name(h)),
    }
}

/// The NF's edges out of `h`, then the built-in ones, in the order the NF IR tries them.
fn edges_from(module: &Module, h: Header) -> Vec<ParseEdge> {
    module
        .parse_edges
        .iter()
        .chain(&tandem_ir::parse_graph::BUILTIN_EDGES)
        .filter(|e| e.from == h)
        .copied()
        .collect()
}

/// `select` over the fields the edges out of `h` test, one case per edge up to the first
/// unconditional one, then `accept`. With `port`, the port expression comes first and a first
/// case sends the transfer header's frames (server port, EtherType 0x88b5) to `parse_tandem`.
/// `subst` replaces a field's expression (after the transfer header, Ethernet's type is in
/// `hdr.tandem.orig_ethertype`).
fn select_edges(
    module: &Module,
    h: Header,
    port: Option<(Expr, bool)>,
    subst: &dyn Fn(HeaderField) -> Expr,
) -> Transition {
    let edges = edges_from(module, h);
    let mut fields: Vec<HeaderField> = Vec::new();
    for f in edges.iter().filter_map(|e| e.select) {
        if !fields.contains(&f) {
            fields.push(f);
        }
    }
    if port.is_some() && !fields.contains(&HeaderField::EthEthertype) {
        fields.insert(0, HeaderField::EthEthertype);
    }
    let width = usize::from(port.is_some());
    let mut exprs: Vec<Expr> = port.iter().map(|p| p.0.clone()).collect();
    exprs.extend(fields.iter().map(|&f| subst(f)));
    let mut cases: Vec<SelectCase> = Vec::new();
    if let Some((_, true)) = port {
        let mut keys = vec![name("TANDEM_SERVER_PORT")];
        keys.extend(fields.iter().map(|&f| {
            if f == HeaderField::EthEthertype {
                name("TANDEM_ETHERTYPE")
            } else {
                e(ExprKind::DontCare)
            }
        }));
        cases.push(SelectCase {
            keys,
            next: "parse_tandem".into(),
        });
    }
    for edge in &edges {
        let Some(sel) = edge.select else {
            if cases.is_empty() && port.is_none() {
                return Transition::Goto(state_of(edge.to));
            }
            cases.push(SelectCase {
                keys: vec![e(ExprKind::Default)],
                next: state_of(edge.to),
            });
            return Transition::Select { exprs, cases };
        };
        let mut keys: Vec<Expr> = (0..width).map(|_| e(ExprKind::DontCare)).collect();
        keys.extend(fields.iter().map(|&f| {
            if f == sel {
                lit(edge.value, f.bits())
            } else {
                e(ExprKind::DontCare)
            }
        }));
        cases.push(SelectCase {
            keys,
            next: state_of(edge.to),
        });
    }
    if cases.is_empty() && port.is_none() {
        return Transition::Goto("accept".into());
    }
    cases.push(SelectCase {
        keys: vec![e(ExprKind::Default)],
        next: "accept".into(),
    });
    Transition::Select { exprs, cases }
}

/// Number of 32-bit IPv4 option words the parser can hold (IHL up to 15).
pub(super) const IPV4_OPTION_WORDS: u32 = 10;

/// Whether the frame has an IPv4 header as the NF IR sees it: the parser extracted the
/// header *and all its option words* (it sets `meta.ipv4_ok` where TCP/UDP would start). A
/// frame cut short inside the options has `hdr.ipv4` valid but no IPv4 for the NF.
pub(super) fn ipv4_present() -> Expr {
    bin(tandem_p4_syntax::BinOp::Eq, meta("ipv4_ok"), lit(1, 1))
}

/// A header field read. `ipv4.version_ihl` sits in its own one-byte header (the parser reads
/// it before deciding whether the rest is an IPv4 header, as the NF IR's presence rules say),
/// so it reads 0 when IPv4 is absent, like every other field.
pub(super) fn read_field(f: HeaderField) -> Expr {
    if f == HeaderField::Ipv4VersionIhl {
        return ternary(ipv4_present(), path("hdr.ipv4_vihl.version_ihl"), lit(0, 8));
    }
    field_expr(f)
}

/// A header field write; writes to an absent IPv4 header do nothing.
pub(super) fn write_field(f: HeaderField, v: Expr) -> Stmt {
    if f == HeaderField::Ipv4VersionIhl {
        return if_stmt(
            ipv4_present(),
            vec![assign(path("hdr.ipv4_vihl.version_ihl"), v)],
            Vec::new(),
        );
    }
    assign(field_expr(f), v)
}

/// `hdr.push h`: when `h` is absent, make it valid with every field 0 (P4's `setValid`
/// leaves fields undefined). IPv4 is `ipv4_vihl` + `ipv4` (no options) and `meta.ipv4_ok`.
pub(super) fn push_header(h: Header) -> Stmt {
    let hv = |n: &str| member(name("hdr"), n);
    let mut body = Vec::new();
    let present = if h == Header::Ipv4 {
        body.push(call_stmt(method(hv("ipv4_vihl"), "setValid", vec![])));
        body.push(call_stmt(method(hv("ipv4"), "setValid", vec![])));
        body.extend(option_words_invalid());
        body.push(assign(meta("ipv4_ok"), lit(1, 1)));
        body.push(assign(path("hdr.ipv4_vihl.version_ihl"), lit(0, 8)));
        ipv4_present()
    } else {
        let n = hdr_name(h);
        body.push(call_stmt(method(hv(&n), "setValid", vec![])));
        method(hv(&n), "isValid", vec![])
    };
    for f in h.fields().filter(|&f| f != HeaderField::Ipv4VersionIhl) {
        body.push(assign(field_expr(f), lit(0, f.bits())));
    }
    if_stmt(present, Vec::new(), body)
}

/// `hdr.pop h`: make `h` invalid (IPv4: with its option words, and `meta.ipv4_ok` 0).
pub(super) fn pop_header(h: Header) -> Vec<Stmt> {
    let hv = |n: &str| member(name("hdr"), n);
    if h == Header::Ipv4 {
        let mut out = vec![
            call_stmt(method(hv("ipv4_vihl"), "setInvalid", vec![])),
            call_stmt(method(hv("ipv4"), "setInvalid", vec![])),
        ];
        out.extend(option_words_invalid());
        out.push(assign(meta("ipv4_ok"), lit(0, 1)));
        return out;
    }
    vec![call_stmt(method(hv(&hdr_name(h)), "setInvalid", vec![]))]
}

fn option_words_invalid() -> Vec<Stmt> {
    (1..=IPV4_OPTION_WORDS)
        .map(|k| {
            call_stmt(method(
                member(name("hdr"), &format!("ipv4_opt{k}")),
                "setInvalid",
                vec![],
            ))
        })
        .collect()
}

/// The deparser's body: every header in wire order (`emit` skips invalid ones).
pub(super) fn deparser_emits(module: &Module, with_header: bool) -> Vec<Stmt> {
    let mut hs: Vec<String> = Vec::new();
    for h in tandem_ir::deparse_order(module) {
        match h {
            Header::Eth => {
                hs.push("eth".into());
                if with_header {
                    hs.push("tandem".into());
                }
            }
            Header::Ipv4 => {
                hs.extend(["ipv4_vihl".into(), "ipv4".into()]);
                hs.extend((1..=IPV4_OPTION_WORDS).map(|k| format!("ipv4_opt{k}")));
            }
            h => hs.push(hdr_name(h)),
        }
    }
    hs.iter()
        .map(|h| call_stmt(method(name("packet"), "emit", vec![member(name("hdr"), h)])))
        .collect::<Vec<_>>()
}

impl Gen<'_, '_> {
    /// The header types, `headers_t` and `meta_t` (every metadata field lowering used).
    pub(super) fn header_decls(&self, with_header: bool) -> Vec<Decl> {
        let mut items = Vec::new();
        let header = |h: Header| {
            decl(DeclKind::Header {
                name: format!("{}_t", hdr_name(h)),
                fields: h
                    .fields()
                    .filter(|&f| f != HeaderField::Ipv4VersionIhl)
                    .map(|f| field(Type::Bit(f.bits()), f.short_name()))
                    .collect(),
            })
        };
        items.push(header(Header::Eth));
        if with_header {
            items.push(transfer::header_decl(&self.view.plan.transfer_header));
        }
        items.push(decl(DeclKind::Header {
            name: "ipv4_vihl_t".into(),
            fields: vec![field(Type::Bit(8), "version_ihl")],
        }));
        for h in [Header::Ipv4, Header::Tcp, Header::Udp] {
            items.push(header(h));
        }
        for &h in &self.view.module.headers {
            items.push(header(h));
        }
        items.push(decl(DeclKind::Header {
            name: "ipv4_opt_t".into(),
            fields: vec![field(Type::Bit(32), "word")],
        }));
        let mut hfields = vec![field(named_ty("eth_t"), "eth")];
        if with_header {
            hfields.push(field(named_ty("tandem_t"), "tandem"));
        }
        hfields.push(field(named_ty("ipv4_vihl_t"), "ipv4_vihl"));
        hfields.push(field(named_ty("ipv4_t"), "ipv4"));
        for k in 1..=IPV4_OPTION_WORDS {
            hfields.push(field(named_ty("ipv4_opt_t"), &format!("ipv4_opt{k}")));
        }
        for h in ["tcp", "udp"] {
            hfields.push(field(named_ty(&format!("{h}_t")), h));
        }
        for &h in &self.view.module.headers {
            let n = hdr_name(h);
            hfields.push(field(named_ty(&format!("{n}_t")), &n));
        }
        items.push(decl(DeclKind::Struct {
            name: "headers_t".into(),
            fields: hfields,
        }));
        items.push(decl(DeclKind::Struct {
            name: "meta_t".into(),
            fields: self
                .meta
                .iter()
                .map(|(n, b)| field(Type::Bit(*b), n))
                .collect(),
        }));
        items
    }

    pub(super) fn parser(&self, with_header: bool) -> tandem_p4_syntax::Decl {
        let extract = |h: &str| {
            call_stmt(method(
                name("packet"),
                "extract",
                vec![member(name("hdr"), h)],
            ))
        };
        let case = |keys: Vec<Expr>, next: &str| SelectCase {
            keys,
            next: next.into(),
        };
        let state = |n: &str, body: Vec<Stmt>, transition: Transition| ParserState {
            span: sp(),
            name: n.into(),
            body,
            transition,
        };
        let module = self.view.module;
        let plain = |f: HeaderField| field_expr(f);
        let mut start = Vec::new();
        if self.tna() {
            // Intrinsic metadata and the port metadata come first; Tofino does not zero
            // metadata, so the fields read before any write start at 0 here.
            start.push(call_stmt(method(
                name("packet"),
                "extract",
                vec![name("ig_intr_md")],
            )));
            start.push(call_stmt(method(
                name("packet"),
                "advance",
                vec![name("PORT_METADATA_SIZE")],
            )));
            for (f, bits) in &self.meta {
                let init = matches!(
                    f.as_str(),
                    "to_server" | "fate" | "wb_hit" | "visible" | "ipv4_ok"
                ) || f.starts_with("pre_block")
                    || f.starts_with("post_block");
                if init {
                    start.push(assign(meta(f), lit(0, *bits)));
                }
            }
        }
        start.push(extract("eth"));
        let start_t = select_edges(
            module,
            Header::Eth,
            Some((self.in_port_expr(), with_header)),
            &plain,
        );
        let mut states = vec![state("start", start, start_t)];
        if with_header {
            let orig = |f: HeaderField| {
                if f == HeaderField::EthEthertype {
                    path("hdr.tandem.orig_ethertype")
                } else {
                    field_expr(f)
                }
            };
            states.push(state(
                "parse_tandem",
                vec![extract("tandem")],
                select_edges(module, Header::Eth, None, &orig),
            ));
        }
        // IPv4 as the NF IR sees it: version 4 and IHL >= 5, then IHL - 5 option words, then
        // TCP/UDP at 14 + 4 * IHL.
        let vihl = || path("hdr.ipv4_vihl.version_ihl");
        let mut ok: Vec<SelectCase> = (0x45..=0x4f)
            .map(|v| case(vec![lit(v, 8)], "parse_ipv4_rest"))
            .collect();
        ok.push(case(vec![e(ExprKind::Default)], "accept"));
        states.push(state(
            "parse_ipv4",
            vec![extract("ipv4_vihl")],
            Transition::Select {
                exprs: vec![vihl()],
                cases: ok,
            },
        ));
        states.push(state(
            "parse_ipv4_rest",
            vec![extract("ipv4")],
            Transition::Select {
                exprs: vec![vihl()],
                cases: vec![
                    case(vec![lit(0x45, 8)], "parse_l4"),
                    case(vec![e(ExprKind::Default)], "parse_ipv4_opt1"),
                ],
            },
        ));
        for k in 1..=IPV4_OPTION_WORDS {
            let next = if k == IPV4_OPTION_WORDS {
                Transition::Goto("parse_l4".into())
            } else {
                Transition::Select {
                    exprs: vec![vihl()],
                    cases: vec![
                        case(vec![lit(0x45 + u64::from(k), 8)], "parse_l4"),
                        case(
                            vec![e(ExprKind::Default)],
                            &format!("parse_ipv4_opt{}", k + 1),
                        ),
                    ],
                }
            };
            states.push(state(
                &format!("parse_ipv4_opt{k}"),
                vec![extract(&format!("ipv4_opt{k}"))],
                next,
            ));
        }
        states.push(state(
            "parse_l4",
            vec![assign(meta("ipv4_ok"), lit(1, 1))],
            select_edges(module, Header::Ipv4, None, &plain),
        ));
        states.push(state(
            "parse_tcp",
            vec![extract("tcp")],
            Transition::Goto("accept".into()),
        ));
        for h in std::iter::once(Header::Udp).chain(module.headers.iter().copied()) {
            states.push(state(
                &state_of(h),
                vec![extract(&hdr_name(h))],
                select_edges(module, h, None, &plain),
            ));
        }
        let (pname, params) = if self.tna() {
            (
                "TandemIngressParser",
                params(&[
                    (Direction::None, "packet_in", "packet"),
                    (Direction::Out, "headers_t", "hdr"),
                    (Direction::Out, "meta_t", "meta"),
                    (Direction::Out, "ingress_intrinsic_metadata_t", "ig_intr_md"),
                ]),
            )
        } else {
            (
                "TandemParser",
                params(&[
                    (Direction::None, "packet_in", "packet"),
                    (Direction::Out, "headers_t", "hdr"),
                    (Direction::InOut, "meta_t", "meta"),
                    (Direction::InOut, "standard_metadata_t", "standard_metadata"),
                ]),
            )
        };
        decl(DeclKind::Parser {
            name: pname.into(),
            params,
            locals: Vec::new(),
            states,
        })
    }
}
