//! Running clang++-16 on an NF's analysis build. The only part of this crate that touches
//! files and processes; [`crate::lift`] itself is pure.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The clang flags of the analysis build. LLVM's passes are run separately (see
/// [`OPT_FLAGS`]) after every function of the NF is marked `alwaysinline`, so that
/// `process()` and everything it calls end up in `tandem_nf_process_entry`.
/// `-fno-jump-tables` (the functions' `no-jump-tables` attribute) keeps a `switch` a `switch`:
/// without it SimplifyCFG turns one that maps small values to constants into a lookup table —
/// a constant global indexed by the value, or a wide constant shifted right by 8 × the value
/// (`lshr i56 0x38302e22120a00, (zext (prec << 3))`) — which no switch ALU runs, where the
/// branches (or selects) it replaces run on the switch.
pub const ANALYSIS_FLAGS: &[&str] = &[
    "-std=c++20",
    "-O2",
    "-fno-jump-tables",
    "-Xclang",
    "-disable-llvm-passes",
    "-g",
    "-fno-discard-value-names",
    "-DTANDEM_ANALYSIS",
    "-S",
    "-emit-llvm",
];

/// `opt` flags: the -O2 pipeline without vectorisers, so no SIMD appears. Loops with a
/// constant trip count are unrolled in full when small: a MAC copied byte by byte or the rows
/// of a sketch become straight-line code with constant indices, which a switch can run. The
/// cost threshold (80, about half of -O2's 150) keeps bigger loops — string matching over the
/// payload, which runs on the server anyway — as loops: unrolled, they only grow the program
/// (Trojan's fast path fell from 87% to 53% of packets with -O2's threshold). No other
/// unrolling (partial, run-time trip counts, upper bounds) or peeling: those keep a loop and
/// only add code.
pub const OPT_FLAGS: &[&str] = &[
    "-S",
    "-passes=default<O2>",
    "-vectorize-loops=false",
    "-vectorize-slp=false",
    "-unroll-threshold=80",
    "-unroll-allow-partial=false",
    "-unroll-runtime=false",
    "-unroll-allow-peeling=false",
    "-unroll-max-upperbound=0",
];

/// The `opt` beside `cxx` (LLVM 16).
pub fn find_opt(cxx: &Path) -> PathBuf {
    let beside = cxx.with_file_name("opt");
    if beside.is_file() {
        return beside;
    }
    let llvm16 = PathBuf::from("/usr/lib/llvm-16/bin/opt");
    if llvm16.is_file() {
        return llvm16;
    }
    PathBuf::from("opt-16")
}

/// Marks every function defined in `ll` `alwaysinline`, except the `tandem_nf_*` entry points
/// and functions the source marks `noinline` or `optnone` (`__clang_call_terminate`, the
/// slow paths of `std::vector` growth, `[[gnu::noinline]]` helpers): LLVM rejects a function
/// that is both. Calls left to those functions are diagnosed by the lifter.
pub fn mark_always_inline(ll: &str) -> String {
    let never_inline = never_inline_groups(ll);
    let mut out = String::with_capacity(ll.len() + 1024);
    for line in ll.lines() {
        if line.starts_with("define ")
            && !line.contains("@tandem_nf_")
            && !line.contains(" alwaysinline ")
            && !line.contains(" noinline ")
            && !line.contains(" optnone ")
        {
            // Function attributes follow the parameter list: `) [unnamed_addr] #N`.
            if let Some(pos) = attr_group_pos(line) {
                if !never_inline.contains(attr_group_number(&line[pos..])) {
                    out.push_str(&line[..pos]);
                    out.push_str("alwaysinline ");
                    out.push_str(&line[pos..]);
                    out.push('\n');
                    continue;
                }
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The numbers of the attribute groups (`attributes #N = { ... }`) holding `noinline` or
/// `optnone`.
fn never_inline_groups(ll: &str) -> std::collections::HashSet<&str> {
    ll.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("attributes #")?;
            let (num, body) = rest.split_once(" = ")?;
            body.split(|c: char| c.is_whitespace() || c == '{' || c == '}')
                .any(|w| w == "noinline" || w == "optnone")
                .then_some(num)
        })
        .collect()
}

/// `N` of a `#N ...` attribute-group reference.
fn attr_group_number(at_hash: &str) -> &str {
    let digits = &at_hash[1..];
    let n = digits.chars().take_while(char::is_ascii_digit).count();
    &digits[..n]
}

/// Byte position of the `#N` attribute-group reference of a `define` line.
fn attr_group_pos(line: &str) -> Option<usize> {
    let close = line.rfind(')')?;
    let rest = &line[close..];
    let hash = rest.find(" #")?;
    let digits = rest[hash + 2..]
        .chars()
        .take_while(char::is_ascii_digit)
        .count();
    (digits > 0).then_some(close + hash + 1)
}

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
    let raw = compile(cxx, include, source, work_dir)?;
    optimize(&find_opt(cxx), &mark_always_inline(&raw), work_dir)
}

fn run(mut cmd: Command, tool: &Path, file: &Path) -> Result<(), DriverError> {
    let output = cmd.output().map_err(|e| DriverError::Compiler {
        compiler: tool.to_owned(),
        source: e,
    })?;
    if !output.status.success() {
        return Err(DriverError::Compile {
            file: file.to_owned(),
            diagnostics: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    Ok(())
}

fn temp_path(work_dir: &Path, what: &str) -> PathBuf {
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    work_dir.join(format!("{what}-{}-{seq}.ll", std::process::id()))
}

fn read_and_remove(path: &Path) -> Result<String, DriverError> {
    let text = std::fs::read_to_string(path).map_err(|e| DriverError::Io {
        path: path.to_owned(),
        source: e,
    });
    let _ = std::fs::remove_file(path);
    text
}

/// Runs `opt` on LLVM IR text.
pub fn optimize(opt: &Path, ll: &str, work_dir: &Path) -> Result<String, DriverError> {
    let input = temp_path(work_dir, "inline");
    let output = temp_path(work_dir, "opt");
    std::fs::write(&input, ll).map_err(|e| DriverError::Io {
        path: input.clone(),
        source: e,
    })?;
    let mut cmd = Command::new(opt);
    cmd.args(OPT_FLAGS).arg(&input).arg("-o").arg(&output);
    let r = run(cmd, opt, &input);
    let _ = std::fs::remove_file(&input);
    r?;
    read_and_remove(&output)
}

fn compile(
    cxx: &Path,
    include: &Path,
    source: &Path,
    work_dir: &Path,
) -> Result<String, DriverError> {
    let out = temp_path(work_dir, "analysis");
    let src_dir = source.parent().unwrap_or(Path::new("."));
    let mut cmd = Command::new(cxx);
    cmd.args(ANALYSIS_FLAGS)
        .arg("-I")
        .arg(include)
        .arg("-I")
        .arg(src_dir)
        .arg(source)
        .arg("-o")
        .arg(&out);
    run(cmd, cxx, source)?;
    read_and_remove(&out)
}
