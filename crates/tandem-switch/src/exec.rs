//! The interpreter: runs a lowered program's flat [`Code`] on one packet in a single loop
//! with a small fixed return stack — no recursion, no per-packet allocation, no lookups by
//! name; headers are read and written where they sit in the packet buffer. Also the
//! run-time register and counter storage ([`Stateful`]) shared by all workers.

use crate::hash::compute_hash;
use crate::meter::MeterArray;
use crate::table::{Snapshot, MAX_KEYS};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::program::*;

/// Runtime register, counter and meter storage, shared by all workers.
pub(crate) struct Stateful {
    pub registers: Vec<Vec<AtomicU64>>,
    /// per counter, per index: (packets, bytes)
    pub counters: Vec<Vec<(AtomicU64, AtomicU64)>>,
    pub meters: Vec<MeterArray>,
}

impl Stateful {
    pub(crate) fn new(c: &Compiled) -> Stateful {
        Stateful {
            registers: c
                .registers
                .iter()
                .map(|r| (0..r.size).map(|_| AtomicU64::new(0)).collect())
                .collect(),
            counters: c
                .counters
                .iter()
                .map(|r| {
                    (0..r.size)
                        .map(|_| (AtomicU64::new(0), AtomicU64::new(0)))
                        .collect()
                })
                .collect(),
            meters: c
                .meters
                .iter()
                .map(|m| MeterArray::new(m.size, m.bytes))
                .collect(),
        }
    }
}

pub(crate) struct Ctx<'a> {
    pub prog: &'a Compiled,
    pub snap: &'a Snapshot,
    pub state: &'a Stateful,
    pub phv: &'a mut Phv,
    /// packet buffer: scratch header regions, then the packet (see [`HeaderLayout`])
    pub hb: &'a mut Hb,
    /// headers extracted, in order
    pub extracted: &'a mut Vec<u32>,
    /// valid headers emitted, in order
    pub emitted: &'a mut Vec<u32>,
    /// true if the output frame is `hb[scratch_size..][..pkt.len()]` (no header
    /// was added, removed or reordered); otherwise it is in `out`
    pub in_place: bool,
    pub pkt: &'a [u8],
    /// byte offset of the parser cursor
    pub cursor: usize,
    pub out: &'a mut Vec<u8>,
    pub scratch: &'a mut Vec<u8>,
    /// return stack of the flat code (action calls)
    pub stack: &'a mut [u32; 64],
    /// the packet's time (ns), for meters
    pub now_ns: u64,
    /// compiled blocks (the native engine), run instead of the interpreter where present
    pub native: Option<&'a crate::native::NativeProgram>,
    /// the worker's run-time block for compiled code (`native::raw::enter`)
    pub rt: std::ptr::NonNull<crate::native::Rt>,
}

/// Result of processing one packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    Drop,
    Forward(u32),
}

impl<'a> Ctx<'a> {
    /// Runs the whole v1model pipeline on `pkt`; the output frame is left in `out`.
    #[inline]
    /// Runs the pipeline on the packet that arrived on `port` at `ts_ns` (the packet's time;
    /// the global timestamps count microseconds in 48 bits, as in BMv2).
    pub(crate) fn run_pipeline(&mut self, port: u32, ts_ns: u64) -> Verdict {
        let p = self.prog;
        self.now_ns = ts_ns;
        // every slot zero but the constant-initialised ones (one copy)
        let n = p.phv0.len().min(PHV_SLOTS);
        self.phv[..n].copy_from_slice(&p.phv0[..n]);
        // Scratch regions are zeroed: fields of invalid headers read as zero
        // (deterministic, like BMv2). The packet follows, with 8 bytes of slack
        // so every field window is in bounds.
        let p0 = p.scratch_size;
        if p0 + self.pkt.len() > HB_SIZE {
            // larger than any supported frame (~128 KiB with headers)
            return Verdict::Drop;
        }
        self.hb[..p0].fill(0);
        self.hb[p0..p0 + self.pkt.len()].copy_from_slice(self.pkt);
        self.extracted.clear();
        self.emitted.clear();
        self.in_place = false;
        let std = &p.std;
        self.phv[std.ingress_port as usize & PHV_MASK] = port as u64 & mask(9);
        self.phv[std.packet_length as usize & PHV_MASK] = self.pkt.len() as u64;
        let ts_us = (ts_ns / 1000) & mask(48);
        self.phv[std.ingress_global_timestamp as usize & PHV_MASK] = ts_us;
        self.cursor = 0;
        let code = &p.code;
        self.exec(code.parser);
        if code.parser_end != code.ingress {
            self.exec(code.verify);
            self.exec(code.ingress);
        }
        let spec = self.phv[std.egress_spec as usize & PHV_MASK];
        if spec == DROP_PORT {
            return Verdict::Drop;
        }
        self.phv[std.egress_port as usize & PHV_MASK] = spec;
        self.phv[std.egress_global_timestamp as usize & PHV_MASK] = ts_us;
        self.exec(code.egress);
        if self.phv[std.egress_spec as usize & PHV_MASK] == DROP_PORT {
            return Verdict::Drop;
        }
        match &code.compute_checksums {
            Some(list) => {
                let payload = self.pkt.get(self.cursor..).unwrap_or(&[]);
                for &i in list {
                    if let Some(op) = code.ops.get(i as usize) {
                        op_checksum_inline(op, p, self.phv, self.hb, payload, self.scratch);
                    }
                }
            }
            None => self.exec(code.compute),
        }
        let same = match &code.deparser_emits {
            Some(hs) => {
                // in place if the valid headers, in emit order, are the extracted
                // ones; the emitted list is only needed otherwise
                if let Some(plan) = &code.in_place {
                    let same = plan.same(self.phv, self.extracted);
                    if !same {
                        for &(h, valid) in hs {
                            if self.phv[valid as usize & PHV_MASK] != 0 {
                                self.emitted.push(h);
                            }
                        }
                    }
                    same
                } else {
                    self.deparse_check(hs)
                }
            }
            None => {
                self.exec(code.deparser);
                self.extracted == self.emitted
            }
        };
        // Same headers, same order: the modified packet buffer is the output.
        self.finish_frame(same);
        Verdict::Forward(self.phv[std.egress_port as usize & PHV_MASK] as u32)
    }

    /// The general in-place test of an emit-only deparser (`hs`: header, validity slot), for
    /// programs without a precomputed plan (`deparse`); fills `emitted` when not in place.
    /// The output frame after the deparser: the packet buffer itself when the deparser
    /// emitted the extracted headers in order (`same`), else the emitted headers' bytes and
    /// the payload copied into `out`.
    pub(crate) fn finish_frame(&mut self, same: bool) {
        if same {
            self.in_place = true;
            return;
        }
        let p = self.prog;
        let p0 = p.scratch_size;
        self.out.clear();
        for &h in self.emitted.iter() {
            let hl = &p.headers[h as usize];
            let b = self.phv[hl.base as usize & PHV_MASK] as usize;
            if let Some(src) = self.hb.get(b..b + hl.bytes as usize) {
                self.out.extend_from_slice(src);
            }
        }
        let payload = self
            .hb
            .get(p0 + self.cursor..p0 + self.pkt.len())
            .unwrap_or(&[]);
        self.out.extend_from_slice(payload);
    }

    fn deparse_check(&mut self, hs: &[(u32, Slot)]) -> bool {
        let same = crate::deparse::same_general(self.phv, hs, self.extracted);
        if !same {
            for &(h, valid) in hs {
                if self.phv[valid as usize & PHV_MASK] != 0 {
                    self.emitted.push(h);
                }
            }
        }
        same
    }

    /// Runs flat code from `entry` until the block ends.
    #[inline]
    pub(crate) fn exec(&mut self, entry: u32) {
        // empty blocks (a lone `End`) cost nothing
        if matches!(self.prog.code.ops.get(entry as usize), Some(Op::End)) {
            return;
        }
        if let Some(f) = self.native.and_then(|n| n.block(entry)) {
            crate::native::raw::enter(f, self);
            return;
        }
        self.exec_code(entry);
    }

    /// Runs action `a` (its parameters already set) in the interpreter; true if it ended
    /// by `exit` (for compiled code calling an action that is not compiled).
    pub(crate) fn run_action_interpreted(&mut self, a: u32) -> bool {
        match self.prog.code.action_entry.get(a as usize) {
            Some(&e) => self.exec_code(e),
            None => false,
        }
    }

    /// Looks table `table` up on `key` (one value per key field) and writes the action's
    /// parameters; returns the action to run, with bit 31 set on a hit. Inlined into
    /// `rt_apply` and `apply_lpm`'s fallback.
    #[inline(always)]
    pub(crate) fn apply_table(&mut self, table: u32, key: &[u64; MAX_KEYS]) -> u32 {
        let prog = self.prog;
        let Some(def) = prog.tables.get(table as usize) else {
            return u32::MAX;
        };
        let Some(ts) = self.snap.tables.get(table as usize) else {
            return u32::MAX;
        };
        let n = def.keys.len().min(MAX_KEYS);
        let now = self.now_ns;
        let (found, action, args) = match ts.lookup(&key[..n]).filter(|e| e.age.live(now)) {
            Some(e) => {
                e.hits.count(self.pkt.len());
                (true, e.action, &e.args[..])
            }
            None => (false, ts.default_action, &ts.default_args[..]),
        };
        let phv = &mut *self.phv;
        if let Some(adef) = prog.actions.get(action as usize) {
            for (&(slot, m), &v) in adef.param_masks.iter().zip(args) {
                phv[ix(slot)] = v & m;
            }
        }
        action | (u32::from(found) << 31)
    }

    /// [`Ctx::apply_table`] for a single-`lpm`-key table without direct counter or ageing
    /// (`native` calls it for those): the action and arguments come from the leaf's packed
    /// record instead of the entry. Any other table takes the general path.
    pub(crate) fn apply_lpm(&mut self, table: u32, key: &[u64; MAX_KEYS]) -> u32 {
        let prog = self.prog;
        let (Some(def), Some(ts)) = (
            prog.tables.get(table as usize),
            self.snap.tables.get(table as usize),
        ) else {
            return u32::MAX;
        };
        let Some(store) = ts
            .lpm()
            .filter(|_| def.direct_counter.is_none() && !def.ageing)
        else {
            return self.apply_table(table, key);
        };
        let (found, action, args) = match store.lookup_action(key[0]) {
            Some((a, args)) => (true, a, args),
            None => (false, ts.default_action, &ts.default_args[..]),
        };
        let phv = &mut *self.phv;
        if let Some(adef) = prog.actions.get(action as usize) {
            for (&(slot, m), &v) in adef.param_masks.iter().zip(args) {
                phv[ix(slot)] = v & m;
            }
        }
        action | (u32::from(found) << 31)
    }

    /// Runs the effect op at `pc` (one that neither jumps nor calls) on its own.
    #[inline(never)]
    pub(crate) fn exec_effect(&mut self, pc: u32) {
        let prog = self.prog;
        let Some(op) = prog.code.ops.get(pc as usize) else {
            return;
        };
        effect(
            op,
            prog,
            self.state,
            self.phv,
            self.hb,
            self.pkt,
            self.cursor,
            self.emitted,
            self.scratch,
            self.now_ns,
        );
    }

    /// Runs flat code from `entry` until the block ends; true if it ended by `End`
    /// (`exit`, the end of a block), false by returning from the outermost action.
    fn exec_code(&mut self, entry: u32) -> bool {
        let prog = self.prog;
        let code = &prog.code;
        let phv: &mut Phv = self.phv;
        let hb: &mut Hb = self.hb;
        let pkt = self.pkt;
        let ops = &code.ops[..];
        let mut pc = entry as usize;
        let stack = &mut *self.stack;
        let mut sp = 0usize;
        let mut transitions = 0u32;
        loop {
            let Some(op) = ops.get(pc) else {
                return true;
            };
            pc += 1;
            match op {
                Op::Set(d, e) => {
                    let v = e.eval(phv, hb);
                    d.store(phv, hb, v);
                }
                Op::SetSlot(a, e) => phv[*a as usize & PHV_MASK] = e.eval(phv, hb),
                Op::SetSlotSlot(a, b) => phv[*a as usize & PHV_MASK] = phv[*b as usize & PHV_MASK],
                Op::SetSlotConst(a, c) => phv[*a as usize & PHV_MASK] = *c,
                Op::SetSlotField(a, f) => phv[*a as usize & PHV_MASK] = f.load(phv, hb),
                Op::SetFieldSlot(f, b) => {
                    let v = phv[*b as usize & PHV_MASK];
                    f.store(phv, hb, v);
                }
                Op::SetFieldConst(f, c) => f.store(phv, hb, *c),
                Op::SetSlice(slot, lo, m, e) => {
                    let v = e.eval(phv, hb) & m;
                    let old = phv[*slot as usize & PHV_MASK];
                    phv[*slot as usize & PHV_MASK] = (old & !(m << lo)) | (v << lo);
                }
                Op::Add(d, a, b, m) => phv[ix(*d)] = phv[ix(*a)].wrapping_add(phv[ix(*b)]) & m,
                Op::AddC(d, a, c, m) => phv[ix(*d)] = phv[ix(*a)].wrapping_add(*c) & m,
                Op::Sub(d, a, b, m) => phv[ix(*d)] = phv[ix(*a)].wrapping_sub(phv[ix(*b)]) & m,
                Op::And(d, a, b) => phv[ix(*d)] = phv[ix(*a)] & phv[ix(*b)],
                Op::AndC(d, a, c) => phv[ix(*d)] = phv[ix(*a)] & c,
                Op::Or(d, a, b) => phv[ix(*d)] = phv[ix(*a)] | phv[ix(*b)],
                Op::OrC(d, a, c) => phv[ix(*d)] = phv[ix(*a)] | c,
                Op::Xor(d, a, b) => phv[ix(*d)] = phv[ix(*a)] ^ phv[ix(*b)],
                Op::XorC(d, a, c) => phv[ix(*d)] = phv[ix(*a)] ^ c,
                Op::ShrC(d, a, c) => phv[ix(*d)] = phv[ix(*a)] >> (c & 63),
                Op::ShlC(d, a, c, m) => phv[ix(*d)] = (phv[ix(*a)] << (c & 63)) & m,
                Op::EqC(d, a, c) => phv[ix(*d)] = (phv[ix(*a)] == *c) as u64,
                Op::NeC(d, a, c) => phv[ix(*d)] = (phv[ix(*a)] != *c) as u64,
                Op::Bin(k, d, a, b, m) => phv[ix(*d)] = binop(*k, phv[ix(*a)], phv[ix(*b)], *m),
                Op::BinC(k, d, a, c, m) => phv[ix(*d)] = binop(*k, phv[ix(*a)], *c, *m),
                Op::SliceR(d, a, lo, m) => phv[ix(*d)] = (phv[ix(*a)] >> (lo & 63)) & m,
                Op::ConcatR(d, a, b, bw) => phv[ix(*d)] = (phv[ix(*a)] << (bw & 63)) | phv[ix(*b)],
                Op::SExtR(d, a, from, m) => phv[ix(*d)] = to_signed(phv[ix(*a)], *from) as u64 & m,
                Op::BitNotR(d, a, m) => phv[ix(*d)] = !phv[ix(*a)] & m,
                Op::BswapR(d, a, n) => phv[ix(*d)] = bswap(phv[ix(*a)], *n),
                Op::AddSM(d, a, x, sh, mk, m) => {
                    let v = (phv[ix(*x)] >> (sh & 63)) & mk;
                    phv[ix(*d)] = phv[ix(*a)].wrapping_add(v) & m
                }
                Op::AddSM2(d, x, s1, k1, y, s2, k2, m) => {
                    let a = (phv[ix(*x)] >> (s1 & 63)) & k1;
                    let b = (phv[ix(*y)] >> (s2 & 63)) & k2;
                    phv[ix(*d)] = a.wrapping_add(b) & m
                }
                Op::XorSMC(d, x, sh, mk, c) => phv[ix(*d)] = ((phv[ix(*x)] >> (sh & 63)) & mk) ^ c,
                Op::LoadBswap(d, f, n) => phv[ix(*d)] = bswap(f.load(phv, hb), *n),
                Op::StoreBswap(f, a, n) => {
                    let v = bswap(phv[ix(*a)], *n);
                    f.store(phv, hb, v);
                }
                Op::CondR(d, c, a, b) => {
                    phv[ix(*d)] = if phv[ix(*c)] != 0 {
                        phv[ix(*a)]
                    } else {
                        phv[ix(*b)]
                    }
                }
                Op::Jz(a, t) => {
                    if phv[ix(*a)] == 0 {
                        pc = *t as usize;
                    }
                }
                Op::Jnz(a, t) => {
                    if phv[ix(*a)] != 0 {
                        pc = *t as usize;
                    }
                }
                Op::JEqC(a, c, t) => {
                    if phv[ix(*a)] == *c {
                        pc = *t as usize;
                    }
                }
                Op::JNeC(a, c, t) => {
                    if phv[ix(*a)] != *c {
                        pc = *t as usize;
                    }
                }
                Op::JumpIfZero(c, t) => {
                    if c.eval(phv, hb) == 0 {
                        pc = *t as usize;
                    }
                }
                Op::Jump(t) => pc = *t as usize,
                Op::SwitchJump(slot, arms, default) => {
                    let v = phv[*slot as usize & PHV_MASK];
                    pc = arms
                        .iter()
                        .find(|(k, _)| *k == v)
                        .map(|(_, t)| *t)
                        .unwrap_or(*default) as usize;
                }
                Op::Apply {
                    table,
                    hit,
                    action_run,
                } => {
                    let snap = self.snap;
                    let def = &prog.tables[*table as usize];
                    let mut key = [0u64; MAX_KEYS];
                    for (k, d) in key.iter_mut().zip(&def.keys) {
                        *k = d.ex.eval(phv, hb);
                    }
                    let ts = &snap.tables[*table as usize];
                    let now = self.now_ns;
                    let (found, action, args) = match ts
                        .lookup(&key[..def.keys.len()])
                        .filter(|e| e.age.live(now))
                    {
                        Some(e) => {
                            e.hits.count(pkt.len());
                            (true, e.action, &e.args[..])
                        }
                        None => (false, ts.default_action, &ts.default_args[..]),
                    };
                    if let Some(h) = hit {
                        phv[*h as usize & PHV_MASK] = found as u64;
                    }
                    if let Some(a) = action_run {
                        phv[*a as usize & PHV_MASK] = action as u64;
                    }
                    let adef = &prog.actions[action as usize];
                    for (&(slot, m), &v) in adef.param_masks.iter().zip(args) {
                        phv[slot as usize & PHV_MASK] = v & m;
                    }
                    if sp == stack.len() {
                        return true;
                    }
                    stack[sp] = pc as u32;
                    sp += 1;
                    pc = code.action_entry[action as usize] as usize;
                }
                Op::CallAction { action, args } => {
                    let adef = &prog.actions[*action as usize];
                    for (&(slot, m), e) in adef.param_masks.iter().zip(args) {
                        phv[slot as usize & PHV_MASK] = e.eval(phv, hb) & m;
                    }
                    if sp == stack.len() {
                        return true;
                    }
                    stack[sp] = pc as u32;
                    sp += 1;
                    pc = code.action_entry[*action as usize] as usize;
                }
                Op::CopyOut(pairs) => {
                    for &(d, s) in pairs {
                        let v = phv[s as usize & PHV_MASK];
                        d.store(phv, hb, v);
                    }
                }
                Op::Ret => {
                    if sp == 0 {
                        return false;
                    }
                    sp -= 1;
                    pc = stack[sp] as usize;
                }
                Op::End => return true,
                Op::MarkToDrop => {
                    let std = &prog.std;
                    phv[std.egress_spec as usize & PHV_MASK] = DROP_PORT;
                    phv[std.mcast_grp as usize & PHV_MASK] = 0;
                }
                Op::Copy(_)
                | Op::RegRead { .. }
                | Op::RegWrite { .. }
                | Op::Count { .. }
                | Op::Meter { .. }
                | Op::Hash(_)
                | Op::Checksum(_) => {
                    effect(
                        op,
                        prog,
                        self.state,
                        phv,
                        hb,
                        pkt,
                        self.cursor,
                        self.emitted,
                        self.scratch,
                        self.now_ns,
                    );
                }
                Op::Extract(h) => {
                    let hl = &prog.headers[*h as usize];
                    let end = self.cursor + hl.bytes as usize;
                    if end <= pkt.len() {
                        phv[hl.base as usize & PHV_MASK] = (prog.scratch_size + self.cursor) as u64;
                        phv[hl.valid as usize & PHV_MASK] = 1;
                        self.cursor = end;
                        self.extracted.push(*h);
                    } else {
                        let pe = prog.std.parser_error;
                        phv[pe as usize & PHV_MASK] = ERR_PACKET_TOO_SHORT;
                        pc = code.parser_end as usize;
                        continue;
                    }
                }
                Op::Emit(h) => {
                    let hl = &prog.headers[*h as usize];
                    if phv[hl.valid as usize & PHV_MASK] != 0 {
                        self.emitted.push(*h);
                    }
                }
                Op::Goto(t) => {
                    transitions += 1;
                    if transitions > 1024 {
                        pc = code.parser_end as usize;
                        continue;
                    }
                    pc = *t as usize;
                }
                Op::Select1 { key, cases } => {
                    transitions += 1;
                    if transitions > 1024 {
                        pc = code.parser_end as usize;
                        continue;
                    }
                    let v = key.eval(phv, hb);
                    let hit = cases.iter().find(|(k, _)| match *k {
                        KeySet::Mask(x, m) => v & m == x,
                        KeySet::Range(lo, hi) => v >= lo && v <= hi,
                    });
                    match hit {
                        Some((_, t)) => pc = *t as usize,
                        None => {
                            phv[prog.std.parser_error as usize & PHV_MASK] = ERR_NO_MATCH;
                            pc = code.parser_end as usize;
                            continue;
                        }
                    }
                }
                Op::Select { keys, cases } => {
                    transitions += 1;
                    if transitions > 1024 {
                        pc = code.parser_end as usize;
                        continue;
                    }
                    if let [k] = &keys[..] {
                        let v = k.eval(phv, hb);
                        let hit = cases.iter().find(|(ks, _)| match ks.first() {
                            Some(KeySet::Mask(x, m)) => v & m == x & m,
                            Some(KeySet::Range(lo, hi)) => v >= *lo && v <= *hi,
                            None => true,
                        });
                        match hit {
                            Some((_, t)) => pc = *t as usize,
                            None => {
                                phv[prog.std.parser_error as usize & PHV_MASK] = ERR_NO_MATCH;
                                pc = code.parser_end as usize;
                                continue;
                            }
                        }
                        continue;
                    }
                    let mut vals = [0u64; MAX_KEYS];
                    for (v, k) in vals.iter_mut().zip(keys) {
                        *v = k.eval(phv, hb);
                    }
                    let hit = cases.iter().find(|(ks, _)| {
                        ks.iter().zip(&vals).all(|(k, v)| match *k {
                            KeySet::Mask(x, m) => v & m == x & m,
                            KeySet::Range(lo, hi) => *v >= lo && *v <= hi,
                        })
                    });
                    match hit {
                        Some((_, t)) => pc = *t as usize,
                        None => {
                            phv[prog.std.parser_error as usize & PHV_MASK] = ERR_NO_MATCH;
                            pc = code.parser_end as usize;
                            continue;
                        }
                    }
                }
            }
        }
    }
}

/// The ops with effects on run-time state or the packet that neither jump nor call:
/// whole-value copies, registers, counters, meters, hashes, checksums, emit. One definition
/// for the interpreter loop and compiled code (`native::raw::rt_op`); `pkt[cursor..]` is
/// the unparsed payload.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn effect(
    op: &Op,
    prog: &Compiled,
    state: &Stateful,
    phv: &mut Phv,
    hb: &mut Hb,
    pkt: &[u8],
    cursor: usize,
    emitted: &mut Vec<u32>,
    scratch: &mut Vec<u8>,
    now_ns: u64,
) {
    match op {
        Op::Copy(items) => {
            for it in items {
                match *it {
                    CopyItem::Slot(d, s) => phv[d as usize & PHV_MASK] = phv[s as usize & PHV_MASK],
                    CopyItem::Bytes(d, s, n) => {
                        let d = phv[d as usize & PHV_MASK] as usize;
                        let s = phv[s as usize & PHV_MASK] as usize;
                        let n = n as usize;
                        if d + n <= hb.len() && s + n <= hb.len() {
                            hb.copy_within(s..s + n, d);
                        }
                    }
                }
            }
        }
        Op::RegRead { reg, dst, idx } => {
            let i = idx.eval(phv, hb) as usize;
            let r = &state.registers[*reg as usize];
            // Out of range: result unspecified; we return 0.
            let v = r.get(i).map(|a| a.load(Ordering::Relaxed)).unwrap_or(0);
            dst.store(phv, hb, v);
        }
        Op::RegWrite { reg, idx, val, m } => {
            let i = idx.eval(phv, hb) as usize;
            let v = val.eval(phv, hb) & m;
            if let Some(a) = state.registers[*reg as usize].get(i) {
                a.store(v, Ordering::Relaxed);
            }
        }
        Op::Count { counter, idx } => {
            let i = idx.eval(phv, hb) as usize;
            if let Some((p, b)) = state.counters[*counter as usize].get(i) {
                let kind = prog.counters[*counter as usize].kind;
                if kind != CounterKind::Bytes {
                    p.fetch_add(1, Ordering::Relaxed);
                }
                if kind != CounterKind::Packets {
                    b.fetch_add(pkt.len() as u64, Ordering::Relaxed);
                }
            }
        }
        Op::Meter { meter, idx, dst } => {
            let i = idx.eval(phv, hb);
            let len = phv[prog.std.packet_length as usize & PHV_MASK];
            let c = state.meters[*meter as usize].execute(i, len, now_ns);
            dst.store(phv, hb, u64::from(c));
        }
        Op::Hash(_) => op_hash(op, phv, hb, scratch),
        Op::Checksum(_) => {
            let payload = pkt.get(cursor..).unwrap_or(&[]);
            op_checksum(op, prog, phv, hb, payload, scratch)
        }
        Op::Emit(h) => {
            if let Some(hl) = prog.headers.get(*h as usize) {
                if phv[ix(hl.valid)] != 0 {
                    emitted.push(*h);
                }
            }
        }
        _ => {}
    }
}

#[inline(never)]
fn op_hash(op: &Op, phv: &mut Phv, hb: &mut Hb, scratch: &mut Vec<u8>) {
    if let Op::Hash(st) = op {
        let St::Hash {
            dst,
            dst_mask,
            algo,
            base,
            data,
            max,
        } = &**st
        else {
            return;
        };
        pack_bits(phv, hb, data, scratch);
        let h = compute_hash(*algo, scratch, &[]);
        let b = base.eval(phv, hb);
        let m = max.eval(phv, hb);
        let v = if m == 0 { b } else { b.wrapping_add(h % m) };
        dst.store(phv, hb, v & dst_mask);
    }
}

/// `payload`: the unparsed bytes (used by the `_with_payload` variants).
#[inline(never)]
fn op_checksum(
    op: &Op,
    prog: &Compiled,
    phv: &mut Phv,
    hb: &mut Hb,
    payload: &[u8],
    scratch: &mut Vec<u8>,
) {
    op_checksum_inline(op, prog, phv, hb, payload, scratch)
}

/// [`op_checksum`], inlined where a block of checksums runs without the
/// interpreter loop.
#[inline(always)]
fn op_checksum_inline(
    op: &Op,
    prog: &Compiled,
    phv: &mut Phv,
    hb: &mut Hb,
    payload: &[u8],
    scratch: &mut Vec<u8>,
) {
    if let Op::Checksum(st) = op {
        let St::Checksum {
            verify,
            payload: with_payload,
            cond,
            data,
            plan,
            field,
            width,
            algo,
        } = &**st
        else {
            return;
        };
        if cond.eval(phv, hb) == 0 {
            return;
        }
        let pl: &[u8] = if *with_payload { payload } else { &[] };
        let v = match plan {
            Some(plan) => csum16_plan(phv, hb, plan, pl),
            None => {
                pack_bits(phv, hb, data, scratch);
                compute_hash(*algo, scratch, pl)
            }
        } & mask(*width);
        if *verify {
            if field.load(phv, hb) != v {
                phv[prog.std.checksum_error as usize & PHV_MASK] = 1;
            }
        } else {
            field.store(phv, hb, v);
        }
    }
}

/// Sum of the big-endian 16-bit words of `b` (odd tail padded with a zero byte),
/// modulo 2^16-1 up to folding: 64-bit words are added as two 32-bit halves,
/// which is congruent because 2^16 ≡ 1.
#[inline]
fn sum_be(b: &[u8]) -> u64 {
    let mut acc = 0u64;
    let n = b.len();
    let mut i = 0;
    while i + 8 <= n {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[i..i + 8]);
        let v = u64::from_be_bytes(w);
        acc += (v >> 32) + (v & 0xffff_ffff);
        i += 8;
    }
    while i + 2 <= n {
        acc += u16::from_be_bytes([b[i], b[i + 1]]) as u64;
        i += 2;
    }
    if i < n {
        acc += (b[i] as u64) << 8;
    }
    acc
}

/// Folds a value to 16 bits modulo 2^16-1 (never turns non-zero into zero).
#[inline]
fn fold16(v: u64) -> u64 {
    (v & 0xffff) + ((v >> 16) & 0xffff) + ((v >> 32) & 0xffff) + (v >> 48)
}

/// Internet checksum (csum16) by plan, plus payload: the ones'-complement sum of a
/// bit string equals the sum of each piece times 2^(position mod 16), modulo
/// 2^16-1, so header bytes can be summed in place.
#[inline]
pub(crate) fn csum16_plan(phv: &Phv, hb: &Hb, plan: &[CsumItem], payload: &[u8]) -> u64 {
    let mut acc: u64 = 0;
    for it in plan {
        match it {
            CsumItem::Val(e, sh) => acc += fold16(e.eval(phv, hb)) << sh,
            CsumItem::Bytes(base, off, len) => {
                let (o, n) = (
                    phv[*base as usize & PHV_MASK] as usize + *off as usize,
                    *len as usize,
                );
                if o + n <= HB_SIZE {
                    acc += sum_be_in_place(hb, o, n);
                } else if let Some(b) = hb.get(o..o + n) {
                    acc += sum_be(b);
                }
            }
        }
    }
    if !payload.is_empty() {
        acc += sum_be(payload);
    }
    acc = (acc & 0xffff_ffff) + (acc >> 32);
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    (!(acc as u16)) as u64
}

/// The 8-byte big-endian window at `o` of the packet buffer (in bounds for any
/// `o`: positions are masked and the buffer has 8 bytes of slack).
#[inline(always)]
fn load8(hb: &Hb, o: usize) -> u64 {
    let o = o & HB_MASK;
    match hb.get(o..o + 8) {
        Some(w) => u64::from_be_bytes(w.try_into().unwrap_or([0; 8])),
        None => 0,
    }
}

/// [`sum_be`] of `hb[o..o + n]` (`o + n <= HB_SIZE`) by 8-byte windows; the
/// last window is cut to the region with a mask (odd tails pad with zero, as
/// `sum_be` does).
#[inline]
fn sum_be_in_place(hb: &Hb, o: usize, n: usize) -> u64 {
    let mut acc = 0u64;
    let mut i = 0;
    while i + 8 <= n {
        let v = load8(hb, o + i);
        acc += (v >> 32) + (v & 0xffff_ffff);
        i += 8;
    }
    let rem = n - i;
    if rem > 0 {
        let v = load8(hb, o + i) & !(u64::MAX >> (8 * rem));
        acc += (v >> 32) + (v & 0xffff_ffff);
    }
    acc
}

/// Packs `(value, width)` items MSB-first into `buf` (left-padded with zero bits to
/// a whole number of bytes).
fn pack_bits(phv: &Phv, hb: &Hb, data: &[(Ex, u32)], buf: &mut Vec<u8>) {
    buf.clear();
    let total: u32 = data.iter().map(|d| d.1).sum();
    let mut acc: u128 = 0;
    let mut nbits: u32 = (8 - total % 8) % 8; // leading pad
    for (e, w) in data {
        let v = e.eval(phv, hb) & mask(*w);
        if nbits == 0 && w % 8 == 0 {
            // byte-aligned fast path
            buf.extend_from_slice(&v.to_be_bytes()[8 - (*w as usize / 8)..]);
            continue;
        }
        acc = (acc << w) | v as u128;
        nbits += w;
        while nbits >= 8 {
            nbits -= 8;
            buf.push((acc >> nbits) as u8);
        }
        acc &= (1u128 << nbits) - 1;
    }
}
