//! Packet headers, header fields and packet metadata.
//!
//! Four headers are built in (Ethernet, IPv4, TCP, UDP, exactly as the NF API's `EthHdr`,
//! `Ipv4Hdr`, `TcpHdr`, `UdpHdr`); an NF may declare more (`TANDEM_HEADER` in the NF API,
//! `header` lines in the text form) and say where they are parsed ([`ParseEdge`]). Field widths
//! and byte offsets are those of the wire format. A field's value in the IR is the big-endian
//! (network-order) number formed by its wire bytes; see the crate docs, "Byte order".
//!
//! A [`Header`] is a small copyable handle. Declared headers are interned process-wide (like a
//! compiler's symbol table): declaring the same header twice gives the same handle, so names,
//! widths and offsets can be asked of a handle without the module at hand.
//!
//! ```
//! use tandem_ir::{Header, HeaderDecl};
//! let vlan = Header::declare(&HeaderDecl::new("vlan", [("tci", 16), ("ethertype", 16)])).unwrap();
//! assert_eq!(vlan.size(), 4);
//! let et = vlan.field("ethertype").unwrap();
//! assert_eq!((et.name(), et.bits(), et.byte_offset()), ("vlan.ethertype", 16, 2));
//! assert_eq!(Header::declare(&HeaderDecl::new("vlan", [("tci", 16), ("ethertype", 16)])), Ok(vlan));
//! ```

use std::fmt;
use std::sync::{LazyLock, RwLock};

/// A protocol header: one of the four built in, or one an NF declared.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Header(u16);

/// A header field, named `header.field` in the text form (e.g. `ipv4.daddr`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct HeaderField {
    header: Header,
    index: u16,
}

/// A header an NF declares: its name and its fields in wire order, each a whole number of
/// bytes wide (8 to 64 bits), back to back from byte 0.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HeaderDecl {
    /// The header's name (an identifier, not a built-in header's name).
    pub name: String,
    /// `(field name, width in bits)`, in wire order.
    pub fields: Vec<(String, u32)>,
}

impl HeaderDecl {
    /// A declaration from a name and `(field, bits)` pairs.
    pub fn new<'a>(name: &str, fields: impl IntoIterator<Item = (&'a str, u32)>) -> HeaderDecl {
        HeaderDecl {
            name: name.to_string(),
            fields: fields
                .into_iter()
                .map(|(n, b)| (n.to_string(), b))
                .collect(),
        }
    }
}

/// Why a header declaration is refused.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum HeaderError {
    /// The name is not an identifier, or is a built-in header's name.
    #[error("`{0}` cannot name a header (an identifier other than eth, ipv4, tcp, udp)")]
    BadName(String),
    /// No fields, or more than [`MAX_HEADER_FIELDS`].
    #[error("header `{name}` has {count} fields (1 to {MAX_HEADER_FIELDS} allowed)")]
    FieldCount {
        /// Header name.
        name: String,
        /// Fields given.
        count: usize,
    },
    /// A field width is not a whole number of bytes in 8..=64.
    #[error("field `{header}.{field}` is {bits} bits wide (whole bytes, 8 to 64 bits)")]
    FieldWidth {
        /// Header name.
        header: String,
        /// Field name.
        field: String,
        /// Width given.
        bits: u32,
    },
    /// A field name is not an identifier or is used twice.
    #[error("header `{header}`: field name `{field}` is not an identifier or is used twice")]
    FieldName {
        /// Header name.
        header: String,
        /// Field name.
        field: String,
    },
    /// Too many distinct headers were declared in this process.
    #[error("more than {0} distinct headers declared")]
    TooMany(usize),
}

/// The most fields a declared header may have.
pub const MAX_HEADER_FIELDS: usize = 64;
const MAX_HEADERS: usize = 60_000;

struct FieldDef {
    short: &'static str,
    full: &'static str,
    bits: u32,
    offset: usize,
}

struct HeaderDef {
    name: &'static str,
    fields: Vec<FieldDef>,
    size: usize,
}

const ETH_FIELDS: &[(&str, &str, u32, usize)] = &[
    ("dst", "eth.dst", 48, 0),
    ("src", "eth.src", 48, 6),
    ("ethertype", "eth.ethertype", 16, 12),
];
const IPV4_FIELDS: &[(&str, &str, u32, usize)] = &[
    ("version_ihl", "ipv4.version_ihl", 8, 0),
    ("tos", "ipv4.tos", 8, 1),
    ("total_len", "ipv4.total_len", 16, 2),
    ("id", "ipv4.id", 16, 4),
    ("frag_off", "ipv4.frag_off", 16, 6),
    ("ttl", "ipv4.ttl", 8, 8),
    ("protocol", "ipv4.protocol", 8, 9),
    ("check", "ipv4.check", 16, 10),
    ("saddr", "ipv4.saddr", 32, 12),
    ("daddr", "ipv4.daddr", 32, 16),
];
const TCP_FIELDS: &[(&str, &str, u32, usize)] = &[
    ("sport", "tcp.sport", 16, 0),
    ("dport", "tcp.dport", 16, 2),
    ("seq", "tcp.seq", 32, 4),
    ("ack_seq", "tcp.ack_seq", 32, 8),
    ("data_off", "tcp.data_off", 8, 12),
    ("flags", "tcp.flags", 8, 13),
    ("window", "tcp.window", 16, 14),
    ("check", "tcp.check", 16, 16),
    ("urg_ptr", "tcp.urg_ptr", 16, 18),
];
const UDP_FIELDS: &[(&str, &str, u32, usize)] = &[
    ("sport", "udp.sport", 16, 0),
    ("dport", "udp.dport", 16, 2),
    ("len", "udp.len", 16, 4),
    ("check", "udp.check", 16, 6),
];

fn builtin_def(
    name: &'static str,
    fields: &[(&'static str, &'static str, u32, usize)],
    size: usize,
) -> &'static HeaderDef {
    Box::leak(Box::new(HeaderDef {
        name,
        fields: fields
            .iter()
            .map(|&(short, full, bits, offset)| FieldDef {
                short,
                full,
                bits,
                offset,
            })
            .collect(),
        size,
    }))
}

static BUILTINS: LazyLock<[&'static HeaderDef; 4]> = LazyLock::new(|| {
    [
        builtin_def("eth", ETH_FIELDS, 14),
        builtin_def("ipv4", IPV4_FIELDS, 20),
        builtin_def("tcp", TCP_FIELDS, 20),
        builtin_def("udp", UDP_FIELDS, 8),
    ]
});

/// Declared headers, index `id - 4`.
static DECLARED: LazyLock<RwLock<Vec<&'static HeaderDef>>> =
    LazyLock::new(|| RwLock::new(Vec::new()));

fn def(h: Header) -> &'static HeaderDef {
    let i = usize::from(h.0);
    if i < 4 {
        return BUILTINS[i];
    }
    let declared = DECLARED.read().unwrap_or_else(|e| e.into_inner());
    // Handles are only made by `declare`, so the index exists.
    declared[i - 4]
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

#[allow(non_upper_case_globals)]
impl Header {
    /// Ethernet II, 14 bytes.
    pub const Eth: Header = Header(0);
    /// IPv4 (options allowed; `ihl` gives the real length).
    pub const Ipv4: Header = Header(1);
    /// TCP (the fixed 20-byte part).
    pub const Tcp: Header = Header(2);
    /// UDP, 8 bytes.
    pub const Udp: Header = Header(3);

    /// The built-in headers, in parse order.
    pub const ALL: [Header; 4] = [Header::Eth, Header::Ipv4, Header::Tcp, Header::Udp];

    /// Interns a declared header and returns its handle (the same handle for an equal
    /// declaration).
    pub fn declare(decl: &HeaderDecl) -> Result<Header, HeaderError> {
        if !is_ident(&decl.name) || Header::ALL.iter().any(|h| h.name() == decl.name) {
            return Err(HeaderError::BadName(decl.name.clone()));
        }
        if decl.fields.is_empty() || decl.fields.len() > MAX_HEADER_FIELDS {
            return Err(HeaderError::FieldCount {
                name: decl.name.clone(),
                count: decl.fields.len(),
            });
        }
        for (i, (f, bits)) in decl.fields.iter().enumerate() {
            if !is_ident(f) || decl.fields[..i].iter().any(|(g, _)| g == f) {
                return Err(HeaderError::FieldName {
                    header: decl.name.clone(),
                    field: f.clone(),
                });
            }
            if *bits % 8 != 0 || !(8..=64).contains(bits) {
                return Err(HeaderError::FieldWidth {
                    header: decl.name.clone(),
                    field: f.clone(),
                    bits: *bits,
                });
            }
        }
        let same = |d: &HeaderDef| {
            d.name == decl.name
                && d.fields.len() == decl.fields.len()
                && d.fields
                    .iter()
                    .zip(&decl.fields)
                    .all(|(a, (n, b))| a.short == n && a.bits == *b)
        };
        let mut declared = DECLARED.write().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = declared.iter().position(|d| same(d)) {
            return Ok(Header((i + 4) as u16));
        }
        if declared.len() >= MAX_HEADERS {
            return Err(HeaderError::TooMany(MAX_HEADERS));
        }
        let name: &'static str = Box::leak(decl.name.clone().into_boxed_str());
        let mut offset = 0;
        let fields = decl
            .fields
            .iter()
            .map(|(f, bits)| {
                let d = FieldDef {
                    short: Box::leak(f.clone().into_boxed_str()),
                    full: Box::leak(format!("{name}.{f}").into_boxed_str()),
                    bits: *bits,
                    offset,
                };
                offset += (*bits / 8) as usize;
                d
            })
            .collect();
        declared.push(Box::leak(Box::new(HeaderDef {
            name,
            fields,
            size: offset,
        })));
        Ok(Header((declared.len() + 3) as u16))
    }

    /// The name used in the text form (`eth`, `ipv4`, `tcp`, `udp`, or the declared name).
    pub fn name(self) -> &'static str {
        def(self).name
    }

    /// Whether this is one of the four built-in headers.
    pub fn is_builtin(self) -> bool {
        self.0 < 4
    }

    /// Looks a built-in header up by its text-form name (declared headers are found through
    /// their module: [`crate::Module::header_by_name`]).
    pub fn from_name(s: &str) -> Option<Header> {
        Header::ALL.into_iter().find(|h| h.name() == s)
    }

    /// The fields of this header, in wire order.
    pub fn fields(self) -> impl Iterator<Item = HeaderField> {
        (0..def(self).fields.len() as u16).map(move |index| HeaderField {
            header: self,
            index,
        })
    }

    /// The field named `short` (`"ethertype"`), if any.
    pub fn field(self, short: &str) -> Option<HeaderField> {
        self.fields().find(|f| f.short_name() == short)
    }

    /// The header's size in bytes (IPv4 and TCP: the fixed part).
    pub fn size(self) -> usize {
        def(self).size
    }

    /// The declaration of a declared header (`None` for a built-in one).
    pub fn decl(self) -> Option<HeaderDecl> {
        (!self.is_builtin()).then(|| HeaderDecl {
            name: self.name().to_string(),
            fields: def(self)
                .fields
                .iter()
                .map(|f| (f.short.to_string(), f.bits))
                .collect(),
        })
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[allow(non_upper_case_globals)]
impl HeaderField {
    /// `eth.dst`: 48 bits at byte 0 of the header.
    pub const EthDst: HeaderField = HeaderField {
        header: Header::Eth,
        index: 0,
    };
    /// `eth.src`: 48 bits at byte 6 of the header.
    pub const EthSrc: HeaderField = HeaderField {
        header: Header::Eth,
        index: 1,
    };
    /// `eth.ethertype`: 16 bits at byte 12 of the header.
    pub const EthEthertype: HeaderField = HeaderField {
        header: Header::Eth,
        index: 2,
    };
    /// `ipv4.version_ihl`: 8 bits at byte 0 of the header.
    pub const Ipv4VersionIhl: HeaderField = HeaderField {
        header: Header::Ipv4,
        index: 0,
    };
    /// `ipv4.tos`: 8 bits at byte 1 of the header.
    pub const Ipv4Tos: HeaderField = HeaderField {
        header: Header::Ipv4,
        index: 1,
    };
    /// `ipv4.total_len`: 16 bits at byte 2 of the header.
    pub const Ipv4TotalLen: HeaderField = HeaderField {
        header: Header::Ipv4,
        index: 2,
    };
    /// `ipv4.id`: 16 bits at byte 4 of the header.
    pub const Ipv4Id: HeaderField = HeaderField {
        header: Header::Ipv4,
        index: 3,
    };
    /// `ipv4.frag_off`: 16 bits at byte 6 of the header.
    pub const Ipv4FragOff: HeaderField = HeaderField {
        header: Header::Ipv4,
        index: 4,
    };
    /// `ipv4.ttl`: 8 bits at byte 8 of the header.
    pub const Ipv4Ttl: HeaderField = HeaderField {
        header: Header::Ipv4,
        index: 5,
    };
    /// `ipv4.protocol`: 8 bits at byte 9 of the header.
    pub const Ipv4Protocol: HeaderField = HeaderField {
        header: Header::Ipv4,
        index: 6,
    };
    /// `ipv4.check`: 16 bits at byte 10 of the header.
    pub const Ipv4Check: HeaderField = HeaderField {
        header: Header::Ipv4,
        index: 7,
    };
    /// `ipv4.saddr`: 32 bits at byte 12 of the header.
    pub const Ipv4Saddr: HeaderField = HeaderField {
        header: Header::Ipv4,
        index: 8,
    };
    /// `ipv4.daddr`: 32 bits at byte 16 of the header.
    pub const Ipv4Daddr: HeaderField = HeaderField {
        header: Header::Ipv4,
        index: 9,
    };
    /// `tcp.sport`: 16 bits at byte 0 of the header.
    pub const TcpSport: HeaderField = HeaderField {
        header: Header::Tcp,
        index: 0,
    };
    /// `tcp.dport`: 16 bits at byte 2 of the header.
    pub const TcpDport: HeaderField = HeaderField {
        header: Header::Tcp,
        index: 1,
    };
    /// `tcp.seq`: 32 bits at byte 4 of the header.
    pub const TcpSeq: HeaderField = HeaderField {
        header: Header::Tcp,
        index: 2,
    };
    /// `tcp.ack_seq`: 32 bits at byte 8 of the header.
    pub const TcpAckSeq: HeaderField = HeaderField {
        header: Header::Tcp,
        index: 3,
    };
    /// `tcp.data_off`: 8 bits at byte 12 of the header.
    pub const TcpDataOff: HeaderField = HeaderField {
        header: Header::Tcp,
        index: 4,
    };
    /// `tcp.flags`: 8 bits at byte 13 of the header.
    pub const TcpFlags: HeaderField = HeaderField {
        header: Header::Tcp,
        index: 5,
    };
    /// `tcp.window`: 16 bits at byte 14 of the header.
    pub const TcpWindow: HeaderField = HeaderField {
        header: Header::Tcp,
        index: 6,
    };
    /// `tcp.check`: 16 bits at byte 16 of the header.
    pub const TcpCheck: HeaderField = HeaderField {
        header: Header::Tcp,
        index: 7,
    };
    /// `tcp.urg_ptr`: 16 bits at byte 18 of the header.
    pub const TcpUrgPtr: HeaderField = HeaderField {
        header: Header::Tcp,
        index: 8,
    };
    /// `udp.sport`: 16 bits at byte 0 of the header.
    pub const UdpSport: HeaderField = HeaderField {
        header: Header::Udp,
        index: 0,
    };
    /// `udp.dport`: 16 bits at byte 2 of the header.
    pub const UdpDport: HeaderField = HeaderField {
        header: Header::Udp,
        index: 1,
    };
    /// `udp.len`: 16 bits at byte 4 of the header.
    pub const UdpLen: HeaderField = HeaderField {
        header: Header::Udp,
        index: 2,
    };
    /// `udp.check`: 16 bits at byte 6 of the header.
    pub const UdpCheck: HeaderField = HeaderField {
        header: Header::Udp,
        index: 3,
    };

    /// All fields of the built-in headers.
    pub const ALL: &'static [HeaderField] = &[
        HeaderField::EthDst,
        HeaderField::EthSrc,
        HeaderField::EthEthertype,
        HeaderField::Ipv4VersionIhl,
        HeaderField::Ipv4Tos,
        HeaderField::Ipv4TotalLen,
        HeaderField::Ipv4Id,
        HeaderField::Ipv4FragOff,
        HeaderField::Ipv4Ttl,
        HeaderField::Ipv4Protocol,
        HeaderField::Ipv4Check,
        HeaderField::Ipv4Saddr,
        HeaderField::Ipv4Daddr,
        HeaderField::TcpSport,
        HeaderField::TcpDport,
        HeaderField::TcpSeq,
        HeaderField::TcpAckSeq,
        HeaderField::TcpDataOff,
        HeaderField::TcpFlags,
        HeaderField::TcpWindow,
        HeaderField::TcpCheck,
        HeaderField::TcpUrgPtr,
        HeaderField::UdpSport,
        HeaderField::UdpDport,
        HeaderField::UdpLen,
        HeaderField::UdpCheck,
    ];

    fn def(self) -> &'static FieldDef {
        &def(self.header).fields[usize::from(self.index)]
    }
    /// The header this field belongs to.
    pub fn header(self) -> Header {
        self.header
    }
    /// The full text-form name, e.g. `ipv4.daddr`.
    pub fn name(self) -> &'static str {
        self.def().full
    }
    /// The field's own name, e.g. `daddr`.
    pub fn short_name(self) -> &'static str {
        self.def().short
    }
    /// Width in bits (always a multiple of 8).
    pub fn bits(self) -> u32 {
        self.def().bits
    }
    /// Byte offset of the field from the start of its header.
    pub fn byte_offset(self) -> usize {
        self.def().offset
    }
    /// Looks a built-in header's field up by its full text-form name (`ipv4.daddr`).
    pub fn from_name(s: &str) -> Option<HeaderField> {
        HeaderField::ALL.iter().copied().find(|f| f.name() == s)
    }
    /// The IR type of the field's value.
    pub fn ty(self) -> crate::Type {
        // Widths are whole bytes in 8..=64.
        crate::Type::int(self.bits()).unwrap_or(crate::Type::I64)
    }
}

impl fmt::Display for HeaderField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Per-packet metadata readable with `meta.read`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Meta {
    /// `in_port: i16` — the port the packet arrived on.
    InPort,
    /// `length: i16` — the packet length in bytes (wrapped to 16 bits).
    Length,
    /// `now: i64` — the packet's arrival timestamp in nanoseconds.
    Now,
}

impl Meta {
    /// All metadata items.
    pub const ALL: [Meta; 3] = [Meta::InPort, Meta::Length, Meta::Now];
    /// The text-form name.
    pub fn name(self) -> &'static str {
        match self {
            Meta::InPort => "in_port",
            Meta::Length => "length",
            Meta::Now => "now",
        }
    }
    /// Looks an item up by its text-form name.
    pub fn from_name(s: &str) -> Option<Meta> {
        Meta::ALL.into_iter().find(|m| m.name() == s)
    }
    /// The IR type of the item.
    pub fn ty(self) -> crate::Type {
        match self {
            Meta::InPort | Meta::Length => crate::Type::I16,
            Meta::Now => crate::Type::I64,
        }
    }
}

impl fmt::Display for Meta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
