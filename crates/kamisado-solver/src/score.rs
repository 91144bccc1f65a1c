//! Scores: a value and its remoteness packed into one integer, and how scores look
//! across one move. Every part of the project that compares or converts results across a
//! move (the searches, the database, the referee) does it here, never with raw integers.
//!
//! A win in `r` moves scores `WIN - r`, a loss in `r` scores `r - WIN`, a draw 0, so a
//! higher score is always better for the side to move (faster wins, slower losses) and
//! perfect play is plain negamax over scores.
//!
//! Draws all score 0 whatever their length: the length of a drawn game is fixed by the
//! position (the [`Game`] contract), so the score need not carry it, and it could not
//! anyway, since a zero-sum score cannot order draws for both players at once.
//!
//! Turns need not alternate (a game's automatic moves may hand the mover the next turn),
//! so every conversion takes `passed`: whether the opponent moves next. Searches also use
//! scores as *bounds*, which need not be scores of any position (1 is "better than every
//! draw", `WIN - 2` is "no win in one"); the conversions are defined on all integers in
//! range and keep every comparison with a real score exact (see the tests).

use crate::{Game, Outcome, Value};

/// Score of a game the side to move has already won (remoteness 0).
const WIN: i32 = 1000;

/// The longest game any solver here meets, in moves; remoteness beyond it is not
/// representable. (Kamisado rounds last at most 97 moves, Kamon 36 placements.)
pub const MAX_REMOTENESS: u32 = 500;

/// A value and remoteness for the side to move, or a bound on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i32);

impl Score {
    /// A game won: the best possible score.
    pub const WON: Score = Score(WIN);
    /// A game lost: the worst possible score.
    pub const LOST: Score = Score(-WIN);
    /// Every draw.
    pub const DRAW: Score = Score(0);
    /// Below every score: a start value for maximising.
    pub const BELOW_ALL: Score = Score(-WIN - 1);
    /// The best an unfinished position can score: a win in one.
    pub const WIN_IN_ONE: Score = Score(WIN - 1);
    /// The best an unfinished position without a win in one can score: a win in two.
    pub const WIN_IN_TWO: Score = Score(WIN - 2);
    /// The worst an unfinished position can score: a loss in one.
    pub const LOSS_IN_ONE: Score = Score(1 - WIN);
    /// A loss in two and a win in three: the short forced results a game may report.
    pub const LOSS_IN_TWO: Score = Score(2 - WIN);
    pub const WIN_IN_THREE: Score = Score(WIN - 3);
    /// Bounds: "better than any draw" and "worse than any draw".
    pub const ABOVE_DRAW: Score = Score(1);
    pub const BELOW_DRAW: Score = Score(-1);

    /// The score of a value reached in `remoteness` moves (for a draw, any length).
    ///
    /// # Panics
    ///
    /// If `remoteness` exceeds [`MAX_REMOTENESS`].
    pub fn new(value: Value, remoteness: u32) -> Score {
        assert!(
            remoteness <= MAX_REMOTENESS,
            "remoteness {remoteness} out of range"
        );
        let r = remoteness as i32;
        match value {
            Value::Win => Score(WIN - r),
            Value::Draw => Score(0),
            Value::Loss => Score(r - WIN),
        }
    }

    /// The score of an outcome.
    ///
    /// # Panics
    ///
    /// If its remoteness exceeds [`MAX_REMOTENESS`].
    pub fn of(outcome: Outcome) -> Score {
        Score::new(outcome.value, outcome.remoteness)
    }

    /// The value a score (or a bound) lies in.
    #[inline]
    pub fn value(self) -> Value {
        match self.0 {
            s if s > 0 => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        }
    }

    /// The remoteness of a win or a loss; `None` for a draw, whose length is the game's.
    #[inline]
    pub fn remoteness(self) -> Option<u32> {
        match self.0 {
            s if s > 0 => Some((WIN - s) as u32),
            0 => None,
            s => Some((WIN + s) as u32),
        }
    }

    /// The outcome of `pos` whose exact score this is.
    pub fn outcome<G: Game>(self, game: &G, pos: &G::Position) -> Outcome {
        let remoteness = self.remoteness().unwrap_or_else(|| game.drawn_length(pos));
        Outcome::new(self.value(), remoteness)
    }

    /// The exact score the rules alone give `pos`, without search: a finished game
    /// (remoteness 0), or a win in one (or a loss in two, a win in three), if the game
    /// reports it. Searches and databases
    /// never need to store these.
    pub fn by_rules<G: Game>(game: &G, pos: &G::Position) -> Option<Score> {
        match crate::walker::judge(game, pos) {
            crate::walker::Judged::Exact(s) => Some(s),
            crate::walker::Judged::Open { .. } => None,
        }
    }

    /// `self` as a lower bound, raised to the lowest real score it admits: a bound between
    /// a draw and the slowest win (`ABOVE_DRAW`, "some win") is the slowest win, one
    /// between the slowest loss and a draw is a draw. Real scores keep every comparison,
    /// and, unlike the bounds between them, stay on the same side of a draw across a move
    /// ([`Score::through_move`] of `ABOVE_DRAW` is a draw; of the slowest win, a loss).
    #[inline]
    pub fn tight_low(self) -> Score {
        const SLOWEST: i32 = WIN - MAX_REMOTENESS as i32;
        match self.0 {
            s if s > 0 && s < SLOWEST => Score(SLOWEST),
            s if s < 0 && s > -SLOWEST => Score::DRAW,
            _ => self,
        }
    }

    /// `self` as an upper bound, lowered to the highest real score it admits (see
    /// [`Score::tight_low`]).
    #[inline]
    pub fn tight_high(self) -> Score {
        const SLOWEST: i32 = WIN - MAX_REMOTENESS as i32;
        match self.0 {
            s if s > 0 && s < SLOWEST => Score::DRAW,
            s if s < 0 && s > -SLOWEST => Score(-SLOWEST),
            _ => self,
        }
    }

    /// The mover's score through a move to a child scoring `self` for its own side to
    /// move: one move further from the end, and seen from the other side if `passed`
    /// (the opponent moves next).
    #[inline]
    pub fn through_move(self, passed: bool) -> Score {
        // One move further from the end: one step towards 0 (a draw stays 0); then the
        // other side's view. Written without branches: searches call it on every child.
        let longer = self.0 - self.0.signum();
        Score(if passed { -longer } else { longer })
    }

    /// The inverse of [`Score::through_move`] at a parent bound `self`: the child bound
    /// `c` such that, for every child score `x`, `x.through_move(passed) > self` exactly
    /// when `x < c` (if `passed`) or `x > c` (if not).
    #[inline]
    pub fn child_bound(self, passed: bool) -> Score {
        // One step away from 0, the inverse of a move's step towards it; then the child's
        // view.
        let shorter = self.0 + self.0.signum();
        Score(if passed { -shorter } else { shorter })
    }

    /// The child's window for the parent's window (alpha, beta): a child result at or
    /// beyond the child's bounds means a parent result at or beyond the parent's.
    #[inline]
    pub fn child_window(alpha: Score, beta: Score, passed: bool) -> (Score, Score) {
        if passed {
            (beta.child_bound(true), alpha.child_bound(true))
        } else {
            (alpha.child_bound(false), beta.child_bound(false))
        }
    }

    /// The next score up (for null windows).
    #[inline]
    pub fn above(self) -> Score {
        Score(self.0 + 1)
    }

    /// The next score down.
    #[inline]
    pub fn below(self) -> Score {
        Score(self.0 - 1)
    }

    /// For ordering keys.
    #[inline]
    pub(crate) fn to_i64(self) -> i64 {
        self.0 as i64
    }

    /// The score as stored in a table entry.
    #[inline]
    pub(crate) fn to_bits(self) -> i16 {
        self.0 as i16
    }

    #[inline]
    pub(crate) fn from_bits(bits: i16) -> Score {
        Score(bits as i32)
    }
}

impl std::fmt::Display for Score {
    /// "win in 7", "draw", "loss in 12"; bounds print as the nearest description.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.remoteness() {
            Some(r) => write!(f, "{} in {r}", self.value()),
            None => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every score a position can have, with a short maximum remoteness for speed.
    fn scores() -> Vec<Score> {
        let mut all = vec![Score::DRAW];
        for r in 0..=60 {
            all.push(Score::new(Value::Win, r));
            all.push(Score::new(Value::Loss, r));
        }
        all
    }

    /// Every bound a search may use: all integers around the scores.
    fn bounds() -> impl Iterator<Item = Score> {
        (-WIN - 1..=WIN + 1).map(Score)
    }

    /// A tight bound admits exactly the real scores its bound admits, and a tight "some
    /// win" stays a win, seen as a loss, across a move.
    #[test]
    fn tight_bounds_admit_the_same_scores() {
        let mut real = scores();
        for r in MAX_REMOTENESS - 3..=MAX_REMOTENESS {
            real.push(Score::new(Value::Win, r));
            real.push(Score::new(Value::Loss, r));
        }
        for b in bounds() {
            for &s in &real {
                assert_eq!(s >= b, s >= b.tight_low(), "{s:?} {b:?}");
                assert_eq!(s <= b, s <= b.tight_high(), "{s:?} {b:?}");
            }
        }
        let win = Score::ABOVE_DRAW.tight_low().through_move(true);
        assert_eq!(win.value(), Value::Loss);
        assert_eq!(
            Score::BELOW_DRAW.tight_high().through_move(true).value(),
            Value::Win
        );
        assert_eq!(Score::ABOVE_DRAW.through_move(true), Score::DRAW);
    }

    #[test]
    fn scores_round_trip_and_order_as_outcomes() {
        for v in [Value::Win, Value::Loss] {
            for r in 0..=MAX_REMOTENESS {
                let s = Score::new(v, r);
                assert_eq!((s.value(), s.remoteness()), (v, Some(r)));
            }
        }
        assert_eq!(Score::new(Value::Draw, 17), Score::DRAW);
        assert_eq!(Score::DRAW.remoteness(), None);
        for a in scores() {
            for b in scores() {
                let oa = Outcome::new(a.value(), a.remoteness().unwrap_or(0));
                let ob = Outcome::new(b.value(), b.remoteness().unwrap_or(0));
                assert_eq!(a > b, oa.is_better_than(&ob), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn a_move_adds_one_and_turns_the_view_when_the_turn_passes() {
        let (win, loss) = (Value::Win, Value::Loss);
        assert_eq!(Score::new(win, 4).through_move(true), Score::new(loss, 5));
        assert_eq!(Score::new(loss, 0).through_move(true), Score::new(win, 1));
        assert_eq!(Score::new(win, 4).through_move(false), Score::new(win, 5));
        assert_eq!(Score::new(loss, 2).through_move(false), Score::new(loss, 3));
        assert_eq!(Score::DRAW.through_move(true), Score::DRAW);
        assert_eq!(Score::DRAW.through_move(false), Score::DRAW);
    }

    #[test]
    fn child_bounds_invert_the_move_for_every_score_and_bound() {
        for passed in [true, false] {
            for p in bounds() {
                let c = p.child_bound(passed);
                for x in scores() {
                    let parent_better = x.through_move(passed) > p;
                    let child_side = if passed { x < c } else { x > c };
                    assert_eq!(parent_better, child_side, "p={p:?} x={x:?} passed={passed}");
                }
            }
        }
    }

    #[test]
    fn child_windows_keep_fail_soft_answers() {
        // A child result at or beyond a child bound is a parent result at or beyond the
        // matching parent bound, for null and wide windows alike.
        for passed in [true, false] {
            for (alpha, beta) in [(-5, -4), (0, 1), (-1, 0), (990, 991), (-995, 3), (-1, 1)] {
                let (alpha, beta) = (Score(alpha), Score(beta));
                let (ca, cb) = Score::child_window(alpha, beta, passed);
                for x in scores() {
                    let s = x.through_move(passed);
                    let (low_side, high_side) = if passed {
                        (x >= cb, x <= ca)
                    } else {
                        (x <= ca, x >= cb)
                    };
                    assert_eq!(s <= alpha, low_side, "{alpha:?}..{beta:?} x={x:?} {passed}");
                    assert_eq!(s >= beta, high_side, "{alpha:?}..{beta:?} x={x:?} {passed}");
                }
            }
        }
    }
}
