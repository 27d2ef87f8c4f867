//! Packet headers, header fields and packet metadata, exactly as the NF API exposes them.
//!
//! Field widths and byte offsets are those of the wire format. A field's value in the IR is the
//! big-endian (network-order) number formed by its wire bytes; see the crate docs, "Byte order".

use std::fmt;

/// A protocol header the NF API gives typed access to.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Header {
    /// Ethernet II, 14 bytes.
    Eth,
    /// IPv4 (options allowed; `ihl` gives the real length).
    Ipv4,
    /// TCP (the fixed 20-byte part).
    Tcp,
    /// UDP, 8 bytes.
    Udp,
}

impl Header {
    /// All headers, in parse order.
    pub const ALL: [Header; 4] = [Header::Eth, Header::Ipv4, Header::Tcp, Header::Udp];

    /// The name used in the text form (`eth`, `ipv4`, `tcp`, `udp`).
    pub fn name(self) -> &'static str {
        match self {
            Header::Eth => "eth",
            Header::Ipv4 => "ipv4",
            Header::Tcp => "tcp",
            Header::Udp => "udp",
        }
    }

    /// Looks a header up by its text-form name.
    pub fn from_name(s: &str) -> Option<Header> {
        Header::ALL.into_iter().find(|h| h.name() == s)
    }

    /// The fields of this header, in wire order.
    pub fn fields(self) -> impl Iterator<Item = HeaderField> {
        HeaderField::ALL_ARR
            .into_iter()
            .filter(move |f| f.header() == self)
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! fields {
    ($($variant:ident = ($hdr:ident, $name:literal, $bits:literal, $off:literal)),* $(,)?) => {
        /// A header field, named `header.field` in the text form (e.g. `ipv4.daddr`).
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub enum HeaderField {
            $(
                #[doc = concat!("`", $name, "`: ", stringify!($bits), " bits at byte ", stringify!($off), " of the header.")]
                $variant,
            )*
        }

        impl HeaderField {
            /// All fields of all headers.
            pub const ALL: &'static [HeaderField] = &[$(HeaderField::$variant),*];
            /// Copy of [`HeaderField::ALL`] usable by value.
            const ALL_ARR: [HeaderField; fields!(@count $($variant)*)] = [$(HeaderField::$variant),*];

            /// The header this field belongs to.
            pub fn header(self) -> Header {
                match self { $(HeaderField::$variant => Header::$hdr),* }
            }
            /// The full text-form name, e.g. `ipv4.daddr`.
            pub fn name(self) -> &'static str {
                match self { $(HeaderField::$variant => $name),* }
            }
            /// Width in bits (always a multiple of 8).
            pub fn bits(self) -> u32 {
                match self { $(HeaderField::$variant => $bits),* }
            }
            /// Byte offset of the field from the start of its header.
            pub fn byte_offset(self) -> usize {
                match self { $(HeaderField::$variant => $off),* }
            }
        }
    };
    (@count) => { 0 };
    (@count $x:ident $($rest:ident)*) => { 1 + fields!(@count $($rest)*) };
}

fields! {
    EthDst = (Eth, "eth.dst", 48, 0),
    EthSrc = (Eth, "eth.src", 48, 6),
    EthEthertype = (Eth, "eth.ethertype", 16, 12),
    Ipv4VersionIhl = (Ipv4, "ipv4.version_ihl", 8, 0),
    Ipv4Tos = (Ipv4, "ipv4.tos", 8, 1),
    Ipv4TotalLen = (Ipv4, "ipv4.total_len", 16, 2),
    Ipv4Id = (Ipv4, "ipv4.id", 16, 4),
    Ipv4FragOff = (Ipv4, "ipv4.frag_off", 16, 6),
    Ipv4Ttl = (Ipv4, "ipv4.ttl", 8, 8),
    Ipv4Protocol = (Ipv4, "ipv4.protocol", 8, 9),
    Ipv4Check = (Ipv4, "ipv4.check", 16, 10),
    Ipv4Saddr = (Ipv4, "ipv4.saddr", 32, 12),
    Ipv4Daddr = (Ipv4, "ipv4.daddr", 32, 16),
    TcpSport = (Tcp, "tcp.sport", 16, 0),
    TcpDport = (Tcp, "tcp.dport", 16, 2),
    TcpSeq = (Tcp, "tcp.seq", 32, 4),
    TcpAckSeq = (Tcp, "tcp.ack_seq", 32, 8),
    TcpDataOff = (Tcp, "tcp.data_off", 8, 12),
    TcpFlags = (Tcp, "tcp.flags", 8, 13),
    TcpWindow = (Tcp, "tcp.window", 16, 14),
    TcpCheck = (Tcp, "tcp.check", 16, 16),
    TcpUrgPtr = (Tcp, "tcp.urg_ptr", 16, 18),
    UdpSport = (Udp, "udp.sport", 16, 0),
    UdpDport = (Udp, "udp.dport", 16, 2),
    UdpLen = (Udp, "udp.len", 16, 4),
    UdpCheck = (Udp, "udp.check", 16, 6),
}

impl HeaderField {
    /// Looks a field up by its full text-form name (`ipv4.daddr`).
    pub fn from_name(s: &str) -> Option<HeaderField> {
        HeaderField::ALL_ARR.into_iter().find(|f| f.name() == s)
    }
    /// The IR type of the field's value.
    pub fn ty(self) -> crate::Type {
        // All widths are in 8..=48.
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
