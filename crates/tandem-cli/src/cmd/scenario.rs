//! `tandem scenario`: run packet scenario files (docs/scenarios.md) on the reference host.

use std::path::PathBuf;

use tandem_host::scenario::run_native;
use tandem_host::BuildOptions;
use tandem_traffic::scenario::scenario_files;

#[derive(clap::Args)]
pub struct Args {
    /// Scenario files, or directories holding `*.toml` scenarios (e.g.
    /// `examples/nfs/mazunat/scenarios`).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut files = Vec::new();
    for p in &args.paths {
        if p.is_dir() {
            files.extend(scenario_files(p)?);
        } else {
            files.push(p.clone());
        }
    }
    let opts = BuildOptions::default();
    let mut failed = 0;
    for f in &files {
        match run_native(f, &opts) {
            Ok(r) => println!(
                "ok    {}  ({} steps, {} packets: {} sent, {} dropped; {} state checks)",
                f.display(),
                r.steps,
                r.packets,
                r.sent,
                r.dropped,
                r.state_checks
            ),
            Err(e) => {
                failed += 1;
                println!("FAIL  {}\n{e}", f.display());
            }
        }
    }
    if failed > 0 {
        anyhow::bail!("{failed} of {} scenario files failed", files.len());
    }
    println!("{} scenario files passed", files.len());
    Ok(())
}
