//! An LPM map lowered to ALPM (`lower::alpm`: a ternary pivot table naming a bucket, an
//! exact-bucket + LPM bucket table, the pivot's cover) run on Tandem's software switch
//! against the NF IR on the interpreter (plain longest prefix match): on random prefix sets
//! and bucket depths, every packet is forwarded as plain LPM forwards it. The entries are
//! built by `tandem_partition::alpm::lower_entries`, as the runtime builds them.
//! Negative control: the same entries without the pivots' covers make packets whose
//! longest prefix sits above their pivot miss, and the comparison catches it.

use proptest::prelude::*;
use tandem_ir::interp::prefix_mask;
use tandem_ir::{Action, InterpOptions, Interpreter, Module, Packet, StateStore};
use tandem_p4::{generate, manifest::TableRole, Arch, P4Options};
use tandem_partition::alpm::lower_entries;
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
    pivot: (String, String),
    bucket: (String, String),
}

fn short(a: &str) -> String {
    a.rsplit('.').next().unwrap().to_string()
}

fn setup(arch: Arch, depth: u32) -> Setup {
    let module = tandem_ir::parse_module(NF).unwrap();
    tandem_ir::verify_module(&module).unwrap();
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    assert_eq!(plan.summary.server, 0, "the router runs on the switch only");
    let module = plan.module().unwrap();
    let mut opts = P4Options {
        arch,
        ..Default::default()
    };
    opts.alpm.insert("routes".into(), depth);
    let out = generate(&plan, &module, &opts).unwrap_or_else(|e| panic!("{e}"));
    let state = out
        .manifest
        .states
        .iter()
        .find(|s| s.name == "routes")
        .unwrap();
    let a = state.alpm.as_ref().expect("an ALPM map in the manifest");
    assert!(state.tables.is_empty(), "no plain LPM table");
    assert_eq!(a.depth, depth);
    let table = |role: TableRole, n: &str| {
        let t = out
            .manifest
            .tables
            .iter()
            .find(|t| t.role == role && t.name == n)
            .unwrap_or_else(|| panic!("{n}"));
        (t.name.clone(), short(&t.hit_action.name), t)
    };
    let (pn, pa, pt) = table(TableRole::AlpmPivot, &a.pivot_tables[0]);
    let (bn, ba, bt) = table(TableRole::AlpmBucket, &a.bucket_tables[0]);
    let kinds = |t: &tandem_p4::manifest::Table| {
        t.keys
            .iter()
            .map(|k| k.match_kind.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(kinds(pt), ["ternary", "ternary"]);
    assert_eq!(kinds(bt), ["exact", "exact", "lpm"]);
    let p4 = tandem_p4_syntax::print_program(&out.program);
    Setup {
        p4,
        pivot: (pn, pa),
        bucket: (bn, ba),
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

/// Installs `routes` (tenant, prefix, len, port) in the interpreter's store and, as ALPM
/// entries at `depth`, in the switch (without covers when `covers` is false); the switch
/// must forward as the interpreter does.
fn check(
    s: &Setup,
    depth: u32,
    routes: &[(u8, u32, u8, u16)],
    probes: &[(u8, u32)],
    covers: bool,
) -> Result<(), TestCaseError> {
    let interp = Interpreter::new(&s.module, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&s.module);
    let sw = Switch::from_source(&s.p4).unwrap();
    let mut entries: std::collections::BTreeMap<Vec<u64>, Vec<u64>> = Default::default();
    for &(t, p, l, port) in routes {
        let masked = u64::from(p) & prefix_mask(32, u32::from(l));
        let key = vec![u64::from(t), masked, u64::from(l)];
        store
            .map_insert(&s.module, "routes", &key, &[u64::from(port)])
            .unwrap();
        entries.insert(key, vec![u64::from(port)]);
    }
    let entries: Vec<(Vec<u64>, Vec<u64>)> = entries.into_iter().collect();
    let (pivots, buckets) = lower_entries(&[32, 32], depth as usize, &entries).unwrap();
    for p in pivots {
        let mut args = vec![p.bucket];
        match (&p.cover, covers) {
            (Some(v), true) => {
                args.push(1);
                args.extend(v);
            }
            _ => args.extend([0, 0]),
        }
        sw.insert(
            &s.pivot.0,
            TableEntry {
                matches: p
                    .ternary
                    .iter()
                    .map(|&(v, m)| KeyMatch::Ternary(v, m))
                    .collect(),
                action: s.pivot.1.clone(),
                args,
                priority: Some(i64::from(p.priority)),
            },
        )
        .unwrap();
    }
    for b in buckets {
        sw.insert(
            &s.bucket.0,
            TableEntry {
                matches: vec![
                    KeyMatch::Exact(b.bucket),
                    KeyMatch::Exact(b.key[0]),
                    KeyMatch::Lpm(b.key[1], b.key[2] as u32),
                ],
                action: s.bucket.1.clone(),
                args: b.value.clone(),
                priority: None,
            },
        )
        .unwrap();
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

/// Nested routes: a /8, /16 and /24s in tenant 1, a default in tenant 2.
fn nested() -> Vec<(u8, u32, u8, u16)> {
    let mut r = vec![
        (1, 0x0a00_0000, 8, 1),
        (1, 0x0a01_0000, 16, 2),
        (2, 0, 0, 4),
    ];
    for i in 0..12u32 {
        r.push((1, 0x0a01_0000 | (i << 8), 24, 10 + i as u16));
    }
    r
}

fn nested_probes() -> Vec<(u8, u32)> {
    let mut p = Vec::new();
    for i in 0..16u32 {
        p.push((1, 0x0a01_0005 | (i << 8)));
        p.push((1, 0x0a02_0000 | i));
        p.push((2, 0x0a01_0005 | (i << 8)));
        p.push((3, 0x0a01_0005 | (i << 8)));
    }
    p
}

#[test]
fn alpm_forwards_as_lpm_on_nested_routes() {
    for depth in [1, 2, 4, 64] {
        let s = setup(Arch::V1Model, depth);
        check(&s, depth, &nested(), &nested_probes(), true).unwrap();
    }
}

/// Negative control: without the covers, a packet of 10.1.200.x (no /24; its pivot is below
/// the /16) misses instead of taking 10.1.0.0/16.
#[test]
fn alpm_without_covers_is_caught() {
    let s = setup(Arch::V1Model, 2);
    assert!(check(&s, 2, &nested(), &nested_probes(), false).is_err());
}

#[test]
fn tna_program_is_generated() {
    let s = setup(Arch::Tna, 8);
    assert!(s.p4.contains("routes_piv"), "{}", s.p4);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn alpm_on_the_switch_equals_lpm_on_random_prefix_sets(
        depth in prop::sample::select(vec![1u32, 2, 3, 8]),
        routes in prop::collection::vec((0u8..3, any::<u32>(), 0u8..=32, 1u16..200), 1..60),
        probes in prop::collection::vec((0u8..3, any::<u32>()), 1..60),
    ) {
        let s = setup(Arch::V1Model, depth);
        let routes: Vec<(u8, u32, u8, u16)> =
            routes.into_iter().map(|(t, p, l, port)| (t, addr(p), l, port)).collect();
        let mut probes: Vec<(u8, u32)> = probes.into_iter().map(|(t, a)| (t, addr(a))).collect();
        probes.extend(routes.iter().map(|r| (r.0, r.1)));
        check(&s, depth, &routes, &probes, true)?;
    }
}
