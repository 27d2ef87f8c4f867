//! The negative control: with a deliberately wrong lowering — the switch program's additions
//! computed as subtractions, as a P4 back end that swapped the operator would — the fuzzer
//! must report mismatches.

use tandem_fuzz::run::{run_seed, FailKind, Outcome, RunConfig};

/// Every `+` in the generated switch program becomes `-` (`None` when there is none).
fn add_as_sub(p4: &str) -> Option<String> {
    p4.contains(" + ").then(|| p4.replace(" + ", " - "))
}

#[test]
fn a_wrong_lowering_is_caught() {
    let dir = std::env::temp_dir().join("tandem-test-fuzz");
    let mut config = RunConfig::new(dir.join("nfs-negative"), dir.join("cache"));
    config.packets = 200;
    config.gen.int64 = false;
    config.profiles = vec!["bmv2".into()];
    config.vary_profiles = false;
    config.mutate_p4 = Some(add_as_sub);
    let mut mismatches = Vec::new();
    let mut other = Vec::new();
    for seed in 1..=30u64 {
        let nf = run_seed(seed, &config);
        for r in &nf.runs {
            match &r.outcome {
                Outcome::Failed {
                    kind: FailKind::Mismatch,
                    message,
                } => mismatches.push((seed, message.clone())),
                Outcome::Failed { kind, message } => {
                    other.push(format!("seed {seed}: {}: {message}", kind.as_str()))
                }
                _ => {}
            }
        }
        if mismatches.len() >= 2 {
            break;
        }
    }
    assert!(
        mismatches.len() >= 2,
        "the wrong lowering was not caught: {} mismatches; other failures: {other:?}",
        mismatches.len()
    );
}
