//! The P4 back end: a partition [`Plan`] to a P4-16 program for the v1model architecture
//! (BMv2 `simple_switch`, Tandem's own switch) or TNA (Tofino), and its [`Manifest`].
//!
//! ```text
//! let module = plan.module()?;
//! let out = tandem_p4::generate(&plan, &module, &P4Options::default())?;
//! std::fs::write("switch.p4", tandem_p4_syntax::print_program(&out.program));
//! std::fs::write("manifest.json", out.manifest.to_json());
//! ```
//!
//! # Pipeline
//! 1. [`view`]: what each partition executes (statements, recomputed values, followed
//!    branches) from the plan;
//! 2. [`walk::structure_partition`]: pre's and post's walks as nested branches;
//! 3. `lower`: headers (Ethernet, the transfer header, IPv4, TCP, UDP), parser, ingress
//!    (pre for packets from the network, post for packets back from the server and for
//!    packets that never needed it), tables for maps, registers for scalars and vectors, the
//!    atomic-update write-back tables and visibility flag, deparser; the manifest;
//! 4. [`inline::inline_single_use_values`]: single-use arithmetic folds into its reader;
//! 5. [`reuse::reuse_metadata_slots`]: values with disjoint live ranges share metadata;
//! 6. [`self_check`]: the program is printed, parsed back and checked against the target's
//!    rules ([`constraints`], docs/targets.md) and, for v1model and folded TNA programs
//!    ([`fold`]: two pipes, [`self_check_folded`]), loaded on Tandem's switch — a program a
//!    target would refuse is an internal error naming the line, never output.
//!
//! The program is built as a `tandem-p4-syntax` AST; print it with
//! [`tandem_p4_syntax::print_program`]. Pure: no I/O, deterministic; anything the switch
//! cannot express is a [`P4Error::Unsupported`] naming the statement.

mod build;
pub mod constraints;
pub mod fold;
pub mod inline;
mod lower;
pub mod manifest;
pub mod pool_order;
pub mod reuse;
pub use tandem_partition::view;
pub mod walk;

pub use lower::fold_mem;
pub use lower::{FoldCut, INGRESS, WRITE_BACK_SIZE};
pub use manifest::Manifest;

use tandem_ir::Module;
use tandem_p4_syntax::Program;
use tandem_partition::Plan;
use thiserror::Error;

/// Errors of the P4 back end.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum P4Error {
    /// The server's port is not a switch port.
    #[error("the server port {0} is not a switch port: switch ports are 9 bits (0..511)")]
    ServerPort(u16),
    /// The plan does not fit its module.
    #[error("bad plan: {0}")]
    BadPlan(String),
    /// A switch statement the architecture cannot express.
    #[error("{statement}: cannot run on the switch: {reason}")]
    Unsupported {
        /// `sN `text``.
        statement: String,
        /// Why.
        reason: String,
    },
    /// A switch partition's walk revisits a block.
    #[error("{partition}: the switch walk loops at {block}")]
    Loop {
        /// Partition.
        partition: String,
        /// Block.
        block: String,
    },
    /// Tail duplication grew too large.
    #[error("{0}: the structured walk exceeds {max} nodes", max = walk::MAX_NODES)]
    TooLarge(String),
    /// The generated program breaks a rule of its target (an internal error: the generator
    /// must never emit it).
    #[error("internal error: the generated {arch} program is not accepted by its target: switch.p4:{line}: {detail}\n    {source_line}")]
    SelfCheck {
        /// `v1model` or `tna`.
        arch: String,
        /// Line in the printed program (0 when unknown).
        line: u32,
        /// That line's text.
        source_line: String,
        /// The rule and what breaks it.
        detail: String,
    },
    /// A bad `--server-rate` (P4E01).
    #[error("P4E01 --server-rate {0}")]
    ServerRate(String),
    /// An architecture this back end does not generate.
    #[error("architecture `{0}` is not supported (supported: v1model, tna)")]
    Arch(String),
    /// A bad cluster dispatch shape (P4E02).
    #[error("P4E02 cluster dispatch: {0}")]
    Dispatch(String),
}

/// Target architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    /// `v1model.p4` (BMv2 simple_switch, tandem-switch).
    V1Model,
    /// `tna.p4` (Tofino Native Architecture, Tofino 1).
    Tna,
}

impl Arch {
    /// `v1model` or `tna`.
    pub fn name(self) -> &'static str {
        match self {
            Arch::V1Model => "v1model",
            Arch::Tna => "tna",
        }
    }

    /// Clears what a profile allows but this architecture cannot express, whatever the
    /// chip's resources: TNA's ingress has no frame length, so a `pkt.length()` read stays
    /// on the server (the lowering would otherwise refuse the plan).
    pub fn constrain(self, profile: &mut tandem_partition::TargetProfile) {
        if self == Arch::Tna {
            profile.frame_length = false;
        }
    }

    /// Parses `v1model` or `tna`.
    pub fn from_name(s: &str) -> Result<Arch, P4Error> {
        match s {
            "v1model" => Ok(Arch::V1Model),
            "tna" => Ok(Arch::Tna),
            other => Err(P4Error::Arch(other.into())),
        }
    }
}

/// Knobs of the P4 back end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct P4Options {
    /// Architecture.
    pub arch: Arch,
    /// The switch port the server is attached to.
    pub server_port: u16,
    /// Write-back tables and a visibility flag for replicated maps (Gallium §4.3.3).
    pub atomic_update: bool,
    /// Share metadata fields between values with disjoint live ranges ([`reuse`]).
    pub reuse_metadata: bool,
    /// Fold single-use pure values into their readers ([`inline`]).
    pub inline_values: bool,
    /// Size switch tables for at most this many entries (default: the map's capacity). A
    /// smaller switch table keeps the entries that do not fit on the server only; the
    /// runtime sends the packets that need them through the server (correct, slower).
    pub max_table_size: Option<u64>,
    /// Maps held in hash-indexed registers with a collision table instead of an exact
    /// table, with how to size them (`lower::hashed`, docs/hashed-storage.md).
    pub hashed: std::collections::BTreeMap<String, tandem_partition::hashed::HashedSpec>,
    /// LPM maps held as ALPM (a TCAM pivot table naming an SRAM bucket table), with their
    /// bucket depth (`lower::alpm`, Sailfish §4.4).
    pub alpm: std::collections::BTreeMap<String, u32>,
    /// Exact maps held as key digests: an exact table on a 32-bit `crc32` of the key behind
    /// a conflict table on the full key, with the conflict table's entries (0: sized from
    /// the map's capacity, `tandem_partition::digest::conflict_entries`) (`lower::digest`,
    /// Sailfish §4.4).
    pub digest: std::collections::BTreeMap<String, u64>,
    /// Pairs of maps, an IPv4 and an IPv6 one of the same type, whose exclusive lookups read
    /// one shared table keyed by (family tag, 128-bit address) (`lower::pool`,
    /// `tandem_partition::pool`, Sailfish §4.4).
    pub pool: Vec<(String, String)>,
    /// Pairs the partitioner chose to pool (`tandem_partition::compress::Compression::pools`):
    /// emitted where they can be (both maps plain switch tables, exclusive lookups), else
    /// left apart with a note ([`P4Output::notes`]).
    pub pool_auto: Vec<(String, String)>,
    /// A partial map's miss on the switch sends the packet to the server whole from the
    /// generated program (`lower/miss.rs`) where pre allows it; false: the runtime probes
    /// each packet for the map's server-only keys instead.
    pub partial_miss_to_server: bool,
    /// `--server-rate`: a packet-unit meter on every packet pre sends to the server; red
    /// packets are dropped at the switch and counted (`lower/server_meter.rs`). `None`:
    /// no meter, the program is unchanged.
    pub server_rate: Option<ServerRate>,
    /// Pre picks the server of a cluster and writes its id into the transfer header
    /// (`docs/cluster.md`); `None`: one server, nothing generated.
    pub dispatch: Option<DispatchShape>,
    /// The pipe-1 port of pipeline folding ([`fold`]): used when the target is TNA and the
    /// plan is for a folded profile (`tofino1:folded`).
    pub fold_port: u16,
}

/// The shape of the generated cluster dispatch (`P4Options::dispatch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DispatchShape {
    /// Bits per Bloom filter (a power of two, at most 2^20).
    pub bloom_bits: u32,
    /// Hash functions per Bloom filter (1..=8).
    pub bloom_hashes: u32,
}

impl Default for DispatchShape {
    fn default() -> Self {
        DispatchShape {
            bloom_bits: 1 << 16,
            bloom_hashes: 3,
        }
    }
}

/// Slot-table entries per group of the generated dispatch (server ids are 8 bits).
pub const DISPATCH_SLOTS: u32 = 256;

/// The rate limit of server-bound packets (`--server-rate PPS[:BURST]`): a two-rate meter
/// in packets with committed and peak rate `pps` and both bursts `burst`, so that it marks
/// only green or red.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ServerRate {
    /// Packets per second.
    pub pps: u64,
    /// Burst, packets.
    pub burst: u64,
}

impl std::str::FromStr for ServerRate {
    type Err = P4Error;

    /// `PPS` or `PPS:BURST`, both positive integers; the burst defaults to `max(PPS/10, 1)`
    /// (100 ms of traffic at the rate).
    fn from_str(s: &str) -> Result<ServerRate, P4Error> {
        let bad = |why: &str| P4Error::ServerRate(format!("`{s}`: {why}"));
        let (pps, burst) = match s.split_once(':') {
            Some((p, b)) => (p, Some(b)),
            None => (s, None),
        };
        let num = |t: &str, what: &str| -> Result<u64, P4Error> {
            match t.trim().parse::<u64>() {
                Ok(0) => Err(bad(&format!("the {what} must be at least 1"))),
                Ok(n) if n > 1 << 40 => Err(bad(&format!("the {what} must be at most 2^40"))),
                Ok(n) => Ok(n),
                Err(_) => Err(bad(&format!(
                    "the {what} must be a positive integer (PPS[:BURST], e.g. 1000:50)"
                ))),
            }
        };
        let pps = num(pps, "rate")?;
        let burst = match burst {
            Some(b) => num(b, "burst")?,
            None => (pps / 10).max(1),
        };
        Ok(ServerRate { pps, burst })
    }
}

impl Default for P4Options {
    fn default() -> Self {
        P4Options {
            arch: Arch::V1Model,
            server_port: 64,
            atomic_update: true,
            reuse_metadata: true,
            inline_values: true,
            max_table_size: None,
            hashed: std::collections::BTreeMap::new(),
            alpm: std::collections::BTreeMap::new(),
            digest: std::collections::BTreeMap::new(),
            pool: Vec::new(),
            pool_auto: Vec::new(),
            partial_miss_to_server: true,
            server_rate: None,
            dispatch: None,
            fold_port: fold::FOLD_PORT,
        }
    }
}

/// A generated switch program.
#[derive(Clone, Debug, PartialEq)]
pub struct P4Output {
    /// The program.
    pub program: Program,
    /// Its manifest.
    pub manifest: Manifest,
    /// Metadata before and after slot reuse.
    pub metadata: reuse::ReuseInfo,
    /// What the back end says about the options: the pools it emitted, and the ones the
    /// partitioner chose that it could not emit, with why; whether folding was emitted.
    pub notes: Vec<String>,
    /// Pipeline folding, when emitted: the stages per gress and what crossed each boundary.
    pub fold: Option<(lower::FoldCut, fold::FoldInfo)>,
}

/// The stages of one gress when `plan` is for a folded profile (its stage budget counts
/// two gresses: `TargetProfile::folded`), else `None`.
pub fn folded_gress_stages(plan: &Plan) -> Option<u64> {
    if !plan.target.ends_with(":folded") {
        return None;
    }
    plan.resources.stages_pre.budget.map(|b| (b / 2).max(1))
}

/// Switch ports are 9 bits on v1model (`egress_spec`) and TNA (`PortId_t`).
pub const SWITCH_PORTS: u64 = 512;

/// Generates the switch program for `plan`; `module` is `plan.module()`.
pub fn generate(plan: &Plan, module: &Module, opts: &P4Options) -> Result<P4Output, P4Error> {
    if u64::from(opts.server_port) >= SWITCH_PORTS {
        return Err(P4Error::ServerPort(opts.server_port));
    }
    let with_server;
    let plan = match &opts.dispatch {
        Some(shape) => {
            with_server = lower::with_server_field(plan, shape)?;
            &with_server
        }
        None => plan,
    };
    let view = view::View::new(module, plan)?;
    let folded = folded_gress_stages(plan);
    let fold_budget = folded.filter(|_| opts.arch == Arch::Tna);
    let (mut program, mut manifest, mut notes, cut) =
        lower::lower_program(&view, opts, fold_budget)?;
    if folded.is_some() && opts.arch == Arch::V1Model {
        notes.push(format!(
            "pipeline folding: planned ({}), not emitted: v1model is one pipe (the program \
             runs every gress's statements in its one ingress)",
            plan.target
        ));
    }
    if opts.inline_values {
        inline::inline_single_use_values(&mut program, INGRESS);
    }
    let metadata = if opts.reuse_metadata {
        reuse::reuse_metadata_slots(&mut program, INGRESS)
    } else {
        reuse::ReuseInfo::default()
    };
    let fold = match cut {
        Some(cut) => {
            let info = fold::fold_program(&mut program, &mut manifest, opts.fold_port)?;
            notes.push(fold_note(&cut, &info, opts.fold_port));
            Some((cut, info))
        }
        None => None,
    };
    let text = tandem_p4_syntax::print_program(&program);
    self_check(&text, opts.arch)?;
    if fold.is_some() {
        self_check_folded(&text, opts.fold_port)?;
    }
    Ok(P4Output {
        program,
        manifest,
        metadata,
        notes,
        fold,
    })
}

/// The self-check's error at `line` of `text`, quoting the line.
fn self_check_failure<'t>(text: &'t str, arch: &'t str) -> impl Fn(u32, String) -> P4Error + 't {
    move |line, detail| P4Error::SelfCheck {
        arch: arch.into(),
        line,
        source_line: text
            .lines()
            .nth((line as usize).wrapping_sub(1))
            .unwrap_or("")
            .trim()
            .to_string(),
        detail,
    }
}

/// A folded program also loads on Tandem's switch (its TNA binding, the fold port as a
/// loopback port), whose checker resolves every name, type and width of the four gresses.
pub fn self_check_folded(text: &str, fold_port: u16) -> Result<(), P4Error> {
    let fail = self_check_failure(text, "tna");
    let opts = tandem_switch::CompileOptions {
        loopback: tandem_switch::PortSet::of(&[fold_port]),
        ..tandem_switch::CompileOptions::default()
    };
    match tandem_switch::Switch::from_source_with(text, opts) {
        Ok(_) => Ok(()),
        Err(e) => {
            let line = match &e {
                tandem_switch::LoadError::Check(d) => d.first().map(|d| d.span.line).unwrap_or(0),
                tandem_switch::LoadError::Syntax(s) => s.span.line,
            };
            Err(fail(line, format!("[tandem-switch] {e}")))
        }
    }
}

/// The memory part of the fold note: blocks per gress and the pipe's blocks.
fn fold_memory_note(cut: &lower::FoldCut) -> String {
    let per: Vec<String> = cut
        .memory
        .iter()
        .map(|m| format!("{}/{}", m.sram, m.tcam))
        .collect();
    let pipe = match cut.pipe_memory {
        Some(p) if p.tcam == u64::MAX => format!("a pipe {} SRAM blocks", p.sram),
        Some(p) => format!("a pipe {}/{}", p.sram, p.tcam),
        None => "pipe memory unbounded".into(),
    };
    format!(
        "memory (SRAM/TCAM blocks) per gress ingress0/egress1/ingress1 {} ({pipe}; ingress0 \
         has pipe 0, egress1 + ingress1 share pipe 1){}",
        per.join(", "),
        if cut.moved_for_memory {
            "; the first cut moved earlier for ingress 0's memory"
        } else {
            ""
        }
    )
}

/// The compile note of an emitted fold: stages and memory per gress, bytes per boundary.
fn fold_note(cut: &lower::FoldCut, info: &fold::FoldInfo, port: u16) -> String {
    let stages: Vec<String> = cut.stages.iter().map(u64::to_string).collect();
    let bytes: Vec<String> = info
        .bridges
        .iter()
        .map(|b| format!("{} {} B", b.boundary, b.bytes))
        .collect();
    format!(
        "pipeline folding emitted (TNA, two pipes, loopback port {}): stages per gress \
         ingress0/egress1/ingress1 {} of {}{}; {}; egress0 runs no NF statement; bridged {}",
        port,
        stages.join("/"),
        cut.budget,
        if cut.overflow {
            " (OVER the budget: the chain does not fit three gresses)"
        } else {
            ""
        },
        fold_memory_note(cut),
        bytes.join(", ")
    )
}

impl From<view::BadPlan> for P4Error {
    fn from(e: view::BadPlan) -> Self {
        P4Error::BadPlan(e.0)
    }
}

/// Checks a printed program for `arch`: it parses, breaks none of the target's rules
/// ([`constraints::check_constraints`]) and, for v1model, loads on Tandem's switch (whose
/// checker resolves every name, type and width). The first problem is an error with its line.
pub fn self_check(text: &str, arch: Arch) -> Result<(), P4Error> {
    let fail = self_check_failure(text, arch.name());
    let program = tandem_p4_syntax::parse_program(text)
        .map_err(|e| fail(e.span.line, format!("does not parse: {e}")))?;
    if let Some(v) = constraints::check_constraints(&program, arch)
        .into_iter()
        .next()
    {
        return Err(fail(v.span.line, format!("[{}] {}", v.rule, v.detail)));
    }
    if arch == Arch::V1Model {
        if let Err(e) = tandem_switch::Switch::from_program(&program) {
            let line = match &e {
                tandem_switch::LoadError::Check(d) => d.first().map(|d| d.span.line).unwrap_or(0),
                tandem_switch::LoadError::Syntax(s) => s.span.line,
            };
            return Err(fail(line, format!("[tandem-switch] {e}")));
        }
    }
    Ok(())
}
