//! Running clang++-16 on an NF's analysis build. The only part of this crate that touches
//! files and processes; [`crate::lift`] itself is pure.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The flags of the analysis build. `-O2` inlines and cleans up; vectorisers and unrolling
/// are off so loops stay loops and no SIMD appears; `-g` gives every instruction its line.
pub const ANALYSIS_FLAGS: &[&str] = &[
    "-std=c++20",
    "-O2",
    "-g",
    "-fno-discard-value-names",
    "-fno-vectorize",
    "-fno-slp-vectorize",
    "-fno-unroll-loops",
    "-mllvm",
    "-inline-threshold=100000",
    "-DTANDEM_ANALYSIS",
    "-S",
    "-emit-llvm",
];

#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    #[error("cannot run the C++ compiler {compiler}: {source}")]
    Compiler {
        compiler: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{file} does not compile (analysis build):\n{diagnostics}")]
    Compile { file: PathBuf, diagnostics: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Compiles `source` in the analysis build and returns the LLVM IR text. `include` is the
/// directory holding `tandem/nf.hh`.
pub fn emit_llvm(
    cxx: &Path,
    include: &Path,
    source: &Path,
    work_dir: &Path,
) -> Result<String, DriverError> {
    std::fs::create_dir_all(work_dir).map_err(|e| DriverError::Io {
        path: work_dir.to_owned(),
        source: e,
    })?;
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = work_dir.join(format!("analysis-{}-{seq}.ll", std::process::id()));
    let src_dir = source.parent().unwrap_or(Path::new("."));
    let output = Command::new(cxx)
        .args(ANALYSIS_FLAGS)
        .arg("-I")
        .arg(include)
        .arg("-I")
        .arg(src_dir)
        .arg(source)
        .arg("-o")
        .arg(&out)
        .output()
        .map_err(|e| DriverError::Compiler {
            compiler: cxx.to_owned(),
            source: e,
        })?;
    if !output.status.success() {
        return Err(DriverError::Compile {
            file: source.to_owned(),
            diagnostics: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    let text = std::fs::read_to_string(&out).map_err(|e| DriverError::Io {
        path: out.clone(),
        source: e,
    });
    let _ = std::fs::remove_file(&out);
    text
}
