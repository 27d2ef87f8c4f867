//! The C++ back end: the server partition of a [`Plan`] as readable C++ (`server.cc`)
//! against Tandem's server ABI ([`SERVER_H`], `tandem/server.h`).
//!
//! ```text
//! let module = plan.module()?;
//! let cc = tandem_cpp::generate(&plan, &module)?;       // server.cc
//! std::fs::write("include/tandem/server.h", tandem_cpp::SERVER_H);
//! // clang++-16 -O2 -shared -fPIC -Iinclude server.cc -o server.so
//! ```
//!
//! The server walks the original CFG like every partition (see `docs/plan-format.md`):
//! each block it may reach becomes a label; it runs its statements and the values it
//! recomputes; a followed branch becomes `if`/`switch` with `goto`s, any other branch a
//! `goto` to the immediate post-dominator. Every SSA value is a `uint64_t` holding the
//! value's bits (results are masked to their width); the IR's defined results for division
//! by zero and over-wide shifts come from the header's helpers. Values arrive in `in[]`
//! (transfer-header fields), state is reached through `tandem_state_ops`, and the values
//! for post and the packet's fate leave in `out[]`.
//!
//! Pure: no I/O, deterministic; anything it cannot express is a [`CppError`].

mod server_h;
mod timer;
use tandem_partition::view;

pub use server_h::{SERVER_ABI_VERSION, SERVER_H, SERVER_H_PATH};

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use tandem_ir::{
    BinOp, Block, BlockCall, CastOp, EntityRef, Header, Inst, InstKind, IntCC, Meta, Module, Value,
    ValueDef,
};
use tandem_partition::{Partition, Plan};
use thiserror::Error;
use view::View;

/// Errors of the C++ back end.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CppError {
    /// The plan does not fit its module.
    #[error("bad plan: {0}")]
    BadPlan(String),
}

const S: Partition = Partition::Server;

/// Generates `server.cc` for `plan`; `module` is `plan.module()`. An NF with a timer also
/// gets `tandem_server_timer`, its whole `on_timer` (see [`timer`]).
pub fn generate(plan: &Plan, module: &Module) -> Result<String, CppError> {
    let view = View::new(module, plan)?;
    let mut g = Gen::new(&view, &module.process, false);
    let mut out = g.run()?;
    if let Some(t) = &module.timer {
        out.push_str(&Gen::new(&view, &t.func, true).run_timer(t.interval_ns)?);
    }
    Ok(out)
}

struct Gen<'v, 'a> {
    view: &'v View<'a>,
    /// The function emitted: `process` (its server partition) or the timer's `on_timer`.
    func: &'v tandem_ir::Function,
    /// Emit the whole function (the timer: every instruction, every branch followed, no
    /// transfer header) rather than the plan's server partition.
    whole: bool,
    body: String,
    /// Values the code assigns or reads (declared at the top).
    values: BTreeSet<Value>,
    /// Single-use pure values folded into their reader (same block): value → expression.
    foldable: BTreeSet<Value>,
    folded: HashMap<Value, String>,
}

fn hex_or_dec(c: u64) -> String {
    if c < 256 {
        format!("{c}u")
    } else {
        format!("{c:#x}ull")
    }
}

fn ident(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

impl<'v, 'a> Gen<'v, 'a> {
    fn new(view: &'v View<'a>, func: &'v tandem_ir::Function, whole: bool) -> Gen<'v, 'a> {
        Gen {
            view,
            func,
            whole,
            body: String::new(),
            values: BTreeSet::new(),
            foldable: BTreeSet::new(),
            folded: HashMap::new(),
        }
    }
}

impl Gen<'_, '_> {
    fn func(&self) -> &tandem_ir::Function {
        self.func
    }

    /// Whether the emitted code runs `inst`.
    fn runs(&self, inst: Inst) -> bool {
        self.whole || self.view.runs_inst(S, inst)
    }

    /// Whether the emitted code assigns block parameter `p`.
    fn runs_param(&self, p: Value) -> bool {
        self.whole || self.view.runs_param(S, p)
    }

    /// Whether the emitted code follows `b`'s branch (else it jumps to the post-dominator).
    fn follows(&self, b: Block) -> bool {
        self.whole || self.view.follows(S, b)
    }

    fn bits(&self, v: Value) -> u32 {
        self.func().value_type(v).map(|t| t.bits()).unwrap_or(64)
    }

    fn const_of(&self, v: Value) -> Option<u64> {
        match self.func().values.get(v)?.def {
            ValueDef::Result(inst, _) => match self.func().insts.get(inst)?.kind {
                InstKind::Const { imm } => Some(imm),
                _ => None,
            },
            _ => None,
        }
    }

    fn val(&mut self, v: Value) -> String {
        if let Some(e) = self.folded.remove(&v) {
            return format!("({e})");
        }
        match self.const_of(v) {
            Some(c) => hex_or_dec(c),
            None => {
                self.values.insert(v);
                v.to_string()
            }
        }
    }

    /// Like [`Gen::val`], without parentheses around a folded expression (for `if (...)`).
    fn val_bare(&mut self, v: Value) -> String {
        match self.folded.remove(&v) {
            Some(e) => e,
            None => self.val(v),
        }
    }

    fn dst(&mut self, v: Value) -> String {
        self.values.insert(v);
        v.to_string()
    }

    fn masked(&self, expr: String, bits: u32) -> String {
        if bits >= 64 {
            return expr;
        }
        let m = hex_or_dec((1u64 << bits) - 1);
        if expr.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            format!("{expr} & {m}")
        } else {
            format!("({expr}) & {m}")
        }
    }

    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.body.push_str("    ");
        }
        self.body.push_str(text);
        self.body.push('\n');
    }

    /// Blocks the server's walk can reach, in reverse post-order.
    fn reachable(&self) -> Vec<Block> {
        let func = self.func();
        let cfg = tandem_analysis::compute_cfg(func);
        let mut seen = BTreeSet::new();
        let mut work: Vec<Block> = func.entry().into_iter().collect();
        while let Some(b) = work.pop() {
            if !seen.insert(b) {
                continue;
            }
            for s in self.walk_succs(b) {
                work.push(s);
            }
        }
        cfg.rpo
            .iter()
            .copied()
            .filter(|b| seen.contains(b))
            .collect()
    }

    fn walk_succs(&self, b: Block) -> Vec<Block> {
        let func = self.func();
        let Some(term) = func.terminator(b) else {
            return Vec::new();
        };
        match &func.insts[term].kind {
            InstKind::Jump { dest } => vec![dest.block],
            InstKind::Return => Vec::new(),
            InstKind::Brif { .. } | InstKind::Switch { .. } if self.follows(b) => {
                func.successors(b)
            }
            _ => self.view.pdom.ipdom(b).into_iter().collect(),
        }
    }

    /// Where a block that does nothing on the server goes (`Some(None)`: the end).
    fn trivial_target(&self, b: Block) -> Option<Option<Block>> {
        let func = self.func();
        let data = func.blocks.get(b)?;
        let term = func.terminator(b)?;
        if data.insts.iter().any(|&i| i != term && self.runs(i)) {
            return None;
        }
        match &func.insts[term].kind {
            InstKind::Return => Some(None),
            InstKind::Jump { dest } => {
                let params = &func.blocks.get(dest.block)?.params;
                if params.iter().any(|&p| self.runs_param(p)) {
                    None
                } else {
                    Some(Some(dest.block))
                }
            }
            InstKind::Brif { .. } | InstKind::Switch { .. } if self.follows(b) => None,
            _ => Some(self.view.pdom.ipdom(b)),
        }
    }

    /// The first block from `b` on that does something (`None`: the end), skipping blocks
    /// that only pass control on.
    fn resolve(&self, b: Block) -> Option<Block> {
        let mut cur = b;
        let mut seen = BTreeSet::new();
        while seen.insert(cur) {
            match self.trivial_target(cur) {
                None => return Some(cur),
                Some(None) => return None,
                Some(Some(next)) => cur = next,
            }
        }
        Some(cur)
    }

    fn field_index(&self) -> HashMap<String, usize> {
        self.view
            .plan
            .transfer_header
            .fields
            .iter()
            .enumerate()
            .filter_map(|(i, f)| f.value.clone().map(|v| (v, i)))
            .collect()
    }

    fn run(&mut self) -> Result<String, CppError> {
        let plan = self.view.plan;
        let module = self.view.module;
        let fields = self.field_index();
        let blocks = self.reachable();
        let server_runs = self.view.any_server();
        self.foldable = self.find_foldable(&blocks);
        // Body first (it collects the values), then the prologue.
        if server_runs {
            self.emit_blocks(&blocks)?;
        }
        let mut out = String::new();
        let th = &plan.transfer_header;
        let _ = writeln!(
            out,
            "// server.cc: the server partition of NF `{}` (plan for `{}`), generated by Tandem.",
            plan.nf, plan.target
        );
        let _ = writeln!(
            out,
            "// {}. Do not edit; regenerate with `tandem compile`.",
            plan.ir_digest
        );
        let _ = writeln!(
            out,
            "// {} statements run here; the switch runs {} before (pre) and {} after (post).",
            plan.summary.server, plan.summary.pre, plan.summary.post
        );
        for st in &plan.states {
            if st.revalidate.is_empty() {
                continue;
            }
            let reads: Vec<String> = st
                .revalidate
                .iter()
                .filter_map(|&i| plan.statements.get(i as usize))
                .map(|s| format!("s{} `{}`", s.id, s.text))
                .collect();
            let _ = writeln!(
                out,
                "// Switch reads of `{}` this code relies on, which may lag the primary copy while an\n// update is in flight (the runtime must hold or revalidate): {}.",
                st.name,
                reads.join(", ")
            );
        }
        out.push_str("#include \"tandem/server.h\"\n\nnamespace {\n\n// State objects (the ops' `state` argument).\nenum : uint32_t {\n");
        for (i, st) in module.states.values().enumerate() {
            let _ = writeln!(
                out,
                "    S_{} = {i},  // {}",
                ident(&st.name),
                st.kind.keyword()
            );
        }
        out.push_str(
            "};\n\n// Transfer-header fields (indices into in[] and out[]).\nenum : uint32_t {\n",
        );
        for (i, f) in th.fields.iter().enumerate() {
            let _ = writeln!(
                out,
                "    F_{} = {i},  // {} bits at bit {}{}",
                ident(&f.name),
                f.bits,
                f.offset,
                f.from
                    .map(|p| format!(", from {}", p.name()))
                    .unwrap_or_default()
            );
        }
        if th.fields.is_empty() {
            out.push_str("    F_NONE = 0,\n");
        }
        out.push_str("};\n\n");
        out.push_str(&parse_graph_tables(self.view.module));
        out.push_str("}  // namespace\n\n");
        out.push_str("extern \"C\" uint32_t tandem_server_abi_version(void) { return TANDEM_SERVER_ABI_VERSION; }\n\n");
        out.push_str("extern \"C\" int tandem_server_process(const tandem_state_ops* ops, tandem_packet* pkt,\n                                      const uint64_t* in, uint64_t* out) {\n");
        let nfields = th.fields.len();
        if !server_runs {
            out.push_str("    (void)ops;\n    (void)pkt;\n");
            let _ = writeln!(
                out,
                "    for (unsigned i = 0; i < {nfields}u; i++) out[i] = in[i];"
            );
            out.push_str("    return 0;\n}\n");
            return Ok(out);
        }
        if self.view.module.headers.is_empty() {
            out.push_str("    tandem_headers hdrs = tandem_parse(pkt->data, pkt->len);\n");
        } else {
            let _ = writeln!(
                out,
                "    tandem_headers hdrs = tandem_parse_with(pkt->data, pkt->len, kParseEdges, {}u, kHeaderSizes);",
                self.view.module.parse_edges.len()
            );
        }
        out.push_str("    (void)hdrs;\n    (void)ops;\n");
        let meters = self.view.module.process.insts.iter().any(|(i, d)| {
            matches!(d.kind, InstKind::MeterExecute { .. }) && self.view.runs_inst(S, i)
        });
        if meters {
            // Meters count the frame as it arrived (pushes and pops do not change it).
            out.push_str("    const uint64_t arrival_len = pkt->len;\n");
        }
        match fields.get("fate") {
            Some(i) => {
                let _ = writeln!(
                    out,
                    "    uint64_t fate = in[{i}];  // bit 16: send, bits 15..0: port; 0: drop"
                );
            }
            None => out.push_str("    uint64_t fate = 0;\n"),
        }
        out.push_str("    (void)fate;\n");
        // Received values.
        let mut received = BTreeSet::new();
        for f in &th.fields {
            let (Some(v), true) = (&f.value, f.to.contains(&S)) else {
                continue;
            };
            if let Some(val) = view::parse_value(v) {
                received.insert(val);
                self.values.insert(val);
                let _ = writeln!(out, "    uint64_t {val} = in[F_{}];", ident(&f.name));
            }
        }
        self.declare_values(&mut out, &received);
        out.push_str(&self.body);
        out.push_str("done:\n");
        let _ = writeln!(
            out,
            "    for (unsigned i = 0; i < {nfields}u; i++) out[i] = in[i];"
        );
        for f in &th.fields {
            if f.from != Some(S) {
                continue;
            }
            let Some(v) = &f.value else { continue };
            let src = if v == "fate" {
                "fate".to_string()
            } else {
                match view::parse_value(v) {
                    Some(val) if self.values.contains(&val) => val.to_string(),
                    _ => "0".into(),
                }
            };
            let _ = writeln!(out, "    out[F_{}] = {src};", ident(&f.name));
        }
        if let Some(i) = fields.get("fate") {
            let _ = writeln!(out, "    out[{i}] = fate;");
        }
        if relayouts(self.view.module) {
            let sizes = if self.view.module.headers.is_empty() {
                "nullptr"
            } else {
                "kHeaderSizes"
            };
            let _ = writeln!(
                out,
                "    tandem_deparse(pkt, &hdrs, kDeparse, sizeof(kDeparse) / sizeof(kDeparse[0]), {sizes});"
            );
        }
        out.push_str("    return 0;\n}\n");
        Ok(out)
    }

    /// Emits `blocks` (the reachable ones, in reverse post-order): the entry and every block
    /// that does something.
    fn emit_blocks(&mut self, blocks: &[Block]) -> Result<(), CppError> {
        let entry = blocks.first().copied();
        for &b in blocks {
            if Some(b) == entry || self.trivial_target(b).is_none() {
                self.emit_block(b)?;
            }
        }
        Ok(())
    }

    /// Declares the values the body uses (but not those in `skip`), 0-initialised, 8 a line.
    fn declare_values(&self, out: &mut String, skip: &BTreeSet<Value>) {
        let rest: Vec<String> = self
            .values
            .iter()
            .filter(|v| !skip.contains(v))
            .map(|v| format!("{v} = 0"))
            .collect();
        for chunk in rest.chunks(8) {
            let _ = writeln!(out, "    uint64_t {};", chunk.join(", "));
        }
    }

    fn goto(&mut self, indent: usize, dest: &BlockCall) {
        let params = self
            .func()
            .blocks
            .get(dest.block)
            .map(|d| d.params.clone())
            .unwrap_or_default();
        for (p, &a) in params.iter().zip(&dest.args) {
            if self.runs_param(*p) {
                let rhs = self.val(a);
                let lhs = self.dst(*p);
                self.line(indent, &format!("{lhs} = {rhs};"));
            }
        }
        let target = self.resolve(dest.block);
        self.goto_block(indent, target);
    }

    fn goto_block(&mut self, indent: usize, b: Option<Block>) {
        match b.and_then(|b| self.resolve(b)) {
            Some(b) => self.line(indent, &format!("goto {b};")),
            None => self.line(indent, "goto done;"),
        }
    }

    fn emit_block(&mut self, b: Block) -> Result<(), CppError> {
        let func = self.func();
        let Some(data) = func.blocks.get(b) else {
            return Err(CppError::BadPlan(format!("no {b}")));
        };
        let insts = data.insts.clone();
        self.body.push_str(&format!("{b}:\n"));
        for inst in insts {
            let kind = self.func().insts[inst].kind.clone();
            if kind.is_terminator() {
                let followed = self.follows(b);
                let ipdom = self.view.pdom.ipdom(b);
                match &kind {
                    InstKind::Jump { dest } => self.goto(1, dest),
                    InstKind::Return => self.line(1, "goto done;"),
                    InstKind::Brif {
                        cond,
                        then_dest,
                        else_dest,
                    } if followed => {
                        let c = self.val_bare(*cond);
                        self.line(1, &format!("if ({c}) {{"));
                        self.goto(2, then_dest);
                        self.line(1, "} else {");
                        self.goto(2, else_dest);
                        self.line(1, "}");
                    }
                    InstKind::Switch {
                        arg,
                        default,
                        cases,
                    } if followed => {
                        let a = self.val_bare(*arg);
                        self.line(1, &format!("switch ({a}) {{"));
                        for (v, dest) in cases {
                            self.line(1, &format!("case {}:", hex_or_dec(*v)));
                            self.goto(2, dest);
                        }
                        self.line(1, "default:");
                        self.goto(2, default);
                        self.line(1, "}");
                    }
                    _ => self.goto_block(1, ipdom),
                }
                break;
            }
            if self.runs(inst) {
                self.emit_inst(inst)?;
            }
        }
        Ok(())
    }

    fn emit_inst(&mut self, inst: Inst) -> Result<(), CppError> {
        let data = self.func().insts[inst].clone();
        let res = data.results.first().copied();
        let Some(r) = res else {
            return self.emit_effect(inst, &data.kind);
        };
        let rb = self.bits(r);
        let rhs = match &data.kind {
            InstKind::Binary { op, args } => {
                let bits = self.bits(args[0]);
                let (a, b) = (self.val(args[0]), self.val(args[1]));
                match op {
                    BinOp::Add => self.masked(format!("{a} + {b}"), bits),
                    BinOp::Sub => self.masked(format!("{a} - {b}"), bits),
                    BinOp::Mul => self.masked(format!("{a} * {b}"), bits),
                    BinOp::And => format!("{a} & {b}"),
                    BinOp::Or => format!("{a} | {b}"),
                    BinOp::Xor => format!("{a} ^ {b}"),
                    BinOp::Udiv => format!("tandem_udiv({a}, {b})"),
                    BinOp::Urem => format!("tandem_urem({a}, {b})"),
                    BinOp::Sdiv => format!("tandem_sdiv({a}, {b}, {bits})"),
                    BinOp::Srem => format!("tandem_srem({a}, {b}, {bits})"),
                    BinOp::Shl => format!("tandem_shl({a}, {b}, {bits})"),
                    BinOp::Lshr => format!("tandem_lshr({a}, {b}, {bits})"),
                    BinOp::Ashr => format!("tandem_ashr({a}, {b}, {bits})"),
                }
            }
            InstKind::Icmp { pred, args } => {
                let bits = self.bits(args[0]);
                let (a, b) = (self.val(args[0]), self.val(args[1]));
                let (op, signed) = match pred {
                    IntCC::Eq => ("==", false),
                    IntCC::Ne => ("!=", false),
                    IntCC::Ult => ("<", false),
                    IntCC::Ule => ("<=", false),
                    IntCC::Ugt => (">", false),
                    IntCC::Uge => (">=", false),
                    IntCC::Slt => ("<", true),
                    IntCC::Sle => ("<=", true),
                    IntCC::Sgt => (">", true),
                    IntCC::Sge => (">=", true),
                };
                if signed {
                    format!("tandem_sext({a}, {bits}) {op} tandem_sext({b}, {bits})")
                } else {
                    format!("{a} {op} {b}")
                }
            }
            InstKind::Cast { op, arg } => {
                let from = self.bits(*arg);
                let a = self.val(*arg);
                match op {
                    CastOp::Zext => a,
                    CastOp::Trunc => self.masked(a, rb),
                    CastOp::Sext => self.masked(format!("(uint64_t)tandem_sext({a}, {from})"), rb),
                }
            }
            InstKind::Select {
                cond,
                if_true,
                if_false,
            } => {
                let (c, a, b) = (self.val(*cond), self.val(*if_true), self.val(*if_false));
                format!("{c} ? {a} : {b}")
            }
            InstKind::Bswap { arg } => {
                let a = self.val(*arg);
                format!("tandem_bswap({a}, {rb})")
            }
            InstKind::Hash { algo, args } => {
                let vals: Vec<String> = args.iter().map(|&a| self.val(a)).collect();
                let bits: Vec<String> = args.iter().map(|&a| self.bits(a).to_string()).collect();
                let code = match algo {
                    tandem_ir::HashAlgo::Crc16 => 16,
                    tandem_ir::HashAlgo::Crc32 => 32,
                    tandem_ir::HashAlgo::Identity => 64,
                };
                let h = format!(
                    "[&] {{ const uint64_t v_[] = {{{}}}; const unsigned w_[] = {{{}}}; return tandem_hash({code}, v_, w_, {}); }}()",
                    vals.join(", "),
                    bits.join(", "),
                    args.len()
                );
                // Read only by `urem h, C`: reduced here as v1model's hash extern reduces it
                // on the switch (`tandem_ir::hash_mod`), so the value is the same wherever it
                // was computed; the remainder then leaves it unchanged.
                match res.and_then(|r| tandem_ir::hash_mod::hash_remainder(self.func(), r)) {
                    Some(hr) => format!("({h} % {}ull)", hr.modulus),
                    None => h,
                }
            }
            InstKind::HdrRead { field } => {
                format!(
                    "tandem_read(pkt, &hdrs, {}, {}, {})  /* {} */",
                    header_const(field.header()),
                    field.byte_offset(),
                    field.bits() / 8,
                    field.name()
                )
            }
            InstKind::HdrValid { header } => {
                format!("hdrs.off[{}] >= 0", header_const(*header))
            }
            InstKind::MetaRead { meta } => match meta {
                Meta::InPort => match self.field_index().get("meta.in_port") {
                    Some(i) => format!("in[{i}]"),
                    None => "pkt->in_port".into(),
                },
                Meta::Length => "pkt->len & 0xffffu".into(),
                Meta::Now if self.whole => "now".into(),
                Meta::Now => "pkt->now_ns".into(),
            },
            InstKind::MapFind { state, key } => {
                let sname = self.state_name(*state);
                let k = self.array(key);
                let n = data.results.len() - 1;
                self.line(1, "{");
                self.line(2, &format!("const uint64_t key[] = {{{k}}};"));
                self.line(2, &format!("uint64_t value[{}] = {{0}};", n.max(1)));
                let d = self.dst(r);
                self.line(
                    2,
                    &format!("{d} = ops->map_find(ops->ctx, S_{sname}, key, value) != 0;"),
                );
                for (i, &v) in data.results[1..].iter().enumerate() {
                    let d = self.dst(v);
                    self.line(2, &format!("{d} = value[{i}];"));
                }
                self.line(1, "}");
                return Ok(());
            }
            InstKind::MapInsert { state, key, value } => {
                let sname = self.state_name(*state);
                let k = self.array(key);
                let v = self.array(value);
                let d = self.dst(r);
                self.line(1, "{");
                self.line(2, &format!("const uint64_t key[] = {{{k}}};"));
                self.line(2, &format!("const uint64_t value[] = {{{v}}};"));
                self.line(
                    2,
                    &format!("{d} = ops->map_insert(ops->ctx, S_{sname}, key, value) != 0;"),
                );
                self.line(1, "}");
                return Ok(());
            }
            InstKind::VecGet { state, index } => {
                let sname = self.state_name(*state);
                let i = self.val(*index);
                self.line(1, "{");
                self.line(
                    2,
                    &format!("uint64_t elem[{}] = {{0}};", data.results.len()),
                );
                self.line(2, &format!("ops->vec_get(ops->ctx, S_{sname}, {i}, elem);"));
                for (j, &v) in data.results.iter().enumerate() {
                    let d = self.dst(v);
                    self.line(2, &format!("{d} = elem[{j}];"));
                }
                self.line(1, "}");
                return Ok(());
            }
            InstKind::ScalarLoad { state } => {
                let sname = self.state_name(*state);
                format!("ops->scalar_load(ops->ctx, S_{sname})")
            }
            // The packet's arrival time and length.
            InstKind::MeterExecute { state, index } => {
                let sname = self.state_name(*state);
                let i = self.val(*index);
                format!("ops->meter_execute(ops->ctx, S_{sname}, {i}, pkt->now_ns, arrival_len)")
            }
            InstKind::Opaque { name, args, .. } => {
                return self.emit_opaque(name, args, &data.results);
            }
            other => return self.emit_effect(inst, other),
        };
        if self.foldable.contains(&r) {
            self.folded.insert(r, rhs);
            return Ok(());
        }
        let d = self.dst(r);
        self.line(1, &format!("{d} = {rhs};"));
        Ok(())
    }

    /// Values of pure instructions the server runs whose only use is later in the same block:
    /// they become part of the reader's expression instead of a variable and a statement.
    fn find_foldable(&self, blocks: &[Block]) -> BTreeSet<Value> {
        let func = self.func();
        let mut uses: HashMap<Value, usize> = HashMap::new();
        // (block, position) of each value's definition and of its last use.
        let mut def_at: HashMap<Value, (Block, usize)> = HashMap::new();
        let mut use_at: HashMap<Value, (Block, usize)> = HashMap::new();
        for &b in blocks {
            let Some(data) = func.blocks.get(b) else {
                continue;
            };
            for (i, &inst) in data.insts.iter().enumerate() {
                let d = &func.insts[inst];
                let runs = d.kind.is_terminator() || self.runs(inst);
                if !runs {
                    continue;
                }
                for a in d.kind.args() {
                    *uses.entry(a).or_default() += 1;
                    use_at.insert(a, (b, i));
                }
                let pure = matches!(
                    d.kind,
                    InstKind::Binary { .. }
                        | InstKind::Icmp { .. }
                        | InstKind::Cast { .. }
                        | InstKind::Select { .. }
                        | InstKind::Bswap { .. }
                        | InstKind::Hash { .. }
                );
                if pure && d.results.len() == 1 && !d.kind.is_terminator() {
                    def_at.insert(d.results[0], (b, i));
                }
            }
        }
        // Values the server sends on count as uses.
        let sent = if self.whole {
            &[][..]
        } else {
            &self.view.plan.transfer_header.fields[..]
        };
        for f in sent {
            if let Some(v) = f.value.as_deref().and_then(view::parse_value) {
                *uses.entry(v).or_default() += 2;
            }
        }
        def_at
            .into_iter()
            .filter(|(v, (b, i))| {
                uses.get(v) == Some(&1) && use_at.get(v).is_some_and(|(ub, ui)| ub == b && ui > i)
            })
            .map(|(v, _)| v)
            .collect()
    }

    fn emit_effect(&mut self, inst: Inst, kind: &InstKind) -> Result<(), CppError> {
        match kind {
            InstKind::HdrWrite { field, value } => {
                let v = self.val(*value);
                self.line(
                    1,
                    &format!(
                        "tandem_write(pkt, &hdrs, {}, {}, {}, {v});  // {}",
                        header_const(field.header()),
                        field.byte_offset(),
                        field.bits() / 8,
                        field.name()
                    ),
                );
            }
            InstKind::MapErase { state, key } => {
                let sname = self.state_name(*state);
                let k = self.array(key);
                self.line(1, "{");
                self.line(2, &format!("const uint64_t key[] = {{{k}}};"));
                self.line(2, &format!("ops->map_erase(ops->ctx, S_{sname}, key);"));
                self.line(1, "}");
            }
            InstKind::VecSet {
                state,
                index,
                value,
            } => {
                let sname = self.state_name(*state);
                let i = self.val(*index);
                let v = self.array(value);
                self.line(1, "{");
                self.line(2, &format!("const uint64_t elem[] = {{{v}}};"));
                self.line(2, &format!("ops->vec_set(ops->ctx, S_{sname}, {i}, elem);"));
                self.line(1, "}");
            }
            InstKind::ScalarStore { state, value } => {
                let sname = self.state_name(*state);
                let v = self.val(*value);
                self.line(1, &format!("ops->scalar_store(ops->ctx, S_{sname}, {v});"));
            }
            InstKind::Send { port } => {
                let p = self.val(*port);
                self.line(1, &format!("fate = 0x10000u | ({p} & 0xffffu);  // send"));
            }
            InstKind::Drop => self.line(1, "fate = 0;  // drop"),
            InstKind::HdrPush { header } => {
                let size = header.size();
                self.line(
                    1,
                    &format!(
                        "tandem_push(&hdrs, {}, {size}u);  // hdr.push {header}",
                        header_const(*header)
                    ),
                );
            }
            InstKind::HdrPop { header } => {
                self.line(
                    1,
                    &format!(
                        "tandem_pop(&hdrs, {});  // hdr.pop {header}",
                        header_const(*header)
                    ),
                );
            }
            InstKind::Opaque { name, args, .. } => self.emit_opaque(name, args, &[])?,
            InstKind::Const { .. }
            | InstKind::Jump { .. }
            | InstKind::Brif { .. }
            | InstKind::Switch { .. }
            | InstKind::Return => {}
            _ => {
                return Err(CppError::BadPlan(format!(
                    "{}: instruction without its result",
                    self.view.describe(inst)
                )))
            }
        }
        Ok(())
    }

    fn emit_opaque(
        &mut self,
        name: &str,
        args: &[Value],
        results: &[Value],
    ) -> Result<(), CppError> {
        let a = self.array(args);
        let n = results.len();
        self.line(1, "{");
        let argp = if args.is_empty() {
            "nullptr".to_string()
        } else {
            self.line(2, &format!("const uint64_t args[] = {{{a}}};"));
            "args".to_string()
        };
        self.line(2, &format!("uint64_t results[{}] = {{0}};", n.max(1)));
        self.line(
            2,
            &format!(
                "ops->opaque(ops->ctx, \"{}\", {argp}, {}u, results, {n}u, pkt->data, pkt->len);",
                name.escape_default(),
                args.len()
            ),
        );
        for (j, &v) in results.iter().enumerate() {
            let vb = self.bits(v);
            let d = self.dst(v);
            let m = self.masked(format!("results[{j}]"), vb);
            self.line(2, &format!("{d} = {m};"));
        }
        self.line(1, "}");
        Ok(())
    }

    /// The elements of a `uint64_t` array initialiser. Folded expressions are cast: a
    /// comparison or `&` of comparisons is an `int`, which may not be narrowed to `uint64_t`
    /// in braces.
    fn array(&mut self, vals: &[Value]) -> String {
        vals.iter()
            .map(|&v| match self.folded.remove(&v) {
                Some(e) => format!("(uint64_t)({e})"),
                None => self.val(v),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn state_name(&self, s: tandem_ir::StateId) -> String {
        self.view
            .module
            .states
            .get(s)
            .map(|o| ident(&o.name))
            .unwrap_or_else(|| format!("state{}", s.index()))
    }
}

fn header_const(h: Header) -> String {
    match h {
        Header::Eth => "TANDEM_ETH".into(),
        Header::Ipv4 => "TANDEM_IPV4".into(),
        Header::Tcp => "TANDEM_TCP".into(),
        Header::Udp => "TANDEM_UDP".into(),
        h => format!("H_{}", ident(h.name())),
    }
}

/// Whether `process` pushes or pops a header.
fn relayouts(module: &tandem_ir::Module) -> bool {
    module
        .process
        .insts
        .iter()
        .any(|(_, d)| matches!(d.kind, InstKind::HdrPush { .. } | InstKind::HdrPop { .. }))
}

/// The declared headers' numbers and the NF's parse-graph edges for `tandem_parse_with`, and
/// the deparse order when the NF pushes or pops headers (empty when it needs none of these).
fn parse_graph_tables(module: &tandem_ir::Module) -> String {
    let mut deparse = String::new();
    if relayouts(module) {
        let order: Vec<String> = tandem_ir::deparse_order(module)
            .into_iter()
            .map(header_const)
            .collect();
        let _ = writeln!(
            deparse,
            "// The deparse order (tandem_ir::deparse_order): the frame after a push or pop.\n[[maybe_unused]] const int kDeparse[] = {{{}}};\n",
            order.join(", ")
        );
    }
    if module.headers.is_empty() {
        return deparse;
    }
    let mut out = String::from(
        "// Declared headers and the NF's parse-graph edges (NF IR `header`/`parse`).\nenum {\n",
    );
    for (i, h) in module.headers.iter().enumerate() {
        let _ = writeln!(out, "    {} = {},", header_const(*h), i + 4);
    }
    out.push_str("};\n[[maybe_unused]] const uint32_t kHeaderSizes[] = {");
    let sizes: Vec<String> = module
        .headers
        .iter()
        .map(|h| h.size().to_string())
        .collect();
    out.push_str(&sizes.join(", "));
    out.push_str("};\n[[maybe_unused]] const tandem_parse_edge kParseEdges[] = {\n");
    for e in &module.parse_edges {
        let (at, bytes) = e.select.map_or((0, 0), |f| (f.byte_offset(), f.bits() / 8));
        let _ = writeln!(
            out,
            "    {{{}, {at}, {bytes}, {:#x}ull, {}}},",
            header_const(e.from),
            e.value,
            header_const(e.to)
        );
    }
    out.push_str("};\n\n");
    out.push_str(&deparse);
    out
}

impl From<view::BadPlan> for CppError {
    fn from(e: view::BadPlan) -> Self {
        CppError::BadPlan(e.0)
    }
}
