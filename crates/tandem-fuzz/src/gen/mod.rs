//! Random NFs: from a seed, a valid, deterministic C++ NF against the NF API
//! (`docs/nf-api.md`).
//!
//! What a generated NF can contain: header field reads and writes (Ethernet, IPv4, TCP, UDP,
//! every access under a null check or after an early return), `HashMap`/`ExpiringMap`
//! (integer or struct keys and values, `find`/`lookup`/`contains`/`insert`/`erase`),
//! `Vector` (`get`/`set` at computed indices, filled in `configure()`), integer scalar
//! members, integer arithmetic on 8–64-bit signed and unsigned values (wrap-around, shifts by
//! constant and variable amounts, division and remainder, comparisons, casts, the RFC 1624
//! checksum helpers), nested `if`/`else`, `for` loops with a constant trip count, payload
//! byte reads (server-only), `send(port)`/`drop()` and early returns. And the NF API of
//! issue 15, each behind an option: `crc32`/`crc16` hashes (values and vector indices),
//! vector read-modify-writes (`v[i] += n`, `uint32_t c = v[i] += 1;`), `LpmMap` state,
//! declared headers with a parse graph (VXLAN and VLAN for the traffic plans of those names,
//! random headers) and header push/pop.
//!
//! Every program is valid C++ without undefined behaviour, so the native build is a
//! deterministic oracle: arithmetic is done in `uint32_t`/`uint64_t` (no signed overflow, no
//! promotion to `int`), shift amounts are masked or guarded below the width, divisors are
//! non-zero (and signed divisions never divide the minimum by -1), payload reads are
//! bounds-checked.
//!
//! Constructs that only hit bugs known and tracked elsewhere are off unless asked for
//! ([`GenOptions::known_bugs`]): 6-byte MAC copies, payload reads of mixed widths, `now()`,
//! loops that index a header array with the loop counter, and pops of the Ethernet header.
//!
//! Files: this module (options, state declarations, statements), `fields` (header fields and
//! their accesses), `expr` (expressions, conditions, hashes), `headers` (declared headers, the
//! parse graph, push and pop), `lpm` (`LpmMap` state and its operations).

use std::fmt::Write as _;

use crate::rng::Rng;

mod expr;
mod fields;
mod headers;
mod lpm;

use fields::*;
use headers::{Edge, HdrDecl};

/// What the generator may produce.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// Statements (of all nesting levels) per `process()`, at most.
    pub max_stmts: usize,
    /// Nesting depth of `if`/loops/map blocks.
    pub max_depth: usize,
    /// Payload reads (which pin their code to the server).
    pub payload: bool,
    /// Bounded loops.
    pub loops: bool,
    /// Writes of fields that decide header presence (EtherType, IPv4 version/IHL and
    /// protocol, TCP data offset).
    pub structural_writes: bool,
    /// 64-bit integers (locals, state, arithmetic).
    pub int64: bool,
    /// `Vector` state (its indices are 64-bit `size_t` values).
    pub vectors: bool,
    /// `Meter` state (`execute(i, pkt)`, colours used in later code).
    pub meters: bool,
    /// Also generate constructs that hit known, tracked bugs (see the module docs).
    pub known_bugs: bool,
    /// `crc16`/`crc32` (and, rarely, `identity`) hashes of random integer operands, as
    /// values and as vector indices (`% N`, `& (N-1)`).
    pub hashes: bool,
    /// Vector read-modify-writes: `v[i] += n` (`-=`, `|=`, `&=`, `^=`, `++`, `--`), also as
    /// values (`uint32_t c = v[i] += 1;`), and `v.set(i, v.get(i) + n)`.
    pub vector_rmw: bool,
    /// `LpmMap` state filled in `configure()` (random and nested prefixes), looked up with
    /// header-derived keys, sometimes written in `process()`.
    pub lpm: bool,
    /// Declared headers (`TANDEM_HEADER`) and a parse graph (`TANDEM_PARSE`): random
    /// headers after Ethernet, IPv4, UDP or each other, and the VXLAN and VLAN headers of the
    /// traffic generator's `vxlan` and `vlan` plans.
    pub declared_headers: bool,
    /// `pkt.push<H>()` / `pkt.pop<H>()` of declared and built-in headers, the next-header
    /// fields kept consistent or not.
    pub push_pop: bool,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            max_stmts: 28,
            max_depth: 3,
            payload: true,
            loops: true,
            structural_writes: false,
            int64: true,
            vectors: true,
            meters: true,
            known_bugs: false,
            hashes: true,
            vector_rmw: true,
            lpm: true,
            declared_headers: true,
            push_pop: true,
        }
    }
}

/// The comment line that names the traffic plan an NF's traces should mostly use
/// (`// tandem-fuzz traffic plan: vxlan`): the runner reads it from any source, so saved
/// failures and reproducers keep their plan.
pub const TRAFFIC_PLAN_COMMENT: &str = "// tandem-fuzz traffic plan: ";

/// The traffic plan a source asks for with [`TRAFFIC_PLAN_COMMENT`].
pub fn source_traffic_plan(source: &str) -> Option<&str> {
    source
        .lines()
        .find_map(|l| l.strip_prefix(TRAFFIC_PLAN_COMMENT))
        .map(str::trim)
}

/// A generated NF.
#[derive(Clone, Debug)]
pub struct GeneratedNf {
    /// The seed it came from.
    pub seed: u64,
    /// The element's type name.
    pub name: String,
    /// The C++ source.
    pub source: String,
    /// The known-bug constructs it contains (by tag), empty unless
    /// [`GenOptions::known_bugs`].
    pub known_bug_tags: Vec<&'static str>,
    /// The traffic generator's address plan its declared headers match (`vxlan`, `vlan`),
    /// which the runner uses for most of its traces.
    pub traffic_plan: Option<&'static str>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
}

const TYS: [Ty; 8] = [
    Ty::U8,
    Ty::U16,
    Ty::U32,
    Ty::U64,
    Ty::I8,
    Ty::I16,
    Ty::I32,
    Ty::I64,
];

impl Ty {
    fn bits(self) -> u32 {
        match self {
            Ty::U8 | Ty::I8 => 8,
            Ty::U16 | Ty::I16 => 16,
            Ty::U32 | Ty::I32 => 32,
            Ty::U64 | Ty::I64 => 64,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Ty::U8 => "uint8_t",
            Ty::U16 => "uint16_t",
            Ty::U32 => "uint32_t",
            Ty::U64 => "uint64_t",
            Ty::I8 => "int8_t",
            Ty::I16 => "int16_t",
            Ty::I32 => "int32_t",
            Ty::I64 => "int64_t",
        }
    }
    /// The unsigned type arithmetic on this type is done in (no promotion to `int`).
    fn wide(self) -> &'static str {
        if self.bits() == 64 {
            "uint64_t"
        } else {
            "uint32_t"
        }
    }
    /// The signed type signed operations on this type are done in.
    fn swide(self) -> &'static str {
        if self.bits() == 64 {
            "int64_t"
        } else {
            "int32_t"
        }
    }
    fn wide_bits(self) -> u32 {
        if self.bits() == 64 {
            64
        } else {
            32
        }
    }
}

/// A key, value or element type: an integer or a struct of integers without padding.
#[derive(Clone, Debug)]
enum Data {
    Int(Ty),
    Struct(usize),
}

#[derive(Clone, Debug)]
struct StructDef {
    name: String,
    fields: Vec<(String, Ty)>,
}

#[derive(Clone, Debug)]
enum State {
    Map {
        name: String,
        key: Data,
        val: Data,
        cap: u64,
        idle_s: Option<u64>,
        init: usize,
    },
    Vector {
        name: String,
        elem: Data,
        cap: u64,
        len: u64,
    },
    Scalar {
        name: String,
        ty: Ty,
        init: u64,
    },
    Meter {
        name: String,
        n: u64,
        bytes: bool,
        /// `set_all` rates, then `set_rates(i, ...)` for some meters.
        rates: Vec<(Option<u64>, [u64; 4])>,
    },
    Lpm {
        name: String,
        /// An unsigned integer.
        key: Ty,
        val: Data,
        cap: u64,
        /// Prefixes and lengths inserted in `configure()`.
        entries: Vec<(u64, u32)>,
        /// `process()` inserts and erases too (the map stays on the server).
        written: bool,
    },
}

#[derive(Clone, Debug)]
struct Local {
    name: String,
    ty: Ty,
    mutable: bool,
}

/// Writes a random NF for `seed`.
pub fn generate(seed: u64, opts: &GenOptions) -> GeneratedNf {
    let mut g = Gen {
        rng: Rng::new(seed),
        opts: opts.clone(),
        structs: Vec::new(),
        states: Vec::new(),
        out: String::new(),
        indent: 2,
        locals: Vec::new(),
        next_id: 0,
        hdrs: 0,
        absent: 0,
        touched: 0,
        budget: 0,
        tags: Vec::new(),
        in_payload: false,
        in_hash: false,
        loops: 0,
        fields: builtin_fields(),
        decls: Vec::new(),
        edges: Vec::new(),
        traffic_plan: None,
        pushed_bytes: 0,
    };
    let name = format!("Fuzz{seed}");
    g.make_state();
    if opts.declared_headers {
        g.make_headers();
    }
    g.budget = 6 + g.rng.below(opts.max_stmts.max(6) as u64 - 5) as usize;
    let body = g.process_body();
    let mut src = String::new();
    let _ = writeln!(
        src,
        "// Generated by tandem-fuzz (seed {seed}); `tandem fuzz-nfs --seed {seed} --count 1` remakes it."
    );
    if let Some(plan) = g.traffic_plan {
        let _ = writeln!(src, "{TRAFFIC_PLAN_COMMENT}{plan}");
    }
    src.push_str("#include <tandem/nf.hh>\n#include <cstring>\n\nusing namespace tandem;\n\n");
    src.push_str(&g.headers_source());
    for s in &g.structs {
        let _ = writeln!(src, "struct {} {{", s.name);
        let mut size = 0;
        for (f, t) in &s.fields {
            let _ = writeln!(src, "  {} {f};", t.name());
            size += t.bits() / 8;
        }
        let _ = writeln!(src, "}};\nstatic_assert(sizeof({}) == {size});\n", s.name);
    }
    let _ = writeln!(src, "struct {name} : Element {{");
    for st in &g.states {
        let decl = match st {
            State::Map {
                name,
                key,
                val,
                cap,
                idle_s: None,
                ..
            } => format!(
                "HashMap<{}, {}, {cap}> {name};",
                g.data_name(key),
                g.data_name(val)
            ),
            State::Map {
                name,
                key,
                val,
                cap,
                idle_s: Some(s),
                ..
            } => format!(
                "ExpiringMap<{}, {}, {cap}, {s} * kSecond> {name};",
                g.data_name(key),
                g.data_name(val)
            ),
            State::Vector {
                name, elem, cap, ..
            } => format!("Vector<{}, {cap}> {name};", g.data_name(elem)),
            State::Scalar { name, ty, init } => {
                format!("{} {name} = {};", ty.name(), lit(*ty, *init))
            }
            State::Meter { name, n, bytes, .. } => {
                let unit = if *bytes { "Bytes" } else { "Packets" };
                format!("Meter<{n}, MeterUnit::{unit}> {name};")
            }
            State::Lpm {
                name,
                key,
                val,
                cap,
                ..
            } => format!(
                "LpmMap<{}, {}, {cap}> {name};",
                key.name(),
                g.data_name(val)
            ),
        };
        let _ = writeln!(src, "  {decl}");
    }
    src.push_str("\n  void configure(Config&) {\n");
    src.push_str(&g.configure_body());
    src.push_str("  }\n\n  void process(Packet& pkt) {\n");
    src.push_str(&body);
    src.push_str("  }\n};\n\n");
    let members: Vec<&str> = g
        .states
        .iter()
        .map(|s| match s {
            State::Map { name, .. }
            | State::Vector { name, .. }
            | State::Scalar { name, .. }
            | State::Meter { name, .. }
            | State::Lpm { name, .. } => name.as_str(),
        })
        .collect();
    if members.is_empty() {
        let _ = writeln!(src, "TANDEM_NF({name})");
    } else {
        let _ = writeln!(src, "TANDEM_NF({name}, {})", members.join(", "));
    }
    src.push_str(&g.parse_source(&name));
    let mut tags = g.tags;
    tags.sort_unstable();
    tags.dedup();
    GeneratedNf {
        seed,
        name,
        source: src,
        known_bug_tags: tags,
        traffic_plan: g.traffic_plan,
    }
}

/// A C++ literal of type `ty` whose low bits are `v`.
fn lit(ty: Ty, v: u64) -> String {
    let v = if ty.bits() == 64 {
        v
    } else {
        v & ((1u64 << ty.bits()) - 1)
    };
    if ty == Ty::U32 || ty == Ty::U64 {
        format!("{}({v}u)", ty.name())
    } else {
        format!("{}({v}ull)", ty.name())
    }
}

struct Gen {
    rng: Rng,
    opts: GenOptions,
    structs: Vec<StructDef>,
    states: Vec<State>,
    out: String,
    indent: usize,
    locals: Vec<Local>,
    next_id: usize,
    /// Headers known to be present here (bit set: ETH/IP/TCP/UDP, then the declared headers
    /// from bit 4): their locals are non-null.
    hdrs: u32,
    /// Headers known to be absent here (the else branch of a presence test): never tested
    /// again (a field access under `udp != nullptr` where `ip` is known null is dead code
    /// the optimiser treats as undefined behaviour).
    absent: u32,
    /// Headers pushed or popped in the current scope: unknown (neither present nor absent)
    /// after it.
    touched: u32,
    /// Statements left.
    budget: usize,
    tags: Vec<&'static str>,
    in_payload: bool,
    /// Inside a hash's operands (no hash there).
    in_hash: bool,
    /// Loops around the current statement.
    loops: usize,
    /// Every header field (built-in, then declared).
    fields: Vec<Field>,
    /// Declared headers (header bit `1 << (4 + i)`).
    decls: Vec<HdrDecl>,
    /// The parse graph's edges, in `TANDEM_PARSE` order.
    edges: Vec<Edge>,
    traffic_plan: Option<&'static str>,
    /// Bytes of headers pushed so far (the native packet has 512 bytes for them).
    pushed_bytes: u32,
}

impl Gen {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn rand_ty(&mut self) -> Ty {
        if self.opts.int64 {
            *self.rng.pick(&TYS)
        } else {
            *self
                .rng
                .pick(&[Ty::U8, Ty::U16, Ty::U32, Ty::I8, Ty::I16, Ty::I32])
        }
    }

    fn rand_uty(&mut self) -> Ty {
        if self.opts.int64 {
            *self.rng.pick(&[Ty::U8, Ty::U16, Ty::U32, Ty::U64])
        } else {
            *self.rng.pick(&[Ty::U8, Ty::U16, Ty::U32])
        }
    }

    fn data_name(&self, d: &Data) -> String {
        match d {
            Data::Int(t) => t.name().to_string(),
            Data::Struct(i) => self.structs[*i].name.clone(),
        }
    }

    /// A struct of integers without padding: fields by decreasing size, then padding
    /// fields up to a multiple of the widest, each as wide as its offset allows, or, half of
    /// the time, byte-sized padding fields (up to 11 fields: more than a switch table's 8
    /// keys).
    fn make_struct(&mut self) -> usize {
        let n = self.rng.range(1, 4);
        let mut tys: Vec<Ty> = (0..n).map(|_| self.rand_ty()).collect();
        tys.sort_by_key(|t| std::cmp::Reverse(t.bits()));
        let align = tys[0].bits() / 8;
        let mut size: u32 = tys.iter().map(|t| t.bits() / 8).sum();
        let bytes = self.rng.chance(1, 2);
        while !size.is_multiple_of(align) {
            let mut w = 1;
            while !bytes && w * 2 <= align - size % align && size.is_multiple_of(w * 2) {
                w *= 2;
            }
            tys.push(match w {
                1 => Ty::U8,
                2 => Ty::U16,
                _ => Ty::U32,
            });
            size += w;
        }
        let idx = self.structs.len();
        let fields = tys
            .into_iter()
            .enumerate()
            .map(|(i, t)| (format!("f{i}"), t))
            .collect();
        self.structs.push(StructDef {
            name: format!("S{idx}"),
            fields,
        });
        idx
    }

    fn rand_data(&mut self) -> Data {
        if self.rng.chance(1, 3) {
            Data::Struct(self.make_struct())
        } else {
            Data::Int(self.rand_ty())
        }
    }

    fn make_state(&mut self) {
        let n = self.rng.range(0, 5);
        for i in 0..n {
            let v = if self.opts.vectors { 2 } else { 0 };
            let m = if self.opts.meters { 2 } else { 0 };
            let l = if self.opts.lpm { 2 } else { 0 };
            let st = match self.rng.weighted(&[4, 2, v, 4, m, l]) {
                0 | 1 => {
                    let key = self.rand_data();
                    let val = self.rand_data();
                    let cap = *self.rng.pick(&[4u64, 16, 64, 1024, 65536]);
                    let idle_s = if self.rng.below(3) == 1 {
                        Some(self.rng.range(60, 600))
                    } else {
                        None
                    };
                    State::Map {
                        name: format!("m{i}"),
                        key,
                        val,
                        cap,
                        idle_s,
                        init: self.rng.below(3) as usize,
                    }
                }
                2 => {
                    let elem = self.rand_data();
                    let cap = *self.rng.pick(&[1u64, 4, 8, 16, 64]);
                    let len = self.rng.range(0, cap);
                    State::Vector {
                        name: format!("v{i}"),
                        elem,
                        cap,
                        len,
                    }
                }
                3 => {
                    let ty = self.rand_ty();
                    let init = self.interesting();
                    State::Scalar {
                        name: format!("s{i}"),
                        ty,
                        init,
                    }
                }
                4 => {
                    let n = *self.rng.pick(&[1u64, 4, 64, 4096]);
                    let bytes = self.rng.chance(2, 3);
                    let mut rates = Vec::new();
                    if self.rng.chance(3, 4) {
                        rates.push((None, self.meter_rates(bytes)));
                    }
                    for _ in 0..self.rng.below(3) {
                        let at = self.rng.below(n + 1);
                        rates.push((Some(at), self.meter_rates(bytes)));
                    }
                    State::Meter {
                        name: format!("r{i}"),
                        n,
                        bytes,
                        rates,
                    }
                }
                _ => self.make_lpm(i),
            };
            self.states.push(st);
        }
    }

    /// Rates and bursts (cir, cburst, pir, pburst) that give the generated traffic every
    /// colour: per second and bursts of a few packets, sometimes zero or huge.
    fn meter_rates(&mut self, bytes: bool) -> [u64; 4] {
        let unit = if bytes { 1000 } else { 1 };
        let mut r = || match self.rng.below(8) {
            0 => 0,
            1 => u64::MAX,
            _ => unit * (1 + self.rng.below(100_000)),
        };
        let (cir, pir) = (r(), r());
        let mut b = || match self.rng.below(6) {
            0 => 0,
            _ => unit * (1 + self.rng.below(8)) * if bytes { 2 } else { 1 },
        };
        let (cburst, pburst) = (b(), b());
        [cir, cburst, pir, pburst]
    }

    fn interesting(&mut self) -> u64 {
        match self.rng.below(6) {
            0 => 0,
            1 => 1,
            2 => u64::MAX,
            3 => self.rng.below(256),
            4 => 1u64 << self.rng.below(64),
            _ => self.rng.next_u64(),
        }
    }

    /// A constant of `d`'s type.
    fn data_const(&mut self, d: &Data) -> String {
        match d {
            Data::Int(t) => {
                let v = self.interesting();
                lit(*t, v)
            }
            Data::Struct(i) => {
                let fields = self.structs[*i].fields.clone();
                let vals: Vec<String> = fields
                    .iter()
                    .map(|(_, t)| {
                        let v = self.interesting();
                        lit(*t, v)
                    })
                    .collect();
                format!("{}{{{}}}", self.structs[*i].name, vals.join(", "))
            }
        }
    }

    fn configure_body(&mut self) -> String {
        let mut s = String::new();
        for st in self.states.clone() {
            match st {
                State::Vector {
                    name, elem, len, ..
                } => {
                    for _ in 0..len {
                        let c = self.data_const(&elem);
                        let _ = writeln!(s, "    {name}.push_back({c});");
                    }
                }
                State::Map {
                    name,
                    key,
                    val,
                    init,
                    ..
                } => {
                    for _ in 0..init {
                        let k = self.data_const(&key);
                        let v = self.data_const(&val);
                        let _ = writeln!(s, "    {name}.insert({k}, {v});");
                    }
                }
                State::Scalar { .. } => {}
                State::Meter { name, rates, .. } => {
                    for (at, [cir, cburst, pir, pburst]) in rates {
                        let r = format!(
                            "{{.cir = {cir}u, .cburst = {cburst}u, .pir = {pir}u, .pburst = {pburst}u}}"
                        );
                        match at {
                            None => {
                                let _ = writeln!(s, "    {name}.set_all({r});");
                            }
                            Some(i) => {
                                let _ = writeln!(s, "    {name}.set_rates({i}u, {r});");
                            }
                        }
                    }
                }
                State::Lpm {
                    name,
                    key,
                    val,
                    entries,
                    ..
                } => {
                    for (prefix, len) in entries {
                        let v = self.data_const(&val);
                        let _ = writeln!(s, "    {name}.insert({}, {len}, {v});", lit(key, prefix));
                    }
                }
            }
        }
        s
    }

    fn process_body(&mut self) -> String {
        self.line("EthHdr* eth = pkt.eth();");
        self.line("Ipv4Hdr* ip = pkt.ip();");
        self.line("TcpHdr* tcp = pkt.tcp();");
        self.line("UdpHdr* udp = pkt.udp();");
        self.line("(void)eth; (void)ip; (void)tcp; (void)udp;");
        self.header_locals();
        let port = self.port();
        self.line(&format!("pkt.send({port});"));
        // Sometimes require a header for everything that follows.
        match self.rng.below(5) {
            0 => self.early_return(IP),
            1 => self.early_return(TCP),
            2 => self.early_return(ETH),
            _ => {}
        }
        while self.budget > 0 {
            self.stmt(0);
        }
        if self.rng.chance(1, 2) {
            let port = self.port();
            self.line(&format!("pkt.send({port});"));
        }
        std::mem::take(&mut self.out)
    }

    /// `h` and the headers tested with it (TCP/UDP: IPv4 and Ethernet; IPv4: Ethernet; a
    /// declared header: itself).
    fn chain(h: u32) -> u32 {
        match h {
            TCP | UDP => h | IP | ETH,
            IP => IP | ETH,
            _ => h,
        }
    }

    /// The headers of `set` not yet known present, tested one by one (`op`: `!=` for
    /// presence, `==` for absence) and joined with `join`. Each header is tested itself: an
    /// access through a header only implied present (`ip` under `tcp != nullptr`) would be,
    /// after an earlier test that returned when `ip` was present, a load the optimiser
    /// knows to be null — undefined behaviour on a path that never runs, which it folds
    /// into constant expressions the front end refuses.
    fn presence(&self, set: u32, op: &str, join: &str) -> String {
        BUILTIN
            .into_iter()
            .chain(self.decl_bits())
            .filter(|&x| set & x != 0 && self.hdrs & x == 0)
            .map(|x| format!("{} {op} nullptr", self.hdr_var(x)))
            .collect::<Vec<_>>()
            .join(join)
    }

    fn early_return(&mut self, h: u32) {
        let act = if self.rng.chance(1, 2) {
            "pkt.drop()".to_string()
        } else {
            format!("pkt.send({})", self.port())
        };
        let cond = self.presence(Self::chain(h), "==", " || ");
        self.line(&format!("if ({cond}) {{ {act}; return; }}"));
        self.hdrs |= Self::chain(h);
    }

    /// An output port: 0–3, from a constant or computed.
    fn port(&mut self) -> String {
        match self.rng.below(6) {
            0 => "pkt.in_port() ^ 1u".into(),
            1 => {
                let e = self.expr(Ty::U32, 1);
                format!("{e} & 3u")
            }
            _ => format!("{}u", self.rng.below(4)),
        }
    }

    fn scope<F: FnOnce(&mut Gen)>(&mut self, f: F) {
        let n = self.locals.len();
        let (h, a, t) = (self.hdrs, self.absent, self.touched);
        self.touched = 0;
        self.indent += 1;
        f(self);
        self.indent -= 1;
        self.locals.truncate(n);
        // A header pushed or popped inside may or may not be present after it.
        let inner = self.touched;
        self.hdrs = h & !inner;
        self.absent = a & !inner;
        self.touched = t | inner;
    }

    fn stmt(&mut self, depth: usize) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let nested = depth < self.opts.max_depth;
        let has_maps = self.states.iter().any(|s| matches!(s, State::Map { .. }));
        let has_vecs = self
            .states
            .iter()
            .any(|s| matches!(s, State::Vector { .. }));
        let has_scalars = self
            .states
            .iter()
            .any(|s| matches!(s, State::Scalar { .. }));
        let has_meters = self.states.iter().any(|s| matches!(s, State::Meter { .. }));
        let mutable_locals = self.locals.iter().any(|l| l.mutable);
        let int_vecs = self.opts.vector_rmw && !self.int_vectors().is_empty();
        let has_lpm = self.states.iter().any(|s| matches!(s, State::Lpm { .. }));
        let push_pop = self.opts.push_pop && self.loops == 0;
        let payload = self.opts.payload && self.decls.is_empty();
        let weights = [
            6,                                               // 0 new local
            if mutable_locals { 5 } else { 0 },              // 1 assign local
            4,                                               // 2 header write
            if nested { 5 } else { 0 },                      // 3 if/else
            if has_maps { 6 } else { 0 },                    // 4 map op
            if has_vecs { 3 } else { 0 },                    // 5 vector set
            if has_scalars { 3 } else { 0 },                 // 6 scalar write
            2,                                               // 7 send/drop
            if nested && self.opts.loops { 2 } else { 0 },   // 8 loop
            if payload && !self.in_payload { 1 } else { 0 }, // 9 payload read
            if depth > 0 { 1 } else { 0 },                   // 10 early return
            if self.opts.known_bugs { 1 } else { 0 },        // 11 known-bug construct
            if int_vecs { 3 } else { 0 },                    // 12 vector read-modify-write
            if has_lpm { 5 } else { 0 },                     // 13 LPM op
            if push_pop { 2 } else { 0 },                    // 14 push
            if push_pop { 2 } else { 0 },                    // 15 pop
            if has_meters { 3 } else { 0 },                  // 16 meter
        ];
        match self.rng.weighted(&weights) {
            0 => {
                let ty = self.rand_ty();
                let e = self.expr(ty, 0);
                let name = self.fresh("x");
                self.line(&format!("{} {name} = {e};", ty.name()));
                self.locals.push(Local {
                    name,
                    ty,
                    mutable: true,
                });
            }
            1 => {
                let muts: Vec<Local> = self.locals.iter().filter(|l| l.mutable).cloned().collect();
                let l = self.rng.pick(&muts).clone();
                let e = self.expr(l.ty, 0);
                if self.rng.chance(1, 3) {
                    let op = *self.rng.pick(&["+", "^", "-", "|", "&", "*"]);
                    self.line(&format!(
                        "{n} = {t}({w}({n}) {op} {w}({e}));",
                        n = l.name,
                        t = l.ty.name(),
                        w = l.ty.wide()
                    ));
                } else {
                    self.line(&format!("{} = {e};", l.name));
                }
            }
            2 => self.header_write(),
            3 => self.if_else(depth),
            4 => self.map_op(depth),
            5 => {
                let (name, elem, cap) = self.pick_vector();
                let idx = self.index_expr(cap);
                let v = self.data_value(&elem);
                self.line(&format!("{name}.set({idx}, {v});"));
            }
            6 => {
                let (name, ty) = self.pick_scalar();
                let e = self.expr(ty, 0);
                if self.rng.chance(1, 2) {
                    self.line(&format!(
                        "{name} = {t}({w}({name}) + {w}({e}));",
                        t = ty.name(),
                        w = ty.wide()
                    ));
                } else {
                    self.line(&format!("{name} = {e};"));
                }
            }
            7 => {
                if self.rng.chance(1, 4) {
                    self.line("pkt.drop();");
                } else {
                    let p = self.port();
                    self.line(&format!("pkt.send({p});"));
                }
            }
            8 => self.for_loop(depth),
            9 => self.payload_read(),
            10 => {
                let act = if self.rng.chance(1, 2) {
                    "pkt.drop();".to_string()
                } else {
                    format!("pkt.send({});", self.port())
                };
                self.line(&format!("{act} return;"));
            }
            11 => self.known_bug(depth),
            12 => self.vector_rmw(),
            13 => self.lpm_op(depth),
            14 => self.push_stmt(),
            15 => self.pop_stmt(),
            _ => self.meter_execute(),
        }
    }

    /// The vectors of integers: (name, element, capacity).
    fn int_vectors(&self) -> Vec<(String, Ty, u64)> {
        self.vectors()
            .into_iter()
            .filter_map(|(n, e, c)| match e {
                Data::Int(t) => Some((n, t, c)),
                Data::Struct(_) => None,
            })
            .collect()
    }

    /// A read-modify-write of one vector element: `v[i] += n` and the other compound
    /// assignments, `++`/`--`, as a statement or a value, or `v.set(i, v.get(i) + n)`. No
    /// `+`/`-`/`++`/`--` on 32- and 64-bit signed elements (`T(v.get(i) + n)` could
    /// overflow).
    fn vector_rmw(&mut self) {
        let vs = self.int_vectors();
        let (v, t, cap) = self.rng.pick(&vs).clone();
        let idx = self.index_expr(cap);
        let arith = !(matches!(t, Ty::I32 | Ty::I64));
        let ops: &[&str] = if arith {
            &["+=", "-=", "|=", "^=", "&=", "++", "--"]
        } else {
            &["|=", "^=", "&="]
        };
        let op = *self.rng.pick(ops);
        let rmw = match op {
            "++" | "--" => {
                if self.rng.chance(1, 2) {
                    format!("{op}{v}[{idx}]")
                } else {
                    format!("{v}[{idx}]{op}")
                }
            }
            _ if op == "+=" && self.rng.chance(1, 3) => format!("{v}[{idx}] += 1"),
            _ => {
                let e = self.expr(t, 1);
                format!("{v}[{idx}] {op} {}({e})", t.name())
            }
        };
        match self.rng.below(4) {
            0 => {
                let x = self.fresh("x");
                self.line(&format!("{} {x} = {rmw};", t.name()));
                self.locals.push(Local {
                    name: x,
                    ty: t,
                    mutable: true,
                });
            }
            1 => {
                // The same read-modify-write spelled with get and set (rule R7 fuses them).
                let e = self.expr(t, 1);
                let w = t.wide();
                self.line(&format!(
                    "{v}.set({idx}, {}({w}({v}.get({idx})) + {w}({e})));",
                    t.name()
                ));
            }
            _ => self.line(&format!("{rmw};")),
        }
    }

    /// `Color c = m.execute(i, pkt)`, its colour a local; sometimes red drops the packet.
    fn meter_execute(&mut self) {
        let ms: Vec<(String, u64)> = self
            .states
            .iter()
            .filter_map(|s| match s {
                State::Meter { name, n, .. } => Some((name.clone(), *n)),
                _ => None,
            })
            .collect();
        let (name, n) = self.rng.pick(&ms).clone();
        let idx = self.index_expr(n);
        let c = self.fresh("c");
        self.line(&format!(
            "uint8_t {c} = uint8_t({name}.execute({idx}, pkt));"
        ));
        if self.rng.chance(1, 3) {
            self.line(&format!("if ({c} == 2) {{ pkt.drop(); return; }}"));
        }
        self.locals.push(Local {
            name: c,
            ty: Ty::U8,
            mutable: false,
        });
    }

    /// The vector state members: (name, element, capacity).
    fn vectors(&self) -> Vec<(String, Data, u64)> {
        self.states
            .iter()
            .filter_map(|s| match s {
                State::Vector {
                    name, elem, cap, ..
                } => Some((name.clone(), elem.clone(), *cap)),
                _ => None,
            })
            .collect()
    }

    fn pick_vector(&mut self) -> (String, Data, u64) {
        let vs = self.vectors();
        self.rng.pick(&vs).clone()
    }

    fn pick_scalar(&mut self) -> (String, Ty) {
        let vs: Vec<(String, Ty)> = self
            .states
            .iter()
            .filter_map(|s| match s {
                State::Scalar { name, ty, .. } => Some((name.clone(), *ty)),
                _ => None,
            })
            .collect();
        self.rng.pick(&vs).clone()
    }

    /// A vector index: sometimes in range, sometimes not (`get` past the end reads 0, `set`
    /// past the end does nothing).
    fn index_expr(&mut self, cap: u64) -> String {
        if self.opts.hashes && !self.in_hash && self.rng.chance(1, 4) {
            let h = self.hash_call();
            return if cap.is_power_of_two() && self.rng.chance(1, 2) {
                format!("({h} & {}u)", cap - 1)
            } else {
                format!("({h} % {cap}u)")
            };
        }
        match self.rng.below(4) {
            0 => format!("{}u", self.rng.below(cap + 2)),
            1 => {
                let e = self.expr(Ty::U32, 1);
                format!("{e} % {cap}u")
            }
            _ => {
                let e = self.expr(Ty::U16, 1);
                format!("uint32_t({e})")
            }
        }
    }

    /// A value of a key/value/element type, from expressions.
    fn data_value(&mut self, d: &Data) -> String {
        match d {
            Data::Int(t) => self.expr(*t, 1),
            Data::Struct(i) => {
                let fields = self.structs[*i].fields.clone();
                let vals: Vec<String> = fields
                    .iter()
                    .map(|(_, t)| {
                        if self.rng.chance(1, 4) {
                            let v = self.interesting();
                            lit(*t, v)
                        } else {
                            self.expr(*t, 1)
                        }
                    })
                    .collect();
                format!("{}{{{}}}", self.structs[*i].name, vals.join(", "))
            }
        }
    }

    /// Binds the fields of a value (a `const V*` or a struct/integer lvalue) to new
    /// read-only locals.
    fn bind_value(&mut self, d: &Data, access: &str, deref: bool) {
        match d {
            Data::Int(t) => {
                let name = self.fresh("x");
                let a = if deref {
                    format!("*{access}")
                } else {
                    access.to_string()
                };
                self.line(&format!("{} {name} = {a};", t.name()));
                self.locals.push(Local {
                    name,
                    ty: *t,
                    mutable: true,
                });
            }
            Data::Struct(i) => {
                let fields = self.structs[*i].fields.clone();
                let sep = if deref { "->" } else { "." };
                for (f, t) in fields {
                    if self.rng.chance(2, 3) {
                        let name = self.fresh("x");
                        self.line(&format!("{} {name} = {access}{sep}{f};", t.name()));
                        self.locals.push(Local {
                            name,
                            ty: t,
                            mutable: false,
                        });
                    }
                }
            }
        }
    }

    fn map_op(&mut self, depth: usize) {
        let maps: Vec<(String, Data, Data)> = self
            .states
            .iter()
            .filter_map(|s| match s {
                State::Map { name, key, val, .. } => Some((name.clone(), key.clone(), val.clone())),
                _ => None,
            })
            .collect();
        let (m, key, val) = self.rng.pick(&maps).clone();
        let k = self.data_value(&key);
        let nested = depth < self.opts.max_depth;
        match self.rng.weighted(&[
            if nested { 4 } else { 0 },
            if nested { 2 } else { 0 },
            4,
            2,
            if nested { 2 } else { 0 },
            1,
        ]) {
            0 => self.find_block(&m, &k, &val, depth),
            1 => self.lookup_block(&m, &k, &val, depth),
            2 => {
                let v = self.data_value(&val);
                self.line(&format!("{m}.insert({k}, {v});"));
            }
            3 => self.line(&format!("{m}.erase({k});")),
            4 => {
                let call = if self.rng.chance(1, 2) {
                    let v = self.data_value(&val);
                    format!("{m}.insert({k}, {v})")
                } else {
                    format!("{m}.erase({k})")
                };
                self.line(&format!("if ({call}) {{"));
                self.scope(|g| g.block(depth + 1, 2));
                self.else_block(depth);
            }
            _ => {
                let name = self.fresh("x");
                self.line(&format!("uint8_t {name} = {m}.contains({k}) ? 1u : 0u;"));
                self.locals.push(Local {
                    name,
                    ty: Ty::U8,
                    mutable: false,
                });
            }
        }
    }

    /// `if (const V* p = m.find(k)) { ... }` (a map or an LPM map), its fields bound to
    /// locals inside.
    fn find_block(&mut self, m: &str, k: &str, val: &Data, depth: usize) {
        let p = self.fresh("p");
        self.line(&format!(
            "if (const {}* {p} = {m}.find({k})) {{",
            self.data_name(val)
        ));
        self.scope(|g| {
            g.bind_value(val, &p, true);
            g.block(depth + 1, 3);
        });
        self.else_block(depth);
    }

    /// `V lv{}; if (m.lookup(k, lv)) { ... }` (a map or an LPM map).
    fn lookup_block(&mut self, m: &str, k: &str, val: &Data, depth: usize) {
        let v = self.fresh("lv");
        self.line(&format!("{} {v}{{}};", self.data_name(val)));
        self.line(&format!("if ({m}.lookup({k}, {v})) {{"));
        self.scope(|g| {
            g.bind_value(val, &v, false);
            g.block(depth + 1, 3);
        });
        self.else_block(depth);
    }

    fn else_block(&mut self, depth: usize) {
        if self.rng.chance(1, 2) && self.budget > 0 {
            self.line("} else {");
            self.scope(|g| g.block(depth + 1, 2));
        }
        self.line("}");
    }

    /// Up to `max` statements (at least one).
    fn block(&mut self, depth: usize, max: u64) {
        let n = self.rng.range(1, max);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.stmt(depth);
        }
    }

    fn if_else(&mut self, depth: usize) {
        // Header presence tests, or a condition.
        let absent: Vec<u32> = BUILTIN
            .into_iter()
            .chain(self.decl_bits())
            .filter(|h| (self.hdrs | self.absent) & h == 0)
            .collect();
        if !absent.is_empty() && self.rng.chance(1, 2) {
            let h = *self.rng.pick(&absent);
            let extra = if self.rng.chance(1, 3) {
                let saved = self.hdrs;
                self.hdrs |= h | if h & (TCP | UDP) != 0 { IP | ETH } else { 0 };
                if h == IP {
                    self.hdrs |= ETH;
                }
                let c = self.cond(1);
                self.hdrs = saved;
                format!(" && {c}")
            } else {
                String::new()
            };
            let test = self.presence(Self::chain(h), "!=", " && ");
            self.line(&format!("if ({test}{extra}) {{"));
            self.scope(|g| {
                g.hdrs |= h;
                if h & (TCP | UDP) != 0 {
                    g.hdrs |= IP | ETH;
                }
                if h == IP {
                    g.hdrs |= ETH;
                }
                g.block(depth + 1, 4);
            });
            if self.rng.chance(1, 2) && self.budget > 0 {
                self.line("} else {");
                // Absent when one header alone was tested: so are the headers inside it.
                let gone = if extra.is_empty() && (Self::chain(h) & !self.hdrs).count_ones() == 1 {
                    match h {
                        ETH => ETH | IP | TCP | UDP,
                        IP => IP | TCP | UDP,
                        _ => h,
                    }
                } else {
                    0
                };
                self.scope(|g| {
                    g.absent |= gone;
                    g.block(depth + 1, 2);
                });
            }
            self.line("}");
            return;
        }
        let c = self.cond(0);
        self.line(&format!("if ({c}) {{"));
        self.scope(|g| g.block(depth + 1, 4));
        self.else_block(depth);
    }

    fn for_loop(&mut self, depth: usize) {
        let i = self.fresh("i");
        let n = self.rng.range(1, 5);
        self.line(&format!("for (uint32_t {i} = 0; {i} < {n}u; ++{i}) {{"));
        self.scope(|g| {
            g.locals.push(Local {
                name: i.clone(),
                ty: Ty::U32,
                mutable: false,
            });
            g.loops += 1;
            g.block(depth + 1, 3);
            g.loops -= 1;
        });
        self.line("}");
    }

    fn payload_read(&mut self) {
        let x = self.fresh("x");
        let ty = self.rand_uty();
        self.line(&format!("{} {x} = 0;", ty.name()));
        self.line("{");
        self.indent += 1;
        self.line("const uint8_t* pl = pkt.payload();");
        self.line("uint32_t plen = pkt.payload_len();");
        match self.rng.below(3) {
            0 => {
                let k = self.rng.below(64);
                self.line(&format!("if (plen > {k}u) {x} = {}(pl[{k}]);", ty.name()));
            }
            1 => {
                let e = self.expr(Ty::U32, 1);
                self.line(&format!(
                    "if (plen > 0u) {x} = {}(pl[{e} % plen]);",
                    ty.name()
                ));
            }
            _ => {
                let k = self.rng.below(16);
                self.line(&format!(
                    "if (plen > {}u) {x} = {t}({w}({x}) * 31u + {w}(pl[{k}]) + {w}(pl[{k1}]));",
                    k + 1,
                    k1 = k + 1,
                    t = ty.name(),
                    w = ty.wide()
                ));
            }
        }
        self.indent -= 1;
        self.line("}");
        self.locals.push(Local {
            name: x,
            ty,
            mutable: true,
        });
    }

    fn known_bug(&mut self, depth: usize) {
        match self.rng.below(4) {
            0 if self.hdrs & ETH != 0 => {
                self.tags.push("mac-copy");
                self.line("{ uint8_t t[6]; std::memcpy(t, eth->dst, 6); std::memcpy(eth->dst, eth->src, 6); std::memcpy(eth->src, t, 6); }");
            }
            1 if self.opts.payload && self.decls.is_empty() => {
                self.tags.push("payload-widths");
                let x = self.fresh("x");
                let k = self.rng.below(8);
                self.line(&format!("uint32_t {x} = 0;"));
                self.line(&format!("if (pkt.payload_len() > {}u) {{ uint16_t a; uint32_t b; std::memcpy(&a, pkt.payload() + {k}, 2); std::memcpy(&b, pkt.payload() + {k}, 4); {x} = uint32_t(a) ^ b; }}", k + 4));
                self.locals.push(Local {
                    name: x,
                    ty: Ty::U32,
                    mutable: true,
                });
            }
            2 => {
                self.tags.push("now");
                let x = self.fresh("x");
                self.line(&format!("uint64_t {x} = pkt.now();"));
                self.locals.push(Local {
                    name: x,
                    ty: Ty::U64,
                    mutable: true,
                });
            }
            3 if self.hdrs & ETH != 0 && depth < self.opts.max_depth => {
                self.tags.push("loop-index");
                let i = self.fresh("i");
                let x = self.fresh("x");
                self.line(&format!("uint32_t {x} = 0;"));
                self.line(&format!(
                    "for (uint32_t {i} = 0; {i} < 6u; ++{i}) {x} = {x} * 33u + eth->src[{i}];"
                ));
                self.locals.push(Local {
                    name: x,
                    ty: Ty::U32,
                    mutable: true,
                });
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic() {
        let o = GenOptions::default();
        assert_eq!(generate(7, &o).source, generate(7, &o).source);
        assert_ne!(generate(7, &o).source, generate(8, &o).source);
    }

    #[test]
    fn new_api_options_off_leave_it_out() {
        let o = GenOptions {
            hashes: false,
            vector_rmw: false,
            lpm: false,
            declared_headers: false,
            push_pop: false,
            ..GenOptions::default()
        };
        for seed in 1..60 {
            let nf = generate(seed, &o);
            for p in [
                "crc",
                "identity(",
                "LpmMap",
                "TANDEM_PARSE",
                "push<",
                "pop<",
                "] += ",
            ] {
                assert!(!nf.source.contains(p), "seed {seed}: {p}");
            }
            assert_eq!(nf.traffic_plan, None);
        }
    }
}
