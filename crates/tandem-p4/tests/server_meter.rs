//! `--server-rate` (`lower/server_meter.rs`): the meter on server-bound packets in both
//! architectures — declared once, executed on the pre → server path and on a partial map's
//! miss sent whole, recorded in the manifest — and absent without the option (the goldens
//! hold the program byte for byte). The behaviour on the switch is tested in
//! `tandem-offload/tests/server_meter.rs`.

use std::path::PathBuf;

use tandem_p4::{generate, Arch, P4Options, ServerRate};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};

fn program(nf: &str, arch: Arch, rate: Option<ServerRate>) -> (String, tandem_p4::Manifest) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../tandem-lift/tests/golden/{nf}.nfir"));
    let m = tandem_ir::parse_module(&std::fs::read_to_string(path).unwrap()).unwrap();
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let plan = partition_module(&m, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    let module = plan.module().unwrap();
    let out = generate(
        &plan,
        &module,
        &P4Options {
            arch,
            server_rate: rate,
            ..P4Options::default()
        },
    )
    .unwrap();
    (tandem_p4_syntax::print_program(&out.program), out.manifest)
}

#[test]
fn the_meter_guards_every_server_bound_path() {
    let rate = ServerRate {
        pps: 1000,
        burst: 50,
    };
    for arch in [Arch::V1Model, Arch::Tna] {
        let (plain, pm) = program("statefilter", arch, None);
        let (p4, m) = program("statefilter", arch, Some(rate));
        assert!(!plain.contains("tandem_server_meter") && pm.server_meter.is_none());
        let sm = m
            .server_meter
            .as_ref()
            .expect("the manifest's server meter");
        assert_eq!((sm.pps, sm.burst), (1000, 50));
        assert_eq!(sm.meter, "TandemIngress.tandem_server_meter");
        let exec = match arch {
            Arch::V1Model => "tandem_server_meter.execute_meter(32w0, meta.server_colour);",
            Arch::Tna => "meta.server_colour = tandem_server_meter.execute(32w0);",
        };
        assert_eq!(p4.matches(exec).count(), 1, "{arch:?}");
        assert_eq!(p4.matches("tandem_metered.count(32w0);").count(), 1);
        // The meter follows the port's assignment to the server, inside the same branch.
        let port = p4
            .find("egress_port = TANDEM_SERVER_PORT;\n")
            .or_else(|| p4.find("egress_spec = TANDEM_SERVER_PORT;\n"));
        let at = p4.find(exec).unwrap();
        assert!(port.is_some_and(|p| p < at), "{arch:?}");
    }
}

#[test]
fn partial_misses_sent_whole_are_metered_too() {
    // mazunat's int2ext as a partial map sends its misses to the server whole.
    let rate = Some(ServerRate { pps: 10, burst: 1 });
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tandem-lift/tests/golden/mazunat.nfir");
    let m = tandem_ir::parse_module(&std::fs::read_to_string(path).unwrap()).unwrap();
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let popts = PartitionOptions {
        partial: [("int2ext".to_string(), Some(300u64))]
            .into_iter()
            .collect(),
        ..PartitionOptions::default()
    };
    let plan = partition_module(&m, &profile, &popts).unwrap().plan;
    let module = plan.module().unwrap();
    let out = generate(
        &plan,
        &module,
        &P4Options {
            server_rate: rate,
            ..P4Options::default()
        },
    )
    .unwrap();
    let p4 = tandem_p4_syntax::print_program(&out.program);
    assert!(p4.contains("hdr.tandem.tag = 8w3;"), "a miss sent whole");
    assert_eq!(
        p4.matches(".execute_meter(32w0, meta.server_colour);")
            .count(),
        2
    );
}

#[test]
fn server_rates_parse_or_say_why_not() {
    let r: ServerRate = "1000:50".parse().unwrap();
    assert_eq!((r.pps, r.burst), (1000, 50));
    let r: ServerRate = "1000".parse().unwrap();
    assert_eq!((r.pps, r.burst), (1000, 100));
    let r: ServerRate = "3".parse().unwrap();
    assert_eq!(r.burst, 1);
    for bad in ["", "0", "10:0", "x", "10:y", "-5", "1:2:3"] {
        let e = bad.parse::<ServerRate>().unwrap_err().to_string();
        assert!(e.starts_with("P4E01 --server-rate"), "{bad}: {e}");
    }
}
