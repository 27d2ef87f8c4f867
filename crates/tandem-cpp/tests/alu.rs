//! Every integer operation, as the server runs it: one tiny NF per operation and width with
//! every statement on the server, all generated `server.cc` files compiled together (clang++-16)
//! and called through the ABI, against the NF IR interpreter on edge values (0, 1, -1, MIN,
//! MAX, shift amounts at and past the width) and pseudo-random ones.

use std::ffi::c_void;

use tandem_ir::{Action, InterpOptions, Interpreter, Module, Packet, StateStore};
use tandem_partition::{partition_module, PartitionOptions, Plan, TargetProfile};

const WIDTHS: [(u32, &str, &str, &str); 3] = [
    (32, "ipv4.saddr", "ipv4.daddr", "tcp.seq"),
    (16, "tcp.sport", "tcp.dport", "tcp.window"),
    (8, "ipv4.tos", "ipv4.ttl", "tcp.flags"),
];

#[repr(C)]
struct CPacket {
    data: *mut u8,
    len: u32,
    in_port: u16,
    now_ns: u64,
}

type ProcessFn = unsafe extern "C" fn(*const c_void, *mut CPacket, *const u64, *mut u64) -> i32;

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
    let mask = (1u64 << width) - 1;
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
    let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(width);
    for _ in 0..12 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        v.push(seed & mask);
    }
    v
}

struct Case {
    width: u32,
    text: String,
    module: Module,
    plan: Plan,
}

fn case(body: &str, width: u32, a: &str, b: &str) -> Case {
    let text = format!(
        "nf Alu\n\nfn process {{\nblock0:\n    v0:i{width} = hdr.read {a}\n    v1:i{width} = hdr.read {b}\n{body}    v9:i16 = const 1\n    send v9\n    return\n}}\n"
    );
    let module = tandem_ir::parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    // A switch that can do nothing: every statement runs on the server.
    let mut profile = TargetProfile::builtin("bmv2").unwrap();
    profile.ops.clear();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    assert_eq!(plan.summary.pre + plan.summary.post, 0, "{text}");
    let module = plan.module().unwrap();
    Case {
        width,
        text,
        module,
        plan,
    }
}

#[test]
fn server_operations_match_the_interpreter() {
    let mut cases = Vec::new();
    for (w, a, b, r) in WIDTHS {
        for op in [
            "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "and", "or", "xor", "shl", "lshr",
            "ashr",
        ] {
            cases.push(case(
                &format!("    v2:i{w} = {op} v0, v1\n    hdr.write {r}, v2\n"),
                w,
                a,
                b,
            ));
        }
        for cc in [
            "eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge",
        ] {
            cases.push(case(
                &format!(
                    "    v2:i1 = icmp {cc} v0, v1\n    v3:i{w} = select v2, v0, v1\n    hdr.write {r}, v3\n"
                ),
                w,
                a,
                b,
            ));
        }
    }
    cases.push(case(
        "    v2:i32 = sext v0\n    v3:i32 = zext v1\n    v4:i32 = xor v2, v3\n    hdr.write tcp.seq, v4\n",
        8,
        "ipv4.tos",
        "ipv4.ttl",
    ));
    cases.push(case(
        "    v2:i32 = sext v0\n    hdr.write tcp.seq, v2\n    v3:i8 = trunc v1\n    hdr.write tcp.flags, v3\n    v4:i16 = bswap v0\n    hdr.write tcp.window, v4\n",
        16,
        "tcp.sport",
        "tcp.dport",
    ));
    cases.push(case(
        "    v2:i32 = bswap v0\n    hdr.write tcp.seq, v2\n    v4:i64 = sext v0\n    v5:i64 = zext v1\n    v6:i64 = mul v4, v5\n    v7:i64 = ashr v6, v5\n    v8:i32 = trunc v7\n    hdr.write tcp.ack_seq, v8\n",
        32,
        "ipv4.saddr",
        "ipv4.daddr",
    ));

    // One translation unit: each server.cc in its own namespace, its entry points renamed.
    let mut tu = String::from("#include \"tandem/server.h\"\n");
    for (i, c) in cases.iter().enumerate() {
        let cc = tandem_cpp::generate(&c.plan, &c.module).unwrap();
        let cc = cc.replace("#include \"tandem/server.h\"\n", "");
        tu.push_str(&format!(
            "#define tandem_server_process tandem_server_process_{i}\n#define tandem_server_abi_version tandem_server_abi_version_{i}\nnamespace case{i} {{\n{cc}}}\n#undef tandem_server_process\n#undef tandem_server_abi_version\n"
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("include/tandem")).unwrap();
    std::fs::write(
        dir.path().join("include/tandem/server.h"),
        tandem_cpp::SERVER_H,
    )
    .unwrap();
    std::fs::write(dir.path().join("all.cc"), &tu).unwrap();
    let so = dir.path().join("all.so");
    let out = std::process::Command::new("clang++-16")
        .args(["-std=c++17", "-O1", "-shared", "-fPIC", "-I"])
        .arg(dir.path().join("include"))
        .arg(dir.path().join("all.cc"))
        .arg("-o")
        .arg(&so)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // SAFETY: a library built just now from generated code with the expected ABI.
    let lib = unsafe { libloading::Library::new(&so) }.unwrap();

    for (i, c) in cases.iter().enumerate() {
        let name = format!("tandem_server_process_{i}");
        // SAFETY: the symbol has the type of include/tandem/server.h.
        let process: ProcessFn = *unsafe { lib.get::<ProcessFn>(name.as_bytes()) }.unwrap();
        let interp = Interpreter::new(&c.module, InterpOptions::default()).unwrap();
        let fields = &c.plan.transfer_header.fields;
        let fate = fields
            .iter()
            .position(|f| f.value.as_deref() == Some("fate"))
            .expect("the server decides the fate");
        for &a in &values(c.width) {
            for &b in &values(c.width) {
                let pkt = frame(a, b, c.width);
                let want = interp
                    .run(
                        &mut StateStore::new(&c.module),
                        &Packet {
                            bytes: pkt.clone(),
                            in_port: 1,
                            timestamp_ns: 0,
                        },
                    )
                    .unwrap();
                let mut data = pkt.clone();
                let mut cp = CPacket {
                    data: data.as_mut_ptr(),
                    len: data.len() as u32,
                    in_port: 1,
                    now_ns: 0,
                };
                let input = vec![0u64; fields.len()];
                let mut output = vec![0u64; fields.len()];
                // SAFETY: the ABI; no state operations in these NFs (ops is never used).
                let rc = unsafe {
                    process(
                        std::ptr::null(),
                        &mut cp,
                        input.as_ptr(),
                        output.as_mut_ptr(),
                    )
                };
                assert_eq!(rc, 0);
                assert_eq!(want.action, Action::Send(1));
                assert_eq!(output[fate], 0x10001, "fate: send to port 1");
                assert_eq!(data, want.packet, "a = {a:#x}, b = {b:#x}:\n{}", c.text);
            }
        }
    }
}
