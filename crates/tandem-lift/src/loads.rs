//! `reuse_scalar_loads`: one load of a scalar per block while nothing writes it.
//!
//! The lifter emits a `scalar.load` for every read of a member in the source. Reading a
//! member in parts — `eth->src[b] = my_mac[b]` in an unrolled loop over a 6-byte MAC that the
//! lifter holds as one 48-bit scalar — gives one load per part:
//!
//! ```text
//! before:  v98:i48  = scalar.load my_mac        ; byte 0
//!          ...
//!          v127:i48 = scalar.load my_mac        ; byte 1
//!          v130:i48 = lshr v127, v129
//! after:   v98:i48  = scalar.load my_mac
//!          ...
//!          v130:i48 = lshr v98, v129            ; the second load is gone
//! ```
//!
//! Each load is a state access, and a switch pipeline runs one access per state object and
//! pass (Gallium's C3): six loads of one register cost five server trips or five register
//! copies; one load costs neither. A later load of the same scalar in the same block takes
//! the earlier load's value unless something between them may write the scalar: a
//! `scalar.store` to it, or opaque code that may write it. Loads in different blocks are left
//! alone.

use std::collections::HashMap;

use tandem_ir::{Effect, Function, InstKind, StateId, Value};

/// Replaces repeated loads of a scalar within a block by the block's first one (while no
/// write intervenes); the dead loads are left for `cleanup::remove_dead_code`.
pub fn reuse_scalar_loads(f: &mut Function) {
    let mut replace: HashMap<Value, Value> = HashMap::new();
    for b in f.blocks.keys() {
        let mut known: HashMap<StateId, Value> = HashMap::new();
        for &i in &f.blocks[b].insts {
            match &f.insts[i].kind {
                InstKind::ScalarLoad { state } => {
                    let Some(&r) = f.inst_results(i).first() else {
                        continue;
                    };
                    match known.get(state) {
                        Some(&first) => {
                            replace.insert(r, first);
                        }
                        None => {
                            known.insert(*state, r);
                        }
                    }
                }
                InstKind::ScalarStore { state, .. } => {
                    known.remove(state);
                }
                InstKind::Opaque { writes, .. } => {
                    if writes.iter().any(|e| matches!(e, Effect::All)) {
                        known.clear();
                    }
                    for e in writes {
                        if let Effect::State(s) = e {
                            known.remove(s);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if replace.is_empty() {
        return;
    }
    let insts: Vec<_> = f.insts.keys().collect();
    for i in insts {
        f.insts[i]
            .kind
            .map_args(|x| replace.get(&x).copied().unwrap_or(x));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_ir::{parse_module, print_module};

    fn loads_after(body: &str) -> usize {
        let text = format!(
            "nf t\n\nstate mac: scalar<i48>\n\nfn process {{\nblock0:\n{body}    v9:i16 = const 0\n    send v9\n    return\n}}\n"
        );
        let mut m = parse_module(&text).unwrap();
        reuse_scalar_loads(&mut m.process);
        crate::cleanup::remove_dead_code(&mut m.process);
        print_module(&m).matches("scalar.load mac").count()
    }

    #[test]
    fn a_second_load_in_the_block_reuses_the_first() {
        let body = "    v0:i48 = scalar.load mac
    v1:i48 = scalar.load mac
    v2:i48 = add v0, v1
    scalar.store mac, v2
";
        assert_eq!(loads_after(body), 1);
    }

    /// Negative control: a store between the loads changes the value; both loads stay.
    #[test]
    fn a_store_between_keeps_both_loads() {
        let body = "    v0:i48 = scalar.load mac
    v3:i48 = const 1
    v4:i48 = add v0, v3
    scalar.store mac, v4
    v1:i48 = scalar.load mac
    v2:i48 = add v0, v1
    scalar.store mac, v2
";
        assert_eq!(loads_after(body), 2);
    }
}
