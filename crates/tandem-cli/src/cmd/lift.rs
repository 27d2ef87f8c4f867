//! `tandem lift`: the C++ front end (analysis build → LLVM IR → NF IR), and `tandem explain`.

use std::path::PathBuf;

use anyhow::Context;
use tandem_host::build::{default_cache_dir, find_cxx};

#[derive(clap::Args)]
pub struct Args {
    /// The NF source.
    pub nf: PathBuf,
    /// Print the LLVM IR of the analysis build.
    #[arg(long)]
    pub show_ll: bool,
    /// Print the NF IR (the default when nothing else is asked for).
    #[arg(long)]
    pub show_ir: bool,
    /// Write the NF IR to this file.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Compiles `nf` in the analysis build and lifts it; warnings go to stderr.
pub fn lift_file(nf: &std::path::Path) -> anyhow::Result<(String, tandem_lift::Lifted)> {
    let cache = default_cache_dir();
    let include = tandem_host::nfapi::materialize(&cache)?;
    let ll = tandem_lift::driver::emit_llvm(&find_cxx(), &include, nf, &cache.join("analysis"))?;
    let lifted = tandem_lift::lift(&ll).map_err(|e| anyhow::anyhow!("{e}"))?;
    for w in &lifted.warnings {
        eprintln!("{w}");
    }
    tandem_ir::verify_module(&lifted.module)
        .map_err(|e| anyhow::anyhow!("internal error: the lifted module does not verify:\n{e}"))?;
    Ok((ll, lifted))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (ll, lifted) =
        lift_file(&args.nf).with_context(|| format!("lifting {}", args.nf.display()))?;
    let text = tandem_ir::print_module(&tandem_ir::renumber(&lifted.module));
    if args.show_ll {
        print!("{ll}");
    }
    if let Some(out) = &args.output {
        std::fs::write(out, &text).with_context(|| format!("writing {}", out.display()))?;
    }
    if args.show_ir || (!args.show_ll && args.output.is_none()) {
        print!("{text}");
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct ExplainArgs {
    /// A diagnostic code (e.g. L005) or a partitioning reason from a report (R2, C3,
    /// unsupported).
    pub code: String,
}

pub fn explain(args: ExplainArgs) -> anyhow::Result<()> {
    if let Some(c) = tandem_lift::Code::parse(&args.code) {
        println!("{} ({}): {}\n", c, severity(c), c.title());
        println!("{}", c.explain());
        return Ok(());
    }
    if let Some(r) = tandem_partition::Rule::parse(&args.code) {
        println!("{} (partitioning): {}\n", r.code(), r.title());
        println!("{}", r.explain());
        return Ok(());
    }
    let known: Vec<&str> = tandem_lift::Code::ALL
        .iter()
        .map(|c| c.as_str())
        .chain(tandem_partition::Rule::ALL.iter().map(|r| r.code()))
        .collect();
    anyhow::bail!(
        "unknown code `{}`; known codes: {} (front-end diagnostics L…, partitioning reasons \
         R…/C…)",
        args.code,
        known.join(", ")
    )
}

fn severity(c: tandem_lift::Code) -> &'static str {
    match c.severity() {
        tandem_lift::Severity::Error => "error",
        tandem_lift::Severity::Warning => "warning",
    }
}
