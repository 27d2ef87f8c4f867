//! Regression tests for front-end bugs found on NFs written outside this project (issue 14):
//! small NFs in `tests/nfs/`, each lifted and run against its native build (the differential
//! check of `common::differential`), or lifted and inspected.

mod common;

use common::{differential, lift_file, test_nf};
use tandem_traffic::Plan;

/// A 6-byte store (`store i48` to `eth->src`) writes exactly `eth.src`: the EtherType is kept.
#[test]
fn six_byte_store_writes_only_its_field() {
    let lifted = lift_file(&test_nf("set_src_mac"));
    let text = tandem_ir::print_module(&lifted.module);
    assert!(text.contains("hdr.write eth.src"), "{text}");
    assert!(!text.contains("hdr.write eth.ethertype"), "{text}");
    differential(&test_nf("set_src_mac"), Plan::Plain, "enterprise", 2_000);
}

fn errors_of(src: &std::path::Path) -> Vec<tandem_lift::Diagnostic> {
    let ll = common::analysis_ll(src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    match tandem_lift::lift(&ll) {
        Ok(_) => panic!("{} lifted without an error", src.display()),
        Err(e) => e.diagnostics,
    }
}

/// A `std::vector` member is one coded diagnostic at the user's line (not an LLVM crash on
/// `noinline` + `alwaysinline`, not a cascade of errors in library headers), naming the member,
/// its type and the library call, demangled.
#[test]
fn std_vector_member_is_one_coded_error_at_the_users_line() {
    let src = test_nf("std_vector_member");
    let diags = errors_of(&src);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let d = &diags[0];
    assert_eq!(d.code, tandem_lift::Code::DynamicMemory, "{d}");
    let loc = d.loc.as_ref().unwrap();
    assert!(
        loc.file.ends_with("std_vector_member.cc") && loc.line == 14,
        "{d}"
    );
    let text = d.to_string();
    assert!(
        text.contains("member `seen` is a `std::vector<unsigned int"),
        "{text}"
    );
    assert!(text.contains("::push_back(unsigned int const&)`"), "{text}");
}

/// A helper marked noinline is an L004 that says so, not an LLVM crash.
#[test]
fn noinline_helper_is_a_diagnostic() {
    let src = test_nf("noinline_helper");
    let diags = errors_of(&src);
    let d = diags
        .iter()
        .find(|d| d.code == tandem_lift::Code::Recursion)
        .unwrap_or_else(|| panic!("{diags:#?}"));
    assert!(
        d.message.contains("`mix(unsigned int)` is marked noinline"),
        "{d}"
    );
    assert!(
        d.loc.as_ref().unwrap().file.ends_with("noinline_helper.cc"),
        "{d}"
    );
}

/// Loops with a constant trip count are unrolled: a MAC handled byte by byte, and the 3 rows
/// of a sketch updated in a `for (r = 0; r < 3; r++)` (were L009, "indexed by a run-time
/// value").
#[test]
fn constant_trip_count_loops_are_unrolled() {
    differential(&test_nf("mac_copy_loop"), Plan::Plain, "enterprise", 2_000);
    differential(&test_nf("sketch_rows"), Plan::Plain, "enterprise", 4_000);
}

/// A loop bounded by a constant whose body is over the unroller's size budget stays a loop
/// (L102, on the server); `#pragma unroll` before it unrolls it in full (no L102), and the
/// unrolled NF matches its native build. Negative control: the same NF without the pragma.
#[test]
fn pragma_unroll_unrolls_a_large_constant_bounded_loop() {
    let src = test_nf("prefix_scan");
    let loops = |l: &tandem_lift::Lifted| {
        l.warnings
            .iter()
            .filter(|w| w.code == tandem_lift::Code::LoopNotUnrolled)
            .count()
    };
    let lifted = lift_file(&src);
    assert_eq!(loops(&lifted), 0, "{:#?}", lifted.warnings);
    differential(&src, Plan::Plain, "enterprise", 2_000);

    let text = std::fs::read_to_string(&src).unwrap();
    assert!(text.contains("#pragma unroll\n"));
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("prefix_scan_loop.cc");
    std::fs::write(&plain, text.replace("#pragma unroll\n", "")).unwrap();
    assert_eq!(
        loops(&lift_file(&plain)),
        1,
        "the loop was unrolled without the pragma"
    );
}

/// `uint32_t i = h & (hops.size() - 1)` (an ECMP group): clang computes the index in 64 bits,
/// `and (and (zext h), 0xffffffff), (add (zext size), 0xffffffff)`. A mask by a value below
/// 2^32 bounds the result, so the index and its bounds check are 32-bit (was 64-bit: every
/// packet of the NF on the server on tofino1, "64-bit arithmetic"). The lifted NF matches its
/// native build. Negative control: an index shifted left by 32 first is not below 2^32 and
/// stays 64-bit.
#[test]
fn mask_by_a_narrow_value_makes_a_32_bit_index() {
    let index_types = |l: &tandem_lift::Lifted| -> Vec<String> {
        let text = tandem_ir::print_module(&l.module);
        let defs: std::collections::HashMap<String, String> = text
            .lines()
            .filter_map(|line| {
                let (lhs, _) = line.trim().split_once(" = ")?;
                let (v, ty) = lhs.split_once(':')?;
                Some((v.to_string(), ty.to_string()))
            })
            .collect();
        text.lines()
            .filter_map(|line| {
                let rest = line.split_once("vec.get hops[")?.1;
                let v = rest.split(']').next()?;
                Some(defs.get(v).cloned().unwrap_or_default())
            })
            .collect()
    };
    let src = test_nf("ecmp_group");
    assert_eq!(index_types(&lift_file(&src)), ["i32"]);
    differential(&src, Plan::Plain, "enterprise", 3_000);

    let text = std::fs::read_to_string(&src).unwrap();
    let from = "uint32_t i = h & (hops.size() - 1);";
    assert!(text.contains(from));
    let dir = tempfile::tempdir().unwrap();
    let wide = dir.path().join("ecmp_wide.cc");
    let to = "size_t i = ((uint64_t(h) << 32) | h) & (hops.size() - 1);";
    std::fs::write(&wide, text.replace(from, to)).unwrap();
    assert_eq!(index_types(&lift_file(&wide)), ["i64"]);
}

/// Comparisons (`icmp`) with a 64-bit operand in a printed module.
fn i64_compares(text: &str) -> usize {
    let wide: std::collections::HashSet<&str> = text
        .lines()
        .filter_map(|l| l.trim().split_once(":i64 = ").map(|(v, _)| v))
        .collect();
    text.lines()
        .filter_map(|l| l.split_once("= icmp ").map(|(_, r)| r))
        .filter(|r| r.split([' ', ',']).any(|w| wide.contains(w)))
        .count()
}

/// `(src >> 40) & 2` tested against 0 on a MAC assembled into a `uint64_t`: clang compares
/// `and (v, 2)` with 0 in 64 bits, "64-bit arithmetic" on tofino1, so the whole NF ran on the
/// server (0% fast path). Both sides fit 32 bits, so the comparison is done on their low 32
/// bits; the lifted NF matches its native build. Negative control: a mask wider than 32 bits
/// keeps the 64-bit comparison.
#[test]
fn a_comparison_of_values_that_fit_32_bits_is_32_bit() {
    let src = test_nf("mac_bits");
    let text = tandem_ir::print_module(&lift_file(&src).module);
    assert_eq!(i64_compares(&text), 0, "{text}");
    differential(&src, Plan::Plain, "enterprise", 3_000);

    let source = std::fs::read_to_string(&src).unwrap();
    let from = "bool odd = (src >> 8) & 1;";
    assert!(source.contains(from));
    let dir = tempfile::tempdir().unwrap();
    let wide = dir.path().join("mac_bits_wide.cc");
    let to = "bool odd = (src >> 8) & 0x100000001ull;";
    std::fs::write(&wide, source.replace(from, to)).unwrap();
    let text = tandem_ir::print_module(&lift_file(&wide).module);
    assert_eq!(i64_compares(&text), 1, "{text}");
}

/// A `switch` mapping the IP precedence to a DSCP constant stays a `switch` (the analysis
/// build's `-fno-jump-tables`): clang's lookup-table form — a 56-bit constant shifted right by
/// 8 × the precedence — kept every packet on the server on tofino1 (0% fast path, "56-bit
/// arithmetic"). No value wider than 32 bits is left, and the lifted NF matches its native
/// build.
#[test]
fn a_switch_mapping_values_to_constants_stays_a_switch() {
    let src = test_nf("dscp_switch");
    let text = tandem_ir::print_module(&lift_file(&src).module);
    let process = &text[text.find("fn process").unwrap()..];
    assert!(process.contains("    switch "), "{process}");
    for wide in [":i40 ", ":i48 ", ":i56 ", ":i64 "] {
        assert!(!process.contains(wide), "{wide} in {process}");
    }
    differential(&src, Plan::Plain, "enterprise", 3_000);
}

/// A constant array indexed by a packet field (`kRemap[ip->tos >> 5]`) is a choice among its
/// elements keyed by the index in its own width (`translate/const_table.rs`): clang's
/// `0 + zext(i) * size` byte offset compared with every byte position was 64-bit arithmetic,
/// and sent the lookup to the server on tofino1. No value wider than 32 bits is left, only
/// elements that differ from the most common one are compared for, and the lifted NF matches
/// its native build.
#[test]
fn a_constant_table_lookup_is_keyed_by_its_index() {
    let src = test_nf("const_tables");
    let text = tandem_ir::print_module(&lift_file(&src).module);
    let process = &text[text.find("fn process").unwrap()..];
    for wide in [":i40 ", ":i48 ", ":i56 ", ":i64 "] {
        assert!(!process.contains(wide), "{wide} in {process}");
    }
    // kRemap: 4 exceptions to 0; kTtlClass: 14 exceptions to 1, twice; kOffset: 3 to 0.
    let selects = process.matches(" = select ").count();
    assert!(
        selects <= 4 + 2 * 14 + 3 + 4,
        "{selects} selects in {process}"
    );
    differential(&src, Plan::Plain, "enterprise", 3_000);
}

/// A population count of a value with few possible bits (`__builtin_popcount(flags & (FIN |
/// PSH | URG)) == 3`, the count of an 8-bit field) is the sum of those bits in 32 bits
/// (`translate/popcount.rs`): the 64-bit SWAR count with its multiplication kept an Xmas-scan
/// filter on the server on tofino1 (1.8% fast path). No multiplication and no value wider
/// than 32 bits is left, and the lifted NF matches its native build (the 32- and 64-bit SWAR
/// counts are `bit_intrinsics_match_native`'s).
#[test]
fn a_population_count_of_few_bits_is_their_sum() {
    let src = test_nf("scan_flags");
    let text = tandem_ir::print_module(&lift_file(&src).module);
    let process = &text[text.find("fn process").unwrap()..];
    assert!(!process.contains(" = mul "), "{process}");
    for wide in [":i40 ", ":i48 ", ":i56 ", ":i64 "] {
        assert!(!process.contains(wide), "{wide} in {process}");
    }
    differential(&src, Plan::Plain, "enterprise", 3_000);
}

/// `memcmp`/`bcmp` with a constant length are loads and comparisons, not opaque calls (a MAC
/// compared with `memcmp(eth->dst, my_mac, 6) == 0`, which clang turns into `bcmp`, failed at
/// run time: "no handler for opaque call bcmp"). `memcmp`'s order is the first differing
/// byte's: requests and replies of the enterprise trace leave by different ports, and the
/// lifted NF matches its native build on both.
#[test]
fn memcmp_with_a_constant_length_is_lifted() {
    let src = test_nf("mac_filter");
    let lifted = lift_file(&src);
    let text = tandem_ir::print_module(&lifted.module);
    assert!(!text.contains("opaque"), "{text}");
    assert!(
        !lifted
            .warnings
            .iter()
            .any(|w| w.code == tandem_lift::Code::OpaqueCall),
        "{:#?}",
        lifted.warnings
    );
    differential(&src, Plan::Plain, "enterprise", 3_000);
}

/// LLVM intrinsics from ordinary C++ (saturating add/sub, ctpop, ctlz/cttz, min/max, abs,
/// rotates by run-time amounts) lift to IR arithmetic with the native results (were L002,
/// after a spurious L005).
#[test]
fn bit_intrinsics_match_native() {
    let lifted = lift_file(&test_nf("bit_tricks"));
    let text = tandem_ir::print_module(&lifted.module);
    assert!(!text.contains("opaque"), "{text}");
    differential(&test_nf("bit_tricks"), Plan::Plain, "enterprise", 6_000);
}

/// on_timer is lifted as the module's timer function (interval from `kTimerInterval`): state
/// only the timer touches is declared, loops over vectors stay loops, maps and expiring maps
/// are written and aged at tick time, and the lifted timer matches the native one at every
/// tick (1 ms ticks: 10 in 10,000 enterprise packets).
#[test]
fn on_timer_is_lifted_and_matches_native() {
    let lifted = lift_file(&test_nf("timer_ops"));
    let m = &lifted.module;
    assert_eq!(m.timer_interval_ns(), 1_000_000);
    assert_eq!(m.server_functions, ["configure"]);
    let text = tandem_ir::print_module(m);
    assert!(text.contains("fn on_timer every 1000000 {"), "{text}");
    assert!(m.state_by_name("last_tick").is_some(), "{text}");
    let (_, writes) = m.timer_state_effects();
    let written: Vec<&str> = writes.iter().map(|s| m.states[*s].name.as_str()).collect();
    for s in [
        "per_port",
        "flows",
        "recent",
        "epoch",
        "last_tick",
        "ticks_seen",
    ] {
        assert!(
            written.contains(&s),
            "{s} not written by on_timer: {written:?}"
        );
    }
    differential(&test_nf("timer_ops"), Plan::Plain, "enterprise", 10_000);
}

/// A `uint32_t` index merged at a join (clang widens the join to i64): the block parameter
/// and the arithmetic feeding it are 32-bit, and the lifted NF matches the native one.
#[test]
fn index_merged_at_a_join_stays_32_bit() {
    let lifted = lift_file(&test_nf("index_join"));
    let text = tandem_ir::print_module(&lifted.module);
    let m = &lifted.module;
    let f = &m.process;
    for (_, d) in f.insts.iter() {
        let index = match d.kind {
            tandem_ir::InstKind::MeterExecute { index, .. }
            | tandem_ir::InstKind::VecGet { index, .. }
            | tandem_ir::InstKind::VecSet { index, .. } => index,
            _ => continue,
        };
        assert_eq!(f.value_type(index), Some(tandem_ir::Type::I32), "{text}");
    }
    assert!(!text.contains(":i64 = add"), "{text}");
    differential(&test_nf("index_join"), Plan::Plain, "enterprise", 2_000);
}
