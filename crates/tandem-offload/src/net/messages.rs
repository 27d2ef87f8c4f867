//! Control-plane messages: serde mirrors of the switch's control types, requests, replies, statistics.

use super::*;

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
    /// Write one meter whole.
    MeterWrite {
        /// Meter array.
        name: String,
        /// Index.
        index: u32,
        /// `cir, cburst, pir, pburst, tc, tp, last_ns`.
        cell: [u64; 7],
    },
    /// Read one meter whole.
    MeterRead {
        /// Meter array.
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
    /// Add server `add` to the group, or remove server `remove` (it drains): between two
    /// packets (`super::cluster`).
    Member {
        /// The server joining.
        add: Option<u32>,
        /// The server leaving.
        remove: Option<u32>,
    },
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
    /// A meter: `cir, cburst, pir, pburst, tc, tp, last_ns`.
    Meter {
        /// The cell.
        cell: [u64; 7],
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
    /// A membership change took effect.
    Member {
        /// The group now.
        group: Vec<u32>,
        /// The membership counters.
        stats: crate::membership::MembershipStats,
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
    /// Timer ticks sent to the server (and confirmed, unless counted below).
    #[serde(default)]
    pub ticks: u64,
    /// Ticks due while no server was attached (not run: the state diverges).
    #[serde(default)]
    pub ticks_lost: u64,
    /// Ticks the server answered with an error, or did not confirm within a minute.
    #[serde(default)]
    pub tick_timeouts: u64,
    /// Server hellos and control requests without this deployment's token, refused.
    #[serde(default)]
    pub refused: u64,
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
    /// Timer ticks run (on_timer on the primary copy, the switch updated).
    #[serde(default)]
    pub ticks: u64,
    /// Restarted switches this server attached to again and re-installed.
    #[serde(default)]
    pub reinstalls: u64,
}
