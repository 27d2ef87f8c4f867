//! IPv4/IPv6 pooling (`tandem_partition::pool`): one table keyed by (tag, 128-bit address)
//! answers every lookup of both families as the two separate tables do, on random entries;
//! negative controls: IPv4 keys placed another way are caught, and maps of another shape
//! are refused.

use std::collections::HashMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tandem_ir::{Layout, StateKind, Type};
use tandem_partition::pool::{Family, PoolShape};

fn lpm(key: &[Type], prefix_fields: u32) -> StateKind {
    StateKind::LpmMap {
        key: Layout::new(key.iter().enumerate().map(|(i, t)| (format!("k{i}"), *t))),
        value: Layout::new([("v0", Type::I32)]),
        capacity: 4096,
        prefix_fields,
    }
}

fn exact(key: &[Type]) -> StateKind {
    StateKind::HashMap {
        key: Layout::new(key.iter().enumerate().map(|(i, t)| (format!("k{i}"), *t))),
        value: Layout::new([("v0", Type::I32), ("v4", Type::I64)]),
        capacity: 4096,
    }
}

fn routes() -> PoolShape {
    PoolShape::of(
        ("routes6", &lpm(&[Type::I64, Type::I64, Type::I64], 2)),
        ("routes4", &lpm(&[Type::I32, Type::I32], 1)),
    )
    .unwrap()
}

/// A ternary entry of the pooled table: (value, mask) per field, priority (length + 1).
type Tern = (Vec<(u64, u64)>, u64);

/// The pooled LPM table's entry for a pooled entry name `[tag, lead..., hi, lo, len]`.
fn ternary(name: &[u64]) -> Tern {
    let (&len, key) = name.split_last().unwrap();
    let n = key.len() - 2;
    let mask128: u128 = if len == 0 {
        0
    } else {
        u128::MAX << (128 - len)
    };
    let mut out: Vec<(u64, u64)> = key[..n].iter().map(|&k| (k, u64::MAX)).collect();
    let (mh, ml) = ((mask128 >> 64) as u64, mask128 as u64);
    out.push((key[n] & mh, mh));
    out.push((key[n + 1] & ml, ml));
    (out, len + 1)
}

fn tern_lookup(table: &[(Tern, u32)], key: &[u64]) -> Option<u32> {
    table
        .iter()
        .filter(|((f, _), _)| f.iter().zip(key).all(|(&(v, m), &k)| k & m == v))
        .max_by_key(|((_, p), _)| *p)
        .map(|(_, v)| *v)
}

/// Longest prefix of `addr` (`bits` wide) among `entries` `(lead, prefix, len) -> v`.
fn lpm_ref(entries: &[(u64, u128, u64, u32)], bits: u32, lead: u64, addr: u128) -> Option<u32> {
    let mask = |len: u64| {
        if len == 0 {
            0
        } else {
            (u128::MAX >> (128 - bits)) & !((1u128 << (u64::from(bits) - len)) - 1)
        }
    };
    entries
        .iter()
        .filter(|(l, p, len, _)| *l == lead && addr & mask(*len) == *p & mask(*len))
        .max_by_key(|e| e.2)
        .map(|e| e.3)
}

/// Random routes of both families (a few VNIs, nested prefixes), the pooled table built from
/// them with `place4` for the IPv4 entries, and lookups of random addresses.
fn routes_agree(place4: impl Fn(&PoolShape, &[u64]) -> Vec<u64>) -> (usize, usize) {
    let s = routes();
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let mut v4 = Vec::new();
    let mut v6 = Vec::new();
    let mut table = Vec::new();
    for i in 0..400u32 {
        let vni = rng.gen_range(1..4u64);
        if i % 2 == 0 {
            let len = rng.gen_range(0..=32u64);
            let addr = u64::from(rng.gen::<u32>() & 0xff0f_ffff) & !(u64::MAX >> len) & 0xffff_ffff;
            v4.push((vni, u128::from(addr), len, i));
            table.push((ternary(&place4(&s, &[vni, addr, len])), i));
        } else {
            let len = rng.gen_range(0..=128u64);
            let a: u128 = (rng.gen::<u128>() & 0xff0f_0000_0000_0000_ffff_ffff_ffff_ffff)
                & if len == 0 {
                    0
                } else {
                    u128::MAX << (128 - len)
                };
            v6.push((vni, a, len, i));
            let name = [vni, (a >> 64) as u64, a as u64, len];
            table.push((ternary(&s.entry(Family::V6, &name)), i));
        }
    }
    let (mut looked, mut wrong) = (0, 0);
    for _ in 0..4000 {
        let vni = rng.gen_range(1..4u64);
        looked += 1;
        if rng.gen_bool(0.5) {
            let addr = u64::from(rng.gen::<u32>() & 0xff0f_ffff);
            let want = lpm_ref(&v4, 32, vni, u128::from(addr));
            let got = tern_lookup(&table, &s.key(Family::V4, &[vni, addr]));
            wrong += usize::from(want != got);
        } else {
            let a = rng.gen::<u128>() & 0xff0f_0000_0000_0000_ffff_ffff_ffff_ffff;
            let want = lpm_ref(&v6, 128, vni, a);
            let got = tern_lookup(
                &table,
                &s.key(Family::V6, &[vni, (a >> 64) as u64, a as u64]),
            );
            wrong += usize::from(want != got);
        }
    }
    (looked, wrong)
}

#[test]
fn pooled_lpm_equals_separate_tables() {
    let (looked, wrong) = routes_agree(|s, name| s.entry(Family::V4, name));
    assert_eq!(wrong, 0, "{wrong} of {looked} lookups differ");
}

/// Negative control: IPv4 entries placed without the IPv4-mapped marker, or with their
/// length not moved past the 96 bits in front of the address, answer differently.
#[test]
fn misplaced_ipv4_entries_are_caught() {
    let (_, wrong) = routes_agree(|s, name| {
        let mut e = s.entry(Family::V4, name);
        let n = e.len();
        e[n - 2] &= 0xffff_ffff; // lose ::ffff
        e
    });
    assert!(
        wrong > 100,
        "only {wrong} lookups caught the missing ::ffff"
    );
    let (_, wrong) = routes_agree(|s, name| {
        let mut e = s.entry(Family::V4, name);
        let n = e.len();
        e[n - 1] -= 96; // the IPv4 length as the 128-bit length
        e
    });
    assert!(
        wrong > 100,
        "only {wrong} lookups caught the unshifted length"
    );
}

#[test]
fn pooled_exact_equals_separate_tables() {
    let s = PoolShape::of(
        ("vm_nc4", &exact(&[Type::I32, Type::I32])),
        (
            "vm_nc6",
            &exact(&[Type::I32, Type::I32, Type::I64, Type::I64]),
        ),
    )
    .unwrap();
    assert_eq!(s.family(0), Family::V4);
    assert_eq!(s.key_bits(), vec![1, 32, 32, 64, 64]);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut sep4 = HashMap::new();
    let mut sep6 = HashMap::new();
    let mut pooled = HashMap::new();
    for i in 0..2000u32 {
        // Small ranges: IPv4 and IPv6 keys with equal words exist (the tag must split them).
        let vni = rng.gen_range(0..3u64);
        if rng.gen_bool(0.5) {
            let k = vec![vni, rng.gen_range(0..64u64)];
            pooled.insert(s.entry(Family::V4, &k), i);
            sep4.insert(k, i);
        } else {
            let k = vec![vni, 0, 0, rng.gen_range(0..64u64) | super_mapped(&mut rng)];
            pooled.insert(s.entry(Family::V6, &k), i);
            sep6.insert(k, i);
        }
    }
    for _ in 0..4000 {
        let vni = rng.gen_range(0..3u64);
        let k4 = vec![vni, rng.gen_range(0..64u64)];
        assert_eq!(sep4.get(&k4), pooled.get(&s.key(Family::V4, &k4)));
        let k6 = vec![vni, 0, 0, rng.gen_range(0..64u64) | super_mapped(&mut rng)];
        assert_eq!(sep6.get(&k6), pooled.get(&s.key(Family::V6, &k6)));
    }
}

/// Half of the IPv6 keys are IPv4-mapped addresses themselves (the tag keeps them apart).
fn super_mapped(rng: &mut ChaCha8Rng) -> u64 {
    if rng.gen_bool(0.5) {
        tandem_partition::pool::V4_MAPPED
    } else {
        0
    }
}

/// Negative controls: another shape is refused with its reason.
#[test]
fn other_shapes_are_refused() {
    let e = PoolShape::of(
        ("a", &lpm(&[Type::I32, Type::I32], 1)),
        ("b", &exact(&[Type::I32, Type::I32, Type::I64, Type::I64])),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("both LPM maps or both hash maps"),
        "{e}"
    );
    let e = PoolShape::of(
        ("a", &exact(&[Type::I32, Type::I32])),
        ("b", &exact(&[Type::I32, Type::I32])),
    )
    .unwrap_err();
    assert!(e.to_string().contains("one 32-bit, one 128-bit"), "{e}");
    let e = PoolShape::of(
        ("a", &exact(&[Type::I64, Type::I32])),
        ("b", &exact(&[Type::I32, Type::I64, Type::I64])),
    )
    .unwrap_err();
    assert!(e.to_string().contains("do not fit"), "{e}");
    let mut v = exact(&[Type::I32, Type::I64, Type::I64]);
    if let StateKind::HashMap { value, .. } = &mut v {
        *value = Layout::new([("v0", Type::I16)]);
    }
    let e = PoolShape::of(("a", &exact(&[Type::I32, Type::I32])), ("b", &v)).unwrap_err();
    assert!(e.to_string().contains("values differ"), "{e}");
}
