//! An exact map held as key digests (`lower::digest`: a conflict table on the full key, then
//! an exact table on the key's 32-bit `crc32`) run on Tandem's software switch against the NF
//! IR on the interpreter: two keys forced to share a digest are both answered right, because
//! the placement (`tandem_partition::digest::place`, as the runtime places keys) moves them
//! to the conflict table. Negative control: the same keys written to the digest table only
//! (no conflict table) make one of them take the other's value, and the comparison catches
//! it.

use std::collections::BTreeMap;

use tandem_ir::{Action, InterpOptions, Interpreter, Module, Packet, StateStore};
use tandem_p4::{generate, manifest::TableRole, Arch, P4Options};
use tandem_partition::digest::{digest, find_conflict, place};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};
use tandem_switch::{KeyMatch, Switch, TableEntry};

/// Exact on (source address, destination address) → the output port.
const NF: &str = "nf pair_router

state pairs: hashmap<{k0: i32, k1: i32}, {v0: i16}, 1024>

fn process {
block0:
    v0:i32 = hdr.read ipv4.saddr
    v1:i32 = hdr.read ipv4.daddr
    v2:i1, v3:i16 = map.find pairs(v0, v1)
    brif v2, block1, block2

block1:
    send v3
    return

block2:
    drop
    return
}
";

struct Setup {
    module: Module,
    p4: String,
    conflict: (String, String),
    digest: (String, String),
}

fn short(a: &str) -> String {
    a.rsplit('.').next().unwrap().to_string()
}

fn setup(arch: Arch) -> Setup {
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
    opts.digest.insert("pairs".into(), 16);
    let out = generate(&plan, &module, &opts).unwrap_or_else(|e| panic!("{e}"));
    let state = out
        .manifest
        .states
        .iter()
        .find(|s| s.name == "pairs")
        .unwrap();
    let d = state
        .digest
        .as_ref()
        .expect("a digested map in the manifest");
    assert!(state.tables.is_empty(), "no full-key main table");
    let table = |role: TableRole, n: &str| {
        let t = out
            .manifest
            .tables
            .iter()
            .find(|t| t.role == role && t.name == n)
            .unwrap_or_else(|| panic!("{n}"));
        (t.name.clone(), short(&t.hit_action.name), t)
    };
    let (cn, ca, ct) = table(TableRole::DigestConflict, &d.conflict_tables[0]);
    let (dn, da, dt) = table(TableRole::Digest, &d.digest_tables[0]);
    assert_eq!(ct.keys.len(), 2);
    assert_eq!(ct.size, 16);
    assert_eq!(dt.keys.len(), 1);
    assert_eq!(dt.keys[0].bits, 32);
    Setup {
        p4: tandem_p4_syntax::print_program(&out.program),
        conflict: (cn, ca),
        digest: (dn, da),
        module,
    }
}

fn frame(saddr: u32, daddr: u32) -> Vec<u8> {
    let mut f = vec![0u8; 14 + 20 + 8];
    f[0..6].copy_from_slice(&[0, 0, 0, 0, 0, 1]);
    f[6..12].copy_from_slice(&[0, 0, 0, 0, 0, 0xaa]);
    f[12..14].copy_from_slice(&[0x08, 0x00]);
    let ip = &mut f[14..34];
    ip[0] = 0x45;
    ip[2..4].copy_from_slice(&28u16.to_be_bytes());
    ip[8] = 64;
    ip[9] = 17;
    ip[12..16].copy_from_slice(&saddr.to_be_bytes());
    ip[16..20].copy_from_slice(&daddr.to_be_bytes());
    f
}

const BITS: [u32; 2] = [32, 32];

/// Installs `entries` in the interpreter's store and in the switch (placed by
/// `digest::place`, or all in the digest table when `conflicts` is false); probes every
/// key and `extra`.
fn check(
    s: &Setup,
    entries: &[(Vec<u64>, Vec<u64>)],
    extra: &[Vec<u64>],
    conflicts: bool,
) -> Result<(), String> {
    let interp = Interpreter::new(&s.module, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&s.module);
    let sw = Switch::from_source(&s.p4).unwrap();
    for (k, v) in entries {
        store.map_insert(&s.module, "pairs", k, v).unwrap();
    }
    let (dig, cfl) = if conflicts {
        place(&BITS, entries).unwrap()
    } else {
        let mut d = BTreeMap::new();
        for (k, v) in entries {
            d.insert(digest(&BITS, k).unwrap(), v.clone());
        }
        (d, BTreeMap::new())
    };
    for (k, v) in &cfl {
        let entry = TableEntry {
            matches: k.iter().map(|&x| KeyMatch::Exact(x)).collect(),
            action: s.conflict.1.clone(),
            args: v.clone(),
            priority: None,
        };
        sw.insert(&s.conflict.0, entry).unwrap();
    }
    for (d, v) in &dig {
        let entry = TableEntry {
            matches: vec![KeyMatch::Exact(u64::from(*d))],
            action: s.digest.1.clone(),
            args: v.clone(),
            priority: None,
        };
        sw.insert(&s.digest.0, entry).unwrap();
    }
    let mut w = sw.worker();
    for k in entries.iter().map(|e| &e.0).chain(extra) {
        let pkt = frame(k[0] as u32, k[1] as u32);
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
        let want = match want.action {
            Action::Send(p) => Some((u32::from(p), want.packet)),
            _ => None,
        };
        if got != want {
            return Err(format!("{k:x?}: switch {got:?}, reference {want:?}"));
        }
    }
    Ok(())
}

type Entries = Vec<(Vec<u64>, Vec<u64>)>;

fn entries() -> (Entries, Vec<u64>, Vec<u64>) {
    let (a, b) = find_conflict(&BITS, 1).unwrap();
    assert_eq!(digest(&BITS, &a).unwrap(), digest(&BITS, &b).unwrap());
    let mut e = vec![(a.clone(), vec![7]), (b.clone(), vec![9])];
    for i in 0..20u64 {
        e.push((vec![0x0a00_0100 + i, 0xc000_0201 + 3 * i], vec![20 + i]));
    }
    (e, a, b)
}

#[test]
fn a_forced_digest_conflict_is_resolved_by_the_conflict_table() {
    let s = setup(Arch::V1Model);
    let (e, _, _) = entries();
    let absent = vec![vec![0x0b00_0000, 1], vec![0x0a00_0100, 0xc000_0202]];
    check(&s, &e, &absent, true).unwrap();
}

/// Negative control: the colliding keys in the digest table alone answer alike.
#[test]
fn without_the_conflict_table_the_conflict_is_caught() {
    let s = setup(Arch::V1Model);
    let (e, a, b) = entries();
    let err = check(&s, &e, &[], false).unwrap_err();
    assert!(
        err.contains(&format!("{a:x?}")) || err.contains(&format!("{b:x?}")),
        "{err}"
    );
}

#[test]
fn tna_program_hashes_the_key() {
    let s = setup(Arch::Tna);
    assert!(
        s.p4.contains("pairs_cfl") && s.p4.contains("Hash<"),
        "{}",
        s.p4
    );
}

#[test]
fn a_lpm_map_is_refused() {
    let module = tandem_ir::parse_module(&NF.replace("hashmap", "lpm_map")).unwrap();
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    let module = plan.module().unwrap();
    let mut opts = P4Options::default();
    opts.digest.insert("pairs".into(), 16);
    let err = generate(&plan, &module, &opts).unwrap_err().to_string();
    assert!(err.contains("only an exact map"), "{err}");
}
