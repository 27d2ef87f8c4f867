//! `lower_program`: a plan to one P4 program for v1model or TNA, from the same lowering.
//!
//! Layout of the program (all NF work happens in ingress; egress is empty):
//!
//! ```text
//! parser:   eth ─0x88b5 (server port only)─▶ tandem ─0x0800─▶ ipv4 (+ options) ─6─▶ tcp
//!              └─0x0800───────────────────────────────────────▶                  └─17─▶ udp
//! ingress:  from the server (tandem valid, tag 2): unpack the header into metadata
//!           otherwise: pre; when it reached a server statement: pack the header
//!           packets not bound for the server: post
//!           fate: to the server port, the decided port, or mark_to_drop
//! deparser: eth, tandem, ipv4 (+ options), tcp, udp
//! ```
//!
//! SSA values live in metadata (`meta.vN`, one field per value), constants are literals.
//! `i1` values are `bit<1>`; comparisons become `c ? 1w1 : 1w0`. P4 has no byte swap,
//! signed comparison or arithmetic shift right, so they become slices and concatenations,
//! sign-bit flips, and a select on the sign bit.
//!
//! The architectures differ only in the shell: v1model's `V1Switch` with
//! `standard_metadata` (`egress_spec`, `mark_to_drop`, `register.read(out, index)`); TNA's
//! `Pipeline`/`Switch` with separate ingress and egress parsers and deparsers, the intrinsic
//! metadata structs (`ucast_egress_port`, `drop_ctl`, `global_tstamp` in ns), `Register<T, I>`
//! with `read(index)`/`write(index, value)`, `idle_timeout` on tables of expiring maps, and
//! metadata that the parser initialises (Tofino does not zero it). TNA ingress has no frame
//! length, so `meta.read length` on the switch is an error there.

use std::collections::HashMap;

use tandem_ir::{
    BinOp as IrBin, CastOp, Header, HeaderField, Inst, InstKind, IntCC, Meta, StateId, StateKind,
    Value, ValueDef,
};
use tandem_p4_syntax::{
    BinOp, DeclKind, Direction, ExprKind, ParserState, Program, SelectCase, Stmt, StmtKind,
    Table as P4Table, Transition, Type, UnOp,
};
use tandem_partition::{Partition, Placement};

use crate::build::*;
use crate::manifest::{self, Manifest};
use crate::view::View;
use crate::walk::{structure_partition, Node};
use crate::{Arch, P4Error, P4Options};

/// Name of the ingress control (qualifies object names in the manifest).
pub const INGRESS: &str = "TandemIngress";
/// Size of each write-back table.
pub const WRITE_BACK_SIZE: u64 = 1024;
const FLAG_REGISTER: &str = "tandem_visible";

/// How one switch lookup is realised.
struct LookupTable {
    table: String,
    keys: Vec<String>,
    write_back: Option<String>,
}

struct Gen<'v, 'a> {
    view: &'v View<'a>,
    opts: &'v P4Options,
    /// Metadata fields in first-use order.
    meta: Vec<(String, u32)>,
    meta_index: HashMap<String, usize>,
    locals: Vec<tandem_p4_syntax::Decl>,
    lookups: HashMap<Inst, LookupTable>,
    registers: HashMap<StateId, Vec<String>>,
    /// Per-read copies of read-only registers.
    access_registers: HashMap<Inst, Vec<String>>,
    manifest: Manifest,
    next_action: u32,
    next_table: u32,
    next_register: u32,
}

/// Lowers the plan to a program for `opts.arch` and its manifest.
pub fn lower_program(view: &View<'_>, opts: &P4Options) -> Result<(Program, Manifest), P4Error> {
    let plan = view.plan;
    let th = &plan.transfer_header;
    let manifest = Manifest {
        version: manifest::MANIFEST_VERSION,
        nf: plan.nf.clone(),
        arch: match opts.arch {
            Arch::V1Model => "v1model",
            Arch::Tna => "tna",
        }
        .into(),
        target: plan.target.clone(),
        ir_digest: plan.ir_digest.clone(),
        server_port: opts.server_port,
        control: INGRESS.into(),
        transfer_header: manifest::TransferHeader {
            ethertype: th.ethertype.clone(),
            bytes: th.bytes,
            tag_to_server: th.tag_to_server,
            tag_to_post: th.tag_to_post,
            fields: th
                .fields
                .iter()
                .map(|f| manifest::HeaderField {
                    name: f.name.clone(),
                    offset: f.offset,
                    bits: f.bits,
                    value: f.value.clone(),
                    from: f.from.map(|p| p.name().to_string()),
                    to: f.to.iter().map(|p| p.name().to_string()).collect(),
                })
                .collect(),
        },
        tables: Vec::new(),
        registers: Vec::new(),
        visibility_flag: None,
        states: Vec::new(),
    };
    let mut g = Gen {
        view,
        opts,
        meta: Vec::new(),
        meta_index: HashMap::new(),
        locals: Vec::new(),
        lookups: HashMap::new(),
        registers: HashMap::new(),
        access_registers: HashMap::new(),
        manifest,
        next_action: 0,
        next_table: 0,
        next_register: 0,
    };
    g.meta_field("to_server", 1);
    g.meta_field("fate", 17);
    g.meta_field("ipv4_ok", 1);
    g.declare_state()?;
    let pre = structure_partition(view, Partition::Pre)?;
    let post = structure_partition(view, Partition::Post)?;
    let pre = g.lower_nodes(&pre)?;
    let post = g.lower_nodes(&post)?;
    let apply = g.ingress_apply(pre, post)?;
    let program = g.program(apply);
    Ok((program, g.manifest))
}

fn hdr_name(h: Header) -> &'static str {
    h.name()
}

/// `hdr.ipv4.daddr`.
fn field_expr(f: HeaderField) -> Expr {
    let (h, n) = f.name().split_once('.').unwrap_or(("", f.name()));
    member(member(name("hdr"), h), n)
}

use tandem_p4_syntax::Expr;

/// Number of 32-bit IPv4 option words the parser can hold (IHL up to 15).
const IPV4_OPTION_WORDS: u32 = 10;

/// Whether the frame has an IPv4 header as the NF IR sees it: the parser extracted the
/// header *and all its option words* (it sets `meta.ipv4_ok` where TCP/UDP would start). A
/// frame cut short inside the options has `hdr.ipv4` valid but no IPv4 for the NF.
fn ipv4_present() -> Expr {
    bin(tandem_p4_syntax::BinOp::Eq, meta("ipv4_ok"), lit(1, 1))
}

/// A header field read. `ipv4.version_ihl` sits in its own one-byte header (the parser reads
/// it before deciding whether the rest is an IPv4 header, as the NF IR's presence rules say),
/// so it reads 0 when IPv4 is absent, like every other field.
fn read_field(f: HeaderField) -> Expr {
    if f == HeaderField::Ipv4VersionIhl {
        return ternary(ipv4_present(), path("hdr.ipv4_vihl.version_ihl"), lit(0, 8));
    }
    field_expr(f)
}

/// A header field write; writes to an absent IPv4 header do nothing.
fn write_field(f: HeaderField, v: Expr) -> Stmt {
    if f == HeaderField::Ipv4VersionIhl {
        return if_stmt(
            ipv4_present(),
            vec![assign(path("hdr.ipv4_vihl.version_ihl"), v)],
            Vec::new(),
        );
    }
    assign(field_expr(f), v)
}

fn meta(n: &str) -> Expr {
    member(name("meta"), n)
}

fn sm(n: &str) -> Expr {
    member(name("standard_metadata"), n)
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// A layout field's width as a P4 type.
fn layout_bits(t: tandem_ir::Type) -> u32 {
    t.bits()
}

impl Gen<'_, '_> {
    /// Is state `name` an LPM map (its tables match `lpm`)?
    fn is_lpm(&self, name: &str) -> bool {
        let m = self.view.module;
        m.state_by_name(name)
            .is_some_and(|id| m.states[id].kind.lpm_bits().is_some())
    }

    fn func(&self) -> &tandem_ir::Function {
        &self.view.module.process
    }

    fn meta_field(&mut self, n: &str, bits: u32) -> Expr {
        if !self.meta_index.contains_key(n) {
            self.meta_index.insert(n.to_string(), self.meta.len());
            self.meta.push((n.to_string(), bits));
        }
        meta(n)
    }

    fn bits(&self, v: Value) -> u32 {
        self.func().value_type(v).map(|t| t.bits()).unwrap_or(64)
    }

    fn const_of(&self, v: Value) -> Option<u64> {
        let data = self.func().values.get(v)?;
        match data.def {
            ValueDef::Result(inst, _) => match self.func().insts.get(inst)?.kind {
                InstKind::Const { imm } => Some(imm),
                _ => None,
            },
            _ => None,
        }
    }

    /// A value as an expression: a literal for constants, else its metadata field.
    fn val(&mut self, v: Value) -> Expr {
        let bits = self.bits(v);
        match self.const_of(v) {
            Some(c) => lit(c, bits),
            None => self.meta_field(&v.to_string(), bits),
        }
    }

    /// The metadata field receiving `v`.
    fn dst(&mut self, v: Value) -> Expr {
        let bits = self.bits(v);
        self.meta_field(&v.to_string(), bits)
    }

    fn action_id(&mut self) -> u32 {
        self.next_action += 1;
        manifest::object_id(manifest::PREFIX_ACTION, self.next_action)
    }

    // ----- state objects -----

    fn declare_state(&mut self) -> Result<(), P4Error> {
        let plan = self.view.plan;
        let module = self.view.module;
        let mut any_write_back = false;
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
            };
            if sp_.placement == Placement::Server || sp_.switch_accesses.is_empty() {
                self.manifest.states.push(entry);
                continue;
            }
            match &obj.kind {
                StateKind::Meter { .. } => {}
                StateKind::HashMap {
                    key,
                    value,
                    capacity,
                }
                | StateKind::LpmMap {
                    key,
                    value,
                    capacity,
                }
                | StateKind::ExpiringMap {
                    key,
                    value,
                    capacity,
                    ..
                } => {
                    let timeout = match obj.kind {
                        StateKind::ExpiringMap {
                            idle_timeout_ns, ..
                        } => Some(idle_timeout_ns),
                        _ => None,
                    };
                    let many = sp_.switch_accesses.len() > 1;
                    for (k, &stmt) in sp_.switch_accesses.iter().enumerate() {
                        let inst = self.stmt_inst(stmt)?;
                        let tname = if many {
                            format!("{}_{k}", p4_name(&sp_.name))
                        } else {
                            p4_name(&sp_.name)
                        };
                        let write_back =
                            self.opts.atomic_update && sp_.placement == Placement::Replicated;
                        let results = self.func().insts[inst].results.clone();
                        let keys: Vec<String> = key
                            .fields
                            .iter()
                            .map(|f| format!("{tname}_{}", f.name))
                            .collect();
                        for (kname, f) in keys.iter().zip(&key.fields) {
                            self.meta_field(kname, layout_bits(f.ty));
                        }
                        self.add_table(
                            &tname,
                            &sp_.name,
                            stmt,
                            &keys,
                            key,
                            value,
                            self.opts
                                .max_table_size
                                .map_or(*capacity, |m| m.clamp(1, (*capacity).max(1))),
                            timeout,
                            &results,
                            manifest::TableRole::Main,
                        )?;
                        entry.tables.push(format!("{INGRESS}.{tname}"));
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
                                WRITE_BACK_SIZE.min(*capacity.max(&1)),
                                timeout,
                                &results,
                                manifest::TableRole::WriteBack,
                            )?;
                            entry.write_back_tables.push(format!("{INGRESS}.{wname}"));
                            Some(wname)
                        } else {
                            None
                        };
                        self.lookups.insert(
                            inst,
                            LookupTable {
                                table: tname,
                                keys,
                                write_back: wb,
                            },
                        );
                    }
                }
                StateKind::Scalar { .. } | StateKind::Vector { .. } => {
                    // A register the switch only reads gets one copy per read, as the plan
                    // counts them (Tofino: one access per register and pass); a register the
                    // switch writes stays one object.
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

    fn stmt_inst(&self, stmt: u32) -> Result<Inst, P4Error> {
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

    fn add_register(
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
    fn add_table(
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
        // An LPM map's one key field is matched `lpm` (longest prefix wins); every other key
        // is `exact`.
        let match_kind = if self.is_lpm(state) { "lpm" } else { "exact" };
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
        let mut mkeys = Vec::new();
        let mut p4keys = Vec::new();
        for (i, (k, f)) in keys.iter().zip(&key.fields).enumerate() {
            p4keys.push(tandem_p4_syntax::KeyElement {
                expr: meta(k),
                match_kind: match_kind.into(),
                annotations: Vec::new(),
            });
            mkeys.push(manifest::KeyField {
                id: i as u32 + 1,
                name: format!("meta.{k}"),
                field: f.name.clone(),
                bits: f.ty.bits(),
                match_kind: match_kind.into(),
            });
        }
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
            other: if self.tna() && timeout.is_some() {
                vec![("idle_timeout".into(), e(ExprKind::Bool(true)))]
            } else {
                Vec::new()
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

    // ----- statements -----

    fn lower_nodes(&mut self, nodes: &[Node]) -> Result<Vec<Stmt>, P4Error> {
        let mut out = Vec::new();
        for n in nodes {
            match n {
                Node::Inst(inst) => self.lower_inst(*inst, &mut out)?,
                Node::Param { param, arg } => {
                    let rhs = self.val(*arg);
                    let lhs = self.dst(*param);
                    out.push(assign(lhs, rhs));
                }
                Node::ToServer => out.push(assign(meta("to_server"), lit(1, 1))),
                Node::Reach { part, block: b } => {
                    let f = self.meta_field(&format!("{}_{b}", part.name()), 1);
                    out.push(assign(f, lit(1, 1)));
                }
                Node::Guard {
                    part,
                    block: b,
                    body,
                } => {
                    let f = self.meta_field(&format!("{}_{b}", part.name()), 1);
                    let body = self.lower_nodes(body)?;
                    if !body.is_empty() {
                        out.push(if_stmt(is_one(f), body, Vec::new()));
                    }
                }
                Node::If { cond, then, els } => {
                    let c = is_one(self.val(*cond));
                    let t = self.lower_nodes(then)?;
                    let e_ = self.lower_nodes(els)?;
                    if t.is_empty() && e_.is_empty() {
                        continue;
                    }
                    if t.is_empty() {
                        let v = self.val(*cond);
                        out.push(if_stmt(bin(BinOp::Eq, v, lit(0, 1)), e_, Vec::new()));
                    } else {
                        out.push(if_stmt(c, t, e_));
                    }
                }
                Node::Switch {
                    arg,
                    cases,
                    default,
                } => {
                    let bits = self.bits(*arg);
                    let a = self.val(*arg);
                    let mut chain = self.lower_nodes(default)?;
                    for (v, arm) in cases.iter().rev() {
                        let body = self.lower_nodes(arm)?;
                        let c = bin(BinOp::Eq, a.clone(), lit(*v, bits));
                        chain = vec![if_stmt(c, body, chain)];
                    }
                    out.extend(chain);
                }
            }
        }
        Ok(out)
    }

    fn unsupported(&self, inst: Inst, why: &str) -> P4Error {
        P4Error::Unsupported {
            statement: self.view.describe(inst),
            reason: why.into(),
        }
    }

    fn lower_inst(&mut self, inst: Inst, out: &mut Vec<Stmt>) -> Result<(), P4Error> {
        let data = self.func().insts[inst].clone();
        let res = data.results.first().copied();
        let one = |g: &mut Self, rhs: Expr, out: &mut Vec<Stmt>| -> Result<(), P4Error> {
            let r = res.ok_or_else(|| g.unsupported(inst, "instruction without a result"))?;
            let d = g.dst(r);
            out.push(assign(d, rhs));
            Ok(())
        };
        match &data.kind {
            InstKind::Const { .. } => {}
            InstKind::Binary { op, args } => {
                let bits = self.bits(args[0]);
                let rhs = self.binary(inst, *op, args[0], args[1], bits)?;
                one(self, rhs, out)?;
            }
            InstKind::Icmp { pred, args } => {
                let bits = self.bits(args[0]);
                let (mut a, mut b) = (self.val(args[0]), self.val(args[1]));
                let signed = matches!(pred, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge);
                if signed {
                    let sign = lit(1u64 << (bits - 1), bits);
                    a = bin(BinOp::BitXor, a, sign.clone());
                    b = bin(BinOp::BitXor, b, sign);
                }
                let op = match pred {
                    IntCC::Eq => BinOp::Eq,
                    IntCC::Ne => BinOp::Ne,
                    IntCC::Ult | IntCC::Slt => BinOp::Lt,
                    IntCC::Ule | IntCC::Sle => BinOp::Le,
                    IntCC::Ugt | IntCC::Sgt => BinOp::Gt,
                    IntCC::Uge | IntCC::Sge => BinOp::Ge,
                };
                one(self, bool_to_bit(bin(op, a, b)), out)?;
            }
            InstKind::Cast { op, arg } => {
                let from = self.bits(*arg);
                let to = res.map(|r| self.bits(r)).unwrap_or(from);
                let a = self.val(*arg);
                let rhs = match op {
                    CastOp::Zext | CastOp::Trunc => {
                        if from == to {
                            a
                        } else {
                            cast(to, a)
                        }
                    }
                    CastOp::Sext => {
                        if from >= to {
                            cast(to, a)
                        } else {
                            let ext = to - from;
                            let hi = ternary(
                                is_one(slice(a.clone(), from - 1, from - 1)),
                                lit(mask(ext), ext),
                                lit(0, ext),
                            );
                            bin(BinOp::Concat, hi, a)
                        }
                    }
                };
                one(self, rhs, out)?;
            }
            InstKind::Select {
                cond,
                if_true,
                if_false,
            } => {
                let c = is_one(self.val(*cond));
                let (a, b) = (self.val(*if_true), self.val(*if_false));
                one(self, ternary(c, a, b), out)?;
            }
            InstKind::Hash { algo, args } => {
                let r = res.ok_or_else(|| self.unsupported(inst, "hash without a result"))?;
                let bits = self.bits(r);
                let data = e(ExprKind::List(args.iter().map(|&a| self.val(a)).collect()));
                let d = self.dst(r);
                if self.tna() {
                    // One Hash extern per call site (Tofino's hash units are per use).
                    let unit = format!("hash_{r}");
                    let alg = match algo {
                        tandem_ir::HashAlgo::Crc16 => "CRC16",
                        tandem_ir::HashAlgo::Crc32 => "CRC32",
                        tandem_ir::HashAlgo::Identity => "IDENTITY",
                    };
                    self.locals.push(decl(DeclKind::Instantiation {
                        ty: Type::Named {
                            name: "Hash".into(),
                            args: vec![Type::Bit(bits)],
                        },
                        args: vec![member(name("HashAlgorithm_t"), alg)],
                        name: unit.clone(),
                    }));
                    out.push(assign(d, method(name(&unit), "get", vec![data])));
                } else {
                    if bits >= 64 {
                        return Err(self.unsupported(
                            inst,
                            "v1model's hash takes its result modulo `max`, which cannot be 2^64",
                        ));
                    }
                    // hash(out, algo, base, data, max): out = base + (h % max); with base 0
                    // and max 2^bits the result is the hash itself.
                    out.push(call_stmt(call(
                        name("hash"),
                        vec![
                            d,
                            member(name("HashAlgorithm"), algo.name()),
                            lit(0, bits),
                            data,
                            lit(1u64 << bits, 64),
                        ],
                    )));
                }
            }
            InstKind::Bswap { arg } => {
                let bits = self.bits(*arg);
                let rhs = match self.const_of(*arg) {
                    Some(c) => {
                        let n = bits / 8;
                        let mut r = 0u64;
                        for i in 0..n {
                            r |= ((c >> (8 * i)) & 0xff) << (8 * (n - 1 - i));
                        }
                        lit(r, bits)
                    }
                    None => {
                        let a = self.val(*arg);
                        let mut ex: Option<Expr> = None;
                        for i in 0..bits / 8 {
                            let s = slice(a.clone(), 8 * i + 7, 8 * i);
                            ex = Some(match ex {
                                None => s,
                                Some(prev) => bin(BinOp::Concat, prev, s),
                            });
                        }
                        ex.ok_or_else(|| {
                            self.unsupported(inst, "byte swap of a value narrower than a byte")
                        })?
                    }
                };
                one(self, rhs, out)?;
            }
            InstKind::HdrRead { field } => one(self, read_field(*field), out)?,
            InstKind::HdrWrite { field, value } => {
                let v = self.val(*value);
                out.push(write_field(*field, v));
            }
            InstKind::HdrValid { header } => {
                let ex = if *header == tandem_ir::Header::Ipv4 {
                    bool_to_bit(ipv4_present())
                } else {
                    bool_to_bit(method(
                        member(name("hdr"), hdr_name(*header)),
                        "isValid",
                        vec![],
                    ))
                };
                one(self, ex, out)?;
            }
            InstKind::MetaRead { meta: m } => {
                let src = match m {
                    Meta::InPort => self.meta_field("in_port", 16),
                    Meta::Length if self.tna() => {
                        return Err(self.unsupported(
                            inst,
                            "TNA ingress has no frame length (run it on the server)",
                        ))
                    }
                    Meta::Length => self.meta_field("pkt_len", 16),
                    Meta::Now => {
                        return Err(self.unsupported(
                            inst,
                            "now() is the packet's nanosecond timestamp, which the switch's \
                             48-bit clock does not represent (the partitioner keeps it on the server)",
                        ))
                    }
                };
                one(self, src, out)?;
            }
            InstKind::MapFind { key, .. } => {
                let Some(lt) = self.lookups.get(&inst) else {
                    return Err(
                        self.unsupported(inst, "map lookup without a switch table in the plan")
                    );
                };
                let (table, keys, wb) = (lt.table.clone(), lt.keys.clone(), lt.write_back.clone());
                for (k, &v) in keys.iter().zip(key) {
                    let rhs = self.val(v);
                    out.push(assign(meta(k), rhs));
                }
                let apply_main = call_stmt(method(name(&table), "apply", vec![]));
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
            InstKind::Send { port } => {
                let p = self.val(*port);
                let pb = self.bits(*port);
                let p16 = if pb == 16 { p } else { cast(16, p) };
                out.push(assign(meta("fate"), bin(BinOp::Concat, lit(1, 1), p16)));
            }
            InstKind::Drop => out.push(assign(meta("fate"), lit(0, 17))),
            InstKind::MapInsert { .. } | InstKind::MapErase { .. } => {
                return Err(self.unsupported(inst, "the switch only reads maps"))
            }
            InstKind::Opaque { name, .. } => {
                return Err(self.unsupported(
                    inst,
                    &format!("opaque code `{name}` runs only on the server"),
                ))
            }
            InstKind::MeterExecute { .. } => {
                return Err(self.unsupported(inst, "meters are not lowered yet"))
            }
            InstKind::Jump { .. }
            | InstKind::Brif { .. }
            | InstKind::Switch { .. }
            | InstKind::Return => {}
        }
        Ok(())
    }

    fn binary(
        &mut self,
        inst: Inst,
        op: IrBin,
        x: Value,
        y: Value,
        bits: u32,
    ) -> Result<Expr, P4Error> {
        let a = self.val(x);
        let b = self.val(y);
        let cy = self.const_of(y);
        let pow2 = cy
            .filter(|c| c.is_power_of_two())
            .map(|c| c.trailing_zeros());
        Ok(match op {
            IrBin::Add => bin(BinOp::Add, a, b),
            IrBin::Sub => bin(BinOp::Sub, a, b),
            IrBin::And => bin(BinOp::BitAnd, a, b),
            IrBin::Or => bin(BinOp::BitOr, a, b),
            IrBin::Xor => bin(BinOp::BitXor, a, b),
            IrBin::Shl => bin(BinOp::Shl, a, shift_amount(b, cy, bits)),
            IrBin::Lshr => bin(BinOp::Shr, a, shift_amount(b, cy, bits)),
            IrBin::Ashr => {
                // Arithmetic shift: complement, shift, complement for negative values. An
                // amount >= the width shifts every bit out, so both arms give the sign fill.
                let amount = shift_amount(b, cy, bits);
                let neg = is_one(slice(a.clone(), bits - 1, bits - 1));
                let shifted_neg = un(
                    UnOp::BitNot,
                    bin(BinOp::Shr, un(UnOp::BitNot, a.clone()), amount.clone()),
                );
                ternary(neg, shifted_neg, bin(BinOp::Shr, a, amount))
            }
            IrBin::Mul => {
                let pow2_x = self
                    .const_of(x)
                    .filter(|c| c.is_power_of_two())
                    .map(|c| c.trailing_zeros());
                match (pow2, pow2_x) {
                    (Some(k), _) => bin(BinOp::Shl, a, lit(u64::from(k), SHIFT_AMOUNT_BITS)),
                    (None, Some(k)) => bin(BinOp::Shl, b, lit(u64::from(k), SHIFT_AMOUNT_BITS)),
                    (None, None) => bin(BinOp::Mul, a, b),
                }
            }
            // p4c evaluates `/` and `%` only at compile time (its `CompileTimeOperations` pass,
            // in p4c-bm2-ss and p4test alike): a constant power of two becomes a shift or a
            // mask, anything else stays on the server (the profiles do not offer `udiv`).
            IrBin::Udiv => match (cy, pow2) {
                (Some(0), _) => lit(0, bits),
                (_, Some(k)) => bin(BinOp::Shr, a, lit(u64::from(k), SHIFT_AMOUNT_BITS)),
                _ => {
                    return Err(self.unsupported(
                        inst,
                        "division by a value that is not a constant power of two",
                    ))
                }
            },
            IrBin::Urem => match (cy, pow2) {
                (Some(0), _) => a,
                (Some(c), Some(_)) => bin(BinOp::BitAnd, a, lit(c - 1, bits)),
                _ => {
                    return Err(self.unsupported(
                        inst,
                        "remainder by a value that is not a constant power of two",
                    ))
                }
            },
            IrBin::Sdiv | IrBin::Srem => {
                return Err(self.unsupported(inst, "signed division on the switch"))
            }
        })
    }

    // ----- the program -----

    fn ingress_apply(&mut self, pre: Vec<Stmt>, post: Vec<Stmt>) -> Result<Vec<Stmt>, P4Error> {
        let th = &self.view.plan.transfer_header;
        let with_header = self.view.any_server() && th.bytes > 0;
        // Fields the header carries count as used.
        for f in &th.fields {
            if let Some(v) = f.value.as_deref().and_then(|v| v.strip_prefix("meta.")) {
                self.meta_field(v, f.bits);
            }
        }
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
        local.extend(pre);
        if with_header {
            let mut pack = vec![
                call_stmt(method(member(name("hdr"), "tandem"), "setValid", vec![])),
                assign(tandem("tag"), lit(u64::from(th.tag_to_server), 8)),
                assign(tandem("orig_ethertype"), path("hdr.eth.ethertype")),
                assign(path("hdr.eth.ethertype"), name("TANDEM_ETHERTYPE")),
            ];
            for f in &th.fields {
                let Some(v) = &f.value else {
                    if f.name.starts_with("pad") {
                        pack.push(assign(tandem(&f.name), lit(0, f.bits)));
                    }
                    continue;
                };
                let rhs = if f.from == Some(Partition::Pre) || v == "fate" || v.starts_with("meta.")
                {
                    self.cut_meta(v, f.bits)
                } else {
                    lit(0, f.bits)
                };
                pack.push(assign(tandem(&f.name), rhs));
            }
            local.push(if_stmt(is_one(meta("to_server")), pack, Vec::new()));
            let mut unpack = Vec::new();
            for f in &th.fields {
                if let Some(v) = &f.value {
                    let d = self.cut_meta(v, f.bits);
                    unpack.push(assign(d, tandem(&f.name)));
                }
            }
            unpack.push(assign(path("hdr.eth.ethertype"), tandem("orig_ethertype")));
            unpack.push(call_stmt(method(
                member(name("hdr"), "tandem"),
                "setInvalid",
                vec![],
            )));
            if used(self, "pkt_len") {
                unpack.push(assign(
                    meta("pkt_len"),
                    cast(
                        16,
                        bin(
                            BinOp::Sub,
                            sm("packet_length"),
                            lit(u64::from(th.bytes), 32),
                        ),
                    ),
                ));
            }
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
            apply.push(if_stmt(
                is_one(meta("to_server")),
                vec![self.set_port(name("TANDEM_SERVER_PORT"))],
                vec![self.fate_stmt()],
            ));
        } else {
            apply.extend(local);
            apply.extend(post);
            apply.push(self.fate_stmt());
        }
        Ok(apply)
    }

    /// The metadata field of a cut value (`v7`, `meta.in_port`, `fate`).
    fn cut_meta(&mut self, v: &str, bits: u32) -> Expr {
        let n = v.strip_prefix("meta.").unwrap_or(v);
        self.meta_field(n, bits)
    }

    fn fate_stmt(&self) -> Stmt {
        if_stmt(
            is_one(slice(meta("fate"), 16, 16)),
            vec![self.set_port(cast(9, slice(meta("fate"), 15, 0)))],
            vec![self.drop_stmt()],
        )
    }

    fn tna(&self) -> bool {
        self.opts.arch == Arch::Tna
    }

    fn in_port_expr(&self) -> Expr {
        if self.tna() {
            path("ig_intr_md.ingress_port")
        } else {
            sm("ingress_port")
        }
    }

    fn set_port(&self, port: Expr) -> Stmt {
        if self.tna() {
            assign(path("ig_tm_md.ucast_egress_port"), port)
        } else {
            assign(sm("egress_spec"), port)
        }
    }

    fn drop_stmt(&self) -> Stmt {
        if self.tna() {
            assign(path("ig_dprsr_md.drop_ctl"), lit(1, 3))
        } else {
            call_stmt(call(name("mark_to_drop"), vec![name("standard_metadata")]))
        }
    }

    /// `dst = r[index]`.
    fn reg_read(&self, r: &str, dst: Expr, index: Expr) -> Stmt {
        if self.tna() {
            assign(dst, method(name(r), "read", vec![index]))
        } else {
            call_stmt(method(name(r), "read", vec![dst, index]))
        }
    }

    fn program(&mut self, apply: Vec<Stmt>) -> Program {
        let th = &self.view.plan.transfer_header;
        let with_header = self.view.any_server() && th.bytes > 0;
        let mut items = vec![
            decl(DeclKind::Preprocessor("#include <core.p4>".into())),
            decl(DeclKind::Preprocessor(
                if self.tna() {
                    "#include <tna.p4>"
                } else {
                    "#include <v1model.p4>"
                }
                .into(),
            )),
            decl(DeclKind::Const {
                ty: Type::Bit(9),
                name: "TANDEM_SERVER_PORT".into(),
                value: lit(u64::from(self.opts.server_port), 9),
            }),
            decl(DeclKind::Const {
                ty: Type::Bit(16),
                name: "TANDEM_ETHERTYPE".into(),
                value: lit(u64::from(tandem_partition::TRANSFER_ETHERTYPE), 16),
            }),
        ];
        let header = |h: Header| {
            decl(DeclKind::Header {
                name: format!("{}_t", h.name()),
                fields: h
                    .fields()
                    .filter(|&f| f != HeaderField::Ipv4VersionIhl)
                    .map(|f| {
                        let n = f.name().split_once('.').map(|x| x.1).unwrap_or(f.name());
                        field(Type::Bit(f.bits()), n)
                    })
                    .collect(),
            })
        };
        items.push(header(Header::Eth));
        if with_header {
            items.push(decl(DeclKind::Header {
                name: "tandem_t".into(),
                fields: th
                    .fields
                    .iter()
                    .map(|f| field(Type::Bit(f.bits), &f.name))
                    .collect(),
            }));
        }
        items.push(decl(DeclKind::Header {
            name: "ipv4_vihl_t".into(),
            fields: vec![field(Type::Bit(8), "version_ihl")],
        }));
        for h in [Header::Ipv4, Header::Tcp, Header::Udp] {
            items.push(header(h));
        }
        items.push(decl(DeclKind::Header {
            name: "ipv4_opt_t".into(),
            fields: vec![field(Type::Bit(32), "word")],
        }));
        let mut hfields = vec![field(named_ty("eth_t"), "eth")];
        if with_header {
            hfields.push(field(named_ty("tandem_t"), "tandem"));
        }
        hfields.push(field(named_ty("ipv4_vihl_t"), "ipv4_vihl"));
        hfields.push(field(named_ty("ipv4_t"), "ipv4"));
        for k in 1..=IPV4_OPTION_WORDS {
            hfields.push(field(named_ty("ipv4_opt_t"), &format!("ipv4_opt{k}")));
        }
        for h in ["tcp", "udp"] {
            hfields.push(field(named_ty(&format!("{h}_t")), h));
        }
        items.push(decl(DeclKind::Struct {
            name: "headers_t".into(),
            fields: hfields,
        }));
        items.push(decl(DeclKind::Struct {
            name: "meta_t".into(),
            fields: self
                .meta
                .iter()
                .map(|(n, b)| field(Type::Bit(*b), n))
                .collect(),
        }));
        let emits = |with_header: bool| {
            let mut hs = vec!["eth"];
            if with_header {
                hs.push("tandem");
            }
            let opts: Vec<String> = (1..=IPV4_OPTION_WORDS)
                .map(|k| format!("ipv4_opt{k}"))
                .collect();
            hs.extend(["ipv4_vihl", "ipv4"]);
            hs.extend(opts.iter().map(String::as_str));
            hs.extend(["tcp", "udp"]);
            hs.into_iter()
                .map(|h| call_stmt(method(name("packet"), "emit", vec![member(name("hdr"), h)])))
                .collect::<Vec<_>>()
        };
        let ctor = |n: &str| call(name(n), Vec::new());
        let control = |n: &str, params: Vec<tandem_p4_syntax::Param>, body: Vec<Stmt>| {
            decl(DeclKind::Control {
                name: n.into(),
                params,
                locals: Vec::new(),
                apply: block(body),
            })
        };
        let p = |d: Direction, ty: &str, n: &str| param(d, named_ty(ty), n);
        let parser = self.parser(with_header);
        let locals = std::mem::take(&mut self.locals);
        if self.tna() {
            for n in ["eg_headers_t", "eg_meta_t"] {
                items.push(decl(DeclKind::Struct {
                    name: n.into(),
                    fields: Vec::new(),
                }));
            }
            items.push(parser);
            items.push(decl(DeclKind::Control {
                name: INGRESS.into(),
                params: vec![
                    p(Direction::InOut, "headers_t", "hdr"),
                    p(Direction::InOut, "meta_t", "meta"),
                    p(Direction::In, "ingress_intrinsic_metadata_t", "ig_intr_md"),
                    p(
                        Direction::In,
                        "ingress_intrinsic_metadata_from_parser_t",
                        "ig_prsr_md",
                    ),
                    p(
                        Direction::InOut,
                        "ingress_intrinsic_metadata_for_deparser_t",
                        "ig_dprsr_md",
                    ),
                    p(
                        Direction::InOut,
                        "ingress_intrinsic_metadata_for_tm_t",
                        "ig_tm_md",
                    ),
                ],
                locals,
                apply: block(apply),
            }));
            items.push(control(
                "TandemIngressDeparser",
                vec![
                    p(Direction::None, "packet_out", "packet"),
                    p(Direction::InOut, "headers_t", "hdr"),
                    p(Direction::In, "meta_t", "meta"),
                    p(
                        Direction::In,
                        "ingress_intrinsic_metadata_for_deparser_t",
                        "ig_dprsr_md",
                    ),
                ],
                emits(with_header),
            ));
            items.push(decl(DeclKind::Parser {
                name: "TandemEgressParser".into(),
                params: vec![
                    p(Direction::None, "packet_in", "packet"),
                    p(Direction::Out, "eg_headers_t", "hdr"),
                    p(Direction::Out, "eg_meta_t", "meta"),
                    p(Direction::Out, "egress_intrinsic_metadata_t", "eg_intr_md"),
                ],
                locals: Vec::new(),
                states: vec![ParserState {
                    span: sp(),
                    name: "start".into(),
                    body: vec![call_stmt(method(
                        name("packet"),
                        "extract",
                        vec![name("eg_intr_md")],
                    ))],
                    transition: Transition::Goto("accept".into()),
                }],
            }));
            items.push(control(
                "TandemEgress",
                vec![
                    p(Direction::InOut, "eg_headers_t", "hdr"),
                    p(Direction::InOut, "eg_meta_t", "meta"),
                    p(Direction::In, "egress_intrinsic_metadata_t", "eg_intr_md"),
                    p(
                        Direction::In,
                        "egress_intrinsic_metadata_from_parser_t",
                        "eg_prsr_md",
                    ),
                    p(
                        Direction::InOut,
                        "egress_intrinsic_metadata_for_deparser_t",
                        "eg_dprsr_md",
                    ),
                    p(
                        Direction::InOut,
                        "egress_intrinsic_metadata_for_output_port_t",
                        "eg_oport_md",
                    ),
                ],
                Vec::new(),
            ));
            items.push(control(
                "TandemEgressDeparser",
                vec![
                    p(Direction::None, "packet_out", "packet"),
                    p(Direction::InOut, "eg_headers_t", "hdr"),
                    p(Direction::In, "eg_meta_t", "meta"),
                    p(
                        Direction::In,
                        "egress_intrinsic_metadata_for_deparser_t",
                        "eg_dprsr_md",
                    ),
                ],
                Vec::new(),
            ));
            items.push(decl(DeclKind::Instantiation {
                ty: named_ty("Pipeline"),
                args: vec![
                    ctor("TandemIngressParser"),
                    ctor(INGRESS),
                    ctor("TandemIngressDeparser"),
                    ctor("TandemEgressParser"),
                    ctor("TandemEgress"),
                    ctor("TandemEgressDeparser"),
                ],
                name: "pipe".into(),
            }));
            items.push(decl(DeclKind::Instantiation {
                ty: named_ty("Switch"),
                args: vec![name("pipe")],
                name: "main".into(),
            }));
            return Program { items };
        }
        let std_params = || {
            vec![
                p(Direction::InOut, "headers_t", "hdr"),
                p(Direction::InOut, "meta_t", "meta"),
                p(Direction::InOut, "standard_metadata_t", "standard_metadata"),
            ]
        };
        let checksum_params = || {
            vec![
                p(Direction::InOut, "headers_t", "hdr"),
                p(Direction::InOut, "meta_t", "meta"),
            ]
        };
        items.push(parser);
        items.push(control(
            "TandemVerifyChecksum",
            checksum_params(),
            Vec::new(),
        ));
        items.push(decl(DeclKind::Control {
            name: INGRESS.into(),
            params: std_params(),
            locals,
            apply: block(apply),
        }));
        items.push(control("TandemEgress", std_params(), Vec::new()));
        items.push(control(
            "TandemComputeChecksum",
            checksum_params(),
            Vec::new(),
        ));
        items.push(control(
            "TandemDeparser",
            vec![
                p(Direction::None, "packet_out", "packet"),
                p(Direction::In, "headers_t", "hdr"),
            ],
            emits(with_header),
        ));
        items.push(decl(DeclKind::Instantiation {
            ty: named_ty("V1Switch"),
            args: vec![
                ctor("TandemParser"),
                ctor("TandemVerifyChecksum"),
                ctor(INGRESS),
                ctor("TandemEgress"),
                ctor("TandemComputeChecksum"),
                ctor("TandemDeparser"),
            ],
            name: "main".into(),
        }));
        Program { items }
    }

    fn parser(&self, with_header: bool) -> tandem_p4_syntax::Decl {
        let extract = |h: &str| {
            call_stmt(method(
                name("packet"),
                "extract",
                vec![member(name("hdr"), h)],
            ))
        };
        let case = |keys: Vec<Expr>, next: &str| SelectCase {
            keys,
            next: next.into(),
        };
        let state = |n: &str, body: Vec<Stmt>, transition: Transition| ParserState {
            span: sp(),
            name: n.into(),
            body,
            transition,
        };
        let mut start_cases = Vec::new();
        if with_header {
            start_cases.push(case(
                vec![name("TANDEM_SERVER_PORT"), name("TANDEM_ETHERTYPE")],
                "parse_tandem",
            ));
        }
        start_cases.push(case(
            vec![e(ExprKind::DontCare), lit(0x0800, 16)],
            "parse_ipv4",
        ));
        start_cases.push(case(vec![e(ExprKind::Default)], "accept"));
        let mut start = Vec::new();
        if self.tna() {
            // Intrinsic metadata and the port metadata come first; Tofino does not zero
            // metadata, so the fields read before any write start at 0 here.
            start.push(call_stmt(method(
                name("packet"),
                "extract",
                vec![name("ig_intr_md")],
            )));
            start.push(call_stmt(method(
                name("packet"),
                "advance",
                vec![name("PORT_METADATA_SIZE")],
            )));
            for (f, bits) in &self.meta {
                let init = matches!(
                    f.as_str(),
                    "to_server" | "fate" | "wb_hit" | "visible" | "ipv4_ok"
                ) || f.starts_with("pre_block")
                    || f.starts_with("post_block");
                if init {
                    start.push(assign(meta(f), lit(0, *bits)));
                }
            }
        }
        start.push(extract("eth"));
        let mut states = vec![state(
            "start",
            start,
            Transition::Select {
                exprs: vec![self.in_port_expr(), path("hdr.eth.ethertype")],
                cases: start_cases,
            },
        )];
        if with_header {
            states.push(state(
                "parse_tandem",
                vec![extract("tandem")],
                Transition::Select {
                    exprs: vec![path("hdr.tandem.orig_ethertype")],
                    cases: vec![
                        case(vec![lit(0x0800, 16)], "parse_ipv4"),
                        case(vec![e(ExprKind::Default)], "accept"),
                    ],
                },
            ));
        }
        // IPv4 as the NF IR sees it: version 4 and IHL >= 5, then IHL - 5 option words, then
        // TCP/UDP at 14 + 4 * IHL.
        let vihl = || path("hdr.ipv4_vihl.version_ihl");
        let mut ok: Vec<SelectCase> = (0x45..=0x4f)
            .map(|v| case(vec![lit(v, 8)], "parse_ipv4_rest"))
            .collect();
        ok.push(case(vec![e(ExprKind::Default)], "accept"));
        states.push(state(
            "parse_ipv4",
            vec![extract("ipv4_vihl")],
            Transition::Select {
                exprs: vec![vihl()],
                cases: ok,
            },
        ));
        states.push(state(
            "parse_ipv4_rest",
            vec![extract("ipv4")],
            Transition::Select {
                exprs: vec![vihl()],
                cases: vec![
                    case(vec![lit(0x45, 8)], "parse_l4"),
                    case(vec![e(ExprKind::Default)], "parse_ipv4_opt1"),
                ],
            },
        ));
        for k in 1..=IPV4_OPTION_WORDS {
            let next = if k == IPV4_OPTION_WORDS {
                Transition::Goto("parse_l4".into())
            } else {
                Transition::Select {
                    exprs: vec![vihl()],
                    cases: vec![
                        case(vec![lit(0x45 + u64::from(k), 8)], "parse_l4"),
                        case(
                            vec![e(ExprKind::Default)],
                            &format!("parse_ipv4_opt{}", k + 1),
                        ),
                    ],
                }
            };
            states.push(state(
                &format!("parse_ipv4_opt{k}"),
                vec![extract(&format!("ipv4_opt{k}"))],
                next,
            ));
        }
        states.push(state(
            "parse_l4",
            vec![assign(meta("ipv4_ok"), lit(1, 1))],
            Transition::Select {
                exprs: vec![path("hdr.ipv4.protocol")],
                cases: vec![
                    case(vec![lit(6, 8)], "parse_tcp"),
                    case(vec![lit(17, 8)], "parse_udp"),
                    case(vec![e(ExprKind::Default)], "accept"),
                ],
            },
        ));
        states.push(state(
            "parse_tcp",
            vec![extract("tcp")],
            Transition::Goto("accept".into()),
        ));
        states.push(state(
            "parse_udp",
            vec![extract("udp")],
            Transition::Goto("accept".into()),
        ));
        let (pname, params) = if self.tna() {
            (
                "TandemIngressParser",
                vec![
                    param(Direction::None, named_ty("packet_in"), "packet"),
                    param(Direction::Out, named_ty("headers_t"), "hdr"),
                    param(Direction::Out, named_ty("meta_t"), "meta"),
                    param(
                        Direction::Out,
                        named_ty("ingress_intrinsic_metadata_t"),
                        "ig_intr_md",
                    ),
                ],
            )
        } else {
            (
                "TandemParser",
                vec![
                    param(Direction::None, named_ty("packet_in"), "packet"),
                    param(Direction::Out, named_ty("headers_t"), "hdr"),
                    param(Direction::InOut, named_ty("meta_t"), "meta"),
                    param(
                        Direction::InOut,
                        named_ty("standard_metadata_t"),
                        "standard_metadata",
                    ),
                ],
            )
        };
        decl(DeclKind::Parser {
            name: pname.into(),
            params,
            locals: Vec::new(),
            states,
        })
    }
}

/// A state object's name as a P4 identifier: names that are P4 keywords or names the
/// program itself uses get an `nf_` prefix.
fn p4_name(state: &str) -> String {
    const RESERVED: &[&str] = &[
        "action",
        "actions",
        "apply",
        "bit",
        "bool",
        "const",
        "control",
        "default",
        "else",
        "entries",
        "enum",
        "error",
        "exit",
        "extern",
        "false",
        "header",
        "header_union",
        "if",
        "in",
        "inout",
        "int",
        "key",
        "match_kind",
        "out",
        "package",
        "parser",
        "return",
        "select",
        "size",
        "state",
        "string",
        "struct",
        "switch",
        "table",
        "transition",
        "true",
        "tuple",
        "type",
        "typedef",
        "varbit",
        "verify",
        "void",
        "value_set",
        "list",
        "hdr",
        "meta",
        "standard_metadata",
        "packet",
        "main",
        "accept",
        "reject",
        "mark_to_drop",
        "register",
        "tandem_visible",
        "NoAction",
    ];
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
    if RESERVED.contains(&ident.as_str())
        || ident.starts_with("Tandem")
        || ident.starts_with("TANDEM")
        || ident.starts_with(|c: char| c.is_ascii_digit())
    {
        format!("nf_{ident}")
    } else {
        ident
    }
}

fn tandem(f: &str) -> Expr {
    member(member(name("hdr"), "tandem"), f)
}

/// Width of every shift amount the generator emits: p4c's BMv2 back end refuses a shift whose
/// amount is wider than 8 bits ("shift amount limited to 8 bits on this target"), constants
/// included; TNA and our switch accept it too.
pub const SHIFT_AMOUNT_BITS: u32 = 8;

/// The amount of a `bits`-wide shift as a `bit<8>` expression with the IR's result kept:
/// P4 shifts by an amount `>= bits` give 0 (as the IR's `shl`/`lshr`; `ashr` complements
/// around it), so an amount that does not fit 8 bits is clamped to `bits` before the cast
/// (`bits <= 64`), never truncated (`256 & 0xff = 0` would shift by nothing).
///
/// ```text
/// before: meta.v3 = meta.v1 >> meta.v2;            // bit<32> >> bit<32>: p4c-bm2-ss refuses
/// after:  meta.v3 = meta.v1 >> (bit<8>)(meta.v2 < 32w32 ? meta.v2 : 32w32);
/// ```
fn shift_amount(amount: Expr, constant: Option<u64>, bits: u32) -> Expr {
    if let Some(c) = constant {
        return lit(c.min(u64::from(bits)), SHIFT_AMOUNT_BITS);
    }
    if bits <= SHIFT_AMOUNT_BITS {
        return amount;
    }
    let limit = lit(u64::from(bits), bits);
    cast(
        SHIFT_AMOUNT_BITS,
        ternary(bin(BinOp::Lt, amount.clone(), limit.clone()), amount, limit),
    )
}
