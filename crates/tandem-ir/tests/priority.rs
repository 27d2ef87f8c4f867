//! Ternary and range maps: the highest-priority matching entry wins, priorities are distinct,
//! entries are named by key, mask (or range) and priority; text form, verifier and dumps.

use tandem_ir::*;

fn load(name: &str) -> Module {
    let path = format!("{}/tests/data/{name}.nfir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test file");
    parse_module(&text).unwrap_or_else(|e| panic!("{path}:{e}"))
}

/// Ethernet + IPv4 + TCP from `saddr` to port `dport`.
fn tcp(saddr: [u8; 4], dport: u16) -> Packet {
    let mut p = vec![0u8; 54];
    p[12..14].copy_from_slice(&[0x08, 0x00]);
    p[14] = 0x45;
    p[16..18].copy_from_slice(&40u16.to_be_bytes());
    p[23] = 6;
    p[26..30].copy_from_slice(&saddr);
    p[36..38].copy_from_slice(&dport.to_be_bytes());
    p[46] = 0x50;
    Packet {
        bytes: p,
        in_port: 0,
        timestamp_ns: 0,
    }
}

fn rules(m: &Module) -> (StateId, interp::MapRules) {
    let id = m.state_by_name("rules").unwrap();
    (id, interp::MapRules::of(&m.states[id].kind).unwrap())
}

#[test]
fn the_text_form_round_trips_and_verifies() {
    let m = load("acl");
    verify_module(&m).unwrap();
    let text = print_module(&m);
    assert!(text.contains("state rules: ternary_map<{saddr: i32, dport: i16}, {verdict: i8}, 4>"));
    assert!(text.contains("state classes: range_map<{port: i16}, {class: i8}, 8>"));
    assert_eq!(print_module(&parse_module(&text).unwrap()), text);
}

#[test]
fn the_highest_priority_match_wins() {
    let m = load("acl");
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    // 10.0.0.0/8 to any port: deny (0) at priority 10; 10.1.0.0/16 to port 22: allow (1)
    // at priority 20.
    store
        .map_insert(&m, "rules", &[0x0a00_0000, 0, 0xff00_0000, 0, 10], &[0])
        .unwrap();
    store
        .map_insert(
            &m,
            "rules",
            &[0x0a01_0000, 22, 0xffff_0000, 0xffff, 20],
            &[1],
        )
        .unwrap();
    store
        .map_insert(&m, "classes", &[0, 1023, 5], &[1])
        .unwrap();
    store.map_insert(&m, "classes", &[20, 30, 6], &[3]).unwrap();
    let run = |store: &mut StateStore, a, port| interp.run(store, &tcp(a, port)).unwrap().action;
    assert_eq!(run(&mut store, [10, 2, 0, 1], 80), Action::Drop);
    // Port 22 from 10.1/16: allowed; the range 20..=30 (priority 6) beats 0..=1023 (5).
    assert_eq!(run(&mut store, [10, 1, 3, 4], 22), Action::Send(4));
    assert_eq!(run(&mut store, [10, 1, 3, 4], 80), Action::Drop);
    assert_eq!(run(&mut store, [192, 168, 0, 1], 80), Action::Send(2));
    assert_eq!(run(&mut store, [192, 168, 0, 1], 8080), Action::Send(1));
}

#[test]
fn priorities_are_distinct_and_entries_are_named_by_key_mask_and_priority() {
    let m = load("acl");
    let (id, r) = rules(&m);
    let mut s = StateStore::new(&m);
    // The key is masked: 10.1.2.3 under /16 is 10.1.0.0.
    assert_eq!(
        s.map_insert_at(id, r, &[0x0a01_0203, 0, 0xffff_0000, 0, 7], &[1], 0),
        Some(true)
    );
    // Same entry (after masking): overwritten.
    assert_eq!(
        s.map_insert_at(id, r, &[0x0a01_ffff, 0, 0xffff_0000, 0, 7], &[2], 0),
        Some(true)
    );
    // Another entry with priority 7: refused. Priority 0 and 2^31: refused.
    assert_eq!(
        s.map_insert_at(id, r, &[0, 0, 0, 0, 7], &[3], 0),
        Some(false)
    );
    assert_eq!(
        s.map_insert_at(id, r, &[0, 0, 0, 0, 0], &[3], 0),
        Some(false)
    );
    assert_eq!(
        s.map_insert_at(id, r, &[0, 0, 0, 0, 0x8000_0000], &[3], 0),
        Some(false)
    );
    let mut out = [0u64];
    assert_eq!(
        s.map_find_at(id, r, &[0x0a01_9999, 5], 0, &mut out),
        Some(true)
    );
    assert_eq!(out, [2]);
    // Capacity 4.
    for p in 1..=3 {
        assert_eq!(
            s.map_insert_at(id, r, &[p, 0, 0xffff_ffff, 0, p], &[0], 0),
            Some(true)
        );
    }
    assert_eq!(
        s.map_insert_at(id, r, &[9, 0, 0xffff_ffff, 0, 9], &[0], 0),
        Some(false)
    );
    // Erase names the entry exactly.
    s.map_erase_rules(id, r, &[0x0a01_0000, 0, 0xffff_0000, 0, 8])
        .unwrap();
    assert_eq!(s.map_len(&m, "rules").unwrap(), 4);
    s.map_erase_rules(id, r, &[0x0a01_0203, 0, 0xffff_0000, 0, 7])
        .unwrap();
    assert_eq!(s.map_len(&m, "rules").unwrap(), 3);
    // The range map refuses an empty range.
    let cid = m.state_by_name("classes").unwrap();
    let cr = interp::MapRules::of(&m.states[cid].kind).unwrap();
    assert_eq!(s.map_insert_at(cid, cr, &[9, 8, 1], &[1], 0), Some(false));
    assert_eq!(s.map_insert_at(cid, cr, &[8, 8, 1], &[1], 0), Some(true));
}

#[test]
fn dumps_name_entries_by_key_mask_and_priority() {
    let m = load("acl");
    let mut s = StateStore::new(&m);
    s.map_insert(
        &m,
        "rules",
        &[0x0a01_0203, 22, 0xffff_0000, 0xffff, 20],
        &[1],
    )
    .unwrap();
    s.map_insert(&m, "classes", &[0, 1023, 5], &[1]).unwrap();
    let d = s.dump(&m, DumpFormat::Canonical).unwrap();
    assert_eq!(d[0].kind, "ternary_map");
    // key 10.1.0.0 / 22, mask ffff0000 / ffff, priority 20.
    assert_eq!(d[0].entries[0].key, "0a0100000016ffff0000ffff00000014");
    assert_eq!(d[0].entries[0].value, "01");
    assert_eq!(d[1].kind, "range_map");
    assert_eq!(d[1].entries[0].key, "000003ff00000005");
}

#[test]
fn the_verifier_checks_entry_operands() {
    let m = load("acl");
    let text = print_module(&m).replace(
        "    v4:i1, v5:i8 = map.find classes(v1)\n",
        "    v4:i1, v5:i8 = map.find classes(v1)\n    v30:i32 = const 9\n    v31:i1 = map.insert rules(v0, v1, v0, v1, v30) -> (v5)\n    map.erase classes(v1, v1)\n",
    );
    verify_module(&parse_module(&text).unwrap()).unwrap_err();
    let ok = print_module(&m).replace(
        "    v4:i1, v5:i8 = map.find classes(v1)\n",
        "    v4:i1, v5:i8 = map.find classes(v1)\n    v30:i32 = const 9\n    v31:i1 = map.insert rules(v0, v1, v0, v1, v30) -> (v5)\n    map.erase classes(v1, v1, v30)\n",
    );
    verify_module(&parse_module(&ok).unwrap()).unwrap();
}
