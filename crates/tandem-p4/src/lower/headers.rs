//! The packet's headers: header types and the `headers_t`/`meta_t` structs, reading and
//! writing header fields (IPv4's presence rules), the parser and the deparser.
//!
//! ```text
//! parser:   eth ─0x88b5 (server port only)─▶ tandem ─0x0800─▶ ipv4 (+ options) ─6─▶ tcp
//!              └─0x0800───────────────────────────────────────▶                  └─17─▶ udp
//! deparser: eth, tandem, ipv4 (+ options), tcp, udp
//! ```
//!
//! `ipv4.version_ihl` sits in its own one-byte header (`ipv4_vihl`): the parser reads it
//! before deciding whether the rest is an IPv4 header as the NF IR sees it (version 4, IHL at
//! least 5, all option words present), and sets `meta.ipv4_ok` where TCP/UDP would start.

use tandem_ir::{Header, HeaderField};
use tandem_p4_syntax::{
    Decl, DeclKind, Direction, Expr, ExprKind, ParserState, SelectCase, Stmt, Transition, Type,
};

use super::{meta, transfer, Gen};
use crate::build::*;

pub(super) fn hdr_name(h: Header) -> &'static str {
    h.name()
}

/// `hdr.ipv4.daddr`.
pub(super) fn field_expr(f: HeaderField) -> Expr {
    let (h, n) = f.name().split_once('.').unwrap_or(("", f.name()));
    member(member(name("hdr"), h), n)
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

/// The deparser's body: every header in wire order (`emit` skips invalid ones).
pub(super) fn deparser_emits(with_header: bool) -> Vec<Stmt> {
    let mut hs = vec!["eth"];
    if with_header {
        hs.push("tandem");
    }
    let opts: Vec<String> = (1..=IPV4_OPTION_WORDS)
        .map(|k| format!("ipv4_opt{k}"))
        .collect();
    hs.extend(["ipv4_vihl", "ipv4"]);
    hs.extend(opts.iter().map(String::as_str));
    hs.extend(["tcp", "udp"]);
    hs.into_iter()
        .map(|h| call_stmt(method(name("packet"), "emit", vec![member(name("hdr"), h)])))
        .collect::<Vec<_>>()
}

impl Gen<'_, '_> {
    /// The header types, `headers_t` and `meta_t` (every metadata field lowering used).
    pub(super) fn header_decls(&self, with_header: bool) -> Vec<Decl> {
        let mut items = Vec::new();
        let header = |h: Header| {
            decl(DeclKind::Header {
                name: format!("{}_t", h.name()),
                fields: h
                    .fields()
                    .filter(|&f| f != HeaderField::Ipv4VersionIhl)
                    .map(|f| {
                        let n = f.name().split_once('.').map(|x| x.1).unwrap_or(f.name());
                        field(Type::Bit(f.bits()), n)
                    })
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
        let mut start_cases = Vec::new();
        if with_header {
            start_cases.push(case(
                vec![name("TANDEM_SERVER_PORT"), name("TANDEM_ETHERTYPE")],
                "parse_tandem",
            ));
        }
        start_cases.push(case(
            vec![e(ExprKind::DontCare), lit(0x0800, 16)],
            "parse_ipv4",
        ));
        start_cases.push(case(vec![e(ExprKind::Default)], "accept"));
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
        let mut states = vec![state(
            "start",
            start,
            Transition::Select {
                exprs: vec![self.in_port_expr(), path("hdr.eth.ethertype")],
                cases: start_cases,
            },
        )];
        if with_header {
            states.push(state(
                "parse_tandem",
                vec![extract("tandem")],
                Transition::Select {
                    exprs: vec![path("hdr.tandem.orig_ethertype")],
                    cases: vec![
                        case(vec![lit(0x0800, 16)], "parse_ipv4"),
                        case(vec![e(ExprKind::Default)], "accept"),
                    ],
                },
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
            Transition::Select {
                exprs: vec![path("hdr.ipv4.protocol")],
                cases: vec![
                    case(vec![lit(6, 8)], "parse_tcp"),
                    case(vec![lit(17, 8)], "parse_udp"),
                    case(vec![e(ExprKind::Default)], "accept"),
                ],
            },
        ));
        states.push(state(
            "parse_tcp",
            vec![extract("tcp")],
            Transition::Goto("accept".into()),
        ));
        states.push(state(
            "parse_udp",
            vec![extract("udp")],
            Transition::Goto("accept".into()),
        ));
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
