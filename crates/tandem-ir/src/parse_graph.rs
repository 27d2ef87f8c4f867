//! The parse graph: which headers a packet has and where they sit.
//!
//! The built-in edges are Ethernet → IPv4 (`ethertype == 0x0800`, then version 4, `ihl >= 5`
//! and the whole `4*ihl`-byte header in the frame), IPv4 → TCP (`protocol == 6`, 20 bytes) and
//! IPv4 → UDP (`protocol == 17`, 8 bytes). An NF adds [`ParseEdge`]s to and from its declared
//! headers: "after header `from`, when its field `select` equals `value` (or always, without a
//! `select`), comes header `to`". Parsing starts with Ethernet (the whole frame needs 14 bytes)
//! and at each header takes the first edge whose condition holds — the NF's edges in
//! declaration order, then the built-in ones; the next header is present when its whole fixed
//! size is inside the frame (IPv4: the checks above), and parsing stops at the first header
//! that is not. A header follows IPv4 at `4*ihl` bytes, any other at its size. Edges out of TCP
//! are not allowed (the data offset, not the graph, decides where TCP ends).
//!
//! Before (built-in graph), a VLAN-tagged frame has only Ethernet; after declaring
//! `header vlan {tci: i16, ethertype: i16}` with `parse eth.ethertype == 0x8100 -> vlan` and
//! `parse vlan.ethertype == 0x0800 -> ipv4`, it has `eth@0, vlan@14, ipv4@18` and TCP/UDP after.
//!
//! The **deparse order** (the order a P4 deparser emits headers in) is a topological order of
//! the graph: Kahn's algorithm, taking the ready header first that comes first in
//! `eth, ipv4, tcp, udp, declared headers in declaration order`.

use crate::{Header, HeaderField, Module};

/// One edge of the parse graph.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParseEdge {
    /// The header after which `to` may come.
    pub from: Header,
    /// A field of `from` compared with `value`; `None`: `to` always follows `from`.
    pub select: Option<HeaderField>,
    /// The value `select` must have (as a big-endian number).
    pub value: u64,
    /// The header that follows.
    pub to: Header,
}

/// The built-in edges, in the order they are tried.
pub const BUILTIN_EDGES: [ParseEdge; 3] = [
    ParseEdge {
        from: Header::Eth,
        select: Some(HeaderField::EthEthertype),
        value: 0x0800,
        to: Header::Ipv4,
    },
    ParseEdge {
        from: Header::Ipv4,
        select: Some(HeaderField::Ipv4Protocol),
        value: 6,
        to: Header::Tcp,
    },
    ParseEdge {
        from: Header::Ipv4,
        select: Some(HeaderField::Ipv4Protocol),
        value: 17,
        to: Header::Udp,
    },
];

/// Byte offsets of the headers present in a packet.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct HeaderOffsets {
    /// Ethernet, at 0, if `len >= 14`.
    pub eth: Option<usize>,
    /// IPv4, if reached and its checks pass.
    pub ipv4: Option<usize>,
    /// TCP, if reached (`protocol == 6`) and 20 bytes are there.
    pub tcp: Option<usize>,
    /// UDP, if reached (`protocol == 17`) and 8 bytes are there.
    pub udp: Option<usize>,
    /// Declared headers present, in parse order.
    pub declared: Vec<(Header, usize)>,
    /// Where parsing stopped: the payload starts here (0 for a frame without Ethernet).
    pub end: usize,
    /// The parsed IPv4 header's length (`4*ihl`, options included).
    pub ipv4_len: usize,
}

impl HeaderOffsets {
    /// Finds the headers of `bytes` with the built-in graph only.
    pub fn parse(bytes: &[u8]) -> HeaderOffsets {
        parse_with(&[], bytes)
    }

    /// Finds the headers of `bytes` with the module's graph.
    pub fn parse_in(module: &Module, bytes: &[u8]) -> HeaderOffsets {
        parse_with(&module.parse_edges, bytes)
    }

    /// Offset of `header`, if present.
    pub fn get(&self, header: Header) -> Option<usize> {
        match header {
            Header::Eth => self.eth,
            Header::Ipv4 => self.ipv4,
            Header::Tcp => self.tcp,
            Header::Udp => self.udp,
            h => self.declared.iter().find(|(d, _)| *d == h).map(|&(_, o)| o),
        }
    }

    /// Records `header` at `off`.
    pub fn set(&mut self, header: Header, off: usize) {
        match header {
            Header::Eth => self.eth = Some(off),
            Header::Ipv4 => self.ipv4 = Some(off),
            Header::Tcp => self.tcp = Some(off),
            Header::Udp => self.udp = Some(off),
            h => self.declared.push((h, off)),
        }
    }

    /// Marks `header` absent.
    pub fn remove(&mut self, header: Header) {
        match header {
            Header::Eth => self.eth = None,
            Header::Ipv4 => self.ipv4 = None,
            Header::Tcp => self.tcp = None,
            Header::Udp => self.udp = None,
            h => self.declared.retain(|(d, _)| *d != h),
        }
    }
}

/// The value of `field` in the header at `at` (big-endian).
fn field_value(bytes: &[u8], at: usize, field: HeaderField) -> u64 {
    let start = at + field.byte_offset();
    let n = field.bits() as usize / 8;
    bytes[start..start + n]
        .iter()
        .fold(0u64, |v, &b| (v << 8) | u64::from(b))
}

/// Where the header `h` at `at` ends, if the whole of it is inside `bytes`.
fn header_end(bytes: &[u8], h: Header, at: usize) -> Option<usize> {
    let len = bytes.len();
    if h == Header::Ipv4 {
        if len < at + 20 {
            return None;
        }
        let vihl = bytes[at];
        let ihl = usize::from(vihl & 0x0f) * 4;
        return (vihl >> 4 == 4 && ihl >= 20 && len >= at + ihl).then_some(at + ihl);
    }
    let end = at + h.size();
    (len >= end).then_some(end)
}

fn parse_with(edges: &[ParseEdge], bytes: &[u8]) -> HeaderOffsets {
    let mut h = HeaderOffsets::default();
    let Some(mut end) = header_end(bytes, Header::Eth, 0) else {
        return h;
    };
    h.eth = Some(0);
    h.end = end;
    let (mut cur, mut at) = (Header::Eth, 0);
    // Each header is present at most once: the verifier refuses cycles, and the bound makes
    // a malformed graph stop instead of looping.
    for _ in 0..=edges.len() + BUILTIN_EDGES.len() {
        let next = edges.iter().chain(&BUILTIN_EDGES).find(|e| {
            e.from == cur
                && e.select
                    .is_none_or(|f| field_value(bytes, at, f) == e.value)
        });
        let Some(e) = next else { break };
        if h.get(e.to).is_some() {
            break;
        }
        let Some(next_end) = header_end(bytes, e.to, end) else {
            break;
        };
        h.set(e.to, end);
        if e.to == Header::Ipv4 {
            h.ipv4_len = next_end - end;
        }
        (cur, at, end) = (e.to, end, next_end);
        h.end = end;
    }
    h
}

/// The deparse order of the module's headers: every header of the graph (built-in and
/// declared) in a topological order (see the module docs).
pub fn deparse_order(module: &Module) -> Vec<Header> {
    let nodes: Vec<Header> = Header::ALL
        .into_iter()
        .chain(module.headers.iter().copied())
        .collect();
    let edges: Vec<ParseEdge> = module
        .parse_edges
        .iter()
        .chain(&BUILTIN_EDGES)
        .copied()
        .collect();
    let mut indeg: Vec<usize> = nodes
        .iter()
        .map(|n| {
            let mut from: Vec<Header> = edges
                .iter()
                .filter(|e| e.to == *n)
                .map(|e| e.from)
                .collect();
            from.sort();
            from.dedup();
            from.len()
        })
        .collect();
    let mut done = vec![false; nodes.len()];
    let mut order = Vec::with_capacity(nodes.len());
    while let Some(i) = (0..nodes.len()).find(|&i| !done[i] && indeg[i] == 0) {
        done[i] = true;
        order.push(nodes[i]);
        let mut succ: Vec<Header> = edges
            .iter()
            .filter(|e| e.from == nodes[i])
            .map(|e| e.to)
            .collect();
        succ.sort();
        succ.dedup();
        for s in succ {
            if let Some(j) = nodes.iter().position(|n| *n == s) {
                indeg[j] = indeg[j].saturating_sub(1);
            }
        }
    }
    // A cycle (refused by the verifier) leaves headers out; append them so callers see all.
    order.extend((0..nodes.len()).filter(|&i| !done[i]).map(|i| nodes[i]));
    order
}
