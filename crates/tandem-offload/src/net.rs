//! Switch and server as two processes, joined by UNIX datagram sockets in one directory.
//!
//! [`SwitchDaemon`] owns the software switch running `switch.p4`; [`ServerDaemon`] owns a
//! [`ServerHost`] (the server partition on the primary copy) whose control plane is a
//! [`RemoteControl`]. Traffic comes from clients ([`PortClient`], `tandem switch feed`) that
//! attach to the switch's NF ports.
//!
//! ```text
//!                         DIR/control.sock  ◀── control requests ───  RemoteControl
//!   client ──frame──▶ DIR/port0.sock ┐  (JSON; table writes,         (DIR/ctl-<pid>-<n>.sock)
//!   client ◀─frame─── DIR/port1.sock ├─▶ [SwitchDaemon:          register reads/writes)     │
//!      ▲    ◀─done──  …              │    worker thread]                                    │
//!      │                              │        │ frames to the server port                   │
//!      │                              │        ▼ (prefix: in_port, ts)                      │
//!      │                  DIR/server.sock ──────────────▶ [ServerDaemon: ServerHost] ────────┘
//!      │                              ▲        (DIR/server-<pid>-<n>.sock)
//!      └── hello / welcome            └──────── frame back (enters on the server port)
//! ```
//!
//! **Sockets.** The switch binds `DIR/control.sock` (control plane), `DIR/port<N>.sock` for
//! every NF port N it is given, and `DIR/server.sock` for the server port
//! (`manifest.server_port`). Everybody else binds a socket of their own in `DIR` (UNIX
//! datagram replies need a named sender). Stale socket files (nobody bound) are removed at
//! start; a live one is an error. `DIR` is canonicalised, so both sides must name the same
//! directory, however spelled.
//!
//! **Attaching.** A client attaches to port N by sending a `hello` to `DIR/port<N>.sock`; the
//! switch answers `welcome` and from then on sends the frames leaving port N to that client
//! (the last hello wins). The server attaches the same way to `DIR/server.sock`. Frames
//! entering port N may come from anyone; frames entering the server port only from the
//! attached server, and the server accepts frames only from `DIR/server.sock`. A frame
//! leaving a port nobody attached to is counted ([`SwitchStats::unattached`]) and dropped.
//!
//! **Data datagrams** are a 24-byte header and the Ethernet frame (big-endian fields):
//!
//! ```text
//!   0      2     3      4          8          12         16                 24
//!   | "TD" | ver | kind | port u32 | id u32   | flags u32| ts_ns u64         | frame …
//! ```
//!
//! kinds: 0 frame, 1 hello, 2 welcome, 3 done, 4 consumed, 5 bye. `ts_ns` is the packet's
//! time (the NF's clock: the server partition sees it as the packet timestamp, exactly as the
//! reference host does) and travels with the packet. `port` is
//!
//! - client → `port<N>.sock`: ignored (the socket is the port);
//! - switch → client: the egress port;
//! - switch → server: the **ingress port** of the original packet — the prefix carries what
//!   the in-process runtime passes to [`ServerHost::handle`] as `in_port`/`now_ns` (a
//!   hardware switch would put `ingress_port` into the transfer header when the plan needs
//!   it, and the server would take the time from its own clock);
//! - server → switch: echoed, ignored;
//! - done: the egress port, or [`NO_PORT`] when the packet was dropped.
//!
//! A client that sets [`flags::ACK`] on a frame gets a `done` with the frame's `id` once the
//! packet has left the switch (after the output frame, which reaches the same client first
//! when it is attached to the egress port), including packets that went through the server
//! ([`flags::VIA_SERVER`]) or failed ([`flags::ERROR`]: no server attached, server error).
//! That lets a client run packets to completion one at a time without guessing drops from
//! timeouts. On the server leg the switch uses its own ids and remembers the client; the
//! server answers each frame with the frame for post, or `consumed` (the frame carried no
//! transfer header for the server, or the server partition failed).
//!
//! **Control datagrams** are a 16-byte header and a piece of a JSON message ([`Request`],
//! [`Reply`]):
//!
//! ```text
//!   0      2     3      4         12          14           16
//!   | "TC" | ver | kind | id u64  | part u16  | parts u16  | JSON bytes …
//! ```
//!
//! kind 0 request, 1 reply; a message longer than 32 KiB is sent in parts and reassembled
//! (one message per sender at a time). Every request carries a fresh id; a reply with any
//! other id is stale and ignored. A request that timed out is a
//! [`ControlFailure::Transient`], so the synchronisation's retry policy retries it; the
//! retry of a timed-out request reuses its id, and the switch answers a repeated id from its
//! reply cache without applying it again — a late reply is never taken for the answer to the
//! next request, and a retried insert is not applied twice. Each write request is applied as
//! one atomic batch ([`tandem_switch::Switch::apply_batch`]).
//!
//! **Failures.** When the switch does not confirm a packet's updates within the retry policy
//! (an outage), the server holds the packet (output commit) and does not answer it; the
//! switch keeps it pending. Every second the server tries to bring the switch's copies up to
//! date from the primary copy ([`ServerHost::release_held`]) and then sends the packet on.
//! Server-bound frames arriving meanwhile are answered `consumed` with [`flags::ERROR`]: as in
//! one process, no other packet visits the server while one is held.
//!
//! **Threads.** The switch runs one control thread, one reader per data socket and one
//! worker thread that runs every packet (readers hand datagrams over a bounded channel, so
//! packets are processed in arrival order and a flood pushes back). The server runs one
//! thread. Malformed datagrams (too short, unknown kind, bad JSON, foreign senders) are
//! counted and dropped; nothing a peer sends can stop a daemon except `shutdown`.
//!
//! **Stopping.** A `shutdown` control request stops the switch, which says `bye` to every
//! attached peer; the server stops on `bye`. Killing a process (SIGINT) leaves its socket
//! files, which the next start removes.
//!
//! **Not here.** Keys that a full switch table could not take are served whole on the server
//! in the one-process runtime ([`crate::Offloaded`]); here such packets still enter the
//! switch (the server cannot see packets before the switch does), so runs that overflow a
//! table are not exact.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tandem_switch::{ControlOp, KeyMatch, Switch, TableEntry, Worker};

use crate::control::{ControlFailure, ControlPlane};
use crate::system::{Bundle, RunOptions, ServerHost};
use crate::OffloadError;

/// Length of the data-plane header.
pub const DATA_HEADER_LEN: usize = 24;
/// Length of the control-plane header.
pub const CONTROL_HEADER_LEN: usize = 16;
/// Wire format version (both headers).
pub const WIRE_VERSION: u8 = 1;
/// `port` of a `done` for a dropped packet.
pub const NO_PORT: u32 = u32::MAX;

const DATA_MAGIC: [u8; 2] = *b"TD";
const CONTROL_MAGIC: [u8; 2] = *b"TC";
/// JSON bytes per control datagram.
const CONTROL_CHUNK: usize = 32 * 1024;
/// Parts of one control message at most (64 MiB).
const MAX_PARTS: u16 = 2048;
/// Receive buffer; a datagram that fills it is taken as oversized.
const RECV_BUF: usize = 256 * 1024;
/// How often blocked threads look at the stop flag.
const TICK: Duration = Duration::from_millis(100);
/// How long a send may wait for a full receiver.
const SEND_TIMEOUT: Duration = Duration::from_secs(1);
/// How often a server holding a packet tries to bring the switch up to date again.
const HOLD_RETRY: Duration = Duration::from_secs(1);
/// Server-leg packets the switch remembers at most.
const MAX_PENDING: usize = 65_536;

/// Flags of data datagrams.
pub mod flags {
    /// frame (client → switch): send a `done` to the sender when the packet has left.
    pub const ACK: u32 = 1;
    /// done, consumed: the packet went through the server.
    pub const VIA_SERVER: u32 = 2;
    /// done, consumed: the packet could not be finished.
    pub const ERROR: u32 = 4;
}

/// What a data datagram is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An Ethernet frame follows.
    Frame = 0,
    /// Attach the sender to this port.
    Hello = 1,
    /// The switch's answer to a hello.
    Welcome = 2,
    /// A packet has left the switch (or was dropped).
    Done = 3,
    /// The server took a frame and sends nothing back.
    Consumed = 4,
    /// The switch stops.
    Bye = 5,
}

impl Kind {
    fn from_u8(b: u8) -> Option<Kind> {
        Some(match b {
            0 => Kind::Frame,
            1 => Kind::Hello,
            2 => Kind::Welcome,
            3 => Kind::Done,
            4 => Kind::Consumed,
            5 => Kind::Bye,
            _ => return None,
        })
    }
}

/// The header of a data datagram (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataHeader {
    /// What the datagram is.
    pub kind: Kind,
    /// Port (meaning depends on direction and kind).
    pub port: u32,
    /// Packet id chosen by the sender of the frame, echoed in answers.
    pub id: u32,
    /// [`flags`].
    pub flags: u32,
    /// The packet's time, ns.
    pub ts_ns: u64,
}

impl DataHeader {
    /// A header of `kind` with every other field 0.
    pub fn new(kind: Kind) -> DataHeader {
        DataHeader {
            kind,
            port: 0,
            id: 0,
            flags: 0,
            ts_ns: 0,
        }
    }

    /// The header followed by `payload`.
    pub fn datagram(&self, payload: &[u8]) -> Vec<u8> {
        let mut b = Vec::with_capacity(DATA_HEADER_LEN + payload.len());
        b.extend_from_slice(&DATA_MAGIC);
        b.push(WIRE_VERSION);
        b.push(self.kind as u8);
        b.extend_from_slice(&self.port.to_be_bytes());
        b.extend_from_slice(&self.id.to_be_bytes());
        b.extend_from_slice(&self.flags.to_be_bytes());
        b.extend_from_slice(&self.ts_ns.to_be_bytes());
        b.extend_from_slice(payload);
        b
    }

    /// Splits a datagram into header and payload; `None` when it is not one of ours.
    pub fn parse(buf: &[u8]) -> Option<(DataHeader, &[u8])> {
        if buf.len() < DATA_HEADER_LEN || buf[..2] != DATA_MAGIC || buf[2] != WIRE_VERSION {
            return None;
        }
        let u32_at = |i: usize| u32::from_be_bytes([buf[i], buf[i + 1], buf[i + 2], buf[i + 3]]);
        let mut ts = [0u8; 8];
        ts.copy_from_slice(&buf[16..24]);
        Some((
            DataHeader {
                kind: Kind::from_u8(buf[3])?,
                port: u32_at(4),
                id: u32_at(8),
                flags: u32_at(12),
                ts_ns: u64::from_be_bytes(ts),
            },
            &buf[DATA_HEADER_LEN..],
        ))
    }
}

// ---------------------------------------------------------------------------------------
// Control-plane messages: mirrors of the switch's control types.

/// [`KeyMatch`] on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireMatch {
    /// Exact value.
    Exact(u64),
    /// Value and prefix length.
    Lpm(u64, u32),
    /// Value and mask.
    Ternary(u64, u64),
    /// Low and high, inclusive.
    Range(u64, u64),
    /// Wildcard.
    Any,
}

impl From<&KeyMatch> for WireMatch {
    fn from(k: &KeyMatch) -> Self {
        match *k {
            KeyMatch::Exact(v) => WireMatch::Exact(v),
            KeyMatch::Lpm(v, l) => WireMatch::Lpm(v, l),
            KeyMatch::Ternary(v, m) => WireMatch::Ternary(v, m),
            KeyMatch::Range(a, b) => WireMatch::Range(a, b),
            KeyMatch::Any => WireMatch::Any,
        }
    }
}

impl From<&WireMatch> for KeyMatch {
    fn from(k: &WireMatch) -> Self {
        match *k {
            WireMatch::Exact(v) => KeyMatch::Exact(v),
            WireMatch::Lpm(v, l) => KeyMatch::Lpm(v, l),
            WireMatch::Ternary(v, m) => KeyMatch::Ternary(v, m),
            WireMatch::Range(a, b) => KeyMatch::Range(a, b),
            WireMatch::Any => KeyMatch::Any,
        }
    }
}

/// [`TableEntry`] on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireEntry {
    /// Key matches.
    pub matches: Vec<WireMatch>,
    /// Action name.
    pub action: String,
    /// Action arguments.
    pub args: Vec<u64>,
    /// Priority (ternary/range tables).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
}

impl From<&TableEntry> for WireEntry {
    fn from(e: &TableEntry) -> Self {
        WireEntry {
            matches: e.matches.iter().map(WireMatch::from).collect(),
            action: e.action.clone(),
            args: e.args.clone(),
            priority: e.priority,
        }
    }
}

impl From<&WireEntry> for TableEntry {
    fn from(e: &WireEntry) -> Self {
        TableEntry {
            matches: e.matches.iter().map(KeyMatch::from).collect(),
            action: e.action.clone(),
            args: e.args.clone(),
            priority: e.priority,
        }
    }
}

/// [`ControlOp`] on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum WireOp {
    /// Insert an entry.
    Insert {
        /// Table.
        table: String,
        /// Entry.
        entry: WireEntry,
    },
    /// Replace the action of an entry.
    Modify {
        /// Table.
        table: String,
        /// Entry.
        entry: WireEntry,
    },
    /// Delete an entry.
    Delete {
        /// Table.
        table: String,
        /// Its key.
        matches: Vec<WireMatch>,
        /// Its priority.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        priority: Option<i64>,
    },
    /// Set the default action.
    SetDefault {
        /// Table.
        table: String,
        /// Action.
        action: String,
        /// Arguments.
        args: Vec<u64>,
    },
    /// Remove every entry.
    Clear {
        /// Table.
        table: String,
    },
}

impl From<&ControlOp> for WireOp {
    fn from(op: &ControlOp) -> Self {
        match op {
            ControlOp::Insert { table, entry } => WireOp::Insert {
                table: table.clone(),
                entry: entry.into(),
            },
            ControlOp::Modify { table, entry } => WireOp::Modify {
                table: table.clone(),
                entry: entry.into(),
            },
            ControlOp::Delete {
                table,
                matches,
                priority,
            } => WireOp::Delete {
                table: table.clone(),
                matches: matches.iter().map(WireMatch::from).collect(),
                priority: *priority,
            },
            ControlOp::SetDefault {
                table,
                action,
                args,
            } => WireOp::SetDefault {
                table: table.clone(),
                action: action.clone(),
                args: args.clone(),
            },
            ControlOp::Clear { table } => WireOp::Clear {
                table: table.clone(),
            },
        }
    }
}

impl From<&WireOp> for ControlOp {
    fn from(op: &WireOp) -> Self {
        match op {
            WireOp::Insert { table, entry } => ControlOp::Insert {
                table: table.clone(),
                entry: entry.into(),
            },
            WireOp::Modify { table, entry } => ControlOp::Modify {
                table: table.clone(),
                entry: entry.into(),
            },
            WireOp::Delete {
                table,
                matches,
                priority,
            } => ControlOp::Delete {
                table: table.clone(),
                matches: matches.iter().map(KeyMatch::from).collect(),
                priority: *priority,
            },
            WireOp::SetDefault {
                table,
                action,
                args,
            } => ControlOp::SetDefault {
                table: table.clone(),
                action: action.clone(),
                args: args.clone(),
            },
            WireOp::Clear { table } => ControlOp::Clear {
                table: table.clone(),
            },
        }
    }
}

/// A control-plane request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "snake_case")]
pub enum Request {
    /// One write request, applied as one atomic batch.
    Write {
        /// The operations.
        ops: Vec<WireOp>,
    },
    /// Write one register cell.
    RegisterWrite {
        /// Register.
        name: String,
        /// Index.
        index: u32,
        /// Value.
        value: u64,
    },
    /// Read one register cell.
    RegisterRead {
        /// Register.
        name: String,
        /// Index.
        index: u32,
    },
    /// What the switch runs ([`SwitchInfo`]).
    Info,
    /// The switch's counters ([`SwitchStats`]).
    Stats,
    /// Reload the program: every table and register as after loading (a server does this
    /// before installing its state).
    Reset,
    /// Stop the switch (and, through `bye`, the attached server).
    Shutdown,
}

/// Why a request failed, on the wire ([`ControlFailure`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "failure", rename_all = "snake_case")]
pub enum WireFailure {
    /// May be retried.
    Transient {
        /// What happened.
        message: String,
    },
    /// A table is full.
    Full {
        /// The table.
        table: String,
    },
    /// The request is wrong.
    Rejected {
        /// Why.
        message: String,
    },
}

impl From<&ControlFailure> for WireFailure {
    fn from(f: &ControlFailure) -> Self {
        match f {
            ControlFailure::Transient(m) => WireFailure::Transient { message: m.clone() },
            ControlFailure::Full { table } => WireFailure::Full {
                table: table.clone(),
            },
            ControlFailure::Rejected(m) => WireFailure::Rejected { message: m.clone() },
        }
    }
}

impl From<WireFailure> for ControlFailure {
    fn from(f: WireFailure) -> Self {
        match f {
            WireFailure::Transient { message } => ControlFailure::Transient(message),
            WireFailure::Full { table } => ControlFailure::Full { table },
            WireFailure::Rejected { message } => ControlFailure::Rejected(message),
        }
    }
}

/// The answer to a [`Request`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// Externally tagged: integer map keys (in `SwitchStats`) do not survive serde's buffering
// of internally tagged enums.
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// Done.
    Ok,
    /// A register value.
    Value {
        /// The value.
        value: u64,
    },
    /// What the switch runs.
    Info {
        /// It.
        info: SwitchInfo,
    },
    /// The switch's counters.
    Stats {
        /// They.
        stats: SwitchStats,
    },
    /// The request failed; nothing of it took effect.
    Failed {
        /// Why.
        failure: WireFailure,
    },
}

/// What a [`SwitchDaemon`] runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwitchInfo {
    /// The NF.
    pub nf: String,
    /// The compiled IR's digest (a server must run the same compilation).
    pub ir_digest: String,
    /// The server port.
    pub server_port: u32,
    /// The NF ports with a socket.
    pub ports: Vec<u32>,
    /// Whether a server is attached.
    pub server_attached: bool,
}

/// Counters of a [`SwitchDaemon`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwitchStats {
    /// Frames that entered, per port (the server port counts the frames back from the
    /// server).
    pub frames_in: BTreeMap<u32, u64>,
    /// Frames sent to attached clients, per egress port.
    pub frames_out: BTreeMap<u32, u64>,
    /// Frames sent to the server.
    pub to_server: u64,
    /// Packets dropped by the program.
    pub dropped: u64,
    /// Frames for a port nobody is attached to (lost).
    pub unattached: u64,
    /// Data datagrams that were not ours, too short or too long, or of an unexpected kind.
    pub malformed: u64,
    /// Frames on the server socket from someone other than the attached server.
    pub foreign: u64,
    /// Sends that failed (receiver gone, or full for too long).
    pub send_errors: u64,
    /// Frames from the server that the program sent back to the server (a bug).
    pub loops: u64,
    /// Server-leg packets forgotten because too many were outstanding.
    pub lost: u64,
    /// Control requests applied.
    pub control_requests: u64,
    /// Control requests that failed (answered with `failed`).
    pub control_failed: u64,
    /// Control datagrams that were not ours, or not JSON we understand.
    pub control_malformed: u64,
    /// Repeated requests answered from the reply cache.
    pub control_duplicates: u64,
    /// Program reloads.
    pub resets: u64,
}

/// Counters of a [`ServerDaemon`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerStats {
    /// Frames from the switch handled.
    pub frames: u64,
    /// Frames sent back for post.
    pub returned: u64,
    /// Frames without a transfer header for the server (answered `consumed`).
    pub consumed: u64,
    /// Frames the server partition or the synchronisation failed on (including frames
    /// refused while another was held).
    pub errors: u64,
    /// Frames held because the switch did not confirm their updates.
    pub held: u64,
    /// Held frames released once the switch had the updates.
    pub released: u64,
    /// Datagrams that were not ours or of an unexpected kind.
    pub malformed: u64,
    /// Frames from someone other than the switch.
    pub foreign: u64,
}

// ---------------------------------------------------------------------------------------
// Paths and sockets.

/// `DIR/control.sock`.
pub fn control_socket(dir: &Path) -> PathBuf {
    dir.join("control.sock")
}

/// `DIR/port<N>.sock`.
pub fn port_socket(dir: &Path, port: u32) -> PathBuf {
    dir.join(format!("port{port}.sock"))
}

/// `DIR/server.sock`.
pub fn server_socket(dir: &Path) -> PathBuf {
    dir.join("server.sock")
}

fn io_err(what: impl std::fmt::Display, e: io::Error) -> OffloadError {
    OffloadError::Io(format!("{what}: {e}"))
}

/// Creates `dir` if needed and returns its canonical path.
fn prepare_dir(dir: &Path) -> Result<PathBuf, OffloadError> {
    std::fs::create_dir_all(dir).map_err(|e| io_err(dir.display(), e))?;
    std::fs::canonicalize(dir).map_err(|e| io_err(dir.display(), e))
}

/// An existing directory's canonical path.
fn existing_dir(dir: &Path) -> Result<PathBuf, OffloadError> {
    std::fs::canonicalize(dir).map_err(|e| {
        io_err(
            format!(
                "{} (is the switch running with --sock there?)",
                dir.display()
            ),
            e,
        )
    })
}

/// Binds `path`, removing a stale socket file first; a socket somebody is bound to is an
/// error.
fn bind_socket(path: &Path) -> Result<UnixDatagram, OffloadError> {
    // sun_path holds 108 bytes with the terminating NUL.
    if path.as_os_str().len() >= 108 {
        return Err(OffloadError::Io(format!(
            "{}: socket path too long ({} bytes, at most 107): use a shorter directory",
            path.display(),
            path.as_os_str().len()
        )));
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_socket() => {
            let probe = UnixDatagram::unbound().map_err(|e| io_err("socket", e))?;
            if probe.connect(path).is_ok() {
                return Err(OffloadError::Io(format!(
                    "{}: in use by another process",
                    path.display()
                )));
            }
            std::fs::remove_file(path).map_err(|e| io_err(path.display(), e))?;
        }
        Ok(_) => {
            return Err(OffloadError::Io(format!(
                "{}: exists and is not a socket",
                path.display()
            )))
        }
        Err(_) => {}
    }
    let s = UnixDatagram::bind(path).map_err(|e| io_err(path.display(), e))?;
    s.set_write_timeout(Some(SEND_TIMEOUT))
        .map_err(|e| io_err(path.display(), e))?;
    Ok(s)
}

static UNIQUE: AtomicU64 = AtomicU64::new(0);

/// `DIR/<prefix>-<pid>-<n>.sock`.
fn unique_path(dir: &Path, prefix: &str) -> PathBuf {
    let n = UNIQUE.fetch_add(1, Ordering::Relaxed);
    dir.join(format!("{prefix}-{}-{n}.sock", std::process::id()))
}

/// Removes the socket files it holds when dropped.
#[derive(Default)]
struct Files(Vec<PathBuf>);

impl Drop for Files {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
    )
}

/// Whether a send failed because nobody is bound at the address any more.
fn is_gone(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused
    )
}

/// Receives one datagram; `Ok(None)` on timeout. Oversized datagrams come back as empty
/// (which every parser rejects).
fn recv(sock: &UnixDatagram, buf: &mut [u8]) -> io::Result<Option<(usize, Option<PathBuf>)>> {
    match sock.recv_from(buf) {
        Ok((n, addr)) => {
            let n = if n >= buf.len() { 0 } else { n };
            Ok(Some((n, addr.as_pathname().map(Path::to_path_buf))))
        }
        Err(e) if is_timeout(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

// ---------------------------------------------------------------------------------------
// Control framing.

/// The datagrams of one control message (`kind` 0: request, 1: reply) with id `id`: the
/// JSON `payload` cut into parts of at most 32 KiB, each behind the 16-byte header.
pub fn control_datagrams(kind: u8, id: u64, payload: &[u8]) -> Vec<Vec<u8>> {
    let chunks: Vec<&[u8]> = if payload.is_empty() {
        vec![&[][..]]
    } else {
        payload.chunks(CONTROL_CHUNK).collect()
    };
    let parts = chunks.len() as u16;
    chunks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut b = Vec::with_capacity(CONTROL_HEADER_LEN + c.len());
            b.extend_from_slice(&CONTROL_MAGIC);
            b.push(WIRE_VERSION);
            b.push(kind);
            b.extend_from_slice(&id.to_be_bytes());
            b.extend_from_slice(&(i as u16).to_be_bytes());
            b.extend_from_slice(&parts.to_be_bytes());
            b.extend_from_slice(c);
            b
        })
        .collect()
}

struct ControlPart<'a> {
    kind: u8,
    id: u64,
    part: u16,
    parts: u16,
    chunk: &'a [u8],
}

fn parse_control(buf: &[u8]) -> Option<ControlPart<'_>> {
    if buf.len() < CONTROL_HEADER_LEN
        || buf[..2] != CONTROL_MAGIC
        || buf[2] != WIRE_VERSION
        || buf[3] > 1
    {
        return None;
    }
    let mut id = [0u8; 8];
    id.copy_from_slice(&buf[4..12]);
    let part = u16::from_be_bytes([buf[12], buf[13]]);
    let parts = u16::from_be_bytes([buf[14], buf[15]]);
    if parts == 0 || parts > MAX_PARTS || part >= parts {
        return None;
    }
    Some(ControlPart {
        kind: buf[3],
        id: u64::from_be_bytes(id),
        part,
        parts,
        chunk: &buf[CONTROL_HEADER_LEN..],
    })
}

struct Partial {
    id: u64,
    chunks: Vec<Option<Vec<u8>>>,
    missing: usize,
}

/// Reassembles control messages, one in flight per sender.
#[derive(Default)]
struct Reassembler {
    partial: HashMap<PathBuf, Partial>,
}

impl Reassembler {
    const MAX_SENDERS: usize = 64;

    fn push(&mut self, from: &Path, p: &ControlPart<'_>) -> Option<Vec<u8>> {
        if p.parts == 1 {
            self.partial.remove(from);
            return Some(p.chunk.to_vec());
        }
        if self.partial.len() >= Self::MAX_SENDERS && !self.partial.contains_key(from) {
            self.partial.clear();
        }
        let fresh = || Partial {
            id: p.id,
            chunks: vec![None; usize::from(p.parts)],
            missing: usize::from(p.parts),
        };
        let e = self.partial.entry(from.to_path_buf()).or_insert_with(fresh);
        if e.id != p.id || e.chunks.len() != usize::from(p.parts) {
            *e = fresh();
        }
        let slot = &mut e.chunks[usize::from(p.part)];
        if slot.is_none() {
            *slot = Some(p.chunk.to_vec());
            e.missing -= 1;
        }
        if e.missing > 0 {
            return None;
        }
        let done = self.partial.remove(from)?;
        Some(done.chunks.into_iter().flatten().flatten().collect())
    }
}

// ---------------------------------------------------------------------------------------
// RemoteControl.

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
        })
    }

    /// Counters so far.
    pub fn stats(&self) -> RemoteStats {
        self.stats.clone()
    }

    /// Sends one request and waits for its reply (one attempt).
    pub fn request(&mut self, req: &Request) -> Result<Reply, ControlFailure> {
        let payload = serde_json::to_vec(req)
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

// ---------------------------------------------------------------------------------------
// SwitchDaemon.

/// Where and with which ports a [`SwitchDaemon`] serves.
#[derive(Clone, Debug)]
pub struct SwitchConfig {
    /// The socket directory (created if needed).
    pub dir: PathBuf,
    /// The NF ports that get a socket (not the server port).
    pub ports: Vec<u32>,
}

struct Shared {
    program: String,
    sw: RwLock<Switch>,
    generation: AtomicU64,
    stop: AtomicBool,
    server_attached: AtomicBool,
    stats: Mutex<SwitchStats>,
    info: SwitchInfo,
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
        let dir = prepare_dir(&config.dir)?;
        let sw = Switch::from_source(&bundle.switch_p4)
            .map_err(|e| OffloadError::Switch(e.to_string()))?;
        let server_port = u32::from(bundle.manifest.server_port);
        let mut ports = config.ports.clone();
        ports.sort_unstable();
        ports.dedup();
        if ports.contains(&server_port) {
            return Err(OffloadError::Switch(format!(
                "port {server_port} is the server port; it has DIR/server.sock"
            )));
        }
        let mut files = Files::default();
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
        });
        let mut threads = Vec::new();
        let spawn_err = |e: io::Error| io_err("starting a thread", e);
        control
            .set_read_timeout(Some(TICK))
            .map_err(|e| io_err("control socket", e))?;
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
            let s = s.try_clone().map_err(|e| io_err("socket", e))?;
            s.set_read_timeout(Some(TICK))
                .map_err(|e| io_err("socket", e))?;
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
            threads.push(
                std::thread::Builder::new()
                    .name("switch-data".into())
                    .spawn(move || {
                        let mut dp = DataPlane::new(shared, socks, server_idx);
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
type Inbound = (usize, Vec<u8>, Option<PathBuf>);

fn reader_loop(shared: &Shared, sock: &UnixDatagram, idx: usize, tx: &mpsc::SyncSender<Inbound>) {
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
struct ReplyCache {
    per_client: HashMap<PathBuf, CachedReplies>,
}

/// (request id, reply) of one client, oldest first.
type CachedReplies = VecDeque<(u64, Arc<Vec<u8>>)>;

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

fn control_loop(shared: &Shared, sock: &UnixDatagram) {
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
        let (reply, stop) = match serde_json::from_slice::<Request>(&msg) {
            Ok(req) => {
                shared.count(|s| s.control_requests += 1);
                let stop = req == Request::Shutdown;
                (apply(shared, req), stop)
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

fn send_reply(sock: &UnixDatagram, to: &Path, id: u64, payload: &[u8]) {
    for d in control_datagrams(1, id, payload) {
        if let Err(e) = sock.send_to(&d, to) {
            log::debug!("switch control: replying to {}: {e}", to.display());
            return;
        }
    }
}

fn apply(shared: &Shared, req: Request) -> Reply {
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
        Request::Info => {
            let mut info = shared.info.clone();
            info.server_attached = shared.server_attached.load(Ordering::SeqCst);
            Reply::Info { info }
        }
        Request::Stats => Reply::Stats {
            stats: shared.stats(),
        },
        Request::Reset => match Switch::from_source(&shared.program) {
            Ok(sw) => {
                match shared.sw.write() {
                    Ok(mut g) => *g = sw,
                    Err(p) => *p.into_inner() = sw,
                }
                shared.generation.fetch_add(1, Ordering::SeqCst);
                shared.count(|s| s.resets += 1);
                Reply::Ok
            }
            Err(e) => failed(ControlFailure::Rejected(format!("reloading: {e}"))),
        },
        Request::Shutdown => Reply::Ok,
    }
}

/// A packet on its way through the server.
struct Pending {
    /// Who wants a `done`, and the id they gave.
    reply_to: Option<PathBuf>,
    id: u32,
    /// Index of the socket it entered on.
    ingress: usize,
}

struct DataPlane {
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
}

impl DataPlane {
    fn new(shared: Arc<Shared>, socks: Vec<(u32, UnixDatagram)>, server_idx: usize) -> DataPlane {
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
        }
    }

    fn run(&mut self, rx: &mpsc::Receiver<Inbound>) {
        while !self.shared.stop.load(Ordering::SeqCst) {
            match rx.recv_timeout(TICK) {
                Ok((idx, bytes, from)) => self.handle(idx, &bytes, from),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        let bye = DataHeader::new(Kind::Bye).datagram(&[]);
        for (idx, peer) in &self.peers {
            let _ = self.socks[*idx].1.send_to(&bye, peer);
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
            && from.is_some()
            && from.as_ref() == self.peers.get(&self.server_idx);
        match h.kind {
            Kind::Hello => {
                let Some(from) = from else {
                    self.shared.count(|s| s.malformed += 1);
                    return;
                };
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
                    self.back_from_server(&h, payload);
                } else {
                    self.shared.count(|s| s.foreign += 1);
                }
            }
            Kind::Frame => {
                let reply_to = from.filter(|_| h.flags & flags::ACK != 0);
                self.ingress(idx, &h, payload, reply_to);
            }
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
        match self.run_worker(port, frame, h.ts_ns) {
            None => {
                self.shared.count(|s| s.dropped += 1);
                self.done(Some(pending), NO_PORT, 0, h.ts_ns);
            }
            Some((p, out)) if p == self.server_port => {
                let Some(server) = self.peers.get(&self.server_idx).cloned() else {
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

    fn back_from_server(&mut self, h: &DataHeader, frame: &[u8]) {
        let server_port = self.server_port;
        self.shared
            .count(|s| *s.frames_in.entry(server_port).or_default() += 1);
        let pending = self.pending.remove(&h.id);
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

// ---------------------------------------------------------------------------------------
// ServerDaemon.

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
}

impl std::fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerConfig")
            .field("dir", &self.dir)
            .field("control_timeout", &self.control_timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("reset_switch", &self.reset_switch)
            .field("wrap", &self.wrap.is_some())
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
        }
    }
}

/// The server process: a [`ServerHost`] that gets its frames from the switch's server port
/// and keeps the switch's state through a [`RemoteControl`].
pub struct ServerDaemon {
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
        if config.reset_switch {
            rc.reset()?;
        }
        let path = unique_path(&dir, "server");
        let sock = bind_socket(&path)?;
        let files = Files(vec![path.clone()]);
        let switch_sock = server_socket(&dir);
        let stop = Arc::new(AtomicBool::new(false));
        let stats = Arc::new(Mutex::new(ServerStats::default()));
        let (ready_tx, ready_rx) = mpsc::channel::<Result<(), OffloadError>>();
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
                    let start = ServerHost::new(&bundle, &initial, &options, cp).and_then(|host| {
                        attach(&sock, &switch_sock, patience, &stop)?;
                        Ok(host)
                    });
                    let mut host = match start {
                        Ok(h) => {
                            let _ = ready_tx.send(Ok(()));
                            h
                        }
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                            return Ok(());
                        }
                    };
                    server_loop(&mut host, &sock, &switch_sock, &stop, &stats)
                })
                .map_err(|e| io_err("starting a thread", e))?
        };
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(ServerDaemon {
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
fn attach(
    sock: &UnixDatagram,
    to: &Path,
    patience: Duration,
    stop: &AtomicBool,
) -> Result<(), OffloadError> {
    let t0 = Instant::now();
    let hello = DataHeader::new(Kind::Hello).datagram(&[]);
    let mut buf = vec![0u8; RECV_BUF];
    sock.set_read_timeout(Some(Duration::from_millis(200)))
        .map_err(|e| io_err("socket", e))?;
    loop {
        if stop.load(Ordering::SeqCst) || t0.elapsed() > patience {
            return Err(OffloadError::Switch(format!(
                "{} did not answer hello",
                to.display()
            )));
        }
        if let Err(e) = sock.send_to(&hello, to) {
            log::debug!("hello to {}: {e}", to.display());
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let wait = Instant::now();
        while wait.elapsed() < Duration::from_millis(500) {
            match recv(sock, &mut buf) {
                Ok(Some((n, from))) => {
                    if from.as_deref() == Some(to)
                        && matches!(DataHeader::parse(&buf[..n]), Some((h, _)) if h.kind == Kind::Welcome)
                    {
                        return Ok(());
                    }
                }
                Ok(None) => {}
                Err(e) => return Err(io_err(to.display(), e)),
            }
        }
    }
}

fn server_loop(
    host: &mut ServerHost,
    sock: &UnixDatagram,
    switch: &Path,
    stop: &AtomicBool,
    stats: &Mutex<ServerStats>,
) -> Result<(), OffloadError> {
    let count = |f: &dyn Fn(&mut ServerStats)| {
        if let Ok(mut s) = stats.lock() {
            f(&mut s);
        }
    };
    let send = |datagram: &[u8]| -> Result<(), OffloadError> {
        match sock.send_to(datagram, switch) {
            Ok(_) => Ok(()),
            Err(e) if is_gone(&e) => {
                stop.store(true, Ordering::SeqCst);
                Err(OffloadError::Switch(format!(
                    "the switch went away ({}: {e})",
                    switch.display()
                )))
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
    let mut next_try = Instant::now();
    let mut buf = vec![0u8; RECV_BUF];
    let _ = sock.set_read_timeout(Some(TICK));
    while !stop.load(Ordering::SeqCst) {
        if let Some(hh) = held.filter(|_| Instant::now() >= next_try) {
            match host.release_held() {
                Ok(out) => {
                    held = None;
                    if let Some(out) = out {
                        log::info!("server: the switch is back; released packet {}", hh.id);
                        count(&|s| s.released += 1);
                        send(&hh.datagram(&out))?;
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

// ---------------------------------------------------------------------------------------
// PortClient.

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
            attach(&self.sock, &port_socket(&self.dir, p), patience, &stop)?;
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
            .map_err(|e| io_err(to.display(), e))?;
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
                recv(&self.sock, &mut self.buf).map_err(|e| io_err("receiving", e))?
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_header_round_trips_and_rejects_garbage() {
        let h = DataHeader {
            kind: Kind::Done,
            port: 7,
            id: 0xdead_beef,
            flags: flags::VIA_SERVER,
            ts_ns: 1 << 40,
        };
        let d = h.datagram(b"abc");
        assert_eq!(DataHeader::parse(&d), Some((h, &b"abc"[..])));
        assert!(DataHeader::parse(&d[..DATA_HEADER_LEN - 1]).is_none());
        let mut bad = d.clone();
        bad[3] = 99;
        assert!(DataHeader::parse(&bad).is_none());
        bad = d.clone();
        bad[0] = b'X';
        assert!(DataHeader::parse(&bad).is_none());
        assert!(DataHeader::parse(&[]).is_none());
    }

    #[test]
    fn control_messages_split_and_reassemble() {
        let payload: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
        let ds = control_datagrams(0, 42, &payload);
        assert_eq!(ds.len(), 4);
        let mut r = Reassembler::default();
        let from = Path::new("/x");
        let mut got = None;
        // out of order, with a duplicate
        for i in [2, 0, 0, 3, 1] {
            let p = parse_control(&ds[i]).unwrap();
            assert_eq!((p.kind, p.id, p.parts), (0, 42, 4));
            got = r.push(from, &p);
        }
        assert_eq!(got, Some(payload));
        let one = control_datagrams(1, 7, b"");
        assert_eq!(one.len(), 1);
        assert_eq!(r.push(from, &parse_control(&one[0]).unwrap()), Some(vec![]));
        // part >= parts, zero parts, bad kind
        let mut bad = one[0].clone();
        bad[13] = 1;
        assert!(parse_control(&bad).is_none());
        bad = one[0].clone();
        bad[15] = 0;
        assert!(parse_control(&bad).is_none());
        bad = one[0].clone();
        bad[3] = 2;
        assert!(parse_control(&bad).is_none());
    }

    #[test]
    fn control_ops_survive_the_wire() {
        let ops = vec![
            ControlOp::Insert {
                table: "I.t".into(),
                entry: TableEntry {
                    matches: vec![
                        KeyMatch::Exact(u64::MAX),
                        KeyMatch::Lpm(0x0a00_0000, 8),
                        KeyMatch::Ternary(1, 3),
                        KeyMatch::Range(4, 9),
                        KeyMatch::Any,
                    ],
                    action: "hit".into(),
                    args: vec![1, u64::MAX],
                    priority: Some(-3),
                },
            },
            ControlOp::Modify {
                table: "I.t".into(),
                entry: TableEntry {
                    matches: vec![KeyMatch::Exact(1)],
                    action: "hit".into(),
                    args: vec![],
                    priority: None,
                },
            },
            ControlOp::Delete {
                table: "I.t".into(),
                matches: vec![KeyMatch::Exact(1)],
                priority: None,
            },
            ControlOp::SetDefault {
                table: "I.t".into(),
                action: "miss".into(),
                args: vec![5],
            },
            ControlOp::Clear {
                table: "I.t".into(),
            },
        ];
        let req = Request::Write {
            ops: ops.iter().map(WireOp::from).collect(),
        };
        let text = serde_json::to_vec(&req).unwrap();
        let Request::Write { ops: back } = serde_json::from_slice(&text).unwrap() else {
            panic!("not a write");
        };
        let back: Vec<ControlOp> = back.iter().map(ControlOp::from).collect();
        assert_eq!(back, ops);
        let mut stats = SwitchStats::default();
        stats.frames_in.insert(64, 3);
        stats.frames_out.insert(1, 2);
        for r in [
            Reply::Stats { stats },
            Reply::Ok,
            Reply::Value { value: u64::MAX },
        ] {
            let back: Reply = serde_json::from_slice(&serde_json::to_vec(&r).unwrap()).unwrap();
            assert_eq!(back, r);
        }
        for f in [
            ControlFailure::Transient("x".into()),
            ControlFailure::Full { table: "t".into() },
            ControlFailure::Rejected("y".into()),
        ] {
            let r = Reply::Failed {
                failure: WireFailure::from(&f),
            };
            let r: Reply = serde_json::from_slice(&serde_json::to_vec(&r).unwrap()).unwrap();
            let Reply::Failed { failure } = r else {
                panic!()
            };
            assert_eq!(ControlFailure::from(failure), f);
        }
    }
}
