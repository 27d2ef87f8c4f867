//! Meter arrays in the state store: the host-side API and `meter.execute` as the interpreter
//! runs it (the arithmetic is [`crate::meter::MeterCell::execute`]).

use std::collections::BTreeMap;

use super::store::Slot;
use super::{StateStore, StoreError};
use crate::meter::{MeterCell, MeterUnit};
use crate::{EntityRef, Module, StateId};

/// A meter array; cells never written are all-zero (unconfigured) and not stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MeterSlot {
    pub(super) len: u64,
    pub(super) unit: MeterUnit,
    pub(super) cells: BTreeMap<u64, MeterCell>,
}

impl StateStore {
    /// Host-side meter write: meter `index` of meter array `name` becomes `cell`.
    pub fn meter_set(
        &mut self,
        module: &Module,
        name: &str,
        index: u64,
        cell: MeterCell,
    ) -> Result<(), StoreError> {
        let (id, _) = self.lookup(module, name)?;
        match self.meter_set_at(id, index, cell) {
            Some(true) => Ok(()),
            Some(false) => Err(Self::shape_err(name, "index out of range")),
            None => Err(Self::shape_err(name, "not a meter")),
        }
    }

    /// Host-side meter read (an all-zero cell for a meter never configured).
    pub fn meter_get(
        &self,
        module: &Module,
        name: &str,
        index: u64,
    ) -> Result<MeterCell, StoreError> {
        let (id, _) = self.lookup(module, name)?;
        match self.meter_at(id, index) {
            Some(Some(c)) => Ok(c),
            Some(None) => Err(Self::shape_err(name, "index out of range")),
            None => Err(Self::shape_err(name, "not a meter")),
        }
    }

    /// Meter `index` of meter array `id`: `Some(None)` when the index is out of range,
    /// `None` when `id` is not a meter array.
    pub fn meter_at(&self, id: StateId, index: u64) -> Option<Option<MeterCell>> {
        let Some(Slot::Meter(m)) = self.slots.get(id.index()) else {
            return None;
        };
        Some((index < m.len).then(|| m.cells.get(&index).copied().unwrap_or_default()))
    }

    /// Writes meter `index` of meter array `id`. `Some(false)` when the index is out of
    /// range, `None` when `id` is not a meter array.
    pub fn meter_set_at(&mut self, id: StateId, index: u64, cell: MeterCell) -> Option<bool> {
        let Some(Slot::Meter(m)) = self.slots.get_mut(id.index()) else {
            return None;
        };
        if index >= m.len {
            return Some(false);
        }
        if cell.is_zero() {
            m.cells.remove(&index);
        } else {
            m.cells.insert(index, cell);
        }
        Some(true)
    }

    /// The meters of array `id` that are not all-zero, by index (`None` when `id` is not a
    /// meter array).
    pub fn meter_cells_at(&self, id: StateId) -> Option<Vec<(u64, MeterCell)>> {
        match self.slots.get(id.index()) {
            Some(Slot::Meter(m)) => Some(m.cells.iter().map(|(i, c)| (*i, *c)).collect()),
            _ => None,
        }
    }

    /// `meter.execute` exactly as the interpreter executes it: meter `index` of array `id`
    /// for a packet of `frame_len` bytes at `now` ns; the colour (0 for an index out of
    /// range, which changes nothing). `None` when `id` is not a meter array.
    pub fn meter_execute_at(
        &mut self,
        id: StateId,
        index: u64,
        now: u64,
        frame_len: u64,
    ) -> Option<u8> {
        let Some(Slot::Meter(m)) = self.slots.get_mut(id.index()) else {
            return None;
        };
        if index >= m.len {
            return Some(crate::meter::GREEN);
        }
        let amount = m.unit.amount(frame_len);
        let Some(cell) = m.cells.get_mut(&index) else {
            // Unconfigured: green, and it stays all-zero.
            return Some(crate::meter::GREEN);
        };
        Some(cell.execute(now, amount))
    }
}
