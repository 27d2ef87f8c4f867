//! Golden `server.cc` for every example NF (lifted golden IR → plan for tofino1 with split
//! joins), refreshed with `TANDEM_BLESS=1`; every one compiles with clang++-16 -O2 into a
//! shared object.

use std::path::PathBuf;
use std::process::Command;

use tandem_partition::{partition_module, PartitionOptions, Plan, TargetProfile};

const NFS: [&str; 16] = [
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

fn plan_of(nf: &str) -> Plan {
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

fn bless() -> bool {
    std::env::var_os("TANDEM_BLESS").is_some()
}

/// The goldens record the plan they were made from (FNV-1a 64 of its JSON): a changed plan
/// fails the test until the golden is reviewed and blessed again (it used to skip, so any
/// partitioner change silently turned the golden off).
fn same_plan(nf: &str, plan: &Plan) -> bool {
    let h = tandem_ir::hash::fnv1a64(plan.to_json().as_bytes());
    let digest = format!("{h:016x}\n");
    let path = root()
        .join("tests/golden")
        .join(format!("{nf}.plan-digest"));
    if bless() {
        std::fs::write(&path, &digest).unwrap();
        return true;
    }
    let same = std::fs::read_to_string(&path).is_ok_and(|d| d == digest);
    assert!(
        same,
        "{nf}: the plan changed since the goldens were blessed, so they no longer test this plan; review the change and refresh with `TANDEM_BLESS=1 cargo test -p tandem-cpp --test golden`"
    );
    same
}

#[test]
fn golden_server_partitions_compile() {
    let dir = tempfile::tempdir().unwrap();
    let inc = dir.path().join("include/tandem");
    std::fs::create_dir_all(&inc).unwrap();
    std::fs::write(inc.join("server.h"), tandem_cpp::SERVER_H).unwrap();
    let mut jobs = Vec::new();
    for nf in NFS {
        let plan = plan_of(nf);
        let module = plan.module().unwrap();
        let cc = tandem_cpp::generate(&plan, &module).unwrap_or_else(|e| panic!("{nf}: {e}"));
        let golden = root().join("tests/golden").join(format!("{nf}.server.cc"));
        if same_plan(nf, &plan) {
            if bless() {
                std::fs::write(&golden, &cc).unwrap();
            } else {
                let expected = std::fs::read_to_string(&golden).unwrap_or_default();
                assert!(
                    expected == cc,
                    "{nf}: server.cc differs from the golden file; run with TANDEM_BLESS=1"
                );
            }
        }
        let src = dir.path().join(format!("{nf}.cc"));
        std::fs::write(&src, &cc).unwrap();
        let child = Command::new("clang++-16")
            .args([
                "-std=c++17",
                "-O2",
                "-shared",
                "-fPIC",
                "-Wall",
                "-Wno-unused-label",
                "-Wno-unused-but-set-variable",
                "-Werror",
                "-I",
            ])
            .arg(dir.path().join("include"))
            .arg(&src)
            .arg("-o")
            .arg(dir.path().join(format!("{nf}.so")))
            .output();
        jobs.push((nf, child));
    }
    for (nf, out) in jobs {
        let out = out.expect("clang++-16 runs");
        assert!(
            out.status.success(),
            "{nf}: server.cc does not compile:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
