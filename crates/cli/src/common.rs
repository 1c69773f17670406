//! What every subcommand shares: the common flags, JSON Lines / text output written as results
//! are found, progress bars on stderr, the stop flag set by Ctrl-C and SIGTERM, atomic file writes, exit codes, and argument validation.

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Flags every subcommand accepts (they may stand anywhere on the command line).
#[derive(Args, Clone, Debug, Default)]
pub struct CommonArgs {
    /// The budget flags (`--seed`, `--time-limit`, `--iterations`, `--threads`,
    /// `--max-nodes`), declared on the jobs' [`puzzle_jobs::Limits`].
    #[command(flatten)]
    pub limits: puzzle_jobs::Limits,
    /// Write JSON Lines (one object per result) on stdout instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// No progress bars.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// At exit, print the process's peak resident memory on standard error as a JSON object
    /// `{"peak_rss_bytes": N}` (Linux; what `--max-nodes` bounds, docs/ROBUSTNESS.md#memory).
    /// `bench sokoban --per-level` also gives each level's record a `peak_rss_bytes` field: the
    /// peak while that level ran (the kernel's peak is reset after each level).
    #[arg(long, global = true)]
    pub peak_memory: bool,
    /// Write the searches' debug traces (the Sokoban portfolio's phases, SameGame's NRPA colour
    /// runs, …) on standard error. `RUST_LOG` chooses traces too, finer (e.g.
    /// `RUST_LOG=puzzle_sokoban=debug`); without either, none are written. Traces never change
    /// results or standard output.
    #[arg(long, global = true)]
    pub trace: bool,
}

impl CommonArgs {
    /// The budget settings for a job request.
    pub fn limits(&self) -> puzzle_jobs::Limits {
        self.limits.clone()
    }

    /// The output sink for this run.
    pub fn output(&self) -> Output {
        Output { json: self.json }
    }
}

/// The crates besides the games' (the game registry names those) whose debug events
/// `--trace` turns on.
const TRACED_CRATES: [&str; 4] = [
    "puzzle_engine",
    "puzzle_sokogen",
    "puzzle_jobs",
    "puzzle_cli",
];

/// Install the trace subscriber (events as text lines on standard error) when `--trace` or
/// `RUST_LOG` asks for traces: `--trace` turns on debug events of the project's crates,
/// `RUST_LOG`'s directives (`tracing-subscriber`'s `EnvFilter` syntax) add to them. Without
/// either, no subscriber is installed and the events cost a check each. A `RUST_LOG` that does
/// not parse is reported and left out.
pub fn init_tracing(trace: bool) {
    use tracing_subscriber::EnvFilter;
    let env = std::env::var("RUST_LOG").unwrap_or_default();
    if !trace && env.trim().is_empty() {
        return;
    }
    let mut directives: Vec<String> = Vec::new();
    if trace {
        let games = puzzle_jobs::games::GAMES.iter().map(|g| g.crate_name);
        directives.extend(
            TRACED_CRATES
                .into_iter()
                .chain(games)
                .map(|c| format!("{c}=debug")),
        );
    }
    if !env.trim().is_empty() {
        match EnvFilter::try_new(&env) {
            Ok(_) => directives.push(env),
            Err(e) => eprintln!("warning: RUST_LOG={env} is left out: {e}"),
        }
    }
    if directives.is_empty() {
        return;
    }
    let Ok(filter) = EnvFilter::try_new(directives.join(",")) else {
        return;
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

pub use puzzle_jobs::limits::{parse_positive_usize, parse_seconds};

/// Where results go: JSON Lines or human text on stdout, flushed line by line so that a long
/// run's results are on disk (or in the pipe) as soon as they are found.
#[derive(Clone, Copy, Debug)]
pub struct Output {
    /// JSON Lines mode.
    pub json: bool,
}

impl Output {
    /// Write one JSON object as a line (in JSON mode only).
    pub fn json<T: Serialize>(&self, value: &T) -> Result<()> {
        if self.json {
            let line = serde_json::to_string(value).context("encoding a result as JSON")?;
            write_line(&line)?;
        }
        Ok(())
    }

    /// Write a run's closing summary in JSON mode: on standard error, as one JSON object, so that
    /// standard output keeps exactly one record per item (the solve commands' contract) while a
    /// script or a batch log still sees the summary, interrupted runs included.
    pub fn summary<T: Serialize>(&self, value: &T) -> Result<()> {
        if self.json {
            let line = serde_json::to_string(value).context("encoding the summary as JSON")?;
            eprintln!("{line}");
        }
        Ok(())
    }

    /// Write a line of text (in text mode only).
    pub fn text(&self, line: &str) -> Result<()> {
        if !self.json {
            write_line(line)?;
        }
        Ok(())
    }
}

fn write_line(line: &str) -> Result<()> {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    writeln!(lock, "{line}")
        .and_then(|_| lock.flush())
        .context("writing to standard output")
}

/// The signal that stopped the run (SIGINT, SIGTERM or SIGHUP), 0 while none came.
static STOPPED_BY: AtomicI32 = AtomicI32::new(0);

/// The process-wide stop flag: set by the first SIGINT (Ctrl-C), SIGTERM (what batch schedulers
/// such as Slurm send before they kill a job) or SIGHUP; searches stop, keep what they found,
/// and the command still writes its results, summary and files before it exits with
/// [`exit_code`]'s code. A second signal exits at once (records already written stay whole:
/// every record and level is written in one piece).
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        // If the handler cannot be installed, the signals keep their default action (exit).
        if let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            std::thread::spawn(move || {
                for signal in signals.forever() {
                    if f.swap(true, Ordering::SeqCst) {
                        std::process::exit(128 + signal);
                    }
                    STOPPED_BY.store(signal, Ordering::SeqCst);
                    eprintln!(
                        "\n{}: finishing and keeping what was found (again to quit at once)",
                        signal_name(signal)
                    );
                }
            });
        }
        flag
    })
    .clone()
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "interrupted (SIGINT)",
        SIGTERM => "terminated (SIGTERM)",
        _ => "hung up (SIGHUP)",
    }
}

/// The process's exit code (docs/ROBUSTNESS.md#exit-codes): 0 when the command ran to its end
/// (unsolved puzzles are answers, not failures), 1 for an error, 2 for bad usage (from the
/// argument parser), and 128 + the signal number (130 SIGINT, 143 SIGTERM, 129 SIGHUP) when a
/// signal stopped the run early, after its results and files were written.
pub fn exit_code(result: &Result<()>) -> u8 {
    match (result, STOPPED_BY.load(Ordering::SeqCst)) {
        (Err(e), _) if e.is::<UsageError>() => 2,
        (Err(_), _) => 1,
        (Ok(()), 0) => 0,
        (Ok(()), signal) => u8::try_from(128 + signal).unwrap_or(1),
    }
}

/// A request the job refused before running (an option out of range, options that exclude
/// each other): bad usage, exit code 2, like the argument parser's own errors.
#[derive(Debug)]
pub struct UsageError(pub anyhow::Error);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for UsageError {}

/// Complete a job request that the command line built from the request's own flags: the
/// shared budget flags go in, the job validates it (a refusal is a usage error, exit code 2),
/// and `--shard`/`--resume` are applied. Every command that runs a job goes through here.
pub fn finish_request<R>(req: &mut R, common: &CommonArgs, shard: Option<&ShardArgs>) -> Result<()>
where
    R: puzzle_jobs::Job + Into<puzzle_jobs::JobRequest>,
{
    *req.limits_mut() = common.limits();
    req.validate().map_err(UsageError)?;
    match shard {
        Some(shard) => shard.prepare(common, req),
        None => Ok(()),
    }
}

/// The peak resident set size in bytes since the process started or since the last
/// [`reset_peak_rss`] (`VmHWM` in `/proc/self/status`; `None` where the kernel does not say).
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// The highest peak [`reset_peak_rss`] has cleared, so that [`process_peak_rss_bytes`] is still
/// the whole process's.
static CLEARED_PEAK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Start a new peak for [`peak_rss_bytes`]: from then on it reports the peak since this call
/// (Linux 4.0 and later, by writing 5 to `/proc/self/clear_refs`; elsewhere the peak stays the
/// process's). [`process_peak_rss_bytes`] still gives the whole process's peak. The memory
/// earlier work freed is handed back to the system first, so that the new peak starts from
/// what is in use, not from what the allocator kept.
pub fn reset_peak_rss() {
    if let Some(peak) = peak_rss_bytes() {
        CLEARED_PEAK.fetch_max(peak, std::sync::atomic::Ordering::Relaxed);
    }
    puzzle_engine::memory::release_free_memory();
    // Not every kernel allows it; then the peak is not reset.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident set size in bytes since it started, across
/// [`reset_peak_rss`]'s resets (`None` where the kernel does not say).
pub fn process_peak_rss_bytes() -> Option<u64> {
    let now = peak_rss_bytes()?;
    Some(now.max(CLEARED_PEAK.load(std::sync::atomic::Ordering::Relaxed)))
}

/// Write a whole file atomically: the bytes go to a temporary file in the same directory, which
/// is flushed to disk and then renamed over `path`, so a reader (or a kill at any moment) sees
/// either the old file or the complete new one, never half of it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("cannot write {}: not a file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write {}", path.display()));
    }
    Ok(())
}

/// A progress bar over `len` items on stderr (hidden when stderr is not a terminal or with
/// `--quiet`).
pub fn progress_bar(common: &CommonArgs, len: u64, what: &str) -> ProgressBar {
    if common.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} {what} [{{bar:30}}] {{pos}}/{{len}} {{msg}} ({{elapsed}}, eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}

/// A progress bar for a run of `limit` wall time (position in tenths of a second); call
/// `set_position` from the caller's loop or leave it ticking.
pub fn time_bar(common: &CommonArgs, limit: Duration, what: &str) -> ProgressBar {
    if common.quiet || !std::io::stderr().is_terminal() || limit < Duration::from_secs(1) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new((limit.as_secs_f64() * 10.0).ceil() as u64);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} {what} [{{bar:30}}] {{elapsed}}/{:.0}s {{msg}}",
            limit.as_secs_f64()
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

/// Read a whole text file, with its name in the error.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => bail!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ),
    }
}

/// The file a plot is written to: beside the report `DIR/NAME.md` as `DIR/NAME-<plot>`, or as
/// `<plot>` in the current directory when the report goes to standard output.
pub fn plot_path(report: Option<&Path>, plot: &str) -> std::path::PathBuf {
    match report {
        Some(path) => {
            let stem = path
                .file_stem()
                .map_or("report".into(), |s| s.to_string_lossy().into_owned());
            path.with_file_name(format!("{stem}-{plot}"))
        }
        None => Path::new(plot).to_path_buf(),
    }
}

/// An experiment's Markdown with a closing section that links its plots (by file name: they
/// lie beside the report).
pub fn markdown_with_plots(report: &puzzle_jobs::plot::Report, path: Option<&Path>) -> String {
    let mut md = report.markdown.clone();
    if report.plots.is_empty() {
        return md;
    }
    if !md.ends_with("\n\n") {
        md.push('\n');
    }
    md.push_str("## Plots\n\n");
    for plot in &report.plots {
        let file = plot_path(path, &plot.name);
        let name = file
            .file_name()
            .map_or(plot.name.clone(), |n| n.to_string_lossy().into_owned());
        md.push_str(&format!(
            "![{}]({name})\n\n",
            plot.title.replace(['[', ']'], "")
        ));
    }
    md
}

/// Write an experiment's report and its plots: to `path` with each plot beside it
/// (`DIR/report.md` → `DIR/report-<plot>.svg`), or, without a path, the Markdown to standard
/// output and the plots into the current directory (in text mode only; JSON mode prints the
/// result lines and no report). Says where the plots went.
pub fn save_report(
    common: &CommonArgs,
    path: Option<&Path>,
    report: &puzzle_jobs::plot::Report,
) -> Result<()> {
    let out = common.output();
    if path.is_none() && common.json {
        return Ok(());
    }
    let mut files = Vec::new();
    for plot in &report.plots {
        let file = plot_path(path, &plot.name);
        write_atomic(&file, plot.svg.as_bytes()).context("writing a plot")?;
        files.push(file.display().to_string());
    }
    let md = markdown_with_plots(report, path);
    match path {
        Some(path) => {
            write_atomic(path, md.as_bytes())?;
            out.text(&format!("report written to {}", path.display()))?;
            if !files.is_empty() {
                out.text(&format!("plots written to {}", files.join(", ")))?;
            }
        }
        None => {
            out.text(md.trim_end())?;
            if !files.is_empty() {
                eprintln!(
                    "plots written to the current directory: {}",
                    files.join(", ")
                );
            }
        }
    }
    Ok(())
}

/// `--shard I/N` and `--resume FILE`, on the commands that run many independent items.
#[derive(Args, Clone, Debug, Default)]
pub struct ShardArgs {
    /// Run only shard I of N (1-based; item k of the run goes to shard ((k−1) mod N)+1). Needs
    /// --json: the output starts with a header line, and `puzzle merge` joins the shards'
    /// outputs into the unsharded run's.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<puzzle_jobs::Shard>,
    /// Continue an interrupted run: the items complete in FILE (the JSON Lines of the same
    /// command, flags and shard) are written again as they are and not run; the rest run. Write
    /// the output to a new file (a cut-off last line in FILE is left out).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<std::path::PathBuf>,
}

/// Parse `I/N` (1 ≤ I ≤ N).
pub fn parse_shard(s: &str) -> Result<puzzle_jobs::Shard, String> {
    s.parse()
}

impl ShardArgs {
    /// Whether the run is sharded or resumed (its output then starts with a header line).
    pub fn active(&self) -> bool {
        self.shard.is_some() || self.resume.is_some()
    }

    /// Put the shard and the records of `--resume`'s complete items into `req`, and write the
    /// header line. Nothing happens without `--shard` or `--resume`.
    pub fn prepare<R>(&self, common: &CommonArgs, req: &mut R) -> Result<()>
    where
        R: puzzle_jobs::Job + Into<puzzle_jobs::JobRequest>,
    {
        if !self.active() {
            return Ok(());
        }
        if !common.json {
            bail!("--shard and --resume write JSON Lines for `puzzle merge`: add --json");
        }
        let Some(items) = req.items_mut() else {
            bail!("this command runs one item: it has no --shard or --resume");
        };
        items.shard = self.shard;
        let request: puzzle_jobs::JobRequest = req.clone().into();
        if let Some(path) = &self.resume {
            // A run cut off mid-line may end inside a character: read what is there.
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let text = String::from_utf8_lossy(&bytes);
            let name = path.display().to_string();
            let (done, notes) = puzzle_jobs::merge::resume(&name, &text, &request)?;
            for note in notes {
                eprintln!("{note}");
            }
            if !common.quiet {
                eprintln!(
                    "resuming: {} item{} complete in {name}",
                    done.len(),
                    if done.len() == 1 { "" } else { "s" }
                );
            }
            if let Some(items) = req.items_mut() {
                items.done = done;
            }
        }
        common.output().json(&puzzle_jobs::merge::header(&request)?)
    }
}
