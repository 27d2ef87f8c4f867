//! Consistency of the state synchronisation under concurrency (Gallium §4.3.3, the paper's
//! NAT example).
//!
//! ```text
//!  stream thread:  out, in, out, in, ...  ──▶ [switch]  (int2ext for out, ext2int for in)
//!  main thread:    SYN ──▶ [switch: miss] ──▶ [server host: insert int2ext + ext2int]
//!                          atomic update (write-back tables, flag) ─▶ output commit ─▶ post
//! ```
//!
//! While the server's two-table update for a new connection is in flight, a second thread
//! streams packets of that connection in both directions through the switch. No packet may
//! see one table updated without the other (once any packet sees the connection, every later
//! packet does), and every packet sent after the SYN was released sees both. Without the
//! atomic-update protocol (tables written one by one) the same test sees the torn state —
//! which shows the test can fail.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use tandem_offload::{ControlFailure, ServerHost};
use tandem_runtime::{Host, Verdict};
use tandem_switch::{ControlOp, Switch};
use tandem_traffic::{FiveTuple, ReplyRewriter, TracePacket};

/// A control plane whose every request takes a while (a slow switch CPU or link).
struct Slow(SwitchControl, Duration);

impl ControlPlane for Slow {
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        std::thread::sleep(self.1);
        self.0.write(ops)
    }
    fn register_write(&mut self, n: &str, i: u32, v: u64) -> Result<(), ControlFailure> {
        std::thread::sleep(self.1);
        self.0.register_write(n, i, v)
    }
    fn register_read(&mut self, n: &str, i: u32) -> Result<u64, ControlFailure> {
        self.0.register_read(n, i)
    }
}

/// One observation of the stream: direction (true: outbound), whether the switch knew the
/// connection, whether the packet entered after the SYN was released.
type Seen = (bool, bool, bool);

/// The connection's SYN, a later outbound packet, and a reply as the NAT's outside would
/// send it.
fn connection(reference: &mut Host) -> (TracePacket, TracePacket, TracePacket) {
    let pkts: Vec<TracePacket> = trace(Addr::Nat, "enterprise", 20, 9).take(400).collect();
    let syn = pkts[0].clone();
    assert_eq!(syn.port, 0, "the first packet enters inside");
    let ft = FiveTuple::of_frame(&syn.data).unwrap();
    let out = pkts[1..]
        .iter()
        .find(|p| p.port == 0 && FiveTuple::of_frame(&p.data) == Some(ft))
        .expect("a later outbound packet")
        .clone();
    let mut reply = pkts[1..]
        .iter()
        .find(|p| p.port == 1 && FiveTuple::of_frame(&p.data) == Some(ft.reverse()))
        .expect("a reply")
        .clone();
    let Verdict::Send { port, frame } = reference.process(&syn).unwrap() else {
        panic!("the NAT drops the SYN")
    };
    let mut rw = ReplyRewriter::new();
    rw.observe(&syn.data, syn.port, &[(port, frame.as_slice())]);
    assert!(
        rw.rewrite(&mut reply),
        "the reply is rewritten to the NAT's address"
    );
    (syn, out, reply)
}

/// Runs the race; returns what the stream saw and the SYN's verdict.
fn race(atomic: bool, delay: Duration) -> (Vec<Seen>, Verdict, Verdict) {
    let p4 = P4Options {
        atomic_update: atomic,
        ..P4Options::default()
    };
    let b = bundle("mazunat", "tofino1", &p4);
    let mut reference = Host::new(native("mazunat"));
    let initial = reference.dump_state().unwrap();
    let (syn, out, reply) = connection(&mut reference);
    let want = {
        let mut r = Host::new(native("mazunat"));
        r.process(&syn).unwrap()
    };
    let sw = Switch::from_source(&b.switch_p4).unwrap();
    let opts = RunOptions {
        cache_dir: cache(),
        ..RunOptions::default()
    };
    let cp = Box::new(Slow(SwitchControl::new(sw.clone()), delay));
    let mut host = ServerHost::new(&b, &initial, &opts, cp).unwrap();

    // The SYN misses on the switch (which allocates its port) and goes to the server.
    let mut w = sw.worker();
    let (port, frame) = w.process(syn.port, &syn.data).unwrap();
    assert_eq!(port, 64, "the SYN misses and goes to the server");
    let frame = frame.to_vec();

    let released = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(Mutex::new(Vec::<Seen>::new()));
    let stream = {
        let (sw, released, stop, seen) = (sw.clone(), released.clone(), stop.clone(), seen.clone());
        std::thread::spawn(move || {
            let mut w = sw.worker();
            let mut local = Vec::new();
            while !stop.load(Ordering::SeqCst) {
                for (outbound, p) in [(true, &out), (false, &reply)] {
                    let after = released.load(Ordering::SeqCst);
                    let port = w.process(p.port, &p.data).map(|(port, _)| port);
                    // Known connection: out leaves on port 1, the reply on port 0.
                    let hit = port == Some(if outbound { 1 } else { 0 });
                    local.push((outbound, hit, after));
                }
            }
            seen.lock().unwrap().extend(local);
        })
    };
    std::thread::sleep(Duration::from_millis(20));
    let back = host.handle(&frame, 0, syn.ts_ns).unwrap().unwrap().to_vec();
    released.store(true, Ordering::SeqCst);
    let got = match w.process(64, &back) {
        Some((p, f)) => Verdict::Send {
            port: p,
            frame: f.to_vec(),
        },
        None => Verdict::Drop,
    };
    std::thread::sleep(Duration::from_millis(20));
    stop.store(true, Ordering::SeqCst);
    stream.join().unwrap();
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    (seen, want, got)
}

/// The first packet that saw the connection, and the first later one that did not.
fn torn(seen: &[Seen]) -> Option<(usize, usize)> {
    let first = seen.iter().position(|s| s.1)?;
    let miss = seen[first..].iter().position(|s| !s.1)?;
    Some((first, first + miss))
}

#[test]
fn two_table_update_is_atomic_and_committed_before_release() {
    let (seen, want, got) = race(true, Duration::from_millis(2));
    assert_eq!(got, want, "the SYN leaves as the reference sends it");
    let hits = seen.iter().filter(|s| s.1).count();
    let before = seen.iter().filter(|s| !s.2).count();
    eprintln!(
        "{} packets streamed, {before} before the SYN's release, {hits} saw the connection",
        seen.len()
    );
    assert!(
        seen.iter().any(|s| !s.1) && hits > 0,
        "the stream saw both sides of the update"
    );
    assert!(seen.iter().any(|s| s.0 && s.1) && seen.iter().any(|s| !s.0 && s.1));
    // No packet sees one table updated without the other.
    assert_eq!(torn(&seen), None, "a packet saw a torn update");
    // Every packet sent after the SYN was released sees both tables.
    for (i, s) in seen.iter().enumerate() {
        assert!(
            !s.2 || s.1,
            "packet {i} ({}) entered after the release but missed",
            if s.0 { "outbound" } else { "reply" }
        );
    }
}

#[test]
fn without_atomic_update_the_race_is_visible() {
    // The same update written table by table, with a slow control plane: the stream catches
    // the moment one table has the connection and the other does not.
    let (seen, want, got) = race(false, Duration::from_millis(10));
    assert_eq!(got, want);
    assert!(
        torn(&seen).is_some(),
        "expected a torn update without write-back tables ({} packets)",
        seen.len()
    );
}
