//! Packet scenario tests: each `tests/programs/*.stf` file names a program, sets
//! up tables, sends packets and states the expected output (port and bytes) of
//! each. The expected packets are produced independently by
//! `tests/programs/gen_scenarios.py` (a hand-written Python model of each
//! program), so these tests compare the engine against a second implementation.
//!
//! Directives (one per line, `#` comments):
//! `program F.p4` · any entries-file command (`table_add ...`, applied at once) ·
//! `packet PORT HEX` · `expect PORT HEX` / `expect drop` (checks the last packet;
//! `*` in HEX is a wildcard nibble) · `register NAME IDX VALUE` ·
//! `counter NAME IDX PACKETS BYTES` · `classifier TABLE KIND`.

use std::path::Path;
use tandem_switch::{apply_commands, parse_commands, Switch};

fn hex(s: &str) -> Vec<Option<u8>> {
    let nibbles: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(nibbles.len().is_multiple_of(2), "odd hex length: {s}");
    nibbles
        .chunks(2)
        .map(|c| {
            if c[0] == '*' || c[1] == '*' {
                None
            } else {
                Some(u8::from_str_radix(&format!("{}{}", c[0], c[1]), 16).expect("hex"))
            }
        })
        .collect()
}

fn run_scenario(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let dir = path.parent().expect("dir");
    let mut sw: Option<Switch> = None;
    let mut worker = None;
    let mut last: Option<Option<(u32, Vec<u8>)>> = None;
    let mut checks = 0;
    for (ln, raw) in text.lines().enumerate() {
        let at = format!("{}:{}", path.display(), ln + 1);
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut it = line.split_whitespace();
        let cmd = it.next().unwrap_or("");
        let rest: Vec<&str> = it.collect();
        match cmd {
            "program" => {
                let src = std::fs::read_to_string(dir.join(rest[0])).map_err(|e| e.to_string())?;
                let s = Switch::from_source(&src).map_err(|e| format!("{at}: {e}"))?;
                worker = Some(s.worker());
                sw = Some(s);
            }
            "packet" => {
                let port: u32 = rest[0].parse().map_err(|_| format!("{at}: port"))?;
                let bytes: Vec<u8> = hex(&rest[1..].join(""))
                    .into_iter()
                    .map(|b| b.expect("no wildcards in input"))
                    .collect();
                let w = worker.as_mut().ok_or("no program")?;
                last = Some(w.process(port, &bytes).map(|(p, d)| (p, d.to_vec())));
            }
            "expect" => {
                checks += 1;
                let got = last.clone().ok_or(format!("{at}: expect before packet"))?;
                if rest[0] == "drop" {
                    if let Some((p, d)) = got {
                        return Err(format!("{at}: expected drop, got port {p}: {}", to_hex(&d)));
                    }
                    continue;
                }
                let port: u32 = rest[0].parse().map_err(|_| format!("{at}: port"))?;
                let want = hex(&rest[1..].join(""));
                let Some((p, d)) = got else {
                    return Err(format!("{at}: expected port {port}, packet was dropped"));
                };
                let same = d.len() == want.len()
                    && d.iter().zip(&want).all(|(a, b)| b.is_none_or(|b| b == *a));
                if p != port || !same {
                    return Err(format!(
                        "{at}: expected port {port}\n  want {}\n  got port {p}\n       {}",
                        rest[1..].join(""),
                        to_hex(&d)
                    ));
                }
            }
            "register" => {
                checks += 1;
                let s = sw.as_ref().ok_or("no program")?;
                let v = s
                    .register_read(rest[0], rest[1].parse().expect("idx"))
                    .map_err(|e| format!("{at}: {e}"))?;
                let want = tandem_switch::parse_value(rest[2]).expect("value");
                if v != want {
                    return Err(format!("{at}: register {} = {v}, want {want}", rest[0]));
                }
            }
            "counter" => {
                checks += 1;
                let s = sw.as_ref().ok_or("no program")?;
                let v = s
                    .counter_read(rest[0], rest[1].parse().expect("idx"))
                    .map_err(|e| format!("{at}: {e}"))?;
                let want = (
                    rest[2].parse::<u64>().expect("packets"),
                    rest[3].parse::<u64>().expect("bytes"),
                );
                if v != want {
                    return Err(format!("{at}: counter {} = {v:?}, want {want:?}", rest[0]));
                }
            }
            "classifier" => {
                checks += 1;
                let s = sw.as_ref().ok_or("no program")?;
                let k = s.classifier(rest[0]).map_err(|e| format!("{at}: {e}"))?;
                if format!("{k:?}") != rest[1] {
                    return Err(format!("{at}: classifier {k:?}, want {}", rest[1]));
                }
            }
            _ => {
                let s = sw.as_ref().ok_or("no program")?;
                let cmds = parse_commands(line, s).map_err(|e| format!("{at}: {e}"))?;
                apply_commands(s, &cmds).map_err(|e| format!("{at}: {e}"))?;
            }
        }
    }
    Ok(checks)
}

fn to_hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn all_scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "stf"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no scenarios");
    let mut failures = Vec::new();
    for f in &files {
        match run_scenario(f) {
            Ok(n) => eprintln!("{}: {n} checks passed", f.display()),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_program_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    for e in std::fs::read_dir(&dir).expect("dir") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "p4") {
            let src = std::fs::read_to_string(&p).expect("read");
            if let Err(e) = Switch::from_source(&src) {
                panic!("{}: {e}", p.display());
            }
        }
    }
}
