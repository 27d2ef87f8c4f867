//! `standard_metadata.ingress_global_timestamp` / `egress_global_timestamp` are the packet's
//! time (`Worker::process_at`) in microseconds, 48 bits, as in BMv2.

use tandem_switch::Switch;

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
struct headers_t { ethernet_t ethernet; }
struct meta_t { }
parser P(packet_in packet, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { packet.extract(hdr.ethernet); transition accept; }
}
control V(inout headers_t hdr, inout meta_t meta) { apply { } }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { hdr.ethernet.dst = sm.ingress_global_timestamp; sm.egress_spec = 2; }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { hdr.ethernet.src = sm.egress_global_timestamp; }
}
control C(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.ethernet); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

fn field48(b: &[u8]) -> u64 {
    b.iter().fold(0, |acc, &x| (acc << 8) | u64::from(x))
}

#[test]
fn global_timestamps_are_the_packet_time_in_microseconds() {
    let sw = Switch::from_source(PROGRAM).unwrap();
    let mut w = sw.worker();
    let frame = [0u8; 64];
    for ts in [0u64, 999, 1_000, 1_234_567_891, 1_700_000_000_123_456_789] {
        let (port, out) = w.process_at(1, &frame, ts).unwrap();
        assert_eq!(port, 2);
        let us = (ts / 1000) & ((1 << 48) - 1);
        assert_eq!(field48(&out[0..6]), us, "ingress at {ts} ns");
        assert_eq!(field48(&out[6..12]), us, "egress at {ts} ns");
    }
    // Without a time: 0.
    let (_, out) = w.process(1, &frame).unwrap();
    assert_eq!(field48(&out[0..12]), 0);
}
