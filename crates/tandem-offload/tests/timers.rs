//! NFs with on_timer offloaded: the timer runs on the server at the reference host's ticks,
//! and the switch's copies of what it wrote (switch-owned counters, a replicated table, a
//! register the switch only reads) are brought up to date before the next packet enters
//! the switch. `check` must pass — and must fail when the runtime skips that update.

mod common;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

use common::*;
use tandem_host::Host;
use tandem_offload::{ControlFailure, OffloadError, Offloaded};
use tandem_switch::ControlOp;

/// The timer writes a switch-owned vector, a map and a scalar the switch reads: every tick
/// (1 ms: about 20 in 16,000 enterprise packets) is synchronised, on both profiles.
#[test]
fn every_kind_of_switch_copy_follows_the_timer() {
    let src = test_nf("timer_sync");
    for profile in ["tofino1", "bmv2"] {
        let r = check_file(&src, Addr::Plain, "enterprise", profile, 16_000);
        assert_passed(&format!("timer_sync/{profile}"), &r);
        let o = &r.offloaded;
        assert!(o.timer_ticks >= 10, "{profile}: {} ticks", o.timer_ticks);
        assert!(o.sync.batches >= o.timer_ticks, "{profile}: {:?}", o.sync);
        assert_eq!(o.via_server, 0, "{profile}: packets visited the server");
        // Port 80 was steered (while the entry was there) and not (while it was gone).
        assert!(r.reference_out.contains_key(&3), "{:?}", r.reference_out);
    }
}

/// The example: the sketch is reset every 10 ms; everything else runs on the switch.
#[test]
fn hhdetect_resets_its_sketch_on_the_switch() {
    for profile in ["tofino1", "bmv2"] {
        let r = check_nf(
            "hhdetect",
            Addr::Plain,
            "datamining",
            profile,
            30_000,
            &P4Options::default(),
            None,
        );
        assert_passed(&format!("hhdetect/{profile}"), &r);
        assert!(r.offloaded.timer_ticks >= 2, "{:?}", r.offloaded);
        assert_eq!(r.offloaded.fast_path, r.offloaded.packets);
        assert!(r.reference_out.get(&2).copied().unwrap_or(0) > 0);
    }
}

/// A control plane that, once `armed`, acknowledges writes without applying them: a
/// runtime that skips the switch's update at a tick (`hhdetect` sends no packet to the
/// server, so every write after the start-up install is a tick's).
struct SkipWrites<C> {
    inner: C,
    armed: Arc<AtomicBool>,
    skipped: Arc<AtomicU64>,
}

impl<C: ControlPlane> ControlPlane for SkipWrites<C> {
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        if self.armed.load(Ordering::SeqCst) {
            self.skipped.fetch_add(1, Ordering::SeqCst);
            return Ok(());
        }
        self.inner.write(ops)
    }
    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        if self.armed.load(Ordering::SeqCst) {
            self.skipped.fetch_add(1, Ordering::SeqCst);
            return Ok(());
        }
        self.inner.register_write(name, index, value)
    }
    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure> {
        self.inner.register_read(name, index)
    }
}

/// The negative control: with the tick's register writes skipped, the switch's counters are
/// never reset, more flows pass the threshold, and `check` reports the difference (outputs
/// and final state).
#[test]
fn a_runtime_that_skips_the_tick_sync_is_caught() {
    let b = bundle("hhdetect", "tofino1", &P4Options::default());
    let armed = Arc::new(AtomicBool::new(false));
    let skipped = Arc::new(AtomicU64::new(0));
    let (a2, s2) = (armed.clone(), skipped.clone());
    let wrap: Wrap = Box::new(move |sc| {
        Box::new(SkipWrites {
            inner: sc,
            armed: a2,
            skipped: s2,
        })
    });
    let mut pkts = trace(Addr::Plain, "datamining", 1500, 7)
        .take(30_000)
        .inspect(|_| armed.store(true, Ordering::SeqCst));
    let r = check_with(&b, "hhdetect", &mut pkts, Some(wrap));
    assert!(skipped.load(Ordering::SeqCst) > 0, "no write was skipped");
    assert!(!r.passed(), "check passed without the tick's switch update");
    assert!(r.differing_packets > 0, "{r:?}");
    assert!(
        r.state_differences.iter().any(|d| d.contains("by_crc32")),
        "{:?}",
        r.state_differences
    );
}

/// An outage of the switch's control plane: 0 up, 1 every request fails, 2 writes fail
/// (reads go through).
struct Outage<C> {
    inner: C,
    mode: Arc<AtomicU8>,
}

impl<C: ControlPlane> Outage<C> {
    fn down(&self, write: bool) -> Result<(), ControlFailure> {
        match self.mode.load(Ordering::SeqCst) {
            1 => Err(ControlFailure::Transient(
                "the switch is unreachable".into(),
            )),
            2 if write => Err(ControlFailure::Transient("writes time out".into())),
            _ => Ok(()),
        }
    }
}

impl<C: ControlPlane> ControlPlane for Outage<C> {
    fn write(&mut self, ops: &[ControlOp]) -> Result<(), ControlFailure> {
        self.down(true)?;
        self.inner.write(ops)
    }
    fn register_write(&mut self, name: &str, index: u32, value: u64) -> Result<(), ControlFailure> {
        self.down(true)?;
        self.inner.register_write(name, index, value)
    }
    fn register_read(&mut self, name: &str, index: u32) -> Result<u64, ControlFailure> {
        self.down(false)?;
        self.inner.register_read(name, index)
    }
}

/// An outage at a tick holds it like a packet, whether the tick could not start (its
/// read-back of switch registers failed) or ran and its writes did not reach the switch: the
/// packet behind it waits, and once the switch is back the tick's updates reach it and the
/// packet runs — nothing lost, nothing run twice.
#[test]
fn an_outage_at_a_tick_holds_the_packets_behind_it() {
    let src = test_nf("timer_sync");
    let b = compile_bundle(
        &lift_file(&src),
        &tandem_partition::TargetProfile::builtin("tofino1").unwrap(),
        &tandem_partition::PartitionOptions::default(),
        &P4Options::default(),
        None,
    )
    .unwrap();
    let mut reference = Host::new(native_file(&src));
    let initial = reference.dump_state().unwrap();
    let mode = Arc::new(AtomicU8::new(0));
    let m2 = mode.clone();
    let wrap: Wrap = Box::new(move |sc| {
        Box::new(Outage {
            inner: sc,
            mode: m2,
        })
    });
    let opts = impatient();
    let mut sys = Offloaded::new(&b, &initial, &opts, Some(wrap)).unwrap();
    let mut held = [0; 3];
    for (i, pkt) in trace(Addr::Plain, "enterprise", 400, 7)
        .take(8_000)
        .enumerate()
    {
        let want = reference.process(&pkt).unwrap();
        // Every third tick meets an outage: of everything, then of writes only, by turns.
        let ticks = sys.stats().timer_ticks;
        let m = if ticks % 3 == 2 {
            1 + (ticks / 3 % 2) as u8
        } else {
            0
        };
        mode.store(m, Ordering::SeqCst);
        let got = match sys.process(&pkt) {
            Ok(v) => v,
            Err(OffloadError::Control(_)) => {
                held[m as usize] += 1;
                assert!(sys.host().is_holding(), "packet {i}: failed but not held");
                assert!(matches!(sys.process(&pkt), Err(OffloadError::Held)));
                assert!(sys.retry_held().is_err(), "released during the outage");
                mode.store(0, Ordering::SeqCst);
                sys.retry_held()
                    .unwrap()
                    .expect("the packet behind the tick")
            }
            Err(e) => panic!("packet {i}: {e}"),
        };
        assert_eq!(got, want, "packet {i}");
    }
    assert!(
        held[1] > 0 && held[2] > 0,
        "held ticks per outage kind: {held:?}"
    );
    assert_eq!(
        sys.host().timer_ticks(),
        reference.summary().timer_ticks,
        "ticks run on the server"
    );
    let want = tandem_host::irhost::normalize_native(&reference.dump_state().unwrap());
    let got = sys.state().unwrap();
    let diff = tandem_host::irhost::diff_states(&want, &got);
    assert!(diff.is_empty(), "{diff:?}");
}
