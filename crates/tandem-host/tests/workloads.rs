//! The example middleboxes over generated workload traffic on the reference host.
//!
//! Each NF runs over the first N packets of a generated trace of the `enterprise` and the
//! `datamining` workload (address plan fitting the NF). NFs that translate addresses (NAT,
//! load balancer, proxy) run closed-loop: a [`ReplyRewriter`] rewrites the trace's reply
//! packets to the addresses the NF produced, as the real servers would answer. Every run
//! checks the NF's verdict on every packet against what the NF must do (for the firewall and
//! the Trojan detector with an independent model of the policy), and that every sent IPv4
//! packet has valid checksums.
//!
//! 100,000 packets per NF and workload: generation, the NF (compiled -O2 by clang) and the
//! checks take 1.5-4 s per run in a debug build, so the tests always run (about 15 s in
//! total on two cores). Each run prints its counts (`--nocapture`).
#![allow(clippy::print_stdout, clippy::print_stderr)] // test progress and figures go to the test log

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use tandem_host::{compile_native, BuildOptions, Host, NativeNf, NfConfig, RunSummary, Verdict};
use tandem_traffic::scenario::validate_checksums;
use tandem_traffic::{GenOptions, Generator, Plan, ReplyRewriter, TracePacket, Workload};

/// Packets per NF and workload.
const PACKETS: usize = 100_000;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn load(nf: &str) -> NativeNf {
    let src = repo_root().join(format!("examples/nfs/{nf}/{nf}.cc"));
    let cfg = NfConfig::load(&src.with_extension("toml")).unwrap();
    let opts = BuildOptions {
        cache_dir: std::env::temp_dir().join("tandem-test-cache-workloads"),
        ..BuildOptions::default()
    };
    let so = compile_native(&src, &opts).unwrap();
    NativeNf::load(&so, &cfg).unwrap()
}

/// The header fields the checks need, by offset (generated frames are plain IPv4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Tuple {
    src: [u8; 4],
    dst: [u8; 4],
    sport: u16,
    dport: u16,
    proto: u8,
}

struct Parsed<'a> {
    t: Tuple,
    flags: u8,
    payload: &'a [u8],
}

fn parse(f: &[u8]) -> Option<Parsed<'_>> {
    if f.len() < 34 || f[12..14] != [8, 0] {
        return None;
    }
    let ihl = usize::from(f[14] & 15) * 4;
    let l4 = 14 + ihl;
    let proto = f[23];
    let end = (14 + usize::from(u16::from_be_bytes([f[16], f[17]]))).min(f.len());
    let (hl, flags) = match proto {
        6 if f.len() >= l4 + 20 => (usize::from(f[l4 + 12] >> 4) * 4, f[l4 + 13]),
        17 if f.len() >= l4 + 8 => (8, 0),
        _ => return None,
    };
    Some(Parsed {
        t: Tuple {
            src: f[26..30].try_into().ok()?,
            dst: f[30..34].try_into().ok()?,
            sport: u16::from_be_bytes([f[l4], f[l4 + 1]]),
            dport: u16::from_be_bytes([f[l4 + 2], f[l4 + 3]]),
            proto,
        },
        flags,
        payload: f.get(l4 + hl..end).unwrap_or(&[]),
    })
}

/// Runs `nf` over `n` packets of `workload` under `plan`. `check` sees every packet: the
/// packet as generated, the packet as fed (after reply rewriting) and the verdict.
fn run(
    nf: &str,
    workload: &str,
    plan: Plan,
    n: usize,
    closed_loop: bool,
    mut check: impl FnMut(&TracePacket, &TracePacket, &Verdict),
) -> (RunSummary, Host) {
    let t0 = Instant::now();
    let wl = Workload::builtin(workload).unwrap().unwrap();
    let opts = GenOptions {
        flows: 1_000_000,
        seed: 7,
        plan,
        ..GenOptions::default()
    };
    let mut host = Host::new(load(nf));
    let mut rr = ReplyRewriter::new();
    let mut flows = HashSet::new();
    for orig in Generator::new(&wl, opts).unwrap().take(n) {
        let mut fed = orig.clone();
        if closed_loop {
            rr.rewrite(&mut fed);
        }
        let v = host.process(&fed).unwrap();
        if let Verdict::Send { frame, .. } = &v {
            if let Err(e) = validate_checksums(frame) {
                panic!("{nf}/{workload}: bad output at {} ns: {e}", fed.ts_ns);
            }
        }
        if closed_loop {
            let outs: Vec<(u32, &[u8])> = match &v {
                Verdict::Send { port, frame } => vec![(*port, frame.as_slice())],
                Verdict::Drop => Vec::new(),
            };
            rr.observe(&fed.data, fed.port, &outs);
        }
        if let Some(p) = parse(&orig.data) {
            let t = p.t;
            let key = if orig.port == 0 {
                t
            } else {
                Tuple {
                    src: t.dst,
                    dst: t.src,
                    sport: t.dport,
                    dport: t.sport,
                    proto: t.proto,
                }
            };
            flows.insert(key);
        }
        check(&orig, &fed, &v);
    }
    let s = host.summary();
    assert_eq!(s.packets_in, n as u64, "{nf}/{workload}: trace too short");
    eprintln!(
        "{nf:<12} {workload:<11} plan {:<8} packets {} (port 0: {}, port 1: {}), flows ~{}, out {} (port 0: {}, port 1: {}, port 2: {}), dropped {}, replies rewritten {}; {:.1} s",
        plan.name(),
        s.packets_in,
        s.in_per_port.get(&0).unwrap_or(&0),
        s.in_per_port.get(&1).unwrap_or(&0),
        flows.len(),
        s.packets_out,
        s.out_per_port.get(&0).unwrap_or(&0),
        s.out_per_port.get(&1).unwrap_or(&0),
        s.out_per_port.get(&2).unwrap_or(&0),
        s.dropped,
        rr.rewritten(),
        t0.elapsed().as_secs_f64()
    );
    (s, host)
}

fn entries(host: &mut Host, name: &str) -> usize {
    let st = host.dump_state().unwrap();
    st.as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap()["entries"]
        .as_array()
        .unwrap()
        .len()
}

fn sent(v: &Verdict) -> Option<(u32, Parsed<'_>)> {
    match v {
        Verdict::Send { port, frame } => {
            Some((*port, parse(frame).expect("an IPv4 TCP/UDP output")))
        }
        Verdict::Drop => None,
    }
}

// ---- MazuNAT ---------------------------------------------------------------------------------

fn mazunat(workload: &str, n: usize) {
    const EXT: [u8; 4] = [203, 0, 113, 1];
    let mut inside_flows = HashSet::new();
    let (s, mut host) = run("mazunat", workload, Plan::Nat, n, true, |orig, fed, v| {
        let p = parse(&orig.data).unwrap();
        let (port, out) =
            sent(v).unwrap_or_else(|| panic!("NAT dropped {:?} on port {}", p.t, fed.port));
        if orig.port == 0 {
            // Every inside packet leaves with the NAT's address and an allocated port.
            assert_eq!(port, 1);
            assert_eq!(out.t.src, EXT);
            assert!(out.t.sport >= 1024);
            assert_eq!((out.t.dst, out.t.dport), (p.t.dst, p.t.dport));
            inside_flows.insert(p.t);
        } else {
            // Every reply reaches the inside host exactly as the trace had it addressed.
            assert_eq!(port, 0);
            assert_eq!(out.t, p.t);
        }
    });
    assert_eq!(s.dropped, 0);
    assert_eq!(entries(&mut host, "int2ext"), inside_flows.len());
    assert_eq!(entries(&mut host, "ext2int"), inside_flows.len());
}

// ---- L4 load balancer ------------------------------------------------------------------------

fn l4lb(workload: &str, n: usize) {
    let backends: Vec<[u8; 4]> = (1..=4).map(|i| [10, 10, 0, i]).collect();
    let mut chosen: HashMap<Tuple, [u8; 4]> = HashMap::new();
    let (s, _) = run("l4lb", workload, Plan::Lb, n, true, |orig, _, v| {
        let p = parse(&orig.data).unwrap();
        let (port, out) = sent(v).expect("the load balancer drops nothing of this trace");
        if orig.port == 0 {
            assert_eq!(port, 1);
            assert!(backends.contains(&out.t.dst), "{:?}", out.t);
            // Affinity: every packet of a connection goes to the same backend.
            let b = *chosen.entry(p.t).or_insert(out.t.dst);
            assert_eq!(out.t.dst, b, "connection {:?} moved", p.t);
        } else {
            // Replies come back from the VIP, as the client expects.
            assert_eq!(port, 0);
            assert_eq!(out.t, p.t);
        }
    });
    assert_eq!(s.dropped, 0);
    let used: HashSet<_> = chosen.values().collect();
    assert_eq!(used.len(), 4, "all backends get connections");
}

// ---- Firewall ----------------------------------------------------------------------------------

/// The default firewall.toml policy: tcp 80, 443, 22 and udp 53, in either orientation
/// (the narrower rules name hosts that the `plain` plan never uses).
fn firewall_admits(t: &Tuple) -> bool {
    let svc = |proto: u8, port: u16| match proto {
        6 => [80, 443, 22].contains(&port),
        17 => port == 53,
        _ => false,
    };
    svc(t.proto, t.dport) || svc(t.proto, t.sport)
}

fn firewall(workload: &str, n: usize) {
    let mut expected_drops = 0;
    let (s, _) = run("firewall", workload, Plan::Plain, n, false, |orig, _, v| {
        let p = parse(&orig.data).unwrap();
        let admit = firewall_admits(&p.t);
        match v {
            Verdict::Send { port, frame } => {
                assert!(admit, "admitted {:?}", p.t);
                assert_eq!(*port, 1 - orig.port);
                assert_eq!(frame, &orig.data);
            }
            Verdict::Drop => {
                assert!(!admit, "dropped {:?}", p.t);
                expected_drops += 1;
            }
        }
    });
    assert_eq!(s.dropped, expected_drops);
    assert!(s.dropped > 0 && s.packets_out > 0);
}

// ---- Transparent proxy ---------------------------------------------------------------------------

fn proxy(workload: &str, n: usize) {
    const PROXY: [u8; 4] = [172, 31, 0, 1];
    let mut redirected = 0u64;
    let (s, _) = run("proxy", workload, Plan::Plain, n, true, |orig, _, v| {
        let p = parse(&orig.data).unwrap();
        let (port, out) = sent(v).expect("the proxy drops nothing of this trace");
        assert_eq!(port, 1 - orig.port);
        let web = p.t.proto == 6 && [80, 8080].contains(&p.t.dport);
        if orig.port == 0 && web {
            assert_eq!((out.t.dst, out.t.dport), (PROXY, 3128));
            assert_eq!((out.t.src, out.t.sport), (p.t.src, p.t.sport));
            redirected += 1;
        } else {
            // Everything else, and the proxy's replies after translation back, look exactly
            // like the original trace.
            assert_eq!(out.t, p.t);
        }
    });
    assert_eq!(s.dropped, 0);
    assert!(redirected > 0);
}

// ---- Stateful filter ---------------------------------------------------------------------------

fn statefilter(workload: &str, n: usize) {
    let (s, mut host) = run(
        "statefilter",
        workload,
        Plan::Plain,
        n,
        false,
        |orig, _, v| {
            let (port, _) = sent(v).unwrap_or_else(|| {
                let p = parse(&orig.data).unwrap();
                panic!("dropped a valid packet {:?} flags {:#x}", p.t, p.flags)
            });
            assert_eq!(port, 1 - orig.port);
        },
    );
    // Generated connections are all well-formed (handshake first, FIN/RST teardown, no
    // loss), UDP flows start at the client: nothing is invalid.
    assert_eq!(s.dropped, 0);
    let open = entries(&mut host, "conns");
    let tw = entries(&mut host, "time_wait");
    eprintln!("statefilter {workload}: {open} connections open, {tw} in time-wait at the end");
    assert!(tw > 0);
}

// ---- Trojan detector ---------------------------------------------------------------------------

/// An independent model of trojan.cc's policy.
#[derive(Default)]
struct TrojanModel {
    stage: BTreeMap<[u8; 4], u8>,
}

impl TrojanModel {
    fn wanted(name: &[u8]) -> bool {
        let l = name.to_ascii_lowercase();
        [".html", ".htm", ".zip", ".exe"]
            .iter()
            .any(|e| l.ends_with(e.as_bytes()))
    }

    fn token(b: &[u8], query: bool) -> &[u8] {
        let end = b
            .iter()
            .position(|c| matches!(c, b' ' | b'\r' | b'\n') || (query && matches!(c, b'?' | b'#')))
            .unwrap_or(b.len());
        &b[..end]
    }

    /// Returns whether the packet passes.
    fn packet(&mut self, port: u32, p: &Parsed) -> bool {
        let host = if port == 0 { p.t.src } else { p.t.dst };
        let st = self.stage.get(&host).copied().unwrap_or(0);
        if st == 3 {
            return false;
        }
        if p.t.proto != 6 {
            return true;
        }
        if port == 1 {
            if st == 0 && p.t.sport == 22 && p.flags & 0x12 == 0x12 {
                self.stage.insert(host, 1);
            }
            return true;
        }
        let pl = &p.payload[..p.payload.len().min(4096)];
        if st == 1 {
            let dl = if [80, 8080].contains(&p.t.dport) && pl.starts_with(b"GET ") {
                Self::wanted(Self::token(&pl[4..], true))
            } else if p.t.dport == 21 && pl.starts_with(b"RETR ") {
                Self::wanted(Self::token(&pl[5..], false))
            } else {
                false
            };
            if dl {
                self.stage.insert(host, 2);
            }
        } else if st == 2
            && (p.t.dport == 6667 || pl.starts_with(b"NICK ") || pl.starts_with(b"JOIN "))
        {
            self.stage.insert(host, 3);
            return false;
        }
        true
    }
}

fn trojan(workload: &str, n: usize) {
    let mut model = TrojanModel::default();
    let mut expected_drops = 0;
    let (s, mut host) = run(
        "trojan",
        workload,
        Plan::Endhosts,
        n,
        false,
        |orig, _, v| {
            let p = parse(&orig.data).unwrap();
            let pass = model.packet(orig.port, &p);
            match v {
                Verdict::Send { port, frame } => {
                    assert!(pass, "passed {:?} (port {})", p.t, orig.port);
                    assert_eq!(*port, 1 - orig.port);
                    assert_eq!(frame, &orig.data);
                }
                Verdict::Drop => {
                    assert!(!pass, "dropped {:?} (port {})", p.t, orig.port);
                    expected_drops += 1;
                }
            }
        },
    );
    assert_eq!(s.dropped, expected_drops);
    let flagged = model.stage.values().filter(|s| **s == 3).count();
    eprintln!(
        "trojan {workload}: hosts per stage {:?}",
        (1..=3)
            .map(|k| model.stage.values().filter(|s| **s == k).count())
            .collect::<Vec<_>>()
    );
    assert_eq!(entries(&mut host, "hosts"), model.stage.len());
    assert!(flagged > 0, "some hosts are flagged");
}

// ---- The tests ---------------------------------------------------------------------------------

macro_rules! workload_tests {
    ($($nf:ident: $test:ident;)*) => {$(
        #[test]
        fn $test() {
            $nf("enterprise", PACKETS);
            $nf("datamining", PACKETS);
        }
    )*};
}

workload_tests! {
    mazunat: mazunat_enterprise_and_datamining;
    l4lb: l4lb_enterprise_and_datamining;
    firewall: firewall_enterprise_and_datamining;
    proxy: proxy_enterprise_and_datamining;
    statefilter: statefilter_enterprise_and_datamining;
    trojan: trojan_enterprise_and_datamining;
}
