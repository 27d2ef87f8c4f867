//! Partitioning an NF between a switch and a server (Gallium §4.2), against a target profile.
//!
//! ```text
//! let profile = TargetProfile::builtin("tofino1").unwrap();    // or parse_profile(file, text)
//! // The default pipeline (what `tandem partition` runs): analyses, partitioning, join
//! // splitting. `out.module` is the NF the plan refers to (also in `out.plan.ir`).
//! let out = tandem_partition::partition_module(&module, &profile, &PartitionOptions::default())?;
//! println!("{}", tandem_partition::report(&out.module, &out.info, &out.plan));
//! std::fs::write("plan.json", out.plan.to_json());
//! // The core step alone, on a module as it is:
//! let info = tandem_analysis::compute_deps(&module);
//! let plan = tandem_partition::partition(&module, &info, &profile)?;
//! tandem_partition::verify_plan(&module, &info, &profile, &plan).unwrap();
//! ```
//!
//! # Execution model the plan assumes
//!
//! Every packet runs **pre** on the switch (ingress). If its path reaches a **server**
//! statement, pre sends it to the server with a transfer header (tag 1) carrying the values
//! the server and post need; the server runs its statements and returns it (tag 2) with the
//! values post needs. Every packet then runs **post** on the switch (egress) — packets that
//! did not visit the server go straight from pre to post inside the switch. Each partition
//! walks the original CFG, runs its own statements in program order, evaluates the branches
//! listed in [`Plan::follows`] (with their conditions computed locally, recomputed, or
//! received), and at any other branch continues at the immediate post-dominator. A
//! statement may therefore run before a statement that precedes it in the source only when
//! neither depends on the other: every dependency `S1 → S2` has `partition(S1) <=
//! partition(S2)` in the order pre < server < post.
//!
//! # Pipeline
//!
//! 1. initial labels from what the target can express ([`ops`]), R5 (loops);
//! 2. the label-removing rules to a fixed point ([`labels`]);
//! 3. resource refinement ([`refine`]): C2 stages, C3 one access per state object
//!    (exhaustive search), C1 memory, C4/C5 metadata and transfer header (greedy);
//! 4. assignment and the plan (cuts, recomputed values, header layout, state placement);
//! 5. in [`partition_module`] (unless [`PartitionOptions::split_joins`] is off): tail
//!    duplication at joins of server and switch-only paths ([`split_server_joins`]),
//!    partitioning again after each, keeping the splits that help.
//!
//! [`verify_plan`] re-checks a plan independently (dependencies, expressibility, state
//! rules, budgets, every used value available); the tests also run plans in a simulator of
//! this execution model against the IR interpreter.
//!
//! Deterministic, no I/O; a profile is parsed from a string ([`parse_profile`]).

pub mod alpm;
pub mod auto_hashed;
mod budget;
mod build;
pub mod by_line;
pub mod compress;
pub mod counters;
pub mod digest;
mod evaluate;
mod explain;
pub mod fold_scale;
pub mod hashed;
pub mod html;
pub mod labels;
pub mod ops;
pub mod partial;
mod plan;
pub mod pool;
mod profile;
pub mod refine;
mod report;
mod specialize;
mod split;
mod verify;
pub mod view;

pub use budget::{budget_cost, BudgetCost};
pub use build::estimated_server_share;
pub use labels::{Labelling, Reason, Rule};
pub use plan::*;
pub use profile::{parse_profile, MatchKind, ProfileError, StageCosts, TargetProfile, OP_NAMES};
pub use report::{report, report_for, report_with_source, write_dot};
pub use specialize::{class_map_of, specialize_state_classes, SpecializeError, CLASS_SUFFIX};
pub use split::split_server_joins;
pub use verify::verify_plan;

use std::collections::BTreeMap;

use tandem_analysis::DepInfo;
use tandem_ir::Module;
use thiserror::Error;

/// Partitioning errors.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PartitionError {
    /// No partition fits the profile, not even running everything on the server.
    #[error("no partition fits {target}: {reason}")]
    Infeasible {
        /// The profile.
        target: String,
        /// Which constraint.
        reason: String,
    },
    /// A `plan.json` that cannot be read.
    #[error("bad plan: {0}")]
    BadPlan(String),
    /// A map asked to be partial (`--partial`) that cannot be.
    #[error("--partial {state}: {reason}")]
    Partial {
        /// The state object.
        state: String,
        /// Why.
        reason: String,
    },
}

/// Knobs of the partitioner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionOptions {
    /// Largest number of combinations the C3 search tries exhaustively at once.
    pub exhaustive_limit: usize,
    /// [`partition_module`] copies the tails of joins where server and switch-only paths
    /// meet ([`split_server_joins`]), so that the switch-only path runs entirely in pre.
    pub split_joins: bool,
    /// At most this many joins are split.
    pub max_splits: usize,
    /// A split copies at most this many instructions, and the module grows to at most
    /// twice its size.
    pub split_max_insts: usize,
    /// Maps kept whole on the server with a hot subset on the switch ([`partial`]): name →
    /// switch entries (`None`: a tenth of the capacity).
    pub partial: BTreeMap<String, Option<u64>>,
    /// Also make partial every exact-match map that alone exceeds the profile's SRAM, sized
    /// to a quarter of it ([`partial::auto_partial`]); one the plan cannot keep on the switch
    /// stays whole on the server.
    pub auto_partial: bool,
    /// [`partition_module`] tries keeping each map's derived state classes on the switch
    /// ([`specialize_state_classes`]) and keeps the rewrite when more of the NF runs
    /// without the server.
    pub state_classes: bool,
}

impl Default for PartitionOptions {
    fn default() -> Self {
        PartitionOptions {
            exhaustive_limit: 4096,
            split_joins: true,
            max_splits: 4,
            split_max_insts: 400,
            partial: BTreeMap::new(),
            auto_partial: false,
            state_classes: true,
        }
    }
}

/// A module with its analyses and plan (the module may differ from the input when
/// [`PartitionOptions::split_joins`] is on).
#[derive(Clone, Debug)]
pub struct Partitioned {
    /// The module the plan refers to.
    pub module: Module,
    /// Its analyses.
    pub info: DepInfo,
    /// The plan.
    pub plan: Plan,
}

/// Analyses and partitions `module`; with [`PartitionOptions::split_joins`] (the default),
/// also splits joins, re-partitioning after each split and keeping it only when more of the
/// NF can run without visiting the server (`summary.fast_path`), or when statements move
/// into pre while the server's share stays the same.
pub fn partition_module(
    module: &Module,
    profile: &TargetProfile,
    options: &PartitionOptions,
) -> Result<Partitioned, PartitionError> {
    let info = tandem_analysis::compute_deps(module);
    let plan = partition_with(module, &info, profile, options)?;
    let mut best = Partitioned {
        module: module.clone(),
        info,
        plan,
    };
    if options.state_classes {
        best = specialize_classes(best, profile, options);
    }
    if !options.split_joins {
        return Ok(best);
    }
    let limit = 2 * module.process.insts.len();
    let mut tried = std::collections::BTreeSet::new();
    let mut splits = 0;
    while splits < options.max_splits {
        let parts: Vec<Partition> = best.plan.statements.iter().map(|s| s.partition).collect();
        let Some((next, join)) = split_server_joins(
            &best.module,
            &best.info,
            &parts,
            options.split_max_insts,
            &tried,
        ) else {
            break;
        };
        tried.insert(join);
        if next.process.insts.len() > limit || tandem_ir::verify_module(&next).is_err() {
            continue;
        }
        let info = tandem_analysis::compute_deps(&next);
        let Ok(mut plan) = partition_with(&next, &info, profile, options) else {
            continue;
        };
        plan.state_classes = best.plan.state_classes.clone();
        // Keep a split that lets more of the NF run without the server, or that moves
        // statements into pre without touching the fast path.
        let (old, new) = (&best.plan.summary, &plan.summary);
        let better = new.fast_path > old.fast_path
            || (new.fast_path == old.fast_path && new.server <= old.server && new.pre > old.pre);
        if !better {
            continue;
        }
        splits += 1;
        best = Partitioned {
            module: next,
            info,
            plan,
        };
    }
    Ok(best)
}

/// Tries [`specialize_state_classes`] on every map with derived classes, keeping each
/// rewrite that lets more of the NF run without the server.
fn specialize_classes(
    mut best: Partitioned,
    profile: &TargetProfile,
    options: &PartitionOptions,
) -> Partitioned {
    let maps = tandem_analysis::classes::looked_up_maps(&best.module);
    for map in maps {
        let Ok(d) = tandem_analysis::derive_state_classes(
            &best.module,
            map,
            &tandem_analysis::ClassOptions::default(),
        ) else {
            continue;
        };
        let Ok(next) = specialize_state_classes(&best.module, &d) else {
            continue;
        };
        // The module as its text reads back (the rewrite leaves instructions it replaced in
        // the arena): what the plan's `ir` gives every back end, statement for statement.
        let Ok(next) = tandem_ir::parse_module(&tandem_ir::print_module(&next)) else {
            continue;
        };
        let info = tandem_analysis::compute_deps(&next);
        let Ok(mut plan) = partition_with(&next, &info, profile, options) else {
            continue;
        };
        if plan.summary.fast_path > best.plan.summary.fast_path {
            let c = &d.classes;
            plan.state_classes = best.plan.state_classes.clone();
            plan.state_classes.push(ClassPlacement {
                map: c.name.clone(),
                class_map: format!("{}{CLASS_SUFFIX}", c.name),
                value_bits: c.value_bits,
                class_bits: c.class_bits(),
                classes: c.describe(),
            });
            best = Partitioned {
                module: next,
                info,
                plan,
            };
        }
    }
    best
}

/// Partitions `module` for `profile` with default options.
pub fn partition(
    module: &Module,
    info: &DepInfo,
    profile: &TargetProfile,
) -> Result<Plan, PartitionError> {
    partition_with(module, info, profile, &PartitionOptions::default())
}

/// Partitions `module` for `profile`.
pub fn partition_with(
    module: &Module,
    info: &DepInfo,
    profile: &TargetProfile,
    options: &PartitionOptions,
) -> Result<Plan, PartitionError> {
    let mut ctx = labels::Context::new(module, info, profile);
    let mut partial = partial::resolve(module, &options.partial)?;
    let auto = if options.auto_partial {
        partial::auto_partial(module, profile, &partial)
    } else {
        BTreeMap::new()
    };
    partial.extend(auto.iter().map(|(k, v)| (k.clone(), *v)));
    for (name, n) in &partial {
        if let Some(sid) = module.state_by_name(name) {
            ctx.switch_entries[sid.as_u32() as usize] = Some(*n);
        }
    }
    let mut lab = ctx.initial();
    ctx.fixpoint(&mut lab);
    let mut moves = refine::trim_stages(&ctx, &mut lab);
    moves += refine::single_access(&ctx, &mut lab, options.exhaustive_limit);
    moves += refine::fit_memory(&ctx, &mut lab);
    moves += refine::fit_transfer(&ctx, &mut lab);
    let ev = evaluate::evaluate(&ctx, &lab);
    let mut plan = build::build_plan(&ctx, &lab, &ev, moves);
    partial.retain(|name, _| !auto.contains_key(name));
    partial::mark_partial(&mut plan, module, profile, &partial)?;
    // An automatic candidate the plan could not keep on the switch (or whose sketch does not
    // fit) stays whole on the server.
    for (name, n) in &auto {
        if partial::eligible(&plan, name) {
            let mut with = plan.clone();
            let one = BTreeMap::from([(name.clone(), *n)]);
            if partial::mark_partial(&mut with, module, profile, &one).is_ok() {
                plan = with;
            }
        }
    }
    let r = &plan.resources;
    for (what, u) in [
        ("transfer header bytes", r.transfer_header),
        ("metadata bytes (pre)", r.metadata_pre),
        ("metadata bytes (post)", r.metadata_post),
    ] {
        if !u.fits() {
            return Err(PartitionError::Infeasible {
                target: profile.name.clone(),
                reason: format!(
                    "{what}: {} needed with every statement on the server, budget {}",
                    u.used,
                    refine::fmt_budget(u.budget)
                ),
            });
        }
    }
    Ok(plan)
}
