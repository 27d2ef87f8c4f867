//! Ageing of expiring maps on the switch, kept in step with the primary copy.
//!
//! An NF's `ExpiringMap` forgets an entry not found or inserted for longer than its idle
//! timeout (packet time). When such a map is looked up on the switch, the switch's copy must
//! expire the same entries at the same time, and the server's primary copy must count the
//! switch's hits as uses — or a flow idle on one copy and active on the other diverges.
//! Driven by the manifest: every table whose `idle_timeout_ns` is set (the tables of one
//! expiring map: main, write-back and duplicated copies) forms one age group on the switch
//! ([`ControlPlane::configure_ageing`]), so a hit on any copy keeps the key alive in all.
//!
//! The protocol, per map:
//!
//! 1. **Install**: the group is configured before any entry is written, and every key's
//!    last-use time is set from the primary copy (`configure()`'s entries).
//! 2. **Pull** ([`Ageing::pull`]) before the server uses the primary copy (a server packet, a
//!    whole-NF run, a timer tick, a state read): the keys the switch hit since the last pull
//!    ([`ControlPlane::read_ages`], the hit-state poll) move their last-use time forward in
//!    the primary copy.
//! 3. **Push** ([`Ageing::push`]) after it: the keys the server found or inserted get their
//!    new last-use time on the switch ([`ControlPlane::set_ages`]) — a key inserted again
//!    with the value the switch already shows is revived there without an entry write.
//!
//! Before (no ageing, L4LB with a 2 s idle timeout): a connection's first SYN is inserted at
//! 0 s; its reply at 2.5 s still hits `replies` on the switch and is translated, while the
//! NF has forgotten the connection and drops it.
//!
//! ```text
//!   0.0 s  SYN  -> server: insert conns, replies (switch: installed, never ages)
//!   2.5 s  reply -> switch: replies hit -> sent on port 0      (NF: expired -> dropped)
//! ```
//!
//! After: the switch's cell for the key says 0.0 s; at 2.5 s the lookup misses, as the NF's
//! does; had the client sent a packet at 1.0 s (a hit on `conns` and `replies` on the
//! switch), the cell would say 1.0 s, the reply would hit, and the next server packet would
//! first pull 1.0 s into the primary copy.
//!
//! A control plane without ageing (one that refuses `configure_ageing`) leaves the switch's
//! copies un-aged, as before; [`Ageing::active`] says which.
//!
//! **Cost.** A pull and a push run around every server packet, so both go through packed,
//! reused lists ([`tandem_switch::AgeList`]: [`ControlPlane::read_ages_into`],
//! [`ControlPlane::set_ages_list`]) and the primary copy records the keys it used in one word
//! buffer: no allocation per key or per packet once warmed up. Before, each hit and each used
//! key was its own `Vec<u64>` (`Vec<(Vec<u64>, u64)>`), which cost statefilter ≈ 2,200
//! instructions per server visit on datamining; after, ≈ 1,000, most of it the primary copy's
//! hash look-ups that move the hit keys' last-use times.

use tandem_ir::Module;
use tandem_p4::manifest::Manifest;
use tandem_switch::AgeList;

use crate::control::ControlPlane;
use crate::primary::Primary;
use crate::OffloadError;

/// One expiring map whose switch tables age.
#[derive(Clone, Debug)]
struct AgeMap {
    state: u32,
    name: String,
    /// Its tables (qualified names); the first names the group.
    tables: Vec<String>,
    timeout_ns: u64,
}

/// The expiring maps whose switch copies age, and whether the switch does it.
#[derive(Clone, Debug, Default)]
pub struct Ageing {
    maps: Vec<AgeMap>,
    active: bool,
    /// Keys pulled (switch hits) and pushed (server uses) so far.
    pub pulled: u64,
    pub pushed: u64,
    /// Reused for every pull and push: a server packet's ageing allocates nothing.
    buf: AgeList,
}

impl Ageing {
    /// The ageing maps the manifest declares (tables with `idle_timeout_ns`), inactive until
    /// [`Ageing::configure`]. Maps held in hash-indexed registers or as key digests do not
    /// age (their switch entries are not keyed by the NF's key).
    pub fn new(module: &Module, manifest: &Manifest) -> Ageing {
        let mut maps: Vec<AgeMap> = Vec::new();
        for t in &manifest.tables {
            let Some(timeout_ns) = t.idle_timeout_ns else {
                continue;
            };
            let plain = manifest
                .states
                .iter()
                .find(|s| s.name == t.state)
                .is_some_and(|s| s.hashed.is_none() && s.digest.is_none() && s.alpm.is_none());
            let Some(id) = module.state_by_name(&t.state) else {
                continue;
            };
            if !plain {
                continue;
            }
            match maps.iter_mut().find(|m| m.name == t.state) {
                Some(m) => m.tables.push(t.name.clone()),
                None => maps.push(AgeMap {
                    state: id.as_u32(),
                    name: t.state.clone(),
                    tables: vec![t.name.clone()],
                    timeout_ns,
                }),
            }
        }
        Ageing {
            maps,
            ..Ageing::default()
        }
    }

    /// Whether the switch's copies age.
    pub fn active(&self) -> bool {
        self.active
    }

    /// The maps that age (names), when active.
    pub fn maps(&self) -> Vec<&str> {
        if !self.active {
            return Vec::new();
        }
        self.maps.iter().map(|m| m.name.as_str()).collect()
    }

    /// Configures each map's tables as one age group and sets every key's last use from the
    /// primary copy; marks the maps in `primary` so that it records the keys it uses. Must run
    /// before the entries are installed. With `enabled` false (or a control plane that
    /// refuses ageing) nothing ages.
    pub fn configure(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &mut Primary,
        enabled: bool,
    ) -> Result<(), OffloadError> {
        self.active = false;
        if !enabled || self.maps.is_empty() {
            return Ok(());
        }
        for (i, m) in self.maps.iter().enumerate() {
            let tables: Vec<&str> = m.tables.iter().map(String::as_str).collect();
            if let Err(e) = cp.configure_ageing(&tables, m.timeout_ns) {
                if i == 0 && matches!(e, crate::control::ControlFailure::Rejected(_)) {
                    // A control plane without ageing: the copies do not age (as before).
                    return Ok(());
                }
                return Err(OffloadError::Control(
                    crate::control::ControlFailure::Rejected(format!(
                        "map `{}`: configuring the ageing of its tables: {e}",
                        m.name
                    )),
                ));
            }
        }
        self.active = true;
        for m in &self.maps {
            primary.set_ageing(m.state);
            let ages = primary
                .store
                .map_ages(tandem_ir::StateId::from_u32(m.state));
            if !ages.is_empty() {
                cp.set_ages(&m.tables[0], &ages)?;
            }
        }
        Ok(())
    }

    /// Moves the primary copy's last-use times forward to the switch's hits since the last
    /// pull.
    pub fn pull(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &mut Primary,
    ) -> Result<(), OffloadError> {
        if !self.active {
            return Ok(());
        }
        for m in &self.maps {
            cp.read_ages_into(&m.tables[0], &mut self.buf)?;
            self.pulled += self.buf.len() as u64;
            for (k, t) in self.buf.iter() {
                primary.refresh(m.state, k, t);
            }
        }
        Ok(())
    }

    /// Gives the switch the last-use times of the keys the server used since the last push.
    pub fn push(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &mut Primary,
    ) -> Result<(), OffloadError> {
        if !self.active {
            return Ok(());
        }
        if primary.no_used() {
            return Ok(());
        }
        for m in &self.maps {
            primary.used_ages(m.state, &mut self.buf);
            if !self.buf.is_empty() {
                self.pushed += self.buf.len() as u64;
                cp.set_ages_list(&m.tables[0], &self.buf)?;
            }
        }
        primary.clear_used();
        Ok(())
    }
}
