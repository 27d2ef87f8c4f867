//! The LPM router's switch program on the software switch against the NF IR on the
//! interpreter, on random prefix sets: the generated `lpm` table (entries as the runtime
//! writes them, `prefix/len`) must forward every packet exactly as the interpreter's longest
//! prefix match does — port and bytes.

use proptest::prelude::*;
use tandem_ir::interp::prefix_mask;
use tandem_ir::{Action, InterpOptions, Interpreter, Module, Packet, StateStore};
use tandem_p4::{generate, manifest::TableRole, P4Options};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};
use tandem_switch::{KeyMatch, Switch, TableEntry};

struct Setup {
    module: Module,
    p4: String,
    table: String,
    hit: String,
}

fn setup() -> Setup {
    let text = include_str!("../../tandem-lift/tests/golden/lpmrouter.nfir");
    let module = tandem_ir::parse_module(text).unwrap();
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    assert_eq!(plan.summary.server, 0, "the router runs on the switch only");
    let module = plan.module().unwrap();
    let out = generate(&plan, &module, &P4Options::default()).unwrap();
    let table = out
        .manifest
        .tables
        .iter()
        .find(|t| t.state == "routes" && t.role == TableRole::Main)
        .unwrap();
    assert_eq!(table.keys.len(), 1);
    assert_eq!(table.keys[0].match_kind, "lpm");
    Setup {
        p4: tandem_p4_syntax::print_program(&out.program),
        table: table.name.clone(),
        hit: table
            .hit_action
            .name
            .rsplit('.')
            .next()
            .unwrap()
            .to_string(),
        module,
    }
}

fn frame(daddr: u32, ttl: u8) -> Vec<u8> {
    let mut f = vec![0u8; 14 + 20 + 8 + 4];
    f[0..6].copy_from_slice(&[0, 0, 0, 0, 0, 1]);
    f[6..12].copy_from_slice(&[0, 0, 0, 0, 0, 0xaa]);
    f[12..14].copy_from_slice(&[0x08, 0x00]);
    let ip = &mut f[14..34];
    ip[0] = 0x45;
    ip[2..4].copy_from_slice(&32u16.to_be_bytes());
    ip[8] = ttl;
    ip[9] = 17;
    ip[12..16].copy_from_slice(&[192, 0, 2, 1]);
    ip[16..20].copy_from_slice(&daddr.to_be_bytes());
    f
}

/// Installs `routes` (prefix, len, port) in the interpreter's store and the switch's table;
/// sends a packet per address; both must agree.
fn check(s: &Setup, routes: &[(u32, u8, u16)], addrs: &[u32]) -> Result<(), TestCaseError> {
    let interp = Interpreter::new(&s.module, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&s.module);
    let sw = Switch::from_source(&s.p4).unwrap();
    let mut seen = std::collections::HashSet::new();
    for &(p, l, port) in routes {
        let masked = u64::from(p) & prefix_mask(32, u32::from(l));
        let args = vec![
            0x0200_0000_0000 | u64::from(port),
            0x0200_0000_0001,
            u64::from(port),
        ];
        store
            .map_insert(&s.module, "routes", &[masked, u64::from(l)], &args)
            .unwrap();
        let entry = TableEntry {
            matches: vec![KeyMatch::Lpm(masked, u32::from(l))],
            action: s.hit.clone(),
            args,
            priority: None,
        };
        if seen.insert((masked, l)) {
            sw.insert(&s.table, entry).unwrap();
        } else {
            sw.modify(&s.table, entry).unwrap();
        }
    }
    let mut w = sw.worker();
    for &a in addrs {
        let pkt = frame(a, 64);
        let want = interp
            .run(
                &mut store,
                &Packet {
                    bytes: pkt.clone(),
                    in_port: 0,
                    timestamp_ns: 0,
                },
            )
            .unwrap();
        let got = w.process(0, &pkt).map(|(p, b)| (p, b.to_vec()));
        match want.action {
            Action::Send(p) => {
                prop_assert_eq!(got, Some((u32::from(p), want.packet)), "addr {:#x}", a)
            }
            _ => prop_assert_eq!(got, None, "addr {:#x}: the reference drops", a),
        }
    }
    Ok(())
}

/// Few distinct address values so that prefixes nest.
fn addr(x: u32) -> u32 {
    let a = [10u32, 172, 192][(x % 3) as usize];
    (a << 24) | (x >> 2 & 0x00ff_ffff & 0x00f0_f0ff)
}

#[test]
fn longest_prefix_wins_on_the_switch() {
    let s = setup();
    let routes = [
        (0x0a00_0000, 8, 1),
        (0x0a01_0000, 16, 2),
        (0x0a01_0200, 24, 3),
        (0x0a01_0203, 32, 4),
    ];
    check(
        &s,
        &routes,
        &[
            0x0a01_0203,
            0x0a01_0204,
            0x0a01_0304,
            0x0a02_0000,
            0x0b00_0000,
        ],
    )
    .unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn switch_lpm_matches_the_interpreter(
        routes in prop::collection::vec((any::<u32>(), 0u8..=32, 1u16..200), 1..60),
        probes in prop::collection::vec(any::<u32>(), 1..60),
    ) {
        let s = setup();
        let routes: Vec<(u32, u8, u16)> = routes.into_iter().map(|(p, l, port)| (addr(p), l, port)).collect();
        let mut addrs: Vec<u32> = probes.into_iter().map(addr).collect();
        addrs.extend(routes.iter().map(|r| r.0));
        check(&s, &routes, &addrs)?;
    }
}
