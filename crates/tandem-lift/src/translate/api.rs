//! Calls: the NF API (`tandem_api_*`: packet, maps, vectors, hashes) and the LLVM intrinsics
//! that ordinary code produces (saturating arithmetic, bit counts, funnel shifts), lowered to
//! IR instructions. Changes whenever the NF API grows.

use super::*;

impl<'a> Lifter<'a> {
    pub(super) fn translate_call(&mut self, c: &'a li::Call) {
        let callee = match &c.function {
            either::Either::Left(_) => {
                self.err(Code::UnsupportedInstruction, "inline assembly");
                return;
            }
            either::Either::Right(Operand::ConstantOperand(k)) => match k.as_ref() {
                Constant::GlobalReference { name, .. } => name_str(name),
                _ => {
                    self.err(
                        Code::FunctionPointer,
                        "a call through a computed function pointer",
                    );
                    return;
                }
            },
            either::Either::Right(_) => {
                self.err(Code::FunctionPointer, "a call through a function pointer");
                return;
            }
        };
        let args: Vec<&Operand> = c.arguments.iter().map(|a| &a.0).collect();
        let dest = c.dest.clone();
        let used = dest.as_ref().is_some_and(|d| self.used_names.contains(d));
        if let Some(rest) = callee.strip_prefix("tandem_api_") {
            self.translate_api(rest, &args, dest.as_ref(), used);
        } else if callee.starts_with("llvm.") {
            self.translate_intrinsic(&callee, &args, dest.as_ref());
        } else if matches!(callee.as_str(), "bcmp" | "memcmp") && args.len() == 3 {
            self.translate_memcmp(callee == "memcmp", &args, dest.as_ref());
        } else if let Some(f) = self.lm.functions.iter().find(|f| f.name == callee) {
            let noinline = f
                .function_attributes
                .contains(&llvm_ir::function::FunctionAttribute::NoInline);
            let why = if noinline {
                "is marked noinline, so it was not inlined into process()"
            } else {
                "was not inlined into process() (recursion?)"
            };
            self.err(
                Code::Recursion,
                format!("`{}` {why}", demangle_hint(&callee)),
            );
        } else if is_allocator(&callee) {
            self.err(
                Code::DynamicMemory,
                format!("a call to `{}`", demangle_hint(&callee)),
            );
        } else if self.building == FuncId::Timer {
            // An opaque statement runs against a packet on the server; a tick has none.
            self.err(
                Code::TimerUnsupported,
                format!(
                    "on_timer() calls `{}`, which the front end does not know",
                    demangle_hint(&callee)
                ),
            );
        } else {
            self.err(
                Code::OpaqueCall,
                format!("`{}` is kept as an opaque call", demangle_hint(&callee)),
            );
            let iargs: Vec<Value> = args
                .iter()
                .filter_map(|a| match self.lower(a) {
                    Lowered::Int(v) => Some(v),
                    Lowered::Ptr(Ptr::Payload(o)) => Some(o),
                    Lowered::Ptr(_) => None,
                })
                .collect();
            let rty = match self.types.type_of(c).as_ref() {
                LType::IntegerType { bits } => Type::int(*bits),
                _ => None,
            };
            let tys: Vec<Type> = rty.into_iter().collect();
            let res = self.ins(
                InstKind::Opaque {
                    name: callee.clone(),
                    args: iargs,
                    reads: vec![Effect::All],
                    writes: vec![Effect::All],
                },
                &tys,
            );
            if let (Some(d), Some(&v)) = (dest, res.first()) {
                self.def(&d, v);
            }
        }
    }

    /// `map.insert` of the entry `key` names, with the value at `value_ptr`; its result
    /// (whether it was stored) defines `dest`.
    pub(super) fn insert_entry(
        &mut self,
        state: StateId,
        key: Vec<Value>,
        value_ptr: Option<&Operand>,
        dest: Option<&Name>,
    ) {
        let val_ptr = value_ptr.map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
        let layout = self.value_layout(state);
        let value = self.read_from(&val_ptr, &layout);
        let ok = self.ins1(InstKind::MapInsert { state, key, value }, Type::I1);
        if let Some(d) = dest {
            self.def(d, ok);
        }
    }

    pub(super) fn map_state(&mut self, m: usize) -> Option<StateId> {
        let s = self.map_states.get(&m).copied();
        if s.is_none() {
            let name = self.members[m].name.clone();
            self.err(Code::StateMisuse, format!("`{name}` is not a map"));
        }
        s
    }

    /// The map state and key of a `tandem_api_(e)map_*(map, key, ...)` call.
    pub(super) fn map_and_key(&mut self, args: &[&Operand]) -> Option<(StateId, Vec<Value>)> {
        let mp = self.ptr(args.first()?);
        let m = self.member_of(&mp)?;
        let state = self.map_state(m)?;
        let key_ptr = args.get(1).map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
        let key = self.key_values(state, &key_ptr);
        Some((state, key))
    }

    pub(super) fn key_values(&mut self, state: StateId, key_ptr: &Ptr) -> Vec<Value> {
        let layout = self.module.states[state]
            .kind
            .map_layouts()
            .map(|(k, _)| k.clone())
            .unwrap_or_default();
        self.read_from(key_ptr, &layout)
    }

    pub(super) fn value_layout(&self, state: StateId) -> Layout {
        match &self.module.states[state].kind {
            StateKind::Vector { elem, .. } => elem.clone(),
            k => k.map_layouts().map(|(_, v)| v.clone()).unwrap_or_default(),
        }
    }

    /// Reads `layout`'s fields from memory at `p` (layout offsets relative to `p`).
    pub(super) fn read_from(&mut self, p: &Ptr, layout: &Layout) -> Vec<Value> {
        let fields: Vec<(u64, Type)> = layout
            .fields
            .iter()
            .map(|f| (u64::from(f.offset.unwrap_or(0)), f.ty))
            .collect();
        fields
            .into_iter()
            .map(|(fo, ty)| {
                let v = self.load_ptr(p, fo as i64, u64::from(ty.bytes()));
                self.resize(v, ty)
            })
            .collect()
    }

    pub(super) fn translate_api(
        &mut self,
        op: &str,
        args: &[&Operand],
        dest: Option<&Name>,
        used: bool,
    ) {
        let pkt_header = |h| Some(h);
        let header = match op {
            "pkt_eth" => pkt_header(Header::Eth),
            "pkt_ipv4" => pkt_header(Header::Ipv4),
            "pkt_tcp" => pkt_header(Header::Tcp),
            "pkt_udp" => pkt_header(Header::Udp),
            _ => None,
        };
        if let Some(h) = header {
            if let Some(d) = dest {
                self.vals.insert(d.clone(), Lowered::Ptr(Ptr::Header(h, 0)));
            }
            return;
        }
        match op {
            "pkt_in_port"
            | "pkt_length"
            | "pkt_now"
            | "pkt_send"
            | "pkt_drop"
            | "pkt_payload"
            | "pkt_payload_len"
            | "pkt_update_checksums"
            | "ipv4_header_checksum" => self.translate_packet_api(op, args, dest),
            "map_find" | "emap_find" | "map_lookup" | "emap_lookup" | "lpm_find" | "lpm_lookup"
            | "tern_find" | "tern_lookup" | "range_find" | "range_lookup" | "map_insert"
            | "emap_insert" | "map_erase" | "emap_erase" | "map_size" | "emap_size"
            | "lpm_size" | "tern_size" | "range_size" => {
                self.translate_map_api(op, args, dest, used)
            }
            "lpm_insert" | "lpm_erase" => self.translate_lpm(op, args, dest),
            "tern_insert" | "tern_erase" | "range_insert" | "range_erase" => {
                self.translate_priority_entry(op, args, dest)
            }
            "meter_execute" | "meter_set_rates" => self.translate_meter(op, args, dest),
            "hash_bad_operand" | "hash" => self.translate_hash(op, args, dest),
            "vec_size" | "vec_get" | "vec_set" => self.translate_vec_api(op, args, dest),
            "pkt_header" | "pkt_push" | "pkt_pop" => self.translate_header_api(op, args, dest),
            other => self.unknown_api(other),
        }
    }

    /// `pkt.header<H>()`, `pkt.push<H>()`, `pkt.pop<H>()` of declared (or built-in) headers.
    fn translate_header_api(&mut self, op: &str, args: &[&Operand], dest: Option<&Name>) {
        if op == "pkt_push" || op == "pkt_pop" {
            let b = args.get(2).and_then(|a| Self::const_u64(a));
            match args
                .get(1)
                .map(|t| super::headers::header_of_push(&self.module, t, b))
            {
                Some(Ok(h)) => {
                    if op == "pkt_push" {
                        self.ins(InstKind::HdrPush { header: h }, &[]);
                        if let Some(d) = dest {
                            self.vals.insert(d.clone(), Lowered::Ptr(Ptr::Header(h, 0)));
                        }
                    } else {
                        self.ins(InstKind::HdrPop { header: h }, &[]);
                    }
                }
                Some(Err(msg)) => self.err(Code::HeaderDecl, msg),
                None => self.err(Code::HeaderDecl, "pkt.push<H>()/pop<H>() without its tag"),
            }
            return;
        }
        if op == "pkt_header" {
            match args
                .get(1)
                .map(|t| super::headers::header_of_tag(&self.module, t))
            {
                Some(Ok(h)) => {
                    if let Some(d) = dest {
                        self.vals.insert(d.clone(), Lowered::Ptr(Ptr::Header(h, 0)));
                    }
                }
                Some(Err(msg)) => self.err(Code::HeaderDecl, msg),
                None => self.err(Code::HeaderDecl, "pkt.header<H>() without its tag"),
            }
        }
    }

    fn unknown_api(&mut self, op: &str) {
        self.err(
            Code::UnsupportedInstruction,
            format!("NF API operation `tandem_api_{op}` is not known to this front end"),
        );
    }

    /// Packet metadata, fate, payload and checksums.
    fn translate_packet_api(&mut self, op: &str, args: &[&Operand], dest: Option<&Name>) {
        let meta = |l: &mut Self, m: Meta, to: Type| {
            let v = l.ins1(InstKind::MetaRead { meta: m }, m.ty());
            l.resize(v, to)
        };
        match op {
            "pkt_in_port" => {
                let v = meta(self, Meta::InPort, Type::I32);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "pkt_length" => {
                let v = meta(self, Meta::Length, Type::I32);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "pkt_now" => {
                let v = meta(self, Meta::Now, Type::I64);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "pkt_send" => {
                let p = args.get(1).map(|a| self.int(a));
                if let Some(p) = p {
                    let p = self.resize(p, Type::I16);
                    self.ins(InstKind::Send { port: p }, &[]);
                }
            }
            "pkt_drop" => {
                self.ins(InstKind::Drop, &[]);
            }
            "pkt_payload" => {
                let z = self.iconst(Type::I64, 0);
                if let Some(d) = dest {
                    self.vals.insert(d.clone(), Lowered::Ptr(Ptr::Payload(z)));
                }
            }
            "pkt_payload_len" => {
                let v = self.ins1(
                    InstKind::Opaque {
                        name: opaque_names::PAYLOAD_LEN.into(),
                        args: vec![],
                        reads: vec![Effect::Payload],
                        writes: vec![],
                    },
                    Type::I32,
                );
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "pkt_update_checksums" => {
                let mut reads = vec![Effect::Payload];
                reads.extend(
                    [Header::Ipv4, Header::Tcp, Header::Udp]
                        .into_iter()
                        .flat_map(|h| h.fields())
                        .map(Effect::Field),
                );
                let writes = ["ipv4.check", "tcp.check", "udp.check"]
                    .into_iter()
                    .filter_map(HeaderField::from_name)
                    .map(Effect::Field)
                    .collect();
                self.ins(
                    InstKind::Opaque {
                        name: opaque_names::UPDATE_CHECKSUMS.into(),
                        args: vec![],
                        reads,
                        writes,
                    },
                    &[],
                );
            }
            "ipv4_header_checksum" => {
                let reads = Header::Ipv4.fields().map(Effect::Field).collect();
                let v = self.ins1(
                    InstKind::Opaque {
                        name: opaque_names::IPV4_CHECKSUM.into(),
                        args: vec![],
                        reads,
                        writes: vec![],
                    },
                    Type::I16,
                );
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            other => self.unknown_api(other),
        }
    }

    /// Map lookups, inserts, erases and sizes (`LpmMap` writes: `translate_lpm`; ternary and
    /// range maps' writes: `translate_priority_entry`).
    fn translate_map_api(&mut self, op: &str, args: &[&Operand], dest: Option<&Name>, used: bool) {
        match op {
            "map_find" | "emap_find" | "map_lookup" | "emap_lookup" | "lpm_find" | "lpm_lookup"
            | "tern_find" | "tern_lookup" | "range_find" | "range_lookup" => {
                let Some((state, key)) = self.map_and_key(args) else {
                    return;
                };
                if !self.integer_key_ok(state) {
                    return;
                }
                let tys: Vec<Type> = std::iter::once(Type::I1)
                    .chain(self.value_layout(state).types())
                    .collect();
                let res = self.ins(InstKind::MapFind { state, key }, &tys);
                let hit = res[0];
                let layout = self.value_layout(state);
                let fields: Vec<(u64, u64, Value)> = layout
                    .fields
                    .iter()
                    .zip(&res[1..])
                    .map(|(f, &v)| (u64::from(f.offset.unwrap_or(0)), u64::from(f.ty.bytes()), v))
                    .collect();
                if op.ends_with("find") {
                    let Some(d) = dest else { return };
                    let fi = self.find_index.get(d).copied().unwrap_or(0);
                    if self.finds.len() <= fi {
                        self.finds.resize_with(fi + 1, || None);
                    }
                    self.finds[fi] = Some(FindRes { hit, fields });
                    self.vals.insert(d.clone(), Lowered::Ptr(Ptr::Found(fi, 0)));
                } else {
                    // lookup(key, out): out is written only on a hit.
                    let out = args.get(3).map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
                    self.write_if(hit, &out, &fields);
                    if let Some(d) = dest {
                        self.def(d, hit);
                    }
                }
            }
            "map_insert" | "emap_insert" => {
                let Some((state, key)) = self.map_and_key(args) else {
                    return;
                };
                self.insert_entry(state, key, args.get(3).copied(), dest);
            }
            "map_erase" | "emap_erase" => {
                let Some((state, key)) = self.map_and_key(args) else {
                    return;
                };
                if used {
                    // erase() returns whether the key was there.
                    let tys: Vec<Type> = std::iter::once(Type::I1)
                        .chain(self.value_layout(state).types())
                        .collect();
                    let res = self.ins(
                        InstKind::MapFind {
                            state,
                            key: key.clone(),
                        },
                        &tys,
                    );
                    if let Some(d) = dest {
                        self.def(d, res[0]);
                    }
                }
                self.ins(InstKind::MapErase { state, key }, &[]);
            }
            "map_size" | "emap_size" | "lpm_size" | "tern_size" | "range_size" => {
                let v = self.ins1(
                    InstKind::Opaque {
                        name: format!("tandem.{op}"),
                        args: vec![],
                        reads: vec![Effect::All],
                        writes: vec![],
                    },
                    Type::I64,
                );
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            other => self.unknown_api(other),
        }
    }

    /// `tandem::crc16`/`crc32`/`identity`: a `hash` instruction over the operands, or the
    /// diagnostic for an operand that is not an integer.
    fn translate_hash(&mut self, op: &str, args: &[&Operand], dest: Option<&Name>) {
        match op {
            "hash_bad_operand" => {
                let size = args.first().and_then(|a| {
                    let v = self.int(a);
                    self.const_value(v)
                });
                self.err(
                    Code::HashMisuse,
                    format!(
                        "a hash operand is not an integer ({} bytes); tandem::crc16/crc32/identity hash integers",
                        size.map_or("?".to_string(), |s| s.to_string())
                    ),
                );
            }
            "hash" => {
                let consts: Vec<Option<u64>> = [0usize, 2, 3]
                    .iter()
                    .map(|&i| {
                        args.get(i).and_then(|a| {
                            let v = self.int(a);
                            self.const_value(v)
                        })
                    })
                    .collect();
                let algo = match consts[0] {
                    Some(16) => Some(tandem_ir::HashAlgo::Crc16),
                    Some(32) => Some(tandem_ir::HashAlgo::Crc32),
                    Some(64) => Some(tandem_ir::HashAlgo::Identity),
                    _ => None,
                };
                let (Some(algo), Some(widths), Some(n)) = (algo, consts[1], consts[2]) else {
                    self.err(
                        Code::HashMisuse,
                        "a hash whose algorithm or operand widths are not compile-time constants",
                    );
                    return;
                };
                let p = args.get(1).map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
                let mut operands = Vec::new();
                for k in 0..n.min(16) {
                    let bytes = (widths >> (4 * k)) & 15;
                    let ty = match bytes {
                        1 => Type::I8,
                        2 => Type::I16,
                        4 => Type::I32,
                        8 => Type::I64,
                        _ => {
                            self.err(
                                Code::HashMisuse,
                                format!("hash operand {k} is {bytes} bytes wide, not an integer"),
                            );
                            return;
                        }
                    };
                    let v = self.load_ptr(&p, (8 * k) as i64, 8);
                    operands.push(self.resize(v, ty));
                }
                let h = self.ins1(
                    InstKind::Hash {
                        algo,
                        args: operands,
                    },
                    algo.result_type(),
                );
                // tandem_api_hash returns uint64_t; crc16/crc32 truncate it back.
                let h = self.resize(h, Type::I64);
                if let Some(d) = dest {
                    self.def(d, h);
                }
            }
            other => self.unknown_api(other),
        }
    }

    /// Vector size, element reads and writes (with the bounds check).
    fn translate_vec_api(&mut self, op: &str, args: &[&Operand], dest: Option<&Name>) {
        match op {
            "vec_size" => {
                let Some(mp) = args.first().map(|a| self.ptr(a)) else {
                    return;
                };
                let Some(m) = self.member_of(&mp) else { return };
                let Some(vs) = self.vec_states.get(&m).map(|v| v.size) else {
                    return;
                };
                let ty = self.state_scalar_type(vs);
                let v = self.ins1(InstKind::ScalarLoad { state: vs }, ty);
                let v = self.resize(v, Type::I64);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "vec_get" | "vec_set" => {
                let Some(mp) = args.first().map(|a| self.ptr(a)) else {
                    return;
                };
                let Some(m) = self.member_of(&mp) else { return };
                let Some((state, size_state)) = self.vec_states.get(&m).map(|v| (v.vec, v.size))
                else {
                    return;
                };
                let idx = args.get(1).map(|a| self.int(a));
                let Some(idx) = idx else { return };
                let p = args.get(2).map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
                let layout = self.value_layout(state);
                let (idx, size) = self.bounds_operands(idx, size_state);
                let ity = self.ty(idx);
                if op == "vec_get" {
                    // Native semantics: index >= size() gives a zero element.
                    let in_range = self.icmp(IntCC::Ult, idx, size);
                    let zero = self.iconst(ity, 0);
                    let safe = self.ins1(
                        InstKind::Select {
                            cond: in_range,
                            if_true: idx,
                            if_false: zero,
                        },
                        ity,
                    );
                    let vals = self.ins(
                        InstKind::VecGet { state, index: safe },
                        &layout.types().collect::<Vec<_>>(),
                    );
                    let vals: Vec<Value> = vals
                        .into_iter()
                        .map(|v| {
                            let ty = self.ty(v);
                            let z = self.iconst(ty, 0);
                            self.ins1(
                                InstKind::Select {
                                    cond: in_range,
                                    if_true: v,
                                    if_false: z,
                                },
                                ty,
                            )
                        })
                        .collect();
                    let fields: Vec<(u64, u64, Value)> = layout
                        .fields
                        .iter()
                        .zip(vals)
                        .map(|(f, v)| {
                            (u64::from(f.offset.unwrap_or(0)), u64::from(f.ty.bytes()), v)
                        })
                        .collect();
                    let one = self.iconst(Type::I1, 1);
                    self.write_if(one, &p, &fields);
                } else {
                    let vals = self.read_from(&p, &layout);
                    let in_range = self.icmp(IntCC::Ult, idx, size);
                    // Native semantics: set() past size() does nothing (and returns false).
                    let set_block = self.out_mut().add_block();
                    let join = self.out_mut().add_block();
                    // Locals are unchanged by the set, so both paths reach `join` with the
                    // same slot values, which dominate it: no block parameters needed.
                    self.ins(
                        InstKind::Brif {
                            cond: in_range,
                            then_dest: BlockCall::new(set_block, vec![]),
                            else_dest: BlockCall::new(join, vec![]),
                        },
                        &[],
                    );
                    self.cur = set_block;
                    self.ins(
                        InstKind::VecSet {
                            state,
                            index: idx,
                            value: vals,
                        },
                        &[],
                    );
                    self.ins(
                        InstKind::Jump {
                            dest: BlockCall::new(join, vec![]),
                        },
                        &[],
                    );
                    self.cur = join;
                    if let Some(d) = dest {
                        self.def(d, in_range);
                    }
                }
            }
            other => self.unknown_api(other),
        }
    }

    /// Writes `fields` (offset, width, value) to memory at `p`, each byte only if `cond`.
    pub(super) fn write_if(&mut self, cond: Value, p: &Ptr, fields: &[(u64, u64, Value)]) {
        let Ptr::Alloca(a, base) = p else {
            if !matches!(p, Ptr::Null) {
                self.err(
                    Code::UntraceablePointer,
                    "an output argument that is not a local variable",
                );
            }
            return;
        };
        let base = (*base).max(0) as u64;
        let slots = self.allocas[*a].slots.clone();
        let shifted: Vec<(u64, u64, Value)> =
            fields.iter().map(|&(o, w, v)| (o + base, w, v)).collect();
        let lo = base;
        let hi = shifted.iter().map(|f| f.0 + f.1).max().unwrap_or(base);
        let always = self.const_value(cond) == Some(1);
        for (i, (so, sw)) in slots.into_iter().enumerate() {
            if !(so < hi && lo < so + sw) {
                continue;
            }
            let old = self.slots[*a][i];
            let mut pieces = vec![(so, sw, old)];
            pieces.extend(shifted.iter().copied());
            let new = self.compose(&pieces, so, sw);
            let v = if always {
                new
            } else {
                let ty = self.ty(new);
                self.ins1(
                    InstKind::Select {
                        cond,
                        if_true: new,
                        if_false: old,
                    },
                    ty,
                )
            };
            self.slots[*a][i] = v;
        }
    }

    pub(super) fn translate_intrinsic(
        &mut self,
        name: &str,
        args: &[&Operand],
        dest: Option<&Name>,
    ) {
        let base = name.split('.').take(2).collect::<Vec<_>>().join(".");
        match base.as_str() {
            "llvm.dbg" | "llvm.lifetime" | "llvm.assume" | "llvm.experimental"
            | "llvm.prefetch" => {}
            "llvm.bswap" => {
                let a = self.int(args[0]);
                let v = self.bswap(a);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.umin" | "llvm.umax" | "llvm.smin" | "llvm.smax" => {
                let a = self.int(args[0]);
                let b = self.int(args[1]);
                let cc = match base.as_str() {
                    "llvm.umin" => IntCC::Ult,
                    "llvm.umax" => IntCC::Ugt,
                    "llvm.smin" => IntCC::Slt,
                    _ => IntCC::Sgt,
                };
                let c = self.icmp(cc, a, b);
                let ty = self.ty(a);
                let v = self.ins1(
                    InstKind::Select {
                        cond: c,
                        if_true: a,
                        if_false: b,
                    },
                    ty,
                );
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.abs" => {
                let a = self.int(args[0]);
                let ty = self.ty(a);
                let z = self.iconst(ty, 0);
                let neg = self.icmp(IntCC::Slt, a, z);
                let n = self.binary(BinOp::Sub, z, a);
                let v = self.ins1(
                    InstKind::Select {
                        cond: neg,
                        if_true: n,
                        if_false: a,
                    },
                    ty,
                );
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.fshl" | "llvm.fshr" => {
                // fshl(a, b, s) = a << s | b >> (w - s); fshr(a, b, s) = a << (w - s) | b >> s,
                // with s taken modulo w. The IR's shifts by w give 0, which makes s = 0 come
                // out right (a for fshl, b for fshr) with no special case.
                let a = self.int(args[0]);
                let b = self.int(args[1]);
                let s = self.int(args[2]);
                let ty = self.ty(a);
                let w = u64::from(ty.bits());
                let wc = self.iconst(ty, w);
                let s = if w.is_power_of_two() {
                    let m = self.iconst(ty, w - 1);
                    self.binary(BinOp::And, s, m)
                } else {
                    self.binary(BinOp::Urem, s, wc)
                };
                let rest = self.binary(BinOp::Sub, wc, s);
                let (l, r) = if base == "llvm.fshl" {
                    (s, rest)
                } else {
                    (rest, s)
                };
                let x = self.binary(BinOp::Shl, a, l);
                let y = self.binary(BinOp::Lshr, b, r);
                let v = self.binary(BinOp::Or, x, y);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.uadd" | "llvm.usub" | "llvm.sadd" | "llvm.ssub" if name.contains(".sat.") => {
                let a = self.int(args[0]);
                let b = self.int(args[1]);
                let v = self.saturating(&base, a, b);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.ctpop" => {
                let a = self.int(args[0]);
                let v = self.popcount(a);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.cttz" => {
                // cttz(x) = ctpop((x & -x) - 1): the mask of the trailing zeros (all ones for
                // x = 0, giving the width, LLVM's result when zero is not poison).
                let a = self.int(args[0]);
                let ty = self.ty(a);
                let z = self.iconst(ty, 0);
                let one = self.iconst(ty, 1);
                let neg = self.binary(BinOp::Sub, z, a);
                let low = self.binary(BinOp::And, a, neg);
                let mask = self.binary(BinOp::Sub, low, one);
                let v = self.popcount(mask);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.ctlz" => {
                // ctlz(x) = w - ctpop(x smeared right): the bits from the highest set one down
                // (0 for x = 0, giving the width).
                let a = self.int(args[0]);
                let ty = self.ty(a);
                let w = u64::from(ty.bits());
                let mut x = a;
                let mut sh = 1;
                while sh < w {
                    let c = self.iconst(ty, sh);
                    let y = self.binary(BinOp::Lshr, x, c);
                    x = self.binary(BinOp::Or, x, y);
                    sh *= 2;
                }
                let ones = self.popcount(x);
                let wc = self.iconst(ty, w);
                let v = self.binary(BinOp::Sub, wc, ones);
                if let Some(d) = dest {
                    self.def(d, v);
                }
            }
            "llvm.memset" => {
                let p = self.ptr(args[0]);
                let byte = self.int(args[1]);
                let Some(n) = Self::const_u64(args[2]) else {
                    self.err(Code::VariableIndex, "memset with a run-time length");
                    return;
                };
                let mut off = 0u64;
                while off < n {
                    let w = (n - off).min(8);
                    let ty = ty_of_bytes(w);
                    let v = match self.const_value(byte) {
                        Some(b) => {
                            let pat = (0..w).fold(0u64, |acc, _| (acc << 8) | (b & 0xff));
                            self.iconst(ty, pat)
                        }
                        None => {
                            self.err(Code::UnsupportedInstruction, "memset with a run-time byte");
                            self.iconst(ty, 0)
                        }
                    };
                    self.store_ptr(&p, off as i64, w, v);
                    off += w;
                }
            }
            "llvm.memcpy" | "llvm.memmove" => {
                let d = self.ptr(args[0]);
                let s = self.ptr(args[1]);
                let Some(n) = Self::const_u64(args[2]) else {
                    self.err(Code::VariableIndex, "memcpy with a run-time length");
                    return;
                };
                let mut chunks = Vec::new();
                let mut off = 0u64;
                while off < n {
                    let w = (n - off).min(8);
                    let v = self.load_ptr(&s, off as i64, w);
                    chunks.push((off, w, v));
                    off += w;
                }
                for (off, w, v) in chunks {
                    self.store_ptr(&d, off as i64, w, v);
                }
            }
            _ => self.err(
                Code::UnsupportedInstruction,
                format!("the intrinsic `{name}`"),
            ),
        }
    }

    /// `memcmp(a, b, n)` / `bcmp(a, b, n)` with a constant `n` (clang turns `memcmp(...) == 0`
    /// into `bcmp`): the two byte ranges loaded in chunks of up to 8 bytes and compared. `bcmp`
    /// is 1 when any chunk differs, else 0; `memcmp` is the sign of the first differing byte —
    /// chunks compared as big-endian numbers, the first differing chunk deciding.
    ///
    /// ```text
    /// before: %r = call i32 @bcmp(ptr %eth.dst, ptr %my_mac, i64 6)     (an opaque call)
    /// after:  v1:i48 = hdr.read eth.dst   v2:i48 = scalar.load my_mac
    ///         v3:i1 = icmp ne v1, v2      v4:i32 = zext v3
    /// ```
    fn translate_memcmp(&mut self, ordered: bool, args: &[&Operand], dest: Option<&Name>) {
        let a = self.ptr(args[0]);
        let b = self.ptr(args[1]);
        let Some(n) = Self::const_u64(args[2]) else {
            self.err(Code::VariableIndex, "memcmp with a run-time length");
            return;
        };
        let mut chunks = Vec::new();
        let mut off = 0u64;
        while off < n {
            let w = (n - off).min(8);
            let x = self.load_ptr(&a, off as i64, w);
            let y = self.load_ptr(&b, off as i64, w);
            chunks.push((x, y));
            off += w;
        }
        let zero = self.iconst(Type::I32, 0);
        let r = if ordered {
            let one = self.iconst(Type::I32, 1);
            let minus_one = self.iconst(Type::I32, u64::from(u32::MAX));
            let mut r = zero;
            for &(x, y) in chunks.iter().rev() {
                let differ = self.icmp(IntCC::Ne, x, y);
                let (bx, by) = (self.bswap(x), self.bswap(y));
                let less = self.icmp(IntCC::Ult, bx, by);
                let sign = self.ins1(
                    InstKind::Select {
                        cond: less,
                        if_true: minus_one,
                        if_false: one,
                    },
                    Type::I32,
                );
                r = self.ins1(
                    InstKind::Select {
                        cond: differ,
                        if_true: sign,
                        if_false: r,
                    },
                    Type::I32,
                );
            }
            r
        } else {
            let mut any: Option<Value> = None;
            for &(x, y) in &chunks {
                let d = self.icmp(IntCC::Ne, x, y);
                any = Some(match any {
                    Some(p) => self.binary(BinOp::Or, p, d),
                    None => d,
                });
            }
            match any {
                Some(d) => self.resize(d, Type::I32),
                None => zero,
            }
        };
        if let Some(d) = dest {
            self.def(d, r);
        }
    }

    /// `llvm.{u,s}{add,sub}.sat` in integer operations: the wrapped result, or the bound it
    /// crossed.
    pub(super) fn saturating(&mut self, base: &str, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        let w = ty.bits();
        let select = |l: &mut Self, cond, if_true, if_false| {
            l.ins1(
                InstKind::Select {
                    cond,
                    if_true,
                    if_false,
                },
                ty,
            )
        };
        match base {
            "llvm.uadd" => {
                let sum = self.binary(BinOp::Add, a, b);
                let carry = self.icmp(IntCC::Ult, sum, a);
                let max = self.iconst(ty, ty.mask());
                select(self, carry, max, sum)
            }
            "llvm.usub" => {
                let diff = self.binary(BinOp::Sub, a, b);
                let borrow = self.icmp(IntCC::Ult, a, b);
                let zero = self.iconst(ty, 0);
                select(self, borrow, zero, diff)
            }
            _ => {
                let add = base == "llvm.sadd";
                let r = self.binary(if add { BinOp::Add } else { BinOp::Sub }, a, b);
                // Overflow: add when a and b have the same sign and r another; sub when a and
                // b differ in sign and r differs from a.
                let ra = self.binary(BinOp::Xor, r, a);
                let other = if add {
                    self.binary(BinOp::Xor, r, b)
                } else {
                    self.binary(BinOp::Xor, a, b)
                };
                let both = self.binary(BinOp::And, ra, other);
                let zero = self.iconst(ty, 0);
                let ovf = self.icmp(IntCC::Slt, both, zero);
                let neg = self.icmp(IntCC::Slt, a, zero);
                let min = self.iconst(ty, 1u64 << (w - 1));
                let max = self.iconst(ty, ty.mask() >> 1);
                let bound = select(self, neg, min, max);
                select(self, ovf, bound, r)
            }
        }
    }
}
