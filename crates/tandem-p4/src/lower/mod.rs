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
//!
//! The lowering, one concept per file:
//!
//! - [`state`]: maps to tables (hit/miss actions, write-back tables), scalars and vectors to
//!   registers, the visibility flag; each object's manifest entry;
//! - [`inst`]: the partitions' structured walks and each instruction as P4 statements and
//!   expressions;
//! - [`hashed`]: a map in hash-indexed registers with a collision table (CoFilter §III-C);
//! - [`meter`]: meter states to meter arrays and `meter.execute` to `execute_meter`
//!   (v1model) or `Meter.execute` (TNA);
//! - [`server_meter`]: `--server-rate`, the meter on server-bound packets;
//! - [`dispatch`]: `P4Options::dispatch`, pre picking a cluster's server (hash, groups,
//!   Bloom filters, pins);
//! - [`transfer`]: the transfer header — its manifest layout, packing and unpacking;
//! - [`ingress`]: the ingress `apply` block (unpack or pre, pack, post, fate) and the
//!   architecture's intrinsic fields;
//! - [`headers`]: header types, field access, parser and deparser;
//! - [`program`]: the whole program in the architecture's shell (`V1Switch` or TNA's
//!   `Pipeline`/`Switch`).

mod alpm;
mod digest;
mod dispatch;
mod fold;
pub mod fold_mem;
pub use dispatch::with_server_field;
pub use fold::{FoldCut, FOLD_MARK, NF_GRESSES};
pub(crate) use program::{ctor, tna_deparser_params, tna_egress_params};
mod hashed;
mod headers;
mod hits;
mod ingress;
mod inst;
mod meter;
mod miss;
mod pool;
mod program;
mod server_meter;
mod sketch;
mod state;
mod transfer;

use std::collections::HashMap;

use tandem_ir::{Inst, InstKind, StateId, Value, ValueDef};
use tandem_p4_syntax::{Expr, Program};
use tandem_partition::Partition;

use crate::build::*;
use crate::manifest::{self, Manifest};
use crate::view::View;
use crate::walk::structure_partition;
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
    /// The count-min sketch counting the lookup (partial maps).
    sketch: Option<sketch::Sketch>,
    /// The map is held in hash-indexed registers: `table` names the lookup's prefix.
    hashed: Option<hashed::HashedLookup>,
    /// The map is held as ALPM: `table` is the bucket table, behind this pivot table.
    alpm: Option<alpm::AlpmLookup>,
    /// The map is held as key digests: `table` is the digest table, behind this conflict
    /// table.
    digest: Option<digest::DigestLookup>,
    /// The lookup reads a table shared with another map (`pool`): (pool, member).
    pool: Option<(usize, usize)>,
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
    /// The meter array of each meter state on the switch.
    meters: HashMap<StateId, String>,
    manifest: Manifest,
    next_action: u32,
    next_table: u32,
    next_register: u32,
    /// The partition being lowered.
    part: Partition,
    /// Whether pre, as lowered so far, may have changed the packet or NF state (a header
    /// write, push or pop, a register write, a meter): a partial map's miss after that
    /// cannot send the packet to the server whole ([`miss`]).
    pre_effects: bool,
    /// Direct counters declared for the partial map being lowered, for its manifest entry.
    hit_counters: Vec<manifest::HitCounter>,
    /// Pooled pairs of lookups and their shared tables ([`pool`]).
    pools: Vec<pool::PoolPair>,
    /// What the lowering says about the options (pools emitted or not).
    notes: Vec<String>,
}

/// Identifiers a name from the NF may not take in the generated program: P4 keywords and the
/// names the program itself uses (state objects get an `nf_` prefix, declared headers a `_h`
/// suffix).
pub(super) const P4_RESERVED: &[&str] = &[
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

/// Lowers the plan to a program for `opts.arch` and its manifest; with `fold` (the stages
/// of one gress), the ingress block is cut into the folded gresses ([`fold`]) and the cut
/// is returned.
pub fn lower_program(
    view: &View<'_>,
    opts: &P4Options,
    fold: Option<u64>,
) -> Result<(Program, Manifest, Vec<String>, Option<FoldCut>), P4Error> {
    let plan = view.plan;
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
        transfer_header: transfer::manifest_layout(&plan.transfer_header),
        tables: Vec::new(),
        registers: Vec::new(),
        meters: Vec::new(),
        server_meter: None,
        visibility_flag: None,
        states: Vec::new(),
        dispatch: None,
        fold_port: None,
        fold_bridges: Vec::new(),
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
        meters: HashMap::new(),
        manifest,
        next_action: 0,
        next_table: 0,
        next_register: 0,
        part: Partition::Pre,
        pre_effects: false,
        hit_counters: Vec::new(),
        pools: Vec::new(),
        notes: Vec::new(),
    };
    g.meta_field("to_server", 1);
    g.meta_field("fate", 17);
    g.meta_field("ipv4_ok", 1);
    g.declare_state()?;
    g.declare_server_meter();
    g.declare_dispatch();
    let pooled = g.pool_insts();
    if let Some(budget) = fold {
        let pre = crate::walk::predicated_walk(view, Partition::Pre, &pooled)?;
        let post = crate::walk::predicated_walk(view, Partition::Post, &pooled)?;
        let (apply, cut) = g.folded_apply(pre, post, budget)?;
        let program = g.program(apply);
        return Ok((program, g.manifest, g.notes, Some(cut)));
    }
    let pre = structure_partition(view, Partition::Pre, &pooled)?;
    let post = structure_partition(view, Partition::Post, &pooled)?;
    g.part = Partition::Pre;
    let pre = g.lower_nodes(&pre)?;
    g.part = Partition::Post;
    let post = g.lower_nodes(&post)?;
    let apply = g.ingress_apply(pre, post)?;
    let program = g.program(apply);
    Ok((program, g.manifest, g.notes, None))
}

/// `meta.<n>`.
fn meta(n: &str) -> Expr {
    member(name("meta"), n)
}

/// The keys of a table matching the metadata fields `keys` (one per field of the map's key
/// layout `fields`, field `i` matched as `kind(i)`): the P4 key elements and the manifest's
/// key fields (ids from 1).
fn meta_keys(
    keys: &[String],
    fields: &[tandem_ir::LayoutField],
    kind: impl Fn(usize) -> &'static str,
) -> (Vec<tandem_p4_syntax::KeyElement>, Vec<manifest::KeyField>) {
    keys.iter()
        .zip(fields)
        .enumerate()
        .map(|(i, (k, f))| {
            (
                tandem_p4_syntax::KeyElement {
                    expr: meta(k),
                    match_kind: kind(i).into(),
                    annotations: Vec::new(),
                },
                manifest::KeyField {
                    id: i as u32 + 1,
                    name: format!("meta.{k}"),
                    field: f.name.clone(),
                    bits: f.ty.bits(),
                    match_kind: kind(i).into(),
                },
            )
        })
        .unzip()
}

/// `standard_metadata.<n>` (v1model).
fn sm(n: &str) -> Expr {
    member(name("standard_metadata"), n)
}

impl Gen<'_, '_> {
    /// The match kind of state `name`'s table keys: `lpm` for an LPM map, `ternary` and
    /// `range` for ternary and range maps (entries carry priorities), else `exact`.
    fn match_kind_of(&self, name: &str) -> &'static str {
        let m = self.view.module;
        match m
            .state_by_name(name)
            .and_then(|id| m.states[id].kind.map_match())
        {
            Some(tandem_ir::MapMatch::Lpm) => "lpm",
            Some(tandem_ir::MapMatch::Ternary) => "ternary",
            Some(tandem_ir::MapMatch::Range) => "range",
            _ => "exact",
        }
    }

    /// Whether state `name` is an LPM map whose prefix spans several key fields (emitted as
    /// a ternary table with the prefix length as the priority: a P4 `lpm` key is one field
    /// and a switch word 64 bits; `tandem_offload`'s `WideLpm` respells the entries).
    ///
    /// ```text
    /// before: state routes6: lpm_map<{k0: i64, k8: i64, k16: i64}, {v0: i32}, 4096, 2>
    ///         v9:i1, v10:i32 = map.find routes6(vni, hi, lo)
    /// after:  table routes6_0 { key = { meta.routes6_0_k0: ternary;    // VNI, mask all ones
    ///                                   meta.routes6_0_k8: ternary;    // top 64 bits
    ///                                   meta.routes6_0_k16: ternary; } // low 64 bits ... }
    ///         entry (10000, fd00:0:0:1::/124 -> r): k0 10000 &&& 0xffffff...,
    ///           k8 0xfd00000000000001 &&& 0xffff...ffff, k16 0 &&& 0xffff...fff0, priority 125
    /// ```
    fn wide_lpm(&self, name: &str) -> bool {
        let m = self.view.module;
        m.state_by_name(name)
            .and_then(|id| m.states[id].kind.lpm_fields())
            .is_some_and(|n| n > 1)
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

    /// Whether the target is TNA (else v1model).
    fn tna(&self) -> bool {
        self.opts.arch == Arch::Tna
    }

    /// An instruction the switch cannot run.
    fn unsupported(&self, inst: Inst, why: &str) -> P4Error {
        P4Error::Unsupported {
            statement: self.view.describe(inst),
            reason: why.into(),
        }
    }
}
