//! Table compression for tables larger than one pipeline's memory (Sailfish §4.4, Fig. 17):
//! the lowerings the partitioner chooses, step by step, against the target profile and the
//! table sizes the NF must hold, and the placement of the tables across pipes and gresses.
//!
//! Steps, in Sailfish's order, each kept when the profile allows it and it helps (the
//! tables are the maps the switch may hold: those `process` only reads; a map it writes
//! stays on the server):
//! 1. **pipeline folding** (`pipelines >= 2`): ingress 0 → egress 1 → ingress 1 → egress 0,
//!    so a packet's path sees two pipes' memory (half the ports carry traffic: half the
//!    throughput);
//! 2. **splitting between pipelines** (`pipelines >= 4`): the two folded paths hold
//!    different halves of each table after the first gress (entries split by a hash of the
//!    key, traffic steered to the path holding its half);
//! 3. **key digests** ([`crate::digest`]): an exact table with a key longer than 64 bits
//!    (VNI + IPv6) keyed by a 32-bit digest instead, plus a conflict table on the full key
//!    (Sailfish compresses the IPv6 key "to a 32-bit for alignment"), kept per table when it
//!    shrinks its SRAM; emitted by the P4 back end (`tandem_p4::P4Options::digest`);
//! 4. **pooling** ([`crate::pool`]): an IPv4 and an IPv6 map of one type (found by shape)
//!    become one table with a tag bit and the wider key — kept only when it does not grow
//!    memory; emitted by the P4 back end (`tandem_p4::P4Options::pool`) where the two maps'
//!    lookups are exclusive switch lookups;
//! 5. **ALPM** ([`crate::alpm`]) for every LPM table: pivots in TCAM, buckets in SRAM, with
//!    the bucket depth (a power of two, 2..=256) that makes the fuller of SRAM and TCAM the
//!    least full; kept when that beats plain LPM.
//!
//! Before (xgw at Sailfish scale on tofino1, one pipe):
//! ```text
//!   routes4  lpm    75,000 x 64-bit keys   TCAM 294 blocks (102% of 288)
//!   vm_nc4   exact 750,000 x 64+192 bits   SRAM 1,465 blocks (153% of 960)   ... does not fit
//! ```
//! After (`tandem partition xgw.cc --compress routes4=75000,...`):
//! ```text
//!   folding, splitting, key digests (vm_nc6): SRAM 50.1%, TCAM 47.4% of a folded path
//!   (pooling and ALPM tried, not kept); placement ingress 0: my6 | egress 1: routes4,
//!   vm_nc4, routes6, 99% of vm_nc6 | ingress 1: - | egress 0: 1% of vm_nc6
//!   emitted in the generated P4: key digests vm_nc6 (64 conflict entries)
//!   modelled only, NOT in the generated P4: pipeline folding, table splitting between
//!   pipelines ([`Emission`])
//! ```
//! The memory model is the partitioner's ([`crate::Plan`] resources): an exact table takes
//! `entries × (key + value bits)` of SRAM, an LPM table `ceil(entries / 512) × ceil(key bits
//! / 44)` TCAM blocks and `entries × value bits` of SRAM, an ALPM table TCAM for its pivots
//! ([`crate::alpm::pivots_bound`]) and SRAM for `pivots × depth` bucket slots of key and value
//! plus each pivot's cover value.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use tandem_ir::{EntityRef, InstKind, MapMatch, Module, StateKind};

use crate::alpm::pivots_bound;
use crate::evaluate::{TCAM_BLOCK_BITS, TCAM_BLOCK_ENTRIES};
use crate::TargetProfile;

/// What the NF's tables must hold: entries per state object (default: its capacity).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scale {
    pub entries: BTreeMap<String, u64>,
}

impl Scale {
    /// Parses `name=entries,name=entries`.
    pub fn parse(s: &str) -> Result<Scale, CompressError> {
        let mut entries = BTreeMap::new();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (name, n) = item
                .split_once('=')
                .ok_or_else(|| CompressError::Scale(format!("`{item}` is not name=entries")))?;
            let n: u64 = n.trim().replace('_', "").parse().map_err(|_| {
                CompressError::Scale(format!("`{item}`: entries must be a whole number"))
            })?;
            entries.insert(name.trim().to_string(), n);
        }
        Ok(Scale { entries })
    }
}

/// Why compression cannot be planned.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum CompressError {
    #[error("bad --compress scale: {0}")]
    Scale(String),
    #[error("`{0}` is not a map of the NF (the scale names its maps)")]
    UnknownTable(String),
    #[error("the target has unbounded memory: nothing to compress")]
    Unbounded,
}

/// One table as the memory model sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The state object(s): one, or two pooled (`routes4+routes6`).
    pub name: String,
    pub lpm: bool,
    pub key_bits: u64,
    pub value_bits: u64,
    pub entries: u64,
    /// Position of its first lookup in the NF (reverse post-order of the blocks).
    pub order: usize,
    /// ALPM bucket depth, once lowered.
    pub alpm_depth: Option<u64>,
    /// Whether ALPM can hold it: an LPM map whose prefix is one key field (a prefix over
    /// several fields, an IPv6 address, is a ternary table: `tandem_p4::lower::state`).
    pub alpm_ok: bool,
    /// Held as key digests: (entries whose key is digested, their full key bits); `key_bits`
    /// is then the digest's.
    pub digest: Option<(u64, u64)>,
}

/// Memory of one copy of a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mem {
    pub sram_blocks: u64,
    pub tcam_blocks: u64,
}

impl std::ops::Add for Mem {
    type Output = Mem;
    fn add(self, o: Mem) -> Mem {
        Mem {
            sram_blocks: self.sram_blocks + o.sram_blocks,
            tcam_blocks: self.tcam_blocks + o.tcam_blocks,
        }
    }
}

impl Table {
    /// Memory for `share` (1 = all, 2 = half) of the entries.
    pub fn mem(&self, p: &TargetProfile, share: u64) -> Mem {
        let n = self.entries.div_ceil(share.max(1));
        let sram = |bits: u64| bits.div_ceil(p.sram_block_bits);
        let tcam = |entries: u64| {
            entries.div_ceil(TCAM_BLOCK_ENTRIES) * self.key_bits.max(1).div_ceil(TCAM_BLOCK_BITS)
        };
        match (self.lpm, self.alpm_depth) {
            (false, _) => {
                let conflicts = self.digest.map_or(0, |(d, full)| {
                    crate::digest::conflict_entries(d.div_ceil(share.max(1)))
                        * (full + self.value_bits)
                });
                Mem {
                    sram_blocks: sram(n * (self.key_bits + self.value_bits) + conflicts),
                    tcam_blocks: 0,
                }
            }
            (true, None) => Mem {
                sram_blocks: sram(n * self.value_bits),
                tcam_blocks: tcam(n),
            },
            (true, Some(d)) => {
                let pivots = pivots_bound(n, d);
                Mem {
                    sram_blocks: sram(
                        pivots * d * (self.key_bits + self.value_bits) + pivots * self.value_bits,
                    ),
                    tcam_blocks: tcam(pivots),
                }
            }
        }
    }
}

/// The configuration after some steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub tables: Vec<Table>,
    pub folded: bool,
    pub split: bool,
}

impl Config {
    /// Pipes one packet's path uses, and how many ways the tables are split.
    fn path(&self) -> (u64, u64) {
        (
            if self.folded { 2 } else { 1 },
            if self.split { 2 } else { 1 },
        )
    }

    /// Memory the tables need per path, as a share of the path's memory (Fig. 17's
    /// occupancy), in percent: (SRAM, TCAM).
    pub fn occupancy(&self, p: &TargetProfile) -> (f64, f64) {
        let (pipes, split) = self.path();
        let m = self
            .tables
            .iter()
            .fold(Mem::default(), |acc, t| acc + t.mem(p, split));
        let pct = |used: u64, per_pipe: Option<u64>| match per_pipe {
            Some(b) if b > 0 => 100.0 * used as f64 / (b * pipes) as f64,
            _ => 0.0,
        };
        (
            pct(m.sram_blocks, p.total_sram_blocks()),
            pct(m.tcam_blocks, p.total_tcam_blocks()),
        )
    }
}

/// One row of the step table.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub name: String,
    /// Whether the partitioner keeps it.
    pub chosen: bool,
    pub note: String,
    pub sram_pct: f64,
    pub tcam_pct: f64,
    /// Memory per table (per path share).
    pub tables: Vec<(String, Mem)>,
}

/// Where a table (or part of it) sits: the gress slot, and the share of its entries there.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub table: String,
    pub slot: usize,
    /// Percent of the table's entries (of its path share) in this slot.
    pub percent: u64,
    pub mem: Mem,
}

/// The tables across gresses in lookup order.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// Slot names in the packet's order (`ingress 0`, `egress 1`, ...).
    pub slots: Vec<String>,
    /// The pipe of each slot (slots of one pipe share its memory).
    pub slot_pipe: Vec<usize>,
    pub pieces: Vec<Piece>,
    /// Bytes bridged at each boundary between consecutive slots (results of earlier
    /// lookups that later gresses use: a table's value and hit flag).
    pub bridged_bytes: Vec<u64>,
    /// Memory used per pipe, and each pipe's budget.
    pub pipe_used: Vec<Mem>,
    pub pipe_budget: Mem,
    pub fits: bool,
}

impl Placement {
    /// Pieces in slot order never go back to an earlier slot than the previous table's
    /// last piece: lookup order is the packet's order through the gresses.
    pub fn keeps_lookup_order(&self, tables: &[Table]) -> bool {
        let mut by_order: Vec<&Table> = tables.iter().collect();
        by_order.sort_by_key(|t| t.order);
        let mut last = 0;
        for t in by_order {
            let slots: Vec<usize> = self
                .pieces
                .iter()
                .filter(|p| p.table == t.name)
                .map(|p| p.slot)
                .collect();
            let (Some(&first), Some(&end)) = (slots.iter().min(), slots.iter().max()) else {
                continue;
            };
            if first < last {
                return false;
            }
            last = end;
        }
        true
    }
}

/// The whole answer: the steps and the placement of the chosen configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Compression {
    /// The tables before any step.
    pub tables: Vec<Table>,
    pub steps: Vec<Step>,
    pub config: Config,
    pub placement: Placement,
}

impl Compression {
    /// The profile the partitioner plans on with this compression: when it chose pipeline
    /// folding (the tables need two pipes' memory), the folded path
    /// ([`TargetProfile::folded`]: the stage budget doubles with the memory), else
    /// `profile` itself.
    ///
    /// ```text
    /// xgw at Sailfish scale on tofino1: folding chosen (SRAM 231.8% -> 115.9%)
    ///   -> plans on tofino1:folded (24 stages): the IPv4 path (13 stages) stays on the switch
    /// ```
    pub fn profile(&self, profile: &TargetProfile) -> TargetProfile {
        match (self.config.folded && !profile.folded, profile.folded()) {
            (true, Some(f)) => f,
            _ => profile.clone(),
        }
    }
}

/// The maps of `module` with their sizes at `scale`, in lookup order.
pub fn tables_of(module: &Module, scale: &Scale) -> Result<Vec<Table>, CompressError> {
    for name in scale.entries.keys() {
        if !module
            .states
            .iter()
            .any(|(_, s)| &s.name == name && s.kind.map_match().is_some())
        {
            return Err(CompressError::UnknownTable(name.clone()));
        }
    }
    let cfg = tandem_analysis::compute_cfg(&module.process);
    let mut first: BTreeMap<usize, usize> = BTreeMap::new();
    let mut pos = 0;
    for b in &cfg.rpo {
        for &i in &module.process.blocks[*b].insts {
            if let InstKind::MapFind { state, .. } = &module.process.insts[i].kind {
                first.entry(state.index()).or_insert(pos);
                pos += 1;
            }
        }
    }
    let mut written = std::collections::BTreeSet::new();
    for (_, b) in module.process.blocks.iter() {
        for &i in &b.insts {
            if let InstKind::MapInsert { state, .. } | InstKind::MapErase { state, .. } =
                &module.process.insts[i].kind
            {
                written.insert(state.index());
            }
        }
    }
    let bits = |l: &tandem_ir::Layout| crate::build::layout_bits(l);
    let mut out = Vec::new();
    for (sid, s) in module.states.iter() {
        let (Some(m), Some((key, value)), Some(cap)) = (
            s.kind.map_match(),
            s.kind.map_layouts(),
            s.kind.map_capacity(),
        ) else {
            continue;
        };
        // Ternary and range maps are not compressed here; they are counted as LPM-like TCAM.
        if written.contains(&sid.index()) {
            continue;
        }
        let lpm = !matches!(m, MapMatch::Exact);
        if matches!(
            s.kind,
            StateKind::ExpiringMap { .. } | StateKind::HashMap { .. }
        ) && lpm
        {
            continue;
        }
        out.push(Table {
            name: s.name.clone(),
            lpm,
            key_bits: bits(key),
            value_bits: bits(value),
            entries: scale.entries.get(&s.name).copied().unwrap_or(cap),
            order: first.get(&sid.index()).copied().unwrap_or(usize::MAX),
            alpm_depth: None,
            alpm_ok: s.kind.lpm_fields() == Some(1),
            digest: None,
        });
    }
    out.sort_by_key(|t| t.order);
    Ok(out)
}

fn step(name: &str, chosen: bool, note: String, c: &Config, p: &TargetProfile) -> Step {
    let (sram_pct, tcam_pct) = c.occupancy(p);
    let split = if c.split { 2 } else { 1 };
    Step {
        name: name.into(),
        chosen,
        note,
        sram_pct,
        tcam_pct,
        tables: c
            .tables
            .iter()
            .map(|t| (t.name.clone(), t.mem(p, split)))
            .collect(),
    }
}

fn fits(c: &Config, p: &TargetProfile) -> bool {
    let (s, t) = c.occupancy(p);
    s <= 100.0 && t <= 100.0
}

/// Pairs of tables that pooling may merge: an IPv4 and an IPv6 map of one type, by shape
/// ([`crate::pool::PoolShape::of`]: same match kind and value layout, keys that differ in
/// the address's width), each in at most one pair.
fn pool_pairs(tables: &[Table], module: &Module) -> Vec<(usize, usize)> {
    let kind = |n: &str| module.state_by_name(n).map(|s| &module.states[s].kind);
    let mut used = vec![false; tables.len()];
    let mut out = Vec::new();
    for i in 0..tables.len() {
        for j in i + 1..tables.len() {
            let (a, b) = (&tables[i], &tables[j]);
            if used[i] || used[j] {
                continue;
            }
            let (Some(ka), Some(kb)) = (kind(&a.name), kind(&b.name)) else {
                continue;
            };
            if crate::pool::PoolShape::of((&a.name, ka), (&b.name, kb)).is_err() {
                continue;
            }
            used[i] = true;
            used[j] = true;
            out.push((i, j));
        }
    }
    out
}

/// The one table of `a` and `b` pooled ([`crate::pool`]): a tag bit and the wider key, both
/// tables' entries; never ALPM (its prefix spans the 128-bit address's two words).
fn pooled_table(a: &Table, b: &Table) -> Table {
    Table {
        name: format!("{}+{}", a.name, b.name),
        lpm: a.lpm,
        key_bits: a.key_bits.max(b.key_bits) + 1,
        value_bits: a.value_bits,
        entries: a.entries + b.entries,
        order: a.order.min(b.order),
        alpm_depth: None,
        alpm_ok: false,
        digest: None,
    }
}

/// Memory of maps `a` and `b` of `module` at `scale` on `profile`, apart and pooled (one
/// copy each, plain tables): the report line of a pool the P4 back end emits.
pub fn pool_memory(
    module: &Module,
    profile: &TargetProfile,
    scale: &Scale,
    a: &str,
    b: &str,
) -> Result<(Mem, Mem), CompressError> {
    let tables = tables_of(module, scale)?;
    let find = |n: &str| {
        tables
            .iter()
            .find(|t| t.name == n)
            .ok_or_else(|| CompressError::UnknownTable(n.to_string()))
    };
    let (ta, tb) = (find(a)?, find(b)?);
    Ok((
        ta.mem(profile, 1) + tb.mem(profile, 1),
        pooled_table(ta, tb).mem(profile, 1),
    ))
}

/// Plans the compression of `module`'s tables at `scale` on `profile`.
pub fn compress(
    module: &Module,
    profile: &TargetProfile,
    scale: &Scale,
) -> Result<Compression, CompressError> {
    if profile.total_sram_blocks().is_none() || profile.total_tcam_blocks().is_none() {
        return Err(CompressError::Unbounded);
    }
    let tables = tables_of(module, scale)?;
    let p = profile;
    let original = tables.clone();
    let mut c = Config {
        tables,
        folded: false,
        split: false,
    };
    let mut steps = vec![step("baseline (one pipe)", true, String::new(), &c, p)];

    // 1. Folding (costs half the throughput: only when the tables do not fit). A folded
    // profile's stages (and memory) already count it.
    if p.folded {
        steps.push(step(
            "pipeline folding",
            true,
            "the profile is a folded path (its stages count two gresses each)".into(),
            &c,
            p,
        ));
    } else if !fits(&c, p) {
        let ok = p.pipelines >= 2;
        let mut f = c.clone();
        f.folded = ok;
        let note = if ok {
            "ingress 0 -> egress 1 -> ingress 1 -> egress 0: 2 pipes' memory, half the throughput"
                .into()
        } else {
            format!("not possible: {} has {} pipeline(s)", p.name, p.pipelines)
        };
        steps.push(step("pipeline folding", ok, note, &f, p));
        c = f;
    }
    // 2. Splitting between the folded paths (when still needed).
    if (c.folded || p.folded) && !fits(&c, p) {
        let ok = p.pipelines >= if p.folded { 2 } else { 4 };
        let mut f = c.clone();
        f.split = ok;
        let note = if ok {
            "the two folded paths hold half of each table's entries (by key hash)".into()
        } else {
            format!(
                "not possible: {} has {} pipelines (needs 4)",
                p.name, p.pipelines
            )
        };
        steps.push(step("table splitting between pipelines", ok, note, &f, p));
        c = f;
    }
    // 3. Key digests for long exact keys.
    if let Some(st) = digest_step(&mut c, p) {
        steps.push(st);
    }
    // 4. Pooling.
    {
        let split = if c.split { 2 } else { 1 };
        let mut pooled = c.clone();
        let mut notes = Vec::new();
        let mut remove = Vec::new();
        for (i, j) in pool_pairs(&c.tables, module) {
            let (a, b) = (&c.tables[i], &c.tables[j]);
            // A digested table keeps its digest (the P4 back end pools plain tables only).
            if let Some(d) = [a, b].into_iter().find(|t| t.digest.is_some()) {
                notes.push(format!(
                    "{}+{} kept apart ({} is held as key digests)",
                    a.name, b.name, d.name
                ));
                continue;
            }
            let merged = pooled_table(a, b);
            let before = a.mem(p, split) + b.mem(p, split);
            let after = merged.mem(p, split);
            // Kept when it does not grow memory, or when the tables fit pooled and not apart.
            let mut with = c.clone();
            with.tables.retain(|t| t.name != a.name && t.name != b.name);
            with.tables.push(merged.clone());
            let bigger =
                after.sram_blocks > before.sram_blocks || after.tcam_blocks > before.tcam_blocks;
            let only_fits_pooled = fits(&with, p) && !fits(&c, p);
            let grows = bigger && !only_fits_pooled;
            if grows {
                notes.push(format!(
                    "{} kept apart (pooled: SRAM {} -> {}, TCAM {} -> {} blocks{})",
                    merged.name,
                    before.sram_blocks,
                    after.sram_blocks,
                    before.tcam_blocks,
                    after.tcam_blocks,
                    if a.lpm {
                        ""
                    } else {
                        "; the tag bit widens every entry"
                    }
                ));
            } else {
                notes.push(format!("{} pooled", merged.name));
                remove.push(i);
                remove.push(j);
                pooled.tables.push(merged);
            }
        }
        remove.sort_unstable();
        for i in remove.iter().rev() {
            pooled.tables.remove(*i);
        }
        pooled.tables.sort_by_key(|t| t.order);
        let chosen = !remove.is_empty();
        if chosen {
            c = pooled.clone();
        }
        let note = if notes.is_empty() {
            "no IPv4 and IPv6 maps of one type (same match kind and value layout)".into()
        } else {
            notes.join("; ")
        };
        steps.push(step("IPv4/IPv6 pooling", chosen, note, &pooled, p));
    }
    // 5. ALPM: the bucket depth that makes the fuller resource the least full.
    if c.tables.iter().any(|t| t.lpm && t.alpm_ok) {
        let worst = |c: &Config| {
            let (s, t) = c.occupancy(p);
            s.max(t)
        };
        let mut best: Option<(u64, Config)> = None;
        for d in [2u64, 4, 8, 16, 32, 64, 128, 256] {
            let mut a = c.clone();
            for t in a.tables.iter_mut().filter(|t| t.lpm && t.alpm_ok) {
                t.alpm_depth = Some(d);
            }
            if best.as_ref().is_none_or(|(_, b)| worst(&a) < worst(b)) {
                best = Some((d, a));
            }
        }
        if let Some((d, a)) = best {
            let chosen = worst(&a) < worst(&c);
            let note = format!(
                "bucket depth {d} (TCAM pivots ~2n/{d}; the depth that makes the fuller of SRAM and TCAM least full){}",
                if chosen { "" } else { "; plain LPM is better here" }
            );
            steps.push(step("ALPM", chosen, note, &a, p));
            if chosen {
                c = a;
            }
        }
    }
    let placement = place(&c, p);
    Ok(Compression {
        tables: original,
        steps,
        config: c,
        placement,
    })
}

/// Keys longer than this are digested ("long keys": VNI + IPv6).
pub const LONG_KEY_BITS: u64 = 64;

/// The key-digest step: every exact table with a long key whose SRAM shrinks when keyed by
/// a 32-bit digest plus a conflict table; `None` when no table has a long key.
fn digest_step(c: &mut Config, p: &TargetProfile) -> Option<Step> {
    let split = if c.split { 2 } else { 1 };
    let digest_bits = u64::from(crate::digest::DIGEST_BITS);
    let mut d = c.clone();
    let mut notes = Vec::new();
    let mut any = false;
    for t in d.tables.iter_mut() {
        if t.lpm || t.digest.is_some() || t.key_bits <= LONG_KEY_BITS {
            continue;
        }
        let mut u = t.clone();
        u.digest = Some((t.entries, t.key_bits));
        u.key_bits = digest_bits;
        let (before, after) = (t.mem(p, split), u.mem(p, split));
        if after.sram_blocks < before.sram_blocks {
            notes.push(format!(
                "{}: key {} -> {} bits + {} conflict entries (SRAM {} -> {} blocks)",
                t.name,
                t.key_bits,
                digest_bits,
                crate::digest::conflict_entries(t.entries.div_ceil(split)),
                before.sram_blocks,
                after.sram_blocks
            ));
            *t = u;
            any = true;
        } else {
            notes.push(format!(
                "{} kept exact (digested: SRAM {} -> {} blocks)",
                t.name, before.sram_blocks, after.sram_blocks
            ));
        }
    }
    if notes.is_empty() {
        return None;
    }
    let st = step("key digests", any, notes.join("; "), &d, p);
    if any {
        *c = d;
    }
    Some(st)
}

impl Compression {
    /// The exact maps the chosen configuration holds as key digests, with their
    /// conflict-table entries: what the P4 back end emits (`tandem_p4::P4Options::digest`).
    pub fn digests(&self) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for t in self.tables.iter().filter(|t| !t.lpm) {
            let digested = self
                .config
                .tables
                .iter()
                .any(|c| c.digest.is_some() && c.name.split('+').any(|n| n == t.name))
                && t.key_bits > LONG_KEY_BITS;
            if digested {
                out.insert(t.name.clone(), crate::digest::conflict_entries(t.entries));
            }
        }
        out
    }

    /// The pairs of maps the chosen configuration pools (IPv4/IPv6 pooling): what the P4
    /// back end emits as one shared table (`tandem_p4::P4Options::pool`).
    pub fn pools(&self) -> Vec<(String, String)> {
        self.config
            .tables
            .iter()
            .filter_map(|t| {
                let (a, b) = t.name.split_once('+')?;
                Some((a.to_string(), b.to_string()))
            })
            .collect()
    }

    /// The LPM maps the chosen configuration holds as ALPM, with their bucket depth: what
    /// the P4 back end emits (`tandem_p4::P4Options::alpm`); a pooled table is never ALPM
    /// (its prefix spans two words).
    pub fn alpm_depths(&self) -> BTreeMap<String, u32> {
        let mut out = BTreeMap::new();
        for t in &self.config.tables {
            if let (true, Some(d)) = (t.lpm, t.alpm_depth) {
                for name in t.name.split('+') {
                    out.insert(name.to_string(), d as u32);
                }
            }
        }
        out
    }
}

/// Places the tables of `c` in lookup order across the gress slots of one packet's path,
/// filling each pipe before moving on and mapping a table that does not fit across the
/// next slots (Sailfish Fig. 15).
pub fn place(c: &Config, p: &TargetProfile) -> Placement {
    let (slots, slot_pipe): (Vec<String>, Vec<usize>) = if c.folded {
        (
            vec![
                "ingress 0".into(),
                "egress 1".into(),
                "ingress 1".into(),
                "egress 0".into(),
            ],
            vec![0, 1, 1, 0],
        )
    } else {
        (vec!["ingress 0".into(), "egress 0".into()], vec![0, 0])
    };
    let budget = Mem {
        sram_blocks: p.total_sram_blocks().unwrap_or(u64::MAX),
        tcam_blocks: p.total_tcam_blocks().unwrap_or(u64::MAX),
    };
    let npipes = slot_pipe.iter().max().map_or(1, |m| m + 1);
    let mut used = vec![Mem::default(); npipes];
    let mut pieces = Vec::new();
    let mut slot = 0;
    let mut fits_all = true;
    let mut tables: Vec<&Table> = c.tables.iter().collect();
    tables.sort_by_key(|t| t.order);
    for t in tables {
        // After the first gress a split table holds half of its entries.
        let share = |s: usize| if c.split && s > 0 { 2 } else { 1 };
        let mut left = 100u64;
        while left > 0 {
            if slot >= slots.len() {
                fits_all = false;
                break;
            }
            let pipe = slot_pipe[slot];
            let whole = t.mem(p, share(slot));
            let free = Mem {
                sram_blocks: budget.sram_blocks.saturating_sub(used[pipe].sram_blocks),
                tcam_blocks: budget.tcam_blocks.saturating_sub(used[pipe].tcam_blocks),
            };
            // The largest percentage of what is left that fits here.
            let need = |pct: u64| Mem {
                sram_blocks: (whole.sram_blocks * pct).div_ceil(100),
                tcam_blocks: (whole.tcam_blocks * pct).div_ceil(100),
            };
            // A split table costs double in the first gress (which sees all traffic): one
            // that does not fit there whole starts in the next one.
            if c.split
                && slot == 0
                && left == 100
                && (whole.sram_blocks > free.sram_blocks || whole.tcam_blocks > free.tcam_blocks)
            {
                slot += 1;
                continue;
            }
            let mut pct = left;
            while pct > 0 {
                let m = need(pct);
                if m.sram_blocks <= free.sram_blocks && m.tcam_blocks <= free.tcam_blocks {
                    break;
                }
                pct -= 1;
            }
            if pct > 0 {
                let m = need(pct);
                used[pipe] = used[pipe] + m;
                pieces.push(Piece {
                    table: t.name.clone(),
                    slot,
                    percent: pct,
                    mem: m,
                });
                left -= pct;
            }
            if left > 0 {
                slot += 1;
            }
        }
    }
    // Bridging: at each boundary, the values and hit flags of the tables looked up before
    // it (their results are used up to the re-encapsulation at the end).
    let bridged_bytes = (1..slots.len())
        .map(|b| {
            let mut names: Vec<&str> = pieces
                .iter()
                .filter(|x| x.slot < b)
                .map(|x| x.table.as_str())
                .collect();
            names.dedup();
            names
                .iter()
                .filter_map(|n| c.tables.iter().find(|t| t.name == *n))
                .map(|t| t.value_bits.div_ceil(8) + 1)
                .sum()
        })
        .collect();
    Placement {
        slots,
        slot_pipe,
        pieces,
        bridged_bytes,
        pipe_used: used,
        pipe_budget: budget,
        fits: fits_all,
    }
}

/// The step table and the placement as text (Fig. 17 style).
pub fn report(c: &Compression, p: &TargetProfile) -> String {
    report_for(c, p, None)
}

/// [`report`], saying what is emitted for the architecture `tna`
/// ([`Compression::emission_for`]).
pub fn report_for(c: &Compression, p: &TargetProfile, tna: Option<bool>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "table compression on {} ({} pipelines; per pipe {} SRAM and {} TCAM blocks)",
        p.name,
        p.pipelines,
        p.total_sram_blocks().unwrap_or(0),
        p.total_tcam_blocks().unwrap_or(0)
    );
    let _ = writeln!(s, "\ntables (lookup order):");
    for t in &c.tables {
        let _ = writeln!(
            s,
            "  {:<20} {:<5} {:>10} entries, key {} bits, value {} bits",
            t.name,
            if t.lpm { "lpm" } else { "exact" },
            t.entries,
            t.key_bits,
            t.value_bits
        );
    }
    let _ = writeln!(
        s,
        "\n{:<38} {:>8} {:>8}  chosen  per table (SRAM/TCAM blocks per path share)",
        "step", "SRAM %", "TCAM %"
    );
    for st in &c.steps {
        let per: Vec<String> = st
            .tables
            .iter()
            .map(|(n, m)| format!("{n} {}/{}", m.sram_blocks, m.tcam_blocks))
            .collect();
        let _ = writeln!(
            s,
            "{:<38} {:>7.1}% {:>7.1}%  {:<6}  {}",
            st.name,
            st.sram_pct,
            st.tcam_pct,
            if st.chosen { "yes" } else { "no" },
            per.join(", ")
        );
        if !st.note.is_empty() {
            let _ = writeln!(s, "{:<38} {}", "", st.note);
        }
    }
    let pl = &c.placement;
    let _ = writeln!(
        s,
        "\nplacement ({}):",
        if pl.fits { "fits" } else { "does NOT fit" }
    );
    for (i, name) in pl.slots.iter().enumerate() {
        let here: Vec<String> = pl
            .pieces
            .iter()
            .filter(|x| x.slot == i)
            .map(|x| {
                format!(
                    "{} {}% (SRAM {}, TCAM {})",
                    x.table, x.percent, x.mem.sram_blocks, x.mem.tcam_blocks
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "  {:<10} pipe {}  {}",
            name,
            pl.slot_pipe[i],
            if here.is_empty() {
                "-".into()
            } else {
                here.join(", ")
            }
        );
        if i + 1 < pl.slots.len() {
            let _ = writeln!(
                s,
                "    bridged to {}: {} bytes",
                pl.slots[i + 1],
                pl.bridged_bytes[i]
            );
        }
    }
    for (i, u) in pl.pipe_used.iter().enumerate() {
        let _ = writeln!(
            s,
            "  pipe {i}: SRAM {}/{} blocks, TCAM {}/{} blocks",
            u.sram_blocks, pl.pipe_budget.sram_blocks, u.tcam_blocks, pl.pipe_budget.tcam_blocks
        );
    }
    let lines = c.emission_for(tna).lines();
    if !lines.is_empty() {
        let _ = writeln!(s);
    }
    for line in lines {
        let _ = writeln!(s, "{line}");
    }
    s
}

/// The steps the memory model plans but the P4 back end does not emit for every
/// architecture: folding is emitted for TNA only ([`Compression::emission_for`]); splitting
/// never (each map is its own table holding all of its entries, or shared with its pool's
/// other map: pooling is emitted).
const MODELLED_ONLY: [&str; 2] = ["pipeline folding", "table splitting between pipelines"];

/// What of a chosen compression is in the generated program and what only the memory model
/// counts, so a report never lets a plan pass for emitted when it is not.
///
/// ```text
/// xgw at Sailfish scale on tofino1 (folding, splitting and key digests chosen):
///   emitted in the generated P4: key digests vm_nc6 (64 conflict entries)
///   modelled only, NOT in the generated P4: pipeline folding, table splitting between
///   pipelines (...)
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Emission {
    /// Lowerings the P4 back end emits: `key digests vm_nc6 (64 conflict entries)`,
    /// `ALPM routes4 (depth 32)`.
    pub emitted: Vec<String>,
    /// Chosen steps it does not emit (folding, splitting between pipelines).
    pub modelled_only: Vec<String>,
}

impl Emission {
    /// The report's lines: what is emitted, then what is modelled only (none when empty).
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.emitted.is_empty() {
            out.push(format!(
                "emitted in the generated P4: {}",
                self.emitted.join(", ")
            ));
        }
        if !self.modelled_only.is_empty() {
            out.push(format!(
                "modelled only, NOT in the generated P4: {} (each map is one table with all \
                 its entries; without folding the program is one pipe; the plan only counts \
                 these steps' stages and memory)",
                self.modelled_only.join(", ")
            ));
        }
        out
    }
}

impl Compression {
    /// What the chosen configuration emits and what it only models ([`Emission`]), for no
    /// particular architecture: pipeline folding is listed as modelled only (only the TNA
    /// back end emits it: [`Compression::emission_for`]).
    pub fn emission(&self) -> Emission {
        self.emission_for(None)
    }

    /// [`Compression::emission`] for the P4 architecture the program is generated for
    /// (`Some(true)`: TNA, whose back end emits pipeline folding as two Pipelines with
    /// bridged metadata, `tandem_p4::fold`; `Some(false)`: v1model, one pipe).
    ///
    /// ```text
    /// tna:     emitted in the generated P4: pipeline folding (TNA: ...), key digests ...
    /// v1model: modelled only, NOT in the generated P4: pipeline folding (v1model is one
    ///          pipe; --target tna emits it), ...
    /// ```
    pub fn emission_for(&self, tna: Option<bool>) -> Emission {
        let mut emitted: Vec<String> = self
            .digests()
            .iter()
            .map(|(n, c)| format!("key digests {n} ({c} conflict entries)"))
            .collect();
        emitted.extend(
            self.alpm_depths()
                .iter()
                .map(|(n, d)| format!("ALPM {n} (depth {d})")),
        );
        emitted.extend(self.pools().iter().map(|(a, b)| {
            format!(
                "IPv4/IPv6 pooling {a}+{b} (one shared table where the plan keeps a lookup of \
                 each on the switch, the two exclusive; compile notes a pool it cannot emit)"
            )
        }));
        let folding = |st: &Step| st.name == MODELLED_ONLY[0];
        if tna == Some(true) && self.steps.iter().any(|st| st.chosen && folding(st)) {
            emitted.insert(
                0,
                "pipeline folding (TNA: ingress 0 -> egress 1 -> ingress 1 -> egress 0 as two \
                 Pipelines, live metadata bridged at each boundary)"
                    .to_string(),
            );
        }
        let modelled_only = self
            .steps
            .iter()
            .filter(|st| st.chosen && MODELLED_ONLY.contains(&st.name.as_str()))
            .filter(|st| !(tna == Some(true) && folding(st)))
            .map(|st| match (tna, folding(st)) {
                (Some(false), true) => {
                    format!("{} (v1model is one pipe; --target tna emits it)", st.name)
                }
                _ => st.name.clone(),
            })
            .collect();
        Emission {
            emitted,
            modelled_only,
        }
    }
}
