//! IR building helpers of the lifter: constants, casts, byte swaps, and loads and stores of
//! header fields, locals, pointers and scalar state (a store covers exactly the bytes it writes).

use super::*;

impl<'a> Lifter<'a> {
    pub(super) fn ins(&mut self, kind: InstKind, tys: &[Type]) -> Vec<Value> {
        let (cur, loc) = (self.cur, self.loc);
        let i = self.out_mut().append_inst(cur, kind, tys, loc);
        self.out().inst_results(i).to_vec()
    }

    pub(super) fn ins1(&mut self, kind: InstKind, ty: Type) -> Value {
        self.ins(kind, &[ty])[0]
    }

    pub(super) fn ty(&self, v: Value) -> Type {
        self.out().value_type(v).unwrap_or(Type::I1)
    }

    pub(super) fn def_kind(&self, v: Value) -> Option<&InstKind> {
        match self.out().values.get(v)?.def {
            ValueDef::Result(i, _) => Some(&self.out().insts[i].kind),
            _ => None,
        }
    }

    pub(super) fn iconst(&mut self, ty: Type, imm: u64) -> Value {
        self.ins1(InstKind::Const { imm: ty.wrap(imm) }, ty)
    }

    pub(super) fn const_value(&self, v: Value) -> Option<u64> {
        match self.def_kind(v) {
            Some(InstKind::Const { imm }) => Some(*imm),
            _ => None,
        }
    }

    pub(super) fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.ins1(InstKind::Binary { op, args: [a, b] }, ty)
    }

    pub(super) fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        self.ins1(
            InstKind::Icmp {
                pred: cc,
                args: [a, b],
            },
            Type::I1,
        )
    }

    /// The type of a scalar state (`i64` if it is not one).
    pub(super) fn state_scalar_type(&self, state: tandem_ir::StateId) -> Type {
        match self.module.states.get(state).map(|s| &s.kind) {
            Some(StateKind::Scalar { ty }) => *ty,
            _ => Type::I64,
        }
    }

    /// `idx` as a 32-bit value when its value provably fits 32 bits (a constant, a narrower
    /// integer, a zero extension of one, a mask, remainder or shift that bounds it), else
    /// `None`. Vector indices are `size_t`; this keeps bounds checks of the usual indices
    /// (ports, masked hashes) within 32-bit switch ALUs. The result is computed in 32 bits
    /// (`(zext h) & 4095` becomes `h & 4095`), once per value and block.
    pub(super) fn narrow32(&mut self, idx: Value) -> Option<Value> {
        if let Some(&v) = self.narrowed.get(&(idx, self.cur)) {
            return Some(v);
        }
        if !self.fits32(idx) {
            return None;
        }
        let v = self.low32(idx, 4);
        self.narrowed.insert((idx, self.cur), v);
        Some(v)
    }

    /// A comparison of zero-extended values done at the width they were extended from
    /// (`*hop >= hops.size()`: clang compares `zext i32` with the `size_t` size in 64 bits,
    /// wider than a 32-bit switch ALU). Both operands are zero extensions (or one is a
    /// constant that fits the narrower width); signed predicates become unsigned ones, which
    /// agree on values that were non-negative when extended. `None` when nothing narrows.
    ///
    /// ```text
    /// before: v8:i64 = zext v5:i32   v10:i64 = zext v9:i32   v11:i1 = icmp ugt v10, v8
    /// after:  v11:i1 = icmp ugt v9, v5
    /// ```
    pub(super) fn narrow_compare(
        &mut self,
        cc: IntCC,
        a: Value,
        b: Value,
    ) -> Option<(IntCC, Value, Value)> {
        let source = |l: &Self, v: Value| match l.def_kind(v) {
            Some(InstKind::Cast {
                op: CastOp::Zext,
                arg,
            }) => Some(l.ty(*arg).bits()),
            _ => None,
        };
        let wide = self.ty(a).bits();
        let (sa, sb) = (source(self, a), source(self, b));
        let bits = match (sa, sb) {
            (Some(x), Some(y)) => x.max(y),
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => return self.narrow_compare32(cc, a, b),
        };
        let narrow = Type::int(bits)?;
        let fits = |l: &Self, v: Value, s: Option<u32>| {
            s.is_some()
                || l.const_value(v)
                    .is_some_and(|c| bits >= 64 || c >> bits == 0)
        };
        if bits >= wide || !fits(self, a, sa) || !fits(self, b, sb) {
            return self.narrow_compare32(cc, a, b);
        }
        let a = self.narrowed_operand(a, narrow);
        let b = self.narrowed_operand(b, narrow);
        Some((unsigned(cc), a, b))
    }

    /// A comparison of wider values that both provably fit 32 bits ([`Self::fits32`]) done on
    /// their low 32 bits (`(mac >> 40) & 2` tested against 0 on a 48-bit MAC assembled from its
    /// bytes: `icmp eq (and v6, 2), 0` in 64 bits becomes `icmp eq (and (trunc v6), 2), 0`).
    fn narrow_compare32(&mut self, cc: IntCC, a: Value, b: Value) -> Option<(IntCC, Value, Value)> {
        if self.ty(a).bits() <= 32 || !self.fits32(a) || !self.fits32(b) {
            return None;
        }
        let a = self.low32(a, 4);
        let b = self.low32(b, 4);
        Some((unsigned(cc), a, b))
    }

    /// `v` (a zero extension or a constant that fits) at the narrower type `to`.
    fn narrowed_operand(&mut self, v: Value, to: Type) -> Value {
        if let Some(InstKind::Cast {
            op: CastOp::Zext,
            arg,
        }) = self.def_kind(v).cloned()
        {
            return self.resize(arg, to);
        }
        self.resize(v, to)
    }

    /// Is `v` a zero extension of at most 32 bits (or narrower, or a small constant)?
    pub(super) fn fits32(&self, v: Value) -> bool {
        self.fits32_within(v, 4)
    }

    /// [`Self::fits32`], looking `depth` operations deep: a zero extension of at most 32 bits,
    /// a mask by anything that fits (`h & (v.size() - 1)`: clang computes `uint32_t i = h &
    /// (size - 1)` as `and (and (zext h), 0xffffffff), (add (zext size), 0xffffffff)`), an or,
    /// xor or select of values that fit, a shift right by 32 or more, a remainder by at most
    /// 2^32.
    fn fits32_within(&self, v: Value, depth: u32) -> bool {
        const LIMIT: u64 = 1 << 32;
        if self.ty(v).bits() <= 32 || self.const_value(v).is_some_and(|c| c < LIMIT) {
            return true;
        }
        let fits = |x: Value| depth > 0 && self.fits32_within(x, depth - 1);
        match self.def_kind(v) {
            Some(InstKind::Cast {
                op: CastOp::Zext,
                arg,
            }) => self.ty(*arg).bits() <= 32,
            Some(InstKind::Binary { op, args }) => match op {
                BinOp::And => fits(args[0]) || fits(args[1]),
                BinOp::Or | BinOp::Xor => fits(args[0]) && fits(args[1]),
                BinOp::Lshr => self
                    .const_value(args[1])
                    .is_some_and(|c| c >= 32 && c < u64::from(self.ty(v).bits())),
                BinOp::Urem => self
                    .const_value(args[1])
                    .is_some_and(|c| c != 0 && c <= LIMIT),
                _ => false,
            },
            Some(InstKind::Select {
                if_true, if_false, ..
            }) => fits(*if_true) && fits(*if_false),
            _ => false,
        }
    }

    /// The low 32 bits of `v`, computed in 32 bits where the operations allow (bitwise
    /// operations, addition, subtraction and multiplication commute with truncation; a
    /// remainder of a 32-bit value by a 32-bit constant too).
    pub(super) fn low32(&mut self, v: Value, depth: u32) -> Value {
        if self.ty(v).bits() <= 32 {
            return self.resize(v, Type::I32);
        }
        if let Some(c) = self.const_value(v) {
            return self.iconst(Type::I32, c & 0xFFFF_FFFF);
        }
        match self.def_kind(v).cloned() {
            Some(InstKind::Cast {
                op: CastOp::Zext,
                arg,
            }) if self.ty(arg).bits() <= 32 => return self.resize(arg, Type::I32),
            Some(InstKind::Binary { op, args })
                if depth > 0
                    && (matches!(
                        op,
                        BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Add | BinOp::Sub | BinOp::Mul
                    ) || (op == BinOp::Urem
                        && self.fits32(args[0])
                        && self
                            .const_value(args[1])
                            .is_some_and(|c| c != 0 && c < 1 << 32))) =>
            {
                let a = self.low32(args[0], depth - 1);
                let b = self.low32(args[1], depth - 1);
                return self.binary(op, a, b);
            }
            _ => {}
        }
        self.resize(v, Type::I32)
    }

    /// The index and the vector's loaded size for a bounds check `idx < size`, both 32 bits
    /// wide when the size state and the index allow it, else both 64 bits.
    pub(super) fn bounds_operands(
        &mut self,
        idx: Value,
        size_state: tandem_ir::StateId,
    ) -> (Value, Value) {
        let sty = self.state_scalar_type(size_state);
        let size = self.ins1(InstKind::ScalarLoad { state: size_state }, sty);
        if sty == Type::I32 {
            if let Some(i) = self.narrow32(idx) {
                return (i, size);
            }
        }
        let idx = self.resize(idx, Type::I64);
        let size = self.resize(size, Type::I64);
        (idx, size)
    }

    /// Casts `v` to `to` (zext/trunc, or nothing).
    pub(super) fn resize(&mut self, v: Value, to: Type) -> Value {
        let from = self.ty(v);
        if from == to {
            return v;
        }
        if let Some(c) = self.const_value(v) {
            return self.iconst(to, c);
        }
        let op = if from.bits() < to.bits() {
            CastOp::Zext
        } else {
            // trunc(zext(x)) to x's type is x.
            if let Some(InstKind::Cast {
                op: CastOp::Zext,
                arg,
            }) = self.def_kind(v).cloned()
            {
                if self.ty(arg) == to {
                    return arg;
                }
            }
            CastOp::Trunc
        };
        self.ins1(InstKind::Cast { op, arg: v }, to)
    }

    pub(super) fn bswap(&mut self, v: Value) -> Value {
        if let Some(InstKind::Bswap { arg }) = self.def_kind(v).cloned() {
            return arg;
        }
        let ty = self.ty(v);
        if ty.bits() <= 8 {
            return v;
        }
        self.ins1(InstKind::Bswap { arg: v }, ty)
    }

    /// Bytes `[a, b)` (relative to the piece) of the little-endian piece `v`.
    pub(super) fn extract(&mut self, v: Value, a: u64, b: u64) -> Value {
        let w = self.ty(v).bits() as u64 / 8;
        if a == 0 && b >= w {
            return v;
        }
        let shifted = if a > 0 {
            let ty = self.ty(v);
            let sh = self.iconst(ty, a * 8);
            self.binary(BinOp::Lshr, v, sh)
        } else {
            v
        };
        self.resize(shifted, ty_of_bytes(b - a))
    }

    /// The little-endian number of bytes `[off, off+len)`, assembled from `pieces`
    /// `(offset, width, value)`; a later piece overrides an earlier one where they overlap;
    /// bytes no piece covers are 0.
    pub(super) fn compose(&mut self, pieces: &[(u64, u64, Value)], off: u64, len: u64) -> Value {
        let ty = ty_of_bytes(len);
        let mut bounds: BTreeSet<u64> = BTreeSet::from([off, off + len]);
        for &(po, pw, _) in pieces {
            for b in [po, po + pw] {
                if b > off && b < off + len {
                    bounds.insert(b);
                }
            }
        }
        let bounds: Vec<u64> = bounds.into_iter().collect();
        let mut acc: Option<Value> = None;
        for seg in bounds.windows(2) {
            let (a, b) = (seg[0], seg[1]);
            let Some(&(po, _, pv)) = pieces
                .iter()
                .rev()
                .find(|(po, pw, _)| *po <= a && b <= po + pw)
            else {
                continue;
            };
            let part = self.extract(pv, a - po, b - po);
            let part = self.resize(part, ty);
            let part = if a > off {
                let sh = self.iconst(ty, (a - off) * 8);
                self.binary(BinOp::Shl, part, sh)
            } else {
                part
            };
            acc = Some(match acc {
                None => part,
                Some(x) => self.binary(BinOp::Or, x, part),
            });
        }
        match acc {
            Some(v) => v,
            None => self.iconst(ty, 0),
        }
    }

    pub(super) fn header_pieces(
        &mut self,
        h: Header,
        off: u64,
        len: u64,
    ) -> Vec<(u64, u64, Value)> {
        let mut pieces = Vec::new();
        for f in h.fields() {
            let fo = f.byte_offset() as u64;
            let fw = u64::from(f.bits().div_ceil(8));
            if fo < off + len && off < fo + fw {
                let be = self.ins1(InstKind::HdrRead { field: f }, f.ty());
                let le = self.bswap(be);
                pieces.push((fo, fw, le));
            }
        }
        pieces
    }

    pub(super) fn header_size(h: Header) -> u64 {
        h.fields()
            .map(|f| f.byte_offset() as u64 + u64::from(f.bits().div_ceil(8)))
            .max()
            .unwrap_or(0)
    }

    pub(super) fn load_header(&mut self, h: Header, off: i64, len: u64) -> Value {
        if off >= 0 && off as u64 + len > Self::header_size(h) && self.header_bytes_ok(h) {
            // Options past the fixed fields (`(uint8_t*)tcp + 20`): a frame access.
            let base = self.iconst(Type::I64, 0);
            return self.load_header_bytes(h, base, off, len);
        }
        if off < 0 || off as u64 + len > Self::header_size(h) {
            self.err(
                Code::UntraceablePointer,
                format!("a {len}-byte access at offset {off} lies outside the {h} header"),
            );
            return self.iconst(ty_of_bytes(len), 0);
        }
        let off = off as u64;
        let pieces = self.header_pieces(h, off, len);
        self.compose(&pieces, off, len)
    }

    pub(super) fn store_header(&mut self, h: Header, off: i64, len: u64, v: Value) {
        if off >= 0 && off as u64 + len > Self::header_size(h) && self.header_bytes_ok(h) {
            let base = self.iconst(Type::I64, 0);
            self.store_header_bytes(h, base, off, len, v);
            return;
        }
        if off < 0 || off as u64 + len > Self::header_size(h) {
            self.err(
                Code::UntraceablePointer,
                format!("a {len}-byte store at offset {off} lies outside the {h} header"),
            );
            return;
        }
        let off = off as u64;
        let fields: Vec<HeaderField> = h.fields().collect();
        for f in fields {
            let fo = f.byte_offset() as u64;
            let fw = u64::from(f.bits().div_ceil(8));
            if !(fo < off + len && off < fo + fw) {
                continue;
            }
            let le = if off <= fo && fo + fw <= off + len {
                self.extract(v, fo - off, fo + fw - off)
            } else {
                let old_be = self.ins1(InstKind::HdrRead { field: f }, f.ty());
                let old = self.bswap(old_be);
                self.compose(&[(fo, fw, old), (off, len, v)], fo, fw)
            };
            let be = self.bswap(le);
            self.ins(
                InstKind::HdrWrite {
                    field: f,
                    value: be,
                },
                &[],
            );
        }
    }

    pub(super) fn alloca_pieces(&self, a: usize) -> Vec<(u64, u64, Value)> {
        self.allocas[a]
            .slots
            .iter()
            .zip(&self.slots[a])
            .map(|(&(o, w), &v)| (o, w, v))
            .collect()
    }

    pub(super) fn load_alloca(&mut self, a: usize, off: i64, len: u64) -> Value {
        let pieces = self.alloca_pieces(a);
        self.compose(&pieces, off.max(0) as u64, len)
    }

    pub(super) fn store_alloca(&mut self, a: usize, off: i64, len: u64, v: Value) {
        let off = off.max(0) as u64;
        let slots = self.allocas[a].slots.clone();
        for (i, (so, sw)) in slots.into_iter().enumerate() {
            if !(so < off + len && off < so + sw) {
                continue;
            }
            let old = self.slots[a][i];
            let new = self.compose(&[(so, sw, old), (off, len, v)], so, sw);
            self.slots[a][i] = new;
        }
    }

    /// Loads `len` bytes at `p + rel`.
    pub(super) fn load_ptr(&mut self, p: &Ptr, rel: i64, len: u64) -> Value {
        match p {
            Ptr::Header(h, o) => self.load_header(*h, o + rel, len),
            Ptr::HeaderBytes(h, o) => self.load_header_bytes(*h, *o, rel, len),
            Ptr::Alloca(a, o) => self.load_alloca(*a, o + rel, len),
            Ptr::Found(fi, o) => {
                let pieces = self.finds[*fi]
                    .as_ref()
                    .map(|f| f.fields.clone())
                    .unwrap_or_default();
                self.compose(&pieces, (o + rel).max(0) as u64, len)
            }
            Ptr::Element(o) => self.load_scalar(o + rel, len),
            Ptr::Payload(off) => {
                let off = if rel != 0 {
                    let r = self.iconst(Type::I64, rel as u64);
                    self.binary(BinOp::Add, *off, r)
                } else {
                    *off
                };
                self.ins(
                    InstKind::Opaque {
                        name: opaque_names::PAYLOAD_LOAD.into(),
                        args: vec![off],
                        reads: vec![Effect::Payload],
                        writes: vec![],
                    },
                    &[ty_of_bytes(len)],
                )[0]
            }
            Ptr::OneOf(sel, alts) => {
                let (sel, alts) = (*sel, alts.clone());
                let vals: Vec<Value> = alts
                    .iter()
                    .map(|a| match a {
                        Ptr::Null => self.iconst(ty_of_bytes(len), 0),
                        a => self.load_ptr(a, rel, len),
                    })
                    .collect();
                self.choose(sel, &vals)
            }
            Ptr::Const(bytes, off) => {
                let (bytes, off) = (bytes.clone(), *off);
                let ty = ty_of_bytes(len);
                let at = |k: usize| -> u64 {
                    (0..len as usize).fold(0u64, |acc, i| {
                        acc | (u64::from(bytes.get(k + i).copied().unwrap_or(0)) << (8 * i))
                    })
                };
                match self.const_value(off) {
                    Some(k) => {
                        let k = (k as i64 + rel).max(0) as usize;
                        self.iconst(ty, at(k))
                    }
                    None => {
                        if let Some(v) = self.load_const_table(&bytes, off, rel, len) {
                            return v;
                        }
                        let vals: Vec<Value> =
                            (0..bytes.len()).map(|k| self.iconst(ty, at(k))).collect();
                        let idx = if rel != 0 {
                            let r = self.iconst(Type::I64, rel as u64);
                            self.binary(BinOp::Add, off, r)
                        } else {
                            off
                        };
                        if vals.is_empty() {
                            self.iconst(ty, 0)
                        } else {
                            self.choose(idx, &vals)
                        }
                    }
                }
            }
            Ptr::Packet | Ptr::Null => {
                self.err(
                    Code::UntraceablePointer,
                    "a load through a null or packet-object pointer",
                );
                self.iconst(ty_of_bytes(len), 0)
            }
        }
    }

    pub(super) fn store_ptr(&mut self, p: &Ptr, rel: i64, len: u64, v: Value) {
        let width = if matches!(p, Ptr::Payload(_)) {
            self.iconst(Type::I8, len)
        } else {
            v
        };
        match p {
            Ptr::Header(h, o) => self.store_header(*h, o + rel, len, v),
            Ptr::HeaderBytes(h, o) => self.store_header_bytes(*h, *o, rel, len, v),
            Ptr::Alloca(a, o) => self.store_alloca(*a, o + rel, len, v),
            Ptr::Found(..) => self.err(
                Code::StateMisuse,
                "a store through the pointer HashMap::find() returned; update values with insert()",
            ),
            Ptr::Element(o) => self.store_scalar(o + rel, len, v),
            Ptr::Payload(off) => {
                let off = if rel != 0 {
                    let r = self.iconst(Type::I64, rel as u64);
                    self.binary(BinOp::Add, *off, r)
                } else {
                    *off
                };
                self.ins(
                    InstKind::Opaque {
                        name: opaque_names::PAYLOAD_STORE.into(),
                        args: vec![off, v, width],
                        reads: vec![],
                        writes: vec![Effect::Payload],
                    },
                    &[],
                );
            }
            Ptr::OneOf(sel, alts) => {
                // Store to each alternative under its own condition (absent headers ignore
                // writes, so a guarded header store is safe).
                let (sel, alts) = (*sel, alts.clone());
                for (i, a) in alts.iter().enumerate() {
                    if matches!(a, Ptr::Null) {
                        continue;
                    }
                    let k = self.iconst(Type::I8, i as u64);
                    let cond = self.icmp(IntCC::Eq, sel, k);
                    let old = self.load_ptr(a, rel, len);
                    let ty = self.ty(old);
                    let v2 = self.resize(v, ty);
                    let new = self.ins1(
                        InstKind::Select {
                            cond,
                            if_true: v2,
                            if_false: old,
                        },
                        ty,
                    );
                    self.store_ptr(a, rel, len, new);
                }
            }
            Ptr::Const(..) => self.err(Code::GlobalVariable, "a store to a constant"),
            Ptr::Packet | Ptr::Null => self.err(
                Code::UntraceablePointer,
                "a store through a null or packet-object pointer",
            ),
        }
    }

    /// "member `x` is not listed in TANDEM_NF", by the name the source gives the member at
    /// element byte offset `off`.
    pub(super) fn unlisted_member(&self, off: i64) -> String {
        match self.srcmap.member_at(off) {
            Some(m) => format!(
                "member `{}` of `{}` is used but not listed in TANDEM_NF",
                m.name, self.module.name
            ),
            None => format!("the element member at byte offset {off} is not listed in TANDEM_NF"),
        }
    }

    /// Why a pointer loaded through `p` cannot be followed, in the source's terms: a member
    /// that is a standard container (std::vector, std::string, ...) or holds a pointer.
    pub(super) fn pointer_load_reason(&self, p: &Ptr) -> (Code, String) {
        let Ptr::Element(off) = p else {
            return (
                Code::UntraceablePointer,
                "a pointer loaded from memory".into(),
            );
        };
        match self.srcmap.member_at(*off) {
            Some(m) if m.allocating_std_type() => (
                Code::DynamicMemory,
                format!(
                    "member `{}` is a `{}`, which allocates memory; use tandem::Vector, \
                     tandem::HashMap or tandem::ExpiringMap with a capacity",
                    m.name,
                    m.ty.as_deref().unwrap_or("standard container")
                ),
            ),
            Some(m) => (
                Code::UntraceablePointer,
                format!(
                    "a pointer loaded from memory: process() follows the pointer in member `{}`",
                    m.name
                ),
            ),
            None => (
                Code::UntraceablePointer,
                "a pointer loaded from memory".into(),
            ),
        }
    }

    pub(super) fn scalar_state(&mut self, off: i64) -> Option<StateId> {
        let Some(m) = self.member_at(off) else {
            let msg = self.unlisted_member(off);
            self.err(Code::UndeclaredState, msg);
            return None;
        };
        match self.scalar_states.get(&m) {
            Some(s) => Some(*s),
            // Its misuse is reported once, where the member was declared.
            None if self.uses[m].conflict.is_some() => None,
            None => {
                let name = self.members[m].name.clone();
                self.err(
                    Code::StateMisuse,
                    format!("state member `{name}` is accessed directly but is not an integer"),
                );
                None
            }
        }
    }

    /// The scalar state at `off`, the access's offset inside it and the scalar's width in
    /// bytes, when `[off, off + len)` is a part of it rather than all of it.
    fn scalar_part(&mut self, off: i64, len: u64) -> Option<(StateId, u64, u64)> {
        let s = self.scalar_state(off)?;
        let m = self.member_at(off)?;
        let rel = (off - self.members[m].offset) as u64;
        let w = u64::from(self.state_scalar_type(s).bytes());
        (rel + len <= w && (rel, len) != (0, w)).then_some((s, rel, w))
    }

    pub(super) fn load_scalar(&mut self, off: i64, len: u64) -> Value {
        if let Some((s, rel, w)) = self.scalar_part(off, len) {
            let whole = self.ins1(InstKind::ScalarLoad { state: s }, ty_of_bytes(w));
            let part = self.extract(whole, rel, rel + len);
            return self.resize(part, ty_of_bytes(len));
        }
        match self.scalar_state(off) {
            Some(s) => {
                let ty = ty_of_bytes(len);
                self.ins1(InstKind::ScalarLoad { state: s }, ty)
            }
            None => self.iconst(ty_of_bytes(len), 0),
        }
    }

    pub(super) fn store_scalar(&mut self, off: i64, len: u64, v: Value) {
        if let Some((s, rel, w)) = self.scalar_part(off, len) {
            let old = self.ins1(InstKind::ScalarLoad { state: s }, ty_of_bytes(w));
            let new = self.compose(&[(0, w, old), (rel, len, v)], 0, w);
            self.ins(
                InstKind::ScalarStore {
                    state: s,
                    value: new,
                },
                &[],
            );
            return;
        }
        if let Some(s) = self.scalar_state(off) {
            self.ins(InstKind::ScalarStore { state: s, value: v }, &[]);
        }
    }
}

/// The unsigned predicate that agrees with `cc` on values that are non-negative in the wider
/// type they were compared in.
fn unsigned(cc: IntCC) -> IntCC {
    match cc {
        IntCC::Sgt => IntCC::Ugt,
        IntCC::Sge => IntCC::Uge,
        IntCC::Slt => IntCC::Ult,
        IntCC::Sle => IntCC::Ule,
        other => other,
    }
}
