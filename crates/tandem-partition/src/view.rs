//! What each partition executes, read from a [`Plan`] and the module it refers to: the view
//! both back ends (`tandem-p4`, `tandem-cpp`) generate code from.
//!
//! A partition walks the original CFG of `process` from `block0`. In each block it runs the
//! statements placed in it and the values it recomputes ([`Plan::remat`]); at a branch listed
//! in its [`Plan::follows`] it evaluates the condition, at any other branch it continues at
//! the immediate post-dominator. Block parameters are assigned on the edge that reaches
//! them, when the partition runs the parameter.

use std::collections::{BTreeSet, HashMap};

use crate::{Partition, Plan};
use tandem_analysis::{compute_cfg, compute_post_dominators, PostDomTree};
use tandem_ir::{Block, EntityRef, Inst, InstKind, Module, Value};

/// A plan that does not fit the module it is applied to.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadPlan(pub String);

/// The index of a partition in per-partition arrays.
pub fn pidx(p: Partition) -> usize {
    match p {
        Partition::Pre => 0,
        Partition::Server => 1,
        Partition::Post => 2,
    }
}

/// Per-partition execution facts of a plan.
pub struct View<'a> {
    /// The module the plan refers to.
    pub module: &'a Module,
    /// The plan.
    pub plan: &'a Plan,
    inst_part: HashMap<Inst, Partition>,
    param_part: HashMap<Value, Partition>,
    remat: [BTreeSet<Value>; 3],
    follows: [BTreeSet<Block>; 3],
    /// Post-dominators of `process`.
    pub pdom: PostDomTree,
    server_blocks: BTreeSet<Block>,
    inst_text: HashMap<Inst, String>,
}

/// Parses `v12` into a value.
pub fn parse_value(s: &str) -> Option<Value> {
    s.strip_prefix('v')?
        .parse::<u32>()
        .ok()
        .map(Value::from_u32)
}

impl<'a> View<'a> {
    /// Reads the plan's statements against `module` (the plan's own [`Plan::module`]).
    pub fn new(module: &'a Module, plan: &'a Plan) -> Result<View<'a>, BadPlan> {
        let func = &module.process;
        let mut inst_part = HashMap::new();
        let mut param_part = HashMap::new();
        let mut server_blocks = BTreeSet::new();
        let mut inst_text = HashMap::new();
        for s in &plan.statements {
            let block = Block::from_u32(s.block);
            let data = func
                .blocks
                .get(block)
                .ok_or_else(|| BadPlan(format!("statement s{}: no block{}", s.id, s.block)))?;
            if s.partition == Partition::Server {
                server_blocks.insert(block);
            }
            match (s.index, s.param) {
                (Some(i), _) => {
                    let inst = *data.insts.get(i as usize).ok_or_else(|| {
                        BadPlan(format!(
                            "statement s{}: no instruction {i} in block{}",
                            s.id, s.block
                        ))
                    })?;
                    inst_part.insert(inst, s.partition);
                    inst_text.insert(inst, format!("s{} `{}`", s.id, s.text));
                }
                (None, Some(p)) => {
                    let v = *data.params.get(p as usize).ok_or_else(|| {
                        BadPlan(format!(
                            "statement s{}: no parameter {p} in block{}",
                            s.id, s.block
                        ))
                    })?;
                    param_part.insert(v, s.partition);
                }
                (None, None) => {
                    return Err(BadPlan(format!(
                        "statement s{} is neither an instruction nor a parameter",
                        s.id
                    )))
                }
            }
        }
        let values = |list: &[String]| -> Result<BTreeSet<Value>, BadPlan> {
            list.iter()
                .map(|s| parse_value(s).ok_or_else(|| BadPlan(format!("bad value `{s}`"))))
                .collect()
        };
        let blocks = |list: &[u32]| list.iter().map(|&b| Block::from_u32(b)).collect();
        let cfg = compute_cfg(func);
        let pdom = compute_post_dominators(&cfg);
        Ok(View {
            module,
            plan,
            inst_part,
            param_part,
            remat: [
                BTreeSet::new(),
                values(&plan.remat.server)?,
                values(&plan.remat.post)?,
            ],
            follows: [
                blocks(&plan.follows.pre),
                blocks(&plan.follows.server),
                blocks(&plan.follows.post),
            ],
            pdom,
            server_blocks,
            inst_text,
        })
    }

    /// Does partition `p` execute instruction `inst` (placed there, or recomputed)?
    pub fn runs_inst(&self, p: Partition, inst: Inst) -> bool {
        if let Some(data) = self.module.process.insts.get(inst) {
            if matches!(data.kind, InstKind::Const { .. }) {
                return false;
            }
            if data.results.iter().any(|v| self.remat[pidx(p)].contains(v)) {
                return true;
            }
        }
        self.inst_part.get(&inst) == Some(&p)
    }

    /// Does partition `p` run block parameter `v`?
    pub fn runs_param(&self, p: Partition, v: Value) -> bool {
        self.param_part.get(&v) == Some(&p) || self.remat[pidx(p)].contains(&v)
    }

    /// Does partition `p` evaluate the branch ending `b`?
    pub fn follows(&self, p: Partition, b: Block) -> bool {
        self.follows[pidx(p)].contains(&b)
    }

    /// Does block `b` hold a server statement (reaching it sends the packet to the server)?
    pub fn has_server(&self, b: Block) -> bool {
        self.server_blocks.contains(&b)
    }

    /// Does any statement run on the server?
    pub fn any_server(&self) -> bool {
        !self.server_blocks.is_empty()
    }

    /// `sN `text`` of an instruction, for error messages.
    pub fn describe(&self, inst: Inst) -> String {
        self.inst_text
            .get(&inst)
            .cloned()
            .unwrap_or_else(|| format!("instruction {}", inst.index()))
    }
}
