//! ServerDaemon: the server process (a ServerHost behind the server socket).

use super::*;

/// Builds the control plane a [`ServerDaemon`] uses from its [`RemoteControl`] (e.g. to
/// inject faults with [`crate::FaultyControl`]).
pub type RemoteWrap = Arc<dyn Fn(RemoteControl) -> Box<dyn ControlPlane> + Send + Sync>;

/// How a [`ServerDaemon`] reaches the switch.
#[derive(Clone)]
pub struct ServerConfig {
    /// The switch's socket directory.
    pub dir: PathBuf,
    /// How long one control request waits for its reply (then it is retried).
    pub control_timeout: Duration,
    /// How long to wait for the switch to answer at start.
    pub connect_timeout: Duration,
    /// Reload the switch program before installing the state (a restarted server must).
    pub reset_switch: bool,
    /// Wraps the control plane (`None`: the [`RemoteControl`] itself).
    pub wrap: Option<RemoteWrap>,
    /// This server's id behind a cluster switch (`super::cluster`): 0 resets the switch and
    /// installs the state; any other joins (no reset, its install muted).
    pub server_id: u32,
    /// The journal of committed updates (crash recovery, `crate::journal`): when the file
    /// exists at start the server continues from it (no reset: the switch keeps what it
    /// owns); a clean stop removes it. `None`: no journal (a restart starts afresh).
    pub journal: Option<PathBuf>,
}

impl std::fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerConfig")
            .field("dir", &self.dir)
            .field("control_timeout", &self.control_timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("reset_switch", &self.reset_switch)
            .field("wrap", &self.wrap.is_some())
            .field("server_id", &self.server_id)
            .field("journal", &self.journal)
            .finish()
    }
}

impl ServerConfig {
    /// Defaults for `dir`: 2 s per request, 30 s to find the switch, reset.
    pub fn new(dir: impl Into<PathBuf>) -> ServerConfig {
        ServerConfig {
            dir: dir.into(),
            control_timeout: Duration::from_secs(2),
            connect_timeout: Duration::from_secs(30),
            reset_switch: true,
            wrap: None,
            server_id: 0,
            journal: None,
        }
    }
}

/// The server process: a [`ServerHost`] that gets its frames from the switch's server port
/// and keeps the switch's state through a [`RemoteControl`].
pub struct ServerDaemon {
    /// What a restart recovered from the journal (`None`: no journal was there).
    recovered: Option<crate::system::Recovered>,
    stop: Arc<AtomicBool>,
    stats: Arc<Mutex<ServerStats>>,
    thread: Option<JoinHandle<Result<(), OffloadError>>>,
    path: PathBuf,
}

impl ServerDaemon {
    /// Finds the switch serving in `config.dir` (it must run the same compilation), resets
    /// it, builds the server host on `initial` (installing the state on the switch) and
    /// attaches to the server port. Returns once frames can flow.
    pub fn start(
        bundle: &Bundle,
        initial: &serde_json::Value,
        options: RunOptions,
        config: &ServerConfig,
    ) -> Result<ServerDaemon, OffloadError> {
        super::deployable(bundle)?;
        let dir = prepare_dir(&config.dir)?;
        let mut rc = RemoteControl::connect(&dir, config.control_timeout)?;
        let info = rc.wait_for_switch(config.connect_timeout)?;
        if info.ir_digest != bundle.manifest.ir_digest {
            return Err(OffloadError::Manifest(format!(
                "the switch in {} runs {} (IR {}), this server {} (IR {}): serve the same compiled directory",
                dir.display(),
                info.nf,
                info.ir_digest,
                bundle.manifest.nf,
                bundle.manifest.ir_digest
            )));
        }
        // A journal left by a killed server: continue from it on the running switch.
        let recovering =
            config.server_id == 0 && config.journal.as_ref().is_some_and(|j| j.is_file());
        if config.reset_switch && config.server_id == 0 && !recovering {
            rc.reset()?;
        }
        let journal = config.journal.clone().filter(|_| config.server_id == 0);
        let server_id = config.server_id;
        let path = unique_path(&dir, "server");
        let sock = bind_socket(&path)?;
        let files = Files(vec![path.clone()]);
        let switch_sock = server_socket(&dir);
        let stop = Arc::new(AtomicBool::new(false));
        let stats = Arc::new(Mutex::new(ServerStats::default()));
        let (ready_tx, ready_rx) =
            mpsc::channel::<Result<Option<crate::system::Recovered>, OffloadError>>();
        let bundle = bundle.clone();
        let initial = initial.clone();
        let patience = config.connect_timeout;
        let cp: Box<dyn ControlPlane> = match &config.wrap {
            Some(w) => w(rc),
            None => Box::new(rc),
        };
        let thread = {
            let stop = stop.clone();
            let stats = stats.clone();
            std::thread::Builder::new()
                .name("server".into())
                .spawn(move || {
                    let _files = files;
                    let host = match (&journal, server_id) {
                        (Some(j), 0) => ServerHost::recover(&bundle, &initial, &options, cp, j)
                            .map(|(h, r)| (h, recovering.then_some(r))),
                        (None, 0) => {
                            ServerHost::new(&bundle, &initial, &options, cp).map(|h| (h, None))
                        }
                        _ => crate::cluster::join_with(&bundle, &initial, &options, cp)
                            .map(|h| (h, None)),
                    };
                    let start = host.and_then(|host| {
                        attach(&sock, &switch_sock, patience, &stop, server_id)?;
                        Ok(host)
                    });
                    let mut host = match start {
                        Ok((h, r)) => {
                            let _ = ready_tx.send(Ok(r));
                            h
                        }
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                            return Ok(());
                        }
                    };
                    let r = server_loop(&mut host, &sock, &switch_sock, &stop, &stats, server_id);
                    if r.is_ok() {
                        // A clean stop: nothing to recover from.
                        host.close_journal()?;
                    }
                    r
                })
                .map_err(|e| os_err("starting a thread", e))?
        };
        match ready_rx.recv() {
            Ok(Ok(recovered)) => Ok(ServerDaemon {
                recovered,
                stop,
                stats,
                thread: Some(thread),
                path,
            }),
            Ok(Err(e)) => {
                let _ = thread.join();
                Err(e)
            }
            Err(_) => {
                let _ = thread.join();
                Err(OffloadError::Server(
                    "the server thread ended at start".into(),
                ))
            }
        }
    }

    /// What this server recovered from a journal a killed server left (`None`: it started
    /// afresh).
    pub fn recovered(&self) -> Option<&crate::system::Recovered> {
        self.recovered.as_ref()
    }

    /// The server's own data socket (the switch sends server-port frames there).
    pub fn data_path(&self) -> &Path {
        &self.path
    }

    /// Counters so far.
    pub fn stats(&self) -> ServerStats {
        match self.stats.lock() {
            Ok(s) => s.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    /// Whether the daemon still serves.
    pub fn is_running(&self) -> bool {
        !self.stop.load(Ordering::SeqCst)
    }

    /// Asks the server to stop.
    pub fn shutdown(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Waits until the server has stopped (on `bye` from the switch or
    /// [`ServerDaemon::shutdown`]); an error if it stopped because the switch went away.
    pub fn wait(mut self) -> Result<ServerStats, OffloadError> {
        let r = match self.thread.take().map(JoinHandle::join) {
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(OffloadError::Server("the server thread panicked".into())),
            None => Ok(()),
        };
        r.map(|()| self.stats())
    }
}

impl Drop for ServerDaemon {
    fn drop(&mut self) {
        self.shutdown();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Sends `hello` to `to` until it answers `welcome`.
pub(super) fn attach(
    sock: &UnixDatagram,
    to: &Path,
    patience: Duration,
    stop: &AtomicBool,
    id: u32,
) -> Result<(), OffloadError> {
    let t0 = Instant::now();
    let dir = to.parent().unwrap_or(Path::new("."));
    let mut buf = vec![0u8; RECV_BUF];
    sock.set_read_timeout(Some(Duration::from_millis(200)))
        .map_err(|e| os_err("socket", e))?;
    loop {
        if stop.load(Ordering::SeqCst) || t0.elapsed() > patience {
            return Err(OffloadError::Switch(format!(
                "{} did not answer hello",
                to.display()
            )));
        }
        // The deployment token proves this is the configured server (see `token`).
        let token = load_token(dir).unwrap_or_default();
        // `port`: a server's id behind a cluster switch (0 for one server and clients).
        let mut hello = DataHeader::new(Kind::Hello);
        hello.port = id;
        let hello = hello.datagram(token.as_bytes());
        if let Err(e) = sock.send_to(&hello, to) {
            log::debug!("hello to {}: {e}", to.display());
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let wait = Instant::now();
        while wait.elapsed() < Duration::from_millis(500) {
            match recv(sock, &mut buf) {
                Ok(Some((n, from))) if from.as_deref() == Some(to) => {
                    match DataHeader::parse(&buf[..n]) {
                        Some((h, _)) if h.kind == Kind::Welcome => return Ok(()),
                        Some((h, _)) if h.kind == Kind::Bye && h.flags & flags::ERROR != 0 => {
                            return Err(OffloadError::Switch(format!(
                                "{} refused this server: it did not present the deployment's \
                                 token ({}, written by `tandem switch serve`)",
                                to.display(),
                                token_file(dir).display()
                            )));
                        }
                        _ => {}
                    }
                }
                Ok(Some(_)) => {}
                Ok(None) => {}
                Err(e) => return Err(path_err(to, e)),
            }
        }
    }
}

pub(super) fn server_loop(
    host: &mut ServerHost,
    sock: &UnixDatagram,
    switch: &Path,
    stop: &AtomicBool,
    stats: &Mutex<ServerStats>,
    id: u32,
) -> Result<(), OffloadError> {
    let dir = switch.parent().unwrap_or(Path::new(".")).to_path_buf();
    // The switch we are attached to, by its token: a restarted switch writes a new one.
    let mut attached_token = load_token(&dir);
    let mut checked = Instant::now();
    let gone = AtomicBool::new(false);
    let count = |f: &dyn Fn(&mut ServerStats)| {
        if let Ok(mut s) = stats.lock() {
            f(&mut s);
        }
    };
    let send = |datagram: &[u8]| -> Result<(), OffloadError> {
        match sock.send_to(datagram, switch) {
            Ok(_) => Ok(()),
            Err(e) if is_gone(&e) => {
                // A killed switch: wait for a new one (`switch_restarted` below); the
                // packet this answered is lost with the switch.
                if !gone.swap(true, Ordering::SeqCst) {
                    log::warn!(
                        "server: the switch went away ({}: {e}); waiting for it to restart",
                        switch.display()
                    );
                }
                Ok(())
            }
            Err(e) => {
                log::warn!("server: sending to {}: {e}", switch.display());
                Ok(())
            }
        }
    };
    // The frame whose updates the switch did not confirm (its header for the answer), and
    // when to try again.
    let mut held: Option<DataHeader> = None;
    // Ticks that came while something was held: run once it is released, in order.
    let mut ticks_waiting: VecDeque<DataHeader> = VecDeque::new();
    let mut next_try = Instant::now();
    let mut buf = vec![0u8; RECV_BUF];
    let _ = sock.set_read_timeout(Some(TICK));
    while !stop.load(Ordering::SeqCst) {
        if checked.elapsed() >= TICK {
            checked = Instant::now();
            let now = load_token(&dir);
            if now.is_some() && now != attached_token {
                // A new switch instance: attach to it and install the primary copy.
                log::warn!("server: the switch restarted; attaching and re-installing the state");
                // The state first: the switch lets traffic reach this server only once it
                // has attached, and by then the tables are whole.
                host.reinstall()?;
                attach(sock, switch, Duration::from_secs(30), stop, id)?;
                held = None;
                ticks_waiting.clear();
                attached_token = now;
                gone.store(false, Ordering::SeqCst);
                count(&|s| s.reinstalls += 1);
                log::warn!("server: re-attached to the restarted switch; its state is installed");
            }
        }
        if let Some(hh) = held.filter(|_| Instant::now() >= next_try) {
            match host.release_held() {
                Ok(out) => {
                    held = None;
                    if let Some(out) = out {
                        log::info!("server: the switch is back; released packet {}", hh.id);
                        count(&|s| s.released += 1);
                        send(&hh.datagram(&out))?;
                    } else if hh.kind == Kind::TickDone {
                        log::info!("server: the switch is back; tick at {} ns done", hh.ts_ns);
                        count(&|s| s.released += 1);
                        send(&hh.datagram(&[]))?;
                    }
                    while held.is_none() {
                        let Some(t) = ticks_waiting.pop_front() else {
                            break;
                        };
                        held = run_tick(host, &t, stats, &send)?;
                    }
                    if held.is_some() {
                        next_try = Instant::now() + HOLD_RETRY;
                    }
                }
                Err(e) => {
                    log::warn!("server: packet {} still held: {e}", hh.id);
                    next_try = Instant::now() + HOLD_RETRY;
                }
            }
        }
        let (n, from) = match recv(sock, &mut buf) {
            Ok(Some(x)) => x,
            Ok(None) => continue,
            Err(e) => {
                log::warn!("server: receiving: {e}");
                std::thread::sleep(TICK);
                continue;
            }
        };
        let Some((h, frame)) = DataHeader::parse(&buf[..n]) else {
            count(&|s| s.malformed += 1);
            continue;
        };
        if from.as_deref() != Some(switch) {
            count(&|s| s.foreign += 1);
            continue;
        }
        match h.kind {
            Kind::Frame => {}
            Kind::Tick if held.is_some() => {
                ticks_waiting.push_back(h);
                continue;
            }
            Kind::Tick => {
                held = run_tick(host, &h, stats, &send)?;
                if held.is_some() {
                    next_try = Instant::now() + HOLD_RETRY;
                }
                continue;
            }
            Kind::Bye => {
                stop.store(true, Ordering::SeqCst);
                break;
            }
            Kind::Welcome => continue,
            _ => {
                count(&|s| s.malformed += 1);
                continue;
            }
        }
        let Ok(in_port) = u16::try_from(h.port) else {
            count(&|s| s.malformed += 1);
            continue;
        };
        count(&|s| s.frames += 1);
        let mut back = DataHeader::new(Kind::Frame);
        back.port = h.port;
        back.id = h.id;
        back.ts_ns = h.ts_ns;
        let err = match host.handle(frame, in_port, h.ts_ns) {
            Ok(Some(out)) => {
                count(&|s| s.returned += 1);
                send(&back.datagram(out))?;
                // What pre wrote (switch-owned registers), for a switch that restarts.
                if let Err(e) = host.read_back_switch_owned() {
                    log::warn!("server: reading back the switch-owned registers: {e}");
                }
                continue;
            }
            Ok(None) => {
                count(&|s| s.consumed += 1);
                back.kind = Kind::Consumed;
                send(&back.datagram(&[]))?;
                continue;
            }
            Err(e) => e,
        };
        let datagram = if held.is_none() && host.is_holding() {
            // Output commit: the frame goes back only once the switch has its updates;
            // the switch keeps the packet pending meanwhile.
            log::warn!("server: packet {} from port {in_port} held: {err}", h.id);
            count(&|s| s.held += 1);
            held = Some(back);
            next_try = Instant::now() + HOLD_RETRY;
            continue;
        } else {
            log::warn!("server: packet {} from port {in_port}: {err}", h.id);
            count(&|s| s.errors += 1);
            back.kind = Kind::Consumed;
            back.flags = flags::ERROR | flags::VIA_SERVER;
            back.datagram(&[])
        };
        send(&datagram)?;
    }
    Ok(())
}

/// Runs the timer tick a `tick` datagram asks for and answers `tick done`; returns the
/// answer to send later when the switch did not confirm the tick's updates (it is held).
fn run_tick(
    host: &mut ServerHost,
    tick: &DataHeader,
    stats: &Mutex<ServerStats>,
    send: &dyn Fn(&[u8]) -> Result<(), OffloadError>,
) -> Result<Option<DataHeader>, OffloadError> {
    let count = |f: &dyn Fn(&mut ServerStats)| {
        if let Ok(mut s) = stats.lock() {
            f(&mut s);
        }
    };
    let mut done = DataHeader::new(Kind::TickDone);
    done.id = tick.id;
    done.ts_ns = tick.ts_ns;
    match host.tick(tick.ts_ns) {
        Ok(()) => {
            count(&|s| s.ticks += 1);
            send(&done.datagram(&[]))?;
            Ok(None)
        }
        Err(e) if host.is_holding() => {
            // As a packet's output commit: the switch hears of the tick once it has it.
            log::warn!("server: tick at {} ns held: {e}", tick.ts_ns);
            count(&|s| {
                s.ticks += 1;
                s.held += 1;
            });
            Ok(Some(done))
        }
        Err(e) => {
            log::warn!("server: tick at {} ns: {e}", tick.ts_ns);
            count(&|s| s.errors += 1);
            done.flags = flags::ERROR;
            send(&done.datagram(&[]))?;
            Ok(None)
        }
    }
}
