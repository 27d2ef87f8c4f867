//! Every file a user hands the CLI — an NF configuration, a target profile, an entries file, a
//! pcap or pcapng trace, a packet scenario — is read without a panic however it is damaged:
//! proptest mutates real files (bytes flipped, cut, inserted, lines duplicated) and runs the
//! readers the commands use; each must return a value or an error.

mod common;

use common::*;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One damage to a byte string.
#[derive(Clone, Debug)]
enum Edit {
    Flip(usize, u8),
    Cut(usize),
    Insert(usize, Vec<u8>),
    DupLine(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Flip(i, b)),
        any::<usize>().prop_map(Edit::Cut),
        (
            any::<usize>(),
            proptest::collection::vec(any::<u8>(), 1..12)
        )
            .prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::DupLine),
    ]
}

fn damage(orig: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = orig.to_vec();
    for e in edits {
        let n = b.len().max(1);
        match e {
            Edit::Flip(i, x) => {
                if !b.is_empty() {
                    let i = i % n;
                    b[i] ^= x | 1;
                }
            }
            Edit::Cut(i) => b.truncate(i % (n + 1)),
            Edit::Insert(i, bytes) => {
                let i = i % (b.len() + 1);
                b.splice(i..i, bytes.iter().copied());
            }
            Edit::DupLine(i) => {
                let lines: Vec<&[u8]> = b.split(|c| *c == b'\n').collect();
                let k = i % lines.len();
                let mut out: Vec<u8> = Vec::new();
                for (j, l) in lines.iter().enumerate() {
                    out.extend_from_slice(l);
                    out.push(b'\n');
                    if j == k {
                        out.extend_from_slice(l);
                        out.push(b'\n');
                    }
                }
                b = out;
            }
        }
    }
    b
}

/// Traces written by the tool itself (pcapng from `traffic gen`, pcap from `host`).
fn traces() -> &'static (Vec<u8>, Vec<u8>) {
    static T: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    T.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tandem-inputs-{}", std::process::id()));
        let ng = dir.join("t.pcapng");
        let d = dir.to_str().unwrap();
        gen_trace(&ng, 3, &["--seed", "4"]);
        ok(&tandem(&[
            "host",
            "examples/nfs/minilb/minilb.cc",
            "--in",
            ng.to_str().unwrap(),
            "--out-dir",
            d,
        ]));
        let pcap = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "pcap"))
            .expect("host wrote a pcap");
        let t = (std::fs::read(&ng).unwrap(), std::fs::read(pcap).unwrap());
        std::fs::remove_dir_all(&dir).ok();
        t
    })
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tandem-inputs-s-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn read_trace(p: &Path) {
    if let Ok(r) = tandem_traffic::TraceReader::open(p) {
        for pkt in r.take(10_000) {
            if pkt.is_err() {
                break;
            }
        }
    }
}

fn repo_file(rel: &str) -> Vec<u8> {
    std::fs::read(repo_root().join(rel)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn damaged_nf_configurations_are_errors_not_panics(
        edits in proptest::collection::vec(edit(), 1..4), json in any::<bool>()
    ) {
        let orig = if json {
            br#"{"backends": ["10.0.0.1", "10.0.0.2"], "out_port": 1, "x": {"y": [1, 2.5, true]}}"#.to_vec()
        } else {
            repo_file("examples/nfs/mazunat/mazunat.toml")
        };
        let p = scratch(if json { "c.json" } else { "c.toml" }, &damage(&orig, &edits));
        let _ = tandem_host::NfConfig::load(&p);
    }

    #[test]
    fn damaged_profiles_are_errors_not_panics(
        edits in proptest::collection::vec(edit(), 1..4), which in 0usize..4
    ) {
        let name = ["tofino1", "tofino2", "bmv2", "tiny"][which];
        let orig = repo_file(&format!("targets/{name}.toml"));
        let text = String::from_utf8_lossy(&damage(&orig, &edits)).to_string();
        let _ = tandem_partition::parse_profile("p.toml", &text);
    }

    #[test]
    fn damaged_entries_files_are_errors_not_panics(edits in proptest::collection::vec(edit(), 1..4)) {
        static SW: OnceLock<tandem_switch::Switch> = OnceLock::new();
        let sw = SW.get_or_init(|| {
            let src = std::fs::read_to_string(repo_root().join("examples/p4/router.p4")).unwrap();
            tandem_switch::Switch::from_source(&src).unwrap()
        });
        let orig = repo_file("examples/p4/router.entries");
        let text = String::from_utf8_lossy(&damage(&orig, &edits)).to_string();
        if let Ok(cmds) = tandem_switch::parse_entries(&text, sw) {
            let _ = tandem_switch::apply_entries(sw, &cmds);
        }
    }

    #[test]
    fn damaged_traces_are_errors_not_panics(
        edits in proptest::collection::vec(edit(), 1..5), ng in any::<bool>()
    ) {
        let (pcapng, pcap) = traces();
        let orig = if ng { pcapng } else { pcap };
        let p = scratch(if ng { "t.pcapng" } else { "t.pcap" }, &damage(orig, &edits));
        read_trace(&p);
    }

    #[test]
    fn damaged_scenarios_are_errors_not_panics(edits in proptest::collection::vec(edit(), 1..4)) {
        let rel = "examples/nfs/minilb/scenarios/steering.toml";
        let text = String::from_utf8_lossy(&damage(&repo_file(rel), &edits)).to_string();
        let _ = tandem_traffic::scenario::Scenario::parse(&text, Path::new(rel));
    }
}
