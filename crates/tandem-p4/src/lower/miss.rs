//! A partial map's miss in the generated program: the packet goes to the server whole.
//!
//! A partial map's switch table holds only the hot entries (`tandem_partition::partial`),
//! so a miss on the switch does not mean the key is absent: the server, which holds every
//! entry, must answer. When pre has not changed the packet or any state before the lookup
//! (no header write, push or pop, register write or meter on the way — checked as pre is
//! lowered, in program order), the miss sends the frame as it arrived to the server under
//! the transfer header with tag [`TAG_WHOLE`] (its other fields zero) and ends ingress; the
//! server runs the whole NF on it from the primary copy. Otherwise the map keeps the
//! runtime's probe (`miss_to_server: false` in the manifest).
//!
//! ```text
//! before: v9:i1, v10:i32 = map.find nat(v8)        (`nat` partial)
//! after:  nat.apply();
//!         if (meta.v9 == 1w0) {
//!             hdr.tandem.setValid(); hdr.tandem.tag = 8w3;
//!             hdr.tandem.orig_ethertype = hdr.eth.ethertype;
//!             hdr.eth.ethertype = TANDEM_ETHERTYPE;
//!             hdr.tandem.<field> = 0; ...
//!             standard_metadata.egress_spec = TANDEM_SERVER_PORT;
//!             exit;
//!         }
//! ```

use tandem_p4_syntax::{BinOp, Stmt, StmtKind};
use tandem_partition::Partition;

use super::transfer::tandem;
use super::Gen;
use crate::build::*;
use crate::manifest::TAG_WHOLE;

impl Gen<'_, '_> {
    /// Whether a miss of a partial map's lookup can send the packet to the server whole
    /// here: the lookup is in pre, nothing before it changed the packet or state, and the
    /// program has a transfer header.
    pub(super) fn can_send_miss_whole(&self) -> bool {
        let th = &self.view.plan.transfer_header;
        self.opts.partial_miss_to_server
            && self.part == Partition::Pre
            && !self.pre_effects
            && self.view.any_server()
            && th.bytes > 0
            && th.fields.iter().any(|f| f.name == "tag")
            && th.fields.iter().any(|f| f.name == "orig_ethertype")
    }

    /// `if (hit == 0) { <frame to the server whole>; exit; }` for the partial map `state`,
    /// recorded in the manifest (`miss_to_server`, `tag_whole`).
    pub(super) fn miss_to_server(&mut self, state: &str, hit: tandem_p4_syntax::Expr) -> Stmt {
        let body = self.send_whole();
        if let Some(s) = self.manifest.states.iter_mut().find(|s| s.name == state) {
            if let Some(p) = s.partial.as_mut() {
                p.miss_to_server = true;
            }
        }
        if_stmt(bin(BinOp::Eq, hit, lit(0, 1)), body, Vec::new())
    }

    /// `<frame to the server whole>; exit;` (a partial map's miss, a hashed map's stale
    /// slot), recorded in the manifest (`tag_whole`).
    pub(super) fn send_whole(&mut self) -> Vec<Stmt> {
        let th = &self.view.plan.transfer_header;
        let mut body = vec![
            call_stmt(method(member(name("hdr"), "tandem"), "setValid", vec![])),
            assign(tandem("tag"), lit(u64::from(TAG_WHOLE), 8)),
            assign(tandem("orig_ethertype"), path("hdr.eth.ethertype")),
            assign(path("hdr.eth.ethertype"), name("TANDEM_ETHERTYPE")),
        ];
        for f in &th.fields {
            if f.name != "tag" && f.name != "orig_ethertype" {
                body.push(assign(tandem(&f.name), lit(0, f.bits)));
            }
        }
        body.push(self.set_port(name("TANDEM_SERVER_PORT")));
        body.extend(self.meter_server_bound());
        body.push(Stmt {
            span: sp(),
            kind: StmtKind::Exit,
        });
        self.manifest.transfer_header.tag_whole = Some(TAG_WHOLE);
        body
    }
}
