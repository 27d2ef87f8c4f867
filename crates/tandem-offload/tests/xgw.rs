//! The Sailfish-style VXLAN gateway (examples/nfs/xgw) offloaded on the multi-tenant VXLAN
//! plan: `check` passes for tofino1, tofino2 and bmv2 with IPv4-only and 25%-IPv6 inner
//! traffic. The always-run version uses a few thousand packets; the >= 100,000-packet runs
//! are `#[ignore]`d (`cargo test --release -p tandem-offload --test xgw -- --ignored`; the
//! same runs through `tandem check` are in BENCHMARKS.md).

mod common;

use common::*;
use tandem_traffic::xgw::XgwOptions;
use tandem_traffic::{GenOptions, Generator, Plan, Workload};

fn run(profile: &str, ipv6_share: f64, flows: u64, min_packets: usize) -> CheckReport {
    let b = bundle("xgw", profile, &P4Options::default());
    let w = Workload::resolve("enterprise").unwrap();
    let opts = GenOptions {
        flows,
        seed: 3,
        plan: Plan::Xgw,
        xgw: XgwOptions {
            ipv6_share,
            ..XgwOptions::default()
        },
        ..GenOptions::default()
    };
    let pkts: Vec<_> = Generator::new(&w, opts).unwrap().collect();
    assert!(pkts.len() >= min_packets, "{} packets", pkts.len());
    let r = check_with(&b, "xgw", &mut pkts.into_iter(), None);
    assert_passed(&format!("xgw/{profile}/ipv6 {ipv6_share}"), &r);
    r
}

#[test]
fn xgw_passes_check_on_every_profile_ipv4_and_ipv6() {
    for profile in ["tofino1", "tofino2", "bmv2"] {
        for share in [0.0, 0.25] {
            let r = run(profile, share, 150, 1500);
            if profile == "bmv2" {
                // Everything but new SNAT sessions stays on the switch.
                assert!(r.offloaded.fast_path_share() > 0.9, "bmv2/{share}");
            }
        }
    }
}

#[test]
#[ignore = "100,000+ packets per run: cargo test -p tandem-offload --test xgw -- --ignored"]
fn xgw_passes_check_on_100k_packets() {
    for profile in ["tofino1", "tofino2", "bmv2"] {
        for share in [0.0, 0.25] {
            run(profile, share, 4500, 100_000);
        }
    }
}
