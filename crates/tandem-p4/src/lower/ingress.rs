//! The ingress `apply` block: where a packet goes through the switch program.
//!
//! ```text
//! from the server (tandem valid): tag "to post": unpack the header into metadata, else drop
//! otherwise:                      pre; when it reached a server statement: pack the header
//! not bound for the server:       post
//! fate:                           to the server port, the decided port, or drop
//! ```
//!
//! Also the intrinsic fields that differ between v1model (`standard_metadata`) and TNA
//! (`ig_intr_md`, `ig_tm_md`, `ig_dprsr_md`) and the register read.

use tandem_p4_syntax::{BinOp, Expr, Stmt, StmtKind};

use super::transfer::tandem;
use super::{meta, sm, Gen, FLAG_REGISTER};
use crate::build::*;
use crate::P4Error;

impl Gen<'_, '_> {
    pub(super) fn ingress_apply(
        &mut self,
        pre: Vec<Stmt>,
        post: Vec<Stmt>,
    ) -> Result<Vec<Stmt>, P4Error> {
        let th = &self.view.plan.transfer_header;
        let with_header = self.view.any_server() && th.bytes > 0;
        self.use_carried_fields();
        let used = |g: &Self, f: &str| g.meta_index.contains_key(f);
        let mut apply = Vec::new();
        if self.manifest.visibility_flag.is_some() {
            apply.push(self.reg_read(FLAG_REGISTER, meta("visible"), lit(0, 32)));
        }
        let mut local = Vec::new();
        if used(self, "in_port") {
            let port = self.in_port_expr();
            local.push(assign(meta("in_port"), cast(16, port)));
        }
        if used(self, "pkt_len") {
            local.push(assign(meta("pkt_len"), cast(16, sm("packet_length"))));
        }
        local.extend(self.dispatch_stmts());
        local.extend(pre);
        if with_header {
            let mut pack = self.pack_transfer_header();
            pack.extend(self.pack_server());
            local.push(if_stmt(is_one(meta("to_server")), pack, Vec::new()));
            let unpack = self.unpack_transfer_header(used(self, "pkt_len"));
            let from_server = vec![if_stmt(
                bin(BinOp::Eq, tandem("tag"), lit(u64::from(th.tag_to_post), 8)),
                unpack,
                vec![
                    self.drop_stmt(),
                    tandem_p4_syntax::Stmt {
                        span: sp(),
                        kind: StmtKind::Exit,
                    },
                ],
            )];
            apply.push(if_stmt(
                method(member(name("hdr"), "tandem"), "isValid", vec![]),
                from_server,
                local,
            ));
            if !post.is_empty() {
                apply.push(if_stmt(
                    bin(BinOp::Eq, meta("to_server"), lit(0, 1)),
                    post,
                    Vec::new(),
                ));
            }
            apply.push(self.server_or_fate());
        } else {
            apply.extend(local);
            apply.extend(post);
            apply.push(self.fate_stmt());
        }
        Ok(apply)
    }

    /// The end of the ingress with a transfer header: to the server port (through the
    /// control-packet meter, if any) when pre decided so, else the packet's fate.
    pub(super) fn server_or_fate(&mut self) -> Stmt {
        let mut to_server = vec![self.set_port(name("TANDEM_SERVER_PORT"))];
        to_server.extend(self.meter_server_bound());
        if_stmt(is_one(meta("to_server")), to_server, vec![self.fate_stmt()])
    }

    pub(super) fn fate_stmt(&self) -> Stmt {
        if_stmt(
            is_one(slice(meta("fate"), 16, 16)),
            vec![self.set_port(cast(9, slice(meta("fate"), 15, 0)))],
            vec![self.drop_stmt()],
        )
    }

    pub(super) fn in_port_expr(&self) -> Expr {
        if self.tna() {
            path("ig_intr_md.ingress_port")
        } else {
            sm("ingress_port")
        }
    }

    pub(super) fn set_port(&self, port: Expr) -> Stmt {
        if self.tna() {
            assign(path("ig_tm_md.ucast_egress_port"), port)
        } else {
            assign(sm("egress_spec"), port)
        }
    }

    pub(super) fn drop_stmt(&self) -> Stmt {
        if self.tna() {
            assign(path("ig_dprsr_md.drop_ctl"), lit(1, 3))
        } else {
            call_stmt(call(name("mark_to_drop"), vec![name("standard_metadata")]))
        }
    }

    /// `dst = r[index]`.
    pub(super) fn reg_read(&self, r: &str, dst: Expr, index: Expr) -> Stmt {
        if self.tna() {
            assign(dst, method(name(r), "read", vec![index]))
        } else {
            call_stmt(method(name(r), "read", vec![dst, index]))
        }
    }
}
