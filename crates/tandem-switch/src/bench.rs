//! Benchmark fixtures shared by the criterion benches and `tandem switch bench`:
//! the MiniLB-like program with an exact connection table, MiniLB as Tandem's P4
//! back end generates it, and an IPv4 router with a large LPM table, each with a
//! set of 64-byte packets that hit.

use crate::entries::{apply_commands, parse_commands};
use crate::switch::{CompileOptions, ControlOp, Engine, KeyMatch, Switch, TableEntry};

/// The MiniLB-like program (connection table, rewrite, checksum update).
pub const MINILB_P4: &str = include_str!("../tests/programs/minilb.p4");
/// The LPM router program (checksum verify, LPM, rewrite, checksum update).
pub const LPM_P4: &str = include_str!("../tests/programs/lpm.p4");
/// MiniLB compiled by `tandem compile --target v1model` (transfer header, map
/// and write-back tables, registers, checksum updates in ingress).
pub const MINILB_GENERATED_P4: &str = include_str!("../benches/minilb_generated.p4");

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn csum(h: &[u8]) -> u16 {
    let mut s: u32 = 0;
    for c in h.chunks(2) {
        s += u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]) as u32;
    }
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    !(s as u16)
}

/// A 64-byte Ethernet/IPv4/UDP-or-TCP frame with a valid IPv4 checksum.
pub fn frame64(src: u32, dst: u32, proto: u8, sport: u16, dport: u16) -> Vec<u8> {
    let mut p = Vec::with_capacity(64);
    p.extend_from_slice(&[0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0xaa, 0x08, 0x00]);
    let total = 64 - 14u16;
    let mut ip = [0u8; 20];
    ip[0] = 0x45;
    ip[2..4].copy_from_slice(&total.to_be_bytes());
    ip[6] = 0x40;
    ip[8] = 64;
    ip[9] = proto;
    ip[12..16].copy_from_slice(&src.to_be_bytes());
    ip[16..20].copy_from_slice(&dst.to_be_bytes());
    let c = csum(&ip);
    ip[10..12].copy_from_slice(&c.to_be_bytes());
    p.extend_from_slice(&ip);
    p.extend_from_slice(&sport.to_be_bytes());
    p.extend_from_slice(&dport.to_be_bytes());
    p.resize(64, 0);
    p
}

/// MiniLB's connection-table insert for flow `i` (of a generator state `rng`)
/// and a packet of that flow.
fn minilb_flow(rng: &mut Rng, i: usize) -> (ControlOp, Vec<u8>) {
    let src = 0x0a00_0000 | (rng.next() as u32 & 0x00ff_ffff);
    let dst = 0x0a64_0000 | (i as u32 & 0xff);
    let (sp, dp) = (rng.next() as u16, 80u16);
    let proto = if i & 1 == 0 { 6 } else { 17 };
    (
        conn_insert(src, dst, proto, sp, dp, i),
        frame64(src, dst, proto, sp, dp),
    )
}

fn conn_insert(src: u32, dst: u32, proto: u8, sp: u16, dp: u16, i: usize) -> ControlOp {
    ControlOp::Insert {
        table: "conn".into(),
        entry: TableEntry {
            matches: vec![
                KeyMatch::Exact(src as u64),
                KeyMatch::Exact(dst as u64),
                KeyMatch::Exact(proto as u64),
                KeyMatch::Exact(sp as u64),
                KeyMatch::Exact(dp as u64),
            ],
            action: "set_backend".into(),
            args: vec![
                0x0a01_0000 | (i as u64 & 0xffff),
                0x0200_0000_0000 | i as u64,
                (i % 8) as u64,
            ],
            priority: None,
        },
    }
}

/// The connection-table inserts for `flows` MiniLB flows (the ones [`minilb`]
/// installs).
pub fn minilb_entries(flows: usize) -> Vec<ControlOp> {
    let mut rng = Rng(0x1234_5678);
    (0..flows).map(|i| minilb_flow(&mut rng, i).0).collect()
}

/// A connection-table insert whose key is not among [`minilb_entries`]'s
/// (source addresses outside 10/8), numbered by `i`.
pub fn minilb_extra_entry(i: usize) -> ControlOp {
    conn_insert(
        0x0b00_0000 | (i as u32 & 0x00ff_ffff),
        0x0a64_0001,
        6,
        (i >> 24) as u16,
        80,
        i,
    )
}

/// MiniLB with `flows` installed connections (one atomic batch) and one packet
/// per flow.
pub fn minilb(flows: usize) -> Result<(Switch, Vec<Vec<u8>>), String> {
    minilb_on(flows, Engine::default())
}

/// [`minilb`] on engine `engine`.
pub fn minilb_on(flows: usize, engine: Engine) -> Result<(Switch, Vec<Vec<u8>>), String> {
    let sw = load(MINILB_P4, engine)?;
    let mut rng = Rng(0x1234_5678);
    let (ops, pkts): (Vec<_>, Vec<_>) = (0..flows).map(|i| minilb_flow(&mut rng, i)).unzip();
    sw.apply_batch(&ops).map_err(|e| e.to_string())?;
    Ok((sw, pkts))
}

/// The 64-byte packets of `flows` MiniLB flows (the packets [`minilb`] uses).
pub fn minilb_packets(flows: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(0x1234_5678);
    (0..flows).map(|i| minilb_flow(&mut rng, i).1).collect()
}

/// An entries file for the generated MiniLB ([`MINILB_GENERATED_P4`]) that puts
/// every flow of [`minilb_packets`] on the fast path: a `map` entry for each
/// flow's key (the low 16 bits of `saddr ^ daddr` as the NF reads them: the
/// first two address bytes, byte-swapped) and output port 1 (both copies of the
/// `out_port` register).
pub fn minilb_generated_entries(flows: usize) -> String {
    // `out_port` is replicated per use; the runtime writes every copy
    let mut out = String::from("register_write out_port_0 0 1\nregister_write out_port_1 0 1\n");
    let mut seen = std::collections::BTreeSet::new();
    for p in minilb_packets(flows) {
        let (s, d) = (&p[26..30], &p[30..34]);
        let key = (s[0] ^ d[0]) as u32 | ((s[1] ^ d[1]) as u32) << 8;
        if seen.insert(key) {
            // the backend address as the NF stores it (network order in a host word)
            let backend = u32::from_be_bytes([0x0a, 0x01, 0, (key & 0xff) as u8]).swap_bytes();
            out.push_str(&format!("table_add map map_hit {key} => {backend:#x}\n"));
        }
    }
    out
}

/// The generated MiniLB with entries from [`minilb_generated_entries`] and
/// the packets of [`minilb_packets`].
pub fn minilb_generated(flows: usize) -> Result<(Switch, Vec<Vec<u8>>), String> {
    minilb_generated_on(flows, Engine::default())
}

/// [`minilb_generated`] on engine `engine`.
pub fn minilb_generated_on(flows: usize, engine: Engine) -> Result<(Switch, Vec<Vec<u8>>), String> {
    let sw = load(MINILB_GENERATED_P4, engine)?;
    let cmds = parse_commands(&minilb_generated_entries(flows), &sw).map_err(|e| e.to_string())?;
    apply_commands(&sw, &cmds).map_err(|e| e.to_string())?;
    Ok((sw, minilb_packets(flows)))
}

/// The LPM router with `routes` random prefixes (/8../32) and `npkts` packets to
/// random addresses inside installed prefixes.
pub fn lpm(routes: usize, npkts: usize) -> Result<(Switch, Vec<Vec<u8>>), String> {
    lpm_on(routes, npkts, Engine::default())
}

/// The random /8../32 prefixes and route inserts of [`lpm`] (`routes` of them, the same
/// every call), then `extra` more for updates.
pub fn lpm_routes(routes: usize, extra: usize) -> (Vec<(u32, u32)>, Vec<ControlOp>) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut ops = Vec::new();
    let mut prefixes = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while prefixes.len() < routes + extra {
        let len = 8 + (rng.next() % 25) as u32;
        let v = (rng.next() as u32) & (!0u32 << (32 - len));
        if !seen.insert((v, len)) {
            continue;
        }
        prefixes.push((v, len));
        ops.push(route_insert(v, len, prefixes.len()));
    }
    (prefixes, ops)
}

fn route_insert(v: u32, len: u32, i: usize) -> ControlOp {
    ControlOp::Insert {
        table: "ipv4_lpm".into(),
        entry: TableEntry {
            matches: vec![KeyMatch::Lpm(v as u64, len)],
            action: "ipv4_forward".into(),
            args: vec![0x0200_0000_0000 | i as u64, (i % 16) as u64],
            priority: None,
        },
    }
}

fn load(src: &str, engine: Engine) -> Result<Switch, String> {
    Switch::from_source_with(src, CompileOptions::with_engine(engine)).map_err(|e| e.to_string())
}

/// [`lpm`] on engine `engine`.
pub fn lpm_on(
    routes: usize,
    npkts: usize,
    engine: Engine,
) -> Result<(Switch, Vec<Vec<u8>>), String> {
    if routes == 0 {
        return Err("the LPM benchmark needs at least one route (--routes 1 or more)".into());
    }
    let sw = load(LPM_P4, engine)?;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut ops = Vec::new();
    let mut prefixes = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while prefixes.len() < routes {
        let len = 8 + (rng.next() % 25) as u32;
        let v = (rng.next() as u32) & (!0u32 << (32 - len));
        if !seen.insert((v, len)) {
            continue;
        }
        prefixes.push((v, len));
        ops.push(ControlOp::Insert {
            table: "ipv4_lpm".into(),
            entry: TableEntry {
                matches: vec![KeyMatch::Lpm(v as u64, len)],
                action: "ipv4_forward".into(),
                args: vec![
                    0x0200_0000_0000 | prefixes.len() as u64,
                    (prefixes.len() % 16) as u64,
                ],
                priority: None,
            },
        });
    }
    sw.apply_batch(&ops).map_err(|e| e.to_string())?;
    let mut pkts = Vec::new();
    for _ in 0..npkts {
        let (v, len) = prefixes[(rng.next() % routes.max(1) as u64) as usize];
        let host = if len == 32 {
            0
        } else {
            rng.next() as u32 & (u32::MAX >> len)
        };
        pkts.push(frame64(0x0102_0304, v | host, 17, 1000, 2000));
    }
    Ok((sw, pkts))
}

/// The worker of `n` that handles `frame` (flow-hash dispatch for `--workers`): a symmetric
/// hash of the IPv4 addresses, protocol and first four transport bytes (both directions of
/// a connection on the same worker), or of the whole frame when it is not IPv4 over
/// Ethernet. Every packet of a flow goes to one worker, so a flow's register
/// read-modify-write sequences run in packet order; registers and counters themselves are
/// shared atomics, so counts from all workers add up exactly.
pub fn flow_worker(frame: &[u8], n: usize) -> usize {
    if n <= 1 {
        return 0;
    }
    let word = |o: usize| -> u64 {
        frame
            .get(o..o + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as u64)
            .unwrap_or(0)
    };
    let h = if frame.len() >= 34 && frame[12] == 0x08 && frame[13] == 0x00 {
        let ihl = (frame[14] & 0x0f) as usize * 4;
        let ports = word(14 + ihl);
        let (sp, dp) = (ports >> 16, ports & 0xffff);
        (word(26) ^ word(30)) ^ ((sp ^ dp) << 32) ^ ((frame[23] as u64) << 48)
    } else {
        frame.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ b as u64).wrapping_mul(0x1000_0000_01b3)
        })
    };
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize % n
}
