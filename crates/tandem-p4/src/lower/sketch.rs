//! The count-min sketch of a partial map (`tandem_partition::partial`): `rows` register
//! arrays of `width` 32-bit counters; each lookup of the map on the switch adds one to one
//! counter per row, at a CRC-32 hash of the row number (8 bits) and the lookup key — a hash
//! the runtime computes the same way (`tandem_ir::HashAlgo::compute_fields`) to estimate
//! an entry's lookups as the smallest of its counters (CLIP §III-D).
//!
//! ```text
//! before: v9:i1, v10:i32 = map.find map(v8)          (`map` partial: 2 rows × 4096)
//! after (v1model):
//!   meta.map_k0 = v8;
//!   hash(meta.map_cms_i0, HashAlgorithm.crc32, 32w0, { 8w0, meta.map_k0 }, 64w4096);
//!   map_cms0.read(meta.map_cms_c0, meta.map_cms_i0);
//!   map_cms0.write(meta.map_cms_i0, meta.map_cms_c0 + 32w1);
//!   ... (row 1 with 8w1) ...
//!   map.apply();
//! after (TNA): `Hash<bit<12>>(HashAlgorithm_t.CRC32) map_cms_h0;` and
//!   meta.map_cms_i0 = (bit<32>)map_cms_h0.get({ 8w0, meta.map_k0 }); read / write as above.
//! ```

use tandem_p4_syntax::{BinOp, DeclKind, ExprKind, Stmt, Type};

use super::{meta, Gen, INGRESS};
use crate::build::*;
use crate::manifest;

/// Bits of a sketch counter.
const COUNTER_BITS: u32 = 32;

/// The sketch of one lookup: its register arrays (one per row) and row width.
pub(super) struct Sketch {
    /// Register names, by row.
    pub registers: Vec<String>,
    /// Counters per row (a power of two).
    pub width: u64,
}

impl Gen<'_, '_> {
    /// Declares the sketch of table `tname` (a partial map's main table) and returns it.
    pub(super) fn declare_sketch(&mut self, tname: &str, rows: u32, width: u64) -> Sketch {
        let mut registers = Vec::new();
        for r in 0..rows {
            let rname = format!("{tname}_cms{r}");
            // Tandem's own register: no NF state, so the runtime never syncs it.
            registers.push(self.add_register(&rname, "", None, COUNTER_BITS, width));
            self.meta_field(&format!("{tname}_cms_i{r}"), 32);
            self.meta_field(&format!("{tname}_cms_c{r}"), COUNTER_BITS);
        }
        Sketch { registers, width }
    }

    /// The sketch's update for one lookup of `tname` with key fields `keys` (metadata names,
    /// already assigned): per row, hash the row number and the key, add one to the counter.
    pub(super) fn sketch_update(&mut self, tname: &str, keys: &[String], s: &Sketch) -> Vec<Stmt> {
        let mut out = Vec::new();
        let index_bits = s.width.trailing_zeros();
        for (r, reg) in s.registers.iter().enumerate() {
            let mut data = vec![lit(r as u64, 8)];
            data.extend(keys.iter().map(|k| meta(k)));
            let data = e(ExprKind::List(data));
            let idx = meta(&format!("{tname}_cms_i{r}"));
            let cnt = meta(&format!("{tname}_cms_c{r}"));
            if self.tna() {
                let unit = format!("{tname}_cms_h{r}");
                self.locals.push(decl(DeclKind::Instantiation {
                    ty: Type::Named {
                        name: "Hash".into(),
                        args: vec![Type::Bit(index_bits)],
                    },
                    args: vec![member(name("HashAlgorithm_t"), "CRC32")],
                    name: unit.clone(),
                }));
                out.push(assign(
                    idx.clone(),
                    cast(32, method(name(&unit), "get", vec![data])),
                ));
            } else {
                out.push(call_stmt(call(
                    name("hash"),
                    vec![
                        idx.clone(),
                        member(name("HashAlgorithm"), "crc32"),
                        lit(0, 32),
                        data,
                        lit(s.width, 64),
                    ],
                )));
            }
            out.push(self.reg_read(reg, cnt.clone(), idx.clone()));
            out.push(call_stmt(method(
                name(reg),
                "write",
                vec![idx, bin(BinOp::Add, cnt, lit(1, COUNTER_BITS))],
            )));
        }
        out
    }
}

/// The manifest's description of a partial map.
pub(super) fn manifest_partial(
    p: &tandem_partition::PartialTable,
    sketch: &Sketch,
) -> manifest::PartialMap {
    manifest::PartialMap {
        switch_entries: p.switch_entries,
        sketch: sketch
            .registers
            .iter()
            .map(|r| format!("{INGRESS}.{r}"))
            .collect(),
        sketch_width: sketch.width,
        sketch_hash: "crc32".into(),
        miss_to_server: false,
        hit_counters: Vec::new(),
    }
}
