//! Independent checks of a plan against the dependency graph and the profile: used by the
//! property tests, and cheap enough to run after every partitioning.

use crate::{ops, Partition, Plan, TargetProfile};
use tandem_analysis::{DepInfo, StmtId};
use tandem_ir::Module;

/// Every violation found (empty: the plan is sound for this module and profile).
pub fn verify_plan(
    module: &Module,
    info: &DepInfo,
    profile: &TargetProfile,
    plan: &Plan,
) -> Result<(), Vec<String>> {
    let g = &info.graph;
    if plan.statements.len() != g.stmts.len() {
        return Err(vec![format!(
            "{} statements in the plan, {} in the module",
            plan.statements.len(),
            g.stmts.len()
        )]);
    }
    let mut c = Checker {
        module,
        info,
        profile,
        plan,
        errs: Vec::new(),
    };
    c.dependencies();
    c.expressible();
    c.state_accesses();
    c.resources();
    c.chains();
    c.values();
    c.header();
    if c.errs.is_empty() {
        Ok(())
    } else {
        Err(c.errs)
    }
}

/// One plan being checked; each method adds the violations of one rule to `errs`.
struct Checker<'a> {
    module: &'a Module,
    info: &'a DepInfo,
    profile: &'a TargetProfile,
    plan: &'a Plan,
    errs: Vec<String>,
}

impl Checker<'_> {
    /// Every dependency is respected.
    fn dependencies(&mut self) {
        let (info, plan) = (self.info, self.plan);
        let g = &info.graph;
        let part = |s: StmtId| plan.statements[s.index()].partition;
        let errs = &mut self.errs;
        for d in &g.deps {
            if part(d.from) > part(d.to) {
                errs.push(format!(
                    "{} ({}) -> {} ({}) [{}] runs backwards",
                    d.from,
                    part(d.from).name(),
                    d.to,
                    part(d.to).name(),
                    d.kind.name()
                ));
            }
        }
    }

    /// Expressibility and loops.
    fn expressible(&mut self) {
        let (module, info, profile, plan) = (self.module, self.info, self.profile, self.plan);
        let g = &info.graph;
        let part = |s: StmtId| plan.statements[s.index()].partition;
        let errs = &mut self.errs;
        for (i, s) in g.stmts.iter().enumerate() {
            let id = StmtId(i as u32);
            if !part(id).on_switch() {
                continue;
            }
            if let Some(why) = ops::unsupported(module, info, profile, id) {
                errs.push(format!("{id} is on the switch but {why}"));
            }
            if s.in_loop {
                errs.push(format!("{id} is in a loop but on the switch"));
            }
            let meter = s.inst().is_some_and(|i| {
                matches!(
                    module.process.insts[i].kind,
                    tandem_ir::InstKind::MeterExecute { .. }
                )
            });
            if meter && part(id) == Partition::Post {
                errs.push(format!("{id} executes a meter in post"));
            }
        }
    }

    /// State: replicated state written only by the server; single access where required.
    fn state_accesses(&mut self) {
        let (module, info, profile, plan) = (self.module, self.info, self.profile, self.plan);
        let g = &info.graph;
        let part = |s: StmtId| plan.statements[s.index()].partition;
        let errs = &mut self.errs;
        for (si, _) in module.states.iter() {
            let accs: Vec<(StmtId, ops::StateAccess)> = g
                .stmts
                .iter()
                .enumerate()
                .filter_map(|(i, s)| ops::state_access(module, s).map(|a| (StmtId(i as u32), a)))
                .filter(|(_, a)| a.state == si)
                .collect();
            let sw: Vec<&(StmtId, ops::StateAccess)> =
                accs.iter().filter(|(s, _)| part(*s).on_switch()).collect();
            let sw_write = sw.iter().any(|(_, a)| a.writes);
            let opaque = g
                .stmts
                .iter()
                .any(|s| ops::opaque_states(module, s).contains(&si));
            let server = opaque || accs.iter().any(|(s, _)| !part(*s).on_switch());
            let name = &module.states[si].name;
            if sw_write && server {
                errs.push(format!(
                    "`{name}` is written on the switch and accessed on the server"
                ));
            }
            if sw_write || !profile.duplicate_readonly_tables {
                // Units: a load+store in the same partition and block counts once, as does a
                // get+set of the same vector element in the same partition (the get's block
                // dominating the set's). A register-held object (scalar, vector) may keep one
                // unit on each of several mutually exclusive paths (`refine::exclusive_groups`);
                // a map (a table) keeps one unit.
                let mut unit_of: Vec<usize> = (0..sw.len()).collect();
                for (x, (a, _)) in sw.iter().enumerate() {
                    for (y, (b, _)) in sw.iter().enumerate() {
                        let (sa, sb) = (g.stmt(*a), g.stmt(*b));
                        if a >= b || part(*a) != part(*b) {
                            continue;
                        }
                        let ka = sa.inst().map(|i| &module.process.insts[i].kind);
                        let kb = sb.inst().map(|i| &module.process.insts[i].kind);
                        let rmw = match (ka, kb) {
                            (
                                Some(tandem_ir::InstKind::ScalarLoad { .. }),
                                Some(tandem_ir::InstKind::ScalarStore { .. }),
                            ) => sa.block == sb.block,
                            (
                                Some(tandem_ir::InstKind::VecGet { index: gi, .. }),
                                Some(tandem_ir::InstKind::VecSet { index: si, .. }),
                            ) => {
                                info.dom.dominates(sa.block, sb.block)
                                    && crate::counters::same_element(&module.process, *gi, *si)
                            }
                            _ => false,
                        };
                        if rmw {
                            let (ux, uy) = (unit_of[x], unit_of[y]);
                            for u in unit_of.iter_mut() {
                                if *u == uy {
                                    *u = ux;
                                }
                            }
                        }
                    }
                }
                let register_held = matches!(
                    module.states[si].kind,
                    tandem_ir::StateKind::Scalar { .. } | tandem_ir::StateKind::Vector { .. }
                );
                let together = |x: usize, y: usize| {
                    let (a, b) = (sw[x].0, sw[y].0);
                    !register_held
                        || g.can_happen_after(&info.cfg, a, b)
                        || g.can_happen_after(&info.cfg, b, a)
                };
                let competing = (0..sw.len())
                    .any(|x| (0..sw.len()).any(|y| unit_of[x] != unit_of[y] && together(x, y)));
                if competing {
                    let mut units = unit_of.clone();
                    units.sort_unstable();
                    units.dedup();
                    errs.push(format!(
                        "`{name}` has {} accesses on the switch on one path",
                        units.len()
                    ));
                }
            }
        }
    }

    /// Resources.
    fn resources(&mut self) {
        let plan = self.plan;
        let errs = &mut self.errs;
        let r = &plan.resources;
        for (what, u) in [
            ("stages (pre)", r.stages_pre),
            ("stages (post)", r.stages_post),
            ("SRAM blocks", r.sram_blocks),
            ("TCAM blocks", r.tcam_blocks),
            ("tables", r.tables),
            ("stateful ALUs", r.stateful_alus),
            ("metadata (pre)", r.metadata_pre),
            ("metadata (post)", r.metadata_post),
            ("transfer header", r.transfer_header),
        ] {
            if !u.fits() {
                errs.push(format!("{what}: {} over budget {:?}", u.used, u.budget));
            }
        }
    }

    /// Recount the chains independently (RMT: data dependences need a later stage; control and WAR dependences may share one).
    fn chains(&mut self) {
        let (info, profile, plan) = (self.info, self.profile, self.plan);
        let g = &info.graph;
        let errs = &mut self.errs;
        for x in [Partition::Pre, Partition::Post] {
            let n = g.stmts.len();
            let mut dist = vec![0u64; n];
            let mut longest = 0;
            for i in 0..n {
                if plan.statements[i].partition != x {
                    continue;
                }
                let own = u64::from(plan.statements[i].stage_cost);
                let mut d = own;
                for e in g.deps.iter().filter(|e| e.to.index() == i) {
                    let p = e.from.index();
                    if p < i && plan.statements[p].partition == x {
                        let data = matches!(
                            e.kind,
                            tandem_analysis::DepKind::Data
                                | tandem_analysis::DepKind::Raw
                                | tandem_analysis::DepKind::Waw
                        );
                        d = d.max(dist[p] + if data { own } else { 0 });
                    }
                }
                dist[i] = d;
                longest = longest.max(d);
            }
            if profile.stages.is_some_and(|k| longest > u64::from(k)) {
                errs.push(format!("{} chain of {longest} stages", x.name()));
            }
        }
    }

    /// Every value a partition uses (operands, join arguments, conditions of the branches it follows) is computed there, recomputed there, or received across a cut.
    fn values(&mut self) {
        let (module, info, plan) = (self.module, self.info, self.plan);
        let g = &info.graph;
        let part = |s: StmtId| plan.statements[s.index()].partition;
        let errs = &mut self.errs;
        let received = |x: Partition, v: &str| -> bool {
            let lists: &[&Vec<crate::CutValue>] = match x {
                Partition::Pre => &[],
                Partition::Server => &[&plan.cuts.pre_to_server],
                Partition::Post => &[&plan.cuts.server_to_post, &plan.cuts.pre_to_post],
            };
            let remat = match x {
                Partition::Pre => &[][..],
                Partition::Server => &plan.remat.server[..],
                Partition::Post => &plan.remat.post[..],
            };
            lists.iter().any(|l| l.iter().any(|c| c.value == v)) || remat.iter().any(|r| r == v)
        };
        let check_use = |x: Partition, u: tandem_ir::Value, who: String| -> Option<String> {
            let px = part(g.def_stmt(u)?);
            (px < x && !received(x, &u.to_string())).then(|| {
                format!(
                    "{who} in {} uses {u} from {} but does not receive it",
                    x.name(),
                    px.name()
                )
            })
        };
        for (i, s) in g.stmts.iter().enumerate() {
            let x = part(StmtId(i as u32));
            for &u in &s.uses {
                errs.extend(check_use(x, u, format!("s{i}")));
            }
        }
        for (x, blocks) in [
            (Partition::Pre, &plan.follows.pre),
            (Partition::Server, &plan.follows.server),
            (Partition::Post, &plan.follows.post),
        ] {
            for &b in blocks {
                // The P4 back end walks a switch partition as nested branches: it cannot follow
                // a branch in a loop, except a loop's plain exit test (it takes the exit edge).
                let block = tandem_ir::Block::from_u32(b);
                if x != Partition::Server
                    && info.cfg.in_cycle(block)
                    && !crate::labels::is_loop_exit_test(module, &info.cfg, block)
                {
                    errs.push(format!(
                        "{} follows block{b}, which is in a loop (P4 has no loops)",
                        x.name()
                    ));
                }
                if let Some(t) = g.term_stmt(tandem_ir::Block::from_u32(b)) {
                    if part(t) > x {
                        errs.push(format!(
                            "{} follows block{b} whose branch runs later",
                            x.name()
                        ));
                    }
                    for &u in &g.stmt(t).uses {
                        errs.extend(check_use(x, u, format!("branch of block{b}")));
                    }
                }
            }
            // Every statement's controlling branches are followed.
            for (i, s) in g.stmts.iter().enumerate() {
                if part(StmtId(i as u32)) != x {
                    continue;
                }
                for c in info.control.of(s.block) {
                    if !blocks.contains(&c.as_u32()) && g.term_stmt(*c).is_some() {
                        errs.push(format!("s{i} in {} but block{c} is not followed", x.name()));
                    }
                }
            }
        }
    }

    /// The header holds every cut value.
    fn header(&mut self) {
        let plan = self.plan;
        let errs = &mut self.errs;
        let hdr = &plan.transfer_header;
        let total: u32 = hdr.fields.iter().map(|f| f.bits).sum();
        if total != hdr.bytes * 8 {
            errs.push(format!(
                "header fields are {total} bits, header {} bytes",
                hdr.bytes
            ));
        }
        if plan.summary.server > 0 {
            for c in plan
                .cuts
                .pre_to_server
                .iter()
                .chain(&plan.cuts.server_to_post)
                .chain(&plan.cuts.pre_to_post)
                .filter(|c| c.in_header)
            {
                if !hdr
                    .fields
                    .iter()
                    .any(|f| f.value.as_deref() == Some(c.value.as_str()))
                {
                    errs.push(format!(
                        "{} crosses a cut but is not in the header",
                        c.value
                    ));
                }
            }
        }
    }
}
