//! Text-form tests: every file in `tests/data` parses, verifies, and prints back unchanged
//! (comment lines starting with `;` are not part of the canonical text).

use tandem_ir::{parse_module, print_module, verify_module};

fn canonical(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with(';'))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn data_files() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("tests/data exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "nfir"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).expect("readable file"),
            )
        })
        .collect();
    out.sort();
    assert!(out.len() >= 3, "expected the .nfir test files");
    out
}

#[test]
fn print_parse_is_identity_on_data_files() {
    for (path, text) in data_files() {
        let m = parse_module(&text).unwrap_or_else(|e| panic!("{path}:{e}"));
        if let Err(e) = verify_module(&m) {
            panic!("{path} does not verify:\n{e}");
        }
        let printed = print_module(&m);
        assert_eq!(printed, canonical(&text), "{path} is not canonical");
        let again = parse_module(&printed).unwrap_or_else(|e| panic!("{path} reprint: {e}"));
        assert_eq!(again, m, "{path}: parse(print(m)) != m");
    }
}

#[test]
fn parse_errors_have_positions() {
    let cases = [
        ("nf x\nfn process {\nblock0:\n    v0:i32 = frobnicate v1\n}\n", "4:14: unknown instruction `frobnicate`"),
        ("nf x\nstate s: hashmap<{k: i65}, {}, 1>\n", "2:22: expected a type `i1`..`i64`, found `i65`"),
        ("nf x\nfn process {\nblock0:\n    v0:i1 = map.find nope(v1)\n", "4:22: no state named `nope`"),
        ("nf x\nfn process {\nblock0:\n    br block1\n}\n", "4:8: block `block1` is used but has no label (blocks must be numbered block0, block1, ...)"),
        ("nf x\nfn process {\nblock0:\n    v0:i1 = const 1\n    v0:i1 = const 0\n", "5:5: value `v0` is defined twice"),
        ("nf x\n", "2:1: missing `fn process { ... }`"),
        ("nf x\nfile f0 = \"a\n", "2:11: unterminated string"),
        ("nf x\n  $", "2:3: unexpected character '$'"),
        ("nf x\nfn process {\nblock0:\n    v0:i64 = const 99999999999999999999\n", "4:20: invalid number `99999999999999999999`"),
    ];
    for (text, want) in cases {
        match parse_module(text) {
            Ok(_) => panic!("parsed: {text}"),
            Err(e) => assert_eq!(e.to_string(), want, "for input {text:?}"),
        }
    }
}

#[test]
fn renumber_restores_canonical_names() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/minilb.nfir");
    let text = canonical(&std::fs::read_to_string(path).unwrap());
    // Rename every value vN to v(3N+7).
    let chars: Vec<char> = text.chars().collect();
    let mut scrambled = String::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_value = chars[i] == 'v'
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '.'))
            && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit());
        if starts_value {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let n: u32 = chars[i + 1..j].iter().collect::<String>().parse().unwrap();
            scrambled.push_str(&format!("v{}", 3 * n + 7));
            i = j;
        } else {
            scrambled.push(chars[i]);
            i += 1;
        }
    }
    assert_ne!(scrambled, text);
    let m = parse_module(&scrambled).unwrap();
    verify_module(&m).unwrap();
    assert_eq!(
        print_module(&m),
        scrambled,
        "the parser keeps value numbers"
    );
    let r = tandem_ir::renumber(&m);
    verify_module(&r).unwrap();
    assert_eq!(print_module(&r), text);
    assert_eq!(
        parse_module(&text).unwrap(),
        r,
        "renumbered module equals the parsed canonical one"
    );
}
