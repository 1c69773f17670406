//! Playout policies (SPEC §C "Playout policies"; Czech thesis §3.3.3; Hungarian paper §3.3).
//!
//! A [`Playout`] enumerates the groups of the current board into its own [`Scratch`] (no
//! allocation after the first playout), lets a [`GroupChooser`] pick one, removes it, and
//! repeats until no group is left. The choosers:
//!
//! - [`Uniform`] (Random): every group equally likely;
//! - [`Tabu`] (the thesis's Random Tabu, SPEC "TabuRandom"): the colour with the most stones
//!   (recomputed before each move) is tabu while a group of another colour exists;
//! - [`TabuColour`] (Schadd's TabuColorRandom): the tabu colour is fixed at the start of the
//!   playout (the most frequent one then);
//! - [`PseudoRandom`] (Pseudo Random(k)): look at `k` groups from a random point of the scan
//!   and take the one whose colour has the fewest stones;
//! - [`PseudoRandomTabu`]: the same among the non-tabu groups;
//! - [`DoubleTabu`] (Random Double Tabu): the two most frequent colours are tabu; then the
//!   less frequent of them, the most frequent last;
//! - [`EpsilonGreedy`]: a uniformly random group with probability ε, else the inner chooser
//!   (Hungarian paper §3.3);
//! - [`Roulette`]: a group with probability proportional to `(n − 1)²` (roulette-wheel
//!   selection, Hungarian paper §3.3).
//!
//! [`AnyChooser`] selects one of them at run time (the CLI's `--playout`).

use crate::board::{Board, Group, Scratch};
use puzzle_engine::{PlayoutPolicy, Rng};
use std::fmt;
use std::str::FromStr;

/// Picks the group to remove at each step of a playout.
pub trait GroupChooser: Clone + Send + Sync {
    /// Called once at the start of each playout.
    fn start(&mut self, board: &Board, rng: &mut Rng) {
        let _ = (board, rng);
    }
    /// The index in `groups` (non-empty) of the group to remove.
    fn choose(&mut self, board: &Board, groups: &[Group], rng: &mut Rng) -> usize;
}

/// A playout policy for [`Board`] driven by a [`GroupChooser`].
#[derive(Clone, Debug, Default)]
pub struct Playout<C> {
    /// The move selection rule.
    pub chooser: C,
    /// Stop after this many moves (None: play to the end).
    pub max_moves: Option<usize>,
    scratch: Scratch,
}

impl<C: GroupChooser> Playout<C> {
    /// A playout to the end of the game with `chooser`.
    pub fn new(chooser: C) -> Self {
        Playout {
            chooser,
            max_moves: None,
            scratch: Scratch::new(),
        }
    }

    /// Play one playout from `state` without recording the moves; returns the moves played.
    pub fn run(&mut self, state: &mut Board, rng: &mut Rng) -> usize {
        self.chooser.start(state, rng);
        let limit = self.max_moves.unwrap_or(usize::MAX);
        let mut played = 0;
        while played < limit && state.find_groups(&mut self.scratch) > 0 {
            let k = self.chooser.choose(state, &self.scratch.groups, rng);
            let cell = self.scratch.groups[k].cell as usize;
            state.remove_group(cell, &mut self.scratch);
            played += 1;
        }
        played
    }
}

impl<C: GroupChooser> PlayoutPolicy<Board> for Playout<C> {
    fn playout(&mut self, state: &mut Board, rng: &mut Rng, trace: &mut Vec<crate::Move>) {
        self.chooser.start(state, rng);
        let limit = self.max_moves.unwrap_or(usize::MAX);
        let mut played = 0;
        while played < limit && state.find_groups(&mut self.scratch) > 0 {
            let k = self.chooser.choose(state, &self.scratch.groups, rng);
            let cell = self.scratch.groups[k].cell;
            trace.push(state.move_of(cell));
            state.remove_group(cell as usize, &mut self.scratch);
            played += 1;
        }
    }
}

/// The colour with the most stones (ties: the lowest colour).
#[inline]
fn most_frequent(board: &Board) -> u8 {
    let counts = board.counts();
    let mut best = 1;
    for c in 2..counts.len() {
        if counts[c] > counts[best] {
            best = c;
        }
    }
    best as u8
}

/// The two colours with the most stones, most frequent first.
#[inline]
fn two_most_frequent(board: &Board) -> (u8, u8) {
    let counts = board.counts();
    let (mut a, mut b) = (0usize, 0usize);
    for c in 1..counts.len() {
        if a == 0 || counts[c] > counts[a] {
            b = a;
            a = c;
        } else if b == 0 || counts[c] > counts[b] {
            b = c;
        }
    }
    (a as u8, b as u8)
}

/// A uniformly random group among those satisfying `keep`, or None if there is none.
#[inline]
fn uniform_where(groups: &[Group], rng: &mut Rng, keep: impl Fn(&Group) -> bool) -> Option<usize> {
    let n = groups.iter().filter(|g| keep(g)).count();
    if n == 0 {
        return None;
    }
    let mut k = rng.below(n);
    for (i, g) in groups.iter().enumerate() {
        if keep(g) {
            if k == 0 {
                return Some(i);
            }
            k -= 1;
        }
    }
    None
}

/// Random: every group equally likely.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl GroupChooser for Uniform {
    #[inline]
    fn choose(&mut self, _board: &Board, groups: &[Group], rng: &mut Rng) -> usize {
        rng.below(groups.len())
    }
}

/// Random Tabu (Czech thesis §3.3.3): the currently most frequent colour is tabu while any
/// group of another colour exists.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tabu;

impl GroupChooser for Tabu {
    #[inline]
    fn choose(&mut self, board: &Board, groups: &[Group], rng: &mut Rng) -> usize {
        let tabu = most_frequent(board);
        uniform_where(groups, rng, |g| g.colour != tabu).unwrap_or_else(|| rng.below(groups.len()))
    }
}

/// TabuColorRandom (Schadd et al. 2012): the colour most frequent at the start of the playout
/// stays tabu for the whole playout while any group of another colour exists.
#[derive(Clone, Copy, Debug, Default)]
pub struct TabuColour {
    tabu: u8,
}

impl GroupChooser for TabuColour {
    fn start(&mut self, board: &Board, _rng: &mut Rng) {
        self.tabu = most_frequent(board);
    }
    #[inline]
    fn choose(&mut self, _board: &Board, groups: &[Group], rng: &mut Rng) -> usize {
        let tabu = self.tabu;
        uniform_where(groups, rng, |g| g.colour != tabu).unwrap_or_else(|| rng.below(groups.len()))
    }
}

/// Look at `k` groups from a random point of the scan and return the one whose colour has
/// the fewest stones (among the groups `keep` accepts); None if none is accepted.
fn least_frequent_of(
    board: &Board,
    groups: &[Group],
    k: usize,
    rng: &mut Rng,
    keep: impl Fn(&Group) -> bool,
) -> Option<usize> {
    let n = groups.len();
    let counts = board.counts();
    let start = rng.below(n);
    let mut best: Option<usize> = None;
    let mut seen = 0;
    for step in 0..n {
        let i = (start + step) % n;
        let g = &groups[i];
        if !keep(g) {
            continue;
        }
        if best.is_none_or(|b| counts[g.colour as usize] < counts[groups[b].colour as usize]) {
            best = Some(i);
        }
        seen += 1;
        if seen >= k {
            break;
        }
    }
    best
}

/// Pseudo Random(k) (Czech thesis §3.3.3): of `k` groups found from a random point, the one
/// of the least frequent colour.
#[derive(Clone, Copy, Debug)]
pub struct PseudoRandom {
    /// Groups compared.
    pub k: usize,
}

impl Default for PseudoRandom {
    fn default() -> Self {
        PseudoRandom { k: 3 }
    }
}

impl GroupChooser for PseudoRandom {
    fn choose(&mut self, board: &Board, groups: &[Group], rng: &mut Rng) -> usize {
        least_frequent_of(board, groups, self.k.max(1), rng, |_| true).unwrap_or(0)
    }
}

/// Pseudo Random Tabu (Czech thesis §3.3.3): Pseudo Random(k) among the groups not of the
/// most frequent colour (all groups if only that colour is left).
#[derive(Clone, Copy, Debug)]
pub struct PseudoRandomTabu {
    /// Groups compared.
    pub k: usize,
}

impl Default for PseudoRandomTabu {
    fn default() -> Self {
        PseudoRandomTabu { k: 3 }
    }
}

impl GroupChooser for PseudoRandomTabu {
    fn choose(&mut self, board: &Board, groups: &[Group], rng: &mut Rng) -> usize {
        let tabu = most_frequent(board);
        let k = self.k.max(1);
        least_frequent_of(board, groups, k, rng, |g| g.colour != tabu)
            .or_else(|| least_frequent_of(board, groups, k, rng, |_| true))
            .unwrap_or(0)
    }
}

/// Random Double Tabu (Czech thesis §3.3.3): the two most frequent colours are tabu; if only
/// they are left, the less frequent of them first, the most frequent last.
#[derive(Clone, Copy, Debug, Default)]
pub struct DoubleTabu;

impl GroupChooser for DoubleTabu {
    fn choose(&mut self, board: &Board, groups: &[Group], rng: &mut Rng) -> usize {
        let (first, second) = two_most_frequent(board);
        uniform_where(groups, rng, |g| g.colour != first && g.colour != second)
            .or_else(|| uniform_where(groups, rng, |g| g.colour == second))
            .unwrap_or_else(|| rng.below(groups.len()))
    }
}

/// ε-greedy (Hungarian paper §3.3): a uniformly random group with probability ε, else the
/// inner chooser's.
#[derive(Clone, Debug)]
pub struct EpsilonGreedy<C> {
    /// Probability of a uniformly random move.
    pub epsilon: f64,
    /// The heuristic otherwise followed.
    pub inner: C,
}

impl<C: GroupChooser> GroupChooser for EpsilonGreedy<C> {
    fn start(&mut self, board: &Board, rng: &mut Rng) {
        self.inner.start(board, rng);
    }
    fn choose(&mut self, board: &Board, groups: &[Group], rng: &mut Rng) -> usize {
        if rng.chance(self.epsilon) {
            rng.below(groups.len())
        } else {
            self.inner.choose(board, groups, rng)
        }
    }
}

/// Roulette wheel (Hungarian paper §3.3): a group of `n` stones with probability
/// proportional to `(n − 1)²`, so large groups are favoured and pairs remain possible.
#[derive(Clone, Copy, Debug, Default)]
pub struct Roulette;

impl GroupChooser for Roulette {
    fn choose(&mut self, _board: &Board, groups: &[Group], rng: &mut Rng) -> usize {
        let weight = |g: &Group| {
            let k = g.size as u64 - 1;
            k * k
        };
        let total: u64 = groups.iter().map(weight).sum();
        let mut x = rng.below(total as usize) as u64;
        for (i, g) in groups.iter().enumerate() {
            let w = weight(g);
            if x < w {
                return i;
            }
            x -= w;
        }
        groups.len() - 1
    }
}

/// Any of the choosers, picked at run time (`--playout NAME`).
///
/// Names: `random`, `tabu`, `tabu-colour`, `pseudo` / `pseudo-K`, `pseudo-tabu` /
/// `pseudo-tabu-K`, `double-tabu`, `roulette`, and `eps<E>-<name>` for ε-greedy
/// (e.g. `eps0.1-tabu`).
///
/// ```
/// use puzzle_samegame::playout::AnyChooser;
/// let c: AnyChooser = "eps0.05-pseudo-tabu-4".parse().unwrap();
/// assert_eq!(c.to_string(), "eps0.05-pseudo-tabu-4");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum AnyChooser {
    /// [`Uniform`].
    Random,
    /// [`Tabu`].
    Tabu,
    /// [`TabuColour`] (the tabu colour of the current playout).
    TabuColour(u8),
    /// [`PseudoRandom`] with k.
    PseudoRandom(usize),
    /// [`PseudoRandomTabu`] with k.
    PseudoRandomTabu(usize),
    /// [`DoubleTabu`].
    DoubleTabu,
    /// [`Roulette`].
    Roulette,
    /// [`EpsilonGreedy`] around another chooser.
    EpsilonGreedy(f64, Box<AnyChooser>),
}

impl Default for AnyChooser {
    /// Random Tabu, the thesis's best playout policy.
    fn default() -> Self {
        AnyChooser::Tabu
    }
}

impl GroupChooser for AnyChooser {
    fn start(&mut self, board: &Board, rng: &mut Rng) {
        match self {
            AnyChooser::TabuColour(t) => *t = most_frequent(board),
            AnyChooser::EpsilonGreedy(_, inner) => inner.start(board, rng),
            _ => {}
        }
    }

    #[inline]
    fn choose(&mut self, board: &Board, groups: &[Group], rng: &mut Rng) -> usize {
        match self {
            AnyChooser::Random => rng.below(groups.len()),
            AnyChooser::Tabu => Tabu.choose(board, groups, rng),
            AnyChooser::TabuColour(t) => TabuColour { tabu: *t }.choose(board, groups, rng),
            AnyChooser::PseudoRandom(k) => PseudoRandom { k: *k }.choose(board, groups, rng),
            AnyChooser::PseudoRandomTabu(k) => {
                PseudoRandomTabu { k: *k }.choose(board, groups, rng)
            }
            AnyChooser::DoubleTabu => DoubleTabu.choose(board, groups, rng),
            AnyChooser::Roulette => Roulette.choose(board, groups, rng),
            AnyChooser::EpsilonGreedy(eps, inner) => {
                if rng.chance(*eps) {
                    rng.below(groups.len())
                } else {
                    inner.choose(board, groups, rng)
                }
            }
        }
    }
}

impl fmt::Display for AnyChooser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyChooser::Random => write!(f, "random"),
            AnyChooser::Tabu => write!(f, "tabu"),
            AnyChooser::TabuColour(_) => write!(f, "tabu-colour"),
            AnyChooser::PseudoRandom(k) => write!(f, "pseudo-{k}"),
            AnyChooser::PseudoRandomTabu(k) => write!(f, "pseudo-tabu-{k}"),
            AnyChooser::DoubleTabu => write!(f, "double-tabu"),
            AnyChooser::Roulette => write!(f, "roulette"),
            AnyChooser::EpsilonGreedy(e, inner) => write!(f, "eps{e}-{inner}"),
        }
    }
}

impl FromStr for AnyChooser {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad_k = |k: &str| format!("'{k}' in playout '{s}' is not a group count from 1 to 1000");
        let parse_k = |k: &str| match k.parse::<usize>() {
            Ok(v) if (1..=1000).contains(&v) => Ok(v),
            _ => Err(bad_k(k)),
        };
        if let Some(rest) = s.strip_prefix("eps") {
            let (e, inner) = rest
                .split_once('-')
                .ok_or_else(|| format!("playout '{s}': expected eps<E>-<playout>, e.g. eps0.1-tabu"))?;
            let eps: f64 = e
                .parse()
                .ok()
                .filter(|v: &f64| (0.0..=1.0).contains(v))
                .ok_or_else(|| format!("playout '{s}': ε '{e}' is not a probability in [0, 1]"))?;
            return Ok(AnyChooser::EpsilonGreedy(eps, Box::new(inner.parse()?)));
        }
        match s {
            "random" => return Ok(AnyChooser::Random),
            "tabu" | "random-tabu" => return Ok(AnyChooser::Tabu),
            "tabu-colour" | "tabu-color" => return Ok(AnyChooser::TabuColour(0)),
            "pseudo" | "pseudo-random" => return Ok(AnyChooser::PseudoRandom(3)),
            "pseudo-tabu" | "pseudo-random-tabu" => return Ok(AnyChooser::PseudoRandomTabu(3)),
            "double-tabu" | "random-double-tabu" => return Ok(AnyChooser::DoubleTabu),
            "roulette" => return Ok(AnyChooser::Roulette),
            _ => {}
        }
        if let Some(k) = s.strip_prefix("pseudo-tabu-") {
            return Ok(AnyChooser::PseudoRandomTabu(parse_k(k)?));
        }
        if let Some(k) = s.strip_prefix("pseudo-") {
            return Ok(AnyChooser::PseudoRandom(parse_k(k)?));
        }
        Err(format!(
            "unknown playout '{s}' (expected random, tabu, tabu-colour, pseudo[-K], pseudo-tabu[-K], \
             double-tabu, roulette or eps<E>-<playout>)"
        ))
    }
}
