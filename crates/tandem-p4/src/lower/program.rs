//! The whole program in its architecture's shell: includes, the server port and ethertype
//! constants, the header declarations, then v1model's `V1Switch(parser, verify checksum,
//! ingress, egress, compute checksum, deparser)` or TNA's `Pipeline`/`Switch` with separate
//! ingress and egress parsers and deparsers (egress is empty on both).

use tandem_p4_syntax::{DeclKind, Direction, ParserState, Program, Stmt, Transition, Type};

use super::headers::deparser_emits;
use super::{Gen, INGRESS};
use crate::build::*;

impl Gen<'_, '_> {
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
        let ctor = |n: &str| call(name(n), Vec::new());
        let control = |n: &str, params: Vec<tandem_p4_syntax::Param>, body: Vec<Stmt>| {
            decl(DeclKind::Control {
                name: n.into(),
                params,
                locals: Vec::new(),
                apply: block(body),
            })
        };
        let p = |d: Direction, ty: &str, n: &str| param(d, named_ty(ty), n);
        let parser = self.parser(with_header);
        let locals = std::mem::take(&mut self.locals);
        if self.tna() {
            for n in ["eg_headers_t", "eg_meta_t"] {
                items.push(decl(DeclKind::Struct {
                    name: n.into(),
                    fields: Vec::new(),
                }));
            }
            items.push(parser);
            items.push(decl(DeclKind::Control {
                name: INGRESS.into(),
                params: vec![
                    p(Direction::InOut, "headers_t", "hdr"),
                    p(Direction::InOut, "meta_t", "meta"),
                    p(Direction::In, "ingress_intrinsic_metadata_t", "ig_intr_md"),
                    p(
                        Direction::In,
                        "ingress_intrinsic_metadata_from_parser_t",
                        "ig_prsr_md",
                    ),
                    p(
                        Direction::InOut,
                        "ingress_intrinsic_metadata_for_deparser_t",
                        "ig_dprsr_md",
                    ),
                    p(
                        Direction::InOut,
                        "ingress_intrinsic_metadata_for_tm_t",
                        "ig_tm_md",
                    ),
                ],
                locals,
                apply: block(apply),
            }));
            items.push(control(
                "TandemIngressDeparser",
                vec![
                    p(Direction::None, "packet_out", "packet"),
                    p(Direction::InOut, "headers_t", "hdr"),
                    p(Direction::In, "meta_t", "meta"),
                    p(
                        Direction::In,
                        "ingress_intrinsic_metadata_for_deparser_t",
                        "ig_dprsr_md",
                    ),
                ],
                deparser_emits(with_header),
            ));
            items.push(decl(DeclKind::Parser {
                name: "TandemEgressParser".into(),
                params: vec![
                    p(Direction::None, "packet_in", "packet"),
                    p(Direction::Out, "eg_headers_t", "hdr"),
                    p(Direction::Out, "eg_meta_t", "meta"),
                    p(Direction::Out, "egress_intrinsic_metadata_t", "eg_intr_md"),
                ],
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
                vec![
                    p(Direction::InOut, "eg_headers_t", "hdr"),
                    p(Direction::InOut, "eg_meta_t", "meta"),
                    p(Direction::In, "egress_intrinsic_metadata_t", "eg_intr_md"),
                    p(
                        Direction::In,
                        "egress_intrinsic_metadata_from_parser_t",
                        "eg_prsr_md",
                    ),
                    p(
                        Direction::InOut,
                        "egress_intrinsic_metadata_for_deparser_t",
                        "eg_dprsr_md",
                    ),
                    p(
                        Direction::InOut,
                        "egress_intrinsic_metadata_for_output_port_t",
                        "eg_oport_md",
                    ),
                ],
                Vec::new(),
            ));
            items.push(control(
                "TandemEgressDeparser",
                vec![
                    p(Direction::None, "packet_out", "packet"),
                    p(Direction::InOut, "eg_headers_t", "hdr"),
                    p(Direction::In, "eg_meta_t", "meta"),
                    p(
                        Direction::In,
                        "egress_intrinsic_metadata_for_deparser_t",
                        "eg_dprsr_md",
                    ),
                ],
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
            return Program { items };
        }
        let std_params = || {
            vec![
                p(Direction::InOut, "headers_t", "hdr"),
                p(Direction::InOut, "meta_t", "meta"),
                p(Direction::InOut, "standard_metadata_t", "standard_metadata"),
            ]
        };
        let checksum_params = || {
            vec![
                p(Direction::InOut, "headers_t", "hdr"),
                p(Direction::InOut, "meta_t", "meta"),
            ]
        };
        items.push(parser);
        items.push(control(
            "TandemVerifyChecksum",
            checksum_params(),
            Vec::new(),
        ));
        items.push(decl(DeclKind::Control {
            name: INGRESS.into(),
            params: std_params(),
            locals,
            apply: block(apply),
        }));
        items.push(control("TandemEgress", std_params(), Vec::new()));
        items.push(control(
            "TandemComputeChecksum",
            checksum_params(),
            Vec::new(),
        ));
        items.push(control(
            "TandemDeparser",
            vec![
                p(Direction::None, "packet_out", "packet"),
                p(Direction::In, "headers_t", "hdr"),
            ],
            deparser_emits(with_header),
        ));
        items.push(decl(DeclKind::Instantiation {
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
        }));
        Program { items }
    }
}
