//! Helpers shared by the runtime's integration tests: building packets and NFs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use etherparse::PacketBuilder;
use tandem_host::{compile_native, BuildOptions, NativeNf, NfConfig};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Build options with a per-test-binary cache (tests run in parallel).
pub fn build_opts() -> BuildOptions {
    let cache = std::env::temp_dir().join(format!("tandem-test-cache-{}", env!("CARGO_PKG_NAME")));
    BuildOptions {
        cache_dir: cache,
        ..BuildOptions::default()
    }
}

pub fn load_example(name: &str) -> NativeNf {
    let src = repo_root().join(format!("examples/nfs/{name}/{name}.cc"));
    let cfg = NfConfig::load(&src.with_extension("toml")).unwrap();
    let so = compile_native(&src, &build_opts()).unwrap();
    NativeNf::load(&so, &cfg).unwrap()
}

pub fn tcp(
    src: [u8; 4],
    dst: [u8; 4],
    sport: u16,
    dport: u16,
    flags: &str,
    payload: &[u8],
) -> Vec<u8> {
    let mut b = PacketBuilder::ethernet2([2, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 2])
        .ipv4(src, dst, 64)
        .tcp(sport, dport, 1000, 65535);
    for f in flags.chars() {
        b = match f {
            'S' => b.syn(),
            'A' => b.ack(0),
            'F' => b.fin(),
            'R' => b.rst(),
            'P' => b.psh(),
            _ => b,
        };
    }
    let mut out = Vec::new();
    b.write(&mut out, payload).unwrap();
    out
}

pub fn udp(src: [u8; 4], dst: [u8; 4], sport: u16, dport: u16, payload: &[u8]) -> Vec<u8> {
    let b = PacketBuilder::ethernet2([2, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 2])
        .ipv4(src, dst, 64)
        .udp(sport, dport);
    let mut out = Vec::new();
    b.write(&mut out, payload).unwrap();
    out
}

/// Asserts that the IPv4 header checksum and the TCP/UDP checksum of `frame` are valid.
pub fn assert_checksums_valid(frame: &[u8]) {
    if let Err(e) = tandem_traffic::scenario::validate_checksums(frame) {
        panic!("{e}");
    }
}

pub fn ipv4_dst(frame: &[u8]) -> [u8; 4] {
    frame[30..34].try_into().unwrap()
}
