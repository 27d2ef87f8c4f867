//! IPv4/IPv6 pooling (Sailfish §4.4): two maps of one table type, one keyed by an IPv4 and
//! one by an IPv6 address, held as one switch table keyed by a family tag and the 128-bit
//! address. Found by shape, never by name ([`PoolShape::of`]):
//! - both LPM maps, or both exact hash maps (not expiring), with the same value layout;
//! - the narrow map's key is `L4 ++ [addr: 32 bits]` (an LPM map: its prefix is that field),
//!   the wide map's `L6 ++ [hi: 64, lo: 64]` (an LPM map: its prefix is those two words,
//!   128 bits), with `L4` no longer than `L6` and each of its fields no wider than the
//!   `L6` field at its place.
//!
//! The pooled key is `[tag: 1 bit] ++ L6 ++ [hi, lo]`. A wide key keeps its fields, tag 1. A
//! narrow key takes tag 0, its `L4` fields zero-extended into the first `L6` fields (the
//! rest 0), and its address **IPv4-mapped** (RFC 4291 §2.5.5.2): `hi = 0`, `lo =
//! 0x0000_ffff_0000_0000 | addr`, so an IPv4 prefix of length `n` is the 128-bit prefix of
//! length `96 + n`. The tag alone keeps the families apart; the mapping keeps a narrow
//! prefix a prefix of the pooled address.
//!
//! ```text
//! before: routes4: lpm_map<{vni: i32, addr: i32}, Route>    table routes4 (exact vni, lpm addr)
//!         routes6: lpm_map<{vni: i64, hi: i64, lo: i64}, Route, 2>   table routes6 (ternary)
//! after:  table routes4_routes6_pool { key = { tag: ternary; vni: ternary; hi: ternary;
//!                                              lo: ternary; } }   (one table, both families)
//!         routes4 entry (7, 10.1.0.0/16) -> tag 0, vni 7, hi 0, lo ::ffff:10.1.0.0, /112
//!         routes6 entry (7, fd00::/8)   -> tag 1, vni 7, hi 0xfd00.., lo 0, /8
//! ```
//!
//! The P4 back end emits the table (`tandem_p4::lower::pool`), the runtime translates each
//! member's entries ([`PoolShape::entry`]); the memory model counts one table
//! ([`crate::compress`]).

use tandem_ir::{MapMatch, StateKind};

/// The low word of an IPv4-mapped address: `::ffff:a.b.c.d`.
pub const V4_MAPPED: u64 = 0x0000_ffff_0000_0000;
/// An IPv4 prefix of length `n` is the pooled prefix of length `V4_PREFIX_OFFSET + n`.
pub const V4_PREFIX_OFFSET: u64 = 96;

/// Which member of a pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The map keyed by a 32-bit address (tag 0).
    V4,
    /// The map keyed by a 128-bit address (tag 1).
    V6,
}

impl Family {
    /// The tag value of its entries.
    pub fn tag(self) -> u64 {
        match self {
            Family::V4 => 0,
            Family::V6 => 1,
        }
    }
}

/// Why two maps cannot be pooled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot pool `{a}` with `{b}`: {why}")]
pub struct PoolError {
    pub a: String,
    pub b: String,
    pub why: String,
}

/// How two maps pool: which is which, and the pooled key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolShape {
    /// Whether the maps are LPM maps (else exact).
    pub lpm: bool,
    /// Which of the two maps given to [`PoolShape::of`] is the IPv4 one (0 or 1).
    pub v4_index: usize,
    /// Widths of the narrow map's fields before its address (`L4`).
    pub v4_lead: Vec<u32>,
    /// Widths of the wide map's fields before its address (`L6`).
    pub v6_lead: Vec<u32>,
}

/// (lead field widths, address width, address words) of a map's key; `None` when the
/// address is not the key's tail as a pool needs it.
fn split_key(kind: &StateKind) -> Option<(Vec<u32>, u32, usize)> {
    let (key, _) = kind.map_layouts()?;
    let widths: Vec<u32> = key.fields.iter().map(|f| f.ty.bits()).collect();
    let words = match kind {
        StateKind::LpmMap { .. } => kind.lpm_fields()? as usize,
        StateKind::HashMap { .. } => {
            if widths.last() == Some(&32) {
                1
            } else {
                2
            }
        }
        _ => return None,
    };
    let n = widths.len().checked_sub(words)?;
    let addr: Vec<u32> = widths[n..].to_vec();
    let addr_bits = match addr.as_slice() {
        [32] => 32,
        [64, 64] => 128,
        _ => return None,
    };
    Some((widths[..n].to_vec(), addr_bits, words))
}

impl PoolShape {
    /// The pool of maps `a` and `b` (named for the error), in either order.
    pub fn of(
        (a, ka): (&str, &StateKind),
        (b, kb): (&str, &StateKind),
    ) -> Result<PoolShape, PoolError> {
        let err = |why: String| PoolError {
            a: a.into(),
            b: b.into(),
            why,
        };
        let lpm = match (ka, kb) {
            (StateKind::LpmMap { .. }, StateKind::LpmMap { .. }) => true,
            (StateKind::HashMap { .. }, StateKind::HashMap { .. }) => false,
            _ => {
                return Err(err(format!(
                    "a {} and a {} (both LPM maps or both hash maps)",
                    ka.keyword(),
                    kb.keyword()
                )))
            }
        };
        debug_assert!(lpm == (ka.map_match() == Some(MapMatch::Lpm)));
        let (Some((_, va)), Some((_, vb))) = (ka.map_layouts(), kb.map_layouts()) else {
            return Err(err("not maps".into()));
        };
        let types = |l: &tandem_ir::Layout| l.fields.iter().map(|f| f.ty).collect::<Vec<_>>();
        if types(va) != types(vb) {
            return Err(err("their values differ in layout".into()));
        }
        let bad_key = |n: &str| {
            err(format!(
                "`{n}`'s key does not end in a 32-bit or a 128-bit (two 64-bit words) address{}",
                if lpm { " that is its prefix" } else { "" }
            ))
        };
        let sa = split_key(ka).ok_or_else(|| bad_key(a))?;
        let sb = split_key(kb).ok_or_else(|| bad_key(b))?;
        let (v4_index, (l4, _, _), (l6, _, _)) = match (sa.1, sb.1) {
            (32, 128) => (0, sa, sb),
            (128, 32) => (1, sb, sa),
            (x, y) => {
                return Err(err(format!(
                    "a {x}-bit and a {y}-bit address (one 32-bit, one 128-bit)"
                )))
            }
        };
        if l4.len() > l6.len() || l4.iter().zip(&l6).any(|(x, y)| x > y) {
            return Err(err(format!(
                "the IPv4 key's other fields ({l4:?} bits) do not fit the IPv6 key's ({l6:?} bits)"
            )));
        }
        Ok(PoolShape {
            lpm,
            v4_index,
            v4_lead: l4,
            v6_lead: l6,
        })
    }

    /// The family of map `i` (0 or 1) of [`PoolShape::of`].
    pub fn family(&self, i: usize) -> Family {
        if i == self.v4_index {
            Family::V4
        } else {
            Family::V6
        }
    }

    /// Widths of the pooled key's fields: the tag, `L6`, the address's two words.
    pub fn key_bits(&self) -> Vec<u32> {
        let mut out = vec![1];
        out.extend(&self.v6_lead);
        out.extend([64, 64]);
        out
    }

    /// A member's lookup key (its key fields) as the pooled table's key.
    pub fn key(&self, family: Family, key: &[u64]) -> Vec<u64> {
        let mut out = Vec::with_capacity(self.v6_lead.len() + 3);
        out.push(family.tag());
        match family {
            Family::V6 => out.extend_from_slice(key),
            Family::V4 => {
                let n = self.v4_lead.len();
                out.extend(key.iter().take(n));
                out.extend(std::iter::repeat_n(0, self.v6_lead.len() - n));
                let addr = key.get(n).copied().unwrap_or(0) & 0xffff_ffff;
                out.extend([0, V4_MAPPED | addr]);
            }
        }
        out
    }

    /// A member's entry name (an LPM entry's `[key..., length]`, an exact entry's key) as
    /// the pooled table's entry name (its LPM length over the 128-bit address).
    pub fn entry(&self, family: Family, name: &[u64]) -> Vec<u64> {
        if !self.lpm {
            return self.key(family, name);
        }
        let Some((&len, key)) = name.split_last() else {
            return Vec::new();
        };
        let mut out = self.key(family, key);
        out.push(match family {
            Family::V4 => V4_PREFIX_OFFSET + len,
            Family::V6 => len,
        });
        out
    }
}
