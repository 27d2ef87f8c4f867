//! Packet scenarios: hand-written packet sequences with expected outputs.
//!
//! A scenario is a TOML file, conventionally `examples/nfs/<nf>/scenarios/<name>.toml`. It
//! lists packets to feed an NF, in order, each with the NF's expected reaction (drop, or send
//! on a port with given header fields), and optionally assertions on the NF's state. The
//! runner is generic over anything that processes packets ([`PacketProcessor`]): the
//! reference host implements it today; an offloaded (switch + server) runner can execute the
//! same files later. The full reference with examples is `docs/scenarios.md`.
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
//! (02:00:00:00:00:01, 02:00:00:00:00:02, 0x0800), `ipv4 = { src, dst, ttl, proto, id }`
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

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use etherparse::{
    EtherType, Ethernet2Header, IpNumber, Ipv4Header, NetSlice, SlicedPacket, TcpHeader,
    TransportSlice, UdpHeader,
};
use serde::Deserialize;
use tandem_traffic::TracePacket;

use crate::build::{compile_native, BuildOptions};
use crate::config::{NfConfig, Value as CfgValue};
use crate::host::{Host, HostError, Verdict};
use crate::native::{NativeNf, NfError};

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

/// Something that processes packets: the reference host today, an offloaded pair later.
pub trait PacketProcessor {
    type Error: std::error::Error;
    /// Processes `frame`, arriving on `in_port` at `now_ns`.
    fn process(&mut self, frame: &[u8], in_port: u32, now_ns: u64) -> Result<Verdict, Self::Error>;
    /// The NF's state as of `now_ns`, in the JSON form of [`NativeNf::dump_state`].
    fn state(&mut self, now_ns: u64) -> Result<serde_json::Value, Self::Error>;
}

impl PacketProcessor for Host {
    type Error = HostError;
    fn process(&mut self, frame: &[u8], in_port: u32, now_ns: u64) -> Result<Verdict, HostError> {
        Host::process(
            self,
            &TracePacket {
                ts_ns: now_ns,
                port: in_port,
                data: frame.to_vec(),
            },
        )
    }
    fn state(&mut self, now_ns: u64) -> Result<serde_json::Value, HostError> {
        Ok(self.nf().dump_state(now_ns)?)
    }
}

impl PacketProcessor for NativeNf {
    type Error = NfError;
    fn process(&mut self, frame: &[u8], in_port: u32, now_ns: u64) -> Result<Verdict, NfError> {
        let mut f = frame.to_vec();
        Ok(match NativeNf::process(self, &mut f, in_port, now_ns)? {
            Some(port) => Verdict::Send { port, frame: f },
            None => Verdict::Drop,
        })
    }
    fn state(&mut self, now_ns: u64) -> Result<serde_json::Value, NfError> {
        self.dump_state(now_ns)
    }
}

// ---- File format ------------------------------------------------------------------------

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct EthSpec {
    src: Option<String>,
    dst: Option<String>,
    #[serde(rename = "type")]
    ethertype: Option<u16>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ipv4Spec {
    src: Option<String>,
    dst: Option<String>,
    ttl: Option<u8>,
    proto: Option<u8>,
    id: Option<u16>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TcpSpec {
    sport: Option<u16>,
    dport: Option<u16>,
    flags: Option<String>,
    seq: Option<u32>,
    ack: Option<u32>,
    window: Option<u16>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct UdpSpec {
    sport: Option<u16>,
    dport: Option<u16>,
}

/// A packet description (a flow template, or the packet fields of a step).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PacketSpec {
    eth: Option<EthSpec>,
    ipv4: Option<Ipv4Spec>,
    tcp: Option<TcpSpec>,
    udp: Option<UdpSpec>,
    payload: Option<String>,
    payload_hex: Option<String>,
    frame_hex: Option<String>,
    truncate: Option<usize>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectSpec {
    drop: Option<bool>,
    send: Option<u32>,
    unchanged: Option<bool>,
    len: Option<usize>,
    eth: Option<EthSpec>,
    ipv4: Option<Ipv4Spec>,
    tcp: Option<TcpSpec>,
    udp: Option<UdpSpec>,
    payload: Option<String>,
    payload_hex: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepSpec {
    name: Option<String>,
    at: Option<toml::Value>,
    port: Option<u32>,
    flow: Option<String>,
    #[serde(default)]
    reply: bool,
    eth: Option<EthSpec>,
    ipv4: Option<Ipv4Spec>,
    tcp: Option<TcpSpec>,
    udp: Option<UdpSpec>,
    payload: Option<String>,
    payload_hex: Option<String>,
    frame_hex: Option<String>,
    truncate: Option<usize>,
    expect: Option<ExpectSpec>,
    #[serde(default)]
    state: BTreeMap<String, i64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    description: Option<String>,
    nf: Option<String>,
    config: Option<toml::Table>,
    #[serde(default)]
    flow: BTreeMap<String, PacketSpec>,
    #[serde(default)]
    step: Vec<StepSpec>,
    #[serde(default)]
    final_state: BTreeMap<String, i64>,
}

// ---- Resolved scenario --------------------------------------------------------------------

/// The expected reaction to a packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    Drop,
    Send {
        port: u32,
        /// Header fields to compare, as (field name, expected value).
        fields: Vec<(String, FieldValue)>,
        unchanged: bool,
    },
}

/// A comparable field value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldValue {
    Int(u64),
    Bytes(Vec<u8>),
}

impl FieldValue {
    fn show(&self, field: &str) -> String {
        match self {
            FieldValue::Int(v) if field == "tcp.flags" => format!("\"{}\"", flags_text(*v as u8)),
            FieldValue::Int(v) if field == "eth.type" => format!("0x{v:04x}"),
            FieldValue::Int(v) => v.to_string(),
            FieldValue::Bytes(b) if field.starts_with("ipv4.") && b.len() == 4 => {
                format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3])
            }
            FieldValue::Bytes(b) if field.starts_with("eth.") && b.len() == 6 => b
                .iter()
                .map(|x| format!("{x:02x}"))
                .collect::<Vec<_>>()
                .join(":"),
            FieldValue::Bytes(b) => match std::str::from_utf8(b) {
                Ok(s) if s.chars().all(|c| !c.is_control() || c == '\n' || c == '\r') => {
                    format!("{s:?}")
                }
                _ => format!("hex {}", hex(b)),
            },
        }
    }
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

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScenarioReport {
    pub steps: usize,
    pub packets: usize,
    pub sent: usize,
    pub dropped: usize,
    pub state_checks: usize,
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

    /// The NF configuration for this scenario: the NF's `<stem>.toml` (if it exists) with
    /// the scenario's `[config]` keys replacing its top-level keys.
    pub fn nf_config(&self) -> Result<NfConfig, ScenarioError> {
        let default = self.nf_source.with_extension("toml");
        let setup = |message: String| ScenarioError::Setup {
            path: self.path.clone(),
            message,
        };
        let mut table = if default.is_file() {
            let text = std::fs::read_to_string(&default)
                .map_err(|e| setup(format!("{}: {e}", default.display())))?;
            toml::from_str::<toml::Table>(&text)
                .map_err(|e| setup(format!("{}: {e}", default.display())))?
        } else {
            toml::Table::new()
        };
        let file = match &self.config_override {
            Some(o) => {
                for (k, v) in o {
                    table.insert(k.clone(), v.clone());
                }
                self.path.clone()
            }
            None => default,
        };
        let mut cfg = NfConfig {
            file: Some(file),
            items: Vec::new(),
        };
        flatten(&mut cfg.items, String::new(), &toml::Value::Table(table)).map_err(setup)?;
        Ok(cfg)
    }

    /// Runs every step on `p`; stops at the first step that does not behave as expected.
    pub fn run<P: PacketProcessor>(&self, p: &mut P) -> Result<ScenarioReport, ScenarioError> {
        let mut report = ScenarioReport::default();
        for step in &self.steps {
            report.steps += 1;
            if let Some((port, frame, expect)) = &step.packet {
                report.packets += 1;
                let verdict =
                    p.process(frame, *port, step.at_ns)
                        .map_err(|e| ScenarioError::Run {
                            path: self.path.clone(),
                            step: step.label.clone(),
                            message: e.to_string(),
                        })?;
                if matches!(verdict, Verdict::Drop) {
                    report.dropped += 1;
                } else {
                    report.sent += 1;
                }
                check_verdict(frame, expect, &verdict).map_err(|message| {
                    ScenarioError::Mismatch {
                        path: self.path.clone(),
                        step: step.label.clone(),
                        message,
                    }
                })?;
            }
            if !step.state.is_empty() {
                report.state_checks += 1;
                self.check_state(p, &step.state, step.at_ns, &step.label)?;
            }
        }
        if !self.final_state.is_empty() {
            report.state_checks += 1;
            let t = self.steps.last().map_or(0, |s| s.at_ns);
            self.check_state(p, &self.final_state, t, "final_state")?;
        }
        Ok(report)
    }

    fn check_state<P: PacketProcessor>(
        &self,
        p: &mut P,
        want: &BTreeMap<String, i64>,
        now: u64,
        label: &str,
    ) -> Result<(), ScenarioError> {
        let state = p.state(now).map_err(|e| ScenarioError::Run {
            path: self.path.clone(),
            step: label.to_owned(),
            message: format!("cannot read the state: {e}"),
        })?;
        let mismatch = |message: String| ScenarioError::Mismatch {
            path: self.path.clone(),
            step: label.to_owned(),
            message,
        };
        let members = state.as_array().cloned().unwrap_or_default();
        let mut errors = Vec::new();
        for (name, expected) in want {
            let Some(m) = members.iter().find(|m| m["name"] == name.as_str()) else {
                let known: Vec<String> = members
                    .iter()
                    .filter_map(|m| m["name"].as_str().map(String::from))
                    .collect();
                return Err(mismatch(format!(
                    "state: no member `{name}` (the NF has: {})",
                    known.join(", ")
                )));
            };
            let actual = if m["kind"] == "scalar" {
                let h = m["value"].as_str().unwrap_or("");
                let bytes = unhex(h).map_err(|e| mismatch(format!("state `{name}`: {e}")))?;
                let mut v: i64 = 0;
                for (i, b) in bytes.iter().enumerate().take(8) {
                    v |= i64::from(*b) << (8 * i);
                }
                v
            } else {
                m["entries"].as_array().map_or(0, |e| e.len() as i64)
            };
            if actual != *expected {
                let what = if m["kind"] == "scalar" {
                    "value"
                } else {
                    "entries"
                };
                errors.push(format!(
                    "state `{name}` {what}: expected {expected}, actual {actual}"
                ));
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(mismatch(errors.join("; ")))
        }
    }
}

/// Loads the scenario at `path`, compiles its NF (native build, cached) and runs it on the
/// reference host.
pub fn run_native(path: &Path, opts: &BuildOptions) -> Result<ScenarioReport, ScenarioError> {
    let sc = Scenario::load(path)?;
    let cfg = sc.nf_config()?;
    let setup = |message: String| ScenarioError::Setup {
        path: path.to_owned(),
        message,
    };
    let so = compile_native(&sc.nf_source, opts).map_err(|e| setup(e.to_string()))?;
    let nf = NativeNf::load(&so, &cfg).map_err(|e| setup(e.to_string()))?;
    let mut host = Host::new(nf);
    sc.run(&mut host)
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

// ---- Building packets ---------------------------------------------------------------------

type FieldError = (String, String);

fn ferr<T>(field: &str, message: impl Into<String>) -> Result<T, FieldError> {
    Err((field.to_owned(), message.into()))
}

impl PacketSpec {
    /// Fields of `other` replace those of `self`, one by one.
    fn overlay(self, other: PacketSpec) -> PacketSpec {
        fn opt<T>(a: Option<T>, b: Option<T>) -> Option<T> {
            b.or(a)
        }
        let eth = match (self.eth, other.eth) {
            (Some(a), Some(b)) => Some(EthSpec {
                src: opt(a.src, b.src),
                dst: opt(a.dst, b.dst),
                ethertype: opt(a.ethertype, b.ethertype),
            }),
            (a, b) => b.or(a),
        };
        let ipv4 = match (self.ipv4, other.ipv4) {
            (Some(a), Some(b)) => Some(Ipv4Spec {
                src: opt(a.src, b.src),
                dst: opt(a.dst, b.dst),
                ttl: opt(a.ttl, b.ttl),
                proto: opt(a.proto, b.proto),
                id: opt(a.id, b.id),
            }),
            (a, b) => b.or(a),
        };
        let tcp = match (self.tcp, other.tcp) {
            (Some(a), Some(b)) => Some(TcpSpec {
                sport: opt(a.sport, b.sport),
                dport: opt(a.dport, b.dport),
                flags: opt(a.flags, b.flags),
                seq: opt(a.seq, b.seq),
                ack: opt(a.ack, b.ack),
                window: opt(a.window, b.window),
            }),
            (a, b) => b.or(a),
        };
        let udp = match (self.udp, other.udp) {
            (Some(a), Some(b)) => Some(UdpSpec {
                sport: opt(a.sport, b.sport),
                dport: opt(a.dport, b.dport),
            }),
            (a, b) => b.or(a),
        };
        // A payload given by the step replaces the template's, whichever form either uses.
        let (payload, payload_hex) = if other.payload.is_some() || other.payload_hex.is_some() {
            (other.payload, other.payload_hex)
        } else {
            (self.payload, self.payload_hex)
        };
        PacketSpec {
            eth,
            ipv4,
            tcp,
            udp,
            payload,
            payload_hex,
            frame_hex: opt(self.frame_hex, other.frame_hex),
            truncate: opt(self.truncate, other.truncate),
        }
    }

    /// The reverse direction: MACs, addresses and ports swapped.
    fn reversed(mut self) -> PacketSpec {
        if let Some(e) = &mut self.eth {
            std::mem::swap(&mut e.src, &mut e.dst);
        } else {
            self.eth = Some(EthSpec {
                src: Some(DEFAULT_MAC_DST.into()),
                dst: Some(DEFAULT_MAC_SRC.into()),
                ethertype: None,
            });
        }
        if let Some(ip) = &mut self.ipv4 {
            std::mem::swap(&mut ip.src, &mut ip.dst);
        }
        if let Some(t) = &mut self.tcp {
            std::mem::swap(&mut t.sport, &mut t.dport);
            t.seq = None;
            t.ack = None;
            t.flags = None;
        }
        if let Some(u) = &mut self.udp {
            std::mem::swap(&mut u.sport, &mut u.dport);
        }
        self.payload = None;
        self.payload_hex = None;
        self
    }

    fn build(&self) -> Result<Vec<u8>, FieldError> {
        if let Some(h) = &self.frame_hex {
            let mut f = unhex(h).or_else(|m| ferr("frame_hex", m))?;
            if let Some(n) = self.truncate {
                f.truncate(n);
            }
            return Ok(f);
        }
        if self.tcp.is_some() && self.udp.is_some() {
            return ferr("udp", "a packet has tcp or udp, not both");
        }
        let payload = match (&self.payload, &self.payload_hex) {
            (Some(_), Some(_)) => return ferr("payload_hex", "give payload or payload_hex"),
            (Some(t), None) => t.as_bytes().to_vec(),
            (None, Some(h)) => unhex(h).or_else(|m| ferr("payload_hex", m))?,
            (None, None) => Vec::new(),
        };
        let eth = self.eth.clone().unwrap_or_default();
        let has_ip = self.ipv4.is_some() || self.tcp.is_some() || self.udp.is_some();
        let ethertype = eth.ethertype.unwrap_or(0x0800);
        let e = Ethernet2Header {
            source: parse_mac(eth.src.as_deref().unwrap_or(DEFAULT_MAC_SRC), "eth.src")?,
            destination: parse_mac(eth.dst.as_deref().unwrap_or(DEFAULT_MAC_DST), "eth.dst")?,
            ether_type: EtherType(ethertype),
        };
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = e.write(&mut out);
        if !has_ip {
            out.extend_from_slice(&payload);
        } else {
            let ip = self.ipv4.clone().unwrap_or_default();
            let src = parse_ip(ip.src.as_deref().unwrap_or("192.0.2.1"), "ipv4.src")?;
            let dst = parse_ip(ip.dst.as_deref().unwrap_or("192.0.2.2"), "ipv4.dst")?;
            let proto = match (ip.proto, &self.tcp, &self.udp) {
                (Some(p), _, _) => p,
                (None, Some(_), _) => 6,
                (None, None, Some(_)) => 17,
                (None, None, None) => {
                    return ferr(
                        "ipv4.proto",
                        "needed when the packet has neither tcp nor udp",
                    )
                }
            };
            let l4_len = match (&self.tcp, &self.udp) {
                (Some(_), _) => 20 + payload.len(),
                (None, Some(_)) => 8 + payload.len(),
                _ => payload.len(),
            };
            let l4_len16 = u16::try_from(l4_len)
                .ok()
                .filter(|l| *l <= 65535 - 20)
                .map_or_else(|| ferr("payload", "too long for an IPv4 packet"), Ok)?;
            let mut h = Ipv4Header::new(l4_len16, ip.ttl.unwrap_or(64), IpNumber(proto), src, dst)
                .or_else(|e| ferr("payload", e.to_string()))?;
            h.identification = ip.id.unwrap_or(0);
            h.header_checksum = h.calc_header_checksum();
            let _ = h.write(&mut out);
            if let Some(t) = &self.tcp {
                let mut th = TcpHeader::new(
                    t.sport.unwrap_or(1234),
                    t.dport.unwrap_or(80),
                    t.seq.unwrap_or(0),
                    t.window.unwrap_or(65535),
                );
                th.acknowledgment_number = t.ack.unwrap_or(0);
                let flags = parse_flags(t.flags.as_deref().unwrap_or(""), "tcp.flags")?;
                th.fin = flags & 0x01 != 0;
                th.syn = flags & 0x02 != 0;
                th.rst = flags & 0x04 != 0;
                th.psh = flags & 0x08 != 0;
                th.ack = flags & 0x10 != 0;
                th.urg = flags & 0x20 != 0;
                th.checksum = th
                    .calc_checksum_ipv4(&h, &payload)
                    .or_else(|e| ferr("payload", e.to_string()))?;
                let _ = th.write(&mut out);
            } else if let Some(u) = &self.udp {
                let mut uh = UdpHeader {
                    source_port: u.sport.unwrap_or(1234),
                    destination_port: u.dport.unwrap_or(53),
                    length: (8 + payload.len()) as u16,
                    checksum: 0,
                };
                uh.checksum = uh
                    .calc_checksum_ipv4(&h, &payload)
                    .or_else(|e| ferr("payload", e.to_string()))?;
                let _ = uh.write(&mut out);
            }
            out.extend_from_slice(&payload);
        }
        if let Some(n) = self.truncate {
            out.truncate(n);
        }
        Ok(out)
    }
}

const DEFAULT_MAC_SRC: &str = "02:00:00:00:00:01";
const DEFAULT_MAC_DST: &str = "02:00:00:00:00:02";

impl ExpectSpec {
    fn resolve(&self) -> Result<Expect, FieldError> {
        let has_fields = self.unchanged.is_some()
            || self.len.is_some()
            || self.eth.is_some()
            || self.ipv4.is_some()
            || self.tcp.is_some()
            || self.udp.is_some()
            || self.payload.is_some()
            || self.payload_hex.is_some();
        match (self.drop, self.send) {
            (Some(true), None) => {
                if has_fields {
                    return ferr("expect", "a dropped packet has no fields to compare");
                }
                Ok(Expect::Drop)
            }
            (Some(false), _) | (None, None) => {
                ferr("expect", "needs `drop = true` or `send = PORT`")
            }
            (Some(true), Some(_)) => ferr("expect", "`drop` and `send` exclude each other"),
            (None, Some(port)) => {
                let mut f: Vec<(String, FieldValue)> = Vec::new();
                let mut int = |name: &str, v: Option<u64>| {
                    if let Some(v) = v {
                        f.push((name.to_owned(), FieldValue::Int(v)));
                    }
                };
                if let Some(e) = &self.eth {
                    int("eth.type", e.ethertype.map(u64::from));
                }
                if let Some(ip) = &self.ipv4 {
                    int("ipv4.ttl", ip.ttl.map(u64::from));
                    int("ipv4.proto", ip.proto.map(u64::from));
                    int("ipv4.id", ip.id.map(u64::from));
                }
                if let Some(t) = &self.tcp {
                    int("tcp.sport", t.sport.map(u64::from));
                    int("tcp.dport", t.dport.map(u64::from));
                    int("tcp.seq", t.seq.map(u64::from));
                    int("tcp.ack", t.ack.map(u64::from));
                    int("tcp.window", t.window.map(u64::from));
                    if let Some(fl) = &t.flags {
                        int(
                            "tcp.flags",
                            Some(u64::from(parse_flags(fl, "expect.tcp.flags")?)),
                        );
                    }
                }
                if let Some(u) = &self.udp {
                    int("udp.sport", u.sport.map(u64::from));
                    int("udp.dport", u.dport.map(u64::from));
                }
                int("len", self.len.map(|l| l as u64));
                if let Some(e) = &self.eth {
                    if let Some(s) = &e.src {
                        f.push((
                            "eth.src".into(),
                            FieldValue::Bytes(parse_mac(s, "expect.eth.src")?.to_vec()),
                        ));
                    }
                    if let Some(s) = &e.dst {
                        f.push((
                            "eth.dst".into(),
                            FieldValue::Bytes(parse_mac(s, "expect.eth.dst")?.to_vec()),
                        ));
                    }
                }
                if let Some(ip) = &self.ipv4 {
                    if let Some(s) = &ip.src {
                        f.push((
                            "ipv4.src".into(),
                            FieldValue::Bytes(parse_ip(s, "expect.ipv4.src")?.to_vec()),
                        ));
                    }
                    if let Some(s) = &ip.dst {
                        f.push((
                            "ipv4.dst".into(),
                            FieldValue::Bytes(parse_ip(s, "expect.ipv4.dst")?.to_vec()),
                        ));
                    }
                }
                match (&self.payload, &self.payload_hex) {
                    (Some(_), Some(_)) => {
                        return ferr("expect.payload_hex", "give payload or payload_hex")
                    }
                    (Some(t), None) => {
                        f.push(("payload".into(), FieldValue::Bytes(t.as_bytes().to_vec())))
                    }
                    (None, Some(h)) => f.push((
                        "payload".into(),
                        FieldValue::Bytes(unhex(h).or_else(|m| ferr("expect.payload_hex", m))?),
                    )),
                    (None, None) => {}
                }
                Ok(Expect::Send {
                    port,
                    fields: f,
                    unchanged: self.unchanged == Some(true),
                })
            }
        }
    }
}

// ---- Checking outputs ----------------------------------------------------------------------

/// The comparable fields of a frame, by offset (tolerant of anything).
fn extract(frame: &[u8]) -> BTreeMap<&'static str, FieldValue> {
    let mut m = BTreeMap::new();
    m.insert("len", FieldValue::Int(frame.len() as u64));
    if frame.len() < 14 {
        m.insert("payload", FieldValue::Bytes(Vec::new()));
        return m;
    }
    let be16 = |o: usize| u64::from(u16::from_be_bytes([frame[o], frame[o + 1]]));
    let be32 = |o: usize| {
        u64::from(u32::from_be_bytes([
            frame[o],
            frame[o + 1],
            frame[o + 2],
            frame[o + 3],
        ]))
    };
    m.insert("eth.dst", FieldValue::Bytes(frame[0..6].to_vec()));
    m.insert("eth.src", FieldValue::Bytes(frame[6..12].to_vec()));
    m.insert("eth.type", FieldValue::Int(be16(12)));
    let mut payload_off = 14;
    if be16(12) == 0x0800 && frame.len() >= 34 && frame[14] >> 4 == 4 {
        let ihl = usize::from(frame[14] & 0x0f) * 4;
        m.insert("ipv4.id", FieldValue::Int(be16(18)));
        m.insert("ipv4.ttl", FieldValue::Int(u64::from(frame[22])));
        m.insert("ipv4.proto", FieldValue::Int(u64::from(frame[23])));
        m.insert("ipv4.src", FieldValue::Bytes(frame[26..30].to_vec()));
        m.insert("ipv4.dst", FieldValue::Bytes(frame[30..34].to_vec()));
        let l4 = 14 + ihl.max(20);
        payload_off = l4.min(frame.len());
        if frame[23] == 6 && frame.len() >= l4 + 20 {
            m.insert("tcp.sport", FieldValue::Int(be16(l4)));
            m.insert("tcp.dport", FieldValue::Int(be16(l4 + 2)));
            m.insert("tcp.seq", FieldValue::Int(be32(l4 + 4)));
            m.insert("tcp.ack", FieldValue::Int(be32(l4 + 8)));
            m.insert(
                "tcp.flags",
                FieldValue::Int(u64::from(frame[l4 + 13] & 0x3f)),
            );
            m.insert("tcp.window", FieldValue::Int(be16(l4 + 14)));
            let thl = usize::from(frame[l4 + 12] >> 4) * 4;
            payload_off = (l4 + thl.max(20)).min(frame.len());
        } else if frame[23] == 17 && frame.len() >= l4 + 8 {
            m.insert("udp.sport", FieldValue::Int(be16(l4)));
            m.insert("udp.dport", FieldValue::Int(be16(l4 + 2)));
            payload_off = l4 + 8;
        }
        // The payload ends where the IPv4 total length says (Ethernet padding excluded).
        let end = (14 + be16(16) as usize).clamp(payload_off, frame.len());
        m.insert(
            "payload",
            FieldValue::Bytes(frame[payload_off..end].to_vec()),
        );
        return m;
    }
    m.insert("payload", FieldValue::Bytes(frame[payload_off..].to_vec()));
    m
}

/// A frame decoded field by field (Ethernet, IPv4, TCP/UDP, payload, and the checksums), as
/// `(name, shown value)` in a fixed order — for reports that put two frames side by side.
pub fn frame_fields(frame: &[u8]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = extract(frame)
        .iter()
        .map(|(k, v)| (k.to_string(), v.show(k)))
        .collect();
    if frame.len() >= 34 && frame[12..14] == [0x08, 0x00] && frame[14] >> 4 == 4 {
        let be16 = |o: usize| u16::from_be_bytes([frame[o], frame[o + 1]]);
        out.push(("ipv4.csum".into(), format!("0x{:04x}", be16(24))));
        let l4 = 14 + usize::from(frame[14] & 0x0f).max(5) * 4;
        match frame[23] {
            6 if frame.len() >= l4 + 18 => {
                out.push(("tcp.csum".into(), format!("0x{:04x}", be16(l4 + 16))))
            }
            17 if frame.len() >= l4 + 8 => {
                out.push(("udp.csum".into(), format!("0x{:04x}", be16(l4 + 6))))
            }
            _ => {}
        }
    }
    out
}

/// Checks IPv4/TCP/UDP checksums of an IPv4 frame; `Ok` for non-IPv4 frames.
pub fn validate_checksums(frame: &[u8]) -> Result<(), String> {
    if frame.len() < 14 || frame[12..14] != [0x08, 0x00] {
        return Ok(());
    }
    let p = SlicedPacket::from_ethernet(frame)
        .map_err(|e| format!("the sent frame is not a well-formed IPv4 packet: {e}"))?;
    let Some(NetSlice::Ipv4(ip)) = &p.net else {
        return Ok(());
    };
    let h = ip.header().to_header();
    let want = h.calc_header_checksum();
    if h.header_checksum != want {
        return Err(format!(
            "invalid IPv4 header checksum: 0x{:04x}, should be 0x{want:04x}",
            h.header_checksum
        ));
    }
    match &p.transport {
        Some(TransportSlice::Tcp(t)) => {
            let want = t
                .to_header()
                .calc_checksum_ipv4(&h, t.payload())
                .map_err(|e| e.to_string())?;
            if t.checksum() != want {
                return Err(format!(
                    "invalid TCP checksum: 0x{:04x}, should be 0x{want:04x}",
                    t.checksum()
                ));
            }
        }
        Some(TransportSlice::Udp(u)) if u.checksum() != 0 => {
            let want = u
                .to_header()
                .calc_checksum_ipv4(&h, u.payload())
                .map_err(|e| e.to_string())?;
            if u.checksum() != want {
                return Err(format!(
                    "invalid UDP checksum: 0x{:04x}, should be 0x{want:04x}",
                    u.checksum()
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

fn check_verdict(input: &[u8], expect: &Expect, verdict: &Verdict) -> Result<(), String> {
    match (expect, verdict) {
        (Expect::Drop, Verdict::Drop) => Ok(()),
        (Expect::Drop, Verdict::Send { port, frame }) => Err(format!(
            "expected: drop\n  actual: sent on port {port}: {}",
            summarize(frame)
        )),
        (Expect::Send { port, .. }, Verdict::Drop) => Err(format!(
            "expected: send on port {port}\n  actual: dropped\n  input: {}",
            summarize(input)
        )),
        (
            Expect::Send {
                port,
                fields,
                unchanged,
            },
            Verdict::Send { port: got, frame },
        ) => {
            let mut errors = Vec::new();
            if port != got {
                errors.push(format!("port: expected {port}, actual {got}"));
            }
            if *unchanged && frame.as_slice() != input {
                errors.push(format!(
                    "frame: expected unchanged\n    input:  {}\n    output: {}",
                    summarize(input),
                    summarize(frame)
                ));
            }
            let actual = extract(frame);
            for (name, want) in fields {
                match actual.get(name.as_str()) {
                    Some(v) if v == want => {}
                    Some(v) => errors.push(format!(
                        "{name}: expected {}, actual {}",
                        want.show(name),
                        v.show(name)
                    )),
                    None => errors.push(format!(
                        "{name}: expected {}, actual: the frame has no such field",
                        want.show(name)
                    )),
                }
            }
            if let Err(e) = validate_checksums(frame) {
                errors.push(e);
            }
            if errors.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "sent packet differs from the expectation:\n  {}\n  output: {}",
                    errors.join("\n  "),
                    summarize(frame)
                ))
            }
        }
    }
}

/// A one-line description of a frame, for messages.
pub fn summarize(frame: &[u8]) -> String {
    let f = extract(frame);
    let get = |k: &str| f.get(k).map(|v| v.show(k)).unwrap_or_default();
    let mut s = String::new();
    if f.contains_key("ipv4.src") {
        let _ = write!(
            s,
            "{} -> {} proto {}",
            get("ipv4.src"),
            get("ipv4.dst"),
            get("ipv4.proto")
        );
        if f.contains_key("tcp.sport") {
            let _ = write!(
                s,
                " tcp {} -> {} flags {} seq {} ack {}",
                get("tcp.sport"),
                get("tcp.dport"),
                get("tcp.flags"),
                get("tcp.seq"),
                get("tcp.ack")
            );
        } else if f.contains_key("udp.sport") {
            let _ = write!(s, " udp {} -> {}", get("udp.sport"), get("udp.dport"));
        }
    } else if f.contains_key("eth.type") {
        let _ = write!(s, "ethernet type {}", get("eth.type"));
    } else {
        let _ = write!(s, "runt frame");
    }
    let _ = write!(s, ", {} bytes", frame.len());
    s
}

// ---- Small parsers ---------------------------------------------------------------------------

fn parse_time(v: &toml::Value) -> Result<(u64, bool), String> {
    match v {
        toml::Value::Integer(i) => u64::try_from(*i)
            .map(|t| (t, false))
            .map_err(|_| format!("{i} is negative")),
        toml::Value::String(s) => {
            let (rel, body) = match s.trim().strip_prefix('+') {
                Some(r) => (true, r.trim()),
                None => (false, s.trim()),
            };
            let split = body
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(body.len());
            let (num, unit) = body.split_at(split);
            let scale: f64 = match unit.trim() {
                "ns" | "" => 1.0,
                "us" => 1e3,
                "ms" => 1e6,
                "s" => 1e9,
                "min" => 60e9,
                "h" => 3600e9,
                u => {
                    return Err(format!(
                        "unknown unit `{u}` in \"{s}\" (use ns, us, ms, s, min or h)"
                    ))
                }
            };
            let n: f64 = num
                .parse()
                .map_err(|_| format!("\"{s}\" is not a time like \"1.5s\" or \"+300ms\""))?;
            let t = (n * scale).round();
            if !(0.0..1.8e19).contains(&t) {
                return Err(format!("\"{s}\" is out of range"));
            }
            Ok((t as u64, rel))
        }
        other => Err(format!(
            "expected nanoseconds or a string like \"1.5s\", found {}",
            other.type_str()
        )),
    }
}

fn parse_mac(s: &str, field: &str) -> Result<[u8; 6], FieldError> {
    let parts: Vec<&str> = s.split(':').collect();
    let mut out = [0u8; 6];
    if parts.len() != 6 {
        return ferr(
            field,
            format!("\"{s}\" is not a MAC address like 02:00:00:00:00:01"),
        );
    }
    for (o, p) in out.iter_mut().zip(parts) {
        *o = u8::from_str_radix(p, 16).or_else(|_| {
            ferr(
                field,
                format!("\"{s}\" is not a MAC address like 02:00:00:00:00:01"),
            )
        })?;
    }
    Ok(out)
}

fn parse_ip(s: &str, field: &str) -> Result<[u8; 4], FieldError> {
    match s.parse::<std::net::Ipv4Addr>() {
        Ok(a) => Ok(a.octets()),
        Err(_) => ferr(
            field,
            format!("\"{s}\" is not an IPv4 address like 10.0.0.1"),
        ),
    }
}

fn parse_flags(s: &str, field: &str) -> Result<u8, FieldError> {
    let mut f = 0u8;
    for c in s.chars() {
        f |= match c.to_ascii_uppercase() {
            'F' => 0x01,
            'S' => 0x02,
            'R' => 0x04,
            'P' => 0x08,
            'A' => 0x10,
            'U' => 0x20,
            '.' | ' ' => 0,
            _ => {
                return ferr(
                    field,
                    format!("unknown TCP flag `{c}` in \"{s}\" (use F S R P A U)"),
                )
            }
        };
    }
    Ok(f)
}

fn flags_text(f: u8) -> String {
    let mut s = String::new();
    for (bit, c) in [
        (0x02, 'S'),
        (0x10, 'A'),
        (0x01, 'F'),
        (0x04, 'R'),
        (0x08, 'P'),
        (0x20, 'U'),
    ] {
        if f & bit != 0 {
            s.push(c);
        }
    }
    s
}

fn unhex(s: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = s
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b':')
        .collect();
    if digits.len() & 1 == 1 {
        return Err(format!("odd number of hex digits in \"{s}\""));
    }
    digits
        .chunks(2)
        .map(|c| {
            std::str::from_utf8(c)
                .ok()
                .and_then(|t| u8::from_str_radix(t, 16).ok())
                .ok_or_else(|| format!("\"{s}\" is not hex"))
        })
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Flattens a TOML value into configuration items the way [`NfConfig::load`] does.
fn flatten(
    items: &mut Vec<(String, CfgValue)>,
    prefix: String,
    v: &toml::Value,
) -> Result<(), String> {
    match v {
        toml::Value::Table(t) => {
            for (k, child) in t {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(items, key, child)?;
            }
        }
        toml::Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                flatten(items, format!("{prefix}[{i}]"), child)?;
            }
        }
        toml::Value::Integer(i) => items.push((prefix, CfgValue::Int(*i))),
        toml::Value::Float(f) => items.push((prefix, CfgValue::Float(*f))),
        toml::Value::Boolean(b) => items.push((prefix, CfgValue::Bool(*b))),
        toml::Value::String(s) => {
            if s.contains('\0') {
                return Err(format!(
                    "config key `{prefix}`: strings may not contain NUL"
                ));
            }
            items.push((prefix, CfgValue::String(s.clone())))
        }
        toml::Value::Datetime(d) => items.push((prefix, CfgValue::String(d.to_string()))),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
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
        let v = Verdict::Send {
            port: 1,
            frame: frame.clone(),
        };
        let e = check_verdict(&frame, &expect, &v).unwrap_err();
        assert!(
            e.contains("ipv4.src: expected 10.0.0.9, actual 10.0.0.1"),
            "{e}"
        );
        let mut bad = frame.clone();
        bad[26] = 11; // source address changed without fixing the checksums
        let e = check_verdict(
            &frame,
            &expect,
            &Verdict::Send {
                port: 1,
                frame: bad,
            },
        )
        .unwrap_err();
        assert!(e.contains("checksum"), "{e}");
        let e = check_verdict(&frame, &expect, &Verdict::Drop).unwrap_err();
        assert!(e.contains("actual: dropped"), "{e}");
    }
}
