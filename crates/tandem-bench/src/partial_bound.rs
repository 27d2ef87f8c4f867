//! What any promotion policy could keep on the switch, on a given trace (`tandem
//! bench-partial`): the floor under the server's packet share of a partial map.
//!
//! A packet whose key the switch table does not hold goes to the server. Two kinds of such
//! packets no runtime can avoid with a table of `C` entries:
//!
//! - **compulsory**: the first packet of a key the trace has not seen before (the NF inserts
//!   it on the server; there is no entry to put on the switch before it exists);
//! - **capacity**: a packet of a key that had to leave the table for others. The fewest of
//!   those is what a clairvoyant runtime gets — one that knows every future packet, installs
//!   a key right after its miss (as promotion on a miss does) and, when the table is full,
//!   drops the key needed furthest in the future, or skips the install when the new key is
//!   that one (Belady's MIN with bypass, optimal for the number of misses).
//!
//! ```text
//! keys:      a b c a b c a b        C = 2
//! compulsory ✗ ✗ ✗ . . . . .        3 (first sightings)
//! Belady     ✗ ✗ ✗ . . ✗ . .        4: c is needed after a and b each time, so it never
//!                                      takes their place (an LRU table would miss all 8)
//! ```
//!
//! Both are counted after warm-up (from packet `warm_from` on), over all packets then —
//! packets that look up no partial key count as staying on the switch. The share of
//! packets carried by the busiest keys (all packets, the top `C`) says how skewed the trace
//! is; with flows arriving all the time it is not a bound: the runtime follows the keys
//! active now, which the MIN count above accounts for.

use std::collections::{BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

/// The bound on one trace.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Bound {
    /// Packets, and the packets from warm-up on.
    pub packets: u64,
    pub warm_packets: u64,
    /// Distinct keys over the whole trace (the map's entries at the end when it forgets
    /// none) and the table size `C` the bound is for.
    pub keys: u64,
    pub table: u64,
    /// After warm-up: packets of a key's first sighting, and clairvoyant misses (Belady,
    /// compulsory included), as shares of the packets then.
    pub warm_compulsory_share: f64,
    pub warm_belady_share: f64,
    /// The share of all packets that carry one of the `table` busiest keys.
    pub top_share: f64,
}

/// Computes the bound for `trace` (one entry per packet: the packet's key, `None` when it
/// looks up none), a table of `table` entries and warm-up ending at packet `warm_from`.
pub fn bound<K: Clone + Eq + std::hash::Hash>(
    trace: &[Option<K>],
    table: u64,
    warm_from: usize,
) -> Bound {
    let n = trace.len();
    // Interned keys; next[i] = the next position with the same key (n: never).
    let mut ids: HashMap<K, usize> = HashMap::new();
    let seq: Vec<Option<usize>> = trace
        .iter()
        .map(|k| {
            k.as_ref().map(|k| {
                let next = ids.len();
                *ids.entry(k.clone()).or_insert(next)
            })
        })
        .collect();
    let mut next = vec![n; n];
    let mut seen_at = vec![n; ids.len()];
    for i in (0..n).rev() {
        if let Some(k) = seq[i] {
            next[i] = seen_at[k];
            seen_at[k] = i;
        }
    }
    let mut counts = vec![0u64; ids.len()];
    let mut seen = vec![false; ids.len()];
    // Cached keys by their next use (latest last), and each cached key's next use.
    let mut by_next: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut cached: Vec<Option<usize>> = vec![None; ids.len()];
    let (mut compulsory, mut misses) = (0u64, 0u64);
    let cap = usize::try_from(table).unwrap_or(usize::MAX);
    for (i, k) in seq.iter().enumerate() {
        let Some(k) = *k else { continue };
        counts[k] += 1;
        let warm = i >= warm_from;
        if !std::mem::replace(&mut seen[k], true) && warm {
            compulsory += 1;
        }
        if let Some(at) = cached[k] {
            by_next.remove(&(at, k));
            by_next.insert((next[i], k));
            cached[k] = Some(next[i]);
            continue;
        }
        if warm {
            misses += 1;
        }
        if cap == 0 || next[i] == n {
            continue; // never needed again: do not install it
        }
        if by_next.len() >= cap {
            let &(far, victim) = by_next.last().expect("a full table holds a key");
            if far <= next[i] {
                continue; // bypass: every cached key is needed sooner
            }
            by_next.remove(&(far, victim));
            cached[victim] = None;
        }
        by_next.insert((next[i], k));
        cached[k] = Some(next[i]);
    }
    counts.sort_unstable_by(|a, b| b.cmp(a));
    let top: u64 = counts.iter().take(cap).sum();
    let warm_packets = n.saturating_sub(warm_from) as u64;
    let share = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    Bound {
        packets: n as u64,
        warm_packets,
        keys: ids.len() as u64,
        table,
        warm_compulsory_share: share(compulsory, warm_packets),
        warm_belady_share: share(misses, warm_packets),
        top_share: share(top, n as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(s: &str) -> Vec<Option<char>> {
        s.chars().map(|c| (c != '-').then_some(c)).collect()
    }

    #[test]
    fn the_doc_example() {
        let b = bound(&keys("abcabcab"), 2, 0);
        assert_eq!(b.keys, 3);
        assert_eq!(b.warm_compulsory_share, 3.0 / 8.0);
        assert_eq!(b.warm_belady_share, 4.0 / 8.0);
        // a and b: 3 packets each.
        assert_eq!(b.top_share, 6.0 / 8.0);
    }

    /// On a loop one key longer than the table LRU misses every packet; MIN with bypass
    /// keeps two keys and misses only the third, once per round.
    #[test]
    fn min_beats_lru_on_a_loop() {
        let t = keys(&"abc".repeat(10));
        let b = bound(&t, 2, 0);
        assert_eq!(b.warm_belady_share, 12.0 / 30.0, "{b:?}");
        // A table that holds every key misses only the first sightings.
        let all = bound(&t, 3, 0);
        assert_eq!(all.warm_belady_share, all.warm_compulsory_share);
        assert_eq!(all.warm_compulsory_share, 3.0 / 30.0);
    }

    #[test]
    fn warm_up_and_packets_without_keys() {
        // Packets without a key count in the denominator, never as misses; warm-up
        // (the first 4) is left out of both.
        let b = bound(&keys("ab--ab-c"), 1, 4);
        assert_eq!(b.warm_packets, 4);
        assert_eq!(b.warm_compulsory_share, 1.0 / 4.0); // c
                                                        // a or b is cached at 4 (the one needed next), the other misses; c misses.
        assert_eq!(b.warm_belady_share, 2.0 / 4.0);
        assert_eq!(bound(&keys("aaaa"), 0, 0).warm_belady_share, 1.0);
    }
}
