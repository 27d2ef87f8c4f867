//! `P4Options::dispatch` (`lower/dispatch.rs`): pre picks a cluster's server in both
//! architectures — the flow hash, the Bloom filters and the groups as registers, the pin
//! table, the id packed into the transfer header's last byte — recorded in the manifest, and
//! absent without the option (the goldens hold the program byte for byte). The behaviour on
//! the switch (the server the program picks is the one the runtime's definition gives) is
//! tested in `tandem-offload/tests/cluster.rs`.

use std::path::PathBuf;

use tandem_p4::{generate, Arch, DispatchShape, P4Error, P4Options};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};

fn program(
    nf: &str,
    arch: Arch,
    dispatch: Option<DispatchShape>,
) -> Result<(String, tandem_p4::Manifest), P4Error> {
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
            dispatch,
            ..P4Options::default()
        },
    )?;
    Ok((tandem_p4_syntax::print_program(&out.program), out.manifest))
}

#[test]
fn pre_picks_the_server_in_both_architectures() {
    let shape = DispatchShape::default();
    for arch in [Arch::V1Model, Arch::Tna] {
        let (plain, pm) = program("trd", arch, None).unwrap();
        let (p4, m) = program("trd", arch, Some(shape)).unwrap();
        assert!(!plain.contains("tandem_pins") && pm.dispatch.is_none());
        let d = m.dispatch.as_ref().expect("the manifest's dispatch");
        assert_eq!((d.slots, d.bloom_bits, d.bloom_hashes), (256, 65536, 3));
        assert_eq!(d.bloom.len(), 2);
        assert_eq!(d.bloom[0].len(), 3);
        assert_eq!(d.groups.len(), 2);
        // The header grew by one byte: the server id, last.
        let th = &m.transfer_header;
        assert_eq!(th.bytes, pm.transfer_header.bytes + 1);
        let last = th.fields.last().unwrap();
        assert_eq!(
            (last.name.as_str(), last.offset, last.bits),
            ("server", pm.transfer_header.bytes * 8, 8)
        );
        assert_eq!(
            p4.matches("hdr.tandem.server = meta.tandem_server;")
                .count(),
            1,
            "{arch:?}"
        );
        assert_eq!(p4.matches("tandem_pins.apply();").count(), 1);
        // Each filter register is read on one path and written on the other.
        for f in 0..2 {
            for i in 0..3 {
                let r = format!("tandem_bm{f}_{i}");
                assert_eq!(p4.matches(&format!("{r}.write(")).count(), 1, "{r}");
                assert_eq!(p4.matches(&format!("{r}.read(")).count(), 1, "{r}");
            }
        }
        match arch {
            Arch::V1Model => {
                assert!(p4.contains("64w0x100);"), "the slot hash");
                assert!(p4.contains("64w0x10000);"), "the Bloom hashes");
            }
            Arch::Tna => {
                assert!(p4.contains("Hash<bit<8> >(HashAlgorithm_t.CRC32) tandem_hslot;"));
                assert!(p4.contains("Hash<bit<16> >(HashAlgorithm_t.CRC32) tandem_hb2;"));
            }
        }
        // The header's other fields are where they were.
        assert_eq!(
            &th.fields[..th.fields.len() - 1],
            &pm.transfer_header.fields[..]
        );
    }
}

#[test]
fn a_one_bit_filter_needs_no_hash() {
    let shape = DispatchShape {
        bloom_bits: 1,
        bloom_hashes: 1,
    };
    for arch in [Arch::V1Model, Arch::Tna] {
        let (p4, _) = program("trd", arch, Some(shape)).unwrap();
        assert!(p4.contains("meta.tandem_b0 = 32w0;"), "{arch:?}");
    }
}

#[test]
fn bad_shapes_are_coded_errors() {
    for (bits, hashes) in [(0, 3), (3000, 3), (1 << 21, 3), (1024, 0), (1024, 9)] {
        let shape = DispatchShape {
            bloom_bits: bits,
            bloom_hashes: hashes,
        };
        let e = program("trd", Arch::V1Model, Some(shape))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("P4E02 cluster dispatch"),
            "{bits}/{hashes}: {e}"
        );
    }
}

#[test]
fn an_nf_without_a_server_path_gets_nothing() {
    let (p4, m) = program("firewall", Arch::V1Model, Some(DispatchShape::default())).unwrap();
    assert!(m.dispatch.is_none());
    assert!(!p4.contains("tandem_pins"));
}
