//! The game state and GVGAI's rules, one tick at a time (see
//! `docs/METHODS.md#bait-rules`; `data/bait/bait.txt`).
//!
//! A tick applies the avatar's move, then GVGAI's interactions in the order the VGDL lists
//! them: `avatar wall > stepBack`, `avatar hole > killSprite`, `box avatar > bounceForward`,
//! `box wall box mushroom > undoAll` (the whole tick is undone: avatar and box go back),
//! `box hole > killBoth scoreChange=1`, `nokey key > transformTo withkey`,
//! `key avatar > killSprite`, `nokey goal > stepBack` (only the avatar goes back: a box it
//! pushed off the door stays pushed), `goal withkey > killSprite scoreChange=5`,
//! `mushroom avatar > killSprite scoreChange=1`. Then the termination set: no door left is a
//! win, no avatar a loss, and a game still running after [`MAX_TICKS`] ticks is lost.

use crate::level::Bits;
use crate::level::Level;
use puzzle_engine::{FxLikeHasher, Game, HashedGame, UndoGame};
use std::hash::Hasher;
use std::sync::Arc;

/// GVGAI's limit on a game's length: a game not won after this many ticks is lost.
pub const MAX_TICKS: u16 = 2000;

/// The avatar's actions (GVGAI's `ACTION_UP/DOWN/LEFT/RIGHT/NIL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Action {
    /// Move up.
    Up = 0,
    /// Move down.
    Down = 1,
    /// Move left.
    Left = 2,
    /// Move right.
    Right = 3,
    /// Stay (nothing in Bait moves by itself, so a nil tick only spends time).
    Nil = 4,
}

impl Action {
    /// The four moves, in the order the searches try them.
    pub const MOVES: [Action; 4] = [Action::Up, Action::Down, Action::Left, Action::Right];

    /// The letter used in action sequences: U D L R N.
    pub fn letter(self) -> char {
        match self {
            Action::Up => 'U',
            Action::Down => 'D',
            Action::Left => 'L',
            Action::Right => 'R',
            Action::Nil => 'N',
        }
    }

    /// The action a letter names (case-insensitive).
    pub fn from_letter(c: char) -> Option<Action> {
        Some(match c.to_ascii_uppercase() {
            'U' => Action::Up,
            'D' => Action::Down,
            'L' => Action::Left,
            'R' => Action::Right,
            'N' => Action::Nil,
            _ => return None,
        })
    }

    /// Row and column offsets of the move.
    #[inline]
    pub fn delta(self) -> (i32, i32) {
        match self {
            Action::Up => (-1, 0),
            Action::Down => (1, 0),
            Action::Left => (0, -1),
            Action::Right => (0, 1),
            Action::Nil => (0, 0),
        }
    }
}

/// Render a sequence as letters (`UDLRN`).
pub fn actions_to_string(actions: &[Action]) -> String {
    actions.iter().map(|a| a.letter()).collect()
}

/// Parse a sequence of letters (`UDLRN`; whitespace ignored).
pub fn parse_actions(text: &str) -> Result<Vec<Action>, String> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .enumerate()
        .map(|(i, c)| {
            Action::from_letter(c)
                .ok_or_else(|| format!("action {}: {c:?} is not one of U D L R N", i + 1))
        })
        .collect()
}

/// How the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Status {
    /// Still running.
    Playing = 0,
    /// The avatar opened every door.
    Won = 1,
    /// The avatar fell into a hole.
    Dead = 2,
    /// [`MAX_TICKS`] ticks passed without a win.
    TimeOut = 3,
}

impl Status {
    /// The status as a word: `playing`, `won`, `dead` or `timeout`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Won => "won",
            Status::Dead => "dead",
            Status::TimeOut => "timeout",
        }
    }
}

/// Everything that changes during a game: `Copy`, no heap (the undo record of a tick); `W` is
/// the level's bitset width ([`crate::level::WIDTHS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dynamic<const W: usize = 4> {
    /// The avatar's cell.
    pub avatar: u16,
    /// Ticks played.
    pub tick: u16,
    /// Score so far (+1 per filled hole and mushroom eaten, +5 per door opened).
    pub score: i32,
    /// The avatar holds the key (GVGAI's `withkey` avatar).
    pub has_key: bool,
    /// Game status.
    pub status: Status,
    /// Boxes.
    pub boxes: Bits<W>,
    /// Holes not yet filled.
    pub holes: Bits<W>,
    /// Mushrooms not yet eaten.
    pub mushrooms: Bits<W>,
    /// Keys not yet taken.
    pub keys: Bits<W>,
    /// Doors not yet opened.
    pub doors: Bits<W>,
}

/// A Bait position: the level (shared) and the [`Dynamic`] part, for a level of bitset width
/// `W` (default 4: at most 256 cells; see [`crate::level::AnyLevel`]).
#[derive(Clone, Debug)]
pub struct BaitState<const W: usize = 4> {
    level: Arc<Level<W>>,
    /// The changing part of the state.
    pub dy: Dynamic<W>,
}

impl<const W: usize> PartialEq for BaitState<W> {
    fn eq(&self, other: &Self) -> bool {
        self.dy == other.dy && (Arc::ptr_eq(&self.level, &other.level) || self.level == other.level)
    }
}

impl<const W: usize> Eq for BaitState<W> {}

/// A 128-bit fingerprint of a position (everything but the tick and the score, which the
/// position determines), used as the key of visited/closed sets. Two independent 64-bit hashes:
/// a collision among the few million positions a search stores has probability below 2⁻⁸⁰.
pub type Fingerprint = u128;

impl<const W: usize> BaitState<W> {
    /// The start of `level`.
    pub fn new(level: Level<W>) -> BaitState<W> {
        BaitState::from_shared(Arc::new(level))
    }

    /// The start of a shared level.
    pub fn from_shared(level: Arc<Level<W>>) -> BaitState<W> {
        let dy = Dynamic {
            avatar: level.avatar,
            tick: 0,
            score: 0,
            has_key: false,
            status: Status::Playing,
            boxes: level.boxes,
            holes: level.holes,
            mushrooms: level.mushrooms,
            keys: level.keys,
            doors: level.doors,
        };
        BaitState { level, dy }
    }

    /// The level.
    pub fn level(&self) -> &Level<W> {
        &self.level
    }

    /// The shared level.
    pub fn shared_level(&self) -> &Arc<Level<W>> {
        &self.level
    }

    /// Game status.
    pub fn status(&self) -> Status {
        self.dy.status
    }

    /// Won?
    pub fn is_win(&self) -> bool {
        self.dy.status == Status::Won
    }

    /// Lost (dead or out of time)?
    pub fn is_loss(&self) -> bool {
        matches!(self.dy.status, Status::Dead | Status::TimeOut)
    }

    /// Ticks played.
    pub fn tick(&self) -> u16 {
        self.dy.tick
    }

    /// The game score (an integer in GVGAI).
    pub fn points(&self) -> i32 {
        self.dy.score
    }

    /// The position's fingerprint (no tick). It reads only the words the level's cells use,
    /// so a level gives the same fingerprints in every width.
    pub fn fingerprint(&self) -> Fingerprint {
        self.hash_with_mushrooms(&self.dy.mushrooms)
    }

    /// The fingerprint the searches for a win (A*, DFS) store: as [`BaitState::fingerprint`]
    /// with only the mushrooms of [`Level::key_mushrooms`]. Mushrooms are score: whether one is
    /// eaten changes what can be won only where a box could be pushed onto it
    /// ([`Level::box_reach`]), so the others are left out, and so are all of them when more
    /// than [`crate::level::KEY_MUSHROOMS`] could meet a box. Otherwise a search's positions
    /// would multiply by the subsets of mushrooms eaten (the ways to cross a band of them).
    /// Where that leaves out a mushroom that matters ([`Level::plan_key_is_exact`] is false), a
    /// search on this key may miss a win; it is exhaustive with [`BaitState::exact_plan_key`].
    pub fn plan_key(&self) -> Fingerprint {
        self.hash_with_mushrooms(&self.dy.mushrooms.and(self.level.key_mushrooms))
    }

    /// [`BaitState::plan_key`] with every mushroom a box could meet: exact (two positions with
    /// the same key have the same wins) on every level.
    pub fn exact_plan_key(&self) -> Fingerprint {
        self.hash_with_mushrooms(&self.dy.mushrooms.and(self.level.box_reach))
    }

    fn hash_with_mushrooms(&self, mushrooms: &Bits<W>) -> Fingerprint {
        let d = &self.dy;
        let words = self.level.cells().div_ceil(64);
        let mut a = FxLikeHasher::default();
        let mut b: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut mix = |x: u64| {
            a.write_u64(x);
            // splitmix64-style second hash
            b = (b ^ x).wrapping_add(0x9E37_79B9_7F4A_7C15);
            b = (b ^ (b >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            b = (b ^ (b >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            b ^= b >> 31;
        };
        mix(d.avatar as u64 | (d.has_key as u64) << 16 | (d.status as u64) << 17);
        for set in [&d.boxes, &d.holes, mushrooms, &d.keys, &d.doors] {
            for &w in &set.0[..words] {
                mix(w);
            }
        }
        (a.finish() as u128) << 64 | b as u128
    }

    /// Play one tick (any action, `Nil` included). Does nothing once the game is over.
    pub fn step(&mut self, action: Action) {
        if self.dy.status != Status::Playing {
            return;
        }
        self.dy.tick += 1;
        self.move_avatar(action);
        if self.dy.status == Status::Playing && self.dy.doors.is_empty() {
            self.dy.status = Status::Won;
        }
        if self.dy.status == Status::Playing && self.dy.tick >= MAX_TICKS {
            self.dy.status = Status::TimeOut;
        }
    }

    fn move_avatar(&mut self, action: Action) {
        let (dr, dc) = action.delta();
        if action == Action::Nil {
            return;
        }
        let level = &*self.level;
        let from = self.dy.avatar;
        // Leaving the grid counts as hitting a wall (GVGAI levels are walled anyway).
        let Some(to) = level.step(from, dr, dc) else {
            return;
        };
        let to_i = to as usize;
        // avatar wall > stepBack
        if level.walls.has(to_i) {
            return;
        }
        // avatar hole > killSprite
        if self.dy.holes.has(to_i) {
            self.dy.avatar = to;
            self.dy.status = Status::Dead;
            return;
        }
        // box avatar > bounceForward
        if self.dy.boxes.has(to_i) {
            let beyond = level.step(to, dr, dc);
            // box wall box mushroom > undoAll (off-grid treated as wall)
            let blocked = match beyond {
                None => true,
                Some(b) => {
                    let b = b as usize;
                    level.walls.has(b) || self.dy.boxes.has(b) || self.dy.mushrooms.has(b)
                }
            };
            if blocked {
                return; // the whole tick is undone: nothing moved
            }
            let b = beyond.expect("checked") as usize;
            self.dy.boxes.clear(to_i);
            if self.dy.holes.has(b) {
                // box hole > killBoth scoreChange=1
                self.dy.holes.clear(b);
                self.dy.score += 1;
            } else {
                self.dy.boxes.set(b);
            }
        }
        self.dy.avatar = to;
        // nokey key > transformTo withkey; key avatar > killSprite
        if self.dy.keys.has(to_i) {
            self.dy.has_key = true;
            self.dy.keys.clear(to_i);
        }
        if self.dy.doors.has(to_i) {
            if self.dy.has_key {
                // goal withkey > killSprite scoreChange=5
                self.dy.doors.clear(to_i);
                self.dy.score += 5;
            } else {
                // nokey goal > stepBack (the avatar only)
                self.dy.avatar = from;
                return;
            }
        }
        // mushroom avatar > killSprite scoreChange=1
        if self.dy.mushrooms.has(to_i) {
            self.dy.mushrooms.clear(to_i);
            self.dy.score += 1;
        }
    }

    /// Play a whole sequence from here; stops at the end of the game.
    pub fn replay(&self, actions: &[Action]) -> BaitState<W> {
        let mut s = self.clone();
        for &a in actions {
            if s.dy.status != Status::Playing {
                break;
            }
            s.step(a);
        }
        s
    }

    /// The board as GVGAI level text, with the avatar as `A` (without key) or `a` (with key)
    /// and a box on a key/door shown as `B`.
    pub fn render(&self) -> String {
        let level = &*self.level;
        let mut out = String::with_capacity(level.cells() + level.height);
        for r in 0..level.height {
            for c in 0..level.width {
                out.push(self.glyph(r * level.width + c));
            }
            out.push('\n');
        }
        out
    }

    /// The character of cell `i` in [`BaitState::render`]'s picture (GVGAI's level characters:
    /// `A`/`a` the avatar without/with the key, `1` a box, `B` a box on a key or door, `w`, `0`,
    /// `k`, `g`, `m`, `.`).
    pub fn glyph(&self, i: usize) -> char {
        let level = &*self.level;
        let d = &self.dy;
        if i == d.avatar as usize && d.status != Status::Dead {
            if d.has_key {
                'a'
            } else {
                'A'
            }
        } else if d.boxes.has(i) {
            if d.keys.has(i) || d.doors.has(i) {
                'B'
            } else {
                '1'
            }
        } else if level.walls.has(i) {
            'w'
        } else if d.holes.has(i) {
            '0'
        } else if d.keys.has(i) {
            'k'
        } else if d.doors.has(i) {
            'g'
        } else if d.mushrooms.has(i) {
            'm'
        } else {
            '.'
        }
    }
}

impl<const W: usize> Game for BaitState<W> {
    type Action = Action;

    /// The four moves while the game runs (GVGAI's `getAvailableActions()`, which leaves out
    /// nil); [`BaitState::step`] and `apply` also accept [`Action::Nil`].
    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.dy.status == Status::Playing {
            out.extend_from_slice(&Action::MOVES);
        }
    }

    fn apply(&mut self, action: Action) {
        self.step(action);
    }

    fn is_terminal(&self) -> bool {
        self.dy.status != Status::Playing
    }

    fn score(&self) -> f64 {
        self.dy.score as f64
    }

    fn action_code(&self, action: Action) -> u64 {
        action as u64
    }
}

impl<const W: usize> UndoGame for BaitState<W> {
    type Undo = Dynamic<W>;

    fn apply_undoable(&mut self, action: Action) -> Dynamic<W> {
        let before = self.dy;
        self.step(action);
        before
    }

    fn undo(&mut self, _action: Action, undo: Dynamic<W>) {
        self.dy = undo;
    }
}

impl<const W: usize> HashedGame for BaitState<W> {
    /// The high half of [`BaitState::fingerprint`] (tick and score left out: the position
    /// determines the score, and equal states have equal ticks).
    fn state_hash(&self) -> u64 {
        (self.fingerprint() >> 64) as u64
    }
}
