//! What partial maps ([`crate::partial`]) need of the synchronisation engine: the keys the
//! switch holds, its table size, marking keys server-only, and eviction and promotion as
//! atomic batches (the same publication path as a server packet's batch).

use tandem_ir::words::Words;

use super::{Change, SyncEngine};
use crate::control::ControlPlane;
use crate::primary::Primary;
use crate::OffloadError;

impl SyncEngine {
    /// The keys the switch shows for `state` (main tables and staged batch, not deleted).
    pub fn switch_keys(&self, state: u32) -> Vec<Vec<u64>> {
        let Some(m) = self.maps.get(&state) else {
            return Vec::new();
        };
        let mut out: Vec<Vec<u64>> = m
            .on_main
            .keys()
            .filter(|k| m.staged_at(k).is_none())
            .map(|k| k.to_vec())
            .collect();
        out.extend(
            m.staged
                .iter()
                .filter(|(_, v)| v.is_some())
                .map(|(k, _)| k.to_vec()),
        );
        out
    }

    /// Entries the switch's main tables can hold for `state`.
    pub fn table_size(&self, state: u32) -> u64 {
        self.maps.get(&state).map_or(0, |m| m.size)
    }

    /// Keeps `key` of `state` on the server only from now on: packets that need it are
    /// probed out of the switch, though the switch may still hold it (a partial map's
    /// eviction drains it before deleting it, [`crate::partial`]). Whether it was not.
    pub fn mark_server_only(&mut self, state: u32, key: &[u64]) -> bool {
        self.maps
            .get_mut(&state)
            .is_some_and(|m| m.server_only.insert(Words::new(key)))
    }

    /// Removes `keys` of `state` from the switch in one atomic batch (a partial map's
    /// eviction); they stay in the primary copy and are server-only afterwards.
    pub fn evict(
        &mut self,
        cp: &mut dyn ControlPlane,
        state: u32,
        keys: &[Vec<u64>],
    ) -> Result<usize, OffloadError> {
        let changes: Vec<Change> = keys
            .iter()
            .map(|k| Change {
                state,
                key: k.clone(),
                value: None,
            })
            .collect();
        let r = self.publish(cp, &changes);
        for k in keys {
            self.mark_server_only(state, k);
        }
        r
    }

    /// Installs server-only `keys` of `state` on the switch with their values in the primary
    /// copy, in one atomic batch (a partial map's promotion); a key leaves the server-only
    /// set once staged. Returns the entries that reached the switch (room permitting).
    pub fn promote(
        &mut self,
        cp: &mut dyn ControlPlane,
        primary: &Primary,
        state: u32,
        keys: &[Vec<u64>],
    ) -> Result<usize, OffloadError> {
        let changes: Vec<Change> = keys
            .iter()
            .filter_map(|k| {
                primary.map_value_ref(state, k).map(|v| Change {
                    state,
                    key: k.clone(),
                    value: Some(v.to_vec()),
                })
            })
            .collect();
        self.publish(cp, &changes)
    }

    /// Installs `key` of `state` on the switch with `value` (not necessarily the primary
    /// copy's: tests only, the negative control of the promotion protocol, which publishes a
    /// value read before a packet's server run after it).
    #[doc(hidden)]
    pub fn promote_value(
        &mut self,
        cp: &mut dyn ControlPlane,
        state: u32,
        key: Vec<u64>,
        value: Vec<u64>,
    ) -> Result<usize, OffloadError> {
        self.publish(
            cp,
            &[Change {
                state,
                key,
                value: Some(value),
            }],
        )
    }
}
