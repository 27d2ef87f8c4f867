//! Entry ageing (`support_timeout = true`): after `Switch::configure_ageing`, an entry idle
//! for longer than its group's timeout (packet time) misses, a hit refreshes it, a hit on
//! one table of a group keeps the key alive in every table of the group, `read_ages`
//! reports the keys hit since the last read, and `set_ages` sets a key's last hit — on
//! both engines (the native engine keeps ageing tables on the general lookup). A table
//! whose program does not declare ageing is refused.

use tandem_switch::{AgeList, CompileOptions, ControlError, Engine, KeyMatch, Switch, TableEntry};

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
    action fwd(bit<9> port) { sm.egress_spec = port; }
    action miss() { sm.egress_spec = 9w7; }
    table a {
        key = { hdr.ethernet.etherType: exact; }
        actions = { fwd; miss; }
        default_action = miss();
        support_timeout = true;
        size = 64;
    }
    table b {
        key = { hdr.ethernet.etherType: exact; }
        actions = { fwd; miss; }
        default_action = miss();
        support_timeout = true;
        size = 64;
    }
    table plain {
        key = { hdr.ethernet.etherType: exact; }
        actions = { fwd; miss; }
        default_action = miss();
    }
    apply {
        if (hdr.ethernet.src == 48w1) { b.apply(); } else { a.apply(); }
        if (hdr.ethernet.etherType == 16w0xffff) { plain.apply(); }
    }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.ethernet); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

const S: u64 = 1_000_000_000;

/// A frame of `ethertype`, looked up in table `b` when `via_b`, else in `a`.
fn frame(ethertype: u16, via_b: bool) -> Vec<u8> {
    let mut f = vec![0u8; 60];
    f[12..14].copy_from_slice(&ethertype.to_be_bytes());
    if via_b {
        f[11] = 1;
    }
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

fn run(engine: Engine, ageing: bool) -> Vec<u32> {
    let sw = Switch::from_source_with(
        PROGRAM,
        CompileOptions {
            engine,
            ..CompileOptions::default()
        },
    )
    .unwrap();
    if ageing {
        sw.configure_ageing(&["a", "b"], 2 * S).unwrap();
        sw.set_ages("a", &[(vec![1], 0), (vec![2], 0)]).unwrap();
    }
    for t in ["a", "b"] {
        sw.insert(t, entry(1, 1)).unwrap();
        sw.insert(t, entry(2, 2)).unwrap();
    }
    let mut w = sw.worker();
    let mut ports = Vec::new();
    let mut go = |et: u16, via_b: bool, t: u64| {
        ports.push(w.process_at(0, &frame(et, via_b), t).unwrap().0);
    };
    go(1, false, S); // a: hit, key 1 refreshed to 1 s
    go(2, true, 2 * S); // b: hit at exactly the timeout: live, key 2 refreshed to 2 s
    go(1, true, 3 * S); // b: key 1 last hit 1 s (through a): live
    if ageing {
        let mut hits = sw.read_ages("b").unwrap();
        hits.sort_unstable();
        assert_eq!(hits, vec![(vec![1], 3 * S), (vec![2], 2 * S)]);
        assert!(sw.read_ages("a").unwrap().is_empty());
    }
    go(2, false, 4 * S + 1); // idle 2 s + 1 ns: a miss
    go(2, true, 4 * S + 2); // and in the other table of the group too
    go(1, false, 5 * S); // key 1 hit at 3 s: live
    if ageing {
        // The packed forms the runtime polls with (one reused list, cleared by each read).
        let mut hits = AgeList::default();
        hits.push(&[9, 9], 1);
        sw.read_ages_into("a", &mut hits).unwrap();
        assert_eq!(hits.to_pairs(), vec![(vec![1], 5 * S)]);
        sw.read_ages_into("a", &mut hits).unwrap();
        assert!(hits.is_empty());
        // the control plane renews key 2 (e.g. the server used it)
        let mut renew = AgeList::default();
        renew.push(&[2], 5 * S);
        sw.set_ages_list("b", &renew).unwrap();
        assert_eq!(sw.age_of_key("a", &[2]).unwrap(), Some(5 * S));
    }
    go(2, false, 6 * S);
    ports
}

#[test]
fn entries_age_per_group_on_both_engines() {
    for engine in [Engine::Interp, Engine::Native] {
        assert_eq!(run(engine, true), vec![1, 2, 1, 7, 7, 1, 2], "{engine:?}");
        // The negative control: without ageing every entry matches for ever.
        assert_eq!(run(engine, false), vec![1, 2, 1, 2, 2, 1, 2], "{engine:?}");
    }
}

#[test]
fn ageing_needs_the_programs_declaration_and_an_empty_table() {
    let sw = Switch::from_source(PROGRAM).unwrap();
    assert!(matches!(
        sw.configure_ageing(&["a", "plain"], S),
        Err(ControlError::NoAgeing(t)) if t == "plain"
    ));
    assert!(matches!(sw.read_ages("a"), Err(ControlError::NotAgeing(_))));
    sw.insert("a", entry(1, 1)).unwrap();
    assert!(matches!(
        sw.configure_ageing(&["a"], S),
        Err(ControlError::AgeingTooLate(_))
    ));
}
