//! The server's primary copy of the NF state and the `tandem_state_ops` the generated
//! `server.cc` calls (ABI of `include/tandem/server.h`).
//!
//! The primary copy is an IR [`StateStore`]; map operations run the module's own `map.*`
//! instruction on the interpreter, so capacity, expiry and refresh follow the NF IR's
//! semantics exactly (the same semantics the native build has, as the lifter's differential
//! test checks). Every map key a server packet inserts or erases is remembered, so the runtime
//! can send the switch exactly what changed ([`Primary::take_touched`]).
//!
//! The callbacks never unwind into C++: an error is recorded ([`Primary::take_error`]) and
//! the callback returns a neutral value; the runtime then fails the packet.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::Arc;

use tandem_ir::interp::{Machine, NoOpaque, OpaqueHandler, Packet, StateStore};
use tandem_ir::{Inst, InstKind, Module, StateId, StateKind, Type, Value};

/// `tandem_state_ops` (include/tandem/server.h).
#[repr(C)]
pub(crate) struct Ops {
    pub ctx: *mut c_void,
    pub map_find: extern "C" fn(*mut c_void, u32, *const u64, *mut u64) -> c_int,
    pub map_insert: extern "C" fn(*mut c_void, u32, *const u64, *const u64) -> c_int,
    pub map_erase: extern "C" fn(*mut c_void, u32, *const u64),
    pub vec_get: extern "C" fn(*mut c_void, u32, u64, *mut u64),
    pub vec_set: extern "C" fn(*mut c_void, u32, u64, *const u64),
    pub scalar_load: extern "C" fn(*mut c_void, u32) -> u64,
    pub scalar_store: extern "C" fn(*mut c_void, u32, u64),
    #[allow(clippy::type_complexity)]
    pub opaque:
        extern "C" fn(*mut c_void, *const c_char, *const u64, u32, *mut u64, u32, *mut u8, u32),
}

/// The primary copy of every state object, as the server partition sees it.
pub struct Primary {
    module: Arc<Module>,
    /// The state.
    pub store: StateStore,
    now: u64,
    find: HashMap<u32, Inst>,
    insert: HashMap<u32, Inst>,
    erase: HashMap<u32, Inst>,
    /// Result types of each opaque operation, by name.
    opaque_types: HashMap<String, Vec<Type>>,
    /// Map keys inserted or erased since the last [`Primary::take_touched`], per state index.
    touched: BTreeMap<u32, BTreeSet<Vec<u64>>>,
    /// Scalars and vectors written since the last take, per state index.
    touched_other: BTreeSet<u32>,
    error: Option<String>,
}

impl Primary {
    /// A primary copy holding `store`.
    pub fn new(module: Arc<Module>, store: StateStore) -> Primary {
        let mut find = HashMap::new();
        let mut insert = HashMap::new();
        let mut erase = HashMap::new();
        let mut opaque_types = HashMap::new();
        for (i, d) in module.process.insts.iter() {
            match &d.kind {
                InstKind::MapFind { state, .. } => {
                    find.entry(state.as_u32()).or_insert(i);
                }
                InstKind::MapInsert { state, .. } => {
                    insert.entry(state.as_u32()).or_insert(i);
                }
                InstKind::MapErase { state, .. } => {
                    erase.entry(state.as_u32()).or_insert(i);
                }
                InstKind::Opaque { name, .. } => {
                    let types = d
                        .results
                        .iter()
                        .filter_map(|&r| module.process.value_type(r))
                        .collect();
                    opaque_types.entry(name.clone()).or_insert(types);
                }
                _ => {}
            }
        }
        Primary {
            module,
            store,
            now: 0,
            find,
            insert,
            erase,
            opaque_types,
            touched: BTreeMap::new(),
            touched_other: BTreeSet::new(),
            error: None,
        }
    }

    /// The module.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// Sets the time the next operations happen at (the packet's arrival time).
    pub fn set_now(&mut self, now: u64) {
        self.now = now;
        self.store.clock_ns = self.store.clock_ns.max(now);
    }

    /// Map keys inserted or erased (per state index) and other states written since the
    /// last call.
    pub fn take_touched(&mut self) -> (BTreeMap<u32, BTreeSet<Vec<u64>>>, BTreeSet<u32>) {
        (
            std::mem::take(&mut self.touched),
            std::mem::take(&mut self.touched_other),
        )
    }

    /// The first error a callback met since the last call.
    pub fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    /// The key's value if it is live in the map (present and, for an expiring map, not idle
    /// past its timeout at the current time). Does not refresh.
    pub fn map_value(&self, state: u32, key: &[u64]) -> Option<Vec<u64>> {
        let obj = &self.module.states[StateId::from_u32(state)];
        self.store
            .map_get_live(&self.module, &obj.name, key)
            .ok()
            .flatten()
    }

    fn fail(&mut self, msg: String) {
        if self.error.is_none() {
            self.error = Some(msg);
        }
    }

    /// Runs one of the module's instructions with the given operand values; its results.
    fn run(&mut self, inst: Inst, inputs: &[(Value, u64)]) -> Option<Vec<u64>> {
        let pkt = Packet {
            bytes: Vec::new(),
            in_port: 0,
            timestamp_ns: self.now,
        };
        let module = self.module.clone();
        let mut m = Machine::new(&module, &mut self.store, &pkt);
        for &(v, x) in inputs {
            if let Err(e) = m.set_value(v, x) {
                self.fail(e.to_string());
                return None;
            }
        }
        if let Err(e) = m.exec(inst, &mut self.store, &pkt, &mut NoOpaque) {
            self.fail(e.to_string());
            return None;
        }
        let results = &module.process.insts[inst].results;
        Some(results.iter().map(|&r| m.value(r).unwrap_or(0)).collect())
    }

    fn state_name(&self, s: u32) -> Option<String> {
        self.valid_state(s)
            .then(|| self.module.states[StateId::from_u32(s)].name.clone())
    }

    /// `map.find` on the primary copy (refreshes an expiring entry).
    pub fn find(&mut self, s: u32, key: &[u64]) -> Option<Vec<u64>> {
        let Some(&inst) = self.find.get(&s) else {
            // The NF never looks this map up in process(): a host-side read.
            return self.map_value(s, key);
        };
        let InstKind::MapFind { key: args, .. } = self.module.process.insts[inst].kind.clone()
        else {
            return None;
        };
        let inputs: Vec<_> = args.iter().copied().zip(key.iter().copied()).collect();
        let r = self.run(inst, &inputs)?;
        (r.first() == Some(&1)).then(|| r[1..].to_vec())
    }

    /// `map.insert` on the primary copy; false when the map is full.
    pub fn insert(&mut self, s: u32, key: &[u64], value: &[u64]) -> bool {
        let Some(&inst) = self.insert.get(&s) else {
            self.fail(format!("state {s}: the NF never inserts into it"));
            return false;
        };
        let InstKind::MapInsert {
            key: k, value: v, ..
        } = self.module.process.insts[inst].kind.clone()
        else {
            return false;
        };
        let mut inputs: Vec<_> = k.iter().copied().zip(key.iter().copied()).collect();
        inputs.extend(v.iter().copied().zip(value.iter().copied()));
        let ok = self
            .run(inst, &inputs)
            .is_some_and(|r| r.first() == Some(&1));
        self.touched.entry(s).or_default().insert(key.to_vec());
        ok
    }

    /// `map.erase` on the primary copy.
    pub fn erase(&mut self, s: u32, key: &[u64]) {
        let Some(&inst) = self.erase.get(&s) else {
            self.fail(format!("state {s}: the NF never erases from it"));
            return;
        };
        let InstKind::MapErase { key: k, .. } = self.module.process.insts[inst].kind.clone() else {
            return;
        };
        let inputs: Vec<_> = k.iter().copied().zip(key.iter().copied()).collect();
        self.run(inst, &inputs);
        self.touched.entry(s).or_default().insert(key.to_vec());
    }

    fn key_len(&self, s: u32) -> usize {
        match &self.module.states[StateId::from_u32(s)].kind {
            StateKind::HashMap { key, .. } | StateKind::ExpiringMap { key, .. } => key.fields.len(),
            _ => 0,
        }
    }

    fn value_len(&self, s: u32) -> usize {
        match &self.module.states[StateId::from_u32(s)].kind {
            StateKind::HashMap { value, .. } | StateKind::ExpiringMap { value, .. } => {
                value.fields.len()
            }
            StateKind::Vector { elem, .. } => elem.fields.len(),
            _ => 0,
        }
    }

    fn valid_state(&self, s: u32) -> bool {
        (s as usize) < self.module.states.len()
    }

    /// The callbacks, with `self` as their context. The pointer is valid while `self` is
    /// neither moved nor dropped.
    pub(crate) fn ops(&mut self) -> Ops {
        Ops {
            ctx: self as *mut Primary as *mut c_void,
            map_find: cb_map_find,
            map_insert: cb_map_insert,
            map_erase: cb_map_erase,
            vec_get: cb_vec_get,
            vec_set: cb_vec_set,
            scalar_load: cb_scalar_load,
            scalar_store: cb_scalar_store,
            opaque: cb_opaque,
        }
    }
}

fn primary<'a>(ctx: *mut c_void) -> &'a mut Primary {
    // SAFETY: `ctx` is the `Primary` that built these ops (`Primary::ops`), alive and not
    // otherwise borrowed for the duration of the server call that invokes the callback.
    unsafe { &mut *(ctx as *mut Primary) }
}

fn slice<'a>(p: *const u64, n: usize) -> &'a [u64] {
    if n == 0 || p.is_null() {
        return &[];
    }
    // SAFETY: the generated code passes arrays of the layout's length (server.h contract).
    unsafe { std::slice::from_raw_parts(p, n) }
}

fn write_out(p: *mut u64, vals: &[u64]) {
    if p.is_null() {
        return;
    }
    for (i, v) in vals.iter().enumerate() {
        // SAFETY: the caller's array has one slot per layout field (server.h contract).
        unsafe { *p.add(i) = *v };
    }
}

extern "C" fn cb_map_find(ctx: *mut c_void, s: u32, key: *const u64, value: *mut u64) -> c_int {
    let p = primary(ctx);
    if !p.valid_state(s) {
        p.fail(format!("map_find: no state {s}"));
        return 0;
    }
    let key = slice(key, p.key_len(s)).to_vec();
    match p.find(s, &key) {
        Some(v) => {
            write_out(value, &v);
            1
        }
        None => 0,
    }
}

extern "C" fn cb_map_insert(ctx: *mut c_void, s: u32, key: *const u64, value: *const u64) -> c_int {
    let p = primary(ctx);
    if !p.valid_state(s) {
        p.fail(format!("map_insert: no state {s}"));
        return 0;
    }
    let key = slice(key, p.key_len(s)).to_vec();
    let value = slice(value, p.value_len(s)).to_vec();
    c_int::from(p.insert(s, &key, &value))
}

extern "C" fn cb_map_erase(ctx: *mut c_void, s: u32, key: *const u64) {
    let p = primary(ctx);
    if !p.valid_state(s) {
        p.fail(format!("map_erase: no state {s}"));
        return;
    }
    let key = slice(key, p.key_len(s)).to_vec();
    p.erase(s, &key);
}

extern "C" fn cb_vec_get(ctx: *mut c_void, s: u32, index: u64, elem: *mut u64) {
    let p = primary(ctx);
    let Some(name) = p.state_name(s) else {
        p.fail(format!("vec_get: no state {s}"));
        return;
    };
    match p.store.vec_get(&p.module, &name, index) {
        Ok(e) => write_out(elem, &e),
        Err(e) => p.fail(e.to_string()),
    }
}

extern "C" fn cb_vec_set(ctx: *mut c_void, s: u32, index: u64, elem: *const u64) {
    let p = primary(ctx);
    let Some(name) = p.state_name(s) else {
        p.fail(format!("vec_set: no state {s}"));
        return;
    };
    let e = slice(elem, p.value_len(s)).to_vec();
    let module = p.module.clone();
    if let Err(e) = p.store.vec_set(&module, &name, index, &e) {
        p.fail(e.to_string());
    }
    p.touched_other.insert(s);
}

extern "C" fn cb_scalar_load(ctx: *mut c_void, s: u32) -> u64 {
    let p = primary(ctx);
    let Some(name) = p.state_name(s) else {
        p.fail(format!("scalar_load: no state {s}"));
        return 0;
    };
    p.store.scalar_get(&p.module, &name).unwrap_or_else(|e| {
        p.fail(e.to_string());
        0
    })
}

extern "C" fn cb_scalar_store(ctx: *mut c_void, s: u32, v: u64) {
    let p = primary(ctx);
    let Some(name) = p.state_name(s) else {
        p.fail(format!("scalar_store: no state {s}"));
        return;
    };
    let module = p.module.clone();
    if let Err(e) = p.store.scalar_set(&module, &name, v) {
        p.fail(e.to_string());
    }
    p.touched_other.insert(s);
}

#[allow(clippy::too_many_arguments)]
extern "C" fn cb_opaque(
    ctx: *mut c_void,
    name: *const c_char,
    args: *const u64,
    nargs: u32,
    results: *mut u64,
    nresults: u32,
    pkt: *mut u8,
    len: u32,
) {
    let p = primary(ctx);
    if name.is_null() || pkt.is_null() {
        p.fail("opaque: null name or packet".into());
        return;
    }
    // SAFETY: the generated code passes a NUL-terminated string literal.
    let name = match unsafe { CStr::from_ptr(name) }.to_str() {
        Ok(n) => n.to_string(),
        Err(_) => {
            p.fail("opaque: name is not UTF-8".into());
            return;
        }
    };
    let types = p.opaque_types.get(&name).cloned().unwrap_or_default();
    // SAFETY: `pkt` points to `len` bytes owned by the caller for the duration of the call.
    let bytes = unsafe { std::slice::from_raw_parts_mut(pkt, len as usize) };
    let mut frame = bytes.to_vec();
    let args = slice(args, nargs as usize).to_vec();
    match tandem_lift::PayloadOps.call(&name, &args, &types, &mut frame, &mut p.store) {
        Ok(out) => {
            let n = bytes.len().min(frame.len());
            bytes[..n].copy_from_slice(&frame[..n]);
            let out: Vec<u64> = out.into_iter().take(nresults as usize).collect();
            write_out(results, &out);
        }
        Err(e) => p.fail(format!("opaque `{name}`: {e}")),
    }
}
