//! RemoteControl: the server's control plane, requests with ids, retries, timeouts.

use super::*;

/// Counters of a [`RemoteControl`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RemoteStats {
    /// Requests sent (attempts).
    pub requests: u64,
    /// Requests that got no reply in time.
    pub timeouts: u64,
    /// Replies to other (earlier) requests, ignored.
    pub stale_replies: u64,
    /// Datagrams that were not a reply we understand.
    pub malformed: u64,
}

/// The switch's control plane over `DIR/control.sock`.
pub struct RemoteControl {
    sock: UnixDatagram,
    _file: Files,
    switch: PathBuf,
    timeout: Duration,
    next_id: u64,
    /// The last request that timed out (id, JSON): an identical next request is its retry
    /// and keeps the id.
    timed_out: Option<(u64, Vec<u8>)>,
    reasm: Reassembler,
    buf: Vec<u8>,
    stats: RemoteStats,
    /// The socket directory, where the switch writes its token.
    dir: PathBuf,
    /// `DIR/token`, read once the switch has written it.
    token: Option<String>,
}

impl RemoteControl {
    /// A control-plane client of the switch serving in `dir`; each request waits at most
    /// `timeout` for its reply. Does not contact the switch yet.
    pub fn connect(dir: &Path, timeout: Duration) -> Result<RemoteControl, OffloadError> {
        // Created if missing, so a server may start before its switch.
        let dir = prepare_dir(dir)?;
        let path = unique_path(&dir, "ctl");
        let sock = bind_socket(&path)?;
        // Ids start from the clock, so a restarted client on a reused path does not meet
        // the switch's cached replies for its predecessor's ids.
        let next_id = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
        Ok(RemoteControl {
            sock,
            _file: Files(vec![path]),
            switch: control_socket(&dir),
            timeout: timeout.max(Duration::from_millis(1)),
            next_id,
            timed_out: None,
            reasm: Reassembler::default(),
            buf: vec![0; RECV_BUF],
            stats: RemoteStats::default(),
            dir,
            token: None,
        })
    }

    /// Counters so far.
    pub fn stats(&self) -> RemoteStats {
        self.stats.clone()
    }

    /// Sends one request and waits for its reply (one attempt; once more when the switch
    /// refused the token and `DIR/token` has changed since: a restarted switch).
    pub fn request(&mut self, req: &Request) -> Result<Reply, ControlFailure> {
        let r = self.request_once(req)?;
        if let Reply::Failed {
            failure: WireFailure::Rejected { message },
        } = &r
        {
            if message.starts_with("refused") {
                let now = load_token(&self.dir);
                if now.is_some() && now != self.token {
                    self.token = now;
                    return self.request_once(req);
                }
            }
        }
        Ok(r)
    }

    fn request_once(&mut self, req: &Request) -> Result<Reply, ControlFailure> {
        if self.token.is_none() {
            // The switch writes it at start; a client that came first reads it now.
            self.token = load_token(&self.dir);
        }
        let env = Envelope {
            token: self.token.clone().unwrap_or_default(),
            request: req.clone(),
        };
        let payload = serde_json::to_vec(&env)
            .map_err(|e| ControlFailure::Rejected(format!("encoding the request: {e}")))?;
        let id = match self.timed_out.take() {
            Some((id, p)) if p == payload => id,
            _ => {
                self.next_id = self.next_id.wrapping_add(1);
                self.next_id
            }
        };
        self.stats.requests += 1;
        for d in control_datagrams(0, id, &payload) {
            if let Err(e) = self.sock.send_to(&d, &self.switch) {
                self.timed_out = Some((id, payload));
                return Err(ControlFailure::Transient(format!(
                    "{}: {e}",
                    self.switch.display()
                )));
            }
        }
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.stats.timeouts += 1;
                self.timed_out = Some((id, payload));
                return Err(ControlFailure::Transient(format!(
                    "no reply from the switch within {:?}",
                    self.timeout
                )));
            }
            let _ = self
                .sock
                .set_read_timeout(Some(left.max(Duration::from_millis(1))));
            let (n, from) = match recv(&self.sock, &mut self.buf) {
                Ok(Some(x)) => x,
                Ok(None) => continue,
                Err(e) => {
                    self.timed_out = Some((id, payload));
                    return Err(ControlFailure::Transient(format!("receiving: {e}")));
                }
            };
            let Some(p) = parse_control(&self.buf[..n]).filter(|p| p.kind == 1) else {
                self.stats.malformed += 1;
                continue;
            };
            if p.id != id {
                self.stats.stale_replies += 1;
                continue;
            }
            let from = from.unwrap_or_default();
            let Some(msg) = self.reasm.push(&from, &p) else {
                continue;
            };
            match serde_json::from_slice::<Reply>(&msg) {
                Ok(r) => return Ok(r),
                Err(_) => {
                    self.stats.malformed += 1;
                }
            }
        }
    }

    fn expect_ok(&mut self, req: &Request) -> Result<(), ControlFailure> {
        match self.request(req)? {
            Reply::Ok => Ok(()),
            Reply::Failed { failure } => Err(failure.into()),
            other => Err(ControlFailure::Rejected(format!(
                "unexpected reply {other:?}"
            ))),
        }
    }

    /// What the switch runs.
    pub fn info(&mut self) -> Result<SwitchInfo, ControlFailure> {
        match self.request(&Request::Info)? {
            Reply::Info { info } => Ok(info),
            Reply::Failed { failure } => Err(failure.into()),
            other => Err(ControlFailure::Rejected(format!(
                "unexpected reply {other:?}"
            ))),
        }
    }

    /// Adds server `add` to the switch's group or removes `remove` (`super::cluster`);
    /// returns the group and the membership counters.
    pub fn member(
        &mut self,
        add: Option<u32>,
        remove: Option<u32>,
    ) -> Result<(Vec<u32>, crate::membership::MembershipStats), ControlFailure> {
        match self.request(&Request::Member { add, remove })? {
            Reply::Member { group, stats } => Ok((group, stats)),
            Reply::Failed { failure } => Err(failure.into()),
            other => Err(ControlFailure::Rejected(format!(
                "unexpected reply {other:?}"
            ))),
        }
    }

    /// The switch's counters.
    pub fn switch_stats(&mut self) -> Result<SwitchStats, ControlFailure> {
        match self.request(&Request::Stats)? {
            Reply::Stats { stats } => Ok(stats),
            Reply::Failed { failure } => Err(failure.into()),
            other => Err(ControlFailure::Rejected(format!(
                "unexpected reply {other:?}"
            ))),
        }
    }

    /// Reloads the switch program (empty tables, registers 0).
    pub fn reset(&mut self) -> Result<(), ControlFailure> {
        self.expect_ok(&Request::Reset)
    }

    /// Stops the switch (and the attached server).
    pub fn shutdown(&mut self) -> Result<(), ControlFailure> {
        self.expect_ok(&Request::Shutdown)
    }

    /// Asks for [`SwitchInfo`] until the switch answers or `patience` runs out.
    pub fn wait_for_switch(&mut self, patience: Duration) -> Result<SwitchInfo, OffloadError> {
        let t0 = Instant::now();
        loop {
            match self.info() {
                Ok(i) => return Ok(i),
                Err(ControlFailure::Transient(e)) if t0.elapsed() < patience => {
                    log::debug!("waiting for the switch: {e}");
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => {
                    return Err(OffloadError::Switch(format!(
                        "no switch at {}: {e}",
                        self.switch.display()
                    )))
                }
            }
        }
    }
}

impl ControlPlane for RemoteControl {
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        if ops.is_empty() {
            return Ok(());
        }
        self.expect_ok(&Request::Write {
            ops: ops.iter().map(WireOp::from).collect(),
        })
    }

    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        self.expect_ok(&Request::RegisterWrite {
            name: name.to_string(),
            index,
            value,
        })
    }

    fn meter_write(
        &mut self,
        name: &str,
        index: u32,
        cell: &tandem_switch::MeterCell,
    ) -> Result<(), ControlFailure> {
        self.expect_ok(&Request::MeterWrite {
            name: name.to_string(),
            index,
            cell: cell.words(),
        })
    }

    fn meter_read(
        &mut self,
        name: &str,
        index: u32,
    ) -> Result<tandem_switch::MeterCell, ControlFailure> {
        match self.request(&Request::MeterRead {
            name: name.to_string(),
            index,
        })? {
            Reply::Meter { cell } => Ok(tandem_switch::MeterCell::from_words(&cell)),
            Reply::Failed { failure } => Err(failure.into()),
            other => Err(ControlFailure::Rejected(format!(
                "unexpected reply {other:?}"
            ))),
        }
    }

    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure> {
        match self.request(&Request::RegisterRead {
            name: name.to_string(),
            index,
        })? {
            Reply::Value { value } => Ok(value),
            Reply::Failed { failure } => Err(failure.into()),
            other => Err(ControlFailure::Rejected(format!(
                "unexpected reply {other:?}"
            ))),
        }
    }
}
