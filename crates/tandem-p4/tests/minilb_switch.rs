//! MiniLB end to end on the software switch (topology: client ports 1-2 ─▶ [switch] ─▶
//! backend port `out_port`; server on port 64).
//!
//! The reference is the NF IR on the interpreter. A flow's first packet misses the switch
//! table and goes to the server port with the transfer header of Gallium's Figure 5 (the
//! branch bit and `hash32` for the server). After the runtime's insert (here: copying the
//! reference's map entry into the table), the flow's packets take the fast path and must
//! leave the switch byte-identical to the reference's output, on the same port.

use tandem_ir::{Action, InterpOptions, Interpreter, Packet, StateStore};
use tandem_p4::{generate, P4Options};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};
use tandem_switch::{KeyMatch, Switch, TableEntry};

fn frame(src: [u8; 4], dst: [u8; 4], proto: u8, sport: u16, dport: u16) -> Vec<u8> {
    let l4 = if proto == 6 { 20 } else { 8 };
    let mut f = vec![0u8; 14 + 20 + l4 + 6];
    f[0..6].copy_from_slice(&[0, 0, 0, 0, 0, 1]);
    f[6..12].copy_from_slice(&[0, 0, 0, 0, 0, 0xaa]);
    f[12..14].copy_from_slice(&[0x08, 0x00]);
    let ip = &mut f[14..34];
    ip[0] = 0x45;
    let total = (20 + l4 + 6) as u16;
    ip[2..4].copy_from_slice(&total.to_be_bytes());
    ip[8] = 64;
    ip[9] = proto;
    ip[12..16].copy_from_slice(&src);
    ip[16..20].copy_from_slice(&dst);
    let mut sum = 0u32;
    for i in (0..20).step_by(2) {
        sum += u32::from(u16::from_be_bytes([ip[i], ip[i + 1]]));
    }
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    ip[10..12].copy_from_slice(&(!(sum as u16)).to_be_bytes());
    let t = &mut f[34..];
    t[0..2].copy_from_slice(&sport.to_be_bytes());
    t[2..4].copy_from_slice(&dport.to_be_bytes());
    if proto == 6 {
        t[12] = 0x50;
        t[16..18].copy_from_slice(&0x1234u16.to_be_bytes());
    } else {
        t[4..6].copy_from_slice(&((8 + 6) as u16).to_be_bytes());
        t[6..8].copy_from_slice(&0xbeefu16.to_be_bytes());
    }
    f
}

#[test]
fn minilb_fast_path_matches_the_reference_and_slow_path_carries_figure5() {
    let text = include_str!("../../tandem-lift/tests/golden/minilb.nfir");
    let module = tandem_ir::parse_module(text).unwrap();
    let profile = TargetProfile::builtin("tofino1").unwrap();
    let options = PartitionOptions {
        split_joins: true,
        ..Default::default()
    };
    let plan = partition_module(&module, &profile, &options).unwrap().plan;
    let module = plan.module().unwrap();
    let out = generate(&plan, &module, &P4Options::default()).unwrap();
    let p4 = tandem_p4_syntax::print_program(&out.program);
    let sw = Switch::from_source(&p4).unwrap();

    // Reference state: four backends, output port 3 (what `configure` would set).
    let interp = Interpreter::new(&module, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&module);
    for (i, b) in [0x0a01_0005u64, 0x0a01_0006, 0x0a01_0007, 0x0a01_0008]
        .iter()
        .enumerate()
    {
        store.vec_set(&module, "backends", i as u64, &[*b]).unwrap();
    }
    store.scalar_set(&module, "backends_size", 4).unwrap();
    store.scalar_set(&module, "out_port", 3).unwrap();
    // Every copy of the register (one per switch read).
    for reg in out
        .manifest
        .registers
        .iter()
        .filter(|r| r.state == "out_port")
    {
        sw.register_write(&reg.name, 0, 3).unwrap();
    }
    let table = out
        .manifest
        .tables
        .iter()
        .find(|t| t.state == "map" && t.role == tandem_p4::manifest::TableRole::Main)
        .unwrap();
    let hit = table
        .hit_action
        .name
        .rsplit('.')
        .next()
        .unwrap()
        .to_string();
    let th = &out.manifest.transfer_header;
    let field = |name: &str| {
        th.fields
            .iter()
            .find(|f| f.value.as_deref() == Some(name))
            .cloned()
    };

    let mut w = sw.worker();
    let flows = [
        frame([10, 0, 0, 1], [10, 0, 0, 100], 6, 1234, 80),
        frame([172, 16, 0, 2], [10, 0, 0, 100], 17, 5000, 53),
        frame([192, 168, 1, 7], [10, 0, 0, 100], 6, 40000, 443),
    ];
    let mut fast = 0;
    for (n, pkt) in flows.iter().enumerate() {
        // First packet: a miss; the switch sends it to the server with the transfer header.
        let (port, bytes) = w.process(1, pkt).map(|(p, b)| (p, b.to_vec())).unwrap();
        assert_eq!(port, 64, "flow {n}: a miss goes to the server port");
        assert_eq!(
            &bytes[12..14],
            &[0x88, 0xb5],
            "flow {n}: transfer EtherType"
        );
        let hdr = &bytes[14..14 + th.bytes as usize];
        let get = |off: u32, bits: u32| -> u64 {
            (off..off + bits).fold(0u64, |acc, b| {
                (acc << 1) | u64::from((hdr[(b / 8) as usize] >> (7 - b % 8)) & 1)
            })
        };
        assert_eq!(get(0, 8), 1, "tag: to the server");
        assert_eq!(get(8, 16), 0x0800, "original EtherType");
        // Figure 5: hash32 and the miss branch bit go to the server. MiniLB hashes the
        // addresses as loaded on a little-endian host (`ip->saddr ^ ip->daddr`).
        let hash = u32::from_le_bytes(pkt[26..30].try_into().unwrap())
            ^ u32::from_le_bytes(pkt[30..34].try_into().unwrap());
        let h = field("v7").expect("hash32 in the header");
        assert_eq!(get(h.offset, h.bits), u64::from(hash), "hash32");
        let b = field("v12").expect("branch bit in the header");
        assert_eq!(get(b.offset, b.bits), 1, "branch bit: miss");
        assert_eq!(
            &bytes[14 + th.bytes as usize..],
            &pkt[14..],
            "the rest is the original"
        );

        // The reference runs the flow's first packet (inserting the entry) ...
        let p = Packet {
            bytes: pkt.clone(),
            in_port: 1,
            timestamp_ns: 0,
        };
        let first = interp.run(&mut store, &p).unwrap();
        let key = u64::from(hash & 0xffff);
        let value = store.map_get(&module, "map", &[key]).unwrap().unwrap();
        // The server's answer (Figure 5: the backend address back, tag 2) runs post, which
        // must finish the packet exactly as the reference did.
        let mut back = bytes.clone();
        let mut set = |off: u32, bits: u32, v: u64| {
            for i in 0..bits {
                let bit = off + i;
                let byte = &mut back[14 + (bit / 8) as usize];
                let m = 1u8 << (7 - bit % 8);
                if (v >> (bits - 1 - i)) & 1 == 1 {
                    *byte |= m;
                } else {
                    *byte &= !m;
                }
            }
        };
        set(0, 8, 2);
        let be = field("v20").expect("backend address in the header");
        assert_eq!(be.from.as_deref(), Some("server"));
        set(be.offset, be.bits, value[0]);
        let Action::Send(fport) = first.action else {
            panic!("reference dropped flow {n}")
        };
        assert_eq!(
            w.process(64, &back).map(|(p, b)| (p, b.to_vec())),
            Some((u32::from(fport), first.packet.clone())),
            "flow {n}: post after the server"
        );
        // ... and the runtime installs it on the switch.
        sw.insert(
            &table.name,
            TableEntry {
                matches: vec![KeyMatch::Exact(key)],
                action: hit.clone(),
                args: value.clone(),
                priority: None,
            },
        )
        .unwrap();
        // Later packets of the flow: the fast path, identical to the reference.
        let expect = interp.run(&mut store, &p).unwrap();
        let got = w.process(1, pkt).map(|(p, b)| (p, b.to_vec()));
        let Action::Send(eport) = expect.action else {
            panic!("reference dropped flow {n}")
        };
        assert_eq!(
            got,
            Some((u32::from(eport), expect.packet.clone())),
            "flow {n}"
        );
        fast += 1;
    }
    assert_eq!(fast, 3);
    // Non-IP traffic is dropped by both.
    let mut arp = flows[0].clone();
    arp[12..14].copy_from_slice(&[0x08, 0x06]);
    assert_eq!(w.process(1, &arp).map(|(p, _)| p), None);
}
