//! v1model `direct_counter` on the software switch: a table with `counters = c` counts, per
//! entry, the packets (and bytes) of the lookups that hit it — not misses, not other
//! entries' hits — on both engines; a modify keeps the entry's count, a delete and a new
//! insert start from zero; the control API reads every entry's count at one moment
//! (`Switch::direct_counters`).

use tandem_switch::{CompileOptions, ControlError, Engine, KeyMatch, Switch, TableEntry};

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
struct headers_t { ethernet_t ethernet; }
struct meta_t { bit<8> x; }
parser P(packet_in packet, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { packet.extract(hdr.ethernet); transition accept; }
}
control V(inout headers_t hdr, inout meta_t meta) { apply { } }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    direct_counter(CounterType.packets_and_bytes) hits;
    action fwd(bit<9> port) { sm.egress_spec = port; hits.count(); }
    action miss() { sm.egress_spec = 9w7; }
    table t {
        key = { hdr.ethernet.etherType: exact; }
        actions = { fwd; miss; }
        default_action = miss();
        counters = hits;
        size = 64;
    }
    table plain {
        key = { hdr.ethernet.etherType: exact; }
        actions = { fwd; miss; }
        default_action = miss();
    }
    apply { t.apply(); if (hdr.ethernet.etherType == 16w0xffff) { plain.apply(); } }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.ethernet); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

fn frame(ethertype: u16, len: usize) -> Vec<u8> {
    let mut f = vec![0u8; len];
    f[12..14].copy_from_slice(&ethertype.to_be_bytes());
    f
}

fn entry(ethertype: u16, port: u64) -> TableEntry {
    TableEntry {
        matches: vec![KeyMatch::Exact(u64::from(ethertype))],
        action: "fwd".into(),
        args: vec![port],
        priority: None,
    }
}

/// (ethertype, packets, bytes) of every entry of `t`, sorted.
fn counts(sw: &Switch) -> Vec<(u64, u64, u64)> {
    let mut v: Vec<(u64, u64, u64)> = sw
        .direct_counters("t")
        .unwrap()
        .into_iter()
        .map(|(e, (p, b))| match e.matches[0] {
            KeyMatch::Exact(k) => (k, p, b),
            m => panic!("{m:?}"),
        })
        .collect();
    v.sort_unstable();
    v
}

fn run(engine: Engine) {
    let sw = Switch::from_source_with(
        PROGRAM,
        CompileOptions {
            engine,
            ..CompileOptions::default()
        },
    )
    .unwrap();
    // Three entries (more than the native engine's straight-line tables hold, and fewer:
    // both classifiers count).
    sw.insert("t", entry(1, 1)).unwrap();
    sw.insert("t", entry(2, 2)).unwrap();
    let mut w = sw.worker();
    for _ in 0..3 {
        assert_eq!(w.process_at(0, &frame(1, 60), 0).unwrap().0, 1);
    }
    w.process_at(0, &frame(2, 100), 0).unwrap();
    // A miss counts nowhere.
    assert_eq!(w.process_at(0, &frame(9, 60), 0).unwrap().0, 7);
    assert_eq!(counts(&sw), vec![(1, 3, 180), (2, 1, 100)]);
    // Modify keeps the count; more entries (a hash classifier) keep counting per entry.
    sw.modify("t", entry(1, 3)).unwrap();
    for k in 3..10 {
        sw.insert("t", entry(k, 4)).unwrap();
    }
    assert_eq!(w.process_at(0, &frame(1, 60), 0).unwrap().0, 3);
    w.process_at(0, &frame(5, 64), 0).unwrap();
    let c = counts(&sw);
    assert_eq!(c[0], (1, 4, 240));
    assert_eq!(c[1], (2, 1, 100));
    assert_eq!(c[4], (5, 1, 64));
    assert!(c
        .iter()
        .filter(|x| ![1, 2, 5].contains(&x.0))
        .all(|x| x.1 == 0));
    // Delete and insert again: a new entry, a new count.
    sw.delete("t", vec![KeyMatch::Exact(1)], None).unwrap();
    sw.insert("t", entry(1, 1)).unwrap();
    assert_eq!(counts(&sw)[0], (1, 0, 0));
    // A table without a direct counter has none to read.
    assert!(matches!(
        sw.direct_counters("plain"),
        Err(ControlError::NoDirectCounter(_))
    ));
}

#[test]
fn direct_counters_count_each_entrys_hits_interpreted() {
    run(Engine::Interp);
}

#[test]
fn direct_counters_count_each_entrys_hits_native() {
    run(Engine::Native);
}

#[test]
fn counters_must_name_a_direct_counter() {
    let bad = PROGRAM.replace("counters = hits;", "counters = fwd;");
    let err = Switch::from_source(&bad).unwrap_err().to_string();
    assert!(err.contains("not a direct_counter"), "{err}");
}
