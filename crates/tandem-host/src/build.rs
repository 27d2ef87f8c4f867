//! Compiling an NF's C++ source with clang++-16.
//!
//! The native build becomes a shared object the [`crate::native`] loader opens; results are
//! cached by a fingerprint of the source, the NF API headers and the flags, so repeated runs
//! do not recompile.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::nfapi;
use crate::BuildError;
use tandem_ir::hash::FieldDigest;

/// How to compile an NF.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The C++ compiler (default: `$TANDEM_CXX`, else `clang++-16`, else
    /// `/usr/lib/llvm-16/bin/clang++`).
    pub cxx: PathBuf,
    /// Where compiled objects and the materialised headers are kept.
    pub cache_dir: PathBuf,
    /// Extra flags appended to the compiler command line.
    pub extra_flags: Vec<String>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            cxx: find_cxx(),
            cache_dir: default_cache_dir(),
            extra_flags: Vec::new(),
        }
    }
}

/// `$TANDEM_CACHE_DIR`, else `$XDG_CACHE_HOME/tandem`, else `~/.cache/tandem`, else a
/// directory under the system temp dir.
pub fn default_cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("TANDEM_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("tandem");
    }
    if let Some(h) = std::env::var_os("HOME") {
        return PathBuf::from(h).join(".cache").join("tandem");
    }
    std::env::temp_dir().join("tandem-cache")
}

/// The C++ compiler to use (see [`BuildOptions::cxx`]).
pub fn find_cxx() -> PathBuf {
    if let Some(c) = std::env::var_os("TANDEM_CXX") {
        return PathBuf::from(c);
    }
    let fallback = PathBuf::from("/usr/lib/llvm-16/bin/clang++");
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("clang++-16").is_file()));
    if on_path || !fallback.is_file() {
        PathBuf::from("clang++-16")
    } else {
        fallback
    }
}

/// The flags of the native build (besides `-I`, input and output).
pub const NATIVE_FLAGS: &[&str] = &[
    "-std=c++20",
    "-O2",
    "-g",
    "-fPIC",
    "-shared",
    "-fvisibility=hidden",
    "-Wall",
    "-Wno-unused-parameter",
];

/// Compiles `source` (native build) to a shared object and returns its path.
pub fn compile_native(source: &Path, opts: &BuildOptions) -> Result<PathBuf, BuildError> {
    let text = std::fs::read(source).map_err(|e| BuildError::Io {
        path: source.to_owned(),
        source: e,
    })?;
    let include = nfapi::materialize(&opts.cache_dir)?;
    let mut key = FieldDigest::default();
    key.field(&text);
    key.field(&nfapi::fingerprint().to_le_bytes());
    key.field(opts.cxx.as_os_str().as_encoded_bytes());
    for f in NATIVE_FLAGS
        .iter()
        .copied()
        .chain(opts.extra_flags.iter().map(String::as_str))
    {
        key.field(f.as_bytes());
    }
    // The source's own directory is on the include path, so local headers count too.
    let src_dir = source.parent().unwrap_or(Path::new("."));
    for entry in std::fs::read_dir(src_dir).into_iter().flatten().flatten() {
        let p = entry.path();
        if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("h" | "hh" | "hpp")
        ) {
            if let Ok(t) = std::fs::read(&p) {
                key.field(p.as_os_str().as_encoded_bytes());
                key.field(&t);
            }
        }
    }
    let stem = source.file_stem().and_then(|s| s.to_str()).unwrap_or("nf");
    let out_dir = opts.cache_dir.join("native");
    std::fs::create_dir_all(&out_dir).map_err(|e| BuildError::Io {
        path: out_dir.clone(),
        source: e,
    })?;
    let out = out_dir.join(format!("{stem}-{:016x}.so", key.finish()));
    if out.is_file() {
        log::debug!("using cached {}", out.display());
        return Ok(out);
    }
    // Unique per process and call: tests compile the same NF from several threads at once.
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = out.with_extension(format!("so.{}.{seq}.tmp", std::process::id()));
    let mut cmd = Command::new(&opts.cxx);
    cmd.args(NATIVE_FLAGS)
        .args(&opts.extra_flags)
        .arg("-I")
        .arg(&include)
        .arg("-I")
        .arg(src_dir)
        .arg(source)
        .arg("-o")
        .arg(&tmp);
    log::info!("compiling {}: {:?}", source.display(), cmd);
    let output = cmd.output().map_err(|e| BuildError::Compiler {
        compiler: opts.cxx.clone(),
        source: e,
    })?;
    if !output.status.success() {
        let _ = std::fs::remove_file(&tmp);
        return Err(BuildError::Compile {
            file: source.to_owned(),
            diagnostics: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    std::fs::rename(&tmp, &out).map_err(|e| BuildError::Io {
        path: out.clone(),
        source: e,
    })?;
    Ok(out)
}
