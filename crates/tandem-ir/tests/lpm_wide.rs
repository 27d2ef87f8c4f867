//! LPM maps whose prefix spans two key fields (`lpm_map<{vni, hi, lo}, V, capacity, 2>`: an
//! IPv6 address of 128 bits after an exact VNI): the interpreter's longest-prefix match
//! against a naive `u128` model on random prefix sets, the text form round-trips, and a
//! route that differs from another only in the low 64 bits selects its own value.

use proptest::prelude::*;
use tandem_ir::*;

const TEXT: &str = "\
nf wide
state routes6: lpm_map<{vni: i64, hi: i64, lo: i64}, {port: i16}, 4096, 2>

fn process {
block0:
    drop
    return
}
";

fn load() -> Module {
    parse_module(TEXT).unwrap()
}

fn split(a: u128) -> (u64, u64) {
    ((a >> 64) as u64, a as u64)
}

fn mask128(len: u32) -> u128 {
    if len == 0 {
        0
    } else {
        u128::MAX << (128 - len)
    }
}

/// The naive model: the longest (vni, prefix/len) matching (vni, addr).
fn naive(routes: &[(u64, u128, u32, u16)], vni: u64, addr: u128) -> Option<u16> {
    routes
        .iter()
        .filter(|&&(v, p, l, _)| v == vni && addr & mask128(l) == p & mask128(l))
        .max_by_key(|r| r.2)
        .map(|r| r.3)
}

fn insert(m: &Module, s: &mut StateStore, vni: u64, p: u128, len: u32, port: u16) {
    let (hi, lo) = split(p);
    s.map_insert(
        m,
        "routes6",
        &[vni, hi, lo, u64::from(len)],
        &[u64::from(port)],
    )
    .unwrap();
}

fn find(m: &Module, s: &StateStore, vni: u64, a: u128) -> Option<u16> {
    let (hi, lo) = split(a);
    s.map_get_live(m, "routes6", &[vni, hi, lo])
        .unwrap()
        .map(|v| v[0] as u16)
}

#[test]
fn text_form_round_trips_and_verifies() {
    let m = load();
    verify_module(&m).unwrap();
    let printed = print_module(&m);
    assert!(printed.contains("4096, 2>"), "{printed}");
    assert_eq!(parse_module(&printed).unwrap(), m);
    // A prefix over more fields than the key has, or of mixed widths, is refused.
    for bad in [
        "lpm_map<{hi: i64, lo: i64}, {port: i16}, 8, 3>",
        "lpm_map<{hi: i64, lo: i32}, {port: i16}, 8, 2>",
    ] {
        let t = TEXT.replace(
            "lpm_map<{vni: i64, hi: i64, lo: i64}, {port: i16}, 4096, 2>",
            bad,
        );
        let m = parse_module(&t).unwrap();
        assert!(verify_module(&m).is_err(), "{bad} verifies");
    }
}

/// A /124 and the /48 around it differ only in the low 64 bits of the address; the /124
/// must win inside it and the /48 outside. Negative control: with the low word ignored
/// (the lookup of the /124's neighbour outside it), the answers would be the same.
#[test]
fn a_route_beyond_64_bits_selects_its_own_next_hop() {
    let m = load();
    let mut s = StateStore::new(&m);
    let net: u128 = 0xfd00_0000_0000_0001 << 64;
    insert(&m, &mut s, 7, net, 48, 1);
    insert(&m, &mut s, 7, net, 124, 2);
    insert(&m, &mut s, 7, net | 0x10, 128, 3);
    assert_eq!(find(&m, &s, 7, net | 0x5), Some(2));
    assert_eq!(find(&m, &s, 7, net | 0x10), Some(3));
    assert_eq!(find(&m, &s, 7, net | 0x11), Some(1));
    assert_eq!(find(&m, &s, 7, net | (1 << 63)), Some(1));
    assert_eq!(find(&m, &s, 8, net | 0x5), None, "another VNI");
    // Length 129 does not fit: refused, nothing stored.
    let (hi, lo) = split(net);
    assert!(s
        .map_insert(&m, "routes6", &[7, hi, lo, 129], &[9])
        .is_err());
    assert_eq!(s.map_len(&m, "routes6").unwrap(), 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn longest_of_128_bits_equals_the_naive_model(
        routes in prop::collection::vec((0u64..3, any::<u128>(), 0u32..=128, 1u16..1000), 1..40),
        probes in prop::collection::vec((0u64..3, any::<u128>(), 0usize..40, 0u32..=128), 1..60),
    ) {
        let m = load();
        let mut s = StateStore::new(&m);
        let mut model: Vec<(u64, u128, u32, u16)> = Vec::new();
        for &(v, p, l, port) in &routes {
            insert(&m, &mut s, v, p, l, port);
            model.retain(|r| !(r.0 == v && r.2 == l && r.1 == p & mask128(l)));
            model.push((v, p & mask128(l), l, port));
        }
        for &(v, a, near, keep) in &probes {
            // Half the probes share a route's top `keep` bits (a hit at some length).
            let r = routes[near % routes.len()];
            let a = if near % 2 == 0 { (r.1 & mask128(keep)) | (a & !mask128(keep)) } else { a };
            let v = if near % 2 == 0 { r.0 } else { v };
            prop_assert_eq!(find(&m, &s, v, a), naive(&model, v, a));
        }
    }
}
