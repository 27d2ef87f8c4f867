//! `check` of the TNA switch program (`P4Options { arch: Tna }`) on the software switch's TNA
//! runner (`tandem_switch::tna`): every example NF that passes with v1model also passes
//! with TNA on tofino1, on a small trace. Negative controls: the same TNA programs with
//! the output port written to a field the traffic manager does not read, or with drop_ctl
//! writes moved to a field it does not read, fail.
#![allow(clippy::print_stderr)] // test figures go to the test log

mod common;

use common::*;
use tandem_p4::Arch;

fn tna() -> P4Options {
    P4Options {
        arch: Arch::Tna,
        ..P4Options::default()
    }
}

/// (NF, addresses, workload), as `tests/check.rs` and `tests/profiles.rs` run them.
const NFS: &[(&str, Addr, &str)] = &[
    ("minilb", Addr::Lb, "enterprise"),
    ("mazunat", Addr::Nat, "enterprise"),
    ("l4lb", Addr::Lb, "datamining"),
    ("firewall", Addr::Plain, "enterprise"),
    ("proxy", Addr::Plain, "enterprise"),
    ("statefilter", Addr::Plain, "datamining"),
    ("cofilter", Addr::Plain, "datamining"),
    ("trojan", Addr::Endhosts, "enterprise"),
    ("lpmrouter", Addr::Plain, "enterprise"),
    ("vxlangw", Addr::Vxlan, "enterprise"),
    ("vlantrunk", Addr::Vlan, "enterprise"),
    ("hhdetect", Addr::Plain, "datamining"),
    ("aclfw", Addr::Plain, "enterprise"),
    ("ratelimit", Addr::Plain, "datamining"),
    ("pktcount", Addr::Plain, "enterprise"),
    ("cmsketch", Addr::Plain, "datamining"),
    ("snat", Addr::Nat, "enterprise"),
    ("trd", Addr::Plain, "enterprise"),
    ("xgw", Addr::Xgw, "enterprise"),
];

fn packets() -> usize {
    env_or("TANDEM_TNA_PACKETS", 400)
}

#[test]
fn every_example_passes_check_with_tna_on_tofino1() {
    let mut failures = Vec::new();
    for &(nf, addr, workload) in NFS {
        let b = bundle(nf, "tofino1", &tna());
        assert!(b.switch_p4.contains("Switch("), "{nf}: not a TNA program");
        let r = check_nf_bundle(&b, nf, addr, workload, packets());
        eprintln!(
            "{nf}/tna/tofino1/{workload}: {} packets, {}, fast path {:.2}%",
            r.packets,
            if r.passed() { "PASS" } else { "FAIL" },
            100.0 * r.offloaded.fast_path_share()
        );
        if !r.passed() || r.differing_packets != 0 {
            failures.push(format!(
                "{nf}: {}",
                r.first_difference.clone().unwrap_or_default()
            ));
        }
    }
    assert!(failures.is_empty(), "failed:\n{}", failures.join("\n"));
}

fn check_nf_bundle(b: &Bundle, nf: &str, addr: Addr, workload: &str, n: usize) -> CheckReport {
    let flows = (n as u64 / 20).max(50);
    let mut pkts = trace(addr, workload, flows, 7).take(n);
    check_with(b, nf, &mut pkts, None)
}

/// `b`'s switch program with every `from` replaced by `to` (which must occur).
fn rewritten(b: &Bundle, from: &str, to: &str) -> Bundle {
    let mut b = b.clone();
    assert!(b.switch_p4.contains(from), "{from}");
    b.switch_p4 = b.switch_p4.replace(from, to);
    b
}

#[test]
fn negative_control_wrong_port_field_fails_the_check() {
    let b = bundle("minilb", "tofino1", &tna());
    let ok = check_nf_bundle(&b, "minilb", Addr::Lb, "enterprise", 300);
    assert!(ok.passed(), "the unchanged program passes");
    let wrong = rewritten(
        &b,
        "ig_tm_md.ucast_egress_port =",
        "ig_tm_md.level2_exclusion_id =",
    );
    let r = check_nf_bundle(&wrong, "minilb", Addr::Lb, "enterprise", 300);
    assert!(
        !r.passed(),
        "a program that never sets ucast_egress_port passed"
    );
}

#[test]
fn negative_control_ignored_drop_ctl_fails_the_check() {
    // firewall drops the packets its rules deny
    let b = bundle("firewall", "tofino1", &tna());
    let wrong = rewritten(
        &b,
        "ig_dprsr_md.drop_ctl = 3w1",
        "ig_dprsr_md.drop_ctl = 3w2",
    );
    let r = check_nf_bundle(&wrong, "firewall", Addr::Plain, "enterprise", 600);
    assert!(
        !r.passed() || r.differing_packets != 0,
        "drop_ctl bit 0 ignored and the check still passed"
    );
}

/// A folded program cannot yet send a packet to the server whole from the middle of the
/// path (an `exit` that does not drop), which cofilter's hashed storage does when a slot's
/// hit time is stale: compiling it folded is a clear error, not a wrong program.
#[test]
fn a_folded_send_whole_is_refused_with_a_clear_error() {
    let folded = tandem_partition::TargetProfile::builtin("tofino1")
        .and_then(|p| p.folded())
        .expect("tofino1 folds");
    let err = compile_bundle(
        &module("cofilter"),
        &folded,
        &tandem_partition::PartitionOptions::default(),
        &tna(),
        None,
    )
    .err()
    .map(|e| format!("{e:#}"))
    .expect("cofilter folded is refused");
    assert!(err.contains("exit"), "{err}");
}

/// Folded programs (`--profile tofino1:folded`, two pipes, ingress 0 -> egress 1 ->
/// loopback -> ingress 1 -> egress 0) pass `check`; negative control: the same bundle
/// without its fold port in the manifest (so the switch has no loopback port) fails.
#[test]
fn folded_programs_pass_check_and_need_the_loopback_port() {
    let mut failures = Vec::new();
    for &(nf, addr, workload) in &[
        ("minilb", Addr::Lb, "enterprise"),
        ("statefilter", Addr::Plain, "datamining"),
        ("firewall", Addr::Plain, "enterprise"),
        ("mazunat", Addr::Nat, "enterprise"),
    ] {
        let folded = tandem_partition::TargetProfile::builtin("tofino1")
            .and_then(|p| p.folded())
            .expect("tofino1 folds");
        let b = compile_bundle(
            &module(nf),
            &folded,
            &tandem_partition::PartitionOptions::default(),
            &tna(),
            None,
        )
        .unwrap();
        assert_eq!(b.manifest.fold_port, Some(128), "{nf}: not folded");
        assert_eq!(b.switch_p4.matches("\nPipeline(").count(), 2, "{nf}");
        let r = check_nf_bundle(&b, nf, addr, workload, packets());
        eprintln!(
            "{nf}/tna/tofino1:folded/{workload}: {} packets, {}, fast path {:.2}%",
            r.packets,
            if r.passed() { "PASS" } else { "FAIL" },
            100.0 * r.offloaded.fast_path_share()
        );
        if !r.passed() || r.differing_packets != 0 {
            failures.push(format!(
                "{nf}: {}",
                r.first_difference.clone().unwrap_or_default()
            ));
        }
        if nf == "minilb" {
            let mut unlooped = b.clone();
            unlooped.manifest.fold_port = None;
            let r = check_nf_bundle(&unlooped, nf, addr, workload, 200);
            assert!(!r.passed(), "{nf}: passed without the loopback port");
        }
    }
    assert!(failures.is_empty(), "failed:\n{}", failures.join("\n"));
}

/// xgw at Sailfish scale on tofino1 with TNA, as `tandem check --target tna --compress
/// SAILFISH` runs it: the partitioner chooses folding, so the program is the folded
/// two-pipe one (with `vm_nc6` as key digests); it passes with IPv4-only and 25%-IPv6 inner
/// traffic with most packets on the switch. Negative control: without the loopback port
/// the check fails.
#[test]
fn xgw_folded_passes_check_with_tna() {
    use tandem_partition::compress::{compress, Scale};
    use tandem_traffic::xgw::XgwOptions;
    use tandem_traffic::{GenOptions, Generator, Workload};
    let sailfish = "routes4=75000,routes6=25000,vm_nc4=750000,vm_nc6=250000";
    let given = tandem_partition::TargetProfile::builtin("tofino1").unwrap();
    let module = module("xgw");
    let c = compress(&module, &given, &Scale::parse(sailfish).unwrap()).unwrap();
    let opts = P4Options {
        digest: c.digests(),
        alpm: c.alpm_depths(),
        ..tna()
    };
    let planned = c.profile(&given);
    let b = compile_bundle(
        &module,
        &planned,
        &tandem_partition::PartitionOptions::default(),
        &opts,
        None,
    )
    .unwrap();
    assert_eq!(b.plan.target, "tofino1:folded");
    assert_eq!(b.manifest.fold_port, Some(128));
    let pkts = |ipv6_share: f64| {
        let w = Workload::resolve("enterprise").unwrap();
        let g = GenOptions {
            flows: 120,
            seed: 3,
            plan: Addr::Xgw,
            xgw: XgwOptions {
                ipv6_share,
                ..XgwOptions::default()
            },
            ..GenOptions::default()
        };
        Generator::new(&w, g).unwrap().collect::<Vec<_>>()
    };
    for share in [0.0, 0.25] {
        let r = check_with(&b, "xgw", &mut pkts(share).into_iter(), None);
        assert_passed(&format!("xgw/tna/folded/ipv6 {share}"), &r);
        eprintln!(
            "xgw/tna/tofino1:folded/ipv6 {share}: {} packets, fast path {:.2}%: PASS",
            r.offloaded.packets,
            100.0 * r.offloaded.fast_path_share()
        );
        assert!(r.offloaded.fast_path_share() > 0.8, "ipv6 {share}");
    }
    let mut unlooped = b.clone();
    unlooped.manifest.fold_port = None;
    let r = check_with(&unlooped, "xgw", &mut pkts(0.0).into_iter().take(300), None);
    assert!(!r.passed(), "passed without the loopback port");
}
