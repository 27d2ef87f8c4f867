//! The switch side of a partial map (`lower/sketch.rs`): the main table sized to the plan's
//! switch entries, the count-min sketch's registers and their update at the lookup — for
//! v1model and TNA, each program passing its target's self-check.

use std::collections::BTreeMap;
use std::path::PathBuf;

use tandem_p4::{generate, Arch, P4Options};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};

fn program(
    nf: &str,
    map: &str,
    entries: u64,
    arch: Arch,
) -> (String, tandem_p4::manifest::Manifest) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../tandem-lift/tests/golden/{nf}.nfir"));
    let module = tandem_ir::parse_module(&std::fs::read_to_string(path).unwrap()).unwrap();
    let opts = PartitionOptions {
        partial: BTreeMap::from([(map.to_string(), Some(entries))]),
        ..PartitionOptions::default()
    };
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let plan = partition_module(&module, &profile, &opts).unwrap().plan;
    let m = plan.module().unwrap();
    let out = generate(
        &plan,
        &m,
        &P4Options {
            arch,
            ..P4Options::default()
        },
    )
    .unwrap();
    (tandem_p4_syntax::print_program(&out.program), out.manifest)
}

#[test]
fn v1model_counts_each_lookup_in_every_row() {
    let (p4, man) = program("mazunat", "int2ext", 300, Arch::V1Model);
    let st = man.states.iter().find(|s| s.name == "int2ext").unwrap();
    let part = st.partial.as_ref().expect("manifest says partial");
    assert_eq!(part.switch_entries, 300);
    assert_eq!(part.sketch_width, 4096);
    assert_eq!(
        part.sketch,
        vec!["TandemIngress.int2ext_cms0", "TandemIngress.int2ext_cms1"]
    );
    let t = man
        .tables
        .iter()
        .find(|t| t.name == "TandemIngress.int2ext")
        .unwrap();
    assert_eq!(t.size, 300);
    for r in 0..2 {
        assert!(
            p4.contains(&format!("register<bit<32> >(32w0x1000) int2ext_cms{r};")),
            "{p4}"
        );
        assert!(
            p4.contains(&format!(
                "hash(meta.int2ext_cms_i{r}, HashAlgorithm.crc32, 32w0, {{8w{r}, meta.int2ext_"
            )),
            "{p4}"
        );
        assert!(
            p4.contains(&format!(
                "int2ext_cms{r}.write(meta.int2ext_cms_i{r}, meta.int2ext_cms_c{r} + 32w1)"
            )),
            "{p4}"
        );
    }
    // The sketch is updated before the table is applied.
    let upd = p4.find("int2ext_cms0.write").unwrap();
    let apply = p4.find("int2ext.apply()").unwrap();
    assert!(upd < apply);
    // Other maps have no sketch.
    assert!(!p4.contains("ext2int_cms"));
    assert!(man.states.iter().filter(|s| s.partial.is_some()).count() == 1);
}

#[test]
fn tna_uses_a_hash_unit_per_row() {
    let (p4, man) = program("mazunat", "int2ext", 300, Arch::Tna);
    assert!(man.states.iter().any(|s| s.partial.is_some()));
    for r in 0..2 {
        assert!(
            p4.contains(&format!(
                "Hash<bit<12> >(HashAlgorithm_t.CRC32) int2ext_cms_h{r};"
            )),
            "{p4}"
        );
        assert!(
            p4.contains(&format!(
                "Register<bit<32>, bit<32> >(32w0x1000) int2ext_cms{r};"
            )),
            "{p4}"
        );
    }
}

fn generate_ir(text: &str, map: &str, arch: Arch) -> (String, tandem_p4::manifest::Manifest) {
    let module = tandem_ir::parse_module(text).unwrap();
    let opts = PartitionOptions {
        partial: BTreeMap::from([(map.to_string(), Some(64))]),
        ..PartitionOptions::default()
    };
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let plan = partition_module(&module, &profile, &opts).unwrap().plan;
    let m = plan.module().unwrap();
    let out = generate(
        &plan,
        &m,
        &P4Options {
            arch,
            ..P4Options::default()
        },
    )
    .unwrap();
    (tandem_p4_syntax::print_program(&out.program), out.manifest)
}

fn minilb_ir() -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tandem-lift/tests/golden/minilb.nfir");
    std::fs::read_to_string(path).unwrap()
}

/// A partial map's miss sends the frame to the server whole from the program itself
/// (`lower/miss.rs`), on both architectures: tag 3, the server port, `exit` — right after
/// the table is applied.
#[test]
fn a_miss_sends_the_frame_to_the_server_whole() {
    for arch in [Arch::V1Model, Arch::Tna] {
        let (p4, man) = generate_ir(&minilb_ir(), "map", arch);
        let st = man.states.iter().find(|s| s.name == "map").unwrap();
        assert!(st.partial.as_ref().unwrap().miss_to_server, "{arch:?}");
        assert_eq!(man.transfer_header.tag_whole, Some(3));
        let apply = p4.find("map.apply()").expect("table applied");
        let tag = p4
            .find("hdr.tandem.tag = 8w3")
            .expect("tag 3 set on a miss");
        assert!(
            apply < tag,
            "{arch:?}: the miss is handled after the lookup"
        );
        assert!(p4[tag..].contains("exit"), "{p4}");
    }
}

/// The negative control of the rule: when pre writes a header before the lookup, the frame
/// on the switch is no longer the one that arrived, so a miss must not send it whole; the
/// runtime probes instead (`miss_to_server: false`, no tag 3 in the program).
#[test]
fn a_miss_after_a_header_write_is_left_to_the_probe() {
    let ir = minilb_ir().replacen(
        "    v9:i1, v10:i32 = map.find map(v8)",
        "    hdr.write ipv4.saddr, v5\n    v9:i1, v10:i32 = map.find map(v8)",
        1,
    );
    let (p4, man) = generate_ir(&ir, "map", Arch::V1Model);
    let st = man.states.iter().find(|s| s.name == "map").unwrap();
    assert!(!st.partial.as_ref().unwrap().miss_to_server);
    assert_eq!(man.transfer_header.tag_whole, None);
    assert!(!p4.contains("hdr.tandem.tag = 8w3"), "{p4}");
}

/// The partial map's tables count their entries' hits: a direct counter per table, named
/// by the table's `counters` property and counted in the hit action only (`lower/hits.rs`),
/// listed in the manifest; a map that is not partial gets none.
#[test]
fn partial_tables_count_their_entries_hits() {
    for (arch, decl) in [
        (
            Arch::V1Model,
            "direct_counter(CounterType.packets) int2ext_hits;",
        ),
        (
            Arch::Tna,
            "DirectCounter<bit<32> >(CounterType_t.PACKETS) int2ext_hits;",
        ),
    ] {
        let (p4, man) = program("mazunat", "int2ext", 300, arch);
        assert!(p4.contains(decl), "{arch:?}: {p4}");
        assert!(p4.contains("counters = int2ext_hits;"), "{p4}");
        assert!(p4.contains("counters = int2ext_wb_hits;"), "{p4}");
        // count() in the hit actions, not in the miss or deleted-marker actions.
        assert_eq!(p4.matches("int2ext_hits.count();").count(), 1, "{p4}");
        assert!(
            !p4.contains("ext2int_hits"),
            "only the partial map counts: {p4}"
        );
        let p = man.states.iter().find_map(|s| s.partial.as_ref()).unwrap();
        let tables: Vec<&str> = p.hit_counters.iter().map(|h| h.table.as_str()).collect();
        assert_eq!(
            tables,
            ["TandemIngress.int2ext", "TandemIngress.int2ext_wb"],
            "{arch:?}"
        );
    }
}
