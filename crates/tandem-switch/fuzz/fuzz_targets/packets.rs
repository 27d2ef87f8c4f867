//! Any frame on any port through the test programs (with tables populated):
//! processing never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use tandem_switch::{bench, Switch};

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

fuzz_target!(|data: &[u8]| {
    let port = data.first().copied().unwrap_or(0) as u32;
    let frame = data.get(1..).unwrap_or(&[]);
    for sw in switches() {
        let mut w = sw.worker();
        let _ = w.process(port, frame);
    }
});
