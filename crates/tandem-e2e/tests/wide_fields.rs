//! Byte-level work on header fields wider than the switch's ALUs (a 48-bit MAC address copied
//! byte by byte), end to end: the lifted shifts, masks and ors are carry-free, so the
//! partitioner keeps them on tofino1 (32-bit ALUs) and the generated P4 must compute exactly
//! what the native NF computes.

mod common;

use common::*;

/// Turns every second IPv4 frame of a trace into an ICMP echo request to 10.0.0.1 (every
/// 25th of those from the blocked 10.9.9.9), keeping its length and timing.
fn echo_requests(
    pkts: impl Iterator<Item = tandem_traffic::TracePacket>,
) -> Vec<tandem_traffic::TracePacket> {
    pkts.enumerate()
        .map(|(i, mut p)| {
            let d = &mut p.data;
            let is_ipv4 = d.len() >= 42 && d[12] == 0x08 && d[13] == 0x00 && d[14] >> 4 == 4;
            if is_ipv4 && i % 2 == 0 {
                let l4 = 14 + usize::from(d[14] & 0x0f) * 4;
                if d.len() >= l4 + 8 {
                    d[23] = 1;
                    d[30..34].copy_from_slice(&[10, 0, 0, 1]);
                    if i % 50 == 0 {
                        d[26..30].copy_from_slice(&[10, 9, 9, 9]);
                    }
                    d[l4] = 8;
                    d[l4 + 1] = 0;
                    d[l4 + 4..l4 + 8].copy_from_slice(&(i as u32).to_be_bytes());
                }
            }
            p
        })
        .collect()
}

#[test]
fn an_echo_responder_swaps_mac_bytes_on_the_switch() {
    let src = test_nf("echo_reply");
    let module = lift_file(&src);
    let profile = tandem_partition::TargetProfile::builtin("tofino1").unwrap();
    let b = compile_bundle(
        &module,
        &profile,
        &tandem_partition::PartitionOptions::default(),
        &P4Options::default(),
        None,
    )
    .unwrap();
    let pkts = echo_requests(trace(Addr::Nat, "enterprise", 300, 7).take(6000));
    let replies = pkts.iter().filter(|p| p.data.get(23) == Some(&1)).count();
    assert!(replies > 1000, "{replies} echo requests");
    let r = check_native(&b, native_file(&src), &mut pkts.into_iter(), None);
    assert_passed("echo_reply", &r);
    let share = r.offloaded.fast_path_share();
    assert!(
        share > 0.95,
        "the byte swaps run on the switch: fast path {:.1}%",
        share * 100.0
    );
}
