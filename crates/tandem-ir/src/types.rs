//! Integer types.

use std::fmt;

/// An integer type `iN` with `1 <= N <= 64` bits. Integers carry no sign; operations decide
/// how to interpret them (as in LLVM). Values of type `iN` are stored zero-extended in a `u64`
/// and always lie in `0 .. 2^N`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Type {
    bits: u8,
}

impl Type {
    /// `i1`, the type of conditions.
    pub const I1: Type = Type { bits: 1 };
    /// `i8`.
    pub const I8: Type = Type { bits: 8 };
    /// `i16`.
    pub const I16: Type = Type { bits: 16 };
    /// `i32`.
    pub const I32: Type = Type { bits: 32 };
    /// `i48` (Ethernet addresses).
    pub const I48: Type = Type { bits: 48 };
    /// `i64`.
    pub const I64: Type = Type { bits: 64 };

    /// The type `i{bits}`, or `None` when `bits` is not in `1..=64`.
    pub fn int(bits: u32) -> Option<Type> {
        if (1..=64).contains(&bits) {
            Some(Type { bits: bits as u8 })
        } else {
            None
        }
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        u32::from(self.bits)
    }

    /// Width in whole bytes (`ceil(bits / 8)`), the size of the field in packed layouts.
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// The mask of all valid bits, `2^bits - 1`.
    pub fn mask(self) -> u64 {
        if self.bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.bits) - 1
        }
    }

    /// Truncates `v` to this type (wrap-around).
    pub fn wrap(self, v: u64) -> u64 {
        v & self.mask()
    }

    /// Interprets the (already wrapped) `v` as a two's-complement signed number.
    pub fn to_signed(self, v: u64) -> i64 {
        let shift = 64 - self.bits();
        ((v << shift) as i64) >> shift
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "i{}", self.bits)
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
