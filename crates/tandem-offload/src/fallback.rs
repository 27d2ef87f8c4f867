//! Whole-NF runs on the server, for packets the switch cannot handle correctly.
//!
//! When a switch table is full, some keys live only in the server's primary copy. The switch
//! would miss on them and take the wrong branch, so the runtime first *probes* each packet
//! (while any key is server-only): a read-only walk of the NF on the primary copy that lists
//! the map keys the packet looks up. A packet that touches a server-only key is run whole on
//! the server (the original NF's IR on the primary copy, the switch-owned registers read
//! before and written after) and its table changes are published like any server packet's.
//! Other packets go to the switch as usual.

use std::collections::{BTreeMap, BTreeSet};

use tandem_ir::interp::{Action, Machine, OpaqueHandler, Packet, StateStore, Step};
use tandem_ir::{InstKind, Module};

use crate::OffloadError;

/// What a walk saw and did.
#[derive(Debug, Default)]
pub struct Walk {
    /// Every map key looked up, inserted or erased: (state index, key).
    pub keys: Vec<(u32, Vec<u64>)>,
    /// Map keys inserted or erased, per state (real runs).
    pub touched: BTreeMap<u32, BTreeSet<Vec<u64>>>,
    /// Scalars, vectors and meters written (real runs).
    pub written: BTreeSet<u32>,
    /// The packet's fate and bytes (real runs).
    pub action: Option<Action>,
    /// The bytes after header writes.
    pub bytes: Vec<u8>,
    /// The statements executed (block, index in block), in order.
    pub path: Vec<tandem_ir::Inst>,
}

/// Most instructions one walk executes.
const FUEL: u64 = 1_000_000;

/// Walks `process` for `packet`. `real`: execute every instruction on `store` (the packet's
/// true run); otherwise a read-only probe: map lookups read live entries without refreshing
/// them, inserts are assumed to succeed, and no state is written.
pub fn walk(
    module: &Module,
    store: &mut StateStore,
    packet: &Packet,
    real: bool,
    opaque: &mut dyn OpaqueHandler,
) -> Result<Walk, OffloadError> {
    let f = &module.process;
    let err = |e: tandem_ir::interp::InterpError| OffloadError::Server(e.to_string());
    let mut m = Machine::new(module, store, packet);
    let mut w = Walk::default();
    let mut scratch = StateStore::new(module);
    let Some(mut block) = f.entry() else {
        return Err(OffloadError::Server("process has no blocks".into()));
    };
    let mut steps = 0u64;
    loop {
        let mut next = None;
        for &inst in &f.blocks[block].insts {
            steps += 1;
            if steps > FUEL {
                return Err(OffloadError::Server("out of fuel".into()));
            }
            w.path.push(inst);
            let data = &f.insts[inst];
            let operand = |m: &Machine, vs: &[tandem_ir::Value]| -> Vec<u64> {
                vs.iter().map(|&v| m.value(v).unwrap_or(0)).collect()
            };
            match &data.kind {
                InstKind::Return => {
                    w.action = Some(m.action());
                    w.bytes = m.bytes().to_vec();
                    return Ok(w);
                }
                InstKind::MapFind { state, key } => {
                    let k = operand(&m, key);
                    w.keys.push((state.as_u32(), k.clone()));
                    if real {
                        m.exec(inst, store, packet, opaque).map_err(err)?;
                    } else {
                        let name = &module.states[*state].name;
                        let hit = store
                            .map_get_live(module, name, &k)
                            .map_err(|e| OffloadError::State(e.to_string()))?;
                        let mut vals = vec![u64::from(hit.is_some())];
                        vals.extend(hit.unwrap_or_else(|| vec![0; data.results.len() - 1]));
                        for (&r, v) in data.results.iter().zip(vals) {
                            m.set_value(r, v).map_err(err)?;
                        }
                    }
                }
                InstKind::MapInsert { state, key, .. } | InstKind::MapErase { state, key } => {
                    let k = operand(&m, key);
                    w.keys.push((state.as_u32(), k.clone()));
                    if real {
                        m.exec(inst, store, packet, opaque).map_err(err)?;
                        w.touched.entry(state.as_u32()).or_default().insert(k);
                    } else if let Some(&r) = data.results.first() {
                        m.set_value(r, 1).map_err(err)?;
                    }
                }
                InstKind::ScalarStore { state, .. } | InstKind::VecSet { state, .. } => {
                    if real {
                        m.exec(inst, store, packet, opaque).map_err(err)?;
                        w.written.insert(state.as_u32());
                    }
                }
                InstKind::MeterExecute { state, index } => {
                    if real {
                        m.exec(inst, store, packet, opaque).map_err(err)?;
                        w.written.insert(state.as_u32());
                    } else {
                        // Read-only: the colour of a copy of the primary copy's meter (a
                        // switch-owned meter's copy here is as of its last read-back).
                        let i = m.value(*index).unwrap_or(0);
                        if let Some(Some(c)) = store.meter_at(*state, i) {
                            scratch.meter_set_at(*state, i, c);
                        }
                        m.exec(inst, &mut scratch, packet, opaque).map_err(err)?;
                    }
                }
                InstKind::Opaque { .. } => {
                    if real {
                        m.exec(inst, store, packet, opaque).map_err(err)?;
                    } else {
                        m.exec(inst, &mut scratch, packet, opaque).map_err(err)?;
                    }
                }
                _ => match m.exec(inst, store, packet, opaque).map_err(err)? {
                    Step::Next => {}
                    Step::Return => {
                        w.action = Some(m.action());
                        w.bytes = m.bytes().to_vec();
                        return Ok(w);
                    }
                    s @ Step::Goto(..) => next = Some(s),
                },
            }
        }
        let Some(Step::Goto(b, args)) = next else {
            return Err(OffloadError::Server(format!(
                "{block} ends without a branch"
            )));
        };
        for (&p, a) in f.blocks[b].params.iter().zip(args) {
            m.set_value(p, a).map_err(err)?;
        }
        block = b;
    }
}
