//! `tandem host` (under construction).
#[derive(clap::Args)]
pub struct Args {}

pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {} = args;
    anyhow::bail!("not yet implemented")
}
