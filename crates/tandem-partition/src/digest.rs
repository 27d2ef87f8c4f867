//! Key digests (Sailfish §4.4 "key compression"): an exact map with a long key (a VNI and an
//! IPv6 address: 24 + 128 bits) held on the switch as an exact table on a 32-bit digest of
//! the key (`crc32` over the key's bytes, the NF IR's `hash` serialisation, the same as
//! [`crate::hashed`]'s way 0) plus a small *conflict table* on the full key, which the
//! server fills on insert with every key whose digest another held key shares.
//!
//! ```text
//! before: table vm_nc6 { key = { vni: exact; ip_hi: exact; ip_lo: exact; } size = 1M; }
//!         SRAM 1M × (24 + 128 + value) bits
//! after:  table vm_nc6_cfl { key = { vni: exact; ip_hi: exact; ip_lo: exact; } size = 256; }
//!         hash(meta.vm_nc6_dig, crc32, { vni bytes, ip_hi bytes, ip_lo bytes });
//!         table vm_nc6 { key = { meta.vm_nc6_dig: exact; } size = 1M; }
//!         vm_nc6_cfl.apply(); if (!hit) { vm_nc6.apply(); }
//!         SRAM 1M × (32 + value) + 256 × (152 + value) bits
//! ```
//!
//! Placement ([`place`]): a digest held by one key lives in the digest table; a digest held
//! by two or more keys lives only in the conflict table, every key of it with its full key
//! (so none of them can answer for another). The switch's answer ([`lookup`]) equals the
//! map's for every key the map holds. A key the map does not hold hits the digest table when
//! its digest equals a held key's (probability `held / 2^32` per lookup, 2.3·10⁻⁴ at a
//! million keys): the NF must tolerate a false hit for absent keys, as Sailfish's VM-NC
//! table does (it holds every VM of the region; a packet for an unknown VM is dropped
//! downstream), or the map stays exact.

use std::collections::{BTreeMap, BTreeSet};

use tandem_ir::HashAlgo;

/// The digest's width.
pub const DIGEST_BITS: u32 = 32;

/// Errors of the digest model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DigestError {
    /// A key with another number of fields than the layout's.
    #[error("a key of {got} fields for a layout of {want}")]
    KeyShape { got: usize, want: usize },
    /// A key field wider than 64 bits.
    #[error("a {0}-bit key field (at most 64: a wider field is split into several)")]
    WideField(u32),
    /// [`find_conflict`] found no two keys with one digest.
    #[error("no two keys with one digest in the search")]
    NoConflict,
}

/// The key's bytes as the switch hashes them: each field big-endian at its width rounded up
/// to whole bytes.
pub fn key_bytes(key_bits: &[u32], key: &[u64]) -> Result<Vec<u8>, DigestError> {
    if key.len() != key_bits.len() {
        return Err(DigestError::KeyShape {
            got: key.len(),
            want: key_bits.len(),
        });
    }
    let mut out = Vec::with_capacity(key.len() * 8);
    for (&v, &b) in key.iter().zip(key_bits) {
        if b > 64 {
            return Err(DigestError::WideField(b));
        }
        for i in (0..b.div_ceil(8)).rev() {
            out.push((v >> (8 * i)) as u8);
        }
    }
    Ok(out)
}

/// The key's digest: `crc32` over [`key_bytes`].
pub fn digest(key_bits: &[u32], key: &[u64]) -> Result<u32, DigestError> {
    Ok(HashAlgo::Crc32.compute(&key_bytes(key_bits, key)?) as u32)
}

/// Where the switch holds the keys of one digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Home {
    /// No held key has this digest.
    Absent,
    /// One key: the digest table's entry `digest → value`.
    Digest(Vec<u64>),
    /// Two or more: each `full key → value` in the conflict table.
    Conflict(BTreeMap<Vec<u64>, Vec<u64>>),
}

/// The home of the keys `held` (key → value, all sharing one digest).
pub fn home_of(held: &BTreeMap<Vec<u64>, Vec<u64>>) -> Home {
    match held.len() {
        0 => Home::Absent,
        1 => Home::Digest(held.values().next().cloned().unwrap_or_default()),
        _ => Home::Conflict(held.clone()),
    }
}

/// Both tables of a map's entries: (digest → value, full key → value).
pub type Tables = (BTreeMap<u32, Vec<u64>>, BTreeMap<Vec<u64>, Vec<u64>>);

/// Places every entry ([`home_of`] per digest).
pub fn place(key_bits: &[u32], entries: &[(Vec<u64>, Vec<u64>)]) -> Result<Tables, DigestError> {
    let mut by: BTreeMap<u32, BTreeMap<Vec<u64>, Vec<u64>>> = BTreeMap::new();
    for (k, v) in entries {
        by.entry(digest(key_bits, k)?)
            .or_default()
            .insert(k.clone(), v.clone());
    }
    let (mut dig, mut cfl) = (BTreeMap::new(), BTreeMap::new());
    for (d, held) in &by {
        match home_of(held) {
            Home::Absent => {}
            Home::Digest(v) => {
                dig.insert(*d, v);
            }
            Home::Conflict(m) => cfl.extend(m),
        }
    }
    Ok((dig, cfl))
}

/// The switch's lookup: the conflict table on the full key first, then the digest table.
pub fn lookup(
    key_bits: &[u32],
    tables: &Tables,
    key: &[u64],
) -> Result<Option<Vec<u64>>, DigestError> {
    if let Some(v) = tables.1.get(key) {
        return Ok(Some(v.clone()));
    }
    Ok(tables.0.get(&digest(key_bits, key)?).cloned())
}

/// Conflict-table entries to provision for `entries` keys: four times the expected number of
/// keys in shared digests (`entries² / 2^32`), at least 64.
pub fn conflict_entries(entries: u64) -> u64 {
    let n = entries as f64;
    ((4.0 * n * n / 4_294_967_296.0).ceil() as u64).max(64)
}

/// SRAM bits of a digested map: the digest table and the conflict table, keys and values
/// (the resource model of [`crate::compress`]).
pub fn sram_bits(entries: u64, key_bits: u64, value_bits: u64) -> u64 {
    entries * (u64::from(DIGEST_BITS) + value_bits)
        + conflict_entries(entries) * (key_bits + value_bits)
}

/// Two different keys of the layout with the same digest, found by a birthday search over
/// keys drawn from `seed` (about 2^16 keys); for tests and demonstrations of the conflict
/// table. Keys of at most 32 bits never share a digest (CRC-32 is a bijection on them):
/// [`DigestError::NoConflict`].
pub fn find_conflict(key_bits: &[u32], seed: u64) -> Result<(Vec<u64>, Vec<u64>), DigestError> {
    if key_bits.iter().map(|&b| u64::from(b)).sum::<u64>() <= u64::from(DIGEST_BITS) {
        return Err(DigestError::NoConflict);
    }
    let mut seen: std::collections::HashMap<u32, Vec<u64>> = std::collections::HashMap::new();
    let mut x = seed;
    for _ in 0..1u64 << 22 {
        let k: Vec<u64> = key_bits
            .iter()
            .map(|&b| {
                // splitmix64
                x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                if b >= 64 {
                    z
                } else {
                    z & ((1u64 << b) - 1)
                }
            })
            .collect();
        let d = digest(key_bits, &k)?;
        if let Some(prev) = seen.insert(d, k.clone()) {
            if prev != k {
                return Ok((prev, k));
            }
        }
    }
    Err(DigestError::NoConflict)
}

/// The digests `keys` touch (for incremental rewrites).
pub fn digests_of<'a>(
    key_bits: &[u32],
    keys: impl IntoIterator<Item = &'a Vec<u64>>,
) -> Result<BTreeSet<u32>, DigestError> {
    keys.into_iter().map(|k| digest(key_bits, k)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_digest_moves_both_keys_to_the_conflict_table() {
        let bits = [24, 64, 64];
        let (a, b) = find_conflict(&bits, 7).unwrap();
        assert_ne!(a, b);
        assert_eq!(digest(&bits, &a).unwrap(), digest(&bits, &b).unwrap());
        let c = vec![7, 0x2001_0db8_0000_0000, 5];
        let entries = vec![
            (a.clone(), vec![1]),
            (b.clone(), vec![2]),
            (c.clone(), vec![3]),
        ];
        let t = place(&bits, &entries).unwrap();
        assert_eq!(t.1.len(), 2);
        assert_eq!(t.0.len(), 1);
        for (k, v) in &entries {
            assert_eq!(lookup(&bits, &t, k).unwrap().as_ref(), Some(v));
        }
        // Negative control: without the conflict table the two keys answer alike.
        let mut only: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        for (k, v) in &entries {
            only.insert(digest(&bits, k).unwrap(), v.clone());
        }
        let broken = (only, BTreeMap::new());
        assert_ne!(
            lookup(&bits, &broken, &a).unwrap(),
            lookup(&bits, &t, &a).unwrap()
        );
    }

    #[test]
    fn bad_keys_are_refused() {
        assert_eq!(
            digest(&[32, 32], &[1]),
            Err(DigestError::KeyShape { got: 1, want: 2 })
        );
        assert_eq!(digest(&[128], &[1]), Err(DigestError::WideField(128)));
        assert_eq!(find_conflict(&[8, 24], 1), Err(DigestError::NoConflict));
    }

    #[test]
    fn conflict_table_grows_with_the_square() {
        assert_eq!(conflict_entries(1000), 64);
        assert_eq!(conflict_entries(1_000_000), 932);
    }
}
