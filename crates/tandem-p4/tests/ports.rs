//! Switch ports are 9 bits: a constant send to a port the switch does not have, or to the
//! server's port, and a server port beyond 511 are errors, not truncated ports.

use tandem_p4::{generate, P4Error, P4Options};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};

fn generate_send(port: u64, opts: &P4Options) -> Result<(), P4Error> {
    let text = format!(
        "nf sender\n\nfn process {{\nblock0:\n    v0:i16 = const {port}\n    send v0\n    return\n}}\n"
    );
    let module = tandem_ir::parse_module(&text).unwrap();
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    let module = plan.module().unwrap();
    generate(&plan, &module, opts).map(|_| ())
}

#[test]
fn ports_beyond_the_switch_are_errors() {
    let opts = P4Options::default();
    generate_send(511, &opts).unwrap();
    let e = generate_send(600, &opts).unwrap_err().to_string();
    assert!(e.contains("port 600 does not exist"), "{e}");
    let e = generate_send(64, &opts).unwrap_err().to_string();
    assert!(e.contains("port 64 is the server's port"), "{e}");
    let e = generate_send(
        1,
        &P4Options {
            server_port: 600,
            ..P4Options::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("server port 600 is not a switch port"), "{e}");
}
