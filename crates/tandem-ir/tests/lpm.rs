//! LPM maps: the interpreter's longest-prefix match against a naive model on random prefix
//! sets, inserted both from the host (as `configure` does) and by `map.insert`/`map.erase`.

use proptest::prelude::*;
use tandem_ir::interp::prefix_mask;
use tandem_ir::*;

fn load() -> Module {
    let path = format!("{}/tests/data/lpm.nfir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test file");
    parse_module(&text).unwrap_or_else(|e| panic!("{path}:{e}"))
}

/// Ethernet + IPv4 (20 bytes) + 8 bytes.
fn packet(saddr: u32, daddr: u32, ttl: u8) -> Vec<u8> {
    let mut p = vec![0u8; 14 + 20 + 8];
    p[12..14].copy_from_slice(&[0x08, 0x00]);
    p[14] = 0x45;
    p[16..18].copy_from_slice(&28u16.to_be_bytes());
    p[22] = ttl;
    p[23] = 17;
    p[26..30].copy_from_slice(&saddr.to_be_bytes());
    p[30..34].copy_from_slice(&daddr.to_be_bytes());
    p
}

/// The naive model: every (masked prefix, length) → port; the longest matching length wins.
fn naive(routes: &[(u32, u8, u16)], addr: u32) -> Option<u16> {
    let mut best: Option<(u8, u16)> = None;
    for &(p, l, port) in routes {
        let m = prefix_mask(32, u32::from(l));
        if u64::from(addr) & m == u64::from(p) & m && best.is_none_or(|(bl, _)| l >= bl) {
            best = Some((l, port));
        }
    }
    best.map(|(_, p)| p)
}

fn run(interp: &Interpreter, store: &mut StateStore, in_port: u16, bytes: Vec<u8>) -> Action {
    interp
        .run(
            store,
            &Packet {
                bytes,
                in_port,
                timestamp_ns: 0,
            },
        )
        .expect("runs")
        .action
}

/// Upserts into the model as the map does: a (masked prefix, length) pair is one entry.
fn model_insert(model: &mut Vec<(u32, u8, u16)>, p: u32, l: u8, port: u16) {
    let m = prefix_mask(32, u32::from(l)) as u32;
    model.retain(|&(q, k, _)| !(k == l && q & m == p & m));
    model.push((p & m, l, port));
}

#[test]
fn longest_prefix_wins_and_default_route_matches_all() {
    let m = load();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    store.map_insert(&m, "routes", &[0, 0], &[1]).unwrap();
    store
        .map_insert(&m, "routes", &[0x0a00_0000, 8], &[2])
        .unwrap();
    store
        .map_insert(&m, "routes", &[0x0a01_0203, 16], &[3])
        .unwrap(); // masked to 10.1/16
    store
        .map_insert(&m, "routes", &[0x0a01_0200, 24], &[4])
        .unwrap();
    let cases = [
        (0x0b00_0001, 1),
        (0x0a00_0001, 2),
        (0x0a01_0001, 3),
        (0x0a01_02ff, 4),
        (0x0a01_0300, 3),
    ];
    for (addr, port) in cases {
        assert_eq!(
            run(&interp, &mut store, 1, packet(0, addr, 64)),
            Action::Send(port),
            "{addr:#x}"
        );
    }
    // Out-of-range lengths are refused by the host API and ignored by map.insert.
    assert!(store.map_insert(&m, "routes", &[0, 33], &[1]).is_err());
    run(&interp, &mut store, 7, packet(0x0c00_0000, 0, 40));
    assert_eq!(store.map_len(&m, "routes").unwrap(), 4);
    // The dump key is the prefix then one length byte, sorted.
    let d = store.dump(&m, DumpFormat::Canonical).unwrap();
    let keys: Vec<&str> = d[0].entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(
        keys,
        ["0000000000", "0a00000008", "0a01000010", "0a01020018"]
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn interpreter_matches_naive_lpm(
        host in prop::collection::vec((any::<u32>(), 0u8..=32, 1u16..500), 0..40),
        ops in prop::collection::vec((any::<bool>(), any::<u32>(), 0u8..=32), 0..20),
        probes in prop::collection::vec(any::<u32>(), 1..40),
    ) {
        let m = load();
        let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
        let mut store = StateStore::new(&m);
        let mut model = Vec::new();
        // Short prefixes of few distinct values, so that prefixes nest and collide.
        let narrow = |p: u32| p & 0xf0f0_0000 | (p & 0xff);
        for &(p, l, port) in &host {
            let p = narrow(p);
            let masked = u64::from(p) & prefix_mask(32, u32::from(l));
            store.map_insert(&m, "routes", &[masked, u64::from(l)], &[u64::from(port)]).unwrap();
            model_insert(&mut model, p, l, port);
        }
        for &(insert, p, l) in &ops {
            let p = narrow(p);
            if insert {
                run(&interp, &mut store, 7, packet(p, 0, l));
                model_insert(&mut model, p, l, 99);
            } else {
                run(&interp, &mut store, 8, packet(p, 0, l));
                let mk = prefix_mask(32, u32::from(l)) as u32;
                model.retain(|&(q, k, _)| !(k == l && q & mk == p & mk));
            }
        }
        let mut addrs = probes.clone();
        addrs.extend(model.iter().map(|&(p, l, _)| p | (1u32.checked_shl(32 - u32::from(l)).unwrap_or(0) >> 1)));
        for a in addrs {
            let a = narrow(a) | (a & 0x0f0f_ff00);
            let want = naive(&model, a).map_or(Action::Drop, Action::Send);
            prop_assert_eq!(run(&interp, &mut store, 1, packet(0, a, 64)), want, "addr {:#x}", a);
        }
        prop_assert_eq!(store.map_len(&m, "routes").unwrap(), model.len());
    }
}
