//! State synchronisation between the server's primary copy and the switch (Gallium §4.3.3).
//!
//! **Atomic update.** The updates one server packet makes to replicated maps form one
//! batch. With a visibility flag in the program (`manifest.visibility_flag`), a batch is
//! published in two phases, each a sequence of ordinary control-plane writes:
//!
//! 1. *retire* the previous batch: write its entries into the main tables (they are also in
//!    the write-back tables and visible there, so packets see no change), clear the flag;
//! 2. *stage* the new batch: one write request per write-back table deletes the previous
//!    batch's entries and writes the new ones (invisible while the flag is 0: deletions are
//!    entries whose action marks the key deleted), then set the flag: one register write
//!    makes the whole batch visible at once.
//!
//! So a batch takes one request per main table, the flag write 0, one request per write-back
//! table and the flag write 1: four requests for a map with one copy of each table.
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

//!
//! **Cost.** A server packet's batch is built without copying any table: the primary copy
//! reports exactly the keys and cells the packet wrote ([`Touched`]), each is compared with
//! what the switch shows (each key looked up once in the primary copy and once in the
//! mirror of the switch), and the control-plane requests are composed in reusable buffers in
//! compact form ([`ExactBatch`]: table and action indices, keys and arguments packed in one
//! word buffer); the staged batch is a packed word buffer too, so a steady-state batch
//! allocates nothing.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashSet};

use tandem_ir::hash::{FxHashMap, FxHashSet};
use tandem_ir::words::Words;
use tandem_ir::{MapMatch, Module, StateId, StateKind};
use tandem_p4::manifest::{Manifest, TableRole};
use tandem_switch::ControlOp;

use crate::control::{ControlFailure, ControlPlane, ExactBatch, RetryPolicy};
use crate::meters::MeterSync;
use crate::primary::{Primary, Touched};
use crate::OffloadError;

mod alpm;
mod digest;
mod hashed;
mod migrate;
mod partial;
mod staging;

pub use migrate::MirrorEntry;

use staging::*;

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
    /// Maps in hash-indexed registers: keys in their cells now, and how many of them through
    /// a collision-table entry (absent from the JSON when no map is hashed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hashed: Option<HashedStats>,
}

/// Occupancy of the maps in hash-indexed registers (summed over the maps).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct HashedStats {
    /// Keys in register cells.
    pub keys: u64,
    /// Of those, keys placed through a collision-table entry.
    pub collisions: u64,
}

const BATCH_BUCKETS: usize = 9;

/// Entries reserved ahead of time per map (the primary copy and the mirror of the switch's
/// tables): up to the table's size, at most this many.
pub const RESERVE: u64 = 1 << 16;

/// Keeps the switch's copies of the NF state equal to the primary copy.
pub struct SyncEngine {
    maps: Maps,
    regs: BTreeMap<u32, RegSync>,
    /// Meter arrays on the switch ([`crate::meters`]).
    meters: BTreeMap<u32, MeterSync>,
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
    /// Buffers: touched keys that differ from the switch ([`Pending`]).
    pending: Vec<PendingKey>,
    pending_vals: Vec<u64>,
    /// Buffer: a vector element.
    cell: Vec<u64>,
}

fn short(action: &str) -> String {
    action.rsplit('.').next().unwrap_or(action).to_string()
}

/// One write request, retried by `policy`.
fn send(
    policy: &RetryPolicy,
    stats: &mut SyncStats,
    cp: &mut dyn ControlPlane,
    ops: &[ControlOp],
) -> Result<(), ControlFailure> {
    if ops.is_empty() {
        return Ok(());
    }
    policy.run(&mut stats.retries, || cp.write(ops))?;
    stats.requests += 1;
    Ok(())
}

/// One write request in compact form, retried by `policy`.
fn send_exact(
    policy: &RetryPolicy,
    stats: &mut SyncStats,
    cp: &mut dyn ControlPlane,
    batch: &ExactBatch<'_>,
) -> Result<(), ControlFailure> {
    if batch.ops.is_empty() {
        return Ok(());
    }
    policy.run(&mut stats.retries, || cp.write_exact(batch))?;
    stats.requests += 1;
    Ok(())
}

/// One register write, retried by `policy`.
fn send_register(
    policy: &RetryPolicy,
    stats: &mut SyncStats,
    cp: &mut dyn ControlPlane,
    name: &str,
    index: u32,
    value: u64,
) -> Result<(), ControlFailure> {
    policy.run(&mut stats.retries, || cp.register_write(name, index, value))?;
    stats.requests += 1;
    Ok(())
}

impl SyncEngine {
    /// The switch-side layout of every state from the manifest, checked against the module.
    pub fn new(module: &Module, manifest: &Manifest) -> Result<SyncEngine, OffloadError> {
        let bad = |m: String| OffloadError::Manifest(m);
        let index: std::collections::HashMap<&str, u32> = module
            .states
            .iter()
            .map(|(id, o)| (o.name.as_str(), id.as_u32()))
            .collect();
        let mut maps = BTreeMap::new();
        let mut regs = BTreeMap::new();
        let mut meters = BTreeMap::new();
        let mut switch_owned = BTreeSet::new();
        for sm in &manifest.states {
            let Some(&sid) = index.get(sm.name.as_str()) else {
                return Err(bad(format!(
                    "state `{}` is not in the NF's IR (manifest and plan from different compilations?)",
                    sm.name
                )));
            };
            let kind = &module.states[StateId::from_u32(sid)].kind;
            if sm.placement == "switch_register" {
                switch_owned.insert(sid);
            }
            if let Some(m) = sm.meters.first() {
                if !matches!(kind, StateKind::Meter { .. }) {
                    return Err(bad(format!(
                        "state `{}` has a meter array but is not a meter",
                        sm.name
                    )));
                }
                meters.insert(sid, MeterSync::new(m.clone()));
            }
            if !sm.tables.is_empty()
                || sm.hashed.is_some()
                || sm.alpm.is_some()
                || sm.digest.is_some()
                || sm.pool.is_some()
            {
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
                let hashed = match &sm.hashed {
                    None => None,
                    Some(h) => {
                        let col = tables
                            .iter()
                            .find(|t| t.role == TableRole::Collision && t.name == h.collision_table)
                            .ok_or_else(|| {
                                bad(format!(
                                    "state `{}`: no collision table `{}`",
                                    sm.name, h.collision_table
                                ))
                            })?;
                        Some(hashed::HashedSync::new(
                            &sm.name,
                            h,
                            short(&col.hit_action.name),
                            kl.fields.iter().map(|f| f.ty.bits()).collect(),
                            vl.fields.iter().map(|f| f.ty.bits()).collect(),
                            hashed::expiring_original(module, sid),
                        )?)
                    }
                };
                let alpm = match &sm.alpm {
                    None => None,
                    Some(a) => Some(alpm::AlpmSync::new(
                        &sm.name,
                        a,
                        |n| {
                            tables
                                .iter()
                                .find(|t| {
                                    t.name == n
                                        && matches!(
                                            t.role,
                                            TableRole::AlpmPivot | TableRole::AlpmBucket
                                        )
                                })
                                .map(|t| short(&t.hit_action.name))
                        },
                        kl.fields.iter().map(|f| f.ty.bits()).collect(),
                        vl.fields.len(),
                    )?),
                };
                let alpm_size = sm.alpm.as_ref().map(|a| {
                    tables
                        .iter()
                        .filter(|t| a.bucket_tables.contains(&t.name))
                        .map(|t| t.size)
                        .min()
                        .unwrap_or(0)
                });
                let digest = match &sm.digest {
                    None => None,
                    Some(d) => Some(digest::DigestSync::new(
                        &sm.name,
                        d,
                        |n| {
                            tables
                                .iter()
                                .find(|t| {
                                    t.name == n
                                        && matches!(
                                            t.role,
                                            TableRole::DigestConflict | TableRole::Digest
                                        )
                                })
                                .map(|t| (short(&t.hit_action.name), t.size))
                        },
                        kl.fields.iter().map(|f| f.ty.bits()).collect(),
                    )?),
                };
                let digest_size = sm.digest.as_ref().map(|d| {
                    tables
                        .iter()
                        .filter(|t| d.digest_tables.contains(&t.name))
                        .map(|t| t.size)
                        .min()
                        .unwrap_or(0)
                });
                let pooled = pooled_tables(module, manifest, sm)?;
                if main.is_empty()
                    && hashed.is_none()
                    && alpm.is_none()
                    && digest.is_none()
                    && pooled.is_empty()
                {
                    return Err(bad(format!("state `{}`: no main table", sm.name)));
                }
                // An LPM map's tables match their last key `lpm` (entries are prefixes) and
                // the others `exact`, a ternary map's keys `ternary`, a range map's `range`.
                let matching = kind.map_match().unwrap_or(MapMatch::Exact);
                let want = match matching {
                    MapMatch::Exact => "exact",
                    MapMatch::Lpm => "lpm",
                    MapMatch::Ternary => "ternary",
                    MapMatch::Range => "range",
                };
                // An LPM map whose prefix spans several fields: every key `ternary`.
                let wide = match tandem_ir::interp::LpmShape::of(kind) {
                    Some(shape) if shape.words > 1 => {
                        let n = kl.fields.len().saturating_sub(shape.words as usize);
                        Some(staging::WideLpm {
                            exact_masks: kl.fields[..n]
                                .iter()
                                .map(|f| tandem_ir::interp::prefix_mask(f.ty.bits(), 64))
                                .collect(),
                            shape,
                        })
                    }
                    _ => None,
                };
                let want = if wide.is_some() { "ternary" } else { want };
                let want_at = |i: usize, n: usize| {
                    if matching == MapMatch::Lpm && wide.is_none() && i + 1 < n {
                        "exact"
                    } else {
                        want
                    }
                };
                let buf = |t: &str, acts: Vec<String>| match &wide {
                    Some(w) => OpBuf::wide_lpm(t, acts, w.clone()),
                    None => OpBuf::new(t, acts, matching),
                };
                if main.iter().chain(&wb).any(|t| {
                    t.keys
                        .iter()
                        .enumerate()
                        .any(|(i, k)| k.match_kind != want_at(i, t.keys.len()))
                }) {
                    return Err(bad(format!(
                        "state `{}` is a {} but its tables are not matched `{want}`",
                        sm.name,
                        kind.keyword()
                    )));
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
                            .chain(
                                pooled
                                    .iter()
                                    .map(|(t, _)| (t.name.clone(), short(&t.hit_action.name))),
                            )
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
                        matching,
                        key_fields: kl.fields.len(),
                        value_fields: vl.fields.len(),
                        size: match (&sm.hashed, alpm_size.or(digest_size)) {
                            (Some(h), _) => u64::from(h.ways) * h.slots_per_way,
                            (None, Some(n)) => n,
                            (None, None) => main
                                .iter()
                                .copied()
                                .chain(pooled.iter().map(|(t, _)| t))
                                .map(|t| t.size)
                                .min()
                                .unwrap_or(0),
                        },
                        wb_size: wb.iter().map(|t| t.size).min().unwrap_or(0),
                        // Room for what the tables can hold (up to a bound), so that
                        // inserts do not grow the mirror while packets are processed.
                        on_main: FxHashMap::with_capacity_and_hasher(
                            main.iter().map(|t| t.size).min().unwrap_or(0).min(RESERVE) as usize,
                            Default::default(),
                        ),
                        staged: Staged::default(),
                        staged_adds: 0,
                        server_only: FxHashSet::default(),
                        miss_to_server: sm.partial.as_ref().is_some_and(|p| p.miss_to_server),
                        main_ops: main
                            .iter()
                            .map(|t| buf(&t.name, vec![short(&t.hit_action.name)]))
                            .chain(pooled.iter().map(|(t, (shape, family))| {
                                OpBuf::pooled(
                                    &t.name,
                                    vec![short(&t.hit_action.name)],
                                    shape.clone(),
                                    *family,
                                )
                            }))
                            .collect(),
                        wb_ops: wb
                            .iter()
                            .map(|t| {
                                let mut acts = vec![short(&t.hit_action.name)];
                                acts.extend(t.delete_action.as_ref().map(|a| short(&a.name)));
                                buf(&t.name, acts)
                            })
                            .collect(),
                        hashed,
                        alpm,
                        digest,
                    },
                );
            }
            if !sm.registers.is_empty() && sm.hashed.is_none() {
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
                        written: FxHashMap::default(),
                    },
                );
            }
        }
        Ok(SyncEngine {
            maps: Maps::from_sorted(maps),
            regs,
            meters,
            switch_owned,
            flag: manifest.visibility_flag.clone(),
            policy: RetryPolicy::default(),
            needs_resync: false,
            installed: false,
            stats: SyncStats {
                batch_sizes: vec![0; BATCH_BUCKETS],
                ..SyncStats::default()
            },
            pending: Vec::new(),
            pending_vals: Vec::new(),
            cell: Vec::new(),
        })
    }

    /// Counters so far.
    pub fn stats(&self) -> SyncStats {
        let mut s = self.stats.clone();
        s.server_only = self.maps.values().map(|m| m.server_only.len() as u64).sum();
        for h in self.maps.values().filter_map(|m| m.hashed.as_ref()) {
            let a = h.stats();
            let t = s.hashed.get_or_insert_with(HashedStats::default);
            t.keys += a.keys;
            t.collisions += a.collisions;
        }
        s
    }

    /// Whether the state has a copy on the switch (tables or registers).
    pub fn on_switch(&self, state: u32) -> bool {
        self.maps.contains_key(&state)
            || self.regs.contains_key(&state)
            || self.meters.contains_key(&state)
    }

    /// States whose primary copy is on the switch (registers, meters).
    pub fn switch_owned(&self) -> &BTreeSet<u32> {
        &self.switch_owned
    }

    /// Whether any key of any map is kept on the server only where the runtime must probe
    /// packets for it (not a partial map whose misses the switch sends to the server).
    pub fn has_server_only(&self) -> bool {
        self.maps
            .values()
            .any(|m| !m.miss_to_server && !m.server_only.is_empty())
    }

    /// Whether the switch program sends a miss of `state` to the server whole (a partial
    /// map, manifest `miss_to_server`): its server-only keys need no probe.
    pub fn sends_misses(&self, state: u32) -> bool {
        self.maps.get(&state).is_some_and(|m| m.miss_to_server)
    }

    /// Whether this key of this map is kept on the server only. For an LPM, ternary or range
    /// map (`key` is the looked-up key) any entry kept on the server only may be the best
    /// match, so every lookup counts as server-only while one is.
    pub fn is_server_only(&self, state: u32, key: &[u64]) -> bool {
        self.maps.get(&state).is_some_and(|m| {
            if m.matching != MapMatch::Exact {
                !m.server_only.is_empty()
            } else {
                m.server_only.contains(key)
            }
        })
    }

    /// The value packets see for a key on the switch.
    pub fn switch_value(&self, state: u32, key: &[u64]) -> Option<Vec<u64>> {
        self.maps.get(&state)?.visible(key).map(<[u64]>::to_vec)
    }

    fn request(
        &mut self,
        cp: &mut dyn ControlPlane,
        ops: &[ControlOp],
    ) -> Result<(), ControlFailure> {
        send(&self.policy, &mut self.stats, cp, ops)
    }

    fn write_register(
        &mut self,
        cp: &mut dyn ControlPlane,
        name: &str,
        index: u32,
        value: u64,
    ) -> Result<(), ControlFailure> {
        send_register(&self.policy, &mut self.stats, cp, name, index, value)
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

    /// Reads the per-entry hit counters of `table` (see [`ControlPlane::direct_counters`]),
    /// with the retry policy.
    pub fn read_direct_counters(
        &mut self,
        cp: &mut dyn ControlPlane,
        table: &str,
    ) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        let policy = self.policy;
        let v = policy.run(&mut self.stats.retries, || cp.direct_counters(table))?;
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

    /// Makes the next commit rebuild every switch copy from the primary copy (a request of a
    /// partial map's rebalance failed for good: what the switch holds is not known).
    pub fn request_resync(&mut self) {
        self.needs_resync = true;
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
                    .chain(m.hashed.iter().map(|h| h.collision_table().to_string()))
                    .chain(m.alpm.iter().flat_map(|a| a.tables().map(str::to_string)))
                    .chain(m.digest.iter().flat_map(|d| d.tables().map(str::to_string)))
            })
            .collect();
        for t in tables {
            self.request(cp, &[ControlOp::Clear { table: t }])?;
        }
        for m in self.maps.values_mut() {
            if let Some(h) = m.hashed.as_mut() {
                h.reset(&self.policy, &mut self.stats, cp)?;
            }
            if let Some(a) = m.alpm.as_mut() {
                a.reset();
            }
            if let Some(d) = m.digest.as_mut() {
                d.reset();
            }
        }
        for m in self.maps.values_mut() {
            m.on_main.clear();
            m.staged.clear();
            m.staged_adds = 0;
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
            let kind = &module.states[StateId::from_u32(sid)].kind;
            let (Some((_, vl)), Some(kl)) = (kind.map_layouts(), kind.entry_key_layout()) else {
                return Err(OffloadError::State(format!("`{name}` is not a map")));
            };
            let Some(d) = dumps.iter().find(|d| d.name == name) else {
                continue;
            };
            let mut changes = Vec::new();
            for e in &d.entries {
                // The canonical dump's key is the entry's name, field by field (an LPM
                // entry's prefix and length byte; a ternary entry's key, mask and priority).
                let key = canonical_fields(&e.key, &kl);
                changes.push(Change {
                    state: sid,
                    key,
                    value: Some(canonical_fields(&e.value, vl)),
                });
            }
            self.write_main(cp, sid, changes.as_slice(), Some(primary))?;
        }
        let rsids: Vec<u32> = self
            .regs
            .keys()
            .copied()
            .filter(|s| !(self.installed && self.switch_owned.contains(s)))
            .collect();
        for sid in rsids {
            self.sync_registers(cp, primary, sid, Cells::AllForced)?;
        }
        let installed = self.installed;
        for (&sid, m) in self.meters.iter_mut() {
            if !(installed && self.switch_owned.contains(&sid)) {
                m.install(cp, &self.policy, &mut self.stats, primary, sid)?;
            }
        }
        Ok(())
    }

    /// Writes the changes of state `sid` straight into its main tables (no atomicity across
    /// keys or tables); keys that do not fit become server-only. Updates what the engine
    /// knows of the switch as it goes: on an error the caller resyncs.
    fn write_main<C: Changes + ?Sized>(
        &mut self,
        cp: &mut dyn ControlPlane,
        sid: u32,
        changes: &C,
        primary: Option<&Primary>,
    ) -> Result<(), OffloadError> {
        let Some(m) = self.maps.get_mut(&sid) else {
            return Ok(());
        };
        let MapSync {
            on_main,
            server_only,
            main_ops,
            size,
            hashed,
            alpm,
            digest,
            ..
        } = m;
        for o in main_ops.iter_mut() {
            o.clear();
        }
        let mut full = 0;
        for i in 0..changes.count() {
            let (s, key, value) = changes.get(i);
            if s != sid {
                continue;
            }
            match value {
                Some(v) => {
                    let present = match on_main.get(key) {
                        Some(old) if old.as_slice() == v => continue,
                        Some(_) => true,
                        None => false,
                    };
                    if !present {
                        if on_main.len() as u64 >= *size {
                            if !server_only.contains(key) {
                                server_only.insert(Words::new(key));
                                full += 1;
                            }
                            continue;
                        }
                        if !server_only.is_empty() {
                            server_only.remove(key);
                        }
                    }
                    if let Some(h) = hashed.as_mut() {
                        if !h.put(key, v) {
                            if !server_only.contains(key) {
                                server_only.insert(Words::new(key));
                                full += 1;
                            }
                            continue;
                        }
                    }
                    if let Some(a) = alpm.as_mut() {
                        a.put(key, v);
                    }
                    if let Some(d) = digest.as_mut() {
                        d.put(key, v)?;
                    }
                    for o in main_ops.iter_mut() {
                        o.entry(present, key, HIT, v);
                    }
                    match on_main.get_mut(key) {
                        Some(old) => old.set(v),
                        None => {
                            on_main.insert(Words::new(key), Words::new(v));
                        }
                    }
                }
                None => {
                    if !server_only.is_empty() {
                        server_only.remove(key);
                    }
                    if on_main.remove(key).is_none() {
                        continue;
                    }
                    if let Some(h) = hashed.as_mut() {
                        h.delete(key);
                    }
                    if let Some(a) = alpm.as_mut() {
                        a.delete(key);
                    }
                    if let Some(d) = digest.as_mut() {
                        d.delete(key)?;
                    }
                    for o in main_ops.iter_mut() {
                        o.delete(key);
                    }
                }
            }
        }
        self.stats.table_full += full;
        for o in m.main_ops.iter() {
            send_exact(&self.policy, &mut self.stats, cp, &o.batch())?;
        }
        if let Some(h) = m.hashed.as_mut() {
            h.flush(&self.policy, &mut self.stats, cp, primary)?;
        }
        if let Some(a) = m.alpm.as_mut() {
            a.flush(&self.policy, &mut self.stats, cp)?;
        }
        if let Some(d) = m.digest.as_mut() {
            d.flush(&self.policy, &mut self.stats, cp)?;
        }
        Ok(())
    }

    /// Brings the registers of a scalar or vector up to the primary copy.
    fn sync_registers(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
        sid: u32,
        cells: Cells,
    ) -> Result<(), OffloadError> {
        let module = primary.module();
        let id = StateId::from_u32(sid);
        let (len, fields) = match &module.states[id].kind {
            StateKind::Scalar { .. } => (1, 1),
            StateKind::Vector { len, elem } => (*len, elem.fields.len()),
            _ => return Ok(()),
        };
        let Some(rs) = self.regs.get_mut(&sid) else {
            return Ok(());
        };
        let range = match cells {
            Cells::One(i) | Cells::OneForced(i) if i < len => i..i + 1,
            Cells::One(_) | Cells::OneForced(_) => return Ok(()),
            Cells::AllForced | Cells::AllChanged => 0..len,
        };
        let all = matches!(cells, Cells::AllForced | Cells::OneForced(_));
        let cell = &mut self.cell;
        cell.resize(fields, 0);
        let read = |cell: &mut Vec<u64>, i: u64| -> Result<(), OffloadError> {
            let ok = match primary.store.scalar_at(id) {
                Some(v) => {
                    cell[0] = v;
                    true
                }
                None => primary.store.vec_get_at(id, i, cell) == Some(true),
            };
            if ok {
                Ok(())
            } else {
                Err(OffloadError::State(format!(
                    "`{}`: cannot read cell {i}",
                    module.states[id].name
                )))
            }
        };
        if range.end - range.start == 1 {
            // One cell: read it once for every register.
            read(cell, range.start)?;
            let i = range.start as u32;
            for (ri, (reg, field)) in rs.regs.iter().enumerate() {
                let v = cell.get(*field).copied().unwrap_or(0);
                if all || rs.written.get(&(ri, i)) != Some(&v) {
                    send_register(&self.policy, &mut self.stats, cp, reg, i, v)?;
                    self.stats.register_writes += 1;
                    rs.written.insert((ri, i), v);
                }
            }
            return Ok(());
        }
        let mut cells_v: Vec<Vec<u64>> = Vec::with_capacity(len as usize);
        for i in range {
            read(cell, i)?;
            cells_v.push(cell.clone());
        }
        for (ri, (reg, field)) in rs.regs.iter().enumerate() {
            for (i, c) in cells_v.iter().enumerate() {
                let v = c.get(*field).copied().unwrap_or(0);
                if all || rs.written.get(&(ri, i as u32)) != Some(&v) {
                    send_register(&self.policy, &mut self.stats, cp, reg, i as u32, v)?;
                    self.stats.register_writes += 1;
                    rs.written.insert((ri, i as u32), v);
                }
            }
        }
        Ok(())
    }

    /// Publishes what a server packet changed (`touched`: the map keys it inserted or
    /// erased, the scalars and vector cells it wrote); the values are read from the primary
    /// copy. Returns once the batch is visible on the switch (output commit).
    pub fn commit(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
        touched: &Touched,
    ) -> Result<usize, OffloadError> {
        if self.needs_resync {
            // Everything, including this packet's updates, from the primary copy.
            self.resync(cp, primary)?;
            return Ok(0);
        }
        let r = self.commit_inner(cp, primary, touched);
        self.needs_resync = r.is_err();
        r
    }

    fn commit_inner(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
        touched: &Touched,
    ) -> Result<usize, OffloadError> {
        for &(sid, cell) in touched.others() {
            if self.regs.contains_key(&sid) && !self.switch_owned.contains(&sid) {
                let cells = match cell {
                    Some(i) => Cells::One(i),
                    None => Cells::AllChanged,
                };
                self.sync_registers(cp, primary, sid, cells)?;
            }
        }
        let mut pending = std::mem::take(&mut self.pending);
        let mut vals = std::mem::take(&mut self.pending_vals);
        pending.clear();
        vals.clear();
        for (i, (sid, k)) in touched.keys().enumerate() {
            let Some(m) = self.maps.get(&sid) else {
                continue;
            };
            let v = primary.map_value_ref(sid, k);
            let (shown, on_main) = m.lookup(k);
            let differs = match (shown, v) {
                (Some(a), Some(b)) => !same_words(a, b),
                (None, None) => false,
                _ => true,
            };
            if differs || (!m.server_only.is_empty() && m.server_only.contains(k)) {
                let start = vals.len() as u32;
                let len = match v {
                    Some(v) => {
                        vals.extend_from_slice(v);
                        v.len() as u32
                    }
                    None => u32::MAX,
                };
                pending.push(PendingKey {
                    touched: i as u32,
                    start,
                    len,
                    on_main,
                });
            }
        }
        let r = self.publish_changes(
            cp,
            &Pending {
                touched,
                idx: &pending,
                vals: &vals,
            },
            Some(primary),
        );
        self.pending = pending;
        self.pending_vals = vals;
        r
    }

    /// Publishes a batch of changes atomically (see the module docs); returns the number of
    /// entries that reached the switch.
    pub fn publish(
        &mut self,
        cp: &mut dyn ControlPlane,
        changes: &[Change],
    ) -> Result<usize, OffloadError> {
        self.publish_changes(cp, changes, None)
    }

    fn publish_changes<C: Changes + ?Sized>(
        &mut self,
        cp: &mut dyn ControlPlane,
        changes: &C,
        primary: Option<&Primary>,
    ) -> Result<usize, OffloadError> {
        if changes.count() == 0 {
            return Ok(0);
        }
        let Some(flag) = self.flag.take() else {
            // No write-back tables in the program: straight into the main tables.
            let sids: BTreeSet<u32> = (0..changes.count()).map(|i| changes.get(i).0).collect();
            let mut n = 0;
            for sid in sids {
                let cs = (0..changes.count())
                    .filter(|&i| changes.get(i).0 == sid)
                    .count();
                let before = self.maps.get(&sid).map_or(0, |m| m.server_only.len());
                self.write_main(cp, sid, changes, primary)?;
                let after = self.maps.get(&sid).map_or(0, |m| m.server_only.len());
                n += cs.saturating_sub(after.saturating_sub(before));
            }
            self.count_batch(n);
            return Ok(n);
        };
        let r = self.publish_staged(cp, &flag, changes, primary);
        self.flag = Some(flag);
        r
    }

    fn publish_staged<C: Changes + ?Sized>(
        &mut self,
        cp: &mut dyn ControlPlane,
        flag: &str,
        changes: &C,
        primary: Option<&Primary>,
    ) -> Result<usize, OffloadError> {
        // 1. Retire the staged batch into the main tables.
        self.retire(cp, flag, primary)?;
        // 2. Stage the new batch: decide what fits, write the write-back tables.
        let mut full = 0;
        for i in 0..changes.count() {
            let (sid, key, value) = changes.get(i);
            let Some(m) = self.maps.get_mut(&sid) else {
                continue;
            };
            let on_switch = match changes.on_main(i) {
                Some(b) => b,
                None => m.on_main.contains_key(key),
            };
            match value {
                Some(v) if !on_switch => {
                    if m.on_main.len() as u64 + m.staged_adds >= m.size
                        || m.staged.len() as u64 >= m.wb_size
                    {
                        if !m.server_only.contains(key) {
                            m.server_only.insert(Words::new(key));
                            full += 1;
                        }
                        continue;
                    }
                    if !m.server_only.is_empty() {
                        m.server_only.remove(key);
                    }
                    m.stage(key, Some(v), false);
                }
                Some(v) => {
                    if m.staged.len() as u64 >= m.wb_size {
                        // Cannot stage it: keep the stale switch entry out of the way.
                        if !m.server_only.contains(key) {
                            m.server_only.insert(Words::new(key));
                        }
                        m.stage(key, None, true);
                        full += 1;
                        continue;
                    }
                    if !m.server_only.is_empty() {
                        m.server_only.remove(key);
                    }
                    m.stage(key, Some(v), true);
                }
                None => {
                    if !m.server_only.is_empty() {
                        m.server_only.remove(key);
                    }
                    if on_switch {
                        m.stage(key, None, true);
                    }
                }
            }
        }
        self.stats.table_full += full;
        // 3. One request per write-back table: delete the retired batch (queued by `retire`)
        // and write the new one. The flag is 0, so none of it is visible yet.
        let mut n = 0;
        for m in self.maps.values_mut() {
            let MapSync {
                wb, staged, wb_ops, ..
            } = m;
            for ((t, _, delete), o) in wb.iter().zip(wb_ops.iter_mut()) {
                for (k, v) in staged.iter() {
                    match (v, delete) {
                        (Some(v), _) => o.entry(false, k, HIT, v),
                        (None, Some(_)) => o.entry(false, k, DELETE, &[]),
                        (None, None) => {
                            return Err(OffloadError::Manifest(format!(
                                "write-back table `{t}` has no delete action"
                            )))
                        }
                    }
                }
                send_exact(&self.policy, &mut self.stats, cp, &o.batch())?;
            }
            n += staged.len();
        }
        if n > 0 {
            // The commit point: one register write makes the batch visible.
            self.write_register(cp, flag, 0, 1)?;
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

    /// Merges the staged batch into the main tables and hides the write-back tables (flag
    /// 0); queues the deletion of the write-back entries in the write-back request buffers
    /// (sent with the next batch by `publish_staged`).
    fn retire(
        &mut self,
        cp: &mut dyn ControlPlane,
        flag: &str,
        primary: Option<&Primary>,
    ) -> Result<(), OffloadError> {
        for m in self.maps.values_mut() {
            for o in m.wb_ops.iter_mut() {
                o.clear();
            }
        }
        if self.maps.values().all(|m| m.staged.is_empty()) {
            return Ok(());
        }
        let mut full = 0;
        for m in self.maps.values_mut() {
            let MapSync {
                size,
                on_main,
                staged,
                staged_adds,
                server_only,
                main_ops,
                wb_ops,
                hashed,
                alpm,
                digest,
                ..
            } = m;
            if staged.is_empty() {
                continue;
            }
            for o in main_ops.iter_mut() {
                o.clear();
            }
            *staged_adds = 0;
            for (k, v) in staged.iter() {
                for o in wb_ops.iter_mut() {
                    o.delete(k);
                }
                // Room was checked when the batch was staged; keys kept on the server only
                // stay so (a stale entry staged as deleted is one of them).
                match v {
                    Some(v) => {
                        let room = (on_main.len() as u64) < *size;
                        match on_main.entry(Words::new(k)) {
                            Entry::Occupied(mut e) => {
                                if !same_words(e.get(), v) {
                                    if let Some(h) = hashed.as_mut() {
                                        // The key keeps its slot: a cell rewrite.
                                        h.put(k, v);
                                    }
                                    if let Some(a) = alpm.as_mut() {
                                        a.put(k, v);
                                    }
                                    if let Some(d) = digest.as_mut() {
                                        d.put(k, v)?;
                                    }
                                    for o in main_ops.iter_mut() {
                                        o.entry(true, k, HIT, v);
                                    }
                                    e.get_mut().set(v);
                                }
                            }
                            Entry::Vacant(e)
                                if !room || hashed.as_mut().is_some_and(|h| !h.put(k, v)) =>
                            {
                                if server_only.insert(e.into_key()) {
                                    full += 1;
                                }
                            }
                            Entry::Vacant(e) => {
                                if let Some(a) = alpm.as_mut() {
                                    a.put(k, v);
                                }
                                if let Some(d) = digest.as_mut() {
                                    d.put(k, v)?;
                                }
                                for o in main_ops.iter_mut() {
                                    o.entry(false, k, HIT, v);
                                }
                                e.insert(Words::new(v));
                            }
                        }
                    }
                    None => {
                        if on_main.remove(k).is_some() {
                            if let Some(h) = hashed.as_mut() {
                                h.delete(k);
                            }
                            if let Some(a) = alpm.as_mut() {
                                a.delete(k);
                            }
                            if let Some(d) = digest.as_mut() {
                                d.delete(k)?;
                            }
                            for o in main_ops.iter_mut() {
                                o.delete(k);
                            }
                        }
                    }
                }
            }
            staged.clear();
            for o in main_ops.iter() {
                send_exact(&self.policy, &mut self.stats, cp, &o.batch())?;
            }
            if let Some(h) = hashed.as_mut() {
                h.flush(&self.policy, &mut self.stats, cp, primary)?;
            }
            if let Some(a) = alpm.as_mut() {
                a.flush(&self.policy, &mut self.stats, cp)?;
            }
            if let Some(d) = digest.as_mut() {
                d.flush(&self.policy, &mut self.stats, cp)?;
            }
        }
        self.stats.table_full += full;
        self.write_register(cp, flag, 0, 0)?;
        Ok(())
    }

    /// Entries the main tables of a map will hold once the staged batch is retired.
    pub fn occupancy(&self, state: u32) -> u64 {
        self.maps
            .get(&state)
            .map_or(0, MapSync::occupancy_after_retire)
    }

    /// Where each key of hashed map `state` sits on the switch, when the map records its
    /// hits' times (`crate::hashed_ageing`).
    pub fn hashed_slots(&self, state: u32) -> Option<crate::hashed_ageing::SlotIndex> {
        self.maps.get(&state)?.hashed.as_ref()?.slot_index()
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
        for (&sid, m) in self.meters.iter_mut() {
            m.read_back(cp, &self.policy, &mut self.stats, primary, sid)?;
        }
        let owned: Vec<u32> = self.switch_owned.iter().copied().collect();
        self.read_switch_owned_of(cp, primary, &owned)
    }

    /// [`SyncEngine::read_switch_owned`] for some states only (those not switch-owned are
    /// skipped): what a timer tick reads.
    pub fn read_switch_owned_of(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &mut Primary,
        states: &[u32],
    ) -> Result<(), OffloadError> {
        for &sid in states {
            if !self.switch_owned.contains(&sid) {
                continue;
            }
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
            let obj = &module.states[StateId::from_u32(sid)];
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

    /// Writes the switch-owned cells `touched` lists (a vector or scalar written as a whole:
    /// every cell) from the primary copy, changed or not: what a timer tick wrote into state
    /// the switch owns (e.g. a sketch reset). Returns the cells written.
    pub fn write_switch_owned_touched(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
        touched: &Touched,
    ) -> Result<u64, OffloadError> {
        let before = self.stats.register_writes;
        for &(sid, cell) in touched.others() {
            if !self.switch_owned.contains(&sid) {
                continue;
            }
            let cells = match cell {
                Some(i) => Cells::OneForced(i),
                None => Cells::AllForced,
            };
            self.sync_registers(cp, primary, sid, cells)?;
        }
        Ok(self.stats.register_writes - before)
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
            self.sync_registers(cp, primary, sid, Cells::AllForced)?;
        }
        for (&sid, m) in self.meters.iter_mut() {
            m.write_changed(cp, &self.policy, &mut self.stats, primary, sid)?;
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
/// The tables map `sm` shares with the other map of its pool (manifest `states[].pool`),
/// each with the pool's shape and the map's family (`tandem_partition::pool`), checked
/// against the module and the tables' keys.
#[allow(clippy::type_complexity)]
fn pooled_tables<'m>(
    module: &Module,
    manifest: &'m Manifest,
    sm: &tandem_p4::manifest::StateMap,
) -> Result<
    Vec<(
        &'m tandem_p4::manifest::Table,
        (
            tandem_partition::pool::PoolShape,
            tandem_partition::pool::Family,
        ),
    )>,
    OffloadError,
> {
    let Some(p) = &sm.pool else {
        return Ok(Vec::new());
    };
    let bad = |m: String| OffloadError::Manifest(format!("pool `{}`: {m}", sm.name));
    let kind = |n: &str| {
        module
            .state_by_name(n)
            .map(|s| &module.states[s].kind)
            .ok_or_else(|| bad(format!("`{n}` is not in the NF's IR")))
    };
    let shape = tandem_partition::pool::PoolShape::of(
        (&sm.name, kind(&sm.name)?),
        (&p.with, kind(&p.with)?),
    )
    .map_err(|e| bad(e.to_string()))?;
    let family = shape.family(0);
    let want = shape.key_bits();
    let mut out = Vec::new();
    for name in &p.tables {
        let t = manifest
            .tables
            .iter()
            .find(|t| &t.name == name && t.role == TableRole::Pooled)
            .ok_or_else(|| bad(format!("no pooled table `{name}`")))?;
        let bits: Vec<u32> = t.keys.iter().map(|k| k.bits).collect();
        if bits != want {
            return Err(bad(format!(
                "table `{name}` has keys of {bits:?} bits, the pool's key is {want:?}"
            )));
        }
        out.push((t, (shape.clone(), family)));
    }
    Ok(out)
}

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
