//! LPM maps offloaded: the router's `lpm` table on the switch (entries written by the runtime
//! as prefixes), and a table too small for the routes (every lookup then
//! runs whole on the server: a missing longer prefix would change the answer).

mod common;

use common::*;

#[test]
fn lpmrouter_runs_on_the_switch_for_both_profiles() {
    for profile in ["tofino1", "bmv2"] {
        for workload in ["enterprise", "datamining"] {
            let r = check_nf(
                "lpmrouter",
                Addr::Plain,
                workload,
                profile,
                3000,
                &P4Options::default(),
                None,
            );
            assert_passed(&format!("lpmrouter/{profile}/{workload}"), &r);
            assert_eq!(r.offloaded.via_server, 0, "{profile}/{workload}");
            assert!(r.offloaded.fast_path_share() > 0.99);
        }
    }
}

#[test]
fn a_full_lpm_table_sends_lookups_to_the_server() {
    let p4 = P4Options {
        max_table_size: Some(100),
        ..P4Options::default()
    };
    let r = check_nf(
        "lpmrouter",
        Addr::Plain,
        "enterprise",
        "tofino1",
        2000,
        &p4,
        None,
    );
    assert_passed("lpmrouter with 100 table entries", &r);
    assert!(r.offloaded.sync.table_full > 0);
}

/// The routes held as ALPM (a pivot table naming buckets, `tandem_p4::lower::alpm`): the
/// runtime builds both levels from the map's 268 entries at install (depth 4: dozens of
/// buckets, covers in use); every packet is answered on the switch and the outputs equal
/// the original's. A wrong bucket or a missing cover forwards a packet to the wrong port
/// (the switch-level test's negative control shows the comparison catches it).
#[test]
fn lpmrouter_with_alpm_routes_runs_on_the_switch() {
    for (profile, depth) in [("tofino1", 4), ("bmv2", 64)] {
        let mut p4 = P4Options::default();
        p4.alpm.insert("routes".into(), depth);
        let r = check_nf(
            "lpmrouter",
            Addr::Plain,
            "enterprise",
            profile,
            2000,
            &p4,
            None,
        );
        assert_passed(&format!("lpmrouter/{profile} ALPM depth {depth}"), &r);
        assert_eq!(r.offloaded.via_server, 0, "{profile}");
        assert!(r.offloaded.fast_path_share() > 0.99);
        assert!(r.offloaded.sync.requests > 0);
    }
}

/// Exact maps held as key digests (`tandem_p4::lower::digest`: a conflict table on the full
/// key, then an exact table on the key's crc32): the firewall's rule table (installed at
/// start) and the NAT's translation tables (written per new flow, replicated with atomic
/// updates: the write-back table on the full key stays in front); the runtime places each key
/// by its digest and the outputs equal the original's. A digest the switch computed otherwise
/// than the runtime would miss every rule and send the packets elsewhere; the switch-level
/// test (`tandem-p4 --test digest_switch`) forces a shared digest and its negative control.
#[test]
fn exact_maps_held_as_key_digests_pass_check() {
    for (nf, maps) in [
        ("firewall", &["rules"][..]),
        ("mazunat", &["int2ext", "ext2int"][..]),
    ] {
        let mut p4 = P4Options::default();
        for m in maps {
            p4.digest.insert((*m).into(), 0);
        }
        let r = check_nf(nf, Addr::Plain, "enterprise", "tofino1", 2000, &p4, None);
        assert_passed(&format!("{nf} with key digests"), &r);
        assert!(r.offloaded.fast_path_share() > 0.5, "{nf}");
        assert!(r.offloaded.sync.requests > 0);
    }
}
