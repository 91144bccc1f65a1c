//! What a survey's entries add up to: shares with confidence intervals, distributions,
//! times. Computed from the entries whenever a survey is printed or written, never stored
//! on its own, so a summary can never disagree with the entries beside it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::survey_file::{Entry, Run};

/// 95% two-sided normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// A count out of a total, its share, and the Wilson score interval of the share at 95%.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Share {
    pub count: u64,
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

impl Share {
    /// `count` out of `total` (an empty total gives the whole interval 0..1).
    pub fn of(count: u64, total: u64) -> Share {
        let (low, high) = wilson(count, total);
        Share {
            count,
            share: if total == 0 {
                0.0
            } else {
                count as f64 / total as f64
            },
            low,
            high,
        }
    }

    /// "41.5% (35.0-48.3%)".
    pub fn text(&self) -> String {
        format!(
            "{:5.1}% ({:.1}-{:.1}%)",
            100.0 * self.share,
            100.0 * self.low,
            100.0 * self.high
        )
    }
}

/// The Wilson score interval at 95% for `x` successes in `n` trials: unlike the normal
/// approximation it stays inside 0..1 and is sound for shares near 0 or 1 and small `n`.
pub fn wilson(x: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (x, n) = (x as f64, n as f64);
    let p = x / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Minimum, median and maximum of some numbers.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub mean: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(mut values: Vec<f64>) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        let n = values.len();
        let median = if n % 2 == 1 {
            values[n / 2]
        } else {
            (values[n / 2 - 1] + values[n / 2]) / 2.0
        };
        Some(Spread {
            min: values[0],
            median,
            mean: values.iter().sum::<f64>() / n as f64,
            max: values[n - 1],
        })
    }
}

/// One opening cell (or any first move) across the layouts where it was legal.
#[derive(Serialize, Clone, Debug, PartialEq, Default)]
pub struct MoveTally {
    pub legal: u64,
    pub wins: u64,
    pub draws: u64,
}

/// A run's entries, added up.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Summary {
    pub seed: u64,
    pub after: u32,
    /// Entries in the run, and how many of them were solved.
    pub layouts: u64,
    pub solved: u64,
    /// Over the solved layouts: who wins with perfect play. Black is the first player.
    pub black_wins: Share,
    pub draws: Share,
    pub white_wins: Share,
    /// Over the solved layouts: the side to move at the surveyed position wins.
    pub side_to_move_wins: Share,
    /// Placements from the surveyed position to the end under perfect play, and how many
    /// layouts have each, by winner (`black`, `white`, `draw`).
    pub remoteness: BTreeMap<String, BTreeMap<u32, u64>>,
    /// How the perfect line ends (the first best placement at every step).
    pub ends_by: BTreeMap<String, u64>,
    /// Each first move from the surveyed position: in how many layouts it was legal, and
    /// won (or drew) for the player making it.
    pub first_moves: BTreeMap<String, MoveTally>,
    /// How many layouts have 0, 1, 2, ... winning first moves.
    pub winning_first_moves: BTreeMap<u32, u64>,
    /// Seconds per solved layout (value, remoteness and every first move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<Spread>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Spread>,
    /// Seconds spent on the layouts given up at the time limit.
    pub unsolved_seconds: f64,
}

impl Summary {
    pub fn of(run: &Run) -> Summary {
        let solved: Vec<&Entry> = run.entries.iter().filter(|e| e.value.is_some()).collect();
        let n = solved.len() as u64;
        let count = |f: &dyn Fn(&Entry) -> bool| solved.iter().filter(|e| f(e)).count() as u64;
        let mut remoteness: BTreeMap<String, BTreeMap<u32, u64>> = BTreeMap::new();
        let mut ends_by = BTreeMap::new();
        let mut first_moves: BTreeMap<String, MoveTally> = BTreeMap::new();
        let mut winning_first_moves = BTreeMap::new();
        for e in &solved {
            if let (Some(r), Some(w)) = (e.remoteness, &e.winner) {
                *remoteness
                    .entry(w.clone())
                    .or_default()
                    .entry(r)
                    .or_default() += 1;
            }
            if let Some(how) = &e.ends_by {
                *ends_by.entry(how.clone()).or_default() += 1;
            }
            if let Some(moves) = &e.first_moves {
                let mut wins = 0;
                for m in moves {
                    let tally = first_moves.entry(m.cell.clone()).or_default();
                    tally.legal += 1;
                    match m.value.as_str() {
                        "win" => {
                            tally.wins += 1;
                            wins += 1;
                        }
                        "draw" => tally.draws += 1,
                        _ => {}
                    }
                }
                *winning_first_moves.entry(wins).or_default() += 1;
            }
        }
        let unsolved_seconds = run
            .entries
            .iter()
            .filter(|e| e.value.is_none())
            .map(|e| e.seconds)
            .sum();
        Summary {
            seed: run.seed,
            after: run.after,
            layouts: run.entries.len() as u64,
            solved: n,
            black_wins: Share::of(count(&|e| e.winner.as_deref() == Some("black")), n),
            draws: Share::of(count(&|e| e.winner.as_deref() == Some("draw")), n),
            white_wins: Share::of(count(&|e| e.winner.as_deref() == Some("white")), n),
            side_to_move_wins: Share::of(count(&|e| e.value.as_deref() == Some("win")), n),
            remoteness,
            ends_by,
            first_moves,
            winning_first_moves,
            seconds: Spread::of(solved.iter().map(|e| e.seconds).collect()),
            nodes: Spread::of(solved.iter().map(|e| e.nodes as f64).collect()),
            unsolved_seconds,
        }
    }

    /// The summary for people.
    pub fn text(&self) -> String {
        let mut out = format!(
            "seed {}, after {} placements: {} layouts, {} solved\n",
            self.seed, self.after, self.layouts, self.solved
        );
        if self.solved == 0 {
            return out;
        }
        out.push_str(&format!(
            "  black (first player) wins  {}  {} layouts\n",
            self.black_wins.text(),
            self.black_wins.count
        ));
        out.push_str(&format!(
            "  draw                       {}  {} layouts\n",
            self.draws.text(),
            self.draws.count
        ));
        out.push_str(&format!(
            "  white wins                 {}  {} layouts\n",
            self.white_wins.text(),
            self.white_wins.count
        ));
        out.push_str(&format!(
            "  side to move wins          {}\n",
            self.side_to_move_wins.text()
        ));
        for (winner, histogram) in &self.remoteness {
            let cells: Vec<String> = histogram.iter().map(|(r, n)| format!("{r}:{n}")).collect();
            out.push_str(&format!(
                "  remoteness, {winner:5}       {}\n",
                cells.join(" ")
            ));
        }
        if !self.ends_by.is_empty() {
            let ends: Vec<String> = self
                .ends_by
                .iter()
                .map(|(how, n)| format!("{how} {n}"))
                .collect();
            out.push_str(&format!(
                "  perfect lines end by       {}\n",
                ends.join(", ")
            ));
        }
        let wins: Vec<String> = self
            .winning_first_moves
            .iter()
            .map(|(w, n)| format!("{w}:{n}"))
            .collect();
        out.push_str(&format!(
            "  winning first moves        {} (number of winning moves: layouts)\n",
            wins.join(" ")
        ));
        if self.after == 0 {
            let cells: Vec<String> = self
                .first_moves
                .iter()
                .map(|(cell, t)| format!("{cell} {}/{}", t.wins, t.legal))
                .collect();
            out.push_str(&format!(
                "  opening cells (wins/legal) {}\n",
                cells.join(", ")
            ));
        }
        if let (Some(s), Some(nodes)) = (&self.seconds, &self.nodes) {
            out.push_str(&format!(
                "  seconds per layout         median {:.2}, mean {:.2}, max {:.2}; nodes median {:.0}, max {:.0}\n",
                s.median, s.mean, s.max, nodes.median, nodes.max
            ));
        }
        if self.solved < self.layouts {
            out.push_str(&format!(
                "  unsolved                   {} layouts, {:.0} s spent on them\n",
                self.layouts - self.solved,
                self.unsolved_seconds
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_published_values() {
        // Values from Wilson (1927) as tabulated by Newcombe (1998), Table I, method 3:
        // 81/263 -> 0.2553-0.3662, 15/148 -> 0.0624-0.1605, 0/20 -> 0-0.1611.
        let close = |(a, b): (f64, f64), (c, d): (f64, f64)| {
            assert!((a - c).abs() < 5e-4 && (b - d).abs() < 5e-4, "{a} {b}");
        };
        close(wilson(81, 263), (0.2553, 0.3662));
        close(wilson(15, 148), (0.0624, 0.1605));
        close(wilson(0, 20), (0.0, 0.1611));
        close(wilson(20, 20), (0.8389, 1.0));
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn spreads_take_the_middle() {
        let s = Spread::of(vec![3.0, 1.0, 2.0, 10.0]).unwrap();
        assert_eq!((s.min, s.median, s.mean, s.max), (1.0, 2.5, 4.0, 10.0));
        assert_eq!(Spread::of(vec![]), None);
    }
}
