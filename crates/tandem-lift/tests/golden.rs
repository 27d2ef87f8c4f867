//! Golden NF IR of every example NF (`tests/golden/<nf>.nfir`), and the text form's
//! print → parse → print identity on each. Refresh after an intended change with
//! `TANDEM_BLESS=1 cargo test -p tandem-lift --test golden` and review the diff.

mod common;

use common::{lift_example, EXAMPLES};

fn golden_path(nf: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{nf}.nfir"))
}

#[test]
fn lifted_examples_match_their_golden_ir() {
    let bless = std::env::var_os("TANDEM_BLESS").is_some();
    let mut stale = Vec::new();
    for nf in EXAMPLES {
        let lifted = lift_example(nf);
        tandem_ir::verify_module(&lifted.module).unwrap_or_else(|e| panic!("{nf}: {e}"));
        let text = tandem_ir::print_module(&tandem_ir::renumber(&lifted.module));
        // The text form round-trips.
        let reparsed = tandem_ir::parse_module(&text).unwrap_or_else(|e| panic!("{nf}: {e}"));
        assert_eq!(
            tandem_ir::print_module(&reparsed),
            text,
            "{nf}: print(parse(text)) != text"
        );
        let path = golden_path(nf);
        if bless {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(want) if want == text => {}
            _ => stale.push(nf.to_string()),
        }
    }
    assert!(
        stale.is_empty(),
        "golden NF IR differs for {stale:?}; if intended, rerun with TANDEM_BLESS=1 and review"
    );
}

#[test]
fn minilb_ir_has_the_statements_of_gallium_figure_3() {
    let text = std::fs::read_to_string(golden_path("minilb")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let pos = |pat: &str| {
        lines
            .iter()
            .position(|l| l.contains(pat))
            .unwrap_or_else(|| panic!("MiniLB IR lacks `{pat}`:\n{text}"))
    };
    // hash32 = saddr ^ daddr; key = hash32 & 0xFFFF; map lookup; branch on hit.
    let saddr = pos("hdr.read ipv4.saddr");
    let daddr = pos("hdr.read ipv4.daddr");
    let xor = pos(":i32 = xor");
    let key = pos(":i16 = trunc");
    let find = pos("map.find map(");
    let branch = lines[find..]
        .iter()
        .position(|l| l.trim_start().starts_with("brif"))
        .unwrap()
        + find;
    assert!(saddr < xor && daddr < xor && xor < key && key < find && find < branch);
    // Miss: backend index (modulo the vector size), vector read, insert.
    let urem = pos("urem");
    let get = pos("vec.get backends[");
    let insert = pos("map.insert map(");
    assert!(urem < get && get < insert);
    // Both paths rewrite daddr and send.
    assert!(pos("hdr.write ipv4.daddr") > insert);
    pos("send ");
}
