//! A map in hash-indexed registers (`tandem_partition::hashed`, CoFilter §III-C,
//! docs/hashed-storage.md): instead of an exact table, one register array per way holding
//! `fingerprint ++ value` per slot, and a collision table (exact on the key → way and slot)
//! before them. Chosen per map by [`crate::P4Options::hashed`]; the lookup's results (hit flag
//! and value fields) are what the table's hit and miss actions would set.
//!
//! ```text
//! before: v4:i1, v5:i8 = map.find m(v1, v2)            (`m` on the switch)
//!         m.apply();                                    // table m { key = { meta.m_a: exact;
//!                                                       //   meta.m_b: exact; } ... }
//! after (v1model, 2 ways, 8-bit fingerprint; TNA: a `Hash` instance per hash, `read(i)`):
//!   hash(meta.m_h0, HashAlgorithm.crc32, 32w0, { meta.m_a[31:24], ..., meta.m_b[7:0] }, 64w4294967296);
//!   hash(meta.m_h1, HashAlgorithm.crc32, 32w0, { ...the same bytes rotated... }, 64w4294967296);
//!   hash(meta.m_hf, HashAlgorithm.crc32, 32w0, { ...the bytes reversed... }, 64w4294967296);
//!   meta.m_fp = meta.m_hf[31:24]; if (meta.m_fp == 8w0) { meta.m_fp = 8w1; }
//!   meta.v4 = 1w0; meta.v5 = 8w0; meta.m_alt = 1w0;
//!   m_col.apply();                                      // m_alt(way, slot) sets m_alt/m_way/m_slot
//!   meta.m_i = meta.m_alt == 1w1 ? meta.m_slot : (bit<32>)meta.m_h0[9:0];
//!   if (meta.m_alt == 1w0 || meta.m_way == 8w0) {
//!       m_w0.read(meta.m_c, meta.m_i);
//!       if (meta.m_c[15:8] == meta.m_fp) { meta.v4 = 1w1; meta.v5 = meta.m_c[7:0]; } }
//!   if (meta.v4 == 1w0 && (meta.m_alt == 1w0 || meta.m_way == 8w1)) { ...way 1... }
//! ```
//!
//! When the map expires (or is the derived class map of one that does), each way also has a
//! hit-time register written on a hit, which the runtime reads as the key's last use
//! (`tandem_offload::hashed_ageing`):
//!
//! ```text
//!       if (meta.m_c[15:8] == meta.m_fp) { meta.v4 = 1w1;
//!           m_t0.write(meta.m_i, standard_metadata.ingress_global_timestamp);  // TNA:
//!           meta.v5 = meta.m_c[7:0]; }                    // ig_prsr_md.global_tstamp[41:10]
//! ```
//!
//! A key the collision table names is read only at its alternative slot; otherwise the ways
//! are read in order and the first slot whose fingerprint matches is the hit — exactly
//! `tandem_partition::hashed::SwitchModel::lookup`, which the runtime's allocator keeps
//! correct for every key it holds.

use tandem_ir::Value;
use tandem_p4_syntax::{BinOp, DeclKind, Direction, Expr, ExprKind, Stmt, Table as P4Table, Type};
use tandem_partition::hashed::{HashedLayout, KeyCheck};

use super::{meta, Gen, INGRESS};
use crate::build::*;
use crate::manifest;
use crate::P4Error;

/// How one lookup reads a hashed map.
pub(super) struct HashedLookup {
    pub layout: HashedLayout,
    /// The register array of each way.
    pub registers: Vec<String>,
    /// The collision table.
    pub collision: String,
    /// Fingerprint bits.
    pub fp_bits: u32,
    /// Widths of the value fields, in layout order (packed first-highest below the
    /// fingerprint).
    pub value_bits: Vec<u32>,
    /// Per way, the register of each slot's last-hit time (empty: the map does not age).
    pub time_registers: Vec<String>,
    /// When the map ages: the hit-time check (the constant's name, its bits, and per way the
    /// TNA `RegisterAction` doing it).
    pub expiry: Option<Expiry>,
}

/// The switch's expiry check of a hashed map's slots: a slot whose hit time is more than
/// `ttl_units` units old is *stale* and the packet goes to the server whole
/// ([`crate::lower::hashed`] module doc).
pub(super) struct Expiry {
    /// The program's constant holding the largest age (units) the switch still answers.
    pub ttl_const: String,
    /// TNA: per way, the `RegisterAction` that checks and refreshes the slot's time.
    pub actions: Vec<String>,
}

impl HashedLookup {
    fn value_width(&self) -> u32 {
        self.value_bits.iter().sum()
    }
}

impl Gen<'_, '_> {
    /// Declares the registers and the collision table of map `state`'s lookup `tname` (key
    /// metadata `keys`), with its manifest entries.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn declare_hashed(
        &mut self,
        tname: &str,
        state: &str,
        stmt: u32,
        keys: &[String],
        key: &tandem_ir::Layout,
        value: &tandem_ir::Layout,
        layout: &HashedLayout,
        entry: &mut manifest::StateMap,
    ) -> Result<HashedLookup, P4Error> {
        let key_bits: Vec<u32> = key.fields.iter().map(|f| f.ty.bits()).collect();
        if key_bits != layout.key_bits {
            return Err(P4Error::BadPlan(format!(
                "hashed `{state}`: the layout's key fields {:?} are not the map's {key_bits:?}",
                layout.key_bits
            )));
        }
        let value_bits: Vec<u32> = value.fields.iter().map(|f| f.ty.bits()).collect();
        let vw: u32 = value_bits.iter().sum();
        let KeyCheck::Fingerprint(fp_bits) = layout.check else {
            return Err(P4Error::BadPlan(format!(
                "hashed `{state}`: only a fingerprint check is lowered to P4 so far"
            )));
        };
        if fp_bits + vw > 32 {
            return Err(P4Error::BadPlan(format!(
                "hashed `{state}`: a {fp_bits}-bit fingerprint and {vw} value bits do not fit \
                 a 32-bit register cell"
            )));
        }
        let k = layout.slots_per_word();
        let words = layout.words_per_way();
        if k > 1 && !layout.slots_per_way.is_multiple_of(k) {
            return Err(P4Error::BadPlan(format!(
                "hashed `{state}`: {} slots per way are not whole words of {k} packed slots",
                layout.slots_per_way
            )));
        }
        if self.tna() && !words.is_power_of_two() {
            return Err(P4Error::BadPlan(format!(
                "hashed `{state}`: {words} register {} per way: TNA's `Hash` gives a power of \
                 two indices only (v1model's `hash` takes any modulus); choose a power of two",
                if k > 1 { "words" } else { "cells" }
            )));
        }
        let cell_bits = match fp_bits + vw {
            _ if k > 1 => 32,
            0..=8 => 8,
            9..=16 => 16,
            _ => 32,
        };
        let mut registers = Vec::new();
        for w in 0..layout.ways {
            let r = self.add_register(
                &format!("{tname}_w{w}"),
                state,
                Some(format!("way{w}")),
                cell_bits,
                words,
            );
            entry.registers.push(format!("{INGRESS}.{r}"));
            registers.push(r);
            self.meta_field(&format!("{tname}_h{w}"), 32);
        }
        for (n, b) in [
            ("hf", 32),
            ("fp", fp_bits),
            ("alt", 1),
            ("way", 8),
            ("slot", 32),
            ("i", 32),
            ("c", cell_bits),
        ] {
            self.meta_field(&format!("{tname}_{n}"), b);
        }
        if k > 1 {
            // The word, the position in it (also the collision entry's), the slot selected.
            for (n, b) in [("wi", 32), ("pos", 8), ("aword", 32), ("apos", 8)] {
                self.meta_field(&format!("{tname}_{n}"), b);
            }
            self.meta_field(&format!("{tname}_s"), fp_bits + vw);
        }
        if !words.is_power_of_two() {
            for w in 0..layout.ways {
                self.meta_field(&format!("{tname}_m{w}"), 32);
            }
        }
        let (time_bits, time_unit) = if self.tna() { (32, 1024) } else { (48, 1000) };
        let mut time_registers = Vec::new();
        let mut expiry = None;
        let mut ttl_units = 0;
        if let Some(timeout_ns) = self.hashed_map_timeout(state) {
            ttl_units = switch_ttl_units(timeout_ns, time_unit, time_bits).ok_or_else(|| {
                P4Error::BadPlan(format!(
                    "hashed `{state}`: an idle timeout of {timeout_ns} ns cannot be checked with \
                     hit times of {time_unit} ns units and {time_bits} bits (it must span at \
                     least two units and less than half the wrap-around)"
                ))
            })?;
            if !self.can_send_miss_whole() {
                return Err(P4Error::BadPlan(format!(
                    "hashed `{state}` expires: a slot found stale on the switch sends the packet \
                     to the server whole, which needs the lookup in pre, before any effect, and \
                     a transfer header (the plan has not)"
                )));
            }
            for w in 0..layout.ways {
                let r = self.add_register(
                    &format!("{tname}_t{w}"),
                    state,
                    Some(format!("hit_time{w}")),
                    time_bits,
                    layout.slots_per_way,
                );
                time_registers.push(r);
            }
            expiry = Some(self.declare_expiry(tname, &time_registers, time_bits, ttl_units));
        }
        let collision = format!("{tname}_col");
        self.declare_collision_table(&collision, tname, state, stmt, keys, key, layout)?;
        let lookup = HashedLookup {
            layout: layout.clone(),
            registers: registers.clone(),
            collision: collision.clone(),
            fp_bits,
            value_bits,
            time_registers: time_registers.clone(),
            expiry,
        };
        entry.hashed = Some(manifest::HashedMap {
            ways: layout.ways,
            slots_per_way: layout.slots_per_way,
            fingerprint_bits: fp_bits,
            cell_bits,
            slots_per_word: k,
            registers: registers.iter().map(|r| format!("{INGRESS}.{r}")).collect(),
            collision_table: format!("{INGRESS}.{collision}"),
            collision_entries: layout.collision_entries,
            hit_time_unit_ns: if time_registers.is_empty() {
                0
            } else {
                time_unit
            },
            hit_time_bits: if time_registers.is_empty() {
                0
            } else {
                time_bits
            },
            hit_time_registers: time_registers
                .iter()
                .map(|r| format!("{INGRESS}.{r}"))
                .collect(),
            hit_time_ttl_units: ttl_units,
        });
        Ok(lookup)
    }

    /// The idle timeout (ns) of hashed map `state` when it must record its hits' times and
    /// expire its slots: it expires, or it is the derived class map (`NAME__class`) of a map
    /// that does — the switch answers packets from it alone, and the server's copy must count
    /// those hits as uses.
    fn hashed_map_timeout(&self, state: &str) -> Option<u64> {
        let m = self.view.module;
        let timeout = |n: &str| {
            let id = m.state_by_name(n)?;
            match m.states[id].kind {
                tandem_ir::StateKind::ExpiringMap {
                    idle_timeout_ns, ..
                } => Some(idle_timeout_ns),
                _ => None,
            }
        };
        timeout(state).or_else(|| tandem_partition::class_map_of(state).and_then(timeout))
    }

    /// The constant `<tname>_ttl` and, on TNA, one `RegisterAction` per way that checks and
    /// refreshes a slot's hit time in one access: `if (now - t <= ttl) { t = now; fresh = 1 }
    /// else { fresh = 0 }` (modular subtraction: the time wraps).
    fn declare_expiry(
        &mut self,
        tname: &str,
        time_registers: &[String],
        bits: u32,
        ttl_units: u64,
    ) -> Expiry {
        let ttl_const = format!("{tname}_ttl");
        self.locals.push(decl(DeclKind::Const {
            ty: Type::Bit(bits),
            name: ttl_const.clone(),
            value: lit(ttl_units, bits),
        }));
        for n in ["now", "tv", "stale", "fresh"] {
            let b = if n == "now" || n == "tv" { bits } else { 1 };
            self.meta_field(&format!("{tname}_{n}"), b);
        }
        let mut actions = Vec::new();
        if self.tna() {
            for r in time_registers {
                let a = format!("{r}_touch");
                let text = format!(
                    "RegisterAction<bit<{bits}>, bit<32>, bit<1> >({r}) {a} = {{ \
                         void apply(inout bit<{bits}> t, out bit<1> fresh) {{ \
                         if (meta.{tname}_now - t <= {ttl_const}) {{ t = meta.{tname}_now; \
                         fresh = 1w1; }} else {{ fresh = 1w0; }} }} }};"
                );
                self.locals.push(decl(DeclKind::Extern {
                    name: a.clone(),
                    text: tandem_p4_syntax::raw_text(&text).unwrap_or(text),
                }));
                actions.push(a);
            }
        }
        Expiry { ttl_const, actions }
    }

    /// The packet's arrival time in hit-time units: v1model's `ingress_global_timestamp`
    /// (µs, 48 bits); TNA's `global_tstamp` (ns) in 1,024 ns units, 32 bits.
    fn hit_time(&self) -> Expr {
        if self.tna() {
            slice(path("ig_prsr_md.global_tstamp"), 41, 10)
        } else {
            path("standard_metadata.ingress_global_timestamp")
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn declare_collision_table(
        &mut self,
        cname: &str,
        tname: &str,
        state: &str,
        stmt: u32,
        keys: &[String],
        key: &tandem_ir::Layout,
        layout: &HashedLayout,
    ) -> Result<(), P4Error> {
        let alt_name = format!("{cname}_alt");
        let none_name = format!("{cname}_none");
        let packed = layout.slots_per_word() > 1;
        let mut params = vec![
            param(Direction::None, Type::Bit(8), "way"),
            param(Direction::None, Type::Bit(32), "slot"),
        ];
        let mut body = vec![
            assign(meta(&format!("{tname}_alt")), lit(1, 1)),
            assign(meta(&format!("{tname}_way")), name("way")),
            assign(meta(&format!("{tname}_slot")), name("slot")),
        ];
        if packed {
            // The switch cannot divide the slot by the slots per word: the entry says both.
            params.push(param(Direction::None, Type::Bit(32), "word"));
            params.push(param(Direction::None, Type::Bit(8), "pos"));
            body.push(assign(meta(&format!("{tname}_aword")), name("word")));
            body.push(assign(meta(&format!("{tname}_apos")), name("pos")));
        }
        self.locals.push(decl(DeclKind::Action {
            name: alt_name.clone(),
            params,
            body: block(body),
        }));
        self.locals.push(decl(DeclKind::Action {
            name: none_name.clone(),
            params: Vec::new(),
            body: block(vec![assign(meta(&format!("{tname}_alt")), lit(0, 1))]),
        }));
        let mut aparams: Vec<(&str, u32)> = vec![("way", 8), ("slot", 32)];
        if packed {
            aparams.extend([("word", 32), ("pos", 8)]);
        }
        let hit_action = manifest::Action {
            id: self.action_id(),
            name: format!("{INGRESS}.{alt_name}"),
            params: aparams
                .iter()
                .enumerate()
                .map(|(i, &(n, bits))| manifest::ActionParam {
                    id: i as u32 + 1,
                    name: n.into(),
                    field: n.into(),
                    bits,
                })
                .collect(),
        };
        let default_action = manifest::Action {
            id: self.action_id(),
            name: format!("{INGRESS}.{none_name}"),
            params: Vec::new(),
        };
        let (p4keys, mkeys) = super::meta_keys(keys, &key.fields, |_| "exact");
        let mut none_ref = action_ref(&none_name);
        none_ref.args = Some(Vec::new());
        let size = layout.collision_entries.max(1);
        self.locals.push(decl(DeclKind::Table(P4Table {
            name: cname.into(),
            keys: p4keys,
            actions: vec![action_ref(&alt_name), action_ref(&none_name)],
            default_action: Some((none_ref, false)),
            const_default: false,
            entries: Vec::new(),
            size: Some(int(size)),
            other: Vec::new(),
            const_entries: false,
        })));
        self.next_table += 1;
        self.manifest.tables.push(manifest::Table {
            id: manifest::object_id(manifest::PREFIX_TABLE, self.next_table),
            name: format!("{INGRESS}.{cname}"),
            state: state.into(),
            role: manifest::TableRole::Collision,
            statement: stmt,
            keys: mkeys,
            hit_action,
            delete_action: None,
            default_action,
            size,
            idle_timeout_ns: None,
        });
        Ok(())
    }

    /// One hash of the key bytes (`bytes`, already in order) into `dst`.
    pub(super) fn hashed_crc32(&mut self, unit: &str, dst: Expr, bytes: Vec<Expr>) -> Stmt {
        self.hashed_crc32_mod(unit, dst, bytes, 1u64 << 32)
    }

    /// [`Gen::hashed_crc32`] modulo `max` (v1model's `hash(..., max)`; TNA: `max` must be
    /// `2^32`, callers refuse other counts there).
    fn hashed_crc32_mod(&mut self, unit: &str, dst: Expr, bytes: Vec<Expr>, max: u64) -> Stmt {
        let data = e(ExprKind::List(bytes));
        if self.tna() {
            self.locals.push(decl(DeclKind::Instantiation {
                ty: Type::Named {
                    name: "Hash".into(),
                    args: vec![Type::Bit(32)],
                },
                args: vec![member(name("HashAlgorithm_t"), "CRC32")],
                name: unit.into(),
            }));
            assign(dst, method(name(unit), "get", vec![data]))
        } else {
            call_stmt(call(
                name("hash"),
                vec![
                    dst,
                    member(name("HashAlgorithm"), "crc32"),
                    lit(0, 32),
                    data,
                    lit(max, 64),
                ],
            ))
        }
    }

    /// The key's bytes as the hash sees them (each field big-endian at its width rounded up
    /// to whole bytes): 8-bit slices of the key metadata (a field of another width is first
    /// copied into a whole-byte metadata field).
    pub(super) fn hashed_key_bytes(
        &mut self,
        tname: &str,
        keys: &[String],
        bits: &[u32],
        out: &mut Vec<Stmt>,
    ) -> Vec<Expr> {
        let mut bytes = Vec::new();
        for (j, (k, &b)) in keys.iter().zip(bits).enumerate() {
            let n = b.div_ceil(8);
            let src = if b % 8 == 0 {
                meta(k)
            } else {
                let wide = format!("{tname}_kb{j}");
                let d = self.meta_field(&wide, 8 * n);
                out.push(assign(d.clone(), cast(8 * n, meta(k))));
                d
            };
            for i in (0..n).rev() {
                bytes.push(if n == 1 {
                    src.clone()
                } else {
                    slice(src.clone(), 8 * i + 7, 8 * i)
                });
            }
        }
        bytes
    }

    /// The lookup: hashes, fingerprint, collision table, then the ways in order. `hit` and
    /// `fields` are the lookup's results.
    pub(super) fn hashed_lookup(
        &mut self,
        tname: &str,
        keys: &[String],
        h: &HashedLookup,
        hit: Value,
        fields: &[Value],
        out: &mut Vec<Stmt>,
    ) {
        let m = |s: &str| meta(&format!("{tname}_{s}"));
        let bytes = self.hashed_key_bytes(tname, keys, &h.layout.key_bits, out);
        let words = h.layout.words_per_way();
        for w in 0..h.layout.ways {
            let mut b = bytes.clone();
            b.rotate_left(h.layout.rotation(w));
            if !words.is_power_of_two() {
                // The word (or cell) index: the same hash modulo the count.
                let s = self.hashed_crc32_mod(
                    &format!("{tname}_hashm{w}"),
                    m(&format!("m{w}")),
                    b.clone(),
                    words,
                );
                out.push(s);
            }
            let s = self.hashed_crc32(&format!("{tname}_hash{w}"), m(&format!("h{w}")), b);
            out.push(s);
        }
        let mut rev = bytes;
        rev.reverse();
        let s = self.hashed_crc32(&format!("{tname}_hashf"), m("hf"), rev);
        out.push(s);
        let f = h.fp_bits;
        out.push(assign(m("fp"), slice(m("hf"), 31, 32 - f)));
        out.push(if_stmt(
            bin(BinOp::Eq, m("fp"), lit(0, f)),
            vec![assign(m("fp"), lit(1, f))],
            Vec::new(),
        ));
        let hit_dst = self.dst(hit);
        out.push(assign(hit_dst.clone(), lit(0, 1)));
        for &r in fields {
            let b = self.bits(r);
            let d = self.dst(r);
            out.push(assign(d, lit(0, b)));
        }
        out.push(assign(m("alt"), lit(0, 1)));
        if h.expiry.is_some() {
            out.push(assign(m("now"), self.hit_time()));
            out.push(assign(m("stale"), lit(0, 1)));
        }
        out.push(call_stmt(method(name(&h.collision), "apply", vec![])));
        let vw = h.value_width();
        let k = h.layout.slots_per_word();
        for (w, reg) in h.registers.iter().enumerate() {
            let hw = m(&format!("h{w}"));
            let home = if words.is_power_of_two() {
                let index_bits = words.trailing_zeros();
                if index_bits == 0 {
                    lit(0, 32)
                } else if index_bits >= 32 {
                    hw.clone()
                } else {
                    cast(32, slice(hw.clone(), index_bits - 1, 0))
                }
            } else {
                m(&format!("m{w}"))
            };
            let alt = || bin(BinOp::Eq, m("alt"), lit(1, 1));
            let mut body;
            let cell = if k > 1 {
                // Packed: the word, and the position from the hash's top byte:
                // ⌊h[31:24] · k / 256⌋ by shifts and adds (HashedLayout::index_of).
                let top = cast(16, slice(hw, 31, 24));
                let pos = cast(8, bin(BinOp::Shr, mul_const(top, k), lit(8, 8)));
                out.push(assign(m("wi"), ternary(alt(), m("aword"), home.clone())));
                out.push(assign(m("pos"), ternary(alt(), m("apos"), pos)));
                if !h.time_registers.is_empty() {
                    let slot = bin(BinOp::Add, mul_const(home, k), cast(32, m("pos")));
                    out.push(assign(m("i"), ternary(alt(), m("slot"), slot)));
                }
                body = vec![self.reg_read(reg, m("c"), m("wi"))];
                body.extend(self.select_slot(tname, k, vw + h.fp_bits));
                m("s")
            } else {
                out.push(assign(m("i"), ternary(alt(), m("slot"), home)));
                body = vec![self.reg_read(reg, m("c"), m("i"))];
                m("c")
            };
            let mut on_hit = vec![assign(hit_dst.clone(), lit(1, 1))];
            let mut lo = vw;
            for (&r, &b) in fields.iter().zip(&h.value_bits) {
                lo -= b;
                let d = self.dst(r);
                on_hit.push(assign(d, slice(cell.clone(), lo + b - 1, lo)));
            }
            let on_match = match (&h.expiry, h.time_registers.get(w)) {
                (Some(x), Some(t)) => self.expiry_check(tname, x, t, w, on_hit),
                _ => on_hit,
            };
            body.push(if_stmt(
                bin(BinOp::Eq, slice(cell, vw + f - 1, vw), m("fp")),
                on_match,
                Vec::new(),
            ));
            let this_way = bin(
                BinOp::Or,
                bin(BinOp::Eq, m("alt"), lit(0, 1)),
                bin(BinOp::Eq, m("way"), lit(w as u64, 8)),
            );
            let mut not_found = bin(BinOp::Eq, hit_dst.clone(), lit(0, 1));
            if h.expiry.is_some() {
                not_found = bin(BinOp::And, not_found, bin(BinOp::Eq, m("stale"), lit(0, 1)));
            }
            let cond = if w == 0 {
                this_way
            } else {
                bin(BinOp::And, not_found, this_way)
            };
            out.push(if_stmt(cond, body, Vec::new()));
        }
        if h.expiry.is_some() {
            let body = self.send_whole();
            out.push(if_stmt(
                bin(BinOp::Eq, m("stale"), lit(1, 1)),
                body,
                Vec::new(),
            ));
        }
    }

    /// `meta.<t>_s` = slot `meta.<t>_pos` of the word `meta.<t>_c` (`k` slots of `b` bits,
    /// slot `p` at bits `[p·b, p·b + b)`): one constant slice per position.
    fn select_slot(&mut self, tname: &str, k: u64, b: u32) -> Vec<Stmt> {
        let m = |s: &str| meta(&format!("{tname}_{s}"));
        let mut out = vec![assign(m("s"), slice(m("c"), b - 1, 0))];
        for p in 1..k as u32 {
            out.push(if_stmt(
                bin(BinOp::Eq, m("pos"), lit(u64::from(p), 8)),
                vec![assign(m("s"), slice(m("c"), p * b + b - 1, p * b))],
                Vec::new(),
            ));
        }
        out
    }

    /// A fingerprint match at way `w` of a map that expires: one access to the slot's hit
    /// time checks it and refreshes it. Fresh (`now - t <= ttl`, modular): the hit
    /// (`on_hit`); stale: `stale = 1` (the packet goes to the server whole). v1model reads,
    /// compares and writes; TNA executes the way's `RegisterAction`.
    fn expiry_check(
        &mut self,
        tname: &str,
        x: &Expiry,
        time_register: &str,
        w: usize,
        mut on_hit: Vec<Stmt>,
    ) -> Vec<Stmt> {
        let m = |s: &str| meta(&format!("{tname}_{s}"));
        let stale = vec![assign(m("stale"), lit(1, 1))];
        if let Some(a) = x.actions.get(w) {
            return vec![
                assign(m("fresh"), method(name(a), "execute", vec![m("i")])),
                if_stmt(bin(BinOp::Eq, m("fresh"), lit(1, 1)), on_hit, stale),
            ];
        }
        on_hit.insert(
            1,
            call_stmt(method(name(time_register), "write", vec![m("i"), m("now")])),
        );
        let age = bin(BinOp::Sub, m("now"), m("tv"));
        vec![
            self.reg_read(time_register, m("tv"), m("i")),
            if_stmt(bin(BinOp::Le, age, name(&x.ttl_const)), on_hit, stale),
        ]
    }
}

/// `x · k` for a constant `k` as a sum of shifts of `x` (a stateless ALU adds and shifts;
/// it does not multiply).
fn mul_const(x: Expr, k: u64) -> Expr {
    let mut terms = (0..64).filter(|j| k >> j & 1 == 1).map(|j| {
        if j == 0 {
            x.clone()
        } else {
            bin(BinOp::Shl, x.clone(), lit(j, 8))
        }
    });
    let first = terms.next().unwrap_or_else(|| lit(0, 32));
    terms.fold(first, |acc, t| bin(BinOp::Add, acc, t))
}

/// The largest age (units) of a slot's hit time at which the switch still answers a key of a
/// map with idle timeout `timeout_ns`, when a time is the unit count (`unit_ns`) of the last
/// use, `bits` wide. The NF keeps an entry while `now - last <= timeout` (ns); a unit count
/// `t` stands for a last use in `[t·u, t·u + u)` and `now` for one in `[n·u, n·u + u)`, so
/// `now - last < (n - t + 1)·u`: the entry is certainly live when `(n - t + 1)·u - 1 <=
/// timeout`, i.e. `n - t <= ⌊(timeout + 1) / u⌋ - 1`. Above that the switch cannot tell (or
/// the entry is gone) and the server decides. `None` when that leaves no age at all, or
/// reaches half the wrap-around.
pub(crate) fn switch_ttl_units(timeout_ns: u64, unit_ns: u64, bits: u32) -> Option<u64> {
    let k = (timeout_ns.checked_add(1)? / unit_ns.max(1)).checked_sub(1)?;
    let half = if bits >= 64 {
        u64::MAX
    } else {
        1u64 << (bits - 1)
    };
    (k >= 1 && k < half).then_some(k)
}
