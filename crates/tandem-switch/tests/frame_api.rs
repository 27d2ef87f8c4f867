//! `Worker::process_frame`: the switch processes a frame the caller lends it, copying in
//! only the headers the parser reaches (`Code::prefix`, at most 256 bytes) and writing the
//! output back into the frame. A parse past the prefix copies the rest of the packet
//! (`exec::fill`, `raw::rt_fill`): this program's first header is 320 bytes, so its last
//! field and the header after it lie past the prefix — without that copy they would read
//! as stale bytes and the outputs below would differ.

use tandem_switch::{CompileOptions, Engine, Switch};

/// A 320-byte header (40 × 64 bits), then a 2-byte one; ingress rewrites the last field
/// of the first and the second header, and (on port 3) removes the second header.
fn program() -> String {
    let fields: String = (0..40).map(|i| format!("bit<64> f{i}; ")).collect();
    format!(
        r#"
#include <core.p4>
#include <v1model.p4>
header big_t {{ {fields} }}
header tail_t {{ bit<16> v; }}
struct headers_t {{ big_t big; tail_t tail; }}
struct meta_t {{ }}
parser P(packet_in packet, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
    state start {{ packet.extract(hdr.big); packet.extract(hdr.tail); transition accept; }}
}}
control V(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
    apply {{
        hdr.big.f39 = hdr.big.f39 + 1;
        hdr.tail.v = hdr.tail.v ^ 0xffff;
        sm.egress_spec = 2;
        if (sm.ingress_port == 3) {{ hdr.tail.setInvalid(); }}
    }}
}}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{ apply {{ }} }}
control C(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}
control D(packet_out packet, in headers_t hdr) {{
    apply {{ packet.emit(hdr.big); packet.emit(hdr.tail); }}
}}
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#
    )
}

fn expected(p: &[u8], removed: bool) -> Vec<u8> {
    let mut o = p.to_vec();
    let f = u64::from_be_bytes(o[312..320].try_into().unwrap()).wrapping_add(1);
    o[312..320].copy_from_slice(&f.to_be_bytes());
    if removed {
        o.drain(320..322);
    } else {
        o[320] ^= 0xff;
        o[321] ^= 0xff;
    }
    o
}

#[test]
fn a_parse_past_the_prefix_sees_every_byte_on_both_engines() {
    let src = program();
    for engine in [Engine::Interp, Engine::Native] {
        let sw = Switch::from_source_with(&src, CompileOptions::with_engine(engine)).unwrap();
        let mut w = sw.worker();
        for (k, len) in [322usize, 400, 1500, 321].into_iter().enumerate() {
            // distinct bytes per packet, so stale bytes of the previous one would show
            let p: Vec<u8> = (0..len).map(|i| (i * 7 + k * 13) as u8).collect();
            for port in [1u32, 3] {
                let removed = port == 3;
                let got_at = w.process_at(port, &p, 0).map(|(q, o)| (q, o.to_vec()));
                let mut frame = p.clone();
                let got_frame = w.process_frame(port, &mut frame, 0).map(|q| (q, frame));
                if len < 322 {
                    // too short for the second header: parser error, still forwarded
                    assert_eq!(got_at, got_frame, "{engine:?} len {len}");
                    continue;
                }
                let want = Some((2, expected(&p, removed)));
                assert_eq!(got_at, want, "{engine:?} process_at len {len} port {port}");
                assert_eq!(
                    got_frame, want,
                    "{engine:?} process_frame len {len} port {port}"
                );
            }
        }
    }
}

#[test]
fn a_dropped_frame_is_left_unchanged() {
    let src = program().replace("sm.egress_spec = 2;", "mark_to_drop(sm);");
    let sw = Switch::from_source(&src).unwrap();
    let mut w = sw.worker();
    let p: Vec<u8> = (0..400).map(|i| i as u8).collect();
    let mut frame = p.clone();
    assert_eq!(w.process_frame(1, &mut frame, 0), None);
    assert_eq!(frame, p);
}
