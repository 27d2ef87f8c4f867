//! `tandem check`: the offloaded pair against the original NF on the same traffic.
//!
//! Every packet goes to the reference host (the native NF) and to the offloaded system.
//! Outputs are compared per port as multisets of frames (byte-exact; the runtime processes
//! packets in arrival order here; the concurrent check, with the reorderings run-to-completion
//! permits, is [`crate::check_concurrent`]), and the final states are compared. The first packet whose
//! outputs differ is reported decoded field by field, with the NF statements on its path and
//! the partition each ran in (found by replaying the trace on the NF's IR).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use tandem_host::irhost::{diff_states, load_native_state, normalize_native};
use tandem_host::{Host, NativeNf, Verdict};
use tandem_ir::interp::{InterpOptions, Interpreter, Packet, StateStore};
use tandem_partition::Partition;
use tandem_traffic::scenario::frame_fields;
use tandem_traffic::{ReplyRewriter, TracePacket};

use crate::cluster::{Cluster, ServerLoad};
use crate::control::ControlWrap;
use crate::fallback::walk;
use crate::membership::{BloomShape, MembershipStats};
use crate::system::{Bundle, Offloaded, RunOptions, RunStats};
use crate::OffloadError;

/// How to check.
pub struct CheckOptions {
    /// Runtime options.
    pub run: RunOptions,
    /// Rewrite replies to match what the NF sent (closed loop), as `tandem host` does.
    pub closed_loop: bool,
    /// Wraps the control plane (fault injection).
    pub control: Option<ControlWrap>,
    /// Called after every packet with the number done.
    pub progress: Option<Box<dyn FnMut(u64)>>,
    /// Server hosts behind the switch ([`Cluster`]); 1: the single server host of
    /// [`Offloaded`] (the only one that takes `control`).
    pub servers: usize,
    /// Membership changes: before the packet with this index (from 0), add a server or
    /// remove one ([`Cluster::add_server`], [`Cluster::remove_server`]); runs a [`Cluster`]
    /// even with one server.
    pub changes: Vec<(u64, GroupChange)>,
    /// The cluster's Bloom filters (default: [`BloomShape::default`]).
    pub bloom: Option<BloomShape>,
    /// Pin flows that a membership change would move (default; off only to show what
    /// breaks without it).
    pub pinning: bool,
    /// Record each packet's partial-map key (the first one it looks up; one server host):
    /// [`CheckReport::partial_keys`], for the clairvoyant bound of `tandem bench-partial`.
    pub record_partial_keys: bool,
    /// What a removed server's flows do (default: their state migrates).
    pub removal: crate::Removal,
    /// Other servers work on the owner's global objects ([`crate::owner`]; default; off
    /// only to show what breaks without it: each server allocates from its own copy).
    pub lending: bool,
    /// Dispatch weight of the owner of global state, server 0 (`WEIGHT_UNIT` = 100: an
    /// even share of the flows; [`Cluster::set_weight`]).
    pub owner_share: Option<u32>,
}

/// A partial map's key: the state's index and the key's fields.
pub type PartialKey = (u32, Vec<u64>);

/// A membership change during a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupChange {
    /// A new server joins the group.
    Add,
    /// This server leaves the group: its flows migrate to their new servers with their
    /// state (or drain, [`CheckOptions::removal`]).
    Remove(usize),
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            run: RunOptions::default(),
            closed_loop: true,
            control: None,
            progress: None,
            servers: 1,
            changes: Vec::new(),
            bloom: None,
            pinning: true,
            record_partial_keys: false,
            removal: crate::Removal::default(),
            lending: true,
            owner_share: None,
        }
    }
}

/// The outcome of a check.
#[derive(Debug, serde::Serialize)]
pub struct CheckReport {
    /// Packets checked.
    pub packets: u64,
    /// Reference host: packets out per port.
    pub reference_out: BTreeMap<u32, u64>,
    /// Reference host: packets dropped.
    pub reference_dropped: u64,
    /// The offloaded run's counters.
    pub offloaded: RunStats,
    /// `--server-rate`: packets the server meter dropped at the switch. They are not given
    /// to the reference (as if lost before the NF) and not compared; absent without the
    /// meter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metered: Option<u64>,
    /// Packets whose outputs differ (per packet, in arrival order).
    pub differing_packets: u64,
    /// Per port: frames the reference sent that the offloaded pair did not, and vice versa
    /// (as multisets).
    pub multiset_differences: BTreeMap<u32, (u64, u64)>,
    /// The first differing packet, explained.
    pub first_difference: Option<String>,
    /// Differences of the final state.
    pub state_differences: Vec<String>,
    /// With several servers: what each did (empty with one).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_server: Vec<ServerLoad>,
    /// With membership changes: the last change's counters, and the flows pinned at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub membership: Option<(MembershipStats, usize)>,
    /// With several servers: the shardable-state analysis, one line per object, and why
    /// the NF runs on fewer servers than asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sharding: Option<String>,
    /// `--concurrent`: the run's ordering counters (absent in a serial check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concurrent: Option<crate::concurrent::ConcurrentRun>,
    /// `--concurrent`: reorderings run-to-completion forbids (a flow's packets taking effect
    /// or leaving out of arrival order), the first few described.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub order_violations: Vec<String>,
    /// With [`CheckOptions::record_partial_keys`]: each packet's partial-map key, in order
    /// (`None`: it looks up none).
    #[serde(skip)]
    pub partial_keys: Vec<Option<PartialKey>>,
}

/// The system under check: one server host, or several.
enum System {
    One(Box<Offloaded>),
    Many(Box<Cluster>),
}

impl System {
    fn process(&mut self, pkt: &TracePacket) -> Result<Verdict, OffloadError> {
        match self {
            System::One(s) => s.process(pkt),
            System::Many(c) => c.process(pkt),
        }
    }

    fn state(&mut self) -> Result<tandem_host::irhost::NormalState, OffloadError> {
        match self {
            System::One(s) => s.state(),
            System::Many(c) => c.state(),
        }
    }

    /// Packets the server meter dropped so far.
    fn metered(&self) -> u64 {
        match self {
            System::One(s) => s.metered(),
            System::Many(_) => 0,
        }
    }

    fn stats(&self) -> RunStats {
        match self {
            System::One(s) => s.stats(),
            System::Many(c) => c.stats(),
        }
    }
}

impl CheckReport {
    /// Outputs equal as per-port multisets and final states equal.
    pub fn passed(&self) -> bool {
        self.multiset_differences.is_empty()
            && self.state_differences.is_empty()
            && self.order_violations.is_empty()
            // Several servers: the switch's dispatch and the runtime's mirror agree.
            && self.membership.as_ref().is_none_or(|(m, _)| m.disagreements == 0)
            // Concurrent: every packet against the reference run in the same order π.
            && (self.concurrent.is_none() || self.differing_packets == 0)
    }
}

pub(crate) fn frame_hash(port: u32, frame: &[u8]) -> (u32, u64, usize) {
    (port, tandem_ir::hash::fnv1a64(frame), frame.len())
}

/// Runs `packets` through the reference (the native NF, already configured) and the
/// offloaded bundle, and compares.
pub fn check(
    bundle: &Bundle,
    reference: NativeNf,
    packets: &mut dyn Iterator<Item = TracePacket>,
    mut options: CheckOptions,
) -> Result<CheckReport, OffloadError> {
    if reference.timer_interval_ns() != bundle.module.timer_interval_ns() {
        return Err(OffloadError::Manifest(format!(
            "{}: the native NF ticks every {} ns, the compiled one every {} ns (recompile)",
            reference.name(),
            reference.timer_interval_ns(),
            bundle.module.timer_interval_ns()
        )));
    }
    let mut host = Host::new(reference);
    let initial = host
        .dump_state()
        .map_err(|e| OffloadError::Native(e.to_string()))?;
    let mut sys = if options.servers == 1 && options.changes.is_empty() {
        System::One(Box::new(Offloaded::new(
            bundle,
            &initial,
            &options.run,
            options.control.take(),
        )?))
    } else {
        if options.control.is_some() {
            return Err(OffloadError::Manifest(
                "fault injection (a wrapped control plane) needs a single server".into(),
            ));
        }
        let mut c = Cluster::new(bundle, &initial, &options.run, options.servers)?;
        if let Some(b) = options.bloom {
            c.set_bloom(b)?;
        }
        if let Some(w) = options.owner_share {
            c.set_weight(crate::owner::OWNER, w)?;
        }
        c.set_pinning(options.pinning);
        c.set_removal(options.removal);
        c.set_lending(options.lending);
        if bundle.manifest.server_meter.is_some() {
            return Err(OffloadError::Manifest(
                "--server-rate: the server meter is checked with a single server".into(),
            ));
        }
        System::Many(Box::new(c))
    };
    let mut metered = 0u64;
    let mut partial_keys = Vec::new();
    let mut replies = ReplyRewriter::new();
    let mut balance: HashMap<(u32, u64, usize), i64> = HashMap::new();
    let mut reference_out = BTreeMap::new();
    let mut reference_dropped = 0;
    let mut differing = 0u64;
    let mut first: Option<String> = None;
    // The inputs so far, to replay the NF up to the first differing packet.
    let mut history: Vec<TracePacket> = Vec::new();
    let mut n = 0u64;
    for mut pkt in packets {
        for (_, c) in options.changes.iter().filter(|(at, _)| *at == n) {
            let System::Many(cl) = &mut sys else {
                unreachable!("membership changes run a cluster")
            };
            match c {
                GroupChange::Add => {
                    cl.add_server()?;
                }
                GroupChange::Remove(id) => cl.remove_server(*id)?,
            }
        }
        if options.closed_loop {
            replies.rewrite(&mut pkt);
        }
        if options.record_partial_keys {
            let System::One(s) = &mut sys else {
                return Err(OffloadError::Manifest(
                    "recording partial-map keys needs a single server".into(),
                ));
            };
            partial_keys.push(s.partial_keys(&pkt)?.into_iter().next());
        }
        let before = sys.metered();
        let got = sys.process(&pkt)?;
        if sys.metered() > before {
            // Dropped at the switch by the server meter: the reference never sees it.
            metered += 1;
            n += 1;
            if let Some(p) = options.progress.as_mut() {
                p(n);
            }
            continue;
        }
        let want = host
            .process(&pkt)
            .map_err(|e| OffloadError::Native(e.to_string()))?;
        match &want {
            Verdict::Send { port, frame } => {
                *reference_out.entry(*port).or_insert(0u64) += 1;
                *balance.entry(frame_hash(*port, frame)).or_default() += 1;
            }
            Verdict::Drop => reference_dropped += 1,
        }
        if let Verdict::Send { port, frame } = &got {
            *balance.entry(frame_hash(*port, frame)).or_default() -= 1;
        }
        if want != got {
            differing += 1;
            if first.is_none() {
                first = Some(explain(bundle, &initial, &history, &pkt, n, &want, &got));
                history = Vec::new();
            }
        } else if first.is_none() {
            history.push(pkt.clone());
        }
        if options.closed_loop {
            if let Verdict::Send { port, frame } = &want {
                replies.observe(&pkt.data, pkt.port, &[(*port, frame.as_slice())]);
            }
        }
        n += 1;
        if let Some(p) = options.progress.as_mut() {
            p(n);
        }
    }
    let mut multiset_differences: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    for ((port, _, _), b) in balance {
        if b != 0 {
            let e = multiset_differences.entry(port).or_default();
            if b > 0 {
                e.0 += b as u64;
            } else {
                e.1 += (-b) as u64;
            }
        }
    }
    let last_ts = host.summary().last_ts_ns;
    let reference_state = normalize_native(
        &host
            .nf()
            .dump_state(last_ts)
            .map_err(|e| OffloadError::Native(e.to_string()))?,
    );
    // A state member process() never touches is not in the compiled NF (the front end
    // declares what the code uses): the offloaded pair keeps its configure() value, so that is
    // its final value — and the reference's must still equal it. (Before, such members were
    // skipped, so a state the lifter dropped was never compared.)
    let mut offloaded_state = sys.state()?;
    for (name, rows) in normalize_native(&initial) {
        offloaded_state.entry(name).or_insert(rows);
    }
    let membership = match &sys {
        System::Many(c) => Some((c.membership().clone(), c.pinned_flows())),
        System::One(_) => None,
    };
    let (per_server, sharding) = match &sys {
        System::One(_) => (Vec::new(), None),
        System::Many(c) => {
            let mut text = c.shard_report().to_string();
            if let Some(n) = c.note() {
                text.push_str(&format!("  {n}\n"));
            }
            (c.loads(), Some(text))
        }
    };
    Ok(CheckReport {
        membership,
        per_server,
        sharding,
        packets: n,
        metered: bundle.manifest.server_meter.as_ref().map(|_| metered),
        reference_out,
        reference_dropped,
        offloaded: sys.stats(),
        differing_packets: differing,
        multiset_differences,
        first_difference: first,
        state_differences: diff_states(&reference_state, &offloaded_state),
        concurrent: None,
        order_violations: Vec::new(),
        partial_keys,
    })
}

fn show_verdict(v: &Verdict) -> String {
    match v {
        Verdict::Send { port, frame } => format!("sent on port {port}, {} bytes", frame.len()),
        Verdict::Drop => "dropped".into(),
    }
}

/// The first differing packet: both outputs field by field, and its path through the NF.
pub(crate) fn explain(
    bundle: &Bundle,
    initial: &serde_json::Value,
    history: &[TracePacket],
    pkt: &TracePacket,
    index: u64,
    want: &Verdict,
    got: &Verdict,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "packet {index} (port {}, {} bytes, t={} ns): reference {}, offloaded {}",
        pkt.port,
        pkt.data.len(),
        pkt.ts_ns,
        show_verdict(want),
        show_verdict(got)
    );
    let fields = |v: &Verdict| match v {
        Verdict::Send { frame, .. } => frame_fields(frame),
        Verdict::Drop => Vec::new(),
    };
    let (a, b) = (fields(want), fields(got));
    let input = frame_fields(&pkt.data);
    let _ = writeln!(
        s,
        "  {:<12} {:<28} {:<28} offloaded",
        "field", "input", "reference"
    );
    let names: Vec<&String> =
        input
            .iter()
            .chain(&a)
            .chain(&b)
            .map(|(k, _)| k)
            .fold(Vec::new(), |mut acc, k| {
                if !acc.contains(&k) {
                    acc.push(k);
                }
                acc
            });
    let get = |l: &[(String, String)], k: &str| {
        l.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| "-".into())
    };
    for k in names {
        let (i, r, o) = (get(&input, k), get(&a, k), get(&b, k));
        let mark = if r != o { "  <<" } else { "" };
        let clip = |x: String| {
            if x.chars().count() > 26 {
                format!("{}…", x.chars().take(25).collect::<String>())
            } else {
                x
            }
        };
        let _ = writeln!(
            s,
            "  {k:<12} {:<28} {:<28} {}{mark}",
            clip(i),
            clip(r),
            clip(o)
        );
    }
    match path(bundle, initial, history, pkt) {
        Ok(lines) => {
            let _ = writeln!(
                s,
                "  its path through the NF (statement, partition, IR, C++):"
            );
            for l in lines {
                let _ = writeln!(s, "    {l}");
            }
        }
        Err(e) => {
            let _ = writeln!(s, "  (its path could not be replayed: {e})");
        }
    }
    s
}

/// Replays the trace on the NF's IR and lists the statements the packet executes.
fn path(
    bundle: &Bundle,
    initial: &serde_json::Value,
    history: &[TracePacket],
    pkt: &TracePacket,
) -> Result<Vec<String>, OffloadError> {
    let module = &bundle.module;
    let mut store = StateStore::new(module);
    load_native_state(module, &mut store, initial)
        .map_err(|e| OffloadError::State(e.to_string()))?;
    let interp = Interpreter::new(module, InterpOptions::default())
        .map_err(|e| OffloadError::Manifest(e.to_string()))?;
    let ir = |p: &TracePacket| Packet {
        bytes: p.data.clone(),
        in_port: p.port as u16,
        timestamp_ns: p.ts_ns,
    };
    let mut payload = tandem_ir::payload::PayloadOps;
    let mut clock = tandem_host::host::TickClock::new(module.timer_interval_ns());
    let fail = |e: tandem_ir::InterpError| OffloadError::Server(e.to_string());
    for p in history {
        for t in clock.due(p.ts_ns) {
            interp.run_timer(&mut store, t).map_err(fail)?;
        }
        interp
            .run_with(&mut store, &ir(p), &mut payload)
            .map_err(fail)?;
    }
    for t in clock.due(pkt.ts_ns) {
        interp.run_timer(&mut store, t).map_err(fail)?;
    }
    let w = walk(module, &mut store, &ir(pkt), true, &mut payload)?;
    let mut at = HashMap::new();
    for (b, data) in module.process.blocks.iter() {
        for (i, &inst) in data.insts.iter().enumerate() {
            at.insert(inst, (b.as_u32(), i as u32));
        }
    }
    let stmts: HashMap<(u32, u32), &tandem_partition::PlanStmt> = bundle
        .plan
        .statements
        .iter()
        .filter_map(|s| Some(((s.block, s.index?), s)))
        .collect();
    Ok(w.path
        .iter()
        .filter_map(|i| stmts.get(at.get(i)?))
        .filter(|s| !s.text.contains(" = const "))
        .map(|s| {
            let part = match s.partition {
                Partition::Pre => "pre",
                Partition::Server => "server",
                Partition::Post => "post",
            };
            format!(
                "s{:<4} {part:<6} {}{}",
                s.id,
                s.text,
                s.loc
                    .as_deref()
                    .map(|l| format!("  ({l})"))
                    .unwrap_or_default()
            )
        })
        .collect())
}
