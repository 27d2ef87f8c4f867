//! Generator properties: determinism, valid checksums, TCP structure, payloads, pcap files.

use std::collections::HashMap;

use tandem_traffic::{generate, write_trace, GenOptions, Plan, TracePacket, TraceReader, Workload};

fn wl(name: &str) -> Workload {
    Workload::builtin(name).unwrap().unwrap()
}

fn opts(plan: Plan, flows: u64, seed: u64) -> GenOptions {
    GenOptions {
        flows,
        seed,
        plan,
        ..GenOptions::default()
    }
}

/// One's-complement sum of 16-bit words.
fn csum(data: &[u8], mut acc: u32) -> u32 {
    let mut chunks = data.chunks_exact(2);
    for c in &mut chunks {
        acc += u32::from(u16::from_be_bytes([c[0], c[1]]));
    }
    if let [b] = chunks.remainder() {
        acc += u32::from(*b) << 8;
    }
    acc
}

fn fold(mut acc: u32) -> u16 {
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    acc as u16
}

/// Verifies the IPv4 header checksum and the TCP/UDP checksum by recomputation.
fn check_packet(p: &TracePacket) -> Result<(), String> {
    check_frame(&p.data)
}

/// An IPv4 frame with valid checksums; an 802.1Q-tagged one is checked without its tag, and
/// a VXLAN one (UDP to 4789, checksum 0 as RFC 7348 allows) also checks its inner frame.
fn check_frame(d: &[u8]) -> Result<(), String> {
    if d.len() >= 18 && d[12..14] == [0x81, 0x00] {
        let mut untagged = d[..12].to_vec();
        untagged.extend_from_slice(&d[16..]);
        return check_frame(&untagged);
    }
    if d.len() >= 50 && d[12..14] == [0x08, 0x00] && d[23] == 17 && d[36..38] == [0x12, 0xb5] {
        if d[40..42] != [0, 0] {
            return Err("VXLAN outer UDP checksum not 0".into());
        }
        return check_frame(&d[50..]);
    }
    if d.len() < 34 || d[12..14] != [0x08, 0x00] {
        return Err("not IPv4".into());
    }
    let ihl = usize::from(d[14] & 0x0f) * 4;
    let ip = &d[14..14 + ihl];
    if fold(csum(ip, 0)) != 0xffff {
        return Err("bad IPv4 header checksum".into());
    }
    let total = usize::from(u16::from_be_bytes([ip[2], ip[3]]));
    if total + 14 != d.len() {
        return Err(format!("IPv4 total length {total} vs frame {}", d.len()));
    }
    let l4 = &d[14 + ihl..];
    let proto = ip[9];
    let mut pseudo = Vec::new();
    pseudo.extend_from_slice(&ip[12..20]);
    pseudo.extend_from_slice(&[0, proto]);
    pseudo.extend_from_slice(&(l4.len() as u16).to_be_bytes());
    if fold(csum(l4, csum(&pseudo, 0))) != 0xffff {
        return Err(format!("bad L4 checksum (proto {proto})"));
    }
    Ok(())
}

#[test]
fn same_seed_same_bytes_different_seed_different() {
    let w = wl("enterprise");
    let a = generate(&w, &opts(Plan::Nat, 300, 1)).unwrap();
    let b = generate(&w, &opts(Plan::Nat, 300, 1)).unwrap();
    let c = generate(&w, &opts(Plan::Nat, 300, 2)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);

    let dir = tempfile::tempdir().unwrap();
    let (p1, p2) = (dir.path().join("a.pcapng"), dir.path().join("b.pcapng"));
    let s1 = write_trace(&w, &opts(Plan::Lb, 200, 9), &p1, |_| {}).unwrap();
    write_trace(&w, &opts(Plan::Lb, 200, 9), &p2, |_| {}).unwrap();
    assert_eq!(std::fs::read(&p1).unwrap(), std::fs::read(&p2).unwrap());
    assert_eq!(s1.flows, 200);
    let back = TraceReader::read_all(&p1).unwrap();
    assert_eq!(back, generate(&w, &opts(Plan::Lb, 200, 9)).unwrap());
}

#[test]
fn every_packet_has_valid_checksums_and_timestamps_increase() {
    for plan in Plan::ALL {
        let o = GenOptions {
            max_flow_bytes: 200_000,
            ..opts(plan, 150, 3)
        };
        let pkts = generate(&wl("datamining"), &o).unwrap();
        assert!(pkts.len() > 1000, "{plan}: {}", pkts.len());
        for (i, p) in pkts.iter().enumerate() {
            check_packet(p).unwrap_or_else(|e| panic!("{plan}: packet {i}: {e}"));
            // 1514 bytes, plus a VLAN tag or a VXLAN encapsulation (50 bytes).
            assert!(p.data.len() <= 1514 + 50);
            assert!(p.port <= 1);
            if i > 0 {
                assert!(
                    p.ts_ns > pkts[i - 1].ts_ns,
                    "{plan}: packet {i} not after {}",
                    i - 1
                );
            }
        }
    }
}

struct Seg {
    port: u32,
    flags: u8,
    seq: u32,
    ack: u32,
    len: usize,
}

/// Groups TCP packets by bidirectional 5-tuple.
fn tcp_flows(pkts: &[TracePacket]) -> HashMap<([u8; 6], [u8; 6]), Vec<Seg>> {
    let mut m: HashMap<_, Vec<Seg>> = HashMap::new();
    for p in pkts {
        let d = &p.data;
        if d[23] != 6 {
            continue;
        }
        let ihl = usize::from(d[14] & 0x0f) * 4;
        let t = &d[14 + ihl..];
        let a: [u8; 6] = [d[26], d[27], d[28], d[29], t[0], t[1]];
        let b: [u8; 6] = [d[30], d[31], d[32], d[33], t[2], t[3]];
        let key = if a < b { (a, b) } else { (b, a) };
        let doff = usize::from(t[12] >> 4) * 4;
        m.entry(key).or_default().push(Seg {
            port: p.port,
            flags: t[13],
            seq: u32::from_be_bytes([t[4], t[5], t[6], t[7]]),
            ack: u32::from_be_bytes([t[8], t[9], t[10], t[11]]),
            len: t.len() - doff,
        });
    }
    m
}

#[test]
fn tcp_flows_have_handshake_data_and_teardown() {
    let o = GenOptions {
        rst_share: 0.3,
        udp_share: 0.0,
        ..opts(Plan::Plain, 200, 5)
    };
    let pkts = generate(&wl("enterprise"), &o).unwrap();
    let flows = tcp_flows(&pkts);
    assert_eq!(flows.len(), 200);
    let (mut fins, mut rsts) = (0, 0);
    for segs in flows.values() {
        // SYN from the client (port 0), SYN-ACK from the server, then the ACK.
        assert_eq!((segs[0].port, segs[0].flags), (0, 0x02));
        assert_eq!((segs[1].port, segs[1].flags), (1, 0x12));
        assert_eq!(segs[1].ack, segs[0].seq.wrapping_add(1));
        assert_eq!((segs[2].port, segs[2].flags & 0x17), (0, 0x10));
        assert_eq!(segs[2].ack, segs[1].seq.wrapping_add(1));
        // Sequence numbers: each side's data is contiguous.
        let mut next = [segs[0].seq.wrapping_add(1), segs[1].seq.wrapping_add(1)];
        let mut acked_by = [next[1], next[0]];
        for s in &segs[2..] {
            let side = s.port as usize;
            if s.len > 0 {
                assert_eq!(s.seq, next[side], "data is contiguous");
                next[side] = next[side].wrapping_add(s.len as u32);
            }
            // Acks never go backwards and never ack unsent data.
            let other = next[1 - side];
            assert!(s.ack.wrapping_sub(acked_by[side]) < 1 << 30);
            assert!(other.wrapping_sub(s.ack) < 1 << 30, "acks unsent data");
            acked_by[side] = s.ack;
            if s.flags & 0x01 != 0 {
                next[side] = next[side].wrapping_add(1);
            }
        }
        let last = segs.last().unwrap();
        if last.flags & 0x04 != 0 {
            rsts += 1;
        } else {
            fins += 1;
            let n = segs.len();
            assert_eq!(segs[n - 3].flags, 0x11);
            assert_eq!(segs[n - 2].flags, 0x11);
            assert_eq!(segs[n - 1].flags, 0x10);
            assert_eq!(segs[n - 1].ack, segs[n - 2].seq.wrapping_add(1));
        }
        assert!(segs.iter().any(|s| s.len > 0));
    }
    assert!(rsts > 30 && fins > 100, "rst {rsts} fin {fins}");
}

#[test]
fn concurrency_is_bounded_and_respected() {
    let o = GenOptions {
        concurrency: 10,
        max_flow_bytes: 100_000,
        ..opts(Plan::Plain, 100, 8)
    };
    let pkts = generate(&wl("websearch"), &o).unwrap();
    // Track open flows by first/last packet time.
    let mut span: HashMap<Vec<u8>, (u64, u64)> = HashMap::new();
    for p in &pkts {
        let d = &p.data;
        let ihl = usize::from(d[14] & 0x0f) * 4;
        let mut a = [&d[26..30], &d[14 + ihl..14 + ihl + 2]].concat();
        let mut b = [&d[30..34], &d[14 + ihl + 2..14 + ihl + 4]].concat();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        let key = [a, b, vec![d[23]]].concat();
        let e = span.entry(key).or_insert((p.ts_ns, p.ts_ns));
        e.1 = p.ts_ns;
    }
    assert_eq!(span.len(), 100);
    let mut events: Vec<(u64, i32)> = span
        .values()
        .flat_map(|&(a, b)| [(a, 1), (b, -1)])
        .collect();
    events.sort();
    let (mut open, mut max) = (0, 0);
    for (_, d) in events {
        open += d;
        max = max.max(open);
    }
    assert!((5..=10).contains(&max), "max concurrent {max}");
}

#[test]
fn endhosts_payloads_are_protocol_text() {
    let pkts = generate(&wl("enterprise"), &opts(Plan::Endhosts, 400, 4)).unwrap();
    let has = |needle: &[u8]| {
        pkts.iter()
            .any(|p| p.data.windows(needle.len()).any(|w| w == needle))
    };
    for needle in [
        &b"GET /"[..],
        b"HTTP/1.1 200 OK",
        b".html HTTP/1.1",
        b".zip HTTP/1.1",
        b".exe HTTP/1.1",
        b"RETR ",
        b"NICK ",
        b"JOIN #",
        b"SSH-2.0-",
        b"220 (vsFTPd",
    ] {
        assert!(
            has(needle),
            "no packet contains {:?}",
            String::from_utf8_lossy(needle)
        );
    }
    // Some hosts show the Trojan sequence: SSH, then an HTTP/FTP download, then IRC
    // (ordered by each connection's first packet).
    let mut seen = std::collections::HashSet::new();
    let mut state: HashMap<u8, u8> = HashMap::new();
    for p in pkts.iter().filter(|p| p.port == 0) {
        let d = &p.data;
        let ihl = usize::from(d[14] & 0x0f) * 4;
        let key = (d[26..38].to_vec(), d[14 + ihl..14 + ihl + 4].to_vec());
        if !seen.insert(key) {
            continue;
        }
        let dport = u16::from_be_bytes([d[14 + ihl + 2], d[14 + ihl + 3]]);
        let st = state.entry(d[29]).or_default();
        *st = match (*st, dport) {
            (0, 22) => 1,
            (1, 80 | 21) => 2,
            (2, 6667) => 3,
            (s, _) => s,
        };
    }
    let trojans = state.values().filter(|&&s| s == 3).count();
    assert!(trojans >= 3, "{trojans} hosts with SSH -> HTTP/FTP -> IRC");
    // Every client address is an internal host.
    for p in pkts.iter().filter(|p| p.port == 0) {
        assert_eq!(&p.data[26..29], &[10, 1, 0]);
    }
}

#[test]
fn lb_replies_come_from_the_service_address() {
    let pkts = generate(&wl("enterprise"), &opts(Plan::Lb, 200, 6)).unwrap();
    let vip = pkts
        .iter()
        .filter(|p| p.port == 1 && p.data[26..30] == [10, 100, 0, 1])
        .count();
    assert!(vip > 100);
    for p in &pkts {
        let (src, dst) = (&p.data[26..30], &p.data[30..34]);
        if p.port == 0 {
            assert_eq!(&dst[..3], &[10, 100, 0]);
        } else {
            assert_eq!(&src[..3], &[10, 100, 0]);
        }
    }
}

#[test]
fn invalid_options_are_errors() {
    let w = wl("cache");
    let e = generate(
        &w,
        &GenOptions {
            udp_share: 1.5,
            ..GenOptions::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("--udp-share"), "{e}");
    let e = generate(
        &w,
        &GenOptions {
            concurrency: 0,
            ..GenOptions::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("--concurrency"), "{e}");
    assert!("bogus".parse::<Plan>().is_err());
}

#[test]
fn tcpdump_reads_generated_traces() {
    // CI installs tcpdump (scripts/bootstrap.sh): there, a missing one fails the test.
    let ci = std::env::var_os("CI").is_some();
    let installed = std::process::Command::new("tcpdump")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        assert!(!ci, "tcpdump is not installed under CI");
        eprintln!("skipped: tcpdump is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.pcapng");
    let sum = write_trace(
        &wl("enterprise"),
        &opts(Plan::Endhosts, 100, 1),
        &path,
        |_| {},
    )
    .unwrap();
    let out = std::process::Command::new("tcpdump")
        .args(["-nn", "-r"])
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tcpdump failed: {stderr}");
    let lines = String::from_utf8_lossy(&out.stdout).lines().count() as u64;
    assert_eq!(lines, sum.packets, "{stderr}");
    assert!(!stderr.contains("truncated"), "{stderr}");
}

#[test]
fn edge_cases_zero_flows_few_flows_user_cdf_file() {
    let w = wl("cache");
    assert!(generate(&w, &opts(Plan::Plain, 0, 1)).unwrap().is_empty());
    // Fewer flows than slots.
    let pkts = generate(&w, &opts(Plan::Nat, 3, 1)).unwrap();
    let stats = tandem_traffic::TraceStats::compute(&pkts);
    assert_eq!(stats.flows(), 3);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.csv");
    std::fs::write(&path, "100,0\r\n1000,0.5\r\n5000,1\r\n").unwrap();
    let mine = Workload::resolve(path.to_str().unwrap()).unwrap();
    assert_eq!(mine.cdf.mean(), 0.5 * 550.0 + 0.5 * 3000.0);
    let o = GenOptions {
        udp_share: 0.0,
        ..opts(Plan::Plain, 50, 2)
    };
    let pkts = generate(&mine, &o).unwrap();
    // Every flow carries between 100 and 5000 bytes in its bulk message, so every flow has
    // at most ceil(5000 / 1460) + small data segments.
    let stats = tandem_traffic::TraceStats::compute(&pkts);
    assert_eq!(stats.tcp_flows, 50);
    assert!(stats.flow_packets_percentile(100.0).unwrap() < 40);
}

#[test]
fn flow_indices_name_each_packets_flow() {
    let o = opts(Plan::Lb, 60, 3);
    let plain = generate(&wl("enterprise"), &o).unwrap();
    let mut g = tandem_traffic::Generator::new(&wl("enterprise"), o).unwrap();
    let with: Vec<(u64, TracePacket)> = std::iter::from_fn(|| g.next_with_flow()).collect();
    assert_eq!(with.len(), plain.len());
    assert!(with.iter().zip(&plain).all(|((_, a), b)| a == b));
    // every flow index in 0..60 is used, and all packets of one index share one connection
    let mut conn: HashMap<u64, ([u8; 4], u16)> = HashMap::new();
    for (f, p) in &with {
        assert!(*f < 60);
        let d = &p.data;
        let (ip, port) = if p.port == 0 {
            (
                [d[26], d[27], d[28], d[29]],
                u16::from_be_bytes([d[34], d[35]]),
            )
        } else {
            (
                [d[30], d[31], d[32], d[33]],
                u16::from_be_bytes([d[36], d[37]]),
            )
        };
        assert_eq!(
            *conn.entry(*f).or_insert((ip, port)),
            (ip, port),
            "flow {f}"
        );
    }
    assert_eq!(conn.len(), 60);
}

/// Packets per (source, destination) IPv4 address pair, most popular first.
fn pair_counts(pkts: &[TracePacket]) -> Vec<u64> {
    let mut by: HashMap<[u8; 8], u64> = HashMap::new();
    for p in pkts {
        let d = &p.data;
        if d.len() >= 34 && d[12..14] == [0x08, 0x00] {
            let (a, b) = (&d[26..30], &d[30..34]);
            // Both directions of a pair count together.
            let mut k = [0u8; 8];
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            k[..4].copy_from_slice(lo);
            k[4..].copy_from_slice(hi);
            *by.entry(k).or_default() += 1;
        }
    }
    let mut v: Vec<u64> = by.into_values().collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

/// FNV-1a over every packet's time, port and bytes.
fn digest(pkts: &[TracePacket]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for p in pkts {
        for b in p
            .ts_ns
            .to_le_bytes()
            .iter()
            .chain(&p.port.to_le_bytes())
            .chain(&p.data)
        {
            h = (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

#[test]
fn zipf_popularity_concentrates_packets_on_few_address_pairs() {
    let w = wl("enterprise");
    let uniform = generate(&w, &opts(Plan::Plain, 400, 3)).unwrap();
    // Without the option the trace is the one the generator always made (frozen digest).
    assert_eq!(digest(&uniform), 10_052_036_327_137_321_094);
    let z = |alpha: f64, seed: u64| {
        generate(
            &w,
            &GenOptions {
                zipf: Some(alpha),
                ..opts(Plan::Plain, 400, seed)
            },
        )
        .unwrap()
    };
    let z11 = z(1.1, 3);
    assert_eq!(digest(&z11), digest(&z(1.1, 3)), "deterministic per seed");
    assert_ne!(digest(&z11), digest(&z(1.1, 4)));
    for p in &z11 {
        check_packet(p).unwrap();
    }
    let (u, h) = (pair_counts(&uniform), pair_counts(&z11));
    // Every flow has its own pair without the option; with it, popular pairs repeat.
    assert!(
        h.len() * 2 < u.len(),
        "pairs: zipf {} uniform {}",
        h.len(),
        u.len()
    );
    let top10 = |v: &[u64]| v.iter().take(10).sum::<u64>() as f64 / v.iter().sum::<u64>() as f64;
    assert!(
        top10(&h) > 1.2 * top10(&u),
        "top-10 share: zipf {:.3} uniform {:.3}",
        top10(&h),
        top10(&u)
    );
    // A larger exponent concentrates more.
    let z08 = pair_counts(&z(0.8, 3));
    assert!(
        z08.len() > h.len(),
        "pairs: α 0.8 {} α 1.1 {}",
        z08.len(),
        h.len()
    );
    for bad in [0.0, -1.0, f64::NAN, 11.0] {
        let o = GenOptions {
            zipf: Some(bad),
            ..opts(Plan::Plain, 10, 1)
        };
        let e = generate(&w, &o).unwrap_err().to_string();
        assert!(e.contains("--zipf"), "{e}");
    }
}
