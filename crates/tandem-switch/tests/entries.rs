//! Entries files (`switch run --entries`) are checked against the program before anything is
//! applied, and every error names its line: a first-hour user's typo never becomes a silently
//! different table (docs/entries-format.md).

use tandem_switch::{apply_entries, parse_entries, Switch};

fn load(name: &str) -> Switch {
    let path = format!("{}/tests/programs/{name}", env!("CARGO_MANIFEST_DIR"));
    Switch::from_source(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The error for a one-file entries text, as the CLI prints it (`line N: ...`).
fn error(sw: &Switch, text: &str) -> String {
    match parse_entries(text, sw) {
        Err(e) => e.to_string(),
        Ok(cmds) => match apply_entries(sw, &cmds) {
            Err(e) => e.to_string(),
            Ok(()) => panic!("accepted:\n{text}"),
        },
    }
}

#[test]
fn well_formed_entries_apply() {
    let sw = load("lpm.p4");
    let cmds = parse_entries(
        "# routes\ntable_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 00:00:00:00:01:00 1\n\
         table_add ipv4_lpm ipv4_forward 10.1.0.0/16 => 2 2\n",
        &sw,
    )
    .unwrap();
    assert_eq!(cmds.iter().map(|c| c.0).collect::<Vec<_>>(), vec![2, 3]);
    apply_entries(&sw, &cmds).unwrap();
    assert_eq!(sw.entries("MyIngress.ipv4_lpm").unwrap().len(), 2);

    let sw = load("features.p4");
    let cmds = parse_entries(
        "table_add acl deny 10.0.0.0&&&0xff000000 1000->2000 * => 5\n\
         table_add fwd set_port 10.0.0.1 => 3\n\
         register_write pkt_count 7 0xffffffff\n",
        &sw,
    )
    .unwrap();
    apply_entries(&sw, &cmds).unwrap();
    assert_eq!(sw.register_read("pkt_count", 7).unwrap(), 0xffff_ffff);
}

#[test]
fn lpm_entries_need_a_prefix_length_and_take_no_priority() {
    let sw = load("lpm.p4");
    let e = error(&sw, "table_add ipv4_lpm ipv4_forward 10.0.0.1 => 1 1\n");
    assert!(e.starts_with("line 1:") && e.contains("VALUE/LEN"), "{e}");
    let e = error(
        &sw,
        "\ntable_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 1 1 9\n",
    );
    assert!(
        e.starts_with("line 2:") && e.contains("takes 2 argument(s), 3 given"),
        "{e}"
    );
    let e = error(&sw, "table_add ipv4_lpm ipv4_forward 10.0.0.0/40 => 1 1\n");
    assert!(e.contains("prefix length 40 > 32"), "{e}");
    let e = error(&sw, "table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 1 512\n");
    assert!(e.contains("bit<9>") && e.contains("0x200"), "{e}");
    let e = error(&sw, "table_delete ipv4_lpm 10.0.0.0/8 => 3\n");
    assert!(e.contains("no priority"), "{e}");
}

#[test]
fn values_that_do_not_fit_are_errors_not_truncated() {
    let sw = load("features.p4");
    let e = error(&sw, "register_write pkt_count 0 0x1ffffffff\n");
    assert!(e.starts_with("line 1:") && e.contains("bit<32>"), "{e}");
    let e = error(&sw, "register_write pkt_count 8 1\n");
    assert!(e.contains("8 cell(s)"), "{e}");
    let e = error(&sw, "register_write nosuch 0 1\n");
    assert!(e.contains("unknown register"), "{e}");
    let e = error(&sw, "table_add fwd set_port 0x1ffffffff => 1\n");
    assert!(e.contains("does not fit"), "{e}");
    let e = error(&sw, "table_add fwd set_port 10.0.0.0/8 => 1\n");
    assert!(e.contains("Exact key"), "{e}");
    let e = error(&sw, "table_add acl deny 1 2 => 5\n");
    assert!(e.contains("3 key field(s)"), "{e}");
}

#[test]
fn an_error_while_applying_names_its_line_and_applies_nothing() {
    let sw = load("lpm.p4");
    let text = "table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 1 1\n\
                # the same key again\n\
                table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 2 2\n";
    let e = error(&sw, text);
    assert!(
        e.starts_with("line 3:") && e.contains("already exists"),
        "{e}"
    );
    assert!(sw.entries("MyIngress.ipv4_lpm").unwrap().is_empty());
}
