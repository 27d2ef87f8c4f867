//! `renumber`: canonical value numbering (see [`renumber`]).

use crate::{Function, InstData, Module, Type, Value, ValueData, ValueDef};
use std::collections::HashMap;

/// Gives the values of `process` (and of `on_timer`, each function on its own) canonical
/// numbers.
///
/// Builders (the lifter, passes) create values in whatever order suits them and may leave
/// instructions unplaced. Golden files want stable, dense names so that diffs stay small.
/// [`renumber`] rebuilds `process` so that values are numbered `v0, v1, ...` in text order
/// (each block's parameters, then each instruction's results, blocks in order), instructions
/// are numbered in text order, and unplaced instructions and unused values are gone.
///
/// Before:
/// ```text
/// block0:
///     v7:i16 = const 1
///     br block1(v7)
///
/// block1(v3:i16):
///     send v3
///     return
/// ```
/// After:
/// ```text
/// block0:
///     v0:i16 = const 1
///     br block1(v0)
///
/// block1(v1:i16):
///     send v1
///     return
/// ```
///
/// Semantics, block numbers and everything outside the functions are unchanged.
pub fn renumber(module: &Module) -> Module {
    let mut out = Module {
        process: renumber_function(&module.process),
        ..module.clone()
    };
    if let Some(t) = out.timer.as_mut() {
        t.func = renumber_function(&t.func);
    }
    out
}

fn renumber_function(old: &Function) -> Function {
    let mut map: HashMap<Value, Value> = HashMap::new();
    let mut next = 0u32;
    let mut assign = |v: Value, map: &mut HashMap<Value, Value>| {
        map.entry(v).or_insert_with(|| {
            let n = Value::from_u32(next);
            next += 1;
            n
        });
    };
    for (_, b) in old.blocks.iter() {
        for &p in &b.params {
            assign(p, &mut map);
        }
        for &i in &b.insts {
            if let Some(d) = old.insts.get(i) {
                for &r in &d.results {
                    assign(r, &mut map);
                }
            }
        }
    }
    let defined = map.len();
    // Values used but not defined in any block (only in unverified modules) keep existing,
    // after the defined ones, as `Unused` values.
    let mut f = Function::new(old.name.clone());
    for _ in 0..defined {
        f.values.push(ValueData {
            ty: Type::I1,
            def: ValueDef::Unused,
        });
    }
    let mut lookup = |v: Value, f: &mut Function| -> Value {
        if let Some(&n) = map.get(&v) {
            return n;
        }
        let ty = old.value_type(v).unwrap_or(Type::I1);
        let n = f.values.push(ValueData {
            ty,
            def: ValueDef::Unused,
        });
        map.insert(v, n);
        n
    };
    for (b, data) in old.blocks.iter() {
        let nb = f.add_block();
        debug_assert_eq!(nb, b);
        for (i, &p) in data.params.iter().enumerate() {
            let np = lookup(p, &mut f);
            let ty = old.value_type(p).unwrap_or(Type::I1);
            f.values[np] = ValueData {
                ty,
                def: ValueDef::Param(nb, i),
            };
            f.blocks[nb].params.push(np);
        }
        for &i in &data.insts {
            let Some(d) = old.insts.get(i) else { continue };
            let mut kind = d.kind.clone();
            kind.map_args(|v| lookup(v, &mut f));
            let ni = f.insts.next_key();
            let mut results = Vec::with_capacity(d.results.len());
            for (k, &r) in d.results.iter().enumerate() {
                let nr = lookup(r, &mut f);
                let ty = old.value_type(r).unwrap_or(Type::I1);
                f.values[nr] = ValueData {
                    ty,
                    def: ValueDef::Result(ni, k),
                };
                results.push(nr);
            }
            f.insts.push(InstData {
                kind,
                results,
                loc: d.loc,
            });
            f.blocks[nb].insts.push(ni);
        }
    }
    debug_assert!(f.values.len() >= defined && f.blocks.len() == old.blocks.len());
    f
}
