//! `puzzle serve`: the workbench in the browser (crate `puzzle-server`).

use crate::common::CommonArgs;
use anyhow::Result;
use puzzle_server::{serve_blocking, ServerConfig};
use std::net::IpAddr;
use std::time::Duration;

/// Arguments of `puzzle serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8765)]
    pub port: u16,
    /// The address to listen on. The default, 127.0.0.1, lets only this machine in; another
    /// address opens the workbench (still behind its token) to the network.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: IpAddr,
    /// Open the workbench in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Searches that may run at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = crate::common::parse_positive_usize)]
    pub max_jobs: Option<usize>,
    /// The longest any job may run, in seconds.
    #[arg(long, default_value_t = 600.0, value_name = "SECS", value_parser = crate::common::parse_seconds)]
    pub job_time_cap: f64,
    /// Use this token instead of a random one (for scripts; keep it secret).
    #[arg(
        long,
        value_name = "TOKEN",
        env = "PUZZLE_TOKEN",
        hide_env_values = true
    )]
    pub token: Option<String>,
}

/// `puzzle serve`.
pub fn serve(args: ServeArgs, _common: &CommonArgs) -> Result<()> {
    let defaults = ServerConfig::default();
    let config = ServerConfig {
        bind: args.bind,
        port: args.port,
        token: args.token,
        max_jobs: args.max_jobs.unwrap_or(defaults.max_jobs),
        job_time_cap: Duration::from_secs_f64(args.job_time_cap),
    };
    let open = args.open;
    serve_blocking(config, |url| {
        println!("puzzle-search workbench: {url}");
        println!("(Ctrl-C stops the server)");
        if open {
            open_browser(url);
        }
    })
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("cannot open a browser ({opener}: {e}); open the URL above yourself");
    }
}
