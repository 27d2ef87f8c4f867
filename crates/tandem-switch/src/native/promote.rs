//! Which flat-code temporaries compiled code keeps in registers instead of PHV slots.
//!
//! `flatten` lowers an expression to three-address ops over temporaries: slots past the
//! program's own (`Compiled::nslots`), reused statement by statement. Nothing but flat
//! code reads them (the pipeline, tables, checksums and the deparser use program slots),
//! so a temporary that every function writes before it reads it, with no call (a table
//! apply or action call, which may run other code over the same temporaries) in between,
//! never carries a value from one function to another. Such a temporary becomes a
//! Cranelift `Variable` in each function: SSA values the register allocator places, with
//! no load or store. Every other temporary stays in memory, where the interpreter keeps it.
//!
//! Before (MiniLB's checksum update, every temporary a PHV slot):
//!
//! ```text
//!   v1 = load phv+8*41 ; v2 = load phv+8*42 ; v3 = iadd v1, v2 ; store v3, phv+8*43
//!   v4 = load phv+8*43 ; v5 = ushr v4, 16 ; ...           -- each op loads and stores
//! ```
//!
//! After (temporaries 41–43 are registers):
//!
//! ```text
//!   v3 = iadd v1, v2 ; v5 = ushr v3, 16 ; ...
//! ```
//!
//! A temporary stays in memory when some function reads it where it may not have written
//! it since entry or since the last call (so its value may come from elsewhere), when a
//! run-time effect (`rt_op`: registers, counters, meters, hashes, checksums, copies, emits)
//! mentions it, or when a table apply or action call writes it (hit, action run, params).

use super::successors;
use crate::opt::ex_slots;
use crate::program::*;

/// What an op does with slots, for the analysis.
pub(super) enum Kind {
    /// reads and writes only what it lists
    Plain,
    /// runs other flat code (table apply, action call): temporaries are not kept across it
    Call,
    /// run by the interpreter's code (`rt_op`): every temporary it mentions stays in memory
    Opaque,
}

/// Calls `r` on the slots `op` reads and `w` on those it writes (whole slots).
pub(super) fn op_slots(
    prog: &Compiled,
    op: &Op,
    r: &mut impl FnMut(Slot),
    w: &mut impl FnMut(Slot),
) -> Kind {
    let dst = |d: &Dst, r: &mut dyn FnMut(Slot), w: &mut dyn FnMut(Slot)| match d {
        Dst::Slot(s) => w(*s),
        Dst::Field(f) => r(f.base),
    };
    match op {
        Op::Set(d, e) => {
            ex_slots(e, r);
            dst(d, r, w);
        }
        Op::SetSlot(d, e) => {
            ex_slots(e, r);
            w(*d);
        }
        Op::SetSlotSlot(a, b) => {
            r(*b);
            w(*a);
        }
        Op::SetSlotConst(a, _) => w(*a),
        Op::SetSlotField(a, f) => {
            r(f.base);
            w(*a);
        }
        Op::SetFieldSlot(f, b) => {
            r(f.base);
            r(*b);
        }
        Op::SetFieldConst(f, _) => r(f.base),
        Op::SetSlice(s, _, _, e) => {
            ex_slots(e, r);
            r(*s);
            w(*s);
        }
        Op::Add(d, a, b, _)
        | Op::Sub(d, a, b, _)
        | Op::And(d, a, b)
        | Op::Or(d, a, b)
        | Op::Xor(d, a, b)
        | Op::Bin(_, d, a, b, _)
        | Op::ConcatR(d, a, b, _)
        | Op::AddSM(d, a, b, ..)
        | Op::AddSM2(d, a, _, _, b, ..) => {
            r(*a);
            r(*b);
            w(*d);
        }
        Op::AddC(d, a, ..)
        | Op::AndC(d, a, _)
        | Op::OrC(d, a, _)
        | Op::XorC(d, a, _)
        | Op::ShrC(d, a, _)
        | Op::ShlC(d, a, ..)
        | Op::EqC(d, a, _)
        | Op::NeC(d, a, _)
        | Op::BinC(_, d, a, ..)
        | Op::SliceR(d, a, ..)
        | Op::SExtR(d, a, ..)
        | Op::BitNotR(d, a, _)
        | Op::BswapR(d, a, _)
        | Op::XorSMC(d, a, ..) => {
            r(*a);
            w(*d);
        }
        Op::LoadBswap(d, f, _) => {
            r(f.base);
            w(*d);
        }
        Op::StoreBswap(f, a, _) => {
            r(f.base);
            r(*a);
        }
        Op::CondR(d, c, a, b) => {
            r(*c);
            r(*a);
            r(*b);
            w(*d);
        }
        Op::Jz(a, _)
        | Op::Jnz(a, _)
        | Op::JEqC(a, ..)
        | Op::JNeC(a, ..)
        | Op::SwitchJump(a, ..) => r(*a),
        Op::JumpIfZero(e, _) => ex_slots(e, r),
        Op::Select1 { key, .. } => ex_slots(key, r),
        Op::Select { keys, .. } => keys.iter().for_each(|k| ex_slots(k, r)),
        Op::CopyOut(pairs) => {
            for (d, s) in pairs {
                r(*s);
                dst(d, r, w);
            }
        }
        Op::Jump(_) | Op::Goto(_) | Op::Ret | Op::End | Op::MarkToDrop | Op::Extract(_) => {}
        Op::Apply {
            table,
            hit,
            action_run,
        } => {
            if let Some(def) = prog.tables.get(*table as usize) {
                def.keys.iter().for_each(|k| ex_slots(&k.ex, r));
            }
            // written before the action runs: kept in memory (see `register_temps`)
            hit.iter().chain(action_run).for_each(|&s| w(s));
            return Kind::Call;
        }
        Op::CallAction { action, args } => {
            args.iter().for_each(|e| ex_slots(e, r));
            if let Some(a) = prog.actions.get(*action as usize) {
                a.param_masks.iter().for_each(|&(s, _)| w(s));
            }
            return Kind::Call;
        }
        Op::RegRead { dst: d, idx, .. } => {
            ex_slots(idx, r);
            dst(d, r, w);
            return Kind::Opaque;
        }
        Op::RegWrite { idx, val, .. } => {
            ex_slots(idx, r);
            ex_slots(val, r);
            return Kind::Opaque;
        }
        Op::Count { idx, .. } => {
            ex_slots(idx, r);
            return Kind::Opaque;
        }
        Op::Meter { idx, dst: d, .. } => {
            ex_slots(idx, r);
            dst(d, r, w);
            return Kind::Opaque;
        }
        Op::Copy(items) => {
            for it in items {
                match *it {
                    CopyItem::Slot(d, s) => {
                        r(s);
                        w(d);
                    }
                    CopyItem::Bytes(d, s, _) => {
                        r(d);
                        r(s);
                    }
                }
            }
            return Kind::Opaque;
        }
        Op::Hash(st) | Op::Checksum(st) => {
            effect_slots(st, r, w);
            return Kind::Opaque;
        }
        Op::Emit(_) => return Kind::Opaque,
    }
    Kind::Plain
}

/// The slots a hash or checksum statement reads and writes.
fn effect_slots(st: &St, r: &mut impl FnMut(Slot), w: &mut impl FnMut(Slot)) {
    let mut dst = |d: &Dst, r: &mut dyn FnMut(Slot)| match d {
        Dst::Slot(s) => w(*s),
        Dst::Field(f) => r(f.base),
    };
    match st {
        St::Hash {
            dst: d,
            base,
            data,
            max,
            ..
        } => {
            ex_slots(base, r);
            ex_slots(max, r);
            data.iter().for_each(|(e, _)| ex_slots(e, r));
            dst(d, r);
        }
        St::Checksum {
            cond,
            data,
            plan,
            field,
            ..
        } => {
            ex_slots(cond, r);
            data.iter().for_each(|(e, _)| ex_slots(e, r));
            for it in plan.iter().flatten() {
                match it {
                    CsumItem::Val(e, _) => ex_slots(e, r),
                    CsumItem::Bytes(b, ..) => r(*b),
                }
            }
            // a checksum reads and writes its destination
            if let Dst::Slot(s) = field {
                r(*s);
            }
            dst(field, r);
        }
        _ => {}
    }
}

/// A set of temporaries (`slot - first`), as bits.
#[derive(Clone, PartialEq, Eq)]
struct Set(Vec<u64>);

impl Set {
    fn new(n: usize, full: bool) -> Set {
        Set(vec![if full { u64::MAX } else { 0 }; n.div_ceil(64)])
    }
    fn has(&self, i: usize) -> bool {
        (self.0[i / 64] >> (i % 64)) & 1 == 1
    }
    fn add(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn clear(&mut self) {
        self.0.iter_mut().for_each(|w| *w = 0);
    }
    /// `self &= o`; true if it changed.
    fn meet(&mut self, o: &Set) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            let n = *a & b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
}

/// The highest slot number any op mentions, plus one.
fn slot_bound(prog: &Compiled) -> usize {
    let mut hi = prog.nslots;
    for op in &prog.code.ops {
        let hi_cell = std::cell::Cell::new(hi);
        let bump = |s: Slot| hi_cell.set(hi_cell.get().max(ix(s) + 1));
        op_slots(prog, op, &mut { bump }, &mut { bump });
        hi = hi_cell.get();
    }
    hi.min(PHV_SLOTS)
}

/// Per slot: true if compiled code keeps it in a register (see the module docs). Only
/// temporaries (slots from `Compiled::nslots`) are ever chosen.
pub(super) fn register_temps(prog: &Compiled) -> Vec<bool> {
    let first = prog.nslots.min(PHV_SLOTS);
    let n = slot_bound(prog) - first;
    let mut keep = vec![false; first];
    if n == 0 {
        return keep;
    }
    let temp = |s: Slot| ix(s).checked_sub(first).filter(|&i| i < n);
    let mut escape = Set::new(n, false);
    let code = &prog.code;
    // every block and action is a function; the analysis runs on each from its entry
    let mut entries: Vec<u32> = vec![
        code.parser,
        code.verify,
        code.ingress,
        code.egress,
        code.compute,
        code.deparser,
    ];
    entries.extend(code.action_entry.iter().copied());
    entries.extend(
        code.passes
            .iter()
            .flat_map(|p| [p.parser, p.control, p.deparser]),
    );
    entries.sort_unstable();
    entries.dedup();
    let mut input: Vec<Option<Set>> = vec![None; code.ops.len()];
    let mut succ = Vec::new();
    for &entry in &entries {
        input.iter_mut().for_each(|s| *s = None);
        let Some(slot) = input.get_mut(entry as usize) else {
            continue;
        };
        *slot = Some(Set::new(n, false));
        let mut work = vec![entry as usize];
        while let Some(pc) = work.pop() {
            let Some(mut cur) = input[pc].clone() else {
                continue;
            };
            let op = &code.ops[pc];
            let mut reads = Vec::new();
            let mut writes = Vec::new();
            let kind = op_slots(prog, op, &mut |s| reads.extend(temp(s)), &mut |s| {
                writes.extend(temp(s))
            });
            for &t in &reads {
                if !cur.has(t) {
                    escape.add(t);
                }
            }
            match kind {
                Kind::Plain => writes.iter().for_each(|&t| cur.add(t)),
                Kind::Call | Kind::Opaque => {
                    reads.iter().chain(&writes).for_each(|&t| escape.add(t));
                    if matches!(kind, Kind::Call) {
                        cur.clear();
                    }
                }
            }
            succ.clear();
            successors(code, pc, &mut succ);
            for &s in &succ {
                let Some(slot) = input.get_mut(s) else {
                    continue;
                };
                match slot {
                    None => {
                        *slot = Some(cur.clone());
                        work.push(s);
                    }
                    Some(old) => {
                        if old.meet(&cur) {
                            work.push(s);
                        }
                    }
                }
            }
        }
    }
    keep.extend((0..n).map(|i| !escape.has(i)));
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Switch;

    fn compiled(src: &str) -> Compiled {
        let sw = Switch::from_source(src).expect("program");
        sw.compiled().clone()
    }

    #[test]
    fn set_is_a_bitset() {
        let mut s = Set::new(70, false);
        s.add(3);
        s.add(69);
        assert!(s.has(3) && s.has(69) && !s.has(4));
        let mut f = Set::new(70, true);
        assert!(f.meet(&s));
        assert!(f.has(69) && !f.has(0));
        assert!(!f.meet(&s));
    }

    #[test]
    fn program_slots_are_never_promoted() {
        let p = compiled(crate::bench::MINILB_P4);
        let keep = register_temps(&p);
        assert!(keep[..p.nslots].iter().all(|k| !k));
    }

    #[test]
    fn checksum_chain_temporaries_are_kept() {
        // the generated-style checksum update leaves temporaries that only flat code reads
        let p = compiled(crate::bench::MINILB_P4);
        let keep = register_temps(&p);
        assert!(
            keep[p.nslots..].iter().any(|&k| k),
            "no temporary kept in a register"
        );
    }
}
