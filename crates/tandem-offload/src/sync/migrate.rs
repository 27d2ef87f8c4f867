//! Moving map entries between two servers' synchronisation engines (a cluster's flow
//! migration, [`crate::migrate`]).
//!
//! Every server of a cluster mirrors the part of the switch's tables it wrote. When a flow's
//! state moves from server A to server B, the switch's tables already hold the entries, so
//! nothing is written for them: A first [`SyncEngine::flush`]es (its staged batch goes into
//! the main tables and leaves the write-back tables), then each entry leaves A's mirror and
//! enters B's ([`SyncEngine::take_mirror`], [`SyncEngine::put_mirror`]), so B's later
//! batches modify or delete it as their own.
//!
//! ```text
//!  before: A.mirror = {k1 → v1 (staged)}   B.mirror = {}       switch: wb {k1 → v1}
//!  flush:  A.mirror = {k1 → v1 (main)}                          switch: main {k1 → v1}
//!  after:  A.mirror = {}                   B.mirror = {k1 → v1} switch unchanged
//! ```

use tandem_ir::words::Words;

use super::*;

/// What an engine mirrors of one map key (taken from one engine, put into another).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MirrorEntry {
    /// The value the main tables hold (`None`: they do not hold the key).
    pub on_main: Option<Vec<u64>>,
    /// The key is kept on the server only (the table was full).
    pub server_only: bool,
}

impl SyncEngine {
    /// Retires the staged batch into the main tables and removes it from the write-back
    /// tables, then shows the write-back tables again (the other servers' batches): after
    /// it, every entry this engine wrote is in the main tables.
    pub fn flush(&mut self, cp: &mut dyn ControlPlane) -> Result<(), OffloadError> {
        if self.maps.values().all(|m| m.staged.is_empty()) {
            return Ok(());
        }
        let Some(flag) = self.flag.clone() else {
            return Ok(());
        };
        self.retire(cp, &flag, None)?;
        for m in self.maps.values_mut() {
            for o in m.wb_ops.iter() {
                send_exact(&self.policy, &mut self.stats, cp, &o.batch())?;
            }
            for o in m.wb_ops.iter_mut() {
                o.clear();
            }
        }
        self.write_register(cp, &flag, 0, 1)?;
        Ok(())
    }

    /// Takes `key` of map `state` out of the mirror (after [`SyncEngine::flush`]); `None`
    /// when the engine does not replicate the map. An error for what cannot move: a map in
    /// hash-indexed registers (its cells are placed per server), or a staged key.
    pub fn take_mirror(
        &mut self,
        state: u32,
        key: &[u64],
    ) -> Result<Option<MirrorEntry>, OffloadError> {
        let Some(i) = self.maps.at(state) else {
            return Ok(None);
        };
        let m = &mut self.maps.list[i].1;
        if m.hashed.is_some() {
            return Err(OffloadError::State(format!(
                "map `{}` is held in hash-indexed registers: its entries do not migrate",
                m.name
            )));
        }
        if m.staged_at(key).is_some() {
            return Err(OffloadError::State(format!(
                "map `{}`: a staged key cannot migrate (flush first)",
                m.name
            )));
        }
        let on_main = m.on_main.remove(key).map(|v| v.as_slice().to_vec());
        let server_only = !m.server_only.is_empty() && m.server_only.remove(key);
        Ok(Some(MirrorEntry {
            on_main,
            server_only,
        }))
    }

    /// Puts an entry [`SyncEngine::take_mirror`] took from another engine.
    pub fn put_mirror(&mut self, state: u32, key: &[u64], e: &MirrorEntry) {
        let Some(i) = self.maps.at(state) else {
            return;
        };
        let m = &mut self.maps.list[i].1;
        if let Some(v) = &e.on_main {
            m.on_main.insert(Words::new(key), Words::new(v));
        }
        if e.server_only {
            m.server_only.insert(Words::new(key));
        }
    }
}
