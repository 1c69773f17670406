//! Scoring conventions (see `docs/METHODS.md#samegame-scoring`; Czech thesis §3.1.1; Hungarian
//! paper §1.1).
//!
//! A removed group of `n` stones earns `(n − 2)²` (js-games.de, the benchmark literature) or
//! `(n − 1)²` (the Hungarian paper). Clearing the board earns a bonus (1000 in the standard
//! rules). When the game ends with stones left, an optional penalty is subtracted: none
//! (Cazenave, CodinGame), `(m − 2)²` on the `m` stones left in total (js-games.de as the Czech
//! thesis describes it) or `Σ (m_c − 2)²` over the colours with `m_c > 0` stones left (Schadd).

use std::fmt;
use std::str::FromStr;

/// Points for one removed group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GroupScore {
    /// `(n − 2)²` (js-games.de; Schadd, Cazenave, the Czech thesis).
    #[default]
    Standard,
    /// `(n − 1)²` (the Hungarian paper, §1.1).
    Hungarian,
}

/// What is subtracted when the game ends with stones left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Penalty {
    /// Nothing (Cazenave's NMCS papers, CodinGame).
    #[default]
    None,
    /// `(m − 2)²` for the `m` stones left in total (js-games.de per the Czech thesis §3.1.1).
    Total,
    /// `Σ (m_c − 2)²` over the colours that still have `m_c > 0` stones (Schadd et al.).
    PerColour,
}

/// A complete scoring convention.
///
/// ```
/// use puzzle_samegame::Scoring;
/// let s = Scoring::standard();
/// assert_eq!(s.group_points(5), 9);
/// assert_eq!(Scoring::hungarian().group_points(5), 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scoring {
    /// Points per group.
    pub group: GroupScore,
    /// Bonus for clearing the board.
    pub clear_bonus: i64,
    /// End-of-game penalty.
    pub penalty: Penalty,
}

impl Default for Scoring {
    /// The standard convention: `(n − 2)²`, +1000 for clearing, no penalty.
    fn default() -> Self {
        Scoring::standard()
    }
}

impl Scoring {
    /// `(n − 2)²`, +1000 for clearing the board, no end penalty.
    pub const fn standard() -> Self {
        Scoring {
            group: GroupScore::Standard,
            clear_bonus: 1000,
            penalty: Penalty::None,
        }
    }

    /// The Hungarian paper's `(n − 1)²` per group, no bonus, no penalty.
    pub const fn hungarian() -> Self {
        Scoring {
            group: GroupScore::Hungarian,
            clear_bonus: 0,
            penalty: Penalty::None,
        }
    }

    /// The same convention with another end penalty.
    pub const fn with_penalty(mut self, penalty: Penalty) -> Self {
        self.penalty = penalty;
        self
    }

    /// Points for removing a group of `n ≥ 2` stones.
    #[inline]
    pub fn group_points(&self, n: usize) -> i64 {
        let k = match self.group {
            GroupScore::Standard => n as i64 - 2,
            GroupScore::Hungarian => n as i64 - 1,
        };
        k * k
    }

    /// The end adjustment of a finished game with `counts[c]` stones of colour `c` left:
    /// the clear bonus if none is left, else minus the penalty.
    pub fn end_adjustment(&self, counts: &[u16]) -> i64 {
        let total: i64 = counts.iter().map(|&m| m as i64).sum();
        if total == 0 {
            return self.clear_bonus;
        }
        match self.penalty {
            Penalty::None => 0,
            Penalty::Total => -((total - 2) * (total - 2)),
            Penalty::PerColour => -counts
                .iter()
                .filter(|&&m| m > 0)
                .map(|&m| (m as i64 - 2) * (m as i64 - 2))
                .sum::<i64>(),
        }
    }

    /// A short name for reports (`standard`, `hungarian`, or `custom`).
    pub fn name(&self) -> &'static str {
        match (self.group, self.clear_bonus) {
            (GroupScore::Standard, 1000) => "standard",
            (GroupScore::Hungarian, 0) => "hungarian",
            _ => "custom",
        }
    }
}

impl fmt::Display for Penalty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Penalty::None => "none",
            Penalty::Total => "total",
            Penalty::PerColour => "per-colour",
        })
    }
}

impl FromStr for Penalty {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "none" => Ok(Penalty::None),
            "total" => Ok(Penalty::Total),
            "per-colour" | "per-color" => Ok(Penalty::PerColour),
            _ => Err(format!(
                "unknown penalty '{s}' (expected none, total or per-colour)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_points_follow_each_convention() {
        let s = Scoring::standard();
        assert_eq!(s.group_points(2), 0);
        assert_eq!(s.group_points(3), 1);
        assert_eq!(s.group_points(12), 100);
        let h = Scoring::hungarian();
        assert_eq!(h.group_points(2), 1);
        assert_eq!(h.group_points(12), 121);
    }

    #[test]
    fn end_adjustments() {
        let none = Scoring::standard();
        assert_eq!(none.end_adjustment(&[0, 0, 0]), 1000);
        assert_eq!(none.end_adjustment(&[0, 3, 1]), 0);
        let total = none.with_penalty(Penalty::Total);
        assert_eq!(total.end_adjustment(&[0, 3, 1]), -4);
        let per = none.with_penalty(Penalty::PerColour);
        assert_eq!(per.end_adjustment(&[0, 3, 1]), -2);
        assert_eq!(per.end_adjustment(&[0, 5, 0]), -9);
        assert_eq!(Scoring::hungarian().end_adjustment(&[0, 0]), 0);
    }

    #[test]
    fn penalty_parses() {
        assert_eq!("per-colour".parse::<Penalty>(), Ok(Penalty::PerColour));
        assert!("sometimes".parse::<Penalty>().is_err());
    }
}
