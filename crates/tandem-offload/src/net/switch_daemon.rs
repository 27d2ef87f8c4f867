//! SwitchDaemon: the switch process (ports, control, the server leg).

use super::*;

/// Where and with which ports a [`SwitchDaemon`] serves.
#[derive(Clone, Debug)]
pub struct SwitchConfig {
    /// The socket directory (created if needed).
    pub dir: PathBuf,
    /// The NF ports that get a socket (not the server port).
    pub ports: Vec<u32>,
}

pub(super) struct Shared {
    program: String,
    /// the program's switch options (loopback ports), for `Reset`
    options: tandem_switch::CompileOptions,
    sw: RwLock<Switch>,
    generation: AtomicU64,
    stop: AtomicBool,
    server_attached: AtomicBool,
    stats: Mutex<SwitchStats>,
    info: SwitchInfo,
    /// The deployment token (`DIR/token`).
    token: String,
    /// The servers behind the switch and the membership ([`super::cluster`]).
    cluster: Mutex<super::cluster::NetCluster>,
}

impl Shared {
    fn count(&self, f: impl FnOnce(&mut SwitchStats)) {
        if let Ok(mut s) = self.stats.lock() {
            f(&mut s);
        }
    }

    fn switch(&self) -> Switch {
        match self.sw.read() {
            Ok(s) => s.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    fn stats(&self) -> SwitchStats {
        match self.stats.lock() {
            Ok(s) => s.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    fn cluster(&self) -> std::sync::MutexGuard<'_, super::cluster::NetCluster> {
        self.cluster.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The switch process: `switch.p4` on the software switch, served over sockets (see the
/// module docs). Threads run until [`SwitchDaemon::shutdown`] or a `shutdown` request.
pub struct SwitchDaemon {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    files: Files,
    dir: PathBuf,
}

impl SwitchDaemon {
    /// Loads the bundle's switch program and starts serving in `config.dir`.
    pub fn start(bundle: &Bundle, config: &SwitchConfig) -> Result<SwitchDaemon, OffloadError> {
        SwitchDaemon::start_cluster(bundle, config, 1)
    }

    /// [`SwitchDaemon::start`] with the group `[0, servers)` behind the switch
    /// ([`super::cluster`]).
    pub fn start_cluster(
        bundle: &Bundle,
        config: &SwitchConfig,
        servers: usize,
    ) -> Result<SwitchDaemon, OffloadError> {
        super::deployable(bundle)?;
        let cluster = super::cluster::NetCluster::new(bundle, servers)?;
        let dir = prepare_dir(&config.dir)?;
        let sw = crate::system::load_switch(bundle)?;
        let server_port = u32::from(bundle.manifest.server_port);
        let mut ports = config.ports.clone();
        ports.sort_unstable();
        ports.dedup();
        if ports.contains(&server_port) {
            return Err(OffloadError::Switch(format!(
                "port {server_port} is the server port; it has DIR/server.sock"
            )));
        }
        cluster.install(&sw)?;
        let mut files = Files::default();
        // The token exists before any socket does, so whoever reaches the switch can find it.
        let token = create_token(&dir)?;
        files.0.push(token_file(&dir));
        let cpath = control_socket(&dir);
        let control = bind_socket(&cpath)?;
        files.0.push(cpath);
        let mut socks = Vec::new();
        for &p in ports.iter().chain([&server_port]) {
            let path = if p == server_port {
                server_socket(&dir)
            } else {
                port_socket(&dir, p)
            };
            let s = bind_socket(&path)?;
            files.0.push(path);
            socks.push((p, s));
        }
        let shared = Arc::new(Shared {
            program: bundle.switch_p4.clone(),
            options: crate::system::switch_options(&bundle.manifest),
            sw: RwLock::new(sw),
            generation: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            server_attached: AtomicBool::new(false),
            stats: Mutex::new(SwitchStats::default()),
            info: SwitchInfo {
                nf: bundle.manifest.nf.clone(),
                ir_digest: bundle.manifest.ir_digest.clone(),
                server_port,
                ports,
                server_attached: false,
            },
            token,
            cluster: Mutex::new(cluster),
        });
        let mut threads = Vec::new();
        let spawn_err = |e: io::Error| os_err("starting a thread", e);
        control
            .set_read_timeout(Some(TICK))
            .map_err(|e| os_err("control socket", e))?;
        {
            let shared = shared.clone();
            threads.push(
                std::thread::Builder::new()
                    .name("switch-control".into())
                    .spawn(move || control_loop(&shared, &control))
                    .map_err(spawn_err)?,
            );
        }
        let (tx, rx) = mpsc::sync_channel::<Inbound>(1024);
        for (i, (p, s)) in socks.iter().enumerate() {
            let s = s.try_clone().map_err(|e| os_err("socket", e))?;
            s.set_read_timeout(Some(TICK))
                .map_err(|e| os_err("socket", e))?;
            let tx = tx.clone();
            let shared = shared.clone();
            threads.push(
                std::thread::Builder::new()
                    .name(format!("switch-port{p}"))
                    .spawn(move || reader_loop(&shared, &s, i, &tx))
                    .map_err(spawn_err)?,
            );
        }
        drop(tx);
        {
            let shared = shared.clone();
            let server_idx = socks.len() - 1;
            let interval = bundle.module.timer_interval_ns();
            threads.push(
                std::thread::Builder::new()
                    .name("switch-data".into())
                    .spawn(move || {
                        let mut dp = DataPlane::new(shared, socks, server_idx, interval);
                        dp.run(&rx);
                    })
                    .map_err(spawn_err)?,
            );
        }
        Ok(SwitchDaemon {
            shared,
            threads,
            files,
            dir,
        })
    }

    /// The (canonical) socket directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// What the switch runs.
    pub fn info(&self) -> SwitchInfo {
        let mut i = self.shared.info.clone();
        i.server_attached = self.shared.server_attached.load(Ordering::SeqCst);
        i
    }

    /// Counters so far.
    pub fn stats(&self) -> SwitchStats {
        self.shared.stats()
    }

    /// The switch (tables and registers, as the control plane sees them).
    pub fn switch(&self) -> Switch {
        self.shared.switch()
    }

    /// Whether the daemon still serves.
    pub fn is_running(&self) -> bool {
        !self.shared.stop.load(Ordering::SeqCst)
    }

    /// Asks every thread to stop (the attached peers get `bye`).
    pub fn shutdown(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// Waits until the daemon has stopped (after [`SwitchDaemon::shutdown`] or a `shutdown`
    /// request) and removes its sockets; returns the final counters.
    pub fn wait(mut self) -> SwitchStats {
        self.join();
        self.shared.stats()
    }

    fn join(&mut self) {
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        self.files = Files::default();
    }
}

impl Drop for SwitchDaemon {
    fn drop(&mut self) {
        self.shutdown();
        self.join();
    }
}

/// A datagram from a data socket: socket index, bytes, sender.
pub(super) type Inbound = (usize, Vec<u8>, Option<PathBuf>);

pub(super) fn reader_loop(
    shared: &Shared,
    sock: &UnixDatagram,
    idx: usize,
    tx: &mpsc::SyncSender<Inbound>,
) {
    let mut buf = vec![0u8; RECV_BUF];
    while !shared.stop.load(Ordering::SeqCst) {
        match recv(sock, &mut buf) {
            Ok(Some((n, from))) => {
                if tx.send((idx, buf[..n].to_vec(), from)).is_err() {
                    return;
                }
            }
            Ok(None) => {}
            Err(e) => {
                log::warn!("switch: receiving: {e}");
                std::thread::sleep(TICK);
            }
        }
    }
}

/// Replies the switch remembers per client, for repeated request ids.
#[derive(Default)]
pub(super) struct ReplyCache {
    per_client: HashMap<PathBuf, CachedReplies>,
}

/// (request id, reply) of one client, oldest first.
pub(super) type CachedReplies = VecDeque<(u64, Arc<Vec<u8>>)>;

impl ReplyCache {
    const PER_CLIENT: usize = 32;
    const CLIENTS: usize = 256;

    fn get(&self, from: &Path, id: u64) -> Option<Arc<Vec<u8>>> {
        self.per_client
            .get(from)?
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, r)| r.clone())
    }

    fn put(&mut self, from: &Path, id: u64, reply: Arc<Vec<u8>>) {
        if self.per_client.len() >= Self::CLIENTS && !self.per_client.contains_key(from) {
            self.per_client.clear();
        }
        let q = self.per_client.entry(from.to_path_buf()).or_default();
        if q.len() >= Self::PER_CLIENT {
            q.pop_front();
        }
        q.push_back((id, reply));
    }
}

pub(super) fn control_loop(shared: &Shared, sock: &UnixDatagram) {
    let mut buf = vec![0u8; RECV_BUF];
    let mut reasm = Reassembler::default();
    let mut cache = ReplyCache::default();
    while !shared.stop.load(Ordering::SeqCst) {
        let (n, from) = match recv(sock, &mut buf) {
            Ok(Some(x)) => x,
            Ok(None) => continue,
            Err(e) => {
                log::warn!("switch control: receiving: {e}");
                std::thread::sleep(TICK);
                continue;
            }
        };
        let (Some(p), Some(from)) = (parse_control(&buf[..n]).filter(|p| p.kind == 0), from) else {
            // Not ours, or from an unnamed socket we could not answer.
            shared.count(|s| s.control_malformed += 1);
            continue;
        };
        let id = p.id;
        let Some(msg) = reasm.push(&from, &p) else {
            continue;
        };
        if let Some(r) = cache.get(&from, id) {
            shared.count(|s| s.control_duplicates += 1);
            send_reply(sock, &from, id, &r);
            continue;
        }
        let envelope = serde_json::from_slice::<Envelope>(&msg).or_else(|e| {
            // A bare request (no envelope) has no token: refused below, like a wrong one.
            serde_json::from_slice::<Request>(&msg)
                .map(|request| Envelope {
                    token: String::new(),
                    request,
                })
                .map_err(|_| e)
        });
        let (reply, stop) = match envelope {
            Ok(env) if !same_token(env.token.as_bytes(), shared.token.as_bytes()) => {
                shared.count(|s| s.refused += 1);
                (
                    Reply::Failed {
                        failure: WireFailure::Rejected {
                            message: "refused: the request does not carry this deployment's \
                                      token (DIR/token, readable by the user who started the \
                                      switch)"
                                .into(),
                        },
                    },
                    false,
                )
            }
            Ok(env) => {
                shared.count(|s| s.control_requests += 1);
                let stop = env.request == Request::Shutdown;
                (apply(shared, env.request), stop)
            }
            Err(e) => {
                shared.count(|s| s.control_malformed += 1);
                (
                    Reply::Failed {
                        failure: WireFailure::Rejected {
                            message: format!("bad request: {e}"),
                        },
                    },
                    false,
                )
            }
        };
        if matches!(reply, Reply::Failed { .. }) {
            shared.count(|s| s.control_failed += 1);
        }
        let bytes = Arc::new(serde_json::to_vec(&reply).unwrap_or_default());
        cache.put(&from, id, bytes.clone());
        send_reply(sock, &from, id, &bytes);
        if stop {
            shared.stop.store(true, Ordering::SeqCst);
        }
    }
}

pub(super) fn send_reply(sock: &UnixDatagram, to: &Path, id: u64, payload: &[u8]) {
    for d in control_datagrams(1, id, payload) {
        if let Err(e) = sock.send_to(&d, to) {
            log::debug!("switch control: replying to {}: {e}", to.display());
            return;
        }
    }
}

pub(super) fn apply(shared: &Shared, req: Request) -> Reply {
    let failed = |e: ControlFailure| Reply::Failed {
        failure: WireFailure::from(&e),
    };
    match req {
        Request::Write { ops } => {
            let ops: Vec<ControlOp> = ops.iter().map(ControlOp::from).collect();
            if ops.is_empty() {
                return Reply::Ok;
            }
            match shared.switch().apply_batch(&ops) {
                Ok(()) => Reply::Ok,
                Err(e) => failed(e.into()),
            }
        }
        Request::RegisterWrite { name, index, value } => {
            match shared.switch().register_write(&name, index, value) {
                Ok(()) => Reply::Ok,
                Err(e) => failed(e.into()),
            }
        }
        Request::RegisterRead { name, index } => {
            match shared.switch().register_read(&name, index) {
                Ok(value) => Reply::Value { value },
                Err(e) => failed(e.into()),
            }
        }
        Request::MeterWrite { name, index, cell } => {
            match shared.switch().meter_write(
                &name,
                index,
                tandem_switch::MeterCell::from_words(&cell),
            ) {
                Ok(()) => Reply::Ok,
                Err(e) => failed(e.into()),
            }
        }
        Request::MeterRead { name, index } => match shared.switch().meter_read(&name, index) {
            Ok(c) => Reply::Meter { cell: c.words() },
            Err(e) => failed(e.into()),
        },
        Request::Info => {
            let mut info = shared.info.clone();
            info.server_attached = shared.server_attached.load(Ordering::SeqCst);
            Reply::Info { info }
        }
        Request::Stats => Reply::Stats {
            stats: shared.stats(),
        },
        Request::Reset => match Switch::from_source_with(&shared.program, shared.options) {
            Ok(sw) => {
                match shared.sw.write() {
                    Ok(mut g) => *g = sw,
                    Err(p) => *p.into_inner() = sw,
                }
                shared.generation.fetch_add(1, Ordering::SeqCst);
                shared.count(|s| s.resets += 1);
                // The membership registers are the switch's own: written again.
                if let Err(e) = shared.cluster().install(&shared.switch()) {
                    return failed(ControlFailure::Rejected(e.to_string()));
                }
                Reply::Ok
            }
            Err(e) => failed(ControlFailure::Rejected(format!("reloading: {e}"))),
        },
        Request::Member { add, remove } => {
            let mut c = shared.cluster();
            match c.change(&shared.switch(), add, remove) {
                Ok(stats) => Reply::Member {
                    group: c.group(),
                    stats,
                },
                Err(e) => failed(ControlFailure::Rejected(e)),
            }
        }
        Request::Shutdown => Reply::Ok,
    }
}

/// A packet on its way through the server.
pub(super) struct Pending {
    /// Who wants a `done`, and the id they gave.
    reply_to: Option<PathBuf>,
    id: u32,
    /// Index of the socket it entered on.
    ingress: usize,
}

pub(super) struct DataPlane {
    shared: Arc<Shared>,
    worker: Worker,
    generation: u64,
    socks: Vec<(u32, UnixDatagram)>,
    index: HashMap<u32, usize>,
    server_idx: usize,
    server_port: u32,
    /// Attached peer per socket index.
    peers: HashMap<usize, PathBuf>,
    pending: BTreeMap<u32, Pending>,
    next_seq: u32,
    /// The NF's timer ticks, on the reference host's rule: the switch sees every packet
    /// first, so it decides when the server runs a tick.
    clock: tandem_host::host::TickClock,
    /// The last tick sent to the server and not yet confirmed, and since when: NF-port
    /// frames wait in `waiting` until it is.
    tick_wait: Option<(u32, Instant)>,
    waiting: VecDeque<Inbound>,
}

impl DataPlane {
    fn new(
        shared: Arc<Shared>,
        socks: Vec<(u32, UnixDatagram)>,
        server_idx: usize,
        timer_interval_ns: u64,
    ) -> DataPlane {
        let worker = shared.switch().worker();
        let generation = shared.generation.load(Ordering::SeqCst);
        let index = socks
            .iter()
            .enumerate()
            .map(|(i, (p, _))| (*p, i))
            .collect();
        let server_port = socks[server_idx].0;
        DataPlane {
            shared,
            worker,
            generation,
            socks,
            index,
            server_idx,
            server_port,
            peers: HashMap::new(),
            pending: BTreeMap::new(),
            next_seq: 0,
            clock: tandem_host::host::TickClock::new(timer_interval_ns),
            tick_wait: None,
            waiting: VecDeque::new(),
        }
    }

    fn run(&mut self, rx: &mpsc::Receiver<Inbound>) {
        while !self.shared.stop.load(Ordering::SeqCst) {
            match rx.recv_timeout(TICK) {
                Ok((idx, bytes, from)) => self.handle(idx, &bytes, from),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if self
                .tick_wait
                .is_some_and(|(_, since)| since.elapsed() > TICK_PATIENCE)
            {
                log::warn!("switch: the server did not confirm a timer tick; going on");
                self.shared.count(|s| s.tick_timeouts += 1);
                self.tick_done();
            }
        }
        let bye = DataHeader::new(Kind::Bye).datagram(&[]);
        for (idx, peer) in &self.peers {
            let _ = self.socks[*idx].1.send_to(&bye, peer);
        }
        // A cluster's other servers (server 0 is the server port's peer above).
        let others: Vec<PathBuf> = self.shared.cluster().servers.values().cloned().collect();
        for peer in others {
            if self.peers.get(&self.server_idx) != Some(&peer) {
                let _ = self.socks[self.server_idx].1.send_to(&bye, &peer);
            }
        }
    }

    fn send(&self, idx: usize, to: &Path, datagram: &[u8]) -> bool {
        match self.socks[idx].1.send_to(datagram, to) {
            Ok(_) => true,
            Err(e) => {
                log::debug!("switch: sending to {}: {e}", to.display());
                self.shared.count(|s| s.send_errors += 1);
                false
            }
        }
    }

    fn handle(&mut self, idx: usize, bytes: &[u8], from: Option<PathBuf>) {
        let Some((h, payload)) = DataHeader::parse(bytes) else {
            self.shared.count(|s| s.malformed += 1);
            return;
        };
        let from_server = idx == self.server_idx
            && from.as_ref().is_some_and(|f| {
                Some(f) == self.peers.get(&self.server_idx)
                    || self.shared.cluster().servers.values().any(|p| p == f)
            });
        match h.kind {
            Kind::Hello => {
                let Some(from) = from else {
                    self.shared.count(|s| s.malformed += 1);
                    return;
                };
                if idx == self.server_idx && !same_token(payload, self.shared.token.as_bytes()) {
                    // Not this deployment's server: refused; the attached one keeps working.
                    self.shared.count(|s| s.refused += 1);
                    let mut bye = DataHeader::new(Kind::Bye);
                    bye.flags = flags::ERROR;
                    bye.id = h.id;
                    self.send(idx, &from, &bye.datagram(&[]));
                    return;
                }
                if idx == self.server_idx {
                    // A restarted server replaces the old one with its id (the hello's
                    // port field), which is told to stop.
                    let old = self.shared.cluster().servers.insert(h.port, from.clone());
                    let old = match h.port {
                        0 => self.peers.get(&idx).cloned(),
                        _ => old,
                    };
                    if let Some(old) = old.filter(|p| *p != from) {
                        self.send(idx, &old, &DataHeader::new(Kind::Bye).datagram(&[]));
                    }
                    if h.port != 0 {
                        let mut w = DataHeader::new(Kind::Welcome);
                        w.port = self.socks[idx].0;
                        w.id = h.id;
                        self.shared.server_attached.store(true, Ordering::SeqCst);
                        self.send(idx, &from, &w.datagram(&[]));
                        return;
                    }
                }
                let mut w = DataHeader::new(Kind::Welcome);
                w.port = self.socks[idx].0;
                w.id = h.id;
                if idx == self.server_idx {
                    self.shared.server_attached.store(true, Ordering::SeqCst);
                }
                self.peers.insert(idx, from.clone());
                self.send(idx, &from, &w.datagram(&[]));
            }
            Kind::Frame if idx == self.server_idx => {
                if from_server {
                    self.back_from_server(&h, payload, from.as_deref());
                } else {
                    self.shared.count(|s| s.foreign += 1);
                }
            }
            Kind::Frame => {
                if self.tick_wait.is_some() {
                    // After a tick the server has not confirmed yet.
                    self.waiting.push_back((idx, bytes.to_vec(), from));
                    return;
                }
                if self.start_ticks(h.ts_ns) {
                    // It enters once the server confirmed the ticks its time passed.
                    self.waiting.push_front((idx, bytes.to_vec(), from));
                    return;
                }
                let reply_to = from.filter(|_| h.flags & flags::ACK != 0);
                self.ingress(idx, &h, payload, reply_to);
            }
            Kind::TickDone if from_server => {
                if self.tick_wait.is_some_and(|(id, _)| id == h.id) {
                    if h.flags & flags::ERROR != 0 {
                        self.shared.count(|s| s.tick_timeouts += 1);
                    }
                    self.tick_done();
                }
            }
            Kind::TickDone => self.shared.count(|s| s.foreign += 1),
            Kind::Consumed if from_server => {
                let p = self.pending.remove(&h.id);
                let (port, fl) = if h.flags & flags::ERROR != 0 {
                    (NO_PORT, flags::VIA_SERVER | flags::ERROR)
                } else {
                    // The NF itself sent the packet to the server port.
                    (self.server_port, 0)
                };
                self.done(p, port, fl, h.ts_ns);
            }
            Kind::Consumed => self.shared.count(|s| s.foreign += 1),
            _ => self.shared.count(|s| s.malformed += 1),
        }
    }

    /// Sends the server the timer ticks due at packet time `ts_ns`, one datagram each;
    /// whether any was sent (then the packet waits for the last one's `tick done`). Without
    /// an attached server the ticks are lost (counted).
    fn start_ticks(&mut self, ts_ns: u64) -> bool {
        let due = self.clock.due(ts_ns);
        let n = due.count() as u64;
        if n == 0 {
            return false;
        }
        let Some(server) = self.peers.get(&self.server_idx).cloned() else {
            self.shared.count(|s| s.ticks_lost += n);
            return false;
        };
        let mut last = None;
        for t in due {
            let mut h = DataHeader::new(Kind::Tick);
            h.id = self.next_seq;
            h.ts_ns = t;
            self.next_seq = self.next_seq.wrapping_add(1);
            if self.send(self.server_idx, &server, &h.datagram(&[])) {
                self.shared.count(|s| s.ticks += 1);
                last = Some(h.id);
            } else {
                self.shared.count(|s| s.ticks_lost += 1);
            }
        }
        self.tick_wait = last.map(|id| (id, Instant::now()));
        self.tick_wait.is_some()
    }

    /// The awaited tick is over: the frames that waited for it enter, in order (one of them
    /// may start the next ticks, and the rest wait again).
    fn tick_done(&mut self) {
        self.tick_wait = None;
        while self.tick_wait.is_none() {
            let Some((idx, bytes, from)) = self.waiting.pop_front() else {
                break;
            };
            self.handle(idx, &bytes, from);
        }
    }

    fn run_worker(&mut self, port: u32, frame: &[u8], ts_ns: u64) -> Option<(u32, Vec<u8>)> {
        let g = self.shared.generation.load(Ordering::SeqCst);
        if g != self.generation {
            self.worker = self.shared.switch().worker();
            self.generation = g;
        }
        self.worker
            .process_at(port, frame, ts_ns)
            .map(|(p, b)| (p, b.to_vec()))
    }

    fn ingress(&mut self, idx: usize, h: &DataHeader, frame: &[u8], reply_to: Option<PathBuf>) {
        let port = self.socks[idx].0;
        self.shared
            .count(|s| *s.frames_in.entry(port).or_default() += 1);
        let pending = Pending {
            reply_to,
            id: h.id,
            ingress: idx,
        };
        // The membership changes between packets, not during one.
        let shared = self.shared.clone();
        let mut cluster = shared.cluster();
        cluster.arrive(frame);
        match self.run_worker(port, frame, h.ts_ns) {
            None => {
                self.shared.count(|s| s.dropped += 1);
                self.done(Some(pending), NO_PORT, 0, h.ts_ns);
            }
            Some((p, out)) if p == self.server_port => {
                let server = if cluster.dispatching() {
                    let id = cluster.route(&out);
                    cluster.servers.get(&id).cloned()
                } else {
                    self.peers.get(&self.server_idx).cloned()
                };
                drop(cluster);
                let Some(server) = server else {
                    self.shared.count(|s| s.unattached += 1);
                    self.done(Some(pending), NO_PORT, flags::ERROR, h.ts_ns);
                    return;
                };
                let seq = self.next_seq;
                self.next_seq = self.next_seq.wrapping_add(1);
                let mut sh = DataHeader::new(Kind::Frame);
                sh.port = port;
                sh.id = seq;
                sh.ts_ns = h.ts_ns;
                if self.pending.len() >= MAX_PENDING {
                    self.pending.pop_first();
                    self.shared.count(|s| s.lost += 1);
                }
                self.pending.insert(seq, pending);
                if self.send(self.server_idx, &server, &sh.datagram(&out)) {
                    self.shared.count(|s| s.to_server += 1);
                } else {
                    let p = self.pending.remove(&seq);
                    self.done(p, NO_PORT, flags::ERROR, h.ts_ns);
                }
            }
            Some((p, out)) => {
                self.emit(p, &out, h.id, h.ts_ns);
                self.done(Some(pending), p, 0, h.ts_ns);
            }
        }
    }

    fn back_from_server(&mut self, h: &DataHeader, frame: &[u8], from: Option<&Path>) {
        let server_port = self.server_port;
        self.shared
            .count(|s| *s.frames_in.entry(server_port).or_default() += 1);
        let pending = self.pending.remove(&h.id);
        let mut stamped = frame.to_vec();
        if let Some(from) = from {
            self.shared.cluster().stamp(&mut stamped, from);
        }
        let frame = &stamped[..];
        match self.run_worker(server_port, frame, h.ts_ns) {
            None => {
                self.shared.count(|s| s.dropped += 1);
                self.done(pending, NO_PORT, flags::VIA_SERVER, h.ts_ns);
            }
            Some((p, _)) if p == server_port => {
                self.shared.count(|s| s.loops += 1);
                self.done(pending, NO_PORT, flags::VIA_SERVER | flags::ERROR, h.ts_ns);
            }
            Some((p, out)) => {
                let id = pending.as_ref().map(|p| p.id).unwrap_or(0);
                self.emit(p, &out, id, h.ts_ns);
                self.done(pending, p, flags::VIA_SERVER, h.ts_ns);
            }
        }
    }

    /// Sends a frame leaving `port` to the client attached there.
    fn emit(&mut self, port: u32, frame: &[u8], id: u32, ts_ns: u64) {
        let peer = self
            .index
            .get(&port)
            .and_then(|i| self.peers.get(i).map(|p| (*i, p)));
        let Some((idx, peer)) = peer else {
            self.shared.count(|s| s.unattached += 1);
            return;
        };
        let mut h = DataHeader::new(Kind::Frame);
        h.port = port;
        h.id = id;
        h.ts_ns = ts_ns;
        if self.send(idx, peer, &h.datagram(frame)) {
            self.shared
                .count(|s| *s.frames_out.entry(port).or_default() += 1);
        }
    }

    /// Tells the client that asked that its packet has left (`port`) or was dropped.
    fn done(&self, pending: Option<Pending>, port: u32, fl: u32, ts_ns: u64) {
        let Some(Pending {
            reply_to: Some(to),
            id,
            ingress,
        }) = pending
        else {
            return;
        };
        let mut h = DataHeader::new(Kind::Done);
        h.port = port;
        h.id = id;
        h.flags = fl;
        h.ts_ns = ts_ns;
        self.send(ingress, &to, &h.datagram(&[]));
    }
}
