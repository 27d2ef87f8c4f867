//! `tandem partition`: split an NF between switch and server for a target profile (Gallium
//! §4.1–4.2) and explain the result.

use std::path::{Path, PathBuf};

use anyhow::Context;
use tandem_partition::{parse_profile, Plan, TargetProfile};

#[derive(clap::Args)]
pub struct Args {
    /// The NF source (`.cc`), or its NF IR (`.nfir`).
    pub nf: PathBuf,
    /// Target profile (the resources to plan for, as `compile --profile`): a built-in name
    /// (tofino1, tofino2, bmv2, tiny) or a `.toml` file. `--target` is accepted as an old
    /// spelling.
    #[arg(short, long, alias = "target", default_value = "tofino1")]
    pub profile: String,
    /// Print the plan as JSON instead of the report.
    #[arg(long)]
    pub show_plan: bool,
    /// Write the dependency graph, coloured by partition, as DOT to this file.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    /// Write plan.json to this file.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Do not copy the tails of joins where server and switch-only paths meet (by default
    /// they are copied so switch-only paths avoid the server and run in pre; the plan's
    /// `ir` holds the transformed NF).
    #[arg(long)]
    pub no_split_joins: bool,
    /// Do not keep maps' derived state classes on the switch (by default a map the NF
    /// learns whose values form a small state machine is kept as a class per key when that
    /// lets more packets stay on the switch; docs/state-classes.md).
    #[arg(long)]
    pub no_state_classes: bool,
    /// Print the NF IR the plan refers to.
    #[arg(long)]
    pub show_ir: bool,
    /// Plan table compression instead (folding, splitting between pipelines, pooling, ALPM)
    /// for the NF's maps holding these entries: `name=entries,...` (maps not named keep
    /// their capacity), and print the memory after each step and the placement.
    #[arg(long, value_name = "SCALE")]
    pub compress: Option<String>,
    #[command(flatten)]
    pub partial: PartialArgs,
}

/// Partial maps (`tandem_partition::partial`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PartialArgs {
    /// Keep map MAP whole on the server and its N hottest entries on the switch (default N:
    /// a tenth of its capacity); repeatable. The runtime promotes and evicts entries
    /// (docs/runtime.md, "Partial maps").
    #[arg(long, value_name = "MAP[=N]")]
    pub partial: Vec<String>,
    /// Also make partial every exact-match map that alone exceeds the profile's SRAM (its
    /// switch table sized to a quarter of the SRAM).
    #[arg(long)]
    pub partial_auto: bool,
    /// Find a partial map's server-only keys by probing each packet on the runtime, instead
    /// of the switch program sending a packet whose lookup misses to the server whole (the
    /// default when pre changes nothing before the lookup).
    #[arg(long)]
    pub partial_probe: bool,
}

impl PartialArgs {
    /// Map name → switch entries.
    pub fn parse(&self) -> anyhow::Result<std::collections::BTreeMap<String, Option<u64>>> {
        let mut out = std::collections::BTreeMap::new();
        for spec in &self.partial {
            let (name, n) = match spec.split_once('=') {
                Some((m, n)) => (
                    m,
                    Some(n.parse::<u64>().map_err(|_| {
                        anyhow::anyhow!("--partial {spec}: `{n}` is not a number of entries")
                    })?),
                ),
                None => (spec.as_str(), None),
            };
            if name.is_empty() {
                anyhow::bail!("--partial {spec}: give a map name (MAP or MAP=N)");
            }
            out.insert(name.to_string(), n);
        }
        Ok(out)
    }
}

/// Per-map storage on the switch (`tandem_partition::hashed`, docs/hashed-storage.md).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LayoutArgs {
    /// Hold map MAP in hash-indexed registers with a collision table instead of an exact
    /// table (`MAP=hashed`, optionally sized: `MAP=hashed:ways=4,slots=1024,fp=8,col=64`), or
    /// force nothing (`MAP=exact`, the default: an exact table, unless it does not fit the
    /// profile's SRAM and the partitioner chooses hashed storage); repeatable. A derived
    /// class map is named `<map>__class`.
    /// An LPM map may be held as ALPM instead (`MAP=alpm`, bucket depth 16, or
    /// `MAP=alpm:depth=D`): a TCAM pivot table naming an SRAM bucket table. An exact map
    /// with a long key may be held as key digests (`MAP=digest`, or
    /// `MAP=digest:conflicts=N`): an exact table on a 32-bit digest of the key behind a
    /// conflict table on the full key. An IPv4 map may share one table with an IPv6 map of
    /// the same type (`MAP=pool:OTHER`, IPv4/IPv6 pooling: keyed by a family tag and the
    /// 128-bit address, IPv4 addresses IPv4-mapped) where their lookups are exclusive.
    #[arg(
        long = "state-layout",
        value_name = "MAP=hashed[:SPEC]|alpm[:depth=D]|digest[:conflicts=N]|pool:OTHER|exact"
    )]
    pub state_layout: Vec<String>,
    /// Emit the table compression the partitioner chooses for the NF's maps holding these
    /// entries (`name=entries,...`, as `tandem partition --compress` reports it) on the
    /// profile: its ALPM choice (LPM maps as a TCAM pivot table and SRAM buckets), its key
    /// digests (exact maps with long keys) and its IPv4/IPv6 pools (where the plan allows:
    /// a pool it cannot emit is a note); `--state-layout` overrides it per map.
    #[arg(long = "compress", value_name = "SCALE")]
    pub compress: Option<String>,
}

/// The profile to plan on: `profile`, or with `--compress`, its folded path when the
/// partitioner's compression chose pipeline folding for the tables at that scale
/// ([`tandem_partition::compress::Compression::profile`]). Says on stderr what of the
/// chosen compression the generated program holds and what is modelled only
/// ([`tandem_partition::compress::Emission`]).
///
/// `tna`: the architecture the program is generated for (`Some(true)` TNA, which emits
/// folding; `Some(false)` v1model; `None` for `tandem partition`).
pub fn compressed_profile(
    layout: &LayoutArgs,
    module: &tandem_ir::Module,
    profile: &TargetProfile,
    tna: Option<bool>,
) -> anyhow::Result<TargetProfile> {
    let Some(scale) = &layout.compress else {
        return Ok(profile.clone());
    };
    let scale = tandem_partition::compress::Scale::parse(scale)?;
    Ok(
        match tandem_partition::compress::compress(module, profile, &scale) {
            Err(tandem_partition::compress::CompressError::Unbounded) => profile.clone(),
            r => {
                let c = r?;
                let p = c.profile(profile);
                if p.folded && !profile.folded {
                    eprintln!(
                        "note: --compress chose pipeline folding: planning on {} ({} stages)",
                        p.name,
                        p.stages.unwrap_or(0)
                    );
                }
                for line in c.emission_for(tna).lines() {
                    eprintln!("note: --compress: {line}");
                }
                p
            }
        },
    )
}

/// With `--compress`, the partitioner's compression report on `profile` (the steps, the
/// placement and what is emitted versus modelled only), for `compile`'s report.txt; `None`
/// without `--compress` or on a target with unbounded memory.
pub fn compression_report(
    layout: &LayoutArgs,
    module: &tandem_ir::Module,
    profile: &TargetProfile,
    tna: Option<bool>,
) -> anyhow::Result<Option<String>> {
    let Some(scale) = &layout.compress else {
        return Ok(None);
    };
    let scale = tandem_partition::compress::Scale::parse(scale)?;
    Ok(
        match tandem_partition::compress::compress(module, profile, &scale) {
            Err(tandem_partition::compress::CompressError::Unbounded) => None,
            r => Some(tandem_partition::compress::report_for(&r?, profile, tna)),
        },
    )
}

/// ALPM's bucket depth when `--state-layout MAP=alpm` gives none.
pub const DEFAULT_ALPM_DEPTH: u32 = 16;

impl LayoutArgs {
    /// Map name → how to hold it hashed (maps left exact are absent).
    pub fn parse(
        &self,
    ) -> anyhow::Result<std::collections::BTreeMap<String, tandem_partition::hashed::HashedSpec>>
    {
        let mut out = std::collections::BTreeMap::new();
        for item in &self.state_layout {
            let (map, how) = item.split_once('=').ok_or_else(|| {
                anyhow::anyhow!("--state-layout {item}: give MAP=hashed[:SPEC] or MAP=exact")
            })?;
            if map.is_empty() {
                anyhow::bail!("--state-layout {item}: give a map name");
            }
            let (kind, spec) = how.split_once(':').unwrap_or((how, ""));
            match kind {
                "exact" if spec.is_empty() => {
                    out.remove(map);
                }
                "alpm" | "digest" | "pool" => {
                    out.remove(map);
                }
                "hashed" => {
                    let spec = tandem_partition::hashed::HashedSpec::parse(spec)
                        .map_err(|e| anyhow::anyhow!("--state-layout {item}: {e}"))?;
                    out.insert(map.to_string(), spec);
                }
                _ => anyhow::bail!(
                    "--state-layout {item}: `{how}` is not `hashed`, `hashed:SPEC`, `alpm[:depth=D]`, `digest[:conflicts=N]`, `pool:OTHER` or `exact`"
                ),
            }
        }
        Ok(out)
    }

    /// Map name → conflict-table entries (0: sized from the map's capacity) of the maps
    /// held as key digests: the partitioner's choice at the `--compress` scale, then the
    /// maps given as `MAP=digest[:conflicts=N]` (a later `MAP=exact`, `hashed` or `alpm`
    /// takes it back).
    pub fn parse_digest(
        &self,
        module: &tandem_ir::Module,
        profile: &TargetProfile,
    ) -> anyhow::Result<std::collections::BTreeMap<String, u64>> {
        let mut out = match &self.compress {
            Some(scale) => {
                let scale = tandem_partition::compress::Scale::parse(scale)?;
                match tandem_partition::compress::compress(module, profile, &scale) {
                    Err(tandem_partition::compress::CompressError::Unbounded) => Default::default(),
                    r => r?.digests(),
                }
            }
            None => std::collections::BTreeMap::new(),
        };
        for item in &self.state_layout {
            let Some((map, how)) = item.split_once('=') else {
                continue;
            };
            let (kind, spec) = how.split_once(':').unwrap_or((how, ""));
            if kind != "digest" {
                out.remove(map);
                continue;
            }
            let n = match spec.split_once('=') {
                None if spec.is_empty() => 0,
                Some(("conflicts", n)) => n
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (1..=1 << 20).contains(n))
                    .ok_or_else(|| {
                        anyhow::anyhow!("--state-layout {item}: conflicts must be 1..=1048576")
                    })?,
                _ => anyhow::bail!(
                    "--state-layout {item}: give MAP=digest or MAP=digest:conflicts=N"
                ),
            };
            out.insert(map.to_string(), n);
        }
        Ok(out)
    }

    /// Pairs of maps sharing one table (IPv4/IPv6 pooling): (the pairs given as
    /// `MAP=pool:OTHER`, emitted or an error; the partitioner's choice at the `--compress`
    /// scale, emitted where the plan allows). A later layout of either map takes a pair back.
    #[allow(clippy::type_complexity)]
    pub fn parse_pool(
        &self,
        module: &tandem_ir::Module,
        profile: &TargetProfile,
    ) -> anyhow::Result<(Vec<(String, String)>, Vec<(String, String)>)> {
        let mut auto = match &self.compress {
            Some(scale) => {
                let scale = tandem_partition::compress::Scale::parse(scale)?;
                match tandem_partition::compress::compress(module, profile, &scale) {
                    Err(tandem_partition::compress::CompressError::Unbounded) => Vec::new(),
                    r => r?.pools(),
                }
            }
            None => Vec::new(),
        };
        let mut forced: Vec<(String, String)> = Vec::new();
        for item in &self.state_layout {
            let Some((map, how)) = item.split_once('=') else {
                continue;
            };
            auto.retain(|(a, b)| a != map && b != map);
            forced.retain(|(a, b)| a != map && b != map);
            let (kind, other) = how.split_once(':').unwrap_or((how, ""));
            if kind != "pool" {
                continue;
            }
            if other.is_empty() || other == map {
                anyhow::bail!("--state-layout {item}: give MAP=pool:OTHER (another map)");
            }
            auto.retain(|(a, b)| a != other && b != other);
            forced.retain(|(a, b)| a != other && b != other);
            forced.push((map.to_string(), other.to_string()));
        }
        Ok((forced, auto))
    }

    /// The report lines of the pools a generated program holds (`manifest.states[].pool`):
    /// the shared tables and the memory of the two maps apart and pooled at the `--compress`
    /// scale (else their capacities), from the partitioner's memory model.
    pub fn pool_report(
        &self,
        module: &tandem_ir::Module,
        profile: &TargetProfile,
        manifest: &tandem_p4::manifest::Manifest,
    ) -> anyhow::Result<Vec<String>> {
        let scale = match &self.compress {
            Some(s) => tandem_partition::compress::Scale::parse(s)?,
            None => Default::default(),
        };
        let mut out = Vec::new();
        for s in &manifest.states {
            let Some(p) = &s.pool else { continue };
            if manifest.states.iter().position(|x| x.name == p.with)
                < manifest.states.iter().position(|x| x.name == s.name)
            {
                continue;
            }
            let (before, after) =
                tandem_partition::compress::pool_memory(module, profile, &scale, &s.name, &p.with)?;
            out.push(format!(
                "IPv4/IPv6 pooling {}+{}: {} shared table(s) ({}); one copy apart SRAM {} + TCAM \
                 {} blocks, pooled SRAM {} + TCAM {} blocks",
                s.name,
                p.with,
                p.tables.len(),
                p.tables.join(", "),
                before.sram_blocks,
                before.tcam_blocks,
                after.sram_blocks,
                after.tcam_blocks
            ));
        }
        Ok(out)
    }

    /// Map name → ALPM bucket depth: the partitioner's choice at the `--compress` scale,
    /// then the maps given as `MAP=alpm[:depth=D]` (a later `MAP=exact` or `MAP=hashed`
    /// takes it back).
    pub fn parse_alpm(
        &self,
        module: &tandem_ir::Module,
        profile: &TargetProfile,
    ) -> anyhow::Result<std::collections::BTreeMap<String, u32>> {
        let mut out = match &self.compress {
            Some(scale) => {
                let scale = tandem_partition::compress::Scale::parse(scale)?;
                match tandem_partition::compress::compress(module, profile, &scale) {
                    // Unbounded memory: nothing to compress.
                    Err(tandem_partition::compress::CompressError::Unbounded) => Default::default(),
                    r => r?.alpm_depths(),
                }
            }
            None => std::collections::BTreeMap::new(),
        };
        for item in &self.state_layout {
            let Some((map, how)) = item.split_once('=') else {
                continue;
            };
            let (kind, spec) = how.split_once(':').unwrap_or((how, ""));
            if kind != "alpm" {
                out.remove(map);
                continue;
            }
            let depth = match spec.split_once('=') {
                None if spec.is_empty() => DEFAULT_ALPM_DEPTH,
                Some(("depth", d)) => d
                    .parse::<u32>()
                    .ok()
                    .filter(|d| (1..=4096).contains(d))
                    .ok_or_else(|| {
                        anyhow::anyhow!("--state-layout {item}: depth must be 1..=4096")
                    })?,
                _ => anyhow::bail!("--state-layout {item}: give MAP=alpm or MAP=alpm:depth=D"),
            };
            out.insert(map.to_string(), depth);
        }
        Ok(out)
    }
}

/// A built-in profile by name, or a profile file; `NAME:folded` (or `FILE:folded`) is its
/// folded path ([`TargetProfile::folded`]: pipeline folding, twice the stages, half the
/// throughput).
pub fn load_profile(target: &str) -> anyhow::Result<TargetProfile> {
    if let Some(base) = target.strip_suffix(":folded") {
        let p = load_profile(base)?;
        return p.folded().ok_or_else(|| {
            anyhow::anyhow!(
                "`{target}`: {} cannot be folded ({} pipeline(s), stages {:?}; folding needs \
                 two pipelines and bounded stages)",
                p.name,
                p.pipelines,
                p.stages
            )
        });
    }
    let is_file = target.ends_with(".toml") || target.contains('/') || Path::new(target).exists();
    if !is_file {
        return TargetProfile::builtin(target).ok_or_else(|| {
            anyhow::anyhow!(
                "unknown target `{target}`; built-in targets: {} (or give a .toml profile file)",
                TargetProfile::builtin_names().join(", ")
            )
        });
    }
    let text =
        std::fs::read_to_string(target).with_context(|| format!("reading profile {target}"))?;
    Ok(parse_profile(target, &text)?)
}

/// The NF IR of `nf`: parsed from a `.nfir` file or lifted from C++.
pub fn load_module(nf: &Path) -> anyhow::Result<tandem_ir::Module> {
    if nf.extension().is_some_and(|e| e == "nfir") {
        let text =
            std::fs::read_to_string(nf).with_context(|| format!("reading {}", nf.display()))?;
        let module =
            tandem_ir::parse_module(&text).map_err(|e| anyhow::anyhow!("{}: {e}", nf.display()))?;
        tandem_ir::verify_module(&module).map_err(|e| anyhow::anyhow!("{}:\n{e}", nf.display()))?;
        return Ok(module);
    }
    let (_, lifted) =
        super::lift::lift_file(nf).with_context(|| format!("lifting {}", nf.display()))?;
    // Canonical value numbers, as `tandem lift` prints them: the plan names values.
    Ok(tandem_ir::renumber(&lifted.module))
}

/// Lifts (or reads) `nf` and partitions it for `profile`: the default pipeline.
pub fn partition_nf(
    nf: &std::path::Path,
    profile: &tandem_partition::TargetProfile,
    split_joins: bool,
    partial: &PartialArgs,
    state_classes: bool,
) -> anyhow::Result<tandem_partition::Partitioned> {
    let module = load_module(nf)?;
    let options = tandem_partition::PartitionOptions {
        split_joins,
        partial: partial.parse()?,
        auto_partial: partial.partial_auto,
        state_classes,
        ..Default::default()
    };
    tandem_partition::partition_module(&module, profile, &options)
        .with_context(|| format!("partitioning {}", nf.display()))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let profile = load_profile(&args.profile)?;
    if let Some(scale) = &args.compress {
        let scale = tandem_partition::compress::Scale::parse(scale)?;
        let module = load_module(&args.nf)?;
        let c = tandem_partition::compress::compress(&module, &profile, &scale)?;
        print!("{}", tandem_partition::compress::report(&c, &profile));
        return Ok(());
    }
    let tandem_partition::Partitioned { module, info, plan } = partition_nf(
        &args.nf,
        &profile,
        !args.no_split_joins,
        &args.partial,
        !args.no_state_classes,
    )?;
    let plan: Plan = plan;
    if args.show_ir {
        print!("{}", plan.ir);
    }
    if let Some(out) = &args.output {
        std::fs::write(out, plan.to_json() + "\n")
            .with_context(|| format!("writing {}", out.display()))?;
    }
    if let Some(dot) = &args.dot {
        std::fs::write(dot, tandem_partition::write_dot(&module, &info, &plan))
            .with_context(|| format!("writing {}", dot.display()))?;
    }
    if args.show_plan {
        println!("{}", plan.to_json());
    } else {
        print!(
            "{}",
            tandem_partition::report_with_source(&module, &info, &profile, &plan, |f| {
                std::fs::read_to_string(f).ok()
            })
        );
    }
    Ok(())
}

/// The emitted fold's gresses at the `--compress` scale ([`tandem_partition::fold_scale`]),
/// when `--compress` is given and `manifest` is a folded program's: the main-table copies of
/// each gress come from the manifest's qualified table names (`TandemEgress_p1.vm_nc4_0`).
pub fn fold_scale_report(
    layout: &LayoutArgs,
    module: &tandem_ir::Module,
    profile: &TargetProfile,
    manifest: &tandem_p4::Manifest,
) -> anyhow::Result<Option<String>> {
    use tandem_p4::manifest::TableRole;
    let (Some(scale), Some(_)) = (&layout.compress, manifest.fold_port) else {
        return Ok(None);
    };
    let scale = tandem_partition::compress::Scale::parse(scale)?;
    let c = match tandem_partition::compress::compress(module, profile, &scale) {
        Err(tandem_partition::compress::CompressError::Unbounded) => return Ok(None),
        r => r?,
    };
    let mut copies = vec![std::collections::BTreeMap::<String, u64>::new(); 3];
    for t in &manifest.tables {
        let counted = matches!(
            t.role,
            TableRole::Main | TableRole::Digest | TableRole::AlpmBucket | TableRole::Pooled
        );
        let gress = t.name.split_once('.').and_then(|(ctl, _)| {
            tandem_p4::fold::GRESSES[..3]
                .iter()
                .position(|(n, _, _)| *n == ctl)
        });
        if let (true, Some(g)) = (counted, gress) {
            for s in t.state.split('+') {
                *copies[g].entry(s.to_string()).or_default() += 1;
            }
        }
    }
    Ok(Some(tandem_partition::fold_scale::emitted_report(
        &c, profile, &copies,
    )))
}
