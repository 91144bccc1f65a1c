//! The score a match is played to.

use std::fmt;
use std::str::FromStr;

/// How many points win the match. The single round of `RULES.md` is a match to 1 point.
///
/// The ranks a tower can have on the board follow from the target (see
/// [`Target::max_rank`]), which is why a position carries it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// 1 point: the single round.
    #[default]
    Single = 1,
    /// 3 points.
    Standard = 3,
    /// 7 points.
    Long = 7,
    /// 15 points.
    Marathon = 15,
}

impl Target {
    pub const ALL: [Target; 4] = [
        Target::Single,
        Target::Standard,
        Target::Long,
        Target::Marathon,
    ];

    /// The points that win the match: 1, 3, 7 or 15.
    #[inline]
    pub const fn points(self) -> u32 {
        self as u32
    }

    /// The target with these points, if there is one.
    pub const fn from_points(points: u32) -> Option<Target> {
        match points {
            1 => Some(Target::Single),
            3 => Some(Target::Standard),
            7 => Some(Target::Long),
            15 => Some(Target::Marathon),
            _ => None,
        }
    }

    /// 0..=3 in the order of [`Target::ALL`]; two bits in a packed position or key.
    #[inline]
    pub const fn code(self) -> u8 {
        match self {
            Target::Single => 0,
            Target::Standard => 1,
            Target::Long => 2,
            Target::Marathon => 3,
        }
    }

    #[inline]
    pub const fn from_code(code: u8) -> Target {
        Target::ALL[(code & 3) as usize]
    }

    /// The highest rank a tower can have while a round is being played: a tower worth
    /// `2^r - 1 >= target` points would already have ended the match. 0 in a single round,
    /// 1 in a Standard match, 2 in a Long one, 3 in a Marathon. Only the tower that has
    /// just won the match-ending round stands one rank above it.
    #[inline]
    pub const fn max_rank(self) -> u8 {
        self.code()
    }

    pub const fn name(self) -> &'static str {
        match self {
            Target::Single => "single round",
            Target::Standard => "Standard match",
            Target::Long => "Long match",
            Target::Marathon => "Marathon match",
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Single => write!(f, "{} (to 1 point)", self.name()),
            _ => write!(f, "{} (to {} points)", self.name(), self.points()),
        }
    }
}

/// Why a text is not a match target.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("match target `{text}`: expected 1, 3, 7 or 15")]
pub struct ParseTargetError {
    pub text: String,
}

impl FromStr for Target {
    type Err = ParseTargetError;

    fn from_str(s: &str) -> Result<Target, ParseTargetError> {
        s.parse()
            .ok()
            .and_then(Target::from_points)
            .ok_or_else(|| ParseTargetError { text: s.to_owned() })
    }
}
