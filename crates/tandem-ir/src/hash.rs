//! A small, fast, deterministic hasher for integer keys (the Fx hash of rustc), for the
//! state store's maps and the runtime's per-packet bookkeeping. Not resistant to chosen
//! keys; deterministic, so iteration order never depends on a random seed.

use std::hash::{BuildHasherDefault, Hasher};

/// The Fx hasher: one rotate, xor and multiply per word.
#[derive(Clone, Copy, Debug, Default)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0xf135_7aea_2e62_a9c5;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 56));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The multiply leaves the high bits well mixed; hash tables index by the low ones.
        self.hash.rotate_left(26)
    }
}

/// Builds [`FxHasher`]s.
pub type FxBuildHasher = BuildHasherDefault<FxHasher>;

/// A `HashMap` with [`FxHasher`].
pub type FxHashMap<K, V> = std::collections::HashMap<K, V, FxBuildHasher>;

/// A `HashSet` with [`FxHasher`].
pub type FxHashSet<K> = std::collections::HashSet<K, FxBuildHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn h<T: Hash + ?Sized>(t: &T) -> u64 {
        FxBuildHasher::default().hash_one(t)
    }

    #[test]
    fn equal_keys_hash_equal_and_distinct_keys_usually_differ() {
        assert_eq!(h(&vec![1u64, 2, 3]), h(&[1u64, 2, 3][..]));
        assert_ne!(h(&vec![1u64, 2]), h(&vec![2u64, 1]));
        assert_ne!(h(&vec![0u64]), h(&vec![0u64, 0]));
        let mut seen = std::collections::HashSet::new();
        for i in 0..10_000u64 {
            seen.insert(h(&vec![i, 7]) & 0xffff);
        }
        assert!(seen.len() > 8_000, "{}", seen.len());
    }
}
