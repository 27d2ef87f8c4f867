//! Meters on the switch (`switch_register` placement, manifest `meters`): who owns the
//! bucket state and how the runtime moves it.
//!
//! A meter array the plan places on the switch is executed only there (meters run in pre,
//! never after a server visit): from start-up on, the switch's meter cells are the primary
//! copy of their rates and buckets. The runtime
//!
//! - **installs** every configured meter of the primary copy after `configure()` (rates and
//!   bursts with full buckets, as a P4Runtime `MeterEntry` would; Tandem's switch takes the
//!   whole cell);
//! - **reads** the configured meters back before comparing state (`tandem check` compares
//!   rates, bucket levels and last refill time, all of them deterministic functions of the
//!   packets' times and lengths) and before a packet runs whole on the server;
//! - **writes** back, after such a run, the meters whose cells it changed.
//!
//! Meters never configured stay all-zero everywhere (an unconfigured meter is green and
//! changes nothing), so only configured ones move. A meter array the plan keeps on the
//! server lives only in the primary copy (`ops->meter_execute`).

use tandem_ir::{MeterCell, StateId};

use crate::control::{ControlPlane, RetryPolicy};
use crate::primary::Primary;
use crate::sync::SyncStats;
use crate::OffloadError;

/// The switch's meter array of one meter state.
#[derive(Debug)]
pub(crate) struct MeterSync {
    /// Qualified name of the meter array.
    name: String,
    /// What the switch held at the last read or write, by index (configured meters).
    known: Vec<(u64, MeterCell)>,
}

fn to_switch(c: &MeterCell) -> tandem_switch::MeterCell {
    tandem_switch::MeterCell::from_words(&c.words())
}

fn from_switch(c: &tandem_switch::MeterCell) -> MeterCell {
    MeterCell::from_words(&c.words())
}

fn index32(i: u64) -> Result<u32, OffloadError> {
    u32::try_from(i).map_err(|_| OffloadError::State(format!("meter index {i} above 2^32")))
}

impl MeterSync {
    pub(crate) fn new(name: String) -> MeterSync {
        MeterSync {
            name,
            known: Vec::new(),
        }
    }

    fn cells(primary: &Primary, sid: u32) -> Result<Vec<(u64, MeterCell)>, OffloadError> {
        primary
            .store
            .meter_cells_at(StateId::from_u32(sid))
            .ok_or_else(|| OffloadError::State(format!("state {sid} is not a meter array")))
    }

    fn write(
        &self,
        cp: &mut dyn ControlPlane,
        policy: &RetryPolicy,
        stats: &mut SyncStats,
        index: u64,
        cell: &MeterCell,
    ) -> Result<(), OffloadError> {
        let i = index32(index)?;
        let c = to_switch(cell);
        policy
            .run(&mut stats.retries, || cp.meter_write(&self.name, i, &c))
            .map_err(OffloadError::Control)?;
        stats.requests += 1;
        stats.register_writes += 1;
        Ok(())
    }

    /// Writes every configured meter of the primary copy to the switch.
    pub(crate) fn install(
        &mut self,
        cp: &mut dyn ControlPlane,
        policy: &RetryPolicy,
        stats: &mut SyncStats,
        primary: &Primary,
        sid: u32,
    ) -> Result<(), OffloadError> {
        self.known.clear();
        self.write_changed(cp, policy, stats, primary, sid)
    }

    /// Reads the configured meters back into the primary copy.
    pub(crate) fn read_back(
        &mut self,
        cp: &mut dyn ControlPlane,
        policy: &RetryPolicy,
        stats: &mut SyncStats,
        primary: &mut Primary,
        sid: u32,
    ) -> Result<(), OffloadError> {
        let id = StateId::from_u32(sid);
        let mut known = Vec::new();
        for (i, _) in Self::cells(primary, sid)? {
            let ix = index32(i)?;
            let c = policy
                .run(&mut stats.retries, || cp.meter_read(&self.name, ix))
                .map_err(OffloadError::Control)?;
            stats.requests += 1;
            let c = from_switch(&c);
            primary.store.meter_set_at(id, i, c);
            known.push((i, c));
        }
        self.known = known;
        Ok(())
    }

    /// Writes the meters whose cells differ from what the switch was last known to hold
    /// (after a run on the server changed them).
    pub(crate) fn write_changed(
        &mut self,
        cp: &mut dyn ControlPlane,
        policy: &RetryPolicy,
        stats: &mut SyncStats,
        primary: &Primary,
        sid: u32,
    ) -> Result<(), OffloadError> {
        let cells = Self::cells(primary, sid)?;
        for (i, c) in &cells {
            let same = self
                .known
                .binary_search_by_key(i, |(k, _)| *k)
                .is_ok_and(|at| self.known[at].1 == *c);
            if !same {
                self.write(cp, policy, stats, *i, c)?;
            }
        }
        self.known = cells;
        Ok(())
    }
}
