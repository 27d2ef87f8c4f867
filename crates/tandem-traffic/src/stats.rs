//! Summary statistics of a trace: flows, packets, bytes, control-packet share, TCP/UDP split,
//! frame-size percentiles, per-port counts and duration.
//!
//! A *flow* is a distinct bidirectional 5-tuple (the two endpoints in either order plus the IP
//! protocol) among IPv4 TCP/UDP packets. A *control packet* is a TCP packet with SYN, FIN or
//! RST set. Sizes are frame lengths (Ethernet header included, no FCS). Percentiles are
//! nearest-rank.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use etherparse::{NetSlice, SlicedPacket, TransportSlice};

use crate::pcap::TracePacket;
use crate::replies::FiveTuple;

/// Per-port packet and byte counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortCounts {
    pub packets: u64,
    pub bytes: u64,
}

/// Accumulates statistics packet by packet ([`TraceStats::add`]).
#[derive(Clone, Debug, Default)]
pub struct TraceStats {
    pub packets: u64,
    pub bytes: u64,
    pub tcp_packets: u64,
    pub udp_packets: u64,
    /// Packets that are not IPv4 TCP/UDP (or do not parse).
    pub other_packets: u64,
    pub syn: u64,
    pub fin: u64,
    pub rst: u64,
    /// TCP packets with SYN, FIN or RST.
    pub control_packets: u64,
    pub tcp_flows: u64,
    pub udp_flows: u64,
    pub per_port: BTreeMap<u32, PortCounts>,
    pub first_ts_ns: Option<u64>,
    pub last_ts_ns: Option<u64>,
    sizes: Vec<u32>,
    /// Packets per flow (bidirectional 5-tuple, canonical direction).
    flow_packets: HashMap<FiveTuple, u64>,
}

impl TraceStats {
    pub fn new() -> TraceStats {
        TraceStats::default()
    }

    /// Statistics of a sequence of packets.
    pub fn compute<'a>(packets: impl IntoIterator<Item = &'a TracePacket>) -> TraceStats {
        let mut s = TraceStats::new();
        for p in packets {
            s.add(p);
        }
        s
    }

    pub fn add(&mut self, p: &TracePacket) {
        self.packets += 1;
        self.bytes += p.data.len() as u64;
        self.sizes.push(p.data.len() as u32);
        let pc = self.per_port.entry(p.port).or_default();
        pc.packets += 1;
        pc.bytes += p.data.len() as u64;
        self.first_ts_ns = Some(self.first_ts_ns.map_or(p.ts_ns, |t| t.min(p.ts_ns)));
        self.last_ts_ns = Some(self.last_ts_ns.map_or(p.ts_ns, |t| t.max(p.ts_ns)));
        let Ok(sp) = SlicedPacket::from_ethernet(&p.data) else {
            self.other_packets += 1;
            return;
        };
        let Some(NetSlice::Ipv4(ip)) = &sp.net else {
            self.other_packets += 1;
            return;
        };
        let (src, dst) = (ip.header().source(), ip.header().destination());
        let (sport, dport, tcp) = match &sp.transport {
            Some(TransportSlice::Tcp(t)) => {
                self.tcp_packets += 1;
                let (syn, fin, rst) = (t.syn(), t.fin(), t.rst());
                self.syn += u64::from(syn);
                self.fin += u64::from(fin);
                self.rst += u64::from(rst);
                self.control_packets += u64::from(syn || fin || rst);
                (t.source_port(), t.destination_port(), true)
            }
            Some(TransportSlice::Udp(u)) => {
                self.udp_packets += 1;
                (u.source_port(), u.destination_port(), false)
            }
            _ => {
                self.other_packets += 1;
                return;
            }
        };
        let t = FiveTuple {
            src,
            dst,
            sport,
            dport,
            proto: if tcp { 6 } else { 17 },
        };
        let key = t.min(t.reverse());
        let n = self.flow_packets.entry(key).or_insert(0);
        *n += 1;
        if *n == 1 {
            if tcp {
                self.tcp_flows += 1;
            } else {
                self.udp_flows += 1;
            }
        }
    }

    pub fn flows(&self) -> u64 {
        self.tcp_flows + self.udp_flows
    }

    /// Nearest-rank percentile of frame sizes (`q` in 0..=100); `None` for an empty trace.
    pub fn size_percentile(&self, q: f64) -> Option<u32> {
        let mut v = self.sizes.clone();
        v.sort_unstable();
        percentile(&v, q)
    }

    /// Nearest-rank percentile of packets per flow (`q` in 0..=100); `None` without flows.
    pub fn flow_packets_percentile(&self, q: f64) -> Option<u64> {
        let mut v: Vec<u64> = self.flow_packets.values().copied().collect();
        v.sort_unstable();
        percentile(&v, q)
    }

    /// Last minus first timestamp.
    pub fn duration_ns(&self) -> u64 {
        match (self.first_ts_ns, self.last_ts_ns) {
            (Some(a), Some(b)) => b - a,
            _ => 0,
        }
    }

    /// Share of control packets among all packets (0 for an empty trace).
    pub fn control_share(&self) -> f64 {
        if self.packets == 0 {
            0.0
        } else {
            self.control_packets as f64 / self.packets as f64
        }
    }
}

fn percentile<T: Copy>(sorted: &[T], q: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((q / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

impl fmt::Display for TraceStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |n: u64| {
            if self.packets == 0 {
                0.0
            } else {
                100.0 * n as f64 / self.packets as f64
            }
        };
        let dur = self.duration_ns() as f64 / 1e9;
        writeln!(
            f,
            "flows          {} (TCP {}, UDP {})",
            self.flows(),
            self.tcp_flows,
            self.udp_flows
        )?;
        writeln!(f, "packets        {}", self.packets)?;
        writeln!(
            f,
            "bytes          {} (mean {:.1} B/packet)",
            self.bytes,
            if self.packets == 0 {
                0.0
            } else {
                self.bytes as f64 / self.packets as f64
            }
        )?;
        writeln!(
            f,
            "protocols      TCP {} ({:.1}%), UDP {} ({:.1}%), other {} ({:.1}%)",
            self.tcp_packets,
            pct(self.tcp_packets),
            self.udp_packets,
            pct(self.udp_packets),
            self.other_packets,
            pct(self.other_packets)
        )?;
        writeln!(
            f,
            "control        {} ({:.1}%): SYN {}, FIN {}, RST {}",
            self.control_packets,
            pct(self.control_packets),
            self.syn,
            self.fin,
            self.rst
        )?;
        match (
            self.size_percentile(0.0),
            self.size_percentile(50.0),
            self.size_percentile(90.0),
            self.size_percentile(99.0),
            self.size_percentile(100.0),
        ) {
            (Some(min), Some(p50), Some(p90), Some(p99), Some(max)) => writeln!(
                f,
                "frame size     min {min}, p50 {p50}, p90 {p90}, p99 {p99}, max {max}"
            )?,
            _ => writeln!(f, "frame size     -")?,
        }
        if let (Some(p50), Some(p90), Some(p99), Some(max)) = (
            self.flow_packets_percentile(50.0),
            self.flow_packets_percentile(90.0),
            self.flow_packets_percentile(99.0),
            self.flow_packets_percentile(100.0),
        ) {
            writeln!(
                f,
                "packets/flow   p50 {p50}, p90 {p90}, p99 {p99}, max {max}"
            )?;
        }
        for (port, c) in &self.per_port {
            writeln!(f, "port {port:<9} {} packets, {} bytes", c.packets, c.bytes)?;
        }
        let rate = if dur > 0.0 {
            self.bytes as f64 * 8.0 / dur / 1e6
        } else {
            0.0
        };
        write!(f, "duration       {dur:.6} s ({rate:.1} Mbit/s)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{generate, GenOptions};
    use crate::workload::Workload;

    #[test]
    fn counts_a_generated_trace() {
        let w = Workload::builtin("enterprise").unwrap().unwrap();
        let opts = GenOptions {
            flows: 200,
            udp_share: 0.0,
            rst_share: 0.0,
            ..GenOptions::default()
        };
        let pkts = generate(&w, &opts).unwrap();
        let s = TraceStats::compute(&pkts);
        assert_eq!(s.packets, pkts.len() as u64);
        assert_eq!(s.tcp_flows, 200);
        assert_eq!(s.syn, 400); // SYN + SYN-ACK
        assert_eq!(s.fin, 400);
        assert_eq!(s.rst, 0);
        assert_eq!(s.other_packets, 0);
        assert_eq!(s.per_port.len(), 2);
        let text = s.to_string();
        assert!(
            text.contains("flows          200 (TCP 200, UDP 0)"),
            "{text}"
        );
        assert!(s.size_percentile(50.0).unwrap() <= s.size_percentile(99.0).unwrap());
    }
}
