//! `tandem::LpmMap` in the analysis build: `tandem_api_lpm_{insert,erase,size}` (finds and
//! lookups share the hash maps' translation: `map.find` on an `lpm_map` is the longest-prefix
//! match), the key-type check and the prefix-length check, with their diagnostics.
//!
//! Argument positions (nfapi/include/tandem/state.hh): `lpm_find(map, key, key_size,
//! value_size, capacity)`, `lpm_lookup(map, key, key_size, out, value_size, capacity)`,
//! `lpm_insert(map, key, key_size, value, value_size, capacity, prefix_len)`,
//! `lpm_erase(map, key, key_size, value_size, capacity, prefix_len)`, `lpm_size(map)`.

use llvm_ir::{Name, Operand};
use tandem_ir::{InstKind, IntCC, Layout, StateId, StateKind, Type};

use super::Lifter;
use crate::diag::Code;

/// The argument holding the prefix length of `lpm_insert` / `lpm_erase`.
fn prefix_len_arg(op: &str) -> Option<usize> {
    match op {
        "lpm_insert" => Some(6),
        "lpm_erase" => Some(5),
        _ => None,
    }
}

/// Is this layout one unsigned integer of 1, 2, 4 or 8 bytes (a range key)?
pub(crate) fn is_integer_key(key: &Layout) -> bool {
    matches!(key.fields.as_slice(), [f] if matches!(f.ty.bits(), 8 | 16 | 32 | 64)
        && f.offset.unwrap_or(0) == 0
        && key.size.is_none_or(|s| s == f.ty.bytes()))
}

/// Is this layout an LPM key: one unsigned integer, or a `tandem::LpmKey<E, A>` — two
/// integers of the same width, 1, 2, 4 or 8 bytes, the second (the prefix-matched one)
/// right after the first? With `words` > 1 (an `LpmAddr128` address): the exact part then
/// `words` 64-bit words, all 8 bytes wide and contiguous.
pub(crate) fn is_lpm_key(key: &Layout, words: u32) -> bool {
    if words > 1 {
        let n = words as usize;
        let Some(tail) = key.fields.len().checked_sub(n) else {
            return false;
        };
        let (exact, addr) = key.fields.split_at(tail);
        let start = 8 * (tail as u32);
        return exact.len() <= 1
            && exact
                .iter()
                .all(|e| e.ty.bits() == 64 && e.offset.unwrap_or(0) == 0)
            && addr
                .iter()
                .enumerate()
                .all(|(i, f)| f.ty.bits() == 64 && f.offset == Some(start + 8 * i as u32))
            && key.size.is_none_or(|s| s == start + 8 * words);
    }
    if is_integer_key(key) {
        return true;
    }
    matches!(key.fields.as_slice(), [e, a] if matches!(a.ty.bits(), 8 | 16 | 32 | 64)
        && e.ty.bits() <= a.ty.bits()
        && e.offset.unwrap_or(0) == 0
        && a.offset == Some(a.ty.bytes())
        && key.size.is_none_or(|s| s == 2 * a.ty.bytes()))
}

impl Lifter<'_> {
    /// Checks the key type at a call on a map whose key must be one unsigned integer: an
    /// LPM map's (L013) or a range map's (L017); false (with the diagnostic) when it is not.
    pub(crate) fn integer_key_ok(&mut self, state: StateId) -> bool {
        let obj = &self.module.states[state];
        let (code, api) = match &obj.kind {
            StateKind::LpmMap { .. } => (Code::LpmKey, "an LpmMap"),
            StateKind::RangeMap { .. } => (Code::RangeKey, "a RangeMap"),
            _ => return true,
        };
        let Some((key, _)) = obj.kind.map_layouts() else {
            return true;
        };
        let ok = match obj.kind {
            StateKind::LpmMap { prefix_fields, .. } => is_lpm_key(key, prefix_fields),
            _ => is_integer_key(key),
        };
        if ok {
            return true;
        }
        let (name, bytes, fields) = (obj.name.clone(), key.size.unwrap_or(0), key.fields.len());
        let also = if matches!(obj.kind, StateKind::LpmMap { .. }) {
            " or an LpmKey<E, A> of two unsigned integers of the same width (or of a uint64_t and an LpmAddr128)"
        } else {
            ""
        };
        self.err(
            code,
            format!(
                "`{name}` is {api} whose key is not one unsigned integer{also} ({bytes} bytes in {fields} fields)"
            ),
        );
        false
    }

    /// `lpm_insert`, `lpm_erase` (`lpm_size` is the maps' `size`, in `api`).
    pub(crate) fn translate_lpm(&mut self, op: &str, args: &[&Operand], dest: Option<&Name>) {
        let Some(len_at) = prefix_len_arg(op) else {
            return;
        };
        let Some((state, mut key)) = self.map_and_key(args) else {
            return;
        };
        if !self.integer_key_ok(state) {
            return;
        }
        let bits = self.module.states[state].kind.lpm_bits().unwrap_or(0);
        let Some(len_op) = args.get(len_at) else {
            return;
        };
        let len = self.int(len_op);
        let len = self.resize(len, Type::I64);
        let len = match self.const_value(len) {
            Some(c) if c > u64::from(bits) => {
                let name = self.module.states[state].name.clone();
                self.err(
                    Code::LpmPrefixLength,
                    format!(
                        "prefix length {c} is out of range for `{name}`, whose key has {bits} bits (0..={bits})"
                    ),
                );
                return;
            }
            Some(c) => self.iconst(Type::I8, c),
            None => {
                // A run-time length above the key's width inserts nothing, as natively:
                // clamp it to bits + 1 before narrowing it to the entry's i8.
                let max = self.iconst(Type::I64, u64::from(bits));
                let over = self.icmp(IntCC::Ugt, len, max);
                let out_of_range = self.iconst(Type::I64, u64::from(bits) + 1);
                let clamped = self.ins1(
                    InstKind::Select {
                        cond: over,
                        if_true: out_of_range,
                        if_false: len,
                    },
                    Type::I64,
                );
                self.resize(clamped, Type::I8)
            }
        };
        key.push(len);
        if op == "lpm_insert" {
            self.insert_entry(state, key, args.get(3).copied(), dest);
        } else {
            self.ins(InstKind::MapErase { state, key }, &[]);
        }
    }
}
