//! `evaluate`: everything an assignment of statements to partitions implies — the branches
//! each partition follows, the values that cross between partitions, the transfer header,
//! the dependency chains and metadata each switch partition holds, and where each state
//! object lives with the memory it takes. The refinement evaluates every candidate move, and
//! the Plan is built from the final evaluation.
//!
//! One function per step, in the order `evaluate` runs them:
//!
//! ```text
//! assign              labels -> parts          s7: pre, s8: server, s9: post
//! follows_of          parts -> followed branches per partition
//! cuts_of             values crossing + values recomputed where used
//! value_cuts          v12 pre -> server (32 bits, in the header)
//! metadata_cuts       meta.in_port pre -> server
//! fate_cut            fate (17 bits) -> post, when decided before or on the server
//! transfer_header     tag, orig_ethertype, v12, ..., pad
//! chains              dependency depth of pre and of post (stages)
//! metadata_peak       bytes of live values a switch partition holds, at its peak
//! reread_states       states the server re-reads instead of receiving a value
//! place_states        placement, copies, SRAM blocks, tables and stateful ALUs
//! ```

use crate::build::{
    assign, bits_of, cuts_of, follows_of, share_path, CutEntry, CutMap, Evaluation,
};
use crate::labels::{Context, Labelling};
use crate::plan::*;
use std::collections::{BTreeMap, BTreeSet};
use tandem_analysis::StmtId;
use tandem_ir::{Block, Effect, EntityRef, InstKind, Meta, StateKind, Value};

/// Evaluates the assignment the labels `lab` imply.
pub(crate) fn evaluate(ctx: &Context, lab: &Labelling) -> Evaluation {
    let parts = assign(ctx, lab);
    let mut follows = BTreeMap::new();
    for x in [Partition::Pre, Partition::Server, Partition::Post] {
        follows.insert(x, follows_of(ctx, &parts, x));
    }
    let (cut, remat) = cuts_of(ctx, &parts, &follows);
    let server_blocks = server_blocks(ctx, &parts);
    let mut cuts = value_cuts(ctx, &cut, &server_blocks);
    cuts.extend(metadata_cuts(ctx, &parts, &server_blocks));
    cuts.extend(fate_cut(ctx, &parts, &server_blocks));
    let header = transfer_header(&cuts, !server_blocks.is_empty());
    let chain = chains(ctx, &parts);
    let meta = metadata_peak(ctx, &parts, &cut, &remat);
    let reread = reread_states(ctx, &remat);
    let placed = place_states(ctx, &parts, &reread);
    Evaluation {
        parts,
        follows,
        cuts,
        remat,
        header,
        chain_pre: chain[0],
        chain_post: chain[1],
        meta_pre: meta[0],
        meta_post: meta[1],
        states: placed.states,
        sram: placed.sram,
        tcam: placed.tcam,
        tables: placed.tables,
        salus: placed.salus,
    }
}

/// Blocks holding a server statement.
fn server_blocks(ctx: &Context, parts: &[Partition]) -> BTreeSet<Block> {
    ctx.info
        .graph
        .stmts
        .iter()
        .enumerate()
        .filter(|(i, _)| parts[*i] == Partition::Server)
        .map(|(_, s)| s.block)
        .collect()
}

/// Does a path through `b` visit the server?
fn via_server(ctx: &Context, server_blocks: &BTreeSet<Block>, b: Block) -> bool {
    server_blocks.iter().any(|&s| share_path(ctx, s, b))
}

/// SSA values crossing partitions; in the header when the packet visits the server on the
/// way (always for values to or from the server).
fn value_cuts(ctx: &Context, cut: &CutMap, server_blocks: &BTreeSet<Block>) -> Vec<CutEntry> {
    let g = &ctx.info.graph;
    cut.iter()
        .map(|((v, to), c)| CutEntry {
            name: v.to_string(),
            bits: bits_of(ctx, *v),
            def: g.def_stmt(*v),
            from: c.from,
            to: *to,
            in_header: c.from == Partition::Server
                || *to == Partition::Server
                || c.uses.iter().any(|&b| via_server(ctx, server_blocks, b)),
        })
        .collect()
}

/// Packet metadata read outside pre comes from pre through the header.
fn metadata_cuts(
    ctx: &Context,
    parts: &[Partition],
    server_blocks: &BTreeSet<Block>,
) -> Vec<CutEntry> {
    let g = &ctx.info.graph;
    let mut metas: BTreeMap<Meta, BTreeSet<Partition>> = BTreeMap::new();
    for (i, s) in g.stmts.iter().enumerate() {
        if parts[i] == Partition::Pre {
            continue;
        }
        if let Some(inst) = s.inst() {
            if let InstKind::MetaRead { meta } = ctx.module.process.insts[inst].kind {
                // The server reads now() from the packet itself, not from pre.
                if meta == Meta::Now && parts[i] == Partition::Server {
                    continue;
                }
                metas.entry(meta).or_default().insert(parts[i]);
            }
        }
    }
    let mut out = Vec::new();
    for (m, tos) in &metas {
        for &to in tos {
            out.push(CutEntry {
                name: format!("meta.{}", m.name()),
                bits: m.ty().bits(),
                def: None,
                from: Partition::Pre,
                to,
                in_header: to == Partition::Server || !server_blocks.is_empty(),
            });
        }
    }
    out
}

/// The packet's fate, when decided before or on the server for a packet that visits it.
fn fate_cut(
    ctx: &Context,
    parts: &[Partition],
    server_blocks: &BTreeSet<Block>,
) -> Option<CutEntry> {
    let g = &ctx.info.graph;
    let from = g
        .stmts
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            parts[*i] != Partition::Post
                && s.writes.contains(&Effect::Action)
                && s.inst().is_some_and(|i| {
                    matches!(
                        ctx.module.process.insts[i].kind,
                        InstKind::Send { .. } | InstKind::Drop
                    )
                })
                && via_server(ctx, server_blocks, s.block)
        })
        .map(|(i, _)| parts[i])
        .min()?;
    Some(CutEntry {
        name: "fate".into(),
        bits: 17,
        def: None,
        from,
        to: Partition::Post,
        in_header: true,
    })
}

/// Appends a field at the end of the header.
fn push_field(
    fields: &mut Vec<HeaderField>,
    name: String,
    value: Option<String>,
    bits: u32,
    from: Option<Partition>,
    to: Vec<Partition>,
) {
    let offset = fields.last().map(|f| f.offset + f.bits).unwrap_or(0);
    fields.push(HeaderField {
        name,
        value,
        offset,
        bits,
        from,
        to,
    });
}

/// The transfer header: one layout for both directions — tag, original EtherType, the cut
/// values in (source partition, value number) order, the fate last, padded to whole bytes.
fn transfer_header(cuts: &[CutEntry], any_server: bool) -> TransferHeader {
    let mut fields: Vec<HeaderField> = Vec::new();
    if any_server {
        push_field(&mut fields, "tag".into(), None, 8, None, vec![]);
        push_field(&mut fields, "orig_ethertype".into(), None, 16, None, vec![]);
        // (from, order, name, bits) -> readers
        let mut entries: BTreeMap<(Partition, u32, String, u32), BTreeSet<Partition>> =
            BTreeMap::new();
        for c in cuts.iter().filter(|c| c.in_header) {
            let order = match (&c.def, c.name.as_str()) {
                (Some(_), name) => name.trim_start_matches('v').parse::<u32>().unwrap_or(0) + 1,
                (None, "fate") => u32::MAX,
                (None, _) => 0,
            };
            entries
                .entry((c.from, order, c.name.clone(), c.bits))
                .or_default()
                .insert(c.to);
        }
        for ((from, _, name, bits), to) in entries {
            // A field wider than 56 bits starts on a byte boundary: an 8-byte window then
            // holds it whole (tandem-switch reads fields through one such window, and so do
            // most hardware parsers' extractors).
            let off: u32 = fields.iter().map(|f| f.bits).sum();
            if bits > 56 && !off.is_multiple_of(8) {
                let n = fields.iter().filter(|f| f.name.starts_with("pad")).count();
                push_field(
                    &mut fields,
                    format!("pad_{n}"),
                    None,
                    8 - off % 8,
                    None,
                    vec![],
                );
            }
            let field = name.replace('.', "_");
            push_field(
                &mut fields,
                field,
                Some(name),
                bits,
                Some(from),
                to.into_iter().collect(),
            );
        }
        let off: u32 = fields.iter().map(|f| f.bits).sum();
        if !off.is_multiple_of(8) {
            push_field(&mut fields, "pad".into(), None, 8 - off % 8, None, vec![]);
        }
    }
    let off: u32 = fields.iter().map(|f| f.bits).sum();
    TransferHeader {
        ethertype: format!("0x{TRANSFER_ETHERTYPE:04x}"),
        bytes: off / 8,
        tag_to_server: 1,
        tag_to_post: 2,
        fields,
    }
}

/// The longest dependency chain of pre and of post (in stages).
fn chains(ctx: &Context, parts: &[Partition]) -> [u64; 2] {
    let mut chain = [0u64; 2];
    for (k, x) in [Partition::Pre, Partition::Post].into_iter().enumerate() {
        chain[k] = ctx.depths(|i| parts[i] == x).into_iter().max().unwrap_or(0);
    }
    chain
}

/// Metadata of pre and of post: the peak, over program points, of the bytes of live values a
/// switch partition holds (values leaving pre count from their definition to the deparser).
fn metadata_peak(
    ctx: &Context,
    parts: &[Partition],
    cut: &CutMap,
    remat: &BTreeMap<Partition, BTreeSet<Value>>,
) -> [u64; 2] {
    let g = &ctx.info.graph;
    let nv = ctx.module.process.values.len();
    let vbytes: Vec<u64> = (0..nv)
        .map(|i| u64::from(bits_of(ctx, Value::from_u32(i as u32)).div_ceil(8)))
        .collect();
    let mut meta = [0u64; 2];
    for (k, x) in [Partition::Pre, Partition::Post].into_iter().enumerate() {
        let mut held = vec![false; nv];
        let mut out_always = vec![false; nv];
        let mut any = false;
        for (i, s) in g.stmts.iter().enumerate() {
            if parts[i] == x {
                for d in &s.defs {
                    held[d.index()] = true;
                    any = true;
                }
            }
        }
        for ((v, to), c) in cut {
            if *to == x {
                held[v.index()] = true;
                any = true;
            }
            if c.from == x && x == Partition::Pre {
                out_always[v.index()] = true;
            }
        }
        if let Some(r) = remat.get(&x) {
            for v in r {
                held[v.index()] = true;
            }
        }
        let fixed: u64 = (0..nv).filter(|&i| out_always[i]).map(|i| vbytes[i]).sum();
        let mut peak = 0;
        for points in &ctx.live_points {
            for live in points {
                let here: u64 = live
                    .iter()
                    .map(|v| v.index())
                    .filter(|&i| held[i] && !out_always[i])
                    .map(|i| vbytes[i])
                    .sum();
                peak = peak.max(here);
            }
        }
        meta[k] = if any { peak + fixed } else { 0 };
    }
    meta
}

/// States re-read by the server instead of receiving the value.
fn reread_states(ctx: &Context, remat: &BTreeMap<Partition, BTreeSet<Value>>) -> BTreeSet<usize> {
    let g = &ctx.info.graph;
    remat
        .get(&Partition::Server)
        .into_iter()
        .flatten()
        .filter_map(|v| g.def_stmt(*v))
        .filter_map(|d| ctx.access[d.index()].map(|a| a.state.index()))
        .collect()
}

/// Where the states live and what they take.
struct Placed {
    states: Vec<StatePlacement>,
    sram: u64,
    tcam: u64,
    tables: u64,
    salus: u64,
}

/// Entries of one TCAM block: Tofino's 512 words of 44 bits (an LPM key wider than 44 bits
/// takes several blocks side by side).
pub(crate) const TCAM_BLOCK_ENTRIES: u64 = 512;
/// Key bits of one TCAM block word.
pub(crate) const TCAM_BLOCK_BITS: u64 = 44;

/// TCAM blocks of one copy of an LPM, ternary or range map (`ceil(capacity / 512) × ceil(key
/// bits / 44)`; a range key is counted at its width, as Tofino's range units encode it in
/// TCAM); 0 for other kinds.
fn tcam_blocks(kind: &StateKind) -> u64 {
    match kind {
        StateKind::LpmMap { key, capacity, .. }
        | StateKind::TernaryMap { key, capacity, .. }
        | StateKind::RangeMap { key, capacity, .. } => {
            let key_bits = crate::build::layout_bits(key).max(1);
            capacity.div_ceil(TCAM_BLOCK_ENTRIES) * key_bits.div_ceil(TCAM_BLOCK_BITS)
        }
        _ => 0,
    }
}

/// A state object's bits, whether it is a map (a table) and whether it ages.
fn state_shape(p: &crate::TargetProfile, kind: &StateKind) -> (u64, bool, bool) {
    let bits = |l: &tandem_ir::Layout| crate::build::layout_bits(l);
    match kind {
        StateKind::HashMap {
            key,
            value,
            capacity,
        } => (capacity * (bits(key) + bits(value)), true, false),
        StateKind::ExpiringMap {
            key,
            value,
            capacity,
            ..
        } => (capacity * (bits(key) + bits(value)), true, true),
        // The prefixes sit in TCAM (`tcam_blocks`); SRAM holds the action data.
        StateKind::LpmMap {
            value, capacity, ..
        }
        | StateKind::TernaryMap {
            value, capacity, ..
        }
        | StateKind::RangeMap {
            value, capacity, ..
        } => (capacity * bits(value), true, false),
        StateKind::Vector { elem, len } => (len * bits(elem), false, false),
        StateKind::Scalar { ty } => (u64::from(ty.bits()), false, false),
        StateKind::Meter { len, .. } => (len * p.meter_cell_bits, false, false),
    }
}

/// Placement, switch copies, SRAM blocks, tables and stateful ALUs of every state object.
fn place_states(ctx: &Context, parts: &[Partition], reread: &BTreeSet<usize>) -> Placed {
    let g = &ctx.info.graph;
    let p = ctx.profile;
    let mut out = Placed {
        states: Vec::new(),
        sram: 0,
        tcam: 0,
        tables: 0,
        salus: 0,
    };
    // What on_timer writes: the server writes it at each tick, so a switch copy must be one
    // the runtime can update atomically.
    let (_, timer_writes) = ctx.module.timer_state_effects();
    for (sid, obj) in ctx.module.states.iter() {
        let list = &ctx.accesses_of[sid.index()];
        let (sw, sv): (Vec<StmtId>, Vec<StmtId>) =
            list.iter().partition(|s| parts[s.index()].on_switch());
        let sw_writes = sw
            .iter()
            .any(|s| ctx.access[s.index()].is_some_and(|a| a.writes));
        let mut sw_parts: Vec<Partition> = sw.iter().map(|s| parts[s.index()]).collect();
        sw_parts.sort();
        sw_parts.dedup();
        // A fused read-modify-write is one unit.
        let units = sw.len() as u32
            - ctx
                .fused
                .iter()
                .filter(|(l, st)| sw.contains(l) && sw.contains(st))
                .count() as u32;
        let copies = if sw.is_empty() {
            0
        } else if !sw_writes && p.duplicate_readonly_tables {
            units
        } else {
            1
        };
        let (mut bits, is_map, ageing) = state_shape(p, &obj.kind);
        if let (Some(n), Some(cap)) = (ctx.switch_entries[sid.index()], obj.kind.map_capacity()) {
            // A partial map: the switch table holds n of the capacity's entries.
            bits = (bits / cap.max(1)) * n.min(cap);
        }
        let partial = ctx.switch_entries[sid.index()].is_some();
        let hashed = if sw.is_empty() {
            None
        } else {
            let expiring = |k: &StateKind| matches!(k, StateKind::ExpiringMap { .. });
            let ages = expiring(&obj.kind)
                || crate::class_map_of(&obj.name)
                    .and_then(|o| ctx.module.state_by_name(o))
                    .is_some_and(|o| expiring(&ctx.module.states[o].kind));
            crate::auto_hashed::choose_with(p, &obj.kind, copies, partial, sw_writes, ages)
        };
        if let Some(h) = &hashed {
            bits = h.hashed_bits;
        }
        let blocks = bits.div_ceil(p.sram_block_bits).max(1) * u64::from(copies);
        out.sram += blocks;
        let tcam = tcam_blocks(&obj.kind) * u64::from(copies);
        out.tcam += tcam;
        if is_map {
            out.tables += u64::from(copies);
        } else {
            out.salus += u64::from(copies);
        }
        if let Some(h) = &hashed {
            // One stateful ALU per way's cells, one more per way's hit times (its check and
            // refresh are one access, `tandem_p4::lower::hashed`).
            let per_way = if h.hit_time_bits > 0 { 2 } else { 1 };
            out.salus += u64::from(h.ways) * per_way;
        }
        let placement = if sw.is_empty() {
            Placement::Server
        } else if sw_writes {
            Placement::SwitchRegister
        } else if !sv.is_empty() || reread.contains(&sid.index()) {
            Placement::Replicated
        } else if is_map && timer_writes.contains(&sid) {
            // Read on the switch, written by on_timer only: write-back tables and the flag.
            Placement::Replicated
        } else if is_map {
            Placement::SwitchTable
        } else {
            Placement::SwitchRegister
        };
        // Switch reads of a replicated state that a server visit may follow: the runtime
        // revalidates them.
        let revalidate = if placement == Placement::Replicated {
            sw.iter()
                .filter(|a| {
                    g.reachable_from(**a)
                        .iter()
                        .enumerate()
                        .any(|(i, r)| *r && parts[i] == Partition::Server)
                })
                .map(|a| a.0)
                .collect()
        } else {
            Vec::new()
        };
        out.states.push(StatePlacement {
            name: obj.name.clone(),
            kind: obj.kind.keyword().to_string(),
            placement,
            switch_partitions: sw_parts,
            switch_accesses: sw.iter().map(|s| s.0).collect(),
            server_accesses: sv.iter().map(|s| s.0).collect(),
            copies,
            sram_blocks: blocks,
            tcam_blocks: tcam,
            ageing: ageing && !sw.is_empty(),
            revalidate,
            partial: None,
            hashed,
        });
    }
    out
}
