//! Control framing: one message split into datagrams and put back together.

use super::*;

/// The datagrams of one control message (`kind` 0: request, 1: reply) with id `id`: the
/// JSON `payload` cut into parts of at most 32 KiB, each behind the 16-byte header.
pub fn control_datagrams(kind: u8, id: u64, payload: &[u8]) -> Vec<Vec<u8>> {
    let chunks: Vec<&[u8]> = if payload.is_empty() {
        vec![&[][..]]
    } else {
        payload.chunks(CONTROL_CHUNK).collect()
    };
    let parts = chunks.len() as u16;
    chunks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut b = Vec::with_capacity(CONTROL_HEADER_LEN + c.len());
            b.extend_from_slice(&CONTROL_MAGIC);
            b.push(WIRE_VERSION);
            b.push(kind);
            b.extend_from_slice(&id.to_be_bytes());
            b.extend_from_slice(&(i as u16).to_be_bytes());
            b.extend_from_slice(&parts.to_be_bytes());
            b.extend_from_slice(c);
            b
        })
        .collect()
}

pub(super) struct ControlPart<'a> {
    pub(super) kind: u8,
    pub(super) id: u64,
    pub(super) part: u16,
    pub(super) parts: u16,
    pub(super) chunk: &'a [u8],
}

pub(super) fn parse_control(buf: &[u8]) -> Option<ControlPart<'_>> {
    if buf.len() < CONTROL_HEADER_LEN
        || buf[..2] != CONTROL_MAGIC
        || buf[2] != WIRE_VERSION
        || buf[3] > 1
    {
        return None;
    }
    let mut id = [0u8; 8];
    id.copy_from_slice(&buf[4..12]);
    let part = u16::from_be_bytes([buf[12], buf[13]]);
    let parts = u16::from_be_bytes([buf[14], buf[15]]);
    if parts == 0 || parts > MAX_PARTS || part >= parts {
        return None;
    }
    Some(ControlPart {
        kind: buf[3],
        id: u64::from_be_bytes(id),
        part,
        parts,
        chunk: &buf[CONTROL_HEADER_LEN..],
    })
}

pub(super) struct Partial {
    pub(super) id: u64,
    pub(super) chunks: Vec<Option<Vec<u8>>>,
    pub(super) missing: usize,
}

/// Reassembles control messages, one in flight per sender.
#[derive(Default)]
pub(super) struct Reassembler {
    pub(super) partial: HashMap<PathBuf, Partial>,
}

impl Reassembler {
    const MAX_SENDERS: usize = 64;

    pub(super) fn push(&mut self, from: &Path, p: &ControlPart<'_>) -> Option<Vec<u8>> {
        if p.parts == 1 {
            self.partial.remove(from);
            return Some(p.chunk.to_vec());
        }
        if self.partial.len() >= Self::MAX_SENDERS && !self.partial.contains_key(from) {
            self.partial.clear();
        }
        let fresh = || Partial {
            id: p.id,
            chunks: vec![None; usize::from(p.parts)],
            missing: usize::from(p.parts),
        };
        let e = self.partial.entry(from.to_path_buf()).or_insert_with(fresh);
        if e.id != p.id || e.chunks.len() != usize::from(p.parts) {
            *e = fresh();
        }
        let slot = &mut e.chunks[usize::from(p.part)];
        if slot.is_none() {
            *slot = Some(p.chunk.to_vec());
            e.missing -= 1;
        }
        if e.missing > 0 {
            return None;
        }
        let done = self.partial.remove(from)?;
        Some(done.chunks.into_iter().flatten().flatten().collect())
    }
}
