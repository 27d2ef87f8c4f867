//! Header fields: which fields the generator reads and writes (with their byte order and
//! whether they shape the parse), and the statements and expressions that access them under
//! the presence checks the NF API requires.

use super::*;

pub(super) const ETH: u32 = 1;
pub(super) const IP: u32 = 2;
pub(super) const TCP: u32 = 4;
pub(super) const UDP: u32 = 8;
/// The built-in headers, in header-number order (declared headers are bits 4.. of the same
/// sets, see `headers`).
pub(super) const BUILTIN: [u32; 4] = [ETH, IP, TCP, UDP];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    Byte,
    Net16,
    Net32,
    /// A 64-bit field (declared headers), read and written raw or through
    /// `__builtin_bswap64`.
    Net64,
    /// A byte array of this many bytes, accessed by element.
    Array(u32),
}

/// A header field: its header (one bit of the header sets), name, byte order and whether the
/// parser selects on it.
#[derive(Clone, Debug)]
pub(super) struct Field {
    pub(super) hdr: u32,
    pub(super) name: String,
    pub(super) order: Order,
    pub(super) structural: bool,
}

/// A built-in header field.
pub(super) struct BuiltinField {
    pub(super) hdr: u32,
    pub(super) name: &'static str,
    pub(super) order: Order,
    pub(super) structural: bool,
}

pub(super) const FIELDS: &[BuiltinField] = &[
    BuiltinField {
        hdr: ETH,
        name: "dst",
        order: Order::Array(6),
        structural: false,
    },
    BuiltinField {
        hdr: ETH,
        name: "src",
        order: Order::Array(6),
        structural: false,
    },
    BuiltinField {
        hdr: ETH,
        name: "ethertype",
        order: Order::Net16,
        structural: true,
    },
    BuiltinField {
        hdr: IP,
        name: "version_ihl",
        order: Order::Byte,
        structural: true,
    },
    BuiltinField {
        hdr: IP,
        name: "tos",
        order: Order::Byte,
        structural: false,
    },
    BuiltinField {
        hdr: IP,
        name: "total_len",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: IP,
        name: "id",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: IP,
        name: "frag_off",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: IP,
        name: "ttl",
        order: Order::Byte,
        structural: false,
    },
    BuiltinField {
        hdr: IP,
        name: "protocol",
        order: Order::Byte,
        structural: true,
    },
    BuiltinField {
        hdr: IP,
        name: "check",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: IP,
        name: "saddr",
        order: Order::Net32,
        structural: false,
    },
    BuiltinField {
        hdr: IP,
        name: "daddr",
        order: Order::Net32,
        structural: false,
    },
    BuiltinField {
        hdr: TCP,
        name: "sport",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: TCP,
        name: "dport",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: TCP,
        name: "seq",
        order: Order::Net32,
        structural: false,
    },
    BuiltinField {
        hdr: TCP,
        name: "ack_seq",
        order: Order::Net32,
        structural: false,
    },
    BuiltinField {
        hdr: TCP,
        name: "data_off",
        order: Order::Byte,
        structural: true,
    },
    BuiltinField {
        hdr: TCP,
        name: "flags",
        order: Order::Byte,
        structural: false,
    },
    BuiltinField {
        hdr: TCP,
        name: "window",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: TCP,
        name: "check",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: TCP,
        name: "urg_ptr",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: UDP,
        name: "sport",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: UDP,
        name: "dport",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: UDP,
        name: "len",
        order: Order::Net16,
        structural: false,
    },
    BuiltinField {
        hdr: UDP,
        name: "check",
        order: Order::Net16,
        structural: false,
    },
];

/// The `process()` local of a built-in header.
pub(super) fn builtin_var(h: u32) -> &'static str {
    match h {
        ETH => "eth",
        IP => "ip",
        TCP => "tcp",
        _ => "udp",
    }
}

/// The built-in fields as `Field`s, in table order.
pub(super) fn builtin_fields() -> Vec<Field> {
    FIELDS
        .iter()
        .map(|f| Field {
            hdr: f.hdr,
            name: f.name.to_string(),
            order: f.order,
            structural: f.structural,
        })
        .collect()
}

impl Gen {
    /// The `process()` local holding header `h`'s pointer.
    pub(super) fn hdr_var(&self, h: u32) -> String {
        match BUILTIN.iter().position(|&b| b == h) {
            Some(_) => builtin_var(h).to_string(),
            None => self.decls[h.trailing_zeros() as usize - 4].var.clone(),
        }
    }

    pub(super) fn header_write(&mut self) {
        let fields: Vec<Field> = self
            .fields
            .iter()
            .filter(|f| self.hdrs & f.hdr != 0 && (self.opts.structural_writes || !f.structural))
            .cloned()
            .collect();
        if fields.is_empty() {
            // No header known present: guard one.
            let cands: Vec<u32> = [IP, TCP, UDP]
                .into_iter()
                .chain(self.decl_bits())
                .filter(|h| self.absent & h == 0)
                .collect();
            if cands.is_empty() {
                return;
            }
            let h = *self.rng.pick(&cands);
            let fs: Vec<Field> = self
                .fields
                .iter()
                .filter(|f| f.hdr == h && !f.structural)
                .cloned()
                .collect();
            if fs.is_empty() {
                return;
            }
            let f = self.rng.pick(&fs).clone();
            let saved = self.hdrs;
            self.hdrs |= Self::chain(h);
            let w = self.field_store(&f);
            self.hdrs = saved;
            let test = self.presence(Self::chain(h), "!=", " && ");
            self.line(&format!("if ({test}) {w}"));
            return;
        }
        let f = self.rng.pick(&fields).clone();
        let w = self.field_store(&f);
        self.line(&w);
    }

    pub(super) fn field_store(&mut self, f: &Field) -> String {
        let h = self.hdr_var(f.hdr);
        let builtin = BUILTIN.contains(&f.hdr);
        match f.order {
            Order::Byte => {
                let e = self.expr(Ty::U8, 0);
                format!("{h}->{} = {e};", f.name)
            }
            Order::Array(n) => {
                let k = self.rng.below(u64::from(n));
                let e = self.expr(Ty::U8, 0);
                format!("{h}->{}[{k}] = {e};", f.name)
            }
            Order::Net16 => {
                let e = self.expr(Ty::U16, 0);
                if self.rng.chance(2, 3) {
                    format!("{h}->{} = htons({e});", f.name)
                } else {
                    format!("{h}->{} = {e};", f.name)
                }
            }
            Order::Net32 => {
                if builtin && self.rng.chance(1, 4) {
                    // An address rewrite with the checksum update, as NATs do.
                    let e = self.expr(Ty::U32, 0);
                    let n = self.fresh("x");
                    return format!(
                        "{{ uint32_t {n} = htonl({e}); {h}->check = csum_update4({h}->check, {h}->{f}, {n}); {h}->{f} = {n}; }}",
                        f = f.name
                    );
                }
                let e = self.expr(Ty::U32, 0);
                if self.rng.chance(2, 3) {
                    format!("{h}->{} = htonl({e});", f.name)
                } else {
                    format!("{h}->{} = {e};", f.name)
                }
            }
            Order::Net64 => {
                let e = self.expr(Ty::U64, 0);
                if self.rng.chance(1, 2) {
                    format!("{h}->{} = __builtin_bswap64({e});", f.name)
                } else {
                    format!("{h}->{} = {e};", f.name)
                }
            }
        }
    }

    /// A read of a present header's field, as an expression of the field's natural type.
    pub(super) fn field_read(&mut self) -> Option<(String, Ty)> {
        let fields: Vec<Field> = self
            .fields
            .iter()
            .filter(|f| self.hdrs & f.hdr != 0)
            .cloned()
            .collect();
        if fields.is_empty() {
            return None;
        }
        let f = self.rng.pick(&fields).clone();
        let h = self.hdr_var(f.hdr);
        Some(self.field_access(&h, &f))
    }

    /// `f` of the header `h` points at, as an expression of the field's natural type.
    pub(super) fn field_access(&mut self, h: &str, f: &Field) -> (String, Ty) {
        match f.order {
            Order::Byte => (format!("{h}->{}", f.name), Ty::U8),
            Order::Array(n) => (
                format!("{h}->{}[{}]", f.name, self.rng.below(u64::from(n))),
                Ty::U8,
            ),
            Order::Net16 => {
                if self.rng.chance(2, 3) {
                    (format!("ntohs({h}->{})", f.name), Ty::U16)
                } else {
                    (format!("{h}->{}", f.name), Ty::U16)
                }
            }
            Order::Net32 => {
                if self.rng.chance(2, 3) {
                    (format!("ntohl({h}->{})", f.name), Ty::U32)
                } else {
                    (format!("{h}->{}", f.name), Ty::U32)
                }
            }
            Order::Net64 => {
                if self.rng.chance(1, 2) {
                    (
                        format!("uint64_t(__builtin_bswap64({h}->{}))", f.name),
                        Ty::U64,
                    )
                } else {
                    (format!("{h}->{}", f.name), Ty::U64)
                }
            }
        }
    }
}
