//! TCP options walked through the header pointer (`(uint8_t*)tcp + 20`, a run-time index):
//! the lifter turns each access into a frame access relative to the TCP header that the
//! server runs (`translate/header_bytes.rs`), the rest of the NF stays on the switch, and the
//! offloaded pair must rewrite exactly the bytes the native NF rewrites.

mod common;

use common::*;
use tandem_traffic::TracePacket;

/// A deterministic generator (xorshift) so the test needs no extra crate.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One Ethernet/IPv4/TCP frame with `opts` (padded to 4 bytes) after the fixed header and
/// correct checksums.
fn frame(src: [u8; 4], dst: [u8; 4], sport: u16, dport: u16, flags: u8, opts: &[u8]) -> Vec<u8> {
    let mut opts = opts.to_vec();
    while !opts.len().is_multiple_of(4) {
        opts.push(0);
    }
    let tcp_len = 20 + opts.len();
    let mut f = vec![2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x00];
    let total = (20 + tcp_len) as u16;
    let mut ip = vec![0x45, 0, 0, 0, 0, 1, 0x40, 0, 64, 6, 0, 0];
    ip[2..4].copy_from_slice(&total.to_be_bytes());
    ip.extend_from_slice(&src);
    ip.extend_from_slice(&dst);
    let c = csum(&ip, 0);
    ip[10..12].copy_from_slice(&c.to_be_bytes());
    let mut tcp = Vec::new();
    tcp.extend_from_slice(&sport.to_be_bytes());
    tcp.extend_from_slice(&dport.to_be_bytes());
    tcp.extend_from_slice(&[0, 0, 0x10, 0, 0, 0, 0, 0]);
    tcp.push(((tcp_len / 4) as u8) << 4);
    tcp.push(flags);
    tcp.extend_from_slice(&[0xff, 0xff, 0, 0, 0, 0]);
    tcp.extend_from_slice(&opts);
    let mut pseudo = Vec::new();
    pseudo.extend_from_slice(&src);
    pseudo.extend_from_slice(&dst);
    pseudo.extend_from_slice(&[0, 6]);
    pseudo.extend_from_slice(&(tcp_len as u16).to_be_bytes());
    let c = csum(&tcp, sum(&pseudo));
    tcp[16..18].copy_from_slice(&c.to_be_bytes());
    f.extend_from_slice(&ip);
    f.extend_from_slice(&tcp);
    f
}

fn sum(b: &[u8]) -> u32 {
    b.chunks(2)
        .map(|c| u32::from(c[0]) << 8 | u32::from(*c.get(1).unwrap_or(&0)))
        .sum()
}

fn csum(b: &[u8], init: u32) -> u16 {
    let mut s = init + sum(b);
    while s >> 16 != 0 {
        s = (s & 0xffff) + (s >> 16);
    }
    !(s as u16)
}

/// SYNs with MSS options in several layouts (first, after NOPs, after window scale, none,
/// malformed, truncated), SYN-ACKs, and plain data. Returns the trace and how many SYNs carry
/// a well-formed MSS above `max`.
fn trace_with_options(n: usize, max: u16) -> (Vec<TracePacket>, u64) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut pkts = Vec::new();
    let mut above = 0;
    for i in 0..n {
        let src = [10, 0, rng.below(4) as u8, 1 + rng.below(250) as u8];
        let dst = [93, 184, 216, 1 + rng.below(20) as u8];
        let sport = 1024 + rng.below(60000) as u16;
        let mss = [536u16, 1200, 1360, 1400, 1460, 8960][rng.below(6) as usize];
        let m = mss.to_be_bytes();
        let layouts: [(Vec<u8>, bool); 8] = [
            (vec![2, 4, m[0], m[1]], true),
            (
                vec![2, 4, m[0], m[1], 1, 3, 3, 7, 8, 10, 1, 2, 3, 4, 0, 0, 0, 0],
                true,
            ),
            (vec![1, 1, 2, 4, m[0], m[1], 4, 2], true),
            (vec![4, 2, 1, 3, 3, 7, 2, 4, m[0], m[1]], true),
            (vec![1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0], false),
            (vec![2, 3, m[0], m[1]], false),
            (vec![2], false),
            (vec![], false),
        ];
        let r = rng.below(100);
        let (data, port) = if r < 45 {
            let (opts, mss_ok) = &layouts[rng.below(8) as usize];
            if *mss_ok && mss > max {
                above += 1;
            }
            (frame(src, dst, sport, 443, 0x02, opts), 0)
        } else if r < 60 {
            let (opts, mss_ok) = &layouts[rng.below(8) as usize];
            if *mss_ok && mss > max {
                above += 1;
            }
            (frame(dst, src, 443, sport, 0x12, opts), 1)
        } else {
            (frame(src, dst, sport, 443, 0x10, &layouts[4].0), 0)
        };
        pkts.push(TracePacket {
            ts_ns: 1_000 * i as u64,
            port,
            data,
        });
    }
    (pkts, above)
}

fn bundle(module: &tandem_ir::Module) -> Bundle {
    compile_bundle(
        module,
        &tandem_partition::TargetProfile::builtin("tofino1").unwrap(),
        &tandem_partition::PartitionOptions::default(),
        &P4Options::default(),
        None,
    )
    .unwrap()
}

#[test]
fn mss_clamping_walks_tcp_options_on_the_server_and_matches_the_native_nf() {
    let src = test_nf("mss_clamp");
    let module = lift_file(&src);
    let text = tandem_ir::print_module(&module);
    assert!(
        text.contains("tandem.header_store.tcp"),
        "option bytes are written through the TCP header"
    );
    let (pkts, above) = trace_with_options(3000, 1360);
    assert!(above > 300, "{above} SYNs with an MSS above the limit");
    let r = check_native(
        &bundle(&module),
        native_file(&src),
        &mut pkts.into_iter(),
        None,
    );
    assert_passed("mss_clamp", &r);
    assert_eq!(
        r.reference_out.get(&2).copied(),
        Some(above),
        "every SYN with a well-formed MSS above the limit is clamped"
    );
    let share = r.offloaded.fast_path_share();
    assert!(
        share > 0.35,
        "data packets stay on the switch: fast path {:.1}%",
        share * 100.0
    );
}

/// Negative control: the same NF with its option accesses based at the IPv4 header instead of
/// the TCP header (20 bytes early) must be caught by the check.
#[test]
fn option_accesses_at_the_wrong_base_are_caught() {
    let src = test_nf("mss_clamp");
    let mut module = lift_file(&src);
    let mut moved = 0;
    let insts: Vec<tandem_ir::Inst> = module.process.insts.keys().collect();
    for i in insts {
        let Some(data) = module.process.insts.get_mut(i) else {
            continue;
        };
        if let tandem_ir::InstKind::Opaque { name, .. } = &mut data.kind {
            if let Some(rest) = name.strip_prefix("tandem.header_") {
                if let Some(op) = rest.strip_suffix(".tcp") {
                    *name = format!("tandem.header_{op}.ipv4");
                    moved += 1;
                }
            }
        }
    }
    assert!(moved >= 2, "{moved} option accesses");
    let (pkts, _) = trace_with_options(1500, 1360);
    let r = check_native(
        &bundle(&module),
        native_file(&src),
        &mut pkts.into_iter(),
        None,
    );
    assert!(!r.passed(), "a wrong option base must not pass");
    assert!(
        r.differing_packets > 50,
        "{} differing",
        r.differing_packets
    );
}
