//! Memory of the gresses of a folded program: the SRAM/TCAM blocks of the tables and
//! registers each gress holds, checked against one pipe's memory (`lower::fold` cuts by
//! stages and by this memory).
//!
//! Sizes are the plan's (`StatePlacement::sram_blocks` / `tcam_blocks`, the partitioner's
//! resource model, `tandem_partition::evaluate`): the sizes the emitted tables and
//! registers are declared at. A state with several switch copies (a read-only map read
//! twice gets one table per read) costs `blocks / copies` per copy, and a gress holds as
//! many copies as it has accesses of the state (at most `copies`).
//!
//! Sharing rule: a pipe has `stages × per-stage blocks` (the unfolded profile's stages; the
//! per-stage blocks are the folded plan's budget over its stages). Each stage's memory is
//! shared by the pipe's ingress and egress, so the gresses of one pipe together fit the
//! pipe: ingress 0 has pipe 0 alone (egress 0 holds no table), egress 1 and ingress 1
//! share pipe 1 (`egress1 + ingress1 <= pipe`). Only the first cut can move memory from one
//! pipe to the other: when ingress 0's tables overfill pipe 0, the cut moves earlier (the
//! lookups stay in order); when pipe 1 is still overfilled, the fold is refused.
//!
//! ```text
//! mazunat on tofino1 with 15 SRAM blocks a stage (a pipe: 12 x 15 = 180 blocks)
//! before (tofino1, 80 a stage: no move):  after (15 a stage: memory moves the cut):
//! ingress0  10 stages  SRAM 186  OVER      ingress0   6 stages  SRAM 179
//! egress1    0 stages  SRAM   0            egress1    4 stages  SRAM   7 (+ ingress1 <= 180)
//! ingress1   1 stage   SRAM   0            ingress1   1 stage   SRAM   0
//! ```

use std::collections::HashMap;

use tandem_ir::{Module, StateId};
use tandem_partition::Plan;

/// The pipe of each NF gress (ingress 0, egress 1, ingress 1).
pub const GRESS_PIPE: [usize; 3] = [0, 1, 1];

/// Names of the NF gresses for notes and errors.
pub const GRESS_NAMES: [&str; 3] = ["ingress 0", "egress 1", "ingress 1"];

/// SRAM and TCAM blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blocks {
    pub sram: u64,
    pub tcam: u64,
}

impl std::ops::Add for Blocks {
    type Output = Blocks;
    fn add(self, o: Blocks) -> Blocks {
        Blocks {
            sram: self.sram + o.sram,
            tcam: self.tcam + o.tcam,
        }
    }
}

impl Blocks {
    /// Whether `self` fits `budget` (both kinds).
    pub fn fits(self, budget: Blocks) -> bool {
        self.sram <= budget.sram && self.tcam <= budget.tcam
    }
}

/// Per-copy memory of every switch state, and one pipe's memory.
#[derive(Clone, Debug, Default)]
pub struct MemModel {
    per_copy: HashMap<StateId, (Blocks, u64)>,
    /// One pipe's blocks; `None` when the plan's profile does not bound memory.
    pub pipe: Option<Blocks>,
}

impl MemModel {
    /// The model of `plan` (states by name in `module`), a pipe being `gress_stages`
    /// stages of the plan's per-stage blocks.
    pub fn new(module: &Module, plan: &Plan, gress_stages: u64) -> MemModel {
        let by_name: HashMap<&str, StateId> = module
            .states
            .iter()
            .map(|(id, s)| (s.name.as_str(), id))
            .collect();
        let per_copy = plan
            .states
            .iter()
            .filter(|s| s.copies > 0)
            .filter_map(|s| {
                let c = u64::from(s.copies);
                let b = Blocks {
                    sram: s.sram_blocks.div_ceil(c),
                    tcam: s.tcam_blocks.div_ceil(c),
                };
                by_name.get(s.name.as_str()).map(|id| (*id, (b, c)))
            })
            .collect();
        let r = &plan.resources;
        let stages = r.stages_pre.budget.filter(|&s| s > 0);
        let per_stage = |b: Option<u64>| stages.and_then(|s| b.map(|b| b / s));
        let pipe = per_stage(r.sram_blocks.budget).map(|sram| Blocks {
            sram: sram * gress_stages,
            // No TCAM budget in the plan when no table uses TCAM.
            tcam: per_stage(r.tcam_blocks.budget).map_or(u64::MAX, |t| t * gress_stages),
        });
        MemModel { per_copy, pipe }
    }

    /// Memory of each NF gress: `states[i]` are the state accesses of piece `i`, in gress
    /// `gress[i]`.
    pub fn gress_memory(&self, states: &[Vec<StateId>], gress: &[usize]) -> Vec<Blocks> {
        let mut count: Vec<HashMap<StateId, u64>> = vec![HashMap::new(); GRESS_PIPE.len()];
        for (ss, &g) in states.iter().zip(gress) {
            for s in ss {
                *count[g.min(GRESS_PIPE.len() - 1)].entry(*s).or_default() += 1;
            }
        }
        count
            .iter()
            .map(|c| {
                c.iter()
                    .filter_map(|(s, n)| self.per_copy.get(s).map(|(b, copies)| (b, n, copies)))
                    .fold(Blocks::default(), |acc, (b, n, copies)| {
                        let k = (*n).min(*copies);
                        acc + Blocks {
                            sram: b.sram * k,
                            tcam: b.tcam * k,
                        }
                    })
            })
            .collect()
    }

    /// The first piece of ingress 0 (gress 0) at which ingress 0's memory exceeds pipe 0's,
    /// when `open` is 0 (only the first cut moves memory between pipes).
    pub fn first_over(
        &self,
        states: &[Vec<StateId>],
        gress: &[usize],
        open: usize,
    ) -> Option<usize> {
        let pipe = self.pipe.filter(|_| open == 0)?;
        (0..states.len())
            .filter(|&i| gress[i] == 0)
            .find(|&i| !self.gress_memory(&states[..=i], &gress[..=i])[0].fits(pipe))
    }

    /// Memory used per pipe by the gresses' memory `mem`.
    pub fn pipe_use(mem: &[Blocks]) -> [Blocks; 2] {
        let mut out = [Blocks::default(); 2];
        for (g, m) in mem.iter().enumerate() {
            let k = GRESS_PIPE[g.min(GRESS_PIPE.len() - 1)];
            out[k] = out[k] + *m;
        }
        out
    }

    /// Why `mem` does not fit the pipes, naming the gresses and the numbers; `None` when
    /// it fits (or memory is unbounded).
    pub fn over(&self, mem: &[Blocks]) -> Option<String> {
        let pipe = self.pipe?;
        let used = Self::pipe_use(mem);
        let k = used.iter().position(|u| !u.fits(pipe))?;
        let who: Vec<String> = (0..mem.len())
            .filter(|&g| GRESS_PIPE[g] == k)
            .map(|g| {
                format!(
                    "{} SRAM {} TCAM {}",
                    GRESS_NAMES[g], mem[g].sram, mem[g].tcam
                )
            })
            .collect();
        Some(format!(
            "pipe {k} ({}) needs SRAM {} and TCAM {} blocks; a pipe has SRAM {} and TCAM {} \
             (the unfolded profile's stages of the plan's per-stage blocks), and no cut of \
             the lookups in order fits",
            who.join(" + "),
            used[k].sram,
            used[k].tcam,
            pipe.sram,
            if pipe.tcam == u64::MAX {
                "unbounded".to_string()
            } else {
                pipe.tcam.to_string()
            }
        ))
    }
}
