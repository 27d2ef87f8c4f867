//! The ACL firewall's switch program on the software switch against the NF IR on the
//! interpreter, on random rule sets: the generated `range` tables (port classes) and `ternary`
//! table (rules), with entries as the runtime writes them — value and mask (or range) and a
//! priority, the highest winning — must treat every packet exactly as the interpreter's
//! highest-priority match does.

use proptest::prelude::*;
use tandem_ir::{Action, InterpOptions, Interpreter, Module, Packet, StateStore};
use tandem_p4::{generate, manifest::TableRole, P4Options};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};
use tandem_switch::{KeyMatch, Switch, TableEntry};

struct Setup {
    module: Module,
    p4: String,
    /// (state, table, hit action, match kinds)
    tables: Vec<(String, String, String, Vec<String>)>,
}

fn setup() -> Setup {
    let text = include_str!("../../tandem-lift/tests/golden/aclfw.nfir");
    let module = tandem_ir::parse_module(text).unwrap();
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    assert_eq!(
        plan.summary.server, 0,
        "the firewall runs on the switch only"
    );
    let module = plan.module().unwrap();
    let out = generate(&plan, &module, &P4Options::default()).unwrap();
    let tables = out
        .manifest
        .tables
        .iter()
        .filter(|t| t.role == TableRole::Main)
        .map(|t| {
            (
                t.state.clone(),
                t.name.clone(),
                t.hit_action.name.rsplit('.').next().unwrap().to_string(),
                t.keys.iter().map(|k| k.match_kind.clone()).collect(),
            )
        })
        .collect();
    Setup {
        p4: tandem_p4_syntax::print_program(&out.program),
        tables,
        module,
    }
}

fn table<'a>(s: &'a Setup, state: &str) -> &'a (String, String, String, Vec<String>) {
    s.tables.iter().find(|t| t.0 == state).unwrap()
}

/// Ethernet + IPv4 + TCP or UDP.
fn frame(saddr: u32, daddr: u32, udp: bool, sport: u16, dport: u16) -> Vec<u8> {
    let mut f = vec![0u8; 14 + 20 + 20];
    f[12..14].copy_from_slice(&[0x08, 0x00]);
    let ip = &mut f[14..34];
    ip[0] = 0x45;
    ip[2..4].copy_from_slice(&40u16.to_be_bytes());
    ip[8] = 64;
    ip[9] = if udp { 17 } else { 6 };
    ip[12..16].copy_from_slice(&saddr.to_be_bytes());
    ip[16..20].copy_from_slice(&daddr.to_be_bytes());
    f[34..36].copy_from_slice(&sport.to_be_bytes());
    f[36..38].copy_from_slice(&dport.to_be_bytes());
    if udp {
        f[38..40].copy_from_slice(&20u16.to_be_bytes());
    } else {
        f[46] = 0x50;
    }
    f
}

/// A rule: key and mask per field (saddr, daddr, proto, sclass, dclass, in_port) and the
/// action (port, allow).
type Rule = ([u64; 6], [u64; 6], u16, bool);

fn check(
    s: &Setup,
    classes: &[(u16, u16, u8)],
    rules: &[Rule],
    pkts: &[(u32, u32, bool, u16, u16, u16)],
) -> Result<(), TestCaseError> {
    let interp = Interpreter::new(&s.module, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&s.module);
    let sw = Switch::from_source(&s.p4).unwrap();
    for (i, &(lo, hi, class)) in classes.iter().enumerate() {
        let prio = i as u64 + 1;
        for state in ["src_class", "dst_class"] {
            let (_, t, hit, kinds) = table(s, state);
            prop_assert_eq!(kinds, &vec!["range".to_string()]);
            store
                .map_insert(
                    &s.module,
                    state,
                    &[u64::from(lo), u64::from(hi), prio],
                    &[u64::from(class)],
                )
                .unwrap();
            sw.insert(
                t,
                TableEntry {
                    matches: vec![KeyMatch::Range(u64::from(lo), u64::from(hi))],
                    action: hit.clone(),
                    args: vec![u64::from(class)],
                    priority: Some(prio as i64),
                },
            )
            .unwrap();
        }
    }
    let (_, t, hit, kinds) = table(s, "rules");
    prop_assert_eq!(kinds.len(), 6);
    for (i, (k, m, port, allow)) in rules.iter().enumerate() {
        // Priorities distinct and not in index order.
        let prio = (i as u64 * 7919) % 1000 + 1;
        let value = u64::from(*port) | u64::from(*allow) << 16;
        let mut name: Vec<u64> = k.iter().zip(m).map(|(k, m)| k & m).collect();
        name.extend_from_slice(m);
        name.push(prio);
        store
            .map_insert(&s.module, "rules", &name, &[value])
            .unwrap();
        sw.insert(
            t,
            TableEntry {
                matches: k
                    .iter()
                    .zip(m)
                    .map(|(k, m)| KeyMatch::Ternary(k & m, *m))
                    .collect(),
                action: hit.clone(),
                args: vec![value],
                priority: Some(prio as i64),
            },
        )
        .unwrap();
    }
    let mut w = sw.worker();
    for &(sa, da, udp, sp, dp, in_port) in pkts {
        let pkt = frame(sa, da, udp, sp, dp);
        let want = interp
            .run(
                &mut store,
                &Packet {
                    bytes: pkt.clone(),
                    in_port,
                    timestamp_ns: 0,
                },
            )
            .unwrap();
        let got = w
            .process(u32::from(in_port), &pkt)
            .map(|(p, b)| (p, b.to_vec()));
        let what = format!("{sa:#x} -> {da:#x} udp {udp} {sp} -> {dp} in {in_port}");
        match want.action {
            Action::Send(p) => prop_assert_eq!(got, Some((u32::from(p), want.packet)), "{}", what),
            Action::Drop => prop_assert_eq!(got, None, "{}: the reference drops", what),
        }
    }
    Ok(())
}

const ADDRS: [u32; 5] = [
    0xc0a8_0a01,
    0xc0a8_c805,
    0xac10_0001,
    0xac1f_0203,
    0x0a00_0001,
];
const MASKS: [u64; 4] = [0, 0xffff_0000, 0xffff_ff00, 0xffff_ffff];
const PORTS: [u16; 6] = [22, 80, 443, 5001, 40000, 53];

fn rule(x: (u8, u8, u8, u8, u8, u8, u16)) -> Rule {
    let (a, b, c, d, e, f, port) = x;
    let key = [
        u64::from(ADDRS[a as usize % 5]),
        u64::from(ADDRS[b as usize % 5]),
        [6, 17][c as usize % 2],
        u64::from(d % 4),
        u64::from(e % 4),
        u64::from(f % 2),
    ];
    let mask = [
        MASKS[(a / 5) as usize % 4],
        MASKS[(b / 5) as usize % 4],
        [0, 0xff][(c / 2) as usize % 2],
        [0, 0xff, 0x02][(d / 4) as usize % 3],
        [0, 0xff, 0x01][(e / 4) as usize % 3],
        [0, 0xff][(f / 2) as usize % 2],
    ];
    (key, mask, port % 60, port % 3 != 0)
}

#[test]
fn the_highest_priority_rule_wins_on_the_switch() {
    let s = setup();
    let classes = [(0, 1023, 1), (22, 22, 2), (1024, 65535, 3)];
    // Priorities (from the index): 1 (the catch-all allow), 7920 % 1000 + 1 = 921 (deny SSH
    // from 192.168/16), 15839 % 1000 + 1 = 840 (allow class 1 to port 1).
    let rules = [
        ([0; 6], [0; 6], 1, true),
        (
            [0xc0a8_0000, 0, 6, 0, 2, 0],
            [0xffff_0000, 0, 0xff, 0, 0xff, 0],
            0,
            false,
        ),
        ([0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0xff, 0], 9, true),
    ];
    let pkts = [
        (0xc0a8_0a01, 0xac10_0001, false, 40000, 22, 0),
        (0x0a00_0001, 0xac10_0001, false, 40000, 22, 0),
        (0xc0a8_0a01, 0xac10_0001, false, 40000, 80, 0),
        (0xc0a8_0a01, 0xac10_0001, true, 40000, 5001, 1),
    ];
    check(&s, &classes, &rules, &pkts).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn switch_ternary_and_range_tables_match_the_interpreter(
        classes in prop::collection::vec((any::<u16>(), 0u16..2000, 0u8..4), 0..8),
        rules in prop::collection::vec(any::<(u8, u8, u8, u8, u8, u8, u16)>(), 0..40),
        pkts in prop::collection::vec((0usize..5, 0usize..5, any::<bool>(), 0usize..6, 0usize..6, 0u16..2), 1..40),
    ) {
        let s = setup();
        let classes: Vec<(u16, u16, u8)> =
            classes.into_iter().map(|(lo, w, c)| (lo, lo.saturating_add(w), c)).collect();
        let rules: Vec<Rule> = rules.into_iter().map(rule).collect();
        let pkts: Vec<_> = pkts
            .into_iter()
            .map(|(a, b, u, sp, dp, i)| (ADDRS[a], ADDRS[b], u, PORTS[sp], PORTS[dp], i))
            .collect();
        check(&s, &classes, &rules, &pkts)?;
    }
}
