//! v1model `meter` / `execute_meter` on the software switch: the colours of a two-rate
//! three-colour marker on the packets' own time, configured through the entries format and
//! the control API (`meter_set_rates`, `meter_read`/`meter_write`).

use tandem_switch::{apply_commands, parse_commands, MeterCell, Switch};

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
struct headers_t { ethernet_t ethernet; }
struct meta_t { bit<8> color; }
parser P(packet_in packet, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { packet.extract(hdr.ethernet); transition accept; }
}
control V(inout headers_t hdr, inout meta_t meta) { apply { } }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    meter(32w4, MeterType.bytes) by_bytes;
    meter(32w4, MeterType.packets) by_packets;
    apply {
        if (hdr.ethernet.etherType == 16w1) {
            by_packets.execute_meter((bit<32>)hdr.ethernet.dst[7:0], meta.color);
        } else {
            by_bytes.execute_meter((bit<32>)hdr.ethernet.dst[7:0], meta.color);
        }
        sm.egress_spec = (bit<9>)meta.color + 9w1;
    }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.ethernet); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

fn frame(index: u8, packets: bool, len: usize) -> Vec<u8> {
    let mut f = vec![0u8; len];
    f[5] = index;
    f[13] = u8::from(packets);
    f
}

/// The colour the switch gives: egress port - 1.
fn colour(w: &mut tandem_switch::Worker, f: &[u8], ts: u64) -> u32 {
    w.process_at(1, f, ts).expect("forwarded").0 - 1
}

#[test]
fn byte_and_packet_meters_by_hand() {
    let sw = Switch::from_source(PROGRAM).unwrap();
    let cmds = parse_commands(
        "meter_set_rates by_bytes 1 1000:300 2000:500\nmeter_set_rates I.by_packets * 10:2 20:4\n",
        &sw,
    )
    .unwrap();
    apply_commands(&sw, &cmds).unwrap();
    let mut w = sw.worker();
    let s = 1_000_000_000u64;
    // Bytes, meter 1 (1000 B/s, burst 300; 2000 B/s, burst 500), 200-byte frames.
    let c: Vec<u32> = (0..3)
        .map(|_| colour(&mut w, &frame(1, false, 200), s))
        .collect();
    assert_eq!(c, [0, 1, 2]);
    // 50 ms later: +50 committed (150), +100 peak (200): a 150-byte frame is green.
    assert_eq!(colour(&mut w, &frame(1, false, 150), s + 50_000_000), 0);
    assert_eq!(
        sw.meter_read("by_bytes", 1).unwrap(),
        MeterCell {
            cir: 1000,
            cburst: 300,
            pir: 2000,
            pburst: 500,
            tc: 0,
            tp: 50,
            last_ns: s + 50_000_000
        }
    );
    // Unconfigured meter 0: always green, never changed.
    for _ in 0..5 {
        assert_eq!(colour(&mut w, &frame(0, false, 1500), s), 0);
    }
    assert_eq!(sw.meter_read("by_bytes", 0).unwrap(), MeterCell::default());
    // Packets, every meter configured by `*`: 2 green, 2 yellow, then red.
    for i in 0..4 {
        let c: Vec<u32> = (0..5)
            .map(|_| colour(&mut w, &frame(i, true, 64), s))
            .collect();
        assert_eq!(c, [0, 0, 1, 1, 2], "meter {i}");
    }
    // An index out of range is green.
    assert_eq!(colour(&mut w, &frame(9, true, 64), s), 0);
    // The control API writes whole cells (what the runtime does after a server-side run).
    sw.meter_write("by_packets", 2, MeterCell::with_rates(10, 2, 20, 4))
        .unwrap();
    assert_eq!(colour(&mut w, &frame(2, true, 64), s), 0);
    assert!(sw.meter_read("by_packets", 4).is_err());
    assert!(sw.meter_read("nope", 0).is_err());
}

#[test]
fn bad_meter_declarations_are_refused() {
    for (from, to, want) in [
        (
            "meter(32w4, MeterType.bytes) by_bytes;",
            "meter(32w0, MeterType.bytes) by_bytes;",
            "meter size",
        ),
        (
            "meter(32w4, MeterType.bytes) by_bytes;",
            "meter(32w4, 3) by_bytes;",
            "meter type",
        ),
        (
            "struct meta_t { bit<8> color; }",
            "struct meta_t { bit<1> color; }",
            "W >= 2",
        ),
    ] {
        let e = match Switch::from_source(&PROGRAM.replace(from, to)) {
            Ok(_) => panic!("`{to}` accepted"),
            Err(e) => e.to_string(),
        };
        assert!(e.contains(want), "{e}");
    }
}
