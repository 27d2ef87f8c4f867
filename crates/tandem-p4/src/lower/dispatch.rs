//! `P4Options::dispatch`: the switch picks the server of a cluster (CLIP §III-B, §III-D,
//! Fig. 4). Before pre, every packet that did not come from a server computes its flow —
//! its two endpoints, smaller first — hashes it, sets its bits in the current Bloom filter,
//! looks itself up in the old one, and reads its server from the chosen group's slot table
//! (the pin table overrides); pack writes the id into the transfer header's `server` field.
//! The runtime writes the registers (`cur`, `old_live`, the slot tables, the filters) and
//! the pins at a membership change, and sends each packet to the server the switch chose.
//!
//! ```text
//! before: pre; if (meta.to_server == 1) { hdr.tandem.setValid(); ...pack... }
//! after (v1model):
//!   meta.tandem_a0 = 32w0; ...; if (hdr.ipv4.isValid()) { meta.tandem_a0 = hdr.ipv4.saddr; ... }
//!   if (hdr.tcp.isValid()) { ...tcp ports... } else if (hdr.udp.isValid()) { ...udp ports... }
//!   if (meta.tandem_a1 < meta.tandem_a0 || ...) { ...swap the endpoints... }
//!   hash(meta.tandem_slot, HashAlgorithm.crc32, 32w0, {a0, p0, a1, p1}, 64w256);
//!   hash(meta.tandem_b0, HashAlgorithm.crc32, 32w0, {8w0, a0, p0, a1, p1}, 64w65536); ...
//!   tandem_cur.read(meta.tandem_cur, 32w0); tandem_old_live.read(meta.tandem_seen, 32w0);
//!   if (meta.tandem_cur == 1w0) {
//!       tandem_bm1_0.read(meta.tandem_bit0, meta.tandem_b0); ...   // old filter: BM1
//!       if (meta.tandem_bit0 == 1w0) { meta.tandem_seen = 1w0; } ...
//!       tandem_bm0_0.write(meta.tandem_b0, 1w1); ...                // current filter: BM0
//!       if (meta.tandem_seen == 1w1) { tandem_group1.read(meta.tandem_server, meta.tandem_slot); }
//!       else { tandem_group0.read(meta.tandem_server, meta.tandem_slot); }
//!   } else { ...the same with 0 and 1 swapped... }
//!   tandem_pins.apply();
//!   pre; if (meta.to_server == 1) { ...pack...; hdr.tandem.server = meta.tandem_server; }
//! ```
//!
//! TNA: the hashes are `Hash<bit<W>>` instances; each register is read or written once on
//! every path (one register array per filter and hash function, one per group).

use tandem_p4_syntax::{BinOp, DeclKind, Direction, Expr, ExprKind, KeyElement, Stmt, Type};
use tandem_partition::{HeaderField, Partition, Plan};

use super::transfer::tandem;
use super::{meta, Gen, INGRESS};
use crate::build::*;
use crate::manifest;
use crate::{DispatchShape, P4Error, DISPATCH_SLOTS};

/// The transfer-header field carrying the server id.
pub const SERVER_FIELD: &str = "server";
/// Bits of a server id.
const SERVER_BITS: u32 = 8;
/// Entries of the pin table.
const PIN_SIZE: u64 = 65536;
/// The flow's metadata fields: (name, bits).
const FLOW: [(&str, u32); 4] = [
    ("tandem_a0", 32),
    ("tandem_p0", 16),
    ("tandem_a1", 32),
    ("tandem_p1", 16),
];

/// The plan with the server-id field appended to its transfer header (when the plan has
/// one); a bad shape is an error.
pub fn with_server_field(plan: &Plan, shape: &DispatchShape) -> Result<Plan, P4Error> {
    let b = shape.bloom_bits;
    if b == 0 || !b.is_power_of_two() || b > 1 << 20 {
        return Err(P4Error::Dispatch(format!(
            "Bloom filter bits must be a power of two from 1 to 2^20, not {b}"
        )));
    }
    if shape.bloom_hashes == 0 || shape.bloom_hashes > 8 {
        return Err(P4Error::Dispatch(format!(
            "Bloom filter hash functions must be 1..=8, not {}",
            shape.bloom_hashes
        )));
    }
    let mut plan = plan.clone();
    let th = &mut plan.transfer_header;
    if th.bytes > 0 && !th.fields.iter().any(|f| f.name == SERVER_FIELD) {
        th.fields.push(HeaderField {
            name: SERVER_FIELD.into(),
            value: None,
            offset: th.bytes * 8,
            bits: SERVER_BITS,
            from: Some(Partition::Pre),
            to: Vec::new(),
        });
        th.bytes += SERVER_BITS / 8;
    }
    Ok(plan)
}

fn m(n: &str) -> Expr {
    meta(n)
}

fn valid(h: &str) -> Expr {
    method(member(name("hdr"), h), "isValid", Vec::new())
}

fn hf(h: &str, f: &str) -> Expr {
    member(member(name("hdr"), h), f)
}

fn eq(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Eq, a, b)
}

impl Gen<'_, '_> {
    /// Whether the program picks the server: the option is on and packets reach a server.
    fn dispatching(&self) -> bool {
        self.opts.dispatch.is_some()
            && self.view.any_server()
            && self
                .view
                .plan
                .transfer_header
                .fields
                .iter()
                .any(|f| f.name == SERVER_FIELD)
    }

    /// Declares the registers, the pin table and the metadata, and records them in the
    /// manifest (nothing without the option).
    pub(super) fn declare_dispatch(&mut self) {
        let Some(shape) = self.opts.dispatch else {
            return;
        };
        if !self.dispatching() {
            return;
        }
        for (n, bits) in FLOW {
            self.meta_field(n, bits);
        }
        self.meta_field("tandem_slot", 32);
        self.meta_field("tandem_cur", 1);
        self.meta_field("tandem_seen", 1);
        self.meta_field("tandem_server", SERVER_BITS);
        let q = |r: &str| format!("{INGRESS}.{r}");
        let cur = self.add_register("tandem_cur", "", None, 1, 1);
        let live = self.add_register("tandem_old_live", "", None, 1, 1);
        let groups: Vec<String> = (0..2)
            .map(|g| {
                let r = format!("tandem_group{g}");
                q(&self.add_register(&r, "", None, SERVER_BITS, u64::from(DISPATCH_SLOTS)))
            })
            .collect();
        let mut bloom = Vec::new();
        for f in 0..2 {
            let mut row = Vec::new();
            for i in 0..shape.bloom_hashes {
                let r = format!("tandem_bm{f}_{i}");
                row.push(q(&self.add_register(
                    &r,
                    "",
                    None,
                    1,
                    u64::from(shape.bloom_bits),
                )));
            }
            bloom.push(row);
        }
        for i in 0..shape.bloom_hashes {
            self.meta_field(&format!("tandem_b{i}"), 32);
            self.meta_field(&format!("tandem_bit{i}"), 1);
        }
        let action = "tandem_pin";
        self.locals.push(decl(DeclKind::Action {
            name: action.into(),
            params: vec![param(Direction::None, Type::Bit(SERVER_BITS), "server")],
            body: block(vec![assign(m("tandem_server"), name("server"))]),
        }));
        self.locals
            .push(decl(DeclKind::Table(tandem_p4_syntax::Table {
                name: "tandem_pins".into(),
                keys: FLOW
                    .iter()
                    .map(|(n, _)| KeyElement {
                        expr: m(n),
                        match_kind: "exact".into(),
                        annotations: Vec::new(),
                    })
                    .collect(),
                actions: vec![action_ref(action), action_ref("NoAction")],
                default_action: Some((
                    {
                        let mut a = action_ref("NoAction");
                        a.args = Some(Vec::new());
                        a
                    },
                    false,
                )),
                const_default: false,
                entries: Vec::new(),
                size: Some(int(PIN_SIZE)),
                other: Vec::new(),
                const_entries: false,
            })));
        self.manifest.dispatch = Some(manifest::Dispatch {
            server_field: SERVER_FIELD.into(),
            slots: DISPATCH_SLOTS,
            bloom_bits: shape.bloom_bits,
            bloom_hashes: shape.bloom_hashes,
            cur: q(&cur),
            old_live: q(&live),
            groups,
            bloom,
            pins: q("tandem_pins"),
            pin_action: q(action),
            pin_size: PIN_SIZE,
        });
    }

    /// `dst = crc32(data) % modulo` (v1model `hash`, TNA a `Hash<bit<log2 modulo>>`).
    fn dispatch_hash(&mut self, unit: &str, dst: Expr, data: Vec<Expr>, modulo: u32) -> Stmt {
        if modulo == 1 {
            return assign(dst, lit(0, 32));
        }
        let data = e(ExprKind::List(data));
        if self.tna() {
            self.locals.push(decl(DeclKind::Instantiation {
                ty: Type::Named {
                    name: "Hash".into(),
                    args: vec![Type::Bit(modulo.trailing_zeros())],
                },
                args: vec![member(name("HashAlgorithm_t"), "CRC32")],
                name: unit.into(),
            }));
            assign(dst, cast(32, method(name(unit), "get", vec![data])))
        } else {
            call_stmt(call(
                name("hash"),
                vec![
                    dst,
                    member(name("HashAlgorithm"), "crc32"),
                    lit(0, 32),
                    data,
                    lit(u64::from(modulo), 64),
                ],
            ))
        }
    }

    /// The statements before pre: the flow, its hashes, the filters, the server (empty
    /// without the option).
    pub(super) fn dispatch_stmts(&mut self) -> Vec<Stmt> {
        let Some(d) = self.manifest.dispatch.clone() else {
            return Vec::new();
        };
        let mut out: Vec<Stmt> = FLOW.iter().map(|(n, b)| assign(m(n), lit(0, *b))).collect();
        out.push(if_stmt(
            valid("ipv4"),
            vec![
                assign(m("tandem_a0"), hf("ipv4", "saddr")),
                assign(m("tandem_a1"), hf("ipv4", "daddr")),
            ],
            Vec::new(),
        ));
        let ports = |h: &str| {
            vec![
                assign(m("tandem_p0"), hf(h, "sport")),
                assign(m("tandem_p1"), hf(h, "dport")),
            ]
        };
        out.push(if_stmt(
            valid("tcp"),
            ports("tcp"),
            vec![if_stmt(valid("udp"), ports("udp"), Vec::new())],
        ));
        // Smaller endpoint first: (a1, p1) < (a0, p0) swaps them.
        let swap_when = bin(
            BinOp::Or,
            bin(BinOp::Lt, m("tandem_a1"), m("tandem_a0")),
            bin(
                BinOp::And,
                eq(m("tandem_a1"), m("tandem_a0")),
                bin(BinOp::Lt, m("tandem_p1"), m("tandem_p0")),
            ),
        );
        self.meta_field("tandem_ta", 32);
        self.meta_field("tandem_tp", 16);
        out.push(if_stmt(
            swap_when,
            vec![
                assign(m("tandem_ta"), m("tandem_a0")),
                assign(m("tandem_a0"), m("tandem_a1")),
                assign(m("tandem_a1"), m("tandem_ta")),
                assign(m("tandem_tp"), m("tandem_p0")),
                assign(m("tandem_p0"), m("tandem_p1")),
                assign(m("tandem_p1"), m("tandem_tp")),
            ],
            Vec::new(),
        ));
        let flow: Vec<Expr> = FLOW.iter().map(|(n, _)| m(n)).collect();
        let s = self.dispatch_hash("tandem_hslot", m("tandem_slot"), flow.clone(), d.slots);
        out.push(s);
        for i in 0..d.bloom_hashes {
            let mut data = vec![lit(u64::from(i), 8)];
            data.extend(flow.iter().cloned());
            let s = self.dispatch_hash(
                &format!("tandem_hb{i}"),
                m(&format!("tandem_b{i}")),
                data,
                d.bloom_bits,
            );
            out.push(s);
        }
        let local = |r: &str| r.rsplit('.').next().unwrap_or(r).to_string();
        out.push(self.reg_read(&local(&d.cur), m("tandem_cur"), lit(0, 32)));
        out.push(self.reg_read(&local(&d.old_live), m("tandem_seen"), lit(0, 32)));
        let per_cur = |g: &Self, cur: usize| {
            let old = 1 - cur;
            let mut b = Vec::new();
            for i in 0..d.bloom_hashes as usize {
                let bit = m(&format!("tandem_bit{i}"));
                b.push(g.reg_read(&local(&d.bloom[old][i]), bit, m(&format!("tandem_b{i}"))));
            }
            for i in 0..d.bloom_hashes as usize {
                b.push(if_stmt(
                    eq(m(&format!("tandem_bit{i}")), lit(0, 1)),
                    vec![assign(m("tandem_seen"), lit(0, 1))],
                    Vec::new(),
                ));
            }
            for i in 0..d.bloom_hashes as usize {
                b.push(call_stmt(method(
                    name(&local(&d.bloom[cur][i])),
                    "write",
                    vec![m(&format!("tandem_b{i}")), lit(1, 1)],
                )));
            }
            let read_group = |g: &Self, which: usize| {
                g.reg_read(
                    &local(&d.groups[which]),
                    m("tandem_server"),
                    m("tandem_slot"),
                )
            };
            b.push(if_stmt(
                eq(m("tandem_seen"), lit(1, 1)),
                vec![read_group(g, old)],
                vec![read_group(g, cur)],
            ));
            b
        };
        let (c0, c1) = (per_cur(self, 0), per_cur(self, 1));
        out.push(if_stmt(eq(m("tandem_cur"), lit(0, 1)), c0, c1));
        out.push(call_stmt(method(name("tandem_pins"), "apply", Vec::new())));
        out
    }

    /// `hdr.tandem.server = meta.tandem_server` after the header is packed (none without
    /// the option).
    pub(super) fn pack_server(&self) -> Option<Stmt> {
        self.manifest
            .dispatch
            .as_ref()
            .map(|d| assign(tandem(&d.server_field), m("tandem_server")))
    }
}
