//! Playout policies (see `docs/METHODS.md#samegame-playouts`; Czech thesis §3.3.3; Hungarian
//! paper §3.3).
//!
//! A [`Playout`] asks a [`GroupChooser`] for a stone of the group to remove, removes it and
//! repeats until no group is left; it owns its [`Scratch`], so a playout allocates nothing.
//! As in the thesis, the heuristic policies do not enumerate every group: they scan the
//! board from a random starting point until they meet an acceptable group
//! ([`Board::first_group_stone`], a 64-bit word of group stones at a time on the bitboard;
//! [`Board::scan`] for the policies that look at several). The choosers:
//!
//! - [`Uniform`] (Random): every group equally likely (a random group stone, accepted with
//!   probability 1 / group size);
//! - [`Tabu`] (the thesis's Random Tabu, "TabuRandom" in `docs/METHODS.md#samegame-playouts`): the
//!   colour with the most stones (recomputed before each move) is tabu while a group of another
//!   colour exists: the first non-tabu group from a random point;
//! - [`TabuColour`] (Schadd's TabuColorRandom): the tabu colour is fixed at the start of the
//!   playout (the most frequent one then);
//! - [`PseudoRandom`] (Pseudo Random(k)): scan from a random point until `k` group stones
//!   are seen and take the one whose colour has the fewest stones;
//! - [`PseudoRandomTabu`]: the same among the non-tabu colours;
//! - [`DoubleTabu`] (Random Double Tabu): the two most frequent colours are tabu; then the
//!   less frequent of them, the most frequent last;
//! - [`EpsilonGreedy`]: with probability ε the first group from a random point (any
//!   colour), else the inner chooser (Hungarian paper §3.3);
//! - [`Roulette`]: a group with probability proportional to `(n − 1)²` (roulette-wheel
//!   selection, Hungarian paper §3.3; full enumeration).
//!
//! [`AnyChooser`] selects one of them at run time (the CLI's `--playout`).

use crate::board::{Board, Scratch};
use puzzle_engine::{PlayoutPolicy, Rng};
use std::fmt;
use std::str::FromStr;

/// Picks the group to remove at each step of a playout.
pub trait GroupChooser: Clone + Send + Sync {
    /// Called once at the start of each playout.
    fn start(&mut self, board: &Board, rng: &mut Rng) {
        let _ = (board, rng);
    }
    /// The internal cell of a stone of the group to remove, or None if no group is left.
    fn pick(&mut self, board: &Board, scratch: &mut Scratch, rng: &mut Rng) -> Option<usize>;
    /// Some when every pick follows one of the rules the board can run in its own loop
    /// (the tabu colour of [`BoardRule::TabuColour`] set by [`GroupChooser::start`]): then
    /// a playout may run there, with the same moves and random numbers.
    fn board_rule(&self) -> Option<BoardRule> {
        None
    }
}

/// A playout rule that a [`Board`] can run in its own loop (see
/// [`GroupChooser::board_rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardRule {
    /// [`Tabu`].
    Tabu,
    /// [`TabuColour`] with this tabu colour.
    TabuColour(u8),
    /// [`DoubleTabu`].
    DoubleTabu,
    /// [`PseudoRandom`] with this `k`.
    Pseudo(usize),
    /// [`PseudoRandomTabu`] with this `k`.
    PseudoTabu(usize),
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
        if let Some(rule) = self.chooser.board_rule() {
            if let Some(played) = state.tabu_playout(rule, rng, limit, None) {
                return played;
            }
        }
        let mut played = 0;
        while played < limit {
            let Some(cell) = self.chooser.pick(state, &mut self.scratch, rng) else {
                break;
            };
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
        if let Some(rule) = self.chooser.board_rule() {
            if state.tabu_playout(rule, rng, limit, Some(trace)).is_some() {
                return;
            }
        }
        let mut played = 0;
        while played < limit {
            let Some(cell) = self.chooser.pick(state, &mut self.scratch, rng) else {
                break;
            };
            trace.push(state.move_of(cell as u16));
            state.remove_group(cell, &mut self.scratch);
            played += 1;
        }
    }
}

/// The colour with the most stones (ties: the lowest colour).
#[inline]
pub(crate) fn most_frequent(board: &Board) -> u8 {
    let counts = board.counts();
    let mut best = 1;
    for c in 2..counts.len() {
        if counts[c] > counts[best] {
            best = c;
        }
    }
    best as u8
}

/// The two colours with the most stones, most frequent first (0 if there is no second).
#[inline]
pub(crate) fn two_most_frequent(board: &Board) -> (u8, u8) {
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

/// Every colour, as a colour set for [`Board::first_group_stone`].
const ANY: u32 = !0;

/// The set of every colour but `c`.
#[inline]
fn all_but(c: u8) -> u32 {
    !(1u32 << c)
}

/// The first group stone from a random point whose colour is in `set` (bit `k` = colour
/// `k`), if any.
#[inline]
fn first_from_random(board: &Board, rng: &mut Rng, set: u32) -> Option<usize> {
    board.first_group_cell(board.random_start(rng), set)
}

/// Scan from a random point until `k` group stones of accepted colours are seen; the one
/// whose colour has the fewest stones (the first such on ties).
fn least_frequent_of(
    board: &Board,
    k: usize,
    rng: &mut Rng,
    accept: impl Fn(u8) -> bool,
) -> Option<usize> {
    let counts = board.counts();
    let mut least = LeastFrequent::new(k);
    board.scan(board.random_start(rng), |cell, colour| {
        accept(colour) && least.offer(cell, counts[colour as usize])
    });
    least.cell()
}

/// The choice of the pseudo-random policies: among the first `k` group stones offered, the
/// one whose colour has the fewest stones (the first such on ties).
pub(crate) struct LeastFrequent {
    best: Option<(usize, u16)>,
    seen: usize,
    k: usize,
}

impl LeastFrequent {
    /// Nothing offered yet; `k` stones to see.
    #[inline(always)]
    pub(crate) fn new(k: usize) -> Self {
        LeastFrequent {
            best: None,
            seen: 0,
            k,
        }
    }

    /// Offer the stone on `cell`, whose colour has `stones` stones; true once `k` were seen.
    #[inline(always)]
    pub(crate) fn offer(&mut self, cell: usize, stones: u16) -> bool {
        if self.best.is_none_or(|(_, m)| stones < m) {
            self.best = Some((cell, stones));
        }
        self.seen += 1;
        self.seen >= self.k
    }

    /// The chosen stone, if any was offered.
    #[inline(always)]
    pub(crate) fn cell(&self) -> Option<usize> {
        self.best.map(|(cell, _)| cell)
    }
}

/// Random: every group equally likely, without enumerating the groups: a uniformly random
/// group stone, accepted with probability `1 / size of its group` (else draw again). A group
/// of `s` stones is drawn with probability `s/N · 1/s = 1/N` per trial (`N` group stones),
/// the same for every group, so the accepted group is exactly uniform; a trial costs one
/// flood and about (mean group size) trials are needed, against one flood per group for
/// full enumeration.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl GroupChooser for Uniform {
    #[inline]
    fn pick(&mut self, board: &Board, scratch: &mut Scratch, rng: &mut Rng) -> Option<usize> {
        let n = board.mark_group_stones(scratch);
        if n == 0 {
            return None;
        }
        loop {
            let cell = board.nth_group_stone(scratch, rng.below(n))?;
            let size = board.group_size(cell, scratch);
            if rng.below(size) == 0 {
                return Some(cell);
            }
        }
    }
}

/// Random Tabu (Czech thesis §3.3.3): the currently most frequent colour is tabu while any
/// group of another colour exists; the first acceptable group from a random point.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tabu;

impl GroupChooser for Tabu {
    #[inline]
    fn pick(&mut self, board: &Board, _scratch: &mut Scratch, rng: &mut Rng) -> Option<usize> {
        let tabu = most_frequent(board);
        first_from_random(board, rng, all_but(tabu)).or_else(|| first_from_random(board, rng, ANY))
    }
    fn board_rule(&self) -> Option<BoardRule> {
        Some(BoardRule::Tabu)
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
    fn pick(&mut self, board: &Board, _scratch: &mut Scratch, rng: &mut Rng) -> Option<usize> {
        let tabu = self.tabu;
        first_from_random(board, rng, all_but(tabu)).or_else(|| first_from_random(board, rng, ANY))
    }
    fn board_rule(&self) -> Option<BoardRule> {
        Some(BoardRule::TabuColour(self.tabu))
    }
}

/// Pseudo Random(k) (Czech thesis §3.3.3): of `k` group stones found from a random point, the
/// one of the least frequent colour.
#[derive(Clone, Copy, Debug)]
pub struct PseudoRandom {
    /// Group stones compared.
    pub k: usize,
}

impl Default for PseudoRandom {
    fn default() -> Self {
        PseudoRandom { k: 3 }
    }
}

impl GroupChooser for PseudoRandom {
    fn pick(&mut self, board: &Board, _scratch: &mut Scratch, rng: &mut Rng) -> Option<usize> {
        least_frequent_of(board, self.k.max(1), rng, |_| true)
    }
    fn board_rule(&self) -> Option<BoardRule> {
        Some(BoardRule::Pseudo(self.k))
    }
}

/// Pseudo Random Tabu (Czech thesis §3.3.3): Pseudo Random(k) among the groups not of the
/// most frequent colour (any group if only that colour is left).
#[derive(Clone, Copy, Debug)]
pub struct PseudoRandomTabu {
    /// Group stones compared.
    pub k: usize,
}

impl Default for PseudoRandomTabu {
    fn default() -> Self {
        PseudoRandomTabu { k: 3 }
    }
}

impl GroupChooser for PseudoRandomTabu {
    fn pick(&mut self, board: &Board, _scratch: &mut Scratch, rng: &mut Rng) -> Option<usize> {
        let tabu = most_frequent(board);
        let k = self.k.max(1);
        least_frequent_of(board, k, rng, |c| c != tabu)
            .or_else(|| least_frequent_of(board, k, rng, |_| true))
    }
    fn board_rule(&self) -> Option<BoardRule> {
        Some(BoardRule::PseudoTabu(self.k))
    }
}

/// Random Double Tabu (Czech thesis §3.3.3): the two most frequent colours are tabu; if only
/// they are left, the less frequent of them first, the most frequent last.
#[derive(Clone, Copy, Debug, Default)]
pub struct DoubleTabu;

impl GroupChooser for DoubleTabu {
    fn pick(&mut self, board: &Board, _scratch: &mut Scratch, rng: &mut Rng) -> Option<usize> {
        let (first, second) = two_most_frequent(board);
        first_from_random(board, rng, all_but(first) & all_but(second))
            .or_else(|| first_from_random(board, rng, 1 << second))
            .or_else(|| first_from_random(board, rng, ANY))
    }
    fn board_rule(&self) -> Option<BoardRule> {
        Some(BoardRule::DoubleTabu)
    }
}

/// ε-greedy (Hungarian paper §3.3): with probability ε the first group from a random point
/// (any colour), else the inner chooser's.
#[derive(Clone, Debug)]
pub struct EpsilonGreedy<C> {
    /// Probability of a random move.
    pub epsilon: f64,
    /// The heuristic otherwise followed.
    pub inner: C,
}

impl<C: GroupChooser> GroupChooser for EpsilonGreedy<C> {
    fn start(&mut self, board: &Board, rng: &mut Rng) {
        self.inner.start(board, rng);
    }
    fn pick(&mut self, board: &Board, scratch: &mut Scratch, rng: &mut Rng) -> Option<usize> {
        if rng.chance(self.epsilon) {
            first_from_random(board, rng, ANY)
        } else {
            self.inner.pick(board, scratch, rng)
        }
    }
}

/// Roulette wheel (Hungarian paper §3.3): a group of `n` stones with probability
/// proportional to `(n − 1)²`, so large groups are favoured and pairs remain possible
/// (enumerates the groups).
#[derive(Clone, Copy, Debug, Default)]
pub struct Roulette;

impl GroupChooser for Roulette {
    fn pick(&mut self, board: &Board, scratch: &mut Scratch, rng: &mut Rng) -> Option<usize> {
        let n = board.find_groups(scratch);
        if n == 0 {
            return None;
        }
        let groups = &scratch.groups;
        let weight = |size: u16| {
            let k = size as u64 - 1;
            k * k
        };
        let total: u64 = groups.iter().map(|g| weight(g.size)).sum();
        let mut x = rng.below(total as usize) as u64;
        for g in groups {
            let w = weight(g.size);
            if x < w {
                return Some(g.cell as usize);
            }
            x -= w;
        }
        groups.last().map(|g| g.cell as usize)
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
    fn start(&mut self, board: &Board, _rng: &mut Rng) {
        // Only the tabu colour needs setting, possibly inside ε-greedy wrappers.
        let mut chooser = self;
        loop {
            match chooser {
                AnyChooser::TabuColour(t) => *t = most_frequent(board),
                AnyChooser::EpsilonGreedy(_, inner) => {
                    chooser = inner;
                    continue;
                }
                _ => {}
            }
            break;
        }
    }

    #[inline]
    fn pick(&mut self, board: &Board, scratch: &mut Scratch, rng: &mut Rng) -> Option<usize> {
        match self {
            AnyChooser::Random => Uniform.pick(board, scratch, rng),
            AnyChooser::Tabu => Tabu.pick(board, scratch, rng),
            AnyChooser::TabuColour(t) => TabuColour { tabu: *t }.pick(board, scratch, rng),
            AnyChooser::PseudoRandom(k) => PseudoRandom { k: *k }.pick(board, scratch, rng),
            AnyChooser::PseudoRandomTabu(k) => PseudoRandomTabu { k: *k }.pick(board, scratch, rng),
            AnyChooser::DoubleTabu => DoubleTabu.pick(board, scratch, rng),
            AnyChooser::Roulette => Roulette.pick(board, scratch, rng),
            AnyChooser::EpsilonGreedy(eps, inner) => {
                if rng.chance(*eps) {
                    first_from_random(board, rng, ANY)
                } else {
                    inner.pick(board, scratch, rng)
                }
            }
        }
    }

    fn board_rule(&self) -> Option<BoardRule> {
        match self {
            AnyChooser::Tabu => Some(BoardRule::Tabu),
            AnyChooser::TabuColour(t) => Some(BoardRule::TabuColour(*t)),
            AnyChooser::DoubleTabu => Some(BoardRule::DoubleTabu),
            AnyChooser::PseudoRandom(k) => Some(BoardRule::Pseudo(*k)),
            AnyChooser::PseudoRandomTabu(k) => Some(BoardRule::PseudoTabu(*k)),
            _ => None,
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
            let (e, inner) = rest.split_once('-').ok_or_else(|| {
                format!("playout '{s}': expected eps<E>-<playout>, e.g. eps0.1-tabu")
            })?;
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
