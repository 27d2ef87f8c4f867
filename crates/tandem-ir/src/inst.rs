//! Instructions: what each statement of a function does.

use crate::{Block, FileId, Header, HeaderField, Meta, StateId, Value};
use std::fmt;

/// Binary integer operations. Both operands and the result have the same type.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum BinOp {
    /// Wrapping addition.
    Add,
    /// Wrapping subtraction.
    Sub,
    /// Wrapping multiplication (low bits of the product).
    Mul,
    /// Unsigned division; `x udiv 0 = 0`.
    Udiv,
    /// Signed division truncating toward zero; `x sdiv 0 = 0`, `MIN sdiv -1 = MIN`.
    Sdiv,
    /// Unsigned remainder; `x urem 0 = x`.
    Urem,
    /// Signed remainder (sign of the dividend); `x srem 0 = x`, `MIN srem -1 = 0`.
    Srem,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Shift left; amounts `>= width` give 0.
    Shl,
    /// Logical shift right; amounts `>= width` give 0.
    Lshr,
    /// Arithmetic shift right; amounts `>= width` give all sign bits.
    Ashr,
}

impl BinOp {
    /// All binary operations.
    pub const ALL: [BinOp; 13] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Udiv,
        BinOp::Sdiv,
        BinOp::Urem,
        BinOp::Srem,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::Lshr,
        BinOp::Ashr,
    ];
    /// The text-form opcode.
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Udiv => "udiv",
            BinOp::Sdiv => "sdiv",
            BinOp::Urem => "urem",
            BinOp::Srem => "srem",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Shl => "shl",
            BinOp::Lshr => "lshr",
            BinOp::Ashr => "ashr",
        }
    }
    /// Looks an opcode up by name.
    pub fn from_name(s: &str) -> Option<BinOp> {
        BinOp::ALL.into_iter().find(|o| o.name() == s)
    }
}

/// Integer comparison predicates (LLVM's `icmp`); the result is `i1`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum IntCC {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Unsigned less than.
    Ult,
    /// Unsigned less or equal.
    Ule,
    /// Unsigned greater than.
    Ugt,
    /// Unsigned greater or equal.
    Uge,
    /// Signed less than.
    Slt,
    /// Signed less or equal.
    Sle,
    /// Signed greater than.
    Sgt,
    /// Signed greater or equal.
    Sge,
}

impl IntCC {
    /// All predicates.
    pub const ALL: [IntCC; 10] = [
        IntCC::Eq,
        IntCC::Ne,
        IntCC::Ult,
        IntCC::Ule,
        IntCC::Ugt,
        IntCC::Uge,
        IntCC::Slt,
        IntCC::Sle,
        IntCC::Sgt,
        IntCC::Sge,
    ];
    /// The text-form name.
    pub fn name(self) -> &'static str {
        match self {
            IntCC::Eq => "eq",
            IntCC::Ne => "ne",
            IntCC::Ult => "ult",
            IntCC::Ule => "ule",
            IntCC::Ugt => "ugt",
            IntCC::Uge => "uge",
            IntCC::Slt => "slt",
            IntCC::Sle => "sle",
            IntCC::Sgt => "sgt",
            IntCC::Sge => "sge",
        }
    }
    /// Looks a predicate up by name.
    pub fn from_name(s: &str) -> Option<IntCC> {
        IntCC::ALL.into_iter().find(|o| o.name() == s)
    }
}

/// The hash functions the NF API offers (`tandem::crc16/crc32/identity`), with exactly the
/// semantics of v1model's `hash` extern on BMv2 (`HashAlgorithm.crc16/crc32/identity`,
/// `behavioral-model/src/bm_sim/calculations.cpp`) over the byte string made of each operand's
/// value, big-endian, at its type's width (operands are whole bytes).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum HashAlgo {
    /// CRC-16/ARC: polynomial 0x8005, reflected input and output, init 0, no final xor
    /// (`"123456789"` → 0xBB3D). Result `i16`.
    Crc16,
    /// CRC-32 (IEEE 802.3): polynomial 0x04C11DB7, reflected, init and final xor 0xFFFFFFFF
    /// (`"123456789"` → 0xCBF43926). Result `i32`.
    Crc32,
    /// The first (at most) 8 bytes as a big-endian number. Result `i64`.
    Identity,
}

/// CRC-32 (reflected 0xEDB88320) of each byte value: one table step per byte.
const CRC32_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

impl HashAlgo {
    /// Every algorithm.
    pub const ALL: &'static [HashAlgo] = &[HashAlgo::Crc16, HashAlgo::Crc32, HashAlgo::Identity];

    /// The text-form name (`crc16`, `crc32`, `identity`), also v1model's `HashAlgorithm`
    /// member.
    pub fn name(self) -> &'static str {
        match self {
            HashAlgo::Crc16 => "crc16",
            HashAlgo::Crc32 => "crc32",
            HashAlgo::Identity => "identity",
        }
    }

    /// Parses [`HashAlgo::name`].
    pub fn from_name(s: &str) -> Option<HashAlgo> {
        HashAlgo::ALL.iter().copied().find(|a| a.name() == s)
    }

    /// The result type.
    pub fn result_type(self) -> crate::Type {
        match self {
            HashAlgo::Crc16 => crate::Type::I16,
            HashAlgo::Crc32 => crate::Type::I32,
            HashAlgo::Identity => crate::Type::I64,
        }
    }

    /// The hash of `bytes`.
    pub fn compute(self, bytes: &[u8]) -> u64 {
        match self {
            HashAlgo::Crc16 => {
                let mut c: u16 = 0;
                for &b in bytes {
                    c ^= u16::from(b);
                    for _ in 0..8 {
                        c = if c & 1 != 0 {
                            (c >> 1) ^ 0xA001
                        } else {
                            c >> 1
                        };
                    }
                }
                u64::from(c)
            }
            HashAlgo::Crc32 => crc32_iter(bytes.iter().copied()),
            HashAlgo::Identity => bytes
                .iter()
                .take(8)
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
        }
    }

    /// The hash of integer operands `(value, bits)`, each serialised big-endian at its width
    /// (a multiple of 8).
    pub fn compute_fields(self, fields: &[(u64, u32)]) -> u64 {
        let mut bytes = Vec::with_capacity(fields.len() * 8);
        for &(v, bits) in fields {
            for i in (0..bits / 8).rev() {
                bytes.push((v >> (8 * i)) as u8);
            }
        }
        self.compute(&bytes)
    }
}

/// [`HashAlgo::Crc32`] over the bytes `bytes` yields, without collecting them (e.g. a key's
/// bytes rotated or reversed, as two chained slices).
#[inline]
pub fn crc32_iter(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut c: u32 = 0xFFFF_FFFF;
    for b in bytes {
        c = CRC32_TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8);
    }
    u64::from(c ^ 0xFFFF_FFFF)
}

impl fmt::Display for HashAlgo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Width-changing casts; the target type is the result's type.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum CastOp {
    /// Zero extension to a strictly wider type.
    Zext,
    /// Sign extension to a strictly wider type.
    Sext,
    /// Truncation to a strictly narrower type (keeps the low bits).
    Trunc,
}

impl CastOp {
    /// All casts.
    pub const ALL: [CastOp; 3] = [CastOp::Zext, CastOp::Sext, CastOp::Trunc];
    /// The text-form opcode.
    pub fn name(self) -> &'static str {
        match self {
            CastOp::Zext => "zext",
            CastOp::Sext => "sext",
            CastOp::Trunc => "trunc",
        }
    }
    /// Looks an opcode up by name.
    pub fn from_name(s: &str) -> Option<CastOp> {
        CastOp::ALL.into_iter().find(|o| o.name() == s)
    }
}

/// Something an `opaque` call may read or write, for dependency analysis.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    /// The packet payload (bytes after the parsed headers). Text: `payload`.
    Payload,
    /// One header field. Text: the field name, e.g. `ipv4.check`.
    Field(HeaderField),
    /// A state object. Text: `state NAME`.
    State(StateId),
    /// Which headers are present (`hdr.valid` reads it, `hdr.push`/`hdr.pop` change it).
    /// Text: `layout`.
    Layout,
    /// The packet's fate (send/drop). Text: `action`.
    Action,
    /// Anything at all (unknown code). Text: `all`.
    All,
}

/// A branch target with the arguments passed to the target block's parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BlockCall {
    /// The target block.
    pub block: Block,
    /// One argument per block parameter.
    pub args: Vec<Value>,
}

impl BlockCall {
    /// A call of `block` with `args`.
    pub fn new(block: Block, args: Vec<Value>) -> BlockCall {
        BlockCall { block, args }
    }
}

/// A source position (from the C++ debug info) attached to an instruction: where the code is
/// (for code inlined from the NF API, a line of `tandem/state.hh`), and, for such code, the
/// line of the NF's own source that called into it (`site`) — the line reports show.
/// Text form: `at f2:66:34` or `at f2:66:34 from f0:35:35`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceLoc {
    /// File, an index into [`crate::Module::files`].
    pub file: FileId,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub col: u32,
    /// The NF's own line that led here, when the position is in a library header.
    pub site: Option<SourcePos>,
}

/// A file, line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourcePos {
    /// File, an index into [`crate::Module::files`].
    pub file: FileId,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub col: u32,
}

impl SourceLoc {
    /// The position in the NF's own source: `site` when there is one, else the position itself.
    pub fn user(&self) -> SourcePos {
        self.site.unwrap_or(SourcePos {
            file: self.file,
            line: self.line,
            col: self.col,
        })
    }
}

/// The operation of an instruction, with its operands. Result values and their types are kept
/// by the [`crate::Function`] (see [`crate::Function::inst_results`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstKind {
    /// `vR:iN = const IMM` — the constant `IMM` (`< 2^N`).
    Const {
        /// The value, zero-extended.
        imm: u64,
    },
    /// `vR:iN = OP a, b`.
    Binary {
        /// The operation.
        op: BinOp,
        /// The operands.
        args: [Value; 2],
    },
    /// `vR:i1 = icmp PRED a, b`.
    Icmp {
        /// The predicate.
        pred: IntCC,
        /// The operands.
        args: [Value; 2],
    },
    /// `vR:iM = zext|sext|trunc a`.
    Cast {
        /// The cast.
        op: CastOp,
        /// The operand.
        arg: Value,
    },
    /// `vR:iN = select c, a, b` — `a` if `c` is 1, else `b`.
    Select {
        /// The `i1` condition.
        cond: Value,
        /// Value when true.
        if_true: Value,
        /// Value when false.
        if_false: Value,
    },
    /// `vR:iN = bswap a` — reverse the bytes of `a` (`N` a multiple of 8; LLVM has multiples of 16, and declared headers have 3-, 5- and 7-byte fields).
    Bswap {
        /// The operand.
        arg: Value,
    },
    /// `vR:iN = hash ALGO(args...)` — the hash of the operands' big-endian bytes (each operand
    /// a whole number of bytes); `i16` for `crc16`, `i32` for `crc32`, `i64` for `identity`.
    Hash {
        /// The algorithm.
        algo: HashAlgo,
        /// The operands, in order.
        args: Vec<Value>,
    },
    /// `vR:iN = hdr.read FIELD` — the big-endian value of the field's wire bytes.
    HdrRead {
        /// The field.
        field: HeaderField,
    },
    /// `hdr.write FIELD, v` — store `v` into the field's wire bytes, big-endian.
    HdrWrite {
        /// The field.
        field: HeaderField,
        /// The new value.
        value: Value,
    },
    /// `vR:i1 = hdr.valid HEADER` — is the header present in this packet.
    HdrValid {
        /// The header.
        header: Header,
    },
    /// `hdr.push HEADER` — make the header present, all fields 0, at its place in the
    /// deparse order ([`crate::deparse_order`]); nothing when it is present already.
    HdrPush {
        /// The header.
        header: Header,
    },
    /// `hdr.pop HEADER` — make the header absent (its bytes leave the frame); nothing when it
    /// is absent.
    HdrPop {
        /// The header.
        header: Header,
    },
    /// `vR:T = meta.read ITEM`.
    MetaRead {
        /// The metadata item.
        meta: Meta,
    },
    /// `vH:i1, vF...: = map.find MAP(key...)` — hit flag, then the value fields (0 on miss).
    MapFind {
        /// A hashmap or expiring map.
        state: StateId,
        /// One value per key field.
        key: Vec<Value>,
    },
    /// `vOk:i1 = map.insert MAP(key...) -> (value...)` — insert or overwrite; 0 when full.
    MapInsert {
        /// A hashmap or expiring map.
        state: StateId,
        /// One value per key field.
        key: Vec<Value>,
        /// One value per value field.
        value: Vec<Value>,
    },
    /// `map.erase MAP(key...)` — remove the entry if present.
    MapErase {
        /// A hashmap or expiring map.
        state: StateId,
        /// One value per key field.
        key: Vec<Value>,
    },
    /// `vF...: = vec.get VEC[index]` — the element fields.
    VecGet {
        /// A vector.
        state: StateId,
        /// The element index (any width, unsigned).
        index: Value,
    },
    /// `vec.set VEC[index](fields...)`.
    VecSet {
        /// A vector.
        state: StateId,
        /// The element index (any width, unsigned).
        index: Value,
        /// One value per element field.
        value: Vec<Value>,
    },
    /// `vC:i8 = meter.execute M[index]` — execute meter `index` of meter array `M` for this
    /// packet (its arrival time; its frame length for a `bytes` meter, 1 for `packets`);
    /// the colour: 0 green, 1 yellow, 2 red ([`crate::meter`]). An index `>=` the array's
    /// length gives 0 and changes nothing.
    MeterExecute {
        /// A meter array.
        state: StateId,
        /// The meter's index (any width, unsigned).
        index: Value,
    },
    /// `vR:iN = scalar.load S`.
    ScalarLoad {
        /// A scalar.
        state: StateId,
    },
    /// `scalar.store S, v`.
    ScalarStore {
        /// A scalar.
        state: StateId,
        /// The new value.
        value: Value,
    },
    /// `send p` — the packet's fate becomes "send on port `p`" (`p: i16`).
    Send {
        /// The output port.
        port: Value,
    },
    /// `drop` — the packet's fate becomes "drop".
    Drop,
    /// `vR...: = opaque "NAME"(args...) reads [..] writes [..]` — code the lifter could not
    /// understand; runs only on the server.
    Opaque {
        /// The callee name.
        name: String,
        /// Arguments.
        args: Vec<Value>,
        /// What it may read.
        reads: Vec<Effect>,
        /// What it may write.
        writes: Vec<Effect>,
    },
    /// `br blockN(args...)` — terminator.
    Jump {
        /// The target.
        dest: BlockCall,
    },
    /// `brif c, blockT(args...), blockF(args...)` — terminator.
    Brif {
        /// The `i1` condition.
        cond: Value,
        /// Target when `cond` is 1.
        then_dest: BlockCall,
        /// Target when `cond` is 0.
        else_dest: BlockCall,
    },
    /// `switch v, blockD(..), [K: blockN(..), ...]` — terminator.
    Switch {
        /// The scrutinee.
        arg: Value,
        /// Target when no case matches.
        default: BlockCall,
        /// `(constant, target)` pairs; constants distinct and fitting `arg`'s type.
        cases: Vec<(u64, BlockCall)>,
    },
    /// `return` — terminator; ends the function.
    Return,
}

impl InstKind {
    /// True for `br`, `brif`, `switch` and `return`.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstKind::Jump { .. }
                | InstKind::Brif { .. }
                | InstKind::Switch { .. }
                | InstKind::Return
        )
    }

    /// The state object this instruction accesses, if any.
    pub fn state(&self) -> Option<StateId> {
        match self {
            InstKind::MapFind { state, .. }
            | InstKind::MapInsert { state, .. }
            | InstKind::MapErase { state, .. }
            | InstKind::VecGet { state, .. }
            | InstKind::VecSet { state, .. }
            | InstKind::MeterExecute { state, .. }
            | InstKind::ScalarLoad { state }
            | InstKind::ScalarStore { state, .. } => Some(*state),
            _ => None,
        }
    }

    /// The branch targets of a terminator (empty for other instructions), in text order.
    pub fn successors(&self) -> Vec<&BlockCall> {
        match self {
            InstKind::Jump { dest } => vec![dest],
            InstKind::Brif {
                then_dest,
                else_dest,
                ..
            } => vec![then_dest, else_dest],
            InstKind::Switch { default, cases, .. } => {
                let mut v = vec![default];
                v.extend(cases.iter().map(|(_, c)| c));
                v
            }
            _ => Vec::new(),
        }
    }

    /// Every value this instruction uses, in text order (branch arguments included).
    pub fn args(&self) -> Vec<Value> {
        let mut out = Vec::new();
        self.visit_args(|v| out.push(v));
        out
    }

    /// Calls `f` on every value this instruction uses, in text order.
    pub fn visit_args(&self, mut f: impl FnMut(Value)) {
        let mut copy = self.clone();
        copy.map_args(|v| {
            f(v);
            v
        });
    }

    /// Replaces every used value `v` by `f(v)`, in text order (for passes that rename values).
    pub fn map_args(&mut self, mut f: impl FnMut(Value) -> Value) {
        fn call(c: &mut BlockCall, f: &mut impl FnMut(Value) -> Value) {
            for a in &mut c.args {
                *a = f(*a);
            }
        }
        match self {
            InstKind::Const { .. }
            | InstKind::HdrRead { .. }
            | InstKind::HdrValid { .. }
            | InstKind::HdrPush { .. }
            | InstKind::HdrPop { .. }
            | InstKind::MetaRead { .. }
            | InstKind::ScalarLoad { .. }
            | InstKind::Drop
            | InstKind::Return => {}
            InstKind::Binary { args, .. } | InstKind::Icmp { args, .. } => {
                args[0] = f(args[0]);
                args[1] = f(args[1]);
            }
            InstKind::Cast { arg, .. } | InstKind::Bswap { arg } => *arg = f(*arg),
            InstKind::Select {
                cond,
                if_true,
                if_false,
            } => {
                *cond = f(*cond);
                *if_true = f(*if_true);
                *if_false = f(*if_false);
            }
            InstKind::HdrWrite { value, .. } | InstKind::ScalarStore { value, .. } => {
                *value = f(*value)
            }
            InstKind::MapFind { key, .. } | InstKind::MapErase { key, .. } => {
                key.iter_mut().for_each(|k| *k = f(*k))
            }
            InstKind::MapInsert { key, value, .. } => {
                key.iter_mut().for_each(|k| *k = f(*k));
                value.iter_mut().for_each(|k| *k = f(*k));
            }
            InstKind::VecGet { index, .. } | InstKind::MeterExecute { index, .. } => {
                *index = f(*index)
            }
            InstKind::VecSet { index, value, .. } => {
                *index = f(*index);
                value.iter_mut().for_each(|k| *k = f(*k));
            }
            InstKind::Send { port } => *port = f(*port),
            InstKind::Opaque { args, .. } | InstKind::Hash { args, .. } => {
                args.iter_mut().for_each(|k| *k = f(*k))
            }
            InstKind::Jump { dest } => call(dest, &mut f),
            InstKind::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                *cond = f(*cond);
                call(then_dest, &mut f);
                call(else_dest, &mut f);
            }
            InstKind::Switch {
                arg,
                default,
                cases,
            } => {
                *arg = f(*arg);
                call(default, &mut f);
                for (_, c) in cases {
                    call(c, &mut f);
                }
            }
        }
    }
}

impl fmt::Display for BinOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
impl fmt::Display for IntCC {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
impl fmt::Display for CastOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
