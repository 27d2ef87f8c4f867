//! The executable form of a checked program and its interpreter.
//!
//! Everything is resolved ahead of time: every scalar (header field, metadata
//! field, local variable, action parameter) is a *slot* in one flat `u64` vector
//! (the packet header vector, PHV); header validity is a slot too. Expressions
//! carry precomputed masks, header layouts carry precomputed byte offsets and
//! shifts, tables and actions are indices. Packet processing allocates nothing
//! and looks nothing up by name.

use crate::hash::{compute_hash, Algo};
use crate::table::{Snapshot, MAX_KEYS};
pub(crate) use crate::vm::{Code, Op};
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) type Slot = u32;

/// PHV capacity in slots. Slot indices are masked with [`PHV_MASK`], so PHV
/// accesses need no bounds check and can never leave the array.
pub(crate) const PHV_SLOTS: usize = 4096;
pub(crate) const PHV_MASK: usize = PHV_SLOTS - 1;
pub(crate) type Phv = [u64; PHV_SLOTS];
/// Packet buffer capacity (scratch header regions + packet); positions are
/// masked with [`HB_MASK`] and the buffer has 8 bytes of slack, so every 8-byte
/// field window is in bounds without a check.
pub(crate) const HB_SIZE: usize = 1 << 17;
pub(crate) const HB_MASK: usize = HB_SIZE - 1;
pub(crate) type Hb = [u8; HB_SIZE + 8];

/// Mask with the low `w` bits set (`w` in 0..=64).
#[inline]
pub(crate) fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinK {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    AddSat,
    SubSat,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    /// arithmetic shift right of a signed value of width `w`
    Sar(u32),
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// signed comparisons on values of width `w`
    SLt(u32),
    SLe(u32),
    SGt(u32),
    SGe(u32),
    LAnd,
    LOr,
}

/// A compiled expression. Results are always already truncated to their width.
#[derive(Clone, Debug, PartialEq)]
#[repr(u8)]
pub(crate) enum Ex {
    Const(u64),
    Slot(Slot),
    Field(FieldLoc),
    /// `slot op const`, the most common shape (`ttl - 1`, `x == 5`).
    SlotConst(BinK, Slot, u64, u64),
    /// `field op const` (`hdr.ipv4.ttl - 1`)
    FieldConst(BinK, FieldLoc, u64, u64),
    /// `slot op slot` (`a.isValid() && b.isValid()`)
    SlotSlot(BinK, Slot, Slot, u64),
    Bin(BinK, Box<Ex>, Box<Ex>, u64),
    Not(Box<Ex>),
    /// bitwise not, then mask
    BitNot(Box<Ex>, u64),
    /// (e >> lo) & mask
    Slice(Box<Ex>, u32, u64),
    /// (a << bw) | b
    Concat(Box<Ex>, Box<Ex>, u32),
    /// sign-extend from width `from`, then mask
    SExt(Box<Ex>, u32, u64),
    Mask(Box<Ex>, u64),
    Cond(Box<Ex>, Box<Ex>, Box<Ex>),
    /// `(slot >> lo) & mask` (a slice of a slot)
    SlotSlice(Slot, u32, u64),
    /// the low `n` bytes of a slot in reverse order (`x[7:0] ++ x[15:8] ++ ...`)
    SlotBswap(Slot, u32),
    /// the low `n` bytes of `e` in reverse order
    Bswap(Box<Ex>, u32),
    /// `e != 0`
    Bool(Box<Ex>),
}

/// A slot's PHV index (masked: never out of bounds).
#[inline(always)]
fn ix(s: Slot) -> usize {
    s as usize & PHV_MASK
}

/// The low `n` (1..=8) bytes of `v` in reverse order.
#[inline(always)]
fn bswap(v: u64, n: u32) -> u64 {
    v.swap_bytes() >> (64 - 8 * n.clamp(1, 8))
}

#[inline]
fn to_signed(v: u64, w: u32) -> i64 {
    if w >= 64 || w == 0 {
        v as i64
    } else {
        let s = 64 - w;
        ((v << s) as i64) >> s
    }
}

#[inline(always)]
pub(crate) fn binop(op: BinK, a: u64, b: u64, m: u64) -> u64 {
    match op {
        BinK::Add => a.wrapping_add(b) & m,
        BinK::Sub => a.wrapping_sub(b) & m,
        BinK::Mul => a.wrapping_mul(b) & m,
        BinK::Div => a.checked_div(b).unwrap_or(0) & m,
        BinK::Mod => a.checked_rem(b).unwrap_or(0) & m,
        BinK::AddSat => {
            let s = a.saturating_add(b);
            if s > m {
                m
            } else {
                s
            }
        }
        BinK::SubSat => a.saturating_sub(b),
        BinK::And => a & b,
        BinK::Or => a | b,
        BinK::Xor => a ^ b,
        BinK::Shl => {
            if b >= 64 {
                0
            } else {
                (a << b) & m
            }
        }
        BinK::Shr => {
            if b >= 64 {
                0
            } else {
                a >> b
            }
        }
        BinK::Sar(w) => {
            let s = to_signed(a, w);
            (s >> b.min(63)) as u64 & m
        }
        BinK::Eq => (a == b) as u64,
        BinK::Ne => (a != b) as u64,
        BinK::Lt => (a < b) as u64,
        BinK::Le => (a <= b) as u64,
        BinK::Gt => (a > b) as u64,
        BinK::Ge => (a >= b) as u64,
        BinK::SLt(w) => (to_signed(a, w) < to_signed(b, w)) as u64,
        BinK::SLe(w) => (to_signed(a, w) <= to_signed(b, w)) as u64,
        BinK::SGt(w) => (to_signed(a, w) > to_signed(b, w)) as u64,
        BinK::SGe(w) => (to_signed(a, w) >= to_signed(b, w)) as u64,
        BinK::LAnd => (a != 0 && b != 0) as u64,
        BinK::LOr => (a != 0 || b != 0) as u64,
    }
}

impl Ex {
    #[inline(always)]
    pub(crate) fn eval(&self, phv: &Phv, hb: &Hb) -> u64 {
        match self {
            Ex::Const(v) => *v,
            Ex::Slot(s) => phv[*s as usize & PHV_MASK],
            Ex::Field(f) => f.load(phv, hb),
            Ex::SlotConst(op, s, c, m) => binop(*op, phv[*s as usize & PHV_MASK], *c, *m),
            Ex::FieldConst(op, f, c, m) => binop(*op, f.load(phv, hb), *c, *m),
            Ex::SlotSlot(op, a, b, m) => binop(
                *op,
                phv[*a as usize & PHV_MASK],
                phv[*b as usize & PHV_MASK],
                *m,
            ),
            Ex::SlotSlice(s, lo, m) => (phv[*s as usize & PHV_MASK] >> lo) & m,
            Ex::SlotBswap(s, n) => bswap(phv[*s as usize & PHV_MASK], *n),
            _ => self.eval_slow(phv, hb),
        }
    }

    #[inline(never)]
    fn eval_slow(&self, phv: &Phv, hb: &Hb) -> u64 {
        match self {
            Ex::Const(v) => *v,
            Ex::Slot(s) => phv[*s as usize & PHV_MASK],
            Ex::Field(f) => f.load(phv, hb),
            Ex::SlotConst(op, s, c, m) => binop(*op, phv[*s as usize & PHV_MASK], *c, *m),
            Ex::FieldConst(op, f, c, m) => binop(*op, f.load(phv, hb), *c, *m),
            Ex::SlotSlot(op, a, b, m) => binop(
                *op,
                phv[*a as usize & PHV_MASK],
                phv[*b as usize & PHV_MASK],
                *m,
            ),
            Ex::Bin(op, a, b, m) => match op {
                BinK::LAnd => (a.eval(phv, hb) != 0 && b.eval(phv, hb) != 0) as u64,
                BinK::LOr => (a.eval(phv, hb) != 0 || b.eval(phv, hb) != 0) as u64,
                _ => binop(*op, a.eval(phv, hb), b.eval(phv, hb), *m),
            },
            Ex::Not(a) => (a.eval(phv, hb) == 0) as u64,
            Ex::BitNot(a, m) => !a.eval(phv, hb) & m,
            Ex::Slice(a, lo, m) => (a.eval(phv, hb) >> lo) & m,
            Ex::Concat(a, b, bw) => (a.eval(phv, hb) << bw) | b.eval(phv, hb),
            Ex::SExt(a, from, m) => to_signed(a.eval(phv, hb), *from) as u64 & m,
            Ex::Mask(a, m) => a.eval(phv, hb) & m,
            Ex::Cond(c, a, b) => {
                if c.eval(phv, hb) != 0 {
                    a.eval(phv, hb)
                } else {
                    b.eval(phv, hb)
                }
            }
            Ex::SlotSlice(s, lo, m) => (phv[*s as usize & PHV_MASK] >> lo) & m,
            Ex::SlotBswap(s, n) => bswap(phv[*s as usize & PHV_MASK], *n),
            Ex::Bswap(a, n) => bswap(a.eval(phv, hb), *n),
            Ex::Bool(a) => (a.eval(phv, hb) != 0) as u64,
        }
    }

    pub(crate) fn as_const(&self) -> Option<u64> {
        match self {
            Ex::Const(v) => Some(*v),
            _ => None,
        }
    }
}

/// Where a header field lives: an 8-byte big-endian window at byte
/// `phv[base] + off` of the packet buffer, the field's low bit at `lshift`, `m`
/// its mask. `base` is the header's base slot: the header's position in the
/// packet once extracted, or its scratch region otherwise. Slices of a field are
/// fields too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FieldLoc {
    pub base: Slot,
    pub off: u32,
    pub lshift: u32,
    pub m: u64,
}

impl FieldLoc {
    #[inline(always)]
    pub(crate) fn load(&self, phv: &Phv, hb: &Hb) -> u64 {
        let o = (phv[self.base as usize & PHV_MASK] as usize + self.off as usize) & HB_MASK;
        match hb.get(o..o + 8) {
            Some(w) => (u64::from_be_bytes(w.try_into().unwrap_or([0; 8])) >> self.lshift) & self.m,
            None => 0,
        }
    }

    #[inline(always)]
    pub(crate) fn store(&self, phv: &Phv, hb: &mut Hb, v: u64) {
        let o = (phv[self.base as usize & PHV_MASK] as usize + self.off as usize) & HB_MASK;
        if let Some(w) = hb.get_mut(o..o + 8) {
            let old = u64::from_be_bytes((&*w).try_into().unwrap_or([0; 8]));
            let new = (old & !(self.m << self.lshift)) | ((v & self.m) << self.lshift);
            w.copy_from_slice(&new.to_be_bytes());
        }
    }

    /// The sub-field `[lo + w - 1 : lo]` of this field.
    pub(crate) fn slice(&self, lo: u32, w: u32) -> FieldLoc {
        FieldLoc {
            base: self.base,
            off: self.off,
            lshift: self.lshift + lo,
            m: mask(w),
        }
    }
}

/// An assignable location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Dst {
    Slot(Slot),
    Field(FieldLoc),
}

impl Dst {
    #[inline(always)]
    fn store(&self, phv: &mut Phv, hb: &mut Hb, v: u64) {
        match self {
            Dst::Slot(s) => phv[*s as usize & PHV_MASK] = v,
            Dst::Field(f) => f.store(phv, hb, v),
        }
    }
    #[inline(always)]
    fn load(&self, phv: &Phv, hb: &Hb) -> u64 {
        match self {
            Dst::Slot(s) => phv[*s as usize & PHV_MASK],
            Dst::Field(f) => f.load(phv, hb),
        }
    }
}

/// A header instance. Its bytes live in the worker's packet buffer: in the packet
/// itself once extracted (no copy), or in its zeroed scratch region at
/// `scratch` otherwise; slot `base` holds the current position and slot `valid`
/// the validity bit.
#[derive(Clone, Debug)]
pub(crate) struct HeaderLayout {
    pub name: String,
    pub valid: Slot,
    pub base: Slot,
    pub scratch: u32,
    pub bytes: u32,
    pub nfields: u32,
}

/// A select keyset element.
#[derive(Clone, Debug)]
#[repr(u8)]
pub(crate) enum KeySet {
    /// value, mask (mask 0 = don't care)
    Mask(u64, u64),
    Range(u64, u64),
}

#[derive(Clone, Debug)]
pub(crate) enum Trans {
    Accept,
    Reject,
    Goto(u32),
    Select {
        keys: Vec<Ex>,
        /// (keysets, target); target `None` = accept, `Some(u32::MAX)` = reject
        cases: Vec<(Vec<KeySet>, Target)>,
    },
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Target {
    Accept,
    Reject,
    State(u32),
}

#[derive(Clone, Debug)]
pub(crate) struct PState {
    pub name: String,
    pub body: Vec<St>,
    pub trans: Trans,
}

#[derive(Clone, Debug)]
pub(crate) struct ActionDef {
    pub name: String,
    /// (slot, width) of each parameter
    pub params: Vec<(Slot, u32)>,
    /// (slot, mask) of each parameter
    pub param_masks: Vec<(Slot, u64)>,
    pub body: Vec<St>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchKind {
    Exact,
    Lpm,
    Ternary,
    Range,
    Optional,
}

#[derive(Clone, Debug)]
pub(crate) struct KeyDef {
    pub name: String,
    pub ex: Ex,
    pub width: u32,
    pub kind: MatchKind,
}

#[derive(Clone, Debug)]
pub(crate) struct TableDef {
    pub name: String,
    pub qualified: String,
    pub keys: Vec<KeyDef>,
    pub actions: Vec<u32>,
    pub default_action: (u32, Vec<u64>),
    pub const_default: bool,
    pub const_entries: bool,
    pub size: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CounterKind {
    Packets,
    Bytes,
    Both,
}

#[derive(Clone, Debug)]
pub(crate) struct RegisterDef {
    pub name: String,
    pub size: u32,
    pub width: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct CounterDef {
    pub name: String,
    pub size: u32,
    pub kind: CounterKind,
}

/// One item of a whole-value copy (header or struct assignment).
#[derive(Clone, Copy, Debug)]
#[repr(u8)]
pub(crate) enum CopyItem {
    Slot(Slot, Slot),
    /// header bytes: dst header base slot, src header base slot, length
    Bytes(Slot, Slot, u32),
}

/// One item of a csum16 plan.
#[derive(Clone, Debug)]
#[repr(u8)]
pub(crate) enum CsumItem {
    /// A value whose low bit sits `shift` (mod 16) bits before the end of the data.
    Val(Ex, u32),
    /// Header bytes `buf[phv[base] + off..][..len]` (`len` even) starting on a
    /// 16-bit boundary of the data.
    Bytes(Slot, u32, u32),
}

#[derive(Clone, Debug)]
pub(crate) enum St {
    Set(Dst, Ex),
    /// slot = (slot & !(mask << lo)) | ((e & mask) << lo)
    SetSlice(Slot, u32, u64, Ex),
    Copy(Vec<CopyItem>),
    If(Ex, Vec<St>, Vec<St>),
    /// switch on a slot value; (value, body); default body
    Switch(Slot, Vec<(u64, Vec<St>)>, Vec<St>),
    /// apply a table; store hit and the index of the action run
    Apply {
        table: u32,
        hit: Option<Slot>,
        action_run: Option<Slot>,
    },
    CallAction {
        action: u32,
        args: Vec<Ex>,
        /// (argument location, parameter slot) for out/inout parameters
        copy_out: Vec<(Dst, Slot)>,
    },
    MarkToDrop,
    RegRead {
        reg: u32,
        dst: Dst,
        idx: Ex,
    },
    RegWrite {
        reg: u32,
        idx: Ex,
        val: Ex,
        m: u64,
    },
    Count {
        counter: u32,
        idx: Ex,
    },
    Hash {
        dst: Dst,
        dst_mask: u64,
        algo: Algo,
        base: Ex,
        data: Vec<(Ex, u32)>,
        max: Ex,
    },
    Checksum {
        verify: bool,
        payload: bool,
        cond: Ex,
        data: Vec<(Ex, u32)>,
        /// csum16 fast path (`None` when not applicable)
        plan: Option<Vec<CsumItem>>,
        field: Dst,
        width: u32,
        algo: Algo,
    },
    Extract(u32),
    Emit(u32),
    Exit,
    Return,
}

/// Slots of `standard_metadata` the pipeline itself reads or writes.
#[derive(Clone, Debug, Default)]
pub(crate) struct StdSlots {
    pub ingress_port: Slot,
    pub egress_spec: Slot,
    pub egress_port: Slot,
    pub packet_length: Slot,
    pub mcast_grp: Slot,
    pub checksum_error: Slot,
    pub parser_error: Slot,
    pub ingress_global_timestamp: Slot,
    pub egress_global_timestamp: Slot,
}

/// Error codes (values of the `error` type).
pub(crate) const ERR_PACKET_TOO_SHORT: u64 = 1;
pub(crate) const ERR_NO_MATCH: u64 = 2;

/// The v1model drop port.
pub const DROP_PORT: u64 = 511;

#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    pub nslots: usize,
    pub slot_names: Vec<String>,
    pub headers: Vec<HeaderLayout>,
    /// size of the scratch area (header regions for headers not extracted) at
    /// the start of the packet buffer; the packet is copied after it
    pub scratch_size: usize,
    pub states: Vec<PState>,
    pub start: u32,
    pub verify: Vec<St>,
    pub ingress: Vec<St>,
    pub egress: Vec<St>,
    pub compute: Vec<St>,
    pub deparser: Vec<St>,
    pub actions: Vec<ActionDef>,
    pub tables: Vec<TableDef>,
    pub registers: Vec<RegisterDef>,
    pub counters: Vec<CounterDef>,
    pub std: StdSlots,
    /// whether the optimisation passes ran (then expressions are lowered to
    /// register ops)
    pub optimize: bool,
    /// slot values to set before each packet (constant-initialised locals)
    pub init: Vec<(Slot, u64)>,
    /// the PHV at the start of each packet (`nslots` values: zero, or `init`)
    pub phv0: Vec<u64>,
    /// the flat code actually executed (lowered from the trees above)
    pub code: Code,
}

/// Runtime register and counter storage, shared by all workers.
pub(crate) struct Stateful {
    pub registers: Vec<Vec<AtomicU64>>,
    /// per counter, per index: (packets, bytes)
    pub counters: Vec<Vec<(AtomicU64, AtomicU64)>>,
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
                let mut n = 0;
                let mut same = true;
                for &(h, valid) in hs {
                    if self.phv[valid as usize & PHV_MASK] != 0 {
                        same &= self.extracted.get(n) == Some(&h);
                        n += 1;
                    }
                }
                if !(same && n == self.extracted.len()) {
                    for &(h, valid) in hs {
                        if self.phv[valid as usize & PHV_MASK] != 0 {
                            self.emitted.push(h);
                        }
                    }
                }
                same && n == self.extracted.len()
            }
            None => {
                self.exec(code.deparser);
                self.extracted == self.emitted
            }
        };
        if same {
            // Same headers, same order: the modified packet buffer is the output.
            self.in_place = true;
        } else {
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
        Verdict::Forward(self.phv[std.egress_port as usize & PHV_MASK] as u32)
    }

    /// Runs flat code from `entry` until the block ends.
    #[inline]
    fn exec(&mut self, entry: u32) {
        // empty blocks (a lone `End`) cost nothing
        if matches!(self.prog.code.ops.get(entry as usize), Some(Op::End)) {
            return;
        }
        self.exec_code(entry);
    }

    fn exec_code(&mut self, entry: u32) {
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
                return;
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
                Op::Copy(items) => {
                    for it in items {
                        match *it {
                            CopyItem::Slot(d, s) => {
                                phv[d as usize & PHV_MASK] = phv[s as usize & PHV_MASK]
                            }
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
                    let (found, action, args) = match ts.lookup(&key[..def.keys.len()]) {
                        Some(e) => (true, e.action, &e.args[..]),
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
                        return;
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
                        return;
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
                        return;
                    }
                    sp -= 1;
                    pc = stack[sp] as usize;
                }
                Op::End => return,
                Op::MarkToDrop => {
                    let std = &prog.std;
                    phv[std.egress_spec as usize & PHV_MASK] = DROP_PORT;
                    phv[std.mcast_grp as usize & PHV_MASK] = 0;
                }
                Op::RegRead { reg, dst, idx } => {
                    let i = idx.eval(phv, hb) as usize;
                    let r = &self.state.registers[*reg as usize];
                    // Out of range: result unspecified; we return 0.
                    let v = r.get(i).map(|a| a.load(Ordering::Relaxed)).unwrap_or(0);
                    dst.store(phv, hb, v);
                }
                Op::RegWrite { reg, idx, val, m } => {
                    let i = idx.eval(phv, hb) as usize;
                    let v = val.eval(phv, hb) & m;
                    if let Some(a) = self.state.registers[*reg as usize].get(i) {
                        a.store(v, Ordering::Relaxed);
                    }
                }
                Op::Count { counter, idx } => {
                    let i = idx.eval(phv, hb) as usize;
                    if let Some((p, b)) = self.state.counters[*counter as usize].get(i) {
                        let kind = prog.counters[*counter as usize].kind;
                        if kind != CounterKind::Bytes {
                            p.fetch_add(1, Ordering::Relaxed);
                        }
                        if kind != CounterKind::Packets {
                            b.fetch_add(pkt.len() as u64, Ordering::Relaxed);
                        }
                    }
                }
                Op::Hash(_) => op_hash(op, phv, hb, self.scratch),
                Op::Checksum(_) => {
                    let pl = pkt.get(self.cursor..).unwrap_or(&[]);
                    op_checksum(op, prog, phv, hb, pl, self.scratch);
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

impl Compiled {
    /// A human-readable summary of the compiled form (for `--show` flags and logs).
    pub(crate) fn describe(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "slots: {}", self.nslots);
        for h in &self.headers {
            let _ = writeln!(
                s,
                "header {} ({} bytes, {} fields, scratch at {}, valid slot {})",
                h.name, h.bytes, h.nfields, h.scratch, h.valid
            );
        }
        for (i, st) in self.states.iter().enumerate() {
            let start = if i as u32 == self.start {
                " (start)"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "state {}{start}: {} statement(s)",
                st.name,
                st.body.len()
            );
        }
        for t in &self.tables {
            let keys: Vec<String> = t
                .keys
                .iter()
                .map(|k| format!("{}:{:?}/{}", k.name, k.kind, k.width))
                .collect();
            let _ = writeln!(
                s,
                "table {} keys [{}] size {}",
                t.qualified,
                keys.join(", "),
                t.size
            );
        }
        for r in &self.registers {
            let _ = writeln!(s, "register {} bit<{}>[{}]", r.name, r.width, r.size);
        }
        for c in &self.counters {
            let _ = writeln!(s, "counter {} {:?}[{}]", c.name, c.kind, c.size);
        }
        let c = &self.code;
        let _ = writeln!(
            s,
            "code: {} op(s); entries: parser {} verify {} ingress {} egress {} compute {} deparser {}",
            c.ops.len(),
            c.parser,
            c.verify,
            c.ingress,
            c.egress,
            c.compute,
            c.deparser
        );
        for (i, op) in c.ops.iter().enumerate() {
            let _ = writeln!(s, "  {i:4}: {}", op.show());
        }
        let _ = writeln!(
            s,
            "blocks: verify {} / ingress {} / egress {} / compute {} / deparser {} statement(s)",
            self.verify.len(),
            self.ingress.len(),
            self.egress.len(),
            self.compute.len(),
            self.deparser.len()
        );
        s
    }
}
