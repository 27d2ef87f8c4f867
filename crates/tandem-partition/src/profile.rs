//! Target profiles: what a switch can express and how much of each resource it has, as data
//! (`targets/*.toml` at the repository root; the built-in ones are embedded in the binary).
//!
//! Every key is required (a profile says what it means); a resource given as the string
//! `"unbounded"` has no limit. Unknown keys are errors. See `docs/plan-format.md` for the
//! meaning of each key.

use std::collections::BTreeSet;
use thiserror::Error;

/// A profile file that cannot be used: which file, which key, and why.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{file}: key `{key}`: {reason}")]
pub struct ProfileError {
    /// The file (or built-in profile) name.
    pub file: String,
    /// The offending key (`-` when the file is not valid TOML).
    pub key: String,
    /// What is wrong.
    pub reason: String,
}

/// Table match kinds a target offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchKind {
    /// Exact match (hash tables).
    Exact,
    /// Ternary (TCAM).
    Ternary,
    /// Longest-prefix match.
    Lpm,
    /// Range match.
    Range,
}

impl MatchKind {
    const ALL: [(&'static str, MatchKind); 4] = [
        ("exact", MatchKind::Exact),
        ("ternary", MatchKind::Ternary),
        ("lpm", MatchKind::Lpm),
        ("range", MatchKind::Range),
    ];
}

/// The operation classes a profile may list under `ops`.
/// `hash_mod`: a hash reduced modulo any constant in the hash extern itself (v1model's
/// `hash(out, algo, base, data, max)`; `tandem_ir::hash_mod`).
pub const OP_NAMES: [&str; 27] = [
    "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "and", "or", "xor", "shl", "lshr", "ashr",
    "icmp", "select", "cast", "bswap", "hash", "hash_mod", "hdr", "meta", "table", "register",
    "meter", "branch", "send", "drop",
];

/// How many pipeline stages one statement of each class occupies on a dependency chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageCosts {
    /// Arithmetic and bitwise operations.
    pub alu: u32,
    /// `and` with a low mask, shifts by a multiple of 8 (bit slices).
    pub slice: u32,
    /// Operations on `i1` values (gateway conditions).
    pub boolean: u32,
    /// `icmp`.
    pub compare: u32,
    /// `select`.
    pub select: u32,
    /// Casts, byte swaps, header and metadata reads, header writes, joins, branches, fate.
    pub moves: u32,
    /// A map lookup (a table).
    pub table: u32,
    /// A register read or read-modify-write.
    pub register: u32,
    /// Arithmetic lifted from the NF API's checksum helpers (`tandem/net.hh`), which a
    /// target with a checksum engine does in the deparser.
    pub checksum: u32,
}

/// A switch target: expressiveness and resources. `None` limits are unbounded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetProfile {
    /// Short name (`tofino1`).
    pub name: String,
    /// One line of description.
    pub description: String,
    /// Match-action stages per pipeline (the pre partition runs in ingress and the post
    /// partition in egress; each has this many).
    pub stages: Option<u32>,
    /// Independent pipelines (pipes) of the chip, each with the per-stage memory below
    /// (Tofino: 2 or 4). Partitioning uses one; table compression ([`crate::compress`])
    /// folds and splits tables across them.
    pub pipelines: u32,
    /// The profile is one folded path of a multi-pipeline chip ([`TargetProfile::folded`]):
    /// `stages` and `pipelines` already count the folding.
    pub folded: bool,
    /// SRAM blocks per stage.
    pub sram_blocks_per_stage: Option<u32>,
    /// Bits per SRAM block.
    pub sram_block_bits: u64,
    /// TCAM blocks per stage.
    pub tcam_blocks_per_stage: Option<u32>,
    /// Logical tables per stage.
    pub tables_per_stage: Option<u32>,
    /// Stateful ALUs (register accesses) per stage. A meter array the switch executes takes
    /// one too (Tofino's meter ALUs are its stateful ALUs).
    pub stateful_alus_per_stage: Option<u32>,
    /// SRAM bits one meter (rates and bucket state) occupies.
    pub meter_cell_bits: u64,
    /// Per-packet metadata bytes (temporaries) per pipeline.
    pub metadata_bytes: Option<u32>,
    /// Transfer-header bytes between switch and server (Gallium: 20).
    pub transfer_header_bytes: Option<u32>,
    /// Widest ALU operation in bits.
    pub max_alu_bits: u32,
    /// Tables can age entries out (expiring maps can be looked up on the switch).
    pub ageing: bool,
    /// The switch program can read the frame's length (`pkt.length()`): v1model has
    /// `standard_metadata.packet_length`, TNA's ingress intrinsic metadata has no length.
    /// Not a file key: the P4 architecture decides it (`tandem_p4::Arch::constrain` clears
    /// it for TNA), the chip's resources do not.
    pub frame_length: bool,
    /// A map that the switch only reads may be looked up more than once (one table copy per
    /// lookup); otherwise each state object is accessed at most once on the switch.
    pub duplicate_readonly_tables: bool,
    /// Match kinds.
    pub match_kinds: BTreeSet<MatchKind>,
    /// Supported operation classes (see [`OP_NAMES`]).
    pub ops: BTreeSet<String>,
    /// Stage costs for the dependency-chain constraint.
    pub stage_costs: StageCosts,
}

const BUILTIN: [(&str, &str); 4] = [
    ("tofino1", include_str!("../../../targets/tofino1.toml")),
    ("tofino2", include_str!("../../../targets/tofino2.toml")),
    ("bmv2", include_str!("../../../targets/bmv2.toml")),
    ("tiny", include_str!("../../../targets/tiny.toml")),
];

impl TargetProfile {
    /// The names of the built-in profiles.
    pub fn builtin_names() -> Vec<&'static str> {
        BUILTIN.iter().map(|(n, _)| *n).collect()
    }

    /// A built-in profile by name (`tofino1`, `tofino2`, `bmv2`, `tiny`).
    pub fn builtin(name: &str) -> Option<TargetProfile> {
        let (_, text) = BUILTIN.iter().find(|(n, _)| *n == name)?;
        // The embedded profiles are tested to parse.
        parse_profile(&format!("targets/{name}.toml"), text).ok()
    }

    /// One folded path of the chip (Sailfish §4.4, pipeline folding): ingress 0 → egress 1
    /// runs the pre partition and ingress 1 → egress 0 the post partition, so each has two
    /// gresses' stages (and their memory), and a path takes two pipes (half the ports carry
    /// traffic: half the throughput). The stage chain, the memory and the table budgets the
    /// partitioner checks double; the transfer header and metadata limits stay (metadata is
    /// bridged between the two gresses of a partition). `None` with fewer than two
    /// pipelines, unbounded stages, or an already folded profile.
    ///
    /// ```text
    /// tofino1:         stages 12, pipelines 4: xgw's IPv4 path ends 13 stages in -> server
    /// tofino1:folded:  stages 24, pipelines 2: the IPv4 path stays on the switch
    /// ```
    pub fn folded(&self) -> Option<TargetProfile> {
        if self.folded || self.pipelines < 2 {
            return None;
        }
        let mut p = self.clone();
        p.stages = Some(self.stages? * 2);
        p.pipelines = self.pipelines / 2;
        p.folded = true;
        p.name = format!("{}:folded", self.name);
        p.description = format!(
            "{} — folded: ingress 0 -> egress 1 -> ingress 1 -> egress 0, half the throughput",
            self.description
        );
        Some(p)
    }

    /// Does the target support the operation class `op`?
    pub fn supports(&self, op: &str) -> bool {
        self.ops.contains(op)
    }

    /// Total TCAM blocks (`stages × tcam_blocks_per_stage`), `None` when unbounded.
    pub fn total_tcam_blocks(&self) -> Option<u64> {
        Some(u64::from(self.stages?) * u64::from(self.tcam_blocks_per_stage?))
    }

    /// Total SRAM blocks, if bounded.
    pub fn total_sram_blocks(&self) -> Option<u64> {
        Some(u64::from(self.stages?) * u64::from(self.sram_blocks_per_stage?))
    }

    /// Total logical tables, if bounded.
    pub fn total_tables(&self) -> Option<u64> {
        Some(u64::from(self.stages?) * u64::from(self.tables_per_stage?))
    }

    /// Total stateful ALUs, if bounded.
    pub fn total_salus(&self) -> Option<u64> {
        Some(u64::from(self.stages?) * u64::from(self.stateful_alus_per_stage?))
    }
}

struct Reader<'a> {
    file: &'a str,
    table: toml::Table,
    used: BTreeSet<String>,
}

impl<'a> Reader<'a> {
    fn err(&self, key: &str, reason: impl Into<String>) -> ProfileError {
        ProfileError {
            file: self.file.to_string(),
            key: key.to_string(),
            reason: reason.into(),
        }
    }

    fn get(&mut self, key: &str) -> Result<toml::Value, ProfileError> {
        self.used.insert(key.to_string());
        self.table
            .get(key)
            .cloned()
            .ok_or_else(|| self.err(key, "missing (every key is required)"))
    }

    fn string(&mut self, key: &str) -> Result<String, ProfileError> {
        match self.get(key)? {
            toml::Value::String(s) => Ok(s),
            v => Err(self.err(key, format!("expected a string, found {}", v.type_str()))),
        }
    }

    fn bool(&mut self, key: &str) -> Result<bool, ProfileError> {
        match self.get(key)? {
            toml::Value::Boolean(b) => Ok(b),
            v => Err(self.err(
                key,
                format!("expected true or false, found {}", v.type_str()),
            )),
        }
    }

    fn positive(&self, key: &str, v: &toml::Value, max: i64) -> Result<u64, ProfileError> {
        match v {
            toml::Value::Integer(i) if *i >= 1 && *i <= max => Ok(*i as u64),
            toml::Value::Integer(i) => Err(self.err(
                key,
                format!("expected an integer from 1 to {max}, found {i}"),
            )),
            v => Err(self.err(
                key,
                format!("expected a positive integer, found {}", v.type_str()),
            )),
        }
    }

    fn int(&mut self, key: &str, max: i64) -> Result<u64, ProfileError> {
        let v = self.get(key)?;
        self.positive(key, &v, max)
    }

    fn limit(&mut self, key: &str) -> Result<Option<u32>, ProfileError> {
        let v = self.get(key)?;
        match &v {
            toml::Value::String(s) if s == "unbounded" => Ok(None),
            toml::Value::String(s) => Err(self.err(
                key,
                format!("expected a positive integer or \"unbounded\", found \"{s}\""),
            )),
            _ => self
                .positive(key, &v, i64::from(u32::MAX))
                .map(|n| Some(n as u32)),
        }
    }

    fn strings(&mut self, key: &str, allowed: &[&str]) -> Result<BTreeSet<String>, ProfileError> {
        let v = self.get(key)?;
        let toml::Value::Array(items) = v else {
            return Err(self.err(
                key,
                format!("expected an array of strings, found {}", v.type_str()),
            ));
        };
        let mut out = BTreeSet::new();
        for item in items {
            match item {
                toml::Value::String(s) if allowed.contains(&s.as_str()) => {
                    out.insert(s);
                }
                toml::Value::String(s) => {
                    return Err(self.err(
                        key,
                        format!("unknown entry \"{s}\" (known: {})", allowed.join(", ")),
                    ))
                }
                other => {
                    return Err(
                        self.err(key, format!("expected strings, found {}", other.type_str()))
                    )
                }
            }
        }
        Ok(out)
    }
}

/// Parses a profile from TOML text; `file` names it in errors.
pub fn parse_profile(file: &str, text: &str) -> Result<TargetProfile, ProfileError> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| ProfileError {
        file: file.to_string(),
        key: "-".to_string(),
        reason: format!("not valid TOML: {}", e.message()),
    })?;
    let mut r = Reader {
        file,
        table,
        used: BTreeSet::new(),
    };
    let kinds: Vec<&str> = MatchKind::ALL.iter().map(|(n, _)| *n).collect();
    let match_kinds = r
        .strings("match_kinds", &kinds)?
        .iter()
        .filter_map(|s| MatchKind::ALL.iter().find(|(n, _)| n == s).map(|(_, k)| *k))
        .collect();
    let costs = match r.get("stage_costs")? {
        toml::Value::Table(t) => t,
        v => {
            return Err(r.err(
                "stage_costs",
                format!("expected a table, found {}", v.type_str()),
            ))
        }
    };
    let mut cr = Reader {
        file,
        table: costs,
        used: BTreeSet::new(),
    };
    let mut cost = |k: &str| -> Result<u32, ProfileError> {
        let v = cr.get(k).map_err(|e| ProfileError {
            key: format!("stage_costs.{k}"),
            ..e
        })?;
        match v {
            toml::Value::Integer(i) if (0..=64).contains(&i) => Ok(i as u32),
            v => Err(ProfileError {
                file: file.to_string(),
                key: format!("stage_costs.{k}"),
                reason: format!("expected an integer from 0 to 64, found {v}"),
            }),
        }
    };
    let stage_costs = StageCosts {
        alu: cost("alu")?,
        slice: cost("slice")?,
        boolean: cost("boolean")?,
        compare: cost("compare")?,
        select: cost("select")?,
        moves: cost("move")?,
        table: cost("table")?,
        register: cost("register")?,
        checksum: cost("checksum")?,
    };
    if let Some(k) = cr.table.keys().find(|k| !cr.used.contains(*k)) {
        return Err(ProfileError {
            file: file.to_string(),
            key: format!("stage_costs.{k}"),
            reason: "unknown key".into(),
        });
    }
    let p = TargetProfile {
        name: r.string("name")?,
        description: r.string("description")?,
        stages: r.limit("stages")?,
        pipelines: r.int("pipelines", 64)? as u32,
        folded: false,
        sram_blocks_per_stage: r.limit("sram_blocks_per_stage")?,
        sram_block_bits: r.int("sram_block_bits", 1 << 40)?,
        tcam_blocks_per_stage: r.limit("tcam_blocks_per_stage")?,
        tables_per_stage: r.limit("tables_per_stage")?,
        stateful_alus_per_stage: r.limit("stateful_alus_per_stage")?,
        meter_cell_bits: r.int("meter_cell_bits", 1 << 20)?,
        metadata_bytes: r.limit("metadata_bytes")?,
        transfer_header_bytes: r.limit("transfer_header_bytes")?,
        max_alu_bits: r.int("max_alu_bits", 64)? as u32,
        ageing: r.bool("ageing")?,
        frame_length: true,
        duplicate_readonly_tables: r.bool("duplicate_readonly_tables")?,
        match_kinds,
        ops: r.strings("ops", &OP_NAMES)?,
        stage_costs,
    };
    if p.name.is_empty()
        || !p
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(r.err("name", "expected an identifier (letters, digits, _)"));
    }
    if let Some(k) = r.table.keys().find(|k| !r.used.contains(*k)) {
        return Err(r.err(k, "unknown key"));
    }
    Ok(p)
}
