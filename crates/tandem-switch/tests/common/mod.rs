//! Shared by the differential tests: the comparison of two switches on the same packets,
//! packet mutation, and the random-program generator (the shapes the P4 back end emits and
//! the passes rewrite: metadata temporaries, self-copies, byte swaps, `c ? 1 : 0` / `^ 1` /
//! `== 0` chains, slices and concatenations, nested `if`s, table applies, `exit`,
//! registers, and metadata read in egress).
#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tandem_switch::{ControlOp, KeyMatch, Switch, TableEntry};

/// Runs `pkts` through both and compares everything observable.
pub fn compare(
    a: &Switch,
    b: &Switch,
    pkts: &[(u32, Vec<u8>)],
    registers: &[(&str, u32)],
    what: &str,
) {
    let (mut wa, mut wb) = (a.worker(), b.worker());
    for (i, (port, p)) in pkts.iter().enumerate() {
        let ra = wa.process(*port, p).map(|(q, o)| (q, o.to_vec()));
        let rb = wb.process(*port, p).map(|(q, o)| (q, o.to_vec()));
        assert_eq!(ra, rb, "{what}: packet {i} (port {port}) {p:02x?}");
    }
    for &(r, n) in registers {
        for i in 0..n {
            assert_eq!(
                a.register_read(r, i).ok(),
                b.register_read(r, i).ok(),
                "{what}: register {r}[{i}]"
            );
        }
    }
}

/// Valid packets of a fixture, each also mutated at random positions and cut.
pub fn variants(rng: &mut ChaCha8Rng, base: &[Vec<u8>], n: usize) -> Vec<(u32, Vec<u8>)> {
    let mut out = Vec::new();
    for i in 0..n {
        let mut p = base[i % base.len()].clone();
        match rng.gen_range(0..4) {
            0 => {}
            1 => {
                for _ in 0..rng.gen_range(1..4) {
                    let k = rng.gen_range(0..p.len());
                    p[k] = rng.gen();
                }
            }
            2 => {
                let k = rng.gen_range(0..p.len());
                p.truncate(k);
            }
            _ if p.len() > 12 => {
                let k = rng.gen_range(12..p.len());
                p[k] = rng.gen();
            }
            _ => {}
        }
        let port = [1, 1, 1, 64, rng.gen_range(0..512)][rng.gen_range(0..5)];
        out.push((port, p));
    }
    out
}

// ------------------------------------------------------------ random programs

const METAS: [(&str, u32); 8] = [
    ("m1", 1),
    ("n1", 1),
    ("m8", 8),
    ("m16", 16),
    ("n16", 16),
    ("m32", 32),
    ("n32", 32),
    ("t32", 32),
];
const HFIELDS: [(&str, u32); 6] = [
    ("hdr.h.a", 8),
    ("hdr.h.b", 16),
    ("hdr.h.c", 32),
    ("hdr.h.d", 8),
    ("hdr.h.e", 1),
    ("hdr.g.x", 16),
];

struct Gen {
    rng: ChaCha8Rng,
    /// statements emitted so far (a budget)
    n: usize,
}

impl Gen {
    fn var(&mut self, w: u32) -> Option<String> {
        let mut c: Vec<String> = METAS
            .iter()
            .filter(|m| m.1 == w)
            .map(|m| format!("meta.{}", m.0))
            .collect();
        c.extend(HFIELDS.iter().filter(|f| f.1 == w).map(|f| f.0.to_string()));
        if c.is_empty() {
            None
        } else {
            Some(c.swap_remove(self.rng.gen_range(0..c.len())))
        }
    }

    fn konst(&mut self, w: u32) -> String {
        let v: u64 = match self.rng.gen_range(0..4) {
            0 => 0,
            1 => 1,
            2 => u64::MAX,
            _ => self.rng.gen(),
        };
        let m = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
        format!("{w}w{}", v & m)
    }

    /// An expression of width `w`.
    fn ex(&mut self, w: u32, depth: u32) -> String {
        if depth == 0 || self.rng.gen_range(0..4) == 0 {
            return match self.var(w) {
                Some(v) if self.rng.gen_range(0..4) != 0 => v,
                _ => self.konst(w),
            };
        }
        match self.rng.gen_range(0..11) {
            0..=2 => {
                let op = ["+", "-", "&", "|", "^", "|+|", "|-|"][self.rng.gen_range(0..7)];
                format!("({} {op} {})", self.ex(w, depth - 1), self.ex(w, depth - 1))
            }
            3 => format!(
                "({} {} {})",
                self.ex(w, depth - 1),
                [">>", "<<"][self.rng.gen_range(0..2)],
                self.rng.gen_range(0..w + 2)
            ),
            4 if w.is_multiple_of(8) && w >= 16 => {
                // a byte swap of a variable, as the back end writes ntohs/ntohl
                let v = self.var(w).unwrap_or_else(|| "meta.m32".into());
                let mut s = format!("{v}[7:0]");
                for i in 1..w / 8 {
                    s = format!("({s} ++ {v}[{}:{}])", 8 * i + 7, 8 * i);
                }
                s
            }
            5 => {
                // a slice of something wider
                let from = [8, 16, 32][self.rng.gen_range(0..3)];
                if from > w {
                    let v = self.var(from).unwrap_or_else(|| "meta.t32".into());
                    let lo = self.rng.gen_range(0..=from - w);
                    format!("{v}[{}:{lo}]", lo + w - 1)
                } else {
                    format!("((bit<{w}>) {})", self.ex(from, depth - 1))
                }
            }
            6 if w >= 2 => {
                let a = self.rng.gen_range(1..w);
                format!(
                    "({} ++ {})",
                    self.ex(a, depth - 1),
                    self.ex(w - a, depth - 1)
                )
            }
            7 => format!(
                "(({}) ? {} : {})",
                self.cond(depth - 1),
                self.ex(w, depth - 1),
                self.ex(w, depth - 1)
            ),
            8 => format!("(~{})", self.ex(w, depth - 1)),
            9 if w == 1 => format!("(({}) ? 1w1 : 1w0)", self.cond(depth - 1)),
            _ => {
                let from = [1, 8, 16, 32][self.rng.gen_range(0..4)];
                format!("((bit<{w}>) {})", self.ex(from, depth - 1))
            }
        }
    }

    fn cond(&mut self, depth: u32) -> String {
        match self.rng.gen_range(0..8) {
            0 => ["hdr.g.isValid()", "hdr.h.isValid()"][self.rng.gen_range(0..2)].into(),
            1 if depth > 0 => format!("!({})", self.cond(depth - 1)),
            2 if depth > 0 => format!(
                "({} {} {})",
                self.cond(depth - 1),
                ["&&", "||"][self.rng.gen_range(0..2)],
                self.cond(depth - 1)
            ),
            3 | 4 => {
                let v = ["meta.m1", "meta.n1", "hdr.h.e"][self.rng.gen_range(0..3)];
                format!("{v} == 1w{}", self.rng.gen_range(0..2))
            }
            _ => {
                let w = [1, 8, 16, 32][self.rng.gen_range(0..4)];
                let op = ["==", "!=", "<", ">=", ">", "<="][self.rng.gen_range(0..6)];
                format!(
                    "{} {op} {}",
                    self.ex(w, depth.min(2)),
                    self.ex(w, depth.min(2))
                )
            }
        }
    }

    fn lhs(&mut self) -> (String, u32) {
        if self.rng.gen_range(0..3) == 0 {
            let f = HFIELDS[self.rng.gen_range(0..HFIELDS.len())];
            (f.0.to_string(), f.1)
        } else {
            let m = METAS[self.rng.gen_range(0..METAS.len())];
            (format!("meta.{}", m.0), m.1)
        }
    }

    fn stmts(&mut self, out: &mut String, depth: u32, ind: usize, egress: bool) {
        let k = self.rng.gen_range(1..7);
        for _ in 0..k {
            self.stmt(out, depth, ind, egress);
        }
    }

    fn stmt(&mut self, out: &mut String, depth: u32, ind: usize, egress: bool) {
        self.n += 1;
        let pad = " ".repeat(ind);
        let s = match self.rng.gen_range(0..16) {
            0..=4 => {
                let (l, w) = self.lhs();
                format!("{l} = {};", self.ex(w, 3))
            }
            5 => {
                // a self copy and a temporary chain
                let m = METAS[self.rng.gen_range(0..METAS.len())];
                let e = self.ex(m.1, 2);
                format!("meta.{0} = meta.{0};\n{pad}meta.{0} = {e};", m.0)
            }
            6 => {
                // the `c ? 1 : 0`, `^ 1`, `== 0` shape
                let c = self.cond(2);
                let v = ["m1", "n1"][self.rng.gen_range(0..2)];
                let mut body = String::new();
                if depth > 0 && self.n < 60 {
                    self.stmts(&mut body, depth - 1, ind + 4, egress);
                }
                format!(
                    "meta.{v} = ({c}) ? 1w1 : 1w0;\n{pad}meta.{v} = meta.{v} ^ 1w1;\n{pad}if (meta.{v} == 1w{}) {{\n{body}{pad}}}",
                    self.rng.gen_range(0..2)
                )
            }
            7 | 8 if depth > 0 && self.n < 60 => {
                let c = self.cond(2);
                let mut t = String::new();
                self.stmts(&mut t, depth - 1, ind + 4, egress);
                let mut f = String::new();
                if self.rng.gen_range(0..2) == 0 {
                    self.stmts(&mut f, depth - 1, ind + 4, egress);
                }
                format!("if ({c}) {{\n{t}{pad}}} else {{\n{f}{pad}}}")
            }
            9 if !egress => "t.apply();".into(),
            10 if !egress => match self.rng.gen_range(0..3) {
                0 => format!("r.write((bit<32>) {}, {});", self.ex(2, 1), self.ex(32, 2)),
                _ => format!(
                    "r.read(meta.{}, (bit<32>) {});",
                    ["m32", "n32", "t32"][self.rng.gen_range(0..3)],
                    self.ex(2, 1)
                ),
            },
            11 if self.rng.gen_range(0..6) == 0 => "exit;".into(),
            12 => ["hdr.g.setInvalid();", "hdr.g.setValid();"][self.rng.gen_range(0..2)].into(),
            13 => {
                let w = [16, 32][self.rng.gen_range(0..2)];
                let v = self.var(w).unwrap_or_else(|| "meta.m16".into());
                let mut s = format!("{v}[7:0]");
                for i in 1..w / 8 {
                    s = format!("({s} ++ {v}[{}:{}])", 8 * i + 7, 8 * i);
                }
                let (d, _) = (self.var(w).unwrap_or_else(|| "meta.n16".into()), 0);
                format!("{d} = {s};")
            }
            14 => format!("meta.m8[{}:{}] = {};", 5, 2, self.ex(4, 2)),
            _ => format!("sm.egress_spec = (bit<9>) {};", self.ex(8, 2)),
        };
        for line in s.lines() {
            if line.starts_with(' ') {
                out.push_str(line);
            } else {
                out.push_str(&pad);
                out.push_str(line);
            }
            out.push('\n');
        }
    }
}

/// A random v1model program (ingress and egress bodies; egress copies some
/// metadata into headers so it is observable).
pub fn random_program(seed: u64) -> String {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
        n: 0,
    };
    let mut ing = String::new();
    for _ in 0..g.rng.gen_range(1..4) {
        g.stmts(&mut ing, 3, 8, false);
    }
    g.n = 0;
    let mut eg = String::new();
    if g.rng.gen_range(0..2) == 0 {
        g.stmts(&mut eg, 2, 8, true);
    }
    // observe a random subset of the metadata
    for m in METAS {
        if g.rng.gen_range(0..3) == 0 {
            let (f, w) = HFIELDS[g.rng.gen_range(0..HFIELDS.len())];
            eg.push_str(&format!("        {f} = (bit<{w}>) meta.{};\n", m.0));
        }
    }
    format!(
        r#"#include <core.p4>
#include <v1model.p4>
header h_t {{ bit<8> a; bit<16> b; bit<32> c; bit<8> d; bit<1> e; bit<7> f; }}
header g_t {{ bit<16> x; bit<16> y; }}
struct headers_t {{ h_t h; g_t g; }}
struct meta_t {{ bit<1> m1; bit<1> n1; bit<8> m8; bit<16> m16; bit<16> n16; bit<32> m32; bit<32> n32; bit<32> t32; }}
parser P(packet_in pk, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
    state start {{
        pk.extract(hdr.h);
        transition select(hdr.h.a) {{
            0: accept;
            default: pg;
        }}
    }}
    state pg {{
        pk.extract(hdr.g);
        meta.m16 = hdr.g.y;
        transition accept;
    }}
}}
control V(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
    register<bit<32>>(4) r;
    action set1(bit<32> v) {{ meta.m32 = v; meta.m1 = 1w1; }}
    action set2() {{ meta.n16 = hdr.h.b; meta.m1 = 1w0; }}
    action drop() {{ mark_to_drop(sm); }}
    action bye() {{ meta.t32 = meta.n32; exit; }}
    action mix(bit<8> k) {{ meta.m8 = meta.m8 + k; hdr.h.c = meta.n32 ^ meta.m32; }}
    table t {{
        key = {{ meta.m16: exact; }}
        actions = {{ set1; set2; drop; bye; mix; NoAction; }}
        default_action = set2();
    }}
    apply {{
        sm.egress_spec = 9w1;
{ing}    }}
}}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
    apply {{
{eg}    }}
}}
control C(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}
control D(packet_out pk, in headers_t hdr) {{ apply {{ pk.emit(hdr.h); pk.emit(hdr.g); }} }}
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#
    )
}

pub fn random_entries(rng: &mut ChaCha8Rng) -> Vec<ControlOp> {
    let mut ops = Vec::new();
    let mut keys = std::collections::BTreeSet::new();
    for _ in 0..rng.gen_range(0..6) {
        let k: u64 = [0, 1, rng.gen_range(0..0x10000)][rng.gen_range(0..3)];
        if !keys.insert(k) {
            continue;
        }
        let (action, args) = match rng.gen_range(0..5) {
            0 => ("set1", vec![rng.gen::<u32>() as u64]),
            4 => ("mix", vec![rng.gen::<u8>() as u64]),
            1 => ("drop", vec![]),
            2 => ("bye", vec![]),
            _ => ("set2", vec![]),
        };
        ops.push(ControlOp::Insert {
            table: "t".into(),
            entry: TableEntry {
                matches: vec![KeyMatch::Exact(k)],
                action: action.into(),
                args,
                priority: None,
            },
        });
    }
    ops
}
