//! Step 3's driver and control flow: blocks in reverse post-order, each instruction through
//! `translate_inst`; LLVM phis become block parameters (`bind_phi`, `edge_args`), and
//! terminators `br`/`brif`/`switch`/`return`.

use super::*;

impl<'a> Lifter<'a> {
    pub(crate) fn translate(&mut self, order: &[&'a llvm_ir::BasicBlock]) {
        if let Some(p) = self.f.parameters.first() {
            self.vals
                .insert(p.name.clone(), Lowered::Ptr(Ptr::Element(0)));
        }
        // The second parameter: the packet, or the timer's `now` (read in the entry block
        // below).
        let now_param = match self.f.parameters.get(1) {
            Some(p) if self.building == FuncId::Timer => Some(p.name.clone()),
            Some(p) => {
                self.vals.insert(p.name.clone(), Lowered::Ptr(Ptr::Packet));
                None
            }
            None => None,
        };
        let reachable: HashSet<&Name> = order.iter().map(|b| &b.name).collect();
        self.narrow_phis = self.narrow_index_phis();
        let position: HashMap<&Name, usize> = order
            .iter()
            .enumerate()
            .map(|(i, b)| (&b.name, i))
            .collect();
        for (i, bb) in order.iter().enumerate() {
            if successors(&bb.term)
                .iter()
                .any(|s| position.get(s).is_some_and(|&j| j <= i))
            {
                self.loop_latches.insert(bb.name.clone());
            }
        }
        for bb in order {
            for s in successors(&bb.term) {
                if reachable.contains(&s) {
                    let p = self.preds.entry(s.clone()).or_default();
                    if !p.contains(&bb.name) {
                        p.push(bb.name.clone());
                    }
                }
            }
        }
        // Blocks and their parameters.
        for (i, bb) in order.iter().enumerate() {
            let b = self.out_mut().add_block();
            self.blocks.insert(bb.name.clone(), b);
            let npreds = self.preds.get(&bb.name).map_or(0, Vec::len);
            if i == 0 || npreds < 2 {
                continue;
            }
            let mut phis = Vec::new();
            for inst in &bb.instrs {
                if let Instruction::Phi(p) = inst {
                    let ty = match p.to_type.as_ref() {
                        LType::IntegerType { .. } if self.narrow_phis.contains(&p.dest) => {
                            Type::I32
                        }
                        LType::IntegerType { bits } => Type::int(*bits).unwrap_or(Type::I64),
                        // A choice between places carries the index of the place; a payload
                        // pointer carries its offset.
                        _ if matches!(self.provs.get(&p.dest), Some(Prov::OneOf(_))) => Type::I8,
                        _ => Type::I64,
                    };
                    let v = self.out_mut().add_block_param(b, ty);
                    phis.push((p.dest.clone(), v));
                }
            }
            for (name, _) in &phis {
                let finds = self.found_alternatives(name);
                if finds.is_empty() {
                    continue;
                }
                let carried = finds
                    .into_iter()
                    .map(|(fi, tys)| {
                        let params = tys
                            .into_iter()
                            .map(|t| self.module.process.add_block_param(b, t))
                            .collect();
                        (fi, params)
                    })
                    .collect();
                self.found_params.insert(name.clone(), carried);
            }
            self.phi_params.insert(bb.name.clone(), phis);
            let slot_types: Vec<Vec<u64>> = self
                .allocas
                .iter()
                .map(|a| a.slots.iter().map(|s| s.1).collect())
                .collect();
            let params = slot_types
                .into_iter()
                .map(|ws| {
                    ws.into_iter()
                        .map(|w| self.out_mut().add_block_param(b, ty_of_bytes(w)))
                        .collect()
                })
                .collect();
            self.slot_params.insert(bb.name.clone(), params);
        }
        let index: HashMap<&Name, usize> = self
            .f
            .basic_blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (&b.name, i))
            .collect();
        let shape_ok = self.srcmap.blocks.len() == self.f.basic_blocks.len()
            && self
                .f
                .basic_blocks
                .iter()
                .zip(&self.srcmap.blocks)
                .all(|(b, m)| m.len() == b.instrs.len() + 1);
        if !shape_ok {
            // The text did not have the shape of the parsed module: innermost locations only.
            self.srcmap.blocks.clear();
        }
        for (i, bb) in order.iter().enumerate() {
            self.cur = self.blocks[&bb.name];
            self.srcloc = None;
            self.loc = None;
            self.user = UserLoc::default();
            let bi = index.get(&bb.name).copied().unwrap_or(usize::MAX);
            if i == 0 {
                if let Some(now) = &now_param {
                    let v = self.ins1(InstKind::MetaRead { meta: Meta::Now }, Meta::Now.ty());
                    self.def(now, v);
                }
            }
            // Incoming local-memory state.
            if i == 0 {
                let widths: Vec<Vec<u64>> = self
                    .allocas
                    .iter()
                    .map(|a| a.slots.iter().map(|s| s.1).collect())
                    .collect();
                self.slots = widths
                    .into_iter()
                    .map(|ws| {
                        ws.into_iter()
                            .map(|w| self.iconst(ty_of_bytes(w), 0))
                            .collect()
                    })
                    .collect();
            } else if let Some(p) = self.slot_params.get(&bb.name) {
                self.slots = p.clone();
                for (n, v) in self.phi_params[&bb.name].clone() {
                    self.bind_phi(&n, v, bb);
                }
            } else {
                let pred = self.preds.get(&bb.name).and_then(|p| p.first()).cloned();
                self.slots = pred
                    .and_then(|p| self.end_slots.get(&p).cloned())
                    .unwrap_or_default();
            }
            for (k, inst) in bb.instrs.iter().enumerate() {
                self.at = (bi, k);
                self.translate_inst(inst, bb);
                // An instruction that failed defines its result as 0, so that its uses do not
                // report further errors.
                if let Some(dest) = inst.try_get_result() {
                    if !self.vals.contains_key(dest) {
                        let ty = self.types.type_of(inst);
                        let z = self.zero_of(&ty);
                        self.vals.insert(dest.clone(), z);
                    }
                }
            }
            self.at = (bi, bb.instrs.len());
            self.translate_term(bb);
        }
    }

    pub(super) fn bind_phi(&mut self, name: &Name, v: Value, bb: &llvm_ir::BasicBlock) {
        let is_ptr = bb.instrs.iter().any(|i| match i {
            Instruction::Phi(p) => &p.dest == name && is_ptr(&p.to_type),
            _ => false,
        });
        if is_ptr {
            let ptr = match self.provs.get(name) {
                Some(Prov::OneOf(alts)) => {
                    let alts: Vec<Ptr> = alts.iter().filter_map(prov_to_ptr).collect();
                    let alts = alts
                        .into_iter()
                        .map(|a| self.carried_find(name, a))
                        .collect();
                    Ptr::OneOf(v, alts)
                }
                // The same place on every edge (`eth = pkt.push<EthHdr>()` on one path,
                // `pkt.eth()` on the other): that place (the parameter carries nothing).
                Some(Prov::HeaderBytes(h)) => Ptr::HeaderBytes(*h, v),
                Some(p) => prov_to_ptr(p).unwrap_or(Ptr::Payload(v)),
                None => Ptr::Payload(v),
            };
            self.vals.insert(name.clone(), Lowered::Ptr(ptr));
        } else if self.narrow_phis.contains(name) {
            let wide = self.resize(v, Type::I64);
            self.def(name, wide);
        } else {
            self.def(name, v);
        }
    }

    pub(super) fn edge_args(&mut self, from: &Name, to: &Name) -> (Block, Vec<Value>) {
        let b = self.blocks[to];
        let Some(phis) = self.phi_params.get(to).cloned() else {
            return (b, vec![]);
        };
        let mut args = Vec::new();
        let mut found_args = Vec::new();
        let target = self.f.basic_blocks.iter().find(|bb| &bb.name == to);
        for (pname, param) in phis {
            let incoming = target.and_then(|bb| {
                bb.instrs.iter().find_map(|i| match i {
                    Instruction::Phi(p) if p.dest == pname => p
                        .incoming_values
                        .iter()
                        .find(|(_, pred)| pred == from)
                        .map(|(op, _)| op.clone()),
                    _ => None,
                })
            });
            let ty = self.ty(param);
            let target_alts = match self.provs.get(&pname) {
                Some(Prov::OneOf(alts)) => {
                    Some(alts.iter().filter_map(prov_to_ptr).collect::<Vec<_>>())
                }
                _ => None,
            };
            let same_place = self.provs.get(&pname).and_then(prov_to_ptr).is_some();
            let lowered = incoming.map(|op| self.lower(&op));
            if let Some(carried) = self.found_params.get(&pname).cloned() {
                let from = match &lowered {
                    Some(Lowered::Ptr(p)) => p.clone(),
                    _ => Ptr::Null,
                };
                found_args.extend(self.found_args(&carried, &from));
            }
            let lowered = lowered.map(|l| match l {
                Lowered::Ptr(p) => Lowered::Ptr(self.origin_ptr(p)),
                other => other,
            });
            let v = match lowered {
                Some(Lowered::Int(v)) if self.narrow_phis.contains(&pname) => self.low32(v, 4),
                Some(Lowered::Int(v)) => self.resize(v, ty),
                Some(Lowered::Ptr(_)) if same_place => self.iconst(ty, 0),
                Some(Lowered::Ptr(p)) if target_alts.is_some() => {
                    let alts = target_alts.unwrap_or_default();
                    match self.index_in(&alts, &p) {
                        Some(v) => v,
                        None => {
                            self.err(
                                Code::UntraceablePointer,
                                "a pointer chosen at run time between objects",
                            );
                            self.iconst(ty, 0)
                        }
                    }
                }
                Some(Lowered::Ptr(Ptr::Payload(o))) => o,
                Some(Lowered::Ptr(p @ (Ptr::Header(..) | Ptr::HeaderBytes(..))))
                    if matches!(self.provs.get(&pname), Some(Prov::HeaderBytes(_))) =>
                {
                    self.header_offset(&p)
                }
                Some(Lowered::Ptr(_)) => {
                    self.err(
                        Code::UntraceablePointer,
                        "a pointer chosen at run time between objects",
                    );
                    self.iconst(ty, 0)
                }
                None => self.iconst(ty, 0),
            };
            args.push(v);
        }
        args.extend(found_args);
        args.extend(self.slots.iter().flatten().copied());
        (b, args)
    }

    /// The finds among the places pointer phi `name` chooses from, with the types of their
    /// hit and value fields.
    fn found_alternatives(&self, name: &Name) -> Vec<(usize, Vec<Type>)> {
        let Some(Prov::OneOf(alts)) = self.provs.get(name) else {
            return Vec::new();
        };
        let mut out: Vec<(usize, Vec<Type>)> = Vec::new();
        for a in alts {
            let Prov::Found(fi, _) = a else { continue };
            if out.iter().any(|(f, _)| f == fi) {
                continue;
            }
            let Some(state) = self
                .find_member
                .get(*fi)
                .and_then(|m| self.map_states.get(m))
            else {
                continue;
            };
            let tys = std::iter::once(Type::I1)
                .chain(self.value_layout(*state).types())
                .collect();
            out.push((*fi, tys));
        }
        out
    }

    /// Alternative `a` of pointer phi `name`: a find's result is read from the parameters
    /// that carry it to the join (a new find index standing for the original).
    fn carried_find(&mut self, name: &Name, a: Ptr) -> Ptr {
        let Ptr::Found(fi, off) = a else { return a };
        let Some((_, params)) = self
            .found_params
            .get(name)
            .and_then(|c| c.iter().find(|(f, _)| *f == fi))
            .cloned()
        else {
            return a;
        };
        let Some(state) = self
            .find_member
            .get(fi)
            .and_then(|m| self.map_states.get(m))
        else {
            return a;
        };
        let layout = self.value_layout(*state);
        let fields = layout
            .fields
            .iter()
            .zip(&params[1..])
            .map(|(f, &v)| (u64::from(f.offset.unwrap_or(0)), u64::from(f.ty.bytes()), v))
            .collect();
        let fk = self.finds.len().max(self.find_member.len());
        self.finds.resize_with(fk + 1, || None);
        self.finds[fk] = Some(FindRes {
            hit: params[0],
            fields,
        });
        self.find_origin.insert(fk, self.origin(fi));
        Ptr::Found(fk, off)
    }

    /// The find a find index stands for.
    fn origin(&self, fi: usize) -> usize {
        self.find_origin.get(&fi).copied().unwrap_or(fi)
    }

    /// `p` with every find index replaced by the find it stands for (to compare with the
    /// scan's places).
    fn origin_ptr(&self, p: Ptr) -> Ptr {
        match p {
            Ptr::Found(fi, o) => Ptr::Found(self.origin(fi), o),
            Ptr::OneOf(sel, alts) => {
                Ptr::OneOf(sel, alts.into_iter().map(|a| self.origin_ptr(a)).collect())
            }
            other => other,
        }
    }

    /// The arguments of `carried` (finds and their parameters) on an edge where the phi's
    /// incoming pointer is `from`: the values of the find `from` is, or may be, else zeros
    /// (the phi's index never chooses a find that did not run on the edge).
    fn found_args(&mut self, carried: &[(usize, Vec<Value>)], from: &Ptr) -> Vec<Value> {
        let mut out = Vec::new();
        for (fi, params) in carried {
            let here: Vec<usize> = match from {
                Ptr::Found(x, _) => vec![*x],
                Ptr::OneOf(_, alts) => alts
                    .iter()
                    .filter_map(|a| match a {
                        Ptr::Found(x, _) => Some(*x),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let res = here
                .into_iter()
                .find(|&x| self.origin(x) == *fi)
                .and_then(|x| self.finds.get(x).cloned().flatten());
            match res {
                Some(f) if f.fields.len() + 1 == params.len() => {
                    out.push(f.hit);
                    out.extend(f.fields.iter().map(|&(_, _, v)| v));
                }
                _ => {
                    for &p in params {
                        let ty = self.ty(p);
                        out.push(self.iconst(ty, 0));
                    }
                }
            }
        }
        out
    }

    pub(super) fn translate_term(&mut self, bb: &llvm_ir::BasicBlock) {
        let dl = match &bb.term {
            Terminator::Ret(r) => r.debugloc.clone(),
            Terminator::Br(r) => r.debugloc.clone(),
            Terminator::CondBr(r) => r.debugloc.clone(),
            Terminator::Switch(r) => r.debugloc.clone(),
            Terminator::Unreachable(r) => r.debugloc.clone(),
            _ => None,
        };
        self.set_loc(&dl);
        // A timer runs on the server whole, once per tick: its loops are not per packet.
        if self.loop_latches.contains(&bb.name) && self.building != FuncId::Timer {
            self.err(
                Code::LoopNotUnrolled,
                "it runs on the server, and may never end on some packet if its exit depends \
                 on packet data or state",
            );
        }
        self.end_slots.insert(bb.name.clone(), self.slots.clone());
        match &bb.term {
            Terminator::Ret(_) | Terminator::Unreachable(_) => {
                self.ins(InstKind::Return, &[]);
            }
            Terminator::Br(lt::Br { dest, .. }) => {
                let (b, args) = self.edge_args(&bb.name, dest);
                self.ins(
                    InstKind::Jump {
                        dest: BlockCall::new(b, args),
                    },
                    &[],
                );
            }
            Terminator::CondBr(c) => {
                let cond = self.int(&c.condition);
                let (tb, ta) = self.edge_args(&bb.name, &c.true_dest);
                let (fb, fa) = self.edge_args(&bb.name, &c.false_dest);
                self.ins(
                    InstKind::Brif {
                        cond,
                        then_dest: BlockCall::new(tb, ta),
                        else_dest: BlockCall::new(fb, fa),
                    },
                    &[],
                );
            }
            Terminator::Switch(s) => {
                let arg = self.int(&s.operand);
                let (db, da) = self.edge_args(&bb.name, &s.default_dest);
                let mut cases = Vec::new();
                for (k, d) in &s.dests {
                    let Constant::Int { value, .. } = k.as_ref() else {
                        continue;
                    };
                    let (b, a) = self.edge_args(&bb.name, d);
                    cases.push((*value, BlockCall::new(b, a)));
                }
                self.ins(
                    InstKind::Switch {
                        arg,
                        default: BlockCall::new(db, da),
                        cases,
                    },
                    &[],
                );
            }
            other => {
                self.err(
                    Code::UnsupportedInstruction,
                    format!("the terminator `{other}` (exceptions?)"),
                );
                self.ins(InstKind::Return, &[]);
            }
        }
    }
}
