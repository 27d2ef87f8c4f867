//! NFs with on_timer offloaded, from the lifter's golden IR: the timer runs on the server at
//! the reference host's ticks, and the switch's copies of what it wrote are brought up to
//! date before the next packet enters the switch. `check` must pass — and must fail when the
//! runtime skips that update. (`tandem-e2e/tests/timers.rs`: every kind of switch copy, and
//! outages at a tick, from C++ source.)

mod common;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use common::*;
use tandem_offload::ControlFailure;
use tandem_switch::ControlOp;

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
