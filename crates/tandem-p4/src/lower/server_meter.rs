//! `--server-rate PPS[:BURST]`: a rate limit on the packets the switch sends to the server
//! (CoFilter §VI, "control-packet meter").
//!
//! One packet-unit meter (`tandem_server_meter`, index 0) runs on every packet pre is about
//! to send to the server — the packets that reached a server statement and the partial-map
//! misses sent whole ([`super::miss`]). The runtime configures it with committed and peak
//! rate PPS and both bursts BURST, so it marks only green or red (both buckets always hold the
//! same level); a red packet is dropped at the switch and counted in `tandem_metered`
//! (index 0, packets), which the runtime reads. Packets coming back from the server and
//! packets that stay on the switch never touch the meter. Without the option nothing here is
//! generated: the program is byte-identical to one compiled before the option existed.
//!
//! ```text
//! before: if (meta.to_server == 1w1) { standard_metadata.egress_spec = TANDEM_SERVER_PORT; }
//! after:  meter(32w1, MeterType.packets) tandem_server_meter;               (v1model)
//!         counter(32w1, CounterType.packets) tandem_metered;
//!         if (meta.to_server == 1w1) {
//!             standard_metadata.egress_spec = TANDEM_SERVER_PORT;
//!             tandem_server_meter.execute_meter(32w0, meta.server_colour);
//!             if (meta.server_colour == 8w2) {
//!                 tandem_metered.count(32w0);
//!                 mark_to_drop(standard_metadata);
//!             }
//!         }
//!         Meter<bit<32>>(32w1, MeterType_t.PACKETS, 8w2, 8w1, 8w0) tandem_server_meter; (TNA)
//!         Counter<bit<64>, bit<32>>(32w1, CounterType_t.PACKETS) tandem_metered;
//!         ... meta.server_colour = tandem_server_meter.execute(32w0); ...
//!             ig_dprsr_md.drop_ctl = 3w1; ...
//! ```

use tandem_p4_syntax::{BinOp, DeclKind, Stmt, Type};

use super::{meta, Gen, INGRESS};
use crate::build::*;
use crate::manifest;

/// The meter array's name in the program.
pub const SERVER_METER: &str = "tandem_server_meter";
/// The counter of metered drops.
pub const METERED_COUNTER: &str = "tandem_metered";
/// The metadata field that takes the meter's colour.
const COLOUR: &str = "server_colour";

impl Gen<'_, '_> {
    /// Declares the meter and the counter when `--server-rate` is set, and records them in
    /// the manifest.
    pub(super) fn declare_server_meter(&mut self) {
        let Some(rate) = self.opts.server_rate else {
            return;
        };
        let tna = self.tna();
        let (mty, margs) = super::meter::meter_instance(tna, 1, tandem_ir::MeterUnit::Packets);
        let (cty, cargs) = if tna {
            (
                Type::Named {
                    name: "Counter".into(),
                    args: vec![Type::Bit(64), Type::Bit(32)],
                },
                vec![lit(1, 32), member(name("CounterType_t"), "PACKETS")],
            )
        } else {
            (
                Type::Named {
                    name: "counter".into(),
                    args: vec![],
                },
                vec![lit(1, 32), member(name("CounterType"), "packets")],
            )
        };
        self.locals.push(decl(DeclKind::Instantiation {
            ty: mty,
            args: margs,
            name: SERVER_METER.into(),
        }));
        self.locals.push(decl(DeclKind::Instantiation {
            ty: cty,
            args: cargs,
            name: METERED_COUNTER.into(),
        }));
        self.meta_field(COLOUR, 8);
        self.manifest.server_meter = Some(manifest::ServerMeter {
            meter: format!("{INGRESS}.{SERVER_METER}"),
            counter: format!("{INGRESS}.{METERED_COUNTER}"),
            pps: rate.pps,
            burst: rate.burst,
        });
    }

    /// The statements that meter a packet bound for the server, after its port is set: on
    /// red, count it and drop it. Empty without `--server-rate`.
    pub(super) fn meter_server_bound(&mut self) -> Vec<Stmt> {
        if self.opts.server_rate.is_none() {
            return Vec::new();
        }
        let colour = meta(COLOUR);
        let exec = if self.tna() {
            assign(
                colour.clone(),
                method(name(SERVER_METER), "execute", vec![lit(0, 32)]),
            )
        } else {
            call_stmt(method(
                name(SERVER_METER),
                "execute_meter",
                vec![lit(0, 32), colour.clone()],
            ))
        };
        let red = vec![
            call_stmt(method(name(METERED_COUNTER), "count", vec![lit(0, 32)])),
            self.drop_stmt(),
        ];
        vec![
            exec,
            if_stmt(
                bin(BinOp::Eq, colour, lit(u64::from(tandem_ir::meter::RED), 8)),
                red,
                Vec::new(),
            ),
        ]
    }
}
