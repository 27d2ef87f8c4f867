//! `tandem::TernaryMap` and `tandem::RangeMap` in the analysis build:
//! `tandem_api_{tern,range}_{insert,erase}` (finds, lookups and sizes share the hash maps'
//! translation: `map.find` on a `ternary_map` or `range_map` is the highest-priority match),
//! and the priority and range checks, with their diagnostics (a range map's key is checked
//! with the LPM map's, `lpm::integer_key_ok`).
//!
//! Argument positions (nfapi/include/tandem/ternary.hh): `tern_insert(map, key, mask,
//! key_size, value, value_size, capacity, priority)`, `tern_erase(map, key, mask, key_size,
//! capacity, priority)`; `range_*` the same with `lo, hi` for `key, mask`.
//!
//! ```text
//! acl.insert(k, m, 10, {1})   ->   v9:i32 = const 10
//!                                  v10:i1 = map.insert acl(k.saddr, k.dport, m.saddr, m.dport, v9) -> (v8)
//! ```

use llvm_ir::{Name, Operand};
use tandem_ir::{InstKind, StateKind, Type, MAX_PRIORITY};

use super::{Lifter, Ptr};
use crate::diag::Code;

impl Lifter<'_> {
    /// `tern_insert`, `tern_erase`, `range_insert`, `range_erase`.
    pub(crate) fn translate_priority_entry(
        &mut self,
        op: &str,
        args: &[&Operand],
        dest: Option<&Name>,
    ) {
        let insert = op.ends_with("insert");
        let Some((state, mut key)) = self.map_and_key(args) else {
            return;
        };
        if !self.integer_key_ok(state) {
            return;
        }
        let name = self.module.states[state].name.clone();
        // The mask (or hi) has the key's layout.
        let second = args.get(2).map(|a| self.ptr(a)).unwrap_or(Ptr::Null);
        let second = self.key_values(state, &second);
        let range = matches!(self.module.states[state].kind, StateKind::RangeMap { .. });
        if let (true, Some(lo), Some(hi)) = (
            range,
            key.first().and_then(|&v| self.const_value(v)),
            second.first().and_then(|&v| self.const_value(v)),
        ) {
            if lo > hi {
                self.err(
                    Code::PriorityEntry,
                    format!("the range {lo}..={hi} of `{name}` is empty (lo > hi): nothing would be inserted"),
                );
                return;
            }
        }
        key.extend(second);
        let prio_at = if insert { 7 } else { 5 };
        let Some(p) = args.get(prio_at) else {
            return;
        };
        let p = self.int(p);
        let p = self.resize(p, Type::I64);
        if let Some(c) = self.const_value(p) {
            if c == 0 || c > MAX_PRIORITY {
                self.err(
                    Code::PriorityEntry,
                    format!(
                        "priority {c} of an entry of `{name}` is out of range (1..={MAX_PRIORITY})"
                    ),
                );
                return;
            }
        }
        // The API takes a uint32_t: the low 32 bits are the priority (one above 2^31-1 names
        // no entry, as natively).
        key.push(self.resize(p, Type::I32));
        if insert {
            self.insert_entry(state, key, args.get(4).copied(), dest);
        } else {
            self.ins(InstKind::MapErase { state, key }, &[]);
        }
    }
}
