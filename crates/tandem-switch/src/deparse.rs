//! The deparser's in-place test, precomputed per program: which headers' validity can change
//! after extraction, and where each header sits in the emit list.
//!
//! A packet leaves in place (the modified packet buffer is the output frame) when the valid
//! headers, in emit order, are exactly the extracted ones. Only `extract` sets a header valid
//! unless some op writes its validity slot (`setValid`/`setInvalid`, a header assignment, an
//! action parameter...), so for every other header "valid" is "extracted". The test then
//! needs the extracted list in increasing emit position (no header twice, none missing from
//! the emit list) plus the validity of the few headers something else writes.
//!
//! Before (every header of the emit list, per packet; 16 on the generated programs):
//!
//! ```text
//!   for (h, valid) in emits { if phv[valid] != 0 { same &= extracted[n] == h; n += 1 } }
//!   same &= n == extracted.len()
//! ```
//!
//! After (MiniLB as generated: the 4 extracted headers and the one header the
//! program sets valid or invalid):
//!
//! ```text
//!   for h in extracted { same &= pos[h] > last; last = pos[h] }     -- extraction order
//!   for (h, valid) in touched { same &= (phv[valid] != 0) == (h in extracted) }
//! ```

use crate::program::*;

/// The precomputed test (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct InPlace {
    /// per header: its position in the emit list, or `u32::MAX` when not emitted
    pub pos: Vec<u32>,
    /// headers (below 64) whose validity some op other than `extract` writes, with the slot
    pub touched: Vec<(u32, Slot)>,
}

/// The plan for `c`'s emit-only deparser `emits`, or `None` when the fast test does not
/// apply (more than 64 headers, a header emitted twice, or a validity slot with a non-zero
/// initial value).
pub(crate) fn plan(c: &Compiled, emits: &[(u32, Slot)]) -> Option<InPlace> {
    let n = c.headers.len();
    if n > 64 {
        return None;
    }
    let mut pos = vec![u32::MAX; n];
    for (i, &(h, _)) in emits.iter().enumerate() {
        let p = pos.get_mut(h as usize)?;
        if *p != u32::MAX {
            return None; // emitted twice: the general test counts both
        }
        *p = i as u32;
    }
    let valid_of = |s: Slot| c.headers.iter().position(|h| h.valid == s);
    let mut written = vec![false; n];
    for op in &c.code.ops {
        if matches!(op, Op::Extract(_)) {
            continue;
        }
        crate::native::slot_writes(c, op, &mut |s| {
            if let Some(h) = valid_of(s) {
                written[h] = true;
            }
        });
    }
    let mut touched = Vec::new();
    for (h, hl) in c.headers.iter().enumerate() {
        if c.phv0.get(ix(hl.valid)).is_some_and(|&v| v != 0) {
            return None;
        }
        if written[h] {
            touched.push((h as u32, hl.valid));
        }
    }
    Some(InPlace { pos, touched })
}

/// The general test (no plan): walks every header of the emit list `hs`.
pub(crate) fn same_general(phv: &Phv, hs: &[(u32, Slot)], extracted: &[u32]) -> bool {
    let mut n = 0;
    let mut same = true;
    for &(h, valid) in hs {
        if phv[ix(valid)] != 0 {
            same &= extracted.get(n) == Some(&h);
            n += 1;
        }
    }
    same && n == extracted.len()
}

impl InPlace {
    /// True if the valid headers, in emit order, are `extracted` (the packet leaves in place).
    #[inline]
    pub(crate) fn same(&self, phv: &Phv, extracted: &[u32]) -> bool {
        let mut last = -1i64;
        let mut seen = 0u64;
        for &h in extracted {
            let p = self.pos.get(h as usize).copied().unwrap_or(u32::MAX);
            if p == u32::MAX || i64::from(p) <= last {
                return false;
            }
            last = i64::from(p);
            seen |= 1 << (h & 63);
        }
        self.touched
            .iter()
            .all(|&(h, v)| (phv[ix(v)] != 0) == ((seen >> (h & 63)) & 1 == 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Switch;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn compiled(src: &str) -> Compiled {
        Switch::from_source(src)
            .expect("program")
            .compiled()
            .clone()
    }

    /// Random packets' states as the pipeline can leave them: some headers extracted (in a
    /// random order, sometimes twice), untouched headers valid exactly when extracted, the
    /// touched ones anything. `plan.same` must agree with the general test on each.
    fn agrees(c: &Compiled, plan: &InPlace, touched: &[(u32, Slot)], seed: u64) -> bool {
        let hs = c.code.deparser_emits.as_ref().expect("emit-only deparser");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut phv: Box<Phv> = Box::new([0; PHV_SLOTS]);
        let n = c.headers.len() as u32;
        for _ in 0..2000 {
            phv.iter_mut().for_each(|v| *v = 0);
            let mut extracted: Vec<u32> = (0..n).filter(|_| rng.gen_bool(0.4)).collect();
            if rng.gen_bool(0.2) && extracted.len() > 1 {
                let (i, j) = (
                    rng.gen_range(0..extracted.len()),
                    rng.gen_range(0..extracted.len()),
                );
                extracted.swap(i, j);
            }
            if rng.gen_bool(0.1) {
                if let Some(&h) = extracted.first() {
                    extracted.push(h);
                }
            }
            for &h in &extracted {
                phv[ix(c.headers[h as usize].valid)] = 1;
            }
            for &(_, v) in touched {
                phv[ix(v)] = u64::from(rng.gen_bool(0.5));
            }
            if plan.same(&phv, &extracted) != same_general(&phv, hs, &extracted) {
                return false;
            }
        }
        true
    }

    #[test]
    fn plan_agrees_with_the_general_test() {
        for src in [
            crate::bench::MINILB_P4,
            crate::bench::MINILB_GENERATED_P4,
            include_str!("../tests/programs/features.p4"),
        ] {
            let c = compiled(src);
            let plan = c.code.in_place.clone().expect("a plan");
            for seed in 0..4 {
                assert!(agrees(&c, &plan, &plan.touched, seed));
            }
        }
    }

    #[test]
    fn set_invalid_headers_are_touched() {
        let c = compiled(crate::bench::MINILB_GENERATED_P4);
        let plan = c.code.in_place.clone().expect("a plan");
        let tandem = c.headers.iter().position(|h| h.name == "hdr.tandem");
        assert!(plan.touched.iter().any(|t| Some(t.0 as usize) == tandem));
        // negative control: a plan that forgets the touched headers disagrees
        let wrong = InPlace {
            touched: vec![],
            pos: plan.pos.clone(),
        };
        assert!(!(0..4).all(|s| agrees(&c, &wrong, &plan.touched, s)));
    }
}
