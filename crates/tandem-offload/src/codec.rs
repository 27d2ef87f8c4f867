//! The transfer header (Gallium §4.2.3), driven by the manifest.
//!
//! Between the Ethernet header and the original L3 header the switch inserts
//! `manifest.transfer_header.bytes` bytes under EtherType `ethertype` (0x88b5): field `tag`
//! (1: pre → server, 2: server → post), `orig_ethertype` (the frame's own EtherType), the cut
//! values, and padding. Fields are big-endian bit strings at the manifest's bit offsets.
//!
//! The server sees the packet as the NF does: [`TransferCodec::decode`] strips the header and
//! restores the original EtherType; [`TransferCodec::encode`] puts it back with the server's
//! values and the tag for post.

use tandem_p4::manifest::TransferHeader;

use crate::OffloadError;

/// Encoder/decoder for one NF's transfer header.
#[derive(Clone, Debug)]
pub struct TransferCodec {
    ethertype: u16,
    bytes: usize,
    /// (offset bits, width bits) per field, manifest order.
    fields: Vec<(u32, u32)>,
    /// Where each field lies in the header read as big-endian 64-bit words.
    pos: Vec<Pos>,
    /// The same for the branch-free loops (wide fields: nothing, see `wide`).
    narrow: Vec<Narrow>,
    /// Fields that cross a word boundary (read and written after the others).
    wide: Vec<usize>,
    names: Vec<String>,
    tag: usize,
    orig: usize,
    to_server: u8,
    to_post: u8,
    /// The tag of a frame the server runs whole (a partial map's miss on the switch).
    to_whole: Option<u8>,
    /// The bits some field covers, per big-endian word (headers of up to [`MAX_FAST`]
    /// bytes): what [`TransferCodec::encode_changes_in_place`] keeps of the decoded header.
    covered: [u64; WORDS],
}

/// A decoded header's words, kept by [`TransferCodec::decode_in_place_kept`] for
/// [`TransferCodec::encode_changes_in_place`] (reused across packets).
#[derive(Clone, Debug, Default)]
pub struct KeptHeader {
    words: [u64; WORDS],
    /// Set by a decode of a header of up to [`MAX_FAST`] bytes.
    valid: bool,
}

/// Where the Ethernet header's EtherType sits.
const ETHERTYPE_AT: usize = 12;
const ETH_LEN: usize = 14;

impl TransferCodec {
    /// Builds the codec; fails on a manifest whose header is inconsistent (fields outside the
    /// header, over 64 bits, missing `tag`/`orig_ethertype`).
    pub fn new(th: &TransferHeader) -> Result<TransferCodec, OffloadError> {
        let bad = |m: String| OffloadError::Manifest(format!("transfer header: {m}"));
        let ethertype = parse_u16(&th.ethertype)
            .ok_or_else(|| bad(format!("bad ethertype `{}`", th.ethertype)))?;
        let mut fields = Vec::new();
        for f in &th.fields {
            if f.bits == 0 || f.bits > 64 {
                return Err(bad(format!("field `{}` has {} bits", f.name, f.bits)));
            }
            if u64::from(f.offset) + u64::from(f.bits) > u64::from(th.bytes) * 8 {
                return Err(bad(format!(
                    "field `{}` (bits {}..{}) lies outside the {}-byte header",
                    f.name,
                    f.offset,
                    f.offset + f.bits,
                    th.bytes
                )));
            }
            fields.push((f.offset, f.bits));
        }
        let names: Vec<String> = th.fields.iter().map(|f| f.name.clone()).collect();
        let pos = |n: &str| {
            names
                .iter()
                .position(|x| x == n)
                .ok_or_else(|| bad(format!("no `{n}` field")))
        };
        let tag = pos("tag")?;
        let orig = pos("orig_ethertype")?;
        if fields[orig].1 != 16 {
            return Err(bad("`orig_ethertype` is not 16 bits".into()));
        }
        let pos: Vec<Pos> = fields
            .iter()
            .map(|&(off, bits)| Pos::new(off, bits))
            .collect();
        let narrow = pos.iter().map(Narrow::of).collect();
        let wide = (0..pos.len()).filter(|&i| pos[i].wide).collect();
        let mut covered = [0u64; WORDS];
        if th.bytes as usize <= MAX_FAST {
            for p in &pos {
                p.set(&mut covered, u64::MAX);
            }
        }
        Ok(TransferCodec {
            ethertype,
            bytes: th.bytes as usize,
            fields,
            pos,
            narrow,
            wide,
            names,
            tag,
            orig,
            to_server: th.tag_to_server,
            to_post: th.tag_to_post,
            to_whole: th.tag_whole,
            covered,
        })
    }

    /// Header length in bytes.
    pub fn len(&self) -> usize {
        self.bytes
    }

    /// Whether the header has no bytes (never, for a valid manifest).
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// Field names, in the order of the value vectors.
    pub fn field_names(&self) -> &[String] {
        &self.names
    }

    /// Splits a frame from the switch into the header's field values and the packet as the
    /// NF sees it (header removed, original EtherType restored). `None` when the frame does
    /// not carry a transfer header with the to-server tag.
    pub fn decode(&self, frame: &[u8]) -> Option<(Vec<u64>, Vec<u8>)> {
        let (mut values, mut pkt) = (Vec::new(), Vec::new());
        self.decode_into(frame, &mut values, &mut pkt)
            .then_some((values, pkt))
    }

    /// [`TransferCodec::decode`] into buffers the caller reuses; false (buffers unspecified)
    /// when the frame does not carry a to-server transfer header.
    pub fn decode_into(&self, frame: &[u8], values: &mut Vec<u64>, pkt: &mut Vec<u8>) -> bool {
        if frame.len() < ETH_LEN + self.bytes
            || u16::from_be_bytes([frame[ETHERTYPE_AT], frame[ETHERTYPE_AT + 1]]) != self.ethertype
        {
            return false;
        }
        self.read_values(&frame[ETH_LEN..ETH_LEN + self.bytes], values);
        if values[self.tag] != u64::from(self.to_server) {
            return false;
        }
        pkt.clear();
        pkt.reserve(frame.len() - self.bytes);
        pkt.extend_from_slice(&frame[..ETHERTYPE_AT]);
        pkt.extend_from_slice(&(values[self.orig] as u16).to_be_bytes());
        pkt.extend_from_slice(&frame[ETH_LEN + self.bytes..]);
        true
    }

    /// The header's field values (manifest order) into `values`.
    fn read_values(&self, hdr: &[u8], values: &mut Vec<u64>) {
        let mut words = [0u64; WORDS];
        self.read_values_words(hdr, values, &mut words);
    }

    /// [`TransferCodec::read_values`], leaving the header's words (headers of up to
    /// [`MAX_FAST`] bytes) in `words`; false when the header is longer.
    fn read_values_words(
        &self,
        hdr: &[u8],
        values: &mut Vec<u64>,
        words: &mut [u64; WORDS],
    ) -> bool {
        values.clear();
        if self.bytes <= MAX_FAST {
            words.fill(0);
            to_words(hdr, words);
            values.resize(self.pos.len(), 0);
            for (v, n) in values.iter_mut().zip(&self.narrow) {
                *v = (words[n.idx as usize] >> n.sh) & n.low;
            }
            for &i in &self.wide {
                values[i] = self.pos[i].get(words);
            }
            true
        } else {
            values.extend(
                self.fields
                    .iter()
                    .map(|&(off, bits)| get_bits(hdr, off, bits)),
            );
            false
        }
    }

    /// Decodes a to-server frame *in place* (no copy of the frame): the field values go to
    /// `values`, and the packet as the NF sees it is left at `frame[offset..]`, where
    /// `offset` (returned) is [`TransferCodec::len`]: the Ethernet addresses move forward
    /// over the header and the original EtherType is restored behind them, so the header's
    /// bytes become head-room for [`TransferCodec::encode_in_place`]. `None` (frame
    /// untouched) when the frame does not carry a to-server transfer header.
    ///
    /// ```text
    /// before: | dst src | 88b5 | transfer header (len bytes) | payload |
    /// after:  | (head-room, len bytes) | dst src | orig EtherType | payload |
    /// ```
    pub fn decode_in_place(&self, frame: &mut [u8], values: &mut Vec<u64>) -> Option<usize> {
        if frame.len() < ETH_LEN + self.bytes
            || u16::from_be_bytes([frame[ETHERTYPE_AT], frame[ETHERTYPE_AT + 1]]) != self.ethertype
        {
            return None;
        }
        self.read_values(&frame[ETH_LEN..ETH_LEN + self.bytes], values);
        if values[self.tag] != u64::from(self.to_server) {
            return None;
        }
        let b = self.bytes;
        let orig = (values[self.orig] as u16).to_be_bytes();
        frame.copy_within(..ETHERTYPE_AT, b);
        frame[b + ETHERTYPE_AT..b + ETH_LEN].copy_from_slice(&orig);
        Some(b)
    }

    /// The inverse of [`TransferCodec::decode_in_place`]: the packet at
    /// `frame[self.len()..]` (possibly rewritten by the server) gets the header back in its
    /// head-room, with the server's `values`, the tag for post and `orig_ethertype` taken from
    /// the packet; `frame` is then the frame to send to the switch (what
    /// [`TransferCodec::encode`] returns for the same packet).
    pub fn encode_in_place(&self, frame: &mut Vec<u8>, values: &[u64]) {
        let b = self.bytes;
        if frame.len() < b + ETH_LEN {
            // Not an Ethernet frame: sent as it is (as `encode_into`).
            frame.drain(..b.min(frame.len()));
            return;
        }
        let orig = u64::from(u16::from_be_bytes([
            frame[b + ETHERTYPE_AT],
            frame[b + ETHERTYPE_AT + 1],
        ]));
        frame.copy_within(b..b + ETHERTYPE_AT, 0);
        frame[ETHERTYPE_AT..ETH_LEN].copy_from_slice(&self.ethertype.to_be_bytes());
        self.write_header(&mut frame[ETH_LEN..ETH_LEN + b], values, orig);
    }

    /// [`TransferCodec::decode_in_place`], keeping the decoded header's words in `kept` for
    /// [`TransferCodec::encode_changes_in_place`].
    pub fn decode_in_place_kept(
        &self,
        frame: &mut [u8],
        values: &mut Vec<u64>,
        kept: &mut KeptHeader,
    ) -> Option<usize> {
        kept.valid = false;
        if frame.len() < ETH_LEN + self.bytes
            || u16::from_be_bytes([frame[ETHERTYPE_AT], frame[ETHERTYPE_AT + 1]]) != self.ethertype
        {
            return None;
        }
        let fast = self.read_values_words(
            &frame[ETH_LEN..ETH_LEN + self.bytes],
            values,
            &mut kept.words,
        );
        if values[self.tag] != u64::from(self.to_server) {
            return None;
        }
        kept.valid = fast;
        let b = self.bytes;
        let orig = (values[self.orig] as u16).to_be_bytes();
        frame.copy_within(..ETHERTYPE_AT, b);
        frame[b + ETHERTYPE_AT..b + ETH_LEN].copy_from_slice(&orig);
        Some(b)
    }

    /// [`TransferCodec::encode_in_place`] of `output` for a frame decoded by
    /// [`TransferCodec::decode_in_place_kept`] into `input` and `kept`: the same bytes, but
    /// only the fields whose value changed are written (the others' bits are the decoded
    /// header's), instead of every field. A server partition copies most of its input to its
    /// output (statefilter: 6 of 34 fields change), so this saves most of the encoding.
    ///
    /// ```text
    /// encode_in_place:          words = 0; for every field: words |= out[i] << sh
    /// encode_changes_in_place:  words = kept & covered; for i where out[i] != in[i]: set
    /// ```
    pub fn encode_changes_in_place(
        &self,
        frame: &mut Vec<u8>,
        input: &[u64],
        output: &[u64],
        kept: &KeptHeader,
    ) {
        let b = self.bytes;
        if !kept.valid || input.len() != output.len() || frame.len() < b + ETH_LEN {
            self.encode_in_place(frame, output);
            return;
        }
        let orig = u64::from(u16::from_be_bytes([
            frame[b + ETHERTYPE_AT],
            frame[b + ETHERTYPE_AT + 1],
        ]));
        frame.copy_within(b..b + ETHERTYPE_AT, 0);
        frame[ETHERTYPE_AT..ETH_LEN].copy_from_slice(&self.ethertype.to_be_bytes());
        let mut words = [0u64; WORDS];
        let n = b.div_ceil(8);
        for ((w, k), c) in words[..n]
            .iter_mut()
            .zip(&kept.words[..n])
            .zip(&self.covered[..n])
        {
            *w = k & c;
        }
        for (i, (o, v)) in output.iter().zip(input).enumerate() {
            if o != v {
                self.pos[i].set(&mut words, *o);
            }
        }
        self.pos[self.tag].set(&mut words, u64::from(self.to_post));
        self.pos[self.orig].set(&mut words, orig);
        write_words(&mut frame[ETH_LEN..ETH_LEN + b], &words);
    }

    /// Writes the header (exactly `len()` bytes) with `values`, the tag for post and `orig`.
    fn write_header(&self, hdr: &mut [u8], values: &[u64], orig: u64) {
        let value = |i: usize, v: u64| {
            if i == self.tag {
                u64::from(self.to_post)
            } else if i == self.orig {
                orig
            } else {
                v
            }
        };
        if self.bytes <= MAX_FAST {
            // Bits no field covers are 0.
            let mut words = [0u64; WORDS];
            // Fields do not overlap and start as 0: OR them in (tag and orig_ethertype are
            // overwritten below).
            for (n, &v) in self.narrow.iter().zip(values) {
                words[n.idx as usize] |= (v & n.low) << n.sh;
            }
            for &i in &self.wide {
                if let Some(&v) = values.get(i) {
                    self.pos[i].set(&mut words, v);
                }
            }
            self.pos[self.tag].set(&mut words, u64::from(self.to_post));
            self.pos[self.orig].set(&mut words, orig);
            write_words(hdr, &words);
        } else {
            hdr.fill(0);
            for (i, (&(off, bits), &v)) in self.fields.iter().zip(values).enumerate() {
                set_bits(hdr, off, bits, value(i, v));
            }
        }
    }

    /// The packet as it arrived at the switch, when `frame` is one the switch sent to be run
    /// whole (tag `tag_whole`: a partial map's miss): header removed, original EtherType
    /// back. `None` for any other frame.
    pub fn decode_whole(&self, frame: &[u8]) -> Option<Vec<u8>> {
        let whole = self.to_whole?;
        if frame.len() < ETH_LEN + self.bytes
            || u16::from_be_bytes([frame[ETHERTYPE_AT], frame[ETHERTYPE_AT + 1]]) != self.ethertype
        {
            return None;
        }
        let hdr = &frame[ETH_LEN..ETH_LEN + self.bytes];
        let (off, bits) = self.fields[self.tag];
        if get_bits(hdr, off, bits) != u64::from(whole) {
            return None;
        }
        let (off, bits) = self.fields[self.orig];
        let mut pkt = Vec::with_capacity(frame.len() - self.bytes);
        pkt.extend_from_slice(&frame[..ETHERTYPE_AT]);
        pkt.extend_from_slice(&(get_bits(hdr, off, bits) as u16).to_be_bytes());
        pkt.extend_from_slice(&frame[ETH_LEN + self.bytes..]);
        Some(pkt)
    }

    /// The frame the server sends back to the switch: `pkt` (as the NF sees it, possibly
    /// rewritten by the server) with the header re-inserted, the tag set to "to post" and
    /// `orig_ethertype` taken from the packet. `values` are the server's output fields.
    pub fn encode(&self, pkt: &[u8], values: &[u64]) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_into(pkt, values, &mut out);
        out
    }

    /// [`TransferCodec::encode`] into a buffer the caller reuses (replacing its contents).
    pub fn encode_into(&self, pkt: &[u8], values: &[u64], out: &mut Vec<u8>) {
        out.clear();
        if pkt.len() < ETH_LEN {
            // Not an Ethernet frame: the switch never sends one to the server.
            out.extend_from_slice(pkt);
            return;
        }
        out.reserve(pkt.len() + self.bytes);
        out.extend_from_slice(&pkt[..ETHERTYPE_AT]);
        out.extend_from_slice(&self.ethertype.to_be_bytes());
        let orig = u64::from(u16::from_be_bytes([
            pkt[ETHERTYPE_AT],
            pkt[ETHERTYPE_AT + 1],
        ]));
        let at = out.len();
        out.resize(at + self.bytes, 0);
        self.write_header(&mut out[at..], values, orig);
        out.extend_from_slice(&pkt[ETH_LEN..]);
    }
}

fn parse_u16(s: &str) -> Option<u16> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u16::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Headers up to this many bytes are encoded and decoded as big-endian 64-bit words.
const MAX_FAST: usize = 240;
/// Words of such a header (one spare).
const WORDS: usize = MAX_FAST / 8 + 1;

/// The header (at most [`MAX_FAST`] bytes) as big-endian words, zero-padded.
fn to_words(hdr: &[u8], words: &mut [u64; WORDS]) {
    // Only the header's own words (the rest stay 0).
    let mut chunks = hdr.chunks_exact(8);
    for (w, c) in words.iter_mut().zip(&mut chunks) {
        let mut b = [0u8; 8];
        b.copy_from_slice(c);
        *w = u64::from_be_bytes(b);
    }
    let rem = chunks.remainder();
    if !rem.is_empty() {
        let mut b = [0u8; 8];
        b[..rem.len()].copy_from_slice(rem);
        words[hdr.len() / 8] = u64::from_be_bytes(b);
    }
}

/// The header's own bytes (`hdr.len()` of them) from big-endian words.
fn write_words(hdr: &mut [u8], words: &[u64; WORDS]) {
    let full = hdr.len() / 8;
    for (c, w) in hdr.chunks_exact_mut(8).zip(&words[..full]) {
        c.copy_from_slice(&w.to_be_bytes());
    }
    let rem = hdr.len() % 8;
    if rem > 0 {
        hdr[full * 8..].copy_from_slice(&words[full].to_be_bytes()[..rem]);
    }
}

fn mask64(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// A narrow field as the branch-free loops read it: `(words[idx] >> sh) & low` (a wide field:
/// `low` 0, so it reads 0 and writes nothing).
#[derive(Clone, Copy, Debug)]
struct Narrow {
    idx: u32,
    sh: u32,
    low: u64,
}

impl Narrow {
    fn of(p: &Pos) -> Narrow {
        if p.wide {
            Narrow {
                idx: 0,
                sh: 0,
                low: 0,
            }
        } else {
            Narrow {
                idx: p.idx as u32,
                sh: p.sh,
                low: mask64(p.bits),
            }
        }
    }
}

/// A field of 1 to 64 bits in a header read as big-endian words: word `idx`, bit `start`
/// of it (0 = most significant); a field that crosses into the next word is "wide".
#[derive(Clone, Copy, Debug)]
struct Pos {
    idx: usize,
    start: u32,
    bits: u32,
    wide: bool,
    /// Narrow fields: the field's bits in its word, and how far its low bit lies from the
    /// word's.
    mask: u64,
    sh: u32,
}

impl Pos {
    fn new(off: u32, bits: u32) -> Pos {
        let start = off % 64;
        let wide = start + bits > 64;
        let sh = if wide { 0 } else { 64 - start - bits };
        Pos {
            idx: (off / 64) as usize,
            start,
            bits,
            wide,
            mask: if wide { 0 } else { mask64(bits) << sh },
            sh,
        }
    }

    #[inline(always)]
    fn get(&self, words: &[u64; WORDS]) -> u64 {
        if !self.wide {
            return (words[self.idx] & self.mask) >> self.sh;
        }
        let first = 64 - self.start;
        let rest = self.bits - first;
        ((words[self.idx] & mask64(first)) << rest) | (words[self.idx + 1] >> (64 - rest))
    }

    /// Writes the low `bits` bits of `v`.
    #[inline(always)]
    fn set(&self, words: &mut [u64; WORDS], v: u64) {
        if !self.wide {
            let w = &mut words[self.idx];
            *w = (*w & !self.mask) | ((v << self.sh) & self.mask);
            return;
        }
        let first = 64 - self.start;
        let rest = self.bits - first;
        let m0 = mask64(first);
        words[self.idx] = (words[self.idx] & !m0) | ((v >> rest) & m0);
        let m1 = mask64(rest) << (64 - rest);
        words[self.idx + 1] = (words[self.idx + 1] & !m1) | (v << (64 - rest));
    }
}

/// The bytes `off..off + bits` span (at most 9 for a field of up to 64 bits), as one
/// big-endian number, and how many low bits of it lie past the field.
fn span(buf: &[u8], off: u32, bits: u32) -> (u128, u32, std::ops::Range<usize>) {
    let first = (off / 8) as usize;
    let last = ((off + bits).div_ceil(8)) as usize;
    let acc = buf[first..last]
        .iter()
        .fold(0u128, |a, &b| (a << 8) | u128::from(b));
    let tail = (last as u32) * 8 - (off + bits);
    (acc, tail, first..last)
}

fn mask(bits: u32) -> u128 {
    (1u128 << bits) - 1
}

/// `bits` bits at bit `off` (bit 0 = the first byte's most significant bit), big-endian.
fn get_bits(buf: &[u8], off: u32, bits: u32) -> u64 {
    let (acc, tail, _) = span(buf, off, bits);
    ((acc >> tail) & mask(bits)) as u64
}

/// Writes the low `bits` bits of `v` at bit `off` (see [`get_bits`]).
fn set_bits(buf: &mut [u8], off: u32, bits: u32, v: u64) {
    let (acc, tail, range) = span(buf, off, bits);
    let m = mask(bits) << tail;
    let acc = (acc & !m) | ((u128::from(v) << tail) & m);
    let n = range.len();
    for (i, b) in buf[range].iter_mut().enumerate() {
        *b = (acc >> (8 * (n - 1 - i))) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_p4::manifest::HeaderField;

    fn field(name: &str, offset: u32, bits: u32) -> HeaderField {
        HeaderField {
            name: name.into(),
            offset,
            bits,
            value: None,
            from: None,
            to: Vec::new(),
        }
    }

    fn header() -> TransferHeader {
        TransferHeader {
            ethertype: "0x88b5".into(),
            bytes: 10,
            tag_to_server: 1,
            tag_to_post: 2,
            tag_whole: None,
            fields: vec![
                field("tag", 0, 8),
                field("orig_ethertype", 8, 16),
                field("a", 24, 1),
                field("b", 25, 32),
                field("c", 57, 13),
                field("pad", 70, 10),
            ],
        }
    }

    fn frame_with(values: &[u64], payload: &[u8]) -> Vec<u8> {
        let mut hdr = vec![0u8; 10];
        for (&(o, b), &v) in [(0, 8), (8, 16), (24, 1), (25, 32), (57, 13), (70, 10)]
            .iter()
            .zip(values)
        {
            set_bits(&mut hdr, o, b, v);
        }
        let mut f = vec![0xaa; 12];
        f.extend_from_slice(&[0x88, 0xb5]);
        f.extend_from_slice(&hdr);
        f.extend_from_slice(payload);
        f
    }

    /// The bit-at-a-time definition the byte-wise accessors must match.
    fn get_bits_ref(buf: &[u8], off: u32, bits: u32) -> u64 {
        (off..off + bits).fold(0u64, |acc, b| {
            (acc << 1) | u64::from((buf[(b / 8) as usize] >> (7 - b % 8)) & 1)
        })
    }

    fn set_bits_ref(buf: &mut [u8], off: u32, bits: u32, v: u64) {
        for i in 0..bits {
            let b = off + i;
            let mask = 1u8 << (7 - b % 8);
            if (v >> (bits - 1 - i)) & 1 == 1 {
                buf[(b / 8) as usize] |= mask;
            } else {
                buf[(b / 8) as usize] &= !mask;
            }
        }
    }

    #[test]
    fn bit_fields_match_the_bitwise_definition() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..5000 {
            let mut buf: Vec<u8> = (0..12).map(|_| next() as u8).collect();
            let bits = (next() % 64 + 1) as u32;
            let off = (next() % (96 - u64::from(bits) + 1)) as u32;
            assert_eq!(get_bits(&buf, off, bits), get_bits_ref(&buf, off, bits));
            let mut words = [0u64; WORDS];
            to_words(&buf, &mut words);
            let p = Pos::new(off, bits);
            assert_eq!(p.get(&words), get_bits_ref(&buf, off, bits));
            let v = next();
            let mut want = buf.clone();
            set_bits_ref(&mut want, off, bits, v);
            set_bits(&mut buf, off, bits, v);
            assert_eq!(buf, want, "off {off} bits {bits}");
            p.set(&mut words, v);
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
            assert_eq!(&bytes[..buf.len()], &want[..], "off {off} bits {bits}");
        }
    }

    #[test]
    fn short_and_long_headers_encode_and_decode_alike() {
        for bytes in [10u32, 24, 300] {
            let mut h = header();
            h.bytes = bytes;
            if bytes > 16 {
                h.fields.pop();
                h.fields.push(field("d", 70, 64));
                h.fields.push(field("e", bytes * 8 - 40, 40));
            }
            let c = TransferCodec::new(&h).unwrap();
            let vals: Vec<u64> = h
                .fields
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    (0x0123_4567_89ab_cdefu64.rotate_left(i as u32 * 7))
                        & ((1u128 << f.bits) - 1) as u64
                })
                .collect();
            let mut pkt = vec![0xaa; 12];
            pkt.extend_from_slice(&[0x08, 0x00, 0x45, 1, 2, 3]);
            let f = c.encode(&pkt, &vals);
            assert_eq!(&f[12..14], &[0x88, 0xb5]);
            let hdr = &f[14..14 + bytes as usize];
            for (i, fd) in h.fields.iter().enumerate() {
                let want = match fd.name.as_str() {
                    "tag" => 2,
                    "orig_ethertype" => 0x0800,
                    _ => vals[i],
                };
                assert_eq!(
                    get_bits_ref(hdr, fd.offset, fd.bits),
                    want,
                    "{bytes} {}",
                    fd.name
                );
            }
            assert_eq!(&f[14 + bytes as usize..], &[0x45, 1, 2, 3]);
            // Back as a to-server frame: the same values.
            let mut g = f.clone();
            set_bits_ref(&mut g[14..], 0, 8, 1);
            let (back, p2) = c.decode(&g).unwrap();
            for (i, fd) in h.fields.iter().enumerate() {
                assert_eq!(
                    back[i],
                    get_bits_ref(&g[14..], fd.offset, fd.bits),
                    "{}",
                    fd.name
                );
            }
            assert_eq!(p2, pkt);
        }
    }

    #[test]
    fn decodes_fields_and_restores_the_ethertype() {
        let c = TransferCodec::new(&header()).unwrap();
        let f = frame_with(&[1, 0x0800, 1, 0xdead_beef, 0x1abc, 0], b"\x45rest");
        let (v, pkt) = c.decode(&f).unwrap();
        assert_eq!(v, vec![1, 0x0800, 1, 0xdead_beef, 0x1abc, 0]);
        assert_eq!(&pkt[12..14], &[0x08, 0x00]);
        assert_eq!(&pkt[14..], b"\x45rest");
    }

    #[test]
    fn rejects_other_frames() {
        let c = TransferCodec::new(&header()).unwrap();
        // wrong tag (a post-bound frame), wrong EtherType, too short
        assert!(c
            .decode(&frame_with(&[2, 0x0800, 0, 0, 0, 0], b""))
            .is_none());
        let mut f = frame_with(&[1, 0x0800, 0, 0, 0, 0], b"");
        f[12] = 0x08;
        assert!(c.decode(&f).is_none());
        assert!(c.decode(&[0u8; 20]).is_none());
        assert!(c.decode(&[]).is_none());
    }

    #[test]
    fn bad_manifests_are_errors() {
        let mut h = header();
        h.fields.push(field("x", 78, 8));
        assert!(TransferCodec::new(&h).is_err());
        let mut h = header();
        h.fields.retain(|f| f.name != "tag");
        assert!(TransferCodec::new(&h).is_err());
        let mut h = header();
        h.ethertype = "zz".into();
        assert!(TransferCodec::new(&h).is_err());
    }

    proptest::proptest! {
        /// encode ∘ decode keeps every field (tag → post) and the packet.
        #[test]
        fn round_trip(a in 0u64..2, b in 0u64..=u32::MAX as u64, c in 0u64..(1 << 13),
                      payload in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            let codec = TransferCodec::new(&header()).unwrap();
            let f = frame_with(&[1, 0x86dd, a, b, c, 0], &payload);
            let (v, pkt) = codec.decode(&f).unwrap();
            let back = codec.encode(&pkt, &v);
            let mut want = f.clone();
            want[14] = 2; // the tag for post
            proptest::prop_assert_eq!(back, want);
        }

        /// The in-place codec sees the same values and packet as the copying one, and its
        /// encoding is byte-for-byte the same frame, for every header length.
        #[test]
        fn in_place_matches_copying(a in 0u64..2, b in 0u64..=u32::MAX as u64,
                                    c in 0u64..(1 << 13), bytes in 10u32..40,
                                    payload in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
                                    rewrite in proptest::prelude::any::<u8>()) {
            let mut h = header();
            h.bytes = bytes;
            let codec = TransferCodec::new(&h).unwrap();
            let mut f = frame_with(&[1, 0x86dd, a, b, c, 0], &payload);
            // A longer header: zero bytes between the fields and the payload.
            for _ in 10..bytes {
                f.insert(24, 0);
            }
            let (v, mut pkt) = codec.decode(&f).unwrap();
            let mut g = f.clone();
            let mut w = Vec::new();
            let at = codec.decode_in_place(&mut g, &mut w).unwrap();
            proptest::prop_assert_eq!(&w, &v);
            proptest::prop_assert_eq!(&g[at..], &pkt[..]);
            // The server rewrites a byte of the packet and an output field.
            let last = pkt.len() - 1;
            pkt[last] ^= rewrite;
            g[at + last] ^= rewrite;
            let mut out = v.clone();
            out[3] ^= 0x5a5a;
            let want = codec.encode(&pkt, &out);
            codec.encode_in_place(&mut g, &out);
            proptest::prop_assert_eq!(&g, &want);
            // Writing only the changed fields over the decoded header: the same frame, even
            // when the bits no field covers arrived set (they go back as 0).
            let mut g2 = f.clone();
            for x in &mut g2[24..14 + bytes as usize] {
                *x = 0xff;
            }
            let mut w2 = Vec::new();
            let mut kept = KeptHeader::default();
            let at2 = codec.decode_in_place_kept(&mut g2, &mut w2, &mut kept).unwrap();
            proptest::prop_assert_eq!(at2, at);
            proptest::prop_assert_eq!(&w2, &v);
            g2[at + last] ^= rewrite;
            codec.encode_changes_in_place(&mut g2, &w2, &out, &kept);
            proptest::prop_assert_eq!(g2, want);
        }
    }
}
