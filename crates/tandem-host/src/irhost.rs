//! Running a lifted NF (NF IR) on the interpreter, with the native NF's state, and comparing
//! state dumps. This is how the front end is validated: the same trace through the native
//! reference host and through the IR must give the same packets and the same final state.
//!
//! State crosses from the native NF as its JSON dump ([`crate::NativeNf::dump_state`]): map
//! keys and values are the hex of the C++ structs' bytes, which the IR layouts' C++ offsets
//! decode field by field. A vector's current length (which the lifter models as the scalar
//! `<vector>_size`) is the number of entries the native dump lists.

use std::collections::BTreeMap;

use tandem_ir::interp::{
    Action, DumpFormat, InterpOptions, Interpreter, OpaqueHandler, Packet, StateDump, StateStore,
};
use tandem_ir::{Layout, MapMatch, Module, StateKind};
use tandem_traffic::TracePacket;

use crate::host::Verdict;

/// Errors of the IR host.
#[derive(Debug, thiserror::Error)]
pub enum IrHostError {
    #[error("the lifted module does not verify: {0}")]
    Verify(String),
    #[error("state `{name}`: {message}")]
    State { name: String, message: String },
    #[error("packet {index}: {message}")]
    Run { index: u64, message: String },
}

fn state_err(name: &str, message: impl ToString) -> IrHostError {
    IrHostError::State {
        name: name.to_string(),
        message: message.to_string(),
    }
}

/// Bytes from hex digits (the state dump's encoding); `None` when `s` is not hex.
pub(crate) fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

/// The key and value bytes of a native dump entry.
fn entry_bytes(name: &str, e: &serde_json::Value) -> Result<(Vec<u8>, Vec<u8>), IrHostError> {
    let hex = |f: &str, what: &str| {
        e[f].as_str()
            .and_then(unhex)
            .ok_or_else(|| state_err(name, what))
    };
    Ok((hex("key", "bad key hex")?, hex("value", "bad value hex")?))
}

/// Decodes the C++ bytes of a struct into the fields of `layout` (little-endian at offsets).
fn decode(layout: &Layout, bytes: &[u8]) -> Vec<u64> {
    layout
        .fields
        .iter()
        .map(|f| {
            let off = f.offset.unwrap_or(0) as usize;
            let n = f.ty.bytes() as usize;
            let v = (0..n).fold(0u64, |acc, i| {
                acc | (u64::from(bytes.get(off + i).copied().unwrap_or(0)) << (8 * i))
            });
            f.ty.wrap(v)
        })
        .collect()
}

/// Loads a native state dump into an IR state store (replacing what the store held for the
/// states the dump names).
pub fn load_native_state(
    module: &Module,
    store: &mut StateStore,
    native: &serde_json::Value,
) -> Result<(), IrHostError> {
    let Some(items) = native.as_array() else {
        return Err(state_err("*", "the native dump is not a JSON array"));
    };
    let by_name: BTreeMap<&str, &serde_json::Value> = items
        .iter()
        .filter_map(|o| Some((o.get("name")?.as_str()?, o)))
        .collect();
    for (_, obj) in module.states.iter() {
        let name = obj.name.as_str();
        match &obj.kind {
            StateKind::Scalar { ty } => {
                if let Some(vec_name) = name.strip_suffix("_size") {
                    if let Some(v) = by_name.get(vec_name) {
                        if v.get("kind").and_then(|k| k.as_str()) == Some("vector") {
                            let n = v["entries"].as_array().map_or(0, Vec::len) as u64;
                            store
                                .scalar_set(module, name, n)
                                .map_err(|e| state_err(name, e))?;
                            continue;
                        }
                    }
                }
                let Some(v) = by_name.get(name) else { continue };
                let hex = v.get("value").and_then(|x| x.as_str()).unwrap_or("");
                let bytes = unhex(hex).ok_or_else(|| state_err(name, "bad hex"))?;
                let x = bytes
                    .iter()
                    .rev()
                    .fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
                store
                    .scalar_set(module, name, ty.wrap(x))
                    .map_err(|e| state_err(name, e))?;
            }
            StateKind::HashMap { key, value, .. }
            | StateKind::ExpiringMap { key, value, .. }
            | StateKind::LpmMap { key, value, .. }
            | StateKind::TernaryMap { key, value, .. }
            | StateKind::RangeMap { key, value, .. } => {
                let matching = obj.kind.map_match();
                let Some(v) = by_name.get(name) else { continue };
                let existing = store
                    .dump(module, DumpFormat::Cpp)
                    .map_err(|e| state_err(name, e))?;
                if existing
                    .iter()
                    .any(|d| d.name == name && !d.entries.is_empty())
                {
                    return Err(state_err(
                        name,
                        "load into a store that already has entries",
                    ));
                }
                let clock = store.clock_ns;
                for e in v["entries"].as_array().into_iter().flatten() {
                    let (k, val) = entry_bytes(name, e)?;
                    // Expiring-map entries keep their last-use time.
                    store.clock_ns = e
                        .get("last_used_ns")
                        .and_then(|t| t.as_u64())
                        .unwrap_or(clock);
                    let key_vals = match (matching, k.split_last()) {
                        // An LPM entry's key is the prefix's bytes, then one byte of length.
                        (Some(MapMatch::Lpm), Some((len, prefix))) => {
                            let mut kv = decode(key, prefix);
                            kv.push(u64::from(*len));
                            kv
                        }
                        // A ternary (range) entry's: the key (lo), the mask (hi), then the
                        // priority as 4 little-endian bytes.
                        (Some(m), _) if m.has_priority() => {
                            let n = key.size.unwrap_or(0) as usize;
                            if k.len() != 2 * n + 4 {
                                return Err(state_err(name, "bad ternary/range entry key"));
                            }
                            let mut kv = decode(key, &k[..n]);
                            kv.extend(decode(key, &k[n..2 * n]));
                            let p = &k[2 * n..];
                            kv.push(u64::from(u32::from_le_bytes([p[0], p[1], p[2], p[3]])));
                            kv
                        }
                        _ => decode(key, &k),
                    };
                    store
                        .map_insert(module, name, &key_vals, &decode(value, &val))
                        .map_err(|e| state_err(name, e))?;
                }
                store.clock_ns = clock;
            }
            StateKind::Meter { .. } => {
                // Key: the index (uint32_t); value: the native `MeterCell` (seven words).
                let Some(v) = by_name.get(name) else { continue };
                let layout = tandem_ir::MeterCell::layout();
                for e in v["entries"].as_array().into_iter().flatten() {
                    let (k, val) = entry_bytes(name, e)?;
                    let i = k
                        .iter()
                        .rev()
                        .fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
                    let cell = tandem_ir::MeterCell::from_words(&decode(&layout, &val));
                    store
                        .meter_set(module, name, i, cell)
                        .map_err(|e| state_err(name, e))?;
                }
            }
            StateKind::Vector { elem, .. } => {
                let Some(v) = by_name.get(name) else { continue };
                for e in v["entries"].as_array().into_iter().flatten() {
                    let i = e["index"]
                        .as_u64()
                        .ok_or_else(|| state_err(name, "bad index"))?;
                    let val = e["value"]
                        .as_str()
                        .and_then(unhex)
                        .ok_or_else(|| state_err(name, "bad value hex"))?;
                    store
                        .vec_set(module, name, i, &decode(elem, &val))
                        .map_err(|e| state_err(name, e))?;
                }
            }
        }
    }
    Ok(())
}

/// A state dump normalised for comparison: name → sorted (key hex, value hex). Vectors are
/// keyed by their index (decimal) and their all-zero elements are left out (an element past
/// a vector's size reads as zero in every build).
pub type NormalState = BTreeMap<String, Vec<(String, String)>>;

/// Normalises a native dump.
pub fn normalize_native(native: &serde_json::Value) -> NormalState {
    let mut out = NormalState::new();
    for o in native.as_array().into_iter().flatten() {
        let Some(name) = o["name"].as_str() else {
            continue;
        };
        let kind = o["kind"].as_str().unwrap_or("");
        let mut rows: Vec<(String, String)> = match kind {
            "scalar" => vec![(String::new(), o["value"].as_str().unwrap_or("").to_string())],
            "vector" => o["entries"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| {
                    (
                        e["index"].to_string(),
                        e["value"].as_str().unwrap_or("").to_string(),
                    )
                })
                .filter(|(_, v)| v.chars().any(|c| c != '0'))
                .collect(),
            _ => o["entries"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| {
                    (
                        e["key"].as_str().unwrap_or("").to_string(),
                        e["value"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect(),
        };
        rows.sort();
        out.insert(name.to_string(), rows);
    }
    out
}

/// Normalises an IR store's dump (C++ format), leaving out the `<vector>_size` scalars the
/// lifter adds and the `<map>__class` maps the partitioner adds
/// (`tandem_partition::CLASS_SUFFIX`: a map's derived state classes, not NF state).
pub fn normalize_ir(module: &Module, dump: &[StateDump]) -> NormalState {
    let mut out = NormalState::new();
    for d in dump {
        if d.name
            .strip_suffix("__class")
            .is_some_and(|m| module.state_by_name(m).is_some())
        {
            continue;
        }
        let kind = module
            .state_by_name(&d.name)
            .map(|id| &module.states[id].kind);
        let rows: Vec<(String, String)> = match kind {
            Some(StateKind::Vector { .. }) => d
                .entries
                .iter()
                .filter(|e| e.value.chars().any(|c| c != '0'))
                .map(|e| {
                    let idx = unhex(&e.key)
                        .map(|b| {
                            b.iter()
                                .rev()
                                .fold(0u64, |acc, x| (acc << 8) | u64::from(*x))
                        })
                        .unwrap_or(0);
                    (idx.to_string(), e.value.clone())
                })
                .collect(),
            Some(StateKind::Scalar { .. }) => {
                if d.name.ends_with("_size")
                    && module
                        .state_by_name(d.name.trim_end_matches("_size"))
                        .is_some()
                {
                    continue;
                }
                d.entries
                    .iter()
                    .map(|e| (String::new(), e.value.clone()))
                    .collect()
            }
            _ => d
                .entries
                .iter()
                .map(|e| (e.key.clone(), e.value.clone()))
                .collect(),
        };
        let mut rows = rows;
        rows.sort();
        out.insert(d.name.clone(), rows);
    }
    out
}

/// Differences between two normalised states; empty when equal. A state object present on
/// one side only is a difference too (a state the lifter dropped must not go uncompared).
pub fn diff_states(reference: &NormalState, candidate: &NormalState) -> Vec<String> {
    let mut out = Vec::new();
    for name in reference.keys().filter(|n| !candidate.contains_key(*n)) {
        out.push(format!(
            "state `{name}`: in the reference, missing from the candidate"
        ));
    }
    for (name, rows) in candidate {
        let Some(r) = reference.get(name) else {
            out.push(format!(
                "state `{name}`: in the candidate, missing from the reference"
            ));
            continue;
        };
        if r == rows {
            continue;
        }
        let only_ref: Vec<_> = r.iter().filter(|x| !rows.contains(x)).take(3).collect();
        let only_cand: Vec<_> = rows.iter().filter(|x| !r.contains(x)).take(3).collect();
        out.push(format!(
            "state `{name}`: reference has {} entries, candidate {}; only in reference: {:?}; only in candidate: {:?}",
            r.len(),
            rows.len(),
            only_ref,
            only_cand
        ));
    }
    out
}

/// Runs a lifted NF on the interpreter (its lifted `on_timer` too, on the reference host's
/// tick rule, when [`IrHost::fire_timers`] is called).
pub struct IrHost<'m> {
    module: &'m Module,
    interp: Interpreter<'m>,
    store: StateStore,
    handler: Box<dyn OpaqueHandler + 'm>,
    packets: u64,
    clock: crate::host::TickClock,
}

impl<'m> IrHost<'m> {
    /// An interpreter for `module` whose state starts as the native NF's `initial` dump (taken
    /// after configure()).
    pub fn new(
        module: &'m Module,
        initial: &serde_json::Value,
        handler: Box<dyn OpaqueHandler + 'm>,
    ) -> Result<Self, IrHostError> {
        let interp = Interpreter::new(module, InterpOptions { fuel: 1_000_000 })
            .map_err(|e| IrHostError::Verify(e.to_string()))?;
        let mut store = StateStore::new(module);
        load_native_state(module, &mut store, initial)?;
        Ok(IrHost {
            module,
            interp,
            store,
            handler,
            packets: 0,
            clock: crate::host::TickClock::new(module.timer_interval_ns()),
        })
    }

    /// Runs the lifted `on_timer` at the ticks due at packet time `now` (as the reference
    /// host fires the native one; call it before [`IrHost::process`]); returns how many ran.
    pub fn fire_timers(&mut self, now: u64) -> Result<u64, IrHostError> {
        let mut n = 0;
        for t in self.clock.due(now) {
            self.interp
                .run_timer(&mut self.store, t)
                .map_err(|e| IrHostError::Run {
                    index: self.packets,
                    message: format!("on_timer at {t} ns: {e}"),
                })?;
            n += 1;
        }
        Ok(n)
    }

    /// Replaces the IR state by a native dump (after native-only code such as on_timer ran).
    pub fn resync(&mut self, native: &serde_json::Value) -> Result<(), IrHostError> {
        let clock = self.store.clock_ns;
        let mut store = StateStore::new(self.module);
        store.clock_ns = clock;
        load_native_state(self.module, &mut store, native)?;
        self.store = store;
        Ok(())
    }

    pub fn process(&mut self, pkt: &TracePacket) -> Result<Verdict, IrHostError> {
        let index = self.packets;
        self.packets += 1;
        let packet = Packet {
            bytes: pkt.data.clone(),
            in_port: pkt.port as u16,
            timestamp_ns: pkt.ts_ns,
        };
        let out = self
            .interp
            .run_with(&mut self.store, &packet, self.handler.as_mut())
            .map_err(|e| IrHostError::Run {
                index,
                message: e.to_string(),
            })?;
        Ok(match out.action {
            Action::Send(p) => Verdict::Send {
                port: u32::from(p),
                frame: out.packet,
            },
            Action::Drop => Verdict::Drop,
        })
    }

    /// The state, normalised (see [`NormalState`]).
    pub fn state(&self) -> Result<NormalState, IrHostError> {
        let d = self
            .store
            .dump(self.module, DumpFormat::Cpp)
            .map_err(|e| state_err("*", e))?;
        Ok(normalize_ir(self.module, &d))
    }
}

#[cfg(test)]
mod tests {
    use super::{diff_states, NormalState};

    #[test]
    fn a_state_on_one_side_only_is_a_difference() {
        let mut a = NormalState::new();
        a.insert("conns".into(), vec![("k".into(), "v".into())]);
        a.insert("dropped".into(), vec![]);
        let mut b = NormalState::new();
        b.insert("conns".into(), vec![("k".into(), "v".into())]);
        assert_eq!(
            diff_states(&a, &b),
            vec!["state `dropped`: in the reference, missing from the candidate".to_string()]
        );
        assert_eq!(diff_states(&a, &a), Vec::<String>::new());
        b.insert("extra".into(), vec![]);
        assert_eq!(diff_states(&a, &b).len(), 2);
    }
}
