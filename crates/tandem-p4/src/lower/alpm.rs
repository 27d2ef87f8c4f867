//! An LPM map as ALPM (algorithmic LPM, Sailfish §4.4 "TCAM conservation",
//! `tandem_partition::alpm`): instead of one LPM table with every prefix in TCAM, a small
//! *pivot* table (ternary over the whole key, the longest pivot wins: TCAM) names a *bucket*
//! and carries the pivot's cover value, and a bucket table (exact on the bucket id, then the
//! map's own key: SRAM, at most `depth` prefixes per bucket) holds the prefixes. Chosen per
//! map by [`crate::P4Options::alpm`] (the partitioner's table compression picks it when TCAM
//! is the scarcer resource: `tandem_partition::compress`); the runtime builds both levels
//! from the map's entries (`tandem_partition::alpm::lower_entries`).
//!
//! ```text
//! before: v4:i1, v5:i16 = map.find routes(v2, v3)      (`routes`: lpm_map, on the switch)
//!         routes.apply();          // table routes { key = { meta.routes_k0: exact;
//!                                  //                        meta.routes_k4: lpm; } ... }
//! after (depth D):
//!         routes_piv.apply();      // table routes_piv { key = { meta.routes_k0: ternary;
//!                                  //   meta.routes_k4: ternary; }  actions = { routes_piv_hit; } }
//!                                  // routes_piv_hit(bucket, cover, v0): meta.routes_bkt = bucket;
//!                                  //   meta.routes_cov = cover; meta.routes_cv0 = v0;
//!         routes.apply();          // table routes { key = { meta.routes_bkt: exact;
//!                                  //   meta.routes_k0: exact; meta.routes_k4: lpm; } ... }
//!         if (meta.v4 == 1w0 && meta.routes_cov == 1w1) { meta.v4 = 1w1; meta.v5 = meta.routes_cv0; }
//! ```
//!
//! The answer equals the plain LPM table's: the longest matching pivot's bucket holds every
//! prefix below it, and the longest prefix above it is its cover (the proof in
//! `tandem_partition::alpm`).

use tandem_ir::{Layout, LayoutField, Type as IrType, Value};
use tandem_p4_syntax::{BinOp, DeclKind, Direction, Stmt, Table as P4Table, Type};

use super::state::p4_name;
use super::{meta, Gen, INGRESS};
use crate::build::*;
use crate::manifest;
use crate::P4Error;

/// How one lookup reads an ALPM map.
pub(super) struct AlpmLookup {
    /// The pivot table.
    pub pivot: String,
    /// Metadata: the cover flag and the cover's value fields.
    pub cover: String,
    pub cover_fields: Vec<(String, u32)>,
}

/// The bucket id's width.
const BUCKET_BITS: u32 = 32;

impl Gen<'_, '_> {
    /// Declares the pivot table of lookup `tname` (key metadata `keys`), its metadata, and
    /// returns the bucket table's key: the bucket id, then the map's key.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn declare_alpm_pivot(
        &mut self,
        tname: &str,
        state: &str,
        stmt: u32,
        keys: &[String],
        key: &Layout,
        value: &Layout,
        pivots: u64,
    ) -> Result<(AlpmLookup, Vec<String>, Layout), P4Error> {
        if self.match_kind_of(state) != "lpm" {
            return Err(P4Error::BadPlan(format!(
                "alpm `{state}`: only an LPM map can be held as ALPM"
            )));
        }
        if self.wide_lpm(state) {
            return Err(P4Error::BadPlan(format!(
                "alpm `{state}`: its prefix spans several key fields (held as a ternary table; ALPM buckets match one `lpm` field)"
            )));
        }
        let width: u32 = key.fields.iter().map(|f| f.ty.bits()).sum();
        if width > 128 {
            return Err(P4Error::BadPlan(format!(
                "alpm `{state}`: a {width}-bit key (at most 128: one prefix over all key fields)"
            )));
        }
        let bucket = format!("{tname}_bkt");
        let cover = format!("{tname}_cov");
        self.meta_field(&bucket, BUCKET_BITS);
        self.meta_field(&cover, 1);
        let mut cover_fields = Vec::new();
        for (i, f) in value.fields.iter().enumerate() {
            let n = format!("{tname}_cv{i}");
            self.meta_field(&n, f.ty.bits());
            cover_fields.push((n, f.ty.bits()));
        }
        // The pivot's actions: hit sets the bucket and the cover; miss clears them.
        let pname = format!("{tname}_piv");
        let hit_name = format!("{pname}_hit");
        let miss_name = format!("{pname}_miss");
        let mut body = vec![
            assign(meta(&bucket), name("bucket")),
            assign(meta(&cover), name("cover")),
        ];
        let mut params = vec![
            param(Direction::None, Type::Bit(BUCKET_BITS), "bucket"),
            param(Direction::None, Type::Bit(1), "cover"),
        ];
        let mut mparams = vec![
            manifest::ActionParam {
                id: 1,
                name: "bucket".into(),
                field: "bucket".into(),
                bits: BUCKET_BITS,
            },
            manifest::ActionParam {
                id: 2,
                name: "cover".into(),
                field: "cover".into(),
                bits: 1,
            },
        ];
        for (i, (f, (m, b))) in value.fields.iter().zip(&cover_fields).enumerate() {
            let pn = format!("cv_{}", p4_name(&f.name));
            body.push(assign(meta(m), name(&pn)));
            params.push(param(Direction::None, Type::Bit(*b), &pn));
            mparams.push(manifest::ActionParam {
                id: i as u32 + 3,
                name: pn,
                field: f.name.clone(),
                bits: *b,
            });
        }
        let mut miss_body = vec![
            assign(meta(&bucket), lit(0, BUCKET_BITS)),
            assign(meta(&cover), lit(0, 1)),
        ];
        for (m, b) in &cover_fields {
            miss_body.push(assign(meta(m), lit(0, *b)));
        }
        self.locals.push(decl(DeclKind::Action {
            name: hit_name.clone(),
            params,
            body: block(body),
        }));
        self.locals.push(decl(DeclKind::Action {
            name: miss_name.clone(),
            params: Vec::new(),
            body: block(miss_body),
        }));
        let hit_action = manifest::Action {
            id: self.action_id(),
            name: format!("{INGRESS}.{hit_name}"),
            params: mparams,
        };
        let default_action = manifest::Action {
            id: self.action_id(),
            name: format!("{INGRESS}.{miss_name}"),
            params: Vec::new(),
        };
        let (p4keys, mkeys) = super::meta_keys(keys, &key.fields, |_| "ternary");
        let mut miss_ref = action_ref(&miss_name);
        miss_ref.args = Some(Vec::new());
        self.locals.push(decl(DeclKind::Table(P4Table {
            name: pname.clone(),
            keys: p4keys,
            actions: vec![action_ref(&hit_name), action_ref(&miss_name)],
            default_action: Some((miss_ref, false)),
            const_default: false,
            entries: Vec::new(),
            size: Some(int(pivots.max(1))),
            other: Vec::new(),
            const_entries: false,
        })));
        self.next_table += 1;
        self.manifest.tables.push(manifest::Table {
            id: manifest::object_id(manifest::PREFIX_TABLE, self.next_table),
            name: format!("{INGRESS}.{pname}"),
            state: state.into(),
            role: manifest::TableRole::AlpmPivot,
            statement: stmt,
            keys: mkeys,
            hit_action,
            delete_action: None,
            default_action,
            size: pivots.max(1),
            idle_timeout_ns: None,
        });
        // The bucket table's key: the bucket id (exact), then the map's key.
        let mut bkeys = vec![bucket];
        bkeys.extend(keys.iter().cloned());
        let mut fields = vec![LayoutField {
            name: "alpm_bucket".into(),
            ty: IrType::I32,
            offset: None,
        }];
        fields.extend(key.fields.iter().cloned());
        Ok((
            AlpmLookup {
                pivot: pname,
                cover,
                cover_fields,
            },
            bkeys,
            Layout { fields, size: None },
        ))
    }

    /// The lookup: the pivot table, the bucket table, then the cover when the bucket has no
    /// matching prefix. `hit` and `fields` are the lookup's results.
    pub(super) fn alpm_lookup(
        &mut self,
        table: &str,
        a: &AlpmLookup,
        hit: Value,
        fields: &[Value],
    ) -> Vec<Stmt> {
        let hit_dst = self.dst(hit);
        let mut take = vec![assign(hit_dst.clone(), lit(1, 1))];
        for (&r, (m, _)) in fields.iter().zip(&a.cover_fields) {
            let d = self.dst(r);
            take.push(assign(d, meta(m)));
        }
        vec![
            call_stmt(method(name(&a.pivot), "apply", vec![])),
            call_stmt(method(name(table), "apply", vec![])),
            if_stmt(
                bin(
                    BinOp::And,
                    bin(BinOp::Eq, hit_dst, lit(0, 1)),
                    is_one(meta(&a.cover)),
                ),
                take,
                Vec::new(),
            ),
        ]
    }
}
