//! Elastic membership of a server cluster (CLIP §III-D, Fig. 4, Appendix B): servers join and
//! leave while traffic flows, and every flow keeps the server that holds its state.
//!
//! The dispatcher mirrors what CLIP keeps in switch registers (with a program compiled
//! with `P4Options::dispatch` the switch holds them and picks the server:
//! [`crate::switch_dispatch`]): two groups `G0`, `G1` (server
//! lists), a `cur` bit naming the current one, two Bloom filters `BM0`, `BM1`, and the
//! `<flow, server>` pin table. A packet's flow (its endpoint pair, as [`crate::cluster`]
//! hashes it):
//!
//! 1. pinned: goes to its pinned server;
//! 2. else sets its bits in `BM[cur]` and looks itself up in `BM[1-cur]`: found — a flow
//!    seen in the previous interval — it goes to group `1-cur`; not found, to group `cur`;
//!    within the group, to its slot table's entry `h % 256`, where entry `j` is
//!    `G[j % |G|]` (the table the switch holds in a register, ECMP-style), or, with
//!    dispatch weights ([`Membership::set_weight`]), the table [`weighted_slots`] fills.
//!
//! A change clears `BM[1-cur]`, installs the new group there and flips `cur` (so a group
//! version is an interval). Within an interval a flow's server never changes (the old filter
//! is only read, pins only change at a change). Two things can send a flow elsewhere *at* a
//! change: a flow older than one interval loses its record when its filter is cleared (CLIP
//! pins such flows to the switch), and a Bloom false positive sends a new flow to the old
//! group, so at the next change its record points at the wrong group. Both are **detected
//! and handled** the same way: at every change the runtime lists the flows each server
//! holds state for (the flow-local maps' keys, read back into endpoints through the
//! slots the shardable-state analysis found) and computes where each would go after the
//! change; a flow that would move is pinned to its server. So affinity holds for every flow
//! with state, whatever the filters say. A removed server leaves both groups: its flows are
//! pinned to it — it drains — and it takes no new flow; once it holds no flow state it is
//! idle.
//!
//! ```text
//!  before: G0 = [0]        cur = 0   BM0 ∋ A           A → 0
//!  join 1: G1 = [0, 1]     cur = 1   BM1 := ∅          A → G0 (in BM0) = 0; new B → G1
//!  join 2: G0 = [0, 1, 2]  cur = 0   BM0 := ∅          A: record lost → pinned to 0
//! ```

use std::collections::HashMap;

use tandem_analysis::shard::{Role, Slot};
use tandem_ir::HashAlgo;

/// A flow as the dispatcher sees it: its two endpoints `(address, port)`, smaller first.
pub type Flow = [(u64, u64); 2];

/// The CRC-32 of a flow's endpoints (the dispatch hash).
pub fn flow_hash(flow: &Flow) -> u64 {
    HashAlgo::Crc32.compute_fields(&[
        (flow[0].0, 32),
        (flow[0].1, 16),
        (flow[1].0, 32),
        (flow[1].1, 16),
    ])
}

/// A stored key of a flow-local map as a flow, through the map's slot roles (`None`: the
/// key does not have the slots).
pub fn key_flow(slots: &[Slot], key: &[u64]) -> Option<Flow> {
    let get = |r: Role| {
        let i = slots.iter().position(|s| s.role == r)?;
        Some(slots[i].field_value(*key.get(i)?))
    };
    let mut f = [
        (get(Role::SrcAddr)?, get(Role::SrcPort)?),
        (get(Role::DstAddr)?, get(Role::DstPort)?),
    ];
    f.sort_unstable();
    Some(f)
}

/// A server's dispatch weight when none is set: a server takes `weight / WEIGHT_UNIT` of an
/// unweighted server's share of the slots (so weights read as percentages).
pub const WEIGHT_UNIT: u32 = 100;

/// A group's slot table of `slots` entries, each server taking a share of the slots in
/// proportion to its weight, spread through the table by smooth weighted round robin (each
/// entry goes to the server whose running credit is highest, first on a tie; its credit
/// then drops by the total). Equal weights give exactly `G[j % |G|]`; a weight of 0 takes
/// no slot (unless every weight is 0: then equal shares). An empty group: all 0.
///
/// ```text
///  G = [0, 1, 2, 3], weights 100 each:       0 1 2 3 0 1 2 3 0 1 2 3 …   (64 slots each)
///  G = [0, 1, 2, 3], server 0 weighted 50:   1 2 3 0 1 2 3 1 2 3 0 1 …   (37, 73, 73, 73)
/// ```
///
/// Used to give the owner of global state ([`crate::owner`]), whose publishing for every
/// server is work the others do not have, fewer of the flows (`check --owner-share`).
pub fn weighted_slots(group: &[usize], weight: impl Fn(usize) -> u32, slots: usize) -> Vec<usize> {
    if group.is_empty() {
        return vec![0; slots];
    }
    let w: Vec<i64> = group.iter().map(|&s| i64::from(weight(s))).collect();
    let total: i64 = w.iter().sum();
    if total == 0 || w.iter().all(|x| *x == w[0]) {
        return (0..slots).map(|j| group[j % group.len()]).collect();
    }
    let mut credit = vec![0i64; group.len()];
    (0..slots)
        .map(|_| {
            for (c, x) in credit.iter_mut().zip(&w) {
                *c += x;
            }
            let mut best = 0;
            for i in 1..credit.len() {
                if credit[i] > credit[best] {
                    best = i;
                }
            }
            credit[best] -= total;
            group[best]
        })
        .collect()
}

/// Bloom filter sizes (bits, hash functions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BloomShape {
    /// Bits per filter.
    pub bits: u32,
    /// Hash functions (CRC-32 of the flow and the function's number).
    pub hashes: u32,
}

impl Default for BloomShape {
    fn default() -> Self {
        BloomShape {
            bits: 1 << 16,
            hashes: 3,
        }
    }
}

/// Counters of membership changes.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MembershipStats {
    /// Changes made (the group version).
    pub version: u64,
    /// Flows pinned at the last change (their record was lost or pointed elsewhere).
    pub pinned: u64,
    /// Of those, flows whose Bloom-filter record pointed at another server than the one
    /// holding their state (false positives, or records older than one interval).
    pub mismatches: u64,
    /// Flows whose state moved from a removed server to their new one at the last change
    /// ([`crate::migrate`]).
    #[serde(default)]
    pub migrated: u64,
    /// Frames the switch sent to another server than this mirror computes (a program and
    /// runtime out of step; `check` fails on any): [`crate::switch_dispatch`].
    pub disagreements: u64,
}

/// The dispatcher's registers: groups, `cur`, Bloom filters, pins (see the module docs).
#[derive(Clone, Debug)]
pub struct Membership {
    groups: [Vec<usize>; 2],
    cur: usize,
    bloom: [Vec<u64>; 2],
    shape: BloomShape,
    pins: HashMap<Flow, usize>,
    /// A server removed with its flows migrated: the old group's slots naming it read the
    /// current group's slot instead (until the next change).
    retired: Option<usize>,
    /// Dispatch weights of servers with one other than [`WEIGHT_UNIT`].
    weights: HashMap<usize, u32>,
    /// Each group's slot table ([`weighted_slots`]), kept with the groups and weights.
    tables: [Vec<usize>; 2],
    stats: MembershipStats,
    /// Pin flows that would move at a change (off only in the negative-control test).
    pub pinning: bool,
}

impl Membership {
    /// Servers `0..n` in group 0, the other group empty, filters empty.
    pub fn new(n: usize, shape: BloomShape) -> Membership {
        let words = (shape.bits.max(1) as usize).div_ceil(64);
        let mut m = Membership {
            groups: [(0..n).collect(), Vec::new()],
            cur: 0,
            bloom: [vec![0; words], vec![0; words]],
            shape,
            pins: HashMap::new(),
            retired: None,
            weights: HashMap::new(),
            tables: [Vec::new(), Vec::new()],
            stats: MembershipStats::default(),
            pinning: true,
        };
        m.refill();
        m
    }

    /// Sets server `s`'s dispatch weight (`WEIGHT_UNIT`: an even share; 0: no new flow
    /// unless every server of its group has 0). Before the first packet, or with the
    /// caller rewriting the switch's slot tables: flows of an unchanged group keep their
    /// server only while the tables do.
    pub fn set_weight(&mut self, s: usize, weight: u32) {
        if weight == WEIGHT_UNIT {
            self.weights.remove(&s);
        } else {
            self.weights.insert(s, weight);
        }
        self.refill();
    }

    /// Server `s`'s dispatch weight.
    pub fn weight(&self, s: usize) -> u32 {
        self.weights.get(&s).copied().unwrap_or(WEIGHT_UNIT)
    }

    /// The weights set (server, weight), for a new mirror of the same registers.
    pub fn weights(&self) -> Vec<(usize, u32)> {
        let mut v: Vec<(usize, u32)> = self.weights.iter().map(|(s, w)| (*s, *w)).collect();
        v.sort_unstable();
        v
    }

    fn refill(&mut self) {
        for g in 0..2 {
            let slots = tandem_p4::DISPATCH_SLOTS as usize;
            self.tables[g] = weighted_slots(&self.groups[g], |s| self.weight(s), slots);
        }
    }

    /// The current group.
    pub fn current(&self) -> &[usize] {
        &self.groups[self.cur]
    }

    /// Counters.
    pub fn stats(&self) -> &MembershipStats {
        &self.stats
    }

    /// Pinned flows now.
    pub fn pins(&self) -> usize {
        self.pins.len()
    }

    /// The pins, sorted.
    pub fn pin_list(&self) -> Vec<(Flow, usize)> {
        let mut v: Vec<(Flow, usize)> = self.pins.iter().map(|(f, s)| (*f, *s)).collect();
        v.sort_unstable();
        v
    }

    /// Which group is current (0 or 1).
    pub fn cur(&self) -> usize {
        self.cur
    }

    /// Group `g` (0 or 1; empty before it is first used).
    pub fn group(&self, g: usize) -> &[usize] {
        &self.groups[g]
    }

    /// Group `g`'s slot table of `slots` entries: entry `j` is `G[j % |G|]` without
    /// weights, [`weighted_slots`] with (all 0 for an empty group).
    pub fn slot_table(&self, g: usize, slots: usize) -> Vec<usize> {
        (0..slots).map(|j| self.slot(g, j)).collect()
    }

    /// Group `g`'s server for slot `j` (0 for an empty group); a retired server's slots
    /// of the old group read the current group's.
    fn slot(&self, g: usize, j: usize) -> usize {
        let table = &self.tables[g];
        let Some(&s) = table.get(j % table.len().max(1)) else {
            return 0;
        };
        if g != self.cur && self.retired == Some(s) {
            let c = &self.tables[self.cur];
            return c.get(j % c.len().max(1)).copied().unwrap_or(0);
        }
        s
    }

    /// Counts a frame the switch sent elsewhere than this mirror says.
    pub fn disagreed(&mut self) {
        self.stats.disagreements += 1;
    }

    fn bits(&self, flow: &Flow) -> impl Iterator<Item = usize> + '_ {
        let f = *flow;
        (0..self.shape.hashes).map(move |i| {
            let h = HashAlgo::Crc32.compute_fields(&[
                (u64::from(i), 8),
                (f[0].0, 32),
                (f[0].1, 16),
                (f[1].0, 32),
                (f[1].1, 16),
            ]);
            (h % u64::from(self.shape.bits.max(1))) as usize
        })
    }

    fn contains(&self, which: usize, flow: &Flow) -> bool {
        self.bits(flow)
            .collect::<Vec<_>>()
            .into_iter()
            .all(|b| self.bloom[which][b / 64] & (1 << (b % 64)) != 0)
    }

    /// Where a flow's packet goes, without recording it.
    pub fn lookup(&self, flow: &Flow) -> usize {
        if let Some(&s) = self.pins.get(flow) {
            return s;
        }
        let old = 1 - self.cur;
        let g = if !self.groups[old].is_empty() && self.contains(old, flow) {
            old
        } else {
            self.cur
        };
        let slot = (flow_hash(flow) % u64::from(tandem_p4::DISPATCH_SLOTS)) as usize;
        self.slot(g, slot)
    }

    /// Where a flow's packet goes, recording the flow in the current filter.
    pub fn dispatch(&mut self, flow: &Flow) -> usize {
        let bits: Vec<usize> = self.bits(flow).collect();
        for b in bits {
            self.bloom[self.cur][b / 64] |= 1 << (b % 64);
        }
        self.lookup(flow)
    }

    /// Changes the group to `servers` (not empty). `held`: every flow with state and the
    /// server holding it; each that would go elsewhere after the change is pinned to its
    /// server. Pins of flows no longer held are dropped.
    pub fn change(&mut self, servers: Vec<usize>, held: &[(Flow, usize)]) {
        self.change_retiring(servers, None, held);
    }

    /// [`Membership::change`] removing server `removed` (not in `servers`) whose flows
    /// migrate: none stays with it — the old group's slots naming it read the new group's,
    /// so every flow it held goes where an unpinned flow of the new group goes. Returns
    /// those flows with their new server; the caller moves their state there (or, if it
    /// cannot, pins the flow back with [`Membership::pin`]).
    pub fn change_migrating(
        &mut self,
        servers: Vec<usize>,
        removed: usize,
        held: &[(Flow, usize)],
    ) -> Vec<(Flow, usize)> {
        let staying: Vec<(Flow, usize)> = held
            .iter()
            .filter(|(_, s)| *s != removed)
            .copied()
            .collect();
        self.change_retiring(servers, Some(removed), &staying);
        let moves: Vec<(Flow, usize)> = held
            .iter()
            .filter(|(_, s)| *s == removed)
            .map(|(f, _)| (*f, self.lookup(f)))
            .collect();
        self.stats.migrated = moves.len() as u64;
        moves
    }

    /// Pins `flow` to server `s` (a flow whose state could not migrate).
    pub fn pin(&mut self, flow: Flow, s: usize) {
        self.pins.insert(flow, s);
        self.stats.pinned = self.pins.len() as u64;
        self.stats.migrated = self.stats.migrated.saturating_sub(1);
    }

    fn change_retiring(
        &mut self,
        servers: Vec<usize>,
        retired: Option<usize>,
        held: &[(Flow, usize)],
    ) {
        assert!(!servers.is_empty(), "a group has at least one server");
        let next = 1 - self.cur;
        self.bloom[next].iter_mut().for_each(|w| *w = 0);
        self.groups[next] = servers;
        self.cur = next;
        self.retired = retired;
        self.refill();
        self.stats.migrated = 0;
        self.pins.clear();
        let mut mismatches = 0;
        for (flow, s) in held {
            let to = self.lookup(flow);
            if to != *s {
                let old = 1 - self.cur;
                if !self.groups[old].is_empty() && self.contains(old, flow) {
                    mismatches += 1;
                }
                if self.pinning {
                    self.pins.insert(*flow, *s);
                }
            }
        }
        self.stats.version += 1;
        self.stats.pinned = self.pins.len() as u64;
        self.stats.mismatches = mismatches;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(i: u64) -> Flow {
        [(0x0a00_0000 + i, 40000 + i), (0xc633_6407, 80)]
    }

    #[test]
    fn new_flows_go_to_the_new_group_old_ones_stay() {
        let mut m = Membership::new(1, BloomShape::default());
        let a = flow(1);
        assert_eq!(m.dispatch(&a), 0);
        m.change(vec![0, 1, 2, 3], &[(a, 0)]);
        // A was seen in the previous interval: the old group.
        assert_eq!(m.dispatch(&a), 0);
        let spread: std::collections::BTreeSet<usize> =
            (100..200).map(|i| m.dispatch(&flow(i))).collect();
        assert!(spread.len() > 1, "new flows spread over the new group");
    }

    #[test]
    fn a_migrating_removal_leaves_the_removed_server_no_flow() {
        let mut m = Membership::new(3, BloomShape::default());
        let flows: Vec<Flow> = (0..300).map(flow).collect();
        let held: Vec<(Flow, usize)> = flows.iter().map(|f| (*f, m.dispatch(f))).collect();
        assert!(held.iter().any(|(_, s)| *s == 1));
        let moves = m.change_migrating(vec![0, 2], 1, &held);
        assert_eq!(moves.len(), held.iter().filter(|(_, s)| *s == 1).count());
        assert_eq!(m.stats().migrated, moves.len() as u64);
        // Old flows (recorded in the old filter) and new ones alike: never server 1.
        for i in 0..600 {
            assert_ne!(m.dispatch(&flow(i)), 1, "flow {i}");
        }
        for (f, to) in &moves {
            assert_eq!(m.lookup(f), *to);
        }
        // Flows of the servers that stay keep them.
        for (f, s) in held.iter().filter(|(_, s)| *s != 1) {
            assert_eq!(m.lookup(f), *s);
        }
        assert!(!m.slot_table(1 - m.cur(), 256).contains(&1));
        // Negative control: a plain change keeps the old group's slots naming server 1.
        let mut d = Membership::new(3, BloomShape::default());
        for f in &flows {
            d.dispatch(f);
        }
        d.change(vec![0, 2], &[]);
        assert!(d.slot_table(1 - d.cur(), 256).contains(&1));
    }

    #[test]
    fn a_record_lost_after_two_changes_is_pinned() {
        let mut m = Membership::new(2, BloomShape::default());
        let flows: Vec<Flow> = (0..50).map(flow).collect();
        let at: Vec<usize> = flows.iter().map(|f| m.dispatch(f)).collect();
        let held: Vec<(Flow, usize)> = flows.iter().copied().zip(at.iter().copied()).collect();
        m.change(vec![0, 1, 2], &held);
        // No packet of these flows in this interval: their record is lost at the next change.
        m.change(vec![0, 1, 2, 3], &held);
        for (f, s) in &held {
            assert_eq!(m.dispatch(f), *s);
        }
        assert!(m.pins() > 0);
    }

    /// Equal weights give the unweighted table `G[j % |G|]` (what the switch held before
    /// weights: the same dispatch); other weights give shares in proportion, spread
    /// through the table, and a weight of 0 no slot.
    #[test]
    fn weighted_slot_tables() {
        for n in 1..=8 {
            let g: Vec<usize> = (0..n).collect();
            for w in [1, 7, WEIGHT_UNIT] {
                let t = weighted_slots(&g, |_| w, 256);
                assert_eq!(t, (0..256).map(|j| j % n).collect::<Vec<_>>(), "n {n}");
            }
        }
        let g = [0, 1, 2, 3];
        let t = weighted_slots(&g, |s| if s == 0 { 50 } else { 100 }, 256);
        let count = |s: usize| t.iter().filter(|x| **x == s).count();
        assert_eq!([count(0), count(1), count(2), count(3)], [37, 73, 73, 73]);
        assert_eq!(&t[..12], &[1, 2, 3, 0, 1, 2, 3, 1, 2, 3, 0, 1]);
        // Spread: no run of server 0's slots, every 16 slots hold each server.
        for w in t.chunks(16) {
            assert!(g.iter().all(|s| w.contains(s)), "{w:?}");
        }
        let t = weighted_slots(&g, |s| if s == 0 { 0 } else { 100 }, 256);
        assert!(!t.contains(&0));
        assert_eq!(weighted_slots(&g, |_| 0, 4), vec![0, 1, 2, 3]);
        assert_eq!(weighted_slots(&[], |_| 5, 3), vec![0, 0, 0]);
    }

    /// The mirror follows its weights through changes: a weighted owner takes its share
    /// of new flows in every group it is in; unweighted, its even share (the control).
    #[test]
    fn a_weighted_server_takes_fewer_new_flows() {
        let share = |m: &mut Membership| {
            let spread = |i: u64| {
                let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
                [
                    (0x0a00_0000 + (h & 0xff_ffff), 1024 + i % 60000),
                    (0xc633_6407, 80),
                ]
            };
            (0..4000).filter(|i| m.dispatch(&spread(*i)) == 0).count() as f64 / 4000.0
        };
        let mut even = Membership::new(4, BloomShape::default());
        let mut light = Membership::new(4, BloomShape::default());
        light.set_weight(0, 25);
        assert_eq!(light.weights(), vec![(0, 25)]);
        let (e, l) = (share(&mut even), share(&mut light));
        assert!((e - 0.25).abs() < 0.03, "even share {e}");
        // 25 against 3 × 100: 25/325 ≈ 7.7% of the slots.
        assert!((l - 25.0 / 325.0).abs() < 0.03, "weighted share {l}");
        light.change(vec![0, 1], &[]);
        let t = light.slot_table(light.cur(), 256);
        assert_eq!(t.iter().filter(|s| **s == 0).count(), 51, "25/125 of 256");
    }
}
