//! The server meter at run time (`--server-rate`, `tandem_p4`'s `lower/server_meter.rs`):
//! the runtime installs its rate and tells metered drops from the NF's own drops.
//!
//! At start-up the runtime writes index 0 of the manifest's `server_meter.meter` with
//! committed and peak rate PPS and both bursts BURST (full buckets), from the run's
//! `--server-rate` or else the rate the program was compiled with. A packet the switch drops
//! in its first pass is a *metered* drop exactly when the drop counter
//! (`server_meter.counter`, index 0) went up during that pass: the runtime processes one
//! packet at a time, so the counter's increase belongs to that packet.
//!
//! ```text
//! before: switch drops packet p            → RunStats.dropped += 1, fast_path += 1
//! after:  switch drops p, counter 41 → 42 → RunStats.dropped += 1, metered += 1
//! ```

use tandem_switch::{MeterCell, Switch};

use crate::system::Bundle;
use crate::OffloadError;

/// The program's server meter, as installed.
#[derive(Debug)]
pub struct ServerMeter {
    counter: String,
    /// The drop counter's value after the last packet.
    seen: u64,
}

impl ServerMeter {
    /// Configures the server meter of `bundle`'s program on `sw` (`rate` overrides the
    /// compiled one); `None` when the program has no server meter. A run-time rate for a
    /// program compiled without the meter is an error.
    pub fn install(
        sw: &Switch,
        bundle: &Bundle,
        rate: Option<tandem_p4::ServerRate>,
    ) -> Result<Option<ServerMeter>, OffloadError> {
        let Some(m) = &bundle.manifest.server_meter else {
            return match rate {
                Some(_) => Err(OffloadError::Manifest(
                    "--server-rate: the switch program has no server meter (compile it with --server-rate)".into(),
                )),
                None => Ok(None),
            };
        };
        let (pps, burst) = rate.map_or((m.pps, m.burst), |r| (r.pps, r.burst));
        let sw_err = |e: tandem_switch::ControlError| OffloadError::Switch(e.to_string());
        sw.meter_write(&m.meter, 0, MeterCell::with_rates(pps, burst, pps, burst))
            .map_err(sw_err)?;
        let (seen, _) = sw.counter_read(&m.counter, 0).map_err(sw_err)?;
        Ok(Some(ServerMeter {
            counter: m.counter.clone(),
            seen,
        }))
    }

    /// After the switch dropped a packet: whether the server meter dropped it.
    pub fn dropped_one(&mut self, sw: &Switch) -> Result<bool, OffloadError> {
        let (now, _) = sw
            .counter_read(&self.counter, 0)
            .map_err(|e| OffloadError::Switch(e.to_string()))?;
        let metered = now > self.seen;
        self.seen = now;
        Ok(metered)
    }
}
