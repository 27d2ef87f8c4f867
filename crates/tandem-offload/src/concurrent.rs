//! Concurrent execution: the switch keeps forwarding while the server works (Gallium §4.3.3).
//!
//! [`Offloaded::process`] runs one packet at a time. Here the switch runs in one thread and
//! the server host in another, joined by a bounded queue; every control-plane request waits
//! a configurable latency (the switch CPU's channel) before it reaches the switch, while the
//! switch thread keeps running pre on later packets.
//!
//! ```text
//! before (serial):   p0: pre ─ server ─ commit ─ post │ p1: pre ─ … │ p2: pre …
//! after (here):      switch thread: p0 pre ─▶ queue │ p1 pre (fast) │ p2 pre (fast) │ …
//!                    server thread:           p0 server ─ commit (latency per request) ─ post
//! ```
//!
//! **Ordering rule (run-to-completion).** Every packet takes effect at one point, its
//! *linearization point*: a fast-path packet at its pass through pre; a server-bound packet
//! at the last control-plane write its server run made (the visibility-flag write that
//! publishes its batch; the server run itself when it wrote nothing the switch holds); a
//! packet run serially (below) when it finishes. Pre passes and control writes are ordered
//! by one lock, so the points form a total order π — the run is equivalent to the reference
//! NF processing the packets in order π. π may reorder packets of different flows; it never
//! reorders packets of one flow (a flow is an IPv4 TCP/UDP 5-tuple, one direction; all other
//! frames form one flow): a packet whose flow has a packet at the server waits on the switch
//! until that one is released (`flow_order`; tests turn it off as the negative control). The
//! outputs of one flow leave in arrival order too. [`crate::check::check_concurrent`]
//! compares under exactly this relation: the reference runs the packets in order π, every
//! packet's verdict must equal the reference's, and π and the emission order restricted to
//! any flow must be arrival order.
//!
//! **Stale reads (per key read).** Because of the per-flow wait, a server-bound packet never
//! carries switch reads older than an update of its own flow. State keyed by something
//! coarser than a flow (a per-host map) can still be read stale by a packet of *another*
//! flow: it passed pre before a batch that changed a key it looks up was committed, and
//! reached the server after. The server thread detects exactly that (the keys every
//! committed packet inserted or erased, against a read-only probe of the packet's lookups)
//! and, when pre cannot have had effects (the program has no switch-owned state), runs the
//! packet again whole on the server's primary copy ([`ServerHost::whole_on_server`]): its
//! pre pass then read and wrote nothing that counts, and its linearization point is the
//! re-execution. Fast-path packets need nothing: they take effect at their pre pass, where
//! a batch is all visible or not at all (atomic update).
//!
//! ```text
//! before: h1 flow A: pre(miss) ─▶ server: insert host h1 ─ commit
//!         h1 flow B:       pre(miss, stale) ─────────────▶ server(h1 "absent") ✗
//! after:  h1 flow B:       pre(miss, stale) ─────────────▶ probe: h1 written since
//!                                                          ─▶ whole run on primary ✓
//! ```
//!
//! [`ServerHost::whole_on_server`]: crate::ServerHost::whole_on_server
//!
//! **Serial packets.** A packet before which a timer tick is due, a runt, and every packet of
//! a program with partial maps or server-only keys is run by the server thread with
//! [`Offloaded::process`] after every earlier packet finished, while the switch thread waits
//! (their probe reads the primary copy, which must not move under it).

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tandem_host::irhost::NormalState;
use tandem_host::Verdict;
use tandem_switch::{ControlOp, MeterCell};
use tandem_traffic::{FiveTuple, TracePacket};

use crate::control::{ControlFailure, ControlPlane, ExactBatch, SwitchControl};
use crate::system::{post, Bundle, Offloaded, RunOptions, RunStats};
use crate::vclock::VClock;
use crate::OffloadError;

/// How to run concurrently.
#[derive(Clone, Debug)]
pub struct ConcurrentOptions {
    /// Delay of every control-plane request (one way, before it reaches the switch).
    pub latency: Duration,
    /// Packets the server queue holds; the switch thread waits when it is full.
    pub queue: usize,
    /// Keep packets of a flow in order (the rule above). Off only to show that the check
    /// catches what it prevents.
    pub flow_order: bool,
    /// Run a server packet whose switch reads are stale again, whole on the server (when
    /// the program has no switch-owned state). Off only to show that the check catches what
    /// it repairs.
    pub reexecute: bool,
    /// Count the latency in virtual time instead of sleeping ([`crate::vclock`]): the
    /// threads race as the latency lets them, without spending it in wall time.
    pub virtual_clock: bool,
}

impl Default for ConcurrentOptions {
    fn default() -> Self {
        ConcurrentOptions {
            latency: Duration::from_micros(10),
            queue: 64,
            flow_order: true,
            reexecute: true,
            virtual_clock: false,
        }
    }
}

/// What a concurrent run did.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ConcurrentRun {
    /// Each input packet's verdict, by input index.
    #[serde(skip)]
    pub verdicts: Vec<Verdict>,
    /// Input indices in linearization order π.
    #[serde(skip)]
    pub order: Vec<usize>,
    /// Input indices of the packets sent, in the order they left.
    #[serde(skip)]
    pub emitted: Vec<usize>,
    /// Packets that waited on the switch for a packet of their flow at the server.
    pub waited_for_flow: u64,
    /// Packets run serially (tick due, runt, probe needed).
    pub serial: u64,
    /// Packets the switch passed while some packet was at the server.
    pub overtaking: u64,
    /// Most packets queued for or at the server at once.
    pub max_in_flight: u64,
    /// Server packets whose switch reads were stale: a map key they look up was inserted
    /// or erased by a packet committed after their pre pass (with the per-flow rule only
    /// packets of other flows can be).
    pub stale_reads: u64,
    /// Of those, the packets run again whole on the server's primary copy. The rest (a
    /// program whose pre writes switch-owned state, or `reexecute` off) were served with
    /// their stale reads; the check says whether the result was still serial.
    pub reexecuted: u64,
    /// With the virtual clock: the virtual time the server's last control request was due
    /// at, ns (0 otherwise).
    pub virtual_end_ns: u64,
}

/// A packet's flow for the ordering rule: its 5-tuple (IPv4 TCP/UDP), or `None` for all
/// other frames.
pub fn flow_of(frame: &[u8]) -> Option<FiveTuple> {
    FiveTuple::of_frame(frame)
}

/// The lock that orders pre passes and control-plane requests, and counts linearization
/// points.
#[derive(Default)]
struct Clock {
    ticket: Mutex<u64>,
}

impl Clock {
    fn stamp<T>(&self, f: impl FnOnce() -> T) -> (T, u64) {
        let mut g = self.ticket.lock().unwrap_or_else(|e| e.into_inner());
        let r = f();
        *g += 1;
        (r, *g)
    }
}

/// Whether `process()` writes a state the switch holds the primary copy of (a counter,
/// sketch or meter the switch updates itself): then a packet's pass through pre may have had
/// effects that running it again would repeat. Constants only `configure()` writes do not
/// count.
fn switch_writes(module: &tandem_ir::Module, owned: &BTreeSet<u32>) -> bool {
    let f = &module.process;
    f.blocks.iter().any(|(_, b)| {
        b.insts.iter().any(|&i| {
            f.insts.get(i).is_some_and(|d| {
                module.inst_effects(&d.kind).writes.iter().any(|e| match e {
                    tandem_ir::Effect::State(s) => owned.contains(&s.as_u32()),
                    tandem_ir::Effect::All => !owned.is_empty(),
                    _ => false,
                })
            })
        })
    })
}

/// The control channel with latency: every request sleeps, then reaches the switch under
/// the ordering lock; writes record their ticket (the last one is the packet's
/// linearization point).
struct Delayed {
    inner: SwitchControl,
    clock: Arc<Clock>,
    latency: Duration,
    armed: Arc<AtomicBool>,
    last_write: Arc<AtomicU64>,
    /// The simulated clock (`None`: the latency is slept).
    vclock: Option<Arc<VClock>>,
}

impl Delayed {
    fn go<T>(&mut self, write: bool, f: impl FnOnce(&mut SwitchControl) -> T) -> T {
        if self.armed.load(Ordering::Relaxed) {
            match &self.vclock {
                Some(v) => v.request(),
                None if !self.latency.is_zero() => std::thread::sleep(self.latency),
                None => {}
            }
        }
        let inner = &mut self.inner;
        let (r, t) = self.clock.stamp(|| f(inner));
        if write {
            self.last_write.store(t, Ordering::SeqCst);
        }
        r
    }
}

impl ControlPlane for Delayed {
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        self.go(true, |c| c.write(ops))
    }
    fn write_exact(&mut self, batch: &ExactBatch<'_>) -> Result<(), ControlFailure> {
        self.go(true, |c| c.write_exact(batch))
    }
    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        self.go(true, |c| c.register_write(name, index, value))
    }
    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure> {
        self.go(false, |c| c.register_read(name, index))
    }
    fn meter_write(
        &mut self,
        name: &str,
        index: u32,
        cell: &MeterCell,
    ) -> Result<(), ControlFailure> {
        self.go(true, |c| c.meter_write(name, index, cell))
    }
    fn meter_read(&mut self, name: &str, index: u32) -> Result<MeterCell, ControlFailure> {
        self.go(false, |c| c.meter_read(name, index))
    }
    fn direct_counters(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        self.go(false, |c| c.direct_counters(table))
    }
    fn configure_ageing(&mut self, tables: &[&str], timeout_ns: u64) -> Result<(), ControlFailure> {
        self.go(true, |c| c.configure_ageing(tables, timeout_ns))
    }
    fn set_ages(&mut self, table: &str, ages: &[(Vec<u64>, u64)]) -> Result<(), ControlFailure> {
        self.go(true, |c| c.set_ages(table, ages))
    }
    fn read_ages(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        self.go(false, |c| c.read_ages(table))
    }
    fn read_ages_into(
        &mut self,
        table: &str,
        out: &mut tandem_switch::AgeList,
    ) -> Result<(), ControlFailure> {
        self.go(false, |c| c.read_ages_into(table, out))
    }
    fn set_ages_list(
        &mut self,
        table: &str,
        ages: &tandem_switch::AgeList,
    ) -> Result<(), ControlFailure> {
        self.go(true, |c| c.set_ages_list(table, ages))
    }
}

/// Committed packets' written map keys, each with the ticket of its commit.
type BatchLog = VecDeque<(u64, Vec<(u32, Vec<u64>)>)>;

enum Job {
    /// A frame pre sent to the server port; `pre`: the ticket of its pass through pre.
    Server {
        idx: usize,
        frame: Vec<u8>,
        pre: u64,
        /// Virtual time it was queued at.
        vt: u64,
    },
    /// A packet run whole as [`Offloaded::process`] does, after the timer ticks `due` (the
    /// switch thread's clock sees every packet; the server's would see only these).
    Serial {
        idx: usize,
        due: tandem_host::host::Ticks,
        vt: u64,
    },
}

struct Done {
    idx: usize,
    ticket: u64,
    verdict: Result<Verdict, OffloadError>,
    /// Whether the server thread emitted it (its emission number).
    emitted: Option<u64>,
}

/// Shared between the two threads.
struct Shared {
    clock: Arc<Clock>,
    emission: AtomicU64,
    last_write: Arc<AtomicU64>,
    /// Every packet must run serially (partial maps, server-only keys).
    serial_all: AtomicBool,
    /// Server packets found with stale switch reads.
    stale: AtomicU64,
    /// Of those, the packets run again whole on the server.
    reexecuted: AtomicU64,
    /// Stale packets are run again (the option, and no switch-owned state).
    reexecute: bool,
    /// The simulated clock, when the run uses one.
    vclock: Option<Arc<VClock>>,
}

/// Runs `packets` with the switch and the server host at once; returns what happened and
/// the final state (as [`Offloaded::state`]).
pub fn run_concurrent(
    bundle: &Bundle,
    initial: &serde_json::Value,
    run: &RunOptions,
    options: &ConcurrentOptions,
    packets: &[TracePacket],
) -> Result<(ConcurrentRun, RunStats, NormalState), OffloadError> {
    if options.queue == 0 {
        return Err(OffloadError::Switch(
            "the server queue must hold at least one packet".into(),
        ));
    }
    let clock = Arc::new(Clock::default());
    let armed = Arc::new(AtomicBool::new(false));
    let last_write = Arc::new(AtomicU64::new(0));
    let vclock = options
        .virtual_clock
        .then(|| Arc::new(VClock::new(options.latency)));
    let wrap = {
        let (clock, armed, last_write, latency, vclock) = (
            clock.clone(),
            armed.clone(),
            last_write.clone(),
            options.latency,
            vclock.clone(),
        );
        Box::new(move |inner: SwitchControl| -> Box<dyn ControlPlane> {
            Box::new(Delayed {
                inner,
                clock,
                latency,
                armed,
                last_write,
                vclock,
            })
        })
    };
    let mut sys = Offloaded::new(bundle, initial, run, Some(wrap))?;
    let shared = Arc::new(Shared {
        clock,
        emission: AtomicU64::new(0),
        last_write,
        serial_all: AtomicBool::new(sys.host.has_partial() || sys.host.has_server_only()),
        stale: AtomicU64::new(0),
        reexecuted: AtomicU64::new(0),
        reexecute: options.reexecute && !switch_writes(&bundle.module, sys.host.switch_owned()),
        vclock: vclock.clone(),
    });
    let mut sw = SwitchSide {
        worker: sys.switch().worker(),
        server_port: u32::from(bundle.manifest.server_port),
        clock: tandem_host::host::TickClock::new(bundle.module.timer_interval_ns()),
        packets,
        options,
        shared: shared.clone(),
        out: ConcurrentRun {
            verdicts: vec![Verdict::Drop; packets.len()],
            ..ConcurrentRun::default()
        },
        tickets: vec![0; packets.len()],
        emissions: Vec::new(),
        in_flight: HashMap::new(),
        waiting: HashMap::new(),
        ready: VecDeque::new(),
        total_in_flight: 0,
        stats: RunStats::default(),
        vt: 0,
    };
    armed.store(true, Ordering::SeqCst);
    let (job_tx, job_rx) = sync_channel::<Job>(options.queue);
    let (done_tx, done_rx) = channel::<Done>();
    let result = std::thread::scope(|s| {
        let server = s.spawn(|| {
            let _gone = crate::vclock::ServerGuard(shared.vclock.as_deref());
            server_thread(&mut sys, packets, &shared, job_rx, done_tx)
        });
        let mut r = sw.run(&job_tx, &done_rx);
        sw.block();
        drop(job_tx);
        if r.is_err() {
            // The server thread stopped on an error: report that, not "stopped".
            for d in done_rx.iter() {
                if let Err(e) = d.verdict {
                    r = Err(e);
                    break;
                }
            }
        }
        let served = server.join().unwrap_or_else(|_| {
            Err(OffloadError::Server(
                "the server thread panicked".to_string(),
            ))
        });
        r.and(served)
    });
    armed.store(false, Ordering::SeqCst);
    result?;
    let mut order: Vec<(u64, usize)> = sw.tickets.iter().copied().zip(0..).collect();
    order.sort_unstable();
    sw.out.order = order.into_iter().map(|(_, i)| i).collect();
    sw.emissions.sort_unstable();
    sw.out.emitted = sw.emissions.iter().map(|&(_, i)| i).collect();
    sw.out.stale_reads = shared.stale.load(Ordering::SeqCst);
    sw.out.reexecuted = shared.reexecuted.load(Ordering::SeqCst);
    sw.out.virtual_end_ns = vclock.as_ref().map_or(0, |v| v.server_now());
    let mut stats = sys.stats();
    stats.packets += sw.stats.packets;
    stats.fast_path += sw.stats.fast_path;
    stats.dropped += sw.stats.dropped;
    for (p, n) in &sw.stats.out_per_port {
        *stats.out_per_port.entry(*p).or_default() += n;
    }
    if let Some(last) = packets.iter().map(|p| p.ts_ns).max() {
        sys.host.advance_clock(last);
    }
    let state = sys.state()?;
    Ok((sw.out, stats, state))
}

fn server_thread(
    sys: &mut Offloaded,
    packets: &[TracePacket],
    shared: &Shared,
    jobs: Receiver<Job>,
    done: Sender<Done>,
) -> Result<(), OffloadError> {
    // The keys each committed packet wrote, with its ticket: what later server packets'
    // switch reads may have missed.
    let mut log: BatchLog = VecDeque::new();
    sys.host.record = Some(Vec::new());
    for job in jobs {
        shared.last_write.store(0, Ordering::SeqCst);
        let vt = match &job {
            Job::Serial { vt, .. } | Job::Server { vt, .. } => *vt,
        };
        if let Some(v) = &shared.vclock {
            v.start_job(vt);
        }
        let (idx, verdict) = match job {
            Job::Serial { idx, due, .. } => (idx, sys.ticks_then(due, &packets[idx])),
            Job::Server {
                idx, frame, pre, ..
            } => {
                // Batches before this packet's pre pass are visible to it.
                while log.front().is_some_and(|(t, _)| *t < pre) {
                    log.pop_front();
                }
                let pkt = &packets[idx];
                let stale = !log.is_empty() && is_stale(sys, pkt, &log)?;
                if stale {
                    shared.stale.fetch_add(1, Ordering::SeqCst);
                }
                let v = if stale && shared.reexecute {
                    shared.reexecuted.fetch_add(1, Ordering::SeqCst);
                    reexecute(sys, pkt)
                } else {
                    serve(sys, pkt, &frame)
                };
                (idx, v)
            }
        };
        let mut ticket = shared.last_write.load(Ordering::SeqCst);
        if ticket == 0 {
            ticket = shared.clock.stamp(|| ()).1;
        }
        if let Some(rec) = sys.host.record.as_mut() {
            if !rec.is_empty() {
                log.push_back((ticket, std::mem::take(rec)));
            }
        }
        let emitted = matches!(verdict, Ok(Verdict::Send { .. }))
            .then(|| shared.emission.fetch_add(1, Ordering::SeqCst));
        shared.serial_all.store(
            sys.host.has_partial() || sys.host.has_server_only(),
            Ordering::SeqCst,
        );
        let failed = verdict.is_err();
        let sent = done.send(Done {
            idx,
            ticket,
            verdict,
            emitted,
        });
        if let Some(v) = &shared.vclock {
            v.finish_job();
        }
        if failed || sent.is_err() {
            break;
        }
    }
    Ok(())
}

/// Whether a key the packet looks up was written by a packet committed after its pre pass.
fn is_stale(sys: &mut Offloaded, pkt: &TracePacket, log: &BatchLog) -> Result<bool, OffloadError> {
    let keys = sys.host.probe_keys(pkt)?;
    Ok(log
        .iter()
        .any(|(_, written)| written.iter().any(|w| keys.contains(w))))
}

/// A server packet with stale switch reads, run whole on the primary copy instead (the
/// program has no switch-owned state, so its pass through pre changed nothing).
fn reexecute(sys: &mut Offloaded, pkt: &TracePacket) -> Result<Verdict, OffloadError> {
    // Counted as a server packet (it came to the server from pre), not as one a full switch
    // table sent whole: `ConcurrentRun::reexecuted` counts these.
    sys.stats.packets += 1;
    sys.stats.via_server += 1;
    let v = sys.host.whole_on_server(pkt)?;
    match &v {
        Verdict::Send { port, .. } => *sys.stats.out_per_port.entry(*port).or_default() += 1,
        Verdict::Drop => sys.stats.dropped += 1,
    }
    Ok(v)
}

/// The server's part of a packet pre sent to it: the server partition, the commit, post.
fn serve(sys: &mut Offloaded, pkt: &TracePacket, frame: &[u8]) -> Result<Verdict, OffloadError> {
    sys.stats.packets += 1;
    let server_port = sys.server_port;
    let v = match sys.host.handle(frame, pkt.port as u16, pkt.ts_ns)? {
        None => {
            sys.stats.fast_path += 1;
            Verdict::Send {
                port: server_port,
                frame: frame.to_vec(),
            }
        }
        Some(back) => {
            sys.stats.via_server += 1;
            post(&mut sys.worker, server_port, back, pkt.ts_ns)?
        }
    };
    match &v {
        Verdict::Send { port, .. } => *sys.stats.out_per_port.entry(*port).or_default() += 1,
        Verdict::Drop => sys.stats.dropped += 1,
    }
    Ok(v)
}

/// The switch thread: pre for every packet in arrival order, the per-flow wait.
struct SwitchSide<'a> {
    worker: tandem_switch::Worker,
    server_port: u32,
    clock: tandem_host::host::TickClock,
    packets: &'a [TracePacket],
    options: &'a ConcurrentOptions,
    shared: Arc<Shared>,
    out: ConcurrentRun,
    tickets: Vec<u64>,
    emissions: Vec<(u64, usize)>,
    in_flight: HashMap<Option<FiveTuple>, u32>,
    waiting: HashMap<Option<FiveTuple>, VecDeque<usize>>,
    /// Flows whose packet at the server finished: their waiting packets go next.
    ready: VecDeque<Option<FiveTuple>>,
    total_in_flight: u64,
    stats: RunStats,
    /// Virtual time of the switch (with the simulated clock): monotone, at least the
    /// arrival time of the packet in pre.
    vt: u64,
}

impl SwitchSide<'_> {
    fn run(
        &mut self,
        jobs: &std::sync::mpsc::SyncSender<Job>,
        done: &Receiver<Done>,
    ) -> Result<(), OffloadError> {
        for idx in 0..self.packets.len() {
            self.advance(self.packets[idx].ts_ns);
            while let Ok(d) = done.try_recv() {
                self.finish(d)?;
            }
            self.drain_ready(jobs, done)?;
            self.admit(idx, jobs, done)?;
        }
        while self.total_in_flight > 0 || !self.waiting.is_empty() || !self.ready.is_empty() {
            self.drain_ready(jobs, done)?;
            if self.total_in_flight == 0 {
                continue;
            }
            self.block();
            let d = done.recv().map_err(|_| server_gone())?;
            self.unblock();
            self.finish(d)?;
        }
        Ok(())
    }

    /// With the simulated clock: the switch's next pre pass is at `ts` (or later, when it
    /// was stalled); waits for the server's requests due before it.
    fn advance(&mut self, ts: u64) {
        if let Some(v) = &self.shared.vclock {
            self.vt = self.vt.max(ts);
            v.switch_at(self.vt);
        }
    }

    /// The switch may wait on the server (queue full, a serial packet, the end).
    fn block(&self) {
        if let Some(v) = &self.shared.vclock {
            v.switch_blocked();
        }
    }

    /// It resumes no earlier than the server's virtual time.
    fn unblock(&mut self) {
        if let Some(v) = &self.shared.vclock {
            self.vt = self.vt.max(v.server_now());
        }
    }

    /// Queues a job for the server (blocking while the queue is full).
    fn send(
        &mut self,
        jobs: &std::sync::mpsc::SyncSender<Job>,
        job: Job,
    ) -> Result<(), OffloadError> {
        if let Some(v) = &self.shared.vclock {
            v.enqueued(self.vt);
        }
        match jobs.try_send(job) {
            Ok(()) => Ok(()),
            Err(std::sync::mpsc::TrySendError::Full(job)) => {
                self.block();
                let r = jobs.send(job).map_err(|_| server_gone());
                self.unblock();
                if r.is_ok() {
                    self.advance(self.vt);
                }
                r
            }
            Err(std::sync::mpsc::TrySendError::Disconnected(_)) => Err(server_gone()),
        }
    }

    fn drain_ready(
        &mut self,
        jobs: &std::sync::mpsc::SyncSender<Job>,
        done: &Receiver<Done>,
    ) -> Result<(), OffloadError> {
        while let Some(flow) = self.ready.pop_front() {
            while !self.in_flight.contains_key(&flow) {
                let Some(q) = self.waiting.get_mut(&flow) else {
                    break;
                };
                let Some(idx) = q.pop_front() else {
                    self.waiting.remove(&flow);
                    break;
                };
                if q.is_empty() {
                    self.waiting.remove(&flow);
                }
                self.enter(idx, flow, jobs, done)?;
            }
        }
        Ok(())
    }

    fn admit(
        &mut self,
        idx: usize,
        jobs: &std::sync::mpsc::SyncSender<Job>,
        done: &Receiver<Done>,
    ) -> Result<(), OffloadError> {
        let flow = flow_of(&self.packets[idx].data);
        if self.options.flow_order
            && (self.in_flight.contains_key(&flow) || self.waiting.contains_key(&flow))
        {
            self.waiting.entry(flow).or_default().push_back(idx);
            self.out.waited_for_flow += 1;
            return Ok(());
        }
        self.enter(idx, flow, jobs, done)
    }

    /// Runs pre on the packet (or hands it to the server thread to run serially).
    fn enter(
        &mut self,
        idx: usize,
        flow: Option<FiveTuple>,
        jobs: &std::sync::mpsc::SyncSender<Job>,
        done: &Receiver<Done>,
    ) -> Result<(), OffloadError> {
        let pkt = &self.packets[idx];
        self.advance(pkt.ts_ns);
        let due = self.clock.due(pkt.ts_ns);
        let tick_due = { due }.next().is_some();
        if tick_due || pkt.data.len() < 14 || self.shared.serial_all.load(Ordering::SeqCst) {
            self.out.serial += 1;
            *self.in_flight.entry(flow).or_default() += 1;
            self.total_in_flight += 1;
            let vt = self.vt;
            self.send(jobs, Job::Serial { idx, due, vt })?;
            // Everything before it finishes first (one queue), then it.
            self.block();
            loop {
                let d = done.recv().map_err(|_| server_gone())?;
                let last = d.idx == idx;
                self.finish(d)?;
                if last {
                    self.unblock();
                    return Ok(());
                }
            }
        }
        if self.total_in_flight > 0 {
            self.out.overtaking += 1;
        }
        let worker = &mut self.worker;
        let (first, ticket) = self.shared.clock.stamp(|| {
            worker
                .process_at(pkt.port, &pkt.data, pkt.ts_ns)
                .map(|(p, b)| (p, b.to_vec()))
        });
        match first {
            Some((port, frame)) if port == self.server_port => {
                *self.in_flight.entry(flow).or_default() += 1;
                self.total_in_flight += 1;
                self.out.max_in_flight = self.out.max_in_flight.max(self.total_in_flight);
                let vt = self.vt;
                self.send(
                    jobs,
                    Job::Server {
                        idx,
                        frame,
                        pre: ticket,
                        vt,
                    },
                )?;
            }
            first => {
                self.tickets[idx] = ticket;
                self.stats.packets += 1;
                self.stats.fast_path += 1;
                match first {
                    Some((port, frame)) => {
                        let e = self.shared.emission.fetch_add(1, Ordering::SeqCst);
                        self.emissions.push((e, idx));
                        *self.stats.out_per_port.entry(port).or_default() += 1;
                        self.out.verdicts[idx] = Verdict::Send { port, frame };
                    }
                    None => {
                        self.stats.dropped += 1;
                        self.out.verdicts[idx] = Verdict::Drop;
                    }
                }
            }
        }
        Ok(())
    }

    /// A packet the server thread finished.
    fn finish(&mut self, d: Done) -> Result<(), OffloadError> {
        let flow = flow_of(&self.packets[d.idx].data);
        self.total_in_flight -= 1;
        if let Some(n) = self.in_flight.get_mut(&flow) {
            *n -= 1;
            if *n == 0 {
                self.in_flight.remove(&flow);
                if self.waiting.contains_key(&flow) {
                    self.ready.push_back(flow);
                }
            }
        }
        self.tickets[d.idx] = d.ticket;
        if let Some(e) = d.emitted {
            self.emissions.push((e, d.idx));
        }
        self.out.verdicts[d.idx] = d.verdict?;
        Ok(())
    }
}

fn server_gone() -> OffloadError {
    OffloadError::Server("the server thread stopped".into())
}
