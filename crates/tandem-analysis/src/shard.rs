//! Which state can be split across several server hosts (CLIP §III-B, and beyond it).
//!
//! A switch in front of `N` servers sends each packet to the server chosen by a hash of its
//! flow (`dispatch`, [`flow_endpoints`]): the two endpoints `(ipv4.saddr, sport)` and
//! `(ipv4.daddr, dport)` taken as an unordered pair, so both directions of a connection reach
//! the same server. Each server keeps its own copy of the state. That is correct for an
//! object only when any two packets that can touch the same element of it always reach the
//! same server — the object is **flow-local**:
//!
//! - a map whose every access (`map.find`, `map.insert`, `map.erase`) is keyed by the
//!   packet's own endpoint fields — each key field a header read of `saddr`, `daddr`,
//!   `sport` or `dport` (through byte swaps, zero extensions and selects between TCP and UDP
//!   ports) or a constant, all four endpoint fields present — and every access names them in
//!   the same slots as the first, or with source and destination swapped (a reply looking
//!   up the request's entry). Equal keys then mean the same unordered endpoint pair, hence
//!   the same server. The header reads must see the packet as it arrived (no header write
//!   can come before them), because that is what the dispatch hashes.
//!
//! Everything else that `process` or `on_timer` writes is **global**: a scalar (one value
//! every flow shares — MazuNAT's next port), a vector or meter array (flows meet in its
//! elements), a map keyed by anything else (a value from state, arithmetic, one endpoint
//! only). State nobody writes is **read-only** and is copied to every server. An NF
//! is sharded when all its written state is flow-local and it has no timer (`on_timer` runs
//! over all the state at once). When global state is written too, the flow-local state still
//! shards and each global object gets a single owner the other servers defer to
//! ([`crate::owner`], which says per object what the IR shows it to be and why a partition
//! into per-server ranges would not do). A timer, or opaque code that may write any state,
//! keeps the NF on one server and [`ShardReport::decision`] says why.
//!
//! Before / after, on a firewall that learns connections:
//!
//! ```text
//! state conns: expiring_map<{sa, da, sp, dp}, ...>     state hits: scalar<i64>
//!   inside:  map.insert conns(saddr, daddr, sport, dport)   scalar.store hits, ...
//!   outside: map.find   conns(daddr, saddr, dport, sport)
//!
//! shardable-state analysis:
//!   conns  flow-local  (every access keyed by the packet's endpoints, forward or reversed)
//!   hits   global      (a scalar: one value shared by every flow)
//!          -> single owner: an allocator (...); its values reach the packets or other state, ...
//!   decision: shard by flow over the servers; hits kept by one owner (server 0), ...
//! ```
//!
//! Pure and deterministic, like the rest of this crate.

use std::fmt;

use tandem_ir::{
    Block, CastOp, Effect, HeaderField, Inst, InstKind, Module, StateId, StateKind, Value, ValueDef,
};

use crate::compute_cfg;
use crate::owner::Ownership;

/// A flow-key field, as the dispatch hash sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// `ipv4.saddr`.
    SrcAddr,
    /// `ipv4.daddr`.
    DstAddr,
    /// `tcp.sport` / `udp.sport`.
    SrcPort,
    /// `tcp.dport` / `udp.dport`.
    DstPort,
    /// `ipv4.protocol` (allowed in keys, not hashed).
    Proto,
    /// A constant (padding).
    Const,
}

impl Role {
    fn swapped(self) -> Role {
        match self {
            Role::SrcAddr => Role::DstAddr,
            Role::DstAddr => Role::SrcAddr,
            Role::SrcPort => Role::DstPort,
            Role::DstPort => Role::SrcPort,
            r => r,
        }
    }
}

/// One key field of a flow-local map: which flow field it holds and whether the NF stored
/// it byte-swapped (`bswap`: the width of the swap, so a runtime can undo it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot {
    /// The flow field.
    pub role: Role,
    /// `Some(bits)`: the stored value is the field byte-swapped at `bits` bits.
    pub bswap: Option<u32>,
}

impl Slot {
    fn swapped(self) -> Slot {
        Slot {
            role: self.role.swapped(),
            bswap: self.bswap,
        }
    }

    /// The header field's value from the stored key field.
    pub fn field_value(self, stored: u64) -> u64 {
        match self.bswap {
            None => stored,
            Some(bits) => {
                let n = (bits / 8) as usize;
                let mut v = 0u64;
                for i in 0..n {
                    v = (v << 8) | ((stored >> (8 * i)) & 0xff);
                }
                v
            }
        }
    }
}

/// The header fields the dispatch hash reads, as `(address, port)` endpoints: the packet's
/// source, then its destination. Ports are TCP's when present, else UDP's.
pub fn flow_endpoints() -> [(HeaderField, [HeaderField; 2]); 2] {
    [
        (
            HeaderField::Ipv4Saddr,
            [HeaderField::TcpSport, HeaderField::UdpSport],
        ),
        (
            HeaderField::Ipv4Daddr,
            [HeaderField::TcpDport, HeaderField::UdpDport],
        ),
    ]
}

fn field_role(f: HeaderField) -> Option<Role> {
    Some(match f {
        HeaderField::Ipv4Saddr => Role::SrcAddr,
        HeaderField::Ipv4Daddr => Role::DstAddr,
        HeaderField::TcpSport | HeaderField::UdpSport => Role::SrcPort,
        HeaderField::TcpDport | HeaderField::UdpDport => Role::DstPort,
        HeaderField::Ipv4Protocol => Role::Proto,
        _ => return None,
    })
}

/// How one state object can be placed on several servers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sharding {
    /// Never written: every server holds a copy.
    ReadOnly,
    /// Every access is keyed by the packet's flow: each server holds the flows it is sent.
    FlowLocal,
    /// Shared by flows; why.
    Global(String),
}

/// The analysis's result for one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectShard {
    /// The state object.
    pub state: StateId,
    /// Its name.
    pub name: String,
    /// The result.
    pub sharding: Sharding,
    /// A flow-local map's key slots as its first access names them (a reply's access
    /// names them swapped); empty for other objects. A runtime recovers a stored key's
    /// flow from it.
    pub slots: Vec<Slot>,
    /// A global object's single owner, with what the IR shows it to be ([`crate::owner`]);
    /// `None` for other objects, or when the NF runs on one server.
    pub owner: Option<Ownership>,
}

/// Whether the NF as a whole can run on several servers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardDecision {
    /// Each server takes the flows the dispatch hash gives it.
    Shard,
    /// As [`ShardDecision::Shard`] for the flow-local state; the global objects named are
    /// kept by one owner (server 0) the other servers defer to ([`crate::owner`]).
    Owned(Vec<String>),
    /// All packets go to one server; why.
    OneServer(String),
}

/// The shardable-state analysis of a module ([`analyse_sharding`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardReport {
    /// Per state object, in declaration order.
    pub objects: Vec<ObjectShard>,
    /// The decision for the NF.
    pub decision: ShardDecision,
}

impl ShardReport {
    /// Whether the NF may be spread over several servers.
    pub fn shardable(&self) -> bool {
        matches!(
            self.decision,
            ShardDecision::Shard | ShardDecision::Owned(_)
        )
    }

    /// Whether every written object is flow-local (nothing needs an owner).
    pub fn flow_local_only(&self) -> bool {
        self.decision == ShardDecision::Shard
    }

    /// The global objects kept by one owner (empty unless [`ShardDecision::Owned`]).
    pub fn owned(&self) -> Vec<StateId> {
        self.objects
            .iter()
            .filter(|o| o.owner.is_some())
            .map(|o| o.state)
            .collect()
    }

    /// The result for one object.
    pub fn object(&self, name: &str) -> Option<&ObjectShard> {
        self.objects.iter().find(|o| o.name == name)
    }
}

impl fmt::Display for ShardReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "shardable-state analysis:")?;
        let w = self.objects.iter().map(|o| o.name.len()).max().unwrap_or(0);
        for o in &self.objects {
            match &o.sharding {
                Sharding::ReadOnly => {
                    writeln!(f, "  {:w$}  read-only   (copied to every server)", o.name)?
                }
                Sharding::FlowLocal => writeln!(
                    f,
                    "  {:w$}  flow-local  (every access keyed by the packet's endpoints)",
                    o.name
                )?,
                Sharding::Global(why) => writeln!(f, "  {:w$}  global      ({why})", o.name)?,
            }
            if let Some(own) = &o.owner {
                writeln!(f, "  {:w$}  -> {}", "", own.line())?;
            }
        }
        match &self.decision {
            ShardDecision::Shard => writeln!(f, "  decision: shard by flow over the servers"),
            ShardDecision::Owned(names) => writeln!(
                f,
                "  decision: shard by flow over the servers; {} kept by one owner (server 0), \
                 the others defer to it",
                names.join(", ")
            ),
            ShardDecision::OneServer(why) => writeln!(f, "  decision: one server ({why})"),
        }
    }
}

/// Runs the analysis (see the module docs).
pub fn analyse_sharding(module: &Module) -> ShardReport {
    let a = Accesses::collect(module);
    let mut objects = Vec::new();
    for (id, obj) in module.states.iter() {
        let (sharding, slots) = match classify(module, &a, id, &obj.kind) {
            Ok(slots) => (Sharding::FlowLocal, slots),
            Err(s) => (s, Vec::new()),
        };
        objects.push(ObjectShard {
            state: id,
            name: obj.name.clone(),
            sharding,
            slots,
            owner: None,
        });
    }
    let global: Vec<&str> = objects
        .iter()
        .filter(|o| matches!(o.sharding, Sharding::Global(_)))
        .map(|o| o.name.as_str())
        .collect();
    let decision = if a.opaque_all {
        ShardDecision::OneServer(
            "opaque code may write any state: which objects an owner would keep is unknown".into(),
        )
    } else if module.timer.is_some() {
        ShardDecision::OneServer("the NF has a timer: on_timer runs over all the state".into())
    } else if !global.is_empty() {
        ShardDecision::Owned(global.iter().map(|s| s.to_string()).collect())
    } else {
        ShardDecision::Shard
    };
    if matches!(decision, ShardDecision::Owned(_)) {
        let ids: Vec<StateId> = objects
            .iter()
            .filter(|o| matches!(o.sharding, Sharding::Global(_)))
            .map(|o| o.state)
            .collect();
        let mut own = crate::owner::ownerships(module, &ids);
        for o in &mut objects {
            o.owner = own.remove(&o.state);
        }
    }
    ShardReport { objects, decision }
}

/// The state accesses of `process` and what writes what.
struct Accesses {
    /// Per state object: the keys of its map accesses in `process` (instruction, key).
    keys: Vec<Vec<(Inst, Vec<Value>)>>,
    /// Per state object: written by `process` or `on_timer` (an expiring map's lookup
    /// refreshes its entry, so it writes too), and by which kind of access.
    written: Vec<bool>,
    /// Opaque code may write anything.
    opaque_all: bool,
}

impl Accesses {
    fn collect(module: &Module) -> Accesses {
        let n = module.states.len();
        let mut a = Accesses {
            keys: vec![Vec::new(); n],
            written: vec![false; n],
            opaque_all: false,
        };
        for (fid, func) in module.functions() {
            for (_, block) in func.blocks.iter() {
                for &inst in &block.insts {
                    let kind = &func.insts[inst].kind;
                    if let InstKind::Opaque { writes, .. } = kind {
                        for w in writes {
                            match w {
                                Effect::State(s) => a.written[s.index()] = true,
                                Effect::All => a.opaque_all = true,
                                _ => {}
                            }
                        }
                        continue;
                    }
                    let Some(s) = kind.state() else { continue };
                    let i = s.index();
                    let expiring = matches!(module.states[s].kind, StateKind::ExpiringMap { .. });
                    match kind {
                        InstKind::MapInsert { .. }
                        | InstKind::MapErase { .. }
                        | InstKind::VecSet { .. }
                        | InstKind::ScalarStore { .. }
                        | InstKind::MeterExecute { .. } => a.written[i] = true,
                        InstKind::MapFind { .. } if expiring => a.written[i] = true,
                        _ => {}
                    }
                    if fid != tandem_ir::FuncId::Process {
                        // A timer's access has no packet: not keyed by a flow.
                        if matches!(
                            kind,
                            InstKind::MapFind { .. }
                                | InstKind::MapInsert { .. }
                                | InstKind::MapErase { .. }
                        ) {
                            a.keys[i].push((inst, Vec::new()));
                        }
                        continue;
                    }
                    if let InstKind::MapFind { key, .. }
                    | InstKind::MapInsert { key, .. }
                    | InstKind::MapErase { key, .. } = kind
                    {
                        a.keys[i].push((inst, key.clone()));
                    }
                }
            }
        }
        a
    }
}

use tandem_ir::EntityRef as _;

/// `Ok(slots)`: flow-local, with its key slots' roles; else how the object shards.
fn classify(
    module: &Module,
    a: &Accesses,
    id: StateId,
    kind: &StateKind,
) -> Result<Vec<Slot>, Sharding> {
    let i = id.index();
    if a.opaque_all {
        return Err(Sharding::Global("opaque code may write any state".into()));
    }
    if !a.written[i] {
        return Err(Sharding::ReadOnly);
    }
    match kind {
        StateKind::Scalar { .. } => {
            return Err(Sharding::Global(
                "a scalar: one value shared by every flow".into(),
            ))
        }
        StateKind::Vector { .. } => {
            return Err(Sharding::Global(
                "a vector: flows meet in its elements".into(),
            ))
        }
        StateKind::HashMap { .. } | StateKind::ExpiringMap { .. } => {}
        _ => return Err(Sharding::Global("not an exact-match map".into())),
    }
    let roles = RoleFinder::new(module);
    let mut canon: Option<Vec<Slot>> = None;
    for (inst, key) in &a.keys[i] {
        if key.is_empty() {
            return Err(Sharding::Global(
                "accessed by on_timer, which has no packet".into(),
            ));
        }
        let mut slots = Vec::with_capacity(key.len());
        for (k, v) in key.iter().enumerate() {
            match roles.role(*v, *inst) {
                Some(r) => slots.push(r),
                None => {
                    return Err(Sharding::Global(format!(
                        "key field {k} of a {} is not a field of the packet's flow",
                        access_name(&module.process.insts[*inst].kind)
                    )))
                }
            }
        }
        let has = |r: Role| slots.iter().filter(|s| s.role == r).count() == 1;
        if ![Role::SrcAddr, Role::DstAddr, Role::SrcPort, Role::DstPort]
            .into_iter()
            .all(has)
        {
            return Err(Sharding::Global(format!(
                "a {} is keyed by fewer than both endpoints (address and port each way)",
                access_name(&module.process.insts[*inst].kind)
            )));
        }
        match &canon {
            None => canon = Some(slots),
            Some(c) => {
                let swapped: Vec<Slot> = c.iter().map(|r| r.swapped()).collect();
                if slots != *c && slots != swapped {
                    return Err(Sharding::Global(
                        "accesses name the endpoints in different slots (not the same flow \
                         forward or reversed)"
                            .into(),
                    ));
                }
            }
        }
    }
    Ok(canon.unwrap_or_default())
}

fn access_name(kind: &InstKind) -> &'static str {
    match kind {
        InstKind::MapFind { .. } => "map.find",
        InstKind::MapInsert { .. } => "map.insert",
        InstKind::MapErase { .. } => "map.erase",
        _ => "access",
    }
}

/// Traces a key operand back to a flow-key header read of the arriving packet.
struct RoleFinder<'m> {
    module: &'m Module,
    cfg: crate::Cfg,
    /// Where each instruction is: block and position.
    place: std::collections::HashMap<Inst, (Block, usize)>,
    /// Header writes: field, block, position.
    writes: Vec<(HeaderField, Block, usize)>,
}

impl<'m> RoleFinder<'m> {
    fn new(module: &'m Module) -> RoleFinder<'m> {
        let f = &module.process;
        let mut place = std::collections::HashMap::new();
        let mut writes = Vec::new();
        for (b, data) in f.blocks.iter() {
            for (pos, &inst) in data.insts.iter().enumerate() {
                place.insert(inst, (b, pos));
                if let InstKind::HdrWrite { field, .. } = &f.insts[inst].kind {
                    writes.push((*field, b, pos));
                }
            }
        }
        RoleFinder {
            module,
            cfg: compute_cfg(f),
            place,
            writes,
        }
    }

    fn role(&self, v: Value, _user: Inst) -> Option<Slot> {
        self.role_depth(v, 0)
    }

    fn role_depth(&self, v: Value, depth: u32) -> Option<Slot> {
        if depth > 16 {
            return None;
        }
        let f = &self.module.process;
        let ValueDef::Result(inst, _) = f.values.get(v)?.def else {
            return None;
        };
        match &f.insts[inst].kind {
            InstKind::Const { .. } => Some(Slot {
                role: Role::Const,
                bswap: None,
            }),
            InstKind::Bswap { arg } => {
                let inner = self.role_depth(*arg, depth + 1)?;
                let bits = f.values.get(v)?.ty.bits();
                // One swap of the field's own width: a runtime can undo it.
                (inner.bswap.is_none() && inner.role != Role::Const).then_some(Slot {
                    role: inner.role,
                    bswap: Some(bits),
                })
            }
            InstKind::Cast {
                op: CastOp::Zext,
                arg,
            } => self.role_depth(*arg, depth + 1),
            InstKind::Select {
                if_true, if_false, ..
            } => {
                let t = self.role_depth(*if_true, depth + 1)?;
                (self.role_depth(*if_false, depth + 1)? == t).then_some(t)
            }
            InstKind::HdrRead { field } => {
                let role = field_role(*field)?;
                (!self.written_before(*field, inst)).then_some(Slot { role, bswap: None })
            }
            _ => None,
        }
    }

    /// Whether a write of `field` can run before the read `inst`.
    fn written_before(&self, field: HeaderField, inst: Inst) -> bool {
        let Some(&(rb, rpos)) = self.place.get(&inst) else {
            return true;
        };
        self.writes.iter().any(|&(wf, wb, wpos)| {
            wf.header() == field.header()
                && wf == field
                && ((wb == rb && wpos < rpos) || self.cfg.path(wb, rb))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A firewall with a connection map (flow-local: forward insert, reversed lookup), a
    /// read-only port, and — in the negative control — a global packet counter.
    fn firewall(counter: bool) -> Module {
        let text = format!(
            r#"nf Fw

state conns: hashmap<{{k0: i32 @0, k4: i32 @4, k8: i16 @8, k10: i16 @10}} size 12, {{v0: i8 @0}} size 1, 1024>
state inside: scalar<i16>
state hits: scalar<i64>
state by_src: hashmap<{{k0: i32 @0}} size 4, {{v0: i8 @0}} size 1, 1024>

fn process {{
block0:
    v0:i32 = hdr.read ipv4.saddr
    v1:i32 = hdr.read ipv4.daddr
    v2:i16 = hdr.read tcp.sport
    v3:i16 = hdr.read tcp.dport
    v4:i16 = meta.read in_port
    v5:i16 = scalar.load inside
    v6:i1 = icmp eq v4, v5
    brif v6, block1, block2

block1:
    v7:i8 = const 1
    v8:i1 = map.insert conns(v0, v1, v2, v3) -> (v7)
    {count}
    send v5
    return

block2:
    v9:i1, v10:i8 = map.find conns(v1, v0, v3, v2)
    v11:i1 = map.insert by_src(v0) -> (v10)
    send v4
    return
}}
"#,
            count = if counter {
                "v12:i64 = scalar.load hits\n    v13:i64 = const 1\n    v14:i64 = add v12, v13\n    scalar.store hits, v14"
            } else {
                ""
            }
        );
        tandem_ir::parse_module(&text).unwrap()
    }

    #[test]
    fn known_answer_and_negative_control() {
        let r = analyse_sharding(&firewall(false));
        assert_eq!(r.object("conns").unwrap().sharding, Sharding::FlowLocal);
        assert_eq!(r.object("inside").unwrap().sharding, Sharding::ReadOnly);
        assert_eq!(r.object("hits").unwrap().sharding, Sharding::ReadOnly);
        // Keyed by the source alone: two flows from one host share the element.
        assert!(matches!(
            r.object("by_src").unwrap().sharding,
            Sharding::Global(_)
        ));
        assert!(r.shardable() && !r.flow_local_only(), "{r}");
        assert_eq!(r.owned(), vec![r.object("by_src").unwrap().state]);
        // Negative control: a global counter is not flow-local.
        let r = analyse_sharding(&firewall(true));
        assert!(matches!(
            r.object("hits").unwrap().sharding,
            Sharding::Global(_)
        ));
        assert!(r.to_string().contains("hits"), "{r}");
    }

    #[test]
    fn shardable_without_the_source_table() {
        let mut m = firewall(false);
        // Drop the by_src insert: the rest is flow-local or read-only.
        let b2 = m.process.blocks.keys().nth(2).unwrap();
        let by_src = m.state_by_name("by_src").unwrap();
        let f = &mut m.process;
        let keep: Vec<Inst> = f.blocks[b2]
            .insts
            .iter()
            .copied()
            .filter(|&i| f.insts[i].kind.state() != Some(by_src))
            .collect();
        f.blocks[b2].insts = keep;
        let r = analyse_sharding(&m);
        assert!(r.flow_local_only(), "{r}");
        assert!(r.owned().is_empty());
    }

    #[test]
    fn a_key_written_before_it_is_read_is_not_the_arriving_flow() {
        let text = r#"nf Nat

state m: hashmap<{k0: i32 @0, k4: i32 @4, k8: i16 @8, k10: i16 @10} size 12, {v0: i8 @0} size 1, 16>

fn process {
block0:
    v0:i32 = const 7
    hdr.write ipv4.saddr, v0
    v1:i32 = hdr.read ipv4.saddr
    v2:i32 = hdr.read ipv4.daddr
    v3:i16 = hdr.read tcp.sport
    v4:i16 = hdr.read tcp.dport
    v5:i8 = const 1
    v6:i1 = map.insert m(v1, v2, v3, v4) -> (v5)
    return
}
"#;
        let r = analyse_sharding(&tandem_ir::parse_module(text).unwrap());
        assert!(matches!(r.objects[0].sharding, Sharding::Global(_)), "{r}");
    }

    #[test]
    fn mixed_slots_are_global() {
        let text = r#"nf Mix

state m: hashmap<{k0: i32 @0, k4: i32 @4, k8: i16 @8, k10: i16 @10} size 12, {v0: i8 @0} size 1, 16>

fn process {
block0:
    v1:i32 = hdr.read ipv4.saddr
    v2:i32 = hdr.read ipv4.daddr
    v3:i16 = hdr.read tcp.sport
    v4:i16 = hdr.read tcp.dport
    v5:i8 = const 1
    v6:i1 = map.insert m(v1, v2, v3, v4) -> (v5)
    v7:i1, v8:i8 = map.find m(v1, v2, v4, v3)
    return
}
"#;
        let r = analyse_sharding(&tandem_ir::parse_module(text).unwrap());
        assert!(matches!(r.objects[0].sharding, Sharding::Global(_)), "{r}");
    }
}
