//! `tandem::Meter` in the analysis build: `tandem_api_meter_execute(meter, index, pkt, n,
//! unit)` becomes `meter.execute` (the packet's time and length are implicit in the IR
//! instruction, as in P4's meter externs); `tandem_api_meter_set_rates(meter, index, rates,
//! n, unit)` belongs in `configure()`, and in `process()` is an error (L018), as is a meter
//! whose size or unit is not a compile-time constant.
//!
//! Argument positions (nfapi/include/tandem/meter.hh): `meter_execute(meter, index, pkt, n,
//! unit)`, `meter_set_rates(meter, index, rates, n, unit)`.

use llvm_ir::{Name, Operand};
use tandem_ir::{InstKind, MeterUnit, StateKind, Type};

use super::{Lifter, Prov};
use crate::diag::Code;

/// The meter size and unit of a `tandem_api_meter_*` call, when both are constants.
pub(super) fn meter_shape(args: &[&Operand]) -> Option<(u64, MeterUnit)> {
    let n = args.get(3).and_then(|a| Lifter::const_u64(a))?;
    let unit = match args.get(4).and_then(|a| Lifter::const_u64(a))? {
        0 => MeterUnit::Packets,
        1 => MeterUnit::Bytes,
        _ => return None,
    };
    (n > 0).then_some((n, unit))
}

impl<'a> Lifter<'a> {
    /// Pass 1: records that the member at `meter` is a meter array of this shape.
    pub(super) fn scan_meter(&mut self, meter: &Prov, shape: Option<(u64, MeterUnit)>) {
        let (Prov::Element(off), Some(shape)) = (meter, shape) else {
            return;
        };
        let Some(mi) = self.member_at(*off) else {
            return;
        };
        let u = &mut self.uses[mi];
        if u.map.is_some() || u.vec.is_some() || u.meter.is_some_and(|m| m != shape) {
            u.conflict = Some("used both as a meter and as another kind of state".into());
        }
        u.meter = Some(shape);
    }

    /// Pass 2: `meter_execute`, `meter_set_rates`.
    pub(super) fn translate_meter(&mut self, op: &str, args: &[&Operand], dest: Option<&Name>) {
        let Some(shape) = meter_shape(args) else {
            self.err(
                Code::MeterMisuse,
                "a meter whose size or unit is not a compile-time constant (use tandem::Meter<N, MeterUnit::...>)",
            );
            return;
        };
        if op == "meter_set_rates" {
            self.err(
                Code::MeterMisuse,
                "meter rates are set in configure(), which the switch's control plane installs; process() only executes meters",
            );
            return;
        }
        let Some(mp) = args.first().map(|a| self.ptr(a)) else {
            return;
        };
        let Some(m) = self.member_of(&mp) else { return };
        let Some(&state) = self.meter_states.get(&m) else {
            let name = self.members[m].name.clone();
            self.err(Code::StateMisuse, format!("`{name}` is not a meter"));
            return;
        };
        debug_assert!(matches!(
            self.module.states[state].kind,
            StateKind::Meter { len, unit } if (len, unit) == shape
        ));
        let Some(idx) = args.get(1).map(|a| self.int(a)) else {
            return;
        };
        // A 32-bit index when its range allows: the switch's bounds check (and index) then
        // fit a 32-bit ALU. Out of range is green either way.
        let idx = match self.narrow32(idx) {
            Some(i) => i,
            None => self.resize(idx, Type::I64),
        };
        let c = self.ins1(InstKind::MeterExecute { state, index: idx }, Type::I8);
        if let Some(d) = dest {
            self.def(d, c);
        }
    }
}
