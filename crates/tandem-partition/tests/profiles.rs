//! Target profiles: the built-in ones parse; bad files are rejected naming file, key, reason.

use tandem_partition::{parse_profile, TargetProfile};

const TOFINO1: &str = include_str!("../../../targets/tofino1.toml");

#[test]
fn builtin_profiles_parse() {
    for name in TargetProfile::builtin_names() {
        let p = TargetProfile::builtin(name).unwrap_or_else(|| panic!("{name} parses"));
        assert_eq!(p.name, name);
    }
    let t1 = TargetProfile::builtin("tofino1").unwrap();
    assert_eq!(t1.stages, Some(12));
    assert_eq!(t1.transfer_header_bytes, Some(20));
    assert!(
        t1.metadata_bytes.unwrap() < 100,
        "Gallium: metadata < 100 bytes"
    );
    assert_eq!(t1.total_sram_blocks(), Some(960));
    assert!(!t1.supports("mul"));
    let bmv2 = TargetProfile::builtin("bmv2").unwrap();
    assert_eq!(bmv2.stages, None);
    assert_eq!(bmv2.transfer_header_bytes, None);
    assert!(bmv2.supports("mul"));
    assert!(TargetProfile::builtin("tofino9").is_none());
}

fn err(text: &str) -> String {
    parse_profile("targets/bad.toml", text)
        .unwrap_err()
        .to_string()
}

fn replace(key_line: &str, with: &str) -> String {
    let out = TOFINO1.replacen(key_line, with, 1);
    assert_ne!(out, TOFINO1, "{key_line} is in tofino1.toml");
    out
}

#[test]
fn bad_profiles_name_file_key_and_reason() {
    let e = err(&replace("stages = 12", "stages = \"twelve\""));
    assert_eq!(
        e,
        "targets/bad.toml: key `stages`: expected a positive integer or \"unbounded\", found \"twelve\""
    );
    let e = err(&replace("stages = 12", "stages = 0"));
    assert!(
        e.starts_with("targets/bad.toml: key `stages`: expected an integer from 1"),
        "{e}"
    );
    let e = err(&replace("metadata_bytes = 96\n", ""));
    assert_eq!(
        e,
        "targets/bad.toml: key `metadata_bytes`: missing (every key is required)"
    );
    let e = err(&replace("ageing = true", "ageing = \"yes\""));
    assert_eq!(
        e,
        "targets/bad.toml: key `ageing`: expected true or false, found string"
    );
    let e = err(&replace("\"add\", ", "\"add\", \"frobnicate\", "));
    assert!(
        e.starts_with("targets/bad.toml: key `ops`: unknown entry \"frobnicate\""),
        "{e}"
    );
    let e = err(&replace("match_kinds = [", "match_kinds = [\"fuzzy\", "));
    assert!(
        e.contains("key `match_kinds`: unknown entry \"fuzzy\""),
        "{e}"
    );
    let e = err(&replace(
        "[stage_costs]",
        "colour = \"blue\"\n[stage_costs]",
    ));
    assert_eq!(e, "targets/bad.toml: key `colour`: unknown key");
    let e = err(&format!("{TOFINO1}\ncolour = 2\n"));
    assert_eq!(e, "targets/bad.toml: key `stage_costs.colour`: unknown key");
    let e = err(&replace("alu = 1 ", "alu = -1 "));
    assert!(
        e.starts_with("targets/bad.toml: key `stage_costs.alu`: expected an integer from 0 to 64"),
        "{e}"
    );
    let e = err(&replace("checksum = 0 ", ""));
    assert!(e.contains("key `stage_costs.checksum`: missing"), "{e}");
    let e = err("stages = [");
    assert!(
        e.starts_with("targets/bad.toml: key `-`: not valid TOML"),
        "{e}"
    );
    let e = err(&replace("name = \"tofino1\"", "name = \"tofino 1\""));
    assert!(e.contains("key `name`: expected an identifier"), "{e}");
}
