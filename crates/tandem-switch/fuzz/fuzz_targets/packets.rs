//! Any frame on any port through the test programs (with tables populated):
//! processing never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::{Mutex, OnceLock};
use tandem_switch::{bench, Switch, Worker};

fn switches() -> &'static Vec<Switch> {
    static S: OnceLock<Vec<Switch>> = OnceLock::new();
    S.get_or_init(|| {
        let mut v = Vec::new();
        if let Ok((sw, _)) = bench::minilb(64) {
            v.push(sw);
        }
        if let Ok((sw, _)) = bench::lpm(256, 1) {
            v.push(sw);
        }
        for src in [
            include_str!("../../tests/programs/features.p4"),
            include_str!("../../tests/programs/twotables.p4"),
        ] {
            if let Ok(sw) = Switch::from_source(src) {
                v.push(sw);
            }
        }
        v
    })
}

fn workers() -> &'static Mutex<Vec<Worker>> {
    static W: OnceLock<Mutex<Vec<Worker>>> = OnceLock::new();
    W.get_or_init(|| Mutex::new(switches().iter().map(|s| s.worker()).collect()))
}

fuzz_target!(|data: &[u8]| {
    let port = data.first().copied().unwrap_or(0) as u32;
    let frame = data.get(1..).unwrap_or(&[]);
    let mut ws = workers().lock().unwrap_or_else(|e| e.into_inner());
    for w in ws.iter_mut() {
        let _ = w.process(port, frame);
    }
});
