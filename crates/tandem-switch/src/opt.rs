//! Optimisation of the checked statement trees before they are flattened
//! (semantics-preserving for any program; `CompileOptions::optimize` turns it
//! off).
//!
//! * Liveness of slots over the structured control blocks (no loops: `if`,
//!   `switch`, table applies as calls of any of the table's actions, `exit` and
//!   `return`). Slots are *internal* (user metadata, locals, action
//!   parameters, `hit`/`action_run` temporaries) or *observable*
//!   (`standard_metadata`, header validity and position): observable slots are
//!   live at the end of every control, internal ones only if a later block, an
//!   action or a table key reads them.
//! * Forward substitution: `t = e; ...; x = f(t)` becomes `x = f(e)` when `t`
//!   is dead after that use and nothing in between changes what `e` reads
//!   (copies and constants are propagated into every later use in the same
//!   straight-line run); also into an `if` condition whose branches do not read
//!   `t`.
//! * Dead-store elimination of assignments to internal slots that are not live
//!   afterwards (expressions have no side effects), and of self-assignments.
//!
//! Parser states and action bodies are left as written (actions are shared by
//! call sites, parsers may loop).

use crate::program::*;

/// A set of slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Live(Vec<u64>);

impl Live {
    fn new(n: usize) -> Live {
        Live(vec![0; n.div_ceil(64).max(1)])
    }
    fn full(n: usize) -> Live {
        Live(vec![u64::MAX; n.div_ceil(64).max(1)])
    }
    fn insert(&mut self, s: Slot) {
        if let Some(w) = self.0.get_mut(s as usize / 64) {
            *w |= 1 << (s % 64);
        }
    }
    fn remove(&mut self, s: Slot) {
        if let Some(w) = self.0.get_mut(s as usize / 64) {
            *w &= !(1 << (s % 64));
        }
    }
    pub(crate) fn contains(&self, s: Slot) -> bool {
        self.0
            .get(s as usize / 64)
            .is_some_and(|w| w & (1 << (s % 64)) != 0)
    }
    fn union(&mut self, o: &Live) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
}

/// Calls `f` on every slot `e` reads (including header base slots of fields).
pub(crate) fn ex_slots(e: &Ex, f: &mut impl FnMut(Slot)) {
    match e {
        Ex::Const(_) => {}
        Ex::Slot(s) | Ex::SlotConst(_, s, ..) | Ex::SlotSlice(s, ..) | Ex::SlotBswap(s, _) => f(*s),
        Ex::Field(l) | Ex::FieldConst(_, l, ..) => f(l.base),
        Ex::SlotSlot(_, a, b, _) => {
            f(*a);
            f(*b)
        }
        Ex::Bin(_, a, b, _) | Ex::Concat(a, b, _) => {
            ex_slots(a, f);
            ex_slots(b, f)
        }
        Ex::Cond(c, a, b) => {
            ex_slots(c, f);
            ex_slots(a, f);
            ex_slots(b, f)
        }
        Ex::Not(a)
        | Ex::BitNot(a, _)
        | Ex::Slice(a, ..)
        | Ex::SExt(a, ..)
        | Ex::Mask(a, _)
        | Ex::Bswap(a, _)
        | Ex::Bool(a) => ex_slots(a, f),
    }
}

fn uses(e: &Ex, l: &mut Live) {
    ex_slots(e, &mut |s| l.insert(s));
}

fn reads_slot(e: &Ex, d: Slot) -> bool {
    let mut r = false;
    ex_slots(e, &mut |s| r |= s == d);
    r
}

fn count_slot(e: &Ex, d: Slot) -> usize {
    let mut n = 0;
    ex_slots(e, &mut |s| n += (s == d) as usize);
    n
}

fn reads_field(e: &Ex) -> bool {
    match e {
        Ex::Field(_) | Ex::FieldConst(..) => true,
        Ex::Const(_)
        | Ex::Slot(_)
        | Ex::SlotConst(..)
        | Ex::SlotSlice(..)
        | Ex::SlotBswap(..)
        | Ex::SlotSlot(..) => false,
        Ex::Bin(_, a, b, _) | Ex::Concat(a, b, _) => reads_field(a) || reads_field(b),
        Ex::Cond(c, a, b) => reads_field(c) || reads_field(a) || reads_field(b),
        Ex::Not(a)
        | Ex::BitNot(a, _)
        | Ex::Slice(a, ..)
        | Ex::SExt(a, ..)
        | Ex::Mask(a, _)
        | Ex::Bswap(a, _)
        | Ex::Bool(a) => reads_field(a),
    }
}

fn size(e: &Ex) -> usize {
    match e {
        Ex::Const(_)
        | Ex::Slot(_)
        | Ex::Field(_)
        | Ex::SlotConst(..)
        | Ex::FieldConst(..)
        | Ex::SlotSlot(..)
        | Ex::SlotSlice(..)
        | Ex::SlotBswap(..) => 1,
        Ex::Bin(_, a, b, _) | Ex::Concat(a, b, _) => 1 + size(a) + size(b),
        Ex::Cond(c, a, b) => 1 + size(c) + size(a) + size(b),
        Ex::Not(a)
        | Ex::BitNot(a, _)
        | Ex::Slice(a, ..)
        | Ex::SExt(a, ..)
        | Ex::Mask(a, _)
        | Ex::Bswap(a, _)
        | Ex::Bool(a) => 1 + size(a),
    }
}

/// `e` with every read of slot `d` replaced by `by`.
pub(crate) fn subst(e: &Ex, d: Slot, by: &Ex) -> Ex {
    let b = |x: &Ex| Box::new(subst(x, d, by));
    let s = |x: Slot| {
        if x == d {
            by.clone()
        } else {
            Ex::Slot(x)
        }
    };
    match e {
        Ex::Const(_) | Ex::Field(_) | Ex::FieldConst(..) => e.clone(),
        Ex::Slot(x) => s(*x),
        Ex::SlotConst(k, x, c, m) if *x == d => {
            Ex::Bin(*k, Box::new(by.clone()), Box::new(Ex::Const(*c)), *m)
        }
        Ex::SlotSlot(k, x, y, m) if *x == d || *y == d => {
            Ex::Bin(*k, Box::new(s(*x)), Box::new(s(*y)), *m)
        }
        Ex::SlotSlice(x, lo, m) if *x == d => Ex::Slice(Box::new(by.clone()), *lo, *m),
        Ex::SlotBswap(x, n) if *x == d => Ex::Bswap(Box::new(by.clone()), *n),
        Ex::SlotConst(..) | Ex::SlotSlot(..) | Ex::SlotSlice(..) | Ex::SlotBswap(..) => e.clone(),
        Ex::Bin(k, x, y, m) => Ex::Bin(*k, b(x), b(y), *m),
        Ex::Concat(x, y, w) => Ex::Concat(b(x), b(y), *w),
        Ex::Cond(c, x, y) => Ex::Cond(b(c), b(x), b(y)),
        Ex::Not(x) => Ex::Not(b(x)),
        Ex::BitNot(x, m) => Ex::BitNot(b(x), *m),
        Ex::Slice(x, lo, m) => Ex::Slice(b(x), *lo, *m),
        Ex::SExt(x, f, m) => Ex::SExt(b(x), *f, *m),
        Ex::Mask(x, m) => Ex::Mask(b(x), *m),
        Ex::Bswap(x, n) => Ex::Bswap(b(x), *n),
        Ex::Bool(x) => Ex::Bool(b(x)),
    }
}

/// Liveness context: the program's actions and tables, the slots live at the
/// end of the control being analysed, and which slots are internal.
struct Cx<'a> {
    actions: &'a [ActionDef],
    tables: &'a [TableDef],
    headers: &'a [HeaderLayout],
    nslots: usize,
    exit: Live,
    internal: Live,
}

/// Action calls nest at most this deep in the analysis (deeper: all live).
const MAX_DEPTH: u32 = 16;

impl Cx<'_> {
    fn live_in(&self, stmts: &[St], after: &Live, ret: &Live, depth: u32) -> Live {
        let mut l = after.clone();
        for s in stmts.iter().rev() {
            l = self.transfer(s, l, ret, depth);
        }
        l
    }

    /// Slots live before `s` given those live after it; `ret` is what is live
    /// where a `return` goes.
    fn transfer(&self, s: &St, mut l: Live, ret: &Live, depth: u32) -> Live {
        if let Some(d) = killed(s) {
            l.remove(d);
        }
        if straight_reads(s, &mut l) {
            return l;
        }
        match s {
            St::If(c, t, f) => {
                let mut a = self.live_in(t, &l, ret, depth);
                a.union(&self.live_in(f, &l, ret, depth));
                uses(c, &mut a);
                return a;
            }
            St::Switch(slot, arms, def) => {
                let mut a = self.live_in(def, &l, ret, depth);
                for (_, body) in arms {
                    a.union(&self.live_in(body, &l, ret, depth));
                }
                a.insert(*slot);
                return a;
            }
            St::Apply {
                table,
                hit,
                action_run,
            } => {
                let Some(def) = self.tables.get(*table as usize) else {
                    return Live::full(self.nslots);
                };
                if depth >= MAX_DEPTH {
                    return Live::full(self.nslots);
                }
                let mut out = Live::new(self.nslots);
                let acts = def
                    .actions
                    .iter()
                    .copied()
                    .chain(std::iter::once(def.default_action.0));
                for a in acts {
                    let Some(ad) = self.actions.get(a as usize) else {
                        return Live::full(self.nslots);
                    };
                    let mut la = self.live_in(&ad.body, &l, &l, depth + 1);
                    for &(p, _) in &ad.params {
                        la.remove(p);
                    }
                    out.union(&la);
                }
                if let Some(h) = hit {
                    out.remove(*h);
                }
                if let Some(a) = action_run {
                    out.remove(*a);
                }
                for k in &def.keys {
                    uses(&k.ex, &mut out);
                }
                return out;
            }
            St::CallAction {
                action,
                args,
                copy_out,
            } => {
                let Some(ad) = self.actions.get(*action as usize) else {
                    return Live::full(self.nslots);
                };
                if depth >= MAX_DEPTH {
                    return Live::full(self.nslots);
                }
                for (d, s) in copy_out.iter().rev() {
                    match d {
                        Dst::Slot(x) => l.remove(*x),
                        Dst::Field(f) => l.insert(f.base),
                    }
                    l.insert(*s);
                }
                let mut la = self.live_in(&ad.body, &l, &l, depth + 1);
                for &(p, _) in &ad.params {
                    la.remove(p);
                }
                for a in args {
                    uses(a, &mut la);
                }
                return la;
            }
            St::Emit(h) => {
                if let Some(hl) = self.headers.get(*h as usize) {
                    l.insert(hl.valid);
                    l.insert(hl.base);
                }
            }
            St::Exit => return self.exit.clone(),
            St::Return => return ret.clone(),
            // straight-line statements: handled by `straight_reads` above
            _ => {}
        }
        l
    }

    /// Live-out of each statement of `stmts` (given what is live after them).
    fn live_outs(&self, stmts: &[St], after: &Live) -> Vec<Live> {
        let mut outs = vec![after.clone(); stmts.len()];
        let mut l = after.clone();
        for (i, s) in stmts.iter().enumerate().rev() {
            outs[i] = l.clone();
            l = self.transfer(s, l, &self.exit, 0);
        }
        outs
    }

    /// One round over a statement list of a control (not an action), nested
    /// lists first; `after` is what is live after it. Returns whether anything
    /// changed.
    fn round(&self, stmts: &mut Vec<St>, after: &Live) -> bool {
        let mut c = false;
        let outs = self.live_outs(stmts, after);
        for (s, out) in stmts.iter_mut().zip(&outs) {
            match s {
                St::If(_, t, f) => {
                    c |= self.round(t, out);
                    c |= self.round(f, out);
                }
                St::Switch(_, arms, def) => {
                    for (_, b) in arms.iter_mut() {
                        c |= self.round(b, out);
                    }
                    c |= self.round(def, out);
                }
                _ => {}
            }
        }
        c |= self.substitute(stmts, after);
        c |= self.dead_stores(stmts, after);
        c
    }

    /// Forward substitution of slot definitions into later uses (see the
    /// module docs).
    fn substitute(&self, stmts: &mut [St], after: &Live) -> bool {
        let mut changed = false;
        let mut i = 0;
        let mut outs: Option<Vec<Live>> = None;
        while i < stmts.len() {
            let (d, e) = match &stmts[i] {
                St::Set(Dst::Slot(d), e) if self.internal.contains(*d) => (*d, e.clone()),
                _ => {
                    i += 1;
                    continue;
                }
            };
            // `d = f(d)`: substituting is only right if this definition goes
            // too (done below, by making it a self-assignment)
            let selfref = reads_slot(&e, d);
            let leaf = matches!(e, Ex::Const(_) | Ex::Slot(_)) && !selfref;
            let fields = reads_field(&e);
            let mut ops = Live::new(self.nslots);
            uses(&e, &mut ops);
            let o = outs.get_or_insert_with(|| self.live_outs(stmts, after));
            let mut dirty = false;
            for j in i + 1..stmts.len() {
                let out = &o[j];
                let (next, stop) = match &stmts[j] {
                    St::Set(dst, e2) => {
                        let n = count_slot(e2, d);
                        let full_def = *dst == Dst::Slot(d);
                        let writes_op = match dst {
                            Dst::Slot(x) => ops.contains(*x) || *x == d,
                            Dst::Field(_) => fields,
                        };
                        if n == 0 {
                            (None, writes_op)
                        } else if leaf
                            || ((n == 1 || size(&e) <= 2) && (full_def || !out.contains(d)))
                        {
                            let ne = subst(e2, d, &e);
                            (Some(St::Set(*dst, ne)), writes_op || !leaf)
                        } else {
                            (None, true)
                        }
                    }
                    St::SetSlice(x, lo, m, e2) => {
                        if *x == d {
                            (None, true)
                        } else {
                            let n = count_slot(e2, d);
                            let stop = ops.contains(*x);
                            if n == 0 {
                                (None, stop)
                            } else if leaf || ((n == 1 || size(&e) <= 2) && !out.contains(d)) {
                                let ne = subst(e2, d, &e);
                                (Some(St::SetSlice(*x, *lo, *m, ne)), stop || !leaf)
                            } else {
                                (None, true)
                            }
                        }
                    }
                    St::If(c, t, f) if reads_slot(c, d) => {
                        let ok = leaf || count_slot(c, d) == 1 || size(&e) <= 2;
                        let dead = {
                            let mut a = self.live_in(t, out, &self.exit, 0);
                            a.union(&self.live_in(f, out, &self.exit, 0));
                            !a.contains(d)
                        };
                        if ok && (leaf || dead) {
                            let nc = subst(c, d, &e);
                            (Some(St::If(nc, t.clone(), f.clone())), true)
                        } else {
                            (None, true)
                        }
                    }
                    _ => (None, true),
                };
                if let Some(n) = next {
                    stmts[j] = n;
                    changed = true;
                    dirty = true;
                }
                if stop {
                    break;
                }
            }
            if dirty {
                outs = None;
                if selfref {
                    stmts[i] = St::Set(Dst::Slot(d), Ex::Slot(d));
                }
            }
            i += 1;
        }
        changed
    }

    /// Removes assignments to internal slots that are dead afterwards, and
    /// self-assignments.
    fn dead_stores(&self, stmts: &mut Vec<St>, after: &Live) -> bool {
        let mut l = after.clone();
        let mut keep = vec![true; stmts.len()];
        for (i, s) in stmts.iter().enumerate().rev() {
            if let St::Set(Dst::Slot(d), e) = s {
                if *e == Ex::Slot(*d) || (self.internal.contains(*d) && !l.contains(*d)) {
                    keep[i] = false;
                    continue;
                }
            }
            l = self.transfer(s, l, &self.exit, 0);
        }
        let before = stmts.len();
        let mut k = keep.iter();
        stmts.retain(|_| *k.next().unwrap_or(&true));
        stmts.len() != before
    }
}

/// The slot a straight-line statement overwrites whole (dead before it unless it reads it).
fn killed(s: &St) -> Option<Slot> {
    match s {
        St::Set(Dst::Slot(d), _)
        | St::RegRead {
            dst: Dst::Slot(d), ..
        }
        | St::Hash {
            dst: Dst::Slot(d), ..
        }
        | St::Meter {
            dst: Dst::Slot(d), ..
        } => Some(*d),
        _ => None,
    }
}

/// Adds the slots a straight-line statement reads (writing a field reads its header's
/// base; a checksum reads its destination) and returns true; returns false, adding
/// nothing, for control flow, table applies, action calls, `emit`, `exit` and `return`,
/// which each caller treats its own way.
fn straight_reads(s: &St, l: &mut Live) -> bool {
    let dst_base = |d: &Dst, l: &mut Live| {
        if let Dst::Field(f) = d {
            l.insert(f.base);
        }
    };
    match s {
        St::Set(d, e) => {
            dst_base(d, l);
            uses(e, l);
        }
        St::SetSlice(d, _, _, e) => {
            l.insert(*d);
            uses(e, l);
        }
        St::Copy(items) => {
            for it in items {
                match *it {
                    CopyItem::Slot(_, s) => l.insert(s),
                    CopyItem::Bytes(d, s, _) => {
                        l.insert(d);
                        l.insert(s);
                    }
                }
            }
        }
        St::RegRead { dst, idx, .. } => {
            dst_base(dst, l);
            uses(idx, l);
        }
        St::RegWrite { idx, val, .. } => {
            uses(idx, l);
            uses(val, l);
        }
        St::Count { idx, .. } => uses(idx, l),
        St::Meter { dst, idx, .. } => {
            dst_base(dst, l);
            uses(idx, l);
        }
        St::Hash {
            dst,
            base,
            data,
            max,
            ..
        } => {
            dst_base(dst, l);
            uses(base, l);
            uses(max, l);
            for (e, _) in data {
                uses(e, l);
            }
        }
        St::Checksum {
            cond,
            data,
            plan,
            field,
            ..
        } => {
            match field {
                Dst::Slot(x) => l.insert(*x),
                Dst::Field(f) => l.insert(f.base),
            }
            uses(cond, l);
            for (e, _) in data {
                uses(e, l);
            }
            for it in plan.iter().flatten() {
                match it {
                    CsumItem::Val(e, _) => uses(e, l),
                    CsumItem::Bytes(b, ..) => l.insert(*b),
                }
            }
        }
        St::MarkToDrop | St::Extract(_) => {}
        St::If(..)
        | St::Switch(..)
        | St::Apply { .. }
        | St::CallAction { .. }
        | St::Emit(_)
        | St::Exit
        | St::Return => return false,
    }
    true
}

/// Every slot read anywhere in `stmts` (any path, any depth).
fn all_reads(stmts: &[St], l: &mut Live) {
    for s in stmts {
        if straight_reads(s, l) {
            continue;
        }
        match s {
            St::If(c, t, f) => {
                uses(c, l);
                all_reads(t, l);
                all_reads(f, l);
            }
            St::Switch(s, arms, def) => {
                l.insert(*s);
                for (_, b) in arms {
                    all_reads(b, l);
                }
                all_reads(def, l);
            }
            St::CallAction { args, copy_out, .. } => {
                for a in args {
                    uses(a, l);
                }
                for (d, s) in copy_out {
                    if let Dst::Field(f) = d {
                        l.insert(f.base);
                    }
                    l.insert(*s);
                }
            }
            // applies, emit, exit, return read nothing here; straight-line ones are done
            _ => {}
        }
    }
}

/// Optimises the control blocks of `c` in place (see the module docs).
pub(crate) fn optimize(c: &mut Compiled) {
    let n = c.nslots;
    // observable: standard_metadata, header validity and position
    let mut internal = Live::new(n);
    for s in 0..n as Slot {
        internal.insert(s);
    }
    for (s, name) in c.slot_names.iter().enumerate() {
        if name.starts_with("standard_metadata.") {
            internal.remove(s as Slot);
        }
    }
    for h in &c.headers {
        internal.remove(h.valid);
        internal.remove(h.base);
    }
    let std = &c.std;
    for s in [
        std.ingress_port,
        std.egress_spec,
        std.egress_port,
        std.packet_length,
        std.mcast_grp,
        std.checksum_error,
        std.parser_error,
    ] {
        internal.remove(s);
    }
    // read by any action or table key (whichever control applies them)
    let mut shared = Live::new(n);
    for a in &c.actions {
        all_reads(&a.body, &mut shared);
    }
    for t in &c.tables {
        for k in &t.keys {
            uses(&k.ex, &mut shared);
        }
    }
    let observable = {
        let mut o = Live::full(n);
        for (w, i) in o.0.iter_mut().zip(&internal.0) {
            *w &= !i;
        }
        o
    };
    // what is live at the end of each control: observable slots, slots read
    // by actions or keys, and slots read by any later block
    let blocks: [&Vec<St>; 5] = [&c.verify, &c.ingress, &c.egress, &c.compute, &c.deparser];
    let mut exits = Vec::new();
    for i in 0..blocks.len() {
        let mut l = observable.clone();
        l.union(&shared);
        for later in &blocks[i + 1..] {
            all_reads(later, &mut l);
        }
        exits.push(l);
    }
    let mut bodies = [
        std::mem::take(&mut c.verify),
        std::mem::take(&mut c.ingress),
        std::mem::take(&mut c.egress),
        std::mem::take(&mut c.compute),
        std::mem::take(&mut c.deparser),
    ];
    for (body, exit) in bodies.iter_mut().zip(exits) {
        let cx = Cx {
            actions: &c.actions,
            tables: &c.tables,
            headers: &c.headers,
            nslots: n,
            exit: exit.clone(),
            internal: internal.clone(),
        };
        for _ in 0..8 {
            if !cx.round(body, &exit) {
                break;
            }
        }
    }
    let [v, i, e, cc, d] = bodies;
    c.verify = v;
    c.ingress = i;
    c.egress = e;
    c.compute = cc;
    c.deparser = d;
}
