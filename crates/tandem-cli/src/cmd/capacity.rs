//! `tandem capacity`: how many keys of an NF's maps fit an SRAM size in hash-indexed register
//! storage (`tandem_partition::hashed`, CoFilter §III-C and Fig. 14a). For each check word
//! (the full key; fingerprints filling an 8, 16 or 32-bit register cell beside the value) it
//! sizes the layout for the SRAM, inserts random keys with the switch's hash (`crc32` over the
//! key's bytes) through the server's slot allocator, and reports the keys held before the
//! collision rate (collision-table entries per key) passes the goal.

use std::path::PathBuf;

use anyhow::Context;
use rand::{Rng, SeedableRng};
use tandem_partition::hashed::{
    measure_capacity_with, CapacityStop, Fit, HashedLayout, KeyCheck, SlotAllocator,
};

#[derive(clap::Args)]
pub struct Args {
    /// The NF source (`.cc`), or its NF IR (`.nfir`).
    pub nf: PathBuf,
    /// SRAM for the map: bytes, or with a unit `KB`, `MB`, `GB` (powers of 1024, as the
    /// paper's 16 MB), e.g. `16MB`.
    #[arg(long, default_value = "16MB")]
    pub sram: String,
    /// Target profile (ways default to its stages minus 3, at most 8, as Fig. 6 places one
    /// register array per stage between the first and the last).
    #[arg(short, long, alias = "profile", default_value = "tofino1")]
    pub target: String,
    /// The map (default: every hash map or expiring map of the NF).
    #[arg(long)]
    pub map: Option<String>,
    /// Register arrays (ways) a key may use.
    #[arg(long)]
    pub ways: Option<u32>,
    /// The collision-rate goal: collision-table entries per key.
    #[arg(long, default_value_t = 1e-3)]
    pub rate: f64,
    /// Check words to measure: `key`, or `fpN` (an N-bit fingerprint); repeatable (default:
    /// the full key and fingerprints filling 8, 16 and 32-bit cells).
    #[arg(long)]
    pub check: Vec<String>,
    /// Seed of the random keys.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Value bits per key instead of what the NF needs on the switch (its derived class, or
    /// the whole value).
    #[arg(long)]
    pub value_bits: Option<u32>,
    /// Let the allocator move placed keys, up to this many deep, to make room (cuckoo
    /// relocation; 0: greedy placement, the runtime's default).
    #[arg(long, default_value_t = 0)]
    pub relocate: u32,
    /// Pack fingerprint slots into 32-bit register words (`32 / (fp + value)` per word)
    /// instead of one 8/16/32-bit cell each (the P4 back end lowers it: one word read and a
    /// constant-slice select; TNA needs a power of two words per way).
    #[arg(long)]
    pub packed: bool,
    /// Any slot (word) count per way, not only a power of two (v1model's `hash(..., max)`
    /// lowers it; TNA's `Hash` does not).
    #[arg(long)]
    pub any_count: bool,
    /// Count a 32-bit hit time per slot beside the slots, as the generated program keeps
    /// for a map that expires (its switch-side expiry check).
    #[arg(long)]
    pub hit_times: bool,
}

/// `16MB` → bits.
pub fn parse_sram(s: &str) -> anyhow::Result<u64> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| anyhow::anyhow!("--sram {s}: `{num}` is not a number"))?;
    let mult: f64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1.0,
        "KB" | "KIB" | "K" => 1024.0,
        "MB" | "MIB" | "M" => 1024.0 * 1024.0,
        "GB" | "GIB" | "G" => 1024.0 * 1024.0 * 1024.0,
        u => anyhow::bail!("--sram {s}: unknown unit `{u}` (B, KB, MB, GB)"),
    };
    let bytes = n * mult;
    if !(1.0..1e15).contains(&bytes) {
        anyhow::bail!("--sram {s}: out of range");
    }
    Ok((bytes * 8.0) as u64)
}

fn parse_check(s: &str) -> anyhow::Result<KeyCheck> {
    if s == "key" {
        return Ok(KeyCheck::FullKey);
    }
    let n = s
        .strip_prefix("fp")
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| (1..=32).contains(n))
        .ok_or_else(|| anyhow::anyhow!("--check {s}: `key` or `fpN` with N in 1..=32"))?;
    Ok(KeyCheck::Fingerprint(n))
}

/// One map to measure: name, key field widths, value bits and where they come from.
struct Target {
    name: String,
    key_bits: Vec<u32>,
    value_bits: u32,
    value_note: String,
}

fn targets(args: &Args) -> anyhow::Result<Vec<Target>> {
    let profile = super::partition::load_profile(&args.target)?;
    let module = super::partition::load_module(&args.nf)?;
    // The classes the partitioner keeps (the switch then stores a class per key).
    let classes = match tandem_partition::partition_module(
        &module,
        &profile,
        &tandem_partition::PartitionOptions::default(),
    ) {
        Ok(p) => p.plan.state_classes,
        Err(_) => Vec::new(),
    };
    let mut out = Vec::new();
    for obj in module.states.values() {
        if !matches!(
            obj.kind,
            tandem_ir::StateKind::HashMap { .. } | tandem_ir::StateKind::ExpiringMap { .. }
        ) {
            continue;
        }
        if args.map.as_ref().is_some_and(|m| m != &obj.name) {
            continue;
        }
        let Some((key, value)) = obj.kind.map_layouts() else {
            continue;
        };
        let key_bits: Vec<u32> = key.fields.iter().map(|f| f.ty.bits()).collect();
        let whole: u32 = value.fields.iter().map(|f| f.ty.bits()).sum();
        let (value_bits, value_note) =
            match (args.value_bits, classes.iter().find(|c| c.map == obj.name)) {
                (Some(b), _) => (b, format!("{b} bits (--value-bits)")),
                (None, Some(c)) => (
                    c.class_bits,
                    format!(
                        "its derived class: {} bits for {} classes (the value has {whole})",
                        c.class_bits,
                        c.classes.len()
                    ),
                ),
                (None, None) => (whole, format!("the whole value: {whole} bits")),
            };
        out.push(Target {
            name: obj.name.clone(),
            key_bits,
            value_bits,
            value_note,
        });
    }
    if out.is_empty() {
        match &args.map {
            Some(m) => anyhow::bail!(
                "{}: no hash map or expiring map named `{m}`",
                args.nf.display()
            ),
            None => anyhow::bail!(
                "{}: the NF has no hash map or expiring map",
                args.nf.display()
            ),
        }
    }
    Ok(out)
}

/// The layout and placement options in effect, for the report's first line.
fn placement_note(args: &Args) -> String {
    let mut n = String::new();
    if args.relocate > 0 {
        n += &format!(", relocation {} deep", args.relocate);
    }
    if args.packed {
        n += ", slots packed in 32-bit words";
    }
    if args.any_count {
        n += ", any slot count per way";
    }
    if args.hit_times {
        n += ", a 32-bit hit time per slot counted";
    }
    n
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let sram = parse_sram(&args.sram)?;
    if !(args.rate > 0.0 && args.rate < 1.0) {
        anyhow::bail!("--rate {}: give a rate in (0, 1)", args.rate);
    }
    let profile = super::partition::load_profile(&args.target)?;
    let ways = args.ways.unwrap_or_else(|| {
        profile
            .stages
            .map_or(8, |s| s.saturating_sub(3).clamp(1, 8))
    });
    for t in targets(&args)? {
        let checks: Vec<KeyCheck> = if args.check.is_empty() {
            let mut c = vec![KeyCheck::FullKey];
            for cell in [8u32, 16, 32] {
                if cell > t.value_bits {
                    c.push(KeyCheck::Fingerprint((cell - t.value_bits).min(32)));
                }
            }
            c
        } else {
            args.check
                .iter()
                .map(|s| parse_check(s))
                .collect::<anyhow::Result<_>>()?
        };
        println!(
            "`{}`: key {} bits ({:?}), value {}; {} of SRAM ({sram} bits), {ways} ways, \
             crc32 over the key's bytes (rotated per way){}; goal: collision rate <= {:e}",
            t.name,
            t.key_bits.iter().sum::<u32>(),
            t.key_bits,
            t.value_note,
            args.sram,
            placement_note(&args),
            args.rate
        );
        println!(
            "  {:<10} {:>9} {:>12} {:>10} {:>12} {:>10} {:>10}  {:<6} false hit/absent key",
            "check", "bits/slot", "slots", "col. table", "connections", "col. used", "rate", "stop"
        );
        for check in checks {
            let fit = Fit {
                any_count: args.any_count,
                packed: args.packed,
                hit_time_bits: if args.hit_times { 32 } else { 0 },
            };
            let l0 =
                HashedLayout::fit_with(sram, ways, check, t.key_bits.clone(), t.value_bits, 0, fit)
                    .with_context(|| format!("`{}`", t.name))?;
            let entries = (args.rate * l0.slots() as f64).ceil() as u64;
            let layout = HashedLayout::fit_with(
                sram,
                ways,
                check,
                t.key_bits.clone(),
                t.value_bits,
                entries,
                fit,
            )?;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
            let widths = t.key_bits.clone();
            let alloc = SlotAllocator::untracked(layout.clone()).relocating(args.relocate);
            let cap = measure_capacity_with(alloc, args.rate, u64::MAX, || {
                widths
                    .iter()
                    .map(|&b| {
                        let v: u64 = rng.gen();
                        if b >= 64 {
                            v
                        } else {
                            v & ((1u64 << b) - 1)
                        }
                    })
                    .collect()
            })?;
            let (name, false_hit) = match check {
                KeyCheck::FullKey => ("key".to_string(), "0".to_string()),
                KeyCheck::Fingerprint(f) => (
                    format!("fp{f}"),
                    format!("<= {:.1e}", f64::from(ways) / (1u64 << f) as f64),
                ),
            };
            println!(
                "  {:<10} {:>9} {:>12} {:>10} {:>12} {:>10} {:>10.2e}  {:<6} {}",
                name,
                layout.slot_bits(),
                layout.slots(),
                layout.collision_entries,
                cap.connections,
                cap.collision_entries,
                cap.collision_rate,
                match cap.stop {
                    CapacityStop::Rate => "rate",
                    CapacityStop::Full => "full",
                    CapacityStop::Limit => "limit",
                },
                false_hit
            );
        }
    }
    Ok(())
}
