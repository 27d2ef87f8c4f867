//! The C++ NF API headers, embedded so the `tandem` binary works from any directory.
//!
//! [`materialize`] writes them under a cache directory (once per header version) and returns
//! the include directory to hand to clang with `-I`.

use std::path::{Path, PathBuf};

use crate::BuildError;

/// (file name, contents) of every header under `nfapi/include/tandem/`.
pub const HEADERS: &[(&str, &str)] = &[
    (
        "abi.hh",
        include_str!("../../../nfapi/include/tandem/abi.hh"),
    ),
    (
        "config.hh",
        include_str!("../../../nfapi/include/tandem/config.hh"),
    ),
    (
        "hash.hh",
        include_str!("../../../nfapi/include/tandem/hash.hh"),
    ),
    (
        "net.hh",
        include_str!("../../../nfapi/include/tandem/net.hh"),
    ),
    (
        "lpm.hh",
        include_str!("../../../nfapi/include/tandem/lpm.hh"),
    ),
    (
        "ipv6.hh",
        include_str!("../../../nfapi/include/tandem/ipv6.hh"),
    ),
    (
        "ternary.hh",
        include_str!("../../../nfapi/include/tandem/ternary.hh"),
    ),
    (
        "header.hh",
        include_str!("../../../nfapi/include/tandem/header.hh"),
    ),
    (
        "meter.hh",
        include_str!("../../../nfapi/include/tandem/meter.hh"),
    ),
    ("nf.hh", include_str!("../../../nfapi/include/tandem/nf.hh")),
    ("pp.hh", include_str!("../../../nfapi/include/tandem/pp.hh")),
    (
        "packet.hh",
        include_str!("../../../nfapi/include/tandem/packet.hh"),
    ),
    (
        "state.hh",
        include_str!("../../../nfapi/include/tandem/state.hh"),
    ),
    (
        "vector_ref.hh",
        include_str!("../../../nfapi/include/tandem/vector_ref.hh"),
    ),
];

/// The ABI version the runtime speaks (`TANDEM_NF_ABI_VERSION` in abi.hh).
pub const ABI_VERSION: u32 = 2;

/// A stable fingerprint of the headers (FNV-1a), used to key caches.
pub fn fingerprint() -> u64 {
    let mut h = tandem_ir::hash::FieldDigest::default();
    for (name, text) in HEADERS {
        h.field(name.as_bytes()).field(text.as_bytes());
    }
    h.finish()
}

/// Writes the headers to `<cache>/nfapi-<fingerprint>/tandem/` if not there yet; returns the
/// include directory (`<cache>/nfapi-<fingerprint>`).
pub fn materialize(cache: &Path) -> Result<PathBuf, BuildError> {
    let root = cache.join(format!("nfapi-{:016x}", fingerprint()));
    let dir = root.join("tandem");
    let io = |e| BuildError::Io {
        path: dir.clone(),
        source: e,
    };
    std::fs::create_dir_all(&dir).map_err(io)?;
    for (name, text) in HEADERS {
        let path = dir.join(name);
        let up_to_date = std::fs::read_to_string(&path).is_ok_and(|t| t == *text);
        if !up_to_date {
            // Write beside and rename, so concurrent builds never see a half-written header.
            static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let tmp = dir.join(format!(".{name}.{}.{seq}", std::process::id()));
            std::fs::write(&tmp, text).map_err(io)?;
            std::fs::rename(&tmp, &path).map_err(io)?;
        }
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    #[test]
    fn abi_version_matches_header() {
        let abi = super::HEADERS
            .iter()
            .find(|(n, _)| *n == "abi.hh")
            .unwrap()
            .1;
        let expected = format!("#define TANDEM_NF_ABI_VERSION {}u", super::ABI_VERSION);
        assert!(abi.contains(&expected), "abi.hh and ABI_VERSION disagree");
    }
}
