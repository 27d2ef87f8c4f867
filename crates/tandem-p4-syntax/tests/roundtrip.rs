//! Parser/printer tests: every program under tandem-switch/tests/programs must
//! parse, print, and reparse to the same printed text; errors carry line:col; no
//! input makes the parser panic.

use proptest::prelude::*;
use tandem_p4_syntax::*;

fn programs() -> Vec<(String, String)> {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tandem-switch/tests/programs"
    );
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).expect("programs dir") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "p4") {
            let src = std::fs::read_to_string(&p).expect("read");
            v.push((p.display().to_string(), src));
        }
    }
    assert!(!v.is_empty());
    v
}

#[test]
fn print_parse_print_is_identity() {
    for (name, src) in programs() {
        let p = parse_program(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let a = print_program(&p);
        let q = parse_program(&a).unwrap_or_else(|e| panic!("{name} reprint: {e}\n{a}"));
        let b = print_program(&q);
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn errors_have_positions() {
    let e = parse_program("header h {\n  bit<8> x\n}").unwrap_err();
    assert_eq!(e.span, Span { line: 3, col: 1 });
    assert!(e.to_string().starts_with("3:1:"), "{e}");
    let e = parse_program("control C() { apply { x = ; } }").unwrap_err();
    assert_eq!(e.span.line, 1);
    assert_eq!(e.span.col, 27);
}

#[test]
fn expressions() {
    let cases = [
        ("a + b * c", "a + (b * c)"),
        ("(a + b) * c", "(a + b) * c"),
        ("a >> 2", "a >> 2"),
        ("x[7:0] ++ y", "x[7:0] ++ y"),
        ("(bit<8>) a.b", "(bit<8>) a.b"),
        ("t.apply().hit", "t.apply().hit"),
        ("8w5 &&& 0xff", "8w5 &&& 255"),
        ("1 .. 5", "1 .. 5"),
        ("c ? 1 : 2", "c ? 1 : 2"),
        ("a == b && !c", "(a == b) && (!c)"),
        ("hash<bit<16>>(x)", "hash<bit<16> >(x)"),
        ("a < b", "a < b"),
        ("-1", "-1"),
        ("{a, b}", "{a, b}"),
    ];
    for (src, want) in cases {
        let e = parse_expr(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(print_expr(&e), want, "{src}");
        let again = parse_expr(&print_expr(&e)).expect("reparse");
        assert_eq!(print_expr(&again), want);
    }
}

#[test]
fn parenthesised_single_keysets_round_trip() {
    // found by cargo-fuzz: `(a & b) && c` as a select keyset printed as a tuple
    let src = "parser P() { state start { transition select(x) { 0x88 & 0 && 0xff00: s; (1, 2): t; default: accept; } } }\n\
               control C() { table t { key = { x: exact; } actions = { a; } const entries = { (1 & 2) + 3: a(); } } apply { } }";
    let p = parse_program(src).expect("parse");
    let a = print_program(&p);
    let q = parse_program(&a).unwrap_or_else(|e| panic!("{e}\n{a}"));
    assert_eq!(a, print_program(&q));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let src = format!(
        "const bit<8> x = {}1{};",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    assert!(parse_program(&src).is_err());
    let src = format!("const bit<8> x = {}1;", "-".repeat(10_000));
    assert!(parse_program(&src).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn never_panics_on_random_text(s in "\\PC{0,200}") {
        let _ = parse_program(&s);
    }

    #[test]
    fn never_panics_on_token_soup(toks in proptest::collection::vec(
        prop::sample::select(vec![
            "header", "h", "{", "}", "(", ")", "bit", "<", ">", "8", ";", "control", "apply",
            "state", "transition", "select", ":", ",", "=", "+", "&&&", "..", "table", "key",
            "actions", "exact", "x", ".", "[", "]", "if", "else", "switch", "default", "@",
            "16w0x800", "parser", "struct", "const", "#include <v1model.p4>\n", "\"s\"",
        ]), 0..120)) {
        let src = toks.join(" ");
        let _ = parse_program(&src);
    }

    #[test]
    fn never_panics_on_mutated_program(pos in 0usize..4000, len in 0usize..40, junk in "\\PC{0,8}") {
        let src = include_str!("../../tandem-switch/tests/programs/minilb.p4");
        let mut b: Vec<char> = src.chars().collect();
        let p = pos.min(b.len());
        let e = (p + len).min(b.len());
        b.splice(p..e, junk.chars());
        let s: String = b.into_iter().collect();
        if let Ok(prog) = parse_program(&s) {
            // Whatever parses must print to something that parses to the same text.
            let a = print_program(&prog);
            let q = parse_program(&a);
            prop_assert!(q.is_ok(), "reprint failed: {:?}", q.err());
            if let Ok(q) = q { prop_assert_eq!(a, print_program(&q)); }
        }
    }
}

/// An instantiation with an initializer (TNA's `RegisterAction`) is kept as raw text inside a
/// control and prints back the same; an unterminated or malformed one is an error (the
/// negative control), never a panic.
#[test]
fn instantiation_with_an_initializer_is_kept_raw() {
    let src = "control C(inout bit<32> x) {\n    Register<bit<32>, bit<32> >(32w4) r;\n    \
               RegisterAction<bit<32>, bit<32>, bit<1> >(r) a = { void apply(inout bit<32> t, \
               out bit<1> f) { if (x - t <= 32w5) { t = x; f = 1w1; } else { f = 1w0; } } };\n    \
               apply {\n    }\n}\n";
    let p = parse_program(src).unwrap_or_else(|e| panic!("{e}"));
    let DeclKind::Control { locals, .. } = &p.items[0].kind else {
        panic!("not a control");
    };
    let DeclKind::Extern { name, text } = &locals[1].kind else {
        panic!("{:?}", locals[1].kind);
    };
    assert_eq!(name, "a");
    assert!(
        text.starts_with("RegisterAction <") && text.ends_with("} } } ;"),
        "{text}"
    );
    assert_eq!(raw_text(text).unwrap(), *text);
    let once = print_program(&p);
    assert_eq!(print_program(&parse_program(&once).unwrap()), once);
    for bad in [
        "control C() { R<bit<1> >(r) a = { void apply() { ; } apply { } }",
        "control C() { R<bit<1> >(r) a = 5; apply { } }",
        "control C() { R<bit<1> >(r) a = { } apply { } }",
    ] {
        assert!(parse_program(bad).is_err(), "{bad}");
    }
}
