//! Interpreter tests: MiniLB and friends on hand-built packets.

use tandem_ir::interp::{binary, HeaderOffsets};
use tandem_ir::*;

fn load(name: &str) -> Module {
    let path = format!("{}/tests/data/{name}.nfir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test file");
    parse_module(&text).unwrap_or_else(|e| panic!("{path}:{e}"))
}

/// Ethernet + IPv4 (20 bytes) + TCP (20 bytes) + `payload` bytes.
fn tcp_packet(saddr: [u8; 4], daddr: [u8; 4], sport: u16, dport: u16) -> Vec<u8> {
    let mut p = vec![0u8; 14 + 20 + 20 + 4];
    p[0..6].copy_from_slice(&[0x02, 0, 0, 0, 0, 0x01]);
    p[6..12].copy_from_slice(&[0x02, 0, 0, 0, 0, 0x02]);
    p[12..14].copy_from_slice(&[0x08, 0x00]);
    p[14] = 0x45;
    p[16..18].copy_from_slice(&((20u16 + 20 + 4).to_be_bytes()));
    p[22] = 64;
    p[23] = 6;
    p[26..30].copy_from_slice(&saddr);
    p[30..34].copy_from_slice(&daddr);
    p[34..36].copy_from_slice(&sport.to_be_bytes());
    p[36..38].copy_from_slice(&dport.to_be_bytes());
    p[46] = 0x50;
    p
}

fn minilb_store(m: &Module) -> StateStore {
    let mut store = StateStore::new(m);
    for i in 0..4u64 {
        store.vec_set(m, "backends", i, &[0x0a00_0001 + i]).unwrap();
    }
    store
}

#[test]
fn minilb_drops_non_ip() {
    let m = load("minilb");
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = minilb_store(&m);
    let mut bytes = tcp_packet([1, 2, 3, 4], [5, 6, 7, 8], 1, 2);
    bytes[12..14].copy_from_slice(&[0x08, 0x06]); // ARP
    let out = interp
        .run(
            &mut store,
            &Packet {
                bytes: bytes.clone(),
                in_port: 0,
                timestamp_ns: 0,
            },
        )
        .unwrap();
    assert_eq!(out.action, Action::Drop);
    assert_eq!(out.packet, bytes);
    assert_eq!(store.map_len(&m, "conn").unwrap(), 0);
}

#[test]
fn minilb_miss_then_hit() {
    let m = load("minilb");
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = minilb_store(&m);
    let saddr = [192, 168, 1, 7];
    let daddr = [10, 99, 0, 1];
    let bytes = tcp_packet(saddr, daddr, 1234, 80);
    let hash = u32::from_be_bytes(saddr) ^ u32::from_be_bytes(daddr);
    let backend = 0x0a00_0001 + (hash % 4);

    let out = interp
        .run(
            &mut store,
            &Packet {
                bytes: bytes.clone(),
                in_port: 3,
                timestamp_ns: 10,
            },
        )
        .unwrap();
    assert_eq!(out.action, Action::Send(1));
    let mut expected = bytes.clone();
    expected[30..34].copy_from_slice(&backend.to_be_bytes());
    assert_eq!(out.packet, expected);
    assert_eq!(
        store
            .map_get(&m, "conn", &[u64::from(hash & 0xffff)])
            .unwrap(),
        Some(vec![u64::from(backend)])
    );

    // Change the backend table: the flow must stay pinned to the remembered backend (a hit).
    for i in 0..4 {
        store.vec_set(&m, "backends", i, &[0x0b00_0000]).unwrap();
    }
    let out2 = interp
        .run(
            &mut store,
            &Packet {
                bytes,
                in_port: 3,
                timestamp_ns: 20,
            },
        )
        .unwrap();
    assert_eq!(out2.packet, expected);
    assert_eq!(store.map_len(&m, "conn").unwrap(), 1);
    assert!(out2.steps < out.steps, "hit path is shorter");
}

#[test]
fn minilb_state_dumps() {
    let m = load("minilb");
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = minilb_store(&m);
    // hash = 0x01020304 ^ 0x0a000001 = 0x0b020305 → key 0x0305, backend index 1 → 10.0.0.2
    let p = Packet {
        bytes: tcp_packet([1, 2, 3, 4], [10, 0, 0, 1], 1, 2),
        in_port: 0,
        timestamp_ns: 5,
    };
    interp.run(&mut store, &p).unwrap();
    let canon = store.dump_json(&m, DumpFormat::Canonical).unwrap();
    assert_eq!(
        canon,
        r#"[{"name":"conn","kind":"hashmap","entries":[{"key":"0305","value":"0a000002"}]},{"name":"backends","kind":"vector","entries":[{"key":"00000000","value":"0a000001"},{"key":"00000001","value":"0a000002"},{"key":"00000002","value":"0a000003"},{"key":"00000003","value":"0a000004"}]}]"#
    );
    let native = store.dump(&m, DumpFormat::Cpp).unwrap();
    assert_eq!(
        native[0].entries,
        vec![DumpEntry {
            key: "0503".into(),
            value: "0200000a".into()
        }]
    );
    assert_eq!(
        native[1].entries[3],
        DumpEntry {
            key: "03000000".into(),
            value: "0400000a".into()
        }
    );
}

#[test]
fn cpp_dump_needs_offsets_and_pads() {
    let m = parse_module(
        "nf d\n\nstate a: hashmap<{x: i8 @0, y: i32 @4} size 8, {z: i16 @2} size 4, 4>\nstate b: hashmap<{x: i8}, {}, 4>\nstate c: scalar<i48>\n\nfn process {\nblock0:\n    return\n}\n",
    )
    .unwrap();
    let mut store = StateStore::new(&m);
    store
        .map_insert(&m, "a", &[0xab, 0x01020304], &[0xbeef])
        .unwrap();
    store.scalar_set(&m, "c", 0x0102_0304_0506).unwrap();
    assert_eq!(
        store.dump(&m, DumpFormat::Cpp),
        Err(StoreError::NoCppLayout("b".into()))
    );
    let canon = store.dump(&m, DumpFormat::Canonical).unwrap();
    assert_eq!(
        canon[0].entries,
        vec![DumpEntry {
            key: "ab01020304".into(),
            value: "beef".into()
        }]
    );
    assert_eq!(
        canon[2].entries,
        vec![DumpEntry {
            key: String::new(),
            value: "010203040506".into()
        }]
    );
    store.map_insert(&m, "b", &[1], &[]).unwrap();
    assert_eq!(
        store
            .map_insert(&m, "b", &[1, 2], &[])
            .unwrap_err()
            .to_string(),
        "state `b`: key needs 1 fields, got 2"
    );
    assert_eq!(
        store
            .map_insert(&m, "a", &[0x100, 0], &[0])
            .unwrap_err()
            .to_string(),
        "state `a`: key field `x` value 256 does not fit in i8"
    );
    let m2 = parse_module(
        "nf d\n\nstate a: hashmap<{x: i8 @0, y: i32 @4} size 8, {z: i16 @2} size 4, 4>\nstate c: scalar<i48>\n\nfn process {\nblock0:\n    return\n}\n",
    )
    .unwrap();
    let mut s2 = StateStore::new(&m2);
    s2.map_insert(&m2, "a", &[0xab, 0x01020304], &[0xbeef])
        .unwrap();
    s2.scalar_set(&m2, "c", 0x0102_0304_0506).unwrap();
    let native = s2.dump(&m2, DumpFormat::Cpp).unwrap();
    assert_eq!(
        native[0].entries,
        vec![DumpEntry {
            key: "ab00000004030201".into(),
            value: "0000efbe".into()
        }]
    );
    // A 48-bit scalar (a `uint8_t[6]` member) is its 6 bytes, as the native host dumps it.
    assert_eq!(native[1].entries[0].value, "060504030201");
}

#[test]
fn header_presence_matches_native_accessors() {
    let full = tcp_packet([1, 1, 1, 1], [2, 2, 2, 2], 1, 2);
    let h = HeaderOffsets::parse(&full);
    assert_eq!(
        (h.eth, h.ipv4, h.tcp, h.udp),
        (Some(0), Some(14), Some(34), None)
    );
    assert_eq!(HeaderOffsets::parse(&full[..13]), HeaderOffsets::default());
    let h = HeaderOffsets::parse(&full[..33]);
    assert_eq!((h.eth, h.ipv4), (Some(0), None));
    let h = HeaderOffsets::parse(&full[..53]);
    assert_eq!((h.ipv4, h.tcp), (Some(14), None), "TCP needs 20 bytes");
    let h = HeaderOffsets::parse(&full[..54]);
    assert_eq!(h.tcp, Some(34));
    let mut v6 = full.clone();
    v6[14] = 0x65;
    assert_eq!(HeaderOffsets::parse(&v6).ipv4, None);
    let mut short_ihl = full.clone();
    short_ihl[14] = 0x44;
    assert_eq!(HeaderOffsets::parse(&short_ihl).ipv4, None);
    let mut opts = full.clone();
    opts[14] = 0x46; // 24-byte IPv4 header: TCP moves to 38 and needs len >= 58
    assert_eq!(HeaderOffsets::parse(&opts).tcp, Some(38));
    assert_eq!(HeaderOffsets::parse(&opts[..57]).tcp, None);
    let mut big_ihl = full.clone();
    big_ihl[14] = 0x4f; // needs 14 + 60 bytes
    assert_eq!(HeaderOffsets::parse(&big_ihl).ipv4, None);
    let mut udp = full.clone();
    udp[23] = 17;
    let h = HeaderOffsets::parse(&udp[..42]);
    assert_eq!((h.tcp, h.udp), (None, Some(34)));
    assert_eq!(HeaderOffsets::parse(&udp[..41]).udp, None);
}

#[test]
fn absent_headers_read_as_zero_and_ignore_writes() {
    let m = parse_module(
        "nf x\n\nfn process {\nblock0:\n    v0:i16 = hdr.read tcp.dport\n    v1:i16 = const 7\n    hdr.write tcp.dport, v1\n    send v0\n    return\n}\n",
    )
    .unwrap();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    let mut udp = tcp_packet([1, 1, 1, 1], [2, 2, 2, 2], 1, 2);
    udp[23] = 17;
    let out = interp
        .run(
            &mut store,
            &Packet {
                bytes: udp.clone(),
                in_port: 0,
                timestamp_ns: 0,
            },
        )
        .unwrap();
    assert_eq!(
        out.action,
        Action::Send(0),
        "tcp.dport of a UDP packet reads as 0"
    );
    assert_eq!(
        out.packet, udp,
        "the write to the absent TCP header changed nothing"
    );
}

#[test]
fn endless_loop_runs_out_of_fuel() {
    let m =
        parse_module("nf x\n\nfn process {\nblock0:\n    br block1\n\nblock1:\n    br block1\n}\n")
            .unwrap();
    let interp = Interpreter::new(&m, InterpOptions { fuel: 1000 }).unwrap();
    let mut store = StateStore::new(&m);
    let err = interp
        .run(
            &mut store,
            &Packet {
                bytes: vec![],
                in_port: 0,
                timestamp_ns: 0,
            },
        )
        .unwrap_err();
    assert_eq!(err, InterpError::OutOfFuel(1000));
}

#[test]
fn ttl_loop_program() {
    let m = load("ttl_loop");
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    let bytes = tcp_packet([1, 2, 3, 250], [9, 9, 9, 9], 1, 2);
    let out = interp
        .run(
            &mut store,
            &Packet {
                bytes: bytes.clone(),
                in_port: 4,
                timestamp_ns: 0,
            },
        )
        .unwrap();
    assert_eq!(out.action, Action::Send(5));
    assert_eq!(out.packet[22], 63, "ttl decremented");
    assert_eq!(
        u16::from_be_bytes([out.packet[18], out.packet[19]]),
        1 + 2 + 3 + 250,
        "ipv4.id = byte sum"
    );
    assert_eq!(store.scalar_get(&m, "packets").unwrap(), 1);
    let mut dying = bytes;
    dying[22] = 1;
    let out = interp
        .run(
            &mut store,
            &Packet {
                bytes: dying.clone(),
                in_port: 4,
                timestamp_ns: 0,
            },
        )
        .unwrap();
    assert_eq!((out.action, out.packet), (Action::Drop, dying));
    assert_eq!(store.scalar_get(&m, "packets").unwrap(), 1);
}

#[test]
fn map_capacity_and_expiry() {
    let m = parse_module(
        "nf x\n\nstate t: expiring_map<{k: i8}, {v: i8}, 2, 100>\nstate h: hashmap<{k: i8}, {v: i8}, 2>\n\nfn process {\nblock0:\n    v0:i64 = meta.read now\n    v1:i8 = trunc v0\n    v2:i1 = map.insert t(v1) -> (v1)\n    v3:i1 = map.insert h(v1) -> (v1)\n    v4:i8 = const 0\n    v5:i1, v6:i8 = map.find t(v4)\n    v7:i16 = zext v2\n    v8:i16 = zext v3\n    v9:i16 = const 2\n    v10:i16 = mul v8, v9\n    v11:i16 = or v7, v10\n    v12:i16 = zext v5\n    v13:i16 = const 4\n    v14:i16 = mul v12, v13\n    v15:i16 = or v11, v14\n    send v15\n    return\n}\n",
    )
    .unwrap();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    let mut run = |t: u64| match interp
        .run(
            &mut store,
            &Packet {
                bytes: vec![],
                in_port: 0,
                timestamp_ns: t,
            },
        )
        .unwrap()
        .action
    {
        Action::Send(p) => (p & 1 != 0, p & 2 != 0, p & 4 != 0),
        Action::Drop => panic!("sent"),
    };
    // (expiring insert ok, hashmap insert ok, key 0 found in expiring map)
    assert_eq!(run(0), (true, true, true));
    assert_eq!(run(50), (true, true, true), "key 0 refreshed at 50");
    assert_eq!(run(60), (false, false, true), "both maps full (0, 50)");
    assert_eq!(
        run(0),
        (true, true, true),
        "overwriting an existing key always succeeds"
    );
    assert_eq!(
        run(151),
        (true, false, false),
        "key 50 expired at 151 (idle 101 >= 100), key 0 too"
    );
}

#[test]
fn opaque_calls_use_the_handler() {
    struct Sum;
    impl OpaqueHandler for Sum {
        fn call(
            &mut self,
            name: &str,
            args: &[u64],
            tys: &[Type],
            packet: &mut Vec<u8>,
            _: &mut StateStore,
        ) -> Result<Vec<u64>, String> {
            assert_eq!(name, "sum");
            assert_eq!(tys, &[Type::I16]);
            packet.push(0xee);
            Ok(vec![args.iter().sum()])
        }
    }
    let m = parse_module("nf x\n\nfn process {\nblock0:\n    v0:i16 = const 7\n    v1:i16 = opaque \"sum\"(v0, v0) reads [payload] writes [payload]\n    send v1\n    return\n}\n").unwrap();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    let p = Packet {
        bytes: vec![1],
        in_port: 0,
        timestamp_ns: 0,
    };
    let out = interp.run_with(&mut store, &p, &mut Sum).unwrap();
    assert_eq!((out.action, out.packet), (Action::Send(14), vec![1, 0xee]));
    let err = interp.run(&mut store, &p).unwrap_err();
    assert_eq!(err.to_string(), "`v1:i16 = opaque \"sum\"(v0, v0) reads [payload] writes [payload]`: no handler for opaque call \"sum\"");
}

#[test]
fn send_and_drop_last_one_wins() {
    let m = parse_module("nf x\n\nfn process {\nblock0:\n    v0:i16 = const 7\n    send v0\n    drop\n    v1:i16 = const 9\n    send v1\n    return\n}\n").unwrap();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    let out = interp
        .run(
            &mut store,
            &Packet {
                bytes: vec![],
                in_port: 0,
                timestamp_ns: 0,
            },
        )
        .unwrap();
    assert_eq!(out.action, Action::Send(9));
    let m = parse_module("nf x\n\nfn process {\nblock0:\n    return\n}\n").unwrap();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let out = interp
        .run(
            &mut StateStore::new(&m),
            &Packet {
                bytes: vec![],
                in_port: 0,
                timestamp_ns: 0,
            },
        )
        .unwrap();
    assert_eq!(out.action, Action::Drop, "no send means drop");
}

#[test]
fn arithmetic_contract() {
    let i8 = Type::I8;
    assert_eq!(binary(BinOp::Add, i8, 250, 10), 4);
    assert_eq!(binary(BinOp::Sub, i8, 0, 1), 255);
    assert_eq!(binary(BinOp::Mul, i8, 16, 17), 16);
    assert_eq!(binary(BinOp::Udiv, i8, 7, 0), 0);
    assert_eq!(binary(BinOp::Sdiv, i8, 7, 0), 0);
    assert_eq!(binary(BinOp::Urem, i8, 7, 0), 7);
    assert_eq!(binary(BinOp::Srem, i8, 7, 0), 7);
    assert_eq!(binary(BinOp::Sdiv, i8, 0x80, 0xff), 0x80, "MIN / -1 = MIN");
    assert_eq!(binary(BinOp::Srem, i8, 0x80, 0xff), 0);
    assert_eq!(binary(BinOp::Sdiv, i8, 0xf9, 2), 0xfd, "-7 / 2 = -3");
    assert_eq!(binary(BinOp::Srem, i8, 0xf9, 2), 0xff, "-7 % 2 = -1");
    assert_eq!(binary(BinOp::Shl, i8, 1, 7), 0x80);
    assert_eq!(binary(BinOp::Shl, i8, 1, 8), 0);
    assert_eq!(binary(BinOp::Lshr, i8, 0x80, 8), 0);
    assert_eq!(binary(BinOp::Ashr, i8, 0x80, 3), 0xf0);
    assert_eq!(binary(BinOp::Ashr, i8, 0x80, 200), 0xff);
    assert_eq!(binary(BinOp::Ashr, i8, 0x40, 200), 0);
    let i64 = Type::I64;
    assert_eq!(binary(BinOp::Sdiv, i64, 1 << 63, u64::MAX), 1 << 63);
    assert_eq!(binary(BinOp::Ashr, i64, 1 << 63, 64), u64::MAX);
}

#[test]
fn casts_bswap_and_byte_order() {
    // ntohl(ip->daddr): the C++ load of the raw member is bswap(field); ntohl swaps back.
    let m = parse_module(
        "nf x\n\nfn process {\nblock0:\n    v0:i32 = hdr.read ipv4.daddr\n    v1:i32 = bswap v0\n    v2:i32 = bswap v1\n    v3:i16 = trunc v1\n    hdr.write ipv4.id, v3\n    v4:i8 = hdr.read ipv4.ttl\n    v5:i16 = sext v4\n    hdr.write ipv4.check, v5\n    v6:i48 = hdr.read eth.dst\n    v7:i48 = bswap v6\n    hdr.write eth.src, v7\n    v8:i1 = icmp eq v0, v2\n    v9:i16 = zext v8\n    send v9\n    return\n}\n",
    )
    .unwrap();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut bytes = tcp_packet([1, 1, 1, 1], [10, 20, 30, 40], 1, 2);
    bytes[22] = 0xfe;
    let out = interp
        .run(
            &mut StateStore::new(&m),
            &Packet {
                bytes,
                in_port: 0,
                timestamp_ns: 0,
            },
        )
        .unwrap();
    assert_eq!(out.action, Action::Send(1));
    assert_eq!(
        &out.packet[18..20],
        &[20, 10],
        "low 16 bits of the host-order load 0x281e140a"
    );
    assert_eq!(&out.packet[24..26], &[0xff, 0xfe], "sext of 0xfe");
    assert_eq!(&out.packet[6..12], &[0x01, 0, 0, 0, 0, 0x02]);
}

#[test]
fn vector_index_out_of_range() {
    let m = parse_module("nf x\n\nstate v: vector<{a: i8}, 3>\n\nfn process {\nblock0:\n    v0:i32 = const 3\n    v1:i8 = vec.get v[v0]\n    return\n}\n").unwrap();
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let err = interp
        .run(
            &mut StateStore::new(&m),
            &Packet {
                bytes: vec![],
                in_port: 0,
                timestamp_ns: 0,
            },
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "`v1:i8 = vec.get v[v0]`: index 3 is out of range for a vector of length 3"
    );
}

#[test]
fn builder_makes_minilb_equal_to_the_text() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/minilb.nfir",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let parsed = parse_module(&text).unwrap();

    let mut m = Module::new("minilb");
    let f0 = m.add_file("examples/nfs/minilb/minilb.cc");
    let conn = m.add_state(
        "conn",
        StateKind::HashMap {
            key: Layout::with_offsets([("hash", Type::I16, 0)], 2),
            value: Layout::with_offsets([("backend", Type::I32, 0)], 4),
            capacity: 65536,
        },
    );
    let backends = m.add_state(
        "backends",
        StateKind::Vector {
            elem: Layout::with_offsets([("addr", Type::I32, 0)], 4),
            len: 4,
        },
    );
    m.add_server_function("configure");
    let at = |line, col| {
        Some(SourceLoc {
            file: f0,
            line,
            col,
            site: None,
        })
    };
    let mut b = m.builder();
    let (b1, b2, b3, b4) = (
        b.create_block(),
        b.create_block(),
        b.create_block(),
        b.create_block(),
    );
    b.set_loc(at(20, 13));
    let valid = b.hdr_valid(Header::Ipv4);
    b.set_loc(None);
    b.brif(valid, b1, &[], b4, &[]);
    b.switch_to_block(b1);
    b.set_loc(at(22, 21));
    let saddr = b.hdr_read(HeaderField::Ipv4Saddr);
    b.set_loc(at(22, 32));
    let daddr = b.hdr_read(HeaderField::Ipv4Daddr);
    b.set_loc(at(22, 29));
    let hash = b.binary(BinOp::Xor, saddr, daddr);
    b.set_loc(None);
    let mask = b.iconst(Type::I32, 0xffff);
    b.set_loc(at(23, 27));
    let masked = b.binary(BinOp::And, hash, mask);
    b.set_loc(at(23, 16));
    let key = b.cast(CastOp::Trunc, masked, Type::I16);
    b.set_loc(at(24, 20));
    let (hit, val) = b.map_find(conn, &[key]);
    b.set_loc(None);
    let param = {
        // block3's parameter is created after the values above, as a lifter would.
        b.brif(hit, b3, &val, b2, &[]);
        b.switch_to_block(b2);
        let n = b.iconst(Type::I32, 4);
        b.set_loc(at(27, 30));
        let idx = b.binary(BinOp::Urem, hash, n);
        b.set_loc(at(28, 24));
        let be = b.vec_get(backends, idx);
        b.set_loc(at(29, 9));
        b.map_insert(conn, &[key], &be);
        b.set_loc(None);
        b.jump(b3, &be);
        b.append_block_param(b3, Type::I32)
    };
    b.switch_to_block(b3);
    b.set_loc(at(31, 5));
    b.hdr_write(HeaderField::Ipv4Daddr, param);
    b.set_loc(None);
    let one = b.iconst(Type::I16, 1);
    b.set_loc(at(32, 5));
    b.send(one);
    b.set_loc(None);
    b.ret();
    b.switch_to_block(b4);
    b.set_loc(at(21, 9));
    b.drop_packet();
    b.set_loc(None);
    b.ret();
    verify_module(&m).unwrap();
    assert_eq!(print_module(&m), print_module(&parsed));
}

#[test]
fn firewall_remembers_inside_flows_until_idle() {
    let m = load("firewall");
    let interp = Interpreter::new(&m, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&m);
    let mut run = |bytes: &[u8], in_port: u16, t: u64| {
        interp
            .run(
                &mut store,
                &Packet {
                    bytes: bytes.to_vec(),
                    in_port,
                    timestamp_ns: t,
                },
            )
            .unwrap()
            .action
    };
    let out = tcp_packet([10, 0, 0, 1], [8, 8, 8, 8], 5555, 443);
    let back = tcp_packet([8, 8, 8, 8], [10, 0, 0, 1], 443, 5555);
    let mut udp_back = back.clone();
    udp_back[23] = 17;
    assert_eq!(run(&back, 1, 0), Action::Drop, "unsolicited");
    assert_eq!(run(&out, 0, 1), Action::Send(1));
    assert_eq!(
        run(&back, 1, 2),
        Action::Send(0),
        "reply to a remembered flow"
    );
    assert_eq!(
        run(&udp_back, 1, 3),
        Action::Drop,
        "protocol is part of the key"
    );
    let later = 2 + 300_000_000_000 + 1;
    assert_eq!(
        run(&back, 1, later),
        Action::Drop,
        "idle for longer than the timeout"
    );
    assert_eq!(store.scalar_get(&m, "dropped").unwrap(), 3);
    let dump = store.dump(&m, DumpFormat::Cpp).unwrap();
    assert!(dump[0].entries.is_empty(), "the expired flow is gone");
}

#[test]
fn effects_follow_the_contract() {
    let m = load("firewall");
    let f = &m.process;
    let flows = m.state_by_name("flows").unwrap();
    let effects: Vec<InstEffects> = f.insts.values().map(|d| m.inst_effects(&d.kind)).collect();
    let find = f
        .insts
        .values()
        .position(|d| matches!(d.kind, InstKind::MapFind { .. }))
        .unwrap();
    assert_eq!(effects[find].reads, vec![Effect::State(flows)]);
    assert_eq!(
        effects[find].writes,
        vec![Effect::State(flows)],
        "expiring-map hits refresh"
    );
    let read = f
        .insts
        .values()
        .position(|d| {
            matches!(
                d.kind,
                InstKind::HdrRead {
                    field: HeaderField::Ipv4Protocol
                }
            )
        })
        .unwrap();
    assert_eq!(
        effects[read],
        InstEffects {
            reads: vec![Effect::Field(HeaderField::Ipv4Protocol)],
            writes: vec![]
        }
    );
}
