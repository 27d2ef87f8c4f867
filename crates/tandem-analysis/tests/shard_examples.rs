//! The shardable-state analysis on every example NF's IR (the lifter's golden output): the
//! answers the issue names (MazuNAT's port counter and L4LB's reply table are global, a
//! connection map keyed by the five-tuple is flow-local) stay as they are.
#![allow(clippy::print_stderr)]

use std::path::Path;

use tandem_analysis::{analyse_sharding, Sharding};

fn report(nf: &str) -> tandem_analysis::ShardReport {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../tandem-lift/tests/golden/{nf}.nfir"));
    let m = tandem_ir::parse_module(&std::fs::read_to_string(p).unwrap()).unwrap();
    analyse_sharding(&m)
}

#[test]
fn known_answers() {
    let nat = report("mazunat");
    assert_eq!(nat.object("int2ext").unwrap().sharding, Sharding::FlowLocal);
    assert!(matches!(
        nat.object("next_port").unwrap().sharding,
        Sharding::Global(_)
    ));
    assert!(matches!(
        nat.object("ext2int").unwrap().sharding,
        Sharding::Global(_)
    ));
    // The global objects get one owner: the port counter is an allocator whose ports
    // reach the packets (so per-server ranges would change the outputs), the reply table
    // is keyed by what it allocated.
    assert!(nat.shardable() && !nat.flow_local_only());
    let role = |r: &tandem_analysis::ShardReport, n: &str| {
        r.object(n).unwrap().owner.as_ref().unwrap().role.clone()
    };
    assert_eq!(
        role(&nat, "next_port"),
        tandem_analysis::GlobalRole::Allocator { observable: true }
    );
    assert!(matches!(
        role(&nat, "ext2int"),
        tandem_analysis::GlobalRole::KeyedByState(from) if from.contains(&"next_port".to_string())
    ));
    assert!(nat.object("int2ext").unwrap().owner.is_none());
    let lb = report("l4lb");
    assert_eq!(lb.object("conns").unwrap().sharding, Sharding::FlowLocal);
    assert!(matches!(
        lb.object("replies").unwrap().sharding,
        Sharding::Global(_)
    ));
    assert_eq!(lb.object("backends").unwrap().sharding, Sharding::ReadOnly);
    assert!(report("firewall").shardable());
}

#[test]
fn every_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tandem-lift/tests/golden");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .to_str()?
                .strip_suffix(".nfir")
                .map(String::from)
        })
        .collect();
    names.sort();
    for nf in names {
        eprintln!("== {nf}\n{}", report(&nf));
    }
}
