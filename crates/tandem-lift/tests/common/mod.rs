//! Shared by the front end's tests: lifting a C++ file through the real driver.
#![allow(clippy::print_stdout, clippy::print_stderr)] // test progress and figures go to the test log
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use tandem_host::irhost::{diff_states, normalize_native, IrHost};
use tandem_host::{compile_native, BuildOptions, Host, NativeNf, NfConfig, Verdict};
use tandem_lift::PayloadOps;
use tandem_traffic::{GenOptions, Generator, Plan, ReplyRewriter, Workload};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

pub fn cache() -> PathBuf {
    std::env::temp_dir().join("tandem-test-cache-lift")
}

/// LLVM IR of the analysis build of `src`.
pub fn analysis_ll(src: &Path) -> Result<String, tandem_lift::driver::DriverError> {
    let include = tandem_host::nfapi::materialize(&cache()).unwrap();
    tandem_lift::driver::emit_llvm(
        &tandem_host::build::find_cxx(),
        &include,
        src,
        &cache().join("analysis"),
    )
}

/// A test NF of this crate (`tests/nfs/<name>.cc`).
pub fn test_nf(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/nfs/{name}.cc"))
}

/// Lifts a C++ file, panicking with the diagnostics when it does not lift.
pub fn lift_file(src: &Path) -> tandem_lift::Lifted {
    let ll = analysis_ll(src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    tandem_lift::lift(&ll).unwrap_or_else(|e| panic!("{} does not lift:\n{e}", src.display()))
}

pub fn example_src(nf: &str) -> PathBuf {
    repo_root().join(format!("examples/nfs/{nf}/{nf}.cc"))
}

/// Lifts an example NF, with source paths made relative to the repository.
pub fn lift_example(nf: &str) -> tandem_lift::Lifted {
    let ll = analysis_ll(&example_src(nf)).unwrap();
    let mut lifted = tandem_lift::lift(&ll).unwrap_or_else(|e| panic!("{nf} does not lift:\n{e}"));
    let root = format!("{}/", repo_root().display());
    let files: Vec<_> = lifted.module.files.keys().collect();
    for f in files {
        let p = lifted.module.files[f].replace(&root, "");
        lifted.module.files[f] = p;
    }
    lifted
}

pub const EXAMPLES: &[&str] = &[
    "minilb",
    "mazunat",
    "l4lb",
    "firewall",
    "proxy",
    "statefilter",
    "cofilter",
    "trojan",
    "pktcount",
    "cmsketch",
    "lpmrouter",
    "vxlangw",
    "vlantrunk",
    "hhdetect",
    "aclfw",
    "ratelimit",
    "xgw",
    "trd",
    "snat",
];

/// The native build of `src`, configured from `<src>.toml` when there is one.
pub fn native(src: &Path) -> NativeNf {
    let toml = src.with_extension("toml");
    let cfg = if toml.is_file() {
        NfConfig::load(&toml).unwrap()
    } else {
        NfConfig::default()
    };
    let opts = BuildOptions {
        cache_dir: cache(),
        ..BuildOptions::default()
    };
    NativeNf::load(&compile_native(src, &opts).unwrap(), &cfg).unwrap()
}

/// The differential check of the front end: `packets` packets of `workload` through the
/// native build of `src` and, lifted, through the IR interpreter; every output packet and the
/// final state must be identical.
///
/// The IR starts from the native state after configure() (configure is server-only and not
/// lifted). The lifted on_timer runs on the interpreter at the ticks the native one fires at. Reply packets are rewritten closed-loop from the
/// reference's outputs (NAT, load balancers), and the same rewritten packet is fed to both.
pub fn differential(src: &Path, plan: Plan, workload: &str, packets: usize) {
    let nf = src.file_stem().unwrap().to_string_lossy().to_string();
    let lifted = lift_file(src);
    tandem_ir::verify_module(&lifted.module).unwrap();
    let mut reference = Host::new(native(src));
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
        let fired = reference.fire_timers(pkt.ts_ns);
        if lifted.module.timer.is_some() {
            // The lifted on_timer, on the same tick rule.
            let ran = ir.fire_timers(pkt.ts_ns).unwrap();
            assert_eq!(ran, fired, "{nf}: ticks before packet {n}");
            ticks += ran;
        } else if fired > 0 {
            // An on_timer that lifted to nothing (it only returns) ran natively.
            ticks += fired;
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
        "{nf}/{workload}: {n} packets identical ({sent} sent, {ticks} timer ticks), final state identical"
    );
}
