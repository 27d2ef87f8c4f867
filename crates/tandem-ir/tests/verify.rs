//! Verifier rejection tests: each hand-made broken module must be rejected with a message that
//! names the function, block and offending instruction.

use tandem_ir::*;

const HEAD: &str = "nf broken\n\nstate conn: hashmap<{k: i16}, {v: i32}, 8>\nstate vec: vector<{a: i32}, 4>\nstate n: scalar<i64>\n\nfn process {\n";

/// Parses `HEAD + body + "}"` and returns the verifier's messages.
fn errors(body: &str) -> Vec<String> {
    let text = format!("{HEAD}{body}}}\n");
    let m = parse_module(&text).unwrap_or_else(|e| panic!("test input must parse: {e}\n{text}"));
    match verify_module(&m) {
        Ok(()) => panic!("verifier accepted:\n{text}"),
        Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
    }
}

fn assert_rejects(body: &str, expected: &str) {
    let errs = errors(body);
    assert!(
        errs.iter().any(|e| e == expected),
        "expected error\n  {expected}\ngot\n  {}",
        errs.join("\n  ")
    );
}

#[test]
fn accepts_a_good_module() {
    let text = format!(
        "{HEAD}block0:\n    v0:i16 = const 1\n    v1:i1, v2:i32 = map.find conn(v0)\n    send v0\n    return\n}}\n"
    );
    let m = parse_module(&text).unwrap();
    verify_module(&m).unwrap();
}

#[test]
fn operand_type_mismatch() {
    assert_rejects(
        "block0:\n    v0:i32 = const 1\n    v1:i16 = const 2\n    v2:i32 = add v0, v1\n    return\n",
        "fn process, block0, `v2:i32 = add v0, v1`: operand types i32 and i16 differ",
    );
}

#[test]
fn use_before_definition_in_block() {
    assert_rejects(
        "block0:\n    v1:i32 = add v0, v0\n    v0:i32 = const 1\n    return\n",
        "fn process, block0, `v1:i32 = add v0, v0`: uses v0, whose definition (in block0) does not dominate this use",
    );
}

#[test]
fn definition_does_not_dominate() {
    assert_rejects(
        "block0:\n    v0:i1 = hdr.valid ipv4\n    brif v0, block1, block2\n\nblock1:\n    v1:i16 = const 3\n    br block2\n\nblock2:\n    send v1\n    return\n",
        "fn process, block2, `send v1`: uses v1, whose definition (in block1) does not dominate this use",
    );
}

#[test]
fn undefined_value() {
    assert_rejects(
        "block0:\n    send v7\n    return\n",
        "fn process, block0, `send v7`: uses v7, which is never defined",
    );
}

#[test]
fn missing_terminator() {
    assert_rejects(
        "block0:\n    drop\n",
        "fn process, block0: block does not end with a terminator",
    );
}

#[test]
fn terminator_in_the_middle() {
    assert_rejects(
        "block0:\n    return\n    drop\n",
        "fn process, block0, `return`: terminator in the middle of a block",
    );
}

#[test]
fn branch_arity_and_types() {
    assert_rejects(
        "block0:\n    v0:i32 = const 1\n    br block1(v0, v0)\n\nblock1(v1:i32):\n    return\n",
        "fn process, block0, `br block1(v0, v0)`: passes 2 arguments to block1, which has 1 parameters",
    );
    assert_rejects(
        "block0:\n    v0:i16 = const 1\n    br block1(v0)\n\nblock1(v1:i32):\n    return\n",
        "fn process, block0, `br block1(v0)`: argument v0: i16 passed to parameter v1: i32 of block1",
    );
}

#[test]
fn entry_block_parameters() {
    assert_rejects(
        "block0(v0:i32):\n    return\n",
        "fn process, block0: the entry block must not have parameters",
    );
}

#[test]
fn map_key_layout_mismatch() {
    assert_rejects(
        "block0:\n    v0:i32 = const 1\n    v1:i1, v2:i32 = map.find conn(v0)\n    return\n",
        "fn process, block0, `v1:i1, v2:i32 = map.find conn(v0)`: key field `k` is i32, expected i16",
    );
    assert_rejects(
        "block0:\n    v0:i16 = const 1\n    v1:i1 = map.find conn(v0)\n    return\n",
        "fn process, block0, `v1:i1 = map.find conn(v0)`: has 1 results, expected 2",
    );
}

#[test]
fn state_kind_mismatch() {
    assert_rejects(
        "block0:\n    v0:i16 = const 1\n    v1:i32 = vec.get conn[v0]\n    return\n",
        "fn process, block0, `v1:i32 = vec.get conn[v0]`: `conn` is not a vector",
    );
    assert_rejects(
        "block0:\n    v0:i32 = scalar.load n\n    return\n",
        "fn process, block0, `v0:i32 = scalar.load n`: result 0 has type i32, expected i64",
    );
}

#[test]
fn header_field_width() {
    assert_rejects(
        "block0:\n    v0:i16 = const 1\n    hdr.write ipv4.daddr, v0\n    return\n",
        "fn process, block0, `hdr.write ipv4.daddr, v0`: value v0 has type i16, expected i32",
    );
    assert_rejects(
        "block0:\n    v0:i16 = hdr.read ipv4.saddr\n    return\n",
        "fn process, block0, `v0:i16 = hdr.read ipv4.saddr`: result 0 has type i16, expected i32",
    );
}

#[test]
fn send_port_type() {
    assert_rejects(
        "block0:\n    v0:i32 = const 1\n    send v0\n    return\n",
        "fn process, block0, `send v0`: port v0 has type i32, expected i16",
    );
}

#[test]
fn constants_casts_bswap() {
    assert_rejects(
        "block0:\n    v0:i8 = const 256\n    return\n",
        "fn process, block0, `v0:i8 = const 256`: constant 256 does not fit in i8",
    );
    assert_rejects(
        "block0:\n    v0:i32 = const 1\n    v1:i16 = zext v0\n    return\n",
        "fn process, block0, `v1:i16 = zext v0`: cannot zext i32 to i16",
    );
    assert_rejects(
        "block0:\n    v0:i12 = const 1\n    v1:i12 = bswap v0\n    return\n",
        "fn process, block0, `v1:i12 = bswap v0`: bswap needs a width that is a multiple of 8, not i12",
    );
}

#[test]
fn conditions_are_i1() {
    assert_rejects(
        "block0:\n    v0:i8 = const 1\n    brif v0, block1, block1\n\nblock1:\n    return\n",
        "fn process, block0, `brif v0, block1, block1`: condition v0 has type i8, expected i1",
    );
}

#[test]
fn switch_cases() {
    assert_rejects(
        "block0:\n    v0:i8 = const 1\n    switch v0, block1, [1: block1, 1: block1, 300: block1]\n\nblock1:\n    return\n",
        "fn process, block0, `switch v0, block1, [1: block1, 1: block1, 300: block1]`: case 1 appears twice",
    );
}

#[test]
fn bad_layouts() {
    let text = "nf broken\n\nstate s: hashmap<{k: i16 @0, k: i32}, {}, 0>\n\nfn process {\nblock0:\n    return\n}\n";
    let m = parse_module(text).unwrap();
    let errs: Vec<String> = verify_module(&m)
        .unwrap_err()
        .0
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errs,
        [
            "state `s`: key layout: C++ offsets must be given for all fields or none, with a size",
            "state `s`: key field `k` appears twice",
            "state `s`: capacity must be at least 1",
        ]
    );
}

#[test]
fn api_built_broken_module() {
    // Detached instruction results used in a block: the builder does not stop the lifter from
    // making this mistake, the verifier does.
    let mut m = Module::new("api");
    let f = &mut m.process;
    let b0 = f.add_block();
    let loose = f.create_inst(InstKind::Const { imm: 1 }, &[Type::I16], None);
    let v = f.inst_results(loose)[0];
    f.append_inst(b0, InstKind::Send { port: v }, &[], None);
    f.append_inst(b0, InstKind::Return, &[], None);
    let err = verify_module(&m).unwrap_err().to_string();
    assert_eq!(
        err,
        "fn process, block0, `send v0`: uses v0, whose instruction is not in any block"
    );
}

#[test]
fn errors_carry_structured_locations() {
    let text = format!("{HEAD}block0:\n    v0:i32 = const 1\n    send v0\n    return\n}}\n");
    let m = parse_module(&text).unwrap();
    let errs = verify_module(&m).unwrap_err();
    match &errs.0[0].location {
        ErrorLocation::Inst {
            func,
            block,
            inst,
            text,
        } => {
            assert_eq!(func, "process");
            assert_eq!(*block, Block::from_u32(0));
            assert_eq!(m.process.blocks[*block].insts[1], *inst);
            assert_eq!(text, "send v0");
        }
        other => panic!("unexpected location {other:?}"),
    }
}

#[test]
fn dangling_handles_are_errors_not_panics() {
    let mut m = Module::new("api");
    let b0 = m.process.add_block();
    m.process.blocks[b0].insts.push(Inst::from_u32(42));
    let bogus_state = StateId::from_u32(3);
    m.process.append_inst(
        b0,
        InstKind::MapFind {
            state: bogus_state,
            key: vec![],
        },
        &[Type::I1],
        None,
    );
    let loc = Some(SourceLoc {
        file: FileId::from_u32(5),
        line: 1,
        col: 1,
        site: None,
    });
    let dest = BlockCall::new(Block::from_u32(9), vec![Value::from_u32(77)]);
    m.process.append_inst(b0, InstKind::Jump { dest }, &[], loc);
    let text = print_module(&m);
    assert!(text.contains("<missing inst42>"), "{text}");
    let errs: Vec<String> = verify_module(&m)
        .unwrap_err()
        .0
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errs,
        [
            "fn process, block0: lists inst42, which does not exist",
            "fn process, block0, `v0:i1 = map.find <undeclared state3>()`: undeclared state3 is not a map",
            "fn process, block0, `br block9(v77) at f5:1:1`: source location names undeclared file f5",
            "fn process, block0, `br block9(v77) at f5:1:1`: uses v77, which does not exist",
            "fn process, block0, `br block9(v77) at f5:1:1`: branches to block9, which does not exist",
        ]
    );
    // The interpreter refuses unverified modules.
    assert!(Interpreter::new(&m, InterpOptions::default()).is_err());
}

#[test]
fn hash_operands_are_whole_bytes_and_the_result_has_the_algorithm_s_width() {
    let errs = errors(
        "block0:\n    v0:i1 = const 1\n    v1:i32 = hash crc32(v0)\n    v2:i16 = const 1\n    send v2\n    return\n",
    );
    assert!(
        errs.iter()
            .any(|e| e.contains("hash operands are whole bytes")),
        "{errs:?}"
    );
    let errs = errors(
        "block0:\n    v0:i8 = const 1\n    v1:i32 = hash crc16(v0)\n    v2:i16 = const 1\n    send v2\n    return\n",
    );
    assert!(!errs.is_empty());
    // A good one round-trips through the text form.
    let text = format!(
        "{HEAD}block0:\n    v0:i8 = const 1\n    v1:i16 = const 2\n    v2:i32 = hash crc32(v0, v1)\n    v3:i16 = hash crc16(v1)\n    v4:i64 = hash identity(v0, v1)\n    send v1\n    return\n}}\n"
    );
    let m = parse_module(&text).unwrap();
    verify_module(&m).unwrap();
    assert_eq!(parse_module(&print_module(&m)).unwrap(), m);
}
