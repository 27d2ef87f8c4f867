//! NFs with on_timer offloaded end to end (from C++ source): a timer that writes every kind
//! of switch copy — a switch-owned counter vector, a table the switch reads, a register the
//! switch reads — is synchronised at every tick, and an outage at a tick holds the packets
//! behind it and loses nothing.

mod common;

use std::sync::atomic::{AtomicU8, Ordering};
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
