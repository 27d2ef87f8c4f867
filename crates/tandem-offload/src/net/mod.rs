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
//! **Who may attach.** `DIR/token` (written by the switch, mode 0600) authorises: the server's
//! `hello` on `server.sock` carries it as payload, control requests travel in an [`Envelope`]
//! with it; the switch refuses both without it (module `token`).
//!
//! **Data datagrams** are a 24-byte header and the Ethernet frame (big-endian fields):
//!
//! ```text
//!   0      2     3      4          8          12         16                 24
//!   | "TD" | ver | kind | port u32 | id u32   | flags u32| ts_ns u64         | frame …
//! ```
//!
//! kinds: 0 frame, 1 hello, 2 welcome, 3 done, 4 consumed, 5 bye, 6 tick, 7 tick done.
//! `ts_ns` is the packet's
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
//! **Timer ticks.** For an NF with `on_timer()` the switch keeps the reference host's tick
//! clock ([`tandem_host::host::TickClock`]), since it sees every packet first: before a
//! frame from an NF port whose time passes ticks, it sends the attached server one `tick`
//! per due tick (`ts_ns`: the tick's time, `id`: from its server-leg sequence) and holds that
//! frame and every later one until the server answers the last with `tick done` (same
//! `id`). The server runs each tick ([`ServerHost::tick`]: on_timer on the primary copy, the
//! switch's copies updated through the control plane) and answers once the switch has
//! confirmed the updates — during an outage it holds the answer as it holds a packet, and
//! ticks arriving meanwhile wait behind it. So no packet enters the switch between a tick
//! and its confirmation, as in one process. Ticks due while no server is attached are lost
//! ([`SwitchStats::ticks_lost`]); a tick not confirmed within a minute, or answered with
//! [`flags::ERROR`], lets the waiting frames through ([`SwitchStats::tick_timeouts`]).
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

mod client;
mod cluster;
mod framing;
mod messages;
mod remote;
mod server_daemon;
mod sockets;
mod switch_daemon;
mod token;
mod wire;

pub use client::*;
pub use framing::*;
pub use messages::*;
pub use remote::*;
pub use server_daemon::*;
pub use sockets::*;
pub use switch_daemon::*;
pub use token::*;
pub use wire::*;

/// Refuses a compilation the two-process deployment cannot run faithfully. A partial map's
/// switch miss reaches the server as a frame to run whole (or through the in-process
/// runtime's probe), and its promotions are driven by `Offloaded`: neither exists between
/// two processes, so the server would consume such packets without an output.
pub(crate) fn deployable(bundle: &Bundle) -> Result<(), OffloadError> {
    let partial: Vec<&str> = bundle
        .manifest
        .states
        .iter()
        .filter(|s| s.partial.is_some())
        .map(|s| s.name.as_str())
        .collect();
    if partial.is_empty() {
        return Ok(());
    }
    Err(OffloadError::Manifest(format!(
        "{} has partial maps ({}): the two-process deployment does not run them yet; run it in one process (`tandem run`/`tandem check`) or compile without --partial/--partial-auto",
        bundle.manifest.nf,
        partial.join(", ")
    )))
}

#[cfg(test)]
mod tests;
