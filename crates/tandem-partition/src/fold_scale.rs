//! The emitted fold's gresses at the `--compress` scale, next to compress's modelled
//! placement ([`crate::compress::place`]).
//!
//! The P4 back end (`tandem_p4::lower::fold_mem`) checks each gress of a folded program
//! against a pipe at the sizes the program declares its tables (the plan's). `--compress`
//! states the sizes the tables will hold when deployed (`routes4=75000,...`); this module
//! counts the emitted cut at those sizes: each main-table copy a gress holds at its whole
//! size ([`crate::compress::Table::mem`] with share 1, the chosen digests and ALPM applied;
//! table splitting between pipelines is modelled only, so no table is halved), summed per
//! pipe (ingress 0 on pipe 0, egress 1 and ingress 1 on pipe 1).
//!
//! ```text
//! modelled (compress, split tables):      emitted cut at this scale (whole tables):
//!   ingress 0  my6                          ingress 0  my6 x1, routes4 x1
//!   egress 1   routes4 vm_nc4 routes6 ...   egress 1   routes4 x1, vm_nc4 x2, ...
//!   pipe 1: SRAM 959/960                    pipe 1: SRAM 3,391/960  OVER
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::compress::{Compression, Mem};
use crate::TargetProfile;

/// Names of the emitted NF gresses, in the packet's order, and their pipes.
pub const EMITTED_GRESSES: [(&str, usize); 3] =
    [("ingress 0", 0), ("egress 1", 1), ("ingress 1", 1)];

/// Memory of each emitted gress at the compression's scale: `copies[g]` maps a state name
/// to the number of its main-table copies gress `g` holds. States that are not tables of
/// the compression (registers, small maps without a scale) count nothing.
pub fn emitted_memory(
    c: &Compression,
    p: &TargetProfile,
    copies: &[BTreeMap<String, u64>],
) -> Vec<Vec<(String, u64, Mem)>> {
    copies
        .iter()
        .map(|held| {
            c.config
                .tables
                .iter()
                .filter_map(|t| {
                    // A pooled table (`a+b`) is one table: its copies are its states' most.
                    let n = t
                        .name
                        .split('+')
                        .filter_map(|s| held.get(s))
                        .copied()
                        .max()?;
                    let m = t.mem(p, 1);
                    Some((
                        t.name.clone(),
                        n,
                        Mem {
                            sram_blocks: m.sram_blocks * n,
                            tcam_blocks: m.tcam_blocks * n,
                        },
                    ))
                })
                .collect()
        })
        .collect()
}

/// Memory per pipe of [`emitted_memory`]'s answer.
pub fn pipe_use(per_gress: &[Vec<(String, u64, Mem)>]) -> [Mem; 2] {
    let mut out = [Mem::default(); 2];
    for (g, tables) in per_gress.iter().enumerate() {
        let pipe = EMITTED_GRESSES.get(g).map_or(1, |x| x.1);
        for (_, _, m) in tables {
            out[pipe] = out[pipe] + *m;
        }
    }
    out
}

/// The report's section: each emitted gress's tables at this scale, then each pipe's use
/// against one pipe of `p` (the unfolded profile), `OVER` where it does not fit.
pub fn emitted_report(
    c: &Compression,
    p: &TargetProfile,
    copies: &[BTreeMap<String, u64>],
) -> String {
    let per = emitted_memory(c, p, copies);
    let mut s = String::from(
        "emitted fold at this scale (whole tables: table splitting is modelled only; the \
         program declares the plan's sizes):\n",
    );
    for (g, tables) in per.iter().enumerate() {
        let list: Vec<String> = tables
            .iter()
            .map(|(n, k, m)| format!("{n} x{k} (SRAM {}, TCAM {})", m.sram_blocks, m.tcam_blocks))
            .collect();
        let (name, pipe) = EMITTED_GRESSES.get(g).copied().unwrap_or(("?", 1));
        let _ = writeln!(
            s,
            "  {name:<10} pipe {pipe}  {}",
            if list.is_empty() {
                "-".to_string()
            } else {
                list.join(", ")
            }
        );
    }
    let budget = Mem {
        sram_blocks: p.total_sram_blocks().unwrap_or(u64::MAX),
        tcam_blocks: p.total_tcam_blocks().unwrap_or(u64::MAX),
    };
    for (k, u) in pipe_use(&per).iter().enumerate() {
        let fits = u.sram_blocks <= budget.sram_blocks && u.tcam_blocks <= budget.tcam_blocks;
        let _ = writeln!(
            s,
            "  pipe {k}: SRAM {}/{} blocks, TCAM {}/{} blocks{}",
            u.sram_blocks,
            budget.sram_blocks,
            u.tcam_blocks,
            budget.tcam_blocks,
            if fits {
                ""
            } else {
                "  OVER: does not fit one pipe at this scale"
            }
        );
    }
    s
}
