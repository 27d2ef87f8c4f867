//! The target constraints (docs/targets.md): one test per rule. Each takes a generated
//! program (the MiniLB goldens, which pass every rule), breaks it in one place the way a
//! generator bug would, and requires the self-check to name the rule and the line.

use std::path::PathBuf;

use tandem_p4::constraints::{check_constraints, Rule};
use tandem_p4::{self_check, Arch, P4Error};

fn golden(arch: Arch) -> String {
    golden_of("minilb", arch)
}

fn golden_of(nf: &str, arch: Arch) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{nf}.{}.p4", arch.name()));
    std::fs::read_to_string(path).unwrap()
}

/// Replaces the first `from` in the golden of `arch` by `to`, and requires `rule` at the first
/// line of `to` that the golden does not have, from both the constraint list and the
/// self-check.
fn violates(arch: Arch, from: &str, to: &str, rule: Rule) {
    violates_in("minilb", arch, from, to, rule);
}

/// [`violates`] in the golden of another NF.
fn violates_in(nf: &str, arch: Arch, from: &str, to: &str, rule: Rule) {
    let text = golden_of(nf, arch);
    let new = to
        .lines()
        .find(|l| !text.lines().any(|t| t == *l))
        .unwrap_or(to)
        .to_string();
    violates_text(&text, arch, from, to, rule, &new);
}

/// [`violates`], with the rule expected at the first line containing `at` (rules about a
/// whole declaration point at its first line).
fn violates_at(arch: Arch, from: &str, to: &str, rule: Rule, at: &str) {
    violates_text(&golden(arch), arch, from, to, rule, at);
}

fn violates_text(text: &str, arch: Arch, from: &str, to: &str, rule: Rule, at: &str) {
    assert!(text.contains(from), "`{from}` not in the golden");
    let broken = text.replacen(from, to, 1);
    let line = broken
        .lines()
        .position(|l| l.contains(at.trim()))
        .map(|i| i as u32 + 1)
        .unwrap();
    let program = tandem_p4_syntax::parse_program(&broken).unwrap();
    let found = check_constraints(&program, arch);
    assert!(
        found.iter().any(|v| v.rule == rule && v.span.line == line),
        "{rule} at line {line} expected, found {found:#?}"
    );
    match self_check(&broken, arch) {
        Err(P4Error::SelfCheck {
            detail, line: l, ..
        }) => {
            assert!(l > 0, "{detail}");
        }
        other => panic!("self-check passed a program breaking {rule}: {other:?}"),
    }
}

#[test]
fn goldens_pass_every_rule() {
    for nf in ["minilb", "ratelimit"] {
        for arch in [Arch::V1Model, Arch::Tna] {
            let text = golden_of(nf, arch);
            let program = tandem_p4_syntax::parse_program(&text).unwrap();
            assert_eq!(
                check_constraints(&program, arch),
                vec![],
                "{nf} {}",
                arch.name()
            );
            self_check(&text, arch).unwrap();
        }
    }
}

#[test]
fn bmv2_shift_amount() {
    violates(
        Arch::V1Model,
        "meta.tmp32_4 = (meta.tmp32_4 & 32w0xffff) + (meta.tmp32_4 >> 8w16);",
        "meta.tmp32_4 = (meta.tmp32_4 & 32w0xffff) + (meta.tmp32_4 >> 32w16);",
        Rule::Bmv2ShiftAmount,
    );
    violates(
        Arch::V1Model,
        "meta.tmp32_4 = (meta.tmp32_4 & 32w0xffff) + (meta.tmp32_4 >> 8w16);",
        "meta.tmp32_4 = (meta.tmp32_4 & 32w0xffff) + (meta.tmp32_4 >> meta.tmp32_2);",
        Rule::Bmv2ShiftAmount,
    );
    // An untyped literal is allowed up to 256.
    let text = golden(Arch::V1Model).replacen(">> 8w16", ">> 16", 1);
    let program = tandem_p4_syntax::parse_program(&text).unwrap();
    assert_eq!(check_constraints(&program, Arch::V1Model), vec![]);
}

#[test]
fn shift_amount_unsigned() {
    violates(
        Arch::Tna,
        "(meta.tmp32_4 >> 8w16)",
        "(meta.tmp32_4 >> 8s16)",
        Rule::ShiftAmountUnsigned,
    );
}

#[test]
fn header_bytes() {
    violates_at(
        Arch::Tna,
        "    bit<7> pad;",
        "    bit<6> pad;",
        Rule::HeaderBytes,
        "header tandem_t {",
    );
}

#[test]
fn value_width() {
    violates_at(
        Arch::V1Model,
        "    bit<32> tmp32_5;",
        "    bit<72> tmp32_5;",
        Rule::ValueWidth,
        "struct meta_t {",
    );
}

#[test]
fn wide_field_aligned() {
    violates_at(
        Arch::V1Model,
        "header udp_t {",
        "header odd_t {\n    bit<4> a;\n    bit<64> b;\n    bit<4> c;\n}\n\nheader udp_t {",
        Rule::WideFieldAligned,
        "header odd_t {",
    );
}

#[test]
fn select_operand() {
    violates(
        Arch::V1Model,
        "transition select(hdr.ipv4.protocol) {",
        "transition select(hdr.ipv4.protocol + 8w1) {",
        Rule::SelectOperand,
    );
}

#[test]
fn select_keyset() {
    violates(
        Arch::V1Model,
        "            8w6: parse_tcp;",
        "            hdr.ipv4.ttl: parse_tcp;",
        Rule::SelectKeyset,
    );
}

#[test]
fn table_key() {
    violates(
        Arch::V1Model,
        "            meta.map_k0: exact;",
        "            meta.map_k0 + 16w1: exact;",
        Rule::TableKey,
    );
    violates(
        Arch::Tna,
        "            meta.map_k0: exact;",
        "            meta.map_k0: optional;",
        Rule::TableKey,
    );
}

#[test]
fn register_index() {
    violates(
        Arch::V1Model,
        "tandem_visible.read(meta.visible, 32w0);",
        "tandem_visible.read(meta.visible, 16w0);",
        Rule::RegisterIndex,
    );
}

#[test]
fn intrinsic_field() {
    violates(
        Arch::V1Model,
        "transition select(standard_metadata.ingress_port, hdr.eth.ethertype) {",
        "transition select(standard_metadata.ingres_port, hdr.eth.ethertype) {",
        Rule::IntrinsicField,
    );
    violates(
        Arch::Tna,
        "transition select(ig_intr_md.ingress_port, hdr.eth.ethertype) {",
        "transition select(ig_intr_md.in_port, hdr.eth.ethertype) {",
        Rule::IntrinsicField,
    );
}

#[test]
fn compile_time_division() {
    for arch in [Arch::V1Model, Arch::Tna] {
        violates(
            arch,
            "meta.tmp32_2 = meta.tmp32_2 ^ 32w0xffffffff;",
            "meta.tmp32_2 = meta.tmp32_2 / meta.tmp32_5;",
            Rule::CompileTimeDivision,
        );
    }
    // A constant power of two is strength-reduced by p4c: allowed.
    let text = golden(Arch::Tna).replacen(
        "meta.tmp32_2 = meta.tmp32_2 ^ 32w0xffffffff;",
        "meta.tmp32_2 = meta.tmp32_2 % 32w16;",
        1,
    );
    let program = tandem_p4_syntax::parse_program(&text).unwrap();
    assert_eq!(check_constraints(&program, Arch::Tna), vec![]);
}

#[test]
fn tna_parser_start() {
    violates_at(
        Arch::Tna,
        "        packet.advance(PORT_METADATA_SIZE);\n        meta.to_server = 1w0;",
        "        meta.to_server = 1w0;",
        Rule::TnaParserStart,
        "    state start {",
    );
}

#[test]
fn operand_widths() {
    violates(
        Arch::V1Model,
        "meta.tmp32_2 = meta.tmp32_2 ^ 32w0xffffffff;",
        "meta.tmp32_2 = meta.tmp32_2 ^ 16w0xffff;",
        Rule::OperandWidths,
    );
}

#[test]
fn action_conditional() {
    violates(
        Arch::V1Model,
        "    action map_miss() {\n        meta.tmp1_0 = 1w0;",
        "    action map_miss() {\n        if (meta.tmp1_0 == 1w1) { tandem_visible.write(32w0, 1w0); }\n        meta.tmp1_0 = 1w0;",
        Rule::ActionConditional,
    );
}

#[test]
fn table_applied_once() {
    violates(
        Arch::V1Model,
        "                    map_wb.apply();",
        "                    map_wb.apply(); map_wb.apply();",
        Rule::TableAppliedOnce,
    );
}

#[test]
fn action_param_type() {
    violates(
        Arch::V1Model,
        "    action map_hit(bit<32> v0) {",
        "    action map_hit(bool v0) {",
        Rule::ActionParamType,
    );
}

#[test]
fn deparser_emit_only() {
    violates(
        Arch::V1Model,
        "        packet.emit(hdr.eth);",
        "        hdr.eth.setInvalid();\n        packet.emit(hdr.eth);",
        Rule::DeparserEmitOnly,
    );
}

#[test]
fn if_condition_bool() {
    violates(
        Arch::V1Model,
        "if (hdr.tandem.tag == 8w2) {",
        "if (hdr.tandem.tag) {",
        Rule::IfConditionBool,
    );
}

#[test]
fn mark_to_drop_argument() {
    violates(
        Arch::V1Model,
        "mark_to_drop(standard_metadata);",
        "mark_to_drop();",
        Rule::MarkToDropArgument,
    );
}

#[test]
fn every_rule_is_tested_and_documented() {
    let me = include_str!("targets.rs");
    let doc = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/targets.md"),
    )
    .unwrap();
    for rule in Rule::ALL {
        let id = rule.id();
        assert!(
            me.contains(&format!("fn {}()", id.replace('-', "_"))),
            "no test for {id}"
        );
        assert!(
            doc.contains(&format!("`{id}`")),
            "docs/targets.md lacks {id}"
        );
    }
}

/// A transfer-header value wider than 56 bits is laid out on a byte boundary (issue: compile
/// emitted a 64-bit value at bit 25 of the header, which Tandem's switch refuses).
#[test]
fn wide_transfer_header_values_are_byte_aligned() {
    let text = "nf Wide

state limit: scalar<i8>

fn process {
block0:
    v0:i8 = hdr.read ipv4.ttl
    v10:i8 = scalar.load limit
    v1:i1 = icmp ugt v0, v10
    v2:i32 = hdr.read ipv4.saddr
    v3:i64 = zext v2
    v4:i64 = const 40
    v5:i64 = shl v3, v4
    v6:i64 = opaque \"mix\"(v5, v0, v1) reads [] writes []
    v7:i32 = trunc v6
    hdr.write tcp.seq, v7
    v9:i16 = const 1
    send v9
    return
}
";
    let module = tandem_ir::parse_module(text).unwrap();
    let profile = tandem_partition::TargetProfile::builtin("bmv2").unwrap();
    let plan = tandem_partition::partition_module(
        &module,
        &profile,
        &tandem_partition::PartitionOptions::default(),
    )
    .unwrap()
    .plan;
    let wide: Vec<_> = plan
        .transfer_header
        .fields
        .iter()
        .filter(|f| f.bits > 56)
        .collect();
    assert!(!wide.is_empty(), "{:#?}", plan.transfer_header.fields);
    for f in wide {
        assert_eq!(f.offset % 8, 0, "{f:?}");
    }
    let m = plan.module().unwrap();
    tandem_p4::generate(&plan, &m, &tandem_p4::P4Options::default()).unwrap();
}

#[test]
fn hash_operand() {
    violates(
        Arch::V1Model,
        "meta.tmp32_2 = meta.tmp32_2 ^ 32w0xffffffff;",
        "hash(meta.tmp32_2, HashAlgorithm.crc32, 32w0, {meta.tmp32_2 ^ 32w0xffffffff}, 64w0x100000000);",
        Rule::HashOperand,
    );
    violates(
        Arch::Tna,
        "meta.tmp32_2 = meta.tmp32_2 ^ 32w0xffffffff;",
        "meta.tmp32_2 = hash_v1.get({meta.tmp32_2 ^ 32w0xffffffff});",
        Rule::HashOperand,
    );
}

#[test]
fn meter_call() {
    let v1 = "meters.execute_meter(meta.tmp32_0, meta.tmp8_0);";
    // The index is bit<32>.
    violates_in(
        "ratelimit",
        Arch::V1Model,
        v1,
        "meters.execute_meter(meta.tmp32_0[15:0], meta.tmp8_0);",
        Rule::MeterCall,
    );
    // The colour goes into a bit<W>, W >= 2.
    violates_in(
        "ratelimit",
        Arch::V1Model,
        v1,
        "meters.execute_meter(meta.tmp32_0, meta.tmp8_0[0:0]);",
        Rule::MeterCall,
    );
    violates_in(
        "ratelimit",
        Arch::Tna,
        "meta.tmp8_0 = meters.execute(meta.tmp32_0);",
        "meta.tmp8_0 = meters.execute(meta.tmp32_0[15:0]);",
        Rule::MeterCall,
    );
}
