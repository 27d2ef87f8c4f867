//! Meters on the switch: a `meter<len, unit>` state the plan places on the switch becomes a
//! meter array, and each `meter.execute` the extern's execution, its colour in the result's
//! metadata field. v1model's `meter` and TNA's `Meter` both read the packet's length and the
//! time themselves (the NF IR's `meter.execute` is defined the same way); TNA's constructor
//! takes the colour encoding, given as v1model's (green 0, yellow 1, red 2, where TNA's
//! default red is 3). An index that may be out of range is checked first: out of range is
//! green in the NF IR, while v1model leaves the result unspecified and updates nothing.
//!
//! ```text
//! before: v9:i8 = meter.execute limits[v8]
//! after:  meter(32w1024, MeterType.bytes) limits;                           (v1model)
//!         if (meta.v8 < 32w1024) { limits.execute_meter(meta.v8, meta.v9); }
//!         else { meta.v9 = 8w0; }
//!         Meter<bit<32>>(32w1024, MeterType_t.BYTES, 8w2, 8w1, 8w0) limits;  (TNA)
//!         ... meta.v9 = limits.execute(meta.v8); ...
//! ```

use tandem_ir::{Inst, MeterUnit, StateId, StateKind, Value};
use tandem_p4_syntax::{BinOp, DeclKind, Expr, Stmt, Type};

use super::state::p4_name;
use super::{Gen, INGRESS};
use crate::build::*;
use crate::manifest;
use crate::P4Error;

impl Gen<'_, '_> {
    /// Declares the meter array of state `state` (`len` meters of `unit`); its qualified
    /// name, for the state's manifest entry.
    pub(super) fn declare_meter(
        &mut self,
        state: &str,
        sid: StateId,
        len: u64,
        unit: MeterUnit,
    ) -> String {
        let mname = p4_name(state);
        let id = manifest::object_id(
            manifest::PREFIX_METER,
            self.manifest.meters.len() as u32 + 1,
        );
        self.manifest.meters.push(manifest::Meter {
            id,
            name: format!("{INGRESS}.{mname}"),
            state: state.into(),
            unit: unit.name().into(),
            size: len,
        });
        let (ty, args) = meter_instance(self.tna(), len, unit);
        self.locals.push(decl(DeclKind::Instantiation {
            ty,
            args,
            name: mname.clone(),
        }));
        self.meters.insert(sid, mname.clone());
        format!("{INGRESS}.{mname}")
    }

    /// `meter.execute`: the extern call, behind a bounds check unless the index is always
    /// in range.
    pub(super) fn lower_meter(
        &mut self,
        inst: Inst,
        state: StateId,
        index: Value,
        result: Value,
        out: &mut Vec<Stmt>,
    ) -> Result<(), P4Error> {
        let module = self.view.module;
        let Some(StateKind::Meter { len, .. }) = module.states.get(state).map(|s| &s.kind) else {
            return Err(self.unsupported(inst, "meter.execute on a state that is not a meter"));
        };
        let len = *len;
        let m =
            self.meters.get(&state).cloned().ok_or_else(|| {
                self.unsupported(inst, "meter without a switch meter in the plan")
            })?;
        let bits = self.bits(index);
        let i = self.val(index);
        let i32_ = if bits == 32 {
            i.clone()
        } else {
            cast(32, i.clone())
        };
        let d = self.dst(result);
        let exec = if self.tna() {
            assign(d.clone(), method(name(&m), "execute", vec![i32_]))
        } else {
            call_stmt(method(name(&m), "execute_meter", vec![i32_, d.clone()]))
        };
        if tandem_partition::ops::meter_index_in_range(module, index, len) {
            out.push(exec);
        } else {
            out.push(if_stmt(
                bin(BinOp::Lt, i, lit(len, bits)),
                vec![exec],
                vec![assign(d, lit(u64::from(tandem_ir::meter::GREEN), 8))],
            ));
        }
        Ok(())
    }
}

/// The type and constructor arguments of an array of `len` meters counting `unit`: TNA's
/// `Meter<bit<32>>(len, MeterType_t.*, RED, YELLOW, GREEN)` with the NF API's colour values,
/// or v1model's `meter(len, MeterType.*)`.
pub(super) fn meter_instance(tna: bool, len: u64, unit: MeterUnit) -> (Type, Vec<Expr>) {
    if tna {
        let kind = match unit {
            MeterUnit::Bytes => "BYTES",
            MeterUnit::Packets => "PACKETS",
        };
        (
            Type::Named {
                name: "Meter".into(),
                args: vec![Type::Bit(32)],
            },
            vec![
                lit(len, 32),
                member(name("MeterType_t"), kind),
                lit(u64::from(tandem_ir::meter::RED), 8),
                lit(u64::from(tandem_ir::meter::YELLOW), 8),
                lit(u64::from(tandem_ir::meter::GREEN), 8),
            ],
        )
    } else {
        (
            Type::Named {
                name: "meter".into(),
                args: vec![],
            },
            vec![lit(len, 32), member(name("MeterType"), unit.name())],
        )
    }
}
