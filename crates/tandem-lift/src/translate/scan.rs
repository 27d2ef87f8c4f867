//! Pass 1: the provenance of every pointer (a header, an element member, a local, a map value,
//! a constant, the payload) and the byte ranges each state member is accessed with, from which
//! the state declarations' layouts are made.

use super::*;

impl<'a> Lifter<'a> {
    pub(super) fn prov_of(&self, op: &Operand) -> Prov {
        match op {
            Operand::LocalOperand { name, .. } => self
                .provs
                .get(name)
                .cloned()
                .unwrap_or_else(|| Prov::Unknown(format!("%{}", name_str(name)))),
            Operand::ConstantOperand(c) => match c.as_ref() {
                Constant::Null(_) => Prov::Null,
                Constant::GlobalReference { name, .. } => {
                    if const_global_bytes(self.lm, name).is_some() {
                        Prov::Const(name.clone(), 0)
                    } else {
                        Prov::Unknown(format!("global @{}", name_str(name)))
                    }
                }
                _ => Prov::Unknown("a constant expression".into()),
            },
            Operand::MetadataOperand => Prov::Unknown("metadata".into()),
        }
    }

    pub(super) fn note_range(&mut self, p: &Prov, off: i64, len: u64) {
        match p {
            Prov::OneOf(alts) => {
                for a in alts.clone() {
                    self.note_range(&a, off, len);
                }
            }
            Prov::Alloca(a, o) => {
                let info = &mut self.allocas[*a];
                let s = (o + off).max(0) as u64;
                info.bounds.insert(s.min(info.size));
                info.bounds.insert((s + len).min(info.size));
            }
            Prov::Found(fi, o) => {
                let m = self.find_member[*fi];
                let s = (o + off).max(0) as u64;
                self.uses[m].val_bounds.insert(s);
                self.uses[m].val_bounds.insert(s + len);
            }
            Prov::Element(o) => {
                let o = o + off;
                if let Some(m) = self.member_at(o) {
                    let (rel, size) = (o - self.members[m].offset, self.members[m].size as u64);
                    // A member of at most 8 bytes read or written in parts (`uint8_t
                    // mac[6]` byte by byte, the halves of a `uint64_t`) is one scalar of its
                    // whole size; loads extract the bytes and stores merge them.
                    let inside = rel >= 0 && rel as u64 + len <= size && size <= 8;
                    let u = &mut self.uses[m];
                    let parts = rel != 0 || u.scalar_width.is_some_and(|w| w != len);
                    match u.scalar_width {
                        _ if parts && inside => u.scalar_width = Some(size),
                        _ if rel != 0 && size > 8 => {
                            u.conflict = Some(format!(
                                "accessed in parts, but it is {size} bytes: a member read field \
                                 by field (a struct, an array) may have at most 8 bytes — split \
                                 it into members of at most 8 bytes, or hold it in a \
                                 `Vector<T, 1>`"
                            ));
                        }
                        _ if rel != 0 => {
                            u.conflict = Some("accessed at an inner offset".into());
                        }
                        Some(w) if w != len => {
                            u.conflict = Some(format!("read as {w} and as {len} bytes"))
                        }
                        _ => u.scalar_width = Some(len),
                    }
                }
            }
            _ => {}
        }
    }

    pub(super) fn const_u64(op: &Operand) -> Option<u64> {
        match op {
            Operand::ConstantOperand(c) => match c.as_ref() {
                Constant::Int { value, .. } => Some(*value),
                _ => None,
            },
            _ => None,
        }
    }

    pub(super) fn record_map_use(
        &mut self,
        member_prov: &Prov,
        flavor: MapFlavor,
        ks: u64,
        vs: u64,
        cap: u64,
    ) {
        let Prov::Element(off) = member_prov else {
            return;
        };
        let Some(m) = self.member_at(*off) else {
            return;
        };
        let u = &mut self.uses[m];
        match u.map {
            Some((f, k, v, c))
                if (f, k, c) != (flavor, ks, cap) || (vs != 0 && v != 0 && v != vs) =>
            {
                u.conflict = Some("used as maps of different types".into());
            }
            Some((f, k, 0, c)) => u.map = Some((f, k, vs, c)),
            Some(_) => {}
            None => u.map = Some((flavor, ks, vs, cap)),
        }
        if u.vec.is_some() {
            u.conflict = Some("used both as a map and as a vector".into());
        }
        if u.meter.is_some() {
            u.conflict = Some("used both as a map and as a meter".into());
        }
    }

    /// Key/value sources for map layouts: the alloca range passed to an API call.
    pub(super) fn note_layout_source(
        &mut self,
        member_prov: &Prov,
        ptr: &Prov,
        len: u64,
        is_key: bool,
    ) {
        let Prov::Element(moff) = member_prov else {
            return;
        };
        let Some(m) = self.member_at(*moff) else {
            return;
        };
        self.note_range(ptr, 0, len);
        if let Prov::Alloca(a, o) = ptr {
            let o = (*o).max(0) as u64;
            let inner: Vec<u64> = self.allocas[*a]
                .bounds
                .range(o..=o + len)
                .map(|b| b - o)
                .collect();
            let u = &mut self.uses[m];
            let set = if is_key {
                &mut u.key_bounds
            } else {
                &mut u.val_bounds
            };
            set.extend(inner);
        }
    }

    pub(crate) fn scan(&mut self, order: &[&'a llvm_ir::BasicBlock]) {
        if let Some(p) = self.f.parameters.first() {
            self.provs.insert(p.name.clone(), Prov::Element(0));
        }
        if let Some(p) = self.f.parameters.get(1) {
            self.provs.insert(p.name.clone(), Prov::Packet);
        }
        // Two rounds so that pointer phis see values defined later (loops).
        for round in 0..2 {
            for bb in order {
                for inst in &bb.instrs {
                    if round == 0 {
                        if let Instruction::Call(li::Call {
                            function: either::Either::Right(Operand::LocalOperand { name, .. }),
                            ..
                        }) = inst
                        {
                            self.call_targets.insert(name.clone());
                        }
                        for op in operands_of(inst) {
                            if let Operand::LocalOperand { name, .. } = op {
                                self.used_names.insert(name.clone());
                            }
                        }
                    }
                    self.scan_inst(inst, round);
                }
                if round == 0 {
                    for op in term_operands(&bb.term) {
                        if let Operand::LocalOperand { name, .. } = op {
                            self.used_names.insert(name.clone());
                        }
                    }
                }
            }
        }
        for a in &mut self.allocas {
            let mut b: Vec<u64> = a.bounds.iter().copied().filter(|&x| x <= a.size).collect();
            b.push(0);
            b.push(a.size);
            b.sort_unstable();
            b.dedup();
            a.slots = split_ranges(&b);
        }
    }

    pub(super) fn scan_inst(&mut self, inst: &'a Instruction, round: usize) {
        self.scan_inst_inner(inst, round);
        // Blame the first access that made a member's use inconsistent.
        let loc = inst_debugloc(inst).map(|d| SrcLoc {
            file: display_path(&d.filename, d.directory.as_deref()),
            line: d.line,
            col: d.col.unwrap_or(0),
        });
        for u in &mut self.uses {
            if u.conflict.is_some() && u.conflict_loc.is_none() {
                u.conflict_loc = loc.clone();
            }
        }
    }

    pub(super) fn scan_inst_inner(&mut self, inst: &'a Instruction, round: usize) {
        match inst {
            Instruction::Alloca(a) => {
                if round == 0 {
                    let size = layout::size_align(self.types, &a.allocated_type)
                        .map(|(s, _)| s)
                        .unwrap_or(0)
                        * Self::const_u64(&a.num_elements).unwrap_or(1);
                    let id = self.allocas.len();
                    self.allocas.push(AllocaInfo {
                        size,
                        bounds: BTreeSet::new(),
                        slots: Vec::new(),
                    });
                    self.alloca_index.insert(a.dest.clone(), id);
                }
                let id = self.alloca_index[&a.dest];
                self.provs.insert(a.dest.clone(), Prov::Alloca(id, 0));
            }
            Instruction::GetElementPtr(g) => {
                let base = self.prov_of(&g.address);
                let p = match gep_offset(self.types, g) {
                    Some((off, d)) if d.is_empty() => offset_prov(base, off),
                    Some(_) if base == Prov::Payload => Prov::Payload,
                    Some(_) if matches!(base, Prov::HeaderBytes(_)) => base,
                    Some(_) if matches!(base, Prov::Header(h, _) if self.header_bytes_ok(h)) => {
                        match base {
                            Prov::Header(h, _) => Prov::HeaderBytes(h),
                            other => other,
                        }
                    }
                    Some(_) if matches!(base, Prov::Const(..)) => base,
                    Some(_) => Prov::Unknown("a variable index".into()),
                    None => Prov::Unknown("an unsupported GEP".into()),
                };
                self.provs.insert(g.dest.clone(), p);
            }
            Instruction::Phi(p) if is_ptr(&p.to_type) => {
                let provs: Vec<Prov> = p
                    .incoming_values
                    .iter()
                    .map(|(op, _)| self.prov_of(op))
                    .collect();
                let payload = provs
                    .iter()
                    .all(|x| *x == Prov::Payload || (round == 0 && matches!(x, Prov::Unknown(_))));
                let first = provs.first().cloned();
                let same = first.as_ref().is_some_and(|f| {
                    provs.iter().all(|x| x == f) && !matches!(f, Prov::Unknown(_))
                });
                let prov = if same {
                    first.unwrap_or(Prov::Null)
                } else if payload {
                    Prov::Payload
                } else if let Some(h) = header_bytes_phi(&provs, round) {
                    Prov::HeaderBytes(h)
                } else {
                    one_of(provs)
                };
                self.provs.insert(p.dest.clone(), prov);
            }
            Instruction::Select(s) if is_ptr_operand(self.types, &s.true_value) => {
                let (a, b) = (self.prov_of(&s.true_value), self.prov_of(&s.false_value));
                let prov = if a == b {
                    a
                } else if let Some(h) = header_bytes_phi(&[a.clone(), b.clone()], 1) {
                    Prov::HeaderBytes(h)
                } else {
                    one_of(vec![a, b])
                };
                self.provs.insert(s.dest.clone(), prov);
            }
            Instruction::Load(l) if round == 1 => {
                let p = self.prov_of(&l.address);
                let len = layout::store_size(self.types, &l.loaded_ty).unwrap_or(0);
                self.note_range(&p, 0, len);
            }
            Instruction::Store(s) if round == 1 => {
                let p = self.prov_of(&s.address);
                let len =
                    layout::store_size(self.types, &self.types.type_of(&s.value)).unwrap_or(0);
                self.note_range(&p, 0, len);
            }
            Instruction::Call(c) => self.scan_call(c, round),
            _ => {}
        }
    }

    pub(super) fn scan_call(&mut self, c: &'a li::Call, round: usize) {
        let Some(callee) = callee_name(c) else { return };
        let arg = |i: usize| c.arguments.get(i).map(|a| &a.0);
        let argc = |i: usize| arg(i).and_then(Self::const_u64).unwrap_or(0);
        if let Some(dest) = &c.dest {
            let p = match callee.as_str() {
                "tandem_api_pkt_eth" => Some(Prov::Header(Header::Eth, 0)),
                "tandem_api_pkt_ipv4" => Some(Prov::Header(Header::Ipv4, 0)),
                "tandem_api_pkt_tcp" => Some(Prov::Header(Header::Tcp, 0)),
                "tandem_api_pkt_udp" => Some(Prov::Header(Header::Udp, 0)),
                "tandem_api_pkt_push" => Some(match arg(1) {
                    Some(tag) => {
                        let b = arg(2).and_then(Self::const_u64);
                        match super::headers::header_of_push(&self.module, tag, b) {
                            Ok(h) => Prov::Header(h, 0),
                            Err(msg) => Prov::Unknown(msg),
                        }
                    }
                    None => Prov::Unknown("pkt.push<H>() without its tag".into()),
                }),
                "tandem_api_pkt_header" => Some(match arg(1) {
                    Some(tag) => match super::headers::header_of_tag(&self.module, tag) {
                        Ok(h) => Prov::Header(h, 0),
                        Err(msg) => Prov::Unknown(msg),
                    },
                    None => Prov::Unknown("pkt.header<H>() without its tag".into()),
                }),
                "tandem_api_pkt_payload" => Some(Prov::Payload),
                "tandem_api_map_find" | "tandem_api_emap_find" | "tandem_api_lpm_find" => {
                    let idx = match self.find_index.get(dest) {
                        Some(i) => *i,
                        None => {
                            let i = self.find_member.len();
                            let m = match arg(0).map(|a| self.prov_of(a)) {
                                Some(Prov::Element(o)) => self.member_at(o).unwrap_or(usize::MAX),
                                _ => usize::MAX,
                            };
                            self.find_member.push(m);
                            self.find_index.insert(dest.clone(), i);
                            i
                        }
                    };
                    if self.find_member[idx] == usize::MAX {
                        Some(Prov::Unknown("a map that is not a listed member".into()))
                    } else {
                        Some(Prov::Found(idx, 0))
                    }
                }
                _ => None,
            };
            if let Some(p) = p {
                self.provs.insert(dest.clone(), p);
            }
        }
        if round != 1 {
            return;
        }
        let Some(a0) = arg(0) else { return };
        let m = self.prov_of(a0);
        if let Some(shape) = map_call_shape(&callee) {
            let (mut ks, cap) = (argc(shape.key_size), argc(shape.capacity));
            let mut lpm_words = 1;
            if shape.family == MapFamily::Lpm {
                // An LpmKey<E, A>'s size argument also says where `addr` starts (bits 32..48)
                // and, for an address of several 64-bit words (`LpmAddr128`), how many
                // (bits 48..56; lpm.hh).
                let split = (ks >> 32) & 0xffff;
                lpm_words = ((ks >> 48) & 0xff).max(1);
                ks &= 0xffff_ffff;
                if let Prov::Element(o) = &m {
                    if let Some(mi) = self.member_at(*o) {
                        let start = ks.saturating_sub(8 * lpm_words);
                        let bounds = &mut self.uses[mi].key_bounds;
                        if split > 0 && split < ks {
                            bounds.insert(split);
                        }
                        if lpm_words > 1 {
                            bounds.extend((0..lpm_words).map(|i| start + 8 * i).filter(|&b| b > 0));
                        }
                    }
                }
            }
            let vs = shape.value_size.map_or(0, argc);
            let flavor = match shape.family {
                MapFamily::Expiring => MapFlavor::Expiring(argc(shape.capacity + 1)),
                MapFamily::Plain => MapFlavor::Plain,
                MapFamily::Lpm => MapFlavor::Lpm(lpm_words as u32),
                MapFamily::Ternary => MapFlavor::Ternary,
                MapFamily::Range => MapFlavor::Range,
            };
            let mut ptrs: Vec<(usize, u64, bool)> =
                shape.key_ptrs.iter().map(|&i| (i, ks, true)).collect();
            ptrs.extend(shape.value_ptr.map(|i| (i, vs, false)));
            self.scan_map(&m, flavor, ks, vs, cap, &ptrs, c);
            return;
        }
        match callee.as_str() {
            "tandem_api_vec_get" | "tandem_api_vec_set" => {
                let (es, n) = (argc(3), argc(4));
                if let Prov::Element(off) = m {
                    if let Some(mi) = self.member_at(off) {
                        let u = &mut self.uses[mi];
                        if u.map.is_some() || u.vec.is_some_and(|v| v != (es, n)) {
                            u.conflict =
                                Some("used as a vector of another type or as a map".into());
                        }
                        u.vec = Some((es, n));
                        u.vec_written |= callee == "tandem_api_vec_set";
                        if let Some(p) = arg(2).map(|a| self.prov_of(a)) {
                            self.note_layout_source(&Prov::Element(off), &p, es, false);
                        }
                    }
                }
            }
            "tandem_api_meter_execute" | "tandem_api_meter_set_rates" => {
                let a: Vec<&Operand> = c.arguments.iter().map(|a| &a.0).collect();
                self.scan_meter(&m, super::meter::meter_shape(&a));
            }
            "tandem_api_vec_size" => {
                if let Prov::Element(off) = m {
                    if let Some(mi) = self.member_at(off) {
                        self.uses[mi].vec_size_used = true;
                    }
                }
            }
            "llvm.memcpy.p0.p0.i64" | "llvm.memmove.p0.p0.i64" => {
                let n = argc(2);
                let src = arg(1).map(|a| self.prov_of(a));
                self.note_range(&m, 0, n);
                if let Some(s) = src {
                    self.note_range(&s, 0, n);
                }
            }
            "llvm.memset.p0.i64" => self.note_range(&m, 0, argc(2)),
            "bcmp" | "memcmp" => {
                let n = argc(2);
                let other = arg(1).map(|a| self.prov_of(a));
                self.note_range(&m, 0, n);
                if let Some(o) = other {
                    self.note_range(&o, 0, n);
                }
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn scan_map(
        &mut self,
        m: &Prov,
        flavor: MapFlavor,
        ks: u64,
        vs: u64,
        cap: u64,
        ptr_args: &[(usize, u64, bool)],
        c: &li::Call,
    ) {
        self.record_map_use(m, flavor, ks, vs, cap);
        for &(i, len, is_key) in ptr_args {
            if let Some(a) = c.arguments.get(i) {
                let p = self.prov_of(&a.0);
                self.note_layout_source(m, &p, len, is_key);
            }
        }
    }
}
