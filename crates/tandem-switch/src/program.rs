//! The lowered program: what `check` produces from a P4 program and every later stage reads —
//! slots (the packet header vector), header layouts, parser states, actions, tables,
//! registers, the statement trees of each control, and the flat [`Code`] the interpreter
//! runs. Data only (with the small accessors that define what a field location or an
//! expression means); no stage of the pipeline lives here.
//!
//! Everything is resolved ahead of time: every scalar (header field, metadata field, local
//! variable, action parameter) is a *slot* in one flat `u64` vector (the PHV); header validity
//! is a slot too. Expressions carry precomputed masks, header layouts carry precomputed byte
//! offsets and shifts, tables and actions are indices.

use crate::hash::Algo;

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
pub(crate) fn ix(s: Slot) -> usize {
    s as usize & PHV_MASK
}

/// The low `n` (1..=8) bytes of `v` in reverse order.
#[inline(always)]
pub(crate) fn bswap(v: u64, n: u32) -> u64 {
    v.swap_bytes() >> (64 - 8 * n.clamp(1, 8))
}

#[inline]
pub(crate) fn to_signed(v: u64, w: u32) -> i64 {
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
    pub(crate) fn eval_slow(&self, phv: &Phv, hb: &Hb) -> u64 {
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
    pub(crate) fn store(&self, phv: &mut Phv, hb: &mut Hb, v: u64) {
        match self {
            Dst::Slot(s) => phv[*s as usize & PHV_MASK] = v,
            Dst::Field(f) => f.store(phv, hb, v),
        }
    }
    #[inline(always)]
    pub(crate) fn load(&self, phv: &Phv, hb: &Hb) -> u64 {
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
    /// The direct counter of the table's entries (`counters = <direct_counter>`), by name.
    pub direct_counter: Option<String>,
    /// The program lets the table's entries age (`support_timeout` / `idle_timeout`).
    pub ageing: bool,
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

/// A `meter(size, MeterType.bytes|packets)` instance.
#[derive(Clone, Debug)]
pub(crate) struct MeterDef {
    pub name: String,
    pub size: u32,
    pub bytes: bool,
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
    /// `meter.execute_meter(idx, dst)`: the colour into `dst`
    Meter {
        meter: u32,
        idx: Ex,
        dst: Dst,
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

/// The hidden packet counter where `assert`/`assume` failures are counted, one cell per call
/// site (not a name a P4 program can declare).
pub(crate) const ASSERT_COUNTER: &str = "$asserts";

/// The v1model drop port.
pub const DROP_PORT: u64 = 511;

/// The TNA intrinsic-metadata slots of one gress pass (`check::tna`): the pass runner
/// writes the inputs before the parser and reads the outputs after the deparser.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IntrSlots {
    /// `ig_intr_md.ingress_port` (ingress) or `eg_intr_md.egress_port` (egress)
    pub port: Slot,
    /// `ig_intr_md.ingress_mac_tstamp` (ingress; 48-bit ns)
    pub mac_tstamp: Option<Slot>,
    /// `ig_prsr_md.global_tstamp` / `eg_prsr_md.global_tstamp` (48-bit ns)
    pub global_tstamp: Slot,
    /// `eg_intr_md.pkt_length` (egress)
    pub pkt_length: Option<Slot>,
    /// `ig_prsr_md.parser_err` / `eg_prsr_md.parser_err`
    pub parser_err: Slot,
    /// `ig_dprsr_md.drop_ctl` / `eg_dprsr_md.drop_ctl`
    pub drop_ctl: Slot,
    /// `ig_tm_md.ucast_egress_port` (ingress)
    pub ucast_egress_port: Option<Slot>,
    /// `ig_tm_md.bypass_egress` (ingress)
    pub bypass_egress: Option<Slot>,
}

/// One gress of a TNA pipe: its parser (start state in [`Compiled::states`]), control and
/// deparser, run as one pass over the bytes the previous pass's deparser produced.
#[derive(Clone, Debug)]
pub(crate) struct PassDef {
    /// `<pipe>.ingress` / `<pipe>.egress`
    pub name: String,
    pub start: u32,
    pub control: Vec<St>,
    pub deparser: Vec<St>,
    pub intr: IntrSlots,
}

/// A TNA `Pipeline` of the `Switch` package: pipe `i` is ports `i*128 .. i*128+127`.
#[derive(Clone, Debug)]
pub(crate) struct PipeDef {
    pub name: String,
    /// indices into [`Compiled::passes`]
    pub ingress: usize,
    pub egress: usize,
}

/// A pass's entry points into [`Code::ops`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PassCode {
    pub parser: u32,
    pub control: u32,
    pub deparser: u32,
}

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
    pub meters: Vec<MeterDef>,
    /// `assert`/`assume` call sites, by source line: site `i` counts its failures in cell `i`
    /// of the counter [`ASSERT_COUNTER`].
    pub asserts: Vec<u32>,
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
    /// TNA programs: the gress passes (empty for v1model, whose blocks are above)
    pub passes: Vec<PassDef>,
    /// TNA programs: the `Switch` package's pipes, in port order
    pub pipes: Vec<PipeDef>,
}

#[derive(Clone, Debug)]
#[repr(u8)]
pub(crate) enum Op {
    Set(Dst, Box<Ex>),
    /// `Set` to a slot
    SetSlot(Slot, Box<Ex>),
    /// specialised `Set`s (the most frequent shapes)
    SetSlotSlot(Slot, Slot),
    SetSlotConst(Slot, u64),
    SetSlotField(Slot, FieldLoc),
    SetFieldSlot(FieldLoc, Slot),
    SetFieldConst(FieldLoc, u64),
    SetSlice(Slot, u32, u64, Box<Ex>),
    Copy(Vec<CopyItem>),
    // Register ops: expressions flattened to three-address code over slots
    // (temporaries are slots past the program's). `d` is the destination,
    // `a`/`b` slots, `c` a constant, `m` the result mask.
    Add(Slot, Slot, Slot, u64),
    AddC(Slot, Slot, u64, u64),
    Sub(Slot, Slot, Slot, u64),
    And(Slot, Slot, Slot),
    AndC(Slot, Slot, u64),
    Or(Slot, Slot, Slot),
    OrC(Slot, Slot, u64),
    Xor(Slot, Slot, Slot),
    XorC(Slot, Slot, u64),
    /// `a >> c` (c < 64)
    ShrC(Slot, Slot, u32),
    /// `(a << c) & m` (c < 64)
    ShlC(Slot, Slot, u32, u64),
    EqC(Slot, Slot, u64),
    NeC(Slot, Slot, u64),
    /// any other binary operation
    Bin(BinK, Slot, Slot, Slot, u64),
    BinC(BinK, Slot, Slot, u64, u64),
    /// `(a >> lo) & m`
    SliceR(Slot, Slot, u32, u64),
    /// `(a << bw) | b`
    ConcatR(Slot, Slot, Slot, u32),
    /// sign-extend from width `from`, then mask
    SExtR(Slot, Slot, u32, u64),
    /// `!a & m`
    BitNotR(Slot, Slot, u64),
    /// the low `n` bytes of `a` reversed
    BswapR(Slot, Slot, u32),
    /// `d = (a + ((x >> sh) & mk)) & m` (an `Add` fused with the shift or
    /// mask that made its operand)
    AddSM(Slot, Slot, Slot, u32, u64, u64),
    /// `d = (((x >> sh) & mk) + ((y >> sh2) & mk2)) & m`
    AddSM2(Slot, Slot, u32, u64, Slot, u32, u64, u64),
    /// `d = ((x >> sh) & mk) ^ c`
    XorSMC(Slot, Slot, u32, u64, u64),
    /// a field's low `n` bytes reversed, into a slot
    LoadBswap(Slot, FieldLoc, u32),
    /// a slot's low `n` bytes reversed, into a field
    StoreBswap(FieldLoc, Slot, u32),
    /// `d = if c != 0 { a } else { b }`
    CondR(Slot, Slot, Slot, Slot),
    /// jump if the slot is zero / non-zero / equal to / not equal to a constant
    Jz(Slot, u32),
    Jnz(Slot, u32),
    JEqC(Slot, u64, u32),
    JNeC(Slot, u64, u32),
    JumpIfZero(Box<Ex>, u32),
    Jump(u32),
    SwitchJump(Slot, Vec<(u64, u32)>, u32),
    /// look the table up, write the action's parameters, call it
    Apply {
        table: u32,
        hit: Option<Slot>,
        action_run: Option<Slot>,
    },
    /// evaluate arguments into the action's parameters, call it
    CallAction {
        action: u32,
        args: Vec<Ex>,
    },
    CopyOut(Vec<(Dst, Slot)>),
    Ret,
    /// end of the current block (also `exit`, parser accept/reject)
    End,
    MarkToDrop,
    RegRead {
        reg: u32,
        dst: Dst,
        idx: Box<Ex>,
    },
    RegWrite {
        reg: u32,
        idx: Box<Ex>,
        val: Box<Ex>,
        m: u64,
    },
    Count {
        counter: u32,
        idx: Box<Ex>,
    },
    Meter {
        meter: u32,
        idx: Box<Ex>,
        dst: Dst,
    },
    /// `St::Hash`, boxed (rare; keeps ops small)
    Hash(Box<St>),
    /// `St::Checksum`, boxed
    Checksum(Box<St>),
    /// on a too-short packet: set `PacketTooShort` and end the parser
    Extract(u32),
    Emit(u32),
    /// parser transition to a state's code (counted, so looping parsers stop)
    Goto(u32),
    /// parser select; targets are code positions; no match sets `NoMatch`, ends
    Select {
        keys: Box<[Ex]>,
        cases: Box<[(Vec<KeySet>, u32)]>,
    },
    /// single-key select (the common case), cases inline
    Select1 {
        key: Box<Ex>,
        cases: Box<[(KeySet, u32)]>,
    },
}

// Ops stay small (rare, large operands are boxed) so the code of a program
// stays in the first-level cache.
const _: () = assert!(std::mem::size_of::<Op>() <= 48);

impl Op {
    /// One-line rendering for `--show-compiled` listings.
    pub(crate) fn show(&self) -> String {
        let d = format!("{self:?}");
        let mut out: String = d.chars().take(4000).collect();
        if d.len() > 4000 {
            out.push_str(" ...");
        }
        out
    }
}

/// Entry points into [`Code::ops`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Code {
    pub ops: Vec<Op>,
    pub action_entry: Vec<u32>,
    pub parser: u32,
    pub verify: u32,
    pub ingress: u32,
    pub egress: u32,
    pub compute: u32,
    pub deparser: u32,
    /// where the parser goes when it ends (accept, reject or error): the shared
    /// `End`, or the ingress block when verify is empty (then parser and
    /// ingress run as one block)
    pub parser_end: u32,
    /// the compute block when it is only checksum ops: their positions (run
    /// without entering the interpreter loop)
    pub compute_checksums: Option<Vec<u32>>,
    /// the deparser when it is only `emit`s: the headers, in order
    pub deparser_emits: Option<Vec<(u32, Slot)>>,
    /// the in-place test for `deparser_emits`, precomputed (`deparse`), when it applies
    pub in_place: Option<crate::deparse::InPlace>,
    /// TNA: entry points of each of [`Compiled::passes`]
    pub passes: Vec<PassCode>,
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
        for p in &self.pipes {
            let pass = |i: usize| self.passes.get(i).map_or("?", |p| p.name.as_str());
            let _ = writeln!(
                s,
                "pipe {}: passes {} / {}",
                p.name,
                pass(p.ingress),
                pass(p.egress)
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
        for m in &self.meters {
            let unit = if m.bytes { "bytes" } else { "packets" };
            let _ = writeln!(s, "meter {} {unit}[{}]", m.name, m.size);
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
