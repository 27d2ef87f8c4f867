//! The interpreter: runs `process` on one packet, or `on_timer` for one tick, against a
//! [`StateStore`].
//!
//! It implements the semantic contract of the crate docs exactly; the differential test
//! compares it with the native NF on real traffic. Header presence follows the NF API's native
//! accessors (see [`HeaderOffsets::parse`]) and is decided once, when the packet arrives.
//!
//! The state lives in a [`StateStore`] (`store`: contents, [`MapRules`], the host-side API)
//! and is dumped for comparison by `dump` ([`StateStore::dump`], [`DumpFormat`]).

use crate::{
    BinOp, CastOp, EntityRef, Function, HeaderField, Inst, InstKind, IntCC, Meta, Module, StateId,
    Type, Value, VerifyErrors,
};

/// A packet handed to the NF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// The frame, starting with the Ethernet header.
    pub bytes: Vec<u8>,
    /// The port it arrived on.
    pub in_port: u16,
    /// Arrival time in nanoseconds (`meta.read now`).
    pub timestamp_ns: u64,
}

/// What the NF decided to do with the packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Transmit on this port.
    Send(u16),
    /// Discard.
    Drop,
}

/// The result of running one packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The packet's fate (the last `send`/`drop` executed; `Drop` if none).
    pub action: Action,
    /// The packet bytes after header writes.
    pub packet: Vec<u8>,
    /// Number of instructions executed (terminators included).
    pub steps: u64,
}

/// Interpreter settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterpOptions {
    /// Maximum instructions executed per packet before [`InterpError::OutOfFuel`].
    pub fuel: u64,
}

impl Default for InterpOptions {
    fn default() -> Self {
        InterpOptions { fuel: 1_000_000 }
    }
}

/// Why a packet could not be run. The state store may have been partly updated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InterpError {
    /// A header field of an absent header was read or written.
    #[error("`{inst}`: header `{header}` is not present in this packet")]
    AbsentHeader {
        /// The header.
        header: crate::Header,
        /// The instruction's text.
        inst: String,
    },
    /// The fuel ran out (probably an endless loop).
    #[error("out of fuel after {0} instructions")]
    OutOfFuel(u64),
    /// `vec.get`/`vec.set` with an index `>= len`.
    #[error("`{inst}`: index {index} is out of range for a vector of length {len}")]
    IndexOutOfRange {
        /// The index.
        index: u64,
        /// The vector length.
        len: u64,
        /// The instruction's text.
        inst: String,
    },
    /// The opaque-call handler failed (or there is none).
    #[error("`{inst}`: {message}")]
    Opaque {
        /// The handler's message.
        message: String,
        /// The instruction's text.
        inst: String,
    },
    /// The state store does not match the module (built for another module?).
    #[error("state store does not match the module: {0}")]
    StoreMismatch(String),
    /// The module is malformed in a way the verifier should have caught.
    #[error("malformed module: {0}")]
    Malformed(String),
}

/// Runs code the lifter could not understand (`opaque` instructions).
pub trait OpaqueHandler {
    /// Executes `name(args)`, returning one value per entry of `result_types` (wrapped to the
    /// type by the interpreter). It may edit the packet bytes and the state store.
    fn call(
        &mut self,
        name: &str,
        args: &[u64],
        result_types: &[Type],
        packet: &mut Vec<u8>,
        store: &mut StateStore,
    ) -> Result<Vec<u64>, String>;
}

/// The handler used by [`Interpreter::run`]: every opaque call is an error.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOpaque;

impl OpaqueHandler for NoOpaque {
    fn call(
        &mut self,
        name: &str,
        _: &[u64],
        _: &[Type],
        _: &mut Vec<u8>,
        _: &mut StateStore,
    ) -> Result<Vec<u64>, String> {
        Err(format!("no handler for opaque call \"{name}\""))
    }
}

pub use crate::parse_graph::HeaderOffsets;

mod dump;
mod meter;
mod priority;
mod store;

pub use dump::{DumpEntry, DumpFormat, StateDump};
pub use priority::entry_name;
use store::Slot;
pub use store::{prefix_mask, LpmShape, MapRules, StateStore, StoreError};

/// Runs a module's `process` function on packets.
#[derive(Clone, Copy, Debug)]
pub struct Interpreter<'m> {
    module: &'m Module,
    options: InterpOptions,
}

impl Ctx<'_> {
    /// The frame as a deparser emits it: the present headers in the deparse order, then the
    /// bytes after the parsed headers. Without a push or pop, the bytes as they are.
    fn frame(&self) -> Vec<u8> {
        if !self.relaid {
            return self.bytes.clone();
        }
        let mut out = Vec::with_capacity(self.bytes.len());
        for h in crate::deparse_order(self.module) {
            let Some(at) = self.hdrs.get(h) else { continue };
            let parsed = at < self.frame_len;
            let len = if h == crate::Header::Ipv4 && parsed {
                self.hdrs.ipv4_len
            } else {
                h.size()
            };
            out.extend_from_slice(self.bytes.get(at..at + len).unwrap_or_default());
        }
        out.extend_from_slice(
            self.bytes
                .get(self.hdrs.end..self.frame_len)
                .unwrap_or_default(),
        );
        out
    }
}

struct Ctx<'a> {
    module: &'a Module,
    /// The function being run (`process`, or the timer's `on_timer`).
    func: &'a Function,
    vals: Vec<u64>,
    bytes: Vec<u8>,
    hdrs: HeaderOffsets,
    /// The frame's length; pushed headers live after it in `bytes` until [`Ctx::frame`].
    frame_len: usize,
    /// Whether a push or pop changed which headers are present.
    relaid: bool,
    action: Action,
    steps: u64,
}

impl<'m> Interpreter<'m> {
    /// Verifies `module` and prepares to run it.
    pub fn new(module: &'m Module, options: InterpOptions) -> Result<Self, VerifyErrors> {
        crate::verify_module(module)?;
        Ok(Interpreter { module, options })
    }

    /// Runs one packet; `opaque` instructions are errors.
    pub fn run(&self, store: &mut StateStore, packet: &Packet) -> Result<Outcome, InterpError> {
        self.run_with(store, packet, &mut NoOpaque)
    }

    /// Runs one packet, executing `opaque` instructions with `handler`.
    pub fn run_with(
        &self,
        store: &mut StateStore,
        packet: &Packet,
        handler: &mut dyn OpaqueHandler,
    ) -> Result<Outcome, InterpError> {
        self.run_func(&self.module.process, store, packet, handler)
    }

    /// Runs the timer function `on_timer` for the tick at `now_ns` (the store's clock
    /// advances to it, as for a packet). A module without a timer does nothing. Returns the
    /// number of instructions executed.
    pub fn run_timer(&self, store: &mut StateStore, now_ns: u64) -> Result<u64, InterpError> {
        let Some(t) = &self.module.timer else {
            return Ok(0);
        };
        let tick = Packet {
            bytes: Vec::new(),
            in_port: 0,
            timestamp_ns: now_ns,
        };
        Ok(self.run_func(&t.func, store, &tick, &mut NoOpaque)?.steps)
    }

    fn run_func(
        &self,
        f: &'m Function,
        store: &mut StateStore,
        packet: &Packet,
        handler: &mut dyn OpaqueHandler,
    ) -> Result<Outcome, InterpError> {
        let m = self.module;
        if store.slots.len() != m.states.len() {
            return Err(InterpError::StoreMismatch(
                "wrong number of state objects".into(),
            ));
        }
        store.clock_ns = store.clock_ns.max(packet.timestamp_ns);
        let mut cx = Ctx {
            module: m,
            func: f,
            vals: vec![0; f.values.len()],
            bytes: packet.bytes.clone(),
            hdrs: HeaderOffsets::parse_in(m, &packet.bytes),
            frame_len: packet.bytes.len(),
            relaid: false,
            action: Action::Drop,
            steps: 0,
        };
        let mut block = f
            .entry()
            .ok_or_else(|| InterpError::Malformed("no entry block".into()))?;
        loop {
            let data = f
                .blocks
                .get(block)
                .ok_or_else(|| InterpError::Malformed(format!("no {block}")))?;
            let mut next = None;
            for &inst in &data.insts {
                cx.steps += 1;
                if cx.steps > self.options.fuel {
                    return Err(InterpError::OutOfFuel(self.options.fuel));
                }
                match cx.exec(inst, store, packet, handler)? {
                    Flow::Next => {}
                    Flow::Goto(b, args) => {
                        next = Some((b, args));
                        break;
                    }
                    Flow::Return => {
                        return Ok(Outcome {
                            action: cx.action,
                            packet: cx.frame(),
                            steps: cx.steps,
                        })
                    }
                }
            }
            let Some((b, args)) = next else {
                return Err(InterpError::Malformed(format!("{block} has no terminator")));
            };
            let params = &f
                .blocks
                .get(b)
                .ok_or_else(|| InterpError::Malformed(format!("no {b}")))?
                .params;
            if params.len() != args.len() {
                return Err(InterpError::Malformed(format!(
                    "wrong argument count for {b}"
                )));
            }
            for (&p, a) in params.iter().zip(args) {
                cx.set(p, a)?;
            }
            block = b;
        }
    }
}

enum Flow {
    Next,
    Goto(crate::Block, Vec<u64>),
    Return,
}

/// What one executed instruction does to control flow ([`Machine::exec`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Continue with the next instruction of the block.
    Next,
    /// Jump to the block, passing these parameter values.
    Goto(crate::Block, Vec<u64>),
    /// The function returned.
    Return,
}

/// The interpreter's machine state for one packet — SSA values, packet bytes, fate — with
/// single-instruction execution, for tools that run parts of `process` in their own order
/// (the partition simulator runs a plan's pre, server and post parts in turn, each with its
/// own values). Same semantics as [`Interpreter::run_with`]; the caller verifies the module
/// and chooses which instructions to execute.
pub struct Machine<'m> {
    cx: Ctx<'m>,
}

impl<'m> Machine<'m> {
    /// A machine for `packet` (values 0, fate drop); advances the store's clock to the
    /// packet's time as [`Interpreter::run_with`] does.
    pub fn new(module: &'m Module, store: &mut StateStore, packet: &Packet) -> Machine<'m> {
        store.clock_ns = store.clock_ns.max(packet.timestamp_ns);
        Machine {
            cx: Ctx {
                module,
                func: &module.process,
                vals: vec![0; module.process.values.len()],
                bytes: packet.bytes.clone(),
                hdrs: HeaderOffsets::parse_in(module, &packet.bytes),
                frame_len: packet.bytes.len(),
                relaid: false,
                action: Action::Drop,
                steps: 0,
            },
        }
    }

    /// Executes one instruction (branch arguments are evaluated, not assigned: on
    /// [`Step::Goto`] the caller assigns the target's parameters with
    /// [`Machine::set_value`]).
    pub fn exec(
        &mut self,
        inst: Inst,
        store: &mut StateStore,
        packet: &Packet,
        handler: &mut dyn OpaqueHandler,
    ) -> Result<Step, InterpError> {
        self.cx.steps += 1;
        Ok(match self.cx.exec(inst, store, packet, handler)? {
            Flow::Next => Step::Next,
            Flow::Goto(b, args) => Step::Goto(b, args),
            Flow::Return => Step::Return,
        })
    }

    /// The current value of `v` (0 until set or computed).
    pub fn value(&self, v: Value) -> Option<u64> {
        self.cx.vals.get(v.index()).copied()
    }

    /// Sets `v` (wrapped to its type).
    pub fn set_value(&mut self, v: Value, x: u64) -> Result<(), InterpError> {
        self.cx.set(v, x)
    }

    /// The frame as it would leave now: header writes so far, pushed and popped headers in
    /// the deparse order.
    pub fn bytes(&self) -> Vec<u8> {
        self.cx.frame()
    }

    /// Replaces the packet bytes (same frame with other header values; header presence and
    /// offsets are those of the original packet, which never change).
    pub fn set_bytes(&mut self, bytes: Vec<u8>) {
        self.cx.bytes = bytes;
    }

    /// The packet's fate so far.
    pub fn action(&self) -> Action {
        self.cx.action
    }

    /// Sets the packet's fate.
    pub fn set_action(&mut self, action: Action) {
        self.cx.action = action;
    }

    /// Instructions executed.
    pub fn steps(&self) -> u64 {
        self.cx.steps
    }
}

impl Ctx<'_> {
    fn get(&self, v: Value) -> Result<u64, InterpError> {
        self.vals
            .get(v.index())
            .copied()
            .ok_or_else(|| InterpError::Malformed(format!("no {v}")))
    }

    fn set(&mut self, v: Value, x: u64) -> Result<(), InterpError> {
        let ty = self
            .func
            .value_type(v)
            .ok_or_else(|| InterpError::Malformed(format!("no {v}")))?;
        let slot = self
            .vals
            .get_mut(v.index())
            .ok_or_else(|| InterpError::Malformed(format!("no {v}")))?;
        *slot = ty.wrap(x);
        Ok(())
    }

    fn ty(&self, v: Value) -> Result<Type, InterpError> {
        self.func
            .value_type(v)
            .ok_or_else(|| InterpError::Malformed(format!("no {v}")))
    }

    fn text(&self, inst: Inst) -> String {
        crate::print_inst(self.module, self.func, inst)
    }

    fn field_range(
        &self,
        field: HeaderField,
        inst: Inst,
    ) -> Result<std::ops::Range<usize>, InterpError> {
        let h = field.header();
        let start = self.hdrs.get(h).ok_or_else(|| InterpError::AbsentHeader {
            header: h,
            inst: self.text(inst),
        })? + field.byte_offset();
        let end = start + field.bits() as usize / 8;
        if end > self.bytes.len() {
            return Err(InterpError::Malformed(format!(
                "{} lies beyond the packet end",
                field.name()
            )));
        }
        Ok(start..end)
    }

    fn exec(
        &mut self,
        inst: Inst,
        store: &mut StateStore,
        packet: &Packet,
        handler: &mut dyn OpaqueHandler,
    ) -> Result<Flow, InterpError> {
        let f = self.func;
        let data = f
            .insts
            .get(inst)
            .ok_or_else(|| InterpError::Malformed(format!("no {inst}")))?;
        let results = &data.results;
        let res = |i: usize| {
            results
                .get(i)
                .copied()
                .ok_or_else(|| InterpError::Malformed("missing result".into()))
        };
        let state_kind = |s: StateId| {
            self.module
                .states
                .get(s)
                .map(|o| &o.kind)
                .ok_or_else(|| InterpError::Malformed(format!("no {s}")))
        };
        match &data.kind {
            InstKind::Const { imm } => self.set(res(0)?, *imm)?,
            InstKind::Binary { op, args } => {
                let ty = self.ty(args[0])?;
                let (a, b) = (self.get(args[0])?, self.get(args[1])?);
                self.set(res(0)?, binary(*op, ty, a, b))?;
            }
            InstKind::Icmp { pred, args } => {
                let ty = self.ty(args[0])?;
                let (a, b) = (self.get(args[0])?, self.get(args[1])?);
                let (sa, sb) = (ty.to_signed(a), ty.to_signed(b));
                let r = match pred {
                    IntCC::Eq => a == b,
                    IntCC::Ne => a != b,
                    IntCC::Ult => a < b,
                    IntCC::Ule => a <= b,
                    IntCC::Ugt => a > b,
                    IntCC::Uge => a >= b,
                    IntCC::Slt => sa < sb,
                    IntCC::Sle => sa <= sb,
                    IntCC::Sgt => sa > sb,
                    IntCC::Sge => sa >= sb,
                };
                self.set(res(0)?, u64::from(r))?;
            }
            InstKind::Cast { op, arg } => {
                let a = self.get(*arg)?;
                let r = match op {
                    CastOp::Zext | CastOp::Trunc => a,
                    CastOp::Sext => self.ty(*arg)?.to_signed(a) as u64,
                };
                self.set(res(0)?, r)?;
            }
            InstKind::Select {
                cond,
                if_true,
                if_false,
            } => {
                let r = if self.get(*cond)? != 0 {
                    self.get(*if_true)?
                } else {
                    self.get(*if_false)?
                };
                self.set(res(0)?, r)?;
            }
            InstKind::Hash { algo, args } => {
                let mut fields = Vec::with_capacity(args.len());
                for &a in args {
                    fields.push((self.get(a)?, self.ty(a)?.bits()));
                }
                self.set(res(0)?, algo.compute_fields(&fields))?;
            }
            InstKind::Bswap { arg } => {
                let n = self.ty(*arg)?.bytes();
                let a = self.get(*arg)?;
                let r = (0..n).fold(0u64, |acc, i| (acc << 8) | ((a >> (8 * i)) & 0xff));
                self.set(res(0)?, r)?;
            }
            InstKind::HdrRead { field } => {
                // A field of an absent header reads as 0 (P4: invalid headers' fields are
                // unspecified; the lifter only uses such values under a `select` that
                // discards them).
                let v = if self.hdrs.get(field.header()).is_none() {
                    0
                } else {
                    let r = self.field_range(*field, inst)?;
                    self.bytes[r]
                        .iter()
                        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
                };
                self.set(res(0)?, v)?;
            }
            InstKind::HdrWrite { field, value } => {
                if self.hdrs.get(field.header()).is_none() {
                    // Writing a field of an absent header does nothing (as in P4).
                    return Ok(Flow::Next);
                }
                let r = self.field_range(*field, inst)?;
                let v = self.get(*value)?;
                let n = r.len();
                for (i, b) in self.bytes[r].iter_mut().enumerate() {
                    *b = (v >> (8 * (n - 1 - i))) as u8;
                }
            }
            InstKind::HdrValid { header } => {
                let v = u64::from(self.hdrs.get(*header).is_some());
                self.set(res(0)?, v)?;
            }
            InstKind::HdrPush { header } => {
                if self.hdrs.get(*header).is_none() {
                    let at = self.bytes.len();
                    self.bytes.resize(at + header.size(), 0);
                    self.hdrs.set(*header, at);
                    self.relaid = true;
                }
            }
            InstKind::HdrPop { header } => {
                if self.hdrs.get(*header).is_some() {
                    self.hdrs.remove(*header);
                    self.relaid = true;
                }
            }
            InstKind::MetaRead { meta } => {
                let v = match meta {
                    Meta::InPort => u64::from(packet.in_port),
                    Meta::Length => packet.bytes.len() as u64,
                    Meta::Now => packet.timestamp_ns,
                };
                self.set(res(0)?, v)?;
            }
            InstKind::MapFind { state, key }
            | InstKind::MapInsert { state, key, .. }
            | InstKind::MapErase { state, key } => {
                let kind = state_kind(*state)?;
                let rules = MapRules::of(kind)
                    .ok_or_else(|| InterpError::Malformed(format!("{state} is not a map")))?;
                let k: Vec<u64> = key.iter().map(|&v| self.get(v)).collect::<Result<_, _>>()?;
                let now = packet.timestamp_ns;
                let mismatch =
                    || InterpError::StoreMismatch(format!("{state} is not a map in the store"));
                match &data.kind {
                    InstKind::MapFind { .. } => {
                        let mut vals = vec![0; results.len().saturating_sub(1)];
                        let hit = store
                            .map_find_at(*state, rules, &k, now, &mut vals)
                            .ok_or_else(mismatch)?;
                        if !hit {
                            vals.iter_mut().for_each(|v| *v = 0);
                        }
                        self.set(res(0)?, u64::from(hit))?;
                        for (i, v) in vals.into_iter().enumerate() {
                            self.set(res(i + 1)?, v)?;
                        }
                    }
                    InstKind::MapInsert { value, .. } => {
                        let v: Vec<u64> = value
                            .iter()
                            .map(|&v| self.get(v))
                            .collect::<Result<_, _>>()?;
                        let ok = store
                            .map_insert_at(*state, rules, &k, &v, now)
                            .ok_or_else(mismatch)?;
                        self.set(res(0)?, u64::from(ok))?;
                    }
                    _ => {
                        store
                            .map_erase_rules(*state, rules, &k)
                            .ok_or_else(mismatch)?;
                    }
                }
            }
            InstKind::VecGet { state, index } | InstKind::VecSet { state, index, .. } => {
                let idx = self.get(*index)?;
                let Some(Slot::Vector(vec)) = store.slots.get_mut(state.index()) else {
                    return Err(InterpError::StoreMismatch(format!(
                        "{state} is not a vector in the store"
                    )));
                };
                let len = vec.len;
                let Some(elem) = vec.get(idx) else {
                    return Err(InterpError::IndexOutOfRange {
                        index: idx,
                        len,
                        inst: self.text(inst),
                    });
                };
                if let InstKind::VecSet { value, .. } = &data.kind {
                    let v = value
                        .iter()
                        .map(|&v| self.get(v))
                        .collect::<Result<_, _>>()?;
                    vec.set(idx, v);
                } else {
                    let e = elem;
                    for (i, v) in e.into_iter().enumerate() {
                        self.set(res(i)?, v)?;
                    }
                }
            }
            InstKind::MeterExecute { state, index } => {
                let idx = self.get(*index)?;
                let c = store
                    .meter_execute_at(*state, idx, packet.timestamp_ns, packet.bytes.len() as u64)
                    .ok_or_else(|| {
                        InterpError::StoreMismatch(format!("{state} is not a meter in the store"))
                    })?;
                self.set(res(0)?, u64::from(c))?;
            }
            InstKind::ScalarLoad { state } => {
                let Some(Slot::Scalar(s)) = store.slots.get(state.index()) else {
                    return Err(InterpError::StoreMismatch(format!(
                        "{state} is not a scalar in the store"
                    )));
                };
                let s = *s;
                self.set(res(0)?, s)?;
            }
            InstKind::ScalarStore { state, value } => {
                let v = self.get(*value)?;
                let Some(Slot::Scalar(s)) = store.slots.get_mut(state.index()) else {
                    return Err(InterpError::StoreMismatch(format!(
                        "{state} is not a scalar in the store"
                    )));
                };
                *s = v;
            }
            InstKind::Send { port } => self.action = Action::Send(self.get(*port)? as u16),
            InstKind::Drop => self.action = Action::Drop,
            InstKind::Opaque { name, args, .. } => {
                let a: Vec<u64> = args
                    .iter()
                    .map(|&v| self.get(v))
                    .collect::<Result<_, _>>()?;
                let tys: Vec<Type> = results
                    .iter()
                    .map(|&r| self.ty(r))
                    .collect::<Result<_, _>>()?;
                let out = handler
                    .call(name, &a, &tys, &mut self.bytes, store)
                    .map_err(|message| InterpError::Opaque {
                        message,
                        inst: self.text(inst),
                    })?;
                if out.len() != results.len() {
                    return Err(InterpError::Opaque {
                        message: format!(
                            "handler returned {} values, expected {}",
                            out.len(),
                            results.len()
                        ),
                        inst: self.text(inst),
                    });
                }
                for (i, v) in out.into_iter().enumerate() {
                    self.set(res(i)?, v)?;
                }
            }
            InstKind::Jump { dest } => {
                let args = dest
                    .args
                    .iter()
                    .map(|&v| self.get(v))
                    .collect::<Result<_, _>>()?;
                return Ok(Flow::Goto(dest.block, args));
            }
            InstKind::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                let dest = if self.get(*cond)? != 0 {
                    then_dest
                } else {
                    else_dest
                };
                let args = dest
                    .args
                    .iter()
                    .map(|&v| self.get(v))
                    .collect::<Result<_, _>>()?;
                return Ok(Flow::Goto(dest.block, args));
            }
            InstKind::Switch {
                arg,
                default,
                cases,
            } => {
                let a = self.get(*arg)?;
                let dest = cases
                    .iter()
                    .find(|(k, _)| *k == a)
                    .map_or(default, |(_, c)| c);
                let args = dest
                    .args
                    .iter()
                    .map(|&v| self.get(v))
                    .collect::<Result<_, _>>()?;
                return Ok(Flow::Goto(dest.block, args));
            }
            InstKind::Return => return Ok(Flow::Return),
        }
        Ok(Flow::Next)
    }
}

/// Evaluates a binary operation on values of type `ty` (operands already wrapped), following
/// the crate's semantic contract (wrap-around; division by zero and over-wide shifts defined).
pub fn binary(op: BinOp, ty: Type, a: u64, b: u64) -> u64 {
    let bits = u64::from(ty.bits());
    let (sa, sb) = (ty.to_signed(a), ty.to_signed(b));
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Udiv => a.checked_div(b).unwrap_or(0),
        BinOp::Sdiv => {
            if sb == 0 {
                0
            } else {
                sa.wrapping_div(sb) as u64
            }
        }
        BinOp::Urem => a.checked_rem(b).unwrap_or(a),
        BinOp::Srem => {
            if sb == 0 {
                a
            } else {
                sa.wrapping_rem(sb) as u64
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => {
            if b >= bits {
                0
            } else {
                a << b
            }
        }
        BinOp::Lshr => {
            if b >= bits {
                0
            } else {
                a >> b
            }
        }
        BinOp::Ashr => (sa >> b.min(63)) as u64,
    };
    ty.wrap(r)
}
