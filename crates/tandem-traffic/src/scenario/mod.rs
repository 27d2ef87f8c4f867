//! Packet scenarios: hand-written packet sequences with expected outputs.
//!
//! A scenario is a TOML file, conventionally `examples/nfs/<nf>/scenarios/<name>.toml`. It
//! lists packets to feed an NF, in order, each with the NF's expected reaction (drop, or send
//! on a port with given header fields), and optionally assertions on the NF's state. This
//! module reads the files, builds the packets and checks outputs against the expectations;
//! running them is the runner's (`tandem_host::scenario` runs them on the reference host).
//! The full reference with examples is `docs/scenarios.md`.
//!
//! Inside: `spec` the file as written, `packet` building frames, `expect` expectations and
//! the check of an outcome ([`Expect::check`]), `frame` reading frames back
//! ([`frame_fields`], [`validate_checksums`], [`summarize`]), `parse` field values.
//!
//! # Format
//!
//! ```toml
//! description = "inside -> outside allocates port 1024; the reply is mapped back"
//! # nf = "../mazunat.cc"        # default: ../<dir>.cc, for scenarios/ inside the NF's dir
//! # [config]                    # optional: top-level keys replacing the NF's <stem>.toml
//! # external_ip = "203.0.113.1"
//!
//! [flow.web]                    # named packet templates, reused by steps
//! ipv4 = { src = "10.0.0.5", dst = "198.51.100.7" }
//! tcp = { sport = 40000, dport = 80 }
//!
//! [[step]]
//! name = "SYN from inside"
//! at = "1ms"                    # ns as an integer, or "1.5s", "300ms", "20us", "7ns",
//!                               # "2min", "1h"; "+5s" is relative to the previous step.
//!                               # Default: previous step + 1us (the first step: 0).
//! port = 0                      # ingress port (required for a packet step)
//! flow = "web"                  # start from a template ...
//! tcp = { flags = "S", seq = 100 }   # ... and override fields of it
//! expect = { send = 1, ipv4 = { src = "203.0.113.1" }, tcp = { sport = 1024 } }
//!
//! [[step]]
//! port = 1
//! flow = "web"
//! reply = true                  # swap MACs, addresses and ports of the template
//! ipv4 = { dst = "203.0.113.1" }
//! tcp = { dport = 1024, flags = "SA" }
//! expect = { send = 0, ipv4 = { dst = "10.0.0.5" }, tcp = { dport = 40000 } }
//! state = { int2ext = 1 }       # assertions on the state after this step
//!
//! [final_state]                 # checked after the last step, at its time
//! int2ext = 1
//! ```
//!
//! Packet fields (all optional; defaults in parentheses): `eth = { src, dst, type }`
//! (02:00:00:00:00:01, 02:00:00:00:00:02, 0x0800), `ipv4 = { src, dst, ttl, tos, proto, id }`
//! (192.0.2.1, 192.0.2.2, 64, from tcp/udp, 0), `tcp = { sport, dport, flags, seq, ack,
//! window }` (1234, 80, "", 0, 0, 65535; flags letters F S R P A U), `udp = { sport, dport }`
//! (1234, 53), `payload = "text"` or `payload_hex = "de ad"`, `truncate = N` (cut the
//! finished frame to N bytes), or `frame_hex = "..."` (the whole frame, nothing computed).
//! Length fields and checksums are computed (with etherparse). A frame without `ipv4`,
//! `tcp` or `udp` is an Ethernet frame carrying the payload.
//!
//! Expectations: `expect = { drop = true }`, or `expect = { send = PORT, ... }` with any of
//! `eth`, `ipv4`, `tcp`, `udp` (the same field names as packets), `payload`, `payload_hex`,
//! `len` (frame length) and `unchanged = true` (the frame is byte-identical to the input).
//! Only listed fields are compared; every sent IPv4 packet must also carry valid IPv4 and
//! TCP/UDP checksums.
//!
//! State assertions (`state = {...}` on a step, `[final_state]`): state member name → number.
//! For a map or vector the number is its count of live entries; for a scalar, its value
//! (the member's bytes read as a little-endian integer). A step may consist of `state` only
//! (no `port`, no packet): it checks the state at its time, e.g. after an idle timeout
//! (no timers fire for such a step).

mod expect;
mod frame;
mod packet;
mod parse;
mod spec;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use expect::{Expect, FieldValue};
pub use frame::{frame_fields, summarize, validate_checksums};
use parse::parse_time;
use spec::{FileSpec, PacketSpec};

/// Errors loading or running a scenario. Each names the file; step errors name the step.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{path}: {step}: field `{field}`: {message}")]
    Invalid {
        path: PathBuf,
        step: String,
        field: String,
        message: String,
    },
    #[error("{path}: {step}: {message}")]
    Mismatch {
        path: PathBuf,
        step: String,
        message: String,
    },
    #[error("{path}: {step}: the NF failed: {message}")]
    Run {
        path: PathBuf,
        step: String,
        message: String,
    },
    #[error("{path}: cannot set up the NF: {message}")]
    Setup { path: PathBuf, message: String },
}

/// One step: a packet with its expectation, and/or state assertions.
#[derive(Clone, Debug)]
pub struct Step {
    /// "step 3" or "step 3 (name)", for messages.
    pub label: String,
    pub at_ns: u64,
    /// Ingress port, frame and expectation; `None` for a state-only step.
    pub packet: Option<(u32, Vec<u8>, Expect)>,
    pub state: BTreeMap<String, i64>,
}

/// A loaded scenario file.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub path: PathBuf,
    pub description: Option<String>,
    /// The NF source the scenario is for.
    pub nf_source: PathBuf,
    /// Top-level configuration keys replacing those of the NF's default configuration.
    pub config_override: Option<toml::Table>,
    pub steps: Vec<Step>,
    pub final_state: BTreeMap<String, i64>,
}

impl Scenario {
    /// Reads and checks a scenario file (packets are built here, so field errors surface
    /// before anything runs).
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScenarioError::Io {
            path: path.to_owned(),
            source: e,
        })?;
        Scenario::parse(&text, path)
    }

    /// Parses scenario text; `path` names it in errors and anchors relative paths.
    pub fn parse(text: &str, path: &Path) -> Result<Scenario, ScenarioError> {
        let spec: FileSpec = toml::from_str(text).map_err(|e| ScenarioError::Parse {
            path: path.to_owned(),
            message: e.to_string().trim_end().to_owned(),
        })?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let nf_source = match &spec.nf {
            Some(p) => dir.join(p),
            None => {
                let nf_dir = if dir.file_name().is_some_and(|n| n == "scenarios") {
                    dir.parent().unwrap_or(Path::new("."))
                } else {
                    dir
                };
                let stem = nf_dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .or_else(|| {
                        let abs = nf_dir.canonicalize().ok()?;
                        abs.file_name().map(|n| n.to_string_lossy().into_owned())
                    })
                    .unwrap_or_default();
                nf_dir.join(format!("{stem}.cc"))
            }
        };
        let mut steps = Vec::new();
        let mut now: u64 = 0;
        for (i, s) in spec.step.iter().enumerate() {
            let label = match &s.name {
                Some(n) => format!("step {} ({n})", i + 1),
                None => format!("step {}", i + 1),
            };
            let bad = |field: &str, message: String| ScenarioError::Invalid {
                path: path.to_owned(),
                step: label.clone(),
                field: field.to_owned(),
                message,
            };
            now = match &s.at {
                None if i == 0 => 0,
                None => now + 1_000,
                Some(v) => {
                    let (t, rel) = parse_time(v).map_err(|m| bad("at", m))?;
                    if rel {
                        now.checked_add(t)
                            .ok_or_else(|| bad("at", "time overflows".into()))?
                    } else {
                        t
                    }
                }
            };
            if let Some(prev) = steps.last().map(|p: &Step| p.at_ns) {
                if now < prev {
                    return Err(bad(
                        "at",
                        format!("time {now} ns is before the previous step's {prev} ns"),
                    ));
                }
            }
            let has_packet = s.port.is_some()
                || s.flow.is_some()
                || s.eth.is_some()
                || s.ipv4.is_some()
                || s.tcp.is_some()
                || s.udp.is_some()
                || s.payload.is_some()
                || s.payload_hex.is_some()
                || s.frame_hex.is_some()
                || s.expect.is_some();
            let packet = if has_packet {
                let port = s
                    .port
                    .ok_or_else(|| bad("port", "a packet step needs its ingress port".into()))?;
                let mut base = match &s.flow {
                    Some(f) => spec
                        .flow
                        .get(f)
                        .cloned()
                        .ok_or_else(|| bad("flow", format!("no [flow.{f}] in this file")))?,
                    None => PacketSpec::default(),
                };
                if s.reply {
                    base = base.reversed();
                }
                let own = PacketSpec {
                    eth: s.eth.clone(),
                    ipv4: s.ipv4.clone(),
                    tcp: s.tcp.clone(),
                    udp: s.udp.clone(),
                    payload: s.payload.clone(),
                    payload_hex: s.payload_hex.clone(),
                    frame_hex: s.frame_hex.clone(),
                    truncate: s.truncate,
                };
                let pkt = base.overlay(own);
                let frame = pkt.build().map_err(|(f, m)| bad(&f, m))?;
                let exp = s
                    .expect
                    .as_ref()
                    .ok_or_else(|| bad("expect", "a packet step needs an expectation".into()))?;
                let expect = exp.resolve().map_err(|(f, m)| bad(&f, m))?;
                Some((port, frame, expect))
            } else {
                if s.state.is_empty() {
                    return Err(bad(
                        "port",
                        "a step needs a packet (port, fields, expect) or state assertions".into(),
                    ));
                }
                None
            };
            steps.push(Step {
                label,
                at_ns: now,
                packet,
                state: s.state.clone(),
            });
        }
        if steps.is_empty() {
            return Err(ScenarioError::Parse {
                path: path.to_owned(),
                message: "no [[step]]".into(),
            });
        }
        Ok(Scenario {
            path: path.to_owned(),
            description: spec.description,
            nf_source,
            config_override: spec.config,
            steps,
            final_state: spec.final_state,
        })
    }
}

/// The scenario files of `dir` (`*.toml`), sorted.
pub fn scenario_files(dir: &Path) -> Result<Vec<PathBuf>, ScenarioError> {
    let rd = std::fs::read_dir(dir).map_err(|e| ScenarioError::Io {
        path: dir.to_owned(),
        source: e,
    })?;
    let mut out: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::frame::extract;
    use super::*;

    fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        Scenario::parse(text, Path::new("x/scenarios/t.toml"))
    }

    #[test]
    fn times_defaults_and_flows() {
        let s = parse(
            r#"
[flow.a]
ipv4 = { src = "10.0.0.1", dst = "10.0.0.2" }
tcp = { sport = 1000, dport = 80 }
[[step]]
port = 0
flow = "a"
tcp = { flags = "S", seq = 7 }
expect = { send = 1 }
[[step]]
at = "+1.5s"
port = 1
flow = "a"
reply = true
tcp = { flags = "SA" }
expect = { drop = true }
[[step]]
at = "5min"
state = { conns = 0 }
"#,
        )
        .unwrap();
        assert_eq!(s.nf_source, Path::new("x/x.cc"));
        assert_eq!(s.steps[0].at_ns, 0);
        assert_eq!(s.steps[1].at_ns, 1_500_000_000);
        assert_eq!(s.steps[2].at_ns, 300_000_000_000);
        let (_, f0, _) = s.steps[0].packet.as_ref().unwrap();
        let x = extract(f0);
        assert_eq!(x["tcp.sport"], FieldValue::Int(1000));
        assert_eq!(x["tcp.seq"], FieldValue::Int(7));
        assert_eq!(x["tcp.flags"], FieldValue::Int(2));
        validate_checksums(f0).unwrap();
        let (_, f1, e1) = s.steps[1].packet.as_ref().unwrap();
        let x = extract(f1);
        assert_eq!(x["ipv4.src"], FieldValue::Bytes(vec![10, 0, 0, 2]));
        assert_eq!(x["tcp.dport"], FieldValue::Int(1000));
        assert_eq!(x["tcp.flags"], FieldValue::Int(0x12));
        assert_eq!(*e1, Expect::Drop);
    }

    #[test]
    fn errors_name_step_and_field() {
        let e = parse("[[step]]\nname = \"x\"\nport = 0\nipv4 = { src = \"1.2.3\" }\nexpect = { drop = true }\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("step 1 (x)") && e.contains("ipv4.src"), "{e}");
        let e = parse("[[step]]\nport = 0\ntcp = { flags = \"SX\" }\nexpect = { drop = true }\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("tcp.flags") && e.contains("`X`"), "{e}");
        let e = parse("[[step]]\nport = 0\nudp = {}\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("expect"), "{e}");
        let e = parse("[[step]]\nport = 0\nudp = { bogus = 1 }\nexpect = { drop = true }\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.toml") && e.contains("bogus"), "{e}");
        let e = parse(
            "[[step]]\nat = \"2s\"\nstate = { a = 1 }\n[[step]]\nat = \"1s\"\nstate = { a = 1 }\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("step 2") && e.contains("`at`"), "{e}");
    }

    #[test]
    fn mismatches_show_expected_and_actual() {
        let s = parse(
            "[[step]]\nport = 0\nipv4 = { src = \"10.0.0.1\" }\nudp = { sport = 5 }\nexpect = { send = 1, ipv4 = { src = \"10.0.0.9\" }, udp = { sport = 5 } }\n",
        )
        .unwrap();
        let (_, frame, expect) = s.steps[0].packet.clone().unwrap();
        let e = expect.check(&frame, Some((1, &frame))).unwrap_err();
        assert!(
            e.contains("ipv4.src: expected 10.0.0.9, actual 10.0.0.1"),
            "{e}"
        );
        let mut bad = frame.clone();
        bad[26] = 11; // source address changed without fixing the checksums
        let e = expect.check(&frame, Some((1, &bad))).unwrap_err();
        assert!(e.contains("checksum"), "{e}");
        let e = expect.check(&frame, None).unwrap_err();
        assert!(e.contains("actual: dropped"), "{e}");
    }
}
