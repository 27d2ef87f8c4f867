//! Several server hosts behind one switch (CLIP §III-B): flows spread over the servers by a
//! hash of their endpoints, every packet of a flow — both directions — at the server that
//! holds its state, each server with its own primary copy.
//!
//! ```text
//!  before (Offloaded):   in ──▶ [switch: pre] ──▶ [server host] ──▶ [switch: post] ──▶ out
//!
//!  after (Cluster, N = 3):                         ┌▶ [server 0] ─┐
//!                        in ──▶ [switch: pre] ─────┼▶ [server 1] ─┼▶ [switch: post] ──▶ out
//!                               dispatch(flow) % N └▶ [server 2] ─┘
//! ```
//!
//! Which server a packet goes to is [`dispatch`]: CRC-32 of the packet's two endpoints
//! `(ipv4.saddr, sport)` and `(ipv4.daddr, dport)` in a canonical order (the smaller first),
//! as the NF's own parse graph finds them in the frame that entered the switch — so a reply
//! reaches the server of its request — into a slot table of the current group. With a
//! program compiled with `P4Options::dispatch` the switch computes it (its `hash` extern,
//! registers and pin table) and writes the server id into the transfer header; the cluster
//! hands each frame to that server, stamps the id into the response, and keeps
//! [`Membership`] as its mirror ([`crate::switch_dispatch`]). Without it, the runtime
//! computes the same function on the arriving frame.
//!
//! Whether an NF may be spread at all is the compiler's shardable-state analysis
//! ([`tandem_analysis::shard`]): each server holds the flows it is sent, so only flow-local
//! state may be split; an NF that writes global state (a port counter, a table keyed by one
//! endpoint), has a timer, or has partial maps runs on server 0 alone, and
//! [`Cluster::note`] says why. The switch's tables are shared: each server's
//! synchronisation writes only the keys its own packets touched, and those are disjoint
//! between servers for flow-local maps, so the union on the switch is the union of the
//! primary copies. Packets run one at a time, in arrival order, as in [`crate::Offloaded`]:
//! `check` compares outputs and the merged final state exactly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tandem_analysis::shard::{analyse_sharding, flow_endpoints, ShardReport, Sharding};
use tandem_host::irhost::NormalState;
use tandem_host::Verdict;
use tandem_ir::interp::DumpFormat;
use tandem_ir::parse_graph::HeaderOffsets;
use tandem_ir::Module;
use tandem_switch::{ControlOp, MeterCell, Switch, Worker};
use tandem_traffic::TracePacket;

use crate::control::{ControlFailure, ControlPlane, ExactBatch, SwitchControl};
use crate::membership::{flow_hash, key_flow, BloomShape, Flow, Membership, MembershipStats};
use crate::switch_dispatch::SwitchDispatch;
use crate::system::{post, Bundle, RunOptions, RunStats, ServerHost};
use crate::OffloadError;

/// What one server of a cluster did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ServerLoad {
    /// Packets dispatched to it that visited it (server partition or whole NF).
    pub packets: u64,
    /// Time in its server partition and synchronisation, ns.
    pub server_ns: u64,
}

/// The server a packet belongs to among `servers`: CRC-32 of its endpoints in canonical
/// order (see the module docs), modulo `servers`. Fields of absent headers read 0, as the
/// NF reads them.
pub fn dispatch(module: &Module, frame: &[u8], servers: usize) -> usize {
    if servers <= 1 {
        return 0;
    }
    (flow_hash(&packet_flow(module, frame)) % servers as u64) as usize
}

/// A frame's flow: its endpoints as the NF's parse graph finds them (absent fields 0),
/// smaller first.
pub fn packet_flow(module: &Module, frame: &[u8]) -> Flow {
    let h = HeaderOffsets::parse_in(module, frame);
    let read = |at: Option<usize>, f: tandem_ir::HeaderField| -> u64 {
        let Some(at) = at else { return 0 };
        let start = at + f.byte_offset();
        let n = f.bits() as usize / 8;
        frame
            .get(start..start + n)
            .map_or(0, |b| b.iter().fold(0u64, |v, &x| (v << 8) | u64::from(x)))
    };
    let mut ends = [(0u64, 0u64); 2];
    for (e, (addr, ports)) in ends.iter_mut().zip(flow_endpoints()) {
        let port = if h.tcp.is_some() {
            read(h.tcp, ports[0])
        } else {
            read(h.udp, ports[1])
        };
        *e = (read(h.ipv4, addr), port);
    }
    ends.sort_unstable();
    ends
}

/// A server host for a switch another host already installed the initial state on: its
/// install is muted (the switch has the same state already; a second install would add
/// every entry twice), then its control plane reaches the switch.
fn join(
    bundle: &Bundle,
    initial: &serde_json::Value,
    options: &RunOptions,
    sw: &Switch,
) -> Result<ServerHost, OffloadError> {
    join_with(
        bundle,
        initial,
        options,
        Box::new(SwitchControl::new(sw.clone())),
    )
}

/// A server host joining through control plane `cp` (in process, or a second server
/// process): its initial install is muted, then its writes reach the switch.
pub(crate) fn join_with(
    bundle: &Bundle,
    initial: &serde_json::Value,
    options: &RunOptions,
    cp: Box<dyn ControlPlane>,
) -> Result<ServerHost, OffloadError> {
    let muted = Arc::new(AtomicBool::new(true));
    let cp = Joining {
        inner: cp,
        muted: muted.clone(),
    };
    let host = ServerHost::new(bundle, initial, options, Box::new(cp))?;
    muted.store(false, Ordering::Relaxed);
    Ok(host)
}

/// A control plane whose writes do nothing while `muted` ([`join_with`]).
struct Joining {
    inner: Box<dyn ControlPlane>,
    muted: Arc<AtomicBool>,
}

impl ControlPlane for Joining {
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        if self.muted.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.inner.write(ops)
    }

    fn write_exact(&mut self, batch: &ExactBatch<'_>) -> Result<(), ControlFailure> {
        if self.muted.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.inner.write_exact(batch)
    }

    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        if self.muted.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.inner.register_write(name, index, value)
    }

    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure> {
        self.inner.register_read(name, index)
    }

    fn meter_write(
        &mut self,
        name: &str,
        index: u32,
        cell: &MeterCell,
    ) -> Result<(), ControlFailure> {
        if self.muted.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.inner.meter_write(name, index, cell)
    }

    fn meter_read(&mut self, name: &str, index: u32) -> Result<MeterCell, ControlFailure> {
        self.inner.meter_read(name, index)
    }

    fn direct_counters(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        self.inner.direct_counters(table)
    }

    fn configure_ageing(&mut self, tables: &[&str], timeout_ns: u64) -> Result<(), ControlFailure> {
        if self.muted.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.inner.configure_ageing(tables, timeout_ns)
    }

    fn set_ages(&mut self, table: &str, ages: &[(Vec<u64>, u64)]) -> Result<(), ControlFailure> {
        if self.muted.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.inner.set_ages(table, ages)
    }

    fn read_ages(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        self.inner.read_ages(table)
    }

    fn read_ages_into(
        &mut self,
        table: &str,
        out: &mut tandem_switch::AgeList,
    ) -> Result<(), ControlFailure> {
        self.inner.read_ages_into(table, out)
    }

    fn set_ages_list(
        &mut self,
        table: &str,
        ages: &tandem_switch::AgeList,
    ) -> Result<(), ControlFailure> {
        if self.muted.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.inner.set_ages_list(table, ages)
    }
}

/// The offloaded NF with several server hosts behind one software switch.
pub struct Cluster {
    sw: Switch,
    worker: Worker,
    hosts: Vec<ServerHost>,
    module: Arc<Module>,
    /// Servers in use (1 when the NF cannot be sharded).
    active: usize,
    shard: ShardReport,
    note: Option<String>,
    server_port: u32,
    stats: RunStats,
    loads: Vec<ServerLoad>,
    clock: tandem_host::host::TickClock,
    membership: Membership,
    bundle: Bundle,
    initial: serde_json::Value,
    options: RunOptions,
    /// The server whose work goes through [`counted_handle`] / [`counted_whole`].
    measured: Option<usize>,
    /// The switch picks the server (`None`: the runtime does).
    dispatch: Option<SwitchDispatch>,
    /// The response being stamped with its server's id.
    back: Vec<u8>,
    /// What a removed server's flows do.
    removal: Removal,
    /// The owner of the global objects (`None`: all written state is flow-local, or one
    /// server).
    owner: Option<crate::owner::Owner>,
}

/// What happens to the flows of a server [`Cluster::remove_server`] removes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Removal {
    /// Their state moves to their new servers ([`crate::migrate`]); the server is idle at
    /// once.
    #[default]
    Migrate,
    /// They stay pinned to it until they end (it drains).
    Drain,
    /// Negative control only: the flows go to their new servers, their state does not —
    /// `check` must fail.
    RedirectOnly,
}

/// `ServerHost::handle` for the server `tandem bench-cluster` counts under callgrind (the
/// toggle symbol: only this server's work is counted). Keep it out of line.
#[inline(never)]
pub fn counted_handle<'a>(
    host: &'a mut ServerHost,
    frame: &[u8],
    in_port: u16,
    now_ns: u64,
) -> Result<Option<&'a [u8]>, OffloadError> {
    host.handle(frame, in_port, now_ns)
}

/// `ServerHost::whole_on_server` for the counted server (see [`counted_handle`]).
#[inline(never)]
pub fn counted_whole(host: &mut ServerHost, pkt: &TracePacket) -> Result<Verdict, OffloadError> {
    host.whole_on_server(pkt)
}

impl Cluster {
    /// Loads the switch program and `servers` server hosts, each with its own primary copy
    /// of `initial`. An NF the shardable-state analysis keeps on one server gets one host.
    pub fn new(
        bundle: &Bundle,
        initial: &serde_json::Value,
        options: &RunOptions,
        servers: usize,
    ) -> Result<Cluster, OffloadError> {
        if servers == 0 {
            return Err(OffloadError::Manifest(
                "a cluster needs at least one server".into(),
            ));
        }
        let sw = crate::system::load_switch(bundle)?;
        let shard = analyse_sharding(&bundle.module);
        let mut hosts = Vec::new();
        let first = ServerHost::new(
            bundle,
            initial,
            options,
            Box::new(SwitchControl::new(sw.clone())),
        )?;
        let mut note = match &shard.decision {
            tandem_analysis::ShardDecision::OneServer(why) if servers > 1 => {
                Some(format!("runs on one server: {why}"))
            }
            _ => None,
        };
        if note.is_none() && servers > 1 && first.has_partial() {
            note = Some(
                "runs on one server: partial maps are rebalanced against one switch sketch".into(),
            );
        }
        let active = if note.is_some() { 1 } else { servers };
        let owner = if active > 1 || note.is_none() {
            crate::owner::Owner::new(&bundle.module, &shard)
        } else {
            None
        };
        hosts.push(first);
        for _ in 1..active {
            hosts.push(join(bundle, initial, options, &sw)?);
        }
        let dispatch = SwitchDispatch::new(&bundle.manifest)?;
        let shape = dispatch
            .as_ref()
            .map_or_else(BloomShape::default, |d| d.shape());
        let membership = Membership::new(active, shape);
        if let Some(d) = &dispatch {
            d.install(&sw, &membership)?;
        }
        Ok(Cluster {
            worker: sw.worker(),
            sw,
            hosts,
            module: bundle.module.clone(),
            active,
            shard,
            note,
            server_port: u32::from(bundle.manifest.server_port),
            stats: RunStats::default(),
            loads: vec![ServerLoad::default(); active],
            clock: tandem_host::host::TickClock::new(bundle.module.timer_interval_ns()),
            membership,
            bundle: bundle.clone(),
            initial: initial.clone(),
            options: options.clone(),
            measured: None,
            dispatch,
            back: Vec::new(),
            removal: Removal::default(),
            owner,
        })
    }

    /// The switch.
    pub fn switch(&self) -> &Switch {
        &self.sw
    }

    /// Servers in use.
    pub fn servers(&self) -> usize {
        self.active
    }

    /// The shardable-state analysis of the NF.
    pub fn shard_report(&self) -> &ShardReport {
        &self.shard
    }

    /// Why the cluster uses fewer servers than asked (`None`: it uses them all).
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// What each server did.
    pub fn loads(&self) -> Vec<ServerLoad> {
        let mut l = self.loads.clone();
        for (x, h) in l.iter_mut().zip(&self.hosts) {
            x.server_ns = h.server_ns();
        }
        l
    }

    /// Counters so far, summed over the servers.
    pub fn stats(&self) -> RunStats {
        let mut s = self.stats.clone();
        for h in &self.hosts {
            let y = h.sync_stats();
            s.sync.batches += y.batches;
            s.sync.entries += y.entries;
            s.sync.register_writes += y.register_writes;
            s.sync.requests += y.requests;
            s.sync.table_full += y.table_full;
            s.server_ns += h.server_ns();
        }
        s
    }

    /// Runs one packet to completion at the server its flow belongs to (after the timer
    /// ticks its time passes: an NF with a timer has one server).
    pub fn process(&mut self, pkt: &TracePacket) -> Result<Verdict, OffloadError> {
        for t in self.clock.due(pkt.ts_ns) {
            self.stats.timer_ticks += 1;
            self.hosts[0].tick(t)?;
        }
        self.stats.packets += 1;
        let s = self
            .membership
            .dispatch(&packet_flow(&self.module, &pkt.data));
        let before = self.stats.via_server + self.stats.whole_on_server + self.stats.runts;
        let (v, at) = self.run_at(s, pkt)?;
        if self.stats.via_server + self.stats.whole_on_server + self.stats.runts > before {
            self.loads[at].packets += 1;
        }
        match &v {
            Verdict::Send { port, .. } => *self.stats.out_per_port.entry(*port).or_default() += 1,
            Verdict::Drop => self.stats.dropped += 1,
        }
        Ok(v)
    }

    /// Routes server `s`'s work through [`counted_handle`] and [`counted_whole`] (for
    /// `tandem bench-cluster`; `None`: no server's).
    pub fn set_measured(&mut self, s: Option<usize>) {
        self.measured = s;
    }

    /// Runs a packet; `s` is the mirror's server, which runs the packets that do not go
    /// through the switch; the switch's choice (when it makes one) runs the others. Returns
    /// the verdict and the server that ran the packet.
    fn run_at(&mut self, s: usize, pkt: &TracePacket) -> Result<(Verdict, usize), OffloadError> {
        let counted = |at: usize| self.measured == Some(at);
        if pkt.data.len() < 14 {
            self.stats.runts += 1;
            return Ok((self.whole(s, counted(s), pkt)?, s));
        }
        if self.hosts[s].has_server_only() && self.hosts[s].needs_whole_run(pkt)? {
            self.stats.whole_on_server += 1;
            return Ok((self.whole(s, counted(s), pkt)?, s));
        }
        let Some((port, bytes)) = self.worker.process_at(pkt.port, &pkt.data, pkt.ts_ns) else {
            self.stats.fast_path += 1;
            return Ok((Verdict::Drop, s));
        };
        if port != self.server_port {
            self.stats.fast_path += 1;
            return Ok((
                Verdict::Send {
                    port,
                    frame: bytes.to_vec(),
                },
                s,
            ));
        }
        let at = match &self.dispatch {
            Some(d) => {
                let at = d.server_of(bytes).unwrap_or(usize::MAX);
                if at >= self.hosts.len() {
                    return Err(OffloadError::Switch(format!(
                        "dispatch: the switch sent a frame to server {at}; the cluster has {}",
                        self.hosts.len()
                    )));
                }
                if at != s {
                    self.membership.disagreed();
                }
                at
            }
            None => s,
        };
        let lent;
        let handled = match self.owner.as_ref().filter(|_| at != crate::owner::OWNER) {
            // The global objects are the owner's: lent for this packet.
            Some(owner) => {
                let count = counted(at);
                lent = owner.lend(&mut self.hosts, at, counted(crate::owner::OWNER), |h| {
                    let r = if count {
                        counted_handle(h, bytes, pkt.port as u16, pkt.ts_ns)?
                    } else {
                        h.handle(bytes, pkt.port as u16, pkt.ts_ns)?
                    };
                    Ok(r.map(<[u8]>::to_vec))
                })?;
                lent.as_deref()
            }
            None => {
                let host = &mut self.hosts[at];
                if counted(at) {
                    counted_handle(host, bytes, pkt.port as u16, pkt.ts_ns)?
                } else {
                    host.handle(bytes, pkt.port as u16, pkt.ts_ns)?
                }
            }
        };
        let Some(back) = handled else {
            self.stats.fast_path += 1;
            return Ok((
                Verdict::Send {
                    port,
                    frame: bytes.to_vec(),
                },
                at,
            ));
        };
        self.stats.via_server += 1;
        let back = match &self.dispatch {
            Some(d) => {
                self.back.clear();
                self.back.extend_from_slice(back);
                d.stamp(&mut self.back, at);
                &self.back[..]
            }
            None => back,
        };
        Ok((
            post(&mut self.worker, self.server_port, back, pkt.ts_ns)?,
            at,
        ))
    }

    fn whole(
        &mut self,
        s: usize,
        counted: bool,
        pkt: &TracePacket,
    ) -> Result<Verdict, OffloadError> {
        let run = |host: &mut ServerHost| {
            if counted {
                counted_whole(host, pkt)
            } else {
                host.whole_on_server(pkt)
            }
        };
        match &self.owner {
            Some(o) => {
                let owner_counted = self.measured == Some(crate::owner::OWNER);
                o.lend(&mut self.hosts, s, owner_counted, run)
            }
            None => run(&mut self.hosts[s]),
        }
    }

    /// Whether other servers work on the owner's global objects (off only in the negative
    /// control: each server then has its own copy, e.g. its own port counter, so two
    /// servers hand out the same ports).
    pub fn set_lending(&mut self, on: bool) {
        if let Some(o) = self.owner.as_mut() {
            o.set_lending(on);
        }
    }

    /// The global objects one owner (server 0) keeps, by name (empty: none).
    pub fn owned(&self) -> Vec<String> {
        match &self.owner {
            Some(_) => self
                .shard
                .objects
                .iter()
                .filter(|o| o.owner.is_some())
                .map(|o| o.name.clone())
                .collect(),
            None => Vec::new(),
        }
    }

    /// Sets the Bloom filters' shape (before the first packet; tests force collisions with
    /// a tiny filter). When the switch picks the server the shape is the program's: another
    /// one is an error.
    pub fn set_bloom(&mut self, shape: BloomShape) -> Result<(), OffloadError> {
        if let Some(d) = &self.dispatch {
            if d.shape() != shape {
                return Err(OffloadError::Manifest(format!(
                    "dispatch: the switch program's Bloom filters have {} bits and {} hashes, not {} and {} (compile with that DispatchShape)",
                    d.shape().bits,
                    d.shape().hashes,
                    shape.bits,
                    shape.hashes
                )));
            }
        }
        let pinning = self.membership.pinning;
        let weights = self.membership.weights();
        self.membership = Membership::new(self.active, shape);
        self.membership.pinning = pinning;
        for (s, w) in weights {
            self.membership.set_weight(s, w);
        }
        Ok(())
    }

    /// Sets server `s`'s dispatch weight (before the first packet): it takes `weight /
    /// WEIGHT_UNIT` of an even share of the new flows ([`crate::membership::weighted_slots`]),
    /// in the switch's slot tables and the mirror alike. Meant for the owner of global state
    /// (server 0), whose publishing for the others is work they do not have
    /// (docs/cluster.md, "Balancing the owner").
    pub fn set_weight(&mut self, s: usize, weight: u32) -> Result<(), OffloadError> {
        if s >= self.hosts.len() {
            return Err(OffloadError::Manifest(format!(
                "dispatch weight for server {s}: the cluster has servers 0..{}",
                self.hosts.len()
            )));
        }
        if self.stats.packets > 0 {
            return Err(OffloadError::Manifest(
                "dispatch weights are set before the first packet (flows keep their server only while the slot tables do)".into(),
            ));
        }
        self.membership.set_weight(s, weight);
        if let Some(d) = &self.dispatch {
            d.install(&self.sw, &self.membership)?;
        }
        Ok(())
    }

    /// Whether flows that would move at a change are pinned (off only in a negative-control
    /// test).
    pub fn set_pinning(&mut self, pinning: bool) {
        self.membership.pinning = pinning;
    }

    /// Whether the switch program picks the server (else the runtime does).
    pub fn switch_dispatches(&self) -> bool {
        self.dispatch.is_some()
    }

    /// The current group (server ids).
    pub fn group(&self) -> &[usize] {
        self.membership.current()
    }

    /// Membership counters (version, flows pinned and mismatches found at the last change).
    pub fn membership(&self) -> &MembershipStats {
        self.membership.stats()
    }

    /// Flows pinned to a server now.
    pub fn pinned_flows(&self) -> usize {
        self.membership.pins()
    }

    /// Adds a server (a new host, its state copied from the configuration as every other
    /// host's was) to the group; returns its id. New flows spread over the larger group;
    /// flows begun before keep their server ([`crate::membership`]).
    pub fn add_server(&mut self) -> Result<usize, OffloadError> {
        self.shardable_or_err()?;
        let id = self.hosts.len();
        self.hosts
            .push(join(&self.bundle, &self.initial, &self.options, &self.sw)?);
        self.loads.push(ServerLoad::default());
        let mut g = self.membership.current().to_vec();
        g.push(id);
        self.change_group(g)?;
        Ok(id)
    }

    /// What [`Cluster::remove_server`] does with the removed server's flows.
    pub fn set_removal(&mut self, r: Removal) {
        self.removal = r;
    }

    /// Removes server `id` from the group: it takes no new flow; the flows it holds state
    /// for move with their state to their new servers ([`Removal::Migrate`], the default,
    /// [`crate::migrate`]) or stay pinned to it until they end ([`Removal::Drain`]).
    /// Nothing is dropped either way.
    pub fn remove_server(&mut self, id: usize) -> Result<(), OffloadError> {
        self.shardable_or_err()?;
        let g: Vec<usize> = self
            .membership
            .current()
            .iter()
            .copied()
            .filter(|&s| s != id)
            .collect();
        if g.len() == self.membership.current().len() {
            return Err(OffloadError::Manifest(format!(
                "server {id} is not in the group {:?}",
                self.membership.current()
            )));
        }
        if g.is_empty() {
            return Err(OffloadError::Manifest(
                "cannot remove the last server of the group".into(),
            ));
        }
        if id == crate::owner::OWNER && self.owner.is_some() {
            return Err(OffloadError::Manifest(format!(
                "server {id} owns the global state ({}); it cannot be removed (handing the \
                 ownership over is not built)",
                self.owned().join(", ")
            )));
        }
        if self.removal == Removal::Drain {
            return self.change_group(g);
        }
        let keys = self.held_keys()?;
        let held = flows_of(&keys);
        let moves = self.membership.change_migrating(g, id, &held);
        if self.removal == Removal::Migrate {
            let on_removed: Vec<(Flow, u32, Vec<u64>)> = keys
                .into_iter()
                .filter(|k| k.server == id)
                .map(|k| (k.flow, k.state, k.key))
                .collect();
            crate::migrate::migrate(
                &mut self.hosts,
                id,
                &moves,
                &on_removed,
                &mut self.membership,
            )?;
        }
        if let Some(d) = &self.dispatch {
            d.changed(&self.sw, &self.membership)?;
        }
        self.active = self.hosts.len();
        Ok(())
    }

    fn shardable_or_err(&self) -> Result<(), OffloadError> {
        match &self.note {
            Some(n) => Err(OffloadError::Manifest(format!(
                "membership cannot change: the NF {n}"
            ))),
            None if !self.shard.shardable() => Err(OffloadError::Manifest(
                "membership cannot change: the NF runs on one server".into(),
            )),
            None => Ok(()),
        }
    }

    fn change_group(&mut self, group: Vec<usize>) -> Result<(), OffloadError> {
        let held = flows_of(&self.held_keys()?);
        self.membership.change(group, &held);
        if let Some(d) = &self.dispatch {
            d.changed(&self.sw, &self.membership)?;
        }
        self.active = self.hosts.len();
        Ok(())
    }

    /// Every flow-local map entry some server holds, with its flow (the key read back into
    /// endpoints), that server, the map and the key.
    fn held_keys(&self) -> Result<Vec<HeldKey>, OffloadError> {
        let mut out = Vec::new();
        for (s, h) in self.hosts.iter().enumerate() {
            let dump = h
                .primary()
                .store
                .dump(&self.module, DumpFormat::Canonical)
                .map_err(|e| OffloadError::State(e.to_string()))?;
            for o in &self.shard.objects {
                if o.sharding != Sharding::FlowLocal {
                    continue;
                }
                let Some(d) = dump.iter().find(|d| d.name == o.name) else {
                    continue;
                };
                let Some((kl, _)) = self.module.states[o.state].kind.map_layouts() else {
                    continue;
                };
                for e in &d.entries {
                    let key = unpack(&e.key, kl);
                    if let Some(f) = key_flow(&o.slots, &key) {
                        out.push(HeldKey {
                            flow: f,
                            server: s,
                            state: o.state.as_u32(),
                            key,
                        });
                    }
                }
            }
        }
        Ok(out)
    }

    /// The NF state as a whole: each flow-local map is the union of the servers' copies,
    /// everything else is server 0's (the others hold the same read-only values).
    pub fn state(&mut self) -> Result<NormalState, OffloadError> {
        let mut merged = self.hosts[0].state()?;
        let local: Vec<&str> = self
            .shard
            .objects
            .iter()
            .filter(|o| o.sharding == Sharding::FlowLocal)
            .map(|o| o.name.as_str())
            .collect();
        for h in &mut self.hosts[1..] {
            let st = h.state()?;
            for name in &local {
                if let (Some(rows), Some(more)) = (merged.get_mut(*name), st.get(*name)) {
                    rows.extend(more.iter().cloned());
                }
            }
        }
        for name in &local {
            if let Some(rows) = merged.get_mut(*name) {
                rows.sort();
            }
        }
        Ok(merged)
    }
}

/// A flow-local map entry a server holds ([`Cluster::held_keys`]).
struct HeldKey {
    flow: Flow,
    server: usize,
    state: u32,
    key: Vec<u64>,
}

/// The flows of `keys` with their servers, sorted, each once.
fn flows_of(keys: &[HeldKey]) -> Vec<(Flow, usize)> {
    let mut out: Vec<(Flow, usize)> = keys.iter().map(|k| (k.flow, k.server)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A canonical dump key (hex, each field `ceil(bits/8)` big-endian bytes) as field values.
fn unpack(hex: &str, layout: &tandem_ir::Layout) -> Vec<u64> {
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect();
    let mut at = 0;
    layout
        .fields
        .iter()
        .map(|f| {
            let n = f.ty.bits().div_ceil(8) as usize;
            let v = bytes
                .get(at..at + n)
                .map_or(0, |b| b.iter().fold(0u64, |v, &x| (v << 8) | u64::from(x)));
            at += n;
            v
        })
        .collect()
}
