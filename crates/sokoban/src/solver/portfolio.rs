//! The lists of searches of the any-solution portfolio as explicit, typed options: a list is
//! written `search:share,search:share,…` with [`parse_search`]'s names and each search's share
//! of the budget in per cent, optionally capped in expansions (`search:share:cap`; [`Phases`]),
//! and [`PortfolioConfig`] carries the two lists
//! (default: the built-in ones). Nothing here reads the environment.

use super::{
    Order, Phase, SearchOptions, A_STAR, FESS, FESS_DISTINCT, FIRST_THREAD, SECOND_THREAD,
};
use std::fmt;
use std::str::FromStr;

/// A search named as `try_orders` names it: `astar`; `fess` (FESS, [`SearchOptions::fess`]);
/// `fess-d` (FESS whose advisors name distinct moves, [`SearchOptions::fess_distinct`]); `gm-cX` greedy with macros and
/// connectivity weight X, `g-cX` greedy without macros, `wN-cX` weighted A* (w = N) without
/// macros, `wmN-cX` with them; then optionally `-pY` (packing weight), `-fK` (one expansion in K
/// from feature-space cycling) and `-aA` (A points per push no advisor suggested). A name
/// starting `r-` searches backwards ([`SearchOptions::reverse`]): `r-g-c0`, `r-w2-c4`; a
/// last `-mK` makes it bidirectional, with K per cent for the helper search
/// ([`SearchOptions::meet`]).
pub fn parse_search(name: &str) -> Option<(Order, SearchOptions)> {
    if name == "astar" {
        return Some(A_STAR);
    }
    if name == "fess" {
        return Some(FESS);
    }
    if name == "fess-d" {
        return Some(FESS_DISTINCT);
    }
    if let Some(rest) = name.strip_prefix("r-") {
        let (order, opts) = parse_search(rest)?;
        return Some((
            order,
            SearchOptions {
                reverse: true,
                ..opts
            },
        ));
    }
    let (name, meet) = match name.rsplit_once("-m") {
        Some((n, m)) => (n, m.parse().ok()?),
        None => (name, 0),
    };
    let (name, advice) = match name.rsplit_once("-a") {
        Some((n, a)) => (n, a.parse().ok()?),
        None => (name, 0),
    };
    let (name, cycle) = match name.rsplit_once("-f") {
        Some((n, k)) => (n, k.parse().ok()?),
        None => (name, 0),
    };
    let (kind, rest) = name.split_once("-c")?;
    let (c, p) = match rest.split_once("-p") {
        Some((c, p)) => (c, Some(p)),
        None => (rest, None),
    };
    let (order, base) = match kind {
        "gm" => (Order::Greedy, SearchOptions::MACROS),
        "g" => (Order::Greedy, SearchOptions::NO_MACROS),
        w if w.starts_with("wm") => (
            Order::Weighted(w.strip_prefix("wm")?.parse().ok()?),
            SearchOptions::MACROS,
        ),
        w => (
            Order::Weighted(w.strip_prefix('w')?.parse().ok()?),
            SearchOptions::NO_MACROS,
        ),
    };
    let opts = SearchOptions {
        connectivity: c.parse().ok()?,
        packing: p.map_or(Some(base.packing), |p| p.parse().ok())?,
        feature_cycle: cycle,
        advice,
        meet,
        ..base
    };
    Some((order, opts))
}

/// The name [`parse_search`] reads back as `(order, opts)`, for every search it can return
/// (the settings it does not write, such as corral pruning, are those of the base settings a
/// name implies). Options at their default are left out: `gm-c4-f0` is written `gm-c4`.
pub fn search_name(order: Order, opts: &SearchOptions) -> String {
    let mut name = String::new();
    if opts.fess {
        name.push_str(if opts.fess_distinct { "fess-d" } else { "fess" });
        return name;
    }
    if opts.reverse {
        name.push_str("r-");
    }
    let base = if opts.goal_macros {
        SearchOptions::MACROS
    } else {
        SearchOptions::NO_MACROS
    };
    match order {
        Order::AStar => {
            name.push_str("astar");
            return name;
        }
        // Not a portfolio search; written for completeness (it does not parse back).
        Order::Bfs => {
            name.push_str("bfs");
            return name;
        }
        Order::Greedy => name.push_str(if opts.goal_macros { "gm" } else { "g" }),
        Order::Weighted(w) => {
            name.push_str(if opts.goal_macros { "wm" } else { "w" });
            name.push_str(&w.to_string());
        }
    }
    name.push_str(&format!("-c{}", opts.connectivity));
    for (key, value, default) in [
        ("p", opts.packing, base.packing),
        ("f", opts.feature_cycle, 0),
        ("a", opts.advice, 0),
        ("m", opts.meet, 0),
    ] {
        if value != default {
            name.push_str(&format!("-{key}{value}"));
        }
    }
    name
}

/// One list of the any-solution portfolio: searches run one after another, each with its share
/// of the budget in per cent (a search that stops early passes the rest of its share on; the
/// last one runs to the end of the budget).
///
/// Written (by [`FromStr`], [`fmt::Display`] and serde, all as the same string)
/// `search:share,search:share,…` with [`parse_search`]'s names, e.g. `gm-c4:50,w2-c4:50`; a
/// third field caps a search's expansions ([`Phase::max_expansions`]): `gm-c4:50:500000`. The
/// last search must search forwards without macros: a portfolio reads a search that exhausts
/// its space as a proof that the level is unsolvable, which only such a search gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phases(Vec<Phase>);

impl Phases {
    /// The built-in first list (greedy searches at several connectivity weights, the backward
    /// search, weighted A*; see [`super::any_solution_threads`]).
    pub fn built_in_first() -> Phases {
        Phases(FIRST_THREAD.to_vec())
    }

    /// The built-in second list (the feature-space cycling searches).
    pub fn built_in_second() -> Phases {
        Phases(SECOND_THREAD.to_vec())
    }

    /// The searches, their shares in per cent and caps, in order.
    pub fn searches(&self) -> &[Phase] {
        &self.0
    }
}

/// Why a portfolio list was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhasesError {
    /// The list as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for PhasesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "portfolio list '{}': {} (expected search:share[:cap],… with shares in per cent, \
             ending with a search without macros, e.g. gm-c4:50,w2-c4:50)",
            self.text, self.reason
        )
    }
}

impl std::error::Error for PhasesError {}

impl FromStr for Phases {
    type Err = PhasesError;

    fn from_str(text: &str) -> Result<Phases, PhasesError> {
        let refuse = |reason: String| PhasesError {
            text: text.to_string(),
            reason,
        };
        let mut phases = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            let Some((name, share)) = item.split_once(':') else {
                return Err(refuse(if item.is_empty() {
                    "an empty entry".into()
                } else {
                    format!("'{item}' has no share (write it name:share, e.g. {item}:50)")
                }));
            };
            let (share, cap) = match share.split_once(':') {
                Some((share, cap)) => (share, Some(cap)),
                None => (share, None),
            };
            let max_expansions = cap
                .map(|cap| {
                    cap.trim()
                        .parse::<u64>()
                        .ok()
                        .filter(|&c| c > 0)
                        .ok_or_else(|| {
                            refuse(format!(
                                "'{cap}' is not an expansion cap (a positive whole number)"
                            ))
                        })
                })
                .transpose()?;
            let (order, opts) = parse_search(name.trim())
                .ok_or_else(|| refuse(format!("'{name}' is not a search name")))?;
            let share: u32 = share
                .trim()
                .parse()
                .ok()
                .filter(|&s| s <= 100)
                .ok_or_else(|| refuse(format!("'{share}' is not a share from 0 to 100")))?;
            phases.push(Phase {
                order,
                opts,
                share,
                max_expansions,
            });
        }
        let last = phases.last().expect("split yields at least one item");
        if !ends_a_portfolio(&last.opts) {
            return Err(refuse(format!(
                "the last search, '{}', has macros or searches backwards",
                search_name(last.order, &last.opts)
            )));
        }
        Ok(Phases(phases))
    }
}

/// Whether a search may end a portfolio list: one without macros that searches forwards,
/// whose exhaustion proves a level unsolvable.
pub(super) fn ends_a_portfolio(opts: &SearchOptions) -> bool {
    !opts.goal_macros && !opts.tunnel_macros && !opts.reverse && !opts.fess
}

impl fmt::Display for Phases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, p) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}:{}", search_name(p.order, &p.opts), p.share)?;
            if let Some(cap) = p.max_expansions {
                write!(f, ":{cap}")?;
            }
        }
        Ok(())
    }
}

impl serde::Serialize for Phases {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Phases {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Phases, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The settings of the any-solution portfolio (`Algorithm::Greedy`): its two lists of
/// searches. The default is the built-in lists; other lists are for experiments with the
/// portfolio.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortfolioConfig {
    /// The first list (on the first thread, or the one taking one slice in three on one core).
    pub first: Phases,
    /// The second list (on the second thread, or two slices in three on one core).
    pub second: Phases,
}

impl Default for PortfolioConfig {
    fn default() -> Self {
        PortfolioConfig {
            first: Phases::built_in_first(),
            second: Phases::built_in_second(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_lists_round_trip_through_their_text() {
        for phases in [Phases::built_in_first(), Phases::built_in_second()] {
            let text = phases.to_string();
            assert_eq!(text.parse::<Phases>(), Ok(phases.clone()), "{text}");
        }
        assert_eq!(
            Phases::built_in_second().to_string(),
            "fess-d:5:50000,fess:20,gm-c4-f1-a1:45,gm-c4-f1:20:500000,fess:0,wm2-c4-f1-a1:5,w2-c4-f1-a1:5"
        );
        let text = "astar:2, gm-c8-p2:30: 9000,r-g-c0-f8-m20:20,w3-c4:48";
        let phases: Phases = text.parse().unwrap();
        assert_eq!(
            phases.to_string(),
            "astar:2,gm-c8-p2:30:9000,r-g-c0-f8-m20:20,w3-c4:48"
        );
        assert_eq!(phases.searches()[1].max_expansions, Some(9000));
        assert_eq!(phases.searches()[2].max_expansions, None);
        assert_eq!(phases.to_string().parse::<Phases>(), Ok(phases));
    }

    #[test]
    fn lists_are_json_strings() {
        let phases: Phases = "gm-c4-a1:60,w2-c4:40".parse().unwrap();
        let json = serde_json::to_string(&phases).unwrap();
        assert_eq!(json, "\"gm-c4-a1:60,w2-c4:40\"");
        assert_eq!(serde_json::from_str::<Phases>(&json).unwrap(), phases);
        let e = serde_json::from_str::<Phases>("\"gm-c4:100\"").unwrap_err();
        assert!(
            e.to_string().starts_with("portfolio list 'gm-c4:100'"),
            "{e}"
        );
    }

    #[test]
    fn bad_lists_are_refused_with_their_reason() {
        let reason = |text: &str| text.parse::<Phases>().unwrap_err().reason;
        assert_eq!(
            reason("gm-c4:50,gm-c8:50"),
            "the last search, 'gm-c8', has macros or searches backwards"
        );
        assert_eq!(
            reason("astar:50,r-g-c0:50"),
            "the last search, 'r-g-c0', has macros or searches backwards"
        );
        assert_eq!(reason("gm-cx:50,astar:50"), "'gm-cx' is not a search name");
        assert_eq!(
            reason("gm-c4,astar:50"),
            "'gm-c4' has no share (write it name:share, e.g. gm-c4:50)"
        );
        assert_eq!(reason("astar:x"), "'x' is not a share from 0 to 100");
        assert_eq!(reason("astar:101"), "'101' is not a share from 0 to 100");
        assert_eq!(
            reason("gm-c4:50:0,astar:50"),
            "'0' is not an expansion cap (a positive whole number)"
        );
        assert_eq!(
            reason("gm-c4:50:1e5,astar:50"),
            "'1e5' is not an expansion cap (a positive whole number)"
        );
        assert_eq!(reason(""), "an empty entry");
        assert_eq!(reason("astar:50,"), "an empty entry");
        let message = "gm-c4:100".parse::<Phases>().unwrap_err().to_string();
        assert!(
            message.starts_with("portfolio list 'gm-c4:100': the last search"),
            "{message}"
        );
        assert!(
            message.contains("ending with a search without macros"),
            "{message}"
        );
    }
}
