//! TNA's ingress has no frame length: a profile constrained to TNA (`Arch::constrain`) keeps
//! a `pkt.length()` read on the server, and the generated TNA program compiles; the same
//! profile unconstrained puts the read on the switch, which the TNA lowering must refuse
//! (the negative control: `tandem compile --target tna` used to fail this way).

use tandem_ir::parse_module;
use tandem_p4::{generate, Arch, P4Error, P4Options};
use tandem_partition::*;

/// Frames longer than 1,000 bytes go out port 1, the others out port 0.
const NF: &str = "nf bylength

fn process {
block0:
    v0:i16 = meta.read length
    v1:i16 = const 1000
    v2:i1 = icmp ugt v0, v1
    v3:i16 = const 1
    v4:i16 = const 0
    v5:i16 = select v2, v3, v4
    send v5
    return
}
";

fn partitioned(profile: &TargetProfile) -> Partitioned {
    let m = parse_module(NF).unwrap();
    let out = partition_module(&m, profile, &PartitionOptions::default()).unwrap();
    verify_plan(&out.module, &out.info, profile, &out.plan).unwrap();
    out
}

fn tna(p: &Partitioned) -> Result<tandem_p4::P4Output, P4Error> {
    generate(
        &p.plan,
        &p.module,
        &P4Options {
            arch: Arch::Tna,
            ..P4Options::default()
        },
    )
}

#[test]
fn tna_keeps_the_frame_length_on_the_server() {
    for name in ["tofino1", "tofino2"] {
        let mut profile = TargetProfile::builtin(name).unwrap();
        Arch::Tna.constrain(&mut profile);
        let p = partitioned(&profile);
        assert!(
            p.plan.summary.server > 0,
            "{name}: {:#?}",
            p.plan.statements
        );
        let out = tna(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = tandem_p4_syntax::print_program(&out.program);
        // the comparison with the length runs on the server, not in the switch program
        assert!(!text.contains("1000"), "{name}:\n{text}");
    }
}

#[test]
fn v1model_keeps_the_frame_length_on_the_switch() {
    let mut profile = TargetProfile::builtin("tofino1").unwrap();
    Arch::V1Model.constrain(&mut profile);
    let p = partitioned(&profile);
    assert_eq!(p.plan.summary.server, 0, "{:#?}", p.plan.statements);
    let out = generate(&p.plan, &p.module, &P4Options::default()).unwrap();
    let text = tandem_p4_syntax::print_program(&out.program);
    assert!(text.contains("packet_length"), "{text}");
}

/// Negative control: without the constraint the read lands on the switch, and TNA refuses it.
#[test]
fn unconstrained_tna_plan_is_refused_by_the_lowering() {
    let p = partitioned(&TargetProfile::builtin("tofino1").unwrap());
    assert_eq!(p.plan.summary.server, 0);
    let Err(err) = tna(&p) else {
        panic!("TNA lowering accepted a frame-length read")
    };
    assert!(err.to_string().contains("frame length"), "{err}");
}
