//! Timer ticks: the NF's `on_timer` on the server, and the switch brought up to date.
//!
//! A tick runs between two packets, at the times the reference host fires it
//! ([`tandem_host::host::TickClock`]; the caller owns the clock): `tandem_server_timer` runs on
//! the primary copy, recording what it writes like a server packet. Then:
//!
//! - switch-owned registers the timer *reads* are read back first (the switch counts in them);
//! - map keys it inserted or erased are published as one atomic batch (write-back tables and
//!   the visibility flag), replicated registers by value, as for a server packet;
//! - switch-owned cells it *writes* (a sketch reset) are written from the control plane,
//!   every touched cell whether the value changed or not.
//!
//! No packet enters the switch between the tick's start and the switch's confirmation, so a
//! packet sees the whole tick or none of it. If the switch does not answer (an outage), the
//! tick is held like a packet and the packets behind it wait: a tick that could not read the
//! registers runs at [`ServerHost::release_held`]; one that ran keeps its effect in the
//! primary copy, and `release_held` rewrites the switch-owned state it wrote and rebuilds the
//! switch's other copies.

use tandem_ir::Module;

use super::ServerHost;
use crate::primary::Touched;
use crate::server::ServerLib;
use crate::OffloadError;

/// A tick the switch has not confirmed.
#[derive(Clone, Debug)]
enum Held {
    /// Reading the switch's registers failed: the tick (at this time) has not run yet.
    Unrun(u64),
    /// It ran on the primary copy, but its updates did not reach the switch; these
    /// switch-owned states it wrote must be rewritten (a resync leaves switch-owned
    /// registers alone).
    Unconfirmed(Vec<u32>),
}

/// What a [`ServerHost`] needs for ticks, and the state of a held one.
#[derive(Debug, Default)]
pub(crate) struct TimerSync {
    /// The module has a timer.
    enabled: bool,
    /// States on_timer reads (switch-owned ones are read back before each tick).
    reads: Vec<u32>,
    held: Option<Held>,
    /// Ticks run.
    ticks: u64,
}

impl TimerSync {
    pub(crate) fn new(module: &Module, server: &ServerLib) -> Result<TimerSync, OffloadError> {
        if module.timer.is_none() {
            return Ok(TimerSync::default());
        }
        if !server.has_timer() {
            return Err(OffloadError::ServerLoad(
                "the NF has on_timer() but server.so has no tandem_server_timer: recompile".into(),
            ));
        }
        let (reads, _) = module.timer_state_effects();
        Ok(TimerSync {
            enabled: true,
            reads: reads.iter().map(|s| s.as_u32()).collect(),
            held: None,
            ticks: 0,
        })
    }

    /// Whether a tick is held (not run, or its updates not confirmed by the switch).
    pub(crate) fn is_held(&self) -> bool {
        self.held.is_some()
    }
}

impl ServerHost {
    /// Runs the NF's `on_timer` for the tick at `now_ns` and brings the switch up to date
    /// (see the module docs); returns once the switch confirmed. An NF without a timer
    /// does nothing.
    // Counted by `tandem bench` with the other server entry points: keep it out of line.
    #[inline(never)]
    pub fn tick(&mut self, now_ns: u64) -> Result<(), OffloadError> {
        if !self.timer.enabled {
            return Ok(());
        }
        if self.is_holding() {
            return Err(OffloadError::Held);
        }
        let t0 = self.time_server.then(std::time::Instant::now);
        let r = self.run_tick(now_ns);
        self.add_server_time(t0);
        r
    }

    fn run_tick(&mut self, now_ns: u64) -> Result<(), OffloadError> {
        let reads = std::mem::take(&mut self.timer.reads);
        let r = self
            .sync
            .read_switch_owned_of(self.cp.as_mut(), &mut self.primary, &reads);
        self.timer.reads = reads;
        if let Err(e) = r {
            self.timer.held = Some(Held::Unrun(now_ns));
            return Err(e);
        }
        self.ageing.pull(self.cp.as_mut(), &mut self.primary)?;
        self.server.call_timer(&mut self.primary, now_ns)?;
        self.ageing.push(self.cp.as_mut(), &mut self.primary)?;
        self.timer.ticks += 1;
        self.primary.sort_touched();
        let touched = self.primary.touched();
        // The batch first: when it fails the engine rebuilds the switch's copies at the next
        // commit; switch-owned registers it leaves alone, so a held tick rewrites them.
        let r = self
            .sync
            .commit(self.cp.as_mut(), &self.primary, touched)
            .and_then(|_| {
                self.sync
                    .write_switch_owned_touched(self.cp.as_mut(), &self.primary, touched)
            });
        if r.is_err() {
            let owned = self.sync.switch_owned();
            let mut states: Vec<u32> = touched
                .others()
                .iter()
                .map(|&(s, _)| s)
                .filter(|s| owned.contains(s))
                .collect();
            states.dedup();
            self.timer.held = Some(Held::Unconfirmed(states));
        }
        // Journaled once confirmed (a held tick's records wait for `release_held`).
        let j = self.journal_touched(r.is_err().then_some(()));
        self.primary.clear_touched();
        r.and(j).map(|_| ())
    }

    /// Timer ticks run so far.
    pub fn timer_ticks(&self) -> u64 {
        self.timer.ticks
    }

    /// For [`ServerHost::release_held`], before its commit: runs a held tick that has not
    /// run, or rewrites the switch-owned state a held tick wrote (the commit rebuilds the
    /// rest; then [`ServerHost::tick_confirmed`]).
    pub(super) fn retry_held_tick(&mut self) -> Result<(), OffloadError> {
        match self.timer.held.clone() {
            None => Ok(()),
            Some(Held::Unrun(t)) => {
                self.timer.held = None;
                self.run_tick(t)
            }
            Some(Held::Unconfirmed(states)) => {
                let mut all = Touched::default();
                for s in states {
                    all.other(s, None);
                }
                self.sync
                    .write_switch_owned_touched(self.cp.as_mut(), &self.primary, &all)?;
                Ok(())
            }
        }
    }

    /// The switch confirmed everything: a held tick is released.
    pub(super) fn tick_confirmed(&mut self) {
        self.timer.held = None;
    }
}
