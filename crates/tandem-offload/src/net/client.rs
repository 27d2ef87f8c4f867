//! PortClient: a traffic client attached to NF ports.

use super::*;

/// What a [`PortClient`] receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A frame that left the switch on `port`.
    Frame {
        /// Egress port.
        port: u32,
        /// The id of the packet it came from (0 when unknown).
        id: u32,
        /// The packet's time.
        ts_ns: u64,
        /// The frame.
        frame: Vec<u8>,
    },
    /// A packet sent with [`flags::ACK`] has left (`port`) or was dropped (`None`).
    Done {
        /// Egress port.
        port: Option<u32>,
        /// Its id.
        id: u32,
        /// [`flags`].
        flags: u32,
    },
    /// The switch stops.
    Bye,
}

/// What became of one packet ([`PortClient::process`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Frames that reached this client (egress port, frame).
    pub outputs: Vec<(u32, Vec<u8>)>,
    /// Where the packet left, `None` when it was dropped.
    pub egress: Option<u32>,
    /// Whether it went through the server.
    pub via_server: bool,
    /// Whether it could not be finished (no server, server error).
    pub error: bool,
}

/// A traffic source and sink attached to the switch's NF ports: sends frames into ports and
/// receives what leaves them.
pub struct PortClient {
    sock: UnixDatagram,
    _file: Files,
    dir: PathBuf,
    next_id: u32,
    buf: Vec<u8>,
    /// Frames already received for a packet whose `done` has not come yet (a
    /// [`PortClient::wait_for`] that timed out).
    partial: Option<(u32, Outcome)>,
    /// Datagrams that were not ours.
    pub malformed: u64,
}

impl PortClient {
    /// A client of the switch serving in `dir` (not attached to any port yet).
    pub fn connect(dir: &Path) -> Result<PortClient, OffloadError> {
        let dir = existing_dir(dir)?;
        let path = unique_path(&dir, "client");
        let sock = bind_socket(&path)?;
        Ok(PortClient {
            sock,
            _file: Files(vec![path]),
            dir,
            next_id: 1,
            buf: vec![0; RECV_BUF],
            partial: None,
            malformed: 0,
        })
    }

    /// Attaches to `ports` (frames leaving them come to this client).
    pub fn attach(&mut self, ports: &[u32], patience: Duration) -> Result<(), OffloadError> {
        let stop = AtomicBool::new(false);
        for &p in ports {
            attach(&self.sock, &port_socket(&self.dir, p), patience, &stop, 0)?;
        }
        Ok(())
    }

    /// Sends a frame into `port` with the packet time `ts_ns`; with `ack` the switch
    /// answers [`Event::Done`]. Returns the packet's id.
    pub fn send(
        &mut self,
        port: u32,
        frame: &[u8],
        ts_ns: u64,
        ack: bool,
    ) -> Result<u32, OffloadError> {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        let mut h = DataHeader::new(Kind::Frame);
        h.port = port;
        h.id = id;
        h.ts_ns = ts_ns;
        h.flags = if ack { flags::ACK } else { 0 };
        let to = port_socket(&self.dir, port);
        self.sock
            .send_to(&h.datagram(frame), &to)
            .map_err(|e| path_err(&to, e))?;
        Ok(id)
    }

    /// The next event, waiting at most `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Result<Option<Event>, OffloadError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(None);
            }
            let _ = self
                .sock
                .set_read_timeout(Some(left.max(Duration::from_millis(1))));
            let Some((n, _)) =
                recv(&self.sock, &mut self.buf).map_err(|e| os_err("receiving", e))?
            else {
                continue;
            };
            let Some((h, payload)) = DataHeader::parse(&self.buf[..n]) else {
                self.malformed += 1;
                continue;
            };
            return Ok(Some(match h.kind {
                Kind::Frame => Event::Frame {
                    port: h.port,
                    id: h.id,
                    ts_ns: h.ts_ns,
                    frame: payload.to_vec(),
                },
                Kind::Done => Event::Done {
                    port: (h.port != NO_PORT).then_some(h.port),
                    id: h.id,
                    flags: h.flags,
                },
                Kind::Bye => Event::Bye,
                _ => {
                    self.malformed += 1;
                    continue;
                }
            }));
        }
    }

    /// Runs one packet to completion: sends it with [`flags::ACK`] and collects what leaves
    /// the switch until its `done`. `None`: no `done` within `timeout`.
    pub fn process(
        &mut self,
        port: u32,
        frame: &[u8],
        ts_ns: u64,
        timeout: Duration,
    ) -> Result<Option<Outcome>, OffloadError> {
        let id = self.send(port, frame, ts_ns, true)?;
        self.wait_for(id, timeout)
    }

    /// Collects what leaves the switch for the packet `id` (sent with `ack`) until its
    /// `done`. `None`: no `done` within `timeout`; a later call for the same `id` goes on
    /// collecting (frames already received are kept).
    pub fn wait_for(
        &mut self,
        id: u32,
        timeout: Duration,
    ) -> Result<Option<Outcome>, OffloadError> {
        let deadline = Instant::now() + timeout;
        let mut out = match self.partial.take() {
            Some((i, o)) if i == id => o,
            _ => Outcome::default(),
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left)? {
                None => {
                    self.partial = Some((id, out));
                    return Ok(None);
                }
                Some(Event::Frame {
                    port, id: i, frame, ..
                }) if i == id => out.outputs.push((port, frame)),
                Some(Event::Done {
                    port,
                    id: i,
                    flags: f,
                }) if i == id => {
                    out.egress = port;
                    out.via_server = f & flags::VIA_SERVER != 0;
                    out.error = f & flags::ERROR != 0;
                    return Ok(Some(out));
                }
                Some(Event::Bye) => {
                    return Err(OffloadError::Switch("the switch stopped".into()));
                }
                Some(_) => {}
            }
        }
    }
}
