//! Declared headers and the parse graph (`TANDEM_HEADER`, `TANDEM_PARSE`), and header push
//! and pop.
//!
//! Half of the NFs (with [`GenOptions::declared_headers`]) declare headers: the VXLAN
//! header after UDP port 4789 with the tenant's inner Ethernet and IPv4 headers (traffic plan
//! `vxlan`), the 802.1Q tag after EtherType 0x8100 followed by IPv4 (plan `vlan`), or random
//! headers — unsigned integer fields and byte arrays of 1 to 8 bytes, packed or naturally
//! aligned without padding — after Ethernet (an EtherType), IPv4 (a protocol), UDP (a port) or
//! each other (a field's value, or always), some leading on to IPv4, TCP or UDP. The graph is
//! acyclic by construction: every header has a rank (Ethernet 0, IPv4 100, TCP and UDP 200)
//! and edges go up; TCP, which no edge leaves, may follow any header.
//!
//! Every header has one `process()` local (`eth`, `ip`, ..., `vx`, `h4`) that always equals
//! what `pkt.header<H>()` returns now: a push assigns it the pushed header, a pop `nullptr`
//! or the accessor's (null) result. So a null test means the same natively — where a pointer
//! is a pointer — and in the NF IR, where it is `hdr.valid` at the test. A header pushed or
//! popped in a branch is neither known present nor known absent after it (`Gen::scope`).
//! Pushes happen outside loops and add at most 480 bytes (the native packet keeps pushed
//! headers in 512). With declared headers, no payload reads: the built-in parse's payload
//! overlaps them.

use super::*;

/// A declared header field's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HType {
    /// `uint8_t` … `uint64_t`.
    Int(Ty),
    /// `uint8_t f[n]`, 1 to 8 bytes.
    Bytes(u32),
}

impl HType {
    fn bytes(self) -> u32 {
        match self {
            HType::Int(t) => t.bits() / 8,
            HType::Bytes(n) => n,
        }
    }
    fn align(self) -> u32 {
        match self {
            HType::Int(t) => t.bits() / 8,
            HType::Bytes(_) => 1,
        }
    }
    fn order(self) -> Order {
        match self {
            HType::Int(Ty::U8) => Order::Byte,
            HType::Int(Ty::U16) => Order::Net16,
            HType::Int(Ty::U32) => Order::Net32,
            HType::Int(_) => Order::Net64,
            HType::Bytes(n) => Order::Array(n),
        }
    }
}

/// A declared header.
#[derive(Clone, Debug)]
pub(super) struct HdrDecl {
    /// The C++ struct.
    name: String,
    /// The `process()` local.
    pub(super) var: String,
    fields: Vec<(String, HType)>,
    packed: bool,
    /// Edges go from lower to higher ranks.
    rank: u32,
}

impl HdrDecl {
    fn size(&self) -> u32 {
        self.fields.iter().map(|(_, t)| t.bytes()).sum()
    }
}

/// The field an edge selects on.
#[derive(Clone, Debug)]
pub(super) struct Sel {
    name: String,
    ty: HType,
}

/// A parse-graph edge between headers (bits of the header sets); `sel: None` is
/// `TANDEM_ALWAYS`.
#[derive(Clone, Debug)]
pub(super) struct Edge {
    from: u32,
    sel: Option<Sel>,
    value: u64,
    to: u32,
}

const BUILTIN_TYPES: [&str; 4] = ["EthHdr", "Ipv4Hdr", "TcpHdr", "UdpHdr"];
const BUILTIN_SIZES: [u32; 4] = [14, 20, 20, 8];
const BUILTIN_RANKS: [u32; 4] = [0, 100, 200, 200];
const BUILTIN_ACCESSORS: [&str; 4] = ["eth", "ip", "tcp", "udp"];

fn sel(name: &str, ty: HType) -> Option<Sel> {
    Some(Sel {
        name: name.to_string(),
        ty,
    })
}

/// The built-in parse graph's edges.
fn builtin_edges() -> Vec<Edge> {
    let u8_ = HType::Int(Ty::U8);
    vec![
        Edge {
            from: ETH,
            sel: sel("ethertype", HType::Int(Ty::U16)),
            value: 0x0800,
            to: IP,
        },
        Edge {
            from: IP,
            sel: sel("protocol", u8_),
            value: 6,
            to: TCP,
        },
        Edge {
            from: IP,
            sel: sel("protocol", u8_),
            value: 17,
            to: UDP,
        },
    ]
}

fn ints(spec: &[(&str, Ty)]) -> Vec<(String, HType)> {
    spec.iter()
        .map(|(n, t)| (n.to_string(), HType::Int(*t)))
        .collect()
}

impl Gen {
    /// The declared headers' bits.
    pub(super) fn decl_bits(&self) -> Vec<u32> {
        (0..self.decls.len()).map(|i| 1u32 << (4 + i)).collect()
    }

    fn hdr_index(h: u32) -> usize {
        h.trailing_zeros() as usize
    }

    fn hdr_type(&self, h: u32) -> String {
        match Self::hdr_index(h) {
            i @ 0..=3 => BUILTIN_TYPES[i].to_string(),
            i => self.decls[i - 4].name.clone(),
        }
    }

    fn hdr_size(&self, h: u32) -> u32 {
        match Self::hdr_index(h) {
            i @ 0..=3 => BUILTIN_SIZES[i],
            i => self.decls[i - 4].size(),
        }
    }

    fn rank(&self, h: u32) -> u32 {
        match Self::hdr_index(h) {
            i @ 0..=3 => BUILTIN_RANKS[i],
            i => self.decls[i - 4].rank,
        }
    }

    /// The NF's edges, then the built-in ones.
    fn all_edges(&self) -> Vec<Edge> {
        let mut e = self.edges.clone();
        e.extend(builtin_edges());
        e
    }

    fn declare(&mut self, name: &str, var: &str, fields: Vec<(String, HType)>, rank: u32) -> u32 {
        self.declare_with(name, var, fields, rank, false)
    }

    fn declare_with(
        &mut self,
        name: &str,
        var: &str,
        fields: Vec<(String, HType)>,
        rank: u32,
        packed: bool,
    ) -> u32 {
        let bit = 1u32 << (4 + self.decls.len());
        self.decls.push(HdrDecl {
            name: name.to_string(),
            var: var.to_string(),
            fields,
            packed,
            rank,
        });
        bit
    }

    /// Adds an edge; no two edges may leave a header on the same condition, so a repeated
    /// condition gets the next free value (a repeated `TANDEM_ALWAYS` selects on the header's
    /// first field instead).
    fn edge(&mut self, from: u32, sel: Option<(&str, HType)>, value: u64, to: u32) {
        let mut sel = sel.map(|(n, t)| Sel {
            name: n.to_string(),
            ty: t,
        });
        let mut value = value;
        let taken = |g: &Gen, sel: &Option<Sel>, value: u64| {
            g.edges.iter().any(|e| {
                e.from == from
                    && e.value == value
                    && e.sel.as_ref().map(|s| &s.name) == sel.as_ref().map(|s| &s.name)
            })
        };
        if sel.is_none() && taken(self, &sel, 0) {
            let (n, t) = self.decls[Self::hdr_index(from) - 4].fields[0].clone();
            sel = Some(Sel { name: n, ty: t });
        }
        if let Some(s) = &sel {
            let bits = s.ty.bytes() * 8;
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            value &= mask;
            while taken(self, &sel, value) {
                value = value.wrapping_add(1) & mask;
            }
        }
        self.edges.push(Edge {
            from,
            sel,
            value,
            to,
        });
    }

    /// Declares the NF's headers and parse graph (or none), and adds their fields.
    pub(super) fn make_headers(&mut self) {
        if self.rng.chance(1, 2) {
            return;
        }
        match self.rng.below(4) {
            0 => {
                self.vxlan_headers();
                if self.rng.chance(1, 3) {
                    self.random_headers(1);
                }
            }
            1 => {
                self.vlan_headers();
                if self.rng.chance(1, 3) {
                    self.random_headers(1);
                }
            }
            _ => {
                let n = self.rng.range(1, 3) as usize;
                self.random_headers(n);
            }
        }
        // Edges in a random order: at each header they are tried in this order.
        for i in (1..self.edges.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            self.edges.swap(i, j);
        }
        for (i, d) in self.decls.clone().into_iter().enumerate() {
            let bit = 1u32 << (4 + i);
            for (name, ty) in &d.fields {
                let structural = self
                    .edges
                    .iter()
                    .any(|e| e.from == bit && e.sel.as_ref().is_some_and(|s| &s.name == name));
                self.fields.push(Field {
                    hdr: bit,
                    name: name.clone(),
                    order: ty.order(),
                    structural,
                });
            }
        }
    }

    /// VXLAN after UDP port 4789, the inner Ethernet header, and (mostly) inner IPv4, maybe
    /// followed by TCP or an inner UDP header: what the `vxlan` plan sends.
    fn vxlan_headers(&mut self) {
        self.traffic_plan = Some("vxlan");
        let b = |n: u32| HType::Bytes(n);
        let vx = self.declare(
            "VxlanHdr",
            "vx",
            vec![
                ("flags".into(), HType::Int(Ty::U8)),
                ("rsvd1".into(), b(3)),
                ("vni".into(), b(3)),
                ("rsvd2".into(), HType::Int(Ty::U8)),
            ],
            201,
        );
        let ieth = self.declare(
            "InnerEthHdr",
            "ieth",
            vec![
                ("dst".into(), b(6)),
                ("src".into(), b(6)),
                ("ethertype".into(), HType::Int(Ty::U16)),
            ],
            202,
        );
        self.edge(UDP, Some(("dport", HType::Int(Ty::U16))), 4789, vx);
        if self.rng.chance(1, 2) {
            self.edge(vx, None, 0, ieth);
        } else {
            self.edge(vx, Some(("flags", HType::Int(Ty::U8))), 0x08, ieth);
        }
        if self.rng.chance(1, 4) {
            return;
        }
        let iip = self.declare(
            "InnerIpv4Hdr",
            "iip",
            ints(&[
                ("version_ihl", Ty::U8),
                ("tos", Ty::U8),
                ("total_len", Ty::U16),
                ("id", Ty::U16),
                ("frag_off", Ty::U16),
                ("ttl", Ty::U8),
                ("protocol", Ty::U8),
                ("check", Ty::U16),
                ("saddr", Ty::U32),
                ("daddr", Ty::U32),
            ]),
            203,
        );
        self.edge(ieth, Some(("ethertype", HType::Int(Ty::U16))), 0x0800, iip);
        if self.rng.chance(1, 3) {
            // The inner TCP header is the built-in one (the outer packet is UDP).
            self.edge(iip, Some(("protocol", HType::Int(Ty::U8))), 6, TCP);
        }
        if self.rng.chance(1, 3) {
            let iudp = self.declare(
                "InnerUdpHdr",
                "iudp",
                ints(&[
                    ("sport", Ty::U16),
                    ("dport", Ty::U16),
                    ("len", Ty::U16),
                    ("check", Ty::U16),
                ]),
                204,
            );
            self.edge(iip, Some(("protocol", HType::Int(Ty::U8))), 17, iudp);
        }
    }

    /// The 802.1Q tag after EtherType 0x8100, then IPv4: what the `vlan` plan's server side
    /// sends.
    fn vlan_headers(&mut self) {
        let vlan = self.declare(
            "VlanHdr",
            "vlan",
            ints(&[("tci", Ty::U16), ("ethertype", Ty::U16)]),
            50,
        );
        self.edge(ETH, Some(("ethertype", HType::Int(Ty::U16))), 0x8100, vlan);
        self.edge(vlan, Some(("ethertype", HType::Int(Ty::U16))), 0x0800, IP);
        self.traffic_plan = Some("vlan");
    }

    /// The fields of a random header: unsigned integers and byte arrays of 1–8 bytes, packed
    /// in any order or naturally aligned (each integer at a multiple of its size, the size a
    /// multiple of the widest), never with padding.
    fn random_fields(&mut self, packed: bool) -> Vec<(String, HType)> {
        let n = self.rng.range(1, 5);
        let mut tys: Vec<HType> = Vec::new();
        let mut at = 0u32;
        let ints: &[Ty] = if self.opts.int64 {
            &[Ty::U8, Ty::U16, Ty::U32, Ty::U64]
        } else {
            &[Ty::U8, Ty::U16, Ty::U32]
        };
        for _ in 0..n {
            let t = if self.rng.chance(1, 3) {
                HType::Bytes(self.rng.range(1, 8) as u32)
            } else {
                let fit: Vec<Ty> = ints
                    .iter()
                    .copied()
                    .filter(|t| packed || at.is_multiple_of(t.bits() / 8))
                    .collect();
                HType::Int(*self.rng.pick(&fit))
            };
            at += t.bytes();
            tys.push(t);
        }
        if !packed {
            let align = tys.iter().map(|t| t.align()).max().unwrap_or(1);
            if !at.is_multiple_of(align) {
                tys.push(HType::Bytes(align - at % align));
            }
        }
        tys.into_iter()
            .enumerate()
            .map(|(i, t)| (format!("f{i}"), t))
            .collect()
    }

    /// A value for an edge selecting on a field of type `ty`.
    fn sel_value(&mut self, ty: HType) -> u64 {
        let bits = ty.bytes() * 8;
        let v = self.interesting();
        if bits == 64 {
            v
        } else {
            v & ((1u64 << bits) - 1)
        }
    }

    /// `n` random headers, each reached from a built-in header or an earlier declared one,
    /// some leading on to a built-in one.
    fn random_headers(&mut self, n: usize) {
        for _ in 0..n {
            let packed = self.rng.chance(1, 2);
            let fields = self.random_fields(packed);
            let idx = 4 + self.decls.len();
            // Where it goes: after Ethernet, IPv4, UDP, or an earlier declared header.
            let earlier: Vec<u32> = self
                .decl_bits()
                .into_iter()
                .filter(|&h| self.rank(h) % 100 < 99)
                .collect();
            let slot = self
                .rng
                .weighted(&[3, 3, 3, if earlier.is_empty() { 0 } else { 3 }]);
            let (from, rank) = match slot {
                0 => (ETH, self.rng.range(1, 98) as u32),
                1 => (IP, self.rng.range(101, 198) as u32),
                2 => (UDP, self.rng.range(201, 298) as u32),
                _ => {
                    let g = *self.rng.pick(&earlier);
                    let r = self.rank(g);
                    let top = r / 100 * 100 + 99;
                    (g, self.rng.range(u64::from(r) + 1, u64::from(top)) as u32)
                }
            };
            let h = self.declare_with(
                &format!("H{idx}"),
                &format!("h{idx}"),
                fields.clone(),
                rank,
                packed,
            );
            self.edge_into(from, h);
            // Sometimes a second way in, from another header of a lower rank.
            if self.rng.chance(1, 4) {
                let others: Vec<u32> = [ETH, IP, UDP]
                    .into_iter()
                    .chain(self.decl_bits())
                    .filter(|&g| g != from && g != h && self.rank(g) < rank)
                    .collect();
                if !others.is_empty() {
                    let g = *self.rng.pick(&others);
                    self.edge_into(g, h);
                }
            }
            // Sometimes on to a built-in header.
            if self.rng.chance(1, 3) {
                let to: Vec<u32> = [IP, UDP, TCP]
                    .into_iter()
                    .filter(|&b| b == TCP || self.rank(b) > rank)
                    .collect();
                let b = *self.rng.pick(&to);
                if self.rng.chance(1, 4) {
                    self.edge(h, None, 0, b);
                } else {
                    let (f, t) = self.rng.pick(&fields).clone();
                    let v = match (b, t.bytes()) {
                        (IP, 2) if self.rng.chance(1, 2) => 0x0800,
                        (TCP, 1) if self.rng.chance(1, 2) => 6,
                        (UDP, 1) if self.rng.chance(1, 2) => 17,
                        _ => self.sel_value(t),
                    };
                    self.edge(h, Some((&f, t)), v, b);
                }
            }
        }
    }

    /// An edge from `from` to the declared header `to`, on the field a parser would select
    /// on (values the traffic has, mostly) or, from a declared header, any field or always.
    fn edge_into(&mut self, from: u32, to: u32) {
        match from {
            ETH => {
                let v = *self
                    .rng
                    .pick(&[0x86dd, 0x88cc, 0x9000, 0x0806, 0x8100, 0x0800]);
                let v = if self.rng.chance(1, 5) {
                    self.rng.below(0x10000)
                } else {
                    v
                };
                self.edge(ETH, Some(("ethertype", HType::Int(Ty::U16))), v, to);
            }
            IP => {
                let v = *self.rng.pick(&[6u64, 17, 17, 1, 47, 99]);
                self.edge(IP, Some(("protocol", HType::Int(Ty::U8))), v, to);
            }
            UDP => {
                let f = if self.rng.chance(1, 3) {
                    "sport"
                } else {
                    "dport"
                };
                let v = *self.rng.pick(&[53u64, 53, 443, 4789, 123]);
                self.edge(UDP, Some((f, HType::Int(Ty::U16))), v, to);
            }
            g => {
                if self.rng.chance(1, 3) {
                    self.edge(g, None, 0, to);
                } else {
                    let fields = self.decls[Self::hdr_index(g) - 4].fields.clone();
                    let (f, t) = self.rng.pick(&fields).clone();
                    let v = self.sel_value(t);
                    self.edge(g, Some((&f, t)), v, to);
                }
            }
        }
    }

    /// The declared headers' structs and `TANDEM_HEADER`s.
    pub(super) fn headers_source(&self) -> String {
        let mut s = String::new();
        for d in &self.decls {
            let attr = if d.packed {
                "__attribute__((packed)) "
            } else {
                ""
            };
            let _ = writeln!(s, "struct {attr}{} {{", d.name);
            for (f, t) in &d.fields {
                let _ = match t {
                    HType::Int(ty) => writeln!(s, "  {} {f};", ty.name()),
                    HType::Bytes(n) => writeln!(s, "  uint8_t {f}[{n}];"),
                };
            }
            let names: Vec<&str> = d.fields.iter().map(|(f, _)| f.as_str()).collect();
            let _ = writeln!(s, "}};\nTANDEM_HEADER({}, {})\n", d.name, names.join(", "));
        }
        s
    }

    /// `TANDEM_PARSE(...)`, or nothing.
    pub(super) fn parse_source(&self, nf: &str) -> String {
        if self.edges.is_empty() {
            return String::new();
        }
        let edges: Vec<String> = self
            .edges
            .iter()
            .map(|e| {
                let (from, to) = (self.hdr_type(e.from), self.hdr_type(e.to));
                match &e.sel {
                    None => format!("TANDEM_ALWAYS({from}, {to})"),
                    Some(s) => format!("TANDEM_EDGE({from}, {}, {:#x}, {to})", s.name, e.value),
                }
            })
            .collect();
        format!("TANDEM_PARSE({nf},\n    {})\n", edges.join(",\n    "))
    }

    /// The declared headers' locals, at the top of `process()`.
    pub(super) fn header_locals(&mut self) {
        for d in self.decls.clone() {
            self.line(&format!(
                "{n}* {v} = pkt.header<{n}>();  (void){v};",
                n = d.name,
                v = d.var
            ));
        }
    }

    /// Headers to push or pop, by weight (declared ones more often, Ethernet rarely).
    fn pick_header(&mut self, fits: impl Fn(&Gen, u32) -> bool) -> Option<u32> {
        let all: Vec<u32> = BUILTIN.into_iter().chain(self.decl_bits()).collect();
        let weights: Vec<u32> = all
            .iter()
            .map(|&h| match h {
                _ if !fits(self, h) => 0,
                ETH => 1,
                IP | TCP | UDP => 2,
                _ => 5,
            })
            .collect();
        if weights.iter().all(|&w| w == 0) {
            return None;
        }
        Some(all[self.rng.weighted(&weights)])
    }

    /// `v = pkt.push<H>();`, then maybe the next-header fields made consistent: the header
    /// before it selects it, and it selects what the header before selected.
    pub(super) fn push_stmt(&mut self) {
        let Some(h) = self.pick_header(|g, h| g.pushed_bytes + g.hdr_size(h) <= 480) else {
            return;
        };
        let (v, t) = (self.hdr_var(h), self.hdr_type(h));
        self.line(&format!("{v} = pkt.push<{t}>();"));
        self.pushed_bytes += self.hdr_size(h);
        self.hdrs |= h;
        self.absent &= !h;
        self.touched |= h;
        if !self.rng.chance(1, 2) {
            return;
        }
        let ins: Vec<Edge> = self
            .all_edges()
            .into_iter()
            .filter(|e| e.to == h && e.from != h && e.sel.is_some() && self.hdrs & e.from != 0)
            .collect();
        if ins.is_empty() {
            return;
        }
        let e = self.rng.pick(&ins).clone();
        let s = e.sel.clone().unwrap_or_else(|| unreachable!());
        let fv = self.hdr_var(e.from);
        let outs = self.int_sels_from(h, s.ty);
        if !outs.is_empty() && self.rng.chance(2, 3) {
            let g = self.rng.pick(&outs).clone();
            self.line(&format!("{v}->{} = {fv}->{};", g.name, s.name));
        }
        let set = set_field(&fv, &s, e.value);
        self.line(&set);
    }

    /// The integer fields of type `ty` that edges from `h` select on.
    fn int_sels_from(&self, h: u32, ty: HType) -> Vec<Sel> {
        if !matches!(ty, HType::Int(_)) {
            return Vec::new();
        }
        self.all_edges()
            .into_iter()
            .filter(|o| o.from == h)
            .filter_map(|o| o.sel)
            .filter(|o| o.ty == ty)
            .collect()
    }

    /// Maybe the header before `h` made to select what `h` selected, then `pkt.pop<H>();`
    /// and the local cleared.
    pub(super) fn pop_stmt(&mut self) {
        // Ethernet only with the known-bug constructs: a frame the server leaves shorter than
        // an Ethernet header (Ethernet, IPv4 and TCP popped) cannot go back to the switch
        // (tests/fuzz-found/server_pop_short_frame.cc).
        let eth = self.opts.known_bugs;
        let Some(h) = self.pick_header(|_, h| h != ETH || eth) else {
            return;
        };
        if h == ETH {
            self.tags.push("pop-eth");
        }
        let (v, t) = (self.hdr_var(h), self.hdr_type(h));
        if self.hdrs & h != 0 && self.rng.chance(1, 2) {
            let ins: Vec<(Edge, Vec<Sel>)> = self
                .all_edges()
                .into_iter()
                .filter(|e| e.to == h && e.from != h && self.hdrs & e.from != 0)
                .filter_map(|e| {
                    let s = e.sel.clone()?;
                    let outs = self.int_sels_from(h, s.ty);
                    (!outs.is_empty()).then_some((e, outs))
                })
                .collect();
            if !ins.is_empty() {
                let (e, outs) = self.rng.pick(&ins).clone();
                let g = self.rng.pick(&outs).clone();
                let s = e.sel.unwrap_or_else(|| unreachable!());
                let fv = self.hdr_var(e.from);
                self.line(&format!("{fv}->{} = {v}->{};", s.name, g.name));
            }
        }
        self.line(&format!("pkt.pop<{t}>();"));
        let again = match Self::hdr_index(h) {
            i @ 0..=3 if self.rng.chance(1, 2) => format!("pkt.{}()", BUILTIN_ACCESSORS[i]),
            _ if self.rng.chance(1, 2) => format!("pkt.header<{t}>()"),
            _ => "nullptr".to_string(),
        };
        self.line(&format!("{v} = {again};"));
        self.hdrs &= !h;
        self.absent |= h;
        self.touched |= h;
    }
}

/// `v->f = value;` for a select field (network byte order; arrays byte by byte).
fn set_field(v: &str, s: &Sel, value: u64) -> String {
    let f = &s.name;
    match s.ty {
        HType::Int(Ty::U8) => format!("{v}->{f} = uint8_t({value}u);"),
        HType::Int(Ty::U16) => format!("{v}->{f} = htons(uint16_t({value}u));"),
        HType::Int(Ty::U32) => format!("{v}->{f} = htonl(uint32_t({value}u));"),
        HType::Int(_) => format!("{v}->{f} = __builtin_bswap64(uint64_t({value}ull));"),
        HType::Bytes(n) => (0..n)
            .map(|k| {
                let b = (value >> (8 * (n - 1 - k))) & 0xff;
                format!("{v}->{f}[{k}] = uint8_t({b}u);")
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}
