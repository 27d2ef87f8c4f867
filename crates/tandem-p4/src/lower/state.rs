//! State objects on the switch: each map access the plan places on the switch becomes an
//! exact (for an `lpm_map` `lpm`, for a `ternary_map` `ternary`, for a `range_map` `range`)
//! table with a hit and a miss action, plus a write-back
//! table when the map is replicated and updated atomically (Gallium §4.3.3); scalars and
//! vectors become registers (one per element field; a register the switch only reads gets
//! one copy per read); the visibility flag when any write-back table exists. Every object
//! gets its manifest entry here, with its id.
//!
//! ```text
//! before: v9:i1, v10:i32 = map.find map(v8)          (on the switch; `map` replicated)
//! after:  table map    { key = { meta.map_k0: exact; } actions = { map_hit; map_miss; } }
//!         table map_wb { key = { meta.map_k0: exact; }
//!                        actions = { map_wb_hit; map_wb_deleted; map_wb_miss; } }
//! ```

use tandem_ir::{Inst, InstData, InstKind, StateId, StateKind, Value};
use tandem_p4_syntax::{BinOp, Stmt};
use tandem_p4_syntax::{DeclKind, Direction, ExprKind, Table as P4Table, Type};

use super::{meta, Gen, LookupTable, FLAG_REGISTER, INGRESS, WRITE_BACK_SIZE};
use crate::build::*;
use crate::manifest;
use crate::P4Error;
use tandem_partition::{Placement, StatePlacement};

/// A layout field's width as a P4 type.
fn layout_bits(t: tandem_ir::Type) -> u32 {
    t.bits()
}

impl Gen<'_, '_> {
    pub(super) fn declare_state(&mut self) -> Result<(), P4Error> {
        let plan = self.view.plan;
        let module = self.view.module;
        let mut any_write_back = false;
        self.plan_pools()?;
        if let Some(unknown) = self
            .opts
            .hashed
            .keys()
            .find(|m| !plan.states.iter().any(|s| &s.name == *m))
        {
            return Err(P4Error::BadPlan(format!(
                "hashed `{unknown}`: the NF has no such map (the maps: {})",
                plan.states
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        if let Some(unknown) = self
            .opts
            .digest
            .keys()
            .find(|m| !plan.states.iter().any(|s| &s.name == *m))
        {
            return Err(P4Error::BadPlan(format!(
                "digest `{unknown}`: the NF has no such map"
            )));
        }
        if let Some(unknown) = self
            .opts
            .alpm
            .keys()
            .find(|m| !plan.states.iter().any(|s| &s.name == *m))
        {
            return Err(P4Error::BadPlan(format!(
                "alpm `{unknown}`: the NF has no such map"
            )));
        }
        for sp_ in &plan.states {
            let sid = module
                .state_by_name(&sp_.name)
                .ok_or_else(|| P4Error::BadPlan(format!("unknown state `{}`", sp_.name)))?;
            let obj = &module.states[sid];
            let mut entry = manifest::StateMap {
                name: sp_.name.clone(),
                kind: sp_.kind.clone(),
                placement: match sp_.placement {
                    Placement::Server => "server",
                    Placement::SwitchTable => "switch_table",
                    Placement::SwitchRegister => "switch_register",
                    Placement::Replicated => "replicated",
                }
                .into(),
                tables: Vec::new(),
                write_back_tables: Vec::new(),
                registers: Vec::new(),
                meters: Vec::new(),
                partial: None,
                hashed: None,
                alpm: None,
                digest: None,
                pool: None,
            };
            if sp_.placement == Placement::Server || sp_.switch_accesses.is_empty() {
                self.manifest.states.push(entry);
                continue;
            }
            match &obj.kind {
                StateKind::Meter { len, unit } => {
                    let m = self.declare_meter(&sp_.name, sid, *len, *unit);
                    entry.meters.push(m);
                }
                kind @ (StateKind::HashMap { .. }
                | StateKind::LpmMap { .. }
                | StateKind::TernaryMap { .. }
                | StateKind::RangeMap { .. }
                | StateKind::ExpiringMap { .. }) => {
                    let (Some((key, value)), Some(capacity)) =
                        (kind.map_layouts(), kind.map_capacity())
                    else {
                        continue;
                    };
                    any_write_back |=
                        self.declare_tables(sp_, obj, key, value, capacity, &mut entry)?;
                }
                StateKind::Scalar { .. } | StateKind::Vector { .. } => {
                    self.declare_registers(sp_, sid, obj, &mut entry)?;
                }
            }
            self.manifest.states.push(entry);
        }
        if any_write_back {
            let r = self.add_register(FLAG_REGISTER, "", None, 1, 1);
            self.manifest.visibility_flag = Some(format!("{INGRESS}.{r}"));
            self.meta_field("visible", 1);
            self.meta_field("wb_hit", 1);
        }
        Ok(())
    }
    /// The tables of one map: one per switch access (plus its write-back table when the map
    /// is replicated and updated atomically). Whether a write-back table was made.
    fn declare_tables(
        &mut self,
        sp_: &StatePlacement,
        obj: &tandem_ir::StateObject,
        key: &tandem_ir::Layout,
        value: &tandem_ir::Layout,
        capacity: u64,
        entry: &mut manifest::StateMap,
    ) -> Result<bool, P4Error> {
        let mut any_write_back = false;
        let timeout = match obj.kind {
            StateKind::ExpiringMap {
                idle_timeout_ns, ..
            } => Some(idle_timeout_ns),
            _ => None,
        };
        let many = sp_.switch_accesses.len() > 1;
        for (k, &stmt) in sp_.switch_accesses.iter().enumerate() {
            let inst = self.stmt_inst(stmt)?;
            if let Some((p, m)) = self.pool_member(inst) {
                // Reads the table it shares with the other map of its pool (`pool`).
                let pair = &self.pools[p];
                let with = pair.members[1 - m].state.clone();
                let shared = format!("{INGRESS}.{}", pair.table);
                let e = entry.pool.get_or_insert_with(|| manifest::PoolMap {
                    with,
                    tables: Vec::new(),
                });
                e.tables.push(shared);
                self.lookups.insert(
                    inst,
                    LookupTable {
                        table: pair.table.clone(),
                        keys: Vec::new(),
                        write_back: None,
                        sketch: None,
                        hashed: None,
                        alpm: None,
                        digest: None,
                        pool: Some((p, m)),
                    },
                );
                continue;
            }
            let tname = if many {
                format!("{}_{k}", p4_name(&sp_.name))
            } else {
                p4_name(&sp_.name)
            };
            let write_back = self.opts.atomic_update && sp_.placement == Placement::Replicated;
            let results = self.func().insts[inst].results.clone();
            let keys: Vec<String> = key
                .fields
                .iter()
                .map(|f| format!("{tname}_{}", f.name))
                .collect();
            for (kname, f) in keys.iter().zip(&key.fields) {
                self.meta_field(kname, layout_bits(f.ty));
            }
            // `--state-layout` first; otherwise the partitioner's choice for a map whose
            // exact table does not fit the profile's SRAM (tandem_partition::auto_hashed).
            let auto = match &sp_.hashed {
                Some(h) if !many && sp_.partial.is_none() => Some(h.spec()),
                _ => None,
            };
            let hashed = match self.opts.hashed.get(&sp_.name).or(auto.as_ref()) {
                Some(spec) => {
                    let layout = &spec
                        .layout(
                            key.fields.iter().map(|f| f.ty.bits()).collect(),
                            value.fields.iter().map(|f| f.ty.bits()).sum(),
                            capacity,
                        )
                        .map_err(|e| P4Error::BadPlan(format!("`{}`: {e}", sp_.name)))?;
                    // An expiring map's registers do not age: the server's erases clear
                    // them (docs/runtime.md: the switch's copy is not aged here either).
                    if many || sp_.partial.is_some() {
                        return Err(P4Error::BadPlan(format!(
                            "hashed `{}`: only a map looked up once on the switch, and not \
                             partial, can be held in hash-indexed registers",
                            sp_.name
                        )));
                    }
                    Some(self.declare_hashed(
                        &tname, &sp_.name, stmt, &keys, key, value, layout, entry,
                    )?)
                }
                None => None,
            };
            let alpm = match self.opts.alpm.get(&sp_.name) {
                Some(&depth) => {
                    if hashed.is_some() || sp_.partial.is_some() || write_back {
                        return Err(P4Error::BadPlan(format!(
                            "alpm `{}`: an ALPM map cannot also be hashed, partial or \
                             replicated with atomic updates",
                            sp_.name
                        )));
                    }
                    let pivots = tandem_partition::alpm::pivots_bound(capacity, u64::from(depth));
                    Some(
                        self.declare_alpm_pivot(
                            &tname, &sp_.name, stmt, &keys, key, value, pivots,
                        )?,
                    )
                }
                None => None,
            };
            let digest = match self.opts.digest.get(&sp_.name) {
                Some(&conflicts) => {
                    if hashed.is_some()
                        || alpm.is_some()
                        || sp_.partial.is_some()
                        || timeout.is_some()
                    {
                        return Err(P4Error::BadPlan(format!(
                            "digest `{}`: a map held as key digests cannot also be hashed, \
                             ALPM, partial or expiring",
                            sp_.name
                        )));
                    }
                    let conflicts = match conflicts {
                        0 => tandem_partition::digest::conflict_entries(capacity),
                        n => n,
                    };
                    Some(self.declare_digest(
                        &tname, &sp_.name, stmt, &keys, key, value, conflicts, &results,
                    )?)
                }
                None => None,
            };
            let (main_keys, main_layout, role) = match (&alpm, &digest) {
                (Some((_, bkeys, blayout)), _) => (
                    bkeys.clone(),
                    blayout.clone(),
                    manifest::TableRole::AlpmBucket,
                ),
                (None, Some((_, dkeys, dlayout))) => {
                    (dkeys.clone(), dlayout.clone(), manifest::TableRole::Digest)
                }
                (None, None) => (keys.clone(), key.clone(), manifest::TableRole::Main),
            };
            if hashed.is_none() {
                self.add_table(
                    &tname,
                    &sp_.name,
                    stmt,
                    &main_keys,
                    &main_layout,
                    value,
                    match &sp_.partial {
                        Some(p) => p.switch_entries.clamp(1, capacity.max(1)),
                        None => self
                            .opts
                            .max_table_size
                            .map_or(capacity, |m| m.clamp(1, capacity.max(1))),
                    },
                    timeout,
                    &results,
                    role,
                )?;
                match (&alpm, &digest) {
                    (_, Some((d, _, _))) => {
                        let m = entry.digest.get_or_insert_with(|| manifest::DigestMap {
                            conflict_tables: Vec::new(),
                            digest_tables: Vec::new(),
                        });
                        m.conflict_tables.push(format!("{INGRESS}.{}", d.conflict));
                        m.digest_tables.push(format!("{INGRESS}.{tname}"));
                    }
                    (Some((a, _, _)), None) => {
                        let m = entry.alpm.get_or_insert_with(|| manifest::AlpmMap {
                            depth: self.opts.alpm.get(&sp_.name).copied().unwrap_or(1),
                            pivot_tables: Vec::new(),
                            bucket_tables: Vec::new(),
                        });
                        m.pivot_tables.push(format!("{INGRESS}.{}", a.pivot));
                        m.bucket_tables.push(format!("{INGRESS}.{tname}"));
                    }
                    (None, None) => entry.tables.push(format!("{INGRESS}.{tname}")),
                }
            }
            let wb = if write_back {
                any_write_back = true;
                let wname = format!("{tname}_wb");
                self.add_table(
                    &wname,
                    &sp_.name,
                    stmt,
                    &keys,
                    key,
                    value,
                    WRITE_BACK_SIZE.min(capacity.max(1)),
                    timeout,
                    &results,
                    manifest::TableRole::WriteBack,
                )?;
                entry.write_back_tables.push(format!("{INGRESS}.{wname}"));
                Some(wname)
            } else {
                None
            };
            let sketch = sp_.partial.map(|p| {
                let s = self.declare_sketch(&tname, p.sketch_rows, p.sketch_width);
                let mut mp = super::sketch::manifest_partial(&p, &s);
                mp.hit_counters = std::mem::take(&mut self.hit_counters);
                if let Some(old) = &entry.partial {
                    mp.hit_counters
                        .splice(0..0, old.hit_counters.iter().cloned());
                }
                entry.partial = Some(mp);
                s
            });
            self.lookups.insert(
                inst,
                LookupTable {
                    table: tname,
                    keys,
                    write_back: wb,
                    sketch,
                    hashed,
                    alpm: alpm.map(|a| a.0),
                    digest: digest.map(|d| d.0),
                    pool: None,
                },
            );
        }
        Ok(any_write_back)
    }

    /// The registers of a scalar or vector: one per element field; a register the switch
    /// only reads gets one copy per read, as the plan counts them (Tofino: one access per
    /// register and pass); a register the switch writes stays one object.
    fn declare_registers(
        &mut self,
        sp_: &StatePlacement,
        sid: StateId,
        obj: &tandem_ir::StateObject,
        entry: &mut manifest::StateMap,
    ) -> Result<(), P4Error> {
        let accesses: Vec<Inst> = sp_
            .switch_accesses
            .iter()
            .map(|&st| self.stmt_inst(st))
            .collect::<Result<_, _>>()?;
        let written = accesses.iter().any(|&i| {
            matches!(
                self.func().insts[i].kind,
                InstKind::ScalarStore { .. } | InstKind::VecSet { .. }
            )
        });
        let copies = if written || accesses.len() < 2 {
            vec![(None, p4_name(&sp_.name))]
        } else {
            accesses
                .iter()
                .enumerate()
                .map(|(k, &i)| (Some(i), format!("{}_{k}", p4_name(&sp_.name))))
                .collect()
        };
        for (inst, base) in copies {
            let mut regs = Vec::new();
            match &obj.kind {
                StateKind::Vector { elem, len } => {
                    for f in &elem.fields {
                        let r = self.add_register(
                            &format!("{base}_{}", f.name),
                            &sp_.name,
                            Some(f.name.clone()),
                            f.ty.bits(),
                            *len,
                        );
                        regs.push(r);
                    }
                }
                StateKind::Scalar { ty } => {
                    regs.push(self.add_register(&base, &sp_.name, None, ty.bits(), 1));
                }
                _ => {}
            }
            for r in &regs {
                entry.registers.push(format!("{INGRESS}.{r}"));
            }
            match inst {
                Some(i) => {
                    self.access_registers.insert(i, regs);
                }
                None => {
                    self.registers.insert(sid, regs);
                }
            }
        }
        Ok(())
    }

    pub(super) fn stmt_inst(&self, stmt: u32) -> Result<Inst, P4Error> {
        let s = self
            .view
            .plan
            .statements
            .get(stmt as usize)
            .ok_or_else(|| P4Error::BadPlan(format!("no statement s{stmt}")))?;
        let block = tandem_ir::Block::from_u32(s.block);
        s.index
            .and_then(|i| {
                self.func()
                    .blocks
                    .get(block)
                    .and_then(|b| b.insts.get(i as usize).copied())
            })
            .ok_or_else(|| P4Error::BadPlan(format!("statement s{stmt} is not an instruction")))
    }

    pub(super) fn add_register(
        &mut self,
        rname: &str,
        state: &str,
        field: Option<String>,
        bits: u32,
        size: u64,
    ) -> String {
        self.next_register += 1;
        self.manifest.registers.push(manifest::Register {
            id: manifest::object_id(manifest::PREFIX_REGISTER, self.next_register),
            name: format!("{INGRESS}.{rname}"),
            state: state.into(),
            field,
            bits,
            size,
        });
        let ty = if self.tna() {
            Type::Named {
                name: "Register".into(),
                args: vec![Type::Bit(bits), Type::Bit(32)],
            }
        } else {
            Type::Named {
                name: "register".into(),
                args: vec![Type::Bit(bits)],
            }
        };
        self.locals.push(decl(DeclKind::Instantiation {
            ty,
            args: vec![lit(size, 32)],
            name: rname.into(),
        }));
        rname.to_string()
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_table(
        &mut self,
        tname: &str,
        state: &str,
        stmt: u32,
        keys: &[String],
        key: &tandem_ir::Layout,
        value: &tandem_ir::Layout,
        size: u64,
        timeout: Option<u64>,
        results: &[Value],
        role: manifest::TableRole,
    ) -> Result<(), P4Error> {
        let wb = role == manifest::TableRole::WriteBack;
        // An LPM map's last key field is matched `lpm` (longest prefix wins) and the ones
        // before it `exact`, a ternary map's fields `ternary` and a range map's field
        // `range` (the entry with the highest priority wins); every other key is `exact`.
        // An LPM map whose prefix spans several fields (an IPv6 address over two 64-bit
        // words) is a ternary table: the prefix's mask per word, the length as the
        // priority (`tandem_offload` respells its entries).
        let last_kind = if self.wide_lpm(state) {
            "ternary"
        } else {
            self.match_kind_of(state)
        };
        let kind_of = |i: usize| {
            if last_kind == "lpm" && i + 1 < key.fields.len() {
                "exact"
            } else {
                last_kind
            }
        };
        // Results: hit flag, then one value per value-layout field.
        let (hit, fields) = results
            .split_first()
            .ok_or_else(|| P4Error::BadPlan(format!("lookup s{stmt} has no results")))?;
        if fields.len() != value.fields.len() {
            return Err(P4Error::BadPlan(format!(
                "lookup s{stmt}: {} results for {} value fields",
                fields.len(),
                value.fields.len()
            )));
        }
        let hit_dst = self.dst(*hit);
        let mut hit_body = vec![assign(hit_dst.clone(), lit(1, 1))];
        let hits = self
            .counts_hits(state)
            .then(|| self.declare_hit_counter(tname));
        let mut params = Vec::new();
        let mut mparams = Vec::new();
        for (i, (f, &r)) in value.fields.iter().zip(fields).enumerate() {
            let pname = p4_name(&f.name);
            let d = self.dst(r);
            hit_body.push(assign(d, name(&pname)));
            params.push(param(Direction::None, Type::Bit(f.ty.bits()), &pname));
            mparams.push(manifest::ActionParam {
                id: i as u32 + 1,
                name: pname,
                field: f.name.clone(),
                bits: f.ty.bits(),
            });
        }
        let mut miss_body = vec![assign(hit_dst.clone(), lit(0, 1))];
        for &r in fields {
            let b = self.bits(r);
            let d = self.dst(r);
            miss_body.push(assign(d, lit(0, b)));
        }
        if let Some(c) = &hits {
            hit_body.push(super::hits::count_hit(c));
            self.hit_counters
                .push(super::hits::manifest_hit_counter(tname, c));
        }
        let wb_hit = meta("wb_hit");
        if wb {
            hit_body.push(assign(wb_hit.clone(), lit(1, 1)));
            miss_body = vec![assign(wb_hit.clone(), lit(0, 1))];
        }
        let hit_name = format!("{tname}_hit");
        let miss_name = format!("{tname}_miss");
        let hit_action = manifest::Action {
            id: self.action_id(),
            name: format!("{INGRESS}.{hit_name}"),
            params: mparams,
        };
        self.locals.push(decl(DeclKind::Action {
            name: hit_name.clone(),
            params,
            body: block(hit_body),
        }));
        let mut actions = vec![action_ref(&hit_name)];
        let delete_action = if wb {
            let del_name = format!("{tname}_deleted");
            let mut body = vec![
                assign(wb_hit.clone(), lit(1, 1)),
                assign(hit_dst, lit(0, 1)),
            ];
            for &r in fields {
                let b = self.bits(r);
                let d = self.dst(r);
                body.push(assign(d, lit(0, b)));
            }
            self.locals.push(decl(DeclKind::Action {
                name: del_name.clone(),
                params: Vec::new(),
                body: block(body),
            }));
            actions.push(action_ref(&del_name));
            Some(manifest::Action {
                id: self.action_id(),
                name: format!("{INGRESS}.{del_name}"),
                params: Vec::new(),
            })
        } else {
            None
        };
        let default_action = manifest::Action {
            id: self.action_id(),
            name: format!("{INGRESS}.{miss_name}"),
            params: Vec::new(),
        };
        self.locals.push(decl(DeclKind::Action {
            name: miss_name.clone(),
            params: Vec::new(),
            body: block(miss_body),
        }));
        actions.push(action_ref(&miss_name));
        let (p4keys, mkeys) = super::meta_keys(keys, &key.fields, kind_of);
        let mut miss_ref = action_ref(&miss_name);
        miss_ref.args = Some(Vec::new());
        self.locals.push(decl(DeclKind::Table(P4Table {
            name: tname.into(),
            keys: p4keys,
            actions,
            default_action: Some((miss_ref, false)),
            const_default: false,
            entries: Vec::new(),
            size: Some(int(size)),
            other: {
                let mut other = Vec::new();
                if timeout.is_some() {
                    // Entries age (the runtime sets the timeout: `tandem_switch` ageing).
                    let prop = if self.tna() {
                        "idle_timeout"
                    } else {
                        "support_timeout"
                    };
                    other.push((prop.into(), e(ExprKind::Bool(true))));
                }
                other.extend(hits.as_deref().map(super::hits::counters_property));
                other
            },
            const_entries: false,
        })));
        self.next_table += 1;
        self.manifest.tables.push(manifest::Table {
            id: manifest::object_id(manifest::PREFIX_TABLE, self.next_table),
            name: format!("{INGRESS}.{tname}"),
            state: state.into(),
            role,
            statement: stmt,
            keys: mkeys,
            hit_action,
            delete_action,
            default_action,
            size,
            idle_timeout_ns: timeout,
        });
        Ok(())
    }

    /// A map lookup (its table, behind the write-back table when there is one) or a register
    /// read or write (scalars at index 0, vectors at the element's index).
    pub(super) fn lower_state_access(
        &mut self,
        inst: Inst,
        data: &InstData,
        out: &mut Vec<Stmt>,
    ) -> Result<(), P4Error> {
        match &data.kind {
            InstKind::MapFind { state, key } => {
                let Some(lt) = self.lookups.get(&inst) else {
                    return Err(
                        self.unsupported(inst, "map lookup without a switch table in the plan")
                    );
                };
                if let Some(pm) = lt.pool {
                    let stmts = self.pool_key(pm, key);
                    out.extend(stmts);
                    return Ok(());
                }
                let (table, keys, wb) = (lt.table.clone(), lt.keys.clone(), lt.write_back.clone());
                let hashed = lt.hashed.is_some();
                let partial = lt.sketch.is_some();
                for (k, &v) in keys.iter().zip(key) {
                    let rhs = self.val(v);
                    out.push(assign(meta(k), rhs));
                }
                if let Some(mut lt) = self.lookups.remove(&inst) {
                    if let Some(s) = lt.sketch.take() {
                        out.extend(self.sketch_update(&table, &keys, &s));
                        lt.sketch = Some(s);
                    }
                    self.lookups.insert(inst, lt);
                }
                let apply_main = if hashed {
                    let mut stmts = Vec::new();
                    if let Some(lt) = self.lookups.remove(&inst) {
                        if let (Some(h), Some((&hit, fields))) =
                            (&lt.hashed, data.results.split_first())
                        {
                            self.hashed_lookup(&table, &keys, h, hit, fields, &mut stmts);
                        }
                        self.lookups.insert(inst, lt);
                    }
                    block_stmt(stmts)
                } else if let Some(lt) = self
                    .lookups
                    .get(&inst)
                    .is_some_and(|lt| lt.alpm.is_some())
                    .then(|| self.lookups.remove(&inst))
                    .flatten()
                {
                    let stmts = match (&lt.alpm, data.results.split_first()) {
                        (Some(a), Some((&hit, fields))) => self.alpm_lookup(&table, a, hit, fields),
                        _ => vec![call_stmt(method(name(&table), "apply", vec![]))],
                    };
                    self.lookups.insert(inst, lt);
                    block_stmt(stmts)
                } else if let Some(lt) = self
                    .lookups
                    .get(&inst)
                    .is_some_and(|lt| lt.digest.is_some())
                    .then(|| self.lookups.remove(&inst))
                    .flatten()
                {
                    let stmts = match (&lt.digest, data.results.first()) {
                        (Some(d), Some(&hit)) => self.digest_lookup(&table, &keys, d, hit),
                        _ => vec![call_stmt(method(name(&table), "apply", vec![]))],
                    };
                    self.lookups.insert(inst, lt);
                    block_stmt(stmts)
                } else {
                    call_stmt(method(name(&table), "apply", vec![]))
                };
                match wb {
                    None => out.push(apply_main),
                    Some(wb) => {
                        out.push(assign(meta("wb_hit"), lit(0, 1)));
                        out.push(if_stmt(
                            is_one(meta("visible")),
                            vec![call_stmt(method(name(&wb), "apply", vec![]))],
                            Vec::new(),
                        ));
                        out.push(if_stmt(
                            bin(BinOp::Eq, meta("wb_hit"), lit(0, 1)),
                            vec![apply_main],
                            Vec::new(),
                        ));
                    }
                }
                if partial && self.can_send_miss_whole() {
                    let sname = self.view.module.states[*state].name.clone();
                    let hit =
                        data.results.first().copied().ok_or_else(|| {
                            self.unsupported(inst, "map lookup without a hit result")
                        })?;
                    let hit = self.val(hit);
                    out.push(self.miss_to_server(&sname, hit));
                }
            }
            InstKind::ScalarLoad { state } | InstKind::VecGet { state, .. } => {
                let regs = self
                    .access_registers
                    .get(&inst)
                    .or_else(|| self.registers.get(state))
                    .cloned()
                    .ok_or_else(|| {
                        self.unsupported(inst, "state read without a switch register in the plan")
                    })?;
                let index = match &data.kind {
                    InstKind::VecGet { index, .. } => {
                        let b = self.bits(*index);
                        let i = self.val(*index);
                        if b == 32 {
                            i
                        } else {
                            cast(32, i)
                        }
                    }
                    _ => lit(0, 32),
                };
                for (r, &v) in regs.iter().zip(&data.results) {
                    let d = self.dst(v);
                    out.push(self.reg_read(r, d, index.clone()));
                }
            }
            InstKind::VecSet {
                state,
                index,
                value,
            } => {
                // The write half of a read-modify-write (the plan fuses it with the read of
                // the same element): one register per element field, written at the index.
                let regs = self.registers.get(state).cloned().ok_or_else(|| {
                    self.unsupported(inst, "state write without a switch register in the plan")
                })?;
                let b = self.bits(*index);
                let i = self.val(*index);
                let i = if b == 32 { i } else { cast(32, i) };
                for (r, &v) in regs.iter().zip(value) {
                    let v = self.val(v);
                    out.push(call_stmt(method(name(r), "write", vec![i.clone(), v])));
                }
            }
            InstKind::ScalarStore { state, value } => {
                let regs = self.registers.get(state).cloned().ok_or_else(|| {
                    self.unsupported(inst, "state write without a switch register in the plan")
                })?;
                let v = self.val(*value);
                for r in regs {
                    out.push(call_stmt(method(
                        name(&r),
                        "write",
                        vec![lit(0, 32), v.clone()],
                    )));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// A state object's name as a P4 identifier: names that are P4 keywords or names the
/// program itself uses get an `nf_` prefix.
pub(super) fn p4_name(state: &str) -> String {
    let ident: String = state
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if super::P4_RESERVED.contains(&ident.as_str())
        || ident.starts_with("Tandem")
        || ident.starts_with("TANDEM")
        || ident.starts_with(|c: char| c.is_ascii_digit())
    {
        format!("nf_{ident}")
    } else {
        ident
    }
}
