//! The control plane between the server host and the switch: table writes and register
//! reads/writes, as a P4Runtime client would send them. One [`ControlPlane::write`] is one
//! write request; targets do not promise that its updates become visible together (that is
//! what the write-back tables and the visibility flag are for, see [`crate::sync`]).
//!
//! [`SwitchControl`] drives the in-process software switch; [`FaultyControl`] wraps any
//! control plane and injects failures, delays and full tables for tests.

use std::collections::VecDeque;
use std::time::Duration;

use tandem_ir::MapMatch;
use tandem_switch::{AgeList, ControlError, ControlOp, KeyMatch, MeterCell, Switch, TableEntry};

/// Why a control-plane request failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ControlFailure {
    /// The request did not take effect and may be retried (lost message, busy target).
    #[error("transient control-plane failure: {0}")]
    Transient(String),
    /// A table has no room for another entry.
    #[error("table `{table}` is full")]
    Full {
        /// The table.
        table: String,
    },
    /// The request is wrong (unknown table, bad arguments): retrying cannot help.
    #[error("control-plane request rejected: {0}")]
    Rejected(String),
}

/// What an [`ExactOp`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExactKind {
    /// Adds an entry.
    Insert,
    /// Changes the action (and arguments) of an entry.
    Modify,
    /// Removes an entry.
    Delete,
}

/// One write to an exact-match table in compact form: table and action as indices into the
/// request's name lists, key and action arguments packed in the request's words (the key at
/// `at`, the arguments right after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactOp {
    /// What the write does.
    pub kind: ExactKind,
    /// Index into [`ExactBatch::tables`].
    pub table: u32,
    /// Index into [`ExactBatch::actions`] (ignored by deletes).
    pub action: u32,
    /// Where the key starts in [`ExactBatch::words`].
    pub at: u32,
    /// Key fields.
    pub key_len: u32,
    /// Action arguments (after the key).
    pub args_len: u32,
}

/// A write request of exact-match table writes in compact form (numeric ids and packed
/// operands, as a P4Runtime client sends them): what the runtime composes per batch without
/// building strings or vectors per entry. [`ExactBatch::to_ops`] spells it out.
#[derive(Clone, Copy, Debug)]
pub struct ExactBatch<'a> {
    /// Table names, by index.
    pub tables: &'a [String],
    /// Action names, by index.
    pub actions: &'a [String],
    /// The writes, in order.
    pub ops: &'a [ExactOp],
    /// Keys and arguments of the writes.
    pub words: &'a [u64],
    /// How the table's keys match, which says how each op's key words spell an entry
    /// ([`tandem_ir::StateKind::entry_key_layout`]): exact — one word per key field; `lpm` —
    /// a word per exact key field, the prefix and its length; `ternary` — a value per key field, a mask per key field and
    /// the priority; `range` — low, high and the priority.
    pub matching: MapMatch,
}

/// The matches and priority an entry name spells (see [`ExactBatch::matching`]).
pub fn entry_matches(matching: MapMatch, key: &[u64]) -> (Vec<KeyMatch>, Option<i64>) {
    match (matching, key) {
        (MapMatch::Lpm, [exact @ .., prefix, len]) => {
            let mut m: Vec<KeyMatch> = exact.iter().map(|&k| KeyMatch::Exact(k)).collect();
            m.push(KeyMatch::Lpm(*prefix, *len as u32));
            (m, None)
        }
        (MapMatch::Range, &[lo, hi, prio]) => (vec![KeyMatch::Range(lo, hi)], Some(prio as i64)),
        (MapMatch::Ternary, [rest @ .., prio]) if rest.len() % 2 == 0 => {
            let (k, m) = rest.split_at(rest.len() / 2);
            (
                k.iter()
                    .zip(m)
                    .map(|(&k, &m)| KeyMatch::Ternary(k, m))
                    .collect(),
                Some(*prio as i64),
            )
        }
        _ => (key.iter().map(|&k| KeyMatch::Exact(k)).collect(), None),
    }
}

impl ExactBatch<'_> {
    /// The same request as [`ControlOp`]s.
    pub fn to_ops(&self) -> Vec<ControlOp> {
        self.ops
            .iter()
            .map(|o| {
                let table = self.tables[o.table as usize].clone();
                let at = o.at as usize;
                let key = &self.words[at..at + o.key_len as usize];
                let (matches, priority) = entry_matches(self.matching, key);
                let args_at = at + o.key_len as usize;
                let entry = || TableEntry {
                    matches: matches.clone(),
                    action: self.actions[o.action as usize].clone(),
                    args: self.words[args_at..args_at + o.args_len as usize].to_vec(),
                    priority,
                };
                match o.kind {
                    ExactKind::Insert => ControlOp::Insert {
                        table,
                        entry: entry(),
                    },
                    ExactKind::Modify => ControlOp::Modify {
                        table,
                        entry: entry(),
                    },
                    ExactKind::Delete => ControlOp::Delete {
                        table,
                        matches,
                        priority,
                    },
                }
            })
            .collect()
    }
}

/// A switch's control plane.
pub trait ControlPlane: Send {
    /// One write request. On error nothing of it took effect.
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure>;
    /// One write request in compact form (by default: [`ExactBatch::to_ops`], then
    /// [`ControlPlane::write`]). On error nothing of it took effect.
    fn write_exact(&mut self, batch: &ExactBatch<'_>) -> Result<(), ControlFailure> {
        if batch.ops.is_empty() {
            return Ok(());
        }
        self.write(&batch.to_ops())
    }
    /// Writes one register cell.
    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure>;
    /// Reads one register cell.
    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure>;
    /// Writes one meter whole: rates and bursts, bucket levels, last refill time (Tandem's
    /// switch; a P4Runtime target can only set the rates, which fills the buckets). By
    /// default refused: a control plane without meters.
    fn meter_write(
        &mut self,
        name: &str,
        index: u32,
        cell: &MeterCell,
    ) -> Result<(), ControlFailure> {
        let _ = (index, cell);
        Err(ControlFailure::Rejected(format!(
            "meter `{name}`: this control plane has no meters"
        )))
    }
    /// Reads one meter whole (see [`ControlPlane::meter_write`]).
    fn meter_read(&mut self, name: &str, index: u32) -> Result<MeterCell, ControlFailure> {
        let _ = index;
        Err(ControlFailure::Rejected(format!(
            "meter `{name}`: this control plane has no meters"
        )))
    }
    /// Reads the direct counter of every entry of `table` at one moment: each entry's exact
    /// key (one value per key field) and its packet count (P4Runtime: the table's
    /// `DirectCounterEntry`s). By default refused: a control plane without direct counters.
    fn direct_counters(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        Err(ControlFailure::Rejected(format!(
            "table `{table}`: this control plane has no direct counters"
        )))
    }
    /// Makes `tables` one age group whose entries miss once idle for longer than
    /// `timeout_ns` (`crate::ageing`; P4Runtime: each entry's `idle_timeout_ns`). By default
    /// refused: a control plane without ageing.
    fn configure_ageing(&mut self, tables: &[&str], timeout_ns: u64) -> Result<(), ControlFailure> {
        let _ = timeout_ns;
        Err(ControlFailure::Rejected(format!(
            "tables {tables:?}: this control plane has no entry ageing"
        )))
    }
    /// Sets the last-hit time (ns) of keys of `table`'s age group.
    fn set_ages(&mut self, table: &str, ages: &[(Vec<u64>, u64)]) -> Result<(), ControlFailure> {
        let _ = ages;
        Err(ControlFailure::Rejected(format!(
            "table `{table}`: this control plane has no entry ageing"
        )))
    }
    /// The keys of `table`'s age group hit since the last call, with their last-hit times
    /// (the hit-state poll).
    fn read_ages(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        Err(ControlFailure::Rejected(format!(
            "table `{table}`: this control plane has no entry ageing"
        )))
    }
    /// [`ControlPlane::read_ages`] into a reusable packed list (cleared first): what the
    /// runtime polls on every server packet. By default through `read_ages`.
    fn read_ages_into(&mut self, table: &str, out: &mut AgeList) -> Result<(), ControlFailure> {
        let hits = self.read_ages(table)?;
        out.clear();
        for (k, t) in &hits {
            out.push(k, *t);
        }
        Ok(())
    }
    /// [`ControlPlane::set_ages`] from a packed list. By default through `set_ages`.
    fn set_ages_list(&mut self, table: &str, ages: &AgeList) -> Result<(), ControlFailure> {
        self.set_ages(table, &ages.to_pairs())
    }
    /// A handle that reads the last hit of one key of `table`'s age group on demand
    /// (`crate::ageing`'s lazy pull: a server packet reads only the keys it looks up).
    /// `None` (the default): the runtime polls the whole hit list on every server packet.
    fn age_reader(&mut self, table: &str) -> Option<tandem_switch::AgeReader> {
        let _ = table;
        None
    }
    /// A handle that reads one cell of register `name` on demand (the lazy pull of a
    /// hashed map's hit times, `crate::hashed_ageing`). `None` (the default): the runtime
    /// reads them through [`ControlPlane::register_read`] at every pull.
    fn register_reader(&mut self, name: &str) -> Option<crate::hashed_ageing::RegisterReader> {
        let _ = name;
        None
    }
}

impl From<ControlError> for ControlFailure {
    fn from(e: ControlError) -> Self {
        match e {
            ControlError::Full { table, .. } => ControlFailure::Full { table },
            other => ControlFailure::Rejected(other.to_string()),
        }
    }
}

/// The in-process software switch's control plane (each write request is applied
/// atomically, which is more than the sync protocol needs).
#[derive(Clone, Debug)]
pub struct SwitchControl {
    sw: Switch,
}

impl SwitchControl {
    /// Controls `sw`.
    pub fn new(sw: Switch) -> SwitchControl {
        SwitchControl { sw }
    }
}

// `tandem bench` counts the server's instructions between `ServerHost::handle` (and
// `whole_on_server`, `release_held`) and leaves out these methods (the switch applying the
// writes: a hardware switch's driver, not the server): keep them out of line.
impl ControlPlane for SwitchControl {
    #[inline(never)]
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        if ops.is_empty() {
            return Ok(());
        }
        Ok(self.sw.apply_batch(ops)?)
    }

    // The switch's control API takes names: the request is spelled out here, on the
    // switch's side of the control channel (as a switch driver decodes a P4Runtime request).
    #[inline(never)]
    fn write_exact(&mut self, batch: &ExactBatch<'_>) -> Result<(), ControlFailure> {
        if batch.ops.is_empty() {
            return Ok(());
        }
        Ok(self.sw.apply_batch(&batch.to_ops())?)
    }

    #[inline(never)]
    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        Ok(self.sw.register_write(name, index, value)?)
    }

    #[inline(never)]
    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure> {
        Ok(self.sw.register_read(name, index)?)
    }

    #[inline(never)]
    fn meter_write(
        &mut self,
        name: &str,
        index: u32,
        cell: &MeterCell,
    ) -> Result<(), ControlFailure> {
        Ok(self.sw.meter_write(name, index, *cell)?)
    }

    #[inline(never)]
    fn meter_read(&mut self, name: &str, index: u32) -> Result<MeterCell, ControlFailure> {
        Ok(self.sw.meter_read(name, index)?)
    }

    #[inline(never)]
    fn direct_counters(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        let mut out = Vec::new();
        for (e, (packets, _)) in self.sw.direct_counters(table)? {
            let key = e
                .matches
                .iter()
                .map(|m| match m {
                    KeyMatch::Exact(v) => Ok(*v),
                    m => Err(ControlFailure::Rejected(format!(
                        "table `{table}`: direct counters are read for exact keys, not {m:?}"
                    ))),
                })
                .collect::<Result<Vec<u64>, _>>()?;
            out.push((key, packets));
        }
        Ok(out)
    }

    #[inline(never)]
    fn configure_ageing(&mut self, tables: &[&str], timeout_ns: u64) -> Result<(), ControlFailure> {
        Ok(self.sw.configure_ageing(tables, timeout_ns)?)
    }

    #[inline(never)]
    fn set_ages(&mut self, table: &str, ages: &[(Vec<u64>, u64)]) -> Result<(), ControlFailure> {
        Ok(self.sw.set_ages(table, ages)?)
    }

    #[inline(never)]
    fn read_ages(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        Ok(self.sw.read_ages(table)?)
    }

    #[inline(never)]
    fn read_ages_into(&mut self, table: &str, out: &mut AgeList) -> Result<(), ControlFailure> {
        Ok(self.sw.read_ages_into(table, out)?)
    }

    #[inline(never)]
    fn set_ages_list(&mut self, table: &str, ages: &AgeList) -> Result<(), ControlFailure> {
        Ok(self.sw.set_ages_list(table, ages)?)
    }

    fn age_reader(&mut self, table: &str) -> Option<tandem_switch::AgeReader> {
        self.sw.age_reader(table).ok()
    }

    fn register_reader(&mut self, name: &str) -> Option<crate::hashed_ageing::RegisterReader> {
        self.sw.register_read(name, 0).ok()?;
        let (sw, name) = (self.sw.clone(), name.to_string());
        Some(std::sync::Arc::new(move |i| {
            sw.register_read(&name, i).ok()
        }))
    }
}

/// What [`FaultyControl`] does to the next request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Let it through.
    Pass,
    /// Fail it with a transient error (nothing applied).
    Fail,
    /// Apply it after this long.
    Delay(Duration),
}

/// Fault injection around a control plane.
pub struct FaultyControl<C> {
    inner: C,
    /// Faults for the next requests, in order (then [`FaultyControl::every`]).
    pub script: VecDeque<Fault>,
    /// After the script: fail every n-th request (0: never).
    pub every: u64,
    requests: u64,
    /// Requests failed so far.
    pub failed: u64,
    /// Requests that went through (possibly late).
    pub applied: u64,
    /// While set, every request fails (a switch or link outage).
    pub outage: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl<C: ControlPlane> FaultyControl<C> {
    /// No faults until some are scripted.
    pub fn new(inner: C) -> FaultyControl<C> {
        FaultyControl {
            inner,
            script: VecDeque::new(),
            every: 0,
            requests: 0,
            failed: 0,
            applied: 0,
            outage: Default::default(),
        }
    }

    /// The wrapped control plane.
    pub fn inner_mut(&mut self) -> &mut C {
        &mut self.inner
    }

    fn next(&mut self) -> Result<(), ControlFailure> {
        self.requests += 1;
        if self.outage.load(std::sync::atomic::Ordering::SeqCst) {
            self.failed += 1;
            return Err(ControlFailure::Transient(format!(
                "request {}: the switch is unreachable",
                self.requests
            )));
        }
        let fault = match self.script.pop_front() {
            Some(f) => f,
            None if self.every > 0 && self.requests.is_multiple_of(self.every) => Fault::Fail,
            None => Fault::Pass,
        };
        match fault {
            Fault::Pass => Ok(()),
            Fault::Fail => {
                self.failed += 1;
                Err(ControlFailure::Transient(format!(
                    "injected failure of request {}",
                    self.requests
                )))
            }
            Fault::Delay(d) => {
                std::thread::sleep(d);
                Ok(())
            }
        }
    }
}

impl<C: ControlPlane> FaultyControl<C> {
    /// One request: the next fault, then `f` on the wrapped control plane.
    fn pass<T>(
        &mut self,
        f: impl FnOnce(&mut C) -> Result<T, ControlFailure>,
    ) -> Result<T, ControlFailure> {
        self.next()?;
        let v = f(&mut self.inner)?;
        self.applied += 1;
        Ok(v)
    }
}

impl<C: ControlPlane> ControlPlane for FaultyControl<C> {
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        self.pass(|c| c.write(ops))
    }

    fn write_exact(&mut self, batch: &ExactBatch<'_>) -> Result<(), ControlFailure> {
        self.pass(|c| c.write_exact(batch))
    }

    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        self.pass(|c| c.register_write(name, index, value))
    }

    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure> {
        self.pass(|c| c.register_read(name, index))
    }

    fn meter_write(
        &mut self,
        name: &str,
        index: u32,
        cell: &MeterCell,
    ) -> Result<(), ControlFailure> {
        self.pass(|c| c.meter_write(name, index, cell))
    }

    fn meter_read(&mut self, name: &str, index: u32) -> Result<MeterCell, ControlFailure> {
        self.pass(|c| c.meter_read(name, index))
    }

    fn direct_counters(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        self.pass(|c| c.direct_counters(table))
    }

    fn configure_ageing(&mut self, tables: &[&str], timeout_ns: u64) -> Result<(), ControlFailure> {
        self.pass(|c| c.configure_ageing(tables, timeout_ns))
    }

    fn set_ages(&mut self, table: &str, ages: &[(Vec<u64>, u64)]) -> Result<(), ControlFailure> {
        self.pass(|c| c.set_ages(table, ages))
    }

    fn read_ages(&mut self, table: &str) -> Result<Vec<(Vec<u64>, u64)>, ControlFailure> {
        self.pass(|c| c.read_ages(table))
    }

    fn read_ages_into(&mut self, table: &str, out: &mut AgeList) -> Result<(), ControlFailure> {
        self.pass(|c| c.read_ages_into(table, out))
    }

    fn set_ages_list(&mut self, table: &str, ages: &AgeList) -> Result<(), ControlFailure> {
        self.pass(|c| c.set_ages_list(table, ages))
    }
}

/// Builds the control plane the runtime uses from the switch's own (e.g. wrapping it in
/// [`FaultyControl`]).
pub type ControlWrap = Box<dyn FnOnce(SwitchControl) -> Box<dyn ControlPlane>>;

/// How often and how patiently a request is retried.
#[derive(Clone, Copy, Debug)]
pub struct RetryPolicy {
    /// Attempts per request before the runtime gives up (and stops, holding the packet).
    pub attempts: u32,
    /// Wait before the second attempt; doubles per attempt up to `max_backoff`.
    pub backoff: Duration,
    /// Longest wait between attempts.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 50,
            backoff: Duration::from_micros(50),
            max_backoff: Duration::from_millis(20),
        }
    }
}

impl RetryPolicy {
    /// Runs `f` until it succeeds, fails with a non-transient error, or the attempts run
    /// out; counts retries into `retries`.
    #[inline]
    pub fn run<T>(
        &self,
        retries: &mut u64,
        mut f: impl FnMut() -> Result<T, ControlFailure>,
    ) -> Result<T, ControlFailure> {
        match f() {
            Err(ControlFailure::Transient(e)) if self.attempts > 1 => self.retry(retries, f, e),
            r => r,
        }
    }

    /// After the first attempt failed transiently with `e`.
    #[cold]
    #[inline(never)]
    fn retry<T>(
        &self,
        retries: &mut u64,
        mut f: impl FnMut() -> Result<T, ControlFailure>,
        e: String,
    ) -> Result<T, ControlFailure> {
        log::debug!("control plane: {e}; retrying in {:?}", self.backoff);
        *retries += 1;
        std::thread::sleep(self.backoff);
        let mut wait = (self.backoff * 2).min(self.max_backoff);
        let mut attempt = 2;
        loop {
            match f() {
                Err(ControlFailure::Transient(e)) if attempt < self.attempts => {
                    log::debug!("control plane: {e}; retrying in {wait:?}");
                    *retries += 1;
                    attempt += 1;
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(self.max_backoff);
                }
                r => return r,
            }
        }
    }
}
