//! `tandem traffic` (under construction).
#[derive(clap::Subcommand)]
pub enum Args {}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args {}
}
