//! What a statement is, as far as the partitioner cares: can the target express it (initial
//! labels), how many stages it costs on a dependency chain, and how it touches state.

use crate::TargetProfile;
use tandem_analysis::{is_const, DepInfo, Stmt, StmtId, StmtKind};
use tandem_ir::{BinOp, InstKind, IntCC, MapMatch, Meta, Module, StateId, StateKind, Type};

/// Most key fields a switch table matches on (the P4 back end makes one exact key per key
/// field; Tandem's software switch takes at most 8, `tandem_switch::MAX_KEYS`).
pub const MAX_TABLE_KEYS: usize = 8;

/// How a statement accesses a state object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateAccess {
    /// The object.
    pub state: StateId,
    /// It (may) change the object's contents. A lookup in an expiring map only refreshes
    /// the entry's age, which a target with ageing does in hardware: not a write here.
    pub writes: bool,
    /// It is a map lookup (a table apply on the switch).
    pub table: bool,
}

/// The state access of a statement, if any.
pub fn state_access(module: &Module, stmt: &Stmt) -> Option<StateAccess> {
    let inst = stmt.inst()?;
    let kind = &module.process.insts[inst].kind;
    let state = kind.state()?;
    let (writes, table) = match kind {
        InstKind::MapFind { .. } => (false, true),
        InstKind::VecGet { .. } | InstKind::ScalarLoad { .. } => (false, false),
        _ => (true, false),
    };
    Some(StateAccess {
        state,
        writes,
        table,
    })
}

/// The state objects an `opaque` statement may touch (`state NAME` or `all` effects).
pub fn opaque_states(module: &Module, stmt: &Stmt) -> Vec<StateId> {
    let mut out: Vec<StateId> = Vec::new();
    for e in stmt.reads.iter().chain(&stmt.writes) {
        match e {
            tandem_ir::Effect::State(s) => out.push(*s),
            tandem_ir::Effect::All => out.extend(module.states.keys()),
            _ => {}
        }
    }
    if stmt
        .inst()
        .is_some_and(|i| !matches!(module.process.insts[i].kind, InstKind::Opaque { .. }))
    {
        return Vec::new();
    }
    out.sort();
    out.dedup();
    out
}

fn pow2_const(module: &Module, v: tandem_ir::Value) -> bool {
    is_const(module, v).is_some_and(|c| c.is_power_of_two())
}

fn low_mask_const(module: &Module, v: tandem_ir::Value) -> bool {
    is_const(module, v).is_some_and(|c| c != 0 && (c & (c.wrapping_add(1))) == 0)
}

fn byte_shift_const(module: &Module, v: tandem_ir::Value) -> bool {
    is_const(module, v).is_some_and(|c| c % 8 == 0)
}

/// A bitwise operation, or a shift by a constant: no carry crosses bits, so a target runs
/// it on a value wider than its ALUs piece by piece (Tofino splits a 48-bit field over a
/// 32-bit and a 16-bit PHV container and ORs, masks or moves each). Copying a MAC address
/// byte by byte lifts to exactly these on 48-bit values:
///
/// ```text
/// before: v12:i48 = lshr v10, 8 ; v13:i8 = trunc v12       -> server ("48-bit arithmetic")
/// after:  the same two statements run in pre (a slice of eth.src)
/// ```
///
/// Addition, subtraction, comparison and multiplication carry, so they keep the width limit.
fn carry_free(module: &Module, op: BinOp, amount: tandem_ir::Value) -> bool {
    match op {
        BinOp::And | BinOp::Or | BinOp::Xor => true,
        BinOp::Shl | BinOp::Lshr => is_const(module, amount).is_some(),
        _ => false,
    }
}

fn width(module: &Module, v: tandem_ir::Value) -> u32 {
    module.process.value_type(v).map(Type::bits).unwrap_or(1)
}

/// Is `inst` part of an increment-only counter's read-modify-write that the target runs as a
/// pair of register halves (`counters.rs`)? Up to twice the register width.
fn wide_counter(module: &Module, p: &TargetProfile, inst: tandem_ir::Inst) -> bool {
    let kind = &module.process.insts[inst].kind;
    let bits = match kind
        .state()
        .and_then(|s| module.states.get(s))
        .map(|s| &s.kind)
    {
        Some(StateKind::Scalar { ty }) => ty.bits(),
        Some(StateKind::Vector { elem, .. }) => elem.types().map(Type::bits).max().unwrap_or(0),
        _ => module
            .process
            .inst_results(inst)
            .first()
            .map_or(0, |v| width(module, *v)),
    };
    bits <= 2 * p.max_alu_bits.max(32) && crate::counters::WideCounters::find(module).contains(inst)
}

/// Is `state` a register process() never writes (configuration: a router's 48-bit MAC, a
/// next hop's MAC in a vector of structs) and at most twice the register width? The control
/// plane writes it as a pair of register halves and the switch reads both halves; nothing on
/// the data path writes it, so no read-modify-write of a wide cell is needed. Opaque code
/// that may write it (or any state) disqualifies it.
fn read_only_pair(module: &Module, p: &TargetProfile, state: StateId, bits: u32) -> bool {
    if bits > 2 * p.max_alu_bits.max(32) {
        return false;
    }
    !module.process.insts.iter().any(|(_, d)| match &d.kind {
        InstKind::ScalarStore { state: s, .. } | InstKind::VecSet { state: s, .. } => *s == state,
        InstKind::Opaque { writes, .. } => writes.iter().any(|e| {
            matches!(e, tandem_ir::Effect::All)
                || matches!(e, tandem_ir::Effect::State(s) if *s == state)
        }),
        _ => false,
    })
}

/// `Some(reason)` when the target cannot run the statement at all.
pub fn unsupported(
    module: &Module,
    info: &DepInfo,
    p: &TargetProfile,
    s: StmtId,
) -> Option<String> {
    let stmt = info.graph.stmt(s);
    let inst = stmt.inst()?;
    let kind = &module.process.insts[inst].kind;
    let need = |op: &str, what: &str| -> Option<String> {
        (!p.supports(op)).then(|| format!("{what} is not supported by {}", p.name))
    };
    let wide = |v: tandem_ir::Value| -> Option<String> {
        let w = width(module, v);
        (w > p.max_alu_bits).then(|| {
            format!(
                "{w}-bit arithmetic is wider than {}'s {}-bit ALUs",
                p.name, p.max_alu_bits
            )
        })
    };
    match kind {
        InstKind::Const { .. } | InstKind::Jump { .. } | InstKind::Return => None,
        InstKind::Binary { op, args } => {
            let r = match op {
                BinOp::Mul if pow2_const(module, args[1]) || pow2_const(module, args[0]) => {
                    need("shl", "multiplication by a power of two (a shift)")
                }
                BinOp::Udiv if pow2_const(module, args[1]) => {
                    need("lshr", "division by a power of two (a shift)")
                }
                BinOp::Urem if pow2_const(module, args[1]) => {
                    need("and", "remainder by a power of two (a mask)")
                }
                // `crc32(..) % 4099`: v1model's hash extern reduces modulo any constant
                // (`tandem_ir::hash_mod`); the hash is read by nothing else.
                BinOp::Urem
                    if p.supports("hash_mod")
                        && tandem_ir::hash_mod::remainder_of_hash(&module.process, inst)
                            .is_some() =>
                {
                    None
                }
                BinOp::Mul | BinOp::Udiv | BinOp::Sdiv | BinOp::Urem | BinOp::Srem => {
                    let what = match op {
                        BinOp::Mul => "multiplication",
                        BinOp::Urem | BinOp::Srem => {
                            "remainder by a value that is not a constant power of two"
                        }
                        _ => "division by a value that is not a constant power of two",
                    };
                    need(op.name(), what)
                }
                op => need(op.name(), &format!("`{}`", op.name())),
            };
            r.or_else(|| (!carry_free(module, *op, args[1])).then(|| wide(args[0])).flatten())
                .filter(|_| !(*op == BinOp::Add && wide_counter(module, p, inst)))
        }
        // Equality is decided piece by piece (every piece equal: no carry), as Tofino's
        // gateways compare a 48-bit MAC in two containers; an order comparison carries.
        InstKind::Icmp {
            pred: IntCC::Eq | IntCC::Ne,
            ..
        } => need("icmp", "comparison"),
        InstKind::Icmp { args, .. } => need("icmp", "comparison").or_else(|| wide(args[0])),
        InstKind::Select { if_true, .. } => need("select", "select")
            .or_else(|| wide(*if_true).filter(|_| !wide_counter(module, p, inst))),
        InstKind::Cast { .. } => need("cast", "a cast"),
        InstKind::Bswap { .. } => need("bswap", "a byte swap"),
        InstKind::Hash {
            algo: tandem_ir::HashAlgo::Identity,
            ..
        } => Some(
            "the identity hash is 64 bits wide: v1model's `hash` returns its value modulo a \
             `max` below 2^64, and Tofino's hash units are 32 bits"
                .into(),
        ),
        InstKind::Hash { algo, .. } => need("hash", &format!("a {algo} hash")).or_else(|| {
            let w = algo.result_type().bits();
            (w > p.max_alu_bits).then(|| {
                format!(
                    "a {w}-bit {algo} hash is wider than {}'s {}-bit hash units",
                    p.name, p.max_alu_bits
                )
            })
        }),
        InstKind::HdrRead { .. }
        | InstKind::HdrWrite { .. }
        | InstKind::HdrValid { .. }
        | InstKind::HdrPush { .. }
        | InstKind::HdrPop { .. } => need("hdr", "header access"),
        // now() is the packet's timestamp in ns (64 bits). Switch clocks are 48-bit
        // counters (BMv2's in microseconds, Tofino's wrapping after 78 hours), so no switch
        // gives that value exactly: it is read on the server, from the packet.
        InstKind::MetaRead { meta: Meta::Now } => Some(
            "now() is the packet's 64-bit nanosecond timestamp, which no switch clock represents exactly"
                .into(),
        ),
        InstKind::MetaRead {
            meta: Meta::Length,
        } if !p.frame_length => Some(format!(
            "the frame length is not in the switch's metadata ({}: TNA's ingress has none)",
            p.name
        )),
        InstKind::MetaRead { .. } => need("meta", "packet metadata"),
        InstKind::MapFind { state, key } => {
            let expiring = matches!(
                module.states.get(*state).map(|s| &s.kind),
                Some(StateKind::ExpiringMap { .. })
            );
            let matching = module.states.get(*state).and_then(|s| s.kind.map_match());
            let needs = match matching {
                Some(MapMatch::Lpm) => Some((crate::MatchKind::Lpm, "longest-prefix-match", "LPM")),
                Some(MapMatch::Ternary) => Some((crate::MatchKind::Ternary, "ternary", "ternary")),
                Some(MapMatch::Range) => Some((crate::MatchKind::Range, "range", "range")),
                _ => None,
            };
            if let Some((kind, tables, what)) = needs {
                return if !p.supports("table") || !p.match_kinds.contains(&kind) {
                    Some(format!("{} has no {tables} tables", p.name))
                } else if entries_written(module, *state) {
                    // A switch copy would need match-aware write-back tables: a longer prefix
                    // or a higher priority in the main table must still win over a pending
                    // entry.
                    Some(format!(
                        "this {what} map is written per packet or by on_timer; its lookups stay with the writes on the server"
                    ))
                } else if key.len() > MAX_TABLE_KEYS {
                    Some(format!(
                        "the key has {} fields; a switch table matches at most {MAX_TABLE_KEYS}",
                        key.len()
                    ))
                } else {
                    None
                };
            }
            if !p.supports("table") || !p.match_kinds.contains(&crate::MatchKind::Exact) {
                Some(format!("{} has no exact-match tables", p.name))
            } else if key.len() > MAX_TABLE_KEYS {
                Some(format!(
                    "the key has {} fields; a switch table matches at most {MAX_TABLE_KEYS}",
                    key.len()
                ))
            } else if expiring && !p.ageing {
                Some(format!(
                    "a lookup in an expiring map refreshes the entry; {} has no table ageing",
                    p.name
                ))
            } else {
                None
            }
        }
        InstKind::MapInsert { .. } | InstKind::MapErase { .. } => {
            Some("the data plane cannot insert into or erase from a match-action table".into())
        }
        // A `set` is lowered only as the write of a fused read-modify-write (guarded by the
        // read's bounds check); labels.rs keeps unfused writes on the server.
        InstKind::VecGet { state, .. }
        | InstKind::VecSet { state, .. }
        | InstKind::ScalarLoad { state }
        | InstKind::ScalarStore { state, .. } => {
            need("register", "register access").or_else(|| {
                let bits = match module.states.get(*state).map(|s| &s.kind) {
                    Some(StateKind::Scalar { ty }) => ty.bits(),
                    Some(StateKind::Vector { elem, .. }) => {
                        elem.types().map(Type::bits).max().unwrap_or(0)
                    }
                    _ => 0,
                };
                (bits > p.max_alu_bits.max(32)
                    && !wide_counter(module, p, inst)
                    && !read_only_pair(module, p, *state, bits))
                    .then(|| format!("a {bits}-bit register is wider than {}'s registers", p.name))
            })
        }
        // A meter the switch executes is v1model's `meter`/TNA's `Meter` extern: it reads the
        // packet's time and length itself. Its index is compared with the array's length in
        // the index's width unless it is provably in range (see `meter_index_in_range`).
        InstKind::MeterExecute { state, index } => need("meter", "a meter").or_else(|| {
            let len = match module.states.get(*state).map(|s| &s.kind) {
                Some(StateKind::Meter { len, .. }) => *len,
                _ => 0,
            };
            if meter_index_in_range(module, *index, len) {
                None
            } else {
                wide(*index)
            }
        }),
        InstKind::Send { .. } => need("send", "send"),
        InstKind::Drop => need("drop", "drop"),
        InstKind::Opaque { name, .. } => Some(format!(
            "`{name}` is opaque code (payload access or an unknown call): server only"
        )),
        InstKind::Brif { .. } | InstKind::Switch { .. } => need("branch", "a branch"),
    }
}

/// The NF API header whose inlined helpers are checksum arithmetic (`csum_update2/4`,
/// `udp_csum_update2/4`, `csum_fold`); its other helpers are byte swaps, which cost nothing.
pub const CHECKSUM_HELPERS: &str = "tandem/net.hh";

/// Pipeline stages the statement occupies on a dependency chain.
pub fn stage_cost(module: &Module, p: &TargetProfile, stmt: &Stmt, fused_store: bool) -> u32 {
    let c = &p.stage_costs;
    let Some(inst) = stmt.inst() else {
        return c.moves;
    };
    let kind = &module.process.insts[inst].kind;
    let boolean = |v| width(module, v) == 1;
    let checksum = stmt
        .loc
        .and_then(|l| module.files.get(l.file))
        .is_some_and(|f| f.ends_with(CHECKSUM_HELPERS));
    if checksum
        && matches!(
            kind,
            InstKind::Binary { .. } | InstKind::Icmp { .. } | InstKind::Select { .. }
        )
    {
        return c.checksum;
    }
    match kind {
        InstKind::Binary { op, args } => {
            if boolean(args[0]) {
                return c.boolean;
            }
            match op {
                BinOp::And
                    if low_mask_const(module, args[1]) || low_mask_const(module, args[0]) =>
                {
                    c.slice
                }
                BinOp::Lshr | BinOp::Shl if byte_shift_const(module, args[1]) => c.slice,
                _ => c.alu,
            }
        }
        InstKind::Icmp { args, .. } => {
            if boolean(args[0]) {
                c.boolean
            } else {
                c.compare
            }
        }
        InstKind::Select { if_true, .. } => {
            if boolean(*if_true) {
                c.boolean
            } else {
                c.select
            }
        }
        InstKind::MapFind { .. } => c.table,
        InstKind::Hash { .. } => c.alu,
        InstKind::VecGet { .. } | InstKind::ScalarLoad { .. } | InstKind::MeterExecute { .. } => {
            c.register
        }
        InstKind::VecSet { .. } | InstKind::ScalarStore { .. } => {
            if fused_store {
                0
            } else {
                c.register
            }
        }
        _ => c.moves,
    }
}

/// Is the statement a pure computation of its operands (no effects, not a branch, not a
/// join)? Such statements may be recomputed in a later partition.
pub fn is_pure(module: &Module, stmt: &Stmt) -> bool {
    match stmt.kind {
        StmtKind::Param { .. } => false,
        StmtKind::Inst(i) => matches!(
            module.process.insts[i].kind,
            InstKind::Binary { .. }
                | InstKind::Icmp { .. }
                | InstKind::Cast { .. }
                | InstKind::Select { .. }
                | InstKind::Bswap { .. }
                | InstKind::Hash { .. }
        ),
    }
}

/// Does `process` (or `on_timer`) insert into or erase from map `state`?
fn entries_written(module: &Module, state: StateId) -> bool {
    module.functions().any(|(_, f)| {
        f.blocks.iter().any(|(_, b)| {
            b.insts.iter().any(|&i| {
                matches!(
                    &f.insts[i].kind,
                    InstKind::MapInsert { state: s, .. } | InstKind::MapErase { state: s, .. } if *s == state
                )
            })
        })
    })
}

/// Is `index` below `len` whatever its value: its type holds no larger number, or it is a
/// constant, a mask `x & m` or a remainder `x % m` (unsigned) that stays below `len`. Such a
/// meter index needs no bounds check on the switch.
pub fn meter_index_in_range(module: &Module, index: tandem_ir::Value, len: u64) -> bool {
    let f = &module.process;
    let bits = width(module, index);
    if bits < 64 && (1u64 << bits) <= len {
        return true;
    }
    if let Some(c) = is_const(module, index) {
        return c < len;
    }
    let Some(tandem_ir::ValueDef::Result(i, _)) = f.values.get(index).map(|d| d.def) else {
        return false;
    };
    match f.insts[i].kind {
        InstKind::Binary {
            op: BinOp::And,
            args,
        } => args
            .iter()
            .any(|&a| is_const(module, a).is_some_and(|m| m < len)),
        InstKind::Binary {
            op: BinOp::Urem,
            args,
        } => is_const(module, args[1]).is_some_and(|m| m != 0 && m <= len),
        InstKind::Cast {
            op: tandem_ir::CastOp::Zext,
            arg,
        } => meter_index_in_range(module, arg, len),
        _ => false,
    }
}
