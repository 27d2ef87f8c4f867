//! Bytes past a built-in header's fixed fields — TCP and IPv4 options — reached from the header
//! pointer, at a constant offset beyond the fixed part or at a run-time offset.
//!
//! The NF API's header pointers point into the frame, so an NF may walk the options that follow
//! the fixed part (`TcpHdr` is 20 bytes; `data_off` says how many option bytes follow):
//!
//! ```text
//! uint8_t* opt = reinterpret_cast<uint8_t*>(tcp) + 20;      // MSS clamping
//! for (uint32_t i = 0; i + 20 < len; i += opt[i + 1]) { if (opt[i] == 2) ... opt[i + 2] = ...; }
//! ```
//!
//! Before, the lifter refused both accesses (`L009` a header indexed by a run-time value,
//! `L005` an access outside the header). Now the pointer is [`Ptr::HeaderBytes`] (header start
//! plus an i64 offset) and each access becomes an opaque frame access the server runs:
//!
//! ```text
//! v9:i8 = opaque "tandem.header_load.tcp"(v8) reads [payload, layout, tcp.sport, ...] writes []
//! opaque "tandem.header_store.tcp"(v12, v13, v14) reads [layout] writes [payload, tcp.sport, ...]
//! ```
//!
//! The effects name the payload, the header's fields and those of every header that may come
//! after it in the frame (a run-time offset may reach them), so the partitioner orders the
//! access against field reads and writes exactly as the bytes overlap, and pins it to the
//! server (an opaque statement never runs on the switch). Only built-in headers that no
//! declared parse edge leads to qualify: their start is where the built-in parse graph puts it,
//! which is what `tandem_ir::payload::header_load` computes at run time.

use super::*;
use tandem_ir::payload::opaque_names;

impl<'a> Lifter<'a> {
    /// Whether bytes past `h`'s fixed fields can be reached through `tandem.header_load.H`.
    pub(super) fn header_bytes_ok(&self, h: Header) -> bool {
        h.is_builtin() && !self.module.parse_edges.iter().any(|e| e.to == h)
    }

    /// Whether `a` and `b` point into the same header, at least one of them at a run-time
    /// offset (so comparing or selecting them works on their offsets).
    pub(super) fn same_header_bytes(&self, a: &Ptr, b: &Ptr) -> bool {
        let header = |p: &Ptr| match p {
            Ptr::Header(h, _) | Ptr::HeaderBytes(h, _) => Some(*h),
            _ => None,
        };
        let dynamic = matches!(a, Ptr::HeaderBytes(..)) || matches!(b, Ptr::HeaderBytes(..));
        dynamic && header(a).is_some() && header(a) == header(b)
    }

    /// The i64 offset from its header's first byte of a pointer into a header.
    pub(super) fn header_offset(&mut self, p: &Ptr) -> Value {
        match p {
            Ptr::HeaderBytes(_, o) => *o,
            Ptr::Header(_, o) => self.iconst(Type::I64, *o as u64),
            _ => self.iconst(Type::I64, 0),
        }
    }

    /// Every effect a frame access relative to `h` at an unknown offset may overlap: the
    /// payload and the fields of `h` and of every header that can follow it.
    fn header_bytes_effects(&self, h: Header) -> Vec<Effect> {
        let after: &[Header] = match h {
            Header::Eth => &[Header::Eth, Header::Ipv4, Header::Tcp, Header::Udp],
            Header::Ipv4 => &[Header::Ipv4, Header::Tcp, Header::Udp],
            other if other == Header::Tcp => &[Header::Tcp],
            _ => &[Header::Udp],
        };
        let declared = self.module.headers.clone();
        let mut out = vec![Effect::Payload];
        for hh in after.iter().copied().chain(declared) {
            out.extend(hh.fields().map(Effect::Field));
        }
        out
    }

    fn offset_plus(&mut self, off: Value, rel: i64) -> Value {
        if rel == 0 {
            return off;
        }
        let r = self.iconst(Type::I64, rel as u64);
        self.binary(BinOp::Add, off, r)
    }

    /// Loads `len` bytes at `h`'s first byte + `off` + `rel` (little-endian, as a load
    /// through the pointer reads them).
    pub(super) fn load_header_bytes(&mut self, h: Header, off: Value, rel: i64, len: u64) -> Value {
        let off = self.offset_plus(off, rel);
        let mut reads = self.header_bytes_effects(h);
        reads.push(Effect::Layout);
        self.ins(
            InstKind::Opaque {
                name: format!("{}{}", opaque_names::HEADER_LOAD, h.name()),
                args: vec![off],
                reads,
                writes: vec![],
            },
            &[ty_of_bytes(len)],
        )[0]
    }

    /// Stores the `len`-byte little-endian `v` at `h`'s first byte + `off` + `rel`.
    pub(super) fn store_header_bytes(
        &mut self,
        h: Header,
        off: Value,
        rel: i64,
        len: u64,
        v: Value,
    ) {
        let off = self.offset_plus(off, rel);
        let width = self.iconst(Type::I8, len);
        let writes = self.header_bytes_effects(h);
        self.ins(
            InstKind::Opaque {
                name: format!("{}{}", opaque_names::HEADER_STORE, h.name()),
                args: vec![off, v, width],
                reads: vec![Effect::Layout],
                writes,
            },
            &[],
        );
    }
}
