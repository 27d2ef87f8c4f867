//! Golden reports: every example NF's partition report on Tofino 1 with the default pipeline
//! (`tandem partition`, joins split) and MiniLB's plan.json,
//! compared with `tests/golden/`. Refresh with `TANDEM_BLESS=1 cargo test -p
//! tandem-partition --test golden` and review the diff.

mod common;

use tandem_partition::*;

fn check(file: &str, actual: &str) {
    let path = format!("{}/tests/golden/{file}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("TANDEM_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{path} missing: run with TANDEM_BLESS=1"));
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{file} differs from the golden file at line {} (TANDEM_BLESS=1 to refresh):\n  golden: {:?}\n  actual: {:?}",
            line + 1,
            expected.lines().nth(line),
            actual.lines().nth(line)
        );
    }
}

#[test]
fn golden_reports_on_tofino1() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    for name in common::NFS {
        let m = common::golden(name);
        let out = partition_module(&m, &p, &PartitionOptions::default()).unwrap();
        let (m, info, plan) = (out.module, out.info, out.plan);
        check(&format!("{name}.tofino1.txt"), &report(&m, &info, &plan));
        if name == "minilb" {
            check("minilb.tofino1.plan.json", &(plan.to_json() + "\n"));
        }
    }
}
