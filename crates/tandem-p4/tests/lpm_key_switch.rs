//! An LPM map on a composite key (an exact tenant, then the prefix-matched address —
//! `tandem::LpmKey`) on the software switch against the NF IR on the interpreter: the
//! generated table has an `exact` key then an `lpm` key, and forwards every packet as the
//! interpreter's longest prefix match within the tenant does, on random prefix sets.

use proptest::prelude::*;
use tandem_ir::interp::prefix_mask;
use tandem_ir::{Action, InterpOptions, Interpreter, Module, Packet, StateStore};
use tandem_p4::{generate, manifest::TableRole, P4Options};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};
use tandem_switch::{KeyMatch, Switch, TableEntry};

/// The tenant is the IPv4 source address's last byte, the address the destination; the
/// route's value is the output port.
const NF: &str = "nf tenant_router

state routes: lpm_map<{k0: i32, k4: i32}, {v0: i16}, 256>

fn process {
block0:
    v0:i32 = hdr.read ipv4.saddr
    v1:i32 = const 255
    v2:i32 = and v0, v1
    v3:i32 = hdr.read ipv4.daddr
    v4:i1, v5:i16 = map.find routes(v2, v3)
    brif v4, block1, block2

block1:
    send v5
    return

block2:
    drop
    return
}
";

struct Setup {
    module: Module,
    p4: String,
    table: String,
    hit: String,
}

fn setup() -> Setup {
    let module = tandem_ir::parse_module(NF).unwrap();
    tandem_ir::verify_module(&module).unwrap();
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
    let kinds: Vec<&str> = table.keys.iter().map(|k| k.match_kind.as_str()).collect();
    assert_eq!(kinds, ["exact", "lpm"]);
    let p4 = tandem_p4_syntax::print_program(&out.program);
    assert!(p4.contains(": exact") && p4.contains(": lpm"), "{p4}");
    Setup {
        p4,
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

fn frame(tenant: u8, daddr: u32) -> Vec<u8> {
    let mut f = vec![0u8; 14 + 20 + 8];
    f[0..6].copy_from_slice(&[0, 0, 0, 0, 0, 1]);
    f[6..12].copy_from_slice(&[0, 0, 0, 0, 0, 0xaa]);
    f[12..14].copy_from_slice(&[0x08, 0x00]);
    let ip = &mut f[14..34];
    ip[0] = 0x45;
    ip[2..4].copy_from_slice(&28u16.to_be_bytes());
    ip[8] = 64;
    ip[9] = 17;
    ip[12..16].copy_from_slice(&[192, 0, 2, tenant]);
    ip[16..20].copy_from_slice(&daddr.to_be_bytes());
    f
}

/// Installs `routes` (tenant, prefix, len, port) in the interpreter's store and the switch's
/// table as the runtime writes them (exact tenant, prefix/len); both must forward alike.
fn check(
    s: &Setup,
    routes: &[(u8, u32, u8, u16)],
    probes: &[(u8, u32)],
) -> Result<(), TestCaseError> {
    let interp = Interpreter::new(&s.module, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&s.module);
    let sw = Switch::from_source(&s.p4).unwrap();
    let mut seen = std::collections::HashSet::new();
    for &(t, p, l, port) in routes {
        let masked = u64::from(p) & prefix_mask(32, u32::from(l));
        let key = [u64::from(t), masked, u64::from(l)];
        store
            .map_insert(&s.module, "routes", &key, &[u64::from(port)])
            .unwrap();
        let entry = TableEntry {
            matches: vec![
                KeyMatch::Exact(u64::from(t)),
                KeyMatch::Lpm(masked, u32::from(l)),
            ],
            action: s.hit.clone(),
            args: vec![u64::from(port)],
            priority: None,
        };
        if seen.insert(key) {
            sw.insert(&s.table, entry).unwrap();
        } else {
            sw.modify(&s.table, entry).unwrap();
        }
    }
    let mut w = sw.worker();
    for &(t, a) in probes {
        let pkt = frame(t, a);
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
                prop_assert_eq!(got, Some((u32::from(p), want.packet)), "{} {:#x}", t, a)
            }
            _ => prop_assert_eq!(got, None, "{} {:#x}: the reference drops", t, a),
        }
    }
    Ok(())
}

fn addr(x: u32) -> u32 {
    let a = [10u32, 172, 192][(x % 3) as usize];
    (a << 24) | (x >> 2 & 0x00ff_ffff & 0x00f0_f0ff)
}

#[test]
fn the_tenant_is_exact_and_the_longest_prefix_wins_within_it() {
    let s = setup();
    let routes = [
        (1, 0x0a00_0000, 8, 1),
        (1, 0x0a01_0000, 16, 2),
        (2, 0x0a01_0200, 24, 3),
        (2, 0, 0, 4),
    ];
    // Tenant 1 has no /24, tenant 2 no /16; tenant 3 nothing.
    check(
        &s,
        &routes,
        &[
            (1, 0x0a01_0203),
            (2, 0x0a01_0203),
            (2, 0x0a01_0303),
            (1, 0x0b00_0000),
            (3, 0x0a01_0203),
        ],
    )
    .unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn switch_composite_lpm_matches_the_interpreter(
        routes in prop::collection::vec((0u8..3, any::<u32>(), 0u8..=32, 1u16..200), 1..60),
        probes in prop::collection::vec((0u8..3, any::<u32>()), 1..60),
    ) {
        let s = setup();
        let routes: Vec<(u8, u32, u8, u16)> =
            routes.into_iter().map(|(t, p, l, port)| (t, addr(p), l, port)).collect();
        let mut probes: Vec<(u8, u32)> = probes.into_iter().map(|(t, a)| (t, addr(a))).collect();
        probes.extend(routes.iter().map(|r| (r.0, r.1)));
        check(&s, &routes, &probes)?;
    }
}
