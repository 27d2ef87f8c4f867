//! MiniLB (examples/nfs/minilb) on the reference host: hand-built packets, expected outputs.

mod common;

use common::*;

const BACKENDS: [[u8; 4]; 4] = [
    [10, 10, 0, 1],
    [10, 10, 0, 2],
    [10, 10, 0, 3],
    [10, 10, 0, 4],
];

/// MiniLB's choice, computed independently: hash32 = saddr ^ daddr as the C++ loads them
/// (wire bytes read as a little-endian u32 on this host), backend = hash32 % 4.
fn expected_backend(src: [u8; 4], dst: [u8; 4]) -> [u8; 4] {
    let h = u32::from_le_bytes(src) ^ u32::from_le_bytes(dst);
    BACKENDS[(h % 4) as usize]
}

#[test]
fn new_flow_is_steered_to_the_hashed_backend_with_valid_checksums() {
    let mut nf = load_example("minilb");
    for (i, src) in [
        [1, 2, 3, 4],
        [192, 168, 7, 9],
        [172, 16, 0, 200],
        [8, 8, 8, 8],
    ]
    .into_iter()
    .enumerate()
    {
        let dst = [10, 100, 0, 1];
        let mut f = tcp(src, dst, 40000 + i as u16, 80, "S", b"");
        assert_eq!(nf.process(&mut f, 0, 1_000).unwrap(), Some(1));
        assert_eq!(ipv4_dst(&f), expected_backend(src, dst));
        assert_checksums_valid(&f);
    }
    let mut u = udp([9, 9, 9, 9], [10, 100, 0, 1], 5353, 53, b"query");
    assert_eq!(nf.process(&mut u, 0, 2_000).unwrap(), Some(1));
    assert_checksums_valid(&u);
}

#[test]
fn remembered_connection_keeps_its_backend_and_state_shows_it() {
    let mut nf = load_example("minilb");
    let (src, dst) = ([1, 2, 3, 4], [10, 100, 0, 1]);
    let mut f1 = tcp(src, dst, 1234, 80, "S", b"");
    nf.process(&mut f1, 0, 1).unwrap();
    let mut f2 = tcp(src, dst, 1234, 80, "PA", b"GET / HTTP/1.1\r\n\r\n");
    nf.process(&mut f2, 0, 2).unwrap();
    assert_eq!(ipv4_dst(&f1), ipv4_dst(&f2));
    assert_checksums_valid(&f2);

    let state = nf.dump_state(2).unwrap();
    let map = &state[0];
    assert_eq!(map["name"], "map");
    assert_eq!(map["kind"], "hashmap");
    let entries = map["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    let h = u32::from_le_bytes(src) ^ u32::from_le_bytes(dst);
    let key = (h as u16).to_le_bytes();
    assert_eq!(entries[0]["key"], format!("{:02x}{:02x}", key[0], key[1]));
    let b = expected_backend(src, dst);
    assert_eq!(
        entries[0]["value"],
        b.iter().map(|x| format!("{x:02x}")).collect::<String>()
    );
    assert_eq!(state[1]["name"], "backends");
    assert_eq!(state[1]["entries"].as_array().unwrap().len(), 4);
    assert_eq!(state[2]["name"], "out_port");
}

#[test]
fn non_ip_and_truncated_frames_are_dropped_without_reading_out_of_bounds() {
    let mut nf = load_example("minilb");
    // ARP.
    let mut arp = vec![0xff; 12];
    arp.extend_from_slice(&[0x08, 0x06]);
    arp.extend_from_slice(&[0u8; 28]);
    assert_eq!(nf.process(&mut arp, 0, 1).unwrap(), None);
    // Every prefix of a valid TCP frame: too short for IPv4 -> dropped; long enough -> sent.
    let full = tcp([1, 2, 3, 4], [5, 6, 7, 8], 1, 2, "S", b"");
    for cut in 0..full.len() {
        // An exact-size heap buffer, so an out-of-bounds read would be caught by tools like
        // ASan/valgrind, and would at least corrupt nothing here.
        let mut f = full[..cut].to_vec();
        f.shrink_to_fit();
        let out = nf.process(&mut f, 0, 1).unwrap();
        assert_eq!(out.is_some(), cut >= 34, "prefix of {cut} bytes");
    }
    // An IPv4 header claiming IHL=15 (60 bytes) in a 40-byte frame.
    let mut bad = full.clone();
    bad[14] = 0x4f;
    bad.truncate(40);
    assert_eq!(nf.process(&mut bad, 0, 1).unwrap(), None);
}
