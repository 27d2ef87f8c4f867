//! 32-bit indices through joins. clang widens a `uint32_t` index merged at a join to 64 bits
//! before the join (`uint32_t m = base + (h & 4095); if (p) m = *p; v[m]` becomes
//! `phi i64 [add (and (zext h), 4095), base], [zext *p]`), so the index, and the arithmetic
//! computing it, would be 64-bit — more than a 32-bit switch ALU does. An i64 phi that is the
//! index of a vector or meter operation and whose incoming values provably stay below 2^32
//! gets a 32-bit block parameter instead; each edge passes the low 32 bits of its value,
//! computed in 32 bits ([`Lifter::low32`]), and the phi's uses see the parameter zero-extended.
//!
//! ```text
//! before: block3(v20:i64)  <- br block3(v14)   v14:i64 = add (and (zext v9), 4095), 64
//! after:  block3(v20:i32)  <- br block3(v24)   v24:i32 = add (and v9, 4095), 64
//! ```

use std::collections::{HashMap, HashSet};

use llvm_ir::{Constant, Instruction, Name, Operand, Type as LType};

use super::Lifter;

/// The index argument of the NF API calls whose index may be narrowed.
fn index_arg(callee: &str) -> Option<usize> {
    match callee {
        "tandem_api_vec_get" | "tandem_api_vec_set" | "tandem_api_meter_execute" => Some(1),
        _ => None,
    }
}

type Defs<'a> = HashMap<&'a Name, &'a Instruction>;

fn int_bits(t: &LType) -> Option<u32> {
    match t {
        LType::IntegerType { bits } => Some(*bits),
        _ => None,
    }
}

fn mask(bits: u32) -> u128 {
    (1u128 << bits.min(127)) - 1
}

/// An upper bound of the unsigned value of `op` (None: unknown).
fn bound(defs: &Defs<'_>, op: &Operand, depth: u32, seen: &mut HashSet<Name>) -> Option<u128> {
    let name = match op {
        Operand::ConstantOperand(c) => {
            return match c.as_ref() {
                Constant::Int { value, .. } => Some(u128::from(*value)),
                _ => None,
            }
        }
        Operand::LocalOperand { name, .. } => name,
        Operand::MetadataOperand => return None,
    };
    if depth == 0 || !seen.insert(name.clone()) {
        return None;
    }
    let mut b = |op: &Operand| bound(defs, op, depth - 1, seen);
    let r = match defs.get(name)? {
        Instruction::ZExt(z) => operand_bits(&z.operand).map(mask),
        Instruction::Trunc(t) => int_bits(&t.to_type).map(mask),
        Instruction::And(x) => match (b(&x.operand0), b(&x.operand1)) {
            (Some(p), Some(q)) => Some(p.min(q)),
            (p, q) => p.or(q),
        },
        Instruction::Or(x) => bit_union(b(&x.operand0)?, b(&x.operand1)?),
        Instruction::Xor(x) => bit_union(b(&x.operand0)?, b(&x.operand1)?),
        Instruction::Add(x) => Some(b(&x.operand0)? + b(&x.operand1)?),
        Instruction::LShr(x) => {
            let s = Lifter::const_u64(&x.operand1)?;
            Some(b(&x.operand0)? >> s.min(127))
        }
        Instruction::URem(x) => Lifter::const_u64(&x.operand1)
            .filter(|&c| c > 0)
            .map(|c| u128::from(c) - 1),
        Instruction::UDiv(x) => {
            let c = Lifter::const_u64(&x.operand1).filter(|&c| c > 0)?;
            Some(b(&x.operand0)? / u128::from(c))
        }
        Instruction::Select(s) => Some(b(&s.true_value)?.max(b(&s.false_value)?)),
        Instruction::Phi(p) => {
            let mut m = 0;
            for (v, _) in &p.incoming_values {
                m = m.max(b(v)?);
            }
            Some(m)
        }
        _ => None,
    };
    seen.remove(name);
    r
}

/// The smallest all-ones number covering both (a bound of `a | b` and `a ^ b`).
fn bit_union(a: u128, b: u128) -> Option<u128> {
    let m = a.max(b);
    Some(if m == 0 {
        0
    } else {
        mask(128 - m.leading_zeros())
    })
}

/// The width of an integer operand.
fn operand_bits(op: &Operand) -> Option<u32> {
    match op {
        Operand::LocalOperand { ty, .. } => int_bits(ty),
        Operand::ConstantOperand(c) => match c.as_ref() {
            Constant::Int { bits, .. } => Some(*bits),
            _ => None,
        },
        Operand::MetadataOperand => None,
    }
}

impl Lifter<'_> {
    /// The i64 phis to give 32-bit parameters (see the module docs).
    pub(super) fn narrow_index_phis(&self) -> HashSet<Name> {
        let defs: Defs<'_> = self
            .f
            .basic_blocks
            .iter()
            .flat_map(|bb| bb.instrs.iter())
            .filter_map(|i| i.try_get_result().map(|n| (n, i)))
            .collect();
        let mut out = HashSet::new();
        for inst in self.f.basic_blocks.iter().flat_map(|bb| bb.instrs.iter()) {
            let Instruction::Call(c) = inst else { continue };
            let Some(at) = super::callee_name(c).as_deref().and_then(index_arg) else {
                continue;
            };
            let Some((Operand::LocalOperand { name, .. }, _)) = c.arguments.get(at) else {
                continue;
            };
            let Some(Instruction::Phi(p)) = defs.get(name) else {
                continue;
            };
            if int_bits(&p.to_type) != Some(64) {
                continue;
            }
            let fits = p.incoming_values.iter().all(|(v, _)| {
                bound(&defs, v, 12, &mut HashSet::new()).is_some_and(|b| b <= mask(32))
            });
            if fits {
                out.insert(name.clone());
            }
        }
        out
    }
}
