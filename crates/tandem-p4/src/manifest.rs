//! The manifest: what the runtime needs to drive the generated switch program — the P4Info of
//! the program (ids and layouts of tables, actions, registers) plus the mapping from NF state
//! to switch objects and the transfer-header layout. Serialised as `manifest.json`
//! (documented in `docs/manifest-format.md`; bump [`MANIFEST_VERSION`] on any change).

use serde::{Deserialize, Serialize};

/// The `manifest.json` format version.
pub const MANIFEST_VERSION: u32 = 8;

/// The transfer header's tag of a frame the server runs whole (`TransferHeader::tag_whole`).
pub const TAG_WHOLE: u8 = 3;

/// P4Runtime id prefixes (`p4/config/v1/p4types.proto`, `P4Ids.Prefix`).
pub const PREFIX_ACTION: u32 = 0x01;
/// Tables.
pub const PREFIX_TABLE: u32 = 0x02;
/// Meters.
pub const PREFIX_METER: u32 = 0x14;
/// Registers.
pub const PREFIX_REGISTER: u32 = 0x16;

/// The id of the `n`-th object (from 1) of a kind: the prefix in the top byte.
pub fn object_id(prefix: u32, n: u32) -> u32 {
    (prefix << 24) | n
}

/// One match key field of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyField {
    /// Key field id (from 1, in order).
    pub id: u32,
    /// The key expression in the program (`meta.map_k0`).
    pub name: String,
    /// The NF layout field it holds.
    pub field: String,
    /// Width in bits.
    pub bits: u32,
    /// `exact`.
    pub match_kind: String,
}

/// One action parameter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionParam {
    /// Parameter id (from 1, in order).
    pub id: u32,
    /// Name in the program.
    pub name: String,
    /// The NF layout field it holds.
    pub field: String,
    /// Width in bits.
    pub bits: u32,
}

/// An action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    /// P4Runtime-style id.
    pub id: u32,
    /// Qualified name (`TandemIngress.map_hit`).
    pub name: String,
    /// Parameters (action data), in order.
    pub params: Vec<ActionParam>,
}

/// What a table is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableRole {
    /// The switch copy of a map: one entry per NF map entry.
    Main,
    /// The write-back table of a replicated map (atomic update, Gallium §4.3.3): consulted
    /// before the main table while the visibility flag is set.
    WriteBack,
    /// The collision table of a map in hash-indexed registers: the full key → the way and
    /// slot the server chose for it (`StateMap::hashed`).
    Collision,
    /// The first level of an LPM map lowered to ALPM (`StateMap::alpm`): ternary pivots over
    /// the key → a bucket id and the pivot's cover value.
    AlpmPivot,
    /// The second level of an ALPM map: exact on the bucket id, then the map's own key
    /// (exact fields, the prefix-matched field) → the value.
    AlpmBucket,
    /// The conflict table of a map held as key digests (`StateMap::digest`): the full key of
    /// every key sharing its digest with another held key → the value.
    DigestConflict,
    /// The main table of a map held as key digests: exact on the key's 32-bit digest → the
    /// value.
    Digest,
    /// A table two maps share, an IPv4 and an IPv6 one (`StateMap::pool`,
    /// `tandem_partition::pool`): keyed by the family tag, the IPv6 map's other key fields and
    /// the 128-bit address → the value; its `state` names both (`routes4+routes6`).
    Pooled,
}

/// A match-action table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// P4Runtime-style id.
    pub id: u32,
    /// Qualified name (`TandemIngress.map`), as the switch control API names it.
    pub name: String,
    /// The NF state object it holds.
    pub state: String,
    /// Main copy or write-back table.
    pub role: TableRole,
    /// The plan statement (map lookup) this copy serves.
    pub statement: u32,
    /// Match keys, in the NF key layout's order.
    pub keys: Vec<KeyField>,
    /// The action an entry uses, its data the NF value layout.
    pub hit_action: Action,
    /// For write-back tables: the action marking a deleted key (no data).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delete_action: Option<Action>,
    /// The default action (a miss).
    pub default_action: Action,
    /// Entries.
    pub size: u64,
    /// Entries age out (expiring map); the idle timeout of the NF map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_timeout_ns: Option<u64>,
}

/// A register array.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Register {
    /// P4Runtime-style id.
    pub id: u32,
    /// Qualified name (`TandemIngress.out_port`).
    pub name: String,
    /// The NF state object it holds (empty for Tandem's own registers).
    pub state: String,
    /// The layout field (vectors; `null` for scalars and Tandem's registers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Element width.
    pub bits: u32,
    /// Elements.
    pub size: u64,
}

/// A meter array (v1model `meter`, TNA `Meter`): two-rate three-colour markers whose rates
/// the runtime sets from the NF's `configure()` (P4Runtime `MeterEntry`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meter {
    /// P4Runtime-style id.
    pub id: u32,
    /// Qualified name (`TandemIngress.limits`).
    pub name: String,
    /// The NF meter state it holds.
    pub state: String,
    /// `bytes` or `packets`.
    pub unit: String,
    /// Meters in the array.
    pub size: u64,
}

/// The meter on server-bound packets (`--server-rate`, `lower/server_meter.rs`): the runtime
/// configures index 0 of `meter` with committed and peak rate `pps` and both bursts `burst`
/// (packets), and reads index 0 of `counter` (packets) for the packets it dropped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerMeter {
    /// Qualified name of the meter array (one packet meter).
    pub meter: String,
    /// Qualified name of the counter of metered drops (one packet counter).
    pub counter: String,
    /// Packets per second.
    pub pps: u64,
    /// Burst, packets.
    pub burst: u64,
}

/// Where one NF state object lives on the switch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateMap {
    /// The state object.
    pub name: String,
    /// `hashmap`, `expiring_map`, `vector`, `scalar`.
    pub kind: String,
    /// The plan's placement (`server`, `switch_table`, `switch_register`, `replicated`).
    pub placement: String,
    /// Tables holding it (every copy gets every entry).
    pub tables: Vec<String>,
    /// Its write-back tables (replicated maps).
    pub write_back_tables: Vec<String>,
    /// Registers holding it (one per layout field for vectors).
    pub registers: Vec<String>,
    /// The meter array holding it (meters); absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub meters: Vec<String>,
    /// A partial map: the switch table holds a hot subset of the entries; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<PartialMap>,
    /// A map in hash-indexed registers instead of a main table; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hashed: Option<HashedMap>,
    /// An LPM map held as ALPM (a pivot table and a bucket table) instead of one LPM table;
    /// absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpm: Option<AlpmMap>,
    /// An exact map held as key digests (a conflict table and a digest table) instead of one
    /// exact table; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<DigestMap>,
    /// One of an IPv4 and an IPv6 map pooled into shared tables; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<PoolMap>,
}

/// How the switch holds a map pooled with another (`tandem_partition::pool`, Sailfish §4.4):
/// some of its lookups read shared tables (`TableRole::Pooled`) holding both maps' entries;
/// the runtime writes its entries there through `tandem_partition::pool::PoolShape::entry`
/// (the shape follows from the two maps' layouts in the IR), besides its own `tables`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolMap {
    /// The other map.
    pub with: String,
    /// The shared tables, one per pooled pair of lookups.
    pub tables: Vec<String>,
}

/// How the switch holds an exact map as key digests (`tandem_partition::digest`, Sailfish
/// §4.4): the runtime places each key with `tandem_partition::digest::home_of`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigestMap {
    /// The conflict tables (`TableRole::DigestConflict`), one per switch lookup.
    pub conflict_tables: Vec<String>,
    /// The digest tables (`TableRole::Digest`), in the same order.
    pub digest_tables: Vec<String>,
}

/// How the switch holds an LPM map as ALPM (`tandem_partition::alpm`, Sailfish §4.4): the
/// runtime builds the two levels from the map's entries with
/// `tandem_partition::alpm::lower_entries` at this bucket depth.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlpmMap {
    /// Prefixes per bucket (at most).
    pub depth: u32,
    /// The pivot tables (`TableRole::AlpmPivot`), one per switch lookup.
    pub pivot_tables: Vec<String>,
    /// The bucket tables (`TableRole::AlpmBucket`), in the same order.
    pub bucket_tables: Vec<String>,
}

/// How the switch holds a map in hash-indexed registers (`tandem_partition::hashed`,
/// docs/hashed-storage.md): way `w`'s candidate slot is the low bits of `crc32` over the
/// key's bytes (each field big-endian at its width rounded up to bytes) rotated left by
/// `w * ceil(len / ways)` bytes; the fingerprint is the top `fingerprint_bits` of `crc32`
/// over the bytes reversed (0 replaced by 1). A cell holds `fingerprint ++ value` (the value
/// fields packed first-highest), 0 when empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashedMap {
    /// Register arrays, read in order.
    pub ways: u32,
    /// Cells per register array (a power of two).
    pub slots_per_way: u64,
    /// Fingerprint bits.
    pub fingerprint_bits: u32,
    /// Bits of a register cell (of a 32-bit word holding `slots_per_word` packed slots).
    pub cell_bits: u32,
    /// Slots packed to a register word (1: a cell per slot). Slot `s` is bits `[(s % k)·b,
    /// (s % k)·b + b)` of word `s / k` (`b` = fingerprint + value bits); the registers hold
    /// `slots_per_way / k` words (`tandem_partition::hashed::HashedLayout::packed`).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub slots_per_word: u64,
    /// The register array of each way.
    pub registers: Vec<String>,
    /// The collision table (`TableRole::Collision`).
    pub collision_table: String,
    /// Its entries.
    pub collision_entries: u64,
    /// When the map (or the map it is the derived class map of) expires: per way, the
    /// register array holding each slot's last-hit time, written by every lookup that hits
    /// the slot (docs/hashed-storage.md, ageing). Empty otherwise, and in manifests written
    /// before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hit_time_registers: Vec<String>,
    /// Nanoseconds per unit of a hit time (v1model: 1,000, the µs of
    /// `ingress_global_timestamp`; TNA: 1,024, `global_tstamp[41:10]`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hit_time_unit_ns: u64,
    /// Bits of a hit time: it wraps around at `2^bits` units (v1model: 48; TNA: 32).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub hit_time_bits: u32,
    /// The largest age (in hit-time units, modular) at which the switch still answers a key:
    /// a slot whose hit time is older is stale and the packet goes to the server whole
    /// (`tandem_p4::lower::hashed`, `switch_ttl_units`). 0 when the map does not age.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hit_time_ttl_units: u64,
}

fn one() -> u64 {
    1
}

fn is_one(v: &u64) -> bool {
    *v == 1
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

/// How the switch holds a partial map (the plan's `states[].partial`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartialMap {
    /// Entries the main table holds.
    pub switch_entries: u64,
    /// The count-min sketch's register arrays, one per row (32-bit counters).
    pub sketch: Vec<String>,
    /// Counters per row (a power of two).
    pub sketch_width: u64,
    /// The hash of each row: over the row number (8 bits) then the key fields at their
    /// widths, big-endian (`crc32`), modulo `sketch_width`.
    pub sketch_hash: String,
    /// Whether the switch program itself sends a packet whose lookup misses the table to the
    /// server, whole (the original frame under a transfer header tagged
    /// `transfer_header.tag_whole`): the runtime need not probe packets for this map. False
    /// when pre changes the packet or state before the lookup (the server could not run the
    /// packet from the start): the runtime probes each packet instead.
    #[serde(default)]
    pub miss_to_server: bool,
    /// The direct counters of the map's main tables (`lower/hits.rs`): one packet count per
    /// entry, incremented by every lookup that hits it (`--hotness counters`). Absent in
    /// manifests written before them (the runtime then has the sketch only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hit_counters: Vec<HitCounter>,
}

/// A table's direct counter (per-entry hit counts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitCounter {
    /// The table (qualified name, as `tables`).
    pub table: String,
    /// Its direct counter (qualified name).
    pub counter: String,
}

/// One field of the transfer header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderField {
    /// Name in `hdr.tandem`.
    pub name: String,
    /// Bit offset from the start of the header (big-endian bit order).
    pub offset: u32,
    /// Width.
    pub bits: u32,
    /// The cut value carried (`v7`, `meta.in_port`, `fate`), `null` for `tag`,
    /// `orig_ethertype` and `pad`.
    pub value: Option<String>,
    /// Written by (`pre`, `server`).
    pub from: Option<String>,
    /// Read by.
    pub to: Vec<String>,
}

/// The transfer header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransferHeader {
    /// EtherType announcing it.
    pub ethertype: String,
    /// Bytes (0: no header, nothing runs on the server).
    pub bytes: u32,
    /// `tag` switch → server.
    pub tag_to_server: u8,
    /// `tag` server → switch.
    pub tag_to_post: u8,
    /// `tag` switch → server for a packet the server runs whole from the start: the frame is
    /// the packet as it arrived, the other fields are zero (a partial map's miss,
    /// `states[].partial.miss_to_server`). Absent when the program sends none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_whole: Option<u8>,
    /// Fields in order.
    pub fields: Vec<HeaderField>,
}

/// The manifest of one generated switch program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_VERSION`].
    pub version: u32,
    /// The NF.
    pub nf: String,
    /// `v1model`.
    pub arch: String,
    /// The plan's target profile.
    pub target: String,
    /// The plan's `ir_digest`.
    pub ir_digest: String,
    /// The port the server is attached to.
    pub server_port: u16,
    /// Ingress control name (qualifies table, action and register names).
    pub control: String,
    /// The transfer header.
    pub transfer_header: TransferHeader,
    /// Tables.
    pub tables: Vec<Table>,
    /// Registers.
    pub registers: Vec<Register>,
    /// Meter arrays; absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub meters: Vec<Meter>,
    /// `--server-rate`: the meter on server-bound packets and the counter of the packets
    /// it dropped; absent without the option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_meter: Option<ServerMeter>,
    /// The visibility-flag register of atomic update (index 0, 1 bit), when any table has a
    /// write-back table.
    pub visibility_flag: Option<String>,
    /// NF state → switch objects, in declaration order.
    pub states: Vec<StateMap>,
    /// `P4Options::dispatch`: pre picks the server of a cluster (CLIP §III-B/D); absent
    /// without the option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<Dispatch>,
    /// Pipeline folding (TNA on a folded profile, `crate::fold`): the pipe-1 port that
    /// ingress 0 sends every packet to and the switch loops back into pipe 1's ingress;
    /// absent when the program is one pipe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fold_port: Option<u16>,
    /// Pipeline folding: the metadata each gress boundary carries, with its bytes; absent
    /// when the program is one pipe.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fold_bridges: Vec<crate::fold::Bridge>,
}

/// How the generated pre picks a cluster's server (`docs/cluster.md`): the flow is the
/// packet's two endpoints `(ipv4.saddr, sport)`, `(ipv4.daddr, dport)` (TCP's ports, else
/// UDP's, absent fields 0), smaller first; `slot` = `crc32(flow) % slots`; Bloom bit `i` =
/// `crc32(8w i, flow) % bloom_bits`. A pinned flow goes to its pin; else a flow whose bits
/// are all set in the old filter (and the old group is live) goes to the old group's slot
/// entry, any other to the current group's; its bits are set in the current filter. The
/// server id travels in transfer-header field `server_field`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dispatch {
    /// Transfer-header field carrying the server id (8 bits).
    pub server_field: String,
    /// Slot-table entries per group (a power of two).
    pub slots: u32,
    /// Bits per Bloom filter (a power of two).
    pub bloom_bits: u32,
    /// Hash functions per Bloom filter.
    pub bloom_hashes: u32,
    /// Register (1 cell, 1 bit): the current group, 0 or 1.
    pub cur: String,
    /// Register (1 cell, 1 bit): 1 when the old group is in use (after the first change).
    pub old_live: String,
    /// Registers of the two groups' slot tables (`slots` cells of 8 bits: a server id).
    pub groups: Vec<String>,
    /// Bloom filter registers, `[filter][hash]`, each `bloom_bits` cells of 1 bit.
    pub bloom: Vec<Vec<String>>,
    /// The pin table: exact on the flow (`a0`, `p0`, `a1`, `p1`), action `pin_action(server)`.
    pub pins: String,
    /// The pin table's action.
    pub pin_action: String,
    /// The pin table's size.
    pub pin_size: u64,
}

impl Manifest {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The program's P4Info in the text format of p4runtime's `p4/config/v1/p4info.proto`
    /// (tables, actions, registers; ids as in this manifest).
    pub fn to_p4info_text(&self) -> String {
        use std::fmt::Write as _;
        let mut o = String::new();
        let alias = |n: &str| n.rsplit('.').next().unwrap_or(n).to_string();
        let preamble = |o: &mut String, id: u32, name: &str| {
            let _ = writeln!(
                o,
                "  preamble {{\n    id: {id}\n    name: \"{name}\"\n    alias: \"{}\"\n  }}",
                alias(name)
            );
        };
        let _ = writeln!(o, "pkg_info {{\n  arch: \"{}\"\n}}", self.arch);
        let mut actions: Vec<&Action> = Vec::new();
        for t in &self.tables {
            o.push_str("tables {\n");
            preamble(&mut o, t.id, &t.name);
            for k in &t.keys {
                let _ = writeln!(
                    o,
                    "  match_fields {{\n    id: {}\n    name: \"{}\"\n    bitwidth: {}\n    match_type: {}\n  }}",
                    k.id,
                    k.name,
                    k.bits,
                    // P4Runtime's MatchField.MatchType names (p4info.proto).
                    k.match_kind.to_ascii_uppercase()
                );
            }
            let table_actions = [
                Some(&t.hit_action),
                t.delete_action.as_ref(),
                Some(&t.default_action),
            ];
            for a in table_actions.into_iter().flatten() {
                let _ = writeln!(o, "  action_refs {{\n    id: {}\n  }}", a.id);
                actions.push(a);
            }
            let _ = writeln!(o, "  size: {}", t.size);
            if t.idle_timeout_ns.is_some() {
                o.push_str("  idle_timeout_behavior: NOTIFY_CONTROL\n");
            }
            o.push_str("}\n");
        }
        for a in actions {
            o.push_str("actions {\n");
            preamble(&mut o, a.id, &a.name);
            for p in &a.params {
                let _ = writeln!(
                    o,
                    "  params {{\n    id: {}\n    name: \"{}\"\n    bitwidth: {}\n  }}",
                    p.id, p.name, p.bits
                );
            }
            o.push_str("}\n");
        }
        for r in &self.registers {
            o.push_str("registers {\n");
            preamble(&mut o, r.id, &r.name);
            let _ = writeln!(
                o,
                "  type_spec {{\n    bitstring {{\n      bit {{\n        bitwidth: {}\n      }}\n    }}\n  }}\n  size: {}",
                r.bits, r.size
            );
            o.push_str("}\n");
        }
        for m in &self.meters {
            o.push_str("meters {\n");
            preamble(&mut o, m.id, &m.name);
            let _ = writeln!(
                o,
                "  spec {{\n    unit: {}\n  }}\n  size: {}",
                m.unit.to_ascii_uppercase(),
                m.size
            );
            o.push_str("}\n");
        }
        o
    }

    /// Reads a manifest, checking the version.
    pub fn from_json(text: &str) -> Result<Manifest, String> {
        let m: Manifest = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if m.version != MANIFEST_VERSION {
            return Err(format!(
                "manifest version {} (this Tandem reads version {MANIFEST_VERSION})",
                m.version
            ));
        }
        Ok(m)
    }
}
