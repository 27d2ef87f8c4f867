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
    /// `tandem.header_load.H(offset: i64) -> iN`: little-endian load of N/8 frame bytes at
    /// built-in header `H`'s start + `offset` — bytes past the header's fixed fields, such as
    /// TCP or IPv4 options, reached from the header pointer at a run-time offset (0 beyond the
    /// frame or when `H` is absent). `H` is `eth`, `ipv4`, `tcp` or `udp`.
    pub const HEADER_LOAD: &str = "tandem.header_load.";
    /// `tandem.header_store.H(offset: i64, value: iN, width_bytes: i8)`: the store
    /// counterpart (bytes beyond the frame are ignored; nothing happens when `H` is absent).
    pub const HEADER_STORE: &str = "tandem.header_store.";
}

/// The frame offset of built-in header `name`'s first byte (`eth`, `ipv4`, `tcp`, `udp`) as
/// the built-in parse graph finds it, if present.
fn builtin_header_start(frame: &[u8], name: &str) -> Result<Option<usize>, String> {
    let h = HeaderOffsets::parse(frame);
    match name {
        "eth" => Ok(h.eth),
        "ipv4" => Ok(h.ipv4),
        "tcp" => Ok(h.tcp),
        "udp" => Ok(h.udp),
        other => Err(format!("`{other}` is not a built-in header")),
    }
}

/// `tandem.header_load.H`: see [`opaque_names::HEADER_LOAD`].
pub fn header_load(frame: &[u8], header: &str, off: i64, bytes: u32) -> Result<u64, String> {
    let Some(start) = builtin_header_start(frame, header)? else {
        return Ok(0);
    };
    let mut v = 0u64;
    for i in 0..i64::from(bytes.min(8)) {
        let b = (start as i64)
            .checked_add(off)
            .and_then(|p| p.checked_add(i))
            .and_then(|p| usize::try_from(p).ok())
            .and_then(|p| frame.get(p))
            .copied()
            .unwrap_or(0);
        v |= u64::from(b) << (8 * i);
    }
    Ok(v)
}

/// `tandem.header_store.H`: see [`opaque_names::HEADER_STORE`].
pub fn header_store(
    frame: &mut [u8],
    header: &str,
    off: i64,
    value: u64,
    bytes: u64,
) -> Result<(), String> {
    let Some(start) = builtin_header_start(frame, header)? else {
        return Ok(());
    };
    for i in 0..bytes.min(8) as i64 {
        let at = (start as i64)
            .checked_add(off)
            .and_then(|p| p.checked_add(i))
            .and_then(|p| usize::try_from(p).ok());
        if let Some(b) = at.and_then(|p| frame.get_mut(p)) {
            *b = (value >> (8 * i)) as u8;
        }
    }
    Ok(())
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
            other => {
                if let Some(h) = other.strip_prefix(names::HEADER_LOAD) {
                    let ty = result_types.first().copied().unwrap_or(Type::I8);
                    let off = args.first().copied().unwrap_or(0) as i64;
                    return Ok(vec![header_load(packet, h, off, ty.bytes())?]);
                }
                if let Some(h) = other.strip_prefix(names::HEADER_STORE) {
                    let off = args.first().copied().unwrap_or(0) as i64;
                    let v = args.get(1).copied().unwrap_or(0);
                    let width = args.get(2).copied().unwrap_or(1);
                    header_store(packet, h, off, v, width)?;
                    return Ok(vec![]);
                }
                Err(format!("no handler for opaque call \"{other}\""))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ethernet + IPv4 (IHL 5) + TCP with 4 option bytes `02 04 05 b4` (MSS 1460).
    fn syn_with_mss() -> Vec<u8> {
        let mut f = vec![0u8; 14];
        f[12] = 0x08;
        let mut ip = vec![
            0x45, 0, 0, 44, 0, 0, 0, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
        ];
        f.append(&mut ip);
        let mut tcp = vec![0u8; 20];
        tcp[12] = 6 << 4;
        tcp[13] = 0x02;
        f.extend_from_slice(&tcp);
        f.extend_from_slice(&[2, 4, 5, 0xb4]);
        f
    }

    #[test]
    fn header_bytes_are_relative_to_the_named_header() {
        let f = syn_with_mss();
        // The MSS value, big-endian on the wire, little-endian as a 2-byte load.
        assert_eq!(header_load(&f, "tcp", 22, 2), Ok(0xb405));
        assert_eq!(header_load(&f, "tcp", 20, 1), Ok(2));
        // The same byte from the IPv4 header is 20 bytes further.
        assert_eq!(header_load(&f, "ipv4", 40, 1), Ok(2));
        // Beyond the frame: zeros; an absent header: zero; not a built-in header: an error.
        assert_eq!(header_load(&f, "tcp", 23, 4), Ok(0xb4));
        assert_eq!(header_load(&f, "udp", 0, 4), Ok(0));
        assert!(header_load(&f, "vxlan", 0, 1).is_err());
    }

    #[test]
    fn header_stores_write_only_inside_the_frame() {
        let mut f = syn_with_mss();
        let len = f.len();
        header_store(&mut f, "tcp", 22, 0x5005, 2).unwrap(); // MSS 1360 (0x0550)
        assert_eq!(&f[len - 2..], &[0x05, 0x50]);
        header_store(&mut f, "tcp", 23, 0xffff_ffff, 4).unwrap();
        assert_eq!(f.len(), len);
        assert_eq!(f[len - 1], 0xff);
        let mut op = PayloadOps;
        let mut store = StateStore::new(&crate::Module::new("t"));
        let mut g = syn_with_mss();
        let r = op.call(
            "tandem.header_load.tcp",
            &[22],
            &[Type::I16],
            &mut g,
            &mut store,
        );
        assert_eq!(r, Ok(vec![0xb405]));
    }
}
