//! A persistent hash array mapped trie (HAMT) keyed by `u128`: the entry store of
//! exact-match tables.
//!
//! Cloning a map is one `Arc` increment; an insert or remove copies only the nodes
//! on the path to its key (at most ~4 nodes of at most 32 children for tables of
//! 10^5 entries) and shares everything else with the old map. So a control-plane
//! batch of `k` operations on an `n`-entry table costs O(k log n), not O(n), and
//! packets keep reading the old map until the new snapshot is published.
//!
//! Keys go through [`mix`], a bijection of `u128`, and the trie branches on 5 bits
//! of the mixed value per level, low bits first. Because `mix` is a bijection,
//! two different keys always differ somewhere in their 128 mixed bits, so they
//! part within 26 levels and there are no collision lists. Node invariant: every
//! node but the root holds at least two keys in its subtree (a removal that
//! leaves one key collapses the chain above it back into a leaf), so the trie
//! stays as shallow as its keys allow.

use std::sync::Arc;

const BITS: u32 = 5;
const CHUNK: u128 = (1 << BITS) - 1;

/// A bijective mix of the key (each step is invertible): xor-fold, multiply by an
/// odd constant, xor-fold. Low bits of the result depend on every key bit.
#[inline(always)]
fn mix(k: u128) -> u128 {
    const C: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835; // odd
    let h = (k ^ (k >> 64)).wrapping_mul(C);
    h ^ (h >> 64)
}

#[inline(always)]
fn chunk(h: u128, shift: u32) -> u32 {
    (h.checked_shr(shift).unwrap_or(0) & CHUNK) as u32
}

#[derive(Clone, Debug)]
enum Kid<V> {
    Leaf(u128, V),
    Sub(Branch<V>),
}

/// A node: bit `c` of `bitmap` says whether chunk value `c` has a child, and the
/// child is `kids[popcount(bitmap below c)]`. The bitmap sits beside the pointer
/// (in the parent), so a lookup does one dependent load per level.
#[derive(Clone, Debug)]
struct Branch<V> {
    bitmap: u32,
    kids: Arc<[Kid<V>]>,
}

impl<V: Clone> Branch<V> {
    fn empty() -> Branch<V> {
        Branch {
            bitmap: 0,
            kids: Arc::new([]),
        }
    }

    /// The children, copied first if shared (copy-on-write).
    fn kids_mut(&mut self) -> &mut [Kid<V>] {
        if Arc::get_mut(&mut self.kids).is_none() {
            self.kids = self.kids.iter().cloned().collect::<Vec<_>>().into();
        }
        Arc::get_mut(&mut self.kids).map_or(&mut [][..], |k| k)
    }

    /// The children with `kid` inserted at `pos` / removed from `pos`.
    fn with(&self, pos: usize, kid: Option<Kid<V>>) -> Arc<[Kid<V>]> {
        let mut v = Vec::with_capacity(self.kids.len() + 1);
        v.extend(self.kids.iter().take(pos).cloned());
        let skip = match kid {
            Some(k) => {
                v.push(k);
                0
            }
            None => 1,
        };
        v.extend(self.kids.iter().skip(pos + skip).cloned());
        v.into()
    }
}

/// A persistent map from `u128` to `V`. `V` should be cheap to clone (an `Arc`):
/// path copies clone the values of the copied nodes.
#[derive(Clone, Debug)]
pub(crate) struct PMap<V> {
    root: Branch<V>,
    len: usize,
}

impl<V: Clone> Default for PMap<V> {
    fn default() -> Self {
        PMap::new()
    }
}

impl<V: Clone> PMap<V> {
    pub(crate) fn new() -> PMap<V> {
        PMap {
            root: Branch::empty(),
            len: 0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value stored under `key`.
    #[inline]
    pub(crate) fn get(&self, key: u128) -> Option<&V> {
        let mut h = mix(key);
        let mut b: &Branch<V> = &self.root;
        loop {
            let c = (h & CHUNK) as u32;
            let bit = 1u32 << c;
            let pos = if b.bitmap == u32::MAX {
                // full nodes (the top of large tables) need no popcount
                c as usize
            } else if b.bitmap & bit == 0 {
                return None;
            } else {
                (b.bitmap & (bit - 1)).count_ones() as usize
            };
            match b.kids.get(pos)? {
                Kid::Leaf(k, v) => return (*k == key).then_some(v),
                Kid::Sub(n) => {
                    b = n;
                    h >>= BITS;
                }
            }
        }
    }

    /// Inserts or replaces; returns the replaced value.
    pub(crate) fn insert(&mut self, key: u128, value: V) -> Option<V> {
        let old = insert_in(&mut self.root, key, mix(key), 0, value);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    /// Removes `key`; returns its value. Copies nothing if the key is absent.
    pub(crate) fn remove(&mut self, key: u128) -> Option<V> {
        self.get(key)?;
        let old = remove_in(&mut self.root, key, mix(key), 0);
        if old.is_some() {
            self.len -= 1;
        }
        old
    }

    pub(crate) fn clear(&mut self) {
        *self = PMap::new();
    }

    /// Every (key, value), in trie order (not insertion order).
    pub(crate) fn for_each<'a>(&'a self, mut f: impl FnMut(u128, &'a V)) {
        fn walk<'a, V>(b: &'a Branch<V>, f: &mut impl FnMut(u128, &'a V)) {
            for k in b.kids.iter() {
                match k {
                    Kid::Leaf(key, v) => f(*key, v),
                    Kid::Sub(s) => walk(s, f),
                }
            }
        }
        walk(&self.root, &mut f);
    }

    /// Depth of the deepest leaf (root children are at depth 1); for tests.
    #[cfg(test)]
    fn depth(&self) -> usize {
        fn d<V>(b: &Branch<V>) -> usize {
            b.kids
                .iter()
                .map(|k| match k {
                    Kid::Leaf(..) => 1,
                    Kid::Sub(s) => 1 + d(s),
                })
                .max()
                .unwrap_or(0)
        }
        d(&self.root)
    }

    /// Checks the structural invariants; for tests.
    #[cfg(test)]
    fn check(&self) {
        fn walk<V>(b: &Branch<V>, root: bool, path: &[u32]) -> usize {
            assert_eq!(b.bitmap.count_ones() as usize, b.kids.len());
            let mut total = 0;
            let mut c = 0;
            for k in b.kids.iter() {
                while b.bitmap & (1 << c) == 0 {
                    c += 1;
                }
                let mut p = path.to_vec();
                p.push(c);
                match k {
                    Kid::Leaf(key, _) => {
                        let h = mix(*key);
                        for (lvl, want) in p.iter().enumerate() {
                            assert_eq!(chunk(h, lvl as u32 * BITS), *want, "leaf misplaced");
                        }
                        total += 1;
                    }
                    Kid::Sub(s) => total += walk(s, false, &p),
                }
                c += 1;
            }
            if !root {
                assert!(total >= 2, "non-root node with {total} key(s)");
            }
            total
        }
        assert_eq!(walk(&self.root, true, &[]), self.len);
    }
}

fn insert_in<V: Clone>(b: &mut Branch<V>, key: u128, h: u128, shift: u32, value: V) -> Option<V> {
    let bit = 1u32 << chunk(h, shift);
    let pos = (b.bitmap & (bit - 1)).count_ones() as usize;
    if b.bitmap & bit == 0 {
        b.kids = b.with(pos, Some(Kid::Leaf(key, value)));
        b.bitmap |= bit;
        return None;
    }
    let kid = b.kids_mut().get_mut(pos)?;
    match kid {
        Kid::Sub(sub) => insert_in(sub, key, h, shift + BITS, value),
        Kid::Leaf(k, v) if *k == key => Some(std::mem::replace(v, value)),
        Kid::Leaf(..) => {
            let Kid::Leaf(k2, v2) = std::mem::replace(kid, Kid::Sub(Branch::empty())) else {
                return None;
            };
            *kid = Kid::Sub(pair(shift + BITS, (key, h, value), (k2, mix(k2), v2)));
            None
        }
    }
}

/// A node at `shift` holding two different keys (a chain of single-child nodes
/// while their chunks agree; they disagree within 128 bits since `mix` is a
/// bijection).
fn pair<V>(shift: u32, a: (u128, u128, V), b: (u128, u128, V)) -> Branch<V> {
    let (ca, cb) = (chunk(a.1, shift), chunk(b.1, shift));
    if ca == cb && shift < 128 {
        return Branch {
            bitmap: 1 << ca,
            kids: Arc::new([Kid::Sub(pair(shift + BITS, a, b))]),
        };
    }
    let (lo, hi) = if ca < cb { (a, b) } else { (b, a) };
    Branch {
        bitmap: (1 << ca) | (1 << cb),
        kids: Arc::new([Kid::Leaf(lo.0, lo.2), Kid::Leaf(hi.0, hi.2)]),
    }
}

fn remove_in<V: Clone>(b: &mut Branch<V>, key: u128, h: u128, shift: u32) -> Option<V> {
    let bit = 1u32 << chunk(h, shift);
    if b.bitmap & bit == 0 {
        return None;
    }
    let pos = (b.bitmap & (bit - 1)).count_ones() as usize;
    match b.kids.get(pos)? {
        Kid::Leaf(k, v) if *k == key => {
            let v = v.clone();
            b.kids = b.with(pos, None);
            b.bitmap &= !bit;
            Some(v)
        }
        Kid::Leaf(..) => None,
        Kid::Sub(_) => {
            let kid = b.kids_mut().get_mut(pos)?;
            let Kid::Sub(sub) = kid else {
                return None;
            };
            let old = remove_in(sub, key, h, shift + BITS)?;
            // one key left below: pull it up (the chain collapses level by level)
            if sub.kids.len() == 1 && matches!(sub.kids[0], Kid::Leaf(..)) {
                let leaf = sub.kids[0].clone();
                *kid = leaf;
            }
            Some(old)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    #[test]
    fn mix_is_a_bijection_on_samples() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..100_000u128 {
            assert!(seen.insert(mix(i)));
            assert!(seen.insert(mix((i << 100) | (1 << 99))));
        }
    }

    #[test]
    fn sequential_keys_stay_shallow() {
        let mut m = PMap::new();
        for i in 0..50_000u128 {
            assert_eq!(m.insert(i, i as u32), None);
        }
        m.check();
        assert_eq!(m.len(), 50_000);
        assert!(m.depth() <= 8, "depth {}", m.depth());
        for i in 0..50_000u128 {
            assert_eq!(m.get(i), Some(&(i as u32)));
        }
        assert_eq!(m.get(50_000), None);
        for i in 0..50_000u128 {
            assert_eq!(m.remove(i), Some(i as u32));
        }
        m.check();
        assert_eq!(m.len(), 0);
        assert_eq!(m.depth(), 0);
    }

    #[test]
    fn old_versions_are_unchanged() {
        let mut a = PMap::new();
        for i in 0..1000u128 {
            a.insert(i * 7919, i);
        }
        let snapshot = a.clone();
        a.insert(5, 5);
        a.remove(7919);
        a.insert(0, 99);
        assert_eq!(snapshot.get(5), None);
        assert_eq!(snapshot.get(7919), Some(&1));
        assert_eq!(snapshot.get(0), Some(&0));
        assert_eq!(a.get(0), Some(&99));
        assert_eq!(a.get(7919), None);
        snapshot.check();
        a.check();
    }

    #[derive(Clone, Debug)]
    enum MOp {
        Insert(u128, u32),
        Remove(u128),
        Snapshot,
        Clear,
    }

    fn key() -> impl Strategy<Value = u128> {
        prop_oneof![
            0..64u128,
            any::<u128>(),
            // keys that differ only in high bits
            (0..64u128).prop_map(|x| x << 120),
            (0..64u128).prop_map(|x| (x << 64) | 3),
        ]
    }

    fn mop() -> impl Strategy<Value = MOp> {
        prop_oneof![
            6 => (key(), any::<u32>()).prop_map(|(k, v)| MOp::Insert(k, v)),
            4 => key().prop_map(MOp::Remove),
            1 => Just(MOp::Snapshot),
            1 => Just(MOp::Clear),
        ]
    }

    proptest! {
        #[test]
        fn behaves_like_a_hash_map(ops in proptest::collection::vec(mop(), 1..300)) {
            let mut m = PMap::new();
            let mut r: HashMap<u128, u32> = HashMap::new();
            let mut snaps: Vec<(PMap<u32>, HashMap<u128, u32>)> = Vec::new();
            for op in ops {
                match op {
                    MOp::Insert(k, v) => prop_assert_eq!(m.insert(k, v), r.insert(k, v)),
                    MOp::Remove(k) => prop_assert_eq!(m.remove(k), r.remove(&k)),
                    MOp::Snapshot => snaps.push((m.clone(), r.clone())),
                    MOp::Clear => { m.clear(); r.clear(); }
                }
                prop_assert_eq!(m.len(), r.len());
            }
            m.check();
            for (k, v) in &r {
                prop_assert_eq!(m.get(*k), Some(v));
            }
            let mut n = 0;
            m.for_each(|k, v| { n += 1; assert_eq!(r.get(&k), Some(v)); });
            prop_assert_eq!(n, r.len());
            for (s, sr) in snaps {
                s.check();
                prop_assert_eq!(s.len(), sr.len());
                for (k, v) in &sr {
                    prop_assert_eq!(s.get(*k), Some(v));
                }
            }
        }
    }
}
