//! TernaryMap and RangeMap through the front end: the lifted IR (the highest-priority match
//! on the interpreter) against the native maps on random entries inserted, erased and looked
//! up by packets (`tests/nfs/tern_learn.cc`), comparing every packet and the final state.

mod common;

use std::sync::OnceLock;

use proptest::prelude::*;
use tandem_host::irhost::{diff_states, normalize_native, IrHost};
use tandem_host::Host;
use tandem_traffic::TracePacket;

fn lifted() -> &'static tandem_ir::Module {
    static M: OnceLock<tandem_ir::Module> = OnceLock::new();
    M.get_or_init(|| {
        let l = common::lift_file(&common::test_nf("tern_learn"));
        tandem_ir::verify_module(&l.module).unwrap();
        l.module
    })
}

/// Ethernet + IPv4 + UDP, checksums left 0 (the NF does not look at them).
fn udp(saddr: u32, daddr: u32, sport: u16, dport: u16) -> Vec<u8> {
    let mut p = vec![0u8; 14 + 20 + 8];
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

/// Addresses and masks from few values, so that entries overlap and collide.
fn addr(x: u32) -> u32 {
    [
        0x0a00_0000,
        0x0a01_0000,
        0xffff_0000,
        0xff00_0000,
        0x0a01_0203,
        0,
    ][(x % 6) as usize]
}

fn run(ops: &[(u8, u32, u32, u16, u16)]) -> Result<(), TestCaseError> {
    let src = common::test_nf("tern_learn");
    let mut native = Host::new(common::native(&src));
    let initial = native.dump_state().unwrap();
    let mut ir = IrHost::new(lifted(), &initial, Box::new(tandem_lift::PayloadOps)).unwrap();
    for (i, &(op, s, d, port, dport)) in ops.iter().enumerate() {
        // The low two bits of the source port choose insert (0), erase (1) or lookup.
        let sport = (port << 2) | u16::from(op % 4);
        let pkt = TracePacket {
            ts_ns: i as u64 * 1000,
            port: 0,
            data: udp(addr(s), addr(d), sport, dport % 200),
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
    fn lifted_ternary_and_range_maps_match_native(
        ops in prop::collection::vec((0u8..4, any::<u32>(), any::<u32>(), 1u16..16000, any::<u16>()), 1..120)
    ) {
        run(&ops)?;
    }
}

/// The lifted module holds a ternary and a range map with entries named by key, mask (or
/// range) and priority.
#[test]
fn tern_learn_uses_ternary_and_range_map_operations() {
    let text = tandem_ir::print_module(lifted());
    assert!(text.contains("state acl: ternary_map<"), "{text}");
    assert!(text.contains("state ranges: range_map<"), "{text}");
    // key (3 fields), mask (3), priority; lo, hi, priority.
    assert!(
        text.lines()
            .any(|l| l.contains("map.insert acl(") && l.matches(", ").count() >= 6),
        "{text}"
    );
    assert!(text.contains("map.erase ranges("), "{text}");
}
