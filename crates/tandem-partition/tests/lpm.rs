//! LPM maps in the partitioner: the router's routes table is a switch table costing TCAM
//! (prefixes) and SRAM (action data); a target without `lpm` tables keeps the lookup on the
//! server; an LPM map written per packet keeps its lookups with the writes on the server.

mod common;

use tandem_ir::parse_module;
use tandem_partition::*;

fn plan(m: &tandem_ir::Module, target: &str) -> Plan {
    let p = TargetProfile::builtin(target).unwrap();
    let out = partition_module(m, &p, &PartitionOptions::default()).unwrap();
    verify_plan(&out.module, &out.info, &p, &out.plan).unwrap();
    out.plan
}

#[test]
fn lpm_router_is_a_switch_table_in_tcam() {
    let m = common::golden("lpmrouter");
    let plan = plan(&m, "tofino1");
    assert_eq!(plan.summary.server, 0);
    let st = &plan.states[0];
    assert_eq!((st.name.as_str(), st.kind.as_str()), ("routes", "lpm_map"));
    assert_eq!(st.placement, Placement::SwitchTable);
    // 1024 prefixes of 32 bits: 2 blocks of 512 × 44 bits; action data 1024 × 112 bits.
    assert_eq!(st.tcam_blocks, 2);
    assert_eq!(st.sram_blocks, 1);
    assert_eq!(plan.resources.tcam_blocks.used, 2);
    assert_eq!(plan.resources.tcam_blocks.budget, Some(12 * 24));
    // The plan round-trips with the TCAM fields; plans without LPM maps do not mention them.
    let json = plan.to_json();
    assert!(json.contains("\"tcam_blocks\""));
    assert_eq!(Plan::from_json(&json).unwrap(), plan);
    let minilb = self::plan(&common::golden("minilb"), "tofino1");
    assert!(!minilb.to_json().contains("tcam_blocks"));
}

#[test]
fn no_lpm_tables_no_lpm_lookup_on_the_switch() {
    let m = common::golden("lpmrouter");
    let plan = plan(&m, "tiny");
    let st = &plan.states[0];
    assert_eq!(st.placement, Placement::Server);
    let find = plan
        .statements
        .iter()
        .find(|s| s.text.contains("map.find routes"))
        .unwrap();
    assert_eq!(find.partition, Partition::Server);
    let why = find.why.as_ref().unwrap();
    assert!(
        why.reason.contains("no longest-prefix-match tables"),
        "{why:?}"
    );
}

#[test]
fn an_lpm_map_written_per_packet_stays_on_the_server() {
    let path = format!(
        "{}/../tandem-ir/tests/data/lpm.nfir",
        env!("CARGO_MANIFEST_DIR")
    );
    let m = parse_module(&std::fs::read_to_string(path).unwrap()).unwrap();
    let plan = plan(&m, "tofino1");
    assert_eq!(plan.states[0].placement, Placement::Server);
    let find = plan
        .statements
        .iter()
        .find(|s| s.text.contains("map.find routes"))
        .unwrap();
    assert_eq!(find.partition, Partition::Server);
    assert!(
        find.why
            .as_ref()
            .unwrap()
            .reason
            .contains("written per packet"),
        "{:?}",
        find.why
    );
}
