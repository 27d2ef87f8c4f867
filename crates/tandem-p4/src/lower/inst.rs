//! Statements and expressions: a partition's structured walk ([`Node`]s) becomes P4
//! statements, each instruction an assignment to its result's metadata field.
//!
//! SSA values live in metadata (`meta.vN`), constants are literals; `i1` is `bit<1>`. What P4
//! lacks is spelled out: a byte swap as slices and concatenations, signed comparison as a
//! sign-bit flip, arithmetic shift right as a select on the sign bit, multiplication by a
//! power of two as a shift, division and remainder by a constant power of two as a shift and
//! a mask (p4c evaluates `/` and `%` only at compile time).
//!
//! ```text
//! before: v7:i1 = icmp slt v5, v6
//! after:  meta.v7 = (meta.v5 ^ 32w0x80000000) < (meta.v6 ^ 32w0x80000000) ? 1w1 : 1w0;
//! ```

use tandem_ir::{BinOp as IrBin, CastOp, HashAlgo, Inst, InstKind, IntCC, Meta, Value};
use tandem_p4_syntax::{BinOp, DeclKind, Expr, ExprKind, Stmt, Type, UnOp};

use super::headers::{hdr_name, ipv4_present, pop_header, push_header, read_field, write_field};
use super::{meta, Gen};
use crate::build::*;
use crate::walk::Node;
use crate::{P4Error, SWITCH_PORTS};

impl Gen<'_, '_> {
    pub(super) fn lower_nodes(&mut self, nodes: &[Node]) -> Result<Vec<Stmt>, P4Error> {
        let mut out = Vec::new();
        for n in nodes {
            match n {
                Node::Inst(inst) => self.lower_inst(*inst, &mut out)?,
                Node::Param { param, arg } => {
                    let rhs = self.val(*arg);
                    let lhs = self.dst(*param);
                    out.push(assign(lhs, rhs));
                }
                Node::ToServer => out.push(assign(meta("to_server"), lit(1, 1))),
                Node::PoolApply { pool } => {
                    let stmts = self.pool_apply(*pool)?;
                    out.extend(stmts);
                }
                Node::Reach { part, block: b } => {
                    let f = self.meta_field(&format!("{}_{b}", part.name()), 1);
                    out.push(assign(f, lit(1, 1)));
                }
                Node::Guard {
                    part,
                    block: b,
                    body,
                } => {
                    let f = self.meta_field(&format!("{}_{b}", part.name()), 1);
                    let body = self.lower_nodes(body)?;
                    if !body.is_empty() {
                        out.push(if_stmt(is_one(f), body, Vec::new()));
                    }
                }
                Node::If { cond, then, els } => {
                    let c = is_one(self.val(*cond));
                    let t = self.lower_nodes(then)?;
                    let e_ = self.lower_nodes(els)?;
                    if t.is_empty() && e_.is_empty() {
                        continue;
                    }
                    if t.is_empty() {
                        let v = self.val(*cond);
                        out.push(if_stmt(bin(BinOp::Eq, v, lit(0, 1)), e_, Vec::new()));
                    } else {
                        out.push(if_stmt(c, t, e_));
                    }
                }
                Node::Switch {
                    arg,
                    cases,
                    default,
                } => {
                    let bits = self.bits(*arg);
                    let a = self.val(*arg);
                    let mut chain = self.lower_nodes(default)?;
                    for (v, arm) in cases.iter().rev() {
                        let body = self.lower_nodes(arm)?;
                        let c = bin(BinOp::Eq, a.clone(), lit(*v, bits));
                        chain = vec![if_stmt(c, body, chain)];
                    }
                    out.extend(chain);
                }
            }
        }
        Ok(out)
    }

    fn lower_inst(&mut self, inst: Inst, out: &mut Vec<Stmt>) -> Result<(), P4Error> {
        let data = self.func().insts[inst].clone();
        let res = data.results.first().copied();
        let one = |g: &mut Self, rhs: Expr, out: &mut Vec<Stmt>| -> Result<(), P4Error> {
            let r = res.ok_or_else(|| g.unsupported(inst, "instruction without a result"))?;
            let d = g.dst(r);
            out.push(assign(d, rhs));
            Ok(())
        };
        if self.part == tandem_partition::Partition::Pre
            && matches!(
                data.kind,
                InstKind::HdrWrite { .. }
                    | InstKind::HdrPush { .. }
                    | InstKind::HdrPop { .. }
                    | InstKind::VecSet { .. }
                    | InstKind::ScalarStore { .. }
                    | InstKind::MeterExecute { .. }
                    | InstKind::MapInsert { .. }
                    | InstKind::MapErase { .. }
                    | InstKind::Opaque { .. }
            )
        {
            self.pre_effects = true;
        }
        match &data.kind {
            InstKind::Const { .. } => {}
            InstKind::Binary { op, args } => {
                let bits = self.bits(args[0]);
                let rhs = self.binary(inst, *op, args[0], args[1], bits)?;
                one(self, rhs, out)?;
            }
            InstKind::Icmp { pred, args } => {
                let rhs = self.icmp(*pred, args[0], args[1]);
                one(self, rhs, out)?;
            }
            InstKind::Cast { op, arg } => {
                let rhs = self.cast_value(*op, *arg, res);
                one(self, rhs, out)?;
            }
            InstKind::Select {
                cond,
                if_true,
                if_false,
            } => {
                let c = is_one(self.val(*cond));
                let (a, b) = (self.val(*if_true), self.val(*if_false));
                one(self, ternary(c, a, b), out)?;
            }
            InstKind::Hash { algo, args } => self.lower_hash(inst, res, *algo, args, out)?,
            InstKind::Bswap { arg } => {
                let rhs = self.bswap(inst, *arg)?;
                one(self, rhs, out)?;
            }
            InstKind::HdrRead { field } => one(self, read_field(*field), out)?,
            InstKind::HdrWrite { field, value } => {
                let v = self.val(*value);
                out.push(write_field(*field, v));
            }
            InstKind::HdrValid { header } => {
                let ex = if *header == tandem_ir::Header::Ipv4 {
                    bool_to_bit(ipv4_present())
                } else {
                    bool_to_bit(method(
                        member(name("hdr"), &hdr_name(*header)),
                        "isValid",
                        vec![],
                    ))
                };
                one(self, ex, out)?;
            }
            InstKind::HdrPush { header } => out.push(push_header(*header)),
            InstKind::HdrPop { header } => out.extend(pop_header(*header)),
            InstKind::MetaRead { meta: m } => {
                let src = match m {
                    Meta::InPort => self.meta_field("in_port", 16),
                    Meta::Length if self.tna() => {
                        return Err(self.unsupported(
                            inst,
                            "TNA ingress has no frame length (run it on the server)",
                        ))
                    }
                    Meta::Length => self.meta_field("pkt_len", 16),
                    Meta::Now => {
                        return Err(self.unsupported(
                            inst,
                            "now() is the packet's nanosecond timestamp, which the switch's \
                             48-bit clock does not represent (the partitioner keeps it on the server)",
                        ))
                    }
                };
                one(self, src, out)?;
            }
            InstKind::MapFind { .. }
            | InstKind::ScalarLoad { .. }
            | InstKind::VecGet { .. }
            | InstKind::VecSet { .. }
            | InstKind::ScalarStore { .. } => self.lower_state_access(inst, &data, out)?,
            InstKind::Send { port } => {
                if let Some(c) = self.const_of(*port) {
                    if c >= SWITCH_PORTS {
                        return Err(self.unsupported(
                            inst,
                            &format!(
                                "switch ports are 9 bits (0..{}); port {c} does not exist",
                                SWITCH_PORTS - 1
                            ),
                        ));
                    }
                    if c == u64::from(self.opts.server_port) {
                        return Err(self.unsupported(
                            inst,
                            &format!(
                                "port {c} is the server's port (choose another with --server-port)"
                            ),
                        ));
                    }
                }
                let p = self.val(*port);
                let pb = self.bits(*port);
                let p16 = if pb == 16 { p } else { cast(16, p) };
                out.push(assign(meta("fate"), bin(BinOp::Concat, lit(1, 1), p16)));
            }
            InstKind::Drop => out.push(assign(meta("fate"), lit(0, 17))),
            InstKind::MapInsert { .. } | InstKind::MapErase { .. } => {
                return Err(self.unsupported(inst, "the switch only reads maps"))
            }
            InstKind::Opaque { name, .. } => {
                return Err(self.unsupported(
                    inst,
                    &format!("opaque code `{name}` runs only on the server"),
                ))
            }
            InstKind::MeterExecute { state, index } => {
                let r = res.ok_or_else(|| self.unsupported(inst, "meter without a result"))?;
                self.lower_meter(inst, *state, *index, r, out)?;
            }
            InstKind::Jump { .. }
            | InstKind::Brif { .. }
            | InstKind::Switch { .. }
            | InstKind::Return => {}
        }
        Ok(())
    }

    /// `a <pred> b` as `bit<1>`; signed predicates flip the sign bits and compare unsigned.
    fn icmp(&mut self, pred: IntCC, x: Value, y: Value) -> Expr {
        let bits = self.bits(x);
        let (mut a, mut b) = (self.val(x), self.val(y));
        let signed = matches!(pred, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge);
        if signed {
            let sign = lit(1u64 << (bits - 1), bits);
            a = bin(BinOp::BitXor, a, sign.clone());
            b = bin(BinOp::BitXor, b, sign);
        }
        let op = match pred {
            IntCC::Eq => BinOp::Eq,
            IntCC::Ne => BinOp::Ne,
            IntCC::Ult | IntCC::Slt => BinOp::Lt,
            IntCC::Ule | IntCC::Sle => BinOp::Le,
            IntCC::Ugt | IntCC::Sgt => BinOp::Gt,
            IntCC::Uge | IntCC::Sge => BinOp::Ge,
        };
        bool_to_bit(bin(op, a, b))
    }

    /// A zero extension, truncation or sign extension of `arg` to the result's width.
    fn cast_value(&mut self, op: CastOp, arg: Value, res: Option<Value>) -> Expr {
        let from = self.bits(arg);
        let to = res.map(|r| self.bits(r)).unwrap_or(from);
        let a = self.val(arg);
        match op {
            CastOp::Zext | CastOp::Trunc => {
                if from == to {
                    a
                } else {
                    cast(to, a)
                }
            }
            CastOp::Sext => {
                if from >= to {
                    cast(to, a)
                } else {
                    let ext = to - from;
                    let hi = ternary(
                        is_one(slice(a.clone(), from - 1, from - 1)),
                        lit(mask(ext), ext),
                        lit(0, ext),
                    );
                    bin(BinOp::Concat, hi, a)
                }
            }
        }
    }

    /// A byte swap: a constant swapped here, else the bytes' slices concatenated in reverse.
    fn bswap(&mut self, inst: Inst, arg: Value) -> Result<Expr, P4Error> {
        let bits = self.bits(arg);
        Ok(match self.const_of(arg) {
            Some(c) => {
                let n = bits / 8;
                let mut r = 0u64;
                for i in 0..n {
                    r |= ((c >> (8 * i)) & 0xff) << (8 * (n - 1 - i));
                }
                lit(r, bits)
            }
            None => {
                let a = self.val(arg);
                let mut ex: Option<Expr> = None;
                for i in 0..bits / 8 {
                    let s = slice(a.clone(), 8 * i + 7, 8 * i);
                    ex = Some(match ex {
                        None => s,
                        Some(prev) => bin(BinOp::Concat, prev, s),
                    });
                }
                ex.ok_or_else(|| {
                    self.unsupported(inst, "byte swap of a value narrower than a byte")
                })?
            }
        })
    }

    /// `hash`: a TNA `Hash` instance per call site, or v1model's `hash` extern with base 0
    /// and modulus 2^bits.
    fn lower_hash(
        &mut self,
        inst: Inst,
        res: Option<Value>,
        algo: HashAlgo,
        args: &[Value],
        out: &mut Vec<Stmt>,
    ) -> Result<(), P4Error> {
        let r = res.ok_or_else(|| self.unsupported(inst, "hash without a result"))?;
        let bits = self.bits(r);
        let data = e(ExprKind::List(args.iter().map(|&a| self.val(a)).collect()));
        let d = self.dst(r);
        if self.tna() {
            // One Hash extern per call site (Tofino's hash units are per use).
            let unit = format!("hash_{r}");
            let alg = match algo {
                tandem_ir::HashAlgo::Crc16 => "CRC16",
                tandem_ir::HashAlgo::Crc32 => "CRC32",
                tandem_ir::HashAlgo::Identity => "IDENTITY",
            };
            self.locals.push(decl(DeclKind::Instantiation {
                ty: Type::Named {
                    name: "Hash".into(),
                    args: vec![Type::Bit(bits)],
                },
                args: vec![member(name("HashAlgorithm_t"), alg)],
                name: unit.clone(),
            }));
            out.push(assign(d, method(name(&unit), "get", vec![data])));
        } else {
            if bits >= 64 {
                return Err(self.unsupported(
                    inst,
                    "v1model's hash takes its result modulo `max`, which cannot be 2^64",
                ));
            }
            // hash(out, algo, base, data, max): out = base + (h % max); with base 0
            // and max 2^bits the result is the hash itself. A hash read only by a
            // remainder by a constant is reduced here (`tandem_ir::hash_mod`).
            let max = tandem_ir::hash_mod::hash_remainder(self.func(), r)
                .map_or(1u64 << bits, |hr| hr.modulus);
            out.push(call_stmt(call(
                name("hash"),
                vec![
                    d,
                    member(name("HashAlgorithm"), algo.name()),
                    lit(0, bits),
                    data,
                    lit(max, 64),
                ],
            )));
        }
        Ok(())
    }

    fn binary(
        &mut self,
        inst: Inst,
        op: IrBin,
        x: Value,
        y: Value,
        bits: u32,
    ) -> Result<Expr, P4Error> {
        let a = self.val(x);
        let b = self.val(y);
        let cy = self.const_of(y);
        let pow2 = cy
            .filter(|c| c.is_power_of_two())
            .map(|c| c.trailing_zeros());
        Ok(match op {
            IrBin::Add => bin(BinOp::Add, a, b),
            IrBin::Sub => bin(BinOp::Sub, a, b),
            IrBin::And => bin(BinOp::BitAnd, a, b),
            IrBin::Or => bin(BinOp::BitOr, a, b),
            IrBin::Xor => bin(BinOp::BitXor, a, b),
            IrBin::Shl => bin(BinOp::Shl, a, shift_amount(b, cy, bits)),
            IrBin::Lshr => bin(BinOp::Shr, a, shift_amount(b, cy, bits)),
            IrBin::Ashr => {
                // Arithmetic shift: complement, shift, complement for negative values. An
                // amount >= the width shifts every bit out, so both arms give the sign fill.
                let amount = shift_amount(b, cy, bits);
                let neg = is_one(slice(a.clone(), bits - 1, bits - 1));
                let shifted_neg = un(
                    UnOp::BitNot,
                    bin(BinOp::Shr, un(UnOp::BitNot, a.clone()), amount.clone()),
                );
                ternary(neg, shifted_neg, bin(BinOp::Shr, a, amount))
            }
            IrBin::Mul => {
                let pow2_x = self
                    .const_of(x)
                    .filter(|c| c.is_power_of_two())
                    .map(|c| c.trailing_zeros());
                match (pow2, pow2_x) {
                    (Some(k), _) => bin(BinOp::Shl, a, lit(u64::from(k), SHIFT_AMOUNT_BITS)),
                    (None, Some(k)) => bin(BinOp::Shl, b, lit(u64::from(k), SHIFT_AMOUNT_BITS)),
                    (None, None) => bin(BinOp::Mul, a, b),
                }
            }
            // p4c evaluates `/` and `%` only at compile time (its `CompileTimeOperations` pass,
            // in p4c-bm2-ss and p4test alike): a constant power of two becomes a shift or a
            // mask, anything else stays on the server (the profiles do not offer `udiv`).
            IrBin::Udiv => match (cy, pow2) {
                (Some(0), _) => lit(0, bits),
                (_, Some(k)) => bin(BinOp::Shr, a, lit(u64::from(k), SHIFT_AMOUNT_BITS)),
                _ => {
                    return Err(self.unsupported(
                        inst,
                        "division by a value that is not a constant power of two",
                    ))
                }
            },
            IrBin::Urem => match (cy, pow2) {
                (Some(0), _) => a,
                (Some(c), Some(_)) => bin(BinOp::BitAnd, a, lit(c - 1, bits)),
                // `crc32(..) % C`: the hash was reduced where it was computed (v1model's hash
                // extern here, the server's code there: `tandem_ir::hash_mod`).
                _ if !self.tna()
                    && tandem_ir::hash_mod::remainder_of_hash(self.func(), inst).is_some() =>
                {
                    a
                }
                _ => {
                    return Err(self.unsupported(
                        inst,
                        "remainder by a value that is not a constant power of two",
                    ))
                }
            },
            IrBin::Sdiv | IrBin::Srem => {
                return Err(self.unsupported(inst, "signed division on the switch"))
            }
        })
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Width of every shift amount the generator emits: p4c's BMv2 back end refuses a shift whose
/// amount is wider than 8 bits ("shift amount limited to 8 bits on this target"), constants
/// included; TNA and our switch accept it too.
pub const SHIFT_AMOUNT_BITS: u32 = 8;

/// The amount of a `bits`-wide shift as a `bit<8>` expression with the IR's result kept:
/// P4 shifts by an amount `>= bits` give 0 (as the IR's `shl`/`lshr`; `ashr` complements
/// around it), so an amount that does not fit 8 bits is clamped to `bits` before the cast
/// (`bits <= 64`), never truncated (`256 & 0xff = 0` would shift by nothing).
///
/// ```text
/// before: meta.v3 = meta.v1 >> meta.v2;            // bit<32> >> bit<32>: p4c-bm2-ss refuses
/// after:  meta.v3 = meta.v1 >> (bit<8>)(meta.v2 < 32w32 ? meta.v2 : 32w32);
/// ```
fn shift_amount(amount: Expr, constant: Option<u64>, bits: u32) -> Expr {
    if let Some(c) = constant {
        return lit(c.min(u64::from(bits)), SHIFT_AMOUNT_BITS);
    }
    if bits <= SHIFT_AMOUNT_BITS {
        return amount;
    }
    let limit = lit(u64::from(bits), bits);
    cast(
        SHIFT_AMOUNT_BITS,
        ternary(bin(BinOp::Lt, amount.clone(), limit.clone()), amount, limit),
    )
}
