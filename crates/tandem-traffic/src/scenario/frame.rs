//! Reading frames back: the comparable fields of a frame by offset (tolerant of anything),
//! a field-by-field listing for side-by-side reports, checksum validation and a one-line
//! summary for messages.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use etherparse::{NetSlice, SlicedPacket, TransportSlice};

use super::FieldValue;

/// The comparable fields of a frame, by offset (tolerant of anything).
pub(super) fn extract(frame: &[u8]) -> BTreeMap<&'static str, FieldValue> {
    let mut m = BTreeMap::new();
    m.insert("len", FieldValue::Int(frame.len() as u64));
    if frame.len() < 14 {
        m.insert("payload", FieldValue::Bytes(Vec::new()));
        return m;
    }
    let be16 = |o: usize| u64::from(u16::from_be_bytes([frame[o], frame[o + 1]]));
    let be32 = |o: usize| {
        u64::from(u32::from_be_bytes([
            frame[o],
            frame[o + 1],
            frame[o + 2],
            frame[o + 3],
        ]))
    };
    m.insert("eth.dst", FieldValue::Bytes(frame[0..6].to_vec()));
    m.insert("eth.src", FieldValue::Bytes(frame[6..12].to_vec()));
    m.insert("eth.type", FieldValue::Int(be16(12)));
    let mut payload_off = 14;
    if be16(12) == 0x0800 && frame.len() >= 34 && frame[14] >> 4 == 4 {
        let ihl = usize::from(frame[14] & 0x0f) * 4;
        m.insert("ipv4.id", FieldValue::Int(be16(18)));
        m.insert("ipv4.ttl", FieldValue::Int(u64::from(frame[22])));
        m.insert("ipv4.tos", FieldValue::Int(u64::from(frame[15])));
        m.insert("ipv4.proto", FieldValue::Int(u64::from(frame[23])));
        m.insert("ipv4.src", FieldValue::Bytes(frame[26..30].to_vec()));
        m.insert("ipv4.dst", FieldValue::Bytes(frame[30..34].to_vec()));
        let l4 = 14 + ihl.max(20);
        payload_off = l4.min(frame.len());
        if frame[23] == 6 && frame.len() >= l4 + 20 {
            m.insert("tcp.sport", FieldValue::Int(be16(l4)));
            m.insert("tcp.dport", FieldValue::Int(be16(l4 + 2)));
            m.insert("tcp.seq", FieldValue::Int(be32(l4 + 4)));
            m.insert("tcp.ack", FieldValue::Int(be32(l4 + 8)));
            m.insert(
                "tcp.flags",
                FieldValue::Int(u64::from(frame[l4 + 13] & 0x3f)),
            );
            m.insert("tcp.window", FieldValue::Int(be16(l4 + 14)));
            let thl = usize::from(frame[l4 + 12] >> 4) * 4;
            payload_off = (l4 + thl.max(20)).min(frame.len());
        } else if frame[23] == 17 && frame.len() >= l4 + 8 {
            m.insert("udp.sport", FieldValue::Int(be16(l4)));
            m.insert("udp.dport", FieldValue::Int(be16(l4 + 2)));
            payload_off = l4 + 8;
        }
        // The payload ends where the IPv4 total length says (Ethernet padding excluded).
        let end = (14 + be16(16) as usize).clamp(payload_off, frame.len());
        m.insert(
            "payload",
            FieldValue::Bytes(frame[payload_off..end].to_vec()),
        );
        return m;
    }
    m.insert("payload", FieldValue::Bytes(frame[payload_off..].to_vec()));
    m
}

/// A frame decoded field by field (Ethernet, IPv4, TCP/UDP, payload, and the checksums), as
/// `(name, shown value)` in a fixed order — for reports that put two frames side by side.
pub fn frame_fields(frame: &[u8]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = extract(frame)
        .iter()
        .map(|(k, v)| (k.to_string(), v.show(k)))
        .collect();
    if frame.len() >= 34 && frame[12..14] == [0x08, 0x00] && frame[14] >> 4 == 4 {
        let be16 = |o: usize| u16::from_be_bytes([frame[o], frame[o + 1]]);
        out.push(("ipv4.csum".into(), format!("0x{:04x}", be16(24))));
        let l4 = 14 + usize::from(frame[14] & 0x0f).max(5) * 4;
        match frame[23] {
            6 if frame.len() >= l4 + 18 => {
                out.push(("tcp.csum".into(), format!("0x{:04x}", be16(l4 + 16))))
            }
            17 if frame.len() >= l4 + 8 => {
                out.push(("udp.csum".into(), format!("0x{:04x}", be16(l4 + 6))))
            }
            _ => {}
        }
    }
    out
}

/// Checks IPv4/TCP/UDP checksums of an IPv4 frame; `Ok` for non-IPv4 frames.
pub fn validate_checksums(frame: &[u8]) -> Result<(), String> {
    if frame.len() < 14 || frame[12..14] != [0x08, 0x00] {
        return Ok(());
    }
    let p = SlicedPacket::from_ethernet(frame)
        .map_err(|e| format!("the sent frame is not a well-formed IPv4 packet: {e}"))?;
    let Some(NetSlice::Ipv4(ip)) = &p.net else {
        return Ok(());
    };
    let h = ip.header().to_header();
    let want = h.calc_header_checksum();
    if h.header_checksum != want {
        return Err(format!(
            "invalid IPv4 header checksum: 0x{:04x}, should be 0x{want:04x}",
            h.header_checksum
        ));
    }
    match &p.transport {
        Some(TransportSlice::Tcp(t)) => {
            let want = t
                .to_header()
                .calc_checksum_ipv4(&h, t.payload())
                .map_err(|e| e.to_string())?;
            if t.checksum() != want {
                return Err(format!(
                    "invalid TCP checksum: 0x{:04x}, should be 0x{want:04x}",
                    t.checksum()
                ));
            }
        }
        Some(TransportSlice::Udp(u)) if u.checksum() != 0 => {
            let want = u
                .to_header()
                .calc_checksum_ipv4(&h, u.payload())
                .map_err(|e| e.to_string())?;
            if u.checksum() != want {
                return Err(format!(
                    "invalid UDP checksum: 0x{:04x}, should be 0x{want:04x}",
                    u.checksum()
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// A one-line description of a frame, for messages.
pub fn summarize(frame: &[u8]) -> String {
    let f = extract(frame);
    let get = |k: &str| f.get(k).map(|v| v.show(k)).unwrap_or_default();
    let mut s = String::new();
    if f.contains_key("ipv4.src") {
        let _ = write!(
            s,
            "{} -> {} proto {}",
            get("ipv4.src"),
            get("ipv4.dst"),
            get("ipv4.proto")
        );
        if f.contains_key("tcp.sport") {
            let _ = write!(
                s,
                " tcp {} -> {} flags {} seq {} ack {}",
                get("tcp.sport"),
                get("tcp.dport"),
                get("tcp.flags"),
                get("tcp.seq"),
                get("tcp.ack")
            );
        } else if f.contains_key("udp.sport") {
            let _ = write!(s, " udp {} -> {}", get("udp.sport"), get("udp.dport"));
        }
    } else if f.contains_key("eth.type") {
        let _ = write!(s, "ethernet type {}", get("eth.type"));
    } else {
        let _ = write!(s, "runt frame");
    }
    let _ = write!(s, ", {} bytes", frame.len());
    s
}
