//! A map lowered to hash-indexed registers with a collision table (`lower::hashed`,
//! docs/hashed-storage.md), run on Tandem's switch: the server's allocator
//! (`tandem_partition::hashed::SlotAllocator`) places keys in a tiny hash space (2 ways of 4
//! slots, so keys share slots and some need the collision table or stay on the server), the
//! test writes the cells and collision entries as the runtime would, and every packet must
//! get what the switch's lookup model (`SwitchModel`) says: the key's own value, or a miss.
//! Negative control: a cell holding another key's fingerprint must read as a miss. The TNA
//! program is generated (and self-checked) too.

use tandem_p4::{generate, manifest::TableRole, Arch, P4Options};
use tandem_partition::hashed::{
    HashedLayout, HashedSpec, KeyCheck, Slot, SlotAllocator, SwitchModel,
};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};
use tandem_switch::{KeyMatch, Switch, TableEntry};

/// A session table keyed by (source address, source port): a hit forwards on the stored
/// port with the stored TTL, a miss drops.
const NF: &str = "nf sessions

state seen: hashmap<{k0: i32 @0, k4: i16 @4} size 8, {v0: i8 @0, v2: i16 @2} size 4, 64>

fn process {
block0:
    v0:i32 = hdr.read ipv4.saddr
    v1:i16 = hdr.read udp.sport
    v2:i1, v3:i8, v4:i16 = map.find seen(v0, v1)
    brif v2, block1, block2

block1:
    hdr.write ipv4.ttl, v3
    send v4
    return

block2:
    drop
    return
}
";

fn spec() -> HashedSpec {
    HashedSpec::parse("ways=2,slots=4,fp=8,col=3").unwrap()
}

fn layout() -> HashedLayout {
    let l = HashedLayout::new(2, 4, KeyCheck::Fingerprint(8), vec![32, 16], 24, 3).unwrap();
    assert_eq!(spec().layout(vec![32, 16], 24, 64).unwrap(), l);
    l
}

fn frame(saddr: u32, sport: u16) -> Vec<u8> {
    let mut f = vec![0u8; 42];
    f[12..14].copy_from_slice(&[0x08, 0x00]);
    f[14] = 0x45;
    f[16..18].copy_from_slice(&28u16.to_be_bytes());
    f[22] = 64;
    f[23] = 17;
    f[26..30].copy_from_slice(&saddr.to_be_bytes());
    f[34..36].copy_from_slice(&sport.to_be_bytes());
    f
}

fn program(arch: Arch) -> tandem_p4::P4Output {
    let module = tandem_ir::parse_module(NF).unwrap();
    tandem_ir::verify_module(&module).unwrap();
    let profile = TargetProfile::builtin("bmv2").unwrap();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    assert_eq!(plan.summary.server, 0, "everything on the switch");
    let module = plan.module().unwrap();
    let mut opts = P4Options {
        arch,
        ..Default::default()
    };
    opts.hashed.insert("seen".into(), spec());
    generate(&plan, &module, &opts).unwrap_or_else(|e| panic!("{e}"))
}

/// The cell of a key with value (ttl, port): fingerprint ++ ttl ++ port.
fn cell(l: &HashedLayout, key: &[u64], ttl: u64, port: u64) -> u64 {
    let fp = l.fingerprint(key).unwrap().unwrap();
    (fp << 24) | (ttl << 16) | port
}

/// Installs `keys` (with values) as the runtime would; returns the allocator's slots.
fn install(
    sw: &Switch,
    out: &tandem_p4::P4Output,
    keys: &[(Vec<u64>, u64, u64)],
    model: &mut SwitchModel,
) -> Vec<Slot> {
    let l = layout();
    let h = out
        .manifest
        .states
        .iter()
        .find(|s| s.name == "seen")
        .unwrap();
    let h = h.hashed.as_ref().expect("a hashed map in the manifest");
    let col = out
        .manifest
        .tables
        .iter()
        .find(|t| t.name == h.collision_table && t.role == TableRole::Collision)
        .expect("the collision table");
    let alt = col.hit_action.name.rsplit('.').next().unwrap().to_string();
    let mut a = SlotAllocator::new(l.clone());
    let mut slots = Vec::new();
    for (k, ttl, port) in keys {
        let s = a.insert(k).unwrap();
        model.write(k, s, (ttl << 16) | port).unwrap();
        if let Some((w, i)) = s.at() {
            sw.register_write(&h.registers[w as usize], i as u32, cell(&l, k, *ttl, *port))
                .unwrap();
        }
        if let Slot::Collision { way, slot } = s {
            sw.insert(
                &col.name,
                TableEntry {
                    matches: k.iter().map(|&v| KeyMatch::Exact(v)).collect(),
                    action: alt.clone(),
                    args: vec![u64::from(way), slot],
                    priority: None,
                },
            )
            .unwrap();
        }
        slots.push(s);
    }
    slots
}

/// What the switch did with a packet of `key`: Some((port, ttl)) or None (dropped).
fn probe(sw: &Switch, key: &[u64]) -> Option<(u32, u8)> {
    let mut w = sw.worker();
    let (port, bytes) = w.process(1, &frame(key[0] as u32, key[1] as u16))?;
    if u64::from(port) == tandem_switch::DROP_PORT {
        return None;
    }
    Some((port, bytes[22]))
}

fn keys() -> Vec<(Vec<u64>, u64, u64)> {
    (0..9u64)
        .map(|i| (vec![0x0a00_0000 + i % 3, 1000 + i / 3], 10 + i, 2 + i))
        .collect()
}

#[test]
fn every_key_reads_its_own_value_in_a_tiny_hash_space() {
    let out = program(Arch::V1Model);
    let p4 = tandem_p4_syntax::print_program(&out.program);
    assert!(
        !p4.contains("table seen {"),
        "no exact table for `seen`:\n{p4}"
    );
    assert!(p4.contains("seen_col"), "{p4}");
    let sw = Switch::from_source(&p4).unwrap_or_else(|e| panic!("{e}\n{p4}"));
    let mut model = SwitchModel::new(layout());
    let ks = keys();
    let slots = install(&sw, &out, &ks, &mut model);
    // The tiny space forces every outcome.
    assert!(
        slots.iter().any(|s| matches!(s, Slot::Home { way: 1, .. })),
        "{slots:?}"
    );
    assert!(
        slots.iter().any(|s| matches!(s, Slot::Collision { .. })),
        "{slots:?}"
    );
    assert!(slots.contains(&Slot::Server), "{slots:?}");
    for ((k, ttl, port), s) in ks.iter().zip(&slots) {
        let got = probe(&sw, k);
        let want = model
            .lookup(k)
            .unwrap()
            .map(|v| ((v & 0xffff) as u32, (v >> 16) as u8));
        assert_eq!(got, want, "key {k:?} at {s:?}");
        if *s != Slot::Server {
            assert_eq!(got, Some((*port as u32, *ttl as u8)), "key {k:?} at {s:?}");
        }
    }
    // Keys never inserted miss (a full 8-bit fingerprint makes a false hit unlikely here;
    // the model says what the switch must do either way).
    for i in 0..40u64 {
        let k = vec![0x0b00_0000 + i, 7];
        let want = model
            .lookup(&k)
            .unwrap()
            .map(|v| ((v & 0xffff) as u32, (v >> 16) as u8));
        assert_eq!(probe(&sw, &k), want, "absent {k:?}");
    }
}

#[test]
fn negative_control_another_keys_fingerprint_in_the_slot_is_a_miss() {
    let out = program(Arch::V1Model);
    let p4 = tandem_p4_syntax::print_program(&out.program);
    let sw = Switch::from_source(&p4).unwrap();
    let mut model = SwitchModel::new(layout());
    let ks = vec![(vec![0x0a00_0001, 1000], 33, 5)];
    let slots = install(&sw, &out, &ks, &mut model);
    assert_eq!(probe(&sw, &ks[0].0), Some((5, 33)));
    let (w, i) = slots[0].at().unwrap();
    let h = out
        .manifest
        .states
        .iter()
        .find(|s| s.name == "seen")
        .unwrap();
    let reg = &h.hashed.as_ref().unwrap().registers[w as usize];
    let good = sw.register_read(reg, i as u32).unwrap();
    // Flip one fingerprint bit: the slot now holds "another key".
    sw.register_write(reg, i as u32, good ^ (1 << 24)).unwrap();
    assert_eq!(
        probe(&sw, &ks[0].0),
        None,
        "a wrong fingerprint must not hit"
    );
}

#[test]
fn tna_program_is_generated_and_self_checked() {
    let out = program(Arch::Tna);
    let p4 = tandem_p4_syntax::print_program(&out.program);
    assert!(
        p4.contains("Hash<bit<32> >(HashAlgorithm_t.CRC32) seen_hash0"),
        "{p4}"
    );
    assert!(p4.contains("seen_col"), "{p4}");
}

#[test]
fn a_layout_that_does_not_fit_a_cell_is_an_error_not_a_program() {
    let module = tandem_ir::parse_module(NF).unwrap();
    let profile = TargetProfile::builtin("bmv2").unwrap();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    let module = plan.module().unwrap();
    let mut opts = P4Options::default();
    // 24 value bits + a 16-bit fingerprint > 32.
    opts.hashed.insert(
        "seen".into(),
        HashedSpec::parse("ways=2,slots=4,fp=16,col=3").unwrap(),
    );
    let err = generate(&plan, &module, &opts).unwrap_err().to_string();
    assert!(err.contains("32-bit register cell"), "{err}");
    opts.hashed.insert("nosuch".into(), HashedSpec::default());
    let err = generate(&plan, &module, &opts).unwrap_err().to_string();
    assert!(err.contains("no such map"), "{err}");
    assert!(HashedSpec::parse("ways=2,bogus=1").is_err());
    assert!(HashedSpec::parse("ways=x").is_err());
}

/// CoFilter's class map in packed slots: v1model and TNA read a 32-bit word and select the
/// slot by constant slices; a word count that is not a power of two is v1model's only
/// (`hash(..., max)`): TNA refuses it with an error naming the reason, never a program.
#[test]
fn packed_slots_are_lowered_and_tna_refuses_other_than_powers_of_two() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tandem-lift/tests/golden/cofilter.nfir"),
    )
    .unwrap();
    let module = tandem_ir::parse_module(&text).unwrap();
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    let module = plan.module().unwrap();
    let gen = |arch: Arch, spec: &str| {
        let mut opts = P4Options {
            arch,
            ..Default::default()
        };
        opts.hashed
            .insert("table__class".into(), HashedSpec::parse(spec).unwrap());
        generate(&plan, &module, &opts)
    };
    for arch in [Arch::V1Model, Arch::Tna] {
        let out =
            gen(arch, "ways=2,slots=256,fp=8,col=16,packed").unwrap_or_else(|e| panic!("{e}"));
        let p4 = &tandem_p4_syntax::print_program(&out.program);
        assert!(
            p4.contains("meta.table__class_s = meta.table__class_c[31:16];"),
            "{p4}"
        );
        let h = out
            .manifest
            .states
            .iter()
            .find_map(|s| s.hashed.as_ref())
            .unwrap();
        assert_eq!((h.slots_per_word, h.cell_bits), (2, 32));
        let words = out
            .manifest
            .registers
            .iter()
            .find(|r| r.field.as_deref() == Some("way0"))
            .unwrap();
        assert_eq!(words.size, 128, "registers hold words");
    }
    let v1 = gen(Arch::V1Model, "ways=2,slots=3000,fp=8,col=16,packed").unwrap();
    let v1 = tandem_p4_syntax::print_program(&v1.program);
    assert!(v1.contains("64w0x5dc)"), "the word index modulo 1,500");
    let err = gen(Arch::Tna, "ways=2,slots=3000,fp=8,col=16,packed")
        .unwrap_err()
        .to_string();
    assert!(err.contains("TNA's `Hash`"), "{err}");
}
