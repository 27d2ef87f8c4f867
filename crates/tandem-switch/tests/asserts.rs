//! `assert(c)` / `assume(c)` in a P4 program (v1model's externs): when `c` is false the packet
//! is dropped and the failure counted for that call site — never ignored (BMv2 stops the
//! switch); `tandem switch run` reports the line and fails.

use tandem_switch::{apply_entries, parse_entries, Switch};

fn router_with_assert() -> (Switch, u32) {
    let path = format!("{}/tests/programs/lpm.p4", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(path).unwrap();
    let anchor = "            ipv4_lpm.apply();";
    assert!(src.contains(anchor));
    let src = src.replace(
        anchor,
        "            assert(hdr.ipv4.ttl != 0);\n            ipv4_lpm.apply();",
    );
    let line = src.lines().position(|l| l.contains("assert(")).unwrap() as u32 + 1;
    let sw = Switch::from_source(&src).unwrap();
    let cmds = parse_entries(
        "table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 00:00:00:00:01:00 1\n",
        &sw,
    )
    .unwrap();
    apply_entries(&sw, &cmds).unwrap();
    (sw, line)
}

/// An IPv4/UDP frame to 10.1.1.5 with this TTL (checksum correct).
fn frame(ttl: u8) -> Vec<u8> {
    let mut f = hex(
        "0000000000010000000000aa08004500002e0001400040112bb3010203040a010105\
         000102030405060708090a0b0c0d0e0f10111213141516171819",
    );
    f[22] = ttl;
    // recompute the IPv4 header checksum
    f[24] = 0;
    f[25] = 0;
    let mut sum = 0u32;
    for i in (14..34).step_by(2) {
        sum += u32::from(u16::from_be_bytes([f[i], f[i + 1]]));
    }
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    let c = !(sum as u16);
    f[24..26].copy_from_slice(&c.to_be_bytes());
    f
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn a_failed_assert_drops_the_packet_and_is_counted_by_line() {
    let (sw, line) = router_with_assert();
    let mut w = sw.worker();
    assert!(
        w.process(0, &frame(64)).is_some(),
        "a valid packet is forwarded"
    );
    assert!(sw.assert_failures().is_empty());
    assert!(w.process(0, &frame(0)).is_none(), "TTL 0 fails the assert");
    assert!(w.process(0, &frame(0)).is_none());
    assert_eq!(sw.assert_failures(), vec![(line, 2)]);
    assert!(w.process(0, &frame(9)).is_some());
}

#[test]
fn constant_asserts_fold() {
    let path = format!("{}/tests/programs/lpm.p4", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(path).unwrap();
    let anchor = "            ipv4_lpm.apply();";
    let t = Switch::from_source(&src.replace(
        anchor,
        "            assert(true);\n            ipv4_lpm.apply();",
    ))
    .unwrap();
    let f = Switch::from_source(&src.replace(
        anchor,
        "            assume(false);\n            ipv4_lpm.apply();",
    ))
    .unwrap();
    let cmds = "table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 1 1\n";
    for sw in [&t, &f] {
        apply_entries(sw, &parse_entries(cmds, sw).unwrap()).unwrap();
    }
    assert!(t.worker().process(0, &frame(5)).is_some());
    assert!(f.worker().process(0, &frame(5)).is_none());
    assert_eq!(f.assert_failures().len(), 1);
}
