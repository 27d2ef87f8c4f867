//! Header fields: which fields the generator reads and writes (with their byte order and
//! whether they shape the parse), and the statements and expressions that access them under
//! the presence checks the NF API requires.

use super::*;

pub(super) const ETH: u8 = 1;
pub(super) const IP: u8 = 2;
pub(super) const TCP: u8 = 4;
pub(super) const UDP: u8 = 8;

#[derive(Clone, Copy)]
pub(super) enum Order {
    Byte,
    Net16,
    Net32,
    Array,
}

pub(super) struct Field {
    pub(super) hdr: u8,
    pub(super) name: &'static str,
    pub(super) order: Order,
    pub(super) structural: bool,
}

pub(super) const FIELDS: &[Field] = &[
    Field {
        hdr: ETH,
        name: "dst",
        order: Order::Array,
        structural: false,
    },
    Field {
        hdr: ETH,
        name: "src",
        order: Order::Array,
        structural: false,
    },
    Field {
        hdr: ETH,
        name: "ethertype",
        order: Order::Net16,
        structural: true,
    },
    Field {
        hdr: IP,
        name: "version_ihl",
        order: Order::Byte,
        structural: true,
    },
    Field {
        hdr: IP,
        name: "tos",
        order: Order::Byte,
        structural: false,
    },
    Field {
        hdr: IP,
        name: "total_len",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: IP,
        name: "id",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: IP,
        name: "frag_off",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: IP,
        name: "ttl",
        order: Order::Byte,
        structural: false,
    },
    Field {
        hdr: IP,
        name: "protocol",
        order: Order::Byte,
        structural: true,
    },
    Field {
        hdr: IP,
        name: "check",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: IP,
        name: "saddr",
        order: Order::Net32,
        structural: false,
    },
    Field {
        hdr: IP,
        name: "daddr",
        order: Order::Net32,
        structural: false,
    },
    Field {
        hdr: TCP,
        name: "sport",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: TCP,
        name: "dport",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: TCP,
        name: "seq",
        order: Order::Net32,
        structural: false,
    },
    Field {
        hdr: TCP,
        name: "ack_seq",
        order: Order::Net32,
        structural: false,
    },
    Field {
        hdr: TCP,
        name: "data_off",
        order: Order::Byte,
        structural: true,
    },
    Field {
        hdr: TCP,
        name: "flags",
        order: Order::Byte,
        structural: false,
    },
    Field {
        hdr: TCP,
        name: "window",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: TCP,
        name: "check",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: TCP,
        name: "urg_ptr",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: UDP,
        name: "sport",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: UDP,
        name: "dport",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: UDP,
        name: "len",
        order: Order::Net16,
        structural: false,
    },
    Field {
        hdr: UDP,
        name: "check",
        order: Order::Net16,
        structural: false,
    },
];

pub(super) fn hdr_var(h: u8) -> &'static str {
    match h {
        ETH => "eth",
        IP => "ip",
        TCP => "tcp",
        _ => "udp",
    }
}

impl Gen {
    pub(super) fn header_write(&mut self) {
        let fields: Vec<&Field> = FIELDS
            .iter()
            .filter(|f| self.hdrs & f.hdr != 0 && (self.opts.structural_writes || !f.structural))
            .collect();
        if fields.is_empty() {
            // No header known present: guard one.
            let cands: Vec<u8> = [IP, TCP, UDP]
                .into_iter()
                .filter(|h| self.absent & h == 0)
                .collect();
            if cands.is_empty() {
                return;
            }
            let h = *self.rng.pick(&cands);
            let fs: Vec<&Field> = FIELDS
                .iter()
                .filter(|f| f.hdr == h && !f.structural)
                .collect();
            let f = *self.rng.pick(&fs);
            let saved = self.hdrs;
            self.hdrs |= h | ETH | if h != IP { IP } else { 0 };
            let w = self.field_store(f);
            self.hdrs = saved;
            let test = self.presence(Self::chain(h), "!=", " && ");
            self.line(&format!("if ({test}) {w}"));
            return;
        }
        let f = *self.rng.pick(&fields);
        let w = self.field_store(f);
        self.line(&w);
    }

    pub(super) fn field_store(&mut self, f: &Field) -> String {
        let h = hdr_var(f.hdr);
        match f.order {
            Order::Byte => {
                let e = self.expr(Ty::U8, 0);
                format!("{h}->{} = {e};", f.name)
            }
            Order::Array => {
                let k = self.rng.below(6);
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
                if self.rng.chance(1, 4) {
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
        }
    }

    /// A read of a present header's field, as an expression of the field's natural type.
    pub(super) fn field_read(&mut self) -> Option<(String, Ty)> {
        let fields: Vec<&Field> = FIELDS.iter().filter(|f| self.hdrs & f.hdr != 0).collect();
        if fields.is_empty() {
            return None;
        }
        let f = *self.rng.pick(&fields);
        let h = hdr_var(f.hdr);
        Some(match f.order {
            Order::Byte => (format!("{h}->{}", f.name), Ty::U8),
            Order::Array => (format!("{h}->{}[{}]", f.name, self.rng.below(6)), Ty::U8),
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
        })
    }
}
