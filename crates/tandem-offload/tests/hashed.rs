//! A map held in hash-indexed registers (docs/hashed-storage.md) offloaded and checked
//! against the original NF: the runtime places keys with the server's slot allocator and
//! writes cells and collision entries inside its atomic batches. The map is trojan's
//! `hosts__class` (its derived class map, learned by the NF), not statefilter's: with a tiny
//! hash space (2 ways of 4 slots, 3 collision entries) most hosts find no room and stay on
//! the server, some share slots and some go through the collision table — outputs and final
//! state must still equal the original's; with a roomy space most packets stay on the switch.

mod common;

use common::*;
use tandem_partition::hashed::HashedSpec;

fn hashed(slots: u64, collisions: u64) -> P4Options {
    let mut p4 = P4Options::default();
    p4.hashed.insert(
        "hosts__class".into(),
        HashedSpec::parse(&format!("ways=2,slots={slots},fp=8,col={collisions}")).unwrap(),
    );
    p4
}

#[test]
fn trojan_hosts_in_a_tiny_hash_space_match_the_original() {
    let r = check_nf(
        "trojan",
        Addr::Endhosts,
        "enterprise",
        "tofino1",
        3000,
        &hashed(4, 3),
        None,
    );
    assert_passed("trojan, hosts__class hashed in 2x4 slots", &r);
    assert!(r.offloaded.sync.table_full > 0, "{:?}", r.offloaded.sync);
    assert!(
        r.offloaded.sync.register_writes > 0,
        "{:?}",
        r.offloaded.sync
    );
    // The tiny space used every path: home slots, the collision table, the server.
    let h = r.offloaded.sync.hashed.expect("a hashed map");
    assert!(h.keys > h.collisions && h.collisions > 0, "{h:?}");
}

#[test]
fn trojan_hosts_in_a_roomy_hash_space_stay_on_the_switch() {
    let r = check_nf(
        "trojan",
        Addr::Endhosts,
        "enterprise",
        "tofino1",
        3000,
        &hashed(1 << 12, 64),
        None,
    );
    assert_passed("trojan, hosts__class hashed in 2x4096 slots", &r);
    let exact = check_nf(
        "trojan",
        Addr::Endhosts,
        "enterprise",
        "tofino1",
        3000,
        &P4Options::default(),
        None,
    );
    assert_passed("trojan, exact", &exact);
    assert_eq!(r.offloaded.sync.table_full, 0, "{:?}", r.offloaded.sync);
    assert!(exact.offloaded.sync.hashed.is_none());
    assert!(r.offloaded.sync.hashed.is_some_and(|h| h.keys > 0));
    assert_eq!(
        r.offloaded.fast_path_share(),
        exact.offloaded.fast_path_share(),
        "hashed storage keeps the exact table's fast path"
    );
}

fn cofilter_packed(spec: &str) -> P4Options {
    let mut p4 = P4Options::default();
    p4.hashed
        .insert("table__class".into(), HashedSpec::parse(spec).unwrap());
    p4
}

/// CoFilter's class map in packed slots (`packed`: an 8-bit fingerprint and the 8-bit
/// class, 2 slots to a 32-bit word; docs/hashed-storage.md): the generated program reads a
/// word and selects its slot, the runtime writes whole words composed from its mirror. 128
/// words per way (a power of two: the hash's low bits) and 1,500 (not one: v1model's
/// `hash(..., max)`), both with room for every connection: outputs and state equal the
/// original's, most packets on the switch. (Whether a write keeps a word's other slots is
/// checked write by write in `sync::hashed`'s unit tests, with their negative control.)
#[test]
fn cofilter_in_packed_slots_matches_the_original() {
    for spec in [
        "ways=2,slots=256,fp=8,col=16,packed",
        "ways=2,slots=3000,fp=8,col=16,packed",
    ] {
        let p4 = cofilter_packed(spec);
        let layout = &p4.hashed["table__class"];
        assert!(layout.packed);
        let r = check_nf(
            "cofilter",
            Addr::Plain,
            "datamining",
            "tofino1",
            3000,
            &p4,
            None,
        );
        assert_passed(&format!("cofilter, table__class {spec}"), &r);
        assert_eq!(
            r.offloaded.sync.table_full, 0,
            "{spec}: {:?}",
            r.offloaded.sync
        );
        assert!(
            r.offloaded.sync.hashed.as_ref().is_some_and(|h| h.keys > 0),
            "{spec}: {:?}",
            r.offloaded.sync
        );
        assert!(
            r.offloaded.fast_path_share() > 0.5,
            "{spec}: fast path {}",
            r.offloaded.fast_path_share()
        );
        let b = bundle("cofilter", "tofino1", &p4);
        let h = b
            .manifest
            .states
            .iter()
            .find_map(|s| s.hashed.as_ref())
            .expect("hashed");
        assert_eq!(h.slots_per_word, 2, "{spec}");
    }
}
