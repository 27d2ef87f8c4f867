//! The five Gallium NFs (seed 000 §6.2) on Tofino 1: where their state lives.
//!
//! * MazuNAT: both translation maps replicated on the switch (written by the server), the
//!   port counter a switch register whose value travels to the server in the header.
//! * Load balancer: the connection map on the switch; new connections and FIN/RST go to the
//!   server (inserts, erases, the backend choice `hash % size`).
//! * Firewall: entirely on the switch.
//! * Proxy: the port list on the switch and the rewrite on the switch. Differs from the
//!   paper: our proxy also remembers each redirected connection's original destination (an
//!   expiring map) so replies can be rewritten back; inserting it needs the server, so new
//!   redirected connections visit it once.
//! * Trojan detector: the host state table on the switch; payload inspection on the server.

mod common;

use tandem_analysis::compute_deps;
// (plan_for uses the default pipeline; see its doc.)
use tandem_ir::{InstKind, Module};
use tandem_partition::*;

/// The default pipeline (`tandem partition`): joins split where that helps.
fn plan_for(name: &str) -> (Module, tandem_analysis::DepInfo, Plan) {
    let m = common::golden(name);
    let p = TargetProfile::builtin("tofino1").unwrap();
    let out = partition_module(&m, &p, &PartitionOptions::default()).unwrap();
    if let Err(e) = verify_plan(&out.module, &out.info, &p, &out.plan) {
        panic!("{name}: {e:#?}");
    }
    // Without splitting, the same state placement.
    let info = compute_deps(&m);
    let plain = partition(&m, &info, &p).unwrap();
    verify_plan(&m, &info, &p, &plain).unwrap();
    for (a, b) in plain.states.iter().zip(&out.plan.states) {
        assert_eq!(a.placement, b.placement, "{name}: {}", a.name);
    }
    (out.module, out.info, out.plan)
}

fn placement(plan: &Plan, state: &str) -> Placement {
    plan.states
        .iter()
        .find(|s| s.name == state)
        .unwrap_or_else(|| panic!("state {state}"))
        .placement
}

/// Kinds of the server statements' instructions.
fn server_kinds<'a>(
    m: &'a Module,
    info: &tandem_analysis::DepInfo,
    plan: &Plan,
) -> Vec<&'a InstKind> {
    plan.statements
        .iter()
        .filter(|s| s.partition == Partition::Server)
        .filter_map(|s| info.graph.stmts[s.id as usize].inst())
        .map(|i| &m.process.insts[i].kind)
        .collect()
}

#[test]
fn mazunat_maps_and_port_counter_on_the_switch() {
    let (m, info, plan) = plan_for("mazunat");
    assert_eq!(placement(&plan, "int2ext"), Placement::Replicated);
    assert_eq!(placement(&plan, "ext2int"), Placement::Replicated);
    assert_eq!(placement(&plan, "next_port"), Placement::SwitchRegister);
    let counter = plan.states.iter().find(|s| s.name == "next_port").unwrap();
    assert_eq!(counter.switch_partitions, vec![Partition::Pre]);
    // The allocated port (derived from the counter's value) travels to the server.
    let next_port = m.state_by_name("next_port").unwrap();
    let from_counter = plan.cuts.pre_to_server.iter().any(|c| {
        let mut v = tandem_ir::Value::from_u32(c.value[1..].parse().unwrap_or(u32::MAX));
        for _ in 0..4 {
            let Some(d) = info.graph.def_stmt(v) else {
                return false;
            };
            let Some(i) = info.graph.stmt(d).inst() else {
                return false;
            };
            match m.process.insts[i].kind {
                InstKind::ScalarLoad { state } => return state == next_port,
                InstKind::Cast { arg, .. } | InstKind::Bswap { arg } => v = arg,
                _ => return false,
            }
        }
        false
    });
    assert!(from_counter, "{:?}", plan.cuts.pre_to_server);
    // Only the table updates (and what depends on their outcome) run on the server.
    let kinds = server_kinds(&m, &info, &plan);
    assert!(kinds
        .iter()
        .any(|k| matches!(k, InstKind::MapInsert { .. })));
    assert!(plan.summary.server * 10 < plan.summary.pre + plan.summary.post);
    assert!(plan.resources.transfer_header.used <= 20);
}

#[test]
fn load_balancer_connection_map_on_the_switch() {
    let (m, info, plan) = plan_for("l4lb");
    assert_eq!(placement(&plan, "conns"), Placement::Replicated);
    assert_eq!(placement(&plan, "replies"), Placement::Replicated);
    assert_eq!(placement(&plan, "vips"), Placement::SwitchTable);
    assert_eq!(placement(&plan, "backends"), Placement::Server);
    let kinds = server_kinds(&m, &info, &plan);
    assert!(
        kinds.iter().any(|k| matches!(k, InstKind::MapErase { .. })),
        "FIN/RST erase"
    );
    assert!(
        kinds
            .iter()
            .any(|k| matches!(k, InstKind::MapInsert { .. })),
        "new connections"
    );
    assert!(
        !kinds.iter().any(|k| matches!(k, InstKind::MapFind { .. })),
        "lookups stay on the switch"
    );
}

#[test]
fn firewall_entirely_on_the_switch() {
    let (_, _, plan) = plan_for("firewall");
    assert_eq!(plan.summary.server, 0);
    assert_eq!(placement(&plan, "rules"), Placement::SwitchTable);
    assert!(
        plan.transfer_header.fields.is_empty(),
        "no packet visits the server"
    );
}

#[test]
fn proxy_on_the_switch_except_recording_new_redirections() {
    let (m, info, plan) = plan_for("proxy");
    assert_eq!(placement(&plan, "ports"), Placement::SwitchTable);
    assert_eq!(placement(&plan, "orig"), Placement::Replicated);
    let kinds = server_kinds(&m, &info, &plan);
    assert!(
        kinds
            .iter()
            .all(|k| matches!(k, InstKind::MapInsert { .. })),
        "only the insert of a new redirection runs on the server: {kinds:?}"
    );
}

#[test]
fn trojan_detector_host_table_on_the_switch() {
    let (m, info, plan) = plan_for("trojan");
    assert_eq!(placement(&plan, "hosts"), Placement::Replicated);
    let kinds = server_kinds(&m, &info, &plan);
    assert!(
        kinds.iter().any(|k| matches!(k, InstKind::Opaque { .. })),
        "payload on the server"
    );
    // The host lookup and the first decisions run on the switch.
    let hosts = m.state_by_name("hosts").unwrap();
    let find = plan.statements.iter().find(|s| {
        info.graph.stmts[s.id as usize]
            .inst()
            .is_some_and(|i| matches!(m.process.insts[i].kind, InstKind::MapFind { state, .. } if state == hosts))
    });
    assert_eq!(find.map(|s| s.partition), Some(Partition::Pre));
}
