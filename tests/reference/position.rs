//! The position, its text form, move generation and the rules of a turn (active tower,
//! movement, goal, zero-length moves, deadlock).
//!
//! A position is just (board, side to move, active colour). Everything else (whether the
//! game is over, who won, whether a zero-length chain is pending) is recomputed from those
//! three things every time it is asked for. That is slow but leaves no state to get wrong.

use crate::board::{Colour, Side, Square, Tower};

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum EndReason {
    /// A tower reached the opponent's home row.
    Goal,
    /// A chain of zero-length moves repeated a (side to move, active colour) pair; the player
    /// who made the last positive-length move lost.
    Deadlock,
}

/// The result of a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct GameEnd {
    /// The player who won.
    pub winner: Side,
    /// How the game was decided.
    pub reason: EndReason,
}

/// A Kamisado position: the board, the side to move and its active colour.
///
/// `active == None` is the free move (`-` in text): the side to move may move any tower.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RefPosition {
    /// `board[rank][file]`, rank 0 = rank 1 (Black's home row), file 0 = file a.
    board: [[Option<Tower>; 8]; 8],
    /// Whose turn it is.
    side: Side,
    /// The colour of the tower the side to move must move; `None` = any tower.
    active: Option<Colour>,
}

/// A move from one square to another. `from == to` is a zero-length move, which only the
/// "zero moves as plies" convention ever shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(crate) struct Move {
    pub(crate) from: Square,
    pub(crate) to: Square,
}

impl Move {
    /// The move text, e.g. `a1-a5`.
    pub(crate) fn text(self) -> String {
        format!("{}-{}", self.from.name(), self.to.name())
    }
}

/// What following the zero-length chain from a position gives.
pub(crate) enum Chain {
    /// The side to move of the contained position can move (its active tower has a legal
    /// destination, or it has the free move). The position is the end of the chain.
    Movable(RefPosition),
    /// A (side to move, active colour) pair repeated: nothing can ever move again.
    Deadlock,
    /// The tower named by the active colour does not exist on the board. Only possible for
    /// hand-made positions with missing towers; the rules say nothing about it.
    MissingTower,
}

/// Sorts moves by their text so every list this crate returns has one fixed order.
fn sort_moves(moves: &mut [Move]) {
    moves.sort_by_key(|m| m.text());
}

impl RefPosition {
    /// The start position of a single round:
    /// `obupyrgn/8/8/8/8/8/8/NGRYPUBO b -`.
    pub fn start() -> RefPosition {
        let mut board = [[None; 8]; 8];
        // Every tower starts on the square of its own colour in its own home row.
        for square in Square::all() {
            let owner = match square.rank {
                0 => Some(Side::Black),
                7 => Some(Side::White),
                _ => None,
            };
            if let Some(side) = owner {
                board[square.rank][square.file] = Some(Tower {
                    side,
                    colour: square.colour(),
                });
            }
        }
        RefPosition {
            board,
            side: Side::Black,
            active: None,
        }
    }

    /// Builds a position from its parts (used by the symmetry checks and the certificate
    /// checker, which reads positions from keys).
    pub(crate) fn from_parts(
        board: [[Option<Tower>; 8]; 8],
        side: Side,
        active: Option<Colour>,
    ) -> RefPosition {
        RefPosition {
            board,
            side,
            active,
        }
    }

    /// The tower on `square`, if any.
    pub(crate) fn tower_at(&self, square: Square) -> Option<Tower> {
        self.board[square.rank][square.file]
    }

    /// The active colour (`None` = free move).
    pub(crate) fn active(&self) -> Option<Colour> {
        self.active
    }

    /// Reads a position text `<board> <side> <active>`.
    ///
    /// Checks the syntax only, plus that no side has two towers of one colour (otherwise
    /// "the active tower" would not name a single tower). Missing towers are allowed.
    /// Leading and trailing whitespace is ignored; the three fields must be separated by
    /// single spaces. Never panics.
    pub fn parse(text: &str) -> Result<RefPosition, String> {
        let fields: Vec<&str> = text.trim().split(' ').collect();
        if fields.len() != 3 {
            return Err(format!(
                "position text needs 3 fields separated by single spaces, got {}: {text:?}",
                fields.len()
            ));
        }

        // Board: ranks 8 down to 1, separated by '/'.
        let rank_texts: Vec<&str> = fields[0].split('/').collect();
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
            for c in rank_text.chars() {
                if let Some(tower) = Tower::from_letter(c) {
                    if file >= 8 {
                        return Err(format!("rank {} has more than 8 squares", rank + 1));
                    }
                    board[rank][file] = Some(tower);
                    file += 1;
                } else if ('1'..='8').contains(&c) {
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

        let side = match fields[1] {
            "b" => Side::Black,
            "w" => Side::White,
            other => return Err(format!("side to move must be 'b' or 'w', got {other:?}")),
        };

        let active = if fields[2] == "-" {
            None
        } else {
            let chars: Vec<char> = fields[2].chars().collect();
            if chars.len() != 1 {
                return Err(format!(
                    "active colour must be '-' or one colour letter, got {:?}",
                    fields[2]
                ));
            }
            match Colour::from_code(chars[0].to_ascii_lowercase()) {
                Some(colour) => Some(colour),
                None => return Err(format!("unknown active colour {:?}", fields[2])),
            }
        };

        // No side may own two towers of the same colour.
        for side in [Side::Black, Side::White] {
            for colour in Colour::ALL {
                let count = Square::all()
                    .into_iter()
                    .filter(|&sq| board[sq.rank][sq.file] == Some(Tower { side, colour }))
                    .count();
                if count > 1 {
                    return Err(format!("{side:?} has {count} {colour:?} towers"));
                }
            }
        }

        Ok(RefPosition {
            board,
            side,
            active,
        })
    }

    /// The position text `<board> <side> <active>`, empty squares merged into digits and
    /// the active colour in lowercase.
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
                        rank_text.push(tower.letter());
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
        format!("{} {} {}", ranks.join("/"), self.side.code(), active)
    }

    /// The side to move, exactly as stored (for a position given as text with a pending
    /// zero-length chain this is the side whose active tower is blocked).
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The square of `side`'s tower of colour `colour`, if it is on the board.
    fn find_tower(&self, side: Side, colour: Colour) -> Option<Square> {
        Square::all()
            .into_iter()
            .find(|&sq| self.tower_at(sq) == Some(Tower { side, colour }))
    }

    /// Every square the tower on `from` may move to: along each of its three forward lines
    /// (diagonal left, straight, diagonal right), each empty square up to the first occupied
    /// square or the board edge. Only the squares on the line are looked at, so two towers
    /// touching corner to corner beside a diagonal do not close it.
    pub(crate) fn destinations(&self, from: Square) -> Vec<Square> {
        let mut result = Vec::new();
        let Some(tower) = self.tower_at(from) else {
            return result;
        };
        for file_step in [-1, 0, 1] {
            let mut current = from;
            while let Some(next) = current.offset(file_step, tower.side.forward_step()) {
                if self.tower_at(next).is_some() {
                    break; // no jumping and no captures: the line ends here
                }
                result.push(next);
                current = next;
            }
        }
        result
    }

    /// The positive-length moves the side to move has in exactly this state, without
    /// following any zero-length chain: all moves of all its towers for the free move,
    /// otherwise the moves of its active tower (none if that tower is blocked or missing).
    pub(crate) fn moves_here(&self) -> Vec<Move> {
        let sources: Vec<Square> = match self.active {
            None => Square::all()
                .into_iter()
                .filter(|&sq| matches!(self.tower_at(sq), Some(t) if t.side == self.side))
                .collect(),
            Some(colour) => self.find_tower(self.side, colour).into_iter().collect(),
        };
        let mut moves = Vec::new();
        for from in sources {
            for to in self.destinations(from) {
                moves.push(Move { from, to });
            }
        }
        sort_moves(&mut moves);
        moves
    }

    /// Follows the zero-length chain from this state: while the side to move's active tower
    /// cannot move, it passes, and the colour of the square that tower stands on becomes
    /// the opponent's active colour. A (side, colour) pair seen twice is a deadlock.
    /// The starting pair counts as seen (it is the pair right after the last positive move
    /// when this is called after a move).
    pub(crate) fn chain(&self) -> Chain {
        let Some(mut colour) = self.active else {
            // Free move: there is no active tower and so no zero-length move.
            return Chain::Movable(self.clone());
        };
        let mut side = self.side;
        let mut seen: Vec<(Side, Colour)> = Vec::new();
        loop {
            let Some(square) = self.find_tower(side, colour) else {
                return Chain::MissingTower;
            };
            if !self.destinations(square).is_empty() {
                return Chain::Movable(RefPosition {
                    board: self.board,
                    side,
                    active: Some(colour),
                });
            }
            if seen.contains(&(side, colour)) {
                return Chain::Deadlock;
            }
            seen.push((side, colour));
            // Zero-length move: turn passes, the square (not the tower) names the next colour.
            side = side.opponent();
            colour = square.colour();
        }
    }

    /// The side that has a tower on its goal row (the opponent's home row), if any. If both
    /// had one (impossible in a real game), the side not to move is named, as it made the
    /// last move.
    fn goal_winner(&self) -> Option<Side> {
        for side in [self.side.opponent(), self.side] {
            let goal_rank = side.goal_rank_index();
            for file in 0..8 {
                if matches!(self.board[goal_rank][file], Some(t) if t.side == side) {
                    return Some(side);
                }
            }
        }
        None
    }

    /// `None` while the game goes on; otherwise who won and how.
    ///
    /// A tower on the opponent's home row means its owner won. Otherwise, if the zero-length
    /// chain from this state deadlocks, the position is read as "just after the opponent's
    /// positive move", so the player not to move loses.
    pub fn game_end(&self) -> Option<GameEnd> {
        if let Some(winner) = self.goal_winner() {
            return Some(GameEnd {
                winner,
                reason: EndReason::Goal,
            });
        }
        if let Chain::Deadlock = self.chain() {
            return Some(GameEnd {
                winner: self.side,
                reason: EndReason::Deadlock,
            });
        }
        None
    }

    /// The state after following a pending zero-length chain: a position whose side to move
    /// can make a positive move (or has the free move). `None` if the game is over or the
    /// chain names a missing tower.
    pub(crate) fn resolved(&self) -> Option<RefPosition> {
        if self.game_end().is_some() {
            return None;
        }
        match self.chain() {
            Chain::Movable(position) => Some(position),
            Chain::Deadlock | Chain::MissingTower => None,
        }
    }

    /// The state right after the positive move `mv` by the side to move, with no chain
    /// resolution: the opponent is to move and the colour of the landing square is active.
    /// `mv` must be a legal move of this exact state.
    pub(crate) fn after_positive_move(&self, mv: Move) -> RefPosition {
        let mut next = self.clone();
        next.board[mv.to.rank][mv.to.file] = next.board[mv.from.rank][mv.from.file].take();
        next.side = self.side.opponent();
        next.active = Some(mv.to.colour());
        next
    }

    /// Default convention: the position after the positive move `mv`, which must be legal in
    /// this exact state (call on a `resolved()` position). A win stays as it is; a deadlock
    /// stays at the state right after the move; otherwise the chain is applied.
    pub(crate) fn play_resolved(&self, mv: Move) -> RefPosition {
        let raw = self.after_positive_move(mv);
        if raw.goal_winner().is_some() {
            return raw;
        }
        match raw.chain() {
            Chain::Movable(settled) => settled,
            Chain::Deadlock | Chain::MissingTower => raw,
        }
    }

    /// Default convention, structured: the positive moves of whoever moves after any
    /// pending chain, each with its resulting position.
    pub(crate) fn children(&self) -> Vec<(Move, RefPosition)> {
        match self.resolved() {
            None => Vec::new(),
            Some(ready) => ready
                .moves_here()
                .into_iter()
                .map(|mv| (mv, ready.play_resolved(mv)))
                .collect(),
        }
    }

    /// Default convention: the positive-length moves (`a1-a5`) of the side to move, after
    /// following its zero-length chain if its active tower is blocked (then the moves are
    /// those of whoever is to move at the end of the chain). Empty when the game is over.
    pub fn moves(&self) -> Vec<String> {
        self.children()
            .into_iter()
            .map(|(mv, _)| mv.text())
            .collect()
    }

    /// Default convention: plays the positive move `mv` (text like `a1-a5`) after following
    /// any pending chain, then resolves the chain after it (see [`RefPosition::game_end`]
    /// for how finished games are left). Err if the move is not legal, including any
    /// zero-length move text, which this convention never takes.
    pub fn play(&self, mv: &str) -> Result<RefPosition, String> {
        let wanted = mv.trim();
        for (candidate, next) in self.children() {
            if candidate.text() == wanted {
                return Ok(next);
            }
        }
        Err(format!("illegal move {wanted:?} in {}", self.to_text()))
    }

    /// Convention 2, structured: the legal plies. The positive moves of the side to move;
    /// if its active tower is blocked, the single zero-length move on that tower's square.
    /// Empty when the game is over.
    pub(crate) fn plies_here(&self) -> Vec<Move> {
        if self.game_end().is_some() {
            return Vec::new();
        }
        let moves = self.moves_here();
        if !moves.is_empty() {
            return moves;
        }
        match self
            .active
            .and_then(|colour| self.find_tower(self.side, colour))
        {
            Some(square) => vec![Move {
                from: square,
                to: square,
            }],
            None => Vec::new(), // free move with nothing movable, or missing tower
        }
    }

    /// Convention 2, structured: the position after one ply from `plies_here()`, with no
    /// chain resolution.
    pub(crate) fn after_ply(&self, ply: Move) -> RefPosition {
        if ply.from == ply.to {
            // Zero-length move: the board stays, the turn passes, the square names the colour.
            RefPosition {
                board: self.board,
                side: self.side.opponent(),
                active: Some(ply.from.colour()),
            }
        } else {
            // A positive move. If its chain would deadlock, game_end() of the result already
            // says so, which ends the game right after this move as convention 2 wants.
            self.after_positive_move(ply)
        }
    }

    /// Convention 2 ("zero moves as plies"): the legal plies of the side to move: its
    /// positive moves, or, if its active tower is blocked, the single zero-length move
    /// written `x-x` on that tower's square. Empty when the game is over.
    pub fn plies(&self) -> Vec<String> {
        self.plies_here()
            .into_iter()
            .map(|ply| ply.text())
            .collect()
    }

    /// Convention 2: plays one ply (a positive move or the forced zero-length move) with no
    /// chain resolution. A positive move whose chain would deadlock leaves a finished game
    /// (opponent to move, active = colour of the landing square). Err if not legal.
    pub fn play_ply(&self, ply: &str) -> Result<RefPosition, String> {
        let wanted = ply.trim();
        for candidate in self.plies_here() {
            if candidate.text() == wanted {
                return Ok(self.after_ply(candidate));
            }
        }
        Err(format!("illegal ply {wanted:?} in {}", self.to_text()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "obupyrgn/8/8/8/8/8/8/NGRYPUBO b -";

    fn pos(text: &str) -> RefPosition {
        RefPosition::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn sorted(list: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn start_position_text() {
        assert_eq!(RefPosition::start().to_text(), START);
        assert_eq!(pos(START), RefPosition::start());
        assert_eq!(RefPosition::start().side_to_move(), Side::Black);
        assert_eq!(RefPosition::start().game_end(), None);
    }

    #[test]
    fn parse_print_round_trip() {
        let texts = [
            START,
            "8/2y5/1NO5/ru6/PU6/3G4/8/8 b g",
            "7y/6NO/3G4/ru6/PU6/8/8/8 b n",
            "r7/PU6/8/8/8/8/8/2G4O b g",
            "obupyrgn/8/8/8/8/8/8/NGRYPUBO w -",
            "8/8/8/8/8/8/8/8 w o",
            "3O4/8/8/8/8/8/8/8 w p",
        ];
        for text in texts {
            assert_eq!(pos(text).to_text(), text);
        }
        // Non-canonical but valid: split digits and uppercase active colour are accepted
        // and printed in the canonical form.
        assert_eq!(
            pos("  44/8/8/8/8/8/8/8 b Y\n").to_text(),
            "8/8/8/8/8/8/8/8 b y"
        );
    }

    #[test]
    fn parse_rejects_bad_text_without_panicking() {
        let bad = [
            "",
            " ",
            "8/8/8/8/8/8/8/8",
            "8/8/8/8/8/8/8/8 b",
            "8/8/8/8/8/8/8/8 b - extra",
            "8/8/8/8/8/8/8/8  b -",
            "8/8/8/8/8/8/8 b -",
            "8/8/8/8/8/8/8/8/8 b -",
            "9/8/8/8/8/8/8/8 b -",
            "0/8/8/8/8/8/8/8 b -",
            "7/8/8/8/8/8/8/8 b -",
            "81/8/8/8/8/8/8/8 b -",
            "ooooooooo/8/8/8/8/8/8/8 b -",
            "x7/8/8/8/8/8/8/8 b -",
            "é7/8/8/8/8/8/8/8 b -",
            "8/8/8/8/8/8/8/8 x -",
            "8/8/8/8/8/8/8/8 B -",
            "8/8/8/8/8/8/8/8 b x",
            "8/8/8/8/8/8/8/8 b oo",
            "8/8/8/8/8/8/8/8 b é",
            "oo6/8/8/8/8/8/8/8 b -",
            "O6O/8/8/8/8/8/8/8 b -",
            "//////// b -",
        ];
        for text in bad {
            assert!(RefPosition::parse(text).is_err(), "{text:?} accepted");
        }
        // Different sides may each own a tower of the same colour.
        assert!(RefPosition::parse("oO6/8/8/8/8/8/8/8 b -").is_ok());
    }

    #[test]
    fn parse_never_panics_on_random_text() {
        let alphabet: Vec<char> = "obupyrgnOBUPYRGN0123456789/ -bwxé\n".chars().collect();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for i in 0..20_000 {
            let text: String = if i % 2 == 0 {
                // Random strings over the characters that matter.
                let len = next() % 60;
                (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect()
            } else {
                // The start text with one character replaced.
                let mut chars: Vec<char> = START.chars().collect();
                let at = (next() % chars.len() as u64) as usize;
                chars[at] = alphabet[(next() % alphabet.len() as u64) as usize];
                chars.into_iter().collect()
            };
            if let Ok(p) = RefPosition::parse(&text) {
                // Whatever is accepted prints to a text that reads back the same.
                assert_eq!(RefPosition::parse(&p.to_text()), Ok(p.clone()), "{text:?}");
                let _ = (p.game_end(), p.moves(), p.plies());
            }
        }
    }

    #[test]
    fn free_opening_move() {
        let start = RefPosition::start();
        let moves = start.moves();
        assert_eq!(moves.len(), 102);
        // Every one of Black's eight towers has moves.
        for file in ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"] {
            assert!(moves.iter().any(|m| m.starts_with(file)), "{file}");
        }
        // The corner towers: 6 straight + 6 diagonal (rank 8 is full).
        assert_eq!(moves.iter().filter(|m| m.starts_with("a1")).count(), 12);
        assert_eq!(moves.iter().filter(|m| m.starts_with("h1")).count(), 12);
        assert_eq!(start.plies(), moves);
        // After a1-a5 (Pink square) White must move its Pink tower.
        let next = start.play("a1-a5").unwrap();
        assert_eq!(next.to_text(), "obupyrgn/8/8/N7/8/8/8/1GRYPUBO w p");
        assert!(next.moves().iter().all(|m| m.starts_with("d8")));
        // A free move for White works the same way.
        let white_free = pos("obupyrgn/8/8/8/8/8/8/NGRYPUBO w -");
        assert_eq!(white_free.moves().len(), 102);
        assert!(white_free.moves().iter().any(|m| m == "a8-a2"));
    }

    #[test]
    fn corner_touching_diagonal_stays_open() {
        // Black Orange on d4; d5 (White) and e4 (Black) touch corner to corner beside the
        // d4-e5 diagonal, which must stay open. The straight line is closed by d5.
        let p = pos("8/8/8/3p4/3ON3/8/8/8 b o");
        assert_eq!(
            p.moves(),
            sorted(&["d4-a7", "d4-b6", "d4-c5", "d4-e5", "d4-f6", "d4-g7", "d4-h8"])
        );
        // A tower on the diagonal itself does close it (and the squares behind it).
        let q = pos("8/8/5u2/3p4/3ON3/8/8/8 b o");
        assert_eq!(q.moves(), sorted(&["d4-a7", "d4-b6", "d4-c5", "d4-e5"]));
        // White moves downwards, with the same corner rule: White Blue on e5, d5 and e4
        // occupied (e4 closes the straight line, not the e5-d4 diagonal).
        let w = pos("8/8/8/3Pb3/4N3/8/8/8 w b");
        assert_eq!(
            w.moves(),
            sorted(&["e5-d4", "e5-c3", "e5-b2", "e5-a1", "e5-f4", "e5-g3", "e5-h2"])
        );
    }

    #[test]
    fn win_on_goal_row() {
        let p = pos("8/8/8/3p4/3ON3/8/8/8 b o");
        let won = p.play("d4-h8").unwrap();
        // Opponent to move, active = colour of h8 (Brown), nothing else resolved.
        assert_eq!(won.to_text(), "7O/8/8/3p4/4N3/8/8/8 w n");
        assert_eq!(
            won.game_end(),
            Some(GameEnd {
                winner: Side::Black,
                reason: EndReason::Goal
            })
        );
        assert!(won.moves().is_empty());
        assert!(won.plies().is_empty());
        assert!(won.play("e4-e5").is_err());
        assert_eq!(p.play_ply("d4-h8").unwrap(), won);

        // White wins on rank 1.
        let w = pos("8/8/8/8/8/8/3y4/8 w y");
        let won = w.play("d2-d1").unwrap();
        assert_eq!(won.to_text(), "8/8/8/8/8/8/8/3y4 b y");
        assert_eq!(
            won.game_end(),
            Some(GameEnd {
                winner: Side::White,
                reason: EndReason::Goal
            })
        );
        // A text position with a Black tower on rank 8 is a Black win whoever is to move.
        for text in ["3O4/8/8/8/8/8/8/NGRYP3 w p", "3O4/8/8/8/8/8/8/NGRYP3 b p"] {
            assert_eq!(pos(text).game_end().map(|e| e.winner), Some(Side::Black));
        }
        // White's own towers on rank 8 are not a win for anyone.
        assert_eq!(pos(START).game_end(), None);
    }

    #[test]
    fn blocked_tower_passes_the_colour_of_its_square() {
        // White's Red tower stands on a8 (an Orange square), blocked by a7 and b7.
        let p = pos("r7/PU6/8/8/8/8/8/2G4O b g");
        // c1-e3 lands on Red: White's Red tower is blocked, so Black moves again with the
        // colour of a8, Orange (not Red, the blocked tower's own colour).
        let next = p.play("c1-e3").unwrap();
        assert_eq!(next.to_text(), "r7/PU6/8/8/8/4G3/8/7O b o");
        assert_eq!(next.side_to_move(), Side::Black);
        assert!(next.moves().iter().all(|m| m.starts_with("h1")));
        // Convention 2 shows the zero-length move as a ply of its own.
        let raw = p.play_ply("c1-e3").unwrap();
        assert_eq!(raw.to_text(), "r7/PU6/8/8/8/4G3/8/7O w r");
        assert_eq!(raw.game_end(), None);
        assert_eq!(raw.plies(), vec!["a8-a8".to_string()]);
        assert!(raw.play_ply("a8-a7").is_err());
        assert_eq!(raw.play_ply("a8-a8").unwrap(), next);
        // The default convention follows the pending chain of a text position by itself.
        assert_eq!(raw.moves(), next.moves());
        assert_eq!(raw.play("h1-h5").unwrap(), next.play("h1-h5").unwrap());
        // The default convention never takes a zero-length move.
        assert!(raw.play("a8-a8").is_err());
    }

    #[test]
    fn double_and_triple_zero_length_moves() {
        // White Red on a5 is blocked by a4/b4, Black Pink on a4 by a5/b5.
        // Double: after d3-d6 (Red): White Red blocked on a5 (Pink) -> Black Pink blocked
        // on a4 (Yellow) -> White Yellow on h8 can move: White to move.
        let double = pos("7y/6N1/8/ru6/PU6/3G4/8/8 b g");
        assert_eq!(
            double.play("d3-d6").unwrap().to_text(),
            "7y/6N1/3G4/ru6/PU6/8/8/8 w y"
        );
        // Triple: the same, but White Yellow on h8 is blocked too (g7, h7), so the colour of
        // h8, Brown, goes to Black: the turn returns to the player who moved.
        let triple = pos("7y/6NO/8/ru6/PU6/3G4/8/8 b g");
        let next = triple.play("d3-d6").unwrap();
        assert_eq!(next.to_text(), "7y/6NO/3G4/ru6/PU6/8/8/8 b n");
        assert_eq!(next.game_end(), None);
        assert_eq!(next.moves(), sorted(&["g7-f8", "g7-g8"]));
        // Convention 2, ply by ply.
        let mut p = triple.play_ply("d3-d6").unwrap();
        for (zero, after) in [
            ("a5-a5", "7y/6NO/3G4/ru6/PU6/8/8/8 w r"),
            ("a4-a4", "7y/6NO/3G4/ru6/PU6/8/8/8 b p"),
            ("h8-h8", "7y/6NO/3G4/ru6/PU6/8/8/8 w y"),
        ] {
            assert_eq!(p.to_text(), after);
            assert_eq!(p.plies(), vec![zero.to_string()]);
            assert_eq!(p.game_end(), None);
            p = p.play_ply(zero).unwrap();
        }
        assert_eq!(p, next);
    }

    #[test]
    fn deadlock_is_lost_by_the_last_positive_mover() {
        // Two-step cycle: c1-c2 lands on Yellow; White Yellow (a5) blocked on
        // Pink; Black Pink (a4) blocked on Yellow; (White, Yellow) repeats.
        let p = pos("8/8/8/yu6/PU6/8/8/2G5 b g");
        let end = p.play("c1-c2").unwrap();
        assert_eq!(end.to_text(), "8/8/8/yu6/PU6/8/2G5/8 w y");
        let expected = Some(GameEnd {
            winner: Side::White,
            reason: EndReason::Deadlock,
        });
        assert_eq!(end.game_end(), expected);
        assert!(end.moves().is_empty());
        assert!(end.plies().is_empty());
        assert_eq!(p.play_ply("c1-c2").unwrap(), end);

        // Cycle where the last zero-length move is White's but Black (the last positive
        // mover) still loses: (W,Red) a5 blocked -> (B,Pink) a4 blocked -> (W,Yellow) c7
        // blocked on Pink -> (B,Pink) repeats.
        let q = pos("8/2y5/1NO5/ru6/PU6/3G4/8/8 b g");
        let end = q.play("d3-d6").unwrap();
        assert_eq!(end.to_text(), "8/2y5/1NOG4/ru6/PU6/8/8/8 w r");
        assert_eq!(end.game_end(), expected);
        assert_eq!(q.play_ply("d3-d6").unwrap(), end);
        // Other moves of the same tower do not deadlock.
        let fine = q.play("d3-d5").unwrap();
        assert_eq!(fine.game_end(), None);

        // A text position in the middle of a deadlocking chain: the player not to move loses.
        let mid = pos("8/2y5/1NOG4/ru6/PU6/8/8/8 b p");
        assert_eq!(
            mid.game_end(),
            Some(GameEnd {
                winner: Side::Black,
                reason: EndReason::Deadlock
            })
        );
    }

    #[test]
    fn pending_chain_in_a_text_position_hands_the_move_over() {
        // White to move with its Red tower blocked on a8: Black really moves (Orange, h1).
        let p = pos("r7/PU6/8/8/8/4G3/8/7O w r");
        assert_eq!(p.side_to_move(), Side::White);
        assert!(p.moves().iter().all(|m| m.starts_with("h1")));
        // h1-h2 lands on Red again: White's Red tower is still blocked, Black moves again.
        let after = p.play("h1-h2").unwrap();
        assert_eq!(after.to_text(), "r7/PU6/8/8/8/4G3/7O/8 b o");
    }
}
