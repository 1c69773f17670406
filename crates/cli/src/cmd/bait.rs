//! `puzzle play bait`, `puzzle experiment bait`, `puzzle bench bait` (SPEC §E): GVGAI's Bait
//! played by the agents of `puzzle-bait` under a per-move CPU budget.

use crate::common::{interrupt_flag, read_text, CommonArgs, Signature};
use anyhow::{bail, Context, Result};
use puzzle_bait::agents::AgentKind;
use puzzle_bait::astar::shortest_win;
use puzzle_bait::{
    actions_to_string, builtin_level, play_game, BaitState, GameConfig, Level, Outcome,
};
use serde::Serialize;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Which level to play: one of GVGAI's five, or a file.
#[derive(Clone, Debug)]
enum LevelChoice {
    Builtin(usize),
    File(PathBuf),
}

impl LevelChoice {
    fn load(&self) -> Result<Level> {
        match self {
            LevelChoice::Builtin(i) => {
                builtin_level(*i).with_context(|| format!("there is no level {i} (0 to 4)"))
            }
            LevelChoice::File(path) => {
                let text = read_text(path)?;
                Level::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
            }
        }
    }

    fn json(&self) -> serde_json::Value {
        match self {
            LevelChoice::Builtin(i) => serde_json::Value::from(*i),
            LevelChoice::File(p) => serde_json::Value::from(p.display().to_string()),
        }
    }

    fn label(&self) -> String {
        match self {
            LevelChoice::Builtin(i) => format!("level {i}"),
            LevelChoice::File(p) => p.display().to_string(),
        }
    }
}

fn parse_level_index(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(v) if v <= 4 => Ok(v),
        _ => Err(format!("'{s}' is not a level number 0 to 4")),
    }
}

fn parse_budget_ms(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of milliseconds"))?;
    if !v.is_finite() || v <= 0.0 || v > 600_000.0 {
        return Err(format!(
            "the budget must be more than 0 and at most 600000 ms, not {s}"
        ));
    }
    Ok(v)
}

/// `puzzle play bait (--level 0..4 | FILE) [--agent ...] [--budget-ms MS]`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// One of GVGAI's five levels (0 to 4).
    #[arg(long, value_name = "N", value_parser = parse_level_index, conflicts_with = "file")]
    pub level: Option<usize>,
    /// A level file in GVGAI's text format (w wall, A avatar, 0 hole, 1 box, k key, g door,
    /// m mushroom, . floor).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The agent: dfs, dls, astar, astar-offline, mcts, mcts-plus.
    #[arg(long, default_value = "astar", value_parser = |s: &str| s.parse::<AgentKind>())]
    pub agent: AgentKind,
    /// CPU time per move in milliseconds (GVGAI: 40).
    #[arg(long, value_name = "MS", default_value = "40", value_parser = parse_budget_ms)]
    pub budget_ms: f64,
    /// Print the board after every tick.
    #[arg(long)]
    pub show: bool,
    /// Write the action sequence (one letter per tick, U D L R N) to this file.
    #[arg(long, value_name = "FILE")]
    pub export: Option<PathBuf>,
}

/// One game as JSON (the contract of issue 7, plus extra fields).
#[derive(Serialize)]
struct GameJson {
    level: serde_json::Value,
    agent: String,
    win: bool,
    score: i32,
    ticks: u32,
    actions: String,
    max_move_ms: f64,
    max_move_wall_ms: f64,
    setup_ms: f64,
    budget_ms: f64,
    seed: u64,
    work: u64,
    interrupted: bool,
}

fn game_config(budget_ms: f64, seed: u64, common: &CommonArgs) -> GameConfig {
    let mut config = GameConfig {
        move_budget: Duration::from_secs_f64(budget_ms / 1e3),
        seed,
        stop: Some(interrupt_flag()),
        ..Default::default()
    };
    if let Some(n) = common.max_nodes {
        config.max_nodes = n;
    }
    config
}

/// Play one game and print it (verified by replay inside `play_game`).
pub fn play(args: PlayArgs, common: &CommonArgs) -> Result<()> {
    let choice = match (&args.level, &args.file) {
        (Some(i), None) => LevelChoice::Builtin(*i),
        (None, Some(f)) => LevelChoice::File(f.clone()),
        (None, None) => bail!("give a level: --level 0..4 or a level FILE"),
        (Some(_), Some(_)) => bail!("give either --level or a FILE, not both"),
    };
    let level = choice.load()?;
    let start = BaitState::new(level);
    let seed = common.seed_or(0);
    let config = game_config(args.budget_ms, seed, common);
    let out = common.output();
    let show = args.show && !common.json;
    if show {
        out.text(&format!("{} — tick 0\n{}", choice.label(), start.render()))?;
    }
    let outcome = play_game(&start, args.agent, &config, |state, action| {
        if show {
            let _ = out.text(&format!(
                "tick {} action {} score {}{}\n{}",
                state.tick(),
                action.letter(),
                state.points(),
                if state.dy.has_key { " (key)" } else { "" },
                state.render()
            ));
        }
    });
    let actions = actions_to_string(&outcome.actions);
    if let Some(path) = &args.export {
        std::fs::write(path, format!("{actions}\n"))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    out.json(&GameJson {
        level: choice.json(),
        agent: args.agent.name().to_string(),
        win: outcome.win,
        score: outcome.score,
        ticks: outcome.ticks,
        actions: actions.clone(),
        max_move_ms: outcome.max_move_ms,
        max_move_wall_ms: outcome.max_move_wall_ms,
        setup_ms: outcome.setup_ms,
        budget_ms: args.budget_ms,
        seed,
        work: outcome.work,
        interrupted: outcome.interrupted,
    })?;
    out.text(&format!(
        "{}: {} {} with score {} in {} ticks (longest move {:.2} ms CPU, {:.2} ms wall; setup {:.0} ms){}",
        choice.label(),
        args.agent,
        if outcome.win { "won" } else { "lost" },
        outcome.score,
        outcome.ticks,
        outcome.max_move_ms,
        outcome.max_move_wall_ms,
        outcome.setup_ms,
        if outcome.interrupted { " [interrupted]" } else { "" }
    ))?;
    out.text(&format!("actions: {actions}"))?;
    Ok(())
}

/// `puzzle experiment bait`: every agent on every level.
#[derive(clap::Args, Debug)]
pub struct ExperimentArgs {
    /// Games per level for the agents that use random numbers (seeds 0, 1, ...).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub seeds: u64,
    /// Agents (comma-separated); default all.
    #[arg(long, value_delimiter = ',', value_parser = |s: &str| s.trim().parse::<AgentKind>())]
    pub agents: Vec<AgentKind>,
    /// Levels (comma-separated, 0 to 4); default all.
    #[arg(long, value_delimiter = ',', value_parser = parse_level_index)]
    pub levels: Vec<usize>,
    /// CPU time per move in milliseconds.
    #[arg(long, value_name = "MS", default_value = "40", value_parser = parse_budget_ms)]
    pub budget_ms: f64,
    /// Write the Markdown report here (default: standard output).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Serialize)]
struct ExperimentGameJson {
    level: usize,
    agent: String,
    seed: u64,
    win: bool,
    score: i32,
    ticks: u32,
    max_move_ms: f64,
    setup_ms: f64,
    actions: String,
}

struct Cell {
    games: u32,
    wins: u32,
    score_sum: i64,
    ticks_sum: u64,
    max_move_ms: f64,
}

/// Play every agent on every level and write the Markdown table.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let agents = if args.agents.is_empty() {
        AgentKind::ALL.to_vec()
    } else {
        args.agents.clone()
    };
    let levels = if args.levels.is_empty() {
        (0..5).collect()
    } else {
        args.levels.clone()
    };
    let out = common.output();
    let base_seed = common.seed_or(0);
    let flag = interrupt_flag();
    let started = Instant::now();
    let mut table: Vec<Vec<Cell>> = Vec::new();
    'agents: for &agent in &agents {
        let mut row = Vec::new();
        for &li in &levels {
            let start = BaitState::new(builtin_level(li).expect("0..=4"));
            let seeds = if agent.is_random() { args.seeds } else { 1 };
            let mut cell = Cell {
                games: 0,
                wins: 0,
                score_sum: 0,
                ticks_sum: 0,
                max_move_ms: 0.0,
            };
            for s in 0..seeds {
                let seed = base_seed + s;
                let config = game_config(args.budget_ms, seed, common);
                let o: Outcome = play_game(&start, agent, &config, |_, _| {});
                if o.interrupted {
                    row.push(cell);
                    table.push(row);
                    break 'agents;
                }
                cell.games += 1;
                cell.wins += o.win as u32;
                cell.score_sum += o.score as i64;
                cell.ticks_sum += o.ticks as u64;
                if agent != AgentKind::AstarOffline {
                    cell.max_move_ms = cell.max_move_ms.max(o.max_move_ms);
                }
                out.json(&ExperimentGameJson {
                    level: li,
                    agent: agent.name().into(),
                    seed,
                    win: o.win,
                    score: o.score,
                    ticks: o.ticks,
                    max_move_ms: o.max_move_ms,
                    setup_ms: o.setup_ms,
                    actions: actions_to_string(&o.actions),
                })?;
                if !common.quiet && !common.json {
                    eprintln!(
                        "{agent} level {li} seed {seed}: {} score {} ticks {} (max move {:.1} ms)",
                        if o.win { "won" } else { "lost" },
                        o.score,
                        o.ticks,
                        o.max_move_ms
                    );
                }
            }
            row.push(cell);
        }
        table.push(row);
        if flag.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
    }
    let report = markdown_report(
        &agents,
        &levels,
        &table,
        &args,
        base_seed,
        started.elapsed(),
    );
    match &args.output {
        Some(path) => {
            std::fs::write(path, &report)
                .with_context(|| format!("cannot write {}", path.display()))?;
            out.text(&format!("report written to {}", path.display()))?;
        }
        None => {
            if !common.json {
                print!("{report}");
            }
        }
    }
    Ok(())
}

fn markdown_report(
    agents: &[AgentKind],
    levels: &[usize],
    table: &[Vec<Cell>],
    args: &ExperimentArgs,
    base_seed: u64,
    elapsed: Duration,
) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "## Bait: every agent on GVGAI's levels\n\n{} ms CPU per move; random agents (dls, mcts, \
         mcts-plus) {} games per level (seeds {}..{}), the others one. Cell: wins/games, mean score, \
         mean ticks. `max ms`: the longest CPU time any move took (astar-offline plans before the \
         game and is not timed per move). Run time {:.0} s.\n\n",
        args.budget_ms,
        args.seeds,
        base_seed,
        base_seed + args.seeds - 1,
        elapsed.as_secs_f64()
    ));
    s.push_str("| agent |");
    for l in levels {
        s.push_str(&format!(" level {l} |"));
    }
    s.push_str(" wins | max ms |\n|---|");
    for _ in levels {
        s.push_str("---|");
    }
    s.push_str("---|---|\n");
    for (agent, row) in agents.iter().zip(table) {
        s.push_str(&format!("| {agent} |"));
        let mut levels_won = 0;
        let mut max_ms = 0f64;
        for cell in row {
            if cell.games == 0 {
                s.push_str(" – |");
                continue;
            }
            let g = cell.games as f64;
            s.push_str(&format!(
                " {}/{}, {:.1}, {:.0} |",
                cell.wins,
                cell.games,
                cell.score_sum as f64 / g,
                cell.ticks_sum as f64 / g
            ));
            if cell.wins * 2 > cell.games {
                levels_won += 1;
            }
            max_ms = max_ms.max(cell.max_move_ms);
        }
        for _ in row.len()..levels.len() {
            s.push_str(" – |");
        }
        s.push_str(&format!(" {levels_won}/{} | {max_ms:.1} |\n", levels.len()));
    }
    s.push_str(
        "\n`wins`: levels won in most games.\n\n### References\n\n\
         | source | agent | result |\n|---|---|---|\n\
         | the paper (Chinese report) | DFS | wins the simple levels; too much search on \
         \"the fourth and fifth\" (our 3 and 4) |\n\
         | the paper | depth-limited DFS | level 0 only (level 1 needs a deeper horizon, which \
         breaks the time limit) |\n\
         | the paper | A* | level 0; levels 1–2 not within 100 ms per move (optimal with a \
         larger limit) |\n\
         | the paper | MCTS (GVGAI sample) | \"not satisfactory\" (no figures) |\n\
         | GVGAI (issue 7) | sample MCTS, OLETS | level 0 only (1/5) |\n\
         | known shortest wins | — | level 0: 9 moves (score 5), 1: 38 (7), 2: 53 (9), \
         3: ≤ 48 (12), 4: 37 (11) |\n",
    );
    s
}

/// `puzzle bench bait`: time per move of every agent on one level.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The level (0 to 4).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_level_index)]
    pub level: usize,
    /// CPU time per move in milliseconds.
    #[arg(long, value_name = "MS", default_value = "40", value_parser = parse_budget_ms)]
    pub budget_ms: f64,
}

#[derive(Serialize)]
struct BenchJson {
    level: usize,
    agent: String,
    win: bool,
    score: i32,
    ticks: u32,
    max_move_ms: f64,
    max_move_wall_ms: f64,
    setup_ms: f64,
    work: u64,
}

/// Play every agent once on a level and report the move times.
pub fn bench(args: BenchArgs, common: &CommonArgs) -> Result<()> {
    let out = common.output();
    let start = BaitState::new(builtin_level(args.level).expect("0..=4"));
    out.text(&format!(
        "level {}, {} ms per move\nagent          win score ticks  max-ms(cpu) max-ms(wall) setup-ms work",
        args.level, args.budget_ms
    ))?;
    for agent in AgentKind::ALL {
        let config = game_config(args.budget_ms, common.seed_or(0), common);
        let o = play_game(&start, agent, &config, |_, _| {});
        out.json(&BenchJson {
            level: args.level,
            agent: agent.name().into(),
            win: o.win,
            score: o.score,
            ticks: o.ticks,
            max_move_ms: o.max_move_ms,
            max_move_wall_ms: o.max_move_wall_ms,
            setup_ms: o.setup_ms,
            work: o.work,
        })?;
        out.text(&format!(
            "{:14} {:3} {:5} {:5} {:12.2} {:12.2} {:8.0} {}",
            agent.name(),
            if o.win { "yes" } else { "no" },
            o.score,
            o.ticks,
            o.max_move_ms,
            o.max_move_wall_ms,
            o.setup_ms,
            o.work
        ))?;
        if o.interrupted {
            break;
        }
    }
    Ok(())
}

/// Bait's part of `puzzle bench`: the offline A* (admissible, deterministic) on levels 0–2.
pub fn signature(_common: &CommonArgs) -> Result<Vec<Signature>> {
    let mut out = Vec::new();
    for li in 0..3 {
        let start = BaitState::new(builtin_level(li).expect("0..=4"));
        let t = Instant::now();
        let r = shortest_win(&start, 1_000_000, None);
        let plan = r.plan.context("a bundled level has no win")?;
        out.push(Signature {
            name: format!("bait level {li} astar-offline"),
            work: r.expanded,
            result: plan.len() as f64,
            time_s: t.elapsed().as_secs_f64(),
        });
    }
    Ok(out)
}
