//! Golden P4 and manifests for every example NF (lifted golden IR → plan for tofino1 with
//! split joins → v1model), refreshed with `TANDEM_BLESS=1`; every program prints, parses
//! back to the same text, and loads on the software switch.

use std::path::PathBuf;

use tandem_p4::{generate, Arch, P4Options};
use tandem_partition::{partition_module, PartitionOptions, Plan, TargetProfile};

pub const NFS: [&str; 16] = [
    "minilb",
    "mazunat",
    "l4lb",
    "firewall",
    "proxy",
    "statefilter",
    "cofilter",
    "trojan",
    "lpmrouter",
    "vxlangw",
    "vlantrunk",
    "hhdetect",
    "aclfw",
    "ratelimit",
    "trd",
    "snat",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn plan_of(nf: &str) -> Plan {
    let path = root().join(format!("../tandem-lift/tests/golden/{nf}.nfir"));
    let text = std::fs::read_to_string(&path).unwrap();
    let module = tandem_ir::parse_module(&text).unwrap();
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let options = PartitionOptions {
        split_joins: true,
        ..Default::default()
    };
    partition_module(&module, &profile, &options).unwrap().plan
}

/// FNV-1a 64 of a plan's JSON: the goldens record the plans they were made from.
fn plan_digest(plan: &Plan) -> String {
    let h = tandem_ir::hash::fnv1a64(plan.to_json().as_bytes());
    format!("{h:016x}\n")
}

/// Requires the goldens of `nf` to have been made from this plan: a plan change fails the
/// test (it used to skip the comparison, so any partitioner change silently turned the
/// goldens off) until the goldens are reviewed and blessed again.
fn same_plan(nf: &str, plan: &Plan) -> bool {
    let path = root()
        .join("tests/golden")
        .join(format!("{nf}.plan-digest"));
    let digest = plan_digest(plan);
    if std::env::var_os("TANDEM_BLESS").is_some() {
        std::fs::write(&path, &digest).unwrap();
        return true;
    }
    let same = std::fs::read_to_string(&path).is_ok_and(|d| d == digest);
    assert!(
        same,
        "{nf}: the plan changed since the goldens were blessed, so they no longer test this plan; review the change and refresh with `TANDEM_BLESS=1 cargo test -p tandem-p4 --test golden`"
    );
    same
}

fn check_golden(name: &str, actual: &str) {
    let path = root().join("tests/golden").join(name);
    if std::env::var_os("TANDEM_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {}; run with TANDEM_BLESS=1", path.display()));
    assert!(
        expected == actual,
        "{name} differs from the golden file; run with TANDEM_BLESS=1 to refresh"
    );
}

#[test]
fn golden_v1model_programs_round_trip_and_load() {
    for nf in NFS {
        let plan = plan_of(nf);
        let module = plan.module().unwrap();
        let out =
            generate(&plan, &module, &P4Options::default()).unwrap_or_else(|e| panic!("{nf}: {e}"));
        let text = tandem_p4_syntax::print_program(&out.program);
        let reparsed = tandem_p4_syntax::parse_program(&text)
            .unwrap_or_else(|e| panic!("{nf}: emitted P4 does not parse: {e}"));
        assert_eq!(
            tandem_p4_syntax::print_program(&reparsed),
            text,
            "{nf}: round trip"
        );
        if let Err(e) = tandem_switch::Switch::from_source(&text) {
            panic!("{nf}: the switch rejects the program: {e}\n{text}");
        }
        if same_plan(nf, &plan) {
            check_golden(&format!("{nf}.v1model.p4"), &text);
            check_golden(
                &format!("{nf}.manifest.json"),
                &(out.manifest.to_json() + "\n"),
            );
            check_golden(&format!("{nf}.p4info.txt"), &out.manifest.to_p4info_text());
        }
    }
}

/// TNA from the same lowering: golden, and the print/parse round trip (no Tofino compiler or
/// TNA target here to load it on).
#[test]
fn golden_tna_programs_round_trip() {
    let opts = P4Options {
        arch: Arch::Tna,
        ..P4Options::default()
    };
    for nf in NFS {
        let plan = plan_of(nf);
        let module = plan.module().unwrap();
        let out = generate(&plan, &module, &opts).unwrap_or_else(|e| panic!("{nf}: {e}"));
        let text = tandem_p4_syntax::print_program(&out.program);
        let reparsed = tandem_p4_syntax::parse_program(&text)
            .unwrap_or_else(|e| panic!("{nf}: emitted TNA P4 does not parse: {e}"));
        assert_eq!(
            tandem_p4_syntax::print_program(&reparsed),
            text,
            "{nf}: round trip"
        );
        assert!(text.contains("#include <tna.p4>") && text.contains("Switch(pipe) main;"));
        assert_eq!(out.manifest.arch, "tna");
        if same_plan(nf, &plan) {
            check_golden(&format!("{nf}.tna.p4"), &text);
        }
    }
}
