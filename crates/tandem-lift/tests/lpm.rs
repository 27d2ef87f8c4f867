//! LpmMap through the front end: the lifted IR (longest prefix match on the interpreter)
//! against the native `tandem::LpmMap` on random prefix sets, inserted, erased and looked up
//! by packets (`tests/nfs/lpm_learn.cc`; `lpm_key_learn.cc` with a composite
//! `LpmKey{tenant, address}` key), comparing every packet and the final state dumps.

mod common;

use std::sync::OnceLock;

use proptest::prelude::*;
use tandem_host::irhost::{diff_states, normalize_native, IrHost};
use tandem_host::Host;
use tandem_traffic::TracePacket;

fn lifted() -> &'static tandem_ir::Module {
    static M: OnceLock<tandem_ir::Module> = OnceLock::new();
    M.get_or_init(|| lift("lpm_learn"))
}

fn lifted_key() -> &'static tandem_ir::Module {
    static M: OnceLock<tandem_ir::Module> = OnceLock::new();
    M.get_or_init(|| lift("lpm_key_learn"))
}

fn lift(nf: &str) -> tandem_ir::Module {
    let l = common::lift_file(&common::test_nf(nf));
    tandem_ir::verify_module(&l.module).unwrap();
    l.module
}

/// Ethernet + IPv4 + UDP, checksums left 0 (the NF does not look at them).
fn udp(saddr: u32, daddr: u32, sport: u16, dport: u16) -> Vec<u8> {
    let mut p = vec![0u8; 14 + 20 + 8];
    p[0..6].copy_from_slice(&[2, 0, 0, 0, 0, 2]);
    p[6..12].copy_from_slice(&[2, 0, 0, 0, 0, 1]);
    p[12..14].copy_from_slice(&[0x08, 0x00]);
    p[14] = 0x45;
    p[16..18].copy_from_slice(&28u16.to_be_bytes());
    p[22] = 64;
    p[23] = 17;
    p[26..30].copy_from_slice(&saddr.to_be_bytes());
    p[30..34].copy_from_slice(&daddr.to_be_bytes());
    p[34..36].copy_from_slice(&sport.to_be_bytes());
    p[36..38].copy_from_slice(&dport.to_be_bytes());
    p[38..40].copy_from_slice(&8u16.to_be_bytes());
    p
}

/// Addresses from few values so that prefixes nest: the top byte from 4, the second from 4.
fn addr(x: u32) -> u32 {
    let a = [10u32, 172, 192, 203][(x & 3) as usize];
    let b = [0u32, 16, 168, 255][((x >> 2) & 3) as usize];
    (a << 24) | (b << 16) | (x >> 4 & 0xffff)
}

fn run(ops: &[(u8, u32, u32, u16, u16)]) -> Result<(), TestCaseError> {
    run_nf("lpm_learn", lifted(), ops)
}

fn run_nf(
    nf: &str,
    module: &tandem_ir::Module,
    ops: &[(u8, u32, u32, u16, u16)],
) -> Result<(), TestCaseError> {
    let src = common::test_nf(nf);
    let mut native = Host::new(common::native(&src));
    let initial = native.dump_state().unwrap();
    let mut ir = IrHost::new(module, &initial, Box::new(tandem_lift::PayloadOps)).unwrap();
    for (i, &(op, s, d, port, dport)) in ops.iter().enumerate() {
        // The low two bits of the source port choose insert (0), erase (1) or lookup.
        let sport = (port << 2) | u16::from(op % 4);
        let pkt = TracePacket {
            ts_ns: i as u64 * 1000,
            port: 0,
            data: udp(addr(s), addr(d), sport, dport),
        };
        let want = native.process(&pkt).unwrap();
        let got = ir.process(&pkt).unwrap();
        prop_assert_eq!(got, want, "packet {}", i);
    }
    let n = normalize_native(&native.dump_state().unwrap());
    let diffs = diff_states(&n, &ir.state().unwrap());
    prop_assert!(
        diffs.is_empty(),
        "final state differs:\n{}",
        diffs.join("\n")
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn lifted_lpm_matches_native(
        ops in prop::collection::vec((0u8..4, any::<u32>(), any::<u32>(), 1u16..1000, any::<u16>()), 1..120)
    ) {
        run(&ops)?;
    }

    #[test]
    fn lifted_composite_key_lpm_matches_native(
        ops in prop::collection::vec((0u8..4, any::<u32>(), any::<u32>(), 1u16..1000, any::<u16>()), 1..120)
    ) {
        run_nf("lpm_key_learn", lifted_key(), &ops)?;
    }
}

/// An `LpmKey<E, A>` becomes an `lpm_map` with two key fields (the exact part first), and a
/// route inserted for one tenant does not answer another's lookup.
#[test]
fn composite_key_is_two_fields_and_the_exact_part_matters() {
    let text = tandem_ir::print_module(lifted_key());
    assert!(text.contains("lpm_map<{k0: i32 @0, k4: i32 @4}"), "{text}");
    let src = common::test_nf("lpm_key_learn");
    let mut native = Host::new(common::native(&src));
    let initial = native.dump_state().unwrap();
    let mut ir = IrHost::new(lifted_key(), &initial, Box::new(tandem_lift::PayloadOps)).unwrap();
    // Insert 10.0.0.0/8 for tenant 1 (dport 0x0120: tenant 1, length 288 % 40 = 8), port 5.
    let insert = udp(0x0a00_0000, 0, 5 << 2, 0x0120);
    // Look up 10.1.2.3 as tenant 1 and as tenant 2.
    let hit = udp(0, 0x0a01_0203, 2, 0x0100);
    let miss = udp(0, 0x0a01_0203, 2, 0x0200);
    let mut outs = Vec::new();
    for (i, data) in [insert, hit, miss].into_iter().enumerate() {
        let pkt = TracePacket {
            ts_ns: i as u64,
            port: 0,
            data,
        };
        let want = native.process(&pkt).unwrap();
        let got = ir.process(&pkt).unwrap();
        assert_eq!(got, want, "packet {i}");
        outs.push(got);
    }
    assert_ne!(outs[1], outs[2], "the tenant is matched exactly");
}

/// The lifted module really is an LPM map with insert/erase by (prefix, length).
#[test]
fn lifted_lpm_learn_uses_lpm_map_operations() {
    let text = tandem_ir::print_module(lifted());
    assert!(text.contains("lpm_map<"), "{text}");
    assert!(text.contains("map.insert routes("), "{text}");
    assert!(text.contains("map.erase routes("), "{text}");
}
