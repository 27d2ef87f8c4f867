//! The server meter (`--server-rate`, docs/runtime.md "Server meter") under a SYN flood:
//! `statefilter` with established connections whose data packets stay on the switch, and a
//! flood of SYNs (new connections, each one bound for the server) at 10× the meter's rate.
//! Every data packet is forwarded exactly as the original NF forwards it, the excess SYNs are
//! dropped at the switch and counted, and the packets that reach the server stay under the
//! rate. Negative controls: without the meter every SYN reaches the server, and a metered
//! drop the runtime cannot see (the counter removed from the program) is a mismatch.

mod common;

use common::*;
use tandem_host::{Host, Verdict};
use tandem_offload::Offloaded;
use tandem_p4::ServerRate;
use tandem_traffic::TracePacket;

const PPS: u64 = 1000;
const BURST: u64 = 10;
const CONNS: u32 = 20;
/// The flood: from 0.5 s to 1 s, a SYN every 100 µs (10× the rate) and a data packet every
/// 250 µs.
const FLOOD_START_NS: u64 = 500_000_000;
const FLOOD_NS: u64 = 500_000_000;
const SYN_GAP_NS: u64 = 100_000;
const DATA_GAP_NS: u64 = 250_000;

fn csum(words: &[u8]) -> u32 {
    words
        .chunks(2)
        .map(|c| u32::from(u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)])))
        .sum()
}

fn fold(mut s: u32) -> u16 {
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    !(s as u16)
}

/// An Ethernet + IPv4 + TCP frame with valid checksums.
fn tcp(src: [u8; 4], dst: [u8; 4], sport: u16, dport: u16, flags: u8, payload: usize) -> Vec<u8> {
    let mut f = vec![0u8; 54 + payload];
    f[0..6].copy_from_slice(&[2, 0, 0, 0, 0, 2]);
    f[6..12].copy_from_slice(&[2, 0, 0, 0, 0, 1]);
    f[12..14].copy_from_slice(&[0x08, 0x00]);
    let ip_len = (40 + payload) as u16;
    f[14] = 0x45;
    f[16..18].copy_from_slice(&ip_len.to_be_bytes());
    f[22] = 64;
    f[23] = 6;
    f[26..30].copy_from_slice(&src);
    f[30..34].copy_from_slice(&dst);
    let c = fold(csum(&f[14..34]));
    f[24..26].copy_from_slice(&c.to_be_bytes());
    f[34..36].copy_from_slice(&sport.to_be_bytes());
    f[36..38].copy_from_slice(&dport.to_be_bytes());
    f[38..42].copy_from_slice(&1u32.to_be_bytes());
    f[46] = 0x50;
    f[47] = flags;
    f[48..50].copy_from_slice(&1024u16.to_be_bytes());
    let mut pseudo = Vec::new();
    pseudo.extend_from_slice(&src);
    pseudo.extend_from_slice(&dst);
    pseudo.extend_from_slice(&[0, 6]);
    pseudo.extend_from_slice(&(20 + payload as u16).to_be_bytes());
    let c = fold(csum(&pseudo) + csum(&f[34..]));
    f[50..52].copy_from_slice(&c.to_be_bytes());
    f
}

const SERVER: [u8; 4] = [172, 16, 0, 1];
const SYN: u8 = 0x02;
const ACK: u8 = 0x10;
const SYN_ACK: u8 = 0x12;
const PSH_ACK: u8 = 0x18;

fn client(i: u32) -> ([u8; 4], u16) {
    ([10, 0, 0, 1 + i as u8], 40000 + i as u16)
}

/// What a packet of the trace is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Handshake,
    Data,
    Flood,
}

/// Handshakes of the established connections (slowly, under the rate), then the flood:
/// SYNs of new connections interleaved with data of the established ones, both directions.
fn trace() -> Vec<(Kind, TracePacket)> {
    let mut out = Vec::new();
    let mut t = 1_000_000u64;
    for i in 0..CONNS {
        let (c, cp) = client(i);
        for (port, frame) in [
            (0, tcp(c, SERVER, cp, 80, SYN, 0)),
            (1, tcp(SERVER, c, 80, cp, SYN_ACK, 0)),
            (0, tcp(c, SERVER, cp, 80, ACK, 0)),
        ] {
            out.push((
                Kind::Handshake,
                TracePacket {
                    ts_ns: t,
                    port,
                    data: frame,
                },
            ));
            t += 5_000_000;
        }
    }
    assert!(t < FLOOD_START_NS);
    let mut flood = Vec::new();
    let mut n = 0u32;
    let mut ts = FLOOD_START_NS;
    while ts < FLOOD_START_NS + FLOOD_NS {
        let src = [10, 1, (n >> 8) as u8, n as u8];
        let frame = tcp(src, SERVER, 1024 + (n % 50000) as u16, 80, SYN, 0);
        flood.push((ts, Kind::Flood, 0, frame));
        n += 1;
        ts += SYN_GAP_NS;
    }
    let mut k = 0u32;
    let mut ts = FLOOD_START_NS + DATA_GAP_NS / 2;
    while ts < FLOOD_START_NS + FLOOD_NS {
        let (c, cp) = client(k % CONNS);
        let (port, frame) = if k.is_multiple_of(2) {
            (0, tcp(c, SERVER, cp, 80, PSH_ACK, 100))
        } else {
            (1, tcp(SERVER, c, 80, cp, PSH_ACK, 1000))
        };
        flood.push((ts, Kind::Data, port, frame));
        k += 1;
        ts += DATA_GAP_NS;
    }
    flood.sort_by_key(|p| p.0);
    for (ts, kind, port, frame) in flood {
        out.push((
            kind,
            TracePacket {
                ts_ns: ts,
                port,
                data: frame,
            },
        ));
    }
    out
}

fn rate() -> P4Options {
    P4Options {
        server_rate: Some(ServerRate {
            pps: PPS,
            burst: BURST,
        }),
        ..P4Options::default()
    }
}

/// Per kind of packet: (packets, metered, via the server, switch only).
#[derive(Default, Debug)]
struct Counts {
    packets: u64,
    metered: u64,
    via_server: u64,
    switch_only: u64,
}

/// Runs the trace through the offloaded NF and the original side by side; a metered packet
/// is not given to the original, every other packet's verdict must equal the original's.
fn run(b: &Bundle) -> [Counts; 3] {
    let mut host = Host::new(native("statefilter"));
    let initial = host.dump_state().unwrap();
    let opts = RunOptions {
        cache_dir: cache(),
        ..RunOptions::default()
    };
    let mut sys = Offloaded::new(b, &initial, &opts, None).unwrap();
    let mut counts: [Counts; 3] = Default::default();
    for (kind, pkt) in trace() {
        let before = sys.stats();
        let got = sys.process(&pkt).unwrap();
        let after = sys.stats();
        let c = &mut counts[kind as usize];
        c.packets += 1;
        c.via_server += after.via_server - before.via_server;
        c.switch_only += after.fast_path - before.fast_path;
        if after.metered > before.metered {
            assert_eq!(got, Verdict::Drop);
            c.metered += 1;
            continue;
        }
        let want = host.process(&pkt).unwrap();
        assert_eq!(got, want, "{kind:?} packet at {} ns", pkt.ts_ns);
        if kind == Kind::Data {
            assert!(
                matches!(want, Verdict::Send { .. }),
                "a data packet of an established connection dropped by the original"
            );
        }
    }
    counts
}

#[test]
fn a_syn_flood_is_metered_and_established_connections_stay_on_the_switch() {
    let b = bundle("statefilter", "tofino1", &rate());
    assert!(b.manifest.server_meter.is_some());
    let [hs, data, flood] = run(&b);
    eprintln!("handshake {hs:?}\ndata {data:?}\nflood {flood:?}");
    // The handshakes came under the rate: none metered.
    assert_eq!(hs.metered, 0, "{hs:?}");
    // Every data packet forwarded on the switch, as the original forwards it.
    assert_eq!(data.metered, 0, "{data:?}");
    assert_eq!(data.switch_only, data.packets, "{data:?}");
    // The flood: at most burst + rate × duration reach the server, the rest are metered.
    let allowed = BURST + PPS * FLOOD_NS / 1_000_000_000 + 1;
    assert!(flood.via_server <= allowed, "{flood:?}, allowed {allowed}");
    assert!(
        flood.via_server >= allowed * 9 / 10,
        "{flood:?}: the meter is too strict"
    );
    assert_eq!(flood.via_server + flood.metered, flood.packets, "{flood:?}");
    assert!(
        flood.packets >= 10 * (allowed - BURST - 1),
        "{flood:?}: not 10×"
    );
}

/// `check` with the meter: the metered SYNs are counted apart and the check passes (outputs
/// and final state, the reference not having seen the metered packets).
#[test]
fn check_reports_metered_drops_apart() {
    let b = bundle("statefilter", "tofino1", &rate());
    let mut pkts = trace().into_iter().map(|(_, p)| p);
    let r = check_open(&b, &mut pkts);
    assert_passed("statefilter under a SYN flood, metered", &r);
    let metered = r.metered.expect("a metered check");
    eprintln!(
        "check: {} packets, {metered} metered, reference out {:?}, dropped {}",
        r.packets, r.reference_out, r.reference_dropped
    );
    assert!(metered > 4000, "{metered}");
    assert_eq!(r.offloaded.metered, Some(metered));
}

/// Negative controls: without the meter every SYN reaches the server (and nothing is
/// metered); with the drop counter removed from the program, the meter's drops are drops the
/// runtime cannot tell from the NF's, and the check fails on them.
#[test]
fn unmetered_runs_and_unseen_drops() {
    let b = bundle("statefilter", "tofino1", &P4Options::default());
    assert!(b.manifest.server_meter.is_none());
    assert!(!b.switch_p4.contains("tandem_server_meter"));
    let [_, _, flood] = run(&b);
    assert_eq!(flood.metered, 0);
    assert_eq!(flood.via_server, flood.packets);

    let mut b = bundle("statefilter", "tofino1", &rate());
    let count = "tandem_metered.count(32w0);";
    assert!(b.switch_p4.contains(count));
    b.switch_p4 = b.switch_p4.replacen(count, "", 1);
    let mut pkts = trace().into_iter().map(|(_, p)| p);
    let r = check_open(&b, &mut pkts);
    assert!(!r.passed(), "a drop that is not metered passed");
    assert!(r.differing_packets > 4000, "{}", r.differing_packets);
    assert_eq!(r.metered, Some(0));
}

/// `check` in open loop (the trace's frames as they are).
fn check_open(b: &Bundle, pkts: &mut dyn Iterator<Item = TracePacket>) -> CheckReport {
    check(
        b,
        native("statefilter"),
        pkts,
        CheckOptions {
            run: RunOptions {
                cache_dir: cache(),
                ..RunOptions::default()
            },
            closed_loop: false,
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

#[test]
fn a_run_time_rate_needs_the_compiled_meter() {
    let b = bundle("statefilter", "tofino1", &P4Options::default());
    let mut host = Host::new(native("statefilter"));
    let initial = host.dump_state().unwrap();
    let opts = RunOptions {
        cache_dir: cache(),
        server_rate: Some(ServerRate { pps: 5, burst: 1 }),
        ..RunOptions::default()
    };
    let e = Offloaded::new(&b, &initial, &opts, None)
        .err()
        .expect("an error");
    assert!(e.to_string().contains("--server-rate"), "{e}");
}
