//! The human-readable report and the DOT drawing of the dependency graph.

use crate::{Partition, Placement, Plan};
use std::fmt::Write;
use tandem_analysis::DepInfo;
use tandem_ir::Module;

fn budget(b: Option<u64>) -> String {
    b.map(|b| b.to_string()).unwrap_or_else(|| "∞".into())
}

/// [`report`] with what the profile's header and metadata budgets cost
/// ([`crate::budget_cost`]) after the summary line.
pub fn report_for(
    module: &Module,
    info: &DepInfo,
    profile: &crate::TargetProfile,
    plan: &Plan,
) -> String {
    let text = report(module, info, plan);
    let mut extra = crate::budget_cost(module, info, profile, plan)
        .map(|c| c.to_text(&profile.name))
        .unwrap_or_default();
    for s in &plan.states {
        if let Some(h) = &s.hashed {
            extra.push_str(&h.to_text(&s.name, profile));
        }
    }
    match text.split_once('\n') {
        Some((first, rest)) if !extra.is_empty() => format!("{first}\n{extra}{rest}"),
        _ => text,
    }
}

/// [`report_for`] with the plan by line of the NF's source first ([`crate::by_line`]), before
/// the statement-level detail; `read` gives a source file's text (the compiler crates never
/// touch files themselves).
pub fn report_with_source(
    module: &Module,
    info: &DepInfo,
    profile: &crate::TargetProfile,
    plan: &Plan,
    read: impl Fn(&str) -> Option<String>,
) -> String {
    let text = report_for(module, info, profile, plan);
    let lines = crate::by_line::by_line(plan, read);
    match text.find("\n== pre ==") {
        Some(i) => format!(
            "{}\n{lines}The same by NF IR statement:\n{}",
            &text[..i],
            &text[i..]
        ),
        None => format!("{text}\n{lines}"),
    }
}

/// The derived state classes of every map `process` looks up
/// ([`tandem_analysis::classes`]): which values each class merges and the bits a class index
/// needs, or why a map gets none.
fn classes_section(o: &mut String, module: &Module, plan: &Plan) {
    let all = tandem_analysis::compute_all_state_classes(
        module,
        &tandem_analysis::ClassOptions::default(),
    );
    if all.is_empty() && plan.state_classes.is_empty() {
        return;
    }
    let _ = writeln!(o, "\n== state classes ==");
    for c in &plan.state_classes {
        let _ = writeln!(
            o,
            "  {}: {} classes ({} bits -> {} bits per entry, {} saved); the switch keeps them in `{}`, the server the full value",
            c.map,
            c.classes.len(),
            c.value_bits,
            c.class_bits,
            c.value_bits.saturating_sub(c.class_bits),
            c.class_map
        );
        for line in &c.classes {
            let _ = writeln!(o, "    {line}");
        }
    }
    for (state, r) in all {
        let name = module
            .states
            .get(state)
            .map_or_else(|| state.to_string(), |s| s.name.clone());
        // Class maps, and maps whose classes are on the switch already (listed above).
        let derived = crate::class_map_of(&name).is_some_and(|m| module.state_by_name(m).is_some());
        if derived || plan.state_classes.iter().any(|c| c.map == name) {
            continue;
        }
        match r {
            Ok(c) => {
                let fields: Vec<&str> = c.fields.iter().map(|f| f.name.as_str()).collect();
                let bits = c.class_bits();
                let _ = writeln!(
                    o,
                    "  {name}: {} classes of {{{}}} ({} bits -> {bits} bits per entry, {} saved)",
                    c.classes.len(),
                    fields.join(", "),
                    c.value_bits,
                    c.value_bits.saturating_sub(bits)
                );
                for f in c.fields.iter().filter(|f| f.values.is_none()) {
                    let _ = writeln!(
                        o,
                        "    ({} is unbounded; the switch-side code never depends on it)",
                        f.name
                    );
                }
                for line in c.describe() {
                    let _ = writeln!(o, "    {line}");
                }
            }
            Err(e) => {
                let _ = writeln!(o, "  {name}: no classes: {e}");
            }
        }
    }
}

/// The report `tandem partition` prints.
pub fn report(module: &Module, info: &DepInfo, plan: &Plan) -> String {
    let mut o = String::new();
    let s = &plan.summary;
    let _ = writeln!(
        o,
        "{} on {}: {} statements — pre {}, server {}, post {} ({} labels removed by resource constraints)",
        plan.nf,
        plan.target,
        plan.statements.len(),
        s.pre,
        s.server,
        s.post,
        s.label_removals
    );
    for x in [Partition::Pre, Partition::Server, Partition::Post] {
        let _ = writeln!(o, "\n== {} ==", x.name());
        for st in plan.statements.iter().filter(|st| st.partition == x) {
            let loc = st
                .loc
                .as_deref()
                .map(|l| format!("  ; {l}"))
                .unwrap_or_default();
            let _ = writeln!(o, "  s{:<4} block{:<3} {}{}", st.id, st.block, st.text, loc);
            if x != Partition::Pre {
                if let Some(w) = &st.why {
                    let what = if x == Partition::Server {
                        "not on the switch"
                    } else {
                        "not in pre"
                    };
                    let _ = writeln!(
                        o,
                        "           {what}: [{}] {} (from s{} `{}`{})",
                        w.rule,
                        w.reason,
                        w.origin,
                        w.origin_text,
                        w.origin_loc
                            .as_deref()
                            .map(|l| format!(" at {l}"))
                            .unwrap_or_default()
                    );
                }
                if let Some(w) = &st.why_not_post {
                    let _ = writeln!(
                        o,
                        "           not in post: [{}] {} (from s{} `{}`{})",
                        w.rule,
                        w.reason,
                        w.origin,
                        w.origin_text,
                        w.origin_loc
                            .as_deref()
                            .map(|l| format!(" at {l}"))
                            .unwrap_or_default()
                    );
                }
            }
        }
    }
    server_entries(&mut o, module, info, plan);
    let _ = writeln!(o, "\n== state ==");
    for st in &plan.states {
        let place = match st.placement {
            Placement::Server => {
                // Why its first access is not on the switch.
                let why = st
                    .server_accesses
                    .first()
                    .and_then(|&a| plan.statements.get(a as usize))
                    .and_then(|a| a.why.as_ref().map(|w| (a.id, w)));
                match why {
                    Some((id, w)) if w.origin == id => {
                        format!("server only (s{id}: [{}] {})", w.rule, w.reason)
                    }
                    Some((id, w)) => format!(
                        "server only (s{id}: [{}] {}; from s{} `{}`{})",
                        w.rule,
                        w.reason,
                        w.origin,
                        w.origin_text,
                        w.origin_loc
                            .as_deref()
                            .map(|l| format!(" at {l}"))
                            .unwrap_or_default()
                    ),
                    None => "server only".to_string(),
                }
            }
            Placement::SwitchTable => format!("switch table ×{}", st.copies),
            Placement::SwitchRegister if st.kind == "meter" => "switch meter".to_string(),
            Placement::SwitchRegister => "switch register".to_string(),
            Placement::Replicated => format!(
                "replicated (switch {} ×{}; the server writes its primary copy)",
                if st.kind.contains("map") {
                    "table"
                } else {
                    "register"
                },
                st.copies
            ),
        };
        let parts: Vec<&str> = st.switch_partitions.iter().map(|p| p.name()).collect();
        let _ = writeln!(
            o,
            "  {:<14} {:<12} {}{}{}",
            st.name,
            st.kind,
            place,
            if parts.is_empty() {
                String::new()
            } else {
                format!(" in {}", parts.join("+"))
            },
            if st.sram_blocks > 0 {
                format!(", {} SRAM blocks", st.sram_blocks)
            } else {
                String::new()
            } + &if st.tcam_blocks > 0 {
                format!(", {} TCAM blocks", st.tcam_blocks)
            } else {
                String::new()
            }
        );
    }
    timer_section(&mut o, module, plan);
    classes_section(&mut o, module, plan);
    let r = &plan.resources;
    let _ = writeln!(o, "\n== resources ({}) ==", plan.target);
    for (what, u) in [
        ("stages, pre (ingress)", r.stages_pre),
        ("stages, post (egress)", r.stages_post),
        ("SRAM blocks", r.sram_blocks),
        ("tables", r.tables),
        ("stateful ALUs", r.stateful_alus),
        ("metadata bytes, pre", r.metadata_pre),
        ("metadata bytes, post", r.metadata_post),
        ("transfer header bytes", r.transfer_header),
        ("TCAM blocks", r.tcam_blocks),
    ] {
        if what == "TCAM blocks" && u.unused() {
            continue;
        }
        let _ = writeln!(o, "  {what:<24} {:>6} / {}", u.used, budget(u.budget));
    }
    let _ = writeln!(o, "\n== cuts ==");
    for (name, list) in [
        ("pre → server", &plan.cuts.pre_to_server),
        ("server → post", &plan.cuts.server_to_post),
        ("pre → post", &plan.cuts.pre_to_post),
    ] {
        let vals: Vec<String> = list
            .iter()
            .map(|c| {
                let inside = if c.in_header {
                    ""
                } else {
                    ", inside the switch"
                };
                format!("{} ({} bits{inside})", c.value, c.bits)
            })
            .collect();
        let _ = writeln!(
            o,
            "  {name:<14} {}",
            if vals.is_empty() {
                "-".into()
            } else {
                vals.join(", ")
            }
        );
    }
    if !plan.remat.server.is_empty() || !plan.remat.post.is_empty() {
        let _ = writeln!(
            o,
            "  recomputed: server {}; post {}",
            if plan.remat.server.is_empty() {
                "-".into()
            } else {
                plan.remat.server.join(" ")
            },
            if plan.remat.post.is_empty() {
                "-".into()
            } else {
                plan.remat.post.join(" ")
            }
        );
    }
    let h = &plan.transfer_header;
    let _ = writeln!(
        o,
        "\n== transfer header (EtherType {}, {} bytes) ==",
        h.ethertype, h.bytes
    );
    if h.fields.is_empty() {
        let _ = writeln!(o, "  unused: no statement runs on the server");
    }
    for f in &h.fields {
        let dir = match (&f.from, f.to.is_empty()) {
            (Some(from), false) => format!(
                "{} → {}",
                from.name(),
                f.to.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
            ),
            _ => String::new(),
        };
        let _ = writeln!(
            o,
            "  bits {:>3}..{:<3} {:<16} {:>2} bits  {}",
            f.offset,
            f.offset + f.bits,
            f.name,
            f.bits,
            dir
        );
    }
    o
}

/// The timer: when it ticks and which switch copies each tick updates.
fn timer_section(o: &mut String, module: &Module, plan: &Plan) {
    let Some(t) = &module.timer else {
        return;
    };
    let (reads, writes) = module.timer_state_effects();
    let names = |ids: &[tandem_ir::StateId]| {
        ids.iter()
            .filter_map(|s| module.states.get(*s).map(|o| o.name.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        o,
        "\n== timer ==\n  on_timer every {} ns, on the server (primary copy): reads [{}], writes [{}]",
        t.interval_ns,
        names(&reads),
        names(&writes)
    );
    for st in &plan.states {
        let Some(id) = module.state_by_name(&st.name) else {
            continue;
        };
        if !writes.contains(&id) || st.placement == Placement::Server {
            continue;
        }
        let how = match st.placement {
            Placement::SwitchRegister => {
                "register writes from the control plane (read back first when the timer reads it)"
            }
            _ if st.kind.contains("map") => {
                "table entries in the tick's atomic batch (write-back tables + flag)"
            }
            _ => "register writes",
        };
        let _ = writeln!(o, "  {:<14} each tick: {how}", st.name);
    }
}

/// A DOT drawing of the dependency graph, statements coloured by partition (as Gallium's
/// Figure 3): pre green, server red, post blue; edges labelled by kind.
pub fn write_dot(_module: &Module, info: &DepInfo, plan: &Plan) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "digraph \"{}\" {{", plan.nf);
    let _ = writeln!(
        o,
        "  rankdir=TB; node [shape=box, style=filled, fontname=\"monospace\"];"
    );
    for st in &plan.statements {
        let color = match st.partition {
            Partition::Pre => "#b7e4c7",
            Partition::Server => "#f4a6a6",
            Partition::Post => "#a9c8f0",
        };
        let line = st
            .loc
            .as_deref()
            .and_then(|l| l.rsplit(':').nth(1))
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default();
        let label = format!("s{} [{}]{}\\n{}", st.id, st.partition.name(), line, st.text)
            .replace('"', "\\\"");
        let _ = writeln!(
            o,
            "  s{} [label=\"{label}\", fillcolor=\"{color}\"];",
            st.id
        );
    }
    for d in &info.graph.deps {
        let style = match d.kind {
            tandem_analysis::DepKind::Control => "dashed",
            tandem_analysis::DepKind::Data => "solid",
            _ => "dotted",
        };
        let _ = writeln!(
            o,
            "  {} -> {} [style={style}, label=\"{}\"];",
            d.from,
            d.to,
            d.kind.name()
        );
    }
    let _ = writeln!(o, "}}");
    o
}

/// "== to the server ==": the first server statement on each path, and the branch outcomes
/// that lead there — which packets the server sees.
fn server_entries(o: &mut String, module: &Module, info: &DepInfo, plan: &Plan) {
    use tandem_ir::{Block, EntityRef, InstKind};
    let cfg = &info.cfg;
    let f = &module.process;
    let mut blocks: Vec<Block> = plan
        .statements
        .iter()
        .filter(|s| s.partition == Partition::Server)
        .map(|s| Block::from_u32(s.block))
        .collect();
    blocks.sort_by_key(|b| cfg.rpo_index[b.index()]);
    blocks.dedup();
    // Server blocks some path reaches without passing another server block.
    let mut entries: Vec<Block> = Vec::new();
    let mut seen = vec![false; cfg.num_blocks];
    let mut stack: Vec<Block> = cfg.rpo.first().copied().into_iter().collect();
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut seen[b.index()], true) {
            continue;
        }
        if blocks.contains(&b) {
            entries.push(b);
            continue;
        }
        stack.extend(cfg.succs[b.index()].iter().copied());
    }
    entries.sort_by_key(|b| cfg.rpo_index[b.index()]);
    let _ = writeln!(o, "\n== to the server ==");
    if entries.is_empty() {
        let _ = writeln!(o, "  never: every packet stays on the switch");
        return;
    }
    let loc = |b: Block| -> String {
        f.terminator(b)
            .and_then(|t| f.insts[t].loc)
            .map(|l| l.user())
            .and_then(|l| Some(format!("{}:{}", module.files.get(l.file)?, l.line)))
            .unwrap_or_else(|| format!("{b}"))
    };
    for b in entries {
        let first = plan
            .statements
            .iter()
            .find(|s| s.block == b.as_u32() && s.partition == Partition::Server);
        let Some(first) = first else { continue };
        let mut conds = Vec::new();
        let mut ctl = info.control.transitive(b);
        ctl.sort_by_key(|a| cfg.rpo_index[a.index()]);
        for a in ctl {
            let Some(t) = f.terminator(a) else { continue };
            let reaches = |c: Block| c == b || cfg.path(c, b);
            let outcome = match &f.insts[t].kind {
                InstKind::Brif {
                    cond,
                    then_dest,
                    else_dest,
                } => match (reaches(then_dest.block), reaches(else_dest.block)) {
                    (true, false) => format!("{cond} = 1"),
                    (false, true) => format!("{cond} = 0"),
                    _ => continue,
                },
                InstKind::Switch {
                    arg,
                    default,
                    cases,
                } => {
                    let vals: Vec<String> = cases
                        .iter()
                        .filter(|(_, c)| reaches(c.block))
                        .map(|(v, _)| v.to_string())
                        .collect();
                    if reaches(default.block) {
                        continue;
                    }
                    format!("{arg} in {}", vals.join("|"))
                }
                _ => continue,
            };
            conds.push(format!("{outcome} ({})", loc(a)));
        }
        let _ = writeln!(
            o,
            "  s{} `{}`{}\n      when: {}",
            first.id,
            first.text,
            first
                .loc
                .as_deref()
                .map(|l| format!(" ; {l}"))
                .unwrap_or_default(),
            if conds.is_empty() {
                "always".to_string()
            } else {
                conds.join(", ")
            }
        );
    }
}
