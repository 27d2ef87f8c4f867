//! The transfer header (ethertype 0x88b5, layout from the plan): its manifest entry, its P4
//! header type, and the statements that pack it on the way to the server and unpack it when
//! the packet comes back.
//!
//! ```text
//! pack:   hdr.tandem.setValid(); hdr.tandem.tag = 8w1;
//!         hdr.tandem.orig_ethertype = hdr.eth.ethertype; hdr.eth.ethertype = TANDEM_ETHERTYPE;
//!         hdr.tandem.<field> = meta.<value>;  ...
//! unpack: meta.<value> = hdr.tandem.<field>;  ...
//!         hdr.eth.ethertype = hdr.tandem.orig_ethertype; hdr.tandem.setInvalid();
//! ```

use tandem_p4_syntax::{BinOp, Decl, DeclKind, Expr, Stmt, Type};
use tandem_partition::{Partition, TransferHeader};

use super::{meta, sm, Gen};
use crate::build::*;
use crate::manifest;

/// The header's layout as the manifest records it.
pub(super) fn manifest_layout(th: &TransferHeader) -> manifest::TransferHeader {
    manifest::TransferHeader {
        ethertype: th.ethertype.clone(),
        bytes: th.bytes,
        tag_to_server: th.tag_to_server,
        tag_to_post: th.tag_to_post,
        tag_whole: None,
        fields: th
            .fields
            .iter()
            .map(|f| manifest::HeaderField {
                name: f.name.clone(),
                offset: f.offset,
                bits: f.bits,
                value: f.value.clone(),
                from: f.from.map(|p| p.name().to_string()),
                to: f.to.iter().map(|p| p.name().to_string()).collect(),
            })
            .collect(),
    }
}

/// `header tandem_t { ... }`: the plan's fields in order.
pub(super) fn header_decl(th: &TransferHeader) -> Decl {
    decl(DeclKind::Header {
        name: "tandem_t".into(),
        fields: th
            .fields
            .iter()
            .map(|f| field(Type::Bit(f.bits), &f.name))
            .collect(),
    })
}

/// `hdr.tandem.<f>`.
pub(super) fn tandem(f: &str) -> Expr {
    member(member(name("hdr"), "tandem"), f)
}

impl Gen<'_, '_> {
    /// Declares the metadata fields the header carries (`meta.*` values), so they exist even
    /// when no switch statement uses them.
    pub(super) fn use_carried_fields(&mut self) {
        let th = &self.view.plan.transfer_header;
        for f in &th.fields {
            if let Some(v) = f.value.as_deref().and_then(|v| v.strip_prefix("meta.")) {
                self.meta_field(v, f.bits);
            }
        }
    }

    /// The statements that fill the header for the server (valid, tag, ethertype, fields).
    pub(super) fn pack_transfer_header(&mut self) -> Vec<Stmt> {
        let th = &self.view.plan.transfer_header;
        let mut pack = vec![
            call_stmt(method(member(name("hdr"), "tandem"), "setValid", vec![])),
            assign(tandem("tag"), lit(u64::from(th.tag_to_server), 8)),
            assign(tandem("orig_ethertype"), path("hdr.eth.ethertype")),
            assign(path("hdr.eth.ethertype"), name("TANDEM_ETHERTYPE")),
        ];
        for f in &th.fields {
            let Some(v) = &f.value else {
                if f.name.starts_with("pad") {
                    pack.push(assign(tandem(&f.name), lit(0, f.bits)));
                }
                continue;
            };
            let rhs = if f.from == Some(Partition::Pre) || v == "fate" || v.starts_with("meta.") {
                self.cut_meta(v, f.bits)
            } else {
                lit(0, f.bits)
            };
            pack.push(assign(tandem(&f.name), rhs));
        }
        pack
    }

    /// The statements that read the header back from the server and remove it; the frame
    /// length, when used, is the arrival length the header carries, or the frame's length
    /// without the header.
    pub(super) fn unpack_transfer_header(&mut self, pkt_len_used: bool) -> Vec<Stmt> {
        let th = &self.view.plan.transfer_header;
        let mut unpack = Vec::new();
        for f in &th.fields {
            if let Some(v) = &f.value {
                let d = self.cut_meta(v, f.bits);
                unpack.push(assign(d, tandem(&f.name)));
            }
        }
        unpack.push(assign(path("hdr.eth.ethertype"), tandem("orig_ethertype")));
        unpack.push(call_stmt(method(
            member(name("hdr"), "tandem"),
            "setInvalid",
            vec![],
        )));
        // The arrival length: the header carries it when post reads it (the loop above set
        // it: the server may have pushed or popped headers, so the frame it sent back has
        // another length); else it is the frame's length without the header.
        let carried = th
            .fields
            .iter()
            .any(|f| f.value.as_deref() == Some("meta.length"));
        if pkt_len_used && !carried {
            unpack.push(assign(
                meta("pkt_len"),
                cast(
                    16,
                    bin(
                        BinOp::Sub,
                        sm("packet_length"),
                        lit(u64::from(th.bytes), 32),
                    ),
                ),
            ));
        }
        unpack
    }

    /// The metadata field of a cut value (`v7`, `meta.in_port`, `fate`; `meta.length` is
    /// `pkt_len`, where pre put the frame length).
    fn cut_meta(&mut self, v: &str, bits: u32) -> Expr {
        let n = match v.strip_prefix("meta.").unwrap_or(v) {
            "length" => "pkt_len",
            n => n,
        };
        self.meta_field(n, bits)
    }
}
