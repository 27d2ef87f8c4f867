//! The switch object: program loading, the control API with atomic batches, and
//! per-thread packet workers.
//!
//! Concurrency model: all table state lives in one immutable [`Snapshot`] behind an
//! `ArcSwap`. A batch clones the snapshot's table list (cheap `Arc` clones), builds
//! new states for the tables it touches — new classifiers included, except for
//! exact tables, whose persistent entry store is edited path by path in
//! O(log n) per operation while sharing the rest with the old state — and publishes
//! the new snapshot with one atomic pointer swap. A packet loads the snapshot once
//! when it starts, so it sees every change of a batch or none. Control operations
//! are serialised by a mutex; packets never take it. Registers and counters are
//! per-index atomics (relaxed) shared by all workers.

use crate::ageing::AgeList;
use crate::check::Diagnostic;
use crate::exec::{Ctx, Stateful, Verdict};
use crate::meter::MeterCell;
use crate::program::{mask, Compiled, Hb, MatchKind, Phv, HB_SIZE, PHV_SLOTS};
use crate::table::{ClassifierKind, Entry, FieldMatch, Snapshot, TableState, WorkEntries};
use arc_swap::{ArcSwap, Cache};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use tandem_p4_syntax::{parse_program, Program, SyntaxError};

/// Why a program could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("syntax error at {0}")]
    Syntax(#[from] SyntaxError),
    #[error("{} error(s):\n{}", .0.len(), render(.0))]
    Check(Vec<Diagnostic>),
}

fn render(d: &[Diagnostic]) -> String {
    d.iter()
        .map(|d| format!("  {d}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Why a control-plane operation failed. A failed batch changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    #[error("unknown table `{0}`")]
    UnknownTable(String),
    #[error("table `{table}` has no action `{action}`")]
    UnknownAction { table: String, action: String },
    #[error("table `{table}`: action `{action}` takes {want} argument(s), {got} given")]
    ArgCount {
        table: String,
        action: String,
        want: usize,
        got: usize,
    },
    #[error("table `{table}`: value {value:#x} does not fit in {width} bits")]
    TooWide {
        table: String,
        value: u64,
        width: u32,
    },
    #[error("table `{table}`: {message}")]
    BadKey { table: String, message: String },
    #[error("table `{0}`: an entry with this key already exists")]
    Duplicate(String),
    #[error("table `{0}`: no entry with this key")]
    NotFound(String),
    #[error("table `{table}` is full ({size} entries)")]
    Full { table: String, size: u64 },
    #[error("table `{0}` has const entries or a const default action")]
    Const(String),
    #[error("unknown register, counter or meter `{0}`")]
    UnknownRegister(String),
    #[error("`{name}`: index {index} out of range (size {size})")]
    IndexOutOfRange { name: String, index: u32, size: u32 },
    #[error("table `{0}` has no direct counter (`counters = <direct_counter>`)")]
    NoDirectCounter(String),
    #[error("table `{0}` cannot age: the program does not declare `support_timeout = true` (v1model) or `idle_timeout = true` (TNA)")]
    NoAgeing(String),
    #[error("table `{0}` does not age (no `configure_ageing` names it)")]
    NotAgeing(String),
    #[error("table `{0}` already has entries: configure its ageing before inserting")]
    AgeingTooLate(String),
}

/// How one key field of an entry matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyMatch {
    Exact(u64),
    /// value, prefix length
    Lpm(u64, u32),
    /// value, mask
    Ternary(u64, u64),
    /// low, high (inclusive)
    Range(u64, u64),
    /// wildcard (ternary mask 0 / optional "don't care" / lpm /0)
    Any,
}

/// A direct counter cell's (packets, bytes).
pub type Counts = (u64, u64);

/// A table entry as the control plane sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableEntry {
    pub matches: Vec<KeyMatch>,
    pub action: String,
    pub args: Vec<u64>,
    /// Needed for tables with ternary/range/optional keys (higher wins); ignored
    /// otherwise (lpm: longest prefix wins).
    pub priority: Option<i64>,
}

/// One control-plane operation; see [`Switch::apply_batch`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControlOp {
    Insert {
        table: String,
        entry: TableEntry,
    },
    /// Replaces the action of the entry with the same key (and priority).
    Modify {
        table: String,
        entry: TableEntry,
    },
    Delete {
        table: String,
        matches: Vec<KeyMatch>,
        priority: Option<i64>,
    },
    SetDefault {
        table: String,
        action: String,
        args: Vec<u64>,
    },
    Clear {
        table: String,
    },
}

/// Description of a table (for code generators, CLIs and tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableInfo {
    /// qualified `Control.table`
    pub name: String,
    /// (key expression, match kind, width)
    pub keys: Vec<(String, MatchKind, u32)>,
    /// (action name, parameter widths)
    pub actions: Vec<(String, Vec<u32>)>,
    pub size: u64,
}

/// A table being edited by a batch: entries, default action, default arguments.
type WorkTable = (WorkEntries, u32, Box<[u64]>);

struct Inner {
    prog: Compiled,
    /// compiled blocks (engine `Native`)
    native: Option<crate::native::NativeProgram>,
    /// test only: compiled tables get wrong action arguments (`FAULT_TABLE_ARGS`)
    table_fault: bool,
    snap: Arc<ArcSwap<Snapshot>>,
    state: Stateful,
    ctl: Mutex<()>,
    table_index: HashMap<String, u32>,
    /// Age groups of tables that age (`crate::ageing`).
    ageing: Mutex<crate::ageing::Ageing>,
    /// The latest packet time seen (ns): where a new entry's idle time starts.
    clock_ns: std::sync::atomic::AtomicU64,
    /// TNA: ports whose egress output re-enters ingress (`crate::tna`)
    loopback: crate::tna::PortSet,
    /// TNA: packets dropped for looping more than `MAX_INGRESS_PASSES` times
    loop_drops: std::sync::atomic::AtomicU64,
}

/// A loaded program plus its tables, registers and counters. Cheap to clone;
/// `Send + Sync`; share it between control and packet threads.
#[derive(Clone)]
pub struct Switch {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Switch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Switch")
            .field("tables", &self.inner.prog.tables.len())
            .field("slots", &self.inner.prog.nslots)
            .finish()
    }
}

fn has_priority(keys: &[(MatchKind, u32)]) -> bool {
    keys.iter().any(|k| {
        matches!(
            k.0,
            MatchKind::Ternary | MatchKind::Range | MatchKind::Optional
        )
    })
}

/// Which engine runs the packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// The interpreter over the flat code (the reference).
    Interp,
    /// Machine code from Cranelift, block by block; a block the code generator does not
    /// handle runs interpreted ([`Switch::engine_report`] says which). The default.
    #[default]
    Native,
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Engine, String> {
        match s {
            "interp" | "interpreter" => Ok(Engine::Interp),
            "native" => Ok(Engine::Native),
            _ => Err(format!("unknown engine `{s}` (native, interp)")),
        }
    }
}

/// How a program is compiled for the switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompileOptions {
    /// Run the optimisation passes (dead stores, forward substitution,
    /// expression simplification). Programs behave the same either way; off
    /// is for differential tests and measurements.
    pub optimize: bool,
    /// The engine that runs packets.
    pub engine: Engine,
    /// Test only: a deliberately wrong native code-generation rule (the negative controls
    /// of the native-vs-interpreter differential test): [`FAULT_ADD`] compiles `+` as `-`,
    /// [`FAULT_TABLE_ARGS`] gives compiled table entries their action arguments plus one,
    /// [`FAULT_CSUM`] makes inline checksums one more than the right sum.
    #[doc(hidden)]
    pub native_fault: u8,
    /// TNA programs: ports whose packets leave egress back into ingress (the fold port
    /// of a folded program; `crate::tna`). Ignored by v1model programs.
    pub loopback: crate::tna::PortSet,
}

impl CompileOptions {
    /// The default options with engine `engine`.
    pub fn with_engine(engine: Engine) -> CompileOptions {
        CompileOptions {
            engine,
            ..CompileOptions::default()
        }
    }
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            optimize: true,
            engine: Engine::default(),
            native_fault: 0,
            loopback: crate::tna::PortSet::default(),
        }
    }
}

#[doc(hidden)]
pub const FAULT_ADD: u8 = 1;
#[doc(hidden)]
pub const FAULT_TABLE_ARGS: u8 = 2;
#[doc(hidden)]
pub const FAULT_CSUM: u8 = 4;

impl Switch {
    /// Parses, checks and compiles a v1model P4-16 program.
    pub fn from_source(src: &str) -> Result<Switch, LoadError> {
        Switch::from_source_with(src, CompileOptions::default())
    }

    /// [`Switch::from_source`] with explicit compile options.
    pub fn from_source_with(src: &str, opts: CompileOptions) -> Result<Switch, LoadError> {
        let p = parse_program(src)?;
        Switch::from_program_with(&p, opts)
    }

    /// Checks and compiles an already-parsed program (e.g. from the P4 back end).
    pub fn from_program(p: &Program) -> Result<Switch, LoadError> {
        Switch::from_program_with(p, CompileOptions::default())
    }

    /// [`Switch::from_program`] with explicit compile options.
    pub fn from_program_with(p: &Program, opts: CompileOptions) -> Result<Switch, LoadError> {
        let checked = crate::pipeline::compile(p, opts.optimize).map_err(LoadError::Check)?;
        let prog = checked.compiled;
        let mut tables = Vec::new();
        for (t, entries) in prog.tables.iter().zip(checked.initial_entries) {
            let kinds: Vec<(MatchKind, u32)> = t.keys.iter().map(|k| (k.kind, k.width)).collect();
            tables.push(Arc::new(TableState::build(
                &kinds,
                entries,
                t.default_action.0,
                t.default_action.1.clone().into(),
            )));
        }
        let mut table_index = HashMap::new();
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for t in &prog.tables {
            *counts.entry(t.name.as_str()).or_default() += 1;
        }
        for (i, t) in prog.tables.iter().enumerate() {
            table_index.insert(t.qualified.clone(), i as u32);
            if counts.get(t.name.as_str()) == Some(&1) {
                table_index.insert(t.name.clone(), i as u32);
            }
        }
        let state = Stateful::new(&prog);
        let native = (opts.engine == Engine::Native).then(|| {
            crate::native::NativeProgram::compile(
                &prog,
                &state,
                opts.native_fault & (FAULT_ADD | FAULT_CSUM),
            )
        });
        let all: Vec<u32> = (0..tables.len() as u32).collect();
        let table_fault = opts.native_fault & FAULT_TABLE_ARGS != 0;
        let snap = with_lookups(
            &prog,
            native.is_some(),
            table_fault,
            Snapshot::of(tables),
            &all,
        );
        Ok(Switch {
            inner: Arc::new(Inner {
                native,
                table_fault,
                snap: Arc::new(ArcSwap::from_pointee(snap)),
                prog,
                state,
                ctl: Mutex::new(()),
                table_index,
                ageing: Mutex::default(),
                clock_ns: std::sync::atomic::AtomicU64::new(0),
                loopback: opts.loopback,
                loop_drops: std::sync::atomic::AtomicU64::new(0),
            }),
        })
    }

    /// A packet-processing worker (one per thread).
    pub fn worker(&self) -> Worker {
        Worker {
            sw: self.clone(),
            cache: Cache::new(self.inner.snap.clone()),
            phv: Box::new([0; PHV_SLOTS]),
            hb: Box::new([0; HB_SIZE + 8]),
            extracted: Vec::with_capacity(64),
            emitted: Vec::with_capacity(64),
            out: Vec::with_capacity(2048),
            scratch: Vec::with_capacity(256),
            stack: Box::new([0; 64]),
            rt: Box::new(crate::native::Rt::empty()),
            frame: Vec::new(),
        }
    }

    /// TNA: packets dropped because they looped back into ingress more than
    /// [`crate::tna::MAX_INGRESS_PASSES`] times.
    pub fn loop_drops(&self) -> u64 {
        self.inner.loop_drops.load(Ordering::Relaxed)
    }

    /// The number of pipes of a TNA program (0 for v1model).
    pub fn pipe_count(&self) -> usize {
        self.inner.prog.pipes.len()
    }

    /// All tables, in declaration order.
    pub fn tables(&self) -> Vec<TableInfo> {
        let p = &self.inner.prog;
        p.tables
            .iter()
            .map(|t| TableInfo {
                name: t.qualified.clone(),
                keys: t
                    .keys
                    .iter()
                    .map(|k| (k.name.clone(), k.kind, k.width))
                    .collect(),
                actions: t
                    .actions
                    .iter()
                    .map(|&a| {
                        let a = &p.actions[a as usize];
                        (a.name.clone(), a.params.iter().map(|x| x.1).collect())
                    })
                    .collect(),
                size: t.size,
            })
            .collect()
    }

    fn table_id(&self, name: &str) -> Result<u32, ControlError> {
        self.inner
            .table_index
            .get(name)
            .copied()
            .ok_or_else(|| ControlError::UnknownTable(name.to_string()))
    }

    /// The classifier a table currently uses.
    pub fn classifier(&self, table: &str) -> Result<ClassifierKind, ControlError> {
        let t = self.table_id(table)?;
        Ok(self.inner.snap.load().tables[t as usize].kind())
    }

    /// Current entries of a table.
    pub fn entries(&self, table: &str) -> Result<Vec<TableEntry>, ControlError> {
        Ok(self
            .entries_with_hits(table)?
            .into_iter()
            .map(|(e, _)| e)
            .collect())
    }

    /// Current entries of a table with their direct counter cells, (packets, bytes) —
    /// `None` when the table has no direct counter (`counters = <direct_counter>`). One
    /// snapshot: the entries and counts of one moment (P4Runtime: reading the
    /// `DirectCounterEntry`s of a table).
    pub fn direct_counters(&self, table: &str) -> Result<Vec<(TableEntry, Counts)>, ControlError> {
        let t = self.table_id(table)?;
        if self.inner.prog.tables[t as usize].direct_counter.is_none() {
            return Err(ControlError::NoDirectCounter(table.into()));
        }
        Ok(self
            .entries_with_hits(table)?
            .into_iter()
            .map(|(e, h)| (e, h.unwrap_or_default()))
            .collect())
    }

    fn entries_with_hits(
        &self,
        table: &str,
    ) -> Result<Vec<(TableEntry, Option<Counts>)>, ControlError> {
        let t = self.table_id(table)?;
        let p = &self.inner.prog;
        let def = &p.tables[t as usize];
        let snap = self.inner.snap.load();
        let prio = has_priority(
            &def.keys
                .iter()
                .map(|k| (k.kind, k.width))
                .collect::<Vec<_>>(),
        );
        Ok(snap.tables[t as usize]
            .entries()
            .into_iter()
            .map(|e| {
                let te = TableEntry {
                    matches: e
                        .fields
                        .iter()
                        .zip(&def.keys)
                        .map(|(f, k)| field_to_match(f, k.kind, k.width))
                        .collect(),
                    action: p.actions[e.action as usize].name.clone(),
                    args: e.args.to_vec(),
                    priority: prio.then_some(e.priority),
                };
                (te, e.hits.read())
            })
            .collect())
    }

    pub fn insert(&self, table: &str, entry: TableEntry) -> Result<(), ControlError> {
        self.apply_batch(&[ControlOp::Insert {
            table: table.into(),
            entry,
        }])
    }

    pub fn modify(&self, table: &str, entry: TableEntry) -> Result<(), ControlError> {
        self.apply_batch(&[ControlOp::Modify {
            table: table.into(),
            entry,
        }])
    }

    pub fn delete(
        &self,
        table: &str,
        matches: Vec<KeyMatch>,
        priority: Option<i64>,
    ) -> Result<(), ControlError> {
        self.apply_batch(&[ControlOp::Delete {
            table: table.into(),
            matches,
            priority,
        }])
    }

    pub fn set_default(
        &self,
        table: &str,
        action: &str,
        args: Vec<u64>,
    ) -> Result<(), ControlError> {
        self.apply_batch(&[ControlOp::SetDefault {
            table: table.into(),
            action: action.into(),
            args,
        }])
    }

    /// Applies `ops` atomically: either all succeed and become visible to packets
    /// at one instant, or an error is returned and nothing changes.
    pub fn apply_batch(&self, ops: &[ControlOp]) -> Result<(), ControlError> {
        self.apply_batch_at(ops).map_err(|(_, e)| e)
    }

    /// [`Switch::apply_batch`], naming the operation that failed by its index in `ops` (an
    /// entries file reports it by line).
    pub fn apply_batch_at(&self, ops: &[ControlOp]) -> Result<(), (usize, ControlError)> {
        let _g = self
            .inner
            .ctl
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let cur = self.inner.snap.load_full();
        // working copies of touched tables: (entries, default action, default args)
        let mut work: HashMap<u32, WorkTable> = HashMap::new();
        for (i, op) in ops.iter().enumerate() {
            let name = match op {
                ControlOp::Insert { table, .. }
                | ControlOp::Modify { table, .. }
                | ControlOp::Delete { table, .. }
                | ControlOp::SetDefault { table, .. }
                | ControlOp::Clear { table } => table,
            };
            let t = self.table_id(name).map_err(|e| (i, e))?;
            let w = work.entry(t).or_insert_with(|| {
                let s = &cur.tables[t as usize];
                (s.work_entries(), s.default_action, s.default_args.clone())
            });
            self.apply_op(t, name, op, w).map_err(|e| (i, e))?;
        }
        let mut next = Snapshot::clone(&cur);
        let mut touched = Vec::new();
        for (t, (entries, da, dargs)) in work {
            let def = &self.inner.prog.tables[t as usize];
            let kinds: Vec<(MatchKind, u32)> = def.keys.iter().map(|k| (k.kind, k.width)).collect();
            next.tables[t as usize] = Arc::new(TableState::finish(&kinds, entries, da, dargs));
            touched.push(t);
        }
        // the touched tables' code, built beside the old; one swap publishes all of it
        let next = with_lookups(
            &self.inner.prog,
            self.inner.native.is_some(),
            self.inner.table_fault,
            next,
            &touched,
        );
        self.inner.snap.store(Arc::new(next));
        Ok(())
    }

    fn resolve_action(
        &self,
        t: u32,
        tname: &str,
        action: &str,
        args: &[u64],
    ) -> Result<u32, ControlError> {
        let p = &self.inner.prog;
        let def = &p.tables[t as usize];
        let a = def
            .actions
            .iter()
            .copied()
            .find(|&a| {
                let n = &p.actions[a as usize].name;
                n == action || action.rsplit('.').next() == Some(n.as_str())
            })
            .ok_or_else(|| ControlError::UnknownAction {
                table: tname.into(),
                action: action.into(),
            })?;
        let params = &p.actions[a as usize].params;
        if params.len() != args.len() {
            return Err(ControlError::ArgCount {
                table: tname.into(),
                action: action.into(),
                want: params.len(),
                got: args.len(),
            });
        }
        for (v, (_, w)) in args.iter().zip(params) {
            if *v & !mask(*w) != 0 {
                return Err(ControlError::TooWide {
                    table: tname.into(),
                    value: *v,
                    width: *w,
                });
            }
        }
        Ok(a)
    }

    fn to_fields(
        &self,
        t: u32,
        tname: &str,
        matches: &[KeyMatch],
        priority: Option<i64>,
    ) -> Result<(Box<[FieldMatch]>, i64), ControlError> {
        let def = &self.inner.prog.tables[t as usize];
        let bad = |m: String| ControlError::BadKey {
            table: tname.into(),
            message: m,
        };
        if matches.len() != def.keys.len() {
            return Err(bad(format!(
                "{} key field(s) expected, {} given",
                def.keys.len(),
                matches.len()
            )));
        }
        let mut fields = Vec::new();
        let mut prefix = 0i64;
        for (m, k) in matches.iter().zip(&def.keys) {
            let full = mask(k.width);
            let fits = |v: u64| {
                if v & !full != 0 {
                    Err(ControlError::TooWide {
                        table: tname.into(),
                        value: v,
                        width: k.width,
                    })
                } else {
                    Ok(())
                }
            };
            let exact = |v: u64| FieldMatch {
                value: v,
                mask: full,
                lo: 0,
                hi: full,
            };
            let any = FieldMatch {
                value: 0,
                mask: 0,
                lo: 0,
                hi: full,
            };
            let f = match (k.kind, *m) {
                (MatchKind::Lpm, KeyMatch::Exact(v)) => {
                    fits(v)?;
                    prefix = k.width as i64;
                    exact(v)
                }
                (MatchKind::Lpm, KeyMatch::Lpm(v, len)) => {
                    fits(v)?;
                    if len > k.width {
                        return Err(bad(format!("prefix length {len} > {}", k.width)));
                    }
                    prefix = len as i64;
                    let pm = if len == 0 {
                        0
                    } else {
                        full & !mask(k.width - len)
                    };
                    FieldMatch {
                        value: v & pm,
                        mask: pm,
                        lo: 0,
                        hi: full,
                    }
                }
                (MatchKind::Lpm | MatchKind::Ternary | MatchKind::Optional, KeyMatch::Any) => any,
                (_, KeyMatch::Exact(v)) => {
                    fits(v)?;
                    if k.kind == MatchKind::Range {
                        FieldMatch {
                            value: 0,
                            mask: 0,
                            lo: v,
                            hi: v,
                        }
                    } else {
                        exact(v)
                    }
                }
                (MatchKind::Ternary, KeyMatch::Ternary(v, msk)) => {
                    fits(v)?;
                    fits(msk)?;
                    FieldMatch {
                        value: v & msk,
                        mask: msk,
                        lo: 0,
                        hi: full,
                    }
                }
                (MatchKind::Range, KeyMatch::Range(lo, hi)) => {
                    fits(lo)?;
                    fits(hi)?;
                    if lo > hi {
                        return Err(bad(format!("empty range {lo}..{hi}")));
                    }
                    FieldMatch {
                        value: 0,
                        mask: 0,
                        lo,
                        hi,
                    }
                }
                (MatchKind::Range, KeyMatch::Any) => any,
                (kind, m) => {
                    return Err(bad(format!(
                        "`{}` is a {kind:?} key; {m:?} does not apply",
                        k.name
                    )))
                }
            };
            fields.push(f);
        }
        let kinds: Vec<(MatchKind, u32)> = def.keys.iter().map(|k| (k.kind, k.width)).collect();
        let prio = if has_priority(&kinds) {
            priority.unwrap_or(0)
        } else {
            prefix
        };
        Ok((fields.into(), prio))
    }

    fn apply_op(
        &self,
        t: u32,
        tname: &str,
        op: &ControlOp,
        w: &mut WorkTable,
    ) -> Result<(), ControlError> {
        let def = &self.inner.prog.tables[t as usize];
        match op {
            ControlOp::Insert { entry, .. } | ControlOp::Modify { entry, .. } => {
                if def.const_entries {
                    return Err(ControlError::Const(tname.into()));
                }
                let a = self.resolve_action(t, tname, &entry.action, &entry.args)?;
                let (fields, prio) = self.to_fields(t, tname, &entry.matches, entry.priority)?;
                if let ControlOp::Insert { .. } = op {
                    if w.0.contains(&fields, prio) {
                        return Err(ControlError::Duplicate(tname.into()));
                    }
                    if w.0.len() as u64 >= def.size {
                        return Err(ControlError::Full {
                            table: tname.into(),
                            size: def.size,
                        });
                    }
                    let age = self.age_of(t, &fields);
                    w.0.push(Entry {
                        fields,
                        priority: prio,
                        action: a,
                        args: entry.args.clone().into(),
                        hits: crate::table::Hits::new(def.direct_counter.is_some()),
                        age,
                    });
                } else if !w.0.modify(&fields, prio, a, entry.args.clone().into()) {
                    return Err(ControlError::NotFound(tname.into()));
                }
            }
            ControlOp::Delete {
                matches, priority, ..
            } => {
                if def.const_entries {
                    return Err(ControlError::Const(tname.into()));
                }
                let (fields, prio) = self.to_fields(t, tname, matches, *priority)?;
                if !w.0.remove(&fields, prio) {
                    return Err(ControlError::NotFound(tname.into()));
                }
            }
            ControlOp::SetDefault { action, args, .. } => {
                if def.const_default {
                    return Err(ControlError::Const(tname.into()));
                }
                let a = self.resolve_action(t, tname, action, args)?;
                w.1 = a;
                w.2 = args.clone().into();
            }
            ControlOp::Clear { .. } => {
                if def.const_entries {
                    return Err(ControlError::Const(tname.into()));
                }
                w.0.clear();
            }
        }
        Ok(())
    }

    /// The age cell a new entry of table `t` takes (none when the table does not age).
    fn age_of(&self, t: u32, fields: &[crate::table::FieldMatch]) -> crate::ageing::Age {
        let mut a = self
            .inner
            .ageing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(&g) = a.of_table.get(&t) else {
            return crate::ageing::Age(None);
        };
        let key: Vec<u64> = fields.iter().map(|f| f.value).collect();
        let now = self
            .inner
            .clock_ns
            .load(std::sync::atomic::Ordering::Relaxed);
        crate::ageing::Age(Some(a.groups[g].cell(&key, now)))
    }

    /// Makes `tables` one age group with idle timeout `timeout_ns` (see `crate::ageing`):
    /// entries inserted from now on miss once idle for longer than that (packet time), and
    /// a hit on any of the tables keeps the key alive in all of them (the copies of one map).
    /// Each table's program must declare ageing, and must still be empty.
    pub fn configure_ageing(&self, tables: &[&str], timeout_ns: u64) -> Result<(), ControlError> {
        let _g = self
            .inner
            .ctl
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let snap = self.inner.snap.load();
        let mut ids = Vec::new();
        for name in tables {
            let t = self.table_id(name)?;
            if !self.inner.prog.tables[t as usize].ageing {
                return Err(ControlError::NoAgeing((*name).into()));
            }
            if !snap.tables[t as usize].entries().is_empty() {
                return Err(ControlError::AgeingTooLate((*name).into()));
            }
            ids.push(t);
        }
        let mut a = self
            .inner
            .ageing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let g = a.groups.len();
        a.groups.push(crate::ageing::AgeGroup::new(timeout_ns));
        for t in ids {
            a.of_table.insert(t, g);
        }
        Ok(())
    }

    fn age_group(&self, table: &str) -> Result<usize, ControlError> {
        let t = self.table_id(table)?;
        let a = self
            .inner
            .ageing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        a.of_table
            .get(&t)
            .copied()
            .ok_or_else(|| ControlError::NotAgeing(table.into()))
    }

    /// Sets the last-hit time (ns) of keys (one value per key field) in `table`'s age
    /// group — of entries present and of entries inserted later.
    pub fn set_ages(&self, table: &str, ages: &[(Vec<u64>, u64)]) -> Result<(), ControlError> {
        let g = self.age_group(table)?;
        let mut a = self
            .inner
            .ageing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for (k, t) in ages {
            a.groups[g].set(k, *t);
        }
        Ok(())
    }

    /// The keys of `table`'s age group hit since the last call, with their last-hit times
    /// (the hit-state poll of a hardware table).
    pub fn read_ages(&self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlError> {
        let g = self.age_group(table)?;
        let a = self
            .inner
            .ageing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Ok(a.groups[g].drain())
    }

    /// [`Switch::read_ages`] into a reusable list (cleared first).
    pub fn read_ages_into(&self, table: &str, out: &mut AgeList) -> Result<(), ControlError> {
        let g = self.age_group(table)?;
        let a = self
            .inner
            .ageing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        a.groups[g].drain_into(out);
        Ok(())
    }

    /// [`Switch::set_ages`] from a packed list.
    pub fn set_ages_list(&self, table: &str, ages: &AgeList) -> Result<(), ControlError> {
        let g = self.age_group(table)?;
        let mut a = self
            .inner
            .ageing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for (k, t) in ages.iter() {
            a.groups[g].set(k, t);
        }
        Ok(())
    }

    /// A handle on `table`'s age group that reads one key's last hit, or drains the hit
    /// list, without naming the table again: what a server that pulls ages lazily (only
    /// for the keys it looks up) keeps ([`AgeReader`]).
    pub fn age_reader(&self, table: &str) -> Result<AgeReader, ControlError> {
        Ok(AgeReader {
            sw: self.clone(),
            group: self.age_group(table)?,
        })
    }

    /// The last-hit time (ns) of `key` in `table`'s age group, if it has one.
    pub fn age_of_key(&self, table: &str, key: &[u64]) -> Result<Option<u64>, ControlError> {
        let g = self.age_group(table)?;
        let a = self
            .inner
            .ageing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Ok(a.groups[g].last(key))
    }

    fn register(&self, name: &str) -> Result<usize, ControlError> {
        find_named(self.inner.prog.registers.iter().map(|r| &r.name), name)
    }

    fn counter(&self, name: &str) -> Result<usize, ControlError> {
        find_named(self.inner.prog.counters.iter().map(|c| &c.name), name)
    }

    /// Reads one register cell.
    pub fn register_read(&self, name: &str, index: u32) -> Result<u64, ControlError> {
        let r = self.register(name)?;
        let cells = &self.inner.state.registers[r];
        cells
            .get(index as usize)
            .map(|a| a.load(Ordering::Relaxed))
            .ok_or(ControlError::IndexOutOfRange {
                name: name.into(),
                index,
                size: cells.len() as u32,
            })
    }

    /// Writes one register cell (value truncated to the register's width).
    pub fn register_write(&self, name: &str, index: u32, value: u64) -> Result<(), ControlError> {
        let r = self.register(name)?;
        let w = self.inner.prog.registers[r].width;
        let cells = &self.inner.state.registers[r];
        cells
            .get(index as usize)
            .map(|a| a.store(value & mask(w), Ordering::Relaxed))
            .ok_or(ControlError::IndexOutOfRange {
                name: name.into(),
                index,
                size: cells.len() as u32,
            })
    }

    /// Reads one counter cell: (packets, bytes).
    pub fn counter_read(&self, name: &str, index: u32) -> Result<(u64, u64), ControlError> {
        let c = self.counter(name)?;
        let cells = &self.inner.state.counters[c];
        cells
            .get(index as usize)
            .map(|(p, b)| (p.load(Ordering::Relaxed), b.load(Ordering::Relaxed)))
            .ok_or(ControlError::IndexOutOfRange {
                name: name.into(),
                index,
                size: cells.len() as u32,
            })
    }

    fn meter(&self, name: &str) -> Result<usize, ControlError> {
        find_named(self.inner.prog.meters.iter().map(|m| &m.name), name)
    }

    fn meter_index(&self, name: &str, index: u32) -> Result<usize, ControlError> {
        let m = self.meter(name)?;
        let size = self.inner.state.meters[m].size;
        if index >= size {
            return Err(ControlError::IndexOutOfRange {
                name: name.into(),
                index,
                size,
            });
        }
        Ok(m)
    }

    /// Reads one meter: its rates and bursts, bucket levels and last refill time (an
    /// all-zero cell for a meter never configured).
    pub fn meter_read(&self, name: &str, index: u32) -> Result<MeterCell, ControlError> {
        let m = self.meter_index(name, index)?;
        Ok(self.inner.state.meters[m].read(index))
    }

    /// Writes one meter whole: configuration and state. [`MeterCell::with_rates`] is what a
    /// P4Runtime `MeterEntry` sets (full buckets); an all-zero cell unconfigures it.
    pub fn meter_write(&self, name: &str, index: u32, cell: MeterCell) -> Result<(), ControlError> {
        let m = self.meter_index(name, index)?;
        self.inner.state.meters[m].write(index, cell);
        Ok(())
    }

    /// Failed `assert`/`assume` calls so far: (source line of the call, packets on which it
    /// failed), for the sites that failed at least once. A failing packet is dropped.
    pub fn assert_failures(&self) -> Vec<(u32, u64)> {
        let p = &self.inner.prog;
        let Some(c) = p
            .counters
            .iter()
            .position(|c| c.name == crate::program::ASSERT_COUNTER)
        else {
            return Vec::new();
        };
        let cells = &self.inner.state.counters[c];
        p.asserts
            .iter()
            .zip(cells.iter())
            .map(|(&line, (pkts, _))| (line, pkts.load(Ordering::Relaxed)))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// The program's register arrays: (name, size, cell width in bits).
    pub fn registers(&self) -> Vec<(String, u32, u32)> {
        self.inner
            .prog
            .registers
            .iter()
            .map(|r| (r.name.clone(), r.size, r.width))
            .collect()
    }

    /// The program's meters: (qualified name, size, counts bytes).
    pub fn meters(&self) -> Vec<(String, u32, bool)> {
        self.inner
            .prog
            .meters
            .iter()
            .map(|m| (m.name.clone(), m.size, m.bytes))
            .collect()
    }

    /// A readable summary of the compiled program (headers, states, tables, ...) and of
    /// how each block runs.
    pub fn describe(&self) -> String {
        let mut s = self.inner.prog.describe();
        match &self.inner.native {
            Some(n) => s.push_str(&n.describe()),
            None => s.push_str("engine: interpreter\n"),
        }
        s
    }

    /// The engine packets run on.
    pub fn engine(&self) -> Engine {
        if self.inner.native.is_some() {
            Engine::Native
        } else {
            Engine::Interp
        }
    }

    /// How each pipeline block runs (`parser`, `verify`, `ingress`, `egress`, `compute`,
    /// `deparser`); empty with the interpreter engine.
    pub fn engine_report(&self) -> Vec<(&'static str, crate::native::BlockStatus)> {
        self.inner
            .native
            .as_ref()
            .map(|n| n.report.clone())
            .unwrap_or_default()
    }

    /// The compiled program (tests of the passes that read it).
    #[cfg(test)]
    pub(crate) fn compiled(&self) -> &crate::program::Compiled {
        &self.inner.prog
    }

    /// Number of PHV slots (a measure of program size).
    pub fn slot_count(&self) -> usize {
        self.inner.prog.nslots
    }
}

/// `snap` with the compiled lookups of tables `touched` rebuilt for their new states (the
/// native engine: a table whose lookup is a short list gets its own code; any other has
/// none and uses its classifier).
fn with_lookups(
    prog: &Compiled,
    native: bool,
    fault: bool,
    mut snap: Snapshot,
    touched: &[u32],
) -> Snapshot {
    if !native {
        return snap;
    }
    let mut lookups = snap.lookups.to_vec();
    for &t in touched {
        let Some(ts) = snap.tables.get(t as usize) else {
            continue;
        };
        let code = crate::native::compile_table(prog, t, ts, fault);
        if let (Some(l), Some(c)) = (
            lookups.get_mut(t as usize),
            snap.lookup_code.get_mut(t as usize),
        ) {
            *l = code.as_ref().map_or(0, |c| c.entry as usize);
            *c = code.map(|c| Arc::new(c) as Arc<dyn std::any::Any + Send + Sync>);
        }
    }
    snap.lookups = lookups.into();
    snap
}

/// The position of the register, counter or meter called `name`: its qualified name, or
/// its last component when that is unique.
fn find_named<'a>(
    names: impl Iterator<Item = &'a String> + Clone,
    name: &str,
) -> Result<usize, ControlError> {
    names
        .clone()
        .position(|n| n == name)
        .or_else(|| {
            let m: Vec<usize> = names
                .enumerate()
                .filter(|(_, n)| n.rsplit('.').next() == Some(name))
                .map(|(i, _)| i)
                .collect();
            (m.len() == 1).then(|| m[0])
        })
        .ok_or_else(|| ControlError::UnknownRegister(name.into()))
}

fn field_to_match(f: &FieldMatch, kind: MatchKind, width: u32) -> KeyMatch {
    let full = mask(width);
    match kind {
        MatchKind::Exact => KeyMatch::Exact(f.value),
        MatchKind::Lpm => {
            if f.mask == 0 {
                KeyMatch::Any
            } else {
                KeyMatch::Lpm(f.value, f.mask.count_ones())
            }
        }
        MatchKind::Ternary | MatchKind::Optional => {
            if f.mask == 0 {
                KeyMatch::Any
            } else if f.mask == full && kind == MatchKind::Optional {
                KeyMatch::Exact(f.value)
            } else {
                KeyMatch::Ternary(f.value, f.mask)
            }
        }
        MatchKind::Range => KeyMatch::Range(f.lo, f.hi),
    }
}

/// Processes packets on one thread. Holds all per-packet scratch space, so
/// [`Worker::process`] allocates nothing in the steady state.
pub struct Worker {
    sw: Switch,
    cache: Cache<Arc<ArcSwap<Snapshot>>, Arc<Snapshot>>,
    phv: Box<Phv>,
    hb: Box<Hb>,
    extracted: Vec<u32>,
    emitted: Vec<u32>,
    out: Vec<u8>,
    scratch: Vec<u8>,
    stack: Box<[u32; 64]>,
    /// compiled code's run-time block (reused, not rebuilt per packet)
    rt: Box<crate::native::Rt>,
    /// TNA: the frame between passes
    frame: Vec<u8>,
}

impl Worker {
    /// Runs one packet that arrived on `port` through the pipeline, at time 0. Returns the
    /// egress port and the output frame, or `None` if the packet was dropped.
    /// Never panics on any input.
    pub fn process(&mut self, port: u32, pkt: &[u8]) -> Option<(u32, &[u8])> {
        self.process_at(port, pkt, 0)
    }

    /// [`Worker::process`] for a packet that arrived at `ts_ns` (its trace time, in ns):
    /// `standard_metadata.ingress_global_timestamp` and `egress_global_timestamp` are that
    /// time in microseconds, 48 bits wide, as BMv2 counts.
    pub fn process_at(&mut self, port: u32, pkt: &[u8], ts_ns: u64) -> Option<(u32, &[u8])> {
        if !self.sw.inner.prog.pipes.is_empty() {
            return self.process_tna(port, pkt, ts_ns);
        }
        let Worker {
            sw,
            cache,
            phv,
            hb,
            extracted,
            emitted,
            out,
            scratch,
            stack,
            rt,
            frame: _,
        } = self;
        let snap: &Snapshot = cache.load();
        let clock = &sw.inner.clock_ns;
        if ts_ns > clock.load(std::sync::atomic::Ordering::Relaxed) {
            clock.store(ts_ns, std::sync::atomic::Ordering::Relaxed);
        }
        let mut ctx = Ctx {
            prog: &sw.inner.prog,
            snap,
            state: &sw.inner.state,
            phv,
            pkt,
            hb,
            extracted,
            emitted,
            in_place: false,
            cursor: 0,
            out,
            scratch,
            stack,
            now_ns: ts_ns,
            native: sw.inner.native.as_ref(),
            rt: std::ptr::NonNull::from(&mut **rt),
        };
        let verdict = ctx.run_pipeline(port, ts_ns);
        let in_place = ctx.in_place;
        match verdict {
            Verdict::Drop => None,
            Verdict::Forward(p) if in_place => {
                let p0 = self.sw.inner.prog.scratch_size;
                self.hb.get(p0..p0 + pkt.len()).map(|d| (p, d))
            }
            Verdict::Forward(p) => Some((p, &self.out[..])),
        }
    }

    /// [`Worker::process_at`] for a TNA program: ingress and egress passes through the
    /// traffic manager and loopback ports (`crate::tna`).
    fn process_tna(&mut self, port: u32, pkt: &[u8], ts_ns: u64) -> Option<(u32, &[u8])> {
        use crate::tna::{after_egress, pipe_of, Next};
        let sw = self.sw.clone();
        let inner = &sw.inner;
        let clock = &inner.clock_ns;
        if ts_ns > clock.load(Ordering::Relaxed) {
            clock.store(ts_ns, Ordering::Relaxed);
        }
        self.frame.clear();
        self.frame.extend_from_slice(pkt);
        let mut port = port;
        let mut passes = 0;
        loop {
            passes += 1;
            let pipe = pipe_of(&inner.prog, port)?;
            let out = self.tna_pass(pipe.ingress, port, ts_ns)?;
            let egress = if out.drop || out.bypass {
                None
            } else {
                let epipe = pipe_of(&inner.prog, out.egress_port)?;
                Some(self.tna_pass(epipe.egress, out.egress_port, ts_ns)?)
            };
            match after_egress(out, egress, &inner.loopback, passes) {
                Next::Drop => return None,
                Next::Looped => {
                    inner.loop_drops.fetch_add(1, Ordering::Relaxed);
                    return None;
                }
                Next::Loop(p) => port = p,
                Next::Out(p) => return Some((p, &self.frame[..])),
            }
        }
    }

    /// One TNA pass over `self.frame`, whose output replaces it.
    fn tna_pass(&mut self, pass: usize, port: u32, ts_ns: u64) -> Option<crate::tna::PassOut> {
        let snap: &Snapshot = self.cache.load();
        let mut ctx = Ctx {
            prog: &self.sw.inner.prog,
            snap,
            state: &self.sw.inner.state,
            phv: &mut self.phv,
            pkt: &self.frame,
            hb: &mut self.hb,
            extracted: &mut self.extracted,
            emitted: &mut self.emitted,
            in_place: false,
            cursor: 0,
            out: &mut self.out,
            scratch: &mut self.scratch,
            stack: &mut self.stack,
            now_ns: ts_ns,
            native: self.sw.inner.native.as_ref(),
            rt: std::ptr::NonNull::from(&mut *self.rt),
        };
        let r = ctx.run_pass(pass, port, ts_ns)?;
        if ctx.in_place {
            let p0 = self.sw.inner.prog.scratch_size;
            let n = self.frame.len();
            let hb = self.hb.get(p0..p0 + n)?;
            self.frame.copy_from_slice(hb);
        } else {
            std::mem::swap(&mut self.frame, &mut self.out);
        }
        Some(r)
    }

    /// The switch this worker belongs to.
    pub fn switch(&self) -> &Switch {
        &self.sw
    }
}

/// One age group of a [`Switch`], by index ([`Switch::age_reader`]): the last hit of one
/// key ([`AgeReader::last`]: one lock, one hash look-up) and the hit-state poll
/// ([`AgeReader::drain_into`], as [`Switch::read_ages_into`]).
#[derive(Clone)]
pub struct AgeReader {
    sw: Switch,
    group: usize,
}

impl std::fmt::Debug for AgeReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgeReader")
            .field("group", &self.group)
            .finish()
    }
}

impl AgeReader {
    /// The last-hit time (ns) of `key`, if it has a cell.
    pub fn last(&self, key: &[u64]) -> Option<u64> {
        let a = self
            .sw
            .inner
            .ageing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        a.groups.get(self.group)?.last(key)
    }

    /// The keys hit since the last poll, with their last-hit times, into `out` (cleared
    /// first).
    pub fn drain_into(&self, out: &mut AgeList) {
        let a = self
            .sw
            .inner
            .ageing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match a.groups.get(self.group) {
            Some(g) => g.drain_into(out),
            None => out.clear(),
        }
    }
}
