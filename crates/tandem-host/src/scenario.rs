//! Running packet scenarios (the files, their packets and expectations:
//! [`tandem_traffic::scenario`]) on anything that processes packets ([`PacketProcessor`]):
//! the reference host and a bare native NF implement it; an offloaded (switch + server) runner
//! can execute the same files. State assertions read the NF's state dump; the NF's
//! configuration is its default file with the scenario's `[config]` keys applied.

use std::collections::BTreeMap;
use std::path::Path;

use tandem_traffic::scenario::{Scenario, ScenarioError};
use tandem_traffic::TracePacket;

use crate::build::{compile_native, BuildOptions};
use crate::config::{NfConfig, Value as CfgValue};
use crate::host::{Host, HostError, Verdict};
use crate::irhost::unhex;
use crate::native::{NativeNf, NfError};

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

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScenarioReport {
    pub steps: usize,
    pub packets: usize,
    pub sent: usize,
    pub dropped: usize,
    pub state_checks: usize,
}

/// The NF configuration for a scenario: the NF's `<stem>.toml` (if it exists) with
/// the scenario's `[config]` keys replacing its top-level keys.
pub fn nf_config(sc: &Scenario) -> Result<NfConfig, ScenarioError> {
    let default = sc.nf_source.with_extension("toml");
    let setup = |message: String| ScenarioError::Setup {
        path: sc.path.clone(),
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
    let file = match &sc.config_override {
        Some(o) => {
            for (k, v) in o {
                table.insert(k.clone(), v.clone());
            }
            sc.path.clone()
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

/// Runs every step of `sc` on `p`; stops at the first step that does not behave as expected.
pub fn run<P: PacketProcessor>(sc: &Scenario, p: &mut P) -> Result<ScenarioReport, ScenarioError> {
    let mut report = ScenarioReport::default();
    for step in &sc.steps {
        report.steps += 1;
        if let Some((port, frame, expect)) = &step.packet {
            report.packets += 1;
            let verdict = p
                .process(frame, *port, step.at_ns)
                .map_err(|e| ScenarioError::Run {
                    path: sc.path.clone(),
                    step: step.label.clone(),
                    message: e.to_string(),
                })?;
            if matches!(verdict, Verdict::Drop) {
                report.dropped += 1;
            } else {
                report.sent += 1;
            }
            let output = match &verdict {
                Verdict::Send { port, frame } => Some((*port, frame.as_slice())),
                Verdict::Drop => None,
            };
            expect
                .check(frame, output)
                .map_err(|message| ScenarioError::Mismatch {
                    path: sc.path.clone(),
                    step: step.label.clone(),
                    message,
                })?;
        }
        if !step.state.is_empty() {
            report.state_checks += 1;
            check_state(sc, p, &step.state, step.at_ns, &step.label)?;
        }
    }
    if !sc.final_state.is_empty() {
        report.state_checks += 1;
        let t = sc.steps.last().map_or(0, |s| s.at_ns);
        check_state(sc, p, &sc.final_state, t, "final_state")?;
    }
    Ok(report)
}

fn check_state<P: PacketProcessor>(
    sc: &Scenario,
    p: &mut P,
    want: &BTreeMap<String, i64>,
    now: u64,
    label: &str,
) -> Result<(), ScenarioError> {
    let state = p.state(now).map_err(|e| ScenarioError::Run {
        path: sc.path.clone(),
        step: label.to_owned(),
        message: format!("cannot read the state: {e}"),
    })?;
    let mismatch = |message: String| ScenarioError::Mismatch {
        path: sc.path.clone(),
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
            let bytes =
                unhex(h).ok_or_else(|| mismatch(format!("state `{name}`: \"{h}\" is not hex")))?;
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

/// Loads the scenario at `path`, compiles its NF (native build, cached) and runs it on the
/// reference host.
pub fn run_native(path: &Path, opts: &BuildOptions) -> Result<ScenarioReport, ScenarioError> {
    let sc = Scenario::load(path)?;
    let cfg = nf_config(&sc)?;
    let setup = |message: String| ScenarioError::Setup {
        path: path.to_owned(),
        message,
    };
    let so = compile_native(&sc.nf_source, opts).map_err(|e| setup(e.to_string()))?;
    let nf = NativeNf::load(&so, &cfg).map_err(|e| setup(e.to_string()))?;
    let mut host = Host::new(nf);
    run(&sc, &mut host)
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
