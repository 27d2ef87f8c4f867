//! Declared headers and the parse graph: text form, presence, deparse order, verifier.

use tandem_ir::interp::{Action, InterpOptions, Interpreter, Packet, StateStore};
use tandem_ir::{deparse_order, parse_module, print_module, verify_module, Header, HeaderOffsets};

const VLAN_NF: &str = "nf vlan_tagger

header vlan {tci: i16, ethertype: i16}
parse eth.ethertype == 0x8100 -> vlan
parse vlan.ethertype == 0x800 -> ipv4

fn process {
block0:
    v0:i1 = hdr.valid vlan
    brif v0, block1(), block2()
block1:
    v1:i16 = hdr.read vlan.tci
    v2:i16 = const 4095
    v3:i16 = and v1, v2
    send v3
    return
block2:
    v4:i16 = const 7
    send v4
    return
}
";

/// Ethernet (ethertype `et`), then `rest`.
fn frame(et: u16, rest: &[u8]) -> Vec<u8> {
    let mut f = vec![0u8; 12];
    f.extend_from_slice(&et.to_be_bytes());
    f.extend_from_slice(rest);
    f
}

fn ipv4_udp() -> Vec<u8> {
    let mut ip = vec![
        0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
    ];
    ip.extend_from_slice(&[0, 53, 0, 53, 0, 8, 0, 0]);
    ip
}

#[test]
fn text_form_round_trips_and_verifies() {
    let m = parse_module(VLAN_NF).unwrap();
    verify_module(&m).unwrap();
    assert_eq!(m.headers.len(), 1);
    let text = print_module(&m);
    assert_eq!(print_module(&parse_module(&text).unwrap()), text);
    assert!(
        text.contains("header vlan {tci: i16, ethertype: i16}"),
        "{text}"
    );
    assert!(
        text.contains("parse vlan.ethertype == 0x800 -> ipv4"),
        "{text}"
    );
}

#[test]
fn a_tagged_frame_has_vlan_then_ipv4_and_udp() {
    let m = parse_module(VLAN_NF).unwrap();
    let vlan = m.header_by_name("vlan").unwrap();
    let mut tagged = vec![0x20, 0x05, 0x08, 0x00];
    tagged.extend(ipv4_udp());
    let f = frame(0x8100, &tagged);
    let h = HeaderOffsets::parse_in(&m, &f);
    assert_eq!(
        (h.eth, h.get(vlan), h.ipv4, h.udp),
        (Some(0), Some(14), Some(18), Some(38))
    );
    // Without the module's graph the frame is Ethernet only.
    assert_eq!(HeaderOffsets::parse(&f).ipv4, None);
    // Untagged frames parse as before; a tag cut short stops parsing.
    let plain = frame(0x0800, &ipv4_udp());
    let h = HeaderOffsets::parse_in(&m, &plain);
    assert_eq!((h.get(vlan), h.ipv4, h.udp), (None, Some(14), Some(34)));
    let h = HeaderOffsets::parse_in(&m, &f[..17]);
    assert_eq!((h.eth, h.get(vlan)), (Some(0), None));
}

#[test]
fn the_interpreter_reads_declared_fields() {
    let m = parse_module(VLAN_NF).unwrap();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    let mut tagged = vec![0x20, 0x05, 0x08, 0x00];
    tagged.extend(ipv4_udp());
    let out = interp
        .run(
            &mut store,
            &Packet {
                bytes: frame(0x8100, &tagged),
                in_port: 0,
                timestamp_ns: 0,
            },
        )
        .unwrap();
    assert_eq!(out.action, Action::Send(5), "tci 0x2005 & 0xfff");
    let out = interp
        .run(
            &mut store,
            &Packet {
                bytes: frame(0x0800, &ipv4_udp()),
                in_port: 0,
                timestamp_ns: 0,
            },
        )
        .unwrap();
    assert_eq!(out.action, Action::Send(7));
}

#[test]
fn deparse_order_puts_each_header_after_its_parents() {
    let m = parse_module(VLAN_NF).unwrap();
    let vlan = m.header_by_name("vlan").unwrap();
    assert_eq!(
        deparse_order(&m),
        vec![Header::Eth, vlan, Header::Ipv4, Header::Tcp, Header::Udp]
    );
}

#[test]
fn the_verifier_refuses_bad_graphs() {
    let bad = |edges: &str| {
        let text = VLAN_NF.replace(
            "parse eth.ethertype == 0x8100 -> vlan\nparse vlan.ethertype == 0x800 -> ipv4\n",
            edges,
        );
        let m = parse_module(&text).unwrap();
        verify_module(&m).unwrap_err().to_string()
    };
    let e = bad("parse eth.ethertype == 0x8100 -> vlan\nparse ipv4.protocol == 47 -> vlan\nparse vlan.ethertype == 0x800 -> ipv4\nparse vlan.tci == 1 -> eth\n");
    assert!(e.contains("lead to `eth`"), "{e}");
    let e = bad("parse eth.ethertype == 0x8100 -> vlan\nparse vlan.ethertype == 0x800 -> ipv4\nparse udp.dport == 9 -> vlan\n");
    assert!(e.contains("cycle"), "{e}");
    let e = bad("parse vlan.ethertype == 0x800 -> ipv4\n");
    assert!(e.contains("no `parse` edge leads to it"), "{e}");
    let e = bad("parse eth.ethertype == 0x18100 -> vlan\n");
    assert!(e.contains("does not fit"), "{e}");
}

const TAGGER: &str = "nf tagger

header vlan {tci: i16, ethertype: i16}
parse eth.ethertype == 0x8100 -> vlan
parse vlan.ethertype == 0x800 -> ipv4

fn process {
block0:
    v0:i1 = hdr.valid vlan
    brif v0, block1(), block2()
block1:
    hdr.pop vlan
    v1:i16 = const 0x800
    hdr.write eth.ethertype, v1
    v2:i16 = const 1
    send v2
    return
block2:
    hdr.push vlan
    v3:i16 = const 0x8100
    hdr.write eth.ethertype, v3
    v4:i16 = const 0x800
    hdr.write vlan.ethertype, v4
    v5:i16 = const 42
    hdr.write vlan.tci, v5
    v6:i16 = const 2
    send v6
    return
}
";

#[test]
fn push_and_pop_move_the_bytes_behind_the_header() {
    let m = parse_module(TAGGER).unwrap();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    let plain = frame(0x0800, &ipv4_udp());
    let run = |store: &mut StateStore, bytes: Vec<u8>| {
        interp
            .run(
                store,
                &Packet {
                    bytes,
                    in_port: 0,
                    timestamp_ns: 0,
                },
            )
            .unwrap()
    };
    let out = run(&mut store, plain.clone());
    assert_eq!(out.action, Action::Send(2));
    let mut tagged = frame(0x8100, &[0, 42, 0x08, 0x00]);
    tagged.extend(ipv4_udp());
    assert_eq!(out.packet, tagged, "tag inserted after Ethernet");
    let out = run(&mut store, tagged);
    assert_eq!(
        (out.action, out.packet),
        (Action::Send(1), plain),
        "tag removed"
    );
}

#[test]
fn a_pushed_header_is_all_zero_and_pushing_twice_changes_nothing() {
    let text = TAGGER.replace(
        "    hdr.push vlan\n",
        "    hdr.push vlan\n    v9:i16 = hdr.read vlan.tci\n    v10:i1 = icmp eq v9, v9\n    hdr.push vlan\n",
    );
    let m = parse_module(&text).unwrap();
    verify_module(&m).unwrap();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    let out = interp
        .run(
            &mut store,
            &Packet {
                bytes: frame(0x0800, &ipv4_udp()),
                in_port: 0,
                timestamp_ns: 0,
            },
        )
        .unwrap();
    assert_eq!(out.packet.len(), 14 + 4 + 28);
}
