//! IPv4/IPv6 pooling (Sailfish §4.4, `tandem_partition::pool`): two maps of one table type,
//! an IPv4 and an IPv6 one (found by shape: [`PoolShape::of`]), whose lookups lie on the two
//! sides of a branch, read one shared table keyed by the family tag, the IPv6 map's other
//! key fields and the 128-bit address, an IPv4 address IPv4-mapped (`::ffff:a.b.c.d`, its
//! prefix `/96+n`). Each lookup writes the shared key fields; the table is applied once,
//! where [`crate::pool_order`] puts it, and its result goes to whichever lookup ran. Chosen
//! per pair by [`crate::P4Options::pool`] (the partitioner's table compression picks pooling
//! when it does not grow memory: `tandem_partition::compress`); the runtime writes both
//! maps' entries through `PoolShape::entry`.
//!
//! ```text
//! before: v20:i1, v21:i32 = map.find routes4(v9, v18)          (IPv4 branch)
//!         v40:i1, v41:i32 = map.find routes6(v9, v37, v38)     (IPv6 branch)
//!         routes4_0.apply();   ...   routes6_0.apply();
//! after:  (IPv4 branch)  meta.p_tag = 1w0; meta.p_k0 = (bit<64>) meta.v9; meta.p_hi = 64w0;
//!                        meta.p_lo = 64w0xffff00000000 | (bit<64>) meta.v18;
//!         (IPv6 branch)  meta.p_tag = 1w1; meta.p_k0 = meta.v9; meta.p_hi = meta.v37; ...
//!         if (meta.pre_block11 == 1w1 || meta.pre_block30 == 1w1) { routes4_routes6_pool.apply(); }
//!         if (meta.pre_block11 == 1w1) { meta.v20 = meta.p_hit; meta.v21 = meta.p_v0; }
//!         if (meta.pre_block30 == 1w1) { meta.v40 = meta.p_hit; meta.v41 = meta.p_v0; }
//! ```

use tandem_ir::{Block, Inst, InstKind, LayoutField, Type as IrType, Value};
use tandem_p4_syntax::{BinOp, DeclKind, Direction, Stmt, Table as P4Table, Type};
use tandem_partition::pool::{Family, PoolShape, V4_MAPPED};
use tandem_partition::{Partition, Placement};

use super::state::p4_name;
use super::{meta, Gen, INGRESS};
use crate::build::*;
use crate::manifest;
use crate::P4Error;

/// One lookup of a pooled pair.
pub(super) struct Member {
    pub state: String,
    pub inst: Inst,
    pub block: Block,
    pub part: Partition,
    pub family: Family,
}

/// A pooled pair of lookups and their shared table.
pub(super) struct PoolPair {
    pub table: String,
    pub shape: PoolShape,
    pub members: [Member; 2],
    /// Key metadata: the tag, the IPv6 map's other key fields, the address's two words.
    pub keys: Vec<String>,
    pub hit: String,
    pub values: Vec<String>,
}

/// A lookup of map `state` the switch runs: (statement, instruction, block, partition).
type Access = (u32, Inst, Block, Partition);

impl Gen<'_, '_> {
    /// Pairs the lookups of every pool of the options and declares their shared tables: a
    /// forced pool (`P4Options::pool`) that cannot be emitted is an error, one the
    /// partitioner chose (`P4Options::pool_auto`) a note.
    pub(super) fn plan_pools(&mut self) -> Result<(), P4Error> {
        for (a, b) in self.opts.pool.clone() {
            self.plan_pool(&a, &b)?;
        }
        for (a, b) in self.opts.pool_auto.clone() {
            let taken = |n: &String| {
                self.pools
                    .iter()
                    .any(|p| p.members.iter().any(|m| &m.state == n))
            };
            if taken(&a) || taken(&b) {
                continue;
            }
            if let Err(e) = self.plan_pool(&a, &b) {
                self.notes
                    .push(format!("IPv4/IPv6 pooling {a}+{b} not emitted: {e}"));
            }
        }
        for p in &self.pools {
            let note = format!(
                "IPv4/IPv6 pooling {}+{}: one table {}",
                p.members[0].state, p.members[1].state, p.table
            );
            if !self.notes.contains(&note) {
                self.notes.push(note);
            }
        }
        Ok(())
    }

    /// Pairs the lookups of maps `a` and `b` and declares their shared tables.
    fn plan_pool(&mut self, a: &str, b: &str) -> Result<(), P4Error> {
        {
            let bad = |why: String| P4Error::BadPlan(format!("pool `{a}`+`{b}`: {why}"));
            if a == b {
                return Err(bad("a map cannot pool with itself".into()));
            }
            let module = self.view.module;
            let mut kinds = Vec::new();
            let mut accesses: Vec<Vec<Access>> = Vec::new();
            for n in [a, b] {
                let sid = module
                    .state_by_name(n)
                    .ok_or_else(|| bad(format!("the NF has no map `{n}`")))?;
                let sp = self
                    .view
                    .plan
                    .states
                    .iter()
                    .find(|s| s.name == n)
                    .ok_or_else(|| bad(format!("`{n}` is not in the plan")))?;
                // A replicated map `process` writes needs its write-back tables in front of
                // every lookup (atomic update); one only the control plane fills does not.
                let written = self.func().insts.iter().any(|(_, d)| {
                    matches!(&d.kind, InstKind::MapInsert { state, .. }
                        | InstKind::MapErase { state, .. } if *state == sid)
                });
                if !matches!(sp.placement, Placement::SwitchTable | Placement::Replicated)
                    || written
                    || sp.partial.is_some()
                    || sp.hashed.is_some()
                    || self.opts.hashed.contains_key(n)
                    || self.opts.alpm.contains_key(n)
                    || self.opts.digest.contains_key(n)
                    || self
                        .pools
                        .iter()
                        .any(|p| p.members.iter().any(|m| m.state == n))
                {
                    return Err(bad(format!(
                        "`{n}` is not a plain switch table (placement {:?}{}; pooling takes \
                         tables the control plane fills, not partial, hashed, ALPM or digested)",
                        sp.placement,
                        if written {
                            ", written by process()"
                        } else {
                            ""
                        }
                    )));
                }
                let mut acc = Vec::new();
                for &st in &sp.switch_accesses {
                    let inst = self.stmt_inst(st)?;
                    let s = &self.view.plan.statements[st as usize];
                    acc.push((st, inst, Block::from_u32(s.block), s.partition));
                }
                accesses.push(acc);
                kinds.push(&module.states[sid].kind);
            }
            let shape =
                PoolShape::of((a, kinds[0]), (b, kinds[1])).map_err(|e| bad(e.to_string()))?;
            let pairs = pair_lookups(self.func(), &accesses[0], &accesses[1]);
            if pairs.is_empty() {
                return Err(bad(
                    "no lookup of the one and of the other on the two sides of a branch in one \
                     switch partition (the shared table is applied once per packet)"
                        .into(),
                ));
            }
            let many = pairs.len() > 1;
            for (j, (x, y)) in pairs.into_iter().enumerate() {
                let table = format!(
                    "{}_{}_pool{}",
                    p4_name(a),
                    p4_name(b),
                    if many { format!("_{j}") } else { String::new() }
                );
                let member = |(_, inst, block, part): Access, i: usize, n: &str| Member {
                    state: n.to_string(),
                    inst,
                    block,
                    part,
                    family: shape.family(i),
                };
                let pair = PoolPair {
                    table,
                    shape: shape.clone(),
                    members: [member(x, 0, a), member(y, 1, b)],
                    keys: Vec::new(),
                    hit: String::new(),
                    values: Vec::new(),
                };
                self.declare_pool_table(pair, x.0)?;
            }
        }
        Ok(())
    }

    /// Declares pair `p`'s table, its key and result metadata, its manifest entry.
    fn declare_pool_table(&mut self, mut p: PoolPair, stmt: u32) -> Result<(), P4Error> {
        let module = self.view.module;
        let wide = &p.members[if p.shape.family(0) == Family::V6 {
            0
        } else {
            1
        }]
        .state;
        let kind = |n: &str| module.state_by_name(n).map(|s| &module.states[s].kind);
        let (Some(wk), Some(k0), Some(k1)) = (
            kind(wide),
            kind(&p.members[0].state),
            kind(&p.members[1].state),
        ) else {
            return Err(P4Error::BadPlan(format!(
                "pool `{}`: unknown maps",
                p.table
            )));
        };
        let (Some((wkey, value)), Some(c0), Some(c1)) =
            (wk.map_layouts(), k0.map_capacity(), k1.map_capacity())
        else {
            return Err(P4Error::BadPlan(format!("pool `{}`: not maps", p.table)));
        };
        let t = p.table.clone();
        let mut fields = vec![LayoutField {
            name: "pool_tag".into(),
            ty: IrType::I1,
            offset: None,
        }];
        fields.extend(wkey.fields.iter().cloned());
        p.keys = fields
            .iter()
            .enumerate()
            .map(|(i, _)| format!("{t}_k{i}"))
            .collect();
        for (k, f) in p.keys.iter().zip(&fields) {
            self.meta_field(k, f.ty.bits());
        }
        p.hit = format!("{t}_hit");
        self.meta_field(&p.hit, 1);
        let mut hit_body = vec![assign(meta(&p.hit), lit(1, 1))];
        let mut miss_body = vec![assign(meta(&p.hit), lit(0, 1))];
        let mut params = Vec::new();
        let mut mparams = Vec::new();
        for (i, f) in value.fields.iter().enumerate() {
            let m = format!("{t}_v{i}");
            let bits = f.ty.bits();
            self.meta_field(&m, bits);
            let pn = p4_name(&f.name);
            hit_body.push(assign(meta(&m), name(&pn)));
            miss_body.push(assign(meta(&m), lit(0, bits)));
            params.push(param(Direction::None, Type::Bit(bits), &pn));
            mparams.push(manifest::ActionParam {
                id: i as u32 + 1,
                name: pn,
                field: f.name.clone(),
                bits,
            });
            p.values.push(m);
        }
        let (hit_name, miss_name) = (format!("{t}_hit_a"), format!("{t}_miss_a"));
        self.locals.push(decl(DeclKind::Action {
            name: hit_name.clone(),
            params,
            body: block(hit_body),
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
        // An LPM pool matches its 128-bit prefix over two words: every key ternary, the
        // length the priority (as a wide LPM map's table: `Gen::wide_lpm`).
        let mk = if p.shape.lpm { "ternary" } else { "exact" };
        let (p4keys, mkeys) = super::meta_keys(&p.keys, &fields, |_| mk);
        let clamp = |c: u64| self.opts.max_table_size.map_or(c, |m| m.clamp(1, c.max(1)));
        let size = clamp(c0) + clamp(c1);
        let mut miss_ref = action_ref(&miss_name);
        miss_ref.args = Some(Vec::new());
        self.locals.push(decl(DeclKind::Table(P4Table {
            name: t.clone(),
            keys: p4keys,
            actions: vec![action_ref(&hit_name), action_ref(&miss_name)],
            default_action: Some((miss_ref, false)),
            const_default: false,
            entries: Vec::new(),
            size: Some(int(size)),
            other: Vec::new(),
            const_entries: false,
        })));
        self.next_table += 1;
        self.manifest.tables.push(manifest::Table {
            id: manifest::object_id(manifest::PREFIX_TABLE, self.next_table),
            name: format!("{INGRESS}.{t}"),
            state: format!("{}+{}", p.members[0].state, p.members[1].state),
            role: manifest::TableRole::Pooled,
            statement: stmt,
            keys: mkeys,
            hit_action,
            delete_action: None,
            default_action,
            size,
            idle_timeout_ns: None,
        });
        self.pools.push(p);
        Ok(())
    }

    /// The pool and member of lookup `inst`, when it reads a shared table.
    pub(super) fn pool_member(&self, inst: Inst) -> Option<(usize, usize)> {
        self.pools.iter().enumerate().find_map(|(k, p)| {
            p.members
                .iter()
                .position(|m| m.inst == inst)
                .map(|i| (k, i))
        })
    }

    /// Pool `k`'s pairs of lookups, for the walk ([`crate::pool_order`]).
    pub(super) fn pool_insts(&self) -> Vec<(Inst, Inst)> {
        self.pools
            .iter()
            .map(|p| (p.members[0].inst, p.members[1].inst))
            .collect()
    }

    /// A pooled lookup: its key into the shared key fields (the table is applied by
    /// [`Gen::pool_apply`]).
    pub(super) fn pool_key(&mut self, (k, i): (usize, usize), key: &[Value]) -> Vec<Stmt> {
        let family = self.pools[k].members[i].family;
        let keys = self.pools[k].keys.clone();
        let v6_lead = self.pools[k].shape.v6_lead.clone();
        let mut out = vec![assign(meta(&keys[0]), lit(family.tag(), 1))];
        match family {
            Family::V6 => {
                for (m, &v) in keys[1..].iter().zip(key) {
                    let e = self.val(v);
                    out.push(assign(meta(m), e));
                }
            }
            Family::V4 => {
                let n = self.pools[k].shape.v4_lead.len();
                for (j, &w) in v6_lead.iter().enumerate() {
                    let e = match key.get(j).filter(|_| j < n) {
                        Some(&v) if self.bits(v) == w => self.val(v),
                        Some(&v) => cast(w, self.val(v)),
                        None => lit(0, w),
                    };
                    out.push(assign(meta(&keys[1 + j]), e));
                }
                let addr = key.get(n).map(|&v| {
                    let e = self.val(v);
                    if self.bits(v) == 64 {
                        e
                    } else {
                        cast(64, e)
                    }
                });
                let hi = &keys[keys.len() - 2];
                let lo = &keys[keys.len() - 1];
                out.push(assign(meta(hi), lit(0, 64)));
                let mapped = lit(V4_MAPPED, 64);
                out.push(assign(
                    meta(lo),
                    match addr {
                        Some(a) => bin(BinOp::BitOr, mapped, a),
                        None => mapped,
                    },
                ));
            }
        }
        out
    }

    /// Pool `k`'s table, applied when either of its lookups' blocks was reached, and its
    /// result handed to that lookup's results.
    pub(super) fn pool_apply(&mut self, k: usize) -> Result<Vec<Stmt>, P4Error> {
        let Some(p) = self.pools.get(k) else {
            return Err(P4Error::BadPlan(format!("no pool {k}")));
        };
        let (table, hit, values) = (p.table.clone(), p.hit.clone(), p.values.clone());
        let members: Vec<(Inst, Block, Partition)> = p
            .members
            .iter()
            .map(|m| (m.inst, m.block, m.part))
            .collect();
        let mut flags = Vec::new();
        let mut out = Vec::new();
        let mut hand = Vec::new();
        for (inst, b, part) in members {
            let f = self.meta_field(&format!("{}_{b}", part.name()), 1);
            flags.push(f.clone());
            let results = self.func().insts[inst].results.clone();
            if !matches!(self.func().insts[inst].kind, InstKind::MapFind { .. }) {
                return Err(P4Error::BadPlan(format!("pool `{table}`: not a lookup")));
            }
            let mut body = Vec::new();
            if let Some((&h, fields)) = results.split_first() {
                let d = self.dst(h);
                body.push(assign(d, meta(&hit)));
                for (&r, m) in fields.iter().zip(&values) {
                    let d = self.dst(r);
                    body.push(assign(d, meta(m)));
                }
            }
            hand.push(if_stmt(is_one(f), body, Vec::new()));
        }
        let either = bin(
            BinOp::Or,
            is_one(flags[0].clone()),
            is_one(flags[1].clone()),
        );
        out.push(if_stmt(
            either,
            vec![call_stmt(method(name(&table), "apply", vec![]))],
            Vec::new(),
        ));
        out.extend(hand);
        Ok(out)
    }
}

/// Pairs lookups of two maps greedily, in order: each of `b`'s with an unpaired one of
/// `a`'s in the same partition whose block no path joins with its block (neither block
/// reaches the other), the one with the fewest constant key fields first (a lookup of a
/// fixed entry, as a default route's, is the other family's counterpart less often than a
/// lookup keyed by the packet), then the first.
fn pair_lookups(func: &tandem_ir::Function, a: &[Access], b: &[Access]) -> Vec<(Access, Access)> {
    let constants = |inst: Inst| match &func.insts[inst].kind {
        InstKind::MapFind { key, .. } => key
            .iter()
            .filter(|&&v| {
                matches!(func.values.get(v).map(|d| &d.def),
                    Some(tandem_ir::ValueDef::Result(i, _))
                        if matches!(func.insts[*i].kind, InstKind::Const { .. }))
            })
            .count(),
        _ => 0,
    };
    let reach = |from: Block, to: Block| {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![from];
        while let Some(x) = stack.pop() {
            if x == to {
                return true;
            }
            if !seen.insert(x) {
                continue;
            }
            if let Some(t) = func.terminator(x) {
                stack.extend(func.insts[t].kind.successors().iter().map(|d| d.block));
            }
        }
        false
    };
    let mut used = vec![false; a.len()];
    let mut out = Vec::new();
    for &y in b {
        let found = a
            .iter()
            .enumerate()
            .filter(|(i, x)| !used[*i] && x.3 == y.3 && !reach(x.2, y.2) && !reach(y.2, x.2))
            .min_by_key(|(i, x)| (constants(x.1), *i));
        if let Some((i, &x)) = found {
            used[i] = true;
            out.push((x, y));
        }
    }
    out
}
