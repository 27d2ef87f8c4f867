//! A single owner for a cluster's global state ([`tandem_analysis::owner`]): server 0 keeps
//! every global object (a port counter, a reply table keyed by the allocated port); another
//! server's packet works on the owner's copy, and the owner's synchronisation engine alone
//! writes those objects to the switch.
//!
//! In process, packets run one at a time, so "a request to the owner inside the atomic
//! protocol" is a loan: before server `K` runs a packet, the owner's global objects are
//! swapped into `K`'s primary copy (`StateStore::swap_object`, O(1) per object); `K`'s
//! server partition runs on them exactly as the single-server NF would; what it changed in
//! them is recorded apart (`Primary::set_lent`); the objects are swapped back, and the owner
//! publishes those changes through its own engine before the packet is released (output
//! commit, as for its own packets).
//!
//! ```text
//!  before: MazuNAT with --servers 4 ran on server 0 alone (next_port, ext2int are global)
//!
//!  after:  packet of flow f ─▶ server K = dispatch(f)
//!            owner (server 0): next_port, ext2int ──lend──▶ K's primary copy
//!            K: server partition (int2ext is K's own, next_port/ext2int the owner's)
//!            owner ◀──return── changes to next_port/ext2int; owner's engine ─▶ switch
//! ```
//!
//! Each object's values are exactly the single-server NF's at every packet, so `check`
//! compares the outputs byte for byte (no renaming of allocated ports: DESIGN.md §10).
//! Negative control: a cluster that does not lend ([`Owner::set_lending`] off, each server
//! allocating from its own copy of the counter — overlapping ranges) fails `check`.

use tandem_analysis::shard::ShardReport;
use tandem_ir::{EntityRef as _, Module, StateId};

use crate::primary::Touched;
use crate::system::ServerHost;
use crate::OffloadError;

/// The global objects one owner keeps (server 0, the first of the cluster).
#[derive(Clone, Debug)]
pub(crate) struct Owner {
    objects: Vec<StateId>,
    /// Per state index: owned.
    mask: Vec<bool>,
    /// Off only in the negative control: each server works on its own copy.
    lending: bool,
}

/// The owner of the global objects.
pub(crate) const OWNER: usize = 0;

impl Owner {
    /// The owned objects of `report` (`None`: nothing needs an owner).
    pub(crate) fn new(module: &Module, report: &ShardReport) -> Option<Owner> {
        let objects = report.owned();
        if objects.is_empty() {
            return None;
        }
        let mut mask = vec![false; module.states.len()];
        for s in &objects {
            mask[s.index()] = true;
        }
        Some(Owner {
            objects,
            mask,
            lending: true,
        })
    }

    /// Whether other servers work on the owner's objects (off: negative control only).
    pub(crate) fn set_lending(&mut self, on: bool) {
        self.lending = on;
    }

    /// Runs `f` on server `at` with the owner's objects lent to it, then takes them back
    /// and publishes what `f` changed in them through the owner's engine. On the owner
    /// itself `f` just runs.
    pub(crate) fn lend<R>(
        &self,
        hosts: &mut [ServerHost],
        at: usize,
        counted_owner: bool,
        f: impl FnOnce(&mut ServerHost) -> Result<R, OffloadError>,
    ) -> Result<R, OffloadError> {
        if at == OWNER || !self.lending {
            return f(&mut hosts[at]);
        }
        let (head, tail) = hosts.split_at_mut(at);
        let (owner, k) = (&mut head[OWNER], &mut tail[0]);
        self.swap(owner, k)?;
        k.parts().0.set_lent(&self.mask);
        let r = f(k);
        let (kp, _, _) = k.parts();
        kp.set_lent(&[]);
        let changed = kp.take_lent_touched();
        let clock = kp.store.clock_ns;
        self.swap(owner, k)?;
        let op = owner.parts().0;
        op.store.clock_ns = op.store.clock_ns.max(clock);
        if !changed.is_empty() {
            if counted_owner {
                counted_publish(owner, &changed)?;
            } else {
                publish(owner, &changed)?;
            }
        }
        r
    }

    fn swap(&self, a: &mut ServerHost, b: &mut ServerHost) -> Result<(), OffloadError> {
        let (pa, _, _) = a.parts();
        let (pb, _, _) = b.parts();
        for &s in &self.objects {
            if !pa.store.swap_object(&mut pb.store, s) {
                return Err(OffloadError::State(format!(
                    "owner: state {} cannot be lent (not the same kind of object in both copies)",
                    s.index()
                )));
            }
        }
        Ok(())
    }
}

/// The owner publishes what another server's packet changed in its objects (output
/// commit: before that packet is released).
fn publish(owner: &mut ServerHost, changed: &Touched) -> Result<(), OffloadError> {
    let (op, sync, cp) = owner.parts();
    op.absorb_touched(changed);
    op.sort_touched();
    let c = sync.commit(cp, op, op.touched());
    op.clear_touched();
    c.map(|_| ())
}

/// [`publish`] for the owner when `tandem bench-cluster` counts it (a callgrind toggle
/// symbol, like `cluster::counted_handle`: the owner's work for other servers' packets is
/// the owner's). Keep it out of line.
#[inline(never)]
pub fn counted_publish(owner: &mut ServerHost, changed: &Touched) -> Result<(), OffloadError> {
    publish(owner, changed)
}
