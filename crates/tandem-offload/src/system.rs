//! The offloaded NF, running: the switch program on the software switch, the server
//! partition in the server host, packets between them, and state synchronisation.
//!
//! ```text
//!  in ──▶ [switch: pre] ──fast path──────────────────────────────────▶ out
//!             │ tag 1 (transfer header)                      ▲
//!             ▼                                              │
//!         [server host: server.so on the primary copy] ─tag 2─▶ [switch: post]
//!             │ atomic update (write-back tables + flag), held until confirmed
//!             ▼
//!         [switch tables]
//! ```
//!
//! Packets run to completion one at a time ([`Offloaded::process`]): a packet that visits
//! the server is released only after the switch confirmed its state updates (output
//! commit), and the next packet enters the switch after that — the order a single-threaded
//! reference host would process them in, so outputs and state can be compared exactly.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use tandem_host::irhost::{load_native_state, normalize_ir, NormalState};
use tandem_host::Verdict;
use tandem_ir::interp::{Action, DumpFormat, Packet, StateStore};
use tandem_ir::Module;
use tandem_p4::manifest::Manifest;
use tandem_partition::Plan;
use tandem_switch::{Switch, Worker};
use tandem_traffic::TracePacket;

use crate::codec::TransferCodec;
use crate::control::{ControlPlane, ControlWrap, RetryPolicy, SwitchControl};
use crate::fallback::walk;
use crate::partial::{PartialMaps, PartialOptions, PartialStats};
use crate::primary::{Primary, Touched};
use crate::server::{compile_server, ServerLib};
use crate::sync::{SyncEngine, SyncStats};
use crate::OffloadError;

mod recovery;
mod tick;

pub use recovery::Recovered;

/// A compiled NF: what `tandem compile` writes to its output directory.
#[derive(Clone, Debug)]
pub struct Bundle {
    /// The partition plan (with the IR it refers to).
    pub plan: Plan,
    /// The IR.
    pub module: Arc<Module>,
    /// The switch program's manifest.
    pub manifest: Manifest,
    /// `switch.p4`.
    pub switch_p4: String,
    /// `server.cc`.
    pub server_cc: String,
    /// The NF's C++ source and configuration, for `configure()`.
    pub nf: Option<NfSource>,
}

/// Where an NF's source and configuration are (`nf.json` in a compiled directory).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NfSource {
    /// The `.cc` file.
    pub source: PathBuf,
    /// Its configuration (TOML/JSON), if any.
    pub config: Option<PathBuf>,
    /// [`NfSource::digest_of`] the two files when `tandem compile` read them: `tandem run`
    /// warns when they have changed since (the compiled pair would run the old logic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

impl NfSource {
    /// The source and configuration at these paths, with their digest now.
    pub fn new(source: PathBuf, config: Option<PathBuf>) -> NfSource {
        let digest = NfSource::digest_of(&source, config.as_deref());
        NfSource {
            source,
            config,
            digest,
        }
    }

    /// A digest (FNV-1a 64, hex) of the source file's bytes followed by the configuration's;
    /// `None` when a file cannot be read.
    pub fn digest_of(source: &Path, config: Option<&Path>) -> Option<String> {
        let mut bytes = std::fs::read(source).ok()?;
        if let Some(c) = config {
            bytes.push(0);
            bytes.extend(std::fs::read(c).ok()?);
        }
        Some(format!("{:016x}", tandem_ir::hash::fnv1a64(&bytes)))
    }

    /// Why the compiled pair may be stale: the source or configuration changed since it was
    /// compiled (`None` when unchanged or when there is nothing to compare).
    pub fn staleness(&self) -> Option<String> {
        let then = self.digest.as_ref()?;
        let now = NfSource::digest_of(&self.source, self.config.as_deref())?;
        (now != *then).then(|| {
            let what = match &self.config {
                Some(c) => format!("{} or {}", self.source.display(), c.display()),
                None => self.source.display().to_string(),
            };
            format!(
                "{what} changed after `tandem compile` wrote this directory: the switch and \
                 server programs run the logic compiled then, while configure() and the \
                 reference run the file as it is now; compile again"
            )
        })
    }
}

impl Bundle {
    /// Reads a directory `tandem compile` wrote.
    pub fn load(dir: &Path) -> Result<Bundle, OffloadError> {
        let read = |name: &str| {
            let p = dir.join(name);
            std::fs::read_to_string(&p).map_err(|e| OffloadError::Io {
                source: std::io::Error::new(
                    e.kind(),
                    format!(
                        "{e} (is {} a directory written by `tandem compile`?)",
                        dir.display()
                    ),
                ),
                path: p,
            })
        };
        let plan = Plan::from_json(&read("plan.json")?)
            .map_err(|e| OffloadError::Manifest(format!("plan.json: {e}")))?;
        let manifest = Manifest::from_json(&read("manifest.json")?)
            .map_err(|e| OffloadError::Manifest(format!("manifest.json: {e}")))?;
        let nf = match std::fs::read_to_string(dir.join("nf.json")) {
            Ok(t) => Some(
                serde_json::from_str(&t)
                    .map_err(|e| OffloadError::Manifest(format!("nf.json: {e}")))?,
            ),
            Err(_) => None,
        };
        Bundle::new(plan, manifest, read("switch.p4")?, read("server.cc")?, nf)
    }

    /// A bundle from its parts (checks that plan and manifest belong together).
    pub fn new(
        plan: Plan,
        manifest: Manifest,
        switch_p4: String,
        server_cc: String,
        nf: Option<NfSource>,
    ) -> Result<Bundle, OffloadError> {
        if manifest.ir_digest != plan.ir_digest {
            return Err(OffloadError::Manifest(format!(
                "manifest is for IR {}, plan for {}: recompile",
                manifest.ir_digest, plan.ir_digest
            )));
        }
        let module = plan
            .module()
            .map_err(|e| OffloadError::Manifest(format!("plan.json: {e}")))?;
        Ok(Bundle {
            plan,
            module: Arc::new(module),
            manifest,
            switch_p4,
            server_cc,
            nf,
        })
    }
}

/// Counters of an offloaded run.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RunStats {
    /// Packets in.
    pub packets: u64,
    /// Packets handled entirely by the switch.
    pub fast_path: u64,
    /// Packets that visited the server partition.
    pub via_server: u64,
    /// Packets run whole on the server because they need a key a full switch table could
    /// not take.
    pub whole_on_server: u64,
    /// Frames shorter than an Ethernet header (runts), run whole on the server: a switch port
    /// would not take them, and they carry no transfer header.
    pub runts: u64,
    /// Packets out, per port.
    pub out_per_port: BTreeMap<u32, u64>,
    /// Packets dropped.
    pub dropped: u64,
    /// Of the packets dropped, those the server meter dropped at the switch (`--server-rate`,
    /// [`crate::server_meter`]); absent without the option.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metered: Option<u64>,
    /// Timer ticks run (on_timer on the server, then the switch brought up to date).
    pub timer_ticks: u64,
    /// Time in the server partition and the state synchronisation, ns.
    pub server_ns: u64,
    /// State synchronisation.
    pub sync: SyncStats,
    /// Partial maps: rebalances, promotions, evictions and samples over time (absent when
    /// the program has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial: Option<PartialStats>,
}

impl RunStats {
    /// Share of packets handled entirely by the switch.
    pub fn fast_path_share(&self) -> f64 {
        if self.packets == 0 {
            return 0.0;
        }
        self.fast_path as f64 / self.packets as f64
    }
}

/// Options of an offloaded run.
#[derive(Clone)]
pub struct RunOptions {
    /// Where the compiled server partition is cached.
    pub cache_dir: PathBuf,
    /// How control-plane requests are retried.
    pub retry: RetryPolicy,
    /// Measure the server's wall time ([`RunStats::server_ns`]). `tandem bench` turns it
    /// off where it counts the server's instructions, so the stopwatch is not counted as
    /// server work.
    pub time_server: bool,
    /// Partial maps: hotness, promotion and eviction ([`crate::partial`]).
    pub partial: PartialOptions,
    /// `--server-rate` at run time: the server meter's rate, instead of the one the program
    /// was compiled with (the program must have the meter). `None`: the compiled rate.
    pub server_rate: Option<tandem_p4::ServerRate>,
    /// Expiring maps age on the switch too ([`crate::ageing`]); `false` (tests only: the
    /// negative control) leaves the switch's copies un-aged.
    pub switch_ageing: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            cache_dir: tandem_host::build::default_cache_dir(),
            retry: RetryPolicy::default(),
            time_server: true,
            partial: PartialOptions::default(),
            server_rate: None,
            switch_ageing: true,
        }
    }
}

/// The server host: the server partition on the primary copy of the state, and the
/// control plane it keeps the switch's copies up to date through. It sees the switch only
/// through frames (to and from the switch's server port) and the control plane, so it can
/// run beside the switch in this process or in another one.
pub struct ServerHost {
    module: Arc<Module>,
    /// `None` when the program never sends packets to the server.
    codec: Option<TransferCodec>,
    server: ServerLib,
    primary: Primary,
    sync: SyncEngine,
    cp: Box<dyn ControlPlane>,
    payload: tandem_ir::payload::PayloadOps,
    /// Time in the server partition and the synchronisation, ns.
    server_ns: u64,
    time_server: bool,
    /// A frame whose state updates the switch has not confirmed: it is not released until
    /// [`ServerHost::release_held`] succeeds.
    held: Option<Vec<u8>>,
    /// Timer ticks ([`ServerHost::tick`]): what they need and whether one is held.
    timer: tick::TimerSync,
    /// Partial maps and their rebalancing (`None`: the program has none).
    partial: Option<PartialMaps>,
    /// Expiring maps whose switch copies age.
    ageing: crate::ageing::Ageing,
    /// The journal of committed updates (crash recovery), when kept.
    journal: Option<crate::journal::Journal>,
    /// The records of a held packet, appended once the switch confirms its batch.
    journal_held: Vec<crate::journal::Record>,
    /// The partial maps' keys the last probed packet looks up.
    probed: Vec<(u32, Vec<u64>)>,
    /// Per-packet buffers, reused: transfer-header values in and out, and the frame (the
    /// packet as the NF sees it while the server runs, then the frame going back).
    input: Vec<u64>,
    output: Vec<u64>,
    back: Vec<u8>,
    /// The decoded transfer header, for re-encoding only the fields that changed.
    kept: crate::codec::KeptHeader,
    /// Concurrent runs ([`crate::concurrent`]): the map keys each committed packet inserted
    /// or erased are copied here (`None`: not recorded).
    pub(crate) record: Option<Vec<(u32, Vec<u64>)>>,
}

impl ServerHost {
    /// Compiles and loads the server partition, takes `initial` (the NF's state after
    /// `configure()`, as the native host dumps it) as the primary copy, and installs it on
    /// the switch through `cp`.
    pub fn new(
        bundle: &Bundle,
        initial: &serde_json::Value,
        options: &RunOptions,
        cp: Box<dyn ControlPlane>,
    ) -> Result<ServerHost, OffloadError> {
        Self::build(bundle, initial, options, cp, None)
    }

    /// [`ServerHost::new`]; with `recovering`, the journal's records are replayed over
    /// `initial` and the switch — still running the program — keeps the registers it owns:
    /// they are read back, and its copies rebuilt from the result (`system/recovery.rs`).
    fn build(
        bundle: &Bundle,
        initial: &serde_json::Value,
        options: &RunOptions,
        mut cp: Box<dyn ControlPlane>,
        recovering: Option<&[crate::journal::Record]>,
    ) -> Result<ServerHost, OffloadError> {
        let module = bundle.module.clone();
        let so = compile_server(&bundle.server_cc, &options.cache_dir)?;
        let server = ServerLib::load(&so)?;
        let th = &bundle.manifest.transfer_header;
        let codec = if th.fields.iter().any(|f| f.name == "tag") {
            Some(TransferCodec::new(th)?)
        } else {
            None
        };
        let mut store = StateStore::new(&module);
        load_native_state(&module, &mut store, initial)
            .map_err(|e| OffloadError::State(e.to_string()))?;
        store.reserve_maps(&module, crate::sync::RESERVE);
        let mut primary = Primary::new(module.clone(), store);
        let mut sync = SyncEngine::new(&module, &bundle.manifest)?;
        sync.policy = options.retry;
        let mut ageing = crate::ageing::Ageing::new(&module, &bundle.manifest);
        ageing.attach(&sync);
        match recovering {
            None => {
                ageing.configure(cp.as_mut(), &mut primary, options.switch_ageing)?;
                sync.install(cp.as_mut(), &primary)?;
            }
            Some(records) => recovery::restore(
                &mut primary,
                &mut sync,
                &mut ageing,
                cp.as_mut(),
                records,
                options.switch_ageing,
            )?,
        }
        let timer = tick::TimerSync::new(&module, &server)?;
        let partial = PartialMaps::new(&module, &bundle.manifest, options.partial.clone())?;
        Ok(ServerHost {
            timer,
            partial,
            ageing,
            probed: Vec::new(),
            module,
            codec,
            server,
            primary,
            sync,
            cp,
            payload: tandem_ir::payload::PayloadOps,
            server_ns: 0,
            time_server: options.time_server,
            held: None,
            input: Vec::new(),
            output: Vec::new(),
            back: Vec::new(),
            kept: crate::codec::KeptHeader::default(),
            record: None,
            journal: None,
            journal_held: Vec::new(),
        })
    }

    /// Handles a frame the switch sent to the server port: runs the server partition,
    /// publishes the state updates and waits until the switch confirmed them (output
    /// commit), and returns the frame to send back to the switch (valid until the next
    /// call). `None`: the frame carries no transfer header for the server (the NF itself
    /// sent it to that port).
    // `tandem bench` counts the server's instructions between this symbol and the other
    // `#[inline(never)]` ones here and in `control` (`SwitchControl`): keep them out of line.
    #[inline(never)]
    pub fn handle(
        &mut self,
        frame: &[u8],
        in_port: u16,
        now_ns: u64,
    ) -> Result<Option<&[u8]>, OffloadError> {
        if self.is_holding() {
            return Err(OffloadError::Held);
        }
        let Some(codec) = self.codec.as_ref() else {
            return Ok(None);
        };
        // server_ns covers the transfer header too (decode here, encode below).
        let t0 = self.time_server.then(Instant::now);
        // The frame as the server's receive buffer holds it; decoded and re-encoded in
        // place (the transfer header's bytes are the head-room: no further copy).
        self.back.clear();
        self.back.extend_from_slice(frame);
        let Some(start) =
            codec.decode_in_place_kept(&mut self.back, &mut self.input, &mut self.kept)
        else {
            return Ok(None);
        };
        self.ageing
            .pull_for_packet(self.cp.as_mut(), &mut self.primary)?;
        self.server.call(
            &mut self.primary,
            &mut self.back,
            start,
            in_port,
            now_ns,
            &self.input,
            &mut self.output,
        )?;
        codec.encode_changes_in_place(&mut self.back, &self.input, &self.output, &self.kept);
        // The keys it used keep their last-use time on the switch (before the batch: a key
        // inserted again with the value the switch shows revives there).
        self.ageing.push(self.cp.as_mut(), &mut self.primary)?;
        // Output commit: the frame goes back only once its updates are visible.
        self.primary.sort_touched();
        let r = self
            .sync
            .commit(self.cp.as_mut(), &self.primary, self.primary.touched());
        if let Some(rec) = self.record.as_mut() {
            rec.extend(self.primary.touched().keys().map(|(s, k)| (s, k.to_vec())));
        }
        // Journaled before the packet is released (when the batch is confirmed; a held
        // packet's records wait for `release_held`).
        let journaled = match r {
            Ok(_) => self.journal_touched(None),
            Err(_) => self.journal_touched(Some(())),
        };
        self.primary.clear_touched();
        self.add_server_time(t0);
        match r.and(journaled) {
            Ok(_) => Ok(Some(&self.back)),
            Err(e) => {
                self.held = Some(self.back.clone());
                Err(e)
            }
        }
    }

    /// Whether a frame (or a timer tick) is held because its updates did not reach the
    /// switch.
    pub fn is_holding(&self) -> bool {
        self.held.is_some() || self.timer.is_held()
    }

    /// Tries again to bring the switch up to date (rebuilding its copies from the primary
    /// copy) and, once it is, releases the held frame (`None` when what was held is a timer
    /// tick, now confirmed, or nothing was held).
    #[inline(never)]
    pub fn release_held(&mut self) -> Result<Option<Vec<u8>>, OffloadError> {
        if !self.is_holding() {
            return Ok(None);
        }
        self.retry_held_tick()?;
        self.sync
            .commit(self.cp.as_mut(), &self.primary, &Touched::default())?;
        self.tick_confirmed();
        self.journal_release()?;
        Ok(self.held.take())
    }

    /// Whether some key is kept on the server only (a switch table was full), so that
    /// packets must be probed with [`ServerHost::needs_whole_run`] before they enter the
    /// switch.
    pub fn has_server_only(&self) -> bool {
        self.sync.has_server_only()
    }

    /// The states whose primary copy is the switch's (`switch_register` placement:
    /// counters, sketches, meters, and constants only `configure()` writes).
    pub(crate) fn switch_owned(&self) -> &std::collections::BTreeSet<u32> {
        self.sync.switch_owned()
    }

    /// The map keys the packet would look up, insert or erase (a read-only walk of the NF
    /// on the primary copy).
    pub(crate) fn probe_keys(
        &mut self,
        pkt: &TracePacket,
    ) -> Result<Vec<(u32, Vec<u64>)>, OffloadError> {
        self.ageing.catch_up(self.cp.as_mut(), &mut self.primary)?;
        let clock = self.primary.store.clock_ns;
        let probe = walk(
            &self.module,
            &mut self.primary.store,
            &ir_packet(pkt),
            false,
            &mut self.payload,
        );
        self.primary.store.clock_ns = clock;
        Ok(probe?.keys)
    }

    /// Whether the packet looks up a key that only the server has.
    pub fn needs_whole_run(&mut self, pkt: &TracePacket) -> Result<bool, OffloadError> {
        self.ageing.catch_up(self.cp.as_mut(), &mut self.primary)?;
        let packet = ir_packet(pkt);
        let clock = self.primary.store.clock_ns;
        let probe = walk(
            &self.module,
            &mut self.primary.store,
            &packet,
            false,
            &mut self.payload,
        );
        self.primary.store.clock_ns = clock;
        let probe = probe?;
        let mut whole = false;
        if let Some(p) = self.partial.as_ref() {
            self.probed.clear();
            self.probed
                .extend(probe.keys.iter().filter(|(s, _)| p.is_partial(*s)).cloned());
        }
        for (s, k) in &probe.keys {
            if self.sync.is_server_only(*s, k) && !self.sync.sends_misses(*s) {
                whole = true;
                if let Some(p) = self.partial.as_mut() {
                    p.count_server_hit(*s, k);
                }
            }
        }
        Ok(whole)
    }

    /// Counts a packet for the partial maps' rebalancing (`server`: the server handled it;
    /// `whole`: it ran whole for a server-only key); true when a rebalance is due
    /// ([`ServerHost::rebalance`]).
    pub fn count_partial_packet(&mut self, server: bool, whole: bool) -> bool {
        self.partial
            .as_mut()
            .is_some_and(|p| p.count_packet(server, whole))
    }

    /// Rebalances the partial maps: promotion and eviction in atomic batches
    /// ([`crate::partial`]); `packets`: packets so far (for the samples).
    pub fn rebalance(&mut self, packets: u64) -> Result<(), OffloadError> {
        if self.partial.is_none() {
            return Ok(());
        }
        // The rebalance reads which keys are live.
        self.ageing.catch_up(self.cp.as_mut(), &mut self.primary)?;
        let Some(p) = self.partial.as_mut() else {
            return Ok(());
        };
        let t0 = self.time_server.then(Instant::now);
        let r = p.rebalance(
            &mut self.sync,
            self.cp.as_mut(),
            &self.primary,
            packets,
            &self.probed,
        );
        self.probed.clear();
        self.add_server_time(t0);
        r
    }

    /// Tests only ([`PartialOptions::evict_in_flight`] on maps whose misses the switch sends
    /// to the server): a due rebalance waits for a packet the switch sends to the server and
    /// runs while it is in flight — after the switch, before the server — moving its keys.
    pub fn rebalances_in_flight(&self) -> bool {
        self.partial.as_ref().is_some_and(|p| p.moves_in_flight()) && !self.probes_partial()
    }

    /// [`ServerHost::rebalance`] with `pkt` in flight (see
    /// [`ServerHost::rebalances_in_flight`]): its keys, from a read-only walk, are the ones
    /// the rebalance moves.
    pub fn rebalance_in_flight(
        &mut self,
        packets: u64,
        pkt: &TracePacket,
    ) -> Result<(), OffloadError> {
        let keys = self.probe_keys(pkt)?;
        self.probed = keys;
        self.rebalance(packets)
    }

    /// After the packet in flight ran on the server: the promotions a split rebalance
    /// ([`PartialOptions::split_promotion`], tests only) read before it.
    pub fn publish_split(&mut self) -> Result<(), OffloadError> {
        match self.partial.as_mut() {
            Some(p) => p.publish_split(&mut self.sync, self.cp.as_mut()),
            None => Ok(()),
        }
    }

    /// Whether the program has partial maps (every packet is probed: the probe counts the
    /// server-only keys' packets and names the keys of the packet in flight).
    pub fn has_partial(&self) -> bool {
        self.partial.is_some()
    }

    /// Whether packets must be probed for a partial map: one whose misses the switch
    /// program does not send to the server itself (manifest `miss_to_server`).
    pub fn probes_partial(&self) -> bool {
        self.partial
            .as_ref()
            .is_some_and(|p| p.states().any(|s| !self.sync.sends_misses(s)))
    }

    /// The packet as it arrived, when the switch sent `frame` to be run whole (a partial
    /// map's miss: transfer header tag `tag_whole`); `None` for any other frame.
    pub fn whole_frame(&self, frame: &[u8]) -> Option<Vec<u8>> {
        self.codec.as_ref()?.decode_whole(frame)
    }

    /// The partial maps' counters (`None`: the program has none).
    pub fn partial_stats(&self) -> Option<&PartialStats> {
        self.partial.as_ref().map(PartialMaps::stats)
    }

    fn add_server_time(&mut self, t0: Option<Instant>) {
        if let Some(t0) = t0 {
            self.server_ns += t0.elapsed().as_nanos() as u64;
        }
    }

    /// Runs the whole NF on the server for one packet and publishes what it changed.
    #[inline(never)]
    pub fn whole_on_server(&mut self, pkt: &TracePacket) -> Result<Verdict, OffloadError> {
        let t0 = self.time_server.then(Instant::now);
        self.sync
            .read_switch_owned(self.cp.as_mut(), &mut self.primary)?;
        self.ageing.pull(self.cp.as_mut(), &mut self.primary)?;
        self.primary.set_now(pkt.ts_ns);
        let w = walk(
            &self.module,
            &mut self.primary.store,
            &ir_packet(pkt),
            true,
            &mut self.payload,
        )?;
        let mut missed: Vec<(u32, Vec<u64>)> = Vec::new();
        if let Some(p) = self.partial.as_mut() {
            // A partial map's miss the switch sent here: the server sees all of its key's
            // packets (the probe counts them for maps without `miss_to_server`).
            for (s, k) in &w.keys {
                if p.is_partial(*s) && self.sync.sends_misses(*s) && self.sync.is_server_only(*s, k)
                {
                    p.count_server_hit(*s, k);
                    if p.promotes_on_miss() {
                        missed.push((*s, k.clone()));
                    }
                }
            }
        }
        let owned = self.sync.switch_owned().clone();
        if w.written.iter().any(|s| owned.contains(s)) {
            self.sync
                .write_switch_owned(self.cp.as_mut(), &self.primary)?;
        }
        let others = w
            .written
            .iter()
            .copied()
            .filter(|s| !owned.contains(s))
            .collect();
        let touched = Touched::from_sets(&w.touched, &others);
        if self.ageing.active() {
            // Keys looked up or inserted (an erased key's time does not matter).
            let used: Vec<(u32, Vec<u64>)> = w
                .keys
                .iter()
                .cloned()
                .chain(
                    w.touched
                        .iter()
                        .flat_map(|(s, ks)| ks.iter().map(move |k| (*s, k.clone()))),
                )
                .collect();
            for (s, k) in &used {
                self.primary.note_used(*s, k);
            }
            self.ageing.push(self.cp.as_mut(), &mut self.primary)?;
        }
        self.sync
            .commit(self.cp.as_mut(), &self.primary, &touched)?;
        self.journal_records(&touched)?;
        if let Some(rec) = self.record.as_mut() {
            rec.extend(touched.keys().map(|(s, k)| (s, k.to_vec())));
        }
        if !missed.is_empty() {
            self.promote_missed(&missed)?;
        }
        self.add_server_time(t0);
        Ok(match w.action {
            Some(Action::Send(p)) => Verdict::Send {
                port: u32::from(p),
                frame: w.bytes,
            },
            _ => Verdict::Drop,
        })
    }

    /// Promotes the server-only keys of partial maps a packet the switch sent whole missed,
    /// while their switch table has free room (the rebalance keeps a reserve free): the
    /// key's next packet stays on the switch instead of waiting for the next rebalance. One
    /// atomic batch per key, after the packet's own batch.
    fn promote_missed(&mut self, missed: &[(u32, Vec<u64>)]) -> Result<(), OffloadError> {
        for (s, k) in missed {
            let room = self.sync.table_size(*s) > self.sync.occupancy(*s);
            if !room
                || !self.sync.is_server_only(*s, k)
                || self.primary.map_value_ref(*s, k).is_none()
            {
                continue;
            }
            let key = std::slice::from_ref(k);
            match self.sync.promote(self.cp.as_mut(), &self.primary, *s, key) {
                Ok(n) => {
                    if let Some(p) = self.partial.as_mut() {
                        p.count_promoted(n as u64);
                        p.promoted_on_miss(*s, k);
                    }
                }
                Err(e) => {
                    self.sync.mark_server_only(*s, k);
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// The NF state as a whole (primary copy, with switch-owned registers read back),
    /// normalised for comparison with the reference host's.
    pub fn state(&mut self) -> Result<NormalState, OffloadError> {
        self.sync
            .read_switch_owned(self.cp.as_mut(), &mut self.primary)?;
        self.ageing.pull(self.cp.as_mut(), &mut self.primary)?;
        let d = self
            .primary
            .store
            .dump(&self.module, DumpFormat::Cpp)
            .map_err(|e| OffloadError::State(e.to_string()))?;
        Ok(normalize_ir(&self.module, &d))
    }

    /// Moves the primary copy's clock to `now_ns` (the last packet's time, which a state read
    /// judges expiring entries at, as the reference host does) when it is behind.
    pub fn advance_clock(&mut self, now_ns: u64) {
        self.primary.store.clock_ns = self.primary.store.clock_ns.max(now_ns);
    }

    /// The expiring maps whose switch copies age ([`crate::ageing`]).
    pub fn ageing(&self) -> &crate::ageing::Ageing {
        &self.ageing
    }

    /// The primary copy (read-only).
    pub fn primary(&self) -> &Primary {
        &self.primary
    }

    /// The primary copy, the synchronisation engine and the control plane, to move state
    /// between servers ([`crate::migrate`]).
    pub(crate) fn parts(&mut self) -> (&mut Primary, &mut SyncEngine, &mut dyn ControlPlane) {
        (&mut self.primary, &mut self.sync, &mut *self.cp)
    }

    /// Synchronisation counters.
    pub fn sync_stats(&self) -> SyncStats {
        self.sync.stats()
    }

    /// Time spent in the server partition and the synchronisation, ns.
    pub fn server_ns(&self) -> u64 {
        self.server_ns
    }
}

fn ir_packet(pkt: &TracePacket) -> Packet {
    Packet {
        bytes: pkt.data.clone(),
        in_port: pkt.port as u16,
        timestamp_ns: pkt.ts_ns,
    }
}

/// The offloaded NF in one process: the software switch and the server host.
pub struct Offloaded {
    sw: Switch,
    pub(crate) worker: Worker,
    pub(crate) host: ServerHost,
    pub(crate) server_port: u32,
    pub(crate) stats: RunStats,
    /// The time of the last packet (the one a held packet belongs to).
    last_ts_ns: u64,
    /// The latest packet time run so far.
    max_ts_ns: u64,
    /// The NF's timer ticks, on the reference host's rule.
    clock: tandem_host::host::TickClock,
    /// A packet waiting for a held timer tick, with the ticks still due before it
    /// ([`Offloaded::retry_held`] runs them).
    after_tick: Option<(tandem_host::host::Ticks, TracePacket)>,
    /// A rebalance of the partial maps is due before the next packet enters the switch.
    rebalance_due: bool,
    /// The server meter and its drop counter, when the program has one.
    meter: Option<crate::server_meter::ServerMeter>,
}

impl Offloaded {
    /// Loads the switch program and the server host (see [`ServerHost::new`]). `control`
    /// wraps the switch's control plane (e.g. to inject faults); `None` controls the switch
    /// directly.
    pub fn new(
        bundle: &Bundle,
        initial: &serde_json::Value,
        options: &RunOptions,
        control: Option<ControlWrap>,
    ) -> Result<Offloaded, OffloadError> {
        let sw = load_switch(bundle)?;
        let direct = SwitchControl::new(sw.clone());
        let cp: Box<dyn ControlPlane> = match control {
            Some(f) => f(direct),
            None => Box::new(direct),
        };
        let host = ServerHost::new(bundle, initial, options, cp)?;
        let meter = crate::server_meter::ServerMeter::install(&sw, bundle, options.server_rate)?;
        let mut stats = RunStats::default();
        if meter.is_some() {
            stats.metered = Some(0);
        }
        Ok(Offloaded {
            meter,
            worker: sw.worker(),
            sw,
            host,
            server_port: u32::from(bundle.manifest.server_port),
            stats,
            last_ts_ns: 0,
            max_ts_ns: 0,
            clock: tandem_host::host::TickClock::new(bundle.module.timer_interval_ns()),
            after_tick: None,
            rebalance_due: false,
        })
    }

    /// The keys of partial maps `pkt` would look up, insert or erase in the current state
    /// (a read-only walk of the NF on the primary copy; call it before [`Offloaded::process`]
    /// of the packet). `tandem bench-partial` records them to bound what any promotion
    /// policy could keep on the switch.
    pub fn partial_keys(
        &mut self,
        pkt: &TracePacket,
    ) -> Result<Vec<(u32, Vec<u64>)>, OffloadError> {
        let Some(p) = self.host.partial.as_ref() else {
            return Ok(Vec::new());
        };
        let states: Vec<u32> = p.states().collect();
        let mut keys = self.host.probe_keys(pkt)?;
        keys.retain(|(s, _)| states.contains(s));
        Ok(keys)
    }

    /// The switch (to inspect tables and registers).
    pub fn switch(&self) -> &Switch {
        &self.sw
    }

    /// The server host.
    pub fn host(&self) -> &ServerHost {
        &self.host
    }

    /// Packets the server meter dropped at the switch so far (0 without one).
    pub fn metered(&self) -> u64 {
        self.stats.metered.unwrap_or(0)
    }

    /// Packets handled by the switch alone so far (what [`Offloaded::stats`] says, without
    /// copying the rest).
    pub fn fast_path(&self) -> u64 {
        self.stats.fast_path
    }

    /// Counters so far.
    pub fn stats(&self) -> RunStats {
        let mut s = self.stats.clone();
        s.sync = self.host.sync_stats();
        s.server_ns = self.host.server_ns();
        s.partial = self.host.partial_stats().cloned();
        s
    }

    /// Runs one packet to completion, after the timer ticks its time passes (each one run on
    /// the server and confirmed by the switch before the packet enters it). A tick whose
    /// updates the switch does not confirm holds the packet: [`Offloaded::retry_held`].
    pub fn process(&mut self, pkt: &TracePacket) -> Result<Verdict, OffloadError> {
        if self.host.timer.is_held() {
            return Err(OffloadError::Held);
        }
        let due = self.clock.due(pkt.ts_ns);
        self.ticks_then(due, pkt)
    }

    /// Runs the ticks `due`, then the packet.
    pub(crate) fn ticks_then(
        &mut self,
        mut due: tandem_host::host::Ticks,
        pkt: &TracePacket,
    ) -> Result<Verdict, OffloadError> {
        while let Some(t) = due.next() {
            self.stats.timer_ticks += 1;
            if let Err(e) = self.host.tick(t) {
                if self.host.timer.is_held() {
                    self.after_tick = Some((due, pkt.clone()));
                }
                return Err(e);
            }
        }
        self.run_packet(pkt)
    }

    fn run_packet(&mut self, pkt: &TracePacket) -> Result<Verdict, OffloadError> {
        self.stats.packets += 1;
        self.max_ts_ns = self.max_ts_ns.max(pkt.ts_ns);
        let before = self.stats.via_server + self.stats.whole_on_server + self.stats.runts;
        let whole_before = self.stats.whole_on_server;
        let verdict = self.process_inner(pkt)?;
        let after = self.stats.via_server + self.stats.whole_on_server + self.stats.runts;
        self.rebalance_due = self
            .host
            .count_partial_packet(after > before, self.stats.whole_on_server > whole_before);
        match &verdict {
            Verdict::Send { port, .. } => *self.stats.out_per_port.entry(*port).or_default() += 1,
            Verdict::Drop => self.stats.dropped += 1,
        }
        Ok(verdict)
    }

    fn process_inner(&mut self, pkt: &TracePacket) -> Result<Verdict, OffloadError> {
        // A frame shorter than an Ethernet header cannot carry a transfer header (a real
        // switch port would not even accept it): the server runs the NF on it whole.
        if pkt.data.len() < 14 {
            self.stats.runts += 1;
            return self.host.whole_on_server(pkt);
        }
        let whole = (self.host.has_server_only() || self.host.probes_partial())
            && self.host.needs_whole_run(pkt)?;
        let in_flight_hook = self.host.rebalances_in_flight();
        if self.rebalance_due && !in_flight_hook {
            // Between the probe and the switch: this packet is in flight while keys are
            // promoted and evicted (the eviction's drain keeps it correct).
            self.rebalance_due = false;
            self.host.rebalance(self.stats.packets - 1)?;
        }
        if whole {
            self.stats.whole_on_server += 1;
            return self.host.whole_on_server(pkt);
        }
        self.last_ts_ns = pkt.ts_ns;
        let first = self.worker.process_at(pkt.port, &pkt.data, pkt.ts_ns);
        let Some((port, bytes)) = first else {
            match self.meter.as_mut().map(|m| m.dropped_one(&self.sw)) {
                Some(Ok(true)) => *self.stats.metered.get_or_insert(0) += 1,
                Some(Err(e)) => return Err(e),
                _ => self.stats.fast_path += 1,
            }
            return Ok(Verdict::Drop);
        };
        if port != self.server_port {
            self.stats.fast_path += 1;
            return Ok(Verdict::Send {
                port,
                frame: bytes.to_vec(),
            });
        }
        if in_flight_hook && self.rebalance_due {
            // Tests: the packet is on its way to the server while keys move.
            self.rebalance_due = false;
            self.host.rebalance_in_flight(self.stats.packets - 1, pkt)?;
        }
        if let Some(original) = self.host.whole_frame(bytes) {
            // A partial map missed on the switch: the server answers from the primary copy.
            self.stats.whole_on_server += 1;
            let p = TracePacket {
                ts_ns: pkt.ts_ns,
                port: pkt.port,
                data: original,
            };
            let v = self.host.whole_on_server(&p);
            if in_flight_hook {
                self.host.publish_split()?;
            }
            return v;
        }
        let Some(back) = self.host.handle(bytes, pkt.port as u16, pkt.ts_ns)? else {
            // The NF itself sent the frame to the server port.
            self.stats.fast_path += 1;
            return Ok(Verdict::Send {
                port,
                frame: bytes.to_vec(),
            });
        };
        self.stats.via_server += 1;
        let v = post(&mut self.worker, self.server_port, back, pkt.ts_ns);
        if in_flight_hook {
            self.host.publish_split()?;
        }
        v
    }

    /// The NF state as a whole, normalised (see [`ServerHost::state`]), at the last
    /// packet's time.
    pub fn state(&mut self) -> Result<NormalState, OffloadError> {
        self.host.advance_clock(self.max_ts_ns);
        self.host.state()
    }

    /// After [`Offloaded::process`] failed because the control plane did not confirm the
    /// packet's updates: tries again and, once the switch has them, finishes the held
    /// packet (post on the switch) and returns its verdict. `None`: nothing was held.
    pub fn retry_held(&mut self) -> Result<Option<Verdict>, OffloadError> {
        let Some(back) = self.host.release_held()? else {
            // A held tick, now confirmed: the ticks still due, then the packet behind them.
            return match self.after_tick.take() {
                Some((due, pkt)) => self.ticks_then(due, &pkt).map(Some),
                None => Ok(None),
            };
        };
        self.stats.via_server += 1;
        let v = post(&mut self.worker, self.server_port, &back, self.last_ts_ns)?;
        match &v {
            Verdict::Send { port, .. } => *self.stats.out_per_port.entry(*port).or_default() += 1,
            Verdict::Drop => self.stats.dropped += 1,
        }
        Ok(Some(v))
    }
}

/// Runs a frame from the server through the switch (post), at the packet's time.
pub(crate) fn post(
    worker: &mut Worker,
    server_port: u32,
    back: &[u8],
    ts_ns: u64,
) -> Result<Verdict, OffloadError> {
    match worker.process_at(server_port, back, ts_ns) {
        None => Ok(Verdict::Drop),
        Some((p, _)) if p == server_port => Err(OffloadError::Switch(
            "the switch sent a packet back to the server from post".into(),
        )),
        Some((p, b)) => Ok(Verdict::Send {
            port: p,
            frame: b.to_vec(),
        }),
    }
}

/// Compiles an NF's IR for a target in memory: partition, switch program, server partition.
/// The software switch's options for `manifest`'s program: a folded TNA program's fold port
/// (`manifest.fold_port`) is a loopback port (`tandem_switch::PortSet`).
pub fn switch_options(manifest: &Manifest) -> tandem_switch::CompileOptions {
    tandem_switch::CompileOptions {
        loopback: tandem_switch::PortSet::of(manifest.fold_port.as_slice()),
        ..tandem_switch::CompileOptions::default()
    }
}

/// Loads `bundle`'s switch program with [`switch_options`].
pub fn load_switch(bundle: &Bundle) -> Result<Switch, OffloadError> {
    Switch::from_source_with(&bundle.switch_p4, switch_options(&bundle.manifest))
        .map_err(|e| OffloadError::Switch(e.to_string()))
}

pub fn compile_bundle(
    module: &Module,
    profile: &tandem_partition::TargetProfile,
    partition: &tandem_partition::PartitionOptions,
    p4: &tandem_p4::P4Options,
    nf: Option<NfSource>,
) -> Result<Bundle, OffloadError> {
    let plan = tandem_partition::partition_module(module, profile, partition)?.plan;
    let m = plan.module()?;
    let out = tandem_p4::generate(&plan, &m, p4)?;
    let cc = tandem_cpp::generate(&plan, &m)?;
    let p4_text = tandem_p4_syntax::print_program(&out.program);
    Bundle::new(plan, out.manifest, p4_text, cc, nf)
}
