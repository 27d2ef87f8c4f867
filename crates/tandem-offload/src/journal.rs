//! The server's journal of committed updates, so a restarted server continues with the
//! state it had (crash recovery, docs/runtime.md "Crash recovery").
//!
//! After each server run whose batch the switch has confirmed — and before its packet is
//! released (output commit) — the server appends what the run changed in the primary copy:
//! every map key it inserted or erased (with the value and last-use time, or as erased) and
//! every vector cell or scalar it wrote. State the switch owns (registers written in pre:
//! counters, sketches, MazuNAT's port counter) is not journaled: a restarted server reads it
//! back from the switch, which still runs. A restarted server replays the journal over
//! `configure()`'s state ([`Journal::replay`]) and rebuilds the switch's copies from the
//! result.
//!
//! Before (no journal): `kill -9` of the server, restart → `configure()` again, the switch
//! reset; every NAT mapping made before the crash is gone and their return packets drop.
//!
//! ```text
//!   SYN 10.0.0.5:4242 -> server: nat_out[5-tuple] = 1027, released      (journal: none)
//!   kill -9 server ; server serve  -> configure(): nat_out = {}
//!   reply to :1027 -> miss -> dropped                                     (NF: translated)
//! ```
//!
//! After: the same run leaves one line per changed key; the restarted server replays it.
//!
//! ```text
//!   {"journal":1,"ir_digest":"…"}
//!   {"m":3,"k":[167772165,…],"v":[1027],"t":1500}        <- appended before the SYN left
//!   kill -9 server ; server serve  -> configure(), replay: nat_out = {5-tuple: 1027}
//!   reply to :1027 -> hit -> translated                                   (as the NF)
//! ```
//!
//! Lines are JSON (one record each), written with one `write` per server run and flushed to
//! the kernel before the packet is released, so a killed process loses nothing it released;
//! `fsync` is not called (a power failure may lose the tail: what a machine crash would need).
//! A line cut short by the kill is ignored at replay (its packet was never released).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tandem_ir::{Module, StateId, StateKind};

use crate::primary::{Primary, Touched};
use crate::OffloadError;

/// The journal's format version (its first line).
pub const JOURNAL_VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
struct Header {
    journal: u32,
    ir_digest: String,
}

/// One journaled change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Record {
    /// A map key: its value and last-use time, or `v: null` when it was erased.
    Map {
        m: u32,
        k: Vec<u64>,
        v: Option<Vec<u64>>,
        #[serde(default)]
        t: u64,
    },
    /// A vector element (`i`) or a scalar (`i: null`, `v` one value).
    Cell { c: u32, i: Option<u64>, v: Vec<u64> },
}

/// The append side of a journal file.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: std::fs::File,
    buf: Vec<u8>,
    /// Records appended by this process.
    pub appended: u64,
}

/// What a journal file held at start.
#[derive(Debug, Default)]
pub struct Replay {
    pub records: Vec<Record>,
    /// Whether the last line was cut short (a kill during its write).
    pub torn_tail: bool,
}

impl Journal {
    /// Opens `path` for appending: reads what it holds (when it exists and was written for
    /// the same compilation — another `ir_digest` is an error naming both), then appends.
    pub fn open(path: &Path, ir_digest: &str) -> Result<(Journal, Replay), OffloadError> {
        let err =
            |e: std::io::Error| OffloadError::State(format!("journal {}: {e}", path.display()));
        let mut replay = Replay::default();
        let exists = path.is_file();
        if exists {
            let f = std::fs::File::open(path).map_err(err)?;
            let mut lines = std::io::BufReader::new(f).lines();
            match lines.next() {
                Some(Ok(first)) => {
                    let h: Header = serde_json::from_str(&first).map_err(|e| {
                        OffloadError::State(format!(
                            "journal {}: not a Tandem journal ({e}); remove it to start afresh",
                            path.display()
                        ))
                    })?;
                    if h.journal != JOURNAL_VERSION || h.ir_digest != ir_digest {
                        return Err(OffloadError::State(format!(
                            "journal {} was written by journal version {} for IR {}, this \
                             server is version {JOURNAL_VERSION} for IR {ir_digest}: remove it \
                             to start afresh",
                            path.display(),
                            h.journal,
                            h.ir_digest
                        )));
                    }
                }
                Some(Err(e)) => return Err(err(e)),
                None => {}
            }
            for line in lines {
                let line = line.map_err(err)?;
                match serde_json::from_str::<Record>(&line) {
                    Ok(r) => replay.records.push(r),
                    // Only the last line can be cut short; it is dropped.
                    Err(_) => replay.torn_tail = true,
                }
            }
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(err)?;
        if !exists || file.metadata().map_err(err)?.len() == 0 {
            let h = serde_json::to_string(&Header {
                journal: JOURNAL_VERSION,
                ir_digest: ir_digest.to_string(),
            })
            .map_err(|e| OffloadError::State(e.to_string()))?;
            file.write_all(format!("{h}\n").as_bytes()).map_err(err)?;
        } else if replay.torn_tail {
            // Start the next record on a line of its own.
            file.write_all(b"\n").map_err(err)?;
        }
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
                buf: Vec::new(),
                appended: 0,
            },
            replay,
        ))
    }

    /// The journal file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The records of what `touched` names, read from the primary copy (states in `skip` —
    /// the switch-owned ones — left out).
    pub fn records(
        module: &Module,
        primary: &mut Primary,
        touched: &Touched,
        skip: &std::collections::BTreeSet<u32>,
    ) -> Vec<Record> {
        let mut out = Vec::new();
        for (s, k) in touched.keys() {
            if skip.contains(&s) {
                continue;
            }
            let v = primary.map_value(s, k);
            let t = primary.last_used(s, k).unwrap_or(0);
            out.push(Record::Map {
                m: s,
                k: k.to_vec(),
                v,
                t,
            });
        }
        for &(s, cell) in touched.others() {
            if skip.contains(&s) {
                continue;
            }
            let id = StateId::from_u32(s);
            match module.states.get(id).map(|o| &o.kind) {
                Some(StateKind::Scalar { .. }) => {
                    if let Some(v) = primary.store.scalar_at(id) {
                        out.push(Record::Cell {
                            c: s,
                            i: None,
                            v: vec![v],
                        });
                    }
                }
                Some(StateKind::Vector { elem, len }) => {
                    let cells: Vec<u64> = match cell {
                        Some(i) => vec![i],
                        None => (0..*len).collect(),
                    };
                    let mut e = vec![0u64; elem.fields.len()];
                    for i in cells {
                        if primary.store.vec_get_at(id, i, &mut e) == Some(true) {
                            out.push(Record::Cell {
                                c: s,
                                i: Some(i),
                                v: e.clone(),
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Appends `records` in one write.
    pub fn append(&mut self, records: &[Record]) -> Result<(), OffloadError> {
        if records.is_empty() {
            return Ok(());
        }
        self.buf.clear();
        for r in records {
            serde_json::to_writer(&mut self.buf, r)
                .map_err(|e| OffloadError::State(e.to_string()))?;
            self.buf.push(b'\n');
        }
        self.file
            .write_all(&self.buf)
            .map_err(|e| OffloadError::State(format!("journal {}: {e}", self.path.display())))?;
        self.appended += records.len() as u64;
        Ok(())
    }

    /// Applies journaled records to a primary copy, in order.
    pub fn replay(primary: &mut Primary, records: &[Record]) -> Result<(), OffloadError> {
        for r in records {
            match r {
                Record::Map {
                    m,
                    k,
                    v: Some(v),
                    t,
                } => {
                    let _ = primary.take_entry(*m, k);
                    if !primary.put_entry(*m, k, v, *t) {
                        return Err(OffloadError::State(format!(
                            "journal: state {m}: entry {k:?} does not fit (not an exact map, or full)"
                        )));
                    }
                }
                Record::Map { m, k, v: None, .. } => {
                    let _ = primary.take_entry(*m, k);
                }
                Record::Cell { c, i: None, v } => {
                    let v = v.first().copied().unwrap_or(0);
                    primary
                        .store
                        .set_scalar_at(StateId::from_u32(*c), v)
                        .ok_or_else(|| {
                            OffloadError::State(format!("journal: state {c} is not a scalar"))
                        })?;
                }
                Record::Cell { c, i: Some(i), v } => {
                    primary
                        .store
                        .vec_set_at(StateId::from_u32(*c), *i, v)
                        .ok_or_else(|| {
                            OffloadError::State(format!("journal: state {c} is not a vector"))
                        })?;
                }
            }
        }
        Ok(())
    }

    /// Removes the journal (a clean stop: nothing to recover).
    pub fn remove(self) -> Result<(), OffloadError> {
        let path = self.path.clone();
        drop(self);
        std::fs::remove_file(&path)
            .map_err(|e| OffloadError::State(format!("journal {}: {e}", path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_a_torn_tail_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("j");
        let (mut j, r) = Journal::open(&p, "abc").unwrap();
        assert!(r.records.is_empty());
        let recs = vec![
            Record::Map {
                m: 1,
                k: vec![1, 2],
                v: Some(vec![3]),
                t: 9,
            },
            Record::Map {
                m: 1,
                k: vec![4, 5],
                v: None,
                t: 0,
            },
            Record::Cell {
                c: 2,
                i: None,
                v: vec![7],
            },
            Record::Cell {
                c: 3,
                i: Some(4),
                v: vec![1, 2],
            },
        ];
        j.append(&recs).unwrap();
        drop(j);
        // a kill in the middle of the next write
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"{\"m\":1,\"k\":[9").unwrap();
        drop(f);
        let (mut j, r) = Journal::open(&p, "abc").unwrap();
        assert_eq!(r.records, recs);
        assert!(r.torn_tail);
        j.append(&recs[..1]).unwrap();
        drop(j);
        let (_, r) = Journal::open(&p, "abc").unwrap();
        assert_eq!(r.records.len(), 5);
        // another compilation's journal is refused, with the way out
        let e = Journal::open(&p, "other").unwrap_err().to_string();
        assert!(e.contains("remove it"), "{e}");
    }
}
