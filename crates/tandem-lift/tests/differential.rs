//! The lifter is checked, not trusted: every example NF runs over a generated workload on the
//! native reference host and, lifted to the NF IR, on the IR interpreter; every output packet
//! (port and bytes) and the final state must be identical.
//!
//! The IR starts from the native state after configure() (configure is server-only and not
//! lifted). When the native NF's on_timer() fires, the IR state is re-synchronised from the
//! native dump (on_timer is server-only too). Reply packets are rewritten closed-loop from the
//! reference's outputs (NAT, load balancers), and the same rewritten packet is fed to both.

mod common;

use common::{cache, lift_example, repo_root};
use tandem_lift::PayloadOps;
use tandem_runtime::irhost::{diff_states, normalize_native, IrHost};
use tandem_runtime::{compile_native, BuildOptions, Host, NativeNf, NfConfig, Verdict};
use tandem_traffic::{GenOptions, Generator, Plan, ReplyRewriter, Workload};

fn native(nf: &str) -> NativeNf {
    let src = repo_root().join(format!("examples/nfs/{nf}/{nf}.cc"));
    let cfg = NfConfig::load(&src.with_extension("toml")).unwrap();
    let opts = BuildOptions {
        cache_dir: cache(),
        ..BuildOptions::default()
    };
    NativeNf::load(&compile_native(&src, &opts).unwrap(), &cfg).unwrap()
}

/// Runs `packets` packets of `workload` through both and compares.
fn differential(nf: &str, plan: Plan, workload: &str, packets: usize) {
    let lifted = lift_example(nf);
    tandem_ir::verify_module(&lifted.module).unwrap();
    let mut reference = Host::new(native(nf));
    let initial = reference.dump_state().unwrap();
    let mut ir = IrHost::new(&lifted.module, &initial, Box::new(PayloadOps)).unwrap();

    let w = Workload::resolve(workload).unwrap();
    let opts = GenOptions {
        flows: 2_000,
        seed: 7,
        plan,
        ..GenOptions::default()
    };
    let mut replies = ReplyRewriter::new();
    let mut ticks = 0;
    let mut n = 0;
    let mut sent = 0;
    for mut pkt in Generator::new(&w, opts).unwrap().take(packets) {
        replies.rewrite(&mut pkt);
        if reference.fire_timers(pkt.ts_ns) > 0 {
            // on_timer ran natively (it is server-only, never lifted): bring its effect over.
            ticks += 1;
            ir.resync(&reference.dump_state().unwrap()).unwrap();
        }
        let want = reference.process(&pkt).unwrap();
        let got = ir
            .process(&pkt)
            .unwrap_or_else(|e| panic!("{nf}: IR failed on packet {n}: {e}"));
        assert_eq!(
            got,
            want,
            "{nf}: packet {n} (port {}, {} bytes) differs between the lifted IR and the native NF",
            pkt.port,
            pkt.data.len()
        );
        if let Verdict::Send { port, frame } = &want {
            replies.observe(&pkt.data, pkt.port, &[(*port, frame.as_slice())]);
            sent += 1;
        }
        n += 1;
    }
    assert!(n >= packets.min(10_000), "{nf}: only {n} packets generated");
    let native_state = normalize_native(&reference.dump_state().unwrap());
    let ir_state = ir.state().unwrap();
    let diffs = diff_states(&native_state, &ir_state);
    assert!(
        diffs.is_empty(),
        "{nf}: final state differs:\n{}",
        diffs.join("\n")
    );
    assert!(
        ir_state.keys().any(|k| native_state.contains_key(k)),
        "{nf}: no state compared"
    );
    eprintln!(
        "{nf}/{workload}: {n} packets identical ({sent} sent, {ticks} timer resyncs), final state identical"
    );
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
fn trojan_lifted_matches_native() {
    differential("trojan", Plan::Endhosts, "enterprise", 12_000);
}
