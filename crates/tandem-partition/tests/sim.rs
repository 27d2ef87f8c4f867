#![allow(dead_code)]
//! The plan simulator (shared by the simulation and property tests): runs a plan's
//! partitions one after another exactly as the execution model of `docs/plan-format.md`
//! says — each partition walks the CFG with its own values, runs only its statements,
//! constants and recomputed values, evaluates only the branches it follows (elsewhere it
//! continues at the immediate post-dominator), and receives only the values of the cuts
//! (only header values when the packet visits the server).

use std::collections::{BTreeMap, BTreeSet};
use tandem_analysis::DepInfo;
use tandem_ir::interp::{DumpFormat, HeaderOffsets, OpaqueHandler, Packet};
use tandem_ir::{
    Action, Block, InstKind, InterpOptions, Interpreter, Machine, Module, StateStore, Step, Type,
    Value,
};
use tandem_partition::*;

/// `tandem.payload_len` / `tandem.payload_load` for the Trojan detector.
pub struct Payload;

impl OpaqueHandler for Payload {
    fn call(
        &mut self,
        name: &str,
        args: &[u64],
        _: &[Type],
        packet: &mut Vec<u8>,
        _: &mut StateStore,
    ) -> Result<Vec<u64>, String> {
        let h = HeaderOffsets::parse(packet);
        let start = match (h.tcp, h.udp, h.ipv4) {
            (Some(t), _, _) => (t + usize::from(packet[t + 12] >> 4) * 4).min(packet.len()),
            (_, Some(u), _) => u + 8,
            (_, _, Some(ip)) => ip + usize::from(packet[ip] & 0x0f) * 4,
            _ => 14,
        };
        match name {
            "tandem.payload_len" => Ok(vec![(packet.len() - start) as u64]),
            "tandem.payload_load" => {
                let off = args.first().copied().unwrap_or(0) as usize;
                Ok(vec![u64::from(
                    packet.get(start + off).copied().unwrap_or(0),
                )])
            }
            _ => Err(format!("unexpected opaque {name}")),
        }
    }
}

pub struct Sim<'a> {
    m: &'a Module,
    info: &'a DepInfo,
    plan: &'a Plan,
    /// Partition of each instruction / block parameter that is a statement.
    part: BTreeMap<(u32, Option<u32>, Option<u32>), Partition>,
    server_blocks: BTreeSet<Block>,
}

fn value(name: &str) -> Option<Value> {
    name.strip_prefix('v')?.parse().ok().map(Value::from_u32)
}

impl<'a> Sim<'a> {
    pub fn new(m: &'a Module, info: &'a DepInfo, plan: &'a Plan) -> Self {
        let part = plan
            .statements
            .iter()
            .map(|s| ((s.block, s.index, s.param), s.partition))
            .collect();
        let server_blocks = plan
            .statements
            .iter()
            .filter(|s| s.partition == Partition::Server)
            .map(|s| Block::from_u32(s.block))
            .collect();
        Sim {
            m,
            info,
            plan,
            part,
            server_blocks,
        }
    }

    /// Runs partition `x` on `mach`; returns whether its walk passed a server statement.
    pub fn walk(
        &self,
        x: Partition,
        mach: &mut Machine,
        store: &mut StateStore,
        packet: &Packet,
    ) -> bool {
        let f = &self.m.process;
        let follows: BTreeSet<u32> = match x {
            Partition::Pre => &self.plan.follows.pre,
            Partition::Server => &self.plan.follows.server,
            Partition::Post => &self.plan.follows.post,
        }
        .iter()
        .copied()
        .collect();
        let remat: BTreeSet<Value> = match x {
            Partition::Pre => Vec::new(),
            Partition::Server => self.plan.remat.server.clone(),
            Partition::Post => self.plan.remat.post.clone(),
        }
        .iter()
        .filter_map(|v| value(v))
        .collect();
        let mut saw_server = false;
        let mut block = f.entry().unwrap();
        loop {
            saw_server |= self.server_blocks.contains(&block);
            let mut next = None;
            for (i, &inst) in f.blocks[block].insts.iter().enumerate() {
                let data = &f.insts[inst];
                let mine = self.part.get(&(block.as_u32(), Some(i as u32), None)) == Some(&x);
                match &data.kind {
                    InstKind::Return => return saw_server,
                    InstKind::Jump { .. } => {
                        next = Some(mach.exec(inst, store, packet, &mut Payload).unwrap());
                    }
                    InstKind::Brif { .. } | InstKind::Switch { .. } => {
                        if follows.contains(&block.as_u32()) {
                            next = Some(mach.exec(inst, store, packet, &mut Payload).unwrap());
                        } else {
                            assert!(
                                !mine,
                                "{} runs s-branch of {block} without following it",
                                x.name()
                            );
                            match self.info.pdom.ipdom(block) {
                                Some(b) => next = Some(Step::Goto(b, Vec::new())),
                                None => return saw_server,
                            }
                        }
                    }
                    k => {
                        let recompute = data.results.iter().any(|r| remat.contains(r));
                        if mine || recompute || matches!(k, InstKind::Const { .. }) {
                            mach.exec(inst, store, packet, &mut Payload).unwrap();
                        }
                    }
                }
            }
            let Some(Step::Goto(b, args)) = next else {
                panic!("{block} ends without a branch");
            };
            // Assign the parameters that belong to this partition.
            for (k, (&p, a)) in f.blocks[b].params.iter().zip(args).enumerate() {
                if self.part.get(&(b.as_u32(), None, Some(k as u32))) == Some(&x) {
                    mach.set_value(p, a).unwrap();
                }
            }
            block = b;
        }
    }

    fn seed(&self, to: &mut Machine, from: &Machine, cuts: &[CutValue], header_only: bool) {
        for c in cuts {
            if header_only && !c.in_header {
                continue;
            }
            if let Some(v) = value(&c.value) {
                to.set_value(v, from.value(v).unwrap()).unwrap();
            }
        }
    }

    /// Runs one packet through pre, (server,) post.
    pub fn run(&self, store: &mut StateStore, packet: &Packet) -> ((Action, Vec<u8>), bool) {
        let has_fate = |cuts: &[CutValue]| cuts.iter().any(|c| c.value == "fate");
        let mut pre = Machine::new(self.m, store, packet);
        let to_server = self.walk(Partition::Pre, &mut pre, store, packet);
        let mut post = Machine::new(self.m, store, packet);
        if to_server {
            let mut server = Machine::new(self.m, store, packet);
            server.set_bytes(pre.bytes().to_vec());
            let cuts = &self.plan.cuts;
            if has_fate(&cuts.pre_to_post) {
                server.set_action(pre.action());
            }
            self.seed(&mut server, &pre, &cuts.pre_to_server, true);
            self.walk(Partition::Server, &mut server, store, packet);
            post.set_bytes(server.bytes().to_vec());
            post.set_action(server.action());
            self.seed(&mut post, &pre, &cuts.pre_to_post, true);
            self.seed(&mut post, &server, &cuts.server_to_post, true);
        } else {
            post.set_bytes(pre.bytes().to_vec());
            post.set_action(pre.action());
            self.seed(&mut post, &pre, &self.plan.cuts.pre_to_post, false);
        }
        self.walk(Partition::Post, &mut post, store, packet);
        ((post.action(), post.bytes().to_vec()), to_server)
    }
}

/// Runs `packets` through the original NF (interpreter) and through the plan (simulator),
/// each from its own copy of `store`; panics on the first difference in fate, bytes or final
/// state. Returns how many packets visited the server.
pub fn check(
    m: &Module,
    info: &DepInfo,
    plan: &Plan,
    store: &StateStore,
    packets: &[Packet],
) -> usize {
    let sim = Sim::new(m, info, plan);
    let interp = Interpreter::new(m, InterpOptions::default()).unwrap();
    let (mut sa, mut sb) = (store.clone(), store.clone());
    let mut visits = 0;
    for (i, p) in packets.iter().enumerate() {
        let want = interp.run_with(&mut sa, p, &mut Payload).unwrap();
        let (got, server) = sim.run(&mut sb, p);
        visits += usize::from(server);
        assert_eq!(
            (want.action, want.packet),
            got,
            "{} on {}: packet {i} (in_port {}) differs",
            m.name,
            plan.target,
            p.in_port
        );
    }
    assert_eq!(
        sa.dump_json(m, DumpFormat::Canonical).unwrap(),
        sb.dump_json(m, DumpFormat::Canonical).unwrap(),
        "{} on {}: final state differs",
        m.name,
        plan.target
    );
    visits
}
