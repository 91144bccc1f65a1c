//! The match position (board with ranks, side to move, active colour, match target), its
//! text form and the scores the board implies.
//!
//! Like the single-round reference, the position stores only what the text shows; whether
//! a round is over, who won and a pending zero-length chain are recomputed every time.

use crate::board::{Colour, Side, Square, Tower};

/// The match targets of MATCH-RULES.md: single round, Standard, Long, Marathon.
pub const MATCH_TARGETS: [u32; 4] = [1, 3, 7, 15];

/// The highest rank a tower can have on the board of a text: 4 (Quadruple Sumo). Only a
/// finished Marathon reaches it, and finished matches are not positions (see
/// [`MatchPosition::parse`]), but the text syntax allows it so the error says why.
const MAX_RANK_IN_TEXT: u32 = 4;

/// A tower in match play: owner, colour and rank (0 plain, 1 Sumo, 2 Double, 3 Triple).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct MatchTower {
    /// The owner.
    pub side: Side,
    /// The tower's own colour.
    pub colour: Colour,
    /// The number of dragon teeth: 0 plain tower, 1 Sumo, 2 Double Sumo, 3 Triple Sumo.
    pub rank: u32,
}

impl MatchTower {
    /// What the tower is worth: 2^rank - 1 points.
    pub fn points(self) -> u32 {
        (1 << self.rank) - 1
    }

    /// The text form: the single-round letter and one `+` per rank.
    pub fn text(self) -> String {
        let letter = Tower {
            side: self.side,
            colour: self.colour,
        }
        .letter();
        format!("{letter}{}", "+".repeat(self.rank as usize))
    }
}

/// A position of a match: the board with ranks, the side to move, the active colour
/// (`None` = the free first move of a round) and the match target.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MatchPosition {
    /// `board[rank][file]`, rank 0 = rank 1 (Black's home row), file 0 = file a.
    pub(crate) board: [[Option<MatchTower>; 8]; 8],
    /// Whose turn it is (before any pending zero-length chain).
    pub(crate) side: Side,
    /// The colour of the tower the side to move must move; `None` = any tower.
    pub(crate) active: Option<Colour>,
    /// The score that wins the match: 1, 3, 7 or 15.
    pub(crate) target: u32,
}

impl MatchPosition {
    /// The first position of a match to `target`: the single-round start (every tower on
    /// the square of its colour on its home row, all plain), Black to move, free move.
    pub fn start(target: u32) -> Result<MatchPosition, String> {
        check_target(target)?;
        let mut board = [[None; 8]; 8];
        for square in Square::all() {
            let side = match square.rank {
                0 => Side::Black,
                7 => Side::White,
                _ => continue,
            };
            board[square.rank][square.file] = Some(MatchTower {
                side,
                colour: square.colour(),
                rank: 0,
            });
        }
        Ok(MatchPosition {
            board,
            side: Side::Black,
            active: None,
            target,
        })
    }

    /// The tower on `square`, if any.
    pub fn tower_at(&self, square: Square) -> Option<MatchTower> {
        self.board[square.rank][square.file]
    }

    /// The side to move as the text says (before any pending zero-length chain).
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The active colour as the text says; `None` is the free first move of a round.
    pub fn active(&self) -> Option<Colour> {
        self.active
    }

    /// The match target (1, 3, 7 or 15).
    pub fn target(&self) -> u32 {
        self.target
    }

    /// The square of `side`'s tower of colour `colour`, if it is on the board.
    pub(crate) fn find_tower(&self, side: Side, colour: Colour) -> Option<Square> {
        Square::all().into_iter().find(|&square| {
            matches!(self.tower_at(square), Some(t) if t.side == side && t.colour == colour)
        })
    }

    /// `side`'s score as the board shows it: the sum of 2^rank - 1 over its towers. A round
    /// that has just ended is not counted yet (its winner's tower gains the rank at the
    /// refill, see [`crate::RoundEnd`]).
    pub fn score(&self, side: Side) -> u32 {
        Square::all()
            .into_iter()
            .filter_map(|square| self.tower_at(square))
            .filter(|tower| tower.side == side)
            .map(|tower| tower.points())
            .sum()
    }

    /// Reads `<board> <side> <active> [<target>]`: the single-round text, each tower letter
    /// followed by one `+` per rank, and an optional fourth field 1, 3, 7 or 15 (absent = 1).
    ///
    /// Checks besides the syntax: no side owns two towers of one colour; no score has
    /// reached the target already (that match is over and has no position); a tower on its
    /// goal row is a finished round only when consistent (exactly one such tower, its side
    /// not to move, the active colour the one its square names). Towers may be missing, as
    /// in the single-round reference, so that tests can use small positions. Never panics.
    pub fn parse(text: &str) -> Result<MatchPosition, String> {
        let fields: Vec<&str> = text.trim().split(' ').collect();
        if fields.len() != 3 && fields.len() != 4 {
            return Err(format!(
                "position text needs 3 or 4 fields separated by single spaces, got {}: {text:?}",
                fields.len()
            ));
        }
        let board = parse_board(fields[0])?;
        let side = match fields[1] {
            "b" => Side::Black,
            "w" => Side::White,
            other => return Err(format!("side to move must be 'b' or 'w', got {other:?}")),
        };
        let active = parse_active(fields[2])?;
        let target = match fields.get(3) {
            None => 1,
            Some(field) => match field.parse::<u32>() {
                // Only the plain digits: "+3" or "03" would parse as numbers too.
                Ok(target) if MATCH_TARGETS.contains(&target) && target.to_string() == *field => {
                    target
                }
                _ => return Err(format!("match target must be 1, 3, 7 or 15, got {field:?}")),
            },
        };
        let position = MatchPosition {
            board,
            side,
            active,
            target,
        };
        position.check_consistency()?;
        Ok(position)
    }

    /// The checks of [`MatchPosition::parse`] beyond the syntax.
    fn check_consistency(&self) -> Result<(), String> {
        for side in [Side::Black, Side::White] {
            for colour in Colour::ALL {
                let count = Square::all()
                    .into_iter()
                    .filter(|&sq| {
                        matches!(self.tower_at(sq), Some(t) if t.side == side && t.colour == colour)
                    })
                    .count();
                if count > 1 {
                    return Err(format!("{side:?} has {count} {colour:?} towers"));
                }
            }
            let score = self.score(side);
            if score >= self.target {
                return Err(format!(
                    "{side:?}'s towers are worth {score} points, which reaches the match target {}: the match is over",
                    self.target
                ));
            }
        }
        let goal_squares: Vec<Square> = Square::all()
            .into_iter()
            .filter(
                |&sq| matches!(self.tower_at(sq), Some(t) if sq.rank == t.side.goal_rank_index()),
            )
            .collect();
        if goal_squares.len() > 1 {
            return Err(format!(
                "{} towers stand on their goal rows; a finished round has exactly one",
                goal_squares.len()
            ));
        }
        if let Some(&square) = goal_squares.first() {
            let Some(tower) = self.tower_at(square) else {
                return Ok(());
            };
            if tower.side == self.side {
                return Err(format!(
                    "the tower on {} has won the round, so {:?} cannot be to move",
                    square.name(),
                    self.side
                ));
            }
            if self.active != Some(square.colour()) {
                return Err(format!(
                    "the tower on {} has won the round, so the active colour must be its square's, {:?}",
                    square.name(),
                    square.colour()
                ));
            }
        }
        Ok(())
    }

    /// The position text: empty squares merged into digits, `+` per rank, the active colour
    /// in lowercase, and the target as a fourth field unless it is 1 (so a single-round
    /// position prints exactly as in the single-round reference).
    pub fn to_text(&self) -> String {
        let mut ranks = Vec::new();
        for rank in (0..8).rev() {
            let mut rank_text = String::new();
            let mut empty_run = 0;
            for file in 0..8 {
                match self.board[rank][file] {
                    None => empty_run += 1,
                    Some(tower) => {
                        if empty_run > 0 {
                            rank_text.push_str(&empty_run.to_string());
                            empty_run = 0;
                        }
                        rank_text.push_str(&tower.text());
                    }
                }
            }
            if empty_run > 0 {
                rank_text.push_str(&empty_run.to_string());
            }
            ranks.push(rank_text);
        }
        let active = match self.active {
            None => '-',
            Some(colour) => colour.code(),
        };
        let mut text = format!("{} {} {}", ranks.join("/"), self.side.code(), active);
        if self.target != 1 {
            text.push_str(&format!(" {}", self.target));
        }
        text
    }
}

/// Rejects anything but the four match targets.
pub(crate) fn check_target(target: u32) -> Result<(), String> {
    if MATCH_TARGETS.contains(&target) {
        Ok(())
    } else {
        Err(format!("match target must be 1, 3, 7 or 15, got {target}"))
    }
}

/// Reads the board field: ranks 8 down to 1 separated by `/`, each a sequence of tower
/// letters (each followed by its `+` signs) and digits 1-8 for empty squares.
fn parse_board(field: &str) -> Result<[[Option<MatchTower>; 8]; 8], String> {
    let rank_texts: Vec<&str> = field.split('/').collect();
    if rank_texts.len() != 8 {
        return Err(format!(
            "board needs 8 ranks separated by '/', got {}",
            rank_texts.len()
        ));
    }
    let mut board = [[None; 8]; 8];
    for (i, rank_text) in rank_texts.iter().enumerate() {
        let rank = 7 - i; // the first rank in the text is rank 8
        let mut file = 0usize;
        // The file of the tower a '+' would belong to: the tower written just before it.
        let mut last_tower_file: Option<usize> = None;
        for c in rank_text.chars() {
            if let Some(tower) = Tower::from_letter(c) {
                if file >= 8 {
                    return Err(format!("rank {} has more than 8 squares", rank + 1));
                }
                board[rank][file] = Some(MatchTower {
                    side: tower.side,
                    colour: tower.colour,
                    rank: 0,
                });
                last_tower_file = Some(file);
                file += 1;
            } else if c == '+' {
                let Some(tower_file) = last_tower_file else {
                    return Err(format!(
                        "'+' in rank {} does not follow a tower letter",
                        rank + 1
                    ));
                };
                if let Some(tower) = board[rank][tower_file].as_mut() {
                    if tower.rank == MAX_RANK_IN_TEXT {
                        return Err(format!(
                            "the tower on {} has more than {MAX_RANK_IN_TEXT} '+' signs",
                            Square::new(tower_file, rank).name()
                        ));
                    }
                    tower.rank += 1;
                }
            } else if ('1'..='8').contains(&c) {
                last_tower_file = None;
                file += c as usize - '0' as usize;
                if file > 8 {
                    return Err(format!("rank {} has more than 8 squares", rank + 1));
                }
            } else {
                return Err(format!("unexpected character {c:?} in rank {}", rank + 1));
            }
        }
        if file != 8 {
            return Err(format!(
                "rank {} describes {file} squares instead of 8",
                rank + 1
            ));
        }
    }
    Ok(board)
}

/// Reads the active-colour field: `-` or one colour letter (either case).
fn parse_active(field: &str) -> Result<Option<Colour>, String> {
    if field == "-" {
        return Ok(None);
    }
    let chars: Vec<char> = field.chars().collect();
    if chars.len() != 1 {
        return Err(format!(
            "active colour must be '-' or one colour letter, got {field:?}"
        ));
    }
    match Colour::from_code(chars[0].to_ascii_lowercase()) {
        Some(colour) => Ok(Some(colour)),
        None => Err(format!("unknown active colour {field:?}")),
    }
}
