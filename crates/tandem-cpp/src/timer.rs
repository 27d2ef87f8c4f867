//! `tandem_server_timer`: the NF's whole `on_timer`, run by the runtime at each tick.
//!
//! The timer is never partitioned: it runs on the server, against the primary copy, through
//! the same `tandem_state_ops` as the server partition (so the runtime records what it
//! wrote and brings the switch's copies up to date). It is emitted like the server
//! partition of `process` with every instruction run and every branch followed — loops are
//! `goto`s back — and `meta.read now` is the tick's time.
//!
//! ```text
//! fn on_timer every 10000000 {          extern "C" int tandem_server_timer(
//! block0:                                   const tandem_state_ops* ops, uint64_t now) {
//!     v0:i32 = const 0                      uint64_t v1 = 0, v3 = 0;
//!     br block1(v0)                         v1 = 0u;
//!                                           goto block1;
//! block1(v1:i32):                       block1:
//!     vec.set rows[v1](v0)                  { const uint64_t elem[] = {0u};
//!     v3:i32 = add v1, ...                    ops->vec_set(ops->ctx, S_rows, v1, elem); }
//!     brif ..., block1(v3), block2          ...
//! ```

use std::fmt::Write as _;

use crate::{CppError, Gen};

impl Gen<'_, '_> {
    /// The C++ of `tandem_server_timer` (appended to `server.cc` after the partition).
    pub(crate) fn run_timer(&mut self, interval_ns: u64) -> Result<String, CppError> {
        let blocks = self.reachable();
        self.foldable = self.find_foldable(&blocks);
        self.emit_blocks(&blocks)?;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\n// on_timer, whole: the runtime calls it at every tick ({interval_ns} ns of packet time), on the\n// primary copy, and then brings the switch's copies of what it wrote up to date."
        );
        out.push_str(
            "extern \"C\" int tandem_server_timer(const tandem_state_ops* ops, uint64_t now) {\n",
        );
        out.push_str("    (void)ops;\n    (void)now;\n");
        self.declare_values(&mut out, &Default::default());
        out.push_str(&self.body);
        out.push_str("done:\n    return 0;\n}\n");
        Ok(out)
    }
}
