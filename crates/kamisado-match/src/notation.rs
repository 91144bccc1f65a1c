//! The position text of match play: the single round's `<board> <side> <active>` with one
//! `+` per rank after a tower's letter and the match target as an optional fourth field.
//!
//! `obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3`: a Standard match in which Black's Brown tower is
//! a Sumo and White starts a round. A text without `+` and without a target is a
//! single-round text and means what the core reads it to mean.
//!
//! Reading strips the `+` signs (remembering the squares they follow) and lets the core's
//! reader do the rest, so board, side and active colour are read, and refused, exactly as
//! in the single round. Printing writes the target only when it is not 1.
//!
//! A finished round is shown as the last move left the board, before the winner's tower
//! gains its rank, exactly as the single round shows it: the rules then say who won and
//! which tower gained (the goal tower; after a deadlock, the winner's tower of the active
//! colour). One finished position cannot be written this way: a deadlock right after a
//! push, whose promoted tower is named by the pusher's square, which the text does not
//! show. It is printed one zero-length move on, with the winner to move, and reads back
//! as the same deadlock won by the same player, with the winner's tower of the active
//! colour as the promoted one.

use std::fmt;
use std::str::FromStr;

use kamisado_core::notation::ParsePositionError;
use kamisado_core::{Colour, Setup, Square, Tower};

use crate::{MatchPosition, MatchPositionError, MatchSetup, ParseTargetError, Target};

/// Why a position text is not a match position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMatchPositionError {
    #[error("position text has {found} field(s), expected 3 or 4: `<board> <side> <active> [<target>]` like `obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3`")]
    Fields { found: usize },
    #[error(
        "rank {rank}: `+` must follow a tower's letter (one `+` per rank, like `N+` or `u++`)"
    )]
    StrayPlus { rank: u8 },
    #[error(transparent)]
    Target(#[from] ParseTargetError),
    /// What the single round's reader says about the board, side or active colour.
    #[error(transparent)]
    Round(ParsePositionError),
    #[error("not a legal {kind}position: {error}", kind = if .0.is_about_a_match() { "match " } else { "" }, error = .0)]
    Illegal(#[from] MatchPositionError),
}

impl FromStr for MatchSetup {
    type Err = ParseMatchPositionError;

    fn from_str(text: &str) -> Result<MatchSetup, ParseMatchPositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (board, side, active, target) = match *fields.as_slice() {
            [board, side, active] => (board, side, active, Target::Single),
            [board, side, active, target] => (board, side, active, target.parse()?),
            _ => {
                return Err(ParseMatchPositionError::Fields {
                    found: fields.len(),
                })
            }
        };
        let rank_texts: Vec<&str> = board.split('/').collect();
        if rank_texts.len() != 8 {
            return Err(ParseMatchPositionError::Round(
                ParsePositionError::RankCount {
                    board: board.to_owned(),
                    found: rank_texts.len(),
                },
            ));
        }
        let mut pluses: Vec<(Square, u8)> = Vec::new();
        let mut stripped = Vec::with_capacity(rank_texts.len());
        for (i, rank_text) in rank_texts.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u32;
            let mut after_tower: Option<Option<Square>> = None;
            for ch in rank_text.chars() {
                if ch == '+' {
                    let Some(tower_square) = after_tower else {
                        return Err(ParseMatchPositionError::StrayPlus { rank: rank + 1 });
                    };
                    if let Some(sq) = tower_square {
                        match pluses.last_mut() {
                            Some((last, count)) if *last == sq => *count = count.saturating_add(1),
                            _ => pluses.push((sq, 1)),
                        }
                    }
                    continue;
                }
                after_tower = None;
                if let Some(d) = ch.to_digit(10) {
                    file += d;
                } else if Tower::from_char(ch).is_some() {
                    after_tower = Some((file < 8).then(|| Square::from_coords(file as u8, rank)));
                    file += 1;
                }
            }
            stripped.push(rank_text.replace('+', ""));
        }
        let round: Setup = format!("{} {side} {active}", stripped.join("/"))
            .parse()
            .map_err(|e| match e {
                // Show the rank as it was written, with its `+` signs.
                ParsePositionError::RankLength { rank, squares, .. } => {
                    ParseMatchPositionError::Round(ParsePositionError::RankLength {
                        rank,
                        text: rank_texts[8 - rank as usize].to_owned(),
                        squares,
                    })
                }
                e => ParseMatchPositionError::Round(e),
            })?;
        let mut setup = MatchSetup {
            round,
            ranks: [[0; 8]; 2],
            target,
        };
        for (sq, count) in pluses {
            if let Some(tower) = setup.round.tower_at(sq) {
                setup.set_rank(tower, count);
            }
        }
        Ok(setup)
    }
}

impl fmt::Display for MatchSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.round.tower_at(Square::from_coords(file, rank)) {
                    Some(tower) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", tower.char())?;
                        for _ in 0..self.rank(tower) {
                            f.write_str("+")?;
                        }
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let active = self.round.active.map_or('-', Colour::char);
        write!(f, " {} {}", self.round.turn.char(), active)?;
        if self.target != Target::Single {
            write!(f, " {}", self.target.points())?;
        }
        Ok(())
    }
}

impl FromStr for MatchPosition {
    type Err = ParseMatchPositionError;

    fn from_str(text: &str) -> Result<MatchPosition, ParseMatchPositionError> {
        Ok(MatchPosition::from_setup(text.parse()?)?)
    }
}

impl fmt::Display for MatchPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_setup().fmt(f)
    }
}
