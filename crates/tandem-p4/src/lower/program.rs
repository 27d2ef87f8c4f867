//! The whole program in its architecture's shell: includes, the server port and ethertype
//! constants, the header declarations, then v1model's `V1Switch(parser, verify checksum,
//! ingress, egress, compute checksum, deparser)` or TNA's `Pipeline`/`Switch` with separate
//! ingress and egress parsers and deparsers (egress is empty on both).

use tandem_p4_syntax::{
    Decl, DeclKind, Direction, Param, ParserState, Program, Stmt, Transition, Type,
};

use super::headers::deparser_emits;
use super::{Gen, INGRESS};
use crate::build::*;

impl Gen<'_, '_> {
    /// The program around the ingress `apply` block.
    pub(super) fn program(&mut self, apply: Vec<Stmt>) -> Program {
        let th = &self.view.plan.transfer_header;
        let with_header = self.view.any_server() && th.bytes > 0;
        let mut items = vec![
            decl(DeclKind::Preprocessor("#include <core.p4>".into())),
            decl(DeclKind::Preprocessor(
                if self.tna() {
                    "#include <tna.p4>"
                } else {
                    "#include <v1model.p4>"
                }
                .into(),
            )),
            decl(DeclKind::Const {
                ty: Type::Bit(9),
                name: "TANDEM_SERVER_PORT".into(),
                value: lit(u64::from(self.opts.server_port), 9),
            }),
            decl(DeclKind::Const {
                ty: Type::Bit(16),
                name: "TANDEM_ETHERTYPE".into(),
                value: lit(u64::from(tandem_partition::TRANSFER_ETHERTYPE), 16),
            }),
        ];
        items.extend(self.header_decls(with_header));
        let parser = self.parser(with_header);
        let ingress = decl(DeclKind::Control {
            name: INGRESS.into(),
            params: if self.tna() {
                params(&[
                    (Direction::InOut, "headers_t", "hdr"),
                    (Direction::InOut, "meta_t", "meta"),
                    (Direction::In, "ingress_intrinsic_metadata_t", "ig_intr_md"),
                    (
                        Direction::In,
                        "ingress_intrinsic_metadata_from_parser_t",
                        "ig_prsr_md",
                    ),
                    (
                        Direction::InOut,
                        "ingress_intrinsic_metadata_for_deparser_t",
                        "ig_dprsr_md",
                    ),
                    (
                        Direction::InOut,
                        "ingress_intrinsic_metadata_for_tm_t",
                        "ig_tm_md",
                    ),
                ])
            } else {
                v1model_params()
            },
            locals: std::mem::take(&mut self.locals),
            apply: block(apply),
        });
        let deparser = deparser_emits(self.view.module, with_header);
        items.extend(if self.tna() {
            tna_shell(parser, ingress, deparser)
        } else {
            v1model_shell(parser, ingress, deparser)
        });
        Program { items }
    }
}

/// `n()`: a package argument.
pub(crate) fn ctor(n: &str) -> tandem_p4_syntax::Expr {
    call(name(n), Vec::new())
}

/// A control without locals.
fn control(n: &str, params: Vec<Param>, body: Vec<Stmt>) -> Decl {
    decl(DeclKind::Control {
        name: n.into(),
        params,
        locals: Vec::new(),
        apply: block(body),
    })
}

/// The parameters of v1model's parser and controls.
fn v1model_params() -> Vec<Param> {
    params(&[
        (Direction::InOut, "headers_t", "hdr"),
        (Direction::InOut, "meta_t", "meta"),
        (Direction::InOut, "standard_metadata_t", "standard_metadata"),
    ])
}

/// v1model: `V1Switch(parser, verify checksum, ingress, egress, compute checksum, deparser)`.
fn v1model_shell(parser: Decl, ingress: Decl, deparser: Vec<Stmt>) -> Vec<Decl> {
    let checksum_params = || {
        params(&[
            (Direction::InOut, "headers_t", "hdr"),
            (Direction::InOut, "meta_t", "meta"),
        ])
    };
    vec![
        parser,
        control("TandemVerifyChecksum", checksum_params(), Vec::new()),
        ingress,
        control("TandemEgress", v1model_params(), Vec::new()),
        control("TandemComputeChecksum", checksum_params(), Vec::new()),
        control(
            "TandemDeparser",
            params(&[
                (Direction::None, "packet_out", "packet"),
                (Direction::In, "headers_t", "hdr"),
            ]),
            deparser,
        ),
        decl(DeclKind::Instantiation {
            ty: named_ty("V1Switch"),
            args: vec![
                ctor("TandemParser"),
                ctor("TandemVerifyChecksum"),
                ctor(INGRESS),
                ctor("TandemEgress"),
                ctor("TandemComputeChecksum"),
                ctor("TandemDeparser"),
            ],
            name: "main".into(),
        }),
    ]
}

/// TNA: `Switch(Pipeline(ingress parser, ingress, ingress deparser, egress parser, egress,
/// egress deparser))`; egress parses only its intrinsic metadata and does nothing.
fn tna_shell(parser: Decl, ingress: Decl, deparser: Vec<Stmt>) -> Vec<Decl> {
    let mut items: Vec<Decl> = ["eg_headers_t", "eg_meta_t"]
        .into_iter()
        .map(|n| {
            decl(DeclKind::Struct {
                name: n.into(),
                fields: Vec::new(),
            })
        })
        .collect();
    items.push(parser);
    items.push(ingress);
    items.push(control(
        "TandemIngressDeparser",
        tna_deparser_params("headers_t", "meta_t", true),
        deparser,
    ));
    items.push(decl(DeclKind::Parser {
        name: "TandemEgressParser".into(),
        params: params(&[
            (Direction::None, "packet_in", "packet"),
            (Direction::Out, "eg_headers_t", "hdr"),
            (Direction::Out, "eg_meta_t", "meta"),
            (Direction::Out, "egress_intrinsic_metadata_t", "eg_intr_md"),
        ]),
        locals: Vec::new(),
        states: vec![ParserState {
            span: sp(),
            name: "start".into(),
            body: vec![call_stmt(method(
                name("packet"),
                "extract",
                vec![name("eg_intr_md")],
            ))],
            transition: Transition::Goto("accept".into()),
        }],
    }));
    items.push(control(
        "TandemEgress",
        tna_egress_params("eg_headers_t", "eg_meta_t"),
        Vec::new(),
    ));
    items.push(control(
        "TandemEgressDeparser",
        tna_deparser_params("eg_headers_t", "eg_meta_t", false),
        Vec::new(),
    ));
    items.push(decl(DeclKind::Instantiation {
        ty: named_ty("Pipeline"),
        args: vec![
            ctor("TandemIngressParser"),
            ctor(INGRESS),
            ctor("TandemIngressDeparser"),
            ctor("TandemEgressParser"),
            ctor("TandemEgress"),
            ctor("TandemEgressDeparser"),
        ],
        name: "pipe".into(),
    }));
    items.push(decl(DeclKind::Instantiation {
        ty: named_ty("Switch"),
        args: vec![name("pipe")],
        name: "main".into(),
    }));
    items
}

/// TNA's egress control parameters over the program's header and metadata types.
pub(crate) fn tna_egress_params(headers: &str, meta: &str) -> Vec<Param> {
    params(&[
        (Direction::InOut, headers, "hdr"),
        (Direction::InOut, meta, "meta"),
        (Direction::In, "egress_intrinsic_metadata_t", "eg_intr_md"),
        (
            Direction::In,
            "egress_intrinsic_metadata_from_parser_t",
            "eg_prsr_md",
        ),
        (
            Direction::InOut,
            "egress_intrinsic_metadata_for_deparser_t",
            "eg_dprsr_md",
        ),
        (
            Direction::InOut,
            "egress_intrinsic_metadata_for_output_port_t",
            "eg_oport_md",
        ),
    ])
}

/// TNA's deparser parameters (ingress's or egress's intrinsic metadata for the deparser).
pub(crate) fn tna_deparser_params(headers: &str, meta: &str, ingress: bool) -> Vec<Param> {
    let (ty, n) = if ingress {
        ("ingress_intrinsic_metadata_for_deparser_t", "ig_dprsr_md")
    } else {
        ("egress_intrinsic_metadata_for_deparser_t", "eg_dprsr_md")
    };
    params(&[
        (Direction::None, "packet_out", "packet"),
        (Direction::InOut, headers, "hdr"),
        (Direction::In, meta, "meta"),
        (Direction::In, ty, n),
    ])
}
