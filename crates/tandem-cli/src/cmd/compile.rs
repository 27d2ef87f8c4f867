//! `tandem compile`: an NF to its deployable pair (Gallium §4.3) — the switch program, the
//! server partition, the plan, the manifest and the report — and the sizes of each (the
//! paper's Table 1).

use std::path::{Path, PathBuf};

use anyhow::Context;
use tandem_p4::{Arch, P4Options};

#[derive(clap::Args)]
pub struct Args {
    /// The NF source (`.cc`), or its NF IR (`.nfir`).
    pub nf: PathBuf,
    /// Switch architecture of the generated P4: `v1model` (BMv2, Tandem's switch) or `tna`
    /// (Tofino). docs/targets.md says what each accepts.
    #[arg(long, default_value = "v1model")]
    pub target: String,
    /// Target profile for partitioning: a built-in name (tofino1, tofino2, bmv2, tiny) or a
    /// `.toml` file.
    #[arg(long, default_value = "tofino1")]
    pub profile: String,
    /// Output directory.
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// The switch port the server is attached to.
    #[arg(long, default_value_t = 64)]
    pub server_port: u16,
    /// Leave out the write-back tables and visibility flag of atomic update.
    #[arg(long)]
    pub no_atomic_update: bool,
    /// Give every value its own metadata field (no slot reuse by liveness).
    #[arg(long)]
    pub no_metadata_reuse: bool,
    /// Keep one P4 statement and metadata field per value (no folding of single-use
    /// arithmetic into its reader).
    #[arg(long)]
    pub no_inline: bool,
    /// Print the generated P4 program.
    #[arg(long)]
    pub show_p4: bool,
    /// Print the generated server C++.
    #[arg(long)]
    pub show_cpp: bool,
    /// Print the manifest.
    #[arg(long)]
    pub show_manifest: bool,
    /// Do not copy join tails (see `tandem partition --help`).
    #[arg(long)]
    pub no_split_joins: bool,
    /// Do not keep derived state classes on the switch (see `tandem partition --help`).
    #[arg(long)]
    pub no_state_classes: bool,
    /// Size switch tables for at most N entries (default: each map's capacity); entries
    /// that do not fit stay on the server and their packets take the slow path.
    #[arg(long, value_name = "N")]
    pub max_table_size: Option<u64>,
    #[command(flatten)]
    pub partial: super::partition::PartialArgs,
    #[command(flatten)]
    pub layout: super::partition::LayoutArgs,
    /// Rate-limit the packets the switch sends to the server: PPS packets per second,
    /// bursts of BURST (default PPS/10); excess ones are dropped at the switch and counted
    /// (docs/runtime.md "Server meter").
    #[arg(long, value_name = "PPS[:BURST]")]
    pub server_rate: Option<tandem_p4::ServerRate>,
    /// Generate the cluster dispatch: pre picks one of several servers by a hash of the
    /// flow, with the membership registers, Bloom filters and pin table (docs/cluster.md).
    #[arg(long)]
    pub cluster: bool,
    /// The NF's configuration (default: the `.toml` next to the source, if any); `tandem
    /// run` runs `configure()` with it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Also write the HTML report (always written as report.html in the output directory)
    /// to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Non-blank lines.
fn lines(text: &str) -> usize {
    text.lines().filter(|l| !l.trim().is_empty()).count()
}

/// The C++ source an NF came from: the `.cc` itself, or the IR's first file when it exists.
fn input_source(nf: &Path, module: &tandem_ir::Module) -> Option<(PathBuf, String)> {
    if nf.extension().is_some_and(|e| e == "cc") {
        return std::fs::read_to_string(nf)
            .ok()
            .map(|t| (nf.to_path_buf(), t));
    }
    let first = module.files.values().next()?;
    let path = PathBuf::from(first);
    std::fs::read_to_string(&path).ok().map(|t| (path, t))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let arch = Arch::from_name(&args.target)?;
    let given = super::partition::load_profile(&args.profile)?;
    // `--compress` may choose pipeline folding, which also doubles the stage budget.
    let mut profile = if args.layout.compress.is_some() {
        let m = super::partition::load_module(&args.nf)?;
        super::partition::compressed_profile(&args.layout, &m, &given, Some(arch == Arch::Tna))?
    } else {
        given.clone()
    };
    arch.constrain(&mut profile);
    let tandem_partition::Partitioned { module, info, plan } = super::partition::partition_nf(
        &args.nf,
        &profile,
        !args.no_split_joins,
        &args.partial,
        !args.no_state_classes,
    )?;
    let pools = args.layout.parse_pool(&module, &given)?;
    let p4 = tandem_p4::generate(
        &plan,
        &module,
        &P4Options {
            arch,
            server_port: args.server_port,
            atomic_update: !args.no_atomic_update,
            reuse_metadata: !args.no_metadata_reuse,
            inline_values: !args.no_inline,
            max_table_size: args.max_table_size,
            hashed: args.layout.parse()?,
            alpm: args.layout.parse_alpm(&module, &given)?,
            digest: args.layout.parse_digest(&module, &given)?,
            pool: pools.0,
            pool_auto: pools.1,
            partial_miss_to_server: !args.partial.partial_probe,
            server_rate: args.server_rate,
            dispatch: args.cluster.then(tandem_p4::DispatchShape::default),
            fold_port: tandem_p4::fold::FOLD_PORT,
        },
    )
    .with_context(|| format!("generating P4 for {}", args.nf.display()))?;
    let p4_text = tandem_p4_syntax::print_program(&p4.program);
    let cc = tandem_cpp::generate(&plan, &module)
        .with_context(|| format!("generating C++ for {}", args.nf.display()))?;
    let report = tandem_partition::report_with_source(&module, &info, &profile, &plan, |f| {
        std::fs::read_to_string(f).ok()
    });

    let out = &args.output;
    std::fs::create_dir_all(out.join("include/tandem"))
        .with_context(|| format!("creating {}", out.display()))?;
    let write = |name: &str, text: &str| -> anyhow::Result<()> {
        let path = out.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    };
    write("switch.p4", &p4_text)?;
    write("server.cc", &cc)?;
    write(
        tandem_cpp::SERVER_H_PATH
            .replace("tandem/", "include/tandem/")
            .as_str(),
        tandem_cpp::SERVER_H,
    )?;
    write("plan.json", &(plan.to_json() + "\n"))?;
    write("manifest.json", &(p4.manifest.to_json() + "\n"))?;
    write("switch.p4info.txt", &p4.manifest.to_p4info_text())?;
    let input = input_source(&args.nf, &module);
    // Where `tandem run` finds configure(): the NF source and its configuration.
    if let Some((src, _)) = &input {
        let abs = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let config = args
            .config
            .clone()
            .or_else(|| Some(src.with_extension("toml")).filter(|p| p.is_file()));
        let nf = tandem_offload::NfSource::new(abs(src), config.as_deref().map(abs));
        write(
            "nf.json",
            &(serde_json::to_string_pretty(&nf).unwrap_or_default() + "\n"),
        )?;
    }
    let (in_name, in_lines) = match &input {
        Some((p, t)) => (p.display().to_string(), Some(lines(t))),
        None => (args.nf.display().to_string(), None),
    };
    let m = p4.metadata;
    let (meta_bytes, reused) = if m.fields_before > 0 {
        (
            m.bits_after.div_ceil(8),
            format!(", {} before slot reuse", m.bits_before.div_ceil(8)),
        )
    } else {
        (0, String::new())
    };
    let sizes = format!(
        "sizes (non-blank lines, as Gallium's Table 1):\n  input C++   {:>6}  {in_name}\n  switch P4   {:>6}  switch.p4 ({} tables, {} registers, {} metadata bytes{})\n  server C++  {:>6}  server.cc ({} of {} statements on the server)\n",
        in_lines.map(|n| n.to_string()).unwrap_or_else(|| "?".into()),
        lines(&p4_text),
        p4.manifest.tables.len(),
        p4.manifest.registers.len(),
        meta_bytes,
        reused,
        lines(&cc),
        plan.summary.server,
        plan.summary.pre + plan.summary.server + plan.summary.post,
    );
    let build = "build the server partition: clang++-16 -std=c++17 -O2 -shared -fPIC -Iinclude server.cc -o server.so\n";
    let mut compression = super::partition::compression_report(
        &args.layout,
        &module,
        &given,
        Some(arch == Arch::Tna),
    )?
    .map(|r| format!("{r}\n"))
    .unwrap_or_default();
    // What the back end did with the pools, and their memory apart and pooled.
    let mut pool_lines: Vec<String> = p4
        .notes
        .iter()
        .filter(|n| n.contains("not emitted") || n.starts_with("pipeline folding"))
        .cloned()
        .collect();
    pool_lines.extend(args.layout.pool_report(&module, &given, &p4.manifest)?);
    if let Some(r) =
        super::partition::fold_scale_report(&args.layout, &module, &given, &p4.manifest)?
    {
        pool_lines.extend(r.lines().map(str::to_string));
    }
    for line in &pool_lines {
        eprintln!("note: {line}");
        compression.push_str(line);
        compression.push('\n');
    }
    write(
        "report.txt",
        &format!("{report}\n{compression}{sizes}{build}"),
    )?;
    let html = tandem_partition::html::html_report(&plan, |f| std::fs::read_to_string(f).ok(), &[]);
    write("report.html", &html)?;
    if let Some(f) = &args.html {
        std::fs::write(f, &html).with_context(|| format!("writing {}", f.display()))?;
    }
    println!("{}: wrote switch.p4, switch.p4info.txt, server.cc, include/tandem/server.h, plan.json, manifest.json, nf.json, report.txt, report.html to {}", plan.nf, out.display());
    print!("{sizes}");
    if args.show_p4 {
        print!("{p4_text}");
    }
    if args.show_cpp {
        print!("{cc}");
    }
    if args.show_manifest {
        println!("{}", p4.manifest.to_json());
    }
    Ok(())
}
