//! The payload operations of lifted NFs: their opaque names ([`opaque_names`], what the
//! front end emits for `Packet::payload()` access and checksum recomputation) and
//! [`PayloadOps`], which runs them in the interpreter exactly as the native NF API does. They
//! live in the IR crate so that everything that runs lifted code — the interpreter's users,
//! the offloaded runtime, the benchmarks — needs no C++ front end (and no LLVM).

use crate::interp::{HeaderOffsets, OpaqueHandler, StateStore};
use crate::Type;

use opaque_names as names;

/// Opaque operations the front end emits for payload access; [`PayloadOps`] implements them
/// for the interpreter.
pub mod opaque_names {
    /// `(offset: i64) -> iN`: little-endian load of N/8 payload bytes (0 beyond the end).
    pub const PAYLOAD_LOAD: &str = "tandem.payload_load";
    /// `(offset: i64, value: iN, width_bytes: i8)`: little-endian store (bytes beyond the end
    /// are ignored).
    pub const PAYLOAD_STORE: &str = "tandem.payload_store";
    /// `() -> i32`: `Packet::payload_len()`.
    pub const PAYLOAD_LEN: &str = "tandem.payload_len";
    /// `()`: `Packet::update_checksums()`.
    pub const UPDATE_CHECKSUMS: &str = "tandem.update_checksums";
    /// `() -> i16`: `ipv4_header_checksum(ip)` as the C++ returns it.
    pub const IPV4_CHECKSUM: &str = "tandem.ipv4_header_checksum";
}

/// The opaque-call handler for lifted NFs.
#[derive(Clone, Copy, Debug, Default)]
pub struct PayloadOps;

/// Where the payload starts: after the TCP header (its data offset, at least 20 bytes, capped
/// at the frame), the UDP header, the IPv4 header or the Ethernet header — `Packet::payload()`.
pub fn payload_offset(frame: &[u8]) -> usize {
    let h = HeaderOffsets::parse(frame);
    let len = frame.len();
    if let Some(t) = h.tcp {
        let thl = usize::from(frame[t + 12] >> 4) * 4;
        return (t + thl.max(20)).min(len);
    }
    if let Some(u) = h.udp {
        return u + 8;
    }
    if let Some(ip) = h.ipv4 {
        return ip + usize::from(frame[ip] & 0x0f) * 4;
    }
    if h.eth.is_some() {
        return 14;
    }
    0
}

fn csum_add(mut sum: u32, bytes: &[u8]) -> u32 {
    let mut chunks = bytes.chunks_exact(2);
    for c in &mut chunks {
        sum += u32::from(u16::from_be_bytes([c[0], c[1]]));
    }
    if let [b] = chunks.remainder() {
        sum += u32::from(*b) << 8;
    }
    sum
}

fn csum_finish(mut sum: u32) -> u16 {
    while sum >> 16 != 0 {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// `Packet::update_checksums()` of the native build.
pub fn update_checksums(frame: &mut [u8]) {
    let h = HeaderOffsets::parse(frame);
    let Some(ip) = h.ipv4 else { return };
    let ihl = usize::from(frame[ip] & 0x0f) * 4;
    frame[ip + 10] = 0;
    frame[ip + 11] = 0;
    let c = csum_finish(csum_add(0, &frame[ip..ip + ihl]));
    frame[ip + 10..ip + 12].copy_from_slice(&c.to_be_bytes());
    let l4 = ip + ihl;
    let total = usize::from(u16::from_be_bytes([frame[ip + 2], frame[ip + 3]]));
    let mut end = 14 + total;
    if end > frame.len() || end < l4 {
        end = frame.len();
    }
    let l4_len = end - l4;
    let mut sum = csum_add(0, &frame[ip + 12..ip + 20]);
    sum += u32::from(frame[ip + 9]);
    sum += l4_len as u32;
    if let Some(t) = h.tcp {
        frame[t + 16] = 0;
        frame[t + 17] = 0;
        let c = csum_finish(csum_add(sum, &frame[l4..end]));
        frame[t + 16..t + 18].copy_from_slice(&c.to_be_bytes());
    } else if let Some(u) = h.udp {
        if frame[u + 6] != 0 || frame[u + 7] != 0 {
            frame[u + 6] = 0;
            frame[u + 7] = 0;
            let mut c = csum_finish(csum_add(sum, &frame[l4..end]));
            if c == 0 {
                c = 0xffff;
            }
            frame[u + 6..u + 8].copy_from_slice(&c.to_be_bytes());
        }
    }
}

impl OpaqueHandler for PayloadOps {
    fn call(
        &mut self,
        name: &str,
        args: &[u64],
        result_types: &[Type],
        packet: &mut Vec<u8>,
        _store: &mut StateStore,
    ) -> Result<Vec<u64>, String> {
        let start = payload_offset(packet);
        match name {
            names::PAYLOAD_LOAD => {
                let ty = result_types.first().copied().unwrap_or(Type::I8);
                let off = args.first().copied().unwrap_or(0) as i64;
                let mut v = 0u64;
                for i in 0..ty.bytes() as i64 {
                    let pos = start as i64 + off + i;
                    let b = usize::try_from(pos)
                        .ok()
                        .and_then(|p| packet.get(p))
                        .copied()
                        .unwrap_or(0);
                    v |= u64::from(b) << (8 * i);
                }
                Ok(vec![v])
            }
            names::PAYLOAD_STORE => {
                let off = args.first().copied().unwrap_or(0) as i64;
                let v = args.get(1).copied().unwrap_or(0);
                let width = args.get(2).copied().unwrap_or(1).min(8) as i64;
                for i in 0..width {
                    let pos = start as i64 + off + i;
                    if let Some(b) = usize::try_from(pos).ok().and_then(|p| packet.get_mut(p)) {
                        *b = (v >> (8 * i)) as u8;
                    }
                }
                Ok(vec![])
            }
            names::PAYLOAD_LEN => Ok(vec![(packet.len() - start) as u64]),
            names::UPDATE_CHECKSUMS => {
                update_checksums(packet);
                Ok(vec![])
            }
            names::IPV4_CHECKSUM => {
                let h = HeaderOffsets::parse(packet);
                let Some(ip) = h.ipv4 else {
                    return Err("ipv4_header_checksum without an IPv4 header".into());
                };
                let ihl = usize::from(packet[ip] & 0x0f) * 4;
                let sum = csum_add(
                    csum_add(0, &packet[ip..ip + 10]),
                    &packet[ip + 12..ip + ihl],
                );
                // The C++ returns htons(~sum): as an integer loaded on this little-endian host,
                // that is the byte-swapped checksum.
                Ok(vec![u64::from(csum_finish(sum).swap_bytes())])
            }
            other => Err(format!("no handler for opaque call \"{other}\"")),
        }
    }
}
