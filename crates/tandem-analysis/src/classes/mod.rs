//! Derived state classes (CoFilter §III-B, derived instead of written by hand): for a map
//! whose value the switch-side code only partly needs, the coarsest partition of the value
//! domain under which the switch's part of the NF behaves the same — the same fate and port,
//! the same header writes, the same "this packet must visit the server" decision — so the
//! switch can store a small class index instead of the whole value.
//!
//! Three steps:
//! 1. **Domains** (`domains`): the values each value field can hold, from the values the NF
//!    stores into it (constants, `select`s and small arithmetic, copies of the map's own
//!    fields), to a fixed point. A field with an unbounded domain (a counter, a timestamp, a
//!    header field) is kept symbolic: if the switch-side behaviour depends on it, the
//!    analysis falls back ([`ClassFallback::Unbounded`]).
//! 2. **Behaviour per value** (`symex`): for "absent" and for every value in the product of
//!    the bounded domains, `process` runs symbolically on an unknown packet with that value
//!    found. A path ends at `return` (fate, port and header writes, as terms over the packet)
//!    or at the first state write or server-only instruction ("visits the server": from there
//!    the server, which keeps the full value, decides). The paths fold into a reduced ordered
//!    decision diagram over the packet conditions (`bdd`), a canonical form: two values behave
//!    the same on every packet exactly when their diagrams are the same node (up to the
//!    term simplifier's normal forms: never merging values that differ, possibly keeping
//!    apart values that a smarter prover would merge).
//! 3. **Classes**: values with the same diagram form one class.
//!
//! Before (a connection map; `state` is 1 SYN, 2 OPEN, 3 CLOSING, and `dir` records who
//! opened; data packets on OPEN and CLOSING connections are forwarded, SYN/FIN change state):
//!
//! ```text
//! state conns: hashmap<{k0: i32}, {state: i8, dir: i8}, 1024>
//!   v1:i1, v2:i8, v3:i8 = map.find conns(v0)
//!   ... brif on v2 == 1, v2 == 2, v2 == 3; map.insert conns(v0) -> (v9, v3) on SYN/FIN
//! ```
//!
//! After (`tandem partition`'s report; 16 bits of value become 2 bits of class):
//!
//! ```text
//! conns: 3 classes of {state, dir} (16 bits -> 2 bits per entry, 14 saved)
//!   c0  absent
//!   c1  state in {1}, dir any
//!   c2  state in {2, 3}, dir any
//! ```
//!
//! Sound for the values the NF's own code stores; entries a control plane or `configure`
//! writes with other values are outside every class ([`StateClasses::class_of`] is `None`:
//! such entries must stay on the server path).

mod bdd;
mod domains;
mod symex;
mod terms;

pub use bdd::{NodeId, NodeView};
pub use symex::Leaf;
pub use terms::{Atom, Term, TermId};

use std::collections::BTreeMap;
use std::fmt;
use tandem_ir::{InstKind, Module, StateId, StateKind};

/// Limits of the analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassOptions {
    /// At most this many values (the product of the bounded domains) are enumerated.
    pub max_values: usize,
    /// At most this many instructions are executed symbolically, over all values.
    pub step_limit: u64,
}

impl Default for ClassOptions {
    fn default() -> Self {
        ClassOptions {
            max_values: 1024,
            step_limit: 1_000_000,
        }
    }
}

/// One value field and its domain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDomain {
    /// The field's name.
    pub name: String,
    /// Its width in bits.
    pub bits: u32,
    /// The values it can hold (sorted), or `None` when unbounded (the switch-side code
    /// then never depends on it).
    pub values: Option<Vec<u64>>,
}

/// One class: the values it merges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateClass {
    /// The class holds "no entry".
    pub absent: bool,
    /// The values (one constant per bounded field, in field order) it holds.
    pub members: Vec<Vec<u64>>,
}

/// The classes of one map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateClasses {
    /// The map.
    pub state: StateId,
    /// Its name.
    pub name: String,
    /// The value fields.
    pub fields: Vec<FieldDomain>,
    /// The classes; "absent" is in the first.
    pub classes: Vec<StateClass>,
    /// Bits of the whole value.
    pub value_bits: u32,
}

/// Why a map gets no classes (it keeps today's placement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassFallback {
    /// Not a hash map or expiring map.
    NotAMap,
    /// The switch-side behaviour depends on a field whose domain is unbounded.
    Unbounded {
        /// The field.
        field: String,
    },
    /// Too many values to enumerate.
    TooManyValues {
        /// The product of the domains' sizes.
        count: u128,
        /// The limit.
        limit: usize,
    },
    /// The symbolic runs took more than the budget.
    StepLimit(u64),
    /// The switch-side decision is too complex to compare (its decision diagrams outgrew
    /// the budget: arithmetic such as a checksum loop on the switch side).
    DiagramLimit(usize),
    /// The map is looked up with different keys in one run.
    KeyMismatch,
    /// The module is malformed (it does not verify).
    Malformed(String),
}

impl fmt::Display for ClassFallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassFallback::NotAMap => f.write_str("not a hash map or expiring map"),
            ClassFallback::Unbounded { field } => write!(
                f,
                "the switch-side code depends on value field `{field}`, whose values are not a small set of constants"
            ),
            ClassFallback::TooManyValues { count, limit } => write!(
                f,
                "its value domain has {count} values, more than the {limit} the analysis enumerates"
            ),
            ClassFallback::StepLimit(n) => write!(
                f,
                "the symbolic runs of `process` need more than {n} steps (too many paths)"
            ),
            ClassFallback::DiagramLimit(n) => write!(
                f,
                "the switch-side decision is too complex to compare value by value (more than {n} decision-diagram nodes)"
            ),
            ClassFallback::KeyMismatch => {
                f.write_str("one packet can look it up with two different keys")
            }
            ClassFallback::Malformed(m) => write!(f, "malformed module: {m}"),
        }
    }
}

impl StateClasses {
    /// Bits of a class index (including the "absent" class).
    pub fn class_bits(&self) -> u32 {
        let n = self.classes.len().max(1) as u64;
        64 - (n - 1).leading_zeros()
    }

    /// The class of a value (one constant per value field, unbounded fields ignored), or
    /// `None` when it is outside the analysed domain.
    pub fn class_of(&self, value: &[u64]) -> Option<usize> {
        let bounded: Vec<u64> = self
            .fields
            .iter()
            .zip(value)
            .filter(|(f, _)| f.values.is_some())
            .map(|(_, &v)| v)
            .collect();
        self.classes
            .iter()
            .position(|c| c.members.contains(&bounded))
    }

    /// The class of "no entry".
    pub fn absent_class(&self) -> Option<usize> {
        self.classes.iter().position(|c| c.absent)
    }

    /// One line per class, saying which values it merges.
    pub fn describe(&self) -> Vec<String> {
        let bounded: Vec<&FieldDomain> =
            self.fields.iter().filter(|f| f.values.is_some()).collect();
        self.classes
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut parts = Vec::new();
                if c.absent {
                    parts.push("absent".to_string());
                }
                if bounded.is_empty() && !c.members.is_empty() {
                    parts.push("present (any value)".to_string());
                } else if !c.members.is_empty() {
                    parts.push(describe_members(&bounded, &c.members));
                }
                format!("c{i}  {}", parts.join("; "))
            })
            .collect()
    }
}

fn fmt_set(vals: &[u64]) -> String {
    let v: Vec<String> = vals.iter().map(|x| x.to_string()).collect();
    format!("{{{}}}", v.join(", "))
}

/// Per-field sets when the members are their product, else the list of values.
fn describe_members(fields: &[&FieldDomain], members: &[Vec<u64>]) -> String {
    let proj: Vec<Vec<u64>> = (0..fields.len())
        .map(|i| {
            let mut v: Vec<u64> = members.iter().map(|m| m[i]).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let product: usize = proj.iter().map(Vec::len).product();
    if product == members.len() {
        let parts: Vec<String> = fields
            .iter()
            .zip(&proj)
            .map(|(f, p)| {
                if Some(p) == f.values.as_ref() && p.len() > 1 {
                    format!("{} any", f.name)
                } else {
                    format!("{} in {}", f.name, fmt_set(p))
                }
            })
            .collect();
        return parts.join(", ");
    }
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let shown: Vec<String> = members
        .iter()
        .take(8)
        .map(|m| {
            let v: Vec<String> = m.iter().map(|x| x.to_string()).collect();
            format!("({})", v.join(", "))
        })
        .collect();
    let more = if members.len() > 8 {
        format!(" … ({} values)", members.len())
    } else {
        String::new()
    };
    format!("({}) in {}{more}", names.join(", "), shown.join(" "))
}

/// The maps `process` looks up, in declaration order.
pub fn looked_up_maps(module: &Module) -> Vec<StateId> {
    let mut out: Vec<StateId> = Vec::new();
    for (_, d) in module.process.insts.iter() {
        if let InstKind::MapFind { state, .. } = &d.kind {
            if !out.contains(state) {
                out.push(*state);
            }
        }
    }
    out.sort();
    out
}

/// Derives the classes of every hash map and expiring map `process` looks up.
pub fn compute_all_state_classes(
    module: &Module,
    options: &ClassOptions,
) -> Vec<(StateId, Result<StateClasses, ClassFallback>)> {
    looked_up_maps(module)
        .into_iter()
        .filter(|&s| {
            matches!(
                module.states.get(s).map(|o| &o.kind),
                Some(StateKind::HashMap { .. } | StateKind::ExpiringMap { .. })
            )
        })
        .map(|s| (s, compute_state_classes(module, s, options)))
        .collect()
}

/// The classes of a map with what each class does: the decision diagram of the switch-side
/// behaviour per class, over packet terms — what a pass needs to generate the switch's code
/// from the class alone.
pub struct Derivation {
    /// The classes.
    pub classes: StateClasses,
    /// Each class's behaviour (one root per class, in class order).
    pub roots: Vec<NodeId>,
    /// The map's key as terms, when some run looks the map up.
    pub key: Option<Vec<TermId>>,
    /// The operands of the other lookups (map finds, vector reads) whose results are
    /// [`Atom::Result`]s.
    pub result_args: std::collections::HashMap<tandem_ir::Inst, Vec<TermId>>,
    terms: terms::Terms,
    bdd: bdd::Bdd,
    leaves: Vec<Leaf>,
}

impl Derivation {
    /// A term.
    pub fn term(&self, t: TermId) -> &Term {
        self.terms.get(t)
    }

    /// A term's width in bits.
    pub fn term_bits(&self, t: TermId) -> u32 {
        self.terms.bits(t)
    }

    /// A diagram node.
    pub fn node(&self, n: NodeId) -> NodeView {
        self.bdd.view(n)
    }

    /// The outcome of terminal `k` (`k >= 2`).
    pub fn leaf(&self, k: u32) -> Option<&Leaf> {
        self.leaves.get((k as usize).checked_sub(2)?)
    }
}

/// Derives the classes of `state`'s values.
pub fn compute_state_classes(
    module: &Module,
    state: StateId,
    options: &ClassOptions,
) -> Result<StateClasses, ClassFallback> {
    derive_state_classes(module, state, options).map(|d| d.classes)
}

/// Derives the classes of `state`'s values and each class's switch-side behaviour.
pub fn derive_state_classes(
    module: &Module,
    state: StateId,
    options: &ClassOptions,
) -> Result<Derivation, ClassFallback> {
    let obj = module.states.get(state).ok_or(ClassFallback::NotAMap)?;
    let layout = match &obj.kind {
        StateKind::HashMap { value, .. } | StateKind::ExpiringMap { value, .. } => value,
        _ => return Err(ClassFallback::NotAMap),
    };
    let domains = domains::field_domains(module)
        .remove(&state)
        .unwrap_or_else(|| vec![None; layout.fields.len()]);
    let fields: Vec<FieldDomain> = layout
        .fields
        .iter()
        .zip(&domains)
        .map(|(f, d)| FieldDomain {
            name: f.name.clone(),
            bits: f.ty.bits(),
            values: d.as_ref().map(|s| s.iter().copied().collect()),
        })
        .collect();
    let count: u128 = fields
        .iter()
        .filter_map(|f| f.values.as_ref())
        .map(|v| v.len().max(1) as u128)
        .product();
    if count > options.max_values as u128 {
        return Err(ClassFallback::TooManyValues {
            count,
            limit: options.max_values,
        });
    }
    let mut machine = symex::Machine::new(module, state, options.step_limit);
    let run = |m: &mut symex::Machine<'_>, found: &symex::Found| {
        let r = m.run(found);
        let r = match r {
            Ok(_) if m.bdd.exhausted() => Err(symex::SymError::DiagramLimit(bdd::MAX_NODES)),
            r => r,
        };
        r.map_err(|e| match e {
            symex::SymError::StepLimit(n) => ClassFallback::StepLimit(n),
            symex::SymError::DiagramLimit(n) => ClassFallback::DiagramLimit(n),
            symex::SymError::KeyMismatch => ClassFallback::KeyMismatch,
            symex::SymError::Malformed(m) => ClassFallback::Malformed(m),
        })
    };
    // Each value's behaviour; the first value with a behaviour names its class.
    let mut by_node: BTreeMap<bdd::NodeId, usize> = BTreeMap::new();
    let mut classes: Vec<StateClass> = Vec::new();
    let mut nodes = Vec::new();
    let absent = run(&mut machine, &None)?;
    nodes.push(absent);
    by_node.insert(absent, 0);
    classes.push(StateClass {
        absent: true,
        members: Vec::new(),
    });
    for value in enumerate(&fields) {
        let found: Vec<Option<u64>> = {
            let mut it = value.iter();
            fields
                .iter()
                .map(|f| f.values.as_ref().and_then(|_| it.next().copied()))
                .collect()
        };
        let node = run(&mut machine, &Some(found))?;
        nodes.push(node);
        let k = *by_node.entry(node).or_insert_with(|| {
            classes.push(StateClass {
                absent: false,
                members: Vec::new(),
            });
            classes.len() - 1
        });
        classes[k].members.push(value);
    }
    check_unbounded(&machine, &nodes, &fields)?;
    let mut roots = vec![absent; classes.len()];
    for (&node, &k) in &by_node {
        roots[k] = node;
    }
    Ok(Derivation {
        classes: StateClasses {
            state,
            name: obj.name.clone(),
            fields,
            classes,
            value_bits: layout.types().map(|t| t.bits()).sum(),
        },
        roots,
        key: machine.key(),
        result_args: machine.result_args(),
        leaves: std::mem::take(&mut machine.leaf_list),
        terms: std::mem::take(&mut machine.terms),
        bdd: std::mem::take(&mut machine.bdd),
    })
}

/// Every value of the product of the bounded domains, in lexicographic order.
fn enumerate(fields: &[FieldDomain]) -> Vec<Vec<u64>> {
    let mut out = vec![Vec::new()];
    for f in fields {
        let Some(vals) = &f.values else { continue };
        out = out
            .into_iter()
            .flat_map(|prefix| {
                vals.iter().map(move |&v| {
                    let mut p = prefix.clone();
                    p.push(v);
                    p
                })
            })
            .collect();
    }
    out
}

/// Falls back when a behaviour mentions an unbounded field.
fn check_unbounded(
    machine: &symex::Machine<'_>,
    nodes: &[bdd::NodeId],
    fields: &[FieldDomain],
) -> Result<(), ClassFallback> {
    if fields.iter().all(|f| f.values.is_some()) {
        return Ok(());
    }
    let mut memo = std::collections::HashMap::new();
    for &n in nodes {
        let (mut leaves, mut vars) = (Vec::new(), Vec::new());
        machine.bdd.support(n, &mut leaves, &mut vars);
        let mut terms = vars;
        for k in leaves {
            if let Some(symex::Leaf::Done { send, writes, .. }) = machine.leaf(k) {
                terms.extend(send.iter().copied());
                terms.extend(writes.iter().map(|&(_, t)| t));
            }
        }
        for t in terms {
            if let Some(i) = machine.terms.value_field(t, &mut memo) {
                return Err(ClassFallback::Unbounded {
                    field: fields[i].name.clone(),
                });
            }
        }
    }
    Ok(())
}
