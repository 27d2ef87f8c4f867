//! The benchmark fixtures do what the benchmarks claim: every packet takes the
//! fast path and comes out rewritten, with a valid IPv4 checksum.

use tandem_switch::bench;

fn csum_ok(ip: &[u8]) -> bool {
    let mut s: u32 = 0;
    for c in ip.chunks(2) {
        s += u16::from_be_bytes([c[0], c[1]]) as u32;
    }
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    s == 0xffff
}

#[test]
fn generated_minilb_rewrites_every_flow() {
    let (sw, pkts) = bench::minilb_generated(1024).expect("fixture");
    let mut w = sw.worker();
    for p in &pkts {
        let (port, out) = w.process(1, p).expect("forwarded");
        assert_eq!(port, 1);
        assert_eq!(out.len(), p.len());
        // backend 10.1.0.<key low byte>, key low byte = first address bytes xored
        assert_eq!(out[30..33], [10, 1, 0]);
        assert_eq!(out[33], p[26] ^ p[30]);
        assert!(csum_ok(&out[14..34]), "IPv4 checksum");
        // Ethernet, IPv4 up to the checksum, and the source address unchanged
        assert_eq!(out[..24], p[..24]);
        assert_eq!(out[26..30], p[26..30]);
    }
}

#[test]
fn handwritten_minilb_and_lpm_forward_every_packet() {
    for (sw, pkts) in [
        bench::minilb(1024).expect("minilb"),
        bench::lpm(1000, 256).expect("lpm"),
    ] {
        let mut w = sw.worker();
        for p in &pkts {
            let (_, out) = w.process(1, p).expect("forwarded");
            assert!(csum_ok(&out[14..34]), "IPv4 checksum");
        }
    }
}
