//! Crash recovery on the server host: the journal of committed updates
//! ([`crate::journal`]), a restarted server's restore, and re-installing a restarted switch.
//!
//! Before: a restarted server ran `configure()` and reset the switch (every mapping lost); a
//! restarted switch came back empty and the server stayed detached from it.
//!
//! ```text
//!   server killed  -> server serve: configure(), reset switch, install   (mappings lost)
//!   switch killed  -> switch serve: empty tables; server: "the switch went away", stops
//! ```
//!
//! After:
//!
//! ```text
//!   server killed  -> server serve: configure(), replay DIR/server0.journal, read back the
//!                     switch-owned registers from the running switch, rebuild the switch's
//!                     copies from the result (no reset)
//!   switch killed  -> switch serve (new token) -> the server sees the new switch, attaches
//!                     again and re-installs everything from its primary copy
//!                     ([`ServerHost::reinstall`]), switch-owned registers as last read back
//! ```

use super::{Bundle, RunOptions, ServerHost};
use crate::ageing::Ageing;
use crate::control::ControlPlane;
use crate::journal::{Journal, Record};
use crate::primary::{Primary, Touched};
use crate::sync::SyncEngine;
use crate::OffloadError;

/// What a restarted server recovered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovered {
    /// Journal records replayed.
    pub records: u64,
    /// The last journal line was cut short by the kill (its packet was never released).
    pub torn_tail: bool,
    /// The switch-owned registers were read back from the running switch (false: the
    /// switch did not answer them; the journal's and `configure()`'s values stand).
    pub registers_read_back: bool,
}

/// A restarted server's start: the journal over `configure()`'s state, the switch-owned
/// registers from the switch, then every switch copy rebuilt.
pub(super) fn restore(
    primary: &mut Primary,
    sync: &mut SyncEngine,
    ageing: &mut Ageing,
    cp: &mut dyn ControlPlane,
    records: &[Record],
    switch_ageing: bool,
) -> Result<(), OffloadError> {
    Journal::replay(primary, records)?;
    // The running switch holds what pre wrote since (MazuNAT's port counter): its values win.
    let _ = sync.read_switch_owned(cp, primary);
    // The tables still hold the old server's entries: cleared and rewritten by the resync
    // (a switch whose tables age cannot take a new age group over them: they stay un-aged).
    ageing.configure(cp, primary, switch_ageing)?;
    sync.resync(cp, primary)
}

impl ServerHost {
    /// A server host that continues from `journal` (crash recovery): `configure()`'s state
    /// (`initial`) with the journal's records replayed, the switch-owned registers read back
    /// from the switch (which must still run the program: it is not reset), and the switch's
    /// other copies rebuilt from the result. The journal is kept open for appending. A
    /// missing journal is a fresh start (and starts one).
    pub fn recover(
        bundle: &Bundle,
        initial: &serde_json::Value,
        options: &RunOptions,
        cp: Box<dyn ControlPlane>,
        journal: &std::path::Path,
    ) -> Result<(ServerHost, Recovered), OffloadError> {
        let existed = journal.is_file();
        let (j, replay) = Journal::open(journal, &bundle.manifest.ir_digest)?;
        let records = existed.then_some(&replay.records[..]);
        let mut host = Self::build(bundle, initial, options, cp, records)?;
        host.journal = Some(j);
        Ok((
            host,
            Recovered {
                records: replay.records.len() as u64,
                torn_tail: replay.torn_tail,
                registers_read_back: existed,
            },
        ))
    }

    /// Records appended to the journal by this process (`None`: no journal).
    pub fn journaled(&self) -> Option<u64> {
        self.journal.as_ref().map(|j| j.appended)
    }

    /// Stops journaling and removes the journal (a clean stop: nothing to recover).
    pub fn close_journal(&mut self) -> Result<(), OffloadError> {
        match self.journal.take() {
            Some(j) => j.remove(),
            None => Ok(()),
        }
    }

    /// Appends what the primary copy's touched set names (`held`: keeps it for
    /// [`ServerHost::release_held`] instead: the switch has not confirmed the batch).
    pub(super) fn journal_touched(&mut self, held: Option<()>) -> Result<(), OffloadError> {
        if self.journal.is_none() {
            return Ok(());
        }
        let touched = self.primary.touched().clone();
        self.journal_set(&touched, held.is_some())
    }

    /// Appends the records of `touched` (a whole-NF run's).
    pub(super) fn journal_records(&mut self, touched: &Touched) -> Result<(), OffloadError> {
        if self.journal.is_none() {
            return Ok(());
        }
        self.journal_set(touched, false)
    }

    fn journal_set(&mut self, touched: &Touched, held: bool) -> Result<(), OffloadError> {
        let owned = self.sync.switch_owned().clone();
        let recs = Journal::records(&self.module, &mut self.primary, touched, &owned);
        if held {
            self.journal_held.extend(recs);
            return Ok(());
        }
        match self.journal.as_mut() {
            Some(j) => j.append(&recs),
            None => Ok(()),
        }
    }

    /// Appends a released packet's (or tick's) records.
    pub(super) fn journal_release(&mut self) -> Result<(), OffloadError> {
        let recs = std::mem::take(&mut self.journal_held);
        match self.journal.as_mut() {
            Some(j) => j.append(&recs),
            None => Ok(()),
        }
    }

    /// Reads the switch-owned registers back into the primary copy (a deployment does it
    /// after every server packet, so a restarted switch gets them as of the last one).
    pub fn read_back_switch_owned(&mut self) -> Result<(), OffloadError> {
        if self.sync.switch_owned().is_empty() {
            return Ok(());
        }
        self.sync
            .read_switch_owned(self.cp.as_mut(), &mut self.primary)
    }

    /// A restarted switch (empty tables, registers 0): installs everything again from the
    /// primary copy — map entries, replicated registers and the switch-owned registers as
    /// last read back.
    pub fn reinstall(&mut self) -> Result<(), OffloadError> {
        self.held = None;
        self.journal_held.clear();
        let enabled = self.ageing.active();
        self.ageing
            .configure(self.cp.as_mut(), &mut self.primary, enabled)?;
        self.sync.resync(self.cp.as_mut(), &self.primary)?;
        self.sync
            .write_switch_owned(self.cp.as_mut(), &self.primary)
    }
}
