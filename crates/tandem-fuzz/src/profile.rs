//! Random target profiles: a built-in profile as it is, or with its budgets (stages,
//! metadata and transfer-header bytes, table duplication) varied, plus the partitioner's
//! join splitting on or off.

use tandem_partition::{PartitionOptions, TargetProfile};

use crate::rng::Rng;

/// A profile to partition for, and how.
#[derive(Clone, Debug)]
pub struct FuzzProfile {
    /// The built-in profile it starts from.
    pub base: String,
    /// The profile.
    pub profile: TargetProfile,
    /// The partitioner's options.
    pub options: PartitionOptions,
    /// What was varied (empty: the built-in profile as is), for reports.
    pub variation: String,
}

/// Why a profile could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// Not a built-in profile.
    #[error("unknown profile `{0}`; built-in profiles: tofino1, tofino2, bmv2, tiny")]
    Unknown(String),
}

/// The built-in profile `base`, varied by `rng` half of the time when `vary` is set.
pub fn random_profile(base: &str, vary: bool, rng: &mut Rng) -> Result<FuzzProfile, ProfileError> {
    let mut profile =
        TargetProfile::builtin(base).ok_or_else(|| ProfileError::Unknown(base.to_string()))?;
    let mut options = PartitionOptions::default();
    let mut variation = Vec::new();
    if vary && rng.chance(1, 2) {
        if rng.chance(1, 2) {
            let s = rng.range(2, 16) as u32;
            profile.stages = Some(profile.stages.map_or(s, |x| x.min(s)));
            variation.push(format!("stages={s}"));
        }
        if rng.chance(1, 2) {
            let m = rng.range(8, 128) as u32;
            profile.metadata_bytes = Some(profile.metadata_bytes.map_or(m, |x| x.min(m)));
            variation.push(format!("metadata_bytes={m}"));
        }
        if rng.chance(1, 2) {
            let t = rng.range(4, 40) as u32;
            profile.transfer_header_bytes =
                Some(profile.transfer_header_bytes.map_or(t, |x| x.min(t)));
            variation.push(format!("transfer_header_bytes={t}"));
        }
        if rng.chance(1, 3) {
            profile.duplicate_readonly_tables = !profile.duplicate_readonly_tables;
            variation.push(format!(
                "duplicate_readonly_tables={}",
                profile.duplicate_readonly_tables
            ));
        }
        if rng.chance(1, 3) {
            options.split_joins = false;
            variation.push("split_joins=false".into());
        }
    }
    Ok(FuzzProfile {
        base: base.to_string(),
        profile,
        options,
        variation: variation.join(","),
    })
}
