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
                    let alts = alts.iter().filter_map(prov_to_ptr).collect();
                    Ptr::OneOf(v, alts)
                }
                // The same place on every edge (`eth = pkt.push<EthHdr>()` on one path,
                // `pkt.eth()` on the other): that place (the parameter carries nothing).
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
            let v = match incoming.map(|op| self.lower(&op)) {
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
        args.extend(self.slots.iter().flatten().copied());
        (b, args)
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
