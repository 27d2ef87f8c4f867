//! Property tests: the parser never panics, and whatever it accepts can be verified, printed
//! and (when it verifies) run on any packet without panicking.

use proptest::prelude::*;
use tandem_ir::*;

const MINILB: &str = include_str!("data/minilb.nfir");
const ALL_OPS: &str = include_str!("data/all_ops.nfir");
const TTL_LOOP: &str = include_str!("data/ttl_loop.nfir");

/// Everything downstream of a successful parse must be panic-free too.
fn exercise(text: &str, packet: &[u8]) {
    let Ok(m) = parse_module(text) else { return };
    let printed = print_module(&m);
    if verify_module(&m).is_ok() {
        let again = parse_module(&printed).expect("printed text of a verified module parses");
        assert_eq!(print_module(&again), printed);
        let interp = Interpreter::new(&m, InterpOptions { fuel: 10_000 }).expect("verified");
        let mut store = StateStore::new(&m);
        let p = Packet {
            bytes: packet.to_vec(),
            in_port: 1,
            timestamp_ns: 7,
        };
        let _ = interp.run(&mut store, &p);
        let _ = store.dump(&m, DumpFormat::Canonical);
        let _ = store.dump(&m, DumpFormat::Cpp);
    }
}

fn mutate(base: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    for &(pos, kind, c) in edits {
        if chars.is_empty() {
            chars.push(c);
            continue;
        }
        let i = pos % chars.len();
        match kind % 4 {
            0 => {
                chars.remove(i);
            }
            1 => chars.insert(i, c),
            2 => chars[i] = c,
            _ => chars.truncate(i),
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn parser_never_panics_on_arbitrary_text(text in "\\PC*") {
        exercise(&text, &[]);
    }

    #[test]
    fn parser_never_panics_on_token_soup(
        toks in proptest::collection::vec(prop_oneof![
            Just("nf"), Just("x"), Just("fn"), Just("process"), Just("{"), Just("}"),
            Just("block0"), Just("block1"), Just(":"), Just("v0"), Just("v1"), Just("i32"),
            Just("="), Just(","), Just("("), Just(")"), Just("const"), Just("7"), Just("br"),
            Just("return"), Just("state"), Just("s"), Just("hashmap<"), Just(">"), Just("map.find"),
            Just("\n"), Just("at"), Just("f0"), Just("file"), Just("\"a\""), Just("->"),
        ], 0..60)
    ) {
        exercise(&toks.join(" "), &[]);
    }

    #[test]
    fn mutated_programs_never_panic(
        which in 0usize..3,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<char>()), 1..4),
        packet in proptest::collection::vec(any::<u8>(), 0..80),
    ) {
        let base = [MINILB, ALL_OPS, TTL_LOOP][which];
        exercise(&mutate(base, &edits), &packet);
    }

    #[test]
    fn minilb_never_panics_on_arbitrary_packets(
        packet in proptest::collection::vec(any::<u8>(), 0..80),
        ipv4 in any::<bool>(),
    ) {
        let mut packet = packet;
        if ipv4 && packet.len() >= 15 {
            packet[12] = 0x08;
            packet[13] = 0x00;
            packet[14] = 0x45;
        }
        exercise(MINILB, &packet);
    }
}
