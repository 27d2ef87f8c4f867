//! Loads from a constant array at a run-time index (`static constexpr uint8_t kMap[8]`
//! read as `kMap[p]`): a choice among the array's elements, keyed by the index itself.
//!
//! The pointer into a constant global is its bytes and an `i64` byte offset; the offset of
//! `kMap[p]` is `0 + zext(p) * size`. Comparing that offset with every byte position asks
//! the switch for 64-bit arithmetic and one comparison per *byte*; the element index is what
//! the source indexes by, and it is usually a few bits wide:
//!
//! ```text
//! before:  v6:i64 = zext v5            ; p: i8
//!          v8:i64 = add v7, v6         ; v7 = 0, the array's start
//!          v18:i1 = icmp eq v8, 1      ; one comparison per byte offset, in 64 bits
//!          v19:i8 = select v18, 0, 0   ; ...
//! after:   v18:i1 = icmp eq v5, 2      ; the index in its own width
//!          v19:i8 = select v18, 2, 0   ; only elements that differ from the most common one
//!          ...
//! ```
//!
//! The offset is split into `start + stride · index` (additions of constants, a
//! multiplication or a left shift by a constant, extensions); the candidates are the
//! elements a load of that length can read in bounds. The most common element value is the
//! default, so a table of mostly equal entries costs one comparison per exception. An
//! offset of any other shape keeps the byte-by-byte choice.

use super::*;

/// `offset = start + stride * index`, `index` the source's index: narrower than 64 bits,
/// or a 64-bit value that provably fits 32 bits.
struct Strided {
    start: i64,
    stride: u64,
    index: Value,
}

impl<'a> Lifter<'a> {
    /// Split `off` into a constant start, a constant stride and an index value.
    fn strided(&self, off: Value) -> Option<Strided> {
        let mut start = 0i64;
        let mut stride = 1u64;
        let mut v = off;
        for _ in 0..8 {
            match self.def_kind(v) {
                Some(InstKind::Binary { op, args }) => {
                    let (a, b) = (args[0], args[1]);
                    match (op, self.const_value(a), self.const_value(b)) {
                        (BinOp::Add, Some(c), None) => {
                            start = start.checked_add((c as i64).checked_mul(stride as i64)?)?;
                            v = b;
                        }
                        (BinOp::Add, None, Some(c)) => {
                            start = start.checked_add((c as i64).checked_mul(stride as i64)?)?;
                            v = a;
                        }
                        (BinOp::Mul, None, Some(c)) | (BinOp::Mul, Some(c), None) if c > 0 => {
                            stride = stride.checked_mul(c)?;
                            v = if self.const_value(a).is_some() { b } else { a };
                        }
                        (BinOp::Shl, None, Some(c)) if c < 32 => {
                            stride = stride.checked_mul(1 << c)?;
                            v = a;
                        }
                        _ => break,
                    }
                }
                Some(InstKind::Cast {
                    op: CastOp::Zext | CastOp::Sext,
                    arg,
                }) => {
                    v = *arg;
                    break;
                }
                _ => break,
            }
        }
        (self.ty(v).bits() < 64 || self.fits32(v)).then_some(Strided {
            start,
            stride,
            index: v,
        })
    }

    /// The `len`-byte element of `bytes` at the run-time offset `off`, when `off` is strided:
    /// a choice keyed by the index. `None`: `off` has another shape.
    pub(super) fn load_const_table(
        &mut self,
        bytes: &[u8],
        off: Value,
        rel: i64,
        len: u64,
    ) -> Option<Value> {
        let mut s = self.strided(off)?;
        if self.ty(s.index).bits() == 64 {
            // `size_t i = h & 7`: a 64-bit index whose value fits 32 bits.
            s.index = self.low32(s.index, 4);
        }
        let ty = ty_of_bytes(len);
        let width = self.ty(s.index).bits();
        let at = |k: usize| -> u64 {
            (0..len as usize).fold(0u64, |acc, i| {
                acc | (u64::from(bytes.get(k + i).copied().unwrap_or(0)) << (8 * i))
            })
        };
        // Every index whose element lies inside the array (the source cannot read others).
        let mut elems: Vec<(u64, u64)> = Vec::new();
        let max_index = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        for j in 0..=max_index.min(bytes.len() as u64) {
            let k = s.start + rel + (j * s.stride) as i64;
            if k < 0 {
                continue;
            }
            if k as u64 + len > bytes.len() as u64 {
                break;
            }
            elems.push((j, at(k as usize)));
        }
        if elems.is_empty() {
            return None;
        }
        // The most common value is the default; the others are compared for.
        let mut counts: Vec<(u64, usize)> = Vec::new();
        for &(_, v) in &elems {
            match counts.iter_mut().find(|c| c.0 == v) {
                Some(c) => c.1 += 1,
                None => counts.push((v, 1)),
            }
        }
        let default = counts.iter().max_by_key(|c| c.1).map_or(0, |c| c.0);
        let mut acc = self.iconst(ty, default);
        let idx_ty = self.ty(s.index);
        for &(j, v) in elems.iter().filter(|e| e.1 != default) {
            let k = self.iconst(idx_ty, j);
            let is = self.icmp(IntCC::Eq, s.index, k);
            let val = self.iconst(ty, v);
            acc = self.ins1(
                InstKind::Select {
                    cond: is,
                    if_true: val,
                    if_false: acc,
                },
                ty,
            );
        }
        Some(acc)
    }
}
