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
