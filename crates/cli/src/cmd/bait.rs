//! `puzzle` commands of this game (placeholder until the game crate lands).

use crate::common::{CommonArgs, Signature};
use anyhow::{bail, Result};

/// Arguments (placeholder).
#[derive(clap::Args, Debug)]
pub struct PlayArgs {}

/// Not built yet.
pub fn play(_args: PlayArgs, _common: &CommonArgs) -> Result<()> {
    bail!("this command is not built yet")
}

/// Arguments (placeholder).
#[derive(clap::Args, Debug)]
pub struct ExperimentArgs {}

/// Not built yet.
pub fn experiment(_args: ExperimentArgs, _common: &CommonArgs) -> Result<()> {
    bail!("this command is not built yet")
}

/// Arguments (placeholder).
#[derive(clap::Args, Debug)]
pub struct BenchArgs {}

/// Not built yet.
pub fn bench(_args: BenchArgs, _common: &CommonArgs) -> Result<()> {
    bail!("this command is not built yet")
}

/// This game's part of the `puzzle bench` signature (none yet).
pub fn signature(_common: &CommonArgs) -> Result<Vec<Signature>> {
    Ok(Vec::new())
}
