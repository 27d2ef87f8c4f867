//! Bad input gets a clear error, never a crash: NFs that do not compile, configuration
//! problems, and timer/expiry behaviour driven by packet timestamps.

mod common;

use std::path::PathBuf;

use common::*;
use tandem_host::{compile_native, BuildError, Host, NativeNf, NfConfig, NfError, Verdict};
use tandem_traffic::TracePacket;

fn test_nf(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/nfs/{name}.cc"))
}

fn config(text: &str) -> (tempfile::TempDir, NfConfig) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("nf.toml");
    std::fs::write(&p, text).unwrap();
    let cfg = NfConfig::load(&p).unwrap();
    (dir, cfg)
}

#[test]
fn an_nf_that_does_not_compile_shows_clangs_diagnostics_and_the_file() {
    let err = compile_native(&test_nf("broken"), &build_opts()).unwrap_err();
    let BuildError::Compile { file, diagnostics } = &err else {
        panic!("{err}")
    };
    assert!(file.ends_with("broken.cc"));
    assert!(diagnostics.contains("broken.cc:5"), "{diagnostics}");
    assert!(diagnostics.contains("sendd"), "{diagnostics}");
    assert!(err.to_string().contains("does not compile"));
}

/// A member `TANDEM_NF` lists that is not NF state (a struct with padding bytes) is one
/// static assertion naming what state members may be, at the `TANDEM_NF` line — not "no
/// matching function for call to 'dump'" deep in nf.hh.
#[test]
fn a_struct_member_with_padding_is_a_clear_compile_error() {
    let err = compile_native(&test_nf("padded_member"), &build_opts()).unwrap_err();
    let BuildError::Compile { diagnostics, .. } = &err else {
        panic!("{err}")
    };
    assert!(
        diagnostics.contains("structs of integers without padding bytes"),
        "{diagnostics}"
    );
    assert!(diagnostics.contains("padded_member.cc:12"), "{diagnostics}");
    assert!(
        !diagnostics.contains("no matching function"),
        "{diagnostics}"
    );
}

#[test]
fn missing_and_mistyped_config_keys_name_the_key_and_the_file() {
    let so = compile_native(&test_nf("needs_port"), &build_opts()).unwrap();
    let cases = [
        ("", "key `port`: missing"),
        (
            "port = \"eighty\"",
            "key `port`: expected an unsigned 16-bit integer, found string \"eighty\"",
        ),
        (
            "port = 70000",
            "key `port`: expected an unsigned 16-bit integer, found 70000 (out of range)",
        ),
        ("port = 80", "key `server.addr`: missing"),
        ("port = 80\nserver = 3", "key `server.addr`: missing"),
        (
            "port = 80\n[server]\naddr = \"10.0.0.300\"",
            "key `server.addr`: expected an IPv4 address",
        ),
        (
            "port = 80\nserver = { addr = { x = 1 } }",
            "key `server.addr`: expected a value, found a table or array",
        ),
    ];
    for (text, want) in cases {
        let (_dir, cfg) = config(text);
        let err = NativeNf::load(&so, &cfg).err().expect(text);
        let NfError::Configure(msg) = &err else {
            panic!("{err}")
        };
        assert!(
            msg.contains("nf.toml: ") && msg.contains(want),
            "config {text:?}: {msg}"
        );
    }
    let (_dir, cfg) = config("port = 80\nserver.addr = \"10.0.0.1\"");
    let mut nf = NativeNf::load(&so, &cfg).unwrap();
    let mut f = udp([1, 1, 1, 1], [2, 2, 2, 2], 1, 2, b"");
    assert_eq!(nf.process(&mut f, 0, 0).unwrap(), Some(80));
}

/// Every getter has the `*_or(key, default)` variant docs/nf-api.md promises (`get_ipv4_or`,
/// `get_u8_or` and `get_float_or` were missing: a new user's NF did not compile). Defaults
/// when the keys are absent, the configured values when present (type-checked as ever).
#[test]
fn every_getter_has_a_variant_with_a_default() {
    let so = compile_native(&test_nf("optional_keys"), &build_opts()).unwrap();
    let port = |text: &str| {
        let (_dir, cfg) = config(text);
        let mut nf = NativeNf::load(&so, &cfg).unwrap();
        let mut f = udp([1, 1, 1, 1], [2, 2, 2, 2], 1, 2, b"");
        nf.process(&mut f, 0, 0).unwrap()
    };
    assert_eq!(port(""), Some(19));
    assert_eq!(
        port("a = 2\nb = 3\nc = 4\nd = 5\ne = 6\nf = false\ng = 1.5\nh = \"y\"\ni = \"10.0.0.2\""),
        Some(20)
    );
    let (_dir, cfg) = config("e = 300");
    let err = NativeNf::load(&so, &cfg).err().expect("300 is no u8");
    assert!(err.to_string().contains("key `e`"), "{err}");
}

fn pkt(ts_ns: u64, src: [u8; 4]) -> TracePacket {
    TracePacket {
        ts_ns,
        port: 0,
        data: udp(src, [9, 9, 9, 9], 1, 2, b"x"),
    }
}

#[test]
fn timers_follow_packet_timestamps_and_idle_entries_expire() {
    let so = compile_native(&test_nf("ticker"), &build_opts()).unwrap();
    let (_dir, cfg) = config("");
    let nf = NativeNf::load(&so, &cfg).unwrap();
    assert_eq!(nf.timer_interval_ns(), 1_000_000_000);
    let mut host = Host::new(nf);
    const S: u64 = 1_000_000_000;
    // First packet at 0.5 s: no tick yet. At 3.2 s: ticks at 1, 2, 3 s.
    assert!(matches!(
        host.process(&pkt(S / 2, [1, 0, 0, 1])).unwrap(),
        Verdict::Send { port: 2, .. }
    ));
    host.process(&pkt(3 * S + S / 5, [1, 0, 0, 2])).unwrap();
    assert_eq!(host.summary().timer_ticks, 3);
    // Fill the map (4 flows), then a fifth flow is rejected while all are fresh.
    host.process(&pkt(4 * S, [1, 0, 0, 3])).unwrap();
    host.process(&pkt(4 * S, [1, 0, 0, 4])).unwrap();
    host.process(&pkt(4 * S, [1, 0, 0, 5])).unwrap();
    let state = host.dump_state().unwrap();
    assert_eq!(state[0]["entries"].as_array().unwrap().len(), 4);
    assert_eq!(
        state[3]["value"], "01000000",
        "rejected counter (little-endian u32)"
    );
    // At 11 s the flow last seen at 0.5 s has been idle > 10 s: it expired, making room.
    host.process(&pkt(11 * S, [1, 0, 0, 6])).unwrap();
    let state = host.dump_state().unwrap();
    let entries = state[0]["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 4);
    assert!(
        !entries.iter().any(|e| e["key"] == "0100000109090909"),
        "expired flow still present"
    );
    assert_eq!(
        state[1]["value"],
        format!("{:016x}", 11u64.swap_bytes()),
        "ticks 1..=11"
    );
    // Non-IPv4: neither send nor drop is a drop.
    let mut arp = pkt(12 * S, [0; 4]);
    arp.data[12] = 0x08;
    arp.data[13] = 0x06;
    assert_eq!(host.process(&arp).unwrap(), Verdict::Drop);
}
