//! Free functions over LLVM IR and provenances: pointer offsets, map call shapes, constant
//! globals, GEP offsets, callee names, operands, reverse post-order.

use super::*;

pub(super) fn offset_prov(base: Prov, off: i64) -> Prov {
    match base {
        Prov::OneOf(alts) => Prov::OneOf(alts.into_iter().map(|a| offset_prov(a, off)).collect()),
        Prov::Const(n, o) => Prov::Const(n, o + off),
        Prov::Element(o) => Prov::Element(o + off),
        Prov::Alloca(a, o) => Prov::Alloca(a, o + off),
        Prov::Found(f, o) => Prov::Found(f, o + off),
        Prov::Header(h, o) => Prov::Header(h, o + off),
        p => p,
    }
}

pub(super) fn prov_to_ptr(p: &Prov) -> Option<Ptr> {
    Some(match p {
        Prov::Element(o) => Ptr::Element(*o),
        Prov::Alloca(a, o) => Ptr::Alloca(*a, *o),
        Prov::Found(f, o) => Ptr::Found(*f, *o),
        Prov::Header(h, o) => Ptr::Header(*h, *o),
        Prov::Null => Ptr::Null,
        _ => return None,
    })
}

pub(super) fn is_place(p: &Ptr) -> bool {
    matches!(
        p,
        Ptr::Element(_) | Ptr::Alloca(..) | Ptr::Found(..) | Ptr::Header(..) | Ptr::Null
    )
}

pub(super) fn same_place(a: &Ptr, b: &Ptr) -> bool {
    match (a, b) {
        (Ptr::Element(x), Ptr::Element(y)) => x == y,
        (Ptr::Alloca(a1, o1), Ptr::Alloca(a2, o2)) => a1 == a2 && o1 == o2,
        (Ptr::Found(f1, o1), Ptr::Found(f2, o2)) => f1 == f2 && o1 == o2,
        (Ptr::Header(h1, o1), Ptr::Header(h2, o2)) => h1 == h2 && o1 == o2,
        (Ptr::Null, Ptr::Null) => true,
        _ => false,
    }
}

pub(super) fn offset_ptr(p: Ptr, off: i64) -> Ptr {
    match p {
        Ptr::Element(o) => Ptr::Element(o + off),
        Ptr::Alloca(a, o) => Ptr::Alloca(a, o + off),
        Ptr::Found(f, o) => Ptr::Found(f, o + off),
        Ptr::Header(h, o) => Ptr::Header(h, o + off),
        p => p,
    }
}

/// Which map API a call belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MapFamily {
    Plain,
    Expiring,
    Lpm,
    Ternary,
    Range,
}

/// Argument positions of a `tandem_api_{map,emap,lpm,tern,range}_{find,lookup,insert,erase}`
/// call (nfapi/include/tandem/state.hh, lpm.hh, ternary.hh).
#[derive(Clone, Copy, Debug)]
pub(super) struct MapCallShape {
    pub(super) family: MapFamily,
    /// The key size (`sizeof(K)`).
    pub(super) key_size: usize,
    /// The value size, when the call has one.
    pub(super) value_size: Option<usize>,
    /// The capacity (an expiring map's idle timeout follows it; an LPM insert's or erase's
    /// prefix length and a ternary or range insert's or erase's priority are last).
    pub(super) capacity: usize,
    /// Pointers to keys: the key; a ternary entry's key and mask; a range entry's lo and hi.
    pub(super) key_ptrs: &'static [usize],
    /// A pointer to a value (lookup's out, insert's value).
    pub(super) value_ptr: Option<usize>,
}

pub(super) fn map_call_shape(callee: &str) -> Option<MapCallShape> {
    let families = [
        ("tandem_api_map_", MapFamily::Plain),
        ("tandem_api_emap_", MapFamily::Expiring),
        ("tandem_api_lpm_", MapFamily::Lpm),
        ("tandem_api_tern_", MapFamily::Ternary),
        ("tandem_api_range_", MapFamily::Range),
    ];
    let (op, family) = families
        .iter()
        .find_map(|(p, f)| Some((callee.strip_prefix(p)?, *f)))?;
    let shape = |key_size, value_size, capacity, key_ptrs, value_ptr| MapCallShape {
        family,
        key_size,
        value_size,
        capacity,
        key_ptrs,
        value_ptr,
    };
    let entry = matches!(family, MapFamily::Ternary | MapFamily::Range);
    Some(match op {
        "find" => shape(2, Some(3), 4, &[1], None),
        "lookup" => shape(2, Some(4), 5, &[1], Some(3)),
        // (map, key, mask | hi, key_size, value, value_size, capacity, priority)
        "insert" if entry => shape(3, Some(5), 6, &[1, 2], Some(4)),
        "insert" => shape(2, Some(4), 5, &[1], Some(3)),
        // (map, key, mask | hi, key_size, capacity, priority)
        "erase" if entry => shape(3, None, 4, &[1, 2], None),
        // The value size too (LPM maps as well): a map that process() only erases from
        // still has values (from configure()), which the state the compiler declares must
        // hold.
        "erase" => shape(2, Some(3), 4, &[1], None),
        _ => return None,
    })
}

/// A choice between places; `Unknown` when an alternative is unknown or the payload.
pub(super) fn one_of(provs: Vec<Prov>) -> Prov {
    let mut alts: Vec<Prov> = Vec::new();
    for p in provs {
        match p {
            Prov::OneOf(inner) => {
                for i in inner {
                    if !alts.contains(&i) {
                        alts.push(i);
                    }
                }
            }
            Prov::Element(_)
            | Prov::Alloca(..)
            | Prov::Found(..)
            | Prov::Header(..)
            | Prov::Null => {
                if !alts.contains(&p) {
                    alts.push(p);
                }
            }
            Prov::Unknown(why) => return Prov::Unknown(why),
            _ => return Prov::Unknown(
                "a pointer chosen at run time between the payload or a constant and another object"
                    .into(),
            ),
        }
    }
    if alts.len() > 255 {
        return Prov::Unknown("a pointer chosen among too many objects".into());
    }
    Prov::OneOf(alts)
}

/// The bytes of a constant global array of integers (string literals, lookup tables).
pub(super) fn const_global_bytes(m: &LModule, name: &Name) -> Option<Vec<u8>> {
    let g = m.global_vars.iter().find(|g| &g.name == name)?;
    if !g.is_constant {
        return None;
    }
    let init = g.initializer.as_ref()?;
    let mut out = Vec::new();
    fn push(c: &Constant, out: &mut Vec<u8>) -> Option<()> {
        match c {
            Constant::Int { bits, value } => {
                let n = bits.div_ceil(8);
                for i in 0..n {
                    out.push((value >> (8 * i)) as u8);
                }
                Some(())
            }
            Constant::Array { elements, .. } => {
                for e in elements {
                    push(e, out)?;
                }
                Some(())
            }
            _ => None,
        }
    }
    push(init, &mut out)?;
    if out.len() > 256 {
        return None;
    }
    Some(out)
}

pub(super) fn ptr_desc(p: &Ptr) -> &'static str {
    match p {
        Ptr::Element(_) => "an element member",
        Ptr::Alloca(..) => "a local array",
        Ptr::Found(..) => "a map value",
        Ptr::Header(..) | Ptr::HeaderBytes(..) => "a header",
        _ => "a pointer",
    }
}

/// Splits sorted boundaries into ranges of at most 8 bytes.
pub(super) fn split_ranges(bounds: &[u64]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        let (mut a, b) = (w[0], w[1]);
        while a < b {
            let len = (b - a).min(8);
            out.push((a, len));
            a += len;
        }
    }
    out
}

pub(super) fn make_layout(bounds: &BTreeSet<u64>, size: u64, prefix: &str) -> Layout {
    let mut b: Vec<u64> = bounds.iter().copied().filter(|&x| x <= size).collect();
    b.push(0);
    b.push(size);
    b.sort_unstable();
    b.dedup();
    let fields: Vec<(String, Type, u32)> = split_ranges(&b)
        .into_iter()
        .map(|(o, w)| (format!("{prefix}{o}"), ty_of_bytes(w), o as u32))
        .collect();
    Layout::with_offsets(fields, size as u32)
}

pub(super) fn local_name(op: &Operand) -> Option<&Name> {
    match op {
        Operand::LocalOperand { name, .. } => Some(name),
        _ => None,
    }
}

pub(super) fn is_ptr(t: &TypeRef) -> bool {
    matches!(t.as_ref(), LType::PointerType { .. })
}

pub(super) fn is_ptr_operand(types: &Types, op: &Operand) -> bool {
    is_ptr(&types.type_of(op))
}

/// The constant byte offset of a GEP and its run-time indices with their scales (the dynamic
/// part of the address is the sum of `index * scale`).
pub(super) fn gep_offset(
    types: &Types,
    g: &li::GetElementPtr,
) -> Option<(i64, Vec<(Operand, u64)>)> {
    let mut off: i64 = 0;
    let mut dynamic: Vec<(Operand, u64)> = Vec::new();
    let mut ty = g.source_element_type.clone();
    for (i, idx) in g.indices.iter().enumerate() {
        let c = match idx {
            Operand::ConstantOperand(k) => match k.as_ref() {
                Constant::Int { bits, value } => Some(sign_extend(*value, *bits)),
                _ => None,
            },
            _ => None,
        };
        if i == 0 {
            let (size, _) = layout::size_align(types, &ty)?;
            match c {
                Some(k) => off += k * size as i64,
                None => dynamic.push((idx.clone(), size)),
            }
            continue;
        }
        match c {
            Some(k) => {
                let (o, next) = layout::step_into(types, &ty, k as u64)?;
                off += o as i64;
                ty = next;
            }
            None => {
                if layout::struct_fields(types, &ty).is_some() {
                    return None;
                }
                let (o, next) = layout::step_into(types, &ty, 1)?;
                let (base, _) = layout::step_into(types, &ty, 0)?;
                dynamic.push((idx.clone(), o - base));
                ty = next;
            }
        }
    }
    Some((off, dynamic))
}

pub(super) fn sign_extend(v: u64, bits: u32) -> i64 {
    if bits >= 64 || bits == 0 {
        v as i64
    } else {
        let sh = 64 - bits;
        ((v << sh) as i64) >> sh
    }
}

pub(super) fn callee_name(c: &li::Call) -> Option<String> {
    match &c.function {
        either::Either::Right(Operand::ConstantOperand(k)) => match k.as_ref() {
            Constant::GlobalReference { name, .. } => Some(name_str(name)),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn is_allocator(name: &str) -> bool {
    matches!(
        name,
        "malloc"
            | "calloc"
            | "realloc"
            | "free"
            | "_Znwm"
            | "_Znam"
            | "_ZdlPv"
            | "_ZdaPv"
            | "_ZdlPvm"
            | "_ZnwmSt11align_val_t"
    ) || name.starts_with("_Znw")
        || name.starts_with("_Zna")
}

/// The C++ name of a (possibly mangled) symbol.
pub(super) fn demangle_hint(name: &str) -> String {
    crate::srcmap::demangle(name)
}

pub(super) fn constant_kind(c: &Constant) -> &'static str {
    match c {
        Constant::Float(_) => "floating point",
        Constant::Struct { .. } => "a struct constant",
        Constant::Array { .. } => "an array constant",
        Constant::Vector(_) => "a vector constant",
        _ => "an expression",
    }
}

pub(super) fn successors(t: &Terminator) -> Vec<Name> {
    match t {
        Terminator::Br(b) => vec![b.dest.clone()],
        Terminator::CondBr(c) => vec![c.true_dest.clone(), c.false_dest.clone()],
        Terminator::Switch(s) => {
            let mut v = vec![s.default_dest.clone()];
            v.extend(s.dests.iter().map(|d| d.1.clone()));
            v
        }
        _ => vec![],
    }
}

/// Blocks reachable from the entry, in reverse post-order.
pub(crate) fn rpo(f: &LFunction) -> Vec<&llvm_ir::BasicBlock> {
    let by_name: HashMap<&Name, &llvm_ir::BasicBlock> =
        f.basic_blocks.iter().map(|b| (&b.name, b)).collect();
    let Some(entry) = f.basic_blocks.first() else {
        return vec![];
    };
    let mut seen: HashSet<&Name> = HashSet::new();
    let mut post: Vec<&llvm_ir::BasicBlock> = Vec::new();
    // Iterative DFS: (block, next successor index).
    let mut stack: Vec<(&llvm_ir::BasicBlock, usize)> = vec![(entry, 0)];
    seen.insert(&entry.name);
    while let Some((b, i)) = stack.pop() {
        let succ = successors(&b.term);
        if i < succ.len() {
            stack.push((b, i + 1));
            if let Some(&s) = by_name.get(&succ[i]) {
                if seen.insert(&s.name) {
                    stack.push((s, 0));
                }
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post
}

pub(super) fn global_string(m: &LModule, name: &str) -> Option<String> {
    let g = m.global_vars.iter().find(|g| name_str(&g.name) == name)?;
    let init = g.initializer.as_ref()?;
    match init.as_ref() {
        Constant::Array { elements, .. } => {
            let bytes: Vec<u8> = elements
                .iter()
                .filter_map(|e| match e.as_ref() {
                    Constant::Int { value, .. } => Some(*value as u8),
                    _ => None,
                })
                .take_while(|b| *b != 0)
                .collect();
            Some(String::from_utf8_lossy(&bytes).into_owned())
        }
        _ => None,
    }
}

/// The integers of a constant global (`i64` scalar or array).
pub(super) fn global_u64s(m: &LModule, name: &str) -> Option<Vec<u64>> {
    let g = m.global_vars.iter().find(|g| name_str(&g.name) == name)?;
    match g.initializer.as_ref()?.as_ref() {
        Constant::Int { value, .. } => Some(vec![*value]),
        Constant::Array { elements, .. } => Some(
            elements
                .iter()
                .filter_map(|e| match e.as_ref() {
                    Constant::Int { value, .. } => Some(*value),
                    _ => None,
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The timer's interval (`tandem_nf_timer_interval_ns`, 0 without `on_timer`).
pub(crate) fn timer_interval(m: &LModule) -> Option<u64> {
    global_u64s(m, TIMER_INTERVAL).and_then(|v| v.first().copied())
}

/// The NF's type name (`tandem_nf_type_name`).
pub(crate) fn nf_type_name(m: &LModule) -> Option<String> {
    global_string(m, TYPE_NAME)
}

pub(super) fn inst_debugloc(i: &Instruction) -> Option<llvm_ir::DebugLoc> {
    use llvm_ir::HasDebugLoc;
    i.get_debug_loc().clone()
}

/// Why an LLVM instruction has no NF IR counterpart, for the L002 message.
pub(super) fn describe_unsupported(op: &str) -> String {
    let what = match op {
        "fadd" | "fsub" | "fmul" | "fdiv" | "frem" | "fneg" | "fcmp" | "uitofp" | "sitofp"
        | "fptoui" | "fptosi" | "fpext" | "fptrunc" => "floating point arithmetic",
        "extractelement" | "insertelement" | "shufflevector" => "SIMD vector operations",
        "atomicrmw" | "cmpxchg" | "fence" => "atomic operations",
        "landingpad" | "catchpad" | "cleanuppad" | "invoke" | "resume" => "exceptions",
        "va_arg" => "variadic arguments",
        _ => "an LLVM instruction",
    };
    format!("{what} (`{op}`)")
}

pub(super) fn inst_opcode(i: &Instruction) -> String {
    let s = format!("{i}");
    // "%x = fadd double ..." -> "fadd"
    let body = s.split_once(" = ").map_or(s.as_str(), |(_, b)| b);
    body.split_whitespace().next().unwrap_or("?").to_string()
}

pub(super) fn operands_of(i: &Instruction) -> Vec<Operand> {
    match i {
        Instruction::Call(c) => c.arguments.iter().map(|a| a.0.clone()).collect(),
        Instruction::Phi(p) => p.incoming_values.iter().map(|x| x.0.clone()).collect(),
        Instruction::Select(s) => vec![
            s.condition.clone(),
            s.true_value.clone(),
            s.false_value.clone(),
        ],
        Instruction::Store(s) => vec![s.address.clone(), s.value.clone()],
        Instruction::Load(l) => vec![l.address.clone()],
        Instruction::GetElementPtr(g) => {
            let mut v = vec![g.address.clone()];
            v.extend(g.indices.iter().cloned());
            v
        }
        Instruction::ICmp(c) => vec![c.operand0.clone(), c.operand1.clone()],
        Instruction::Trunc(x) => vec![x.operand.clone()],
        Instruction::ZExt(x) => vec![x.operand.clone()],
        Instruction::SExt(x) => vec![x.operand.clone()],
        Instruction::Freeze(x) => vec![x.operand.clone()],
        Instruction::BitCast(x) => vec![x.operand.clone()],
        other => binary_operands(other),
    }
}

pub(super) fn binary_operands(i: &Instruction) -> Vec<Operand> {
    macro_rules! two {
        ($($v:ident),*) => {
            match i {
                $(Instruction::$v(x) => vec![x.operand0.clone(), x.operand1.clone()],)*
                _ => vec![],
            }
        };
    }
    two!(Add, Sub, Mul, UDiv, SDiv, URem, SRem, And, Or, Xor, Shl, LShr, AShr)
}

pub(super) fn term_operands(t: &Terminator) -> Vec<Operand> {
    match t {
        Terminator::CondBr(c) => vec![c.condition.clone()],
        Terminator::Switch(s) => vec![s.operand.clone()],
        Terminator::Ret(r) => r.return_operand.iter().cloned().collect(),
        _ => vec![],
    }
}

/// The header a pointer phi (or select) walks at a run-time offset: every incoming pointer
/// is into the same header, at least one at a run-time offset (in the first round, before
/// loop back edges are known, an unknown incoming counts as one), e.g. a pointer stepping
/// through TCP options. `None` otherwise.
pub(super) fn header_bytes_phi(provs: &[Prov], round: usize) -> Option<Header> {
    let mut header = None;
    let mut dynamic = false;
    for p in provs {
        let h = match p {
            Prov::Header(h, _) => *h,
            Prov::HeaderBytes(h) => {
                dynamic = true;
                *h
            }
            Prov::Unknown(_) if round == 0 => {
                dynamic = true;
                continue;
            }
            _ => return None,
        };
        if header.is_some_and(|x| x != h) {
            return None;
        }
        header = Some(h);
    }
    header.filter(|_| dynamic)
}

/// The element field boundaries of a vector that only `configure()` writes, with every field
/// wider than 4 bytes cut into 4-byte words: a struct element copied whole (`NextHop nh =
/// hops[i]` is one 8-byte load) would otherwise be one 64-bit register, wider than a 32-bit
/// switch's registers, while its words are two 32-bit registers read at the same index (loads
/// reassemble the bytes). Vectors `process()` writes keep their fields whole: a read-modify-
/// write (`counts[i] += n`) must stay one register access.
///
/// ```text
/// before: state hops: vector [e0:i64] x 64        (bounds {0, 8})
/// after:  state hops: vector [e0:i32, e4:i32] x 64 (bounds {0, 4, 8})
/// ```
pub(super) fn word_bounds(bounds: &BTreeSet<u64>, size: u64) -> BTreeSet<u64> {
    let mut b: Vec<u64> = bounds.iter().copied().filter(|&x| x <= size).collect();
    b.extend([0, size]);
    b.sort_unstable();
    b.dedup();
    let mut out: BTreeSet<u64> = b.iter().copied().collect();
    for w in b.windows(2) {
        let mut at = w[0] + 4;
        while at < w[1] {
            out.insert(at);
            at += 4;
        }
    }
    out
}
