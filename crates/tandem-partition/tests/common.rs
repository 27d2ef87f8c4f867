#![allow(dead_code)]
//! Shared test helpers: the lifted golden NFs.

use tandem_ir::{parse_module, Module};

pub const NFS: [&str; 7] = [
    "minilb",
    "mazunat",
    "l4lb",
    "firewall",
    "proxy",
    "statefilter",
    "trojan",
];

pub fn golden(name: &str) -> Module {
    let path = format!(
        "{}/../tandem-lift/tests/golden/{name}.nfir",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("golden file");
    parse_module(&text).expect("golden parses")
}
