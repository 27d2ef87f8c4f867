//! `LpmMap` state: keys of one unsigned integer, prefixes (some nested in others, lengths 0
//! to the key's width) inserted in `configure()` — most of them subnets and ports of the
//! traffic generator's address plans, so lookups hit — looked up in `process()` with
//! header-derived keys (`find`, `lookup`), and in some maps inserted and erased in
//! `process()` too (such a map stays on the server).

use super::*;

/// Subnets of the traffic generator's address plans (host order) and their lengths.
const SUBNETS: &[(u32, u32)] = &[
    (0xc0a8_0000, 16), // 192.168.0.0/16 (plain clients)
    (0xac10_0000, 12), // 172.16.0.0/12 (plain servers)
    (0x0a00_0000, 16), // 10.0.0.0/16 (nat inside)
    (0x0a00_4000, 18), // 10.0.64.0/18
    (0x0a00_0100, 24), // 10.0.1.0/24
    (0xc633_6400, 24), // 198.51.100.0/24
    (0xcb00_7100, 24), // 203.0.113.0/24
    (0x0a64_0000, 24), // 10.100.0.0/24 (lb services)
    (0x0a64_0001, 32), // 10.100.0.1 (the lb VIP)
    (0x0a01_0000, 24), // 10.1.0.0/24 (end hosts)
    (0xc000_0200, 24), // 192.0.2.0/24 (VTEPs)
    (0xc612_0000, 15), // 198.18.0.0/15
    (0x6440_0001, 32), // 100.64.0.1 (the VXLAN gateway)
    (0x0a00_0000, 8),  // 10.0.0.0/8
];

/// Ports of the address plans.
const PORTS: &[u16] = &[80, 443, 53, 22, 21, 4789, 8080, 6667, 3306];

/// The top `len` bits of a `bits`-bit key.
fn top_mask(bits: u32, len: u32) -> u64 {
    if len == 0 {
        return 0;
    }
    let all = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    all & !((1u64 << (bits - len)) - 1)
}

impl Gen {
    pub(super) fn make_lpm(&mut self, i: u64) -> State {
        let key = self.rand_uty();
        let val = self.rand_data();
        let cap = *self.rng.pick(&[4u64, 16, 64, 1024]);
        let bits = key.bits();
        let n = self.rng.range(0, cap.min(8));
        let mut entries: Vec<(u64, u32)> = Vec::new();
        for _ in 0..n {
            let e = if !entries.is_empty() && self.rng.chance(1, 3) {
                // Nested in an existing prefix: longer, the same top bits.
                let (p, l) = *self.rng.pick(&entries);
                if l >= bits {
                    (p, self.rng.range(0, u64::from(bits)) as u32)
                } else {
                    let len = self.rng.range(u64::from(l) + 1, u64::from(bits)) as u32;
                    let low = self.rng.next_u64() & !top_mask(bits, l);
                    ((p & top_mask(bits, l)) | low, len)
                }
            } else {
                self.lpm_prefix(bits)
            };
            entries.push(e);
        }
        State::Lpm {
            name: format!("l{i}"),
            key,
            val,
            cap,
            entries,
            written: self.rng.chance(1, 4),
        }
    }

    /// A prefix of a `bits`-bit key (low bits not always zero: the map ignores them).
    fn lpm_prefix(&mut self, bits: u32) -> (u64, u32) {
        let mask = top_mask(bits, bits);
        match (bits, self.rng.below(3)) {
            (32, 0 | 1) => {
                let (p, l) = *self.rng.pick(SUBNETS);
                let l = if self.rng.chance(1, 4) {
                    self.rng.range(0, 32) as u32
                } else {
                    l
                };
                (u64::from(p), l)
            }
            (16, 0 | 1) => {
                let p = *self.rng.pick(PORTS);
                (u64::from(p), self.rng.range(8, 16) as u32)
            }
            (8, 0) => (*self.rng.pick(&[6u64, 17, 0x45]), 8),
            (64, 0) => {
                let (p, l) = *self.rng.pick(SUBNETS);
                (u64::from(p) << 32, l)
            }
            _ => (
                self.rng.next_u64() & mask,
                self.rng.range(0, u64::from(bits)) as u32,
            ),
        }
    }

    /// A key of type `ty` for an LPM lookup: a header field (read under a null check when
    /// its header is not known present), or an expression.
    fn lpm_key(&mut self, ty: Ty) -> String {
        if self.rng.chance(1, 2) {
            let fields: Vec<Field> = self
                .fields
                .iter()
                .filter(|f| self.absent & f.hdr == 0)
                .cloned()
                .collect();
            if !fields.is_empty() {
                let f = self.rng.pick(&fields).clone();
                let h = self.hdr_var(f.hdr);
                let (e, t) = self.field_access(&h, &f);
                let e = if t == ty {
                    e
                } else {
                    format!("{}({e})", ty.name())
                };
                if self.hdrs & f.hdr != 0 {
                    return e;
                }
                return format!("({h} != nullptr ? {e} : {}(0u))", ty.name());
            }
        }
        self.expr(ty, 1)
    }

    /// The LPM maps: (name, key, value, written).
    fn lpms(&self) -> Vec<(String, Ty, Data, bool)> {
        self.states
            .iter()
            .filter_map(|s| match s {
                State::Lpm {
                    name,
                    key,
                    val,
                    written,
                    ..
                } => Some((name.clone(), *key, val.clone(), *written)),
                _ => None,
            })
            .collect()
    }

    pub(super) fn lpm_op(&mut self, depth: usize) {
        let ls = self.lpms();
        let (m, key, val, written) = self.rng.pick(&ls).clone();
        let nested = depth < self.opts.max_depth;
        match self.rng.weighted(&[
            if nested { 4 } else { 0 },
            if nested { 2 } else { 0 },
            2,
            if written { 3 } else { 0 },
            if written { 1 } else { 0 },
        ]) {
            0 => {
                let k = self.lpm_key(key);
                self.find_block(&m, &k, &val, depth);
            }
            1 => {
                let k = self.lpm_key(key);
                self.lookup_block(&m, &k, &val, depth);
            }
            2 => {
                // A hit flag, or the value (zero on a miss) into a local.
                let k = self.lpm_key(key);
                match &val {
                    Data::Int(t) if self.rng.chance(1, 2) => {
                        let x = self.fresh("x");
                        self.line(&format!("{} {x} = 0;", t.name()));
                        self.line(&format!("{m}.lookup({k}, {x});"));
                        self.locals.push(Local {
                            name: x,
                            ty: *t,
                            mutable: true,
                        });
                    }
                    _ => {
                        let x = self.fresh("x");
                        self.line(&format!(
                            "uint8_t {x} = {m}.find({k}) != nullptr ? 1u : 0u;"
                        ));
                        self.locals.push(Local {
                            name: x,
                            ty: Ty::U8,
                            mutable: false,
                        });
                    }
                }
            }
            3 => {
                let k = self.lpm_key(key);
                let len = self.lpm_len(key);
                let v = self.data_value(&val);
                if nested && self.rng.chance(1, 3) {
                    self.line(&format!("if ({m}.insert({k}, {len}, {v})) {{"));
                    self.scope(|g| g.block(depth + 1, 2));
                    self.else_block(depth);
                } else {
                    self.line(&format!("{m}.insert({k}, {len}, {v});"));
                }
            }
            _ => {
                let k = self.lpm_key(key);
                let len = self.lpm_len(key);
                self.line(&format!("{m}.erase({k}, {len});"));
            }
        }
    }

    /// A prefix length for `process()`: a constant in range, or computed (out of range
    /// too: the insert or erase does nothing).
    fn lpm_len(&mut self, key: Ty) -> String {
        if self.rng.chance(1, 4) {
            let e = self.expr(Ty::U8, 1);
            format!("unsigned({e})")
        } else {
            format!("{}u", self.rng.range(0, u64::from(key.bits())))
        }
    }
}
