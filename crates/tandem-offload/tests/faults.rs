//! Failure behaviour of the offloaded runtime, each with a fault injected: lost and delayed
//! control-plane writes, an outage that holds a packet, switch tables too small for the
//! state, and malformed packets. In every case the outputs and the final state must equal
//! the reference NF's.

mod common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use common::*;
use tandem_host::{Host, Verdict};
use tandem_offload::{Fault, FaultyControl, OffloadError, Offloaded};
use tandem_traffic::{ReplyRewriter, TracePacket};

fn assert_passed(what: &str, r: &CheckReport) {
    assert!(
        r.passed() && r.differing_packets == 0,
        "{what}: {:?} {:?}\n{}",
        r.multiset_differences,
        r.state_differences,
        r.first_difference.clone().unwrap_or_default()
    );
}

#[test]
fn lost_writes_are_retried() {
    // Every third control-plane request is lost; each is retried until it goes through.
    let wrap: Wrap = Box::new(|sc| {
        let mut f = FaultyControl::new(sc);
        f.every = 3;
        Box::new(f)
    });
    let r = check_nf(
        "mazunat",
        Addr::Nat,
        "enterprise",
        "tofino1",
        3000,
        &P4Options::default(),
        Some(wrap),
    );
    assert_passed("lost writes", &r);
    assert!(r.offloaded.via_server > 0);
    assert!(
        r.offloaded.sync.retries > r.offloaded.sync.requests / 4,
        "{:?}",
        r.offloaded.sync
    );
}

#[test]
fn delayed_writes_hold_only_their_packet() {
    // The first requests after the initial install are slow; results are unchanged.
    let wrap: Wrap = Box::new(|sc| {
        let mut f = FaultyControl::new(sc);
        f.script = std::iter::repeat_n(Fault::Pass, 20)
            .chain(std::iter::repeat_n(
                Fault::Delay(Duration::from_millis(2)),
                40,
            ))
            .collect();
        Box::new(f)
    });
    let r = check_nf(
        "l4lb",
        Addr::Lb,
        "enterprise",
        "tofino1",
        2000,
        &P4Options::default(),
        Some(wrap),
    );
    assert_passed("delayed writes", &r);
}

fn lockstep_trace(n: usize) -> Vec<TracePacket> {
    trace(Addr::Nat, "enterprise", 100, 3).take(n).collect()
}

#[test]
fn an_outage_holds_the_packet_and_loses_nothing() {
    let b = bundle("mazunat", "tofino1", &P4Options::default());
    let mut reference = Host::new(native("mazunat"));
    let initial = reference.dump_state().unwrap();
    let outage = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let o2 = outage.clone();
    let wrap: Wrap = Box::new(move |sc| {
        let mut f = FaultyControl::new(sc);
        f.outage = o2;
        Box::new(f)
    });
    let opts = impatient();
    let mut sys = Offloaded::new(&b, &initial, &opts, Some(wrap)).unwrap();
    let mut replies = ReplyRewriter::new();
    let mut held = 0;
    for (i, mut pkt) in lockstep_trace(1500).into_iter().enumerate() {
        replies.rewrite(&mut pkt);
        let want = reference.process(&pkt).unwrap();
        // The switch becomes unreachable for every 100th packet.
        outage.store(i % 100 == 0, Ordering::SeqCst);
        let got = match sys.process(&pkt) {
            Ok(v) => v,
            Err(OffloadError::Control(_)) => {
                held += 1;
                assert!(sys.host().is_holding(), "packet {i}: failed but not held");
                // Still down: it stays held, and nothing is released.
                assert!(sys.retry_held().is_err());
                assert!(sys.host().is_holding());
                // The primary copy kept the update all along.
                outage.store(false, Ordering::SeqCst);
                sys.retry_held().unwrap().expect("the held packet")
            }
            Err(e) => panic!("packet {i}: {e}"),
        };
        assert_eq!(got, want, "packet {i}");
        if let Verdict::Send { port, frame } = &want {
            replies.observe(&pkt.data, pkt.port, &[(*port, frame.as_slice())]);
        }
    }
    assert!(
        held > 0,
        "no packet met the outage on its way to the server"
    );
    let want = tandem_host::irhost::normalize_native(&reference.dump_state().unwrap());
    let got = sys.state().unwrap();
    assert!(tandem_host::irhost::diff_states(&want, &got).is_empty());
}

#[test]
fn tiny_nat_tables_keep_flows_on_the_server() {
    // Switch tables of 8 entries for a NAT that sees hundreds of flows: the rest stay on
    // the server and their packets take the slow path — outputs unchanged.
    let p4 = P4Options {
        max_table_size: Some(8),
        ..P4Options::default()
    };
    let r = check_nf(
        "mazunat",
        Addr::Nat,
        "enterprise",
        "tofino1",
        4000,
        &p4,
        None,
    );
    assert_passed("tiny tables", &r);
    assert!(r.offloaded.whole_on_server > 0, "{:?}", r.offloaded);
    assert!(r.offloaded.sync.table_full > 0);
    eprintln!(
        "tiny tables: {} packets, {} whole on the server, {} via the server, fast path {:.1}%",
        r.packets,
        r.offloaded.whole_on_server,
        r.offloaded.via_server,
        100.0 * r.offloaded.fast_path_share()
    );
}

#[test]
fn tiny_tables_for_every_map_shape() {
    for (nf, addr, w) in [
        ("l4lb", Addr::Lb, "enterprise"),
        ("proxy", Addr::Plain, "enterprise"),
        ("minilb", Addr::Lb, "enterprise"),
        ("firewall", Addr::Plain, "enterprise"),
    ] {
        let p4 = P4Options {
            max_table_size: Some(4),
            ..P4Options::default()
        };
        let r = check_nf(nf, addr, w, "tofino1", 1500, &p4, None);
        assert_passed(nf, &r);
    }
}

/// Damaged copies of generated frames: truncated anywhere, bad IHL, bad version, other
/// EtherTypes, runts.
fn malformed(n: usize) -> Vec<TracePacket> {
    let mut out = Vec::new();
    for (i, p) in trace(Addr::Nat, "enterprise", 60, 5).take(n).enumerate() {
        out.push(p.clone());
        let mut bad = p.clone();
        match i % 7 {
            0 => bad.data.truncate(i % bad.data.len().max(1)),
            1 => {
                if bad.data.len() > 14 {
                    bad.data[14] = 0x4f; // IHL 15 beyond the frame
                }
            }
            2 => {
                if bad.data.len() > 14 {
                    bad.data[14] = 0x65; // version 6 in an IPv4 EtherType
                }
            }
            3 => {
                bad.data[12] = 0x86;
                bad.data[13] = 0xdd;
            }
            4 => bad.data.truncate(13),
            5 => {
                let l = bad.data.len();
                bad.data.truncate(l.saturating_sub(3).max(34));
            }
            _ => {
                if bad.data.len() > 23 {
                    bad.data[23] = 0x2f; // GRE, not TCP/UDP
                }
            }
        }
        bad.ts_ns += 1;
        out.push(bad);
    }
    out
}

#[test]
fn malformed_packets_match_the_reference() {
    let only = std::env::var("TANDEM_ONLY").ok();
    let mut failed = Vec::new();
    for (nf, profile) in [
        ("mazunat", "tofino1"),
        ("minilb", "bmv2"),
        ("l4lb", "tofino1"),
        ("firewall", "tofino1"),
        ("proxy", "tofino1"),
        ("statefilter", "tofino1"),
        ("trojan", "bmv2"),
    ] {
        if only.as_deref().is_some_and(|o| o != nf) {
            continue;
        }
        let b = bundle(nf, profile, &P4Options::default());
        let pkts = malformed(1200);
        let runts = pkts.iter().filter(|p| p.data.len() < 14).count() as u64;
        let r = check_with(&b, nf, &mut pkts.into_iter(), None);
        // Runts are counted as runts, not as keys a full table could not take.
        assert_eq!(r.offloaded.runts, runts, "{nf}");
        assert_eq!(
            r.offloaded.whole_on_server, 0,
            "{nf}: no table is full here"
        );
        if !(r.passed() && r.differing_packets == 0) {
            eprintln!(
                "{nf}: {} packets differ\n{}",
                r.differing_packets,
                r.first_difference.clone().unwrap_or_default()
            );
            failed.push(nf);
        }
    }
    assert!(
        failed.is_empty(),
        "malformed packets handled differently: {failed:?}"
    );
}
