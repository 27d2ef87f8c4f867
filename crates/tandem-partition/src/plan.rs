//! The Plan: where every statement runs, what crosses each cut, the transfer-header layout,
//! where each state object lives and how much of the switch it uses. Serialised as
//! `plan.json` (documented in `docs/plan-format.md`; bump [`PLAN_VERSION`] on any change).

use serde::{Deserialize, Serialize};

/// The `plan.json` format version.
pub const PLAN_VERSION: u32 = 3;

/// The EtherType of the transfer header (IEEE 802 local experimental).
pub const TRANSFER_ETHERTYPE: u16 = 0x88b5;

/// One of the three partitions, in execution order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Partition {
    /// On the switch, before the server (ingress).
    Pre,
    /// On the server.
    Server,
    /// On the switch, after the server (egress); every packet runs it.
    Post,
}

impl Partition {
    /// `pre`, `server` or `post`.
    pub fn name(self) -> &'static str {
        match self {
            Partition::Pre => "pre",
            Partition::Server => "server",
            Partition::Post => "post",
        }
    }
    /// Runs on the switch.
    pub fn on_switch(self) -> bool {
        self != Partition::Server
    }
}

/// Why a statement is not in pre (or not on the switch at all).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Why {
    /// Rule or constraint code: `unsupported`, `R1`..`R7`, `C1`..`C5`.
    pub rule: String,
    /// One sentence.
    pub reason: String,
    /// The statement the chain of label removals started from.
    pub origin: u32,
    /// Its text.
    pub origin_text: String,
    /// Its C++ position (`file:line`), when known.
    pub origin_loc: Option<String>,
    /// The neighbouring statement the removal came through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<u32>,
}

/// One statement's placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanStmt {
    /// Statement number (`sN`), in program order.
    pub id: u32,
    /// Block number.
    pub block: u32,
    /// Index of the instruction in its block, or `null` for a block parameter.
    pub index: Option<u32>,
    /// Parameter number for a block parameter, else `null`.
    pub param: Option<u32>,
    /// IR text (`v7:i32 = xor v6, v4`, or `block4(v25:i32)` for a parameter).
    pub text: String,
    /// C++ position (`file:line:col`), when known.
    pub loc: Option<String>,
    /// Where it runs.
    pub partition: Partition,
    /// Stages it occupies on a dependency chain (switch cost model).
    pub stage_cost: u32,
    /// For `server`: why not on the switch (the reason `pre` was lost, else why `post` was).
    /// For `post`: why not in `pre`. `null` for `pre`.
    pub why: Option<Why>,
    /// For `server` statements: why not `post`, when it differs from `why`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why_not_post: Option<Why>,
}

/// A value that crosses a cut.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutValue {
    /// The SSA value (`v7`); `meta.in_port` for packet metadata read outside `pre`; `fate`
    /// for the packet's fate (17 bits: bit 16 = send, bits 0..16 = port; 0 = drop) when a
    /// `send`/`drop` before post may be followed by a visit to the server.
    pub value: String,
    /// Width in bits.
    pub bits: u32,
    /// The defining statement (`null` for metadata and fate).
    pub def: Option<u32>,
    /// Carried in the transfer header. A pre → post value used only on paths that never
    /// visit the server stays inside the switch (bridged metadata) and is not.
    pub in_header: bool,
}

/// The values live across each cut.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cuts {
    /// Defined in pre, used on the server.
    pub pre_to_server: Vec<CutValue>,
    /// Defined on the server, used in post.
    pub server_to_post: Vec<CutValue>,
    /// Defined in pre, used in post (inside the switch for packets that skip the server;
    /// carried through the server, unchanged, for the others).
    pub pre_to_post: Vec<CutValue>,
}

/// Values a partition recomputes instead of receiving (pure computations and header reads
/// whose inputs it has), in program order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Remat {
    /// Recomputed on the server.
    pub server: Vec<String>,
    /// Recomputed in post.
    pub post: Vec<String>,
}

/// The blocks whose branch each partition evaluates (its own branches and those deciding
/// whether its statements run); at other branches a partition continues at the immediate
/// post-dominator.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Follows {
    /// Pre.
    pub pre: Vec<u32>,
    /// Server.
    pub server: Vec<u32>,
    /// Post.
    pub post: Vec<u32>,
}

/// One field of the transfer header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderField {
    /// Field name (`tag`, `v7`, `meta_in_port`, `pad`).
    pub name: String,
    /// The value carried (`null` for `tag` and `pad`).
    pub value: Option<String>,
    /// Bit offset from the start of the header (big-endian bit order).
    pub offset: u32,
    /// Width in bits.
    pub bits: u32,
    /// The partition that writes it.
    pub from: Option<Partition>,
    /// The partitions that read it.
    pub to: Vec<Partition>,
}

/// The transfer header between switch and server (both directions share one layout).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransferHeader {
    /// EtherType announcing it (`0x88b5`); it sits between Ethernet and the original
    /// EtherType's payload, and carries the original EtherType in `orig_ethertype`.
    pub ethertype: String,
    /// Total bytes.
    pub bytes: u32,
    /// Tag values: the packet's direction.
    pub tag_to_server: u8,
    /// Tag for server → switch packets.
    pub tag_to_post: u8,
    /// Fields in order.
    pub fields: Vec<HeaderField>,
}

/// How a state object is realised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Only on the server.
    Server,
    /// A switch match-action table (entries from `configure` only, never written per packet).
    SwitchTable,
    /// A switch register (array): the switch reads and writes it; the server never does.
    SwitchRegister,
    /// Read on the switch (exact-match table or register), written only by the server,
    /// which keeps the primary copy and updates the switch (atomic update, output commit).
    Replicated,
}

/// One state object's placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatePlacement {
    /// Name.
    pub name: String,
    /// `hashmap`, `expiring_map`, `lpm_map`, `vector`, `scalar`.
    pub kind: String,
    /// Placement.
    pub placement: Placement,
    /// The switch partitions that access it.
    pub switch_partitions: Vec<Partition>,
    /// Switch access statements.
    pub switch_accesses: Vec<u32>,
    /// Server access statements.
    pub server_accesses: Vec<u32>,
    /// Table copies on the switch (maps; one per lookup when duplicates are allowed).
    pub copies: u32,
    /// SRAM blocks on the switch.
    pub sram_blocks: u64,
    /// TCAM blocks on the switch (LPM maps' prefixes; left out of the JSON when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tcam_blocks: u64,
    /// Entries age out on the switch (expiring maps).
    pub ageing: bool,
    /// Switch reads of this (replicated) state whose results server statements depend on.
    /// The switch copy may lag the server's primary copy while an update is in flight, so
    /// the server must re-check these reads against its copy before relying on them.
    pub revalidate: Vec<u32>,
    /// A partial replica ([`crate::partial`]): the server holds every entry, the switch a hot
    /// subset the runtime chooses. Absent for every other state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<PartialTable>,
    /// Held in hash-indexed registers because the exact table does not fit the profile's
    /// SRAM ([`crate::auto_hashed`]); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hashed: Option<crate::auto_hashed::AutoHashed>,
}

/// How a partial map is split between switch and server ([`crate::partial`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartialTable {
    /// Entries the switch table holds (the main table's size).
    pub switch_entries: u64,
    /// Rows of the count-min sketch counting the map's lookups on the switch (one hash each).
    pub sketch_rows: u32,
    /// Counters per row (a power of two).
    pub sketch_width: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// A resource's use and budget (`null` budget = unbounded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Use {
    /// Used.
    pub used: u64,
    /// Budget.
    pub budget: Option<u64>,
}

impl Use {
    /// Within budget.
    pub fn fits(&self) -> bool {
        self.budget.is_none_or(|b| self.used <= b)
    }

    /// Nothing used (such a `tcam_blocks` entry is left out of the JSON).
    pub fn unused(&self) -> bool {
        self.used == 0
    }
}

/// Resource use against the profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resources {
    /// Longest dependency chain of pre (stages, ingress).
    pub stages_pre: Use,
    /// Longest dependency chain of post (stages, egress).
    pub stages_post: Use,
    /// SRAM blocks.
    pub sram_blocks: Use,
    /// TCAM blocks (LPM tables); left out of the JSON when none is used.
    #[serde(default, skip_serializing_if = "Use::unused")]
    pub tcam_blocks: Use,
    /// Logical tables.
    pub tables: Use,
    /// Stateful ALUs (register objects).
    pub stateful_alus: Use,
    /// Peak per-packet metadata bytes in pre.
    pub metadata_pre: Use,
    /// Peak per-packet metadata bytes in post.
    pub metadata_post: Use,
    /// Transfer-header bytes.
    pub transfer_header: Use,
}

/// Statement counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// In pre.
    pub pre: u32,
    /// On the server.
    pub server: u32,
    /// In post.
    pub post: u32,
    /// Label removals made to satisfy the resource constraints (C1–C5).
    pub label_removals: u32,
    /// Statements some packet can execute without visiting the server: those in blocks
    /// reachable from the entry without passing a block that holds a server statement.
    pub fast_path: u32,
}

/// The partitioning of one NF for one target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// [`PLAN_VERSION`].
    pub version: u32,
    /// The NF's name.
    pub nf: String,
    /// The target profile's name.
    pub target: String,
    /// FNV-1a 64 of the canonical IR text the plan refers to (`fnv1a64:` + 16 hex digits).
    pub ir_digest: String,
    /// That IR text (the NF after any partitioning transformation such as
    /// [`crate::split_server_joins`]): back ends read the module from here.
    pub ir: String,
    /// Counts.
    pub summary: Summary,
    /// Every statement, in program order (`statements[i].id == i`).
    pub statements: Vec<PlanStmt>,
    /// Values across the cuts.
    pub cuts: Cuts,
    /// Recomputed values.
    pub remat: Remat,
    /// Branches each partition evaluates.
    pub follows: Follows,
    /// The transfer header.
    pub transfer_header: TransferHeader,
    /// State placement, in declaration order.
    pub states: Vec<StatePlacement>,
    /// Resource use.
    pub resources: Resources,
    /// Maps whose derived state classes the switch keeps
    /// ([`crate::specialize_state_classes`]); absent from `plan.json` when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state_classes: Vec<ClassPlacement>,
}

/// A map the switch keeps as classes: `NAME__class` holds the class index of each key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassPlacement {
    /// The map.
    pub map: String,
    /// The class map.
    pub class_map: String,
    /// Bits of the map's value.
    pub value_bits: u32,
    /// Bits of a class index.
    pub class_bits: u32,
    /// One line per class: which values it merges.
    pub classes: Vec<String>,
}

impl Plan {
    /// The partition of statement `id`.
    pub fn partition_of(&self, id: u32) -> Option<Partition> {
        self.statements.get(id as usize).map(|s| s.partition)
    }

    /// Statements on the switch (pre + post).
    pub fn switch_statements(&self) -> u32 {
        self.summary.pre + self.summary.post
    }

    /// The module the plan refers to, parsed from [`Plan::ir`] and checked against
    /// [`Plan::ir_digest`].
    pub fn module(&self) -> Result<tandem_ir::Module, crate::PartitionError> {
        if ir_digest(&self.ir) != self.ir_digest {
            return Err(crate::PartitionError::BadPlan(
                "the IR text does not match ir_digest".into(),
            ));
        }
        tandem_ir::parse_module(&self.ir)
            .map_err(|e| crate::PartitionError::BadPlan(format!("its IR: {e}")))
    }

    /// The plan as pretty JSON.
    pub fn to_json(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads a plan, checking the version.
    pub fn from_json(text: &str) -> Result<Plan, crate::PartitionError> {
        let plan: Plan = serde_json::from_str(text)
            .map_err(|e| crate::PartitionError::BadPlan(e.to_string()))?;
        if plan.version != PLAN_VERSION {
            return Err(crate::PartitionError::BadPlan(format!(
                "plan version {} (this Tandem reads version {PLAN_VERSION})",
                plan.version
            )));
        }
        Ok(plan)
    }
}

/// FNV-1a 64 of `text`, as written in [`Plan::ir_digest`].
pub fn ir_digest(text: &str) -> String {
    format!("fnv1a64:{:016x}", tandem_ir::hash::fnv1a64(text.as_bytes()))
}
