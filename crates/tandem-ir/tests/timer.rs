//! The timer function (`fn on_timer every N`): text form, verifier rules and interpreter.

use tandem_ir::*;

fn load(name: &str) -> Module {
    let path = format!("{}/tests/data/{name}.nfir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test file");
    parse_module(&text).unwrap_or_else(|e| panic!("{path}:{e}"))
}

fn packet(port: u16, ts: u64) -> Packet {
    Packet {
        bytes: vec![0; 60],
        in_port: port,
        timestamp_ns: ts,
    }
}

#[test]
fn the_timer_prints_and_parses_back() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/epoch.nfir",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let m = load("epoch");
    verify_module(&m).unwrap();
    assert_eq!(m.timer_interval_ns(), 1000);
    assert_eq!(print_module(&m), text);
    assert_eq!(print_module(&renumber(&m)), text);
    let ids: Vec<FuncId> = m.functions().map(|(id, _)| id).collect();
    assert_eq!(ids, [FuncId::Process, FuncId::Timer]);
}

#[test]
fn the_timer_resets_what_packets_counted() {
    let m = load("epoch");
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    for p in [1, 2, 2, 3] {
        interp.run(&mut store, &packet(p, 10)).unwrap();
    }
    assert_eq!(store.vec_get(&m, "counts", 2).unwrap(), [2]);
    let steps = interp.run_timer(&mut store, 1000).unwrap();
    assert!(steps > 8 * 5, "the loop ran: {steps} steps");
    for i in 0..8 {
        assert_eq!(store.vec_get(&m, "counts", i).unwrap(), [0]);
    }
    assert_eq!(store.scalar_get(&m, "epochs").unwrap(), 1);
    assert_eq!(store.scalar_get(&m, "last_tick").unwrap(), 1000);
    assert_eq!(store.clock_ns, 1000);
}

#[test]
fn the_timer_reads_and_writes_state_only() {
    let m = load("epoch");
    let (reads, writes) = m.timer_state_effects();
    let name = |s: &StateId| m.states[*s].name.clone();
    assert_eq!(reads.iter().map(name).collect::<Vec<_>>(), ["epochs"]);
    assert_eq!(
        writes.iter().map(name).collect::<Vec<_>>(),
        ["counts", "epochs", "last_tick"]
    );
}

#[test]
fn a_timer_without_packet_rules_is_refused() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/epoch.nfir",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    // A header read and a send in on_timer, and a zero interval.
    let bad = text
        .replace("every 1000", "every 0")
        .replace(
            "    v0:i64 = meta.read now\n",
            "    v0:i64 = meta.read now\n    v20:i8 = hdr.read ipv4.ttl\n    v21:i16 = const 1\n    send v21\n",
        );
    let m = parse_module(&bad).unwrap();
    let errs = verify_module(&m).unwrap_err().to_string();
    assert!(errs.contains("interval must be at least 1 ns"), "{errs}");
    assert!(
        errs.contains("fn on_timer, block0, `v20:i8 = hdr.read ipv4.ttl`: on_timer has no packet"),
        "{errs}"
    );
    assert!(errs.contains("cannot use a packet's fate"), "{errs}");
    // A second timer, or a body for another function, is a parse error.
    let twice = format!("{text}\nfn on_timer every 5 {{\nblock0:\n    return\n}}\n");
    assert!(parse_module(&twice)
        .unwrap_err()
        .to_string()
        .contains("`fn on_timer` is defined twice"));
}

#[test]
fn the_builder_builds_a_timer() {
    let mut m = Module::new("t");
    let s = m.add_state("n", StateKind::Scalar { ty: Type::I32 });
    let mut b = m.builder();
    b.drop_packet();
    b.ret();
    let mut t = m.timer_builder(5);
    let z = t.iconst(Type::I32, 0);
    t.scalar_store(s, z);
    t.ret();
    verify_module(&m).unwrap();
    let text = print_module(&m);
    assert!(text.ends_with(
        "fn on_timer every 5 {\nblock0:\n    v0:i32 = const 0\n    scalar.store n, v0\n    return\n}\n"
    ));
    assert_eq!(parse_module(&text).unwrap(), m);
}
