//! Algorithmic LPM (ALPM): a longest-prefix-match table as two levels — a small first level
//! of *pivot* prefixes in TCAM, each naming a *bucket* of at most `depth` prefixes in SRAM
//! (Sailfish §4.4 "TCAM conservation", Fig. 16; the subtree-split construction of Liu et al.).
//!
//! Before (plain LPM, every prefix a TCAM entry):
//! ```text
//!   10.0.0.0/8 -> A   10.1.0.0/16 -> B   10.1.2.0/24 -> C   10.1.3.0/24 -> D   11.0.0.0/8 -> E
//!   TCAM 5 entries
//! ```
//! After (`depth = 2`):
//! ```text
//!   TCAM pivots            SRAM buckets                    cover (longest prefix above the pivot)
//!   10.1.0.0/17            {10.1.2.0/24 C, 10.1.3.0/24 D}  10.1.0.0/16 B
//!   10.0.0.0/8             {10.0.0.0/8 A, 10.1.0.0/16 B}   -
//!   0.0.0.0/0              {11.0.0.0/8 E}                  -
//!   TCAM 3 entries, SRAM 3 buckets of 2 slots
//! ```
//! A lookup takes the longest matching pivot (the TCAM), then the longest matching prefix in
//! its bucket (SRAM); when none matches, the pivot's cover. That equals plain LPM: the
//! answer's bucket pivot is an ancestor of the answer, so it matches the address; a longer
//! matching pivot would have taken the answer into its own bucket; and an answer above the
//! pivot is the cover. Keys are up to 128 bits (an exact part, such as a VNI, is the top
//! bits of every prefix: `LpmKey{vni, addr}` is the prefix `vni ++ addr` of length
//! `bits(vni) + len`). The bucket depth trades TCAM entries against SRAM slots.

use std::collections::BTreeMap;

/// One prefix: the key's top `len` bits of `value` (the bits below are zero), `width` bits
/// in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Prefix {
    pub value: u128,
    pub len: u32,
}

impl Prefix {
    /// The prefix of `addr`'s top `len` bits in a `width`-bit key.
    pub fn of(addr: u128, len: u32, width: u32) -> Prefix {
        Prefix {
            value: addr & mask(len, width),
            len,
        }
    }

    /// Does this prefix match `addr` (in a `width`-bit key)?
    pub fn matches(&self, addr: u128, width: u32) -> bool {
        addr & mask(self.len, width) == self.value
    }
}

/// The mask of the top `len` bits of a `width`-bit key (`len <= width <= 128`).
fn mask(len: u32, width: u32) -> u128 {
    let all = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    if len == 0 {
        0
    } else if len >= width {
        all
    } else {
        all & !((1u128 << (width - len)) - 1)
    }
}

/// One first-level entry: the pivot, its bucket and its cover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bucket<V> {
    pub pivot: Prefix,
    pub entries: Vec<(Prefix, V)>,
    /// The longest prefix of the table strictly above the pivot (shorter, matching it).
    pub cover: Option<(Prefix, V)>,
}

/// A built ALPM table.
#[derive(Clone, Debug)]
pub struct Alpm<V> {
    pub width: u32,
    pub depth: usize,
    pub buckets: Vec<Bucket<V>>,
}

/// A binary trie node over the prefixes (index into `Trie::nodes`).
struct Node {
    child: [Option<usize>; 2],
    /// The table's entry at exactly this node.
    entry: Option<usize>,
}

struct Trie {
    nodes: Vec<Node>,
}

impl Trie {
    fn build(width: u32, prefixes: &[Prefix]) -> Trie {
        let mut t = Trie {
            nodes: vec![Node {
                child: [None, None],
                entry: None,
            }],
        };
        for (i, p) in prefixes.iter().enumerate() {
            let mut n = 0;
            for b in 0..p.len {
                let bit = ((p.value >> (width - 1 - b)) & 1) as usize;
                n = match t.nodes[n].child[bit] {
                    Some(c) => c,
                    None => {
                        t.nodes.push(Node {
                            child: [None, None],
                            entry: None,
                        });
                        let c = t.nodes.len() - 1;
                        t.nodes[n].child[bit] = Some(c);
                        c
                    }
                };
            }
            t.nodes[n].entry = Some(i);
        }
        t
    }
}

impl Trie {
    /// The entry of the longest prefix strictly shorter than `p` on `p`'s path (its cover).
    fn cover(&self, width: u32, p: Prefix) -> Option<usize> {
        let mut n = 0;
        let mut best = None;
        for b in 0..p.len {
            if let Some(e) = self.nodes[n].entry {
                best = Some(e);
            }
            let bit = ((p.value >> (width - 1 - b)) & 1) as usize;
            match self.nodes[n].child[bit] {
                Some(c) => n = c,
                None => break,
            }
        }
        best
    }
}

impl<V: Clone> Alpm<V> {
    /// Builds the two levels for `entries` (distinct prefixes of a `width`-bit key, `width`
    /// in 1..=128) with buckets of at most `depth` (>= 1) prefixes.
    /// (A width outside 1..=128 is clamped; prefixes longer than the width are left out.)
    pub fn build(width: u32, depth: usize, entries: &[(Prefix, V)]) -> Alpm<V> {
        let depth = depth.max(1);
        let width = width.clamp(1, 128);
        let entries: Vec<(Prefix, V)> = entries
            .iter()
            .filter(|e| e.0.len <= width)
            .cloned()
            .collect();
        let entries = &entries[..];
        let prefixes: Vec<Prefix> = entries.iter().map(|e| e.0).collect();
        let trie = Trie::build(width, &prefixes);
        let mut carved: Vec<(Prefix, Vec<usize>)> = Vec::new();
        // Post-order without recursion: (node, its prefix, children visited).
        let mut stack: Vec<(usize, Prefix, bool)> = vec![(0, Prefix { value: 0, len: 0 }, false)];
        // Uncarved entries of each finished node's subtree.
        let mut pending: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        while let Some((n, p, done)) = stack.pop() {
            let node = &trie.nodes[n];
            if !done {
                stack.push((n, p, true));
                for (bit, c) in node.child.iter().enumerate() {
                    if let Some(c) = *c {
                        let value = p.value | ((bit as u128) << (width - 1 - p.len));
                        stack.push((
                            c,
                            Prefix {
                                value,
                                len: p.len + 1,
                            },
                            false,
                        ));
                    }
                }
                continue;
            }
            let mut here: Vec<usize> = node.entry.into_iter().collect();
            let mut kids: Vec<(usize, Prefix, Vec<usize>)> = Vec::new();
            for (bit, c) in node.child.iter().enumerate() {
                if let Some(c) = *c {
                    let value = p.value | ((bit as u128) << (width - 1 - p.len));
                    let list = pending.remove(&c).unwrap_or_default();
                    kids.push((
                        c,
                        Prefix {
                            value,
                            len: p.len + 1,
                        },
                        list,
                    ));
                }
            }
            // Carve the fuller child subtree into a bucket while this node holds too many.
            loop {
                let total = here.len() + kids.iter().map(|k| k.2.len()).sum::<usize>();
                if total <= depth {
                    break;
                }
                let Some(i) = (0..kids.len())
                    .filter(|&i| !kids[i].2.is_empty())
                    .max_by_key(|&i| kids[i].2.len())
                else {
                    break;
                };
                let (_, kp, list) = std::mem::replace(&mut kids[i], (0, p, Vec::new()));
                carved.push((kp, list));
            }
            for k in kids {
                here.extend(k.2);
            }
            if n == 0 {
                if !here.is_empty() || carved.is_empty() {
                    carved.push((p, here));
                }
            } else {
                pending.insert(n, here);
            }
        }
        let buckets = carved
            .into_iter()
            .map(|(pivot, list)| Bucket {
                pivot,
                entries: list.iter().map(|&i| entries[i].clone()).collect(),
                cover: trie.cover(width, pivot).map(|i| entries[i].clone()),
            })
            .collect();
        Alpm {
            width,
            depth,
            buckets,
        }
    }

    /// The value of the longest prefix matching `addr`: the longest matching pivot (the
    /// TCAM), then its bucket (SRAM), else its cover.
    pub fn lookup(&self, addr: u128) -> Option<&V> {
        let b = self
            .buckets
            .iter()
            .filter(|b| b.pivot.matches(addr, self.width))
            .max_by_key(|b| b.pivot.len)?;
        b.entries
            .iter()
            .filter(|(p, _)| p.matches(addr, self.width))
            .max_by_key(|(p, _)| p.len)
            .or(b.cover.as_ref())
            .map(|(_, v)| v)
    }

    /// First-level (TCAM) entries.
    pub fn pivots(&self) -> usize {
        self.buckets.len()
    }
}

/// Plain longest prefix match over `entries` (the reference ALPM must equal).
pub fn lpm_lookup<V>(entries: &[(Prefix, V)], addr: u128, width: u32) -> Option<&V> {
    entries
        .iter()
        .filter(|(p, _)| p.matches(addr, width))
        .max_by_key(|(p, _)| p.len)
        .map(|(_, v)| v)
}

/// The pivots (TCAM entries) ALPM needs for `n` prefixes with buckets of `depth`: the
/// subtree split fills buckets at least half on average (a carved subtree holds more than
/// `depth / 2` prefixes, or it would not have been carved before its sibling), so at most
/// `ceil(2n / depth) + 1`; the resource model uses this bound.
pub fn pivots_bound(n: u64, depth: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    (2 * n).div_ceil(depth.max(1)) + 1
}

/// Why a map's entries cannot be lowered to ALPM tables.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum AlpmError {
    #[error("ALPM key of {0} bits: at most 128 (one prefix over all key fields)")]
    KeyTooWide(u32),
    #[error("ALPM entry key {key:?}: expected {want} words (the exact fields, the prefix and its length)")]
    BadEntry { key: Vec<u64>, want: usize },
}

/// One first-level (TCAM) entry of a lowered ALPM map: the pivot as a ternary match per key
/// field (value, mask), its priority (the pivot's length: the longest matching pivot wins),
/// its bucket id (from 1; 0 means "no pivot") and its cover's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PivotEntry {
    pub ternary: Vec<(u64, u64)>,
    pub priority: u32,
    pub bucket: u64,
    pub cover: Option<Vec<u64>>,
}

/// One second-level (SRAM) entry: the bucket id, then the map entry as it is (the exact
/// key fields, the prefix and its length — an LPM map's entry key words) and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BucketEntry {
    pub bucket: u64,
    pub key: Vec<u64>,
    pub value: Vec<u64>,
}

/// The prefix an LPM map entry names over all its key fields (`key_bits`, the last one
/// prefix-matched): the exact fields are its top bits. `key` is the entry's key words:
/// the exact fields, the prefix, its length.
pub fn entry_prefix(key_bits: &[u32], key: &[u64]) -> Result<Prefix, AlpmError> {
    let width: u32 = key_bits.iter().sum();
    if width > 128 || width == 0 {
        return Err(AlpmError::KeyTooWide(width));
    }
    if key.len() != key_bits.len() + 1 {
        return Err(AlpmError::BadEntry {
            key: key.to_vec(),
            want: key_bits.len() + 1,
        });
    }
    let mut value: u128 = 0;
    for (&k, &b) in key.iter().zip(key_bits) {
        value = (value << b) | (u128::from(k) & field_mask(b));
    }
    let last = key_bits[key_bits.len() - 1];
    let len = (width - last) + (key[key_bits.len()] as u32).min(last);
    Ok(Prefix::of(value, len, width))
}

fn field_mask(bits: u32) -> u128 {
    if bits >= 64 {
        u128::from(u64::MAX)
    } else {
        (1u128 << bits) - 1
    }
}

/// A prefix over all key fields as a ternary (value, mask) per field.
pub fn ternary_fields(p: Prefix, key_bits: &[u32]) -> Vec<(u64, u64)> {
    let width: u32 = key_bits.iter().sum();
    let m = mask(p.len, width);
    let mut shift = width;
    key_bits
        .iter()
        .map(|&b| {
            shift -= b;
            let f = field_mask(b);
            (((p.value >> shift) & f) as u64, ((m >> shift) & f) as u64)
        })
        .collect()
}

/// Lowers an LPM map's entries (key words: exact fields, prefix, length; value words) to the
/// two levels the generated program looks up: the pivot table (ternary over every key field,
/// the longest pivot first) naming a bucket and carrying its cover, and the bucket table
/// (exact bucket id, then the map's own key). The switch's answer for any key is the map's
/// longest prefix match ([`Alpm::lookup`]).
pub fn lower_entries(
    key_bits: &[u32],
    depth: usize,
    entries: &[(Vec<u64>, Vec<u64>)],
) -> Result<(Vec<PivotEntry>, Vec<BucketEntry>), AlpmError> {
    let width: u32 = key_bits.iter().sum();
    let prefixed: Vec<(Prefix, usize)> = entries
        .iter()
        .enumerate()
        .map(|(i, (k, _))| Ok((entry_prefix(key_bits, k)?, i)))
        .collect::<Result<_, AlpmError>>()?;
    let alpm = Alpm::build(width, depth, &prefixed);
    let mut pivots = Vec::new();
    let mut buckets = Vec::new();
    for (b, bucket) in alpm.buckets.iter().enumerate() {
        let id = b as u64 + 1;
        pivots.push(PivotEntry {
            ternary: ternary_fields(bucket.pivot, key_bits),
            priority: bucket.pivot.len,
            bucket: id,
            cover: bucket.cover.as_ref().map(|(_, i)| entries[*i].1.clone()),
        });
        for (_, i) in &bucket.entries {
            buckets.push(BucketEntry {
                bucket: id,
                key: entries[*i].0.clone(),
                value: entries[*i].1.clone(),
            });
        }
    }
    Ok((pivots, buckets))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_set(
        rng: &mut ChaCha8Rng,
        width: u32,
        n: usize,
        exact_bits: u32,
    ) -> Vec<(Prefix, u32)> {
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        // A few exact parts (VNIs), clustered addresses so prefixes nest.
        while out.len() < n {
            let vni = u128::from(rng.gen_range(0..4u32));
            let addr_bits = width - exact_bits;
            let base: u128 = u128::from(rng.gen_range(0..8u32)) << (addr_bits - 3);
            let addr = base | (u128::from(rng.gen::<u64>()) & ((1u128 << (addr_bits - 3)) - 1));
            let len = exact_bits + rng.gen_range(0..=addr_bits);
            let p = Prefix::of((vni << addr_bits) | addr, len, width);
            if seen.insert(p) {
                out.push((p, out.len() as u32));
            }
        }
        out
    }

    fn probe(rng: &mut ChaCha8Rng, set: &[(Prefix, u32)], width: u32) -> u128 {
        // Half the probes near an entry (sharing its prefix), half anywhere.
        let all = mask(width, width);
        if rng.gen_bool(0.5) && !set.is_empty() {
            let (p, _) = set[rng.gen_range(0..set.len())];
            p.value | (u128::from(rng.gen::<u64>()) & !mask(p.len, width) & all)
        } else {
            (u128::from(rng.gen::<u64>()) << 64 | u128::from(rng.gen::<u64>())) & all
        }
    }

    #[test]
    fn alpm_equals_lpm_on_random_prefix_sets() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for (width, exact) in [(32, 0), (56, 24), (88, 24), (128, 64)] {
            for depth in [1, 2, 4, 16] {
                for n in [0, 1, 5, 60, 300] {
                    let set = random_set(&mut rng, width, n, exact);
                    let alpm = Alpm::build(width, depth, &set);
                    let total: usize = alpm.buckets.iter().map(|b| b.entries.len()).sum();
                    assert_eq!(total, set.len(), "every prefix in one bucket");
                    assert!(alpm.buckets.iter().all(|b| b.entries.len() <= depth));
                    assert!(alpm.pivots() as u64 <= pivots_bound(n as u64, depth as u64).max(1));
                    for _ in 0..400 {
                        let a = probe(&mut rng, &set, width);
                        assert_eq!(
                            alpm.lookup(a),
                            lpm_lookup(&set, a, width),
                            "width {width} depth {depth} n {n} addr {a:#x}"
                        );
                    }
                }
            }
        }
    }

    /// Negative control: without the covers (the answer above the pivot), the two-level
    /// lookup misses prefixes, and the comparison above catches it.
    #[test]
    fn alpm_without_covers_differs() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let set = random_set(&mut rng, 56, 300, 24);
        let mut broken = Alpm::build(56, 4, &set);
        for b in &mut broken.buckets {
            b.cover = None;
        }
        let differs = (0..2000).any(|_| {
            let a = probe(&mut rng, &set, 56);
            broken.lookup(a) != lpm_lookup(&set, a, 56)
        });
        assert!(differs, "the comparison would not notice a missing cover");
    }

    #[test]
    fn example_from_the_module_docs() {
        let p = |a: [u8; 4], len| Prefix::of(u128::from(u32::from_be_bytes(a)), len, 32);
        let set = vec![
            (p([10, 0, 0, 0], 8), 'A'),
            (p([10, 1, 0, 0], 16), 'B'),
            (p([10, 1, 2, 0], 24), 'C'),
            (p([10, 1, 3, 0], 24), 'D'),
            (p([11, 0, 0, 0], 8), 'E'),
        ];
        let alpm = Alpm::build(32, 2, &set);
        assert_eq!(alpm.pivots(), 3);
        let pivots: Vec<Prefix> = alpm.buckets.iter().map(|b| b.pivot).collect();
        assert_eq!(
            pivots,
            [
                p([10, 1, 0, 0], 17),
                p([10, 0, 0, 0], 8),
                p([0, 0, 0, 0], 0)
            ]
        );
        assert_eq!(alpm.buckets[0].cover.map(|c| c.1), Some('B'));
        let at = |a: [u8; 4]| alpm.lookup(u128::from(u32::from_be_bytes(a))).copied();
        assert_eq!(at([10, 1, 3, 9]), Some('D'));
        assert_eq!(at([10, 1, 9, 9]), Some('B'));
        assert_eq!(at([10, 9, 9, 9]), Some('A'));
        assert_eq!(at([11, 1, 1, 1]), Some('E'));
        assert_eq!(at([12, 1, 1, 1]), None);
    }
}
