//! `puzzle merge`: join the JSON Lines of a sharded run's shards into what one unsharded run
//! writes (the records in item order, the summaries, an experiment's report and plots, a
//! generation's XSB levels), through [`puzzle_jobs::merge`].

use crate::common::{save_report, CommonArgs};
use anyhow::{Context, Result};
use puzzle_jobs::merge::{merge as join, RunFile};
use puzzle_jobs::{EventKind, JobRequest};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Arguments of `puzzle merge`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each FILE is the --json output of one shard (`--shard I/N`), or of a resumed \
run; the files may come in any order. The merge refuses files of different runs (naming the \
first differing setting), an item in two files, and missing items (naming them: resume the \
shard that did not finish with --resume). A cut-off last line and a seed whose generation did \
not finish are left out with a note. Records lose their `shard` field, so the merged output \
equals an unsharded run's (apart from the times)."
)]
pub struct MergeArgs {
    /// The shards' JSON Lines files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the merged JSON Lines here (default: standard output).
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
    /// Experiments: write the Markdown report here and its plots beside it, as the experiment's
    /// own --out does.
    #[arg(long, value_name = "FILE.md")]
    pub report: Option<PathBuf>,
    /// Generation (`generate sokoban --seeds`): write the levels to this XSB file, as
    /// `generate sokoban --out` does.
    #[arg(long, value_name = "FILE.xsb")]
    pub xsb: Option<PathBuf>,
}

/// `puzzle merge FILE... [--out FILE] [--report FILE.md] [--xsb FILE.xsb]`.
pub fn merge(args: MergeArgs, common: &CommonArgs) -> Result<()> {
    let mut files = Vec::new();
    for path in &args.files {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let file = RunFile::parse(
            &path.display().to_string(),
            &String::from_utf8_lossy(&bytes),
        )?;
        for note in &file.notes {
            eprintln!("{note}");
        }
        files.push(file);
    }
    let request = join(&files)?;
    let (width, height) = match &request {
        JobRequest::SokobanGenerate(r) => (r.width, r.height),
        _ => (0, 0),
    };
    if args.xsb.is_some() && width == 0 {
        anyhow::bail!(
            "--xsb writes generated levels, but these files are a {} run",
            request.name()
        );
    }
    let mut lines = Vec::new();
    let mut xsb = String::new();
    let stop = Arc::new(AtomicBool::new(false));
    let report = request.run_report(&stop, &mut |kind, value| {
        if width > 0 && kind == EventKind::Result {
            let level: puzzle_jobs::sokogen::LevelRecord = serde_json::from_value(value.clone())?;
            xsb.push_str(&puzzle_jobs::sokogen::xsb_entry(&level, width, height));
        }
        if request.printed(kind) {
            lines.push(serde_json::to_string(&value)?);
        }
        Ok(())
    })?;
    let mut text = lines.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    match &args.out {
        Some(path) => std::fs::write(path, &text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            lock.write_all(text.as_bytes())
                .and_then(|_| lock.flush())
                .context("writing to standard output")?;
        }
    }
    if let Some(path) = &args.xsb {
        std::fs::write(path, &xsb).with_context(|| format!("cannot write {}", path.display()))?;
    }
    match (report, &args.report) {
        (Some(report), Some(path)) => {
            // The report's messages go to stderr: stdout holds the JSON Lines.
            let quiet = CommonArgs {
                json: true,
                ..common.clone()
            };
            save_report(&quiet, Some(path), &report)?;
            if !common.quiet {
                eprintln!("report written to {}", path.display());
            }
        }
        (None, Some(_)) => {
            anyhow::bail!("--report: a {} run has no report", request.name())
        }
        _ => {}
    }
    Ok(())
}
