//! How a cluster keeps an NF's *global* state (see [`crate::shard`]): per global object,
//! what it is — derived from the IR, never from names — and how several servers share it.
//!
//! Two schemes exist for an object flows share (CLIP's NAT is the example: a port counter
//! and a table keyed by the allocated port):
//!
//! - **a partition the NF allows**: each server allocates from its own disjoint range, and
//!   the dispatch sends replies to the range's owner. The allocated values then differ from
//!   the single-server NF's (server 1's first connection gets the first port of *its*
//!   range). When those values reach the packets — a header write, or a map the switch or a
//!   later packet reads — the outputs differ from the original NF's, and DESIGN.md §10 does
//!   not allow that (the offloaded system behaves *exactly* like the original NF; `check`
//!   compares byte for byte, not modulo a renaming of ports).
//! - **a single owner**: one server keeps the object; another server's packet that reaches
//!   it works on the owner's copy (in the in-process cluster the owner lends the object for
//!   the packet's visit — packets run one at a time, so this is the atomic request of CLIP's
//!   protocol), and the owner's synchronisation engine alone writes it to the switch. Every
//!   access sees exactly the value the single-server NF would, so the outputs are equal.
//!
//! So every global object gets the single owner; the report says, per object, what the IR
//! shows it to be and why a partition would not do:
//!
//! ```text
//! before (shard report):  next_port  global  (a scalar: one value shared by every flow)
//!                         decision: one server (global state is written: ...)
//! after:                  next_port  global  (a scalar: ...)
//!                                    -> owner: an allocator (stores what it loaded, changed);
//!                                       its values reach the packets, so per-server ranges
//!                                       would change the outputs
//!                         decision: shard by flow; next_port, ext2int on one owner
//! ```
//!
//! An NF whose global state cannot be lent this way stays on one server: opaque code that may
//! write any state (which objects it touches is unknown) and a timer (`on_timer` runs over
//! all the state at once).

use std::collections::{BTreeMap, BTreeSet};

use tandem_ir::{Function, InstKind, Module, StateId, StateKind, Value};

/// What the IR shows a global object to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlobalRole {
    /// A scalar whose stored value is computed from its own loaded value (a counter that
    /// hands out values); `observable`: a value computed from it reaches a header write or a
    /// map's key or value.
    Allocator {
        /// Whether the allocated values reach the packets or other state.
        observable: bool,
    },
    /// A map some access keys by values read from state (named): e.g. a reply table keyed
    /// by the port an allocator handed out.
    KeyedByState(Vec<String>),
    /// Anything else flows share (a vector, a meter, a map keyed by one endpoint, ...).
    Shared,
}

/// Per global object: its role and the scheme chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ownership {
    /// What the object is.
    pub role: GlobalRole,
    /// Why the single owner and not a partition.
    pub why: String,
}

impl Ownership {
    /// The report's line for the object.
    pub fn line(&self) -> String {
        let what = match &self.role {
            GlobalRole::Allocator { .. } => {
                "an allocator (stores a value computed from what it loaded)".to_string()
            }
            GlobalRole::KeyedByState(from) => {
                format!(
                    "a map keyed by values read from state ({})",
                    from.join(", ")
                )
            }
            GlobalRole::Shared => "shared by flows".to_string(),
        };
        format!("single owner: {what}; {}", self.why)
    }
}

/// Which state objects each value of `process` is computed from (through any instruction
/// and block parameter), for reads of scalars, vectors and map lookups.
fn state_sources(f: &Function) -> BTreeMap<Value, BTreeSet<StateId>> {
    let mut from: BTreeMap<Value, BTreeSet<StateId>> = BTreeMap::new();
    let mut changed = true;
    // A fixpoint: block parameters may be reached from later blocks.
    let mut rounds = 0;
    while changed && rounds < 64 {
        changed = false;
        rounds += 1;
        for (_, block) in f.blocks.iter() {
            for &inst in &block.insts {
                let data = &f.insts[inst];
                let mut set: BTreeSet<StateId> = BTreeSet::new();
                match &data.kind {
                    InstKind::ScalarLoad { state }
                    | InstKind::VecGet { state, .. }
                    | InstKind::MapFind { state, .. } => {
                        set.insert(*state);
                    }
                    _ => {}
                }
                data.kind.visit_args(|v| {
                    if let Some(s) = from.get(&v) {
                        set.extend(s.iter().copied());
                    }
                });
                if !set.is_empty() {
                    for &r in &data.results {
                        let e = from.entry(r).or_default();
                        let n = e.len();
                        e.extend(set.iter().copied());
                        changed |= e.len() != n;
                    }
                }
                for call in data.kind.successors() {
                    let params = &f.blocks[call.block].params;
                    for (a, p) in call.args.iter().zip(params) {
                        if let Some(s) = from.get(a).cloned() {
                            let e = from.entry(*p).or_default();
                            let n = e.len();
                            e.extend(s);
                            changed |= e.len() != n;
                        }
                    }
                }
            }
        }
    }
    from
}

/// The role and the chosen scheme of each object in `global` (state ids of `process`'s
/// global objects).
pub fn ownerships(module: &Module, global: &[StateId]) -> BTreeMap<StateId, Ownership> {
    let f = &module.process;
    let from = state_sources(f);
    let derived = |v: Value, s: StateId| from.get(&v).is_some_and(|x| x.contains(&s));
    // Values that reach a packet or another object: header writes, map keys and values,
    // vector and scalar stores into another object, send ports.
    let mut sinks: Vec<(Value, Option<StateId>)> = Vec::new();
    let mut stores: Vec<(StateId, Value)> = Vec::new();
    let mut keyed: BTreeMap<StateId, BTreeSet<StateId>> = BTreeMap::new();
    for (_, block) in f.blocks.iter() {
        for &inst in &block.insts {
            match &f.insts[inst].kind {
                InstKind::HdrWrite { value, .. } => sinks.push((*value, None)),
                InstKind::Send { port } => sinks.push((*port, None)),
                InstKind::ScalarStore { state, value } => {
                    stores.push((*state, *value));
                    sinks.push((*value, Some(*state)));
                }
                InstKind::VecSet { state, value, .. } => {
                    sinks.extend(value.iter().map(|v| (*v, Some(*state))));
                }
                InstKind::MapInsert { state, key, value } => {
                    sinks.extend(key.iter().chain(value).map(|v| (*v, Some(*state))));
                    note_keyed(&from, &mut keyed, *state, key);
                }
                InstKind::MapFind { state, key } | InstKind::MapErase { state, key } => {
                    note_keyed(&from, &mut keyed, *state, key);
                }
                _ => {}
            }
        }
    }
    let mut out = BTreeMap::new();
    for &s in global {
        let allocator = matches!(module.states[s].kind, StateKind::Scalar { .. })
            && stores.iter().any(|&(t, v)| t == s && derived(v, s));
        let role = if allocator {
            let observable = sinks
                .iter()
                .any(|&(v, into)| into != Some(s) && derived(v, s));
            GlobalRole::Allocator { observable }
        } else if let Some(srcs) = keyed.get(&s).filter(|x| !x.is_empty()) {
            GlobalRole::KeyedByState(
                srcs.iter()
                    .map(|t| module.states[*t].name.clone())
                    .collect(),
            )
        } else {
            GlobalRole::Shared
        };
        let why = match &role {
            GlobalRole::Allocator { observable: true } => {
                "its values reach the packets or other state, so per-server ranges would \
                 change the outputs (DESIGN.md §10: exactly the original NF's)"
            }
            GlobalRole::Allocator { observable: false } => {
                "per-server ranges would be allowed (its values reach no packet), one owner \
                 is as exact"
            }
            GlobalRole::KeyedByState(_) => {
                "its keys are not the packet's flow, so the dispatch cannot find their server; \
                 the owner holds every key"
            }
            GlobalRole::Shared => "flows meet in it, so one copy serves them all",
        }
        .to_string();
        out.insert(s, Ownership { role, why });
    }
    out
}

/// Records that map `state` is keyed by values read from the objects `key` comes from.
fn note_keyed(
    from: &BTreeMap<Value, BTreeSet<StateId>>,
    keyed: &mut BTreeMap<StateId, BTreeSet<StateId>>,
    state: StateId,
    key: &[Value],
) {
    for v in key {
        if let Some(src) = from.get(v) {
            keyed
                .entry(state)
                .or_default()
                .extend(src.iter().copied().filter(|&t| t != state));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::shard::{analyse_sharding, ShardDecision};
    use crate::GlobalRole;

    /// A NAT of known answer: `out` keyed by the flow (flow-local), a port counter `next`
    /// (an allocator whose value is written into the packet unless `hidden`), `back` keyed
    /// by the allocated port, `seen` keyed by the source alone; `timer` adds an `on_timer`.
    fn nat(hidden: bool, timer: bool) -> String {
        let write = if hidden {
            ""
        } else {
            "hdr.write tcp.sport, v7\n    "
        };
        let back = if hidden { "v3" } else { "v7" };
        let timer = if timer {
            "\nfn on_timer every 1000 {\nblock0:\n    return\n}\n"
        } else {
            ""
        };
        format!(
            r#"nf Nat

state out: hashmap<{{k0: i32 @0, k4: i32 @4, k8: i16 @8, k10: i16 @10}} size 12, {{v0: i16 @0}} size 2, 1024>
state back: hashmap<{{k0: i16 @0}} size 2, {{v0: i32 @0}} size 4, 1024>
state next: scalar<i16>
state seen: hashmap<{{k0: i32 @0}} size 4, {{v0: i8 @0}} size 1, 1024>

fn process {{
block0:
    v0:i32 = hdr.read ipv4.saddr
    v1:i32 = hdr.read ipv4.daddr
    v2:i16 = hdr.read tcp.sport
    v3:i16 = hdr.read tcp.dport
    v4:i16 = scalar.load next
    v5:i16 = const 1
    v6:i16 = add v4, v5
    scalar.store next, v6
    br block1(v4)

block1(v7:i16):
    v8:i1 = map.insert out(v0, v1, v2, v3) -> (v7)
    v9:i1 = map.insert back({back}) -> (v0)
    v10:i8 = const 1
    v11:i1 = map.insert seen(v0) -> (v10)
    {write}send v5
    return
}}
{timer}"#
        )
    }

    fn report(text: &str) -> crate::ShardReport {
        analyse_sharding(&tandem_ir::parse_module(text).unwrap())
    }

    #[test]
    fn roles_of_a_nats_global_state() {
        let r = report(&nat(false, false));
        assert!(matches!(r.decision, ShardDecision::Owned(_)), "{r}");
        let role = |n: &str| r.object(n).unwrap().owner.as_ref().map(|o| o.role.clone());
        assert_eq!(role("out"), None, "flow-local: no owner");
        assert_eq!(
            role("next"),
            Some(GlobalRole::Allocator { observable: true })
        );
        assert_eq!(
            role("back"),
            Some(GlobalRole::KeyedByState(vec!["next".into()]))
        );
        assert_eq!(role("seen"), Some(GlobalRole::Shared));
        assert!(r.to_string().contains("single owner: an allocator"), "{r}");
    }

    #[test]
    fn negative_controls() {
        // The allocated value reaches neither the packet nor a map (hidden, and `back` is
        // keyed by the header): not observable, and `back` is not keyed by state.
        let r = report(&nat(true, false));
        let own = |n: &str| r.object(n).unwrap().owner.clone().unwrap();
        // `out` stores the block parameter fed by the counter: still observable.
        assert_eq!(
            own("next").role,
            GlobalRole::Allocator { observable: true },
            "{r}"
        );
        assert_eq!(own("back").role, GlobalRole::Shared, "{r}");
        // A counter nobody reads back into a packet or a map: an allocator, not observable.
        let r = report(
            "nf C\n\nstate hits: scalar<i64>\n\nfn process {\nblock0:\n    \
             v0:i64 = scalar.load hits\n    v1:i64 = const 1\n    v2:i64 = add v0, v1\n    \
             scalar.store hits, v2\n    return\n}\n",
        );
        let hits = r.object("hits").unwrap().owner.clone().unwrap();
        assert_eq!(
            hits.role,
            GlobalRole::Allocator { observable: false },
            "{r}"
        );
        // A timer keeps the NF on one server and gives nothing an owner.
        let r = report(&nat(false, true));
        assert!(matches!(r.decision, ShardDecision::OneServer(_)), "{r}");
        assert!(r.owned().is_empty());
    }
}
