//! The lifter is checked, not trusted: every example NF runs over a generated workload on the
//! native reference host and, lifted to the NF IR, on the IR interpreter; every output packet
//! (port and bytes) and the final state must be identical.
//!
//! The IR starts from the native state after configure() (configure is server-only and not
//! lifted). An NF's lifted on_timer runs on the interpreter at the ticks the native one fires
//! at (the reference host's rule). Reply packets are rewritten closed-loop from the
//! reference's outputs (NAT, load balancers), and the same rewritten packet is fed to both.

mod common;

use tandem_traffic::Plan;

/// Runs `packets` packets of `workload` through both and compares.
fn differential(nf: &str, plan: Plan, workload: &str, packets: usize) {
    common::differential(&common::example_src(nf), plan, workload, packets);
}

#[test]
fn minilb_lifted_matches_native() {
    differential("minilb", Plan::Lb, "enterprise", 12_000);
}

#[test]
fn mazunat_lifted_matches_native() {
    differential("mazunat", Plan::Nat, "enterprise", 12_000);
}

#[test]
fn l4lb_lifted_matches_native() {
    differential("l4lb", Plan::Lb, "enterprise", 12_000);
}

#[test]
fn firewall_lifted_matches_native() {
    differential("firewall", Plan::Plain, "enterprise", 12_000);
}

#[test]
fn proxy_lifted_matches_native() {
    differential("proxy", Plan::Plain, "enterprise", 12_000);
}

#[test]
fn statefilter_lifted_matches_native() {
    differential("statefilter", Plan::Plain, "datamining", 12_000);
}

#[test]
fn cofilter_lifted_matches_native() {
    differential("cofilter", Plan::Plain, "enterprise", 12_000);
}

#[test]
fn trojan_lifted_matches_native() {
    differential("trojan", Plan::Endhosts, "enterprise", 12_000);
}

#[test]
fn pktcount_lifted_matches_native() {
    differential("pktcount", Plan::Plain, "enterprise", 12_000);
}

#[test]
fn cmsketch_lifted_matches_native() {
    differential("cmsketch", Plan::Plain, "datamining", 12_000);
}

#[test]
fn lpmrouter_lifted_matches_native() {
    differential("lpmrouter", Plan::Plain, "enterprise", 12_000);
}

#[test]
fn vxlangw_lifted_matches_native() {
    differential("vxlangw", Plan::Vxlan, "enterprise", 12_000);
}

#[test]
fn snat_lifted_matches_native() {
    differential("snat", Plan::Nat, "enterprise", 12_000);
}

#[test]
fn trd_lifted_matches_native() {
    differential("trd", Plan::Plain, "enterprise", 12_000);
}

#[test]
fn vlantrunk_lifted_matches_native() {
    differential("vlantrunk", Plan::Vlan, "enterprise", 12_000);
}

/// Three 10 ms ticks: the lifted on_timer (a reset loop over two vectors) at each.
#[test]
fn hhdetect_lifted_matches_native() {
    differential("hhdetect", Plan::Plain, "datamining", 40_000);
}

/// Ternary rules over the addresses, protocol, port classes and ingress port, port classes
/// by range: every lookup the highest-priority match, natively and on the interpreter.
#[test]
fn aclfw_lifted_matches_native() {
    differential("aclfw", Plan::Plain, "enterprise", 12_000);
}

/// Meters: colours and bucket state (rates, levels, last refill time) equal bit for bit.
#[test]
fn ratelimit_lifted_matches_native() {
    differential("ratelimit", Plan::Plain, "datamining", 12_000);
}
