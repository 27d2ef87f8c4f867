//! Expressions and conditions: leaves (literals, locals, header fields, state reads), integer
//! arithmetic without undefined behaviour (masked shifts, non-zero divisors, no signed
//! overflow), casts and comparisons.

use super::*;

impl Gen {
    /// A leaf of type `ty`.
    pub(super) fn leaf(&mut self, ty: Ty) -> String {
        loop {
            let hashes = if self.opts.hashes && !self.in_hash {
                1
            } else {
                0
            };
            match self.rng.weighted(&[3, 4, 5, 2, 2, 2, hashes]) {
                0 => {
                    let v = self.interesting();
                    return lit(ty, v);
                }
                1 if !self.locals.is_empty() => {
                    let l = self.rng.pick(&self.locals).clone();
                    return cast(ty, &l.name, l.ty);
                }
                2 => {
                    if let Some((e, t)) = self.field_read() {
                        return cast(ty, &e, t);
                    }
                }
                3 => {
                    let e = if self.rng.chance(1, 2) {
                        "pkt.in_port()"
                    } else {
                        "pkt.length()"
                    };
                    return cast(ty, e, Ty::U32);
                }
                4 => {
                    let scalars: Vec<(String, Ty)> = self
                        .states
                        .iter()
                        .filter_map(|s| match s {
                            State::Scalar { name, ty, .. } => Some((name.clone(), *ty)),
                            _ => None,
                        })
                        .collect();
                    if !scalars.is_empty() {
                        let (n, t) = self.rng.pick(&scalars).clone();
                        return cast(ty, &n, t);
                    }
                }
                5 => {
                    let vecs = self.vectors();
                    if !vecs.is_empty() {
                        let (n, elem, cap) = self.rng.pick(&vecs).clone();
                        let idx = self.index_expr(cap);
                        let get = if self.rng.chance(1, 2) {
                            format!("{n}.get({idx})")
                        } else {
                            format!("{n}[{idx}]")
                        };
                        return match elem {
                            Data::Int(t) => cast(ty, &get, t),
                            Data::Struct(i) => {
                                let (f, t) = self.rng.pick(&self.structs[i].fields).clone();
                                cast(ty, &format!("{get}.{f}"), t)
                            }
                        };
                    }
                }
                6 => {
                    let (h, t) = self.hash_value();
                    return cast(ty, &h, t);
                }
                _ => {}
            }
        }
    }

    /// A hash of 1–4 random integer operands (`crc32`, `crc16`, rarely `identity`) and its
    /// type.
    pub(super) fn hash_value(&mut self) -> (String, Ty) {
        match self.rng.below(9) {
            0..=4 => (self.hash_operands("crc32"), Ty::U32),
            5..=7 => (self.hash_operands("crc16"), Ty::U16),
            _ => (self.hash_operands("tandem::identity"), Ty::U64),
        }
    }

    /// `crc32(...)` or `crc16(...)` of random operands (each cast to its type, so the
    /// operand widths are the types'), as a `uint32_t` expression.
    pub(super) fn hash_call(&mut self) -> String {
        let f = if self.rng.chance(1, 2) {
            "crc32"
        } else {
            "crc16"
        };
        let h = self.hash_operands(f);
        format!("uint32_t({h})")
    }

    /// `f(...)` of 1–4 operands; no hash inside (`in_hash`), which bounds the recursion.
    fn hash_operands(&mut self, f: &str) -> String {
        let n = self.rng.range(1, 4);
        let outer = self.in_hash;
        self.in_hash = true;
        let ops: Vec<String> = (0..n)
            .map(|_| {
                let t = self.rand_ty();
                let e = self.expr(t, 2);
                format!("{}({e})", t.name())
            })
            .collect();
        self.in_hash = outer;
        format!("{f}({})", ops.join(", "))
    }

    /// An expression of exactly type `ty` (always wrapped in a cast to it).
    pub(super) fn expr(&mut self, ty: Ty, depth: usize) -> String {
        if depth >= 3 || self.rng.chance(depth as u64 + 2, 6) {
            return self.leaf(ty);
        }
        let w = ty.wide();
        let wb = ty.wide_bits();
        let t = ty.name();
        match self.rng.weighted(&[8, 4, 3, 3, 4, 2, 2, 2, 1]) {
            0 => {
                let op = *self.rng.pick(&["+", "-", "*", "&", "|", "^"]);
                let (a, b) = (self.sub(depth), self.sub(depth));
                format!("{t}({w}({a}) {op} {w}({b}))")
            }
            1 => {
                // Shifts: constant, masked variable or guarded variable amounts.
                let a = self.sub(depth);
                let amount = match self.rng.below(3) {
                    0 => format!("{}u", self.rng.below(u64::from(wb))),
                    1 => {
                        let b = self.sub(depth);
                        format!("({w}({b}) & {}u)", wb - 1)
                    }
                    _ => {
                        let b = self.sub(depth);
                        // Guarded: the amount is below the width where it is used.
                        return match self.rng.below(3) {
                            0 => format!("{t}({w}({b}) < {wb}u ? {w}({a}) << {w}({b}) : {w}(0u))"),
                            1 => format!("{t}({w}({b}) < {wb}u ? {w}({a}) >> {w}({b}) : {w}(0u))"),
                            _ => format!(
                                "{t}({w}({b}) < {wb}u ? {s}({a}) >> {w}({b}) : {s}(0))",
                                s = ty.swide()
                            ),
                        };
                    }
                };
                match self.rng.below(3) {
                    0 => format!("{t}({w}({a}) << {amount})"),
                    1 => format!("{t}({w}({a}) >> {amount})"),
                    // Arithmetic shift right of the sign-extended value.
                    _ => format!("{t}({s}({t}({a})) >> {amount})", s = ty.swide()),
                }
            }
            2 => {
                // Unsigned division and remainder, divisor never 0.
                let op = *self.rng.pick(&["/", "%"]);
                let a = self.sub(depth);
                match self.rng.below(3) {
                    0 => {
                        let c = self.rng.range(1, 1000);
                        format!("{t}({w}({a}) {op} {c}u)")
                    }
                    1 => {
                        let b = self.sub(depth);
                        format!("{t}({w}({a}) {op} ({w}({b}) | 1u))")
                    }
                    _ => {
                        let b = self.sub(depth);
                        format!("{t}({w}({b}) != 0u ? {w}({a}) {op} {w}({b}) : {w}({a}))")
                    }
                }
            }
            3 => {
                // Signed division and remainder: never by 0, never MIN / -1.
                let op = *self.rng.pick(&["/", "%"]);
                let s = ty.swide();
                let a = self.sub(depth);
                let b = self.sub(depth);
                format!(
                    "{t}(({s}({b}) != 0 && {s}({b}) != -1) ? {s}({a}) {op} {s}({b}) : {s}({a}))"
                )
            }
            4 => {
                let c = self.cond(depth + 1);
                format!("{t}({c})")
            }
            5 => {
                let a = self.sub(depth);
                match self.rng.below(3) {
                    0 => format!("{t}(~{w}({a}))"),
                    1 => format!("{t}({w}(0u) - {w}({a}))"),
                    _ => format!("{t}(!{w}({a}))"),
                }
            }
            6 => {
                let c = self.cond(depth + 1);
                let (a, b) = (self.expr(ty, depth + 1), self.expr(ty, depth + 1));
                format!("({c} ? {a} : {b})")
            }
            7 => {
                // A cast through another width (truncation, sign or zero extension).
                let via = self.rand_ty();
                let e = self.expr(via, depth + 1);
                format!("{t}({e})")
            }
            _ => {
                let c = self.sub(depth);
                let (a, b) = (self.expr(Ty::U16, depth + 1), self.expr(Ty::U16, depth + 1));
                let f = if self.rng.chance(1, 2) {
                    "csum_update2"
                } else {
                    "csum_update4"
                };
                let b = if f == "csum_update4" {
                    format!("uint32_t({b}) * 65537u")
                } else {
                    b
                };
                format!("{t}({f}(uint16_t({c}), {a}, {b}))")
            }
        }
    }

    /// A sub-expression of random type.
    pub(super) fn sub(&mut self, depth: usize) -> String {
        let ty = self.rand_ty();
        self.expr(ty, depth + 1)
    }

    pub(super) fn cond(&mut self, depth: usize) -> String {
        if depth < 2 && self.rng.chance(1, 5) {
            let op = *self.rng.pick(&["&&", "||"]);
            let (a, b) = (self.cond(depth + 1), self.cond(depth + 1));
            return format!("({a} {op} {b})");
        }
        match self.rng.weighted(&[8, 1, 2]) {
            0 => {
                let ty = self.rand_ty();
                let op = *self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
                let a = self.expr(ty, depth + 1);
                let b = if self.rng.chance(1, 2) {
                    let v = self.interesting();
                    lit(ty, v)
                } else {
                    self.expr(ty, depth + 1)
                };
                format!("({a} {op} {b})")
            }
            1 => {
                let c = self.cond(depth + 1);
                format!("!{c}")
            }
            _ => {
                let maps: Vec<(String, Data)> = self
                    .states
                    .iter()
                    .filter_map(|s| match s {
                        State::Map { name, key, .. } => Some((name.clone(), key.clone())),
                        _ => None,
                    })
                    .collect();
                if maps.is_empty() || depth > 1 {
                    let a = self.expr(Ty::U8, depth + 1);
                    return format!("(({a} & 1u) != 0u)");
                }
                let (m, key) = self.rng.pick(&maps).clone();
                let k = self.data_value(&key);
                format!("{m}.contains({k})")
            }
        }
    }
}

/// `e` (of type `from`) as type `to`.
fn cast(to: Ty, e: &str, from: Ty) -> String {
    if to == from {
        e.to_string()
    } else {
        format!("{}({e})", to.name())
    }
}
