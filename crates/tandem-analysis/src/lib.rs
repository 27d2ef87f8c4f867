//! Analyses of the NF IR, computed as values beside it (never stored in it): the control-flow
//! graph, dominators and post-dominators, control dependence, statements with their read and
//! write sets, the dependency graph (Gallium §4.1), loops and liveness of SSA values.
//!
//! ```text
//! let info = tandem_analysis::compute_deps(&module);   // everything at once
//! for d in &info.graph.deps { /* d.from → d.to, d.kind */ }
//! ```
//!
//! Each analysis also has its own `compute_*` function ([`compute_cfg`],
//! [`compute_dominators`], [`compute_post_dominators`], [`compute_control_deps`],
//! [`compute_stmt_graph`], [`compute_liveness`]). This crate depends only on `tandem-ir`,
//! does no I/O, and is deterministic. It analyses the `process` function; blocks unreachable
//! from the entry are ignored.

mod cfg;
pub mod classes;
mod control;
mod deps;
mod dom;
mod liveness;
pub mod owner;
pub mod shard;

pub use cfg::{compute_cfg, Cfg};
pub use classes::{
    compute_all_state_classes, compute_state_classes, derive_state_classes, ClassFallback,
    ClassOptions, StateClass, StateClasses,
};
pub use control::{compute_control_deps, ControlDeps};
pub use deps::{
    compute_stmt_graph, deciding_gating_blocks, effects_conflict, gating_blocks, is_const, Dep,
    DepKind, Stmt, StmtGraph, StmtId, StmtKind,
};
pub use dom::{compute_dominators, compute_post_dominators, DomTree, PostDomTree};
pub use liveness::{compute_liveness, Liveness};
pub use owner::{GlobalRole, Ownership};
pub use shard::{analyse_sharding, ShardDecision, ShardReport, Sharding, Slot};

use tandem_ir::Module;

/// All analyses of a module's `process` function.
#[derive(Clone, Debug)]
pub struct DepInfo {
    /// The CFG.
    pub cfg: Cfg,
    /// Dominators.
    pub dom: DomTree,
    /// Post-dominators.
    pub pdom: PostDomTree,
    /// Control dependence between blocks.
    pub control: ControlDeps,
    /// Statements and the dependency graph.
    pub graph: StmtGraph,
    /// Liveness of SSA values.
    pub liveness: Liveness,
}

/// Computes every analysis of `module.process`.
pub fn compute_deps(module: &Module) -> DepInfo {
    let cfg = compute_cfg(&module.process);
    let dom = compute_dominators(&cfg);
    let pdom = compute_post_dominators(&cfg);
    let control = compute_control_deps(&cfg, &pdom);
    let graph = compute_stmt_graph(module, &cfg, &dom, &control);
    let liveness = compute_liveness(&module.process, &cfg);
    DepInfo {
        cfg,
        dom,
        pdom,
        control,
        graph,
        liveness,
    }
}
