//! Internet checksums (csum16) with a summation plan compiled inline: the plan's header
//! byte runs are summed by 8-byte windows straight from the packet buffer and its values
//! folded in, then the result is stored (update) or compared (verify) — instead of a
//! run-time call into the interpreter's `op_checksum` for every packet.
//!
//! Before (`verify_checksum(hdr.ipv4.isValid(), { ...all ipv4 fields... }, hdr.ipv4.hdrChecksum)`):
//!
//! ```text
//!   call rt_op(rt, pc)   -- Ctx from Rt, effect dispatch, condition, plan loop, field load
//! ```
//!
//! After (the plan `Bytes(ipv4, 0, 10), Bytes(ipv4, 12, 8)`):
//!
//! ```text
//!   o = phv[ipv4.base] ; brif o + 20 <= HB_SIZE, fast, slow   -- slow: the same rt_op call
//! fast:
//!   brif cond == 0, done
//!   w0 = bswap load hb+o ; acc = (w0 >> 32) + (w0 & 0xffffffff)
//!   w1 = bswap load hb+o+8 & 0xffff000000000000 ; acc += ...   -- the 10-byte run's tail
//!   w2 = bswap load hb+o+12 ; acc += ...
//!   acc = fold(acc) ; v = !acc & 0xffff
//!   phv[checksum_error] = (field != v) ? 1 : phv[checksum_error]   -- verify
//! ```
//!
//! The arithmetic is `exec::csum16_plan`'s, step for step (32-bit halves, then the 16-bit
//! folds), so both engines compute the same bits; a header whose bytes would not lie in
//! the buffer's first `HB_SIZE` bytes takes the run-time call, as do checksums over the
//! payload and other algorithms.

use super::{mem, Tr};
use crate::native::raw;
use crate::program::{CsumItem, Dst, St, HB_MASK, HB_SIZE};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{InstBuilder, Value};

impl Tr<'_, '_> {
    /// The checksum op `st` at `pc` inline, when it has a csum16 plan over header bytes and
    /// values only; false (nothing emitted) otherwise.
    pub(super) fn checksum(&mut self, st: &St, pc: usize) -> bool {
        let St::Checksum {
            verify,
            payload: false,
            cond,
            plan: Some(plan),
            field,
            width,
            ..
        } = st
        else {
            return false;
        };
        // every byte run inside the buffer's first HB_SIZE bytes, else the run-time call
        let mut ok: Option<Value> = None;
        for it in plan {
            if let CsumItem::Bytes(base, off, len) = it {
                let o = self.slot(*base);
                let end = self
                    .b
                    .ins()
                    .iadd_imm_u(o, i64::from(*off) + i64::from(*len));
                let fits =
                    self.b
                        .ins()
                        .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, end, HB_SIZE as i64);
                // `o` itself small too, so `o + off + len` did not wrap
                let small =
                    self.b
                        .ins()
                        .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, o, HB_SIZE as i64);
                let both = self.b.ins().band(fits, small);
                ok = Some(match ok {
                    Some(a) => self.b.ins().band(a, both),
                    None => both,
                });
            }
        }
        let (fast, slow, run, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        match ok {
            Some(c) => {
                self.b.ins().brif(c, fast, &[], slow, &[]);
            }
            None => {
                self.b.ins().jump(fast, &[]);
            }
        }
        self.b.switch_to_block(slow);
        let p = self.b.ins().iconst(I32, pc as i64);
        self.rt_call(raw::rt_op, p);
        self.b.ins().jump(done, &[]);

        self.b.switch_to_block(fast);
        let c = self.ex(cond);
        self.b.ins().brif(c, run, &[], done, &[]);
        self.b.switch_to_block(run);
        let mut acc = self.b.ins().iconst(I64, 0);
        for it in plan {
            match it {
                CsumItem::Val(e, sh) => {
                    let v = self.ex(e);
                    let f = self.fold16(v);
                    let f = self.b.ins().ishl_imm_u(f, i64::from(*sh & 63));
                    acc = self.b.ins().iadd(acc, f);
                }
                CsumItem::Bytes(base, off, len) => {
                    let o = self.slot(*base);
                    let mut i = 0u32;
                    while i < *len {
                        let rem = (*len - i).min(8);
                        let a = self.b.ins().iadd_imm_u(o, i64::from(*off + i));
                        let a = self.b.ins().band_imm_u(a, HB_MASK as i64);
                        let a = self.b.ins().iadd(self.hb, a);
                        let w = self.b.ins().load(I64, mem(), a, 0);
                        let mut w = self.b.ins().bswap(w);
                        if rem < 8 {
                            w = self.b.ins().band_imm_u(w, !(u64::MAX >> (8 * rem)) as i64);
                        }
                        let hi = self.b.ins().ushr_imm_u(w, 32);
                        let lo = self.b.ins().band_imm_u(w, 0xffff_ffff);
                        acc = self.b.ins().iadd(acc, hi);
                        acc = self.b.ins().iadd(acc, lo);
                        i += 8;
                    }
                }
            }
        }
        let hi = self.b.ins().ushr_imm_u(acc, 32);
        let lo = self.b.ins().band_imm_u(acc, 0xffff_ffff);
        acc = self.b.ins().iadd(hi, lo);
        // below 2^33 now: four 16-bit folds reach ≤ 0xffff, and a fold of a value ≤ 0xffff
        // is that value (the interpreter's `while acc > 0xffff` loop)
        for _ in 0..4 {
            let hi = self.b.ins().ushr_imm_u(acc, 16);
            let lo = self.b.ins().band_imm_u(acc, 0xffff);
            acc = self.b.ins().iadd(hi, lo);
        }
        if self.fault & crate::switch::FAULT_CSUM != 0 {
            acc = self.b.ins().iadd_imm_u(acc, 1);
        }
        let v = self.b.ins().bnot(acc);
        let v = self
            .b
            .ins()
            .band_imm_u(v, (0xffff & crate::program::mask(*width)) as i64);
        if *verify {
            let old = match field {
                Dst::Slot(s) => self.slot(*s),
                Dst::Field(f) => self.field(f),
            };
            let bad = self.b.ins().icmp(IntCC::NotEqual, old, v);
            let err = self.prog.std.checksum_error;
            let cur = self.slot(err);
            let one = self.b.ins().iconst(I64, 1);
            let new = self.b.ins().select(bad, one, cur);
            self.set_slot(err, new);
        } else {
            self.store(field, v);
        }
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        true
    }

    /// `exec::fold16`: the sum of the four 16-bit pieces of `v`.
    fn fold16(&mut self, v: Value) -> Value {
        let mut acc = self.b.ins().band_imm_u(v, 0xffff);
        for sh in [16, 32] {
            let p = self.b.ins().ushr_imm_u(v, sh);
            let p = self.b.ins().band_imm_u(p, 0xffff);
            acc = self.b.ins().iadd(acc, p);
        }
        let top = self.b.ins().ushr_imm_u(v, 48);
        self.b.ins().iadd(acc, top)
    }
}
