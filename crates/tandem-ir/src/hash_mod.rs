//! A hash reduced modulo a constant: `crc32(...) % 4099` (a Maglev table of prime size, a
//! sketch 1,000 counters wide).
//!
//! P4-16 has no run-time `%` (p4c folds `/` and `%` of constants only), but v1model's hash
//! extern reduces its result itself — `hash(out, algo, base, data, max)` is `base + (h %
//! max)` for any `max` — so a target that has it runs the pair as one extern call. TNA's
//! `Hash.get` has no modulus. In the IR the pair stays two instructions; a back end that
//! fuses them asks [`hash_remainder`]:
//!
//! ```text
//! v42:i32 = hash crc32(v36, v38, v40, v41, v39)     ; used only by the remainder
//! v44:i32 = urem v42, v43                           ; v43 = const 4099
//! v1model: hash(meta.v42, HashAlgorithm.crc32, 32w0, {...}, 32w4099); meta.v44 = meta.v42;
//! ```
//!
//! The hash's own value may then be computed as the remainder, because nothing else reads
//! it: wherever the remainder runs (the switch, or the server after the value crossed), `(h
//! % m) % m = h % m`.

use crate::inst::BinOp;
use crate::{Function, Inst, InstKind, Value, ValueDef};

/// A hash whose only use is a remainder by a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashRemainder {
    /// The `hash` instruction.
    pub hash: Inst,
    /// The `urem` instruction.
    pub urem: Inst,
    /// The constant modulus (not zero, below 2^width of the hash).
    pub modulus: u64,
}

fn const_of(f: &Function, v: Value) -> Option<u64> {
    match f.values.get(v)?.def {
        ValueDef::Result(i, 0) => match f.insts.get(i)?.kind {
            InstKind::Const { imm } => Some(imm),
            _ => None,
        },
        _ => None,
    }
}

/// The instructions of `f`'s blocks that read `v`.
fn users(f: &Function, v: Value) -> Vec<Inst> {
    f.blocks
        .values()
        .flat_map(|b| b.insts.iter().copied())
        .filter(|&i| f.insts.get(i).is_some_and(|d| d.kind.args().contains(&v)))
        .collect()
}

/// When `v` is the result of a `hash` read only by one `urem` by a constant, that pair.
pub fn hash_remainder(f: &Function, v: Value) -> Option<HashRemainder> {
    let ValueDef::Result(hash, 0) = f.values.get(v)?.def else {
        return None;
    };
    if !matches!(f.insts.get(hash)?.kind, InstKind::Hash { .. }) {
        return None;
    }
    let bits = f.values.get(v)?.ty.bits();
    let [urem] = users(f, v)[..] else {
        return None;
    };
    let InstKind::Binary {
        op: BinOp::Urem,
        args,
    } = &f.insts.get(urem)?.kind
    else {
        return None;
    };
    if args[0] != v {
        return None;
    }
    let modulus = const_of(f, args[1])?;
    (modulus != 0 && (bits >= 64 || modulus < 1 << bits)).then_some(HashRemainder {
        hash,
        urem,
        modulus,
    })
}

/// When `urem` is `urem h, C` of a hash `h` read by nothing else, that pair.
pub fn remainder_of_hash(f: &Function, urem: Inst) -> Option<HashRemainder> {
    match &f.insts.get(urem)?.kind {
        InstKind::Binary {
            op: BinOp::Urem,
            args,
        } => hash_remainder(f, args[0]).filter(|r| r.urem == urem),
        _ => None,
    }
}
