//! The data datagram: header layout, kinds, flags, limits.

use super::*;

/// Length of the data-plane header.
pub const DATA_HEADER_LEN: usize = 24;
/// Length of the control-plane header.
pub const CONTROL_HEADER_LEN: usize = 16;
/// Wire format version (both headers).
pub const WIRE_VERSION: u8 = 1;
/// `port` of a `done` for a dropped packet.
pub const NO_PORT: u32 = u32::MAX;

pub(super) const DATA_MAGIC: [u8; 2] = *b"TD";
pub(super) const CONTROL_MAGIC: [u8; 2] = *b"TC";
/// JSON bytes per control datagram.
pub(super) const CONTROL_CHUNK: usize = 32 * 1024;
/// Parts of one control message at most (64 MiB).
pub(super) const MAX_PARTS: u16 = 2048;
/// Receive buffer; a datagram that fills it is taken as oversized.
pub(super) const RECV_BUF: usize = 256 * 1024;
/// How often blocked threads look at the stop flag.
pub(super) const TICK: Duration = Duration::from_millis(100);
/// How long a send may wait for a full receiver.
pub(super) const SEND_TIMEOUT: Duration = Duration::from_secs(1);
/// How often a server holding a packet tries to bring the switch up to date again.
pub(super) const HOLD_RETRY: Duration = Duration::from_secs(1);
/// Server-leg packets the switch remembers at most.
pub(super) const MAX_PENDING: usize = 65_536;
/// How long the switch waits for the server to confirm a timer tick before it lets the
/// packets behind it through (counted in [`SwitchStats::tick_timeouts`]).
pub(super) const TICK_PATIENCE: Duration = Duration::from_secs(60);

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
    /// Switch → server: run the NF's timer tick at `ts_ns` (before the packet that passed it).
    Tick = 6,
    /// Server → switch: the tick with this `id` ran and the switch has its updates
    /// ([`flags::ERROR`]: it failed for good; the switch goes on).
    TickDone = 7,
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
            6 => Kind::Tick,
            7 => Kind::TickDone,
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
