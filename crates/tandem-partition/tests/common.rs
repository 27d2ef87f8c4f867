#![allow(dead_code)]
//! Shared test helpers: the lifted golden NFs.

use tandem_ir::interp::Packet;
use tandem_ir::{parse_module, Module, StateStore};

pub const NFS: [&str; 8] = [
    "minilb",
    "mazunat",
    "l4lb",
    "firewall",
    "proxy",
    "statefilter",
    "cofilter",
    "trojan",
];

pub fn golden(name: &str) -> Module {
    let path = format!(
        "{}/../tandem-lift/tests/golden/{name}.nfir",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("golden file");
    parse_module(&text).expect("golden parses")
}

/// A pseudo-random TCP or UDP packet over a few hosts and ports (so flows repeat).
pub fn packet(seed: &mut u64) -> Packet {
    let mut next = || {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as u32
    };
    let tcp = next() % 3 != 0;
    let l4 = if tcp { 20 } else { 8 };
    let mut p = vec![0u8; 14 + 20 + l4 + 8];
    p[12..14].copy_from_slice(&[0x08, 0x00]);
    p[14] = 0x45;
    let total = (20 + l4 + 8) as u16;
    p[16..18].copy_from_slice(&total.to_be_bytes());
    p[22] = 64;
    p[23] = if tcp { 6 } else { 17 };
    p[24..26].copy_from_slice(&((next() & 0xffff) as u16).to_be_bytes());
    p[26..30].copy_from_slice(&[10, (next() % 3) as u8, 0, (next() % 12) as u8]);
    p[30..34].copy_from_slice(&[10, 0, 1, (next() % 4) as u8]);
    p[34..36].copy_from_slice(&[1000u16, 1001, 22, 6667][(next() % 4) as usize].to_be_bytes());
    p[36..38].copy_from_slice(&[80u16, 22, 443, 6667, 21][(next() % 5) as usize].to_be_bytes());
    let payload = 14 + 20 + l4;
    for b in &mut p[payload..] {
        *b = b"GET /a.zip IRC"[(next() % 14) as usize];
    }
    if tcp {
        p[46] = 0x50;
        p[47] = [0x02, 0x12, 0x10, 0x11, 0x04][(next() % 5) as usize];
        p[50..52].copy_from_slice(&((next() & 0xffff) as u16).to_be_bytes());
    } else {
        p[38..40].copy_from_slice(&(l4 as u16 + 8).to_be_bytes());
        p[40..42].copy_from_slice(&((next() & 0xffff) as u16).to_be_bytes());
    }
    Packet {
        bytes: p,
        in_port: (next() % 2) as u16,
        timestamp_ns: 0,
    }
}

/// A configured state store: what `configure` would set up for the packets of [`packet`].
pub fn store(m: &Module) -> StateStore {
    let mut s = StateStore::new(m);
    let has = |n: &str| m.state_by_name(n).is_some();
    if has("backends") {
        for i in 0..4u64 {
            s.vec_set(m, "backends", i, &[0x0a00_0200 + i]).unwrap();
        }
        s.scalar_set(m, "backends_size", 4).unwrap();
    }
    for (name, v) in [
        ("out_port", 1),
        ("outside_port", 1),
        ("backend_port", 1),
        ("server_side", 1),
        ("first_port", 1024),
        ("next_port", 1024),
        ("new_from", 3),
        ("open_from", 3),
        ("udp_mode", 2),
        ("shapes", 15),
        ("proxy_ip", 0x0909_0909),
        ("proxy_port", 0x901f),
        ("external_ip", 0x0100_a8c0),
    ] {
        if has(name) {
            s.scalar_set(m, name, v).unwrap();
        }
    }
    // Keys as the C++ program sees them: network-order integers read on a little-endian host.
    if has("vips") {
        for h in 0..4u8 {
            let key = u64::from(u32::from_le_bytes([10, 0, 1, h]));
            s.map_insert(m, "vips", &[key], &[key]).unwrap();
        }
    }
    if has("ports") {
        let key = u64::from(u16::from_le_bytes(80u16.to_be_bytes()));
        s.map_insert(m, "ports", &[key], &[1]).unwrap();
    }
    s
}
