//! Several server processes behind one switch process (CLIP §III-B/D, two-process version of
//! [`crate::Cluster`]).
//!
//! `tandem switch serve --servers N` starts the group `[0, N)`; each `tandem server serve
//! --server-id K` attaches with its id in the `hello`'s `port` field (server 0 resets the
//! switch and installs the NF state; the others join with their install muted, as in
//! process). The switch program must pick the server (`tandem compile --cluster`): the
//! switch sends each server-bound frame to the server its transfer header names, and stamps
//! the sender's id into the frame coming back. A `member` control request (`tandem switch
//! member --add K | --remove K`, or `tandem switch feed --change P:add=K`) changes the group
//! between two packets: the daemon keeps the runtime's mirror of the dispatch registers
//! ([`Membership`]) and a record of every flow it sent to a server with that server — the
//! flows a server may hold state for — and pins each that would move, as in process.
//!
//! ```text
//!  before: client ─▶ [switch] ─▶ server.sock ─▶ the one attached server
//!  after:  client ─▶ [switch: pre picks K] ─▶ server.sock ─▶ server K (hello with id K)
//! ```

use tandem_analysis::shard::analyse_sharding;
use tandem_ir::Module;

use super::*;
use crate::cluster::packet_flow;
use crate::membership::{Flow, Membership, MembershipStats};
use crate::switch_dispatch::SwitchDispatch;

/// The daemon's cluster state (see the module docs).
pub(super) struct NetCluster {
    dispatch: Option<SwitchDispatch>,
    membership: Membership,
    module: Arc<Module>,
    /// Every flow sent to a server, with that server.
    flows: HashMap<Flow, usize>,
    /// Attached servers by id.
    pub(super) servers: BTreeMap<u32, PathBuf>,
    /// Why the NF must stay on one server (`None`: it may spread).
    single: Option<String>,
    /// The mirror's server for the packet being run.
    mirror: usize,
    flow: Flow,
}

impl NetCluster {
    /// The group `[0, servers)`; more than one server needs a program that picks the
    /// server and an NF whose written state is flow-local.
    pub(super) fn new(bundle: &Bundle, servers: usize) -> Result<NetCluster, OffloadError> {
        let dispatch = SwitchDispatch::new(&bundle.manifest)?;
        let shard = analyse_sharding(&bundle.module);
        let single = if dispatch.is_none() {
            Some("the switch program does not pick the server (compile with --cluster)".into())
        } else if let tandem_analysis::ShardDecision::OneServer(why) = &shard.decision {
            Some(format!("the NF runs on one server: {why}"))
        } else if let tandem_analysis::ShardDecision::Owned(names) = &shard.decision {
            Some(format!(
                "global state ({}) needs one owner the other servers defer to, which only the \
                 in-process cluster (`tandem check --servers N`) does: the servers' processes \
                 do not lend state to each other",
                names.join(", ")
            ))
        } else {
            None
        };
        if servers == 0 {
            return Err(OffloadError::Manifest(
                "--servers must be at least 1".into(),
            ));
        }
        if servers > 1 {
            if let Some(why) = &single {
                return Err(OffloadError::Manifest(format!(
                    "--servers {servers}: {why}"
                )));
            }
        }
        let shape = dispatch
            .as_ref()
            .map_or_else(Default::default, |d| d.shape());
        Ok(NetCluster {
            dispatch,
            membership: Membership::new(servers, shape),
            module: bundle.module.clone(),
            flows: HashMap::new(),
            servers: BTreeMap::new(),
            single,
            mirror: 0,
            flow: [(0, 0); 2],
        })
    }

    /// Writes the membership to `sw` (at start and after every reset).
    pub(super) fn install(&self, sw: &Switch) -> Result<(), OffloadError> {
        match &self.dispatch {
            Some(d) => d.install(sw, &self.membership),
            None => Ok(()),
        }
    }

    /// Records a packet from an NF port in the mirror (before the switch runs it).
    pub(super) fn arrive(&mut self, frame: &[u8]) {
        if self.dispatch.is_some() {
            self.flow = packet_flow(&self.module, frame);
            self.mirror = self.membership.dispatch(&self.flow);
        }
    }

    /// The server a frame the switch sent to the server port goes to (the last arrived
    /// packet's), and records its flow there.
    pub(super) fn route(&mut self, out: &[u8]) -> u32 {
        let Some(d) = &self.dispatch else {
            return 0;
        };
        let at = d.server_of(out).unwrap_or(0);
        if at != self.mirror {
            self.membership.disagreed();
        }
        self.flows.insert(self.flow, at);
        at as u32
    }

    /// Stamps the id of the server that sent `frame` back.
    pub(super) fn stamp(&self, frame: &mut [u8], from: &Path) {
        if let Some(d) = &self.dispatch {
            if let Some((id, _)) = self.servers.iter().find(|(_, p)| p.as_path() == from) {
                d.stamp(frame, *id as usize);
            }
        }
    }

    /// Adds server `add` to the group or removes `remove` (it drains), between two
    /// packets; returns the counters.
    pub(super) fn change(
        &mut self,
        sw: &Switch,
        add: Option<u32>,
        remove: Option<u32>,
    ) -> Result<MembershipStats, String> {
        if let Some(why) = &self.single {
            return Err(format!("membership cannot change: {why}"));
        }
        let mut group = self.membership.current().to_vec();
        match (add, remove) {
            (Some(k), None) => {
                if !self.servers.contains_key(&k) {
                    return Err(format!(
                        "server {k} is not attached (start `tandem server serve --server-id {k}` first)"
                    ));
                }
                if group.contains(&(k as usize)) {
                    return Err(format!("server {k} is in the group already"));
                }
                if k > u32::from(u8::MAX) {
                    return Err(format!("server ids are 0..=255, not {k}"));
                }
                group.push(k as usize);
            }
            (None, Some(k)) => {
                group.retain(|&s| s != k as usize);
                if group.len() == self.membership.current().len() {
                    return Err(format!("server {k} is not in the group {group:?}"));
                }
                if group.is_empty() {
                    return Err("cannot remove the last server of the group".into());
                }
            }
            _ => return Err("name one server to add or to remove".into()),
        }
        let held: Vec<(Flow, usize)> = self.flows.iter().map(|(f, s)| (*f, *s)).collect();
        self.membership.change(group, &held);
        if let Some(d) = &self.dispatch {
            d.changed(sw, &self.membership).map_err(|e| e.to_string())?;
        }
        Ok(self.membership.stats().clone())
    }

    /// The current group.
    pub(super) fn group(&self) -> Vec<u32> {
        self.membership
            .current()
            .iter()
            .map(|&s| s as u32)
            .collect()
    }

    /// Whether the program picks the server.
    pub(super) fn dispatching(&self) -> bool {
        self.dispatch.is_some()
    }
}
