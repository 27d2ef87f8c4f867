//! Every front-end diagnostic has a test program (`tests/unsupported/<code>_*.cc`) whose first
//! line says `// expect: CODE text`: lifting it must report that code, at a line of that
//! file (when the code has a location), with a message containing the text.

mod common;

use std::path::PathBuf;

use tandem_lift::{Code, Severity};

fn cases() -> Vec<(PathBuf, Code, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/unsupported");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("cc") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let first = text.lines().next().unwrap();
        let rest = first
            .strip_prefix("// expect: ")
            .unwrap_or_else(|| panic!("{p:?}: no expect line"));
        let (code, msg) = rest.split_once(' ').unwrap();
        let code = Code::parse(code).unwrap_or_else(|| panic!("{p:?}: unknown code {code}"));
        out.push((p, code, msg.to_string()));
    }
    out.sort();
    out
}

#[test]
fn every_code_has_a_test_program() {
    let covered: Vec<Code> = cases().into_iter().map(|c| c.1).collect();
    for c in Code::ALL {
        assert!(
            covered.contains(c),
            "no test program for {c} ({})",
            c.title()
        );
        assert!(!c.explain().is_empty());
    }
}

#[test]
fn each_program_gets_its_diagnostic_with_file_and_line() {
    for (path, code, msg) in cases() {
        let ll = common::analysis_ll(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let diags = match tandem_lift::lift(&ll) {
            Ok(l) => {
                assert_eq!(
                    code.severity(),
                    Severity::Warning,
                    "{name}: lifted without an error"
                );
                l.warnings
            }
            Err(e) => e.diagnostics,
        };
        let d = diags
            .iter()
            .find(|d| d.code == code && d.to_string().contains(&msg))
            .unwrap_or_else(|| panic!("{name}: no {code} saying `{msg}`; got:\n{diags:#?}"));
        if code != Code::NoEntry {
            let loc = d
                .loc
                .as_ref()
                .unwrap_or_else(|| panic!("{name}: {code} has no location"));
            assert!(
                loc.file.ends_with(&name) && loc.line > 1,
                "{name}: location {loc}"
            );
        }
    }
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    for text in ["", "not llvm", "define void @f() {", "\u{0}\u{1}"] {
        assert!(tandem_lift::lift(text).is_err());
    }
}
