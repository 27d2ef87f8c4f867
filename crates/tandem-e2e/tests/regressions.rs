//! End-to-end regression tests for bugs found on NFs written outside this project (issue 14):
//! small NFs in `tests/nfs/`, lifted, partitioned and run as the offloaded pair against their
//! native build by `check` (byte-exact outputs and final state).

mod common;

use common::*;

/// A 6-byte store to `eth->src` keeps the EtherType (the lifter wrote `eth.ethertype` too).
#[test]
fn six_byte_header_store() {
    let r = check_file(
        // The lifter's regression NF (one copy for both crates' tests).
        &repo().join("crates/tandem-lift/tests/nfs/set_src_mac.cc"),
        Addr::Plain,
        "enterprise",
        "tofino1",
        1000,
    );
    assert_passed("set_src_mac", &r);
}

/// A 1-byte payload read and a 4-byte one in the same NF: each gets its own width on the
/// server (the width was recorded per opaque name, first one winning).
#[test]
fn payload_reads_of_two_widths() {
    let r = check_file(
        &test_nf("payload_widths"),
        Addr::Plain,
        "enterprise",
        "tofino1",
        1000,
    );
    assert_passed("payload_widths", &r);
}

/// now() written into header fields: the offloaded pair gives the packet's timestamp in ns,
/// as the reference host does (the switch program read BMv2's microsecond
/// `ingress_global_timestamp`, which the software switch never set).
#[test]
fn now_is_the_packet_timestamp_in_ns() {
    for profile in ["tofino1", "bmv2"] {
        let r = check_file(
            &test_nf("now_stamp"),
            Addr::Plain,
            "enterprise",
            profile,
            1000,
        );
        assert_passed(&format!("now_stamp/{profile}"), &r);
    }
}

/// The partitioner's cliff: a SYN guard whose cut needs more than the transfer-header budget
/// (tofino1's, cut to 8 bytes: since its packed counter's shifts and ors run on the switch,
/// its cut fits tofino1's 20). The refinement used to move the `out_port` load that every
/// `send` needs to the server, so every packet visited it (1.8% fast path); now it shrinks
/// the cut on paths that visit the server anyway. What the NF itself sends to the server —
/// each new source's SYN, each connection's first ACK and its FIN/RST — is the rest.
#[test]
fn header_budget_keeps_the_common_path_on_the_switch() {
    const BUDGET: u32 = 8;
    let src = test_nf("syn_guard");
    let mut profile = tandem_partition::TargetProfile::builtin("tofino1").unwrap();
    profile.transfer_header_bytes = Some(BUDGET);
    let r = check_file_on(&src, Addr::Plain, "enterprise", &profile, 6000);
    assert_passed("syn_guard", &r);
    let share = r.offloaded.fast_path_share();
    assert!(share > 0.7, "fast path {:.1}%", share * 100.0);
    // The report says what the budget cost.
    let module = lift_file(&src);
    let info = tandem_analysis::compute_deps(&module);
    let plan = tandem_partition::partition(&module, &info, &profile).unwrap();
    let cost = tandem_partition::budget_cost(&module, &info, &profile, &plan)
        .expect("the header budget moved statements");
    assert!(
        cost.header_needed > u64::from(BUDGET) && cost.moved > 0,
        "{cost:?}"
    );
    assert!(cost.share < 0.5, "{cost:?}");
    let text = tandem_partition::report_for(&module, &info, &profile, &plan);
    assert!(
        text.lines().nth(1).unwrap().starts_with("budget: "),
        "{text}"
    );
}

/// Issue 15: per-key counters written the obvious way (`counts[key] += 1`, indexed by the
/// ingress port and by a CRC-32 of the five-tuple) run on the switch — one register
/// read-modify-write per vector, the CRC on the switch's hash unit — and the switch-owned
/// registers read back equal the reference's state. Without the get+set fusion (or with a
/// 64-bit bounds check) every packet visits the server.
#[test]
fn vector_counters_and_crc_run_on_the_switch() {
    let src = repo().join("examples/nfs/pktcount/pktcount.cc");
    for profile in ["tofino1", "bmv2"] {
        let r = check_file(&src, Addr::Plain, "enterprise", profile, 3000);
        assert_passed(&format!("pktcount/{profile}"), &r);
        let share = r.offloaded.fast_path_share();
        assert!(share > 0.99, "{profile}: fast path {:.1}%", share * 100.0);
    }
}

/// The `cmsketch` example with `tests/nfs/sketch_mark.toml` (threshold 4, so marking happens):
/// the example's source beside that configuration in a scratch directory (`check_file` reads
/// `<src>.toml`), one copy of the NF for the example and the tests.
fn sketch_mark(test: &str) -> std::path::PathBuf {
    // One directory per test: tests run in parallel.
    let dir = cache().join("sketch_mark").join(test);
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("sketch_mark.cc");
    std::fs::copy(repo().join("examples/nfs/cmsketch/cmsketch.cc"), &src).unwrap();
    std::fs::copy(
        test_nf("sketch_mark").with_extension("toml"),
        src.with_extension("toml"),
    )
    .unwrap();
    src
}

/// Issue 15: a count-min sketch (three CRC-indexed rows, read-modify-write increments, the
/// minimum against a threshold; heavy flows' packets get a new TOS and checksum) on the
/// switch, with a threshold low enough that marking happens.
#[test]
fn count_min_sketch_runs_on_the_switch() {
    let src = sketch_mark("on_the_switch");
    for profile in ["tofino1", "bmv2"] {
        let r = check_file(&src, Addr::Plain, "datamining", profile, 3000);
        assert_passed(&format!("sketch_mark/{profile}"), &r);
        let share = r.offloaded.fast_path_share();
        assert!(share > 0.99, "{profile}: fast path {:.1}%", share * 100.0);
    }
}

/// The same sketch on a profile without hash units: the CRCs (and so the sketch) run on the
/// server, where `server.cc` computes them (`tandem_hash` in `tandem/server.h`) — the server
/// partition's lowering of `hash` against the native NF.
#[test]
fn count_min_sketch_hashes_on_the_server() {
    let mut profile = tandem_partition::TargetProfile::builtin("tofino1").unwrap();
    profile.ops.remove("hash");
    let r = check_file_on(
        &sketch_mark("on_the_server"),
        Addr::Plain,
        "datamining",
        &profile,
        2000,
    );
    assert_passed("sketch_mark/no hash units", &r);
    assert!(r.offloaded.fast_path_share() < 0.01);
}

/// Issue 18: derived state classes on an NF that is not connection tracking (a door lock per
/// client address, `nfs/door_lock.cc`): the partitioner keeps the lock's class on the switch
/// (`locks__class`), "use" packets are decided there, control packets run the original code
/// on the server, which publishes the new class; outputs and final state equal the native
/// NF's on tofino1 and tofino2.
#[test]
fn derived_state_classes_keep_a_door_locks_uses_on_the_switch() {
    let src = test_nf("door_lock");
    let module = lift_file(&src);
    for profile in ["tofino1", "tofino2"] {
        let p = tandem_partition::TargetProfile::builtin(profile).unwrap();
        let out = tandem_partition::partition_module(&module, &p, &Default::default()).unwrap();
        let classes = &out.plan.state_classes;
        assert_eq!(classes.len(), 1, "{profile}: {classes:?}");
        assert_eq!(classes[0].class_map, "locks__class");
        let r = check_file(&src, Addr::Plain, "enterprise", profile, 6000);
        assert_passed("door_lock", &r);
        let share = r.offloaded.fast_path_share();
        assert!(share > 0.5, "{profile}: fast path {:.1}%", share * 100.0);
    }
}

/// A router written from the docs: its own MAC is a `uint8_t my_mac[6]` member read byte by
/// byte (the lifter used to refuse it, L010 "accessed at an inner offset"; now one 48-bit
/// scalar whose bytes are extracted), and `*hop >= hops.size()` compares a 32-bit id with the
/// 64-bit size (done in 32 bits). The six byte reads are one load (`tandem_lift::loads`). On
/// bmv2 everything runs on the switch; on tofino1 too: the 48-bit MAC is never written by
/// process(), so its register is a read-only pair of halves (`ops::read_only_pair`; before,
/// forwarded packets fetched it from the server: 46%), and the 64-bit drop counters are
/// increment-only (`tandem-partition/src/counters.rs`).
#[test]
fn byte_array_member_is_one_scalar() {
    let src = test_nf("router_mac");
    let module = lift_file(&src);
    let text = tandem_ir::print_module(&module);
    assert!(text.contains("state my_mac: scalar<i48>"), "{text}");
    assert_eq!(
        text.matches("scalar.load my_mac").count(),
        1,
        "one load of the MAC per block: {text}"
    );
    for (i, data) in module.process.insts.iter() {
        if let tandem_ir::InstKind::Icmp { args, .. } = &data.kind {
            let bits = module.process.values[args[0]].ty.bits();
            assert!(bits <= 32, "{i:?}: a {bits}-bit comparison");
        }
    }
    let r = check_file(&src, Addr::Plain, "enterprise", "bmv2", 3000);
    assert_passed("router_mac/bmv2", &r);
    assert!(
        r.offloaded.fast_path_share() > 0.99,
        "fast path {:.1}%",
        r.offloaded.fast_path_share() * 100.0
    );
    let r = check_file(&src, Addr::Plain, "enterprise", "tofino1", 3000);
    assert_passed("router_mac/tofino1", &r);
    assert!(
        r.offloaded.fast_path_share() > 0.99,
        "the read-only MAC and the counters stay on the switch: fast path {:.1}%",
        r.offloaded.fast_path_share() * 100.0
    );
}

/// Negative control: the MAC's bytes taken one byte off (every shift that extracts a byte of
/// `my_mac` moved by 8 bits) must be caught.
#[test]
fn byte_array_member_bytes_misplaced_are_caught() {
    use tandem_ir::{BinOp, InstKind, ValueDef};
    let src = test_nf("router_mac");
    let mut module = lift_file(&src);
    let my_mac = module.state_by_name("my_mac").unwrap();
    let f = &module.process;
    let is_mac_load = |v: tandem_ir::Value| match f.values[v].def {
        ValueDef::Result(i, _) => {
            matches!(f.insts[i].kind, InstKind::ScalarLoad { state } if state == my_mac)
        }
        _ => false,
    };
    let consts: Vec<tandem_ir::Inst> = f
        .insts
        .iter()
        .filter_map(|(_, d)| match &d.kind {
            InstKind::Binary {
                op: BinOp::Lshr,
                args: [x, c],
            } if is_mac_load(*x) => match f.values[*c].def {
                ValueDef::Result(ci, _) => Some(ci),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert!(consts.len() >= 3, "{} byte extractions", consts.len());
    for ci in consts {
        if let InstKind::Const { imm } = &mut module.process.insts[ci].kind {
            *imm = (*imm + 8) % 48;
        }
    }
    let b = compile_bundle(
        &module,
        &tandem_partition::TargetProfile::builtin("bmv2").unwrap(),
        &tandem_partition::PartitionOptions::default(),
        &P4Options::default(),
        None,
    )
    .unwrap();
    let mut pkts = trace(Addr::Plain, "enterprise", 100, 7).take(2000);
    let r = check_native(&b, native_file(&src), &mut pkts, None);
    assert!(!r.passed(), "a misplaced MAC byte must not pass");
}

/// `tandem check` of `src` on enterprise traffic for each profile: PASS, and every packet on
/// the switch.
fn assert_all_on_the_switch(src: &std::path::Path, profiles: &[&str], packets: usize) {
    let name = src.file_stem().unwrap().to_string_lossy().into_owned();
    for profile in profiles {
        let r = check_file(src, Addr::Plain, "enterprise", profile, packets);
        assert_passed(&name, &r);
        assert!(
            r.offloaded.fast_path_share() == 1.0,
            "{name} on {profile}: fast path {:.1}%",
            r.offloaded.fast_path_share() * 100.0
        );
    }
}

/// An ACL in front of a 1:1 NAT with 64-bit per-rule hit counters (`Vector<uint64_t, 256>`,
/// `rule_hits[r.rule_id] += 1` under the NF API's bounds check): the counters are
/// increment-only, so on tofino1 they stay on the switch with the ACL and the rewrite
/// (53.7% fast path before `counters.rs` handled the bounds-checked vector shape). Its
/// `translated++` sits in both arms of the in-port test: one access per path, so both stay
/// too (99.7% before C3 counted only accesses one packet can run together, 100% now).
#[test]
fn per_rule_64_bit_counters_stay_on_the_switch() {
    assert_all_on_the_switch(&test_nf("acl_nat"), &["tofino1"], 3000);
}

/// `counts[3] += 1` on a `Vector`: the lifter reads at `select ok, 3, 0` and writes at another
/// constant 3 under the bounds check — one register read-modify-write, not "a vector write
/// that is not a read-modify-write" (which kept every packet of this classifier on the
/// server: 0% fast path on tofino1 and bmv2). The negative control for the matching is
/// `tandem-partition --test rules constant_index_counter_is_one_access_on_the_switch`.
#[test]
fn constant_index_vector_counters_stay_on_the_switch() {
    assert_all_on_the_switch(&test_nf("port_classes"), &["tofino1", "bmv2"], 3000);
}

/// A port-scan detector written from the docs (`tests/nfs/scan_bloom.cc`): a two-hash Bloom
/// filter's test-and-set (`seen = bloom[h]; ...; bloom[h] = 1`) stores a constant at an index
/// the front end recomputes in the write's block. Each is one register access (read the old
/// element, write 1); before, the write was "a vector write that is not a read-modify-write"
/// and every SYN went to the server (96.5% fast path on every profile). tofino1 keeps the
/// per-source counter on the server for its 12 stages. The negative controls for the
/// matching are in `tandem-partition --test rules bloom_test_and_set_is_one_access_on_the_switch`.
#[test]
fn bloom_filter_test_and_set_stays_on_the_switch() {
    assert_all_on_the_switch(&test_nf("scan_bloom"), &["tofino2", "bmv2"], 3000);
}

/// An ECMP router written from the docs (`tandem-lift/tests/nfs/ecmp_group.cc`): the next hop
/// at `h & (hops.size() - 1)`, its 64-bit MAC written byte by byte, 64-bit per-hop counters.
/// clang's 64-bit index arithmetic kept every packet on the server on tofino1 (0% fast path);
/// the front end now computes the masked index in 32 bits (negative control in `tandem-lift
/// --test regressions mask_by_a_narrow_value_makes_a_32_bit_index`).
#[test]
fn ecmp_group_index_stays_on_a_32_bit_switch() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tandem-lift/tests/nfs/ecmp_group.cc");
    assert_all_on_the_switch(&src, &["tofino1"], 3000);
}

/// A struct of integers without padding as a state member (`Backend primary;`, 8 bytes): one
/// scalar, read field by field on the switch, dumped as its bytes by both builds (was a compile
/// error in the native build: no `dump` for a struct). The negative control for the padding
/// rule is `tandem-host --test errors a_struct_member_with_padding_is_a_clear_compile_error`.
#[test]
fn a_struct_member_is_scalar_state() {
    assert_all_on_the_switch(&test_nf("struct_member"), &["tofino1", "bmv2"], 2000);
}

/// Bits of a MAC assembled into a `uint64_t` and tested with `(src >> k) & m`
/// (`tandem-lift/tests/nfs/mac_bits.cc`): the 64-bit comparison with 0 kept every packet on
/// the server on tofino1 (0%); the front end compares values that fit 32 bits in 32 bits
/// (negative control in `tandem-lift --test regressions
/// a_comparison_of_values_that_fit_32_bits_is_32_bit`).
#[test]
fn mac_bit_tests_stay_on_a_32_bit_switch() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tandem-lift/tests/nfs/mac_bits.cc");
    assert_all_on_the_switch(&src, &["tofino1"], 3000);
}

/// A `switch` from the IP precedence to a DSCP (`tandem-lift/tests/nfs/dscp_switch.cc`): as
/// clang's 56-bit lookup-table constant it ran 0% on tofino1; kept a `switch` by the analysis
/// build, 100%.
#[test]
fn a_switch_statement_stays_on_a_32_bit_switch() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tandem-lift/tests/nfs/dscp_switch.cc");
    assert_all_on_the_switch(&src, &["tofino1"], 3000);
}

/// Constant lookup tables indexed by packet fields (`tandem-lift/tests/nfs/const_tables.cc`):
/// as clang's 64-bit byte offsets compared with every byte position they ran on the server on
/// tofino1; keyed by the index in its own width (`translate/const_table.rs`), 100%.
#[test]
fn constant_table_lookups_stay_on_a_32_bit_switch() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tandem-lift/tests/nfs/const_tables.cc");
    assert_all_on_the_switch(&src, &["tofino1", "bmv2"], 3000);
}

/// A TCP scan filter counting flag bits (`tandem-lift/tests/nfs/scan_flags.cc`): its 64-bit
/// SWAR population count with a multiplication ran on the server (1.8% fast path on
/// tofino1); as sums of the few possible bits, 100%.
#[test]
fn population_counts_of_flags_stay_on_a_32_bit_switch() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tandem-lift/tests/nfs/scan_flags.cc");
    assert_all_on_the_switch(&src, &["tofino1"], 3000);
}

/// Tables indexed by `crc32(...) % N`, N not a power of two (`tandem-lift/tests/nfs/maglev_mod.cc`:
/// a 4,099-slot Maglev table, a 1,000-wide sketch): P4 has no run-time `%`, and the NF ran 0%
/// on bmv2; v1model's hash extern reduces modulo any constant (`tandem_ir::hash_mod`, the
/// profile's `hash_mod`), 100% on bmv2, byte-exact. tofino1 (TNA's `Hash` has no modulus)
/// keeps the remainder on the server: `tandem-partition --test rules
/// a_hash_reduced_by_a_constant_runs_in_the_hash_extern`.
#[test]
fn hash_remainders_by_any_constant_stay_on_a_v1model_switch() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tandem-lift/tests/nfs/maglev_mod.cc");
    assert_all_on_the_switch(&src, &["bmv2"], 3000);
}

/// `memcmp`/`memcpy` on MACs (`tandem-lift/tests/nfs/mac_filter.cc`): `memcmp(...) == 0`
/// became an opaque `bcmp` the server could not run ("no handler for opaque call bcmp"); lifted
/// to loads and comparisons, and a 48-bit equality decided piece by piece, the whole NF runs
/// on tofino1 (negative control for the width rule: `tandem-partition --test rules
/// wide_equality_runs_on_the_switch_and_wide_order_does_not`).
#[test]
fn memcmp_on_macs_stays_on_a_32_bit_switch() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tandem-lift/tests/nfs/mac_filter.cc");
    assert_all_on_the_switch(&src, &["tofino1", "bmv2"], 3000);
}
