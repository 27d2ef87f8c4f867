//! A simulated clock for concurrent runs ([`crate::concurrent`]): control-plane latency as
//! virtual time instead of sleeping.
//!
//! With real sleeping, every control request of a server packet waits the latency in turn
//! (about four requests per packet that publishes a batch), so at 10 ms a run with 30,000
//! server packets takes 20–40 minutes of wall time however fast the machine is. With this
//! clock the two threads still run at once and race exactly where the latency lets them,
//! but the latency costs no wall time:
//!
//! ```text
//! before (real):    server: req ─sleep 10 ms─▶ write │ req ─sleep 10 ms─▶ write │ …
//!                   switch: pre p1 pre p2 … (whatever real time lets through)
//! after (virtual):  server: req at vt = now + 10 ms — waits until the switch has passed
//!                           every packet that arrives before vt — write, now = vt
//!                   switch: pre of a packet arriving at t waits until the server has made
//!                           every request due at or before t (and finished that packet)
//! ```
//!
//! Virtual time is the packets' arrival time (`ts_ns`) on the switch and "start of the job +
//! one latency per request" on the server (a job starts when it is queued, or when the
//! server finishes the previous one). The two threads synchronise conservatively: the switch
//! runs pre at `t` only when the server's next request is due after `t`; the server makes a
//! request at `vt` only when the switch's next pre pass is at or after `vt` (a tie goes to the
//! server). While the switch is blocked (the server queue is full, or it waits for a serial
//! packet) it promises nothing, and when it resumes its virtual time is at least the
//! server's: a stalled switch passes its next packet late, as hardware with back-pressure
//! would. The server's own work costs no virtual time.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

#[derive(Debug)]
struct State {
    /// Virtual time of the switch's next pre pass (`u64::MAX`: blocked or done).
    switch_next: u64,
    /// Lower bound of the virtual time of the server's next control request, or of the
    /// request it is working after (`u64::MAX`: no work).
    server_next: u64,
    /// Virtual time of the server's last control request (or its job's start).
    server_now: u64,
    /// Jobs queued or at the server.
    pending: u64,
    /// The server thread has ended (an error, or the queue closed): it makes no more
    /// requests, and the switch never waits for it.
    gone: bool,
}

/// The shared simulated clock.
#[derive(Debug)]
pub(crate) struct VClock {
    latency: u64,
    st: Mutex<State>,
    cv: Condvar,
}

impl VClock {
    pub(crate) fn new(latency: Duration) -> VClock {
        VClock {
            latency: u64::try_from(latency.as_nanos()).unwrap_or(u64::MAX / 4),
            st: Mutex::new(State {
                switch_next: 0,
                server_next: u64::MAX,
                server_now: 0,
                pending: 0,
                gone: false,
            }),
            cv: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.st.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(
        &self,
        g: std::sync::MutexGuard<'a, State>,
        blocked: impl Fn(&State) -> bool,
    ) -> std::sync::MutexGuard<'a, State> {
        self.cv
            .wait_while(g, |s| blocked(s))
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The switch is about to run pre at virtual time `vt`: waits until the server has made
    /// every request due at or before `vt` and finished the packet it made it for.
    pub(crate) fn switch_at(&self, vt: u64) {
        let mut g = self.lock();
        g.switch_next = vt;
        self.cv.notify_all();
        let _g = self.wait(g, |s| s.server_next <= vt);
    }

    /// The switch may block (on the queue or a serial packet): it promises nothing.
    pub(crate) fn switch_blocked(&self) {
        let mut g = self.lock();
        g.switch_next = u64::MAX;
        self.cv.notify_all();
    }

    /// The server's virtual time (where a switch that was blocked resumes at the earliest).
    pub(crate) fn server_now(&self) -> u64 {
        self.lock().server_now
    }

    /// The switch queues a job at virtual time `vt`.
    pub(crate) fn enqueued(&self, vt: u64) {
        let mut g = self.lock();
        if g.pending == 0 && !g.gone {
            g.server_next = g.server_now.max(vt).saturating_add(self.latency);
        }
        g.pending += 1;
        self.cv.notify_all();
    }

    /// The server starts a job queued at `vt`.
    pub(crate) fn start_job(&self, vt: u64) {
        let mut g = self.lock();
        g.server_now = g.server_now.max(vt);
        self.cv.notify_all();
    }

    /// The server makes a control request: one latency after its last one, once the switch
    /// has passed every packet arriving before then.
    pub(crate) fn request(&self) {
        let mut g = self.lock();
        let vt = g.server_now.saturating_add(self.latency);
        g.server_next = vt;
        self.cv.notify_all();
        let mut g = self.wait(g, |s| s.switch_next < vt);
        g.server_now = vt;
    }

    /// The server finished a job (its result already sent to the switch thread).
    pub(crate) fn finish_job(&self) {
        let mut g = self.lock();
        g.pending = g.pending.saturating_sub(1);
        g.server_next = if g.pending > 0 && !g.gone {
            g.server_now.saturating_add(self.latency)
        } else {
            u64::MAX
        };
        self.cv.notify_all();
    }
}

impl VClock {
    /// The server thread ended (however: an error returned early from a job, a panic, the
    /// queue closed): a switch waiting for its next request must not wait for ever.
    pub(crate) fn server_gone(&self) {
        let mut g = self.lock();
        g.gone = true;
        g.server_next = u64::MAX;
        self.cv.notify_all();
    }
}

/// Calls [`VClock::server_gone`] when the server thread's scope ends, even by a panic.
pub(crate) struct ServerGuard<'a>(pub(crate) Option<&'a VClock>);

impl Drop for ServerGuard<'_> {
    fn drop(&mut self) {
        if let Some(v) = self.0 {
            v.server_gone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A request due at 10 waits for the switch to pass its packet at 5, and a switch packet
    /// at 20 waits for the request (and the job) to finish: the order follows virtual time,
    /// not the threads' real timing.
    #[test]
    fn requests_and_pre_passes_follow_virtual_time() {
        let c = Arc::new(VClock::new(Duration::from_nanos(10)));
        let log = Arc::new(Mutex::new(Vec::new()));
        c.switch_at(0);
        c.enqueued(0);
        let server = {
            let (c, log) = (c.clone(), log.clone());
            std::thread::spawn(move || {
                c.start_job(0);
                c.request();
                log.lock().unwrap().push("write@10");
                std::thread::sleep(Duration::from_millis(20));
                log.lock().unwrap().push("done");
                c.finish_job();
            })
        };
        // The switch is slow in real time, fast in virtual time: the write still waits.
        std::thread::sleep(Duration::from_millis(20));
        c.switch_at(5);
        log.lock().unwrap().push("pre@5");
        c.switch_at(20);
        log.lock().unwrap().push("pre@20");
        c.switch_blocked();
        server.join().unwrap();
        assert_eq!(
            *log.lock().unwrap(),
            vec!["pre@5", "write@10", "done", "pre@20"]
        );
    }

    /// A server that stops in the middle of a job (an error) does not leave the switch
    /// waiting for its request for ever.
    #[test]
    fn a_server_that_stops_mid_job_releases_the_switch() {
        let c = Arc::new(VClock::new(Duration::from_nanos(10)));
        c.switch_at(0);
        c.enqueued(0);
        let server = {
            let c = c.clone();
            std::thread::spawn(move || {
                let _guard = ServerGuard(Some(&c));
                c.start_job(0);
                // Returns early: no request, no finish_job.
            })
        };
        // Without the guard the switch would wait for ever for the request due at 10.
        let (tx, rx) = std::sync::mpsc::channel();
        {
            let c = c.clone();
            std::thread::spawn(move || {
                c.switch_at(50);
                c.enqueued(60);
                c.switch_at(100);
                let _ = tx.send(());
            });
        }
        server.join().unwrap();
        assert!(
            rx.recv_timeout(Duration::from_secs(20)).is_ok(),
            "the switch still waits for a server that has gone"
        );
    }
}
