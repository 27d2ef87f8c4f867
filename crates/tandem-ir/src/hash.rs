//! The project's two non-cryptographic hashes, each in one place:
//!
//! - **Fx** (rustc's hash, from the `rustc-hash` crate): fast and deterministic, for the state
//!   store's maps, the runtime's per-packet bookkeeping and the software switch's tables. Not
//!   resistant to chosen keys; deterministic, so iteration order never depends on a seed.
//! - **FNV-1a 64** (the `fnv` crate): content digests written into files and cache keys
//!   (`plan.json`'s `ir_digest`, the server build cache, frame digests of `check`, the
//!   golden tests' plan digests).

pub use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet, FxHasher};

use std::hash::Hasher;

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = fnv::FnvHasher::default();
    h.write(bytes);
    h.finish()
}

/// FNV-1a 64 over several fields, each followed by a `0xff` separator byte (so `("ab", "c")`
/// and `("a", "bc")` differ).
#[derive(Default)]
pub struct FieldDigest(fnv::FnvHasher);

impl FieldDigest {
    /// Adds one field.
    pub fn field(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.write(bytes);
        self.0.write(&[0xff]);
        self
    }

    /// The digest.
    pub fn finish(&self) -> u64 {
        self.0.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn h<T: Hash + ?Sized>(t: &T) -> u64 {
        FxBuildHasher.hash_one(t)
    }

    #[test]
    fn crc32_and_crc16_check_values() {
        // The catalogue's check values over "123456789" (the table-driven CRC-32 included).
        assert_eq!(crate::HashAlgo::Crc32.compute(b"123456789"), 0xCBF4_3926);
        assert_eq!(crate::HashAlgo::Crc16.compute(b"123456789"), 0xBB3D);
        assert_eq!(crate::HashAlgo::Crc32.compute(b""), 0);
    }

    #[test]
    fn fnv1a64_is_the_reference_function() {
        // FNV-1a 64 test vectors (Fowler, Noll, Vo).
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        let mut d = FieldDigest::default();
        d.field(b"ab").field(b"c");
        let mut e = FieldDigest::default();
        e.field(b"a").field(b"bc");
        assert_ne!(d.finish(), e.finish());
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
