//! A watchdog for calls into native NF code that may never return.
//!
//! An NF's `process()` runs as compiled C++ in this process; a loop whose exit depends on packet
//! data or state (`while (x != y) x = f(x);`) can spin forever on some packet, and the tool
//! would hang without a word. Each place that calls native NF code registers a [`Watched`]
//! and brackets every call with [`Watched::enter`] / [`Watched::leave`]: two relaxed atomic
//! stores, no clock read on the packet path. The watcher thread, started once by the program
//! that owns the process (the `tandem` CLI — a library never starts it, and never exits), samples
//! every registered call; a call still running after the limit is reported to its callback
//! once, with what was called and on which packet.
//!
//! Before: `tandem host loop.cc --workload enterprise` prints nothing, forever.
//! After:  `error: the NF's process() has not returned on packet 1742 after 10 s ...`, exit 1.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

/// One registered call site (an NF instance, a server partition).
#[derive(Debug)]
struct Progress {
    what: String,
    /// Even: idle; odd: in a call. Bumped on enter and leave.
    seq: AtomicU64,
    /// The packet (or tick) the current call works on.
    index: AtomicU64,
}

/// A call site the watchdog watches; dropping it unregisters it.
#[derive(Debug)]
pub struct Watched(Arc<Progress>);

/// A call found still running after the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stuck {
    /// What was called, e.g. "process() of the NF `MiniLB`".
    pub what: String,
    /// The packet index (0-based) the call works on.
    pub index: u64,
    /// How long it has been running, at least.
    pub elapsed: Duration,
}

fn registry() -> &'static Mutex<Vec<Weak<Progress>>> {
    static R: OnceLock<Mutex<Vec<Weak<Progress>>>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(Vec::new()))
}

impl Watched {
    /// Registers a call site described by `what` (used in the report).
    pub fn register(what: impl Into<String>) -> Watched {
        let p = Arc::new(Progress {
            what: what.into(),
            seq: AtomicU64::new(0),
            index: AtomicU64::new(0),
        });
        let mut r = registry().lock().unwrap_or_else(|e| e.into_inner());
        r.retain(|w| w.strong_count() > 0);
        r.push(Arc::downgrade(&p));
        Watched(p)
    }

    /// A call on packet `index` starts.
    #[inline]
    pub fn enter(&self, index: u64) {
        self.0.index.store(index, Ordering::Relaxed);
        self.0.seq.fetch_add(1, Ordering::Release);
    }

    /// The call returned.
    #[inline]
    pub fn leave(&self) {
        self.0.seq.fetch_add(1, Ordering::Release);
    }
}

/// Starts the watcher thread (once per process; later calls do nothing and return false):
/// every call that stays inside one [`Watched::enter`]/[`Watched::leave`] pair for longer than
/// `limit` is passed to `on_stuck` once. A zero `limit` starts nothing.
pub fn start(limit: Duration, on_stuck: impl Fn(&Stuck) + Send + 'static) -> bool {
    static STARTED: AtomicBool = AtomicBool::new(false);
    if limit.is_zero() || STARTED.swap(true, Ordering::AcqRel) {
        return false;
    }
    let tick = (limit / 8).clamp(Duration::from_millis(5), Duration::from_millis(250));
    std::thread::Builder::new()
        .name("tandem-watchdog".into())
        .spawn(move || watch(limit, tick, on_stuck))
        .is_ok()
}

fn watch(limit: Duration, tick: Duration, on_stuck: impl Fn(&Stuck)) {
    // Per call site: (the seq seen in a call, when it was first seen, reported).
    let mut seen: Vec<(Weak<Progress>, u64, Instant, bool)> = Vec::new();
    loop {
        std::thread::sleep(tick);
        let live: Vec<Arc<Progress>> = {
            let r = registry().lock().unwrap_or_else(|e| e.into_inner());
            r.iter().filter_map(Weak::upgrade).collect()
        };
        seen.retain(|(w, ..)| w.strong_count() > 0);
        let now = Instant::now();
        for p in live {
            let seq = p.seq.load(Ordering::Acquire);
            let slot = seen
                .iter()
                .position(|(w, ..)| w.as_ptr() == Arc::as_ptr(&p));
            let Some(i) = slot else {
                seen.push((Arc::downgrade(&p), seq, now, false));
                continue;
            };
            let (_, last, since, reported) = &mut seen[i];
            if seq != *last || seq % 2 == 0 {
                *last = seq;
                *since = now;
                *reported = false;
                continue;
            }
            let elapsed = now.duration_since(*since);
            if !*reported && elapsed >= limit {
                *reported = true;
                on_stuck(&Stuck {
                    what: p.what.clone(),
                    index: p.index.load(Ordering::Relaxed),
                    elapsed,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_call_that_does_not_return_is_reported_once_and_finished_calls_never() {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        assert!(start(Duration::from_millis(60), move |s| {
            let _ = tx.lock().unwrap().send(s.clone());
        }));
        // Many short calls: never reported.
        let quick = Watched::register("quick");
        for i in 0..2000 {
            quick.enter(i);
            quick.leave();
        }
        let slow = Watched::register("slow call");
        slow.enter(41);
        let s = rx.recv_timeout(Duration::from_secs(5)).expect("reported");
        assert_eq!((s.what.as_str(), s.index), ("slow call", 41));
        assert!(s.elapsed >= Duration::from_millis(60));
        // Once per call, not once per tick.
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
        slow.leave();
        quick.enter(7);
        quick.leave();
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
        // A second start is a no-op.
        assert!(!start(Duration::from_millis(1), |_| {}));
    }
}
