//! Building packets: a step's fields over its flow template (or the template reversed, for a
//! reply), then the frame with etherparse — Ethernet, IPv4, TCP or UDP with their lengths and
//! checksums computed, or the whole frame from `frame_hex`.

use etherparse::{
    EtherType, Ethernet2Header, IpNumber, Ipv4Dscp, Ipv4Ecn, Ipv4Header, TcpHeader, UdpHeader,
};

use super::parse::{parse_flags, parse_ip, parse_mac, unhex};
use super::spec::{EthSpec, Ipv4Spec, PacketSpec, TcpSpec, UdpSpec};

/// A field error: (field name, message).
pub(super) type FieldError = (String, String);

pub(super) fn ferr<T>(field: &str, message: impl Into<String>) -> Result<T, FieldError> {
    Err((field.to_owned(), message.into()))
}

impl PacketSpec {
    /// Fields of `other` replace those of `self`, one by one.
    pub(super) fn overlay(self, other: PacketSpec) -> PacketSpec {
        fn opt<T>(a: Option<T>, b: Option<T>) -> Option<T> {
            b.or(a)
        }
        let eth = match (self.eth, other.eth) {
            (Some(a), Some(b)) => Some(EthSpec {
                src: opt(a.src, b.src),
                dst: opt(a.dst, b.dst),
                ethertype: opt(a.ethertype, b.ethertype),
            }),
            (a, b) => b.or(a),
        };
        let ipv4 = match (self.ipv4, other.ipv4) {
            (Some(a), Some(b)) => Some(Ipv4Spec {
                src: opt(a.src, b.src),
                dst: opt(a.dst, b.dst),
                ttl: opt(a.ttl, b.ttl),
                tos: opt(a.tos, b.tos),
                proto: opt(a.proto, b.proto),
                id: opt(a.id, b.id),
            }),
            (a, b) => b.or(a),
        };
        let tcp = match (self.tcp, other.tcp) {
            (Some(a), Some(b)) => Some(TcpSpec {
                sport: opt(a.sport, b.sport),
                dport: opt(a.dport, b.dport),
                flags: opt(a.flags, b.flags),
                seq: opt(a.seq, b.seq),
                ack: opt(a.ack, b.ack),
                window: opt(a.window, b.window),
            }),
            (a, b) => b.or(a),
        };
        let udp = match (self.udp, other.udp) {
            (Some(a), Some(b)) => Some(UdpSpec {
                sport: opt(a.sport, b.sport),
                dport: opt(a.dport, b.dport),
            }),
            (a, b) => b.or(a),
        };
        // A payload given by the step replaces the template's, whichever form either uses.
        let (payload, payload_hex) = if other.payload.is_some() || other.payload_hex.is_some() {
            (other.payload, other.payload_hex)
        } else {
            (self.payload, self.payload_hex)
        };
        PacketSpec {
            eth,
            ipv4,
            tcp,
            udp,
            payload,
            payload_hex,
            frame_hex: opt(self.frame_hex, other.frame_hex),
            truncate: opt(self.truncate, other.truncate),
        }
    }

    /// The reverse direction: MACs, addresses and ports swapped.
    pub(super) fn reversed(mut self) -> PacketSpec {
        if let Some(e) = &mut self.eth {
            std::mem::swap(&mut e.src, &mut e.dst);
        } else {
            self.eth = Some(EthSpec {
                src: Some(DEFAULT_MAC_DST.into()),
                dst: Some(DEFAULT_MAC_SRC.into()),
                ethertype: None,
            });
        }
        if let Some(ip) = &mut self.ipv4 {
            std::mem::swap(&mut ip.src, &mut ip.dst);
        }
        if let Some(t) = &mut self.tcp {
            std::mem::swap(&mut t.sport, &mut t.dport);
            t.seq = None;
            t.ack = None;
            t.flags = None;
        }
        if let Some(u) = &mut self.udp {
            std::mem::swap(&mut u.sport, &mut u.dport);
        }
        self.payload = None;
        self.payload_hex = None;
        self
    }

    /// The frame: lengths and checksums computed, `truncate` applied last.
    pub(super) fn build(&self) -> Result<Vec<u8>, FieldError> {
        if let Some(h) = &self.frame_hex {
            let mut f = unhex(h).or_else(|m| ferr("frame_hex", m))?;
            if let Some(n) = self.truncate {
                f.truncate(n);
            }
            return Ok(f);
        }
        if self.tcp.is_some() && self.udp.is_some() {
            return ferr("udp", "a packet has tcp or udp, not both");
        }
        let payload = match (&self.payload, &self.payload_hex) {
            (Some(_), Some(_)) => return ferr("payload_hex", "give payload or payload_hex"),
            (Some(t), None) => t.as_bytes().to_vec(),
            (None, Some(h)) => unhex(h).or_else(|m| ferr("payload_hex", m))?,
            (None, None) => Vec::new(),
        };
        let eth = self.eth.clone().unwrap_or_default();
        let has_ip = self.ipv4.is_some() || self.tcp.is_some() || self.udp.is_some();
        let ethertype = eth.ethertype.unwrap_or(0x0800);
        let e = Ethernet2Header {
            source: parse_mac(eth.src.as_deref().unwrap_or(DEFAULT_MAC_SRC), "eth.src")?,
            destination: parse_mac(eth.dst.as_deref().unwrap_or(DEFAULT_MAC_DST), "eth.dst")?,
            ether_type: EtherType(ethertype),
        };
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = e.write(&mut out);
        if !has_ip {
            out.extend_from_slice(&payload);
        } else {
            let ip = self.ipv4.clone().unwrap_or_default();
            let src = parse_ip(ip.src.as_deref().unwrap_or("192.0.2.1"), "ipv4.src")?;
            let dst = parse_ip(ip.dst.as_deref().unwrap_or("192.0.2.2"), "ipv4.dst")?;
            let proto = match (ip.proto, &self.tcp, &self.udp) {
                (Some(p), _, _) => p,
                (None, Some(_), _) => 6,
                (None, None, Some(_)) => 17,
                (None, None, None) => {
                    return ferr(
                        "ipv4.proto",
                        "needed when the packet has neither tcp nor udp",
                    )
                }
            };
            let l4_len = match (&self.tcp, &self.udp) {
                (Some(_), _) => 20 + payload.len(),
                (None, Some(_)) => 8 + payload.len(),
                _ => payload.len(),
            };
            let l4_len16 = u16::try_from(l4_len)
                .ok()
                .filter(|l| *l <= 65535 - 20)
                .map_or_else(|| ferr("payload", "too long for an IPv4 packet"), Ok)?;
            let mut h = Ipv4Header::new(l4_len16, ip.ttl.unwrap_or(64), IpNumber(proto), src, dst)
                .or_else(|e| ferr("payload", e.to_string()))?;
            h.identification = ip.id.unwrap_or(0);
            let tos = ip.tos.unwrap_or(0);
            h.dscp =
                Ipv4Dscp::try_new(tos >> 2).map_or_else(|e| ferr("ipv4.tos", e.to_string()), Ok)?;
            h.ecn =
                Ipv4Ecn::try_new(tos & 3).map_or_else(|e| ferr("ipv4.tos", e.to_string()), Ok)?;
            h.header_checksum = h.calc_header_checksum();
            let _ = h.write(&mut out);
            if let Some(t) = &self.tcp {
                let mut th = TcpHeader::new(
                    t.sport.unwrap_or(1234),
                    t.dport.unwrap_or(80),
                    t.seq.unwrap_or(0),
                    t.window.unwrap_or(65535),
                );
                th.acknowledgment_number = t.ack.unwrap_or(0);
                let flags = parse_flags(t.flags.as_deref().unwrap_or(""), "tcp.flags")?;
                th.fin = flags & 0x01 != 0;
                th.syn = flags & 0x02 != 0;
                th.rst = flags & 0x04 != 0;
                th.psh = flags & 0x08 != 0;
                th.ack = flags & 0x10 != 0;
                th.urg = flags & 0x20 != 0;
                th.checksum = th
                    .calc_checksum_ipv4(&h, &payload)
                    .or_else(|e| ferr("payload", e.to_string()))?;
                let _ = th.write(&mut out);
            } else if let Some(u) = &self.udp {
                let mut uh = UdpHeader {
                    source_port: u.sport.unwrap_or(1234),
                    destination_port: u.dport.unwrap_or(53),
                    length: (8 + payload.len()) as u16,
                    checksum: 0,
                };
                uh.checksum = uh
                    .calc_checksum_ipv4(&h, &payload)
                    .or_else(|e| ferr("payload", e.to_string()))?;
                let _ = uh.write(&mut out);
            }
            out.extend_from_slice(&payload);
        }
        if let Some(n) = self.truncate {
            out.truncate(n);
        }
        Ok(out)
    }
}

pub(super) const DEFAULT_MAC_SRC: &str = "02:00:00:00:00:01";
pub(super) const DEFAULT_MAC_DST: &str = "02:00:00:00:00:02";
