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

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::*;
use tandem_host::{Host, Verdict};
use tandem_offload::{ControlFailure, ServerHost};
use tandem_switch::{ControlOp, Switch};
use tandem_traffic::{FiveTuple, ReplyRewriter, TracePacket};

/// A control plane that lets the packet stream run between its requests: after each write
/// it waits until the stream has pushed a few more packets through the switch, so every
/// intermediate state the requests leave is seen by packets — deterministically, where a
/// sleep would only make it likely (a slow switch CPU or link, as the stream sees it).
struct Slow {
    inner: SwitchControl,
    streamed: Arc<AtomicUsize>,
    /// Set once the stream runs (the initial install happens before it starts).
    armed: Arc<AtomicBool>,
}

impl Slow {
    fn let_packets_through(&self) {
        if !self.armed.load(Ordering::SeqCst) {
            return;
        }
        let from = self.streamed.load(Ordering::SeqCst);
        while self.streamed.load(Ordering::SeqCst) < from + PACKETS_BETWEEN_REQUESTS {
            std::thread::yield_now();
        }
    }
}

/// Packets the stream sends between two control requests.
const PACKETS_BETWEEN_REQUESTS: usize = 4;

impl ControlPlane for Slow {
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        let r = self.inner.write(ops);
        self.let_packets_through();
        r
    }
    fn register_write(&mut self, n: &str, i: u32, v: u64) -> Result<(), ControlFailure> {
        let r = self.inner.register_write(n, i, v);
        self.let_packets_through();
        r
    }
    fn register_read(&mut self, n: &str, i: u32) -> Result<u64, ControlFailure> {
        self.inner.register_read(n, i)
    }
}

/// Waits until `counter` reaches `n`.
fn wait_for(counter: &AtomicUsize, n: usize) {
    while counter.load(Ordering::SeqCst) < n {
        std::thread::yield_now();
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
fn race(atomic: bool) -> (Vec<Seen>, Verdict, Verdict) {
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
    let streamed = Arc::new(AtomicUsize::new(0));
    let after_release = Arc::new(AtomicUsize::new(0));
    let armed = Arc::new(AtomicBool::new(false));
    let cp = Box::new(Slow {
        inner: SwitchControl::new(sw.clone()),
        streamed: streamed.clone(),
        armed: armed.clone(),
    });
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
        let (streamed, after_release) = (streamed.clone(), after_release.clone());
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
                    streamed.fetch_add(1, Ordering::SeqCst);
                    if after {
                        after_release.fetch_add(1, Ordering::SeqCst);
                    }
                }
            }
            seen.lock().unwrap().extend(local);
        })
    };
    // Packets before the update, between each of its requests (Slow), and after the release.
    wait_for(&streamed, STREAM_BEFORE);
    armed.store(true, Ordering::SeqCst);
    let back = host.handle(&frame, 0, syn.ts_ns).unwrap().unwrap().to_vec();
    released.store(true, Ordering::SeqCst);
    let got = match w.process(64, &back) {
        Some((p, f)) => Verdict::Send {
            port: p,
            frame: f.to_vec(),
        },
        None => Verdict::Drop,
    };
    wait_for(&after_release, STREAM_AFTER);
    stop.store(true, Ordering::SeqCst);
    stream.join().unwrap();
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    (seen, want, got)
}

/// Packets streamed before the SYN's update starts, and after its release.
const STREAM_BEFORE: usize = 200;
const STREAM_AFTER: usize = 200;

/// The first packet that saw the connection, and the first later one that did not.
fn torn(seen: &[Seen]) -> Option<(usize, usize)> {
    let first = seen.iter().position(|s| s.1)?;
    let miss = seen[first..].iter().position(|s| !s.1)?;
    Some((first, first + miss))
}

#[test]
fn two_table_update_is_atomic_and_committed_before_release() {
    let (seen, want, got) = race(true);
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
    // The same update written table by table: packets pass between the two writes, so the
    // stream sees one table with the connection and the other without it.
    let (seen, want, got) = race(false);
    assert_eq!(got, want);
    assert!(
        torn(&seen).is_some(),
        "expected a torn update without write-back tables ({} packets)",
        seen.len()
    );
}
