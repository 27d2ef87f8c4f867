//! Every integer operation the switch may run, lowered to P4 and executed on tandem-switch,
//! against the NF IR interpreter: one tiny NF per operation and width, operands from header
//! fields, the result written to a header field, on edge values (0, 1, -1, MIN, MAX, shift
//! amounts at and past the width) and pseudo-random ones.

use tandem_ir::{Action, InterpOptions, Interpreter, Packet, StateStore};
use tandem_p4::{generate, P4Options};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};
use tandem_switch::Switch;

/// (width, operand fields, result field) — all in an Ethernet/IPv4/TCP frame.
const WIDTHS: [(u32, &str, &str, &str); 3] = [
    (32, "ipv4.saddr", "ipv4.daddr", "tcp.seq"),
    (16, "tcp.sport", "tcp.dport", "tcp.window"),
    (8, "ipv4.tos", "ipv4.ttl", "tcp.flags"),
];

fn frame(a: u64, b: u64, width: u32) -> Vec<u8> {
    let mut f = vec![0u8; 14 + 20 + 20];
    f[12..14].copy_from_slice(&[0x08, 0x00]);
    f[14] = 0x45;
    f[16..18].copy_from_slice(&40u16.to_be_bytes());
    f[23] = 6;
    f[46] = 0x50;
    match width {
        32 => {
            f[26..30].copy_from_slice(&(a as u32).to_be_bytes());
            f[30..34].copy_from_slice(&(b as u32).to_be_bytes());
        }
        16 => {
            f[34..36].copy_from_slice(&(a as u16).to_be_bytes());
            f[36..38].copy_from_slice(&(b as u16).to_be_bytes());
        }
        _ => {
            f[15] = a as u8;
            f[22] = b as u8;
        }
    }
    f
}

fn values(width: u32) -> Vec<u64> {
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let min = 1u64 << (width - 1);
    let mut v = vec![
        0,
        1,
        2,
        3,
        7,
        u64::from(width) - 1,
        u64::from(width),
        u64::from(width) + 1,
        mask,
        mask - 1,
        min,
        min - 1,
        min + 1,
    ];
    // Shift amounts that a cast to the 8-bit amount p4c-bm2-ss requires would wrap (256 -> 0,
    // 256 + w - 1 -> w - 1): the lowering must clamp, not truncate.
    if width > 8 {
        v.extend([256, 257, 256 + u64::from(width) - 1, 511]);
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(width);
    for _ in 0..12 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        v.push(seed & mask);
    }
    v
}

/// bmv2 with every operation class the switch may be given (division included).
fn every_op_bmv2() -> TargetProfile {
    let mut profile = TargetProfile::builtin("bmv2").unwrap();
    profile.ops = tandem_partition::OP_NAMES
        .iter()
        .map(|s| s.to_string())
        .collect();
    profile
}

fn check(body: &str, width: u32, a_field: &str, b_field: &str) {
    let text = format!(
        "nf Alu\n\nfn process {{\nblock0:\n    v0:i{width} = hdr.read {a_field}\n    v1:i{width} = hdr.read {b_field}\n{body}    v9:i16 = const 1\n    send v9\n    return\n}}\n"
    );
    let module = tandem_ir::parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    tandem_ir::verify_module(&module).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let profile = every_op_bmv2();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    assert_eq!(plan.summary.server, 0, "everything on the switch:\n{text}");
    let module = plan.module().unwrap();
    let out = generate(&plan, &module, &P4Options::default()).unwrap();
    let p4 = tandem_p4_syntax::print_program(&out.program);
    let sw = Switch::from_source(&p4).unwrap_or_else(|e| panic!("{e}\n{p4}"));
    let interp = Interpreter::new(&module, InterpOptions::default()).unwrap();
    let mut w = sw.worker();
    for &a in &values(width) {
        for &b in &values(width) {
            let pkt = frame(a, b, width);
            let mut store = StateStore::new(&module);
            let want = interp
                .run(
                    &mut store,
                    &Packet {
                        bytes: pkt.clone(),
                        in_port: 1,
                        timestamp_ns: 0,
                    },
                )
                .unwrap();
            assert_eq!(want.action, Action::Send(1));
            let got = w.process(1, &pkt).map(|(p, b)| (p, b.to_vec()));
            assert_eq!(
                got,
                Some((1, want.packet.clone())),
                "a = {a:#x}, b = {b:#x}:\n{body}"
            );
        }
    }
}

#[test]
fn binary_operations_match_the_interpreter() {
    for (w, a, b, r) in WIDTHS {
        for op in [
            "add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr",
        ] {
            check(
                &format!("    v2:i{w} = {op} v0, v1\n    hdr.write {r}, v2\n"),
                w,
                a,
                b,
            );
        }
    }
}

/// Constant operands: shift amounts below, at and past the width (and past 8 bits), and the
/// divisors p4c can evaluate (powers of two become shifts and masks; 0 is the IR's defined
/// result).
#[test]
fn constant_operands_match_the_interpreter() {
    for (w, a, b, r) in WIDTHS {
        for k in [
            0u64,
            1,
            3,
            u64::from(w) - 1,
            u64::from(w),
            u64::from(w) + 1,
            255,
            256,
            300,
        ] {
            let k = k & ((1u64 << w) - 1);
            for op in ["shl", "lshr", "ashr"] {
                check(
                    &format!("    v3:i{w} = const {k}\n    v2:i{w} = {op} v0, v3\n    hdr.write {r}, v2\n"),
                    w,
                    a,
                    b,
                );
            }
        }
        for k in [0u64, 1, 2, 8, 1 << (w - 1)] {
            for op in ["udiv", "urem", "mul"] {
                check(
                    &format!("    v3:i{w} = const {k}\n    v2:i{w} = {op} v0, v3\n    hdr.write {r}, v2\n"),
                    w,
                    a,
                    b,
                );
            }
            check(
                &format!(
                    "    v3:i{w} = const {k}\n    v2:i{w} = mul v3, v0\n    hdr.write {r}, v2\n"
                ),
                w,
                a,
                b,
            );
        }
    }
}

/// p4c evaluates `/` and `%` only at compile time: a run-time divisor is refused by the
/// generator (the partitioner keeps it on the server: no profile offers `udiv`), never
/// emitted as a program p4c-bm2-ss or p4test would reject.
#[test]
fn run_time_division_is_refused_not_emitted() {
    for op in ["udiv", "urem", "sdiv", "srem"] {
        let text = format!(
            "nf Div\n\nfn process {{\nblock0:\n    v0:i32 = hdr.read ipv4.saddr\n    v1:i32 = hdr.read ipv4.daddr\n    v2:i32 = {op} v0, v1\n    hdr.write tcp.seq, v2\n    v9:i16 = const 1\n    send v9\n    return\n}}\n"
        );
        let module = tandem_ir::parse_module(&text).unwrap();
        let profile = every_op_bmv2();
        let plan = partition_module(&module, &profile, &PartitionOptions::default())
            .unwrap()
            .plan;
        let module = plan.module().unwrap();
        for arch in [tandem_p4::Arch::V1Model, tandem_p4::Arch::Tna] {
            let opts = P4Options {
                arch,
                ..P4Options::default()
            };
            let err = generate(&plan, &module, &opts).expect_err(op);
            assert!(
                matches!(err, tandem_p4::P4Error::Unsupported { .. }),
                "{op}: {err}"
            );
        }
        // With the real bmv2 profile the division stays on the server.
        let profile = TargetProfile::builtin("bmv2").unwrap();
        let plan = partition_module(&module, &profile, &PartitionOptions::default())
            .unwrap()
            .plan;
        assert!(
            plan.summary.server > 0,
            "{op} must not be placed on the switch"
        );
        let module = plan.module().unwrap();
        generate(&plan, &module, &P4Options::default()).unwrap();
    }
}

#[test]
fn comparisons_and_selects_match_the_interpreter() {
    for (w, a, b, r) in WIDTHS {
        for cc in [
            "eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge",
        ] {
            check(
                &format!(
                    "    v2:i1 = icmp {cc} v0, v1\n    v3:i{w} = select v2, v0, v1\n    hdr.write {r}, v3\n"
                ),
                w,
                a,
                b,
            );
        }
    }
}

#[test]
fn casts_and_byte_swaps_match_the_interpreter() {
    // 8 → 16/32 and 16 → 32 extensions, truncations, byte swaps.
    check(
        "    v2:i32 = sext v0\n    v3:i32 = zext v1\n    v4:i32 = xor v2, v3\n    hdr.write tcp.seq, v4\n",
        8,
        "ipv4.tos",
        "ipv4.ttl",
    );
    check(
        "    v2:i32 = sext v0\n    hdr.write tcp.seq, v2\n    v3:i8 = trunc v1\n    hdr.write tcp.flags, v3\n    v4:i16 = bswap v0\n    hdr.write tcp.window, v4\n",
        16,
        "tcp.sport",
        "tcp.dport",
    );
    check(
        "    v2:i32 = bswap v0\n    hdr.write tcp.seq, v2\n    v3:i16 = trunc v1\n    hdr.write tcp.window, v3\n    v4:i64 = sext v0\n    v5:i64 = zext v1\n    v6:i64 = add v4, v5\n    v7:i32 = trunc v6\n    hdr.write tcp.ack_seq, v7\n",
        32,
        "ipv4.saddr",
        "ipv4.daddr",
    );
}

/// Header presence as the NF IR defines it (version 4, IHL >= 5, options, lengths): validity,
/// reads of absent headers (0) and writes to them (ignored), on IPv4 with and without options,
/// other versions, short IHL, truncated frames and non-IP frames.
#[test]
fn header_presence_matches_the_interpreter() {
    let text = "nf Presence\n\nfn process {\nblock0:\n    v0:i1 = hdr.valid ipv4\n    v1:i1 = hdr.valid tcp\n    v2:i1 = hdr.valid udp\n    v3:i8 = hdr.read ipv4.version_ihl\n    v4:i16 = hdr.read tcp.sport\n    v5:i16 = hdr.read udp.dport\n    v6:i48 = zext v3\n    v7:i48 = const 40\n    v8:i48 = shl v6, v7\n    v10:i48 = zext v4\n    v11:i48 = const 24\n    v12:i48 = shl v10, v11\n    v13:i48 = zext v5\n    v14:i48 = const 8\n    v15:i48 = shl v13, v14\n    v16:i48 = zext v0\n    v17:i48 = const 2\n    v18:i48 = shl v16, v17\n    v19:i48 = zext v1\n    v20:i48 = const 1\n    v21:i48 = shl v19, v20\n    v22:i48 = zext v2\n    v23:i48 = or v8, v12\n    v24:i48 = or v23, v15\n    v25:i48 = or v24, v18\n    v26:i48 = or v25, v21\n    v27:i48 = or v26, v22\n    hdr.write eth.dst, v27\n    v28:i16 = const 4660\n    hdr.write tcp.window, v28\n    v29:i16 = const 4661\n    hdr.write udp.check, v29\n    v30:i8 = const 7\n    hdr.write ipv4.ttl, v30\n    v31:i8 = const 70\n    hdr.write ipv4.version_ihl, v31\n    v9:i16 = const 1\n    send v9\n    return\n}\n";
    let module = tandem_ir::parse_module(text).unwrap();
    let profile = every_op_bmv2();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    assert_eq!(plan.summary.server, 0);
    let module = plan.module().unwrap();
    let out = generate(&plan, &module, &P4Options::default()).unwrap();
    let sw = Switch::from_source(&tandem_p4_syntax::print_program(&out.program)).unwrap();
    let interp = Interpreter::new(&module, InterpOptions::default()).unwrap();
    let mut w = sw.worker();
    let mut frames = Vec::new();
    for vihl in [0x45u8, 0x46, 0x47, 0x4a, 0x4f, 0x44, 0x40, 0x65, 0x55] {
        for proto in [6u8, 17, 1] {
            let opts = usize::from(vihl & 0x0f).saturating_sub(5) * 4;
            let mut f = vec![0u8; 14 + 20 + opts + 20 + 4];
            f[12..14].copy_from_slice(&[0x08, 0x00]);
            f[14] = vihl;
            f[23] = proto;
            for (i, b) in f.iter_mut().enumerate().skip(34) {
                *b = (i * 7) as u8;
            }
            for len in [f.len(), 14 + 20 + opts + 8, 14 + 20 + opts + 4, 30, 14, 10] {
                frames.push(f[..len.min(f.len())].to_vec());
            }
        }
    }
    let mut arp = frames[0].clone();
    arp[12..14].copy_from_slice(&[0x08, 0x06]);
    frames.push(arp);
    for f in frames {
        let want = interp
            .run(
                &mut StateStore::new(&module),
                &Packet {
                    bytes: f.clone(),
                    in_port: 1,
                    timestamp_ns: 0,
                },
            )
            .unwrap();
        let got = w.process(1, &f).map(|(p, b)| (p, b.to_vec()));
        assert_eq!(
            got,
            Some((1, want.packet.clone())),
            "frame {:02x?} ({} bytes)",
            &f[..f.len().min(40)],
            f.len()
        );
    }
}

/// `hash crc16/crc32` lowered to v1model's `hash` extern and run on Tandem's switch, against
/// the interpreter (`HashAlgo::compute`), over operands of every width (8, 16, 32 bits, in
/// the order given, a constant among them). A wrong polynomial, reflection or byte order on
/// either side fails this.
#[test]
fn hashes_match_the_interpreter() {
    for (w, a, b, _) in WIDTHS {
        for algo in ["crc32", "crc16"] {
            let rbits = if algo == "crc32" { 32 } else { 16 };
            let dst = if algo == "crc32" {
                "tcp.ack_seq"
            } else {
                "tcp.urg_ptr"
            };
            check(
                &format!(
                    "    v2:i8 = const 171\n    v3:i{rbits} = hash {algo}(v0, v1, v2)\n    hdr.write {dst}, v3\n    v4:i{rbits} = hash {algo}(v1)\n    v5:i{rbits} = xor v3, v4\n    hdr.write {dst}, v5\n"
                ),
                w,
                a,
                b,
            );
        }
    }
}

/// The known CRC check values ("123456789") on the interpreter's side.
#[test]
fn hash_check_values() {
    use tandem_ir::HashAlgo;
    assert_eq!(HashAlgo::Crc32.compute(b"123456789"), 0xCBF4_3926);
    assert_eq!(HashAlgo::Crc16.compute(b"123456789"), 0xBB3D);
    assert_eq!(
        HashAlgo::Identity.compute(&[1, 2, 3, 4, 5, 6, 7, 8, 9]),
        0x0102_0304_0506_0708
    );
    // Operands are big-endian at their width: (0x3132, 16 bits) ++ (0x33, 8) is "123".
    assert_eq!(
        HashAlgo::Crc32.compute_fields(&[(0x3132, 16), (0x33, 8)]),
        HashAlgo::Crc32.compute(b"123")
    );
}
