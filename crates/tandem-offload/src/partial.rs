//! Partial maps at run time: the switch holds the hot entries of a map the server holds
//! whole (Sailfish §4.2 table sharing; CLIP §III-D automatic flow replacement).
//!
//! A map the plan marks partial (`states[].partial`, `tandem compile --partial map=N`) has a
//! switch table of N entries. Keys that are not on the switch are *server-only*: the runtime
//! probes each packet and runs one that needs such a key whole on the server, which answers
//! it from the primary copy (`fallback`) — the switch never answers with a miss it should
//! not have. Every `every` packets the runtime rebalances:
//!
//! - **Hotness.** The server counts, per server-only key, the packets it ran whole because
//!   of it (it sees every one of them). The switch counts its lookups of the map in a
//!   count-min sketch (registers, `lower/sketch.rs` in `tandem-p4`); the runtime reads the
//!   counters of the keys the switch holds and estimates each key's lookups since the last
//!   rebalance as the smallest difference over the rows ([`Hotness::Sketch`]). Or, with
//!   [`Hotness::Counters`], it reads the switch table's per-entry hit counters (a direct
//!   counter, `lower/hits.rs`): exact counts of the hits of each switch key, one read per
//!   table, no hash estimate. Both scores decay (by a quarter at
//!   every rebalance, so a flow that skips an interval keeps most of its score), and a switch key is replaced only by one more than twice as hot
//!   (hysteresis), so keys of equally busy flows do not trade places.
//! - **Promotion.** The hottest server-only keys fill the switch table's free room, in one
//!   atomic batch ([`SyncEngine::promote`]: write-back tables + flag, confirmed before the
//!   next packet enters the switch); a key leaves the server-only set with that batch.
//! - **Reserve.** Switch keys idle for several rebalances are drained until a sixteenth of
//!   the table will be free, so a key that turns hot waits one rebalance, not two.
//! - **Eviction**, in two phases so that a packet never misses an entry it was sent to the
//!   switch for: a cold switch key hotter keys should replace is first *drained* — marked
//!   server-only (packets probed from now on go to the server) while the switch keeps it,
//!   still updated by every batch — and deleted at the next rebalance
//!   ([`SyncEngine::evict`], one atomic batch), when every packet probed before the mark
//!   has left the switch; the room it frees goes to the next promotions. A key written in
//!   between is staged again and stays (its eviction is dropped).
//!
//! ```text
//! before: switch {a:90 b:3}  server-only {c:40 d:1}    (hits since the last rebalance)
//! rebalance 1: drain b (server-only now, still on the switch)
//! rebalance 2: delete b; promote c     → switch {a c}  server-only {b d}
//! ```
//!
//! A map whose misses the switch program sends to the server itself (manifest
//! `miss_to_server`, `lower/miss.rs` in `tandem-p4`) is not probed: a switch entry is current
//! until the atomic batch that deletes it, and a packet after that batch misses and goes to
//! the server. There is no window between a probe and the switch for the drain to cover, so
//! its eviction deletes at once and the same rebalance promotes the keys that replace the
//! evicted ones (one interval sooner than the drain allows).
//!
//! Such a map also promotes **on a miss**: a server-only key whose packet the switch sent
//! whole goes onto the switch right after that packet when the table has free room (the
//! reserve the rebalance keeps), so its flow's next packet stays on the switch instead of
//! waiting for the next rebalance; the rebalance still decides who stays.
//!
//! [`PartialOptions::skip_drain`] (tests only) deletes an evicted key at once, without the
//! drain: the negative control, which `tandem check` catches when a packet of the evicted
//! key is in flight (probed before the eviction, in the switch after it). With misses sent
//! whole, [`PartialOptions::evict_in_flight`] runs the rebalance while a packet the switch
//! sent to the server is in flight (after the switch, before the server) and moves that
//! packet's keys; [`PartialOptions::split_promotion`] (tests only) reads a promoted key's
//! value at the rebalance and publishes it after the packet's server run — the negative
//! control of the promotion's atomicity, caught when the packet erases the key (a stale
//! entry on the switch).

use tandem_ir::hash::FxHashMap;
use tandem_ir::words::Words;
use tandem_ir::{HashAlgo, Module};
use tandem_p4::manifest::Manifest;

use crate::control::ControlPlane;
use crate::primary::Primary;
use crate::sync::SyncEngine;
use crate::OffloadError;

/// One packet's worth of hotness (scores are fixed-point so that they decay smoothly).
const UNIT: u64 = 256;

/// Where a partial map's hotness comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Hotness {
    /// No promotion: the switch keeps the entries it took first.
    Off,
    /// The switch's count-min sketch for switch entries, the server's counts for
    /// server-only ones.
    Sketch,
    /// The switch table's per-entry hit counters (direct counters) for switch entries, the
    /// server's counts for server-only ones.
    Counters,
}

impl Hotness {
    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Hotness::Off => "off",
            Hotness::Sketch => "sketch",
            Hotness::Counters => "counters",
        }
    }
}

impl std::str::FromStr for Hotness {
    type Err = String;
    fn from_str(s: &str) -> Result<Hotness, String> {
        match s {
            "off" | "none" => Ok(Hotness::Off),
            "sketch" => Ok(Hotness::Sketch),
            "counters" => Ok(Hotness::Counters),
            o => Err(format!(
                "hotness `{o}`: give sketch (count-min sketch), counters (per-entry hit \
                 counters) or off (no promotion)"
            )),
        }
    }
}

/// Knobs of partial maps at run time.
#[derive(Clone, Debug)]
pub struct PartialOptions {
    /// Where hotness comes from ([`Hotness::Off`]: no promotion).
    pub hotness: Hotness,
    /// Rebalance every this many packets.
    pub every: u64,
    /// Most keys promoted (and evicted) per rebalance.
    pub max_swaps: usize,
    /// Tests only: delete evicted keys at once, without draining them first (the negative
    /// control of the eviction protocol).
    #[doc(hidden)]
    pub skip_drain: bool,
    /// Tests only: every rebalance evicts the switch keys of the packet in flight first (the
    /// worst case for the eviction protocol, made certain instead of left to chance).
    #[doc(hidden)]
    pub evict_in_flight: bool,
    /// Tests only, with `evict_in_flight` on a map whose misses the switch sends to the
    /// server: the promotion of the in-flight packet's key reads the key's value at the
    /// rebalance but publishes it only after the packet's server run — promotion split
    /// around the packet instead of one atomic step (the negative control of the
    /// promotion protocol).
    #[doc(hidden)]
    pub split_promotion: bool,
}

impl Default for PartialOptions {
    fn default() -> Self {
        PartialOptions {
            hotness: Hotness::Sketch,
            every: 1000,
            max_swaps: 64,
            skip_drain: false,
            evict_in_flight: false,
            split_promotion: false,
        }
    }
}

/// One sample of a partial map over time ([`PartialStats::samples`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PartialSample {
    /// Packets processed so far.
    pub packets: u64,
    /// Entries the switch holds (all partial maps).
    pub switch_entries: u64,
    /// Entries the primary copy holds (all partial maps).
    pub entries: u64,
    /// Packets since the previous sample that the server handled (partition or whole).
    pub server_packets: u64,
    /// Of those, packets run whole because they needed a server-only key (the partial
    /// tables' share; the rest visited the server partition, as the NF's plan has them).
    pub whole_packets: u64,
    /// Of those, packets that needed a key the server holds but the switch did not (the
    /// partial table's own cost; the rest looked up a key nobody held yet — a new flow the
    /// NF inserts on the server, as it would with the whole map on the switch).
    #[serde(default)]
    pub server_only_packets: u64,
    /// Packets since the previous sample.
    pub interval_packets: u64,
}

impl PartialSample {
    /// Share of the partial maps' entries the switch holds.
    pub fn switch_share(&self) -> f64 {
        if self.entries == 0 {
            return 0.0;
        }
        self.switch_entries as f64 / self.entries as f64
    }

    /// Share of the interval's packets the server handled.
    pub fn server_share(&self) -> f64 {
        if self.interval_packets == 0 {
            return 0.0;
        }
        self.server_packets as f64 / self.interval_packets as f64
    }
}

/// Counters of partial maps.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PartialStats {
    /// Rebalances run.
    pub rebalances: u64,
    /// Keys promoted to the switch.
    pub promoted: u64,
    /// Keys evicted from the switch.
    pub evicted: u64,
    /// Evictions (drains; deletions with `skip_drain`) of a key the packet in flight at the
    /// rebalance — probed, not yet in the switch — looks up.
    pub evicted_in_flight: u64,
    /// Promotions of a key the packet in flight at the rebalance — sent to the server by
    /// the switch, not yet run there — looks up (`evict_in_flight`, misses sent whole).
    pub promoted_in_flight: u64,
    /// Rebalances of a map that failed (a control-plane request failed for good); the
    /// switch's copies are rebuilt at the next commit.
    pub failures: u64,
    /// Packets the server ran for a server-only key that had already sent a packet to the
    /// server since it was last seen on the switch (its flow waited for the promotion); the
    /// other server-only packets are a key's first miss, which no promotion after the fact
    /// avoids.
    #[serde(default)]
    pub repeat_misses: u64,
    /// One sample per rebalance.
    pub samples: Vec<PartialSample>,
}

/// One partial map.
struct PartialMap {
    sid: u32,
    name: String,
    key_bits: Vec<u32>,
    sketch: Vec<String>,
    width: u64,
    /// The main tables' direct counters, by table (`--hotness counters`).
    hit_tables: Vec<String>,
    /// Sketch counters at the last rebalance, per (row, index) read then.
    last: FxHashMap<(u32, u32), u64>,
    /// Hit counters at the last rebalance, per (table, key).
    last_hits: FxHashMap<(usize, Words), u64>,
    /// Packets the server ran whole per server-only key ([`UNIT`]s), decayed by a quarter
    /// at every rebalance.
    server_hits: FxHashMap<Words, u64>,
    /// Lookups of each switch key (sketch estimates, [`UNIT`]s), decayed likewise.
    switch_score: FxHashMap<Words, u64>,
    /// Keys drained (or, with `skip_drain`, deleted) by the last rebalance.
    leaving: Vec<Vec<u64>>,
    /// Keys the last rebalance promoted because the packet in flight looks them up
    /// (`evict_in_flight` on a map whose misses the switch sends to the server).
    arriving: Vec<Vec<u64>>,
    /// Keys being drained: server-only, still on the switch, deleted at the next rebalance.
    draining: Vec<Vec<u64>>,
}

/// The partial maps of a program and their rebalancing.
pub struct PartialMaps {
    maps: Vec<PartialMap>,
    opts: PartialOptions,
    stats: PartialStats,
    since: u64,
    server_since: u64,
    whole_since: u64,
    server_only_since: u64,
    /// `split_promotion`: promotions read at the last rebalance, published after the packet
    /// in flight ([`PartialMaps::publish_split`]).
    split: Vec<(u32, Vec<u64>, Vec<u64>)>,
}

impl PartialMaps {
    /// The partial maps of `manifest`; `None` when it has none.
    pub fn new(
        module: &Module,
        manifest: &Manifest,
        opts: PartialOptions,
    ) -> Result<Option<PartialMaps>, OffloadError> {
        let mut maps = Vec::new();
        for sm in &manifest.states {
            let Some(p) = &sm.partial else { continue };
            let sid = module.state_by_name(&sm.name).ok_or_else(|| {
                OffloadError::Manifest(format!("partial map `{}` is not in the IR", sm.name))
            })?;
            let Some((kl, _)) = module.states[sid].kind.map_layouts() else {
                return Err(OffloadError::Manifest(format!(
                    "partial state `{}` is not a map",
                    sm.name
                )));
            };
            if opts.hotness == Hotness::Counters && p.hit_counters.is_empty() {
                return Err(OffloadError::Manifest(format!(
                    "partial map `{}` has no per-entry hit counters (a manifest from before \
                     them): recompile, or use --hotness sketch",
                    sm.name
                )));
            }
            if !p.sketch_width.is_power_of_two() || p.sketch_hash != "crc32" {
                return Err(OffloadError::Manifest(format!(
                    "partial map `{}`: sketch width {} hash `{}` (expected a power of two, crc32)",
                    sm.name, p.sketch_width, p.sketch_hash
                )));
            }
            maps.push(PartialMap {
                sid: sid.as_u32(),
                name: sm.name.clone(),
                key_bits: kl.fields.iter().map(|f| f.ty.bits()).collect(),
                sketch: p.sketch.clone(),
                width: p.sketch_width,
                hit_tables: p.hit_counters.iter().map(|h| h.table.clone()).collect(),
                last: FxHashMap::default(),
                last_hits: FxHashMap::default(),
                server_hits: FxHashMap::default(),
                switch_score: FxHashMap::default(),
                leaving: Vec::new(),
                arriving: Vec::new(),
                draining: Vec::new(),
            });
        }
        Ok((!maps.is_empty()).then_some(PartialMaps {
            maps,
            opts,
            stats: PartialStats::default(),
            since: 0,
            server_since: 0,
            whole_since: 0,
            server_only_since: 0,
            split: Vec::new(),
        }))
    }

    /// Counters so far.
    pub fn stats(&self) -> &PartialStats {
        &self.stats
    }

    /// Counts a packet the server ran whole because it needs server-only `key` of `state`.
    pub fn count_server_hit(&mut self, state: u32, key: &[u64]) {
        self.server_only_since += 1;
        if let Some(m) = self.maps.iter_mut().find(|m| m.sid == state) {
            let n = m.server_hits.entry(Words::new(key)).or_default();
            if *n > 0 {
                self.stats.repeat_misses += 1;
            }
            *n += UNIT;
        }
    }

    /// The partial maps' states.
    pub fn states(&self) -> impl Iterator<Item = u32> + '_ {
        self.maps.iter().map(|m| m.sid)
    }

    /// Whether a server-only key a switch miss brought to the server is promoted at once
    /// when its table has room (any promotion at all: not [`Hotness::Off`]).
    pub fn promotes_on_miss(&self) -> bool {
        self.opts.hotness != Hotness::Off
    }

    /// `split_promotion` (tests only): publishes the promotions the last rebalance read,
    /// after the packet in flight ran on the server.
    pub fn publish_split(
        &mut self,
        sync: &mut SyncEngine,
        cp: &mut dyn ControlPlane,
    ) -> Result<(), OffloadError> {
        for (sid, k, v) in std::mem::take(&mut self.split) {
            self.stats.promoted += sync.promote_value(cp, sid, k, v)? as u64;
        }
        Ok(())
    }

    /// Tests only: rebalances move the keys of the packet in flight
    /// ([`PartialOptions::evict_in_flight`]).
    pub fn moves_in_flight(&self) -> bool {
        self.opts.evict_in_flight
    }

    /// Counts keys promoted outside a rebalance (on a miss).
    pub fn count_promoted(&mut self, n: u64) {
        self.stats.promoted += n;
    }

    /// `key` of `state` went onto the switch on a miss: with [`Hotness::Counters`] its
    /// server count so far becomes its switch score ([`carry_score`]).
    pub fn promoted_on_miss(&mut self, state: u32, key: &[u64]) {
        let hotness = self.opts.hotness;
        if let Some(m) = self.maps.iter_mut().find(|m| m.sid == state) {
            let n = m.server_hits.get(key).copied().unwrap_or(0);
            carry_score(m, hotness, key, n);
        }
    }

    /// Whether `state` is a partial map.
    pub fn is_partial(&self, state: u32) -> bool {
        self.maps.iter().any(|m| m.sid == state)
    }

    /// Counts one packet (`server`: the server handled it; `whole`: it ran whole there for a
    /// server-only key); true when a rebalance is due.
    pub fn count_packet(&mut self, server: bool, whole: bool) -> bool {
        self.since += 1;
        self.server_since += u64::from(server);
        self.whole_since += u64::from(whole);
        self.since >= self.opts.every
    }

    /// The sketch index of `key` in row `row`.
    fn index(m: &PartialMap, row: u32, key: &[u64]) -> u32 {
        sketch_index(&m.key_bits, row, key, m.width)
    }

    /// Rebalances every partial map (see the module docs); `packets`: packets so far;
    /// `in_flight`: the keys of the packet in flight (probed, not yet in the switch).
    pub fn rebalance(
        &mut self,
        sync: &mut SyncEngine,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
        packets: u64,
        in_flight: &[(u32, Vec<u64>)],
    ) -> Result<(), OffloadError> {
        let mut sample = PartialSample {
            packets,
            server_packets: self.server_since,
            whole_packets: self.whole_since,
            server_only_packets: self.server_only_since,
            interval_packets: self.since,
            ..PartialSample::default()
        };
        self.since = 0;
        self.server_since = 0;
        self.whole_since = 0;
        self.server_only_since = 0;
        self.stats.rebalances += 1;
        let opts = self.opts.clone();
        for m in &mut self.maps {
            if opts.hotness != Hotness::Off {
                let r = rebalance_map(m, &opts, sync, cp, primary, in_flight, &mut self.split);
                let (p, e) = match r {
                    Ok(pe) => pe,
                    Err(e) => {
                        // The keys it was moving are server-only (a failed eviction's were
                        // already, a failed promotion's are marked again), so packets stay
                        // correct; the next commit rebuilds the switch's copies.
                        log::warn!("rebalancing partial map `{}`: {e}", m.name);
                        self.stats.failures += 1;
                        m.draining.clear();
                        sync.request_resync();
                        continue;
                    }
                };
                self.stats.promoted += p;
                self.stats.evicted += e;
                self.stats.evicted_in_flight += in_flight
                    .iter()
                    .filter(|(s, k)| *s == m.sid && m.leaving.contains(k))
                    .count() as u64;
                self.stats.promoted_in_flight += in_flight
                    .iter()
                    .filter(|(s, k)| *s == m.sid && m.arriving.contains(k))
                    .count() as u64;
            }
            sample.switch_entries += sync.switch_keys(m.sid).len() as u64;
            sample.entries += primary
                .store
                .map_len(primary.module(), &m.name)
                .map_err(|e| OffloadError::State(e.to_string()))?
                as u64;
        }
        self.stats.samples.push(sample);
        Ok(())
    }
}

/// The counter of `key` (fields of `key_bits` bits) in row `row` of a sketch `width`
/// counters wide: CRC-32 over the row number (8 bits) and the key fields, big-endian at
/// their widths, modulo the width — what the switch computes (`lower/sketch.rs`).
pub fn sketch_index(key_bits: &[u32], row: u32, key: &[u64], width: u64) -> u32 {
    let mut fields = Vec::with_capacity(key.len() + 1);
    fields.push((u64::from(row), 8));
    fields.extend(key.iter().zip(key_bits).map(|(&k, &b)| (k, b)));
    (HashAlgo::Crc32.compute_fields(&fields) % width.max(1)) as u32
}

/// The switch keys of `m` that are not draining, with their scores: the decayed score plus
/// their lookups since the last rebalance — the sketch's estimate (the smallest difference
/// over the rows of the counters at the key's indices) or, with [`Hotness::Counters`], the
/// difference of the entry's hit counter.
fn switch_scores(
    m: &mut PartialMap,
    hotness: Hotness,
    sync: &mut SyncEngine,
    cp: &mut dyn ControlPlane,
) -> Result<Vec<(u64, Vec<u64>)>, OffloadError> {
    if hotness == Hotness::Counters {
        return counter_scores(m, sync, cp);
    }
    let sid = m.sid;
    let switch_keys = sync.switch_keys(sid);
    let mut cold: Vec<(u64, Vec<u64>)> = Vec::with_capacity(switch_keys.len());
    let mut cells: FxHashMap<(u32, u32), u64> = FxHashMap::default();
    for k in switch_keys {
        if sync.is_server_only(sid, &k) {
            continue;
        }
        let mut est = u64::MAX;
        for (row, reg) in m.sketch.iter().enumerate() {
            let i = PartialMaps::index(m, row as u32, &k);
            let now = match cells.get(&(row as u32, i)) {
                Some(&v) => v,
                None => {
                    let v = sync.read_register(cp, reg, i)?;
                    cells.insert((row as u32, i), v);
                    v
                }
            };
            let before = m.last.get(&(row as u32, i)).copied().unwrap_or(0);
            est = est.min(now.wrapping_sub(before) & 0xffff_ffff);
        }
        let old = m.switch_score.get(k.as_slice()).copied().unwrap_or(0);
        let score = old - old / 4 + est.saturating_mul(UNIT);
        cold.push((score, k));
    }
    m.last.extend(cells);
    Ok(cold)
}

/// [`switch_scores`] from the map's tables' per-entry hit counters (main and write-back
/// tables): one read of every entry's count per table, the differences since the last
/// read, summed over the tables, as the key's hits. An entry deleted and installed again
/// starts from zero: a count below the last read is the new entry's own.
fn counter_scores(
    m: &mut PartialMap,
    sync: &mut SyncEngine,
    cp: &mut dyn ControlPlane,
) -> Result<Vec<(u64, Vec<u64>)>, OffloadError> {
    let mut now: FxHashMap<(usize, Words), u64> = FxHashMap::default();
    let mut hits: FxHashMap<Words, u64> = FxHashMap::default();
    for (i, t) in m.hit_tables.iter().enumerate() {
        for (k, n) in sync.read_direct_counters(cp, t)? {
            let k = (i, Words::new(&k));
            let before = m.last_hits.get(&k).copied().unwrap_or(0);
            *hits.entry(k.1.clone()).or_default() += if n >= before { n - before } else { n };
            now.insert(k, n);
        }
    }
    let mut out = Vec::new();
    for k in sync.switch_keys(m.sid) {
        if sync.is_server_only(m.sid, &k) {
            continue;
        }
        let h = hits.get(k.as_slice()).copied().unwrap_or(0);
        let old = m.switch_score.get(k.as_slice()).copied().unwrap_or(0);
        out.push((old - old / 4 + h.saturating_mul(UNIT), k));
    }
    m.last_hits = now;
    Ok(out)
}

/// A key just promoted keeps the score that promoted it (its server count) as its switch
/// score, with [`Hotness::Counters`]: the sketch counts every lookup of a key, on the switch
/// or not, so its estimate at the next rebalance covers the lookups before the promotion;
/// a hit counter starts with the entry, and without the carry a key promoted late in an
/// interval would look idle and be drained into the reserve at once.
fn carry_score(m: &mut PartialMap, hotness: Hotness, key: &[u64], score: u64) {
    if hotness == Hotness::Counters && score > 0 {
        let s = m.switch_score.entry(Words::new(key)).or_default();
        *s = (*s).max(score);
    }
}

/// Rebalances one map: deletes the keys drained last time, promotes the hottest
/// server-only keys into the free room, drains the coldest switch keys hotter ones should
/// replace. Returns (promoted, evicted).
fn rebalance_map(
    m: &mut PartialMap,
    opts: &PartialOptions,
    sync: &mut SyncEngine,
    cp: &mut dyn ControlPlane,
    primary: &Primary,
    in_flight: &[(u32, Vec<u64>)],
    split: &mut Vec<(u32, Vec<u64>, Vec<u64>)>,
) -> Result<(u64, u64), OffloadError> {
    let sid = m.sid;
    m.arriving.clear();
    // 1. Delete what was drained (a key written since is staged on the switch again and no
    // longer server-only: its eviction is dropped).
    let drained: Vec<Vec<u64>> = std::mem::take(&mut m.draining)
        .into_iter()
        .filter(|k| sync.is_server_only(sid, k))
        .collect();
    let mut evicted = 0;
    if !drained.is_empty() {
        sync.evict(cp, sid, &drained)?;
        evicted += drained.len() as u64;
    }
    // 2. Hotness of the switch's keys since the last rebalance (sketch), and of the
    // server-only keys (the server's counts).
    let mut cold = switch_scores(m, opts.hotness, sync, cp)?;
    m.switch_score.clear();
    m.switch_score
        .extend(cold.iter().map(|(c, k)| (Words::new(k), *c)));
    m.server_hits
        .retain(|k, _| sync.is_server_only(sid, k) && primary.map_value_ref(sid, k).is_some());
    let mut hot: Vec<(u64, Vec<u64>)> = m
        .server_hits
        .iter()
        .map(|(k, &n)| (n, k.to_vec()))
        .collect();
    // Hotness decays: what counted this round counts three quarters the next.
    m.server_hits.retain(|_, n| {
        *n -= *n / 4;
        *n >= UNIT / 8
    });
    hot.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    cold.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    if log::log_enabled!(log::Level::Debug) {
        log::debug!(
            "rebalance: {} switch keys, cold {:?} .. {:?} (nonzero {}), hot {:?}, room {}",
            cold.len(),
            cold.iter().take(5).map(|c| c.0).collect::<Vec<_>>(),
            cold.iter().rev().take(5).map(|c| c.0).collect::<Vec<_>>(),
            cold.iter().filter(|c| c.0 > 0).count(),
            hot.iter().take(5).map(|c| c.0).collect::<Vec<_>>(),
            sync.table_size(sid).saturating_sub(sync.occupancy(sid))
        );
    }
    // 3. Promote into the free room.
    let room = sync.table_size(sid).saturating_sub(sync.occupancy(sid)) as usize;
    let n = room.min(hot.len()).min(opts.max_swaps);
    let promote: Vec<Vec<u64>> = hot[..n].iter().map(|(_, k)| k.clone()).collect();
    let mut promoted = 0;
    for (h, k) in &hot[..n] {
        carry_score(m, opts.hotness, k, *h);
    }
    if !promote.is_empty() {
        match sync.promote(cp, primary, sid, &promote) {
            Ok(k) => promoted = k as u64,
            Err(e) => {
                // Not known to be on the switch: keep their packets on the server.
                for k in &promote {
                    sync.mark_server_only(sid, k);
                }
                return Err(e);
            }
        }
    }
    // 4. Drain the coldest switch keys that a hotter server-only key should replace.
    let mut drain = Vec::new();
    for ((h, _), (c, k)) in hot[n..].iter().zip(&cold) {
        // Hysteresis: replace a switch key only with one more than twice as hot.
        if drain.len() + n >= opts.max_swaps || *h <= 2 * c {
            break;
        }
        drain.push(k.clone());
    }
    let replaced = drain.len();
    // Keep a reserve of free entries (a sixteenth of the table) so that a key that turns hot
    // is promoted at the next rebalance: drain keys idle for several rebalances into it.
    let reserve = (sync.table_size(sid) / 16).max(1) as usize;
    let free_now = room - n;
    for (c, k) in cold.iter().skip(drain.len()) {
        if free_now + drain.len() >= reserve || drain.len() + n >= opts.max_swaps || *c >= UNIT / 2
        {
            break;
        }
        drain.push(k.clone());
    }
    if opts.evict_in_flight {
        for (s, k) in in_flight {
            if *s == sid && cold.iter().any(|(_, c)| c == k) && !drain.contains(k) {
                drain.insert(0, k.clone());
            }
        }
    }
    m.leaving.clone_from(&drain);
    if sync.sends_misses(sid) {
        // The switch program sends a miss to the server itself: no packet was probed
        // against the switch's keys, so nothing is in flight that the drain would protect.
        // Evict now and give the room to the keys that replace them, in this rebalance.
        let mut next: Vec<Vec<u64>> = hot[n..n + replaced]
            .iter()
            .map(|(_, k)| k.clone())
            .collect();
        if opts.evict_in_flight {
            // Tests: also promote the server-only keys of the packet in flight (sent to the
            // server by the switch, not yet run there), making room by evicting the coldest.
            for (s, k) in in_flight {
                if *s == sid
                    && sync.is_server_only(sid, k)
                    && primary.map_value_ref(sid, k).is_some()
                    && !next.contains(k)
                {
                    next.push(k.clone());
                    m.arriving.push(k.clone());
                    let free = sync.table_size(sid) as usize + drain.len();
                    if sync.occupancy(sid) as usize + next.len() > free {
                        if let Some((_, c)) = cold.iter().find(|(_, c)| !drain.contains(c)) {
                            drain.push(c.clone());
                        }
                    }
                }
            }
            if opts.split_promotion {
                // The negative control: the in-flight keys' values are read now and
                // published after the packet's server run.
                next.retain(|k| {
                    if !m.arriving.contains(k) {
                        return true;
                    }
                    if let Some(v) = primary.map_value_ref(sid, k) {
                        split.push((sid, k.clone(), v.to_vec()));
                    }
                    false
                });
            }
        }
        if !drain.is_empty() {
            sync.evict(cp, sid, &drain)?;
            evicted += drain.len() as u64;
        }
        for (h, k) in &hot[n..n + replaced] {
            carry_score(m, opts.hotness, k, *h);
        }
        if !next.is_empty() {
            match sync.promote(cp, primary, sid, &next) {
                Ok(k) => promoted += k as u64,
                Err(e) => {
                    for k in &next {
                        sync.mark_server_only(sid, k);
                    }
                    return Err(e);
                }
            }
        }
        return Ok((promoted, evicted));
    }
    if opts.skip_drain {
        // The negative control: delete at once, no drain.
        if !drain.is_empty() {
            sync.evict(cp, sid, &drain)?;
            evicted += drain.len() as u64;
        }
    } else {
        for k in &drain {
            sync.mark_server_only(sid, k);
        }
        m.draining = drain;
    }
    Ok((promoted, evicted))
}
