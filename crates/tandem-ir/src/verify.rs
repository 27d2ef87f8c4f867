//! The verifier: checks every invariant a well-formed module satisfies.
//!
//! Later stages (analysis, partitioner, back ends, interpreter) may assume these invariants
//! and must never panic on a module that passes [`verify_module`].
//!
//! # Invariants
//!
//! **Module**
//! 1. The module name, state names, layout field names and server-function names are
//!    identifiers (`[A-Za-z_][A-Za-z0-9_]*`).
//! 2. State names are unique; field names are unique within a layout; server-function names
//!    are unique and none is `process`.
//! 3. Layouts: map keys and vector elements have at least one field (map values may be empty).
//!    If any field of a layout has a C++ byte offset then all do and the layout has a size,
//!    and every field lies inside it (`offset + ceil(bits/8) <= size`).
//! 4. Map and expiring-map capacities, vector and meter lengths and idle timeouts are at
//!    least 1.
//!
//! **Function structure** (`process`, and `on_timer` when the module has a timer)
//! 5. The per-packet function is named `process`, the timer's `on_timer`; each has at least
//!    one block; `block0` is the entry and has no parameters.
//! 6. Every block is non-empty and its last instruction is its only terminator (`br`, `brif`,
//!    `switch`, `return`).
//! 7. An instruction appears in at most one block, at most once.
//! 8. Value bookkeeping is consistent: each block parameter / instruction result records that
//!    block / instruction and position as its definition, and no value is defined twice.
//! 9. Branch targets exist, pass exactly one argument per target parameter, and argument types
//!    equal parameter types.
//! 10. `switch` case constants are distinct and fit the scrutinee's type.
//! 11. Source locations name files of the module's file table.
//!
//! **SSA**
//! 12. Every used value exists and is defined by a block parameter or by the result of an
//!     instruction placed in a block ([`crate::ValueDef::Unused`] values are never used).
//! 13. Definitions dominate uses: a value defined in block `D` and used in block `B` requires
//!     `D` to dominate `B` (blocks unreachable from the entry are dominated only by
//!     themselves); within one block the definition comes first (block parameters come before
//!     every instruction). Branch arguments are uses at the terminator.
//!
//! **Typing** (`T` is any `iN`; "fields of L" means one value per field of layout L, in order,
//! each of the field's type)
//! 14. `const`: one result `iN`, immediate `< 2^N`.
//! 15. Binary ALU ops: two operands and one result, all of the same type (shift amounts too).
//! 16. `icmp`: two operands of the same type, one `i1` result.
//! 17. `zext`/`sext`: result strictly wider than the operand; `trunc`: strictly narrower.
//! 18. `select c, a, b`: `c: i1`, `a`, `b` and the result of one type. `bswap`: operand and
//!     result of one type whose width is a multiple of 8.
//! 19. `hdr.read f`: one result of the field's width; `hdr.write f, v`: `v` has the field's
//!     width, no results. `hdr.valid`: one `i1` result; `hdr.push`/`hdr.pop`: none. `meta.read`: one result of the
//!     item's type (`in_port: i16`, `length: i16`, `now: i64`).
//! 20. `map.find/insert/erase` name a map (hash, expiring, LPM, ternary or range); keys are the fields of
//!     the key layout; `map.insert` values are the fields of the value layout. `map.find`
//!     results are `i1` then the value fields; `map.insert` has one `i1` result; `map.erase`
//!     none. On an `lpm_map`, `map.insert`/`map.erase` take the key fields and then the prefix
//!     length as an `i8`; on a `ternary_map` the key fields, a mask per key field and the
//!     priority as an `i32`; on a `range_map` the low and high bound (the key field's type)
//!     and the priority as an `i32` ([`crate::StateKind::entry_key_layout`]). A `range_map`
//!     key layout has exactly one field, an `lpm_map`'s at least one (its prefix spans the
//!     last `prefix_fields` ≥ 1 fields, all of one type).
//! 21. `vec.get/set` name a vector; the index is any integer type; `vec.get` results and
//!     `vec.set` values are the element fields.
//! 22. `meter.execute` names a meter array; the index is any integer type; one `i8` result.
//!     `scalar.load/store` name a scalar; the loaded/stored value has the scalar's type.
//! 23. `send p`: `p: i16`; `send`, `drop`, `hdr.write`, stores and terminators have no results.
//!     `brif` conditions are `i1`.
//! 24. `opaque`: non-empty callee name; any arguments and results; effects name declared
//!     states.
//!
//! **Headers** ([`crate::parse_graph`])
//! 25. Declared headers are not built in and have distinct names; every header and field an
//!     instruction or effect names is built in or declared.
//! 26. Parse edges join built-in or declared headers; a `select` field belongs to `from` and
//!     `value` fits its width; no edge leads to `eth` or leaves `tcp`; no two edges leave one
//!     header with the same condition; the graph has no cycle; every declared header is the
//!     target of some edge.
//!
//! **Timer**
//! 27. The timer's interval is at least 1 ns, and no server function is named `on_timer`
//!     when the module has a timer.
//! 28. `on_timer` has no packet: it contains no `hdr.read`, `hdr.write`, `hdr.valid`,
//!     `meta.read in_port`, `meta.read length`, `send`, `drop` or `opaque` (`meta.read now`
//!     is the tick's time).

use crate::{
    Block, BlockCall, CastOp, Effect, EntityRef, Function, Inst, InstKind, Layout, Module, StateId,
    StateKind, Type, Value, ValueDef,
};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Where a verifier error is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorLocation {
    /// The module as a whole (names, server functions).
    Module,
    /// A state declaration.
    State(String),
    /// A block of a function.
    Block {
        /// Function name.
        func: String,
        /// The block.
        block: Block,
    },
    /// An instruction.
    Inst {
        /// Function name.
        func: String,
        /// The block containing it.
        block: Block,
        /// The instruction.
        inst: Inst,
        /// Its text form, to show the user.
        text: String,
    },
}

impl fmt::Display for ErrorLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorLocation::Module => write!(f, "module"),
            ErrorLocation::State(s) => write!(f, "state `{s}`"),
            ErrorLocation::Block { func, block } => write!(f, "fn {func}, {block}"),
            ErrorLocation::Inst {
                func, block, text, ..
            } => {
                write!(f, "fn {func}, {block}, `{text}`")
            }
        }
    }
}

/// One violated invariant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {message}")]
pub struct VerifyError {
    /// Where.
    pub location: ErrorLocation,
    /// What is wrong.
    pub message: String,
}

/// All violated invariants of a module (never empty), in a deterministic order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct VerifyErrors(pub Vec<VerifyError>);

impl fmt::Display for VerifyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// Checks every invariant listed in the [module docs](self).
pub fn verify_module(module: &Module) -> Result<(), VerifyErrors> {
    let mut v = Verifier {
        module,
        errors: Vec::new(),
    };
    v.module_level();
    v.function(&module.process, "process");
    if let Some(t) = &module.timer {
        if t.interval_ns == 0 {
            v.err(
                ErrorLocation::Module,
                "the timer interval must be at least 1 ns",
            );
        }
        if module.server_functions.iter().any(|f| f == "on_timer") {
            v.err(
                ErrorLocation::Module,
                "`on_timer` is both lifted and declared a server function",
            );
        }
        v.function(&t.func, "on_timer");
        v.timer_packet_free(&t.func);
    }
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyErrors(v.errors))
    }
}

/// Checks only the declared headers and the parse graph (invariants 25–26), for front ends
/// that build them before the body.
pub fn verify_parse_graph(module: &Module) -> Result<(), VerifyErrors> {
    let mut v = Verifier {
        module,
        errors: Vec::new(),
    };
    v.headers();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyErrors(v.errors))
    }
}

pub(crate) fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

struct Verifier<'m> {
    module: &'m Module,
    errors: Vec<VerifyError>,
}

/// Per-function facts the checks need.
struct Cfg {
    /// inst -> (block, position)
    placement: HashMap<Inst, (Block, usize)>,
    /// Immediate dominator of each block (None for the entry and unreachable blocks).
    idom: Vec<Option<usize>>,
}

impl Cfg {
    fn dominates(&self, d: usize, mut b: usize) -> bool {
        loop {
            if b == d {
                return true;
            }
            match self.idom.get(b).copied().flatten() {
                Some(p) => b = p,
                None => return false,
            }
        }
    }
}

impl<'m> Verifier<'m> {
    fn err(&mut self, location: ErrorLocation, message: impl Into<String>) {
        self.errors.push(VerifyError {
            location,
            message: message.into(),
        });
    }

    fn module_level(&mut self) {
        let m = self.module;
        if !is_ident(&m.name) {
            self.err(
                ErrorLocation::Module,
                format!("NF name `{}` is not an identifier", m.name),
            );
        }
        let mut names = HashSet::new();
        for (_, s) in m.states.iter() {
            let loc = ErrorLocation::State(s.name.clone());
            if !is_ident(&s.name) {
                self.err(loc.clone(), "state name is not an identifier");
            }
            if !names.insert(s.name.as_str()) {
                self.err(loc.clone(), "state declared twice");
            }
            match &s.kind {
                StateKind::HashMap {
                    key,
                    value,
                    capacity,
                }
                | StateKind::ExpiringMap {
                    key,
                    value,
                    capacity,
                    ..
                } => {
                    self.layout(&loc, "key", key, false);
                    self.layout(&loc, "value", value, true);
                    if *capacity == 0 {
                        self.err(loc.clone(), "capacity must be at least 1");
                    }
                    if let StateKind::ExpiringMap {
                        idle_timeout_ns: 0, ..
                    } = &s.kind
                    {
                        self.err(loc.clone(), "idle timeout must be at least 1 ns");
                    }
                }
                StateKind::LpmMap { key, value, .. }
                | StateKind::TernaryMap { key, value, .. }
                | StateKind::RangeMap { key, value, .. } => {
                    self.layout(&loc, "key", key, false);
                    self.layout(&loc, "value", value, true);
                    let fields_ok = match s.kind {
                        StateKind::TernaryMap { .. } => true,
                        StateKind::LpmMap { .. } => !key.fields.is_empty(),
                        _ => key.fields.len() == 1,
                    };
                    if let StateKind::LpmMap { prefix_fields, .. } = s.kind {
                        let n = prefix_fields as usize;
                        let tail = key.fields.len().checked_sub(n);
                        let same = tail.is_some_and(|t| {
                            key.fields[t..].iter().all(|f| f.ty == key.fields[t].ty)
                        });
                        if prefix_fields == 0 || !same {
                            self.err(
                                loc.clone(),
                                format!(
                                    "an lpm_map's prefix spans {prefix_fields} key fields: at least one, at most the key's, all of one type"
                                ),
                            );
                        }
                    }
                    if !fields_ok && matches!(s.kind, StateKind::LpmMap { .. }) {
                        self.err(loc.clone(), "an lpm_map key has at least one integer field");
                    } else if !fields_ok {
                        self.err(
                            loc.clone(),
                            format!("a {} key has exactly one integer field", s.kind.keyword()),
                        );
                    }
                    if s.kind.map_capacity() == Some(0) {
                        self.err(loc.clone(), "capacity must be at least 1");
                    }
                }
                StateKind::Vector { elem, len } => {
                    self.layout(&loc, "element", elem, false);
                    if *len == 0 {
                        self.err(loc.clone(), "vector length must be at least 1");
                    }
                }
                StateKind::Scalar { .. } => {}
                StateKind::Meter { len, .. } => {
                    if *len == 0 {
                        self.err(loc.clone(), "meter length must be at least 1");
                    }
                }
            }
        }
        self.headers();
        let mut fns = HashSet::new();
        for name in &m.server_functions {
            if !is_ident(name) || name == "process" {
                self.err(
                    ErrorLocation::Module,
                    format!("bad server function name `{name}`"),
                );
            }
            if !fns.insert(name.as_str()) {
                self.err(
                    ErrorLocation::Module,
                    format!("server function `{name}` declared twice"),
                );
            }
        }
    }

    fn headers(&mut self) {
        let m = self.module;
        let mut names = HashSet::new();
        for h in &m.headers {
            if h.is_builtin() || !names.insert(h.name()) {
                self.err(
                    ErrorLocation::Module,
                    format!("header `{h}` declared twice or built in"),
                );
            }
        }
        let known = |h: crate::Header| h.is_builtin() || m.headers.contains(&h);
        let mut conds = HashSet::new();
        for e in &m.parse_edges {
            let what = match e.select {
                Some(f) => format!("parse {f} == {:#x} -> {}", e.value, e.to),
                None => format!("parse {} -> {}", e.from, e.to),
            };
            let bad = |msg: &str| format!("`{what}`: {msg}");
            let mut errs = Vec::new();
            if !known(e.from) || !known(e.to) {
                errs.push(bad("names an undeclared header"));
            }
            if let Some(f) = e.select {
                if f.header() != e.from {
                    errs.push(bad(
                        "the select field is not a field of the header it follows",
                    ));
                }
                if f.ty().wrap(e.value) != e.value {
                    errs.push(bad("the value does not fit the field"));
                }
            }
            if e.to == crate::Header::Eth || e.from == crate::Header::Tcp {
                errs.push(bad("no edge may lead to `eth` or leave `tcp`"));
            }
            if !conds.insert((e.from, e.select, e.value)) {
                errs.push(bad(
                    "another edge leaves the same header on the same condition",
                ));
            }
            for msg in errs {
                self.err(ErrorLocation::Module, msg);
            }
        }
        for h in &m.headers {
            if !m.parse_edges.iter().any(|e| e.to == *h) {
                self.err(
                    ErrorLocation::Module,
                    format!("header `{h}` is declared but no `parse` edge leads to it"),
                );
            }
        }
        // A cycle: the deparse order's topological sort cannot finish without it.
        let edges: Vec<_> = m
            .parse_edges
            .iter()
            .chain(&crate::parse_graph::BUILTIN_EDGES)
            .collect();
        let mut order: Vec<crate::Header> = Vec::new();
        let nodes: Vec<crate::Header> = crate::Header::ALL
            .into_iter()
            .chain(m.headers.iter().copied())
            .collect();
        loop {
            let ready = nodes.iter().find(|n| {
                !order.contains(n) && edges.iter().all(|e| e.to != **n || order.contains(&e.from))
            });
            match ready {
                Some(n) => order.push(*n),
                None => break,
            }
        }
        if order.len() < nodes.len() {
            self.err(ErrorLocation::Module, "the parse graph has a cycle");
        }
    }

    fn known_header(&self, errs: &mut Vec<String>, h: crate::Header) {
        if !h.is_builtin() && !self.module.headers.contains(&h) {
            errs.push(format!("header `{h}` is not declared in this module"));
        }
    }

    fn layout(&mut self, loc: &ErrorLocation, what: &str, l: &Layout, may_be_empty: bool) {
        if l.fields.is_empty() && !may_be_empty {
            self.err(loc.clone(), format!("{what} layout has no fields"));
        }
        let mut names = HashSet::new();
        let with_offset = l.fields.iter().filter(|f| f.offset.is_some()).count();
        if with_offset != 0 && (with_offset != l.fields.len() || l.size.is_none()) {
            self.err(
                loc.clone(),
                format!(
                    "{what} layout: C++ offsets must be given for all fields or none, with a size"
                ),
            );
        }
        for f in &l.fields {
            if !is_ident(&f.name) {
                self.err(
                    loc.clone(),
                    format!("{what} field `{}` is not an identifier", f.name),
                );
            }
            if !names.insert(f.name.as_str()) {
                self.err(
                    loc.clone(),
                    format!("{what} field `{}` appears twice", f.name),
                );
            }
            if let (Some(off), Some(size)) = (f.offset, l.size) {
                if u64::from(off) + u64::from(f.ty.bytes()) > u64::from(size) {
                    self.err(
                        loc.clone(),
                        format!(
                            "{what} field `{}` at offset {off} does not fit in size {size}",
                            f.name
                        ),
                    );
                }
            }
        }
    }

    fn cfg(&mut self, func: &Function) -> Cfg {
        let mut placement = HashMap::new();
        for (b, data) in func.blocks.iter() {
            for (pos, &inst) in data.insts.iter().enumerate() {
                if !func.insts.is_valid(inst) {
                    self.err(
                        ErrorLocation::Block {
                            func: func.name.clone(),
                            block: b,
                        },
                        format!("lists {inst}, which does not exist"),
                    );
                    continue;
                }
                if let Some((ob, _)) = placement.insert(inst, (b, pos)) {
                    let loc = self.inst_loc(func, b, inst);
                    self.err(loc, format!("instruction is placed twice (also in {ob})"));
                }
            }
        }
        // Reverse postorder from the entry, then Cooper–Harvey–Kennedy dominators.
        let n = func.blocks.len();
        let succs: Vec<Vec<usize>> = func
            .blocks
            .keys()
            .map(|b| {
                func.successors(b)
                    .into_iter()
                    .map(|s| s.index())
                    .filter(|&s| s < n)
                    .collect()
            })
            .collect();
        let mut order = Vec::new();
        let mut seen = vec![false; n];
        if n > 0 {
            let mut stack = vec![(0usize, 0usize)];
            seen[0] = true;
            while let Some((b, i)) = stack.pop() {
                if let Some(&s) = succs[b].get(i) {
                    stack.push((b, i + 1));
                    if !seen[s] {
                        seen[s] = true;
                        stack.push((s, 0));
                    }
                } else {
                    order.push(b);
                }
            }
        }
        order.reverse();
        let mut rpo_num = vec![usize::MAX; n];
        for (i, &b) in order.iter().enumerate() {
            rpo_num[b] = i;
        }
        let mut preds = vec![Vec::new(); n];
        for (b, ss) in succs.iter().enumerate() {
            if seen[b] {
                for &s in ss {
                    preds[s].push(b);
                }
            }
        }
        let mut idom: Vec<Option<usize>> = vec![None; n];
        if n > 0 {
            idom[0] = Some(0);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().skip(1) {
                let mut new: Option<usize> = None;
                for &p in &preds[b] {
                    if idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(cur) => {
                            let (mut x, mut y) = (p, cur);
                            while x != y {
                                while rpo_num[x] > rpo_num[y] {
                                    x = idom[x].unwrap_or(0);
                                }
                                while rpo_num[y] > rpo_num[x] {
                                    y = idom[y].unwrap_or(0);
                                }
                            }
                            x
                        }
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        if n > 0 {
            idom[0] = None;
        }
        Cfg { placement, idom }
    }

    fn inst_loc(&self, func: &Function, block: Block, inst: Inst) -> ErrorLocation {
        ErrorLocation::Inst {
            func: func.name.clone(),
            block,
            inst,
            text: crate::print_inst(self.module, func, inst),
        }
    }

    /// Invariant 28: `on_timer` does nothing that needs a packet.
    fn timer_packet_free(&mut self, func: &Function) {
        for (b, data) in func.blocks.iter() {
            for &inst in &data.insts {
                let Some(d) = func.insts.get(inst) else {
                    continue;
                };
                let what = match &d.kind {
                    InstKind::HdrRead { .. }
                    | InstKind::HdrWrite { .. }
                    | InstKind::HdrValid { .. } => "a header",
                    InstKind::MetaRead {
                        meta: crate::Meta::InPort | crate::Meta::Length,
                    } => "packet metadata",
                    InstKind::Send { .. } | InstKind::Drop => "a packet's fate",
                    InstKind::Opaque { .. } => "opaque code (it runs against a packet)",
                    _ => continue,
                };
                let loc = self.inst_loc(func, b, inst);
                self.err(
                    loc,
                    format!("on_timer has no packet, so it cannot use {what}"),
                );
            }
        }
    }

    fn function(&mut self, func: &Function, expected: &str) {
        let fname = func.name.clone();
        if func.name != expected {
            self.err(
                ErrorLocation::Module,
                format!("the function is named `{fname}`, not `{expected}`"),
            );
        }
        let Some(entry) = func.entry() else {
            self.err(
                ErrorLocation::Module,
                format!("fn {expected} has no blocks"),
            );
            return;
        };
        if !func.blocks[entry].params.is_empty() {
            self.err(
                ErrorLocation::Block {
                    func: fname.clone(),
                    block: entry,
                },
                "the entry block must not have parameters",
            );
        }
        let cfg = self.cfg(func);

        // Value bookkeeping (invariant 8).
        for (b, data) in func.blocks.iter() {
            for (i, &p) in data.params.iter().enumerate() {
                match func.values.get(p) {
                    Some(vd) if vd.def == ValueDef::Param(b, i) => {}
                    _ => self.err(
                        ErrorLocation::Block {
                            func: fname.clone(),
                            block: b,
                        },
                        format!("parameter {p} does not record this block as its definition"),
                    ),
                }
            }
        }
        for (&inst, &(b, _)) in sorted(&cfg.placement) {
            for (i, &r) in func.insts[inst].results.iter().enumerate() {
                match func.values.get(r) {
                    Some(vd) if vd.def == ValueDef::Result(inst, i) => {}
                    _ => {
                        let loc = self.inst_loc(func, b, inst);
                        self.err(
                            loc,
                            format!(
                                "result {r} does not record this instruction as its definition"
                            ),
                        );
                    }
                }
            }
        }

        for (b, data) in func.blocks.iter() {
            let bloc = ErrorLocation::Block {
                func: fname.clone(),
                block: b,
            };
            match data.insts.last() {
                None => self.err(bloc.clone(), "block is empty (it needs a terminator)"),
                Some(&last) => {
                    if !func.insts.get(last).is_some_and(|d| d.kind.is_terminator()) {
                        self.err(bloc.clone(), "block does not end with a terminator");
                    }
                }
            }
            for (pos, &inst) in data.insts.iter().enumerate() {
                let Some(idata) = func.insts.get(inst) else {
                    continue;
                };
                let loc = self.inst_loc(func, b, inst);
                if idata.kind.is_terminator() && pos + 1 != data.insts.len() {
                    self.err(loc.clone(), "terminator in the middle of a block");
                }
                if let Some(l) = idata.loc {
                    if !self.module.files.is_valid(l.file)
                        || l.site.is_some_and(|s| !self.module.files.is_valid(s.file))
                    {
                        self.err(
                            loc.clone(),
                            format!("source location names undeclared file {}", l.file),
                        );
                    }
                }
                // SSA (invariants 12, 13).
                for v in idata.kind.args() {
                    if let Some(msg) = self.check_use(func, &cfg, v, b, pos) {
                        self.err(loc.clone(), msg);
                    }
                }
                self.types(func, &idata.kind, &idata.results, &loc);
            }
        }
    }

    fn check_use(
        &self,
        func: &Function,
        cfg: &Cfg,
        v: Value,
        b: Block,
        pos: usize,
    ) -> Option<String> {
        let Some(vd) = func.values.get(v) else {
            return Some(format!("uses {v}, which does not exist"));
        };
        let (db, dpos) = match vd.def {
            ValueDef::Unused => return Some(format!("uses {v}, which is never defined")),
            ValueDef::Param(db, _) => (db, None),
            ValueDef::Result(di, _) => match cfg.placement.get(&di) {
                Some(&(db, dpos)) => (db, Some(dpos)),
                None => return Some(format!("uses {v}, whose instruction is not in any block")),
            },
        };
        let ok = if db == b {
            match dpos {
                None => true,
                Some(d) => d < pos,
            }
        } else {
            cfg.dominates(db.index(), b.index())
        };
        if ok {
            None
        } else {
            Some(format!(
                "uses {v}, whose definition (in {db}) does not dominate this use"
            ))
        }
    }

    fn sname(&self, s: StateId) -> String {
        match self.module.states.get(s) {
            Some(o) => format!("`{}`", o.name),
            None => format!("undeclared {s}"),
        }
    }

    fn ty(&self, func: &Function, v: Value) -> Option<Type> {
        func.value_type(v)
    }

    fn types(&mut self, func: &Function, kind: &InstKind, results: &[Value], loc: &ErrorLocation) {
        let rtys: Vec<Option<Type>> = results.iter().map(|&r| self.ty(func, r)).collect();
        let mut errs: Vec<String> = Vec::new();
        let t = |v: Value| func.value_type(v);
        let expect_results = |errs: &mut Vec<String>, want: &[Type]| {
            if rtys.len() != want.len() {
                errs.push(format!(
                    "has {} results, expected {}",
                    rtys.len(),
                    want.len()
                ));
            } else {
                for (i, (got, w)) in rtys.iter().zip(want).enumerate() {
                    if *got != Some(*w) {
                        errs.push(format!(
                            "result {} has type {}, expected {w}",
                            i,
                            show(*got)
                        ));
                    }
                }
            }
        };
        let expect_operand = |errs: &mut Vec<String>, what: &str, v: Value, want: Type| {
            let got = t(v);
            if got.is_some() && got != Some(want) {
                errs.push(format!(
                    "{what} {v} has type {}, expected {want}",
                    show(got)
                ));
            }
        };
        let state = |s: StateId| self.module.states.get(s).map(|o| &o.kind);
        let fields = |errs: &mut Vec<String>, what: &str, vals: &[Value], l: &Layout| {
            if vals.len() != l.fields.len() {
                errs.push(format!(
                    "{what} has {} values, the layout has {} fields",
                    vals.len(),
                    l.fields.len()
                ));
                return;
            }
            for (&v, f) in vals.iter().zip(&l.fields) {
                let got = t(v);
                if got.is_some() && got != Some(f.ty) {
                    errs.push(format!(
                        "{what} field `{}` is {}, expected {}",
                        f.name,
                        show(got),
                        f.ty
                    ));
                }
            }
        };
        match kind {
            InstKind::Const { imm } => {
                if rtys.len() != 1 {
                    errs.push(format!("has {} results, expected 1", rtys.len()));
                } else if let Some(ty) = rtys[0] {
                    if ty.wrap(*imm) != *imm {
                        errs.push(format!("constant {imm} does not fit in {ty}"));
                    }
                }
            }
            InstKind::Binary { args, .. } => {
                let ta = t(args[0]);
                if ta.is_some() && ta != t(args[1]) {
                    errs.push(format!(
                        "operand types {} and {} differ",
                        show(ta),
                        show(t(args[1]))
                    ));
                }
                if let Some(ta) = ta {
                    expect_results(&mut errs, &[ta]);
                }
            }
            InstKind::Icmp { args, .. } => {
                if t(args[0]) != t(args[1]) {
                    errs.push(format!(
                        "operand types {} and {} differ",
                        show(t(args[0])),
                        show(t(args[1]))
                    ));
                }
                expect_results(&mut errs, &[Type::I1]);
            }
            InstKind::Cast { op, arg } => {
                if rtys.len() != 1 {
                    errs.push(format!("has {} results, expected 1", rtys.len()));
                } else if let (Some(from), Some(to)) = (t(*arg), rtys[0]) {
                    let ok = match op {
                        CastOp::Zext | CastOp::Sext => to.bits() > from.bits(),
                        CastOp::Trunc => to.bits() < from.bits(),
                    };
                    if !ok {
                        errs.push(format!("cannot {op} {from} to {to}"));
                    }
                }
            }
            InstKind::Select {
                cond,
                if_true,
                if_false,
            } => {
                expect_operand(&mut errs, "condition", *cond, Type::I1);
                if t(*if_true) != t(*if_false) {
                    errs.push(format!(
                        "arm types {} and {} differ",
                        show(t(*if_true)),
                        show(t(*if_false))
                    ));
                }
                if let Some(ty) = t(*if_true) {
                    expect_results(&mut errs, &[ty]);
                }
            }
            InstKind::Bswap { arg } => {
                if let Some(ty) = t(*arg) {
                    if ty.bits() % 8 != 0 {
                        errs.push(format!(
                            "bswap needs a width that is a multiple of 8, not {ty}"
                        ));
                    }
                    expect_results(&mut errs, &[ty]);
                }
            }
            InstKind::Hash { algo, args } => {
                for &a in args {
                    if let Some(ty) = t(a) {
                        if ty.bits() % 8 != 0 {
                            errs.push(format!("hash operands are whole bytes; {a} is {ty}"));
                        }
                    }
                }
                expect_results(&mut errs, &[algo.result_type()]);
            }
            InstKind::HdrRead { field } => {
                self.known_header(&mut errs, field.header());
                expect_results(&mut errs, &[field.ty()])
            }
            InstKind::HdrWrite { field, value } => {
                self.known_header(&mut errs, field.header());
                expect_operand(&mut errs, "value", *value, field.ty());
                expect_results(&mut errs, &[]);
            }
            InstKind::HdrValid { header } => {
                self.known_header(&mut errs, *header);
                expect_results(&mut errs, &[Type::I1])
            }
            InstKind::HdrPush { header } | InstKind::HdrPop { header } => {
                self.known_header(&mut errs, *header);
                expect_results(&mut errs, &[]);
            }
            InstKind::MetaRead { meta } => expect_results(&mut errs, &[meta.ty()]),
            InstKind::MapFind { state: s, key }
            | InstKind::MapErase { state: s, key }
            | InstKind::MapInsert { state: s, key, .. } => {
                match state(*s).and_then(|k| k.map_layouts()) {
                    None => errs.push(format!("{} is not a map", self.sname(*s))),
                    Some((kl, vl)) => {
                        if matches!(kind, InstKind::MapFind { .. }) {
                            fields(&mut errs, "key", key, kl);
                        } else if let Some(entry) = state(*s).and_then(|k| k.entry_key_layout()) {
                            // The entry's name: key, or prefix and length, or key, mask and
                            // priority, or range and priority.
                            fields(&mut errs, "key", key, &entry);
                        }
                        match kind {
                            InstKind::MapFind { .. } => {
                                let mut want = vec![Type::I1];
                                want.extend(vl.types());
                                expect_results(&mut errs, &want);
                            }
                            InstKind::MapInsert { value, .. } => {
                                fields(&mut errs, "value", value, vl);
                                expect_results(&mut errs, &[Type::I1]);
                            }
                            _ => expect_results(&mut errs, &[]),
                        }
                    }
                }
            }
            InstKind::VecGet { state: s, .. } | InstKind::VecSet { state: s, .. } => {
                match state(*s) {
                    Some(StateKind::Vector { elem, .. }) => {
                        if let InstKind::VecSet { value, .. } = kind {
                            fields(&mut errs, "element", value, elem);
                            expect_results(&mut errs, &[]);
                        } else {
                            let want: Vec<Type> = elem.types().collect();
                            expect_results(&mut errs, &want);
                        }
                    }
                    _ => errs.push(format!("{} is not a vector", self.sname(*s))),
                }
            }
            InstKind::MeterExecute { state: s, .. } => match state(*s) {
                Some(StateKind::Meter { .. }) => expect_results(&mut errs, &[Type::I8]),
                _ => errs.push(format!("{} is not a meter", self.sname(*s))),
            },
            InstKind::ScalarLoad { state: s } | InstKind::ScalarStore { state: s, .. } => {
                match state(*s) {
                    Some(StateKind::Scalar { ty }) => {
                        if let InstKind::ScalarStore { value, .. } = kind {
                            expect_operand(&mut errs, "value", *value, *ty);
                            expect_results(&mut errs, &[]);
                        } else {
                            expect_results(&mut errs, &[*ty]);
                        }
                    }
                    _ => errs.push(format!("{} is not a scalar", self.sname(*s))),
                }
            }
            InstKind::Send { port } => {
                expect_operand(&mut errs, "port", *port, Type::I16);
                expect_results(&mut errs, &[]);
            }
            InstKind::Drop | InstKind::Return => expect_results(&mut errs, &[]),
            InstKind::Opaque {
                name,
                reads,
                writes,
                ..
            } => {
                if name.is_empty() {
                    errs.push("opaque call has an empty name".to_string());
                }
                for e in reads.iter().chain(writes) {
                    if let Effect::State(s) = e {
                        if !self.module.states.is_valid(*s) {
                            errs.push(format!("effect names undeclared {s}"));
                        }
                    }
                }
            }
            InstKind::Jump { dest } => {
                self.block_call(func, dest, &mut errs);
                expect_results(&mut errs, &[]);
            }
            InstKind::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                expect_operand(&mut errs, "condition", *cond, Type::I1);
                self.block_call(func, then_dest, &mut errs);
                self.block_call(func, else_dest, &mut errs);
                expect_results(&mut errs, &[]);
            }
            InstKind::Switch {
                arg,
                default,
                cases,
            } => {
                self.block_call(func, default, &mut errs);
                let mut seen = HashSet::new();
                for (k, c) in cases {
                    self.block_call(func, c, &mut errs);
                    if !seen.insert(*k) {
                        errs.push(format!("case {k} appears twice"));
                    }
                    if let Some(ty) = t(*arg) {
                        if ty.wrap(*k) != *k {
                            errs.push(format!("case {k} does not fit in {ty}"));
                        }
                    }
                }
                expect_results(&mut errs, &[]);
            }
        }
        for e in errs {
            self.err(loc.clone(), e);
        }
    }

    fn block_call(&self, func: &Function, c: &BlockCall, errs: &mut Vec<String>) {
        let Some(target) = func.blocks.get(c.block) else {
            errs.push(format!("branches to {}, which does not exist", c.block));
            return;
        };
        if target.params.len() != c.args.len() {
            errs.push(format!(
                "passes {} arguments to {}, which has {} parameters",
                c.args.len(),
                c.block,
                target.params.len()
            ));
            return;
        }
        for (&a, &p) in c.args.iter().zip(&target.params) {
            let (ta, tp) = (func.value_type(a), func.value_type(p));
            if ta.is_some() && ta != tp {
                errs.push(format!(
                    "argument {a}: {} passed to parameter {p}: {} of {}",
                    show(ta),
                    show(tp),
                    c.block
                ));
            }
        }
    }
}

fn show(t: Option<Type>) -> String {
    t.map_or_else(|| "?".to_string(), |t| t.to_string())
}

fn sorted<K: Ord, V>(m: &HashMap<K, V>) -> Vec<(&K, &V)> {
    let mut v: Vec<_> = m.iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}
