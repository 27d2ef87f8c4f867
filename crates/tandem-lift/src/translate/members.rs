//! Step 1, the members: `tandem_nf_describe` and `tandem_nf_state_names` give each state
//! member's offset and name; after the scan, each member becomes a state object (kind,
//! capacity, key and value layouts split where the code's accesses split them).

use super::*;

impl<'a> Lifter<'a> {
    /// Reads `tandem_nf_describe` and `tandem_nf_state_names`.
    pub(crate) fn read_members(&mut self) {
        let names: Vec<String> = global_string(self.lm, STATE_NAMES)
            .map(|s| {
                s.split(',')
                    .filter(|x| !x.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let Some(describe) = self.lm.functions.iter().find(|f| f.name == DESCRIBE) else {
            return;
        };
        let self_name = describe.parameters.first().map(|p| p.name.clone());
        let ptrs_name = describe.parameters.get(1).map(|p| p.name.clone());
        // name -> (is_self_based, offset)
        let mut offs: HashMap<Name, (bool, i64)> = HashMap::new();
        if let Some(s) = &self_name {
            offs.insert(s.clone(), (true, 0));
        }
        if let Some(p) = &ptrs_name {
            offs.insert(p.clone(), (false, 0));
        }
        let mut element_size: Option<i64> = None;
        let mut slots: BTreeMap<i64, i64> = BTreeMap::new();
        for bb in &describe.basic_blocks {
            for inst in &bb.instrs {
                match inst {
                    Instruction::GetElementPtr(g) => {
                        let Some(base) = local_name(&g.address).and_then(|n| offs.get(n).copied())
                        else {
                            continue;
                        };
                        if base.0 && element_size.is_none() {
                            if let LType::NamedStructType { .. } = g.source_element_type.as_ref() {
                                element_size =
                                    layout::size_align(self.types, &g.source_element_type)
                                        .map(|(s, _)| s as i64);
                            }
                        }
                        if let Some((off, dynamic)) = gep_offset(self.types, g) {
                            if dynamic.is_empty() {
                                offs.insert(g.dest.clone(), (base.0, base.1 + off));
                            }
                        }
                    }
                    Instruction::Store(s) => {
                        let (Some(v), Some(a)) = (
                            local_name(&s.value).and_then(|n| offs.get(n).copied()),
                            local_name(&s.address).and_then(|n| offs.get(n).copied()),
                        ) else {
                            continue;
                        };
                        if v.0 && !a.0 {
                            slots.insert(a.1 / 8, v.1);
                        }
                    }
                    _ => {}
                }
            }
        }
        let offsets: Vec<i64> = slots.values().copied().collect();
        let sizes = global_u64s(self.lm, "tandem_nf_state_sizes").unwrap_or_default();
        if let Some(s) =
            global_u64s(self.lm, "tandem_nf_element_size").and_then(|v| v.first().copied())
        {
            element_size = Some(s as i64);
        }
        for (i, name) in names.iter().enumerate() {
            let Some(&offset) = offsets.get(i) else { break };
            self.members.push(Member {
                name: name.clone(),
                offset,
                size: sizes.get(i).map_or(0, |&s| s as i64),
            });
        }
        if self.members.iter().all(|m| m.size > 0) {
            self.uses = vec![MemberUse::default(); self.members.len()];
            return;
        }
        let mut sorted: Vec<usize> = (0..self.members.len()).collect();
        sorted.sort_by_key(|&i| self.members[i].offset);
        for w in 0..sorted.len() {
            let end = sorted
                .get(w + 1)
                .map(|&j| self.members[j].offset)
                .or(element_size)
                .unwrap_or(i64::MAX);
            let m = &mut self.members[sorted[w]];
            m.size = end - m.offset;
        }
        self.uses = vec![MemberUse::default(); self.members.len()];
    }

    /// The member containing element offset `off`.
    pub(super) fn member_at(&self, off: i64) -> Option<usize> {
        self.members
            .iter()
            .position(|m| off >= m.offset && off < m.offset + m.size.max(1))
    }

    // ---- State declarations --------------------------------------------------------------

    /// Declares a state object for every member process() uses, in TANDEM_NF order.
    /// Reads the declared headers and the parse graph (`TANDEM_PARSE`).
    pub(crate) fn read_headers(&mut self) {
        let diags = super::headers::read_parse_graph(self.lm, &mut self.module);
        self.diags.extend(diags);
    }

    pub(crate) fn declare_state(&mut self) {
        for mi in 0..self.members.len() {
            let u = self.uses[mi].clone();
            let name = self.members[mi].name.clone();
            if let Some(c) = &u.conflict {
                self.srcloc = u.conflict_loc.clone();
                self.err(Code::StateMisuse, format!("state member `{name}` is {c}"));
                continue;
            }
            if let Some((flavor, ks, vs, cap)) = u.map {
                let key = make_layout(&u.key_bounds, ks, "k");
                let value = make_layout(&u.val_bounds, vs, "v");
                let kind = match flavor {
                    MapFlavor::Plain => StateKind::HashMap {
                        key,
                        value,
                        capacity: cap,
                    },
                    MapFlavor::Expiring(t) => StateKind::ExpiringMap {
                        key,
                        value,
                        capacity: cap,
                        idle_timeout_ns: t,
                    },
                    MapFlavor::Lpm(prefix_fields) => StateKind::LpmMap {
                        key,
                        value,
                        capacity: cap,
                        prefix_fields,
                    },
                    MapFlavor::Ternary => StateKind::TernaryMap {
                        key,
                        value,
                        capacity: cap,
                    },
                    MapFlavor::Range => StateKind::RangeMap {
                        key,
                        value,
                        capacity: cap,
                    },
                };
                let id = self.module.add_state(name, kind);
                self.map_states.insert(mi, id);
            } else if let Some((es, n)) = u.vec {
                let bounds = if u.vec_written {
                    u.val_bounds.clone()
                } else {
                    word_bounds(&u.val_bounds, es)
                };
                let elem = make_layout(&bounds, es, "e");
                let id = self
                    .module
                    .add_state(name.clone(), StateKind::Vector { elem, len: n });
                // The vector's current length (set by configure(); `size()` reads it). It is
                // at most the capacity, so 32 bits hold it when the capacity fits: bounds
                // checks of 32-bit indices then fit 32-bit switch ALUs.
                let ty = if n <= u64::from(u32::MAX) {
                    Type::I32
                } else {
                    Type::I64
                };
                let size = self
                    .module
                    .add_state(format!("{name}_size"), StateKind::Scalar { ty });
                self.vec_states.insert(mi, VecState { vec: id, size });
            } else if u.vec_size_used {
                let size = self
                    .module
                    .add_state(format!("{name}_size"), StateKind::Scalar { ty: Type::I64 });
                self.vec_states.insert(mi, VecState { vec: size, size });
            } else if let Some((len, unit)) = u.meter {
                let id = self.module.add_state(name, StateKind::Meter { len, unit });
                self.meter_states.insert(mi, id);
            } else if let Some(w) = u.scalar_width {
                let id = self
                    .module
                    .add_state(name, StateKind::Scalar { ty: ty_of_bytes(w) });
                self.scalar_states.insert(mi, id);
            }
        }
    }

    // ---- Pass 2 --------------------------------------------------------------------------
}
