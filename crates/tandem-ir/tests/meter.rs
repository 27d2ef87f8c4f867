//! Meters in the NF IR: text form, verifier, and the interpreter's colours against the
//! reference cell ([`tandem_ir::MeterCell`]) on a stream of packets; state dumps.

use tandem_ir::interp::DumpFormat;
use tandem_ir::*;

fn load() -> Module {
    let path = format!("{}/tests/data/meter.nfir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test file");
    parse_module(&text).unwrap_or_else(|e| panic!("{path}:{e}"))
}

/// Ethernet + IPv4 (20 bytes) + `extra` bytes.
fn packet(saddr: u32, extra: usize) -> Vec<u8> {
    let mut p = vec![0u8; 14 + 20 + extra];
    p[12..14].copy_from_slice(&[0x08, 0x00]);
    p[14] = 0x45;
    p[23] = 17;
    p[26..30].copy_from_slice(&saddr.to_be_bytes());
    p
}

#[test]
fn text_form_round_trips_and_verifies() {
    let m = load();
    verify_module(&m).unwrap();
    let text = print_module(&m);
    assert!(text.contains("state limits: meter<8, bytes>"), "{text}");
    assert!(text.contains("v6:i8 = meter.execute limits[v5]"), "{text}");
    assert_eq!(print_module(&parse_module(&text).unwrap()), text);
}

#[test]
fn verifier_rejects_misuse() {
    let bad = [
        (
            "nf x\n\nstate v: vector<{a: i32}, 4>\n\nfn process {\nblock0:\n    v0:i32 = const 1\n    v1:i8 = meter.execute v[v0]\n    return\n}\n",
            "is not a meter",
        ),
        (
            "nf x\n\nstate m: meter<4, packets>\n\nfn process {\nblock0:\n    v0:i32 = const 1\n    v1:i16 = meter.execute m[v0]\n    return\n}\n",
            "i8",
        ),
        (
            "nf x\n\nstate m: meter<0, packets>\n\nfn process {\nblock0:\n    return\n}\n",
            "at least 1",
        ),
    ];
    for (text, want) in bad {
        let m = parse_module(text).unwrap();
        let e = verify_module(&m).unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
    }
    let e = parse_module("nf x\n\nstate m: meter<4, bits>\n").unwrap_err();
    assert!(e.to_string().contains("unknown meter unit `bits`"), "{e}");
}

#[test]
fn interpreter_colours_follow_the_reference_cell() {
    let m = load();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    // Meter 3: 20 MB/s committed (burst 1500), 32 MB/s peak (burst 3000) for about 30 MB/s
    // of traffic; meter 5 blocks
    // everything; the others stay unconfigured (green).
    let cfg3 = MeterCell::configured(20_000_000, 1500, 32_000_000, 3000);
    store.meter_set(&m, "limits", 3, cfg3).unwrap();
    store
        .meter_set(&m, "limits", 5, MeterCell::configured(1, 0, 1, 0))
        .unwrap();
    let mut model = [MeterCell::default(); 8];
    model[3] = cfg3;
    model[5] = MeterCell::configured(1, 0, 1, 0);
    let mut seen = [0u32; 3];
    let mut t = 1_700_000_000_000_000_000u64;
    for k in 0..3000u64 {
        t += 1_000 + (k * 7919) % 9000;
        let src = [3u32, 5, 6, 0x0a00_0003][(k % 4) as usize];
        let extra = (k * 31 % 600) as usize;
        let bytes = packet(src, extra);
        let len = bytes.len() as u64;
        let out = interp
            .run(
                &mut store,
                &Packet {
                    bytes,
                    in_port: 1,
                    timestamp_ns: t,
                },
            )
            .unwrap();
        let want = model[(src & 7) as usize].execute(t, len);
        seen[want as usize] += 1;
        let got = match out.action {
            Action::Drop => 2,
            Action::Send(p) => p as u8 - 1,
        };
        assert_eq!(got, want, "packet {k}");
    }
    assert!(
        seen.iter().all(|&n| n > 100),
        "every colour is exercised: {seen:?}"
    );
    for (i, c) in model.iter().enumerate() {
        assert_eq!(store.meter_get(&m, "limits", i as u64).unwrap(), *c);
    }
    // Dumps: only non-zero cells, keyed by index; the C++ format is the native struct.
    let d = store.dump(&m, DumpFormat::Cpp).unwrap();
    assert_eq!(d[0].kind, "meter");
    let keys: Vec<&str> = d[0].entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["03000000", "05000000"]);
    assert_eq!(d[0].entries[1].value.len(), 112);
    assert!(d[0].entries[1].value.starts_with("0100000000000000"));
    let c = store.dump(&m, DumpFormat::Canonical).unwrap();
    assert_eq!(c[0].entries[0].key, "00000003");
    assert!(c[0].entries[0].value.starts_with("0000000001312d00"));
}

#[test]
fn out_of_range_index_is_green_and_changes_nothing() {
    let m = load();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    for i in 0..8 {
        store
            .meter_set(&m, "limits", i, MeterCell::configured(1, 0, 1, 0))
            .unwrap();
    }
    let mut before = store.clone();
    before.clock_ns = 5;
    // Not IPv4: index 9.
    let out = interp
        .run(
            &mut store,
            &Packet {
                bytes: vec![0u8; 60],
                in_port: 1,
                timestamp_ns: 5,
            },
        )
        .unwrap();
    assert_eq!(out.action, Action::Send(1));
    assert_eq!(store, before);
    assert!(store
        .meter_set(&m, "limits", 8, MeterCell::default())
        .is_err());
}
