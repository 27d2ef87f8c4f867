//! State synchronisation between the server's primary copy and the switch (Gallium §4.3.3).
//!
//! **Atomic update.** The updates one server packet makes to replicated maps form one
//! batch. With a visibility flag in the program (`manifest.visibility_flag`), a batch is
//! published in two phases, each a sequence of ordinary control-plane writes:
//!
//! 1. *retire* the previous batch: write its entries into the main tables (they are also in
//!    the write-back tables and visible there, so packets see no change), clear the flag,
//!    delete the write-back entries;
//! 2. *stage* the new batch in the write-back tables (invisible while the flag is 0:
//!    deletions are entries whose action marks the key deleted), then set the flag: one
//!    register write makes the whole batch visible at once.
//!
//! **Output commit.** [`SyncEngine::commit`] returns only once the flag write is confirmed;
//! the runtime releases the packet that made the batch after that, so any packet sent after
//! the first reply was received sees the whole batch.
//!
//! **Failures.** Every write is retried with backoff ([`RetryPolicy`]); when the attempts run
//! out the error reaches the caller, which holds the packet — the primary copy keeps every
//! update either way. A key that does not fit into a full switch table stays *server-only*:
//! the switch does not have it, so packets that need it take the slow path
//! ([`SyncEngine::is_server_only`]); it is installed once room frees up and it is written
//! again.
//!
//! Replicated scalars and vectors live in registers; a single register write is atomic, but
//! register writes are not part of the table batch.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use tandem_ir::{Module, StateKind};
use tandem_p4::manifest::{Manifest, TableRole};
use tandem_switch::{ControlOp, KeyMatch, TableEntry};

use crate::control::{ControlFailure, ControlPlane, RetryPolicy};
use crate::primary::Primary;
use crate::OffloadError;

/// One desired change to the switch's copy of a map: the key's new value, or `None` to
/// remove it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// State index (declaration order).
    pub state: u32,
    /// Key fields.
    pub key: Vec<u64>,
    /// Value fields, or `None`.
    pub value: Option<Vec<u64>>,
}

/// Counters of the synchronisation.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SyncStats {
    /// Batches published (atomic updates).
    pub batches: u64,
    /// Map entries written in those batches.
    pub entries: u64,
    /// Batches by size: `batch_sizes[n]` batches had n entries (the last bucket: n or more).
    pub batch_sizes: Vec<u64>,
    /// Register cells written (replicated scalars and vectors).
    pub register_writes: u64,
    /// Control-plane requests sent (successful attempts).
    pub requests: u64,
    /// Attempts that failed transiently and were retried.
    pub retries: u64,
    /// Keys refused by a full switch table (kept on the server only).
    pub table_full: u64,
    /// Keys currently kept on the server only.
    pub server_only: u64,
}

const BATCH_BUCKETS: usize = 9;

/// What the switch holds of one map.
#[derive(Debug)]
struct MapSync {
    name: String,
    /// Main tables (one per copy) and their hit actions.
    main: Vec<(String, String)>,
    /// Write-back tables, their hit and their delete actions.
    wb: Vec<(String, String, Option<String>)>,
    key_fields: usize,
    value_fields: usize,
    /// Entries the main tables can hold (the smallest copy).
    size: u64,
    /// Entries the write-back tables can hold.
    wb_size: u64,
    /// What the main tables hold.
    on_main: HashMap<Vec<u64>, Vec<u64>>,
    /// What the write-back tables hold (visible while the flag is set).
    staged: HashMap<Vec<u64>, Option<Vec<u64>>>,
    server_only: HashSet<Vec<u64>>,
}

impl MapSync {
    /// The key's value as packets see it.
    fn visible(&self, key: &[u64]) -> Option<&Vec<u64>> {
        match self.staged.get(key) {
            Some(v) => v.as_ref(),
            None => self.on_main.get(key),
        }
    }

    /// Entries the main tables will hold after retiring the staged batch.
    fn occupancy_after_retire(&self) -> u64 {
        let mut n = self.on_main.len() as i64;
        for (k, v) in &self.staged {
            match (self.on_main.contains_key(k), v.is_some()) {
                (false, true) => n += 1,
                (true, false) => n -= 1,
                _ => {}
            }
        }
        n.max(0) as u64
    }
}

/// Registers holding a scalar or vector: (register name, element field index).
#[derive(Debug)]
struct RegSync {
    name: String,
    regs: Vec<(String, usize)>,
    /// Values last written, per (register, index).
    written: HashMap<(usize, u32), u64>,
}

/// Keeps the switch's copies of the NF state equal to the primary copy.
pub struct SyncEngine {
    maps: BTreeMap<u32, MapSync>,
    regs: BTreeMap<u32, RegSync>,
    /// States whose registers hold the primary copy (switch_register placement).
    switch_owned: BTreeSet<u32>,
    flag: Option<String>,
    /// Retry behaviour of every request.
    pub policy: RetryPolicy,
    stats: SyncStats,
    /// A request failed for good: what the switch holds is no longer known, so the next
    /// commit first rebuilds every switch copy from the primary copy.
    needs_resync: bool,
    /// The first install went through: from then on the switch-owned registers hold the
    /// primary copy and are never overwritten from the server's (stale) copy.
    installed: bool,
}

fn short(action: &str) -> String {
    action.rsplit('.').next().unwrap_or(action).to_string()
}

fn exact(key: &[u64]) -> Vec<KeyMatch> {
    key.iter().map(|&k| KeyMatch::Exact(k)).collect()
}

impl SyncEngine {
    /// The switch-side layout of every state from the manifest, checked against the module.
    pub fn new(module: &Module, manifest: &Manifest) -> Result<SyncEngine, OffloadError> {
        let bad = |m: String| OffloadError::Manifest(m);
        let index: HashMap<&str, u32> = module
            .states
            .iter()
            .map(|(id, o)| (o.name.as_str(), id.as_u32()))
            .collect();
        let mut maps = BTreeMap::new();
        let mut regs = BTreeMap::new();
        let mut switch_owned = BTreeSet::new();
        for sm in &manifest.states {
            let Some(&sid) = index.get(sm.name.as_str()) else {
                return Err(bad(format!(
                    "state `{}` is not in the NF's IR (manifest and plan from different compilations?)",
                    sm.name
                )));
            };
            let kind = &module.states[tandem_ir::StateId::from_u32(sid)].kind;
            if sm.placement == "switch_register" {
                switch_owned.insert(sid);
            }
            if !sm.tables.is_empty() {
                let Some((kl, vl)) = kind.map_layouts() else {
                    return Err(bad(format!(
                        "state `{}` has tables but is not a map",
                        sm.name
                    )));
                };
                let tables: Vec<_> = manifest
                    .tables
                    .iter()
                    .filter(|t| t.state == sm.name)
                    .collect();
                let main: Vec<_> = tables
                    .iter()
                    .filter(|t| t.role == TableRole::Main)
                    .collect();
                let wb: Vec<_> = tables
                    .iter()
                    .filter(|t| t.role == TableRole::WriteBack)
                    .collect();
                if main.is_empty() {
                    return Err(bad(format!("state `{}`: no main table", sm.name)));
                }
                for t in main.iter().chain(&wb) {
                    if t.keys.len() != kl.fields.len()
                        || t.hit_action.params.len() != vl.fields.len()
                    {
                        return Err(bad(format!(
                            "table `{}`: {} keys and {} action parameters, but `{}` has {} key and {} value fields",
                            t.name,
                            t.keys.len(),
                            t.hit_action.params.len(),
                            sm.name,
                            kl.fields.len(),
                            vl.fields.len()
                        )));
                    }
                }
                maps.insert(
                    sid,
                    MapSync {
                        name: sm.name.clone(),
                        main: main
                            .iter()
                            .map(|t| (t.name.clone(), short(&t.hit_action.name)))
                            .collect(),
                        wb: wb
                            .iter()
                            .map(|t| {
                                (
                                    t.name.clone(),
                                    short(&t.hit_action.name),
                                    t.delete_action.as_ref().map(|a| short(&a.name)),
                                )
                            })
                            .collect(),
                        key_fields: kl.fields.len(),
                        value_fields: vl.fields.len(),
                        size: main.iter().map(|t| t.size).min().unwrap_or(0),
                        wb_size: wb.iter().map(|t| t.size).min().unwrap_or(0),
                        on_main: HashMap::new(),
                        staged: HashMap::new(),
                        server_only: HashSet::new(),
                    },
                );
            }
            if !sm.registers.is_empty() {
                let fields: Vec<&str> = match kind {
                    StateKind::Vector { elem, .. } => {
                        elem.fields.iter().map(|f| f.name.as_str()).collect()
                    }
                    _ => vec![""],
                };
                let mut rs = Vec::new();
                for (i, name) in sm.registers.iter().enumerate() {
                    let r = manifest.registers.iter().find(|r| &r.name == name);
                    let field = match r.and_then(|r| r.field.as_deref()) {
                        Some(f) => fields.iter().position(|x| *x == f).ok_or_else(|| {
                            bad(format!(
                                "register `{name}`: `{}` has no field `{f}`",
                                sm.name
                            ))
                        })?,
                        None => i % fields.len(),
                    };
                    rs.push((name.clone(), field));
                }
                regs.insert(
                    sid,
                    RegSync {
                        name: sm.name.clone(),
                        regs: rs,
                        written: HashMap::new(),
                    },
                );
            }
        }
        Ok(SyncEngine {
            maps,
            regs,
            switch_owned,
            flag: manifest.visibility_flag.clone(),
            policy: RetryPolicy::default(),
            needs_resync: false,
            installed: false,
            stats: SyncStats {
                batch_sizes: vec![0; BATCH_BUCKETS],
                ..SyncStats::default()
            },
        })
    }

    /// Counters so far.
    pub fn stats(&self) -> SyncStats {
        let mut s = self.stats.clone();
        s.server_only = self.maps.values().map(|m| m.server_only.len() as u64).sum();
        s
    }

    /// Whether the state has a copy on the switch (tables or registers).
    pub fn on_switch(&self, state: u32) -> bool {
        self.maps.contains_key(&state) || self.regs.contains_key(&state)
    }

    /// States whose primary copy is a switch register.
    pub fn switch_owned(&self) -> &BTreeSet<u32> {
        &self.switch_owned
    }

    /// Whether any key of any map is kept on the server only.
    pub fn has_server_only(&self) -> bool {
        self.maps.values().any(|m| !m.server_only.is_empty())
    }

    /// Whether this key of this map is kept on the server only.
    pub fn is_server_only(&self, state: u32, key: &[u64]) -> bool {
        self.maps
            .get(&state)
            .is_some_and(|m| m.server_only.contains(key))
    }

    /// The value packets see for a key on the switch.
    pub fn switch_value(&self, state: u32, key: &[u64]) -> Option<Vec<u64>> {
        self.maps.get(&state)?.visible(key).cloned()
    }

    fn request(
        &mut self,
        cp: &mut dyn ControlPlane,
        ops: &[ControlOp],
    ) -> Result<(), ControlFailure> {
        if ops.is_empty() {
            return Ok(());
        }
        let policy = self.policy;
        policy.run(&mut self.stats.retries, || cp.write(ops))?;
        self.stats.requests += 1;
        Ok(())
    }

    fn write_register(
        &mut self,
        cp: &mut dyn ControlPlane,
        name: &str,
        index: u32,
        value: u64,
    ) -> Result<(), ControlFailure> {
        let policy = self.policy;
        policy.run(&mut self.stats.retries, || {
            cp.register_write(name, index, value)
        })?;
        self.stats.requests += 1;
        Ok(())
    }

    /// Reads a register cell (with retries).
    pub fn read_register(
        &mut self,
        cp: &mut dyn ControlPlane,
        name: &str,
        index: u32,
    ) -> Result<u64, ControlFailure> {
        let policy = self.policy;
        let v = policy.run(&mut self.stats.retries, || cp.register_read(name, index))?;
        self.stats.requests += 1;
        Ok(v)
    }

    /// Installs the whole primary copy (after `configure()`): map entries straight into the
    /// main tables (as many as fit), scalars and vectors into their registers.
    pub fn install(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
    ) -> Result<(), OffloadError> {
        let r = self.install_inner(cp, primary);
        self.needs_resync = r.is_err();
        self.installed |= r.is_ok();
        r
    }

    /// Whether the switch copies must be rebuilt before the next batch.
    pub fn needs_resync(&self) -> bool {
        self.needs_resync
    }

    /// Rebuilds every switch copy from the primary copy: clears the flag, the write-back
    /// and main tables, and installs everything again (as after `configure()`). Used after
    /// a request failed for good; switch-owned registers are left alone.
    pub fn resync(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
    ) -> Result<(), OffloadError> {
        self.needs_resync = true;
        if let Some(flag) = self.flag.clone() {
            self.write_register(cp, &flag, 0, 0)?;
        }
        let tables: Vec<String> = self
            .maps
            .values()
            .flat_map(|m| {
                m.wb.iter()
                    .map(|(t, _, _)| t.clone())
                    .chain(m.main.iter().map(|(t, _)| t.clone()))
            })
            .collect();
        for t in tables {
            self.request(cp, &[ControlOp::Clear { table: t }])?;
        }
        for m in self.maps.values_mut() {
            m.on_main.clear();
            m.staged.clear();
            m.server_only.clear();
        }
        for r in self.regs.values_mut() {
            r.written.clear();
        }
        self.install(cp, primary)
    }

    fn install_inner(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
    ) -> Result<(), OffloadError> {
        if let Some(flag) = self.flag.clone() {
            self.write_register(cp, &flag, 0, 0)?;
        }
        let module = primary.module();
        let dumps = primary
            .store
            .dump(module, tandem_ir::interp::DumpFormat::Canonical)
            .map_err(|e| OffloadError::State(e.to_string()))?;
        let sids: Vec<u32> = self.maps.keys().copied().collect();
        for sid in sids {
            let name = self.maps[&sid].name.clone();
            let (kl, vl) = module.states[tandem_ir::StateId::from_u32(sid)]
                .kind
                .map_layouts()
                .ok_or_else(|| OffloadError::State(format!("`{name}` is not a map")))?;
            let Some(d) = dumps.iter().find(|d| d.name == name) else {
                continue;
            };
            let mut changes = Vec::new();
            for e in &d.entries {
                changes.push(Change {
                    state: sid,
                    key: canonical_fields(&e.key, kl),
                    value: Some(canonical_fields(&e.value, vl)),
                });
            }
            self.write_main(cp, sid, &changes)?;
        }
        let rsids: Vec<u32> = self
            .regs
            .keys()
            .copied()
            .filter(|s| !(self.installed && self.switch_owned.contains(s)))
            .collect();
        for sid in rsids {
            self.sync_registers(cp, primary, sid, true)?;
        }
        Ok(())
    }

    /// Writes changes straight into the main tables of one map (no atomicity across keys or
    /// tables); keys that do not fit become server-only.
    fn write_main(
        &mut self,
        cp: &mut dyn ControlPlane,
        sid: u32,
        changes: &[Change],
    ) -> Result<(), OffloadError> {
        let m = &self.maps[&sid];
        let mut ops: Vec<Vec<ControlOp>> = vec![Vec::new(); m.main.len()];
        let mut on_main = m.on_main.clone();
        let mut server_only = m.server_only.clone();
        let mut full = 0;
        for c in changes {
            let present = on_main.contains_key(&c.key);
            match &c.value {
                Some(v) => {
                    if present && on_main.get(&c.key) == Some(v) {
                        continue;
                    }
                    if !present {
                        if on_main.len() as u64 >= m.size {
                            if server_only.insert(c.key.clone()) {
                                full += 1;
                            }
                            continue;
                        }
                        server_only.remove(&c.key);
                    }
                    for ((t, hit), o) in m.main.iter().zip(&mut ops) {
                        let entry = TableEntry {
                            matches: exact(&c.key),
                            action: hit.clone(),
                            args: v.clone(),
                            priority: None,
                        };
                        let table = t.clone();
                        o.push(if present {
                            ControlOp::Modify { table, entry }
                        } else {
                            ControlOp::Insert { table, entry }
                        });
                    }
                    on_main.insert(c.key.clone(), v.clone());
                }
                None => {
                    server_only.remove(&c.key);
                    if !present {
                        continue;
                    }
                    for ((t, _), o) in m.main.iter().zip(&mut ops) {
                        o.push(ControlOp::Delete {
                            table: t.clone(),
                            matches: exact(&c.key),
                            priority: None,
                        });
                    }
                    on_main.remove(&c.key);
                }
            }
        }
        for o in &ops {
            self.request(cp, o)?;
        }
        let m = self.maps.get_mut(&sid).expect("map present");
        m.on_main = on_main;
        m.server_only = server_only;
        self.stats.table_full += full;
        Ok(())
    }

    /// Brings the registers of a scalar or vector up to the primary copy (`all`: write every
    /// cell, else only cells whose value changed).
    fn sync_registers(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
        sid: u32,
        all: bool,
    ) -> Result<(), OffloadError> {
        let module = primary.module();
        let obj = &module.states[tandem_ir::StateId::from_u32(sid)];
        let cells: Vec<Vec<u64>> = match &obj.kind {
            StateKind::Scalar { .. } => vec![vec![primary
                .store
                .scalar_get(module, &obj.name)
                .map_err(|e| OffloadError::State(e.to_string()))?]],
            StateKind::Vector { len, .. } => (0..*len)
                .map(|i| primary.store.vec_get(module, &obj.name, i))
                .collect::<Result<_, _>>()
                .map_err(|e| OffloadError::State(e.to_string()))?,
            _ => return Ok(()),
        };
        let Some(rs) = self.regs.get(&sid) else {
            return Ok(());
        };
        let mut writes = Vec::new();
        for (ri, (reg, field)) in rs.regs.iter().enumerate() {
            for (i, cell) in cells.iter().enumerate() {
                let v = cell.get(*field).copied().unwrap_or(0);
                if all || rs.written.get(&(ri, i as u32)) != Some(&v) {
                    writes.push((ri, reg.clone(), i as u32, v));
                }
            }
        }
        for (ri, reg, i, v) in writes {
            self.write_register(cp, &reg, i, v)?;
            self.stats.register_writes += 1;
            if let Some(rs) = self.regs.get_mut(&sid) {
                rs.written.insert((ri, i), v);
            }
        }
        Ok(())
    }

    /// Publishes what a server packet changed: `maps` are the map keys it inserted or erased
    /// (per state), `others` the scalars/vectors it wrote; the values are read from the
    /// primary copy. Returns once the batch is visible on the switch (output commit).
    pub fn commit(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
        maps: &BTreeMap<u32, BTreeSet<Vec<u64>>>,
        others: &BTreeSet<u32>,
    ) -> Result<usize, OffloadError> {
        if self.needs_resync {
            // Everything, including this packet's updates, from the primary copy.
            self.resync(cp, primary)?;
            return Ok(0);
        }
        let r = self.commit_inner(cp, primary, maps, others);
        self.needs_resync = r.is_err();
        r
    }

    fn commit_inner(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
        maps: &BTreeMap<u32, BTreeSet<Vec<u64>>>,
        others: &BTreeSet<u32>,
    ) -> Result<usize, OffloadError> {
        for &sid in others {
            if self.regs.contains_key(&sid) && !self.switch_owned.contains(&sid) {
                self.sync_registers(cp, primary, sid, false)?;
            }
        }
        let mut changes = Vec::new();
        for (&sid, keys) in maps {
            let Some(m) = self.maps.get(&sid) else {
                continue;
            };
            for k in keys {
                let want = primary.map_value(sid, k);
                if m.visible(k) != want.as_ref() || m.server_only.contains(k) {
                    changes.push(Change {
                        state: sid,
                        key: k.clone(),
                        value: want,
                    });
                }
            }
        }
        self.publish(cp, &changes)
    }

    /// Publishes a batch of changes atomically (see the module docs); returns the number of
    /// entries that reached the switch.
    pub fn publish(
        &mut self,
        cp: &mut dyn ControlPlane,
        changes: &[Change],
    ) -> Result<usize, OffloadError> {
        if changes.is_empty() {
            return Ok(0);
        }
        let Some(flag) = self.flag.clone() else {
            // No write-back tables in the program: straight into the main tables.
            let mut by_state: BTreeMap<u32, Vec<Change>> = BTreeMap::new();
            for c in changes {
                by_state.entry(c.state).or_default().push(c.clone());
            }
            let mut n = 0;
            for (sid, cs) in by_state {
                let before = self.maps.get(&sid).map_or(0, |m| m.server_only.len());
                self.write_main(cp, sid, &cs)?;
                let after = self.maps.get(&sid).map_or(0, |m| m.server_only.len());
                n += cs.len().saturating_sub(after.saturating_sub(before));
            }
            self.count_batch(n);
            return Ok(n);
        };
        // 1. Retire the staged batch into the main tables.
        self.retire(cp, &flag)?;
        // 2. Stage the new batch: decide what fits, write the write-back tables.
        let mut staged: BTreeMap<u32, HashMap<Vec<u64>, Option<Vec<u64>>>> = BTreeMap::new();
        let mut full = 0;
        for c in changes {
            let Some(m) = self.maps.get_mut(&c.state) else {
                continue;
            };
            let on_switch = m.on_main.contains_key(&c.key);
            let st = staged.entry(c.state).or_default();
            match &c.value {
                Some(_) if !on_switch => {
                    let adds = st
                        .iter()
                        .filter(|(k, v)| v.is_some() && !m.on_main.contains_key(*k))
                        .count() as u64;
                    if m.on_main.len() as u64 + adds >= m.size || st.len() as u64 >= m.wb_size {
                        if m.server_only.insert(c.key.clone()) {
                            full += 1;
                        }
                        continue;
                    }
                    m.server_only.remove(&c.key);
                    st.insert(c.key.clone(), c.value.clone());
                }
                Some(_) => {
                    if st.len() as u64 >= m.wb_size {
                        // Cannot stage it: keep the stale switch entry out of the way.
                        m.server_only.insert(c.key.clone());
                        st.insert(c.key.clone(), None);
                        full += 1;
                        continue;
                    }
                    m.server_only.remove(&c.key);
                    st.insert(c.key.clone(), c.value.clone());
                }
                None => {
                    m.server_only.remove(&c.key);
                    if on_switch {
                        st.insert(c.key.clone(), None);
                    }
                }
            }
        }
        self.stats.table_full += full;
        let mut n = 0;
        for (sid, st) in &staged {
            let m = &self.maps[sid];
            let mut ops: Vec<Vec<ControlOp>> = vec![Vec::new(); m.wb.len()];
            for (k, v) in st {
                for ((t, hit, delete), o) in m.wb.iter().zip(&mut ops) {
                    let (action, args) = match v {
                        Some(v) => (hit.clone(), v.clone()),
                        None => match delete {
                            Some(d) => (d.clone(), Vec::new()),
                            None => {
                                return Err(OffloadError::Manifest(format!(
                                    "write-back table `{t}` has no delete action"
                                )))
                            }
                        },
                    };
                    o.push(ControlOp::Insert {
                        table: t.clone(),
                        entry: TableEntry {
                            matches: exact(k),
                            action,
                            args,
                            priority: None,
                        },
                    });
                }
            }
            for o in &ops {
                self.request(cp, o)?;
            }
            n += st.len();
        }
        for (sid, st) in staged {
            if let Some(m) = self.maps.get_mut(&sid) {
                m.staged = st;
            }
        }
        if n > 0 {
            // The commit point: one register write makes the batch visible.
            self.write_register(cp, &flag, 0, 1)?;
        }
        self.count_batch(n);
        Ok(n)
    }

    fn count_batch(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        self.stats.batches += 1;
        self.stats.entries += n as u64;
        self.stats.batch_sizes[n.min(BATCH_BUCKETS - 1)] += 1;
    }

    /// Merges the staged batch into the main tables and clears the write-back tables.
    fn retire(&mut self, cp: &mut dyn ControlPlane, flag: &str) -> Result<(), OffloadError> {
        let sids: Vec<u32> = self
            .maps
            .iter()
            .filter(|(_, m)| !m.staged.is_empty())
            .map(|(s, _)| *s)
            .collect();
        if sids.is_empty() {
            return Ok(());
        }
        for &sid in &sids {
            let changes: Vec<Change> = self.maps[&sid]
                .staged
                .iter()
                .map(|(k, v)| Change {
                    state: sid,
                    key: k.clone(),
                    value: v.clone(),
                })
                .collect();
            // Room was checked when the batch was staged.
            let keep = self.maps[&sid].server_only.clone();
            self.write_main(cp, sid, &changes)?;
            if let Some(m) = self.maps.get_mut(&sid) {
                m.server_only.extend(keep);
            }
        }
        self.write_register(cp, flag, 0, 0)?;
        for &sid in &sids {
            let m = &self.maps[&sid];
            let mut ops: Vec<Vec<ControlOp>> = vec![Vec::new(); m.wb.len()];
            for k in m.staged.keys() {
                for ((t, _, _), o) in m.wb.iter().zip(&mut ops) {
                    o.push(ControlOp::Delete {
                        table: t.clone(),
                        matches: exact(k),
                        priority: None,
                    });
                }
            }
            for o in &ops {
                self.request(cp, o)?;
            }
            if let Some(m) = self.maps.get_mut(&sid) {
                m.staged.clear();
            }
        }
        Ok(())
    }

    /// Entries the main tables of a map will hold once the staged batch is retired.
    pub fn occupancy(&self, state: u32) -> u64 {
        self.maps
            .get(&state)
            .map_or(0, MapSync::occupancy_after_retire)
    }

    /// Number of key and value fields of a synced map.
    pub fn map_shape(&self, state: u32) -> Option<(usize, usize)> {
        self.maps
            .get(&state)
            .map(|m| (m.key_fields, m.value_fields))
    }

    /// Reads the registers of the switch-owned states back into the primary copy (for state
    /// comparison and for server-side fallback runs).
    pub fn read_switch_owned(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &mut Primary,
    ) -> Result<(), OffloadError> {
        let owned: Vec<u32> = self.switch_owned.iter().copied().collect();
        for sid in owned {
            let Some(rs) = self.regs.get(&sid) else {
                continue;
            };
            let first: Vec<(String, usize)> = {
                let mut seen = HashSet::new();
                rs.regs
                    .iter()
                    .filter(|(_, f)| seen.insert(*f))
                    .cloned()
                    .collect()
            };
            let module = primary.module().clone();
            let obj = &module.states[tandem_ir::StateId::from_u32(sid)];
            match &obj.kind {
                StateKind::Scalar { .. } => {
                    if let Some((reg, _)) = first.first() {
                        let v = self.read_register(cp, reg, 0)?;
                        primary
                            .store
                            .scalar_set(&module, &obj.name, v)
                            .map_err(|e| OffloadError::State(e.to_string()))?;
                    }
                }
                StateKind::Vector { len, elem } => {
                    for i in 0..*len {
                        let mut e = vec![0u64; elem.fields.len()];
                        for (reg, f) in &first {
                            e[*f] = self.read_register(cp, reg, i as u32)?;
                        }
                        primary
                            .store
                            .vec_set(&module, &obj.name, i, &e)
                            .map_err(|e| OffloadError::State(e.to_string()))?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Writes switch-owned registers from the primary copy (after a server-side fallback run
    /// changed them).
    pub fn write_switch_owned(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
    ) -> Result<(), OffloadError> {
        let owned: Vec<u32> = self.switch_owned.iter().copied().collect();
        for sid in owned {
            self.sync_registers(cp, primary, sid, true)?;
        }
        Ok(())
    }

    /// The name of a synced state.
    pub fn state_name(&self, state: u32) -> Option<&str> {
        self.maps
            .get(&state)
            .map(|m| m.name.as_str())
            .or_else(|| self.regs.get(&state).map(|r| r.name.as_str()))
    }
}

/// Canonical dump bytes (hex) → one value per layout field.
fn canonical_fields(hex: &str, layout: &tandem_ir::Layout) -> Vec<u64> {
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
        .collect();
    let mut at = 0;
    layout
        .fields
        .iter()
        .map(|f| {
            let n = f.ty.bytes() as usize;
            let v = bytes
                .get(at..at + n)
                .unwrap_or(&[])
                .iter()
                .fold(0u64, |a, b| (a << 8) | u64::from(*b));
            at += n;
            v
        })
        .collect()
}
