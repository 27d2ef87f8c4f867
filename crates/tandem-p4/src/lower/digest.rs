//! An exact map held as key digests (Sailfish §4.4 "key compression",
//! `tandem_partition::digest`): the map's long key is hashed to a 32-bit digest (`crc32`
//! over the key's bytes, as the hashed lowering's way 0 hashes them) and the main table is
//! exact on the digest; a conflict table exact on the full key, applied first, holds the
//! keys that share a digest with another held key (the runtime fills it on insert). Chosen
//! per map by [`crate::P4Options::digest`].
//!
//! ```text
//! before: v4:i1, v5:i32 = map.find vm_nc6(v1, v2, v3)   (`vm_nc6`: exact, 24 + 64 + 64 bits)
//!         vm_nc6.apply();        // table vm_nc6 { key = { meta.vm_nc6_k0: exact;
//!                                //   meta.vm_nc6_k1: exact; meta.vm_nc6_k2: exact; } }
//! after:
//!         hash(meta.vm_nc6_dig, HashAlgorithm.crc32, 32w0, { meta.vm_nc6_kb0[31:24], ...,
//!              meta.vm_nc6_k2[7:0] }, 64w4294967296);    // TNA: a `Hash` instance's get
//!         vm_nc6_cfl.apply();    // table vm_nc6_cfl { key = { the full key: exact; } size = C; }
//!         if (meta.v4 == 1w0) {
//!             vm_nc6.apply();    // table vm_nc6 { key = { meta.vm_nc6_dig: exact; } }
//!         }
//! ```
//!
//! Both tables share the map's hit and miss semantics (each has its own hit action setting
//! the lookup's hit flag and value fields); the conflict table's miss leaves the flag 0, so
//! the digest table answers exactly the keys the conflict table does not hold.

use tandem_ir::{Layout, LayoutField, Type as IrType, Value};
use tandem_p4_syntax::{BinOp, Stmt};

use super::{meta, Gen};
use crate::build::*;
use crate::manifest;
use crate::P4Error;

/// How one lookup reads a digested map.
pub(super) struct DigestLookup {
    /// The conflict table.
    pub conflict: String,
    /// Metadata holding the digest.
    pub digest: String,
    /// Widths of the key fields.
    pub key_bits: Vec<u32>,
}

impl Gen<'_, '_> {
    /// Declares the conflict table of lookup `tname` (key metadata `keys`) and the digest
    /// metadata; returns the lookup and the digest table's key (metadata, layout).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn declare_digest(
        &mut self,
        tname: &str,
        state: &str,
        stmt: u32,
        keys: &[String],
        key: &Layout,
        value: &Layout,
        conflicts: u64,
        results: &[Value],
    ) -> Result<(DigestLookup, Vec<String>, Layout), P4Error> {
        if self.match_kind_of(state) != "exact" {
            return Err(P4Error::BadPlan(format!(
                "digest `{state}`: only an exact map can be held as key digests"
            )));
        }
        if let Some(f) = key.fields.iter().find(|f| f.ty.bits() > 64) {
            return Err(P4Error::BadPlan(format!(
                "digest `{state}`: key field `{}` is wider than 64 bits",
                f.name
            )));
        }
        let conflict = format!("{tname}_cfl");
        self.add_table(
            &conflict,
            state,
            stmt,
            keys,
            key,
            value,
            conflicts.max(1),
            None,
            results,
            manifest::TableRole::DigestConflict,
        )?;
        let digest = format!("{tname}_dig");
        self.meta_field(&digest, tandem_partition::digest::DIGEST_BITS);
        Ok((
            DigestLookup {
                conflict,
                digest: digest.clone(),
                key_bits: key.fields.iter().map(|f| f.ty.bits()).collect(),
            },
            vec![digest],
            Layout {
                fields: vec![LayoutField {
                    name: "digest".into(),
                    ty: IrType::I32,
                    offset: None,
                }],
                size: None,
            },
        ))
    }

    /// The lookup: the digest of the key metadata `keys`, the conflict table, then the
    /// digest table `table` when the conflict table missed.
    pub(super) fn digest_lookup(
        &mut self,
        table: &str,
        keys: &[String],
        d: &DigestLookup,
        hit: Value,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        let bytes = self.hashed_key_bytes(table, keys, &d.key_bits, &mut out);
        let s = self.hashed_crc32(&format!("{table}_hashd"), meta(&d.digest), bytes);
        out.push(s);
        out.push(call_stmt(method(name(&d.conflict), "apply", vec![])));
        let hit_dst = self.dst(hit);
        out.push(if_stmt(
            bin(BinOp::Eq, hit_dst, lit(0, 1)),
            vec![call_stmt(method(name(table), "apply", vec![]))],
            Vec::new(),
        ));
        out
    }
}
