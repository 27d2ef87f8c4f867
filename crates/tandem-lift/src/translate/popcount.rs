//! Population counts (`llvm.ctpop`, and `cttz`/`ctlz` built on it) in the narrowest
//! arithmetic that gives LLVM's result.
//!
//! A switch ALU is 32 bits wide and has no multiplier, so the classic SWAR count on 64 bits
//! (`x * 0x0101..01 >> 56`) keeps even `__builtin_popcount(flags & (FIN | PSH | URG)) == 3` on
//! the server. When only a few bits of the operand can be set — it was masked by a constant,
//! or widened from a narrow field — the count is the sum of those bits; otherwise a value of
//! at most 32 bits is counted in 32 bits with shifts and adds:
//!
//! ```text
//! before:  v18:i64 = zext v17                 ; v17 = and (zext flags), 41
//!          ... 11 operations on i64, one `mul` by 0x0101010101010101
//! after:   v19:i32 = lshr v17, 3 ; v20:i32 = and v19, 1      ; bit 3
//!          v22:i32 = lshr v17, 5 ; v23:i32 = and v22, 1      ; bit 5
//!          v24:i32 = and v17, 1 ; v25:i32 = add v24, v20 ; v26:i32 = add v25, v23
//! ```
//!
//! Which bits may be set is a small known-bits analysis over the value's definition
//! (constants, masks, extensions, shifts by constants, or/xor/select).

use super::*;

/// Count the bits one by one up to this many possible bits.
const BITWISE_LIMIT: u32 = 8;

impl<'a> Lifter<'a> {
    /// The bits of `v` that may be 1 (a superset), looking `depth` definitions deep.
    pub(super) fn possible_bits(&self, v: Value, depth: u32) -> u64 {
        let bits = self.ty(v).bits();
        let all = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        if let Some(c) = self.const_value(v) {
            return c & all;
        }
        if depth == 0 {
            return all;
        }
        let p = |x: Value| self.possible_bits(x, depth - 1);
        let shift = |x: Value| self.const_value(x).filter(|&c| c < u64::from(bits));
        let r = match self.def_kind(v) {
            Some(InstKind::Cast {
                op: CastOp::Zext | CastOp::Trunc,
                arg,
            }) => p(*arg),
            Some(InstKind::Binary { op, args }) => match op {
                BinOp::And => p(args[0]) & p(args[1]),
                BinOp::Or | BinOp::Xor => p(args[0]) | p(args[1]),
                BinOp::Lshr => shift(args[1]).map_or(all, |c| p(args[0]) >> c),
                BinOp::Shl => shift(args[1]).map_or(all, |c| p(args[0]) << c),
                _ => all,
            },
            Some(InstKind::Select {
                if_true, if_false, ..
            }) => p(*if_true) | p(*if_false),
            _ => all,
        };
        r & all
    }

    /// The number of set bits of `v`, in `v`'s type.
    pub(super) fn popcount(&mut self, v: Value) -> Value {
        let ty = self.ty(v);
        let possible = self.possible_bits(v, 6);
        if possible.count_ones() <= BITWISE_LIMIT {
            return self.popcount_bitwise(v, possible, ty);
        }
        if ty.bits() <= 32 {
            return self.popcount32(v, ty);
        }
        self.popcount64(v, ty)
    }

    /// The sum of the bits of `v` in `possible`, each `(v >> b) & 1`, added as a tree.
    fn popcount_bitwise(&mut self, v: Value, possible: u64, ty: Type) -> Value {
        let w = if ty.bits() <= 32 || possible >> 32 == 0 {
            Type::I32
        } else {
            ty
        };
        let x = self.resize(v, w);
        let one = self.iconst(w, 1);
        let mut terms: Vec<Value> = (0..64)
            .filter(|b| possible >> b & 1 == 1)
            .map(|b| {
                let y = if b == 0 {
                    x
                } else {
                    let c = self.iconst(w, b);
                    self.binary(BinOp::Lshr, x, c)
                };
                self.binary(BinOp::And, y, one)
            })
            .collect();
        if terms.is_empty() {
            return self.iconst(ty, 0);
        }
        while terms.len() > 1 {
            let next: Vec<Value> = terms
                .chunks(2)
                .map(|p| match p {
                    [a, b] => self.binary(BinOp::Add, *a, *b),
                    [a] => *a,
                    _ => unreachable!("chunks(2) yields one or two"),
                })
                .collect();
            terms = next;
        }
        self.resize(terms[0], ty)
    }

    /// SWAR on 32 bits, the byte counts summed with shifts and adds (no multiplication).
    fn popcount32(&mut self, v: Value, ty: Type) -> Value {
        let t = Type::I32;
        let x = self.resize(v, t);
        let c1 = self.iconst(t, 1);
        let h = self.binary(BinOp::Lshr, x, c1);
        let m1 = self.iconst(t, 0x5555_5555);
        let h = self.binary(BinOp::And, h, m1);
        let x = self.binary(BinOp::Sub, x, h);
        let c2 = self.iconst(t, 2);
        let m2 = self.iconst(t, 0x3333_3333);
        let lo = self.binary(BinOp::And, x, m2);
        let y = self.binary(BinOp::Lshr, x, c2);
        let hi = self.binary(BinOp::And, y, m2);
        let x = self.binary(BinOp::Add, lo, hi);
        let c4 = self.iconst(t, 4);
        let y = self.binary(BinOp::Lshr, x, c4);
        let x = self.binary(BinOp::Add, x, y);
        let m4 = self.iconst(t, 0x0f0f_0f0f);
        let x = self.binary(BinOp::And, x, m4);
        let c8 = self.iconst(t, 8);
        let y = self.binary(BinOp::Lshr, x, c8);
        let x = self.binary(BinOp::Add, x, y);
        let c16 = self.iconst(t, 16);
        let y = self.binary(BinOp::Lshr, x, c16);
        let x = self.binary(BinOp::Add, x, y);
        let m6 = self.iconst(t, 0x3f);
        let n = self.binary(BinOp::And, x, m6);
        self.resize(n, ty)
    }

    /// SWAR on 64 bits.
    fn popcount64(&mut self, v: Value, ty: Type) -> Value {
        let x = self.resize(v, Type::I64);
        let step = |l: &mut Self, x: Value, sh: u64, mask: u64| {
            let c = l.iconst(Type::I64, sh);
            let y = l.binary(BinOp::Lshr, x, c);
            let m = l.iconst(Type::I64, mask);
            (l.binary(BinOp::And, x, m), l.binary(BinOp::And, y, m))
        };
        // x - ((x >> 1) & 0x55..): two-bit counts.
        let c1 = self.iconst(Type::I64, 1);
        let h = self.binary(BinOp::Lshr, x, c1);
        let m1 = self.iconst(Type::I64, 0x5555_5555_5555_5555);
        let h = self.binary(BinOp::And, h, m1);
        let x = self.binary(BinOp::Sub, x, h);
        // Four-bit counts, then byte counts.
        let (lo, hi) = step(self, x, 2, 0x3333_3333_3333_3333);
        let x = self.binary(BinOp::Add, lo, hi);
        let c4 = self.iconst(Type::I64, 4);
        let y = self.binary(BinOp::Lshr, x, c4);
        let x = self.binary(BinOp::Add, x, y);
        let m4 = self.iconst(Type::I64, 0x0f0f_0f0f_0f0f_0f0f);
        let x = self.binary(BinOp::And, x, m4);
        // The sum of the byte counts in the top byte.
        let k = self.iconst(Type::I64, 0x0101_0101_0101_0101);
        let x = self.binary(BinOp::Mul, x, k);
        let c56 = self.iconst(Type::I64, 56);
        let n = self.binary(BinOp::Lshr, x, c56);
        self.resize(n, ty)
    }
}
