//! Closed-loop reply translation: makes a fixed trace usable through NFs that rewrite
//! addresses (NAT, load balancer).
//!
//! A generated trace holds both directions of each connection with the *original* addresses:
//! the server's replies are addressed to the client's inside address (NAT) or come from the
//! VIP (load balancer). Behind a NAT the server really answers the NAT's external address and
//! port, and behind a load balancer the reply comes from the chosen backend. The
//! [`ReplyRewriter`] learns those translations from what the NF does with forward packets and
//! rewrites later reply packets of the trace to match.
//!
//! # Protocol
//! The runtime feeds trace packets to the NF one at a time. For each packet it
//! 1. calls [`ReplyRewriter::rewrite`] on the trace packet (this may change its addresses and
//!    ports), feeds the (possibly rewritten) packet to the NF, then
//! 2. calls [`ReplyRewriter::observe`] with the bytes it fed, the port it fed them on, and the
//!    NF's outputs `(port, frame)` for that packet.
//!
//! # Semantics
//! A 5-tuple is `(src ip, dst ip, src port, dst port, protocol)` of an IPv4 TCP or UDP packet
//! (one 802.1Q tag is allowed; non-first IPv4 fragments and everything else have none and are
//! ignored). `reverse` swaps source and destination.
//!
//! - **Learning** (`observe`): let `T` be the input's 5-tuple. If `T` is the result of an earlier
//!   reply rewrite, nothing is learned (replies never create mappings). Otherwise take the
//!   first output whose 5-tuple `T'` has the same protocol as `T`; if there is none (the NF
//!   dropped the packet or emitted something else) nothing changes. If `T' != T` the rewriter
//!   remembers `reverse(T) → reverse(T')`, replacing any earlier mapping for `reverse(T)`
//!   (last writer wins: a NAT that reallocates a port for a reused 5-tuple is followed). If
//!   `T' == T` (the NF did not translate) any mapping for `reverse(T)` is removed.
//! - **Rewriting** (`rewrite`): a packet whose 5-tuple equals a remembered `reverse(T)` gets the
//!   addresses and ports of `reverse(T')`; the IPv4 header checksum and the TCP/UDP checksum
//!   are updated incrementally (RFC 1624), so a packet with valid checksums stays valid (a UDP
//!   checksum of 0, "none", stays 0). Everything else in the frame (MACs, TTL, IP id,
//!   sequence numbers, payload) is unchanged. Packets of unknown flows pass unchanged.
//! - The rewriter is deterministic: its state depends only on the sequence of calls.
//!
//! For a NAT: the forward packet `(10.0.0.5:40000 → S:80)` leaves as `(E:1024 → S:80)`; the
//! rewriter learns `(S:80 → 10.0.0.5:40000) → (S:80 → E:1024)`, so the server's reply in the
//! trace reaches the NAT addressed to its external port, which the NAT translates back.
//! For a load balancer: `(C:5000 → VIP:80)` leaves as `(C:5000 → B:8080)`; replies
//! `(VIP:80 → C:5000)` are fed as `(B:8080 → C:5000)`, as the backend would send them.

use std::collections::{HashMap, HashSet};

use crate::pcap::TracePacket;

/// An IPv4 TCP/UDP 5-tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FiveTuple {
    pub src: [u8; 4],
    pub dst: [u8; 4],
    pub sport: u16,
    pub dport: u16,
    /// IP protocol number (6 = TCP, 17 = UDP).
    pub proto: u8,
}

impl FiveTuple {
    /// The 5-tuple of the other direction.
    pub fn reverse(self) -> FiveTuple {
        FiveTuple {
            src: self.dst,
            dst: self.src,
            sport: self.dport,
            dport: self.sport,
            proto: self.proto,
        }
    }

    /// The 5-tuple of an Ethernet frame (IPv4 TCP/UDP only, one VLAN tag allowed).
    pub fn of_frame(frame: &[u8]) -> Option<FiveTuple> {
        let l = locate(frame)?;
        let ip = &frame[l.ip..];
        let l4 = &frame[l.l4..];
        Some(FiveTuple {
            src: [ip[12], ip[13], ip[14], ip[15]],
            dst: [ip[16], ip[17], ip[18], ip[19]],
            sport: u16::from_be_bytes([l4[0], l4[1]]),
            dport: u16::from_be_bytes([l4[2], l4[3]]),
            proto: ip[9],
        })
    }
}

/// Offsets of the IPv4 header and the transport header of a frame.
struct Loc {
    ip: usize,
    l4: usize,
}

fn locate(frame: &[u8]) -> Option<Loc> {
    let mut off = 12;
    let mut ethertype = u16::from_be_bytes([*frame.get(off)?, *frame.get(off + 1)?]);
    off += 2;
    if ethertype == 0x8100 {
        ethertype = u16::from_be_bytes([*frame.get(off + 2)?, *frame.get(off + 3)?]);
        off += 4;
    }
    if ethertype != 0x0800 {
        return None;
    }
    let ip = frame.get(off..off + 20)?;
    if ip[0] >> 4 != 4 {
        return None;
    }
    let ihl = usize::from(ip[0] & 0x0f) * 4;
    // Non-first fragments carry no transport header.
    let frag_off = u16::from_be_bytes([ip[6], ip[7]]) & 0x1fff;
    if ihl < 20 || frag_off != 0 || !(ip[9] == 6 || ip[9] == 17) {
        return None;
    }
    let l4 = off + ihl;
    let need = if ip[9] == 6 { 18 } else { 8 }; // through the TCP checksum / UDP header
    frame.get(l4..l4 + need)?;
    Some(Loc { ip: off, l4 })
}

/// Adds the 16-bit words of `old` removed and `new` added to checksum `hc` (RFC 1624 eq. 3).
fn adjust(hc: u16, old: &[u8], new: &[u8]) -> u16 {
    let mut sum = u32::from(!hc);
    for c in old.chunks(2) {
        sum += u32::from(!u16::from_be_bytes([c[0], c[1]]));
    }
    for c in new.chunks(2) {
        sum += u32::from(u16::from_be_bytes([c[0], c[1]]));
    }
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// Rewrites `frame`'s addresses and ports from `from` to `to` with incremental checksum
/// updates. `frame` must have 5-tuple `from`.
fn apply(frame: &mut [u8], to: FiveTuple) -> bool {
    let Some(l) = locate(frame) else {
        return false;
    };
    let (ip, l4) = (l.ip, l.l4);
    let old_addrs: [u8; 8] = frame[ip + 12..ip + 20].try_into().unwrap_or_default();
    let old_ports: [u8; 4] = frame[l4..l4 + 4].try_into().unwrap_or_default();
    let mut new_addrs = [0u8; 8];
    new_addrs[..4].copy_from_slice(&to.src);
    new_addrs[4..].copy_from_slice(&to.dst);
    let mut new_ports = [0u8; 4];
    new_ports[..2].copy_from_slice(&to.sport.to_be_bytes());
    new_ports[2..].copy_from_slice(&to.dport.to_be_bytes());
    if old_addrs == new_addrs && old_ports == new_ports {
        return false;
    }
    // IPv4 header checksum.
    let hc = u16::from_be_bytes([frame[ip + 10], frame[ip + 11]]);
    let hc = adjust(hc, &old_addrs, &new_addrs);
    frame[ip + 10..ip + 12].copy_from_slice(&hc.to_be_bytes());
    frame[ip + 12..ip + 20].copy_from_slice(&new_addrs);
    // Transport checksum (covers the pseudo-header addresses and the ports).
    let ck = if frame[ip + 9] == 6 { l4 + 16 } else { l4 + 6 };
    let old_ck = u16::from_be_bytes([frame[ck], frame[ck + 1]]);
    let udp = frame[ip + 9] == 17;
    if !(udp && old_ck == 0) {
        let mut c = adjust(old_ck, &old_addrs, &new_addrs);
        c = adjust(c, &old_ports, &new_ports);
        if udp && c == 0 {
            c = 0xffff;
        }
        frame[ck..ck + 2].copy_from_slice(&c.to_be_bytes());
    }
    frame[l4..l4 + 4].copy_from_slice(&new_ports);
    true
}

/// Learns NF address translations and applies them to reply packets (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct ReplyRewriter {
    /// reverse(T) → reverse(T').
    map: HashMap<FiveTuple, FiveTuple>,
    /// 5-tuples produced by rewrites (their packets never create mappings).
    translated: HashSet<FiveTuple>,
    rewritten: u64,
}

impl ReplyRewriter {
    pub fn new() -> ReplyRewriter {
        ReplyRewriter::default()
    }

    /// Rewrites a reply packet of a known flow; returns whether the packet changed.
    pub fn rewrite(&mut self, pkt: &mut TracePacket) -> bool {
        let Some(t) = FiveTuple::of_frame(&pkt.data) else {
            return false;
        };
        let Some(&to) = self.map.get(&t) else {
            return false;
        };
        let changed = apply(&mut pkt.data, to);
        if changed {
            self.translated.insert(to);
            self.rewritten += 1;
        }
        changed
    }

    /// Learns from what the NF did with one input packet. `input_port` is not used for
    /// learning (it is part of the interface so that policies can depend on it later).
    pub fn observe(&mut self, input_before: &[u8], input_port: u32, outputs: &[(u32, &[u8])]) {
        let _ = input_port;
        let Some(t) = FiveTuple::of_frame(input_before) else {
            return;
        };
        if self.translated.contains(&t) {
            return;
        }
        let Some(t2) = outputs
            .iter()
            .filter_map(|(_, f)| FiveTuple::of_frame(f))
            .find(|o| o.proto == t.proto)
        else {
            return;
        };
        if t2 == t {
            self.map.remove(&t.reverse());
        } else {
            self.map.insert(t.reverse(), t2.reverse());
        }
    }

    /// The translation that would be applied to packets with 5-tuple `t`.
    pub fn lookup(&self, t: &FiveTuple) -> Option<FiveTuple> {
        self.map.get(t).copied()
    }

    /// Number of remembered translations.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Number of packets rewritten so far.
    pub fn rewritten(&self) -> u64 {
        self.rewritten
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{generate, GenOptions, Plan};
    use crate::workload::Workload;
    use etherparse::{PacketBuilder, SlicedPacket, TransportSlice};

    fn tcp(src: [u8; 4], sp: u16, dst: [u8; 4], dp: u16, payload: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        PacketBuilder::ethernet2([2, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 2])
            .ipv4(src, dst, 64)
            .tcp(sp, dp, 1000, 500)
            .ack(77)
            .write(&mut v, payload)
            .unwrap();
        v
    }

    fn udp(src: [u8; 4], sp: u16, dst: [u8; 4], dp: u16, payload: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        PacketBuilder::ethernet2([2, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 2])
            .ipv4(src, dst, 64)
            .udp(sp, dp)
            .write(&mut v, payload)
            .unwrap();
        v
    }

    /// Recomputes both checksums with etherparse and compares with the frame's.
    fn checksums_valid(frame: &[u8]) -> bool {
        let sp = SlicedPacket::from_ethernet(frame).unwrap();
        let Some(etherparse::NetSlice::Ipv4(ip)) = &sp.net else {
            return false;
        };
        let iph = ip.header().to_header();
        if iph.calc_header_checksum() != iph.header_checksum {
            return false;
        }
        let payload = ip.payload().payload;
        match &sp.transport {
            Some(TransportSlice::Tcp(t)) => {
                let h = t.to_header();
                h.calc_checksum_ipv4(&iph, t.payload()).unwrap() == h.checksum
            }
            Some(TransportSlice::Udp(u)) => {
                let h = u.to_header();
                h.checksum == 0 || h.calc_checksum_ipv4(&iph, &payload[8..]).unwrap() == h.checksum
            }
            _ => false,
        }
    }

    fn pkt(port: u32, data: Vec<u8>) -> TracePacket {
        TracePacket {
            ts_ns: 0,
            port,
            data,
        }
    }

    const INSIDE: [u8; 4] = [10, 0, 0, 5];
    const EXT: [u8; 4] = [192, 0, 2, 1];
    const SERVER: [u8; 4] = [198, 51, 100, 7];

    /// A NAT-like NF: rewrites the source of inside packets to EXT:1024+n.
    #[test]
    fn nat_like_translation() {
        let mut rr = ReplyRewriter::new();
        let fwd = tcp(INSIDE, 40000, SERVER, 80, b"GET / HTTP/1.1\r\n\r\n");
        let out = tcp(EXT, 1024, SERVER, 80, b"GET / HTTP/1.1\r\n\r\n");
        let mut p = pkt(0, fwd.clone());
        assert!(!rr.rewrite(&mut p), "unknown flows pass unchanged");
        assert_eq!(p.data, fwd);
        rr.observe(&fwd, 0, &[(1, &out)]);
        assert_eq!(rr.len(), 1);

        // The server's reply in the trace is addressed to the inside host...
        let reply = tcp(SERVER, 80, INSIDE, 40000, b"HTTP/1.1 200 OK\r\n\r\nhello");
        let mut p = pkt(1, reply.clone());
        assert!(rr.rewrite(&mut p));
        // ...and is fed to the NAT addressed to its external port, checksums valid.
        assert_eq!(
            p.data,
            tcp(SERVER, 80, EXT, 1024, b"HTTP/1.1 200 OK\r\n\r\nhello")
        );
        assert!(checksums_valid(&p.data));
        // The NAT's translation of the reply teaches nothing.
        let back = tcp(SERVER, 80, INSIDE, 40000, b"HTTP/1.1 200 OK\r\n\r\nhello");
        rr.observe(&p.data, 1, &[(0, &back)]);
        assert_eq!(rr.len(), 1);
        assert_eq!(rr.rewritten(), 1);

        // Other flows, and other protocols on the same addresses, are untouched.
        let other = udp(SERVER, 80, INSIDE, 40000, b"x");
        let mut p = pkt(1, other.clone());
        assert!(!rr.rewrite(&mut p));
        assert_eq!(p.data, other);

        // A dropped packet teaches nothing; an untranslated one removes the mapping.
        rr.observe(&fwd, 0, &[]);
        assert_eq!(rr.len(), 1);
        rr.observe(&fwd, 0, &[(1, &fwd)]);
        assert!(rr.is_empty());
    }

    /// An LB-like NF: rewrites the destination VIP:80 to a backend, replies come from the VIP.
    #[test]
    fn lb_like_translation_with_udp() {
        let vip = [10, 100, 0, 1];
        let backend = [10, 200, 0, 9];
        let client = [81, 2, 3, 4];
        let mut rr = ReplyRewriter::new();
        let fwd = udp(client, 5353, vip, 53, b"query");
        let out = udp(client, 5353, backend, 5300, b"query");
        rr.observe(&fwd, 0, &[(1, &out)]);
        let mut p = pkt(1, udp(vip, 53, client, 5353, b"answer!"));
        assert!(rr.rewrite(&mut p));
        assert_eq!(p.data, udp(backend, 5300, client, 5353, b"answer!"));
        assert!(checksums_valid(&p.data));
        // Last writer wins.
        let out2 = udp(client, 5353, [10, 200, 0, 10], 5300, b"query");
        rr.observe(&fwd, 0, &[(1, &out2)]);
        let mut p = pkt(1, udp(vip, 53, client, 5353, b"answer!"));
        rr.rewrite(&mut p);
        assert_eq!(
            p.data,
            udp([10, 200, 0, 10], 5300, client, 5353, b"answer!")
        );
    }

    /// A whole generated trace through a toy NAT: every rewritten reply keeps valid checksums.
    #[test]
    fn generated_trace_through_a_toy_nat() {
        let w = Workload::builtin("enterprise").unwrap().unwrap();
        let opts = GenOptions {
            flows: 60,
            plan: Plan::Nat,
            ..GenOptions::default()
        };
        let trace = generate(&w, &opts).unwrap();
        let mut nat: HashMap<FiveTuple, u16> = HashMap::new();
        let mut rr = ReplyRewriter::new();
        let mut rewritten = 0;
        for mut p in trace {
            let before = p.data.clone();
            if rr.rewrite(&mut p) {
                rewritten += 1;
                assert!(checksums_valid(&p.data));
                let t = FiveTuple::of_frame(&p.data).unwrap();
                assert_eq!(t.dst, EXT);
                assert_ne!(p.data, before);
            }
            let t = FiveTuple::of_frame(&p.data).unwrap();
            let out = if p.port == 0 {
                let n = nat.len() as u16;
                let port = *nat.entry(t).or_insert(1024 + n);
                let mut o = p.data.clone();
                apply(
                    &mut o,
                    FiveTuple {
                        src: EXT,
                        sport: port,
                        ..t
                    },
                );
                o
            } else {
                p.data.clone()
            };
            rr.observe(&p.data, p.port, &[(1 - p.port, &out)]);
        }
        assert!(rewritten > 100, "{rewritten}");
    }

    fn frame(t: FiveTuple, payload: &[u8]) -> Vec<u8> {
        if t.proto == 6 {
            tcp(t.src, t.sport, t.dst, t.dport, payload)
        } else {
            udp(t.src, t.sport, t.dst, t.dport, payload)
        }
    }

    fn tuple() -> impl proptest::strategy::Strategy<Value = FiveTuple> {
        use proptest::prelude::*;
        (
            any::<[u8; 4]>(),
            any::<[u8; 4]>(),
            any::<u16>(),
            any::<u16>(),
            prop_oneof![Just(6u8), Just(17u8)],
        )
            .prop_map(|(src, dst, sport, dport, proto)| FiveTuple {
                src,
                dst,
                sport,
                dport,
                proto,
            })
    }

    proptest::proptest! {
        /// Any translation: the reply is rewritten to exactly reverse(T') with valid checksums,
        /// and everything but addresses, ports and checksums is unchanged.
        #[test]
        fn rewrites_are_exact_and_keep_checksums_valid(
            t in tuple(),
            t2 in tuple(),
            payload in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
        ) {
            let t2 = FiveTuple { proto: t.proto, ..t2 };
            let mut rr = ReplyRewriter::new();
            rr.observe(&frame(t, &payload), 0, &[(1, &frame(t2, &payload))]);
            let reply = frame(t.reverse(), &payload);
            let mut p = pkt(1, reply.clone());
            let changed = rr.rewrite(&mut p);
            proptest::prop_assert_eq!(changed, t != t2);
            proptest::prop_assert_eq!(FiveTuple::of_frame(&p.data), Some(t2.reverse()));
            proptest::prop_assert!(checksums_valid(&p.data));
            // Byte-exact apart from the checksums (0x0000 and 0xffff may both be valid).
            let ck = if t.proto == 6 { 34 + 16 } else { 34 + 6 };
            let mut want = frame(t2.reverse(), &payload);
            let mut got = p.data;
            for f in [&mut want, &mut got] {
                f[24..26].fill(0);
                f[ck..ck + 2].fill(0);
            }
            proptest::prop_assert_eq!(got, want);
        }
    }
}
