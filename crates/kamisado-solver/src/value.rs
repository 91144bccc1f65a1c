//! Who wins, and in how many moves: the one answer every part of the project gives.
//!
//! [`Value`] is the game-theoretic value for one player; [`Outcome`] adds the remoteness.
//! Everything that reports a result (a solve, a move of an opening table, a database
//! record, a referee's judgement) says it with these two types, always from the point of
//! view of one named player, usually the side to move.

use std::fmt;

/// The game-theoretic value of a position for one player (usually the side to move).
///
/// Ordered from worst to best for that player, so `max` picks the better value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Loss,
    Draw,
    Win,
}

impl Value {
    /// `win`, `draw` or `loss`, as reports print it.
    pub const fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }

    /// The value for the other player.
    pub const fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Draw => Value::Draw,
            Value::Loss => Value::Win,
        }
    }

    /// Reads `win`, `draw` or `loss`.
    pub fn from_name(name: &str) -> Option<Value> {
        match name {
            "win" => Some(Value::Win),
            "draw" => Some(Value::Draw),
            "loss" => Some(Value::Loss),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Who wins, and in how many moves: a value with its remoteness, for one player.
///
/// The remoteness is the number of moves to the end of the game under perfect play: the
/// winner ends the game as fast as it can, the loser holds out as long as it can, and a
/// drawn game runs the length its rules fix (see [`crate::Game::drawn_length`]). A
/// finished game has remoteness 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Outcome {
    pub value: Value,
    pub remoteness: u32,
}

impl Outcome {
    pub const fn new(value: Value, remoteness: u32) -> Outcome {
        Outcome { value, remoteness }
    }

    /// "win in 7", "draw in 20", "loss in 12".
    pub fn describe(&self) -> String {
        format!("{} in {}", self.value, self.remoteness)
    }

    /// The outcome for the other player: the same game, seen from across the board.
    pub const fn flip(self) -> Outcome {
        Outcome {
            value: self.value.flip(),
            remoteness: self.remoteness,
        }
    }

    /// The outcome for the player who moved into a position whose side to move has
    /// `self`: one move longer, and seen from the other side if `passed` (the opponent
    /// moves next) rather than the same player again.
    pub const fn through_move(self, passed: bool) -> Outcome {
        Outcome {
            value: if passed {
                self.value.flip()
            } else {
                self.value
            },
            remoteness: self.remoteness + 1,
        }
    }

    /// Whether `self` is better for its player than `other`: a better value, or the same
    /// value reached sooner (a win) or later (a loss). Draws of different lengths are
    /// equally good.
    pub fn is_better_than(&self, other: &Outcome) -> bool {
        match self.value.cmp(&other.value) {
            std::cmp::Ordering::Equal => match self.value {
                Value::Win => self.remoteness < other.remoteness,
                Value::Loss => self.remoteness > other.remoteness,
                Value::Draw => false,
            },
            order => order.is_gt(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in {}", self.value, self.remoteness)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_order_from_worst_to_best_and_flip() {
        assert!(Value::Loss < Value::Draw && Value::Draw < Value::Win);
        for v in [Value::Loss, Value::Draw, Value::Win] {
            assert_eq!(v.flip().flip(), v);
            assert_eq!(Value::from_name(v.name()), Some(v));
        }
        assert_eq!(Value::Draw.flip(), Value::Draw);
        assert_eq!(Value::from_name("won"), None);
    }

    #[test]
    fn faster_wins_and_slower_losses_are_better() {
        let o = Outcome::new;
        assert!(o(Value::Win, 3).is_better_than(&o(Value::Win, 5)));
        assert!(o(Value::Loss, 9).is_better_than(&o(Value::Loss, 2)));
        assert!(o(Value::Draw, 1).is_better_than(&o(Value::Loss, 40)));
        assert!(o(Value::Win, 99).is_better_than(&o(Value::Draw, 1)));
        assert!(!o(Value::Draw, 4).is_better_than(&o(Value::Draw, 8)));
        assert_eq!(o(Value::Win, 7).describe(), "win in 7");
    }
}
