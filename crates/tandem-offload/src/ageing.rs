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
//! **Derived class maps.** When the switch keeps a map as its derived state classes
//! (`NAME__class`, [`tandem_partition::specialize_state_classes`]), the packets that change
//! nothing are answered from the class map alone: its hits are the NF's uses of `NAME`
//! (whose copy is the server's), so a pull refreshes both. Before, the server's `conns` of
//! StateFilter with a 2 s idle timeout saw nothing of a connection's data packets and
//! dropped its teardown as the packet of an expired connection, which the NF forwards
//! (`tests/ageing.rs`).
//!
//! **Lazy pull.** A control plane that can read one key's last hit on demand
//! ([`ControlPlane::age_reader`]: the in-process switch) is not polled before every server
//! packet ([`Ageing::pull_for_packet`]): the primary copy asks the switch for a key's last
//! hit only when its own copy of the key looks expired at a look-up (a live key's last use
//! becomes the packet's time anyway), drains the whole hit list only before an insert into
//! a full map (which drops the expired entries), and the runtime pulls everything before
//! anything else reads the primary copy's times (a whole-NF run, a timer, a state read, a
//! probe walk, a rebalance: [`Ageing::catch_up`]). The switch lists each key hit since the
//! last pull once, so what a lazy pull leaves for later costs nothing per packet.
//!
//! ```text
//!   before (polled):  server packet -> read 19.5 hits, 19.5 primary look-ups -> run
//!   after (lazy):     server packet -> run (a look-up of an expired-looking key reads the
//!                     switch's last hit of that key)
//! ```
//!
//! **Cost.** A pull (when polled) and a push run around every server packet, so both go through packed,
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
use crate::hashed_ageing::{AgeSource, HashedAgeReader, SlotIndex, TimeUnit};
use crate::primary::Primary;
use crate::sync::SyncEngine;
use crate::OffloadError;

/// When `name` is a derived class map (`NAME__class`,
/// [`tandem_partition::specialize_state_classes`]) of an expiring map `NAME` with the same
/// key: `NAME`'s index. The switch answers the packets that change nothing from the class
/// map alone, so its hits there are the uses the NF makes of `NAME` (whose copy is the
/// server's): without them the server forgets a connection whose data packets stay on the
/// switch for longer than the idle timeout.
fn original_of_class_map(module: &Module, name: &str) -> Option<u32> {
    let orig = tandem_partition::class_map_of(name)?;
    let id = module.state_by_name(orig)?;
    let class = module.state_by_name(name)?;
    let key = |s: tandem_ir::StateId| {
        module.states[s]
            .kind
            .map_layouts()
            .map(|(k, _)| k.types().collect::<Vec<_>>())
    };
    let expiring = matches!(
        module.states[id].kind,
        tandem_ir::StateKind::ExpiringMap { .. }
    );
    (expiring && key(id).is_some() && key(id) == key(class)).then(|| id.as_u32())
}

/// One expiring map whose switch tables age.
#[derive(Clone, Debug)]
struct AgeMap {
    state: u32,
    name: String,
    /// Its tables (qualified names); the first names the group.
    tables: Vec<String>,
    timeout_ns: u64,
    /// A derived class map's original (`conns__class` → `conns`, an expiring map of the
    /// module): a hit on the class table is a use of the original's key too.
    also: Option<u32>,
    /// Held in hash-indexed registers: its hits are per-slot times, not table ages
    /// (`crate::hashed_ageing`); the switch's copy itself does not age.
    hashed: Option<HashedAges>,
}

/// A hashed map's hit-time registers.
#[derive(Clone, Debug)]
struct HashedAges {
    /// Per way (qualified names).
    registers: Vec<String>,
    unit: TimeUnit,
    /// Where the sync engine placed each key ([`Ageing::attach`]).
    index: SlotIndex,
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
    /// Every map's hits are read lazily ([`Ageing::pull_for_packet`]): the control plane
    /// gave an [`tandem_switch::AgeReader`] for each.
    lazy: bool,
    /// The table maps age (the control plane took `configure_ageing`).
    tables: bool,
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
                    also: original_of_class_map(module, &t.state),
                    hashed: None,
                }),
            }
        }
        for s in &manifest.states {
            let Some(h) = s
                .hashed
                .as_ref()
                .filter(|h| !h.hit_time_registers.is_empty())
            else {
                continue;
            };
            let Some(id) = module.state_by_name(&s.name) else {
                continue;
            };
            maps.push(AgeMap {
                state: id.as_u32(),
                name: s.name.clone(),
                tables: Vec::new(),
                timeout_ns: 0,
                also: original_of_class_map(module, &s.name),
                hashed: Some(HashedAges {
                    registers: h.hit_time_registers.clone(),
                    unit: TimeUnit {
                        unit_ns: h.hit_time_unit_ns,
                        bits: h.hit_time_bits,
                    },
                    index: SlotIndex::default(),
                }),
            });
        }
        Ageing {
            maps,
            ..Ageing::default()
        }
    }

    /// Shares the sync engine's placement of each hashed map's keys (before
    /// [`Ageing::configure`]).
    pub fn attach(&mut self, sync: &SyncEngine) {
        for m in &mut self.maps {
            if let (Some(h), Some(ix)) = (m.hashed.as_mut(), sync.hashed_slots(m.state)) {
                h.index = ix;
            }
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
        self.lazy = false;
        self.tables = false;
        primary.clear_age_readers();
        if !enabled || self.maps.is_empty() {
            return Ok(());
        }
        self.tables = true;
        let table_maps = self.maps.iter().filter(|m| m.hashed.is_none());
        for (i, m) in table_maps.enumerate() {
            let tables: Vec<&str> = m.tables.iter().map(String::as_str).collect();
            if let Err(e) = cp.configure_ageing(&tables, m.timeout_ns) {
                if i == 0 && matches!(e, crate::control::ControlFailure::Rejected(_)) {
                    // A control plane without ageing: the table copies do not age (as
                    // before); hashed maps' hit times are registers, read all the same.
                    self.tables = false;
                    break;
                }
                return Err(OffloadError::Control(
                    crate::control::ControlFailure::Rejected(format!(
                        "map `{}`: configuring the ageing of its tables: {e}",
                        m.name
                    )),
                ));
            }
        }
        let tables = self.tables;
        let live = |m: &&AgeMap| tables || m.hashed.is_some();
        if !self.maps.iter().any(|m| live(&m)) {
            return Ok(());
        }
        self.active = true;
        let readers: Vec<_> = self
            .maps
            .iter()
            .filter(live)
            .map(|m| match &m.hashed {
                None => cp.age_reader(&m.tables[0]).map(AgeSource::Tables),
                Some(h) => {
                    let regs: Option<Vec<_>> =
                        h.registers.iter().map(|r| cp.register_reader(r)).collect();
                    Some(AgeSource::Hashed(HashedAgeReader {
                        index: h.index.clone(),
                        registers: regs?,
                        unit: h.unit,
                    }))
                }
            })
            .collect();
        if readers.iter().all(Option::is_some) {
            self.lazy = true;
            let maps = self.maps.iter().filter(live);
            for (m, r) in maps.zip(readers.into_iter().flatten()) {
                let states: Vec<u32> = std::iter::once(m.state).chain(m.also).collect();
                primary.add_age_reader(r, &states);
            }
        }
        for m in self.maps.iter().filter(|m| m.hashed.is_some()) {
            // The server's uses of the key (in the map or its original) refresh its slot's
            // time on the switch ([`Ageing::push`]).
            primary.set_ageing(m.state);
            if let Some(o) = m.also {
                primary.set_ageing(o);
            }
        }
        for m in self.maps.iter().filter(|m| tables && m.hashed.is_none()) {
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
            if let Some(h) = &m.hashed {
                hashed_hits(cp, h, primary.now(), &mut self.buf)?;
            } else if self.tables {
                cp.read_ages_into(&m.tables[0], &mut self.buf)?;
            } else {
                continue;
            }
            self.pulled += self.buf.len() as u64;
            for (k, t) in self.buf.iter() {
                primary.refresh(m.state, k, t);
                if let Some(o) = m.also {
                    primary.refresh(o, k, t);
                }
            }
        }
        Ok(())
    }

    /// What a server packet pulls before the server partition runs: nothing when the hits
    /// are read lazily (the primary copy reads the last hit of each key it looks up, and
    /// the whole hit list before an insert into a full map), else [`Ageing::pull`].
    pub fn pull_for_packet(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &mut Primary,
    ) -> Result<(), OffloadError> {
        if self.lazy {
            return Ok(());
        }
        self.pull(cp, primary)
    }

    /// Before the primary copy is read other than by a server packet's look-ups (a probe
    /// walk): when the hits are read lazily, [`Ageing::pull`] (the hits since the last
    /// one, each key once); else nothing (the last server packet pulled them).
    pub fn catch_up(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &mut Primary,
    ) -> Result<(), OffloadError> {
        if !self.lazy {
            return Ok(());
        }
        self.pull(cp, primary)
    }

    /// Whether the hits are read lazily.
    pub fn lazy(&self) -> bool {
        self.lazy
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
        for m in self
            .maps
            .iter()
            .filter(|m| self.tables && m.hashed.is_none())
        {
            primary.used_ages(m.state, &mut self.buf);
            if !self.buf.is_empty() {
                self.pushed += self.buf.len() as u64;
                cp.set_ages_list(&m.tables[0], &self.buf)?;
            }
        }
        for m in &self.maps {
            if let Some(h) = &m.hashed {
                for s in std::iter::once(m.state).chain(m.also) {
                    primary.used_ages(s, &mut self.buf);
                    self.pushed += hashed_push(cp, h, &self.buf)?;
                }
            }
        }
        primary.clear_used();
        Ok(())
    }
}

/// The server's uses of a hashed map's keys (`uses`: key and last use) written to their
/// slots' hit times, so the switch's expiry check (`tandem_p4::lower::hashed`) sees them: a
/// key the server keeps alive is answered on the switch again. Keys not placed (yet) are
/// skipped: a placement writes the key's last use itself (`sync::hashed`). Returns the
/// writes.
fn hashed_push(
    cp: &mut dyn ControlPlane,
    h: &HashedAges,
    uses: &AgeList,
) -> Result<u64, OffloadError> {
    let mut n = 0;
    for (k, t) in uses.iter() {
        let Some((way, slot)) = h.index.get(k) else {
            continue;
        };
        let Some(r) = h.registers.get(way as usize) else {
            continue;
        };
        cp.register_write(r, slot, h.unit.units(t))?;
        n += 1;
    }
    Ok(n)
}

/// Every placed key of a hashed map that was hit, with its last hit, through the control
/// plane's register reads (the pull of a control plane without register readers).
fn hashed_hits(
    cp: &mut dyn ControlPlane,
    h: &HashedAges,
    now_ns: u64,
    out: &mut AgeList,
) -> Result<(), OffloadError> {
    out.clear();
    for (k, way, slot) in h.index.entries() {
        let Some(r) = h.registers.get(way as usize) else {
            continue;
        };
        if let Some(t) = h.unit.to_ns(cp.register_read(r, slot)?, now_ns) {
            out.push(&k, t);
        }
    }
    Ok(())
}
