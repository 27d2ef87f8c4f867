//! A deterministic flow-level traffic generator.
//!
//! # Model
//! - **Flows.** `flows` flows; flow `k` draws everything (size, protocol, addresses, payload
//!   content) from its own ChaCha8 stream `k + 1` of the seed, so its content does not depend
//!   on scheduling. Sizes are sampled from the workload CDF (inverse CDF, linear
//!   interpolation) and capped at `max_flow_bytes` (default 1 MB; 0 = no cap) so heavy-tailed
//!   workloads give traces of manageable size.
//! - **Concurrency.** `concurrency` slots (default 100, as in the Gallium evaluation: 100
//!   threads, each running one connection at a time). A slot starts its next flow a short
//!   think time after its current flow's last packet. Packets of all slots are merged in time
//!   order (ties broken by slot number).
//! - **Timing.** Each flow has an RTT (the configured `rtt_ns` scaled by a per-flow factor in
//!   0.5..2) as seen from the NF, which sits between the two sides (each side is half an RTT
//!   round trip away). A sender paces segments at the fair share of the link
//!   (`link_rate_bps / concurrency`) and is limited by a congestion window (10 segments,
//!   doubling every RTT up to 1024; no losses). Timestamps in the output are strictly
//!   increasing (a packet is delayed by 1 ns when it would tie with the previous one).
//! - **TCP.** Three-way handshake (SYN with MSS, SACK-permitted and window-scale options;
//!   SYN-ACK; ACK), then a conversation of messages (requests and responses, both directions)
//!   cut into segments of at most `mss` bytes; the receiver sends a pure ACK every second
//!   segment and for a message's last segment unless its reply piggybacks it. Teardown is
//!   FIN/ACK, FIN/ACK, ACK or, for a `rst_share` of the flows, a single RST/ACK. Random
//!   initial sequence numbers, per-side IP id counters, per-host TTLs, DF set, Linux-like
//!   windows.
//! - **UDP.** A `udp_share` of the flows: DNS query/response (real DNS wire format) or a
//!   QUIC-like exchange (a 1200-byte client datagram, server datagrams carrying the flow size,
//!   a short client datagram at the end). No teardown.
//! - **Ports.** Packets sent by the client side arrive on port 0, packets sent by the server
//!   side on port 1 (pcapng interface ids).
//! - **Payloads** are real protocol text where the application has one: HTTP (port 80/8080)
//!   GET requests for `.html`, `.zip`, `.exe`, `.css`, `.png`, ... paths and HTTP responses
//!   with `Content-Length`; FTP control (port 21) with `USER`, `PASS`, `PASV`, `RETR <file>`;
//!   IRC (port 6667) with `NICK`, `USER`, `JOIN`, `PRIVMSG`; SSH (port 22) version banners
//!   followed by binary bytes; DNS (UDP 53). Other data is pseudo-random bytes from the flow's
//!   stream. FTP control and DNS flows ignore the sampled size (they are short exchanges).
//! - **Flow popularity** (`zipf`, off by default). With `zipf = Some(α)` each flow draws a
//!   rank `r` in `1..=flows` from a Zipf distribution of exponent α (`rand_distr::Zipf`, from
//!   the flow's own stream) and takes its addresses and server port from identity `r`'s own
//!   stream instead of its own: flows of one identity share their address pair, so the
//!   packets of the few popular address pairs dominate (rank `r` carries a share ∝ `r^-α`
//!   of the flows). Client ports, sizes and content stay per flow. Without the option no draw
//!   is added, so existing traces are unchanged.
//!
//! # Address plans
//! See [`Plan`].
//!
//! Same options and workload → byte-identical packets (and pcapng file).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

use etherparse::{
    EtherType, Ethernet2Header, IpNumber, Ipv4Header, TcpHeader, TcpOptionElement, UdpHeader,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::pcap::{TraceError, TracePacket, TraceWriter};
use crate::workload::{Cdf, Workload};

/// Port of packets sent by the client (inside) side.
pub const CLIENT_PORT: u32 = 0;
/// Port of packets sent by the server (outside) side.
pub const SERVER_PORT: u32 = 1;

/// The MAC address of the NF's port 0 (destination of client-side frames).
pub const NF_MAC_PORT0: [u8; 6] = [0x02, 0xff, 0, 0, 0, 0];
/// The MAC address of the NF's port 1 (destination of server-side frames).
pub const NF_MAC_PORT1: [u8; 6] = [0x02, 0xff, 0, 0, 0, 1];
/// The source MAC of server-side frames (the upstream router).
pub const UPSTREAM_MAC: [u8; 6] = [0x02, 0xfe, 0, 0, 0, 1];

/// The load balancer's virtual IP (plan `lb`).
pub const LB_VIP: [u8; 4] = [10, 100, 0, 1];

/// Address plans: which addresses and applications the flows use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plan {
    /// Generic two-sided traffic: clients in 192.168.0.0/16 (port 0) talk to servers in
    /// 172.16.0.0/12 (port 1). TCP ports: 80/8080 (HTTP), 443, 22, 3306, 5001, 6379, 9000;
    /// UDP: 53 (DNS), 443 (QUIC-like).
    Plain,
    /// NAT: inside clients in 10.0.0.0/16 (port 0) talk to outside servers in
    /// 198.51.100.0/24 and 203.0.113.0/24 (port 1); same application mix as `plain`.
    Nat,
    /// Load balancer: clients from 24 public /8s (port 0) talk to services; replies come
    /// back on port 1 from the service address. TCP: the VIP 10.100.0.1:80 (HTTP, 80% of TCP
    /// flows), 10.100.0.2:443 (15%), 10.100.0.3:22 (5%); UDP: 10.100.0.4:53 (DNS).
    Lb,
    /// End hosts (Trojan detector): 100 internal hosts 10.1.0.1–10.1.0.100 (port 0) talk to
    /// outside servers in 198.51.100.0/24, 203.0.113.0/24 and 192.0.2.0/24 (port 1). TCP:
    /// SSH 22 (20%), HTTP 80 (35%), FTP 21 (10%), IRC 6667 (10%), 443 (25%); UDP: DNS 53
    /// (80%), QUIC-like 443 (20%).
    Endhosts,
    /// Tenant traffic tunnelled through a VXLAN gateway ([`VXLAN_GATEWAY`]): the `nat` plan's
    /// flows, each frame inside outer Ethernet / IPv4 / UDP (destination port 4789, checksum
    /// 0, source port from the inner ports) / VXLAN (flags 0x08). A client in 10.0.c.0/24
    /// belongs to tenant `k = c / 64` (0..=3): its frames come from VTEP 192.0.2.(k+1) with
    /// VNI 5000+k; the servers' frames come from VTEP 198.18.0.1 (198.51.100.0/24) or
    /// 198.18.0.2 (203.0.113.0/24) with VNI 9000+k. Every outer destination is the gateway.
    Vxlan,
    /// A VLAN trunk: the `nat` plan's flows, the servers' frames (port 1, the trunk) carrying an
    /// 802.1Q tag with VLAN `100 + c / 64` for a client in 10.0.c.0/24, the clients' frames
    /// (port 0, the access side) untagged.
    Vlan,
    /// A cloud region of many tenants behind a Sailfish-style VXLAN gateway
    /// (`examples/nfs/xgw`): the `nat` plan's flows placed on tenants' VMs by Zipf
    /// popularity, to VMs of the same or a peered tenant or to the Internet (SNAT), a share
    /// in IPv6, inside VXLAN from the VMs' physical servers; see [`crate::xgw`] and
    /// [`GenOptions::xgw`].
    Xgw,
}

/// The VXLAN gateway's address (plan `vxlan`).
pub const VXLAN_GATEWAY: [u8; 4] = [100, 64, 0, 1];
/// VXLAN's UDP port.
pub const VXLAN_PORT: u16 = 4789;

impl Plan {
    pub const ALL: [Plan; 7] = [
        Plan::Plain,
        Plan::Nat,
        Plan::Lb,
        Plan::Endhosts,
        Plan::Vxlan,
        Plan::Vlan,
        Plan::Xgw,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Plan::Plain => "plain",
            Plan::Nat => "nat",
            Plan::Lb => "lb",
            Plan::Endhosts => "endhosts",
            Plan::Vxlan => "vxlan",
            Plan::Vlan => "vlan",
            Plan::Xgw => "xgw",
        }
    }

    /// One line describing the plan.
    pub fn description(self) -> &'static str {
        match self {
            Plan::Plain => "clients 192.168.0.0/16 (port 0) <-> servers 172.16.0.0/12 (port 1)",
            Plan::Nat => {
                "inside 10.0.0.0/16 (port 0) <-> outside 198.51.100.0/24, 203.0.113.0/24 (port 1)"
            }
            Plan::Lb => {
                "clients from many /8s (port 0) -> VIP 10.100.0.1:80 + 10.100.0.2:443, .3:22, .4:53/udp; replies on port 1"
            }
            Plan::Endhosts => {
                "hosts 10.1.0.1-100 (port 0) <-> outside servers (port 1): SSH, HTTP, FTP, IRC, DNS, 443"
            }
            Plan::Vlan => {
                "the nat plan's flows; the servers' frames (port 1, a trunk) tagged with VLAN 100 + c/64 for client 10.0.c.x"
            }
            Plan::Xgw => {
                "tenants' VMs (Zipf popularity) in VXLAN via gateway 100.64.0.1: same VPC, peered VPC or Internet (SNAT 100.65.0.1); --ipv6-share of flows IPv6"
            }
            Plan::Vxlan => {
                "the nat plan's flows inside VXLAN: tenant VTEPs 192.0.2.1-4 / VNI 5000-5003 (port 0) <-> 198.18.0.1-2 / VNI 9000-9003 (port 1), via gateway 100.64.0.1"
            }
        }
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Plan {
    type Err = GenError;
    fn from_str(s: &str) -> Result<Plan, GenError> {
        Plan::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| GenError::InvalidOption {
                name: "plan",
                reason: format!(
                    "unknown plan `{s}` (expected plain, nat, lb, endhosts, vxlan, vlan or xgw)"
                ),
            })
    }
}

/// Generator settings. `GenOptions::default()` gives the documented defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct GenOptions {
    /// Number of flows.
    pub flows: u64,
    pub seed: u64,
    pub plan: Plan,
    /// Concurrent connections (slots), each running one flow at a time.
    pub concurrency: u32,
    /// Share of UDP flows, 0..=1.
    pub udp_share: f64,
    /// Share of TCP flows torn down by RST instead of FIN, 0..=1.
    pub rst_share: f64,
    /// Share of generic TCP/SSH flows whose bulk data goes client → server, 0..=1.
    pub upload_share: f64,
    /// Link rate; each flow paces at `link_rate_bps / concurrency`.
    pub link_rate_bps: u64,
    /// Base round-trip time as seen from the NF.
    pub rtt_ns: u64,
    /// TCP maximum segment size (payload bytes), 64..=1460.
    pub mss: u16,
    /// Cap on a flow's sampled size in bytes (0 = no cap).
    pub max_flow_bytes: u64,
    /// Timestamp of the first flow's start.
    pub start_ns: u64,
    /// Zipf flow popularity: flows draw their address pair from `flows` identities with
    /// popularity ∝ rank^-α (module docs); `None`: every flow has its own.
    pub zipf: Option<f64>,
    /// The region and traffic mix of plan `xgw` (ignored by the other plans).
    pub xgw: crate::xgw::XgwOptions,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            flows: 1000,
            seed: 1,
            plan: Plan::Plain,
            concurrency: 100,
            udp_share: 0.1,
            rst_share: 0.1,
            upload_share: 0.2,
            link_rate_bps: 10_000_000_000,
            rtt_ns: 100_000,
            mss: 1460,
            max_flow_bytes: 1_000_000,
            start_ns: 0,
            zipf: None,
            xgw: crate::xgw::XgwOptions::default(),
        }
    }
}

impl GenOptions {
    /// Checks the ranges documented on the fields.
    pub fn validate(&self) -> Result<(), GenError> {
        let bad =
            |name: &'static str, reason: String| Err(GenError::InvalidOption { name, reason });
        for (name, v) in [
            ("udp-share", self.udp_share),
            ("rst-share", self.rst_share),
            ("upload-share", self.upload_share),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return bad(name, format!("{v} is outside 0..=1"));
            }
        }
        if self.concurrency == 0 {
            return bad("concurrency", "must be at least 1".into());
        }
        if self.link_rate_bps < 1_000_000 {
            return bad("link-rate", "must be at least 1 Mbit/s".into());
        }
        if !(64..=1460).contains(&self.mss) {
            return bad("mss", format!("{} is outside 64..=1460", self.mss));
        }
        if self.rtt_ns < 1000 {
            return bad("rtt", "must be at least 1 µs".into());
        }
        if let Some(a) = self.zipf {
            if !(a.is_finite() && a > 0.0 && a <= 10.0) {
                return bad("zipf", format!("{a} is outside (0, 10]"));
            }
        }
        Ok(())
    }
}

/// Errors of the generator.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error("invalid option --{name}: {reason}")]
    InvalidOption { name: &'static str, reason: String },
    #[error(transparent)]
    Trace(#[from] TraceError),
}

/// What [`write_trace`] wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenSummary {
    pub flows: u64,
    pub packets: u64,
    pub bytes: u64,
    /// Timestamp of the last packet.
    pub last_ts_ns: u64,
}

/// Generates the whole trace in memory.
pub fn generate(workload: &Workload, opts: &GenOptions) -> Result<Vec<TracePacket>, GenError> {
    Ok(Generator::new(workload, opts.clone())?.collect())
}

/// Generates the trace into a pcapng file (ports 0 and 1). `progress` is called with the
/// number of finished flows every 64 flows and at the end.
pub fn write_trace(
    workload: &Workload,
    opts: &GenOptions,
    path: impl AsRef<Path>,
    mut progress: impl FnMut(u64),
) -> Result<GenSummary, GenError> {
    let mut gen = Generator::new(workload, opts.clone())?;
    let mut w = TraceWriter::create(path, 2)?;
    let mut sum = GenSummary::default();
    let mut reported = 0;
    while let Some(p) = gen.next() {
        w.write(&p)?;
        sum.packets += 1;
        sum.bytes += p.data.len() as u64;
        sum.last_ts_ns = p.ts_ns;
        if gen.flows_finished() >= reported + 64 {
            reported = gen.flows_finished();
            progress(reported);
        }
    }
    w.finish()?;
    sum.flows = gen.flows_finished();
    progress(sum.flows);
    Ok(sum)
}

// ---------------------------------------------------------------------------------------
// Flows: conversations and their schedules.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filler {
    Random,
    Html,
    Irc,
}

#[derive(Clone, Debug)]
struct Msg {
    from_client: bool,
    prefix: Vec<u8>,
    filler: Filler,
    filler_len: u64,
    /// Application delay before the message starts (ns).
    think_ns: u64,
}

impl Msg {
    fn text(from_client: bool, s: impl Into<Vec<u8>>) -> Msg {
        Msg {
            from_client,
            prefix: s.into(),
            filler: Filler::Random,
            filler_len: 0,
            think_ns: 20_000,
        }
    }
    fn random(from_client: bool, len: u64) -> Msg {
        Msg {
            from_client,
            prefix: Vec::new(),
            filler: Filler::Random,
            filler_len: len.max(1),
            think_ns: 20_000,
        }
    }
    fn len(&self) -> u64 {
        self.prefix.len() as u64 + self.filler_len
    }
}

const FIN: u8 = 0x01;
const SYN: u8 = 0x02;
const RST: u8 = 0x04;
const PSH: u8 = 0x08;
const ACK: u8 = 0x10;

/// One scheduled packet of a flow (bytes are built when it is emitted).
#[derive(Clone, Copy, Debug)]
struct Sched {
    t: u64,
    from_client: bool,
    flags: u8,
    seq: u32,
    ack: u32,
    msg: u32,
    off: u64,
    len: u32,
}

#[derive(Clone, Copy, Debug)]
struct Side {
    ip: [u8; 4],
    port: u16,
    ttl: u8,
    ip_id: u16,
    syn_window: u16,
    window: u16,
    wscale: u8,
}

struct Flow {
    /// Index in order of start.
    id: u64,
    udp: bool,
    client: Side,
    server: Side,
    client_mac: [u8; 6],
    msgs: Vec<Msg>,
    filler_seed: u64,
    mss: u16,
    pkts: VecDeque<Sched>,
    end_t: u64,
    /// Frames go inside VXLAN (plan `vxlan`).
    vxlan: bool,
    /// The servers' frames carry an 802.1Q tag (plan `vlan`).
    vlan: bool,
}

/// Salt of the identities' streams (`zipf`), so they differ from the flows' streams.
const ZIPF_SALT: u64 = 0x5a49_5046_5a49_5046;

/// A Zipf-distributed rank in `1..=n` (exponent `alpha`, checked by `validate`).
fn zipf_rank(rng: &mut ChaCha8Rng, n: u64, alpha: f64) -> u64 {
    match rand_distr::Zipf::new(n.max(1), alpha) {
        Ok(z) => (rng.sample(z) as u64).clamp(1, n.max(1)),
        Err(_) => 1,
    }
}

/// The stream identity `rank` draws its addresses from.
fn identity_rng(opts: &GenOptions, rank: u64) -> ChaCha8Rng {
    let mut id = ChaCha8Rng::seed_from_u64(opts.seed ^ ZIPF_SALT);
    id.set_stream(rank);
    id
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn hash_ip(ip: [u8; 4]) -> u32 {
    let mut h = u32::from_be_bytes(ip).wrapping_mul(0x9e37_79b1);
    h ^= h >> 15;
    h.wrapping_mul(0x85eb_ca6b) ^ (h >> 13)
}

/// A per-host TTL: a common initial TTL minus a few hops (inside) or more hops (outside).
fn ttl_for(ip: [u8; 4], inside: bool) -> u8 {
    let h = hash_ip(ip);
    let base: u8 = [64, 64, 128, 255][(h % 4) as usize];
    let hops = if inside {
        (h >> 4) % 2
    } else {
        5 + (h >> 4) % 15
    };
    base - hops as u8
}

fn pick<'a, T>(rng: &mut ChaCha8Rng, items: &'a [T]) -> &'a T {
    &items[rng.gen_range(0..items.len())]
}

/// Picks from `(weight, item)` pairs.
fn weighted<T: Copy>(rng: &mut ChaCha8Rng, items: &[(u32, T)]) -> T {
    let total: u32 = items.iter().map(|(w, _)| w).sum();
    let mut x = rng.gen_range(0..total);
    for &(w, t) in items {
        if x < w {
            return t;
        }
        x -= w;
    }
    items[items.len() - 1].1
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum App {
    Http,
    Ftp,
    Ssh,
    Irc,
    GenericTcp,
    Dns,
    QuicLike,
}

const LB_CLIENT_NETS: [u8; 24] = [
    12, 24, 31, 36, 41, 45, 52, 61, 66, 73, 81, 89, 94, 101, 110, 118, 121, 139, 151, 163, 176,
    185, 195, 212,
];

fn endpoints(rng: &mut ChaCha8Rng, plan: Plan, udp: bool) -> ([u8; 4], [u8; 4], u16, App) {
    let host = |rng: &mut ChaCha8Rng| rng.gen_range(1..=254u8);
    let outside = |rng: &mut ChaCha8Rng, nets: &[[u8; 3]]| {
        let n = *pick(rng, nets);
        [n[0], n[1], n[2], rng.gen_range(1..=254u8)]
    };
    let generic_tcp: &[(u32, (u16, App))] = &[
        (25, (80, App::Http)),
        (5, (8080, App::Http)),
        (40, (443, App::GenericTcp)),
        (5, (22, App::Ssh)),
        (8, (3306, App::GenericTcp)),
        (7, (5001, App::GenericTcp)),
        (5, (6379, App::GenericTcp)),
        (5, (9000, App::GenericTcp)),
    ];
    let generic_udp: &[(u32, (u16, App))] = &[(60, (53, App::Dns)), (40, (443, App::QuicLike))];
    match plan {
        Plan::Plain | Plan::Nat | Plan::Vxlan | Plan::Vlan | Plan::Xgw => {
            let (client, server) = if plan == Plan::Plain {
                (
                    [192, 168, rng.gen(), host(rng)],
                    [172, rng.gen_range(16..=31), rng.gen(), host(rng)],
                )
            } else {
                (
                    [10, 0, rng.gen(), host(rng)],
                    outside(rng, &[[198, 51, 100], [203, 0, 113]]),
                )
            };
            let (port, app) = weighted(rng, if udp { generic_udp } else { generic_tcp });
            (client, server, port, app)
        }
        Plan::Lb => {
            let client = [*pick(rng, &LB_CLIENT_NETS), rng.gen(), rng.gen(), host(rng)];
            let (server, port, app) = if udp {
                ([10, 100, 0, 4], 53, App::Dns)
            } else {
                weighted(
                    rng,
                    &[
                        (80, (LB_VIP, 80, App::Http)),
                        (15, ([10, 100, 0, 2], 443, App::GenericTcp)),
                        (5, ([10, 100, 0, 3], 22, App::Ssh)),
                    ],
                )
            };
            (client, server, port, app)
        }
        Plan::Endhosts => {
            let client = [10, 1, 0, rng.gen_range(1..=100u8)];
            let server = outside(rng, &[[198, 51, 100], [203, 0, 113], [192, 0, 2]]);
            let (port, app) = if udp {
                weighted(rng, &[(80, (53, App::Dns)), (20, (443, App::QuicLike))])
            } else {
                weighted(
                    rng,
                    &[
                        (20, (22, App::Ssh)),
                        (35, (80, App::Http)),
                        (10, (21, App::Ftp)),
                        (10, (6667, App::Irc)),
                        (25, (443, App::GenericTcp)),
                    ],
                )
            };
            (client, server, port, app)
        }
    }
}

const WORDS: [&str; 24] = [
    "index", "about", "news", "setup", "update", "report", "photo", "style", "main", "data",
    "backup", "invoice", "readme", "release", "driver", "player", "logo", "banner", "archive",
    "tools", "patch", "video", "home", "docs",
];
const DIRS: [&str; 8] = [
    "",
    "static/",
    "files/",
    "downloads/",
    "img/",
    "pub/",
    "assets/",
    "blog/",
];
const DOMAINS: [&str; 8] = [
    "example.com",
    "example.net",
    "example.org",
    "test-site.com",
    "cdn-files.net",
    "mirror.org",
    "shop-online.com",
    "media-host.net",
];
const EXTS: [(u32, &str, &str, &[u8], Filler); 9] = [
    (
        25,
        "html",
        "text/html",
        b"<!DOCTYPE html>\n<html><head><title>Page</title></head><body>\n",
        Filler::Html,
    ),
    (
        12,
        "zip",
        "application/zip",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00",
        Filler::Random,
    ),
    (
        12,
        "exe",
        "application/x-msdownload",
        b"MZ\x90\x00\x03\x00\x00\x00\x04\x00",
        Filler::Random,
    ),
    (
        12,
        "css",
        "text/css",
        b"body { margin: 0; }\n",
        Filler::Html,
    ),
    (12, "png", "image/png", b"\x89PNG\r\n\x1a\n", Filler::Random),
    (
        10,
        "js",
        "application/javascript",
        b"\"use strict\";\n",
        Filler::Html,
    ),
    (
        8,
        "jpg",
        "image/jpeg",
        b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
        Filler::Random,
    ),
    (5, "pdf", "application/pdf", b"%PDF-1.7\n", Filler::Random),
    (4, "txt", "text/plain", b"", Filler::Html),
];
const USER_AGENTS: [&str; 4] = [
    "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Safari/537.36",
    "curl/7.81.0",
    "Wget/1.21.2",
];

fn file_name(rng: &mut ChaCha8Rng) -> (String, usize) {
    let i = {
        let total: u32 = EXTS.iter().map(|e| e.0).sum();
        let mut x = rng.gen_range(0..total);
        let mut idx = 0;
        for (k, e) in EXTS.iter().enumerate() {
            if x < e.0 {
                idx = k;
                break;
            }
            x -= e.0;
        }
        idx
    };
    let name = format!(
        "{}{}{}.{}",
        pick(rng, &DIRS),
        pick(rng, &WORDS),
        if rng.gen_bool(0.5) {
            rng.gen_range(1..100u32).to_string()
        } else {
            String::new()
        },
        EXTS[i].1
    );
    (name, i)
}

fn nick(rng: &mut ChaCha8Rng) -> String {
    format!(
        "{}{}",
        pick(
            rng,
            &["neo", "trin", "morph", "zed", "kilo", "vex", "luna", "byte"]
        ),
        rng.gen_range(1..1000u32)
    )
}

fn dns_name(rng: &mut ChaCha8Rng) -> String {
    format!(
        "{}.{}",
        pick(
            rng,
            &["www", "mail", "api", "cdn", "static", "login", "img", "ns1"]
        ),
        pick(rng, &DOMAINS)
    )
}

fn dns_query(id: u16, name: &str) -> Vec<u8> {
    let mut v = Vec::with_capacity(64);
    v.extend_from_slice(&id.to_be_bytes());
    v.extend_from_slice(&[0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]);
    for label in name.split('.') {
        v.push(label.len() as u8);
        v.extend_from_slice(label.as_bytes());
    }
    v.push(0);
    v.extend_from_slice(&[0, 1, 0, 1]);
    v
}

fn dns_response(id: u16, name: &str, addr: [u8; 4]) -> Vec<u8> {
    let mut v = dns_query(id, name);
    v[2] = 0x81;
    v[3] = 0x80;
    v[7] = 1; // ancount
    v.extend_from_slice(&[0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0x01, 0x2c, 0, 4]);
    v.extend_from_slice(&addr);
    v
}

/// The messages of a flow's conversation.
fn conversation(
    rng: &mut ChaCha8Rng,
    app: App,
    size: u64,
    upload: bool,
    server: [u8; 4],
) -> Vec<Msg> {
    match app {
        App::Http => {
            let (path, ext) = file_name(rng);
            let host = format!(
                "{}.{}",
                pick(rng, &["www", "files", "cdn"]),
                pick(rng, &DOMAINS)
            );
            let req = format!(
                "GET /{path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: {}\r\nAccept: */*\r\nConnection: close\r\n\r\n",
                pick(rng, &USER_AGENTS)
            );
            let (_, _, ctype, magic, filler) = EXTS[ext];
            let hdr_guess = 160;
            let body = size.saturating_sub(hdr_guess).max(magic.len() as u64);
            let mut resp = format!(
                "HTTP/1.1 200 OK\r\nServer: nginx/1.18.0\r\nContent-Type: {ctype}\r\nContent-Length: {body}\r\nConnection: close\r\n\r\n"
            )
            .into_bytes();
            resp.extend_from_slice(magic);
            vec![
                Msg::text(true, req),
                Msg {
                    from_client: false,
                    prefix: resp,
                    filler,
                    filler_len: body - magic.len() as u64,
                    think_ns: 50_000,
                },
            ]
        }
        App::Ftp => {
            let (file, _) = file_name(rng);
            let file = file.rsplit('/').next().unwrap_or("file.zip").to_owned();
            let user = pick(rng, &["anonymous", "ftp", "admin", "backup"]);
            let p = rng.gen_range(20_000..60_000u16);
            let s = server;
            let mut done = Msg::text(false, "226 Transfer complete.\r\n");
            done.think_ns = 100_000 + size.min(10_000_000) * 8; // the data connection's time
            vec![
                Msg::text(false, "220 (vsFTPd 3.0.5)\r\n"),
                Msg::text(true, format!("USER {user}\r\n")),
                Msg::text(false, "331 Please specify the password.\r\n"),
                Msg::text(true, "PASS guest@example.com\r\n"),
                Msg::text(false, "230 Login successful.\r\n"),
                Msg::text(true, "TYPE I\r\n"),
                Msg::text(false, "200 Switching to Binary mode.\r\n"),
                Msg::text(true, "PASV\r\n"),
                Msg::text(
                    false,
                    format!(
                        "227 Entering Passive Mode ({},{},{},{},{},{}).\r\n",
                        s[0],
                        s[1],
                        s[2],
                        s[3],
                        p >> 8,
                        p & 0xff
                    ),
                ),
                Msg::text(true, format!("RETR {file}\r\n")),
                Msg::text(
                    false,
                    format!(
                        "150 Opening BINARY mode data connection for {file} ({size} bytes).\r\n"
                    ),
                ),
                done,
                Msg::text(true, "QUIT\r\n"),
                Msg::text(false, "221 Goodbye.\r\n"),
            ]
        }
        App::Ssh => {
            let mut v = vec![
                Msg::text(true, "SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n"),
                Msg::text(false, "SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6\r\n"),
                Msg::random(true, rng.gen_range(1400..1600)),
                Msg::random(false, rng.gen_range(1000..1200)),
                Msg::random(true, rng.gen_range(40..120)),
                Msg::random(false, rng.gen_range(500..700)),
            ];
            v.push(Msg::random(upload, size));
            v.push(Msg::random(!upload, rng.gen_range(36..100)));
            v
        }
        App::Irc => {
            let me = nick(rng);
            let chan = pick(
                rng,
                &["#linux", "#botnet", "#chat", "#rust", "#warez", "#news"],
            );
            vec![
                Msg::text(true, format!("NICK {me}\r\nUSER {me} 0 * :{me}\r\n")),
                Msg::text(
                    false,
                    format!(
                        ":irc.example.net 001 {me} :Welcome to the Internet Relay Network {me}\r\n"
                    ),
                ),
                Msg::text(true, format!("JOIN {chan}\r\n")),
                Msg {
                    from_client: false,
                    prefix: format!(":{me}!~{me}@host JOIN {chan}\r\n").into_bytes(),
                    filler: Filler::Irc,
                    filler_len: size.min(64 * 1024),
                    think_ns: 20_000,
                },
                Msg::text(true, format!("PRIVMSG {chan} :hello all\r\n")),
                Msg::text(true, "QUIT :bye\r\n"),
            ]
        }
        App::GenericTcp => {
            if upload {
                vec![
                    Msg::random(true, size),
                    Msg::random(false, rng.gen_range(32..300)),
                ]
            } else {
                vec![
                    Msg::random(true, rng.gen_range(64..600)),
                    Msg::random(false, size),
                ]
            }
        }
        App::Dns => {
            let id = rng.gen();
            let name = dns_name(rng);
            let addr = [93, 184, rng.gen(), rng.gen_range(1..=254)];
            vec![
                Msg::text(true, dns_query(id, &name)),
                Msg::text(false, dns_response(id, &name, addr)),
            ]
        }
        App::QuicLike => vec![
            Msg::random(true, 1200),
            Msg::random(false, size),
            Msg::random(true, rng.gen_range(30..60)),
        ],
    }
}

const HTML_TEXT: &[u8] = b"<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p>\n<div class=\"item\"><a href=\"/news/item.html\">Read more</a></div>\n";
const IRC_TEXT: &[u8] = b":kilo42!~kilo@198.51.100.7 PRIVMSG #chat :anyone tried the new release?\r\n:zed7!~zed@203.0.113.9 PRIVMSG #chat :yes, works fine here\r\n:luna3!~luna@192.0.2.44 PRIVMSG #chat :see the changelog\r\n";

impl Flow {
    /// Builds flow `k` (scheduled from `t0`).
    fn new(k: u64, t0: u64, cdf: &Cdf, opts: &GenOptions) -> Flow {
        let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
        rng.set_stream(k + 1);
        let mut size = cdf.sample_bytes(rng.gen::<f64>());
        if opts.max_flow_bytes > 0 {
            size = size.min(opts.max_flow_bytes);
        }
        let udp = rng.gen_bool(opts.udp_share);
        let rst = rng.gen_bool(opts.rst_share);
        let upload = rng.gen_bool(opts.upload_share);
        let (cip, sip, sport, app) = match opts.zipf {
            None => endpoints(&mut rng, opts.plan, udp),
            Some(alpha) => {
                let mut id = identity_rng(opts, zipf_rank(&mut rng, opts.flows, alpha));
                endpoints(&mut id, opts.plan, udp)
            }
        };
        let side = |rng: &mut ChaCha8Rng, ip: [u8; 4], port: u16, inside: bool| Side {
            ip,
            port,
            ttl: ttl_for(ip, inside),
            ip_id: rng.gen(),
            syn_window: *pick(rng, &[64240, 65535, 29200]),
            window: rng.gen_range(250..2100),
            wscale: rng.gen_range(7..=9),
        };
        let cport = rng.gen_range(32768..=60999);
        let client = side(&mut rng, cip, cport, true);
        let server = side(&mut rng, sip, sport, false);
        let msgs = conversation(&mut rng, app, size, upload, sip);
        let filler_seed = rng.gen();
        let mut flow = Flow {
            id: k,
            udp,
            client,
            server,
            client_mac: [0x02, 0x00, cip[0], cip[1], cip[2], cip[3]],
            msgs,
            filler_seed,
            mss: opts.mss,
            pkts: VecDeque::new(),
            end_t: t0,
            vxlan: opts.plan == Plan::Vxlan,
            vlan: opts.plan == Plan::Vlan,
        };
        let rtt = ((opts.rtt_ns as f64) * rng.gen_range(0.5..2.0)) as u64;
        let rate = (opts.link_rate_bps / u64::from(opts.concurrency)).max(1);
        let mut isn_c: u32 = rng.gen();
        let mut isn_s: u32 = rng.gen();
        let closer_is_client = rng.gen_bool(0.5);
        flow.schedule(
            &mut rng,
            t0,
            rtt,
            rate,
            rst,
            closer_is_client,
            &mut isn_c,
            &mut isn_s,
        );
        flow
    }

    #[allow(clippy::too_many_arguments)]
    fn schedule(
        &mut self,
        rng: &mut ChaCha8Rng,
        t0: u64,
        rtt: u64,
        rate_bps: u64,
        rst: bool,
        closer_is_client: bool,
        c_next: &mut u32,
        s_next: &mut u32,
    ) {
        let half = rtt / 2;
        let mut out: Vec<Sched> = Vec::new();
        let pace = |payload: u64| -> u64 {
            let wire = (payload + 54 + 24) * 8; // headers + preamble/IFG/FCS
            (wire * 1_000_000_000 / rate_bps).max(1)
        };
        let none = |t, from_client, flags, seq, ack| Sched {
            t,
            from_client,
            flags,
            seq,
            ack,
            msg: 0,
            off: 0,
            len: 0,
        };
        let mut t = t0;
        if !self.udp {
            // Handshake.
            out.push(none(t, true, SYN, *c_next, 0));
            *c_next = c_next.wrapping_add(1);
            t += half;
            out.push(none(t, false, SYN | ACK, *s_next, *c_next));
            *s_next = s_next.wrapping_add(1);
            t += half;
            out.push(none(t, true, ACK, *c_next, *s_next));
        }
        let seg_max = if self.udp {
            u64::from(self.mss) + 12
        } else {
            u64::from(self.mss)
        };
        let mut cwnd = [10u64; 2];
        let mut last_from: Option<bool> = if self.udp { None } else { Some(true) };
        let mut last_t = t;
        for (mi, msg) in self.msgs.iter().enumerate() {
            let fc = msg.from_client;
            let think = msg.think_ns / 2 + rng.gen_range(0..=msg.think_ns);
            let start = match last_from {
                Some(prev) if prev != fc => last_t + half + think,
                Some(_) => last_t + pace(seg_max) + think / 4,
                None => last_t,
            };
            let len = msg.len();
            let mut off = 0u64;
            let mut ts = start;
            let mut win_start = start;
            let mut in_win = 0u64;
            let mut unacked = 0u32;
            let ci = usize::from(!fc);
            let mut first = true;
            while off < len {
                let l = (len - off).min(seg_max);
                if !first {
                    ts += pace(l);
                }
                if in_win == cwnd[ci] {
                    ts = ts.max(win_start + rtt);
                    win_start = ts;
                    in_win = 0;
                    cwnd[ci] = (cwnd[ci] * 2).min(1024);
                }
                first = false;
                in_win += 1;
                let (seq, ack) = if fc {
                    (*c_next, *s_next)
                } else {
                    (*s_next, *c_next)
                };
                let last_seg = off + l == len;
                let flags = if self.udp {
                    0
                } else if last_seg {
                    ACK | PSH
                } else {
                    ACK
                };
                out.push(Sched {
                    t: ts,
                    from_client: fc,
                    flags,
                    seq,
                    ack,
                    msg: mi as u32,
                    off,
                    len: l as u32,
                });
                if !self.udp {
                    let next = if fc { &mut *c_next } else { &mut *s_next };
                    *next = next.wrapping_add(l as u32);
                    unacked += 1;
                    let reply_follows = self.msgs.get(mi + 1).is_some_and(|m| m.from_client != fc);
                    if unacked == 2 || (last_seg && !reply_follows) {
                        let (aseq, aack) = if fc {
                            (*s_next, *c_next)
                        } else {
                            (*c_next, *s_next)
                        };
                        out.push(none(ts + half, !fc, ACK, aseq, aack));
                        unacked = 0;
                    }
                }
                off += l;
            }
            last_from = Some(fc);
            last_t = ts;
        }
        if !self.udp {
            let last_sender = last_from.unwrap_or(true);
            let closer = closer_is_client;
            let mut tc = if closer == last_sender {
                last_t + half + rng.gen_range(1_000..20_000)
            } else {
                last_t + half + rng.gen_range(10_000..50_000)
            };
            let (cn, sn) = (*c_next, *s_next);
            let (closer_seq, other_seq) = if closer { (cn, sn) } else { (sn, cn) };
            if rst {
                out.push(none(tc, closer, RST | ACK, closer_seq, other_seq));
            } else {
                out.push(none(tc, closer, FIN | ACK, closer_seq, other_seq));
                tc += half;
                out.push(none(
                    tc,
                    !closer,
                    FIN | ACK,
                    other_seq,
                    closer_seq.wrapping_add(1),
                ));
                tc += half;
                out.push(none(
                    tc,
                    closer,
                    ACK,
                    closer_seq.wrapping_add(1),
                    other_seq.wrapping_add(1),
                ));
            }
        }
        out.sort_by_key(|s| s.t);
        self.end_t = out.last().map_or(t0, |s| s.t);
        self.pkts = out.into();
    }

    fn fill(&self, msg: u32, off: u64, len: u32, buf: &mut Vec<u8>) {
        let m = &self.msgs[msg as usize];
        let end = off + u64::from(len);
        let plen = m.prefix.len() as u64;
        if off < plen {
            buf.extend_from_slice(&m.prefix[off as usize..end.min(plen) as usize]);
        }
        if end <= plen {
            return;
        }
        let fstart = off.max(plen) - plen;
        let flen = (end - plen - fstart) as usize;
        match m.filler {
            Filler::Html | Filler::Irc => {
                let text = if m.filler == Filler::Html {
                    HTML_TEXT
                } else {
                    IRC_TEXT
                };
                let mut i = (fstart % text.len() as u64) as usize;
                for _ in 0..flen {
                    buf.push(text[i]);
                    i = (i + 1) % text.len();
                }
            }
            Filler::Random => {
                // Word `i` of the message's filler is splitmix64(seed, msg, i): random access
                // by offset, cheap even in unoptimised builds.
                let base = self.filler_seed ^ (u64::from(msg) << 48);
                let mut word = fstart / 8;
                let mut skip = (fstart % 8) as usize;
                let mut left = flen;
                while left > 0 {
                    let bytes = splitmix64(base.wrapping_add(word)).to_le_bytes();
                    let take = (8 - skip).min(left);
                    buf.extend_from_slice(&bytes[skip..skip + take]);
                    left -= take;
                    skip = 0;
                    word += 1;
                }
            }
        }
    }

    /// Builds the frame of scheduled packet `s`.
    fn build(&mut self, s: &Sched) -> Vec<u8> {
        let mut payload = Vec::with_capacity(s.len as usize);
        if s.len > 0 {
            self.fill(s.msg, s.off, s.len, &mut payload);
        }
        let (src, dst) = if s.from_client {
            (&mut self.client, self.server)
        } else {
            (&mut self.server, self.client)
        };
        let (smac, dmac) = if s.from_client {
            (self.client_mac, NF_MAC_PORT0)
        } else {
            (UPSTREAM_MAC, NF_MAC_PORT1)
        };
        let eth = Ethernet2Header {
            source: smac,
            destination: dmac,
            ether_type: EtherType::IPV4,
        };
        let ip_id = src.ip_id;
        src.ip_id = src.ip_id.wrapping_add(1);
        let src = *src;
        let mut out = Vec::with_capacity(64 + payload.len());
        let ip_header = |proto: IpNumber, l4_len: usize| {
            // l4_len is at most 60 + 1472, so it always fits.
            let mut ip =
                Ipv4Header::new(l4_len as u16, src.ttl, proto, src.ip, dst.ip).unwrap_or_default();
            ip.identification = ip_id;
            ip.dont_fragment = proto == IpNumber::TCP;
            ip.header_checksum = ip.calc_header_checksum();
            ip
        };
        // Writing to a Vec cannot fail.
        let _ = eth.write(&mut out);
        if self.udp {
            let ip = ip_header(IpNumber::UDP, 8 + payload.len());
            let mut udp = UdpHeader {
                source_port: src.port,
                destination_port: dst.port,
                length: (8 + payload.len()) as u16,
                checksum: 0,
            };
            udp.checksum = udp.calc_checksum_ipv4(&ip, &payload).unwrap_or_default();
            let _ = ip.write(&mut out);
            let _ = udp.write(&mut out);
        } else {
            let syn = s.flags & SYN != 0;
            let window = if syn { src.syn_window } else { src.window };
            let mut tcp = TcpHeader::new(src.port, dst.port, s.seq, window);
            tcp.acknowledgment_number = s.ack;
            tcp.fin = s.flags & FIN != 0;
            tcp.syn = syn;
            tcp.rst = s.flags & RST != 0;
            tcp.psh = s.flags & PSH != 0;
            tcp.ack = s.flags & ACK != 0;
            if syn {
                let _ = tcp.set_options(&[
                    TcpOptionElement::MaximumSegmentSize(self.mss),
                    TcpOptionElement::Noop,
                    TcpOptionElement::Noop,
                    TcpOptionElement::SelectiveAcknowledgementPermitted,
                    TcpOptionElement::Noop,
                    TcpOptionElement::WindowScale(src.wscale),
                ]);
            }
            let ip = ip_header(IpNumber::TCP, tcp.header_len() + payload.len());
            tcp.checksum = tcp.calc_checksum_ipv4(&ip, &payload).unwrap_or_default();
            let _ = ip.write(&mut out);
            let _ = tcp.write(&mut out);
        }
        out.extend_from_slice(&payload);
        if self.vxlan {
            return vxlan_wrap(
                &out,
                s.from_client,
                self.client.ip,
                self.server.ip,
                src.port,
            );
        }
        if self.vlan && !s.from_client {
            let vid = 100 + u16::from(self.client.ip[2] / 64);
            let mut tagged = Vec::with_capacity(out.len() + 4);
            tagged.extend_from_slice(&out[..12]);
            tagged.extend_from_slice(&[0x81, 0x00]);
            tagged.extend_from_slice(&vid.to_be_bytes());
            tagged.extend_from_slice(&out[12..]);
            return tagged;
        }
        out
    }
}

/// Wraps an inner frame in outer Ethernet / IPv4 / UDP / VXLAN as plan `vxlan` describes.
fn vxlan_wrap(
    inner: &[u8],
    from_client: bool,
    client: [u8; 4],
    server: [u8; 4],
    sport: u16,
) -> Vec<u8> {
    let tenant = client[2] / 64;
    let (vtep, vni, smac, dmac) = if from_client {
        (
            [192, 0, 2, tenant + 1],
            5000 + u32::from(tenant),
            [0x02, 0x00, 192, 0, 2, tenant + 1],
            NF_MAC_PORT0,
        )
    } else {
        let dc = if server[..3] == [198, 51, 100] { 1 } else { 2 };
        (
            [198, 18, 0, dc],
            9000 + u32::from(tenant),
            UPSTREAM_MAC,
            NF_MAC_PORT1,
        )
    };
    let udp_len = 8 + 8 + inner.len();
    let mut out = Vec::with_capacity(14 + 20 + udp_len);
    let eth = Ethernet2Header {
        source: smac,
        destination: dmac,
        ether_type: EtherType::IPV4,
    };
    let mut ip =
        Ipv4Header::new(udp_len as u16, 64, IpNumber::UDP, vtep, VXLAN_GATEWAY).unwrap_or_default();
    ip.header_checksum = ip.calc_header_checksum();
    let udp = UdpHeader {
        source_port: 49152 | (sport & 0x3fff),
        destination_port: VXLAN_PORT,
        length: udp_len as u16,
        checksum: 0,
    };
    // Writing to a Vec cannot fail.
    let _ = eth.write(&mut out);
    let _ = ip.write(&mut out);
    let _ = udp.write(&mut out);
    out.extend_from_slice(&[0x08, 0, 0, 0]);
    out.extend_from_slice(&(vni << 8).to_be_bytes());
    out.extend_from_slice(inner);
    out
}

// ---------------------------------------------------------------------------------------
// The merging generator.

/// A streaming generator: yields the trace's packets in timestamp order.
pub struct Generator {
    cdf: Cdf,
    opts: GenOptions,
    rng: ChaCha8Rng,
    next_flow: u64,
    finished: u64,
    slots: Vec<Option<Flow>>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    last_ts: Option<u64>,
    /// Plan `xgw`'s wrapping of inner frames.
    xgw: Option<crate::xgw::XgwWrap>,
}

impl Generator {
    pub fn new(workload: &Workload, opts: GenOptions) -> Result<Generator, GenError> {
        opts.validate()?;
        let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
        rng.set_stream(0);
        let n_slots = u64::from(opts.concurrency).min(opts.flows) as usize;
        let xgw = match opts.plan {
            Plan::Xgw => Some(crate::xgw::XgwWrap::new(&opts.xgw, opts.seed)?),
            _ => None,
        };
        let mut g = Generator {
            xgw,
            cdf: workload.cdf.clone(),
            opts,
            rng,
            next_flow: 0,
            finished: 0,
            slots: (0..n_slots).map(|_| None).collect(),
            heap: BinaryHeap::new(),
            last_ts: None,
        };
        for slot in 0..n_slots {
            let t0 = g.opts.start_ns + g.rng.gen_range(0..g.opts.rtt_ns * 10);
            g.start_flow(slot, t0);
        }
        Ok(g)
    }

    fn start_flow(&mut self, slot: usize, t0: u64) {
        if self.next_flow >= self.opts.flows {
            self.slots[slot] = None;
            return;
        }
        let flow = Flow::new(self.next_flow, t0, &self.cdf, &self.opts);
        self.next_flow += 1;
        if let Some(p) = flow.pkts.front() {
            self.heap.push(Reverse((p.t, slot as u32)));
        }
        self.slots[slot] = Some(flow);
    }

    /// Flows whose last packet has been yielded.
    pub fn flows_finished(&self) -> u64 {
        self.finished
    }

    /// Flows started so far.
    pub fn flows_started(&self) -> u64 {
        self.next_flow
    }
}

impl Generator {
    /// The next packet and the index of its flow (0-based, in order of flow start): what
    /// benchmarks need to relate each packet to its flow's size.
    pub fn next_with_flow(&mut self) -> Option<(u64, TracePacket)> {
        let Reverse((t, slot)) = self.heap.pop()?;
        let slot = slot as usize;
        let flow = self.slots[slot].as_mut()?;
        let flow_id = flow.id;
        let s = flow.pkts.pop_front()?;
        let mut data = flow.build(&s);
        if let Some(x) = self.xgw.as_mut() {
            data = x.wrap(flow_id, &data, s.from_client);
            if flow.pkts.is_empty() {
                x.finish(flow_id);
            }
        }
        let port = if s.from_client {
            CLIENT_PORT
        } else {
            SERVER_PORT
        };
        if let Some(next) = flow.pkts.front() {
            self.heap.push(Reverse((next.t, slot as u32)));
        } else {
            let end = flow.end_t;
            self.finished += 1;
            let gap = self.rng.gen_range(1_000..=2 * self.opts.rtt_ns);
            self.start_flow(slot, end + gap);
        }
        let ts = match self.last_ts {
            Some(last) => t.max(last + 1),
            None => t,
        };
        self.last_ts = Some(ts);
        Some((
            flow_id,
            TracePacket {
                ts_ns: ts,
                port,
                data,
            },
        ))
    }
}

impl Iterator for Generator {
    type Item = TracePacket;

    fn next(&mut self) -> Option<TracePacket> {
        self.next_with_flow().map(|(_, p)| p)
    }
}
