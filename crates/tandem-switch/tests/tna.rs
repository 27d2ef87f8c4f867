//! TNA programs on the software switch (`check::tna`, `tna`): intrinsic metadata, the
//! traffic manager (drop_ctl, ucast_egress_port, bypass_egress), Register/Hash externs,
//! and several pipes with a loopback port (pipeline folding). Each behaviour has a
//! negative control: a variant of the program or configuration the test tells apart.

use tandem_switch::{CompileOptions, PortSet, Switch};

/// A one-pipe program; `PORT_FIELD` is where ingress writes the output port, `DROP` the
/// drop_ctl value for ethertype 1.
const ONE_PIPE: &str = r#"
#include <core.p4>
#include <tna.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> ethertype; }
struct headers_t { eth_t eth; }
struct meta_t { bit<32> v; }
parser IP(packet_in packet, out headers_t hdr, out meta_t meta, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        packet.extract(ig_intr_md);
        packet.advance(PORT_METADATA_SIZE);
        packet.extract(hdr.eth);
        transition accept;
    }
}
control IG(inout headers_t hdr, inout meta_t meta, in ingress_intrinsic_metadata_t ig_intr_md,
           in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
           inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
           inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Register<bit<32>, bit<32>>(32w512) seen;
    Hash<bit<16>>(HashAlgorithm_t.CRC16) h;
    Counter<bit<32>, bit<32>>(32w512, CounterType_t.PACKETS_AND_BYTES) per_port;
    DirectCounter<bit<32>>(CounterType_t.PACKETS) hits;
    action mark() { hits.count(); hdr.eth.dst[47:40] = 8w0xaa; }
    table marks {
        key = { hdr.eth.ethertype : exact; }
        actions = { mark; NoAction; }
        default_action = NoAction();
        counters = hits;
        idle_timeout = true;
        size = 16;
    }
    apply {
        per_port.count((bit<32>) ig_intr_md.ingress_port);
        marks.apply();
        meta.v = seen.read((bit<32>) ig_intr_md.ingress_port);
        seen.write((bit<32>) ig_intr_md.ingress_port, meta.v + 32w1);
        hdr.eth.src = (bit<48>) meta.v;
        hdr.eth.dst[15:0] = h.get({hdr.eth.ethertype});
        hdr.eth.dst[39:32] = ig_prsr_md.global_tstamp[7:0];
        PORT_FIELD = ig_intr_md.ingress_port + 9w1;
        if (hdr.eth.ethertype == 16w1) { ig_dprsr_md.drop_ctl = DROP; }
        if (hdr.eth.ethertype == 16w2) { ig_tm_md.bypass_egress = 1w1; }
    }
}
control IDP(packet_out packet, inout headers_t hdr, in meta_t meta, in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { packet.emit(hdr); }
}
parser EP(packet_in packet, out headers_t hdr, out meta_t meta, out egress_intrinsic_metadata_t eg_intr_md) {
    state start { packet.extract(eg_intr_md); packet.extract(hdr.eth); transition accept; }
}
control EG(inout headers_t hdr, inout meta_t meta, in egress_intrinsic_metadata_t eg_intr_md,
           in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
           inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
           inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        hdr.eth.ethertype = (bit<16>) eg_intr_md.egress_port;
        hdr.eth.dst[31:16] = eg_intr_md.pkt_length;
        if (hdr.eth.src == 48w7) { eg_dprsr_md.drop_ctl = 3w1; }
    }
}
control EDP(packet_out packet, inout headers_t hdr, in meta_t meta, in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { packet.emit(hdr); }
}
Pipeline(IP(), IG(), IDP(), EP(), EG(), EDP()) pipe;
Switch(pipe) main;
"#;

fn one_pipe(port_field: &str, drop: &str) -> Switch {
    let src = ONE_PIPE
        .replace("PORT_FIELD", port_field)
        .replace("DROP", drop);
    Switch::from_source(&src).unwrap_or_else(|e| panic!("{e}"))
}

fn frame(ethertype: u16, len: usize) -> Vec<u8> {
    let mut f = vec![0u8; len];
    f[12..14].copy_from_slice(&ethertype.to_be_bytes());
    f[14..]
        .iter_mut()
        .enumerate()
        .for_each(|(i, b)| *b = i as u8);
    f
}

/// CRC-16/ARC (v1model's and TNA's `crc16`), for the expected hash.
fn crc16(data: &[u8]) -> u16 {
    let mut c = 0u16;
    for &b in data {
        c ^= b as u16;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xA001
            } else {
                c >> 1
            };
        }
    }
    c
}

#[test]
fn one_pipe_ports_registers_hash_egress() {
    let sw = one_pipe("ig_tm_md.ucast_egress_port", "3w1");
    assert_eq!(sw.pipe_count(), 1);
    let mut w = sw.worker();
    for n in 0..3u64 {
        let f = frame(0x0800, 64);
        let (port, out) = w.process_at(3, &f, 0x1234_5678 + n).expect("forwarded");
        assert_eq!(port, 4, "ucast_egress_port = ingress_port + 1");
        assert_eq!(out.len(), 64);
        // egress saw its port and the length
        assert_eq!(&out[12..14], &4u16.to_be_bytes(), "egress_port");
        assert_eq!(&out[2..4], &64u16.to_be_bytes(), "pkt_length");
        // ingress: register count, hash, timestamp (ns)
        assert_eq!(&out[6..12], &n.to_be_bytes()[2..], "register read/write");
        assert_eq!(&out[4..6], &crc16(&[8, 0]).to_be_bytes(), "CRC16 hash");
        assert_eq!(out[1], (0x78 + n) as u8, "global_tstamp");
        assert_eq!(out[0], 0, "no table entry: not marked");
        assert_eq!(&out[14..], &f[14..], "payload unchanged");
    }
    assert_eq!(sw.register_read("seen", 3).unwrap(), 3);
    assert_eq!(sw.counter_read("per_port", 3).unwrap(), (3, 3 * 64));
    assert_eq!(out_first_byte(&mut w, 0x0800), 0, "no entry: not marked");
    // idle_timeout = true: the table ages
    sw.configure_ageing(&["marks"], 1_000_000).unwrap();
    sw.insert(
        "marks",
        tandem_switch::TableEntry {
            matches: vec![tandem_switch::KeyMatch::Exact(0x0800)],
            action: "mark".into(),
            args: vec![],
            priority: None,
        },
    )
    .unwrap();
    assert_eq!(out_first_byte(&mut w, 0x0800), 0xaa, "the entry marks");
    let counted = sw.direct_counters("marks").unwrap();
    assert_eq!(counted.len(), 1);
    assert_eq!(counted[0].1 .0, 1, "the direct counter counted the hit");
    let t = 0x1234_5678 + 500_000u64; // within the 1 ms timeout of the insert
    w.process_at(20, &frame(0x0800, 64), t).expect("forwarded");
    assert_eq!(
        sw.age_of_key("marks", &[0x0800]).unwrap(),
        Some(t),
        "hit time"
    );
    // 2 ms after the last hit the entry has expired: a miss
    let (_, out) = w.process_at(20, &frame(0x0800, 64), t + 2_000_000).unwrap();
    assert_eq!(out[0], 0, "expired entry");
    assert!(
        w.process(3, &frame(1, 64)).is_none(),
        "drop_ctl bit 0 drops"
    );
    // bypass_egress: egress does not rewrite the ethertype
    let (port, out) = w.process(5, &frame(2, 64)).expect("forwarded");
    assert_eq!((port, &out[12..14]), (6, &[0u8, 2][..]));
    // egress drop: the fourth packet of port 9 has src = 7 after... use port 9 eight times
    let mut outs = 0;
    for _ in 0..9 {
        outs += w.process(9, &frame(0x0800, 64)).is_some() as u32;
    }
    assert_eq!(
        outs, 8,
        "eg_dprsr_md.drop_ctl drops the packet whose count is 7"
    );
}

fn out_first_byte(w: &mut tandem_switch::Worker, ethertype: u16) -> u8 {
    w.process(20, &frame(ethertype, 64)).expect("forwarded").1[0]
}

#[test]
fn negative_controls_wrong_port_field_and_drop_bits() {
    // the port written to a field that is not ucast_egress_port: the packet goes to port 0
    let sw = one_pipe("ig_tm_md.level2_exclusion_id", "3w1");
    let (port, _) = sw
        .worker()
        .process(3, &frame(0x0800, 64))
        .expect("forwarded");
    assert_eq!(port, 0);
    // drop_ctl bit 1 only (copy-to-cpu) does not drop
    let sw = one_pipe("ig_tm_md.ucast_egress_port", "3w2");
    assert_eq!(sw.worker().process(3, &frame(1, 64)).map(|p| p.0), Some(4));
}

#[test]
fn port_metadata_unpack_consumes_no_bytes() {
    let src = ONE_PIPE
        .replace("PORT_FIELD", "ig_tm_md.ucast_egress_port")
        .replace("DROP", "3w1")
        .replace(
            "packet.advance(PORT_METADATA_SIZE);",
            "meta.v = port_metadata_unpack<bit<32>>(packet);",
        );
    let sw = Switch::from_source(&src).unwrap_or_else(|e| panic!("{e}"));
    let f = frame(0x0800, 64);
    let mut w = sw.worker();
    let (port, out) = w.process(3, &f).expect("forwarded");
    assert_eq!((port, &out[14..]), (4, &f[14..]));
}

#[test]
fn short_packets_and_bad_programs_do_not_panic() {
    let sw = one_pipe("ig_tm_md.ucast_egress_port", "3w1");
    let mut w = sw.worker();
    for len in 0..20 {
        let _ = w.process(3, &vec![0xffu8; len]);
    }
    for (from, to, msg) in [
        (
            "packet.advance(PORT_METADATA_SIZE);",
            "packet.advance(32w8);",
            "advance",
        ),
        (
            "Hash<bit<16>>(HashAlgorithm_t.CRC16)",
            "Hash<bit<16>>(HashAlgorithm_t.CRC64)",
            "CRC64",
        ),
        (
            "Switch(pipe) main;",
            "Switch(nopipe) main;",
            "unknown Pipeline",
        ),
        (
            "Pipeline(IP(), IG(), IDP(), EP(), EG(), EDP())",
            "Pipeline(IP(), IG(), IDP(), EP(), EG())",
            "6 blocks",
        ),
        (
            "Register<bit<32>, bit<32>>(32w512)",
            "Register<bit<32>, bit<32>>(32w512, 32w5)",
            "initial",
        ),
        (
            "Hash<bit<16>>(HashAlgorithm_t.CRC16) h;",
            "Random<bit<16>>() h;",
            "Random",
        ),
        (
            "Switch(pipe) main;",
            "Pipeline(IP(), IG(), IDP(), EP(), EG(), EDP()) pipe_b; Switch(pipe, pipe_b) main;",
            "once per pipe",
        ),
        (
            "packet.advance(PORT_METADATA_SIZE);",
            "hdr.eth = port_metadata_unpack<eth_t>(packet);",
            "port_metadata_unpack",
        ),
    ] {
        let src = ONE_PIPE
            .replace("PORT_FIELD", "ig_tm_md.ucast_egress_port")
            .replace("DROP", "3w1")
            .replace(from, to);
        assert_ne!(src, ONE_PIPE, "{from}");
        match Switch::from_source(&src) {
            Ok(_) => panic!("`{to}` accepted"),
            Err(e) => assert!(e.to_string().contains(msg), "`{to}`: {e}"),
        }
    }
}

/// Two pipes: ingress 0 writes a value into a bridged header and sends the packet to the
/// fold port 128 (pipe 1); egress 1 passes it on; after the loopback, ingress 1 reads the
/// bridged value and sends the packet to port `value` (pipe 0); egress 0 removes the
/// bridged header and stamps the port it saw.
const TWO_PIPES: &str = r#"
#include <core.p4>
#include <tna.p4>
const bit<9> FOLD = 9w128;
header eth_t { bit<48> dst; bit<48> src; bit<16> ethertype; }
header bridged_t { bit<8> value; bit<8> hops; }
struct headers_t { bridged_t bridged; eth_t eth; }
struct meta_t { }
parser IP0(packet_in packet, out headers_t hdr, out meta_t meta, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start { packet.extract(ig_intr_md); packet.advance(PORT_METADATA_SIZE); packet.extract(hdr.eth); transition accept; }
}
control IG0(inout headers_t hdr, inout meta_t meta, in ingress_intrinsic_metadata_t ig_intr_md,
            in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
            inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
            inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        hdr.bridged.setValid();
        hdr.bridged.value = hdr.eth.dst[7:0] + 8w1;
        hdr.bridged.hops = 8w1;
        ig_tm_md.ucast_egress_port = FOLD;
    }
}
control DP(packet_out packet, inout headers_t hdr, in meta_t meta, in ingress_intrinsic_metadata_for_deparser_t d) {
    apply { packet.emit(hdr); }
}
parser EP1(packet_in packet, out headers_t hdr, out meta_t meta, out egress_intrinsic_metadata_t eg_intr_md) {
    state start { packet.extract(eg_intr_md); packet.extract(hdr.bridged); transition accept; }
}
control EG1(inout headers_t hdr, inout meta_t meta, in egress_intrinsic_metadata_t eg_intr_md,
            in egress_intrinsic_metadata_from_parser_t p, inout egress_intrinsic_metadata_for_deparser_t d,
            inout egress_intrinsic_metadata_for_output_port_t o) {
    apply { hdr.bridged.hops = hdr.bridged.hops + 8w1; }
}
control EDP(packet_out packet, inout headers_t hdr, in meta_t meta, in egress_intrinsic_metadata_for_deparser_t d) {
    apply { packet.emit(hdr); }
}
parser IP1(packet_in packet, out headers_t hdr, out meta_t meta, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start { packet.extract(ig_intr_md); packet.advance(PORT_METADATA_SIZE); packet.extract(hdr.bridged); transition accept; }
}
control IG1(inout headers_t hdr, inout meta_t meta, in ingress_intrinsic_metadata_t ig_intr_md,
            in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
            inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
            inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        hdr.bridged.hops = hdr.bridged.hops + (bit<8>) ig_intr_md.ingress_port[7:7];
        ig_tm_md.ucast_egress_port = (bit<9>) hdr.bridged.value;
    }
}
parser EP0(packet_in packet, out headers_t hdr, out meta_t meta, out egress_intrinsic_metadata_t eg_intr_md) {
    state start { packet.extract(eg_intr_md); packet.extract(hdr.bridged); packet.extract(hdr.eth); transition accept; }
}
control EG0(inout headers_t hdr, inout meta_t meta, in egress_intrinsic_metadata_t eg_intr_md,
            in egress_intrinsic_metadata_from_parser_t p, inout egress_intrinsic_metadata_for_deparser_t d,
            inout egress_intrinsic_metadata_for_output_port_t o) {
    apply {
        hdr.eth.src[15:8] = hdr.bridged.hops + 8w1;
        hdr.eth.src[7:0] = (bit<8>) eg_intr_md.egress_port;
        hdr.bridged.setInvalid();
    }
}
Pipeline(IP0(), IG0(), DP(), EP0(), EG0(), EDP()) pipe0;
Pipeline(IP1(), IG1(), DP(), EP1(), EG1(), EDP()) pipe1;
Switch(pipe0, pipe1) main;
"#;

fn two_pipes(loopback: &[u16]) -> Switch {
    let opts = CompileOptions {
        loopback: PortSet::of(loopback),
        ..CompileOptions::default()
    };
    Switch::from_source_with(TWO_PIPES, opts).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn folded_two_pipes_carry_bridged_metadata_through_the_loopback() {
    let sw = two_pipes(&[128]);
    assert_eq!(sw.pipe_count(), 2);
    let mut w = sw.worker();
    let mut f = frame(0x0800, 60);
    f[5] = 9; // value 10
    let (port, out) = w.process(2, &f).expect("forwarded");
    assert_eq!(port, 10, "ingress 1 forwards to the bridged value");
    assert_eq!(out.len(), 60, "egress 0 removed the bridged header");
    // hops: ingress0 1, egress1 +1, ingress1 +1 (port 128's bit 7), egress0 writes hops + 1
    assert_eq!(out[10], 4, "every gress ran once, in order");
    assert_eq!(out[11], 10, "egress 0 saw its port");
    assert_eq!(&out[12..], &f[12..]);
    assert_eq!(sw.loop_drops(), 0);
}

#[test]
fn negative_control_without_the_loopback_port_the_packet_leaves_on_the_fold_port() {
    let sw = two_pipes(&[]);
    let mut f = frame(0x0800, 60);
    f[5] = 9;
    let mut w = sw.worker();
    let (port, out) = w.process(2, &f).expect("forwarded");
    assert_eq!(port, 128);
    assert_eq!(out.len(), 62, "still carrying the bridged header");
    assert_eq!(&out[..2], &[10, 2], "bridged value, hops after egress 1");
}

#[test]
fn a_looping_program_is_cut_off_and_counted() {
    // ingress 1 sends back to the fold port: the packet would loop for ever
    let src = TWO_PIPES.replace(
        "ig_tm_md.ucast_egress_port = (bit<9>) hdr.bridged.value;",
        "ig_tm_md.ucast_egress_port = FOLD;",
    );
    let opts = CompileOptions {
        loopback: PortSet::of(&[128]),
        ..CompileOptions::default()
    };
    let sw = Switch::from_source_with(&src, opts).unwrap();
    let mut w = sw.worker();
    assert!(w.process(2, &frame(0x0800, 60)).is_none());
    assert!(w.process(2, &frame(0x0800, 60)).is_none());
    assert_eq!(sw.loop_drops(), 2);
    // a port of a pipe the program does not have: dropped
    assert!(w.process(300, &frame(0x0800, 60)).is_none());
}

/// A byte meter and a packet meter; the output port is the colour value + 1. `COLORS` is
/// empty (MeterColor_t: GREEN 0, YELLOW 1, RED 3) or `, 8w2, 8w1, 8w0` as tandem-p4 emits.
const METERED: &str = r#"
header eth_t { bit<48> dst; bit<48> src; bit<16> ethertype; }
struct headers_t { eth_t eth; }
struct meta_t { bit<8> color; }
parser IP(packet_in packet, out headers_t hdr, out meta_t meta, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start { packet.extract(ig_intr_md); packet.advance(PORT_METADATA_SIZE); packet.extract(hdr.eth); transition accept; }
}
control IG(inout headers_t hdr, inout meta_t meta, in ingress_intrinsic_metadata_t ig_intr_md,
           in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
           inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
           inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Meter<bit<32>>(32w4, MeterType_t.BYTES COLORS) by_bytes;
    Meter<bit<32>>(32w4, MeterType_t.PACKETS COLORS) by_packets;
    apply {
        if (hdr.eth.ethertype == 16w1) {
            meta.color = by_packets.execute((bit<32>) hdr.eth.dst[7:0]);
        } else {
            meta.color = by_bytes.execute((bit<32>) hdr.eth.dst[7:0]);
        }
        ig_tm_md.ucast_egress_port = (bit<9>) meta.color + 9w1;
    }
}
control IDP(packet_out packet, inout headers_t hdr, in meta_t meta, in ingress_intrinsic_metadata_for_deparser_t d) {
    apply { packet.emit(hdr); }
}
parser EP(packet_in packet, out headers_t hdr, out meta_t meta, out egress_intrinsic_metadata_t eg_intr_md) {
    state start { packet.extract(eg_intr_md); transition accept; }
}
control EG(inout headers_t hdr, inout meta_t meta, in egress_intrinsic_metadata_t eg_intr_md,
           in egress_intrinsic_metadata_from_parser_t p, inout egress_intrinsic_metadata_for_deparser_t d,
           inout egress_intrinsic_metadata_for_output_port_t o) { apply { } }
control EDP(packet_out packet, inout headers_t hdr, in meta_t meta, in egress_intrinsic_metadata_for_deparser_t d) {
    apply { packet.emit(hdr); }
}
Pipeline(IP(), IG(), IDP(), EP(), EG(), EDP()) pipe;
Switch(pipe) main;
"#;

#[test]
fn meters_count_the_frame_and_map_colours() {
    use tandem_switch::{apply_commands, parse_commands};
    for (colors, want) in [("", [0u32, 1, 3]), (", 8w2, 8w1, 8w0", [0, 1, 2])] {
        let sw = Switch::from_source(&METERED.replace("COLORS", colors)).unwrap();
        let cmds = parse_commands(
            "meter_set_rates by_bytes 1 1000:300 2000:500\nmeter_set_rates by_packets * 10:2 20:4\n",
            &sw,
        )
        .unwrap();
        apply_commands(&sw, &cmds).unwrap();
        let mut w = sw.worker();
        let s = 1_000_000_000u64;
        let mut colour = |ethertype: u16, len: usize, ts: u64| {
            let mut f = frame(ethertype, len);
            f[5] = 1;
            w.process_at(1, &f, ts).expect("forwarded").0 - 1
        };
        // 200-byte frames against (1000 B/s, burst 300; 2000 B/s, burst 500): the meter
        // counts the frame's bytes (a meter that counted 0 bytes would stay green)
        let c: Vec<u32> = (0..3).map(|_| colour(0x0800, 200, s)).collect();
        assert_eq!(c, want, "bytes, colours `{colors}`");
        let c: Vec<u32> = (0..5).map(|_| colour(1, 64, s)).collect();
        assert_eq!(c, [want[0], want[0], want[1], want[1], want[2]], "packets");
    }
}

/// The native engine compiles each pass's blocks: the one-pipe program gives the
/// interpreter's outputs on both engines; negative control: with the native `+` compiled as
/// `-` (`FAULT_ADD`) the register counts differ, so the passes did run native code.
#[test]
fn native_passes_match_the_interpreter() {
    use tandem_switch::{Engine, FAULT_ADD};
    let src = ONE_PIPE
        .replace("PORT_FIELD", "ig_tm_md.ucast_egress_port")
        .replace("DROP", "3w1");
    let run = |engine: Engine, fault: u8| {
        let opts = CompileOptions {
            native_fault: fault,
            ..CompileOptions::with_engine(engine)
        };
        let sw = Switch::from_source_with(&src, opts).unwrap();
        let mut w = sw.worker();
        (0..40u64)
            .map(|i| {
                let f = frame([0x0800, 1, 2, 0x86dd][i as usize % 4], 60 + i as usize);
                w.process_at((i % 5) as u32, &f, i * 1000)
                    .map(|(p, o)| (p, o.to_vec()))
            })
            .collect::<Vec<_>>()
    };
    let interp = run(Engine::Interp, 0);
    assert_eq!(run(Engine::Native, 0), interp);
    assert_ne!(run(Engine::Native, FAULT_ADD), interp);
    let sw = Switch::from_source(&src).unwrap();
    let report = sw.engine_report();
    for name in ["ingress", "egress", "ingress_parser"] {
        assert!(
            report
                .iter()
                .any(|(n, st)| *n == name && *st == tandem_switch::BlockStatus::Native),
            "{name}: {report:?}"
        );
    }
}

/// A `RegisterAction` (`check::register_action`): `execute(i)` reads element `i`, runs the
/// body and writes the element back; its `out` parameter is the call's value. The program
/// keeps a per-port count that saturates at 3 and returns the count before the packet;
/// `WRITE` is what the body stores.
const REGISTER_ACTION: &str = r#"
#include <core.p4>
#include <tna.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> ethertype; }
struct headers_t { eth_t eth; }
struct meta_t { bit<32> v; bit<32> cap; }
parser IP(packet_in packet, out headers_t hdr, out meta_t meta, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start { packet.extract(ig_intr_md); packet.advance(PORT_METADATA_SIZE); packet.extract(hdr.eth); transition accept; }
}
control IG(inout headers_t hdr, inout meta_t meta, in ingress_intrinsic_metadata_t ig_intr_md,
           in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
           inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
           inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Register<bit<32>, bit<32>>(32w512) counts;
    RegisterAction<bit<32>, bit<32>, bit<32>>(counts) bump = {
        void apply(inout bit<32> c, out bit<32> before) {
            before = c;
            if (c < meta.cap) { c = WRITE; }
        }
    };
    apply {
        meta.cap = 32w3;
        meta.v = bump.execute((bit<32>) ig_intr_md.ingress_port);
        hdr.eth.src = (bit<48>) meta.v;
        ig_tm_md.ucast_egress_port = 9w1;
    }
}
control IDP(packet_out packet, inout headers_t hdr, in meta_t meta, in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { packet.emit(hdr); }
}
parser EP(packet_in packet, out headers_t hdr, out meta_t meta, out egress_intrinsic_metadata_t eg_intr_md) {
    state start { packet.extract(eg_intr_md); transition accept; }
}
control EG(inout headers_t hdr, inout meta_t meta, in egress_intrinsic_metadata_t eg_intr_md,
           in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
           inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
           inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) { apply { } }
control EDP(packet_out packet, inout headers_t hdr, in meta_t meta, in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { packet.emit(hdr); }
}
Pipeline(IP(), IG(), IDP(), EP(), EG(), EDP()) pipe;
Switch(pipe) main;
"#;

fn register_action_counts(write: &str) -> Vec<u8> {
    let sw = Switch::from_source(&REGISTER_ACTION.replace("WRITE", write))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut w = sw.worker();
    (0..5)
        .map(|_| {
            let (port, out) = w.process(7, &frame(0x0800, 64)).expect("forwarded");
            assert_eq!(port, 1);
            out[11]
        })
        .collect()
}

#[test]
fn register_action_reads_runs_its_body_and_writes_back() {
    assert_eq!(register_action_counts("c + 32w1"), [0, 1, 2, 3, 3]);
    // Negative control: a body that stores the value it read never counts.
    assert_eq!(register_action_counts("c"), [0, 0, 0, 0, 0]);
}

#[test]
fn a_register_action_on_something_else_is_an_error() {
    let src = REGISTER_ACTION
        .replace("WRITE", "c + 32w1")
        .replace("(counts) bump", "(nothing) bump");
    let Err(err) = Switch::from_source(&src) else {
        panic!("refused")
    };
    let err = err.to_string();
    assert!(err.contains("`nothing` is not a Register"), "{err}");
}
