//! A validated position and the rules that move it on.

use arrayvec::ArrayVec;

use crate::attacks;
use crate::{Bitboard, Board, Colour, Move, MoveList, PositionError, Setup, Side, Square, Tower};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A tower landed on the opponent's home row.
    Goal,
    /// A chain of zero-length moves repeated: nobody can ever move again, and the player
    /// who made the last move of positive length lost.
    Deadlock,
}

impl EndReason {
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Goal => "goal",
            EndReason::Deadlock => "deadlock",
        }
    }
}

/// The end of a game: who won and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    pub winner: Side,
    pub reason: EndReason,
}

/// A legal position: where the towers stand, whose turn it is and which tower must move.
///
/// 32 bytes and `Copy`. Positions are built by [`Position::from_setup`] (any legal
/// position, not only the start) or by playing moves; both keep these invariants:
/// - if the game is over, [`Position::end`] says so and no move is legal;
/// - otherwise the side to move either has a move of positive length, or its active tower
///   is blocked and its zero-length chain does *not* deadlock (a position in the middle of
///   a chain, reached only by [`Position::step`] or given as text).
///
/// A position whose side to move has a blocked active tower is read as "just after the
/// opponent's move": if its chain deadlocks, the game is over and the player not to move,
/// who made the last positive move, has lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Side,
    active: Option<Colour>,
    end: Option<GameEnd>,
}

/// Where a chain of zero-length moves leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChainEnd {
    /// `turn`'s tower of colour `active` can move (possibly at once, with no zero-length move).
    Movable { turn: Side, active: Colour },
    /// A (side to move, active colour) pair repeated.
    Deadlock,
}

/// Follows zero-length moves from "`turn` must move its `active` tower" until a tower can
/// move or a state repeats. The board never changes on the way, so at most 16 states.
#[inline]
fn follow_chain(board: &Board, mut turn: Side, mut active: Colour) -> ChainEnd {
    let mut seen = 0u16;
    loop {
        let sq = board.square_of(Tower::new(turn, active));
        if !attacks::is_blocked(turn, sq, board.occupied()) {
            return ChainEnd::Movable { turn, active };
        }
        let state = 1u16 << (turn.index() * 8 + active.index());
        if seen & state != 0 {
            return ChainEnd::Deadlock;
        }
        seen |= state;
        // The blocked tower stays put; the colour of *its square* names the next tower.
        turn = !turn;
        active = sq.colour();
    }
}

/// Why a move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over: {winner} won by {}", reason.name())]
    GameOver { winner: Side, reason: EndReason },
    #[error("there is no tower on {0}")]
    NoTower(Square),
    #[error("the tower on {square} is {owner}'s, and it is {turn}'s turn")]
    NotYours {
        square: Square,
        owner: Side,
        turn: Side,
    },
    #[error("{turn} must move the {active} tower (on {active_square}), not the {colour} tower on {square}")]
    WrongTower {
        square: Square,
        colour: Colour,
        turn: Side,
        active: Colour,
        active_square: Square,
    },
    #[error("the {colour} tower on {square} is blocked: its only move is the zero-length move {square}-{square}")]
    MustPass { square: Square, colour: Colour },
    #[error("a zero-length move is only made by an active tower that cannot move, and the tower on {0} can move")]
    NotBlocked(Square),
    #[error("{to} is not straight or diagonally forward from {from} for {turn}")]
    NotForward {
        from: Square,
        to: Square,
        turn: Side,
    },
    #[error("{to} is occupied")]
    Occupied { to: Square },
    #[error("the way from {from} to {to} is blocked at {at}")]
    PathBlocked {
        from: Square,
        to: Square,
        at: Square,
    },
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The single-round start: every tower on its own colour in its home row, Black to
    /// move with a free choice of tower.
    pub fn start() -> Position {
        Position {
            board: Board::start(),
            turn: Side::Black,
            active: None,
            end: None,
        }
    }

    /// Validates a setup. Accepts any position that play can reach, from any home-row
    /// arrangement, including finished games.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let board = setup.board()?;
        let turn = setup.turn;
        let active = setup.active;
        if let Some(tower) = board.goal_tower(turn, active)? {
            let end = Some(GameEnd {
                winner: tower.side,
                reason: EndReason::Goal,
            });
            return Ok(Position {
                board,
                turn,
                active,
                end,
            });
        }

        let end = match active {
            None => {
                let can_move = board
                    .squares(turn)
                    .iter()
                    .any(|&sq| !attacks::is_blocked(turn, sq, board.occupied()));
                if !can_move {
                    return Err(PositionError::NoTowerCanMove(turn));
                }
                None
            }
            Some(colour) => {
                // The last move, positive or zero-length, ended with an opponent's tower on
                // a square of the active colour; a position without one cannot arise.
                let opponent = !turn;
                if !board
                    .squares(opponent)
                    .iter()
                    .any(|sq| sq.colour() == colour)
                {
                    return Err(PositionError::ActiveNotNamed { colour, opponent });
                }
                match follow_chain(&board, turn, colour) {
                    ChainEnd::Movable { .. } => None,
                    ChainEnd::Deadlock => Some(GameEnd {
                        winner: turn,
                        reason: EndReason::Deadlock,
                    }),
                }
            }
        };
        Ok(Position {
            board,
            turn,
            active,
            end,
        })
    }

    /// The setup this position was (or could have been) built from.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty(self.turn, self.active);
        for tower in Tower::all() {
            setup.place(tower, self.board.square_of(tower));
        }
        setup
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// The colour of the tower the side to move must move; `None` on a free move.
    #[inline]
    pub fn active(&self) -> Option<Colour> {
        self.active
    }

    /// The tower the side to move must move, if the move is not free.
    #[inline]
    pub fn active_tower(&self) -> Option<Tower> {
        self.active.map(|c| Tower::new(self.turn, c))
    }

    #[inline]
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Whether the side to move's active tower is blocked, so that its only move is the
    /// zero-length move. Only positions in the middle of a chain have this.
    #[inline]
    pub fn must_pass(&self) -> bool {
        match (self.end, self.active_tower()) {
            (None, Some(tower)) => attacks::is_blocked(
                self.turn,
                self.board.square_of(tower),
                self.board.occupied(),
            ),
            _ => false,
        }
    }

    /// The legal moves, exactly as the rules state them: the moves of positive length of
    /// the active tower (of every tower on a free move), or, if the active tower is
    /// blocked, its single zero-length move. Empty when the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        if self.end.is_some() {
            return moves;
        }
        let occupied = self.board.occupied();
        let mut add = |from: Square| {
            for to in attacks::reach(self.turn, from, occupied) {
                moves.push(Move::new(from, to));
            }
        };
        match self.active {
            Some(colour) => {
                let from = self.board.square_of(Tower::new(self.turn, colour));
                add(from);
                if moves.is_empty() {
                    moves.push(Move::new(from, from));
                }
            }
            None => self.board.squares(self.turn).iter().copied().for_each(add),
        }
        moves
    }

    /// The number of legal moves, without listing them.
    pub fn count_moves(&self) -> usize {
        if self.end.is_some() {
            return 0;
        }
        let occupied = self.board.occupied();
        let count = |from: Square| attacks::reach(self.turn, from, occupied).count() as usize;
        match self.active {
            Some(colour) => count(self.board.square_of(Tower::new(self.turn, colour))).max(1),
            None => self
                .board
                .squares(self.turn)
                .iter()
                .map(|&sq| count(sq))
                .sum(),
        }
    }

    /// The destinations of the tower on `from` if the side to move moved it, ignoring whose
    /// turn it is: the three forward lines up to the first tower.
    #[inline]
    pub fn reach(&self, side: Side, from: Square) -> Bitboard {
        attacks::reach(side, from, self.board.occupied())
    }

    /// A move that wins at once by landing on the goal row, if the side to move has one.
    pub fn winning_move(&self) -> Option<Move> {
        if self.end.is_some() {
            return None;
        }
        let goal = Bitboard::rank(self.turn.goal_rank());
        let occupied = self.board.occupied();
        let try_from = |from: Square| {
            (attacks::reach(self.turn, from, occupied) & goal)
                .first()
                .map(|to| Move::new(from, to))
        };
        match self.active {
            Some(colour) => try_from(self.board.square_of(Tower::new(self.turn, colour))),
            None => self
                .board
                .squares(self.turn)
                .iter()
                .find_map(|&sq| try_from(sq)),
        }
    }

    /// Says why `m` is not legal here, or `Ok(())` if it is.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        if let Some(GameEnd { winner, reason }) = self.end {
            return Err(IllegalMove::GameOver { winner, reason });
        }
        let (from, to) = (m.from(), m.to());
        let tower = self
            .board
            .tower_at(from)
            .ok_or(IllegalMove::NoTower(from))?;
        if tower.side != self.turn {
            return Err(IllegalMove::NotYours {
                square: from,
                owner: tower.side,
                turn: self.turn,
            });
        }
        if let Some(active) = self.active {
            if tower.colour != active {
                return Err(IllegalMove::WrongTower {
                    square: from,
                    colour: tower.colour,
                    turn: self.turn,
                    active,
                    active_square: self.board.square_of(Tower::new(self.turn, active)),
                });
            }
        }
        if self.must_pass() {
            return if m.is_zero_length() {
                Ok(())
            } else {
                Err(IllegalMove::MustPass {
                    square: from,
                    colour: tower.colour,
                })
            };
        }
        if m.is_zero_length() {
            return Err(IllegalMove::NotBlocked(from));
        }
        let between = attacks::between(self.turn, from, to).ok_or(IllegalMove::NotForward {
            from,
            to,
            turn: self.turn,
        })?;
        if let Some(at) = (between & self.board.occupied()).next() {
            // Report the blocker nearest the moving tower.
            let at = match self.turn {
                Side::Black => at,
                Side::White => (between & self.board.occupied()).last().unwrap_or(at),
            };
            return Err(IllegalMove::PathBlocked { from, to, at });
        }
        if self.board.occupied().contains(to) {
            return Err(IllegalMove::Occupied { to });
        }
        Ok(())
    }

    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Plays a legal move and then every zero-length move that follows automatically: the
    /// result is a finished game or a position whose side to move has a positive move.
    pub fn play(&self, m: Move) -> Result<Position, IllegalMove> {
        self.check_move(m)?;
        Ok(self.play_unchecked(m))
    }

    /// [`Position::play`] for a move known to be legal (from [`Position::legal_moves`]).
    #[inline]
    pub fn play_unchecked(&self, m: Move) -> Position {
        if m.is_zero_length() {
            return self.step_unchecked(m).resolve();
        }
        let mut next = self.moved(m);
        if next.end.is_none() {
            match follow_chain(&next.board, next.turn, self.landing_colour(m)) {
                ChainEnd::Movable { turn, active } => {
                    next.turn = turn;
                    next.active = Some(active);
                }
                ChainEnd::Deadlock => next.end = Some(self.deadlock_by_mover()),
            }
        }
        next
    }

    /// Plays exactly one ply, positive or zero-length, without the zero-length moves that
    /// may follow: the counting of programs that treat every zero-length move as a ply. A
    /// positive move whose chain deadlocks still ends the game at once.
    pub fn step(&self, m: Move) -> Result<Position, IllegalMove> {
        self.check_move(m)?;
        Ok(self.step_unchecked(m))
    }

    /// [`Position::step`] for a move known to be legal.
    #[inline]
    pub fn step_unchecked(&self, m: Move) -> Position {
        if m.is_zero_length() {
            let mut next = *self;
            next.turn = !self.turn;
            next.active = Some(m.from().colour());
            return next;
        }
        let mut next = self.moved(m);
        if next.end.is_none()
            && follow_chain(&next.board, next.turn, self.landing_colour(m)) == ChainEnd::Deadlock
        {
            next.end = Some(self.deadlock_by_mover());
        }
        next
    }

    /// Plays the zero-length moves pending in this position, if any.
    pub fn resolve(&self) -> Position {
        let mut pos = *self;
        while let Some(m) = pos.forced_zero_move() {
            pos = pos.step_unchecked(m);
        }
        pos
    }

    /// The zero-length move the side to move must make, if its active tower is blocked.
    #[inline]
    pub fn forced_zero_move(&self) -> Option<Move> {
        self.must_pass().then(|| {
            let from = self
                .board
                .square_of(Tower::new(self.turn, self.active.unwrap_or(Colour::Orange)));
            Move::new(from, from)
        })
    }

    /// The zero-length moves [`Position::resolve`] would play, in order.
    pub fn pending_zero_moves(&self) -> ArrayVec<Move, 16> {
        let mut moves = ArrayVec::new();
        let mut pos = *self;
        // A chain that does not deadlock visits each of the 16 states at most once.
        while let Some(m) = pos.forced_zero_move().filter(|_| !moves.is_full()) {
            moves.push(m);
            pos = pos.step_unchecked(m);
        }
        moves
    }

    /// The position with the towers moved and the turn passed, before any chain, with
    /// the game won if the tower reached the goal row.
    #[inline]
    fn moved(&self, m: Move) -> Position {
        let colour = match self.active {
            Some(colour) => colour,
            None => self
                .board
                .colour_at(self.turn, m.from())
                .expect("a legal move starts on a tower of the side to move"),
        };
        let mut next = *self;
        next.board.relocate(Tower::new(self.turn, colour), m.to());
        next.turn = !self.turn;
        next.active = Some(self.landing_colour(m));
        if m.to().is_goal_for(self.turn) {
            next.end = Some(GameEnd {
                winner: self.turn,
                reason: EndReason::Goal,
            });
        }
        next
    }

    #[inline]
    fn landing_colour(&self, m: Move) -> Colour {
        m.to().colour()
    }

    /// The end of a game whose chain deadlocked after a positive move by the side to move.
    #[inline]
    fn deadlock_by_mover(&self) -> GameEnd {
        GameEnd {
            winner: !self.turn,
            reason: EndReason::Deadlock,
        }
    }

    pub(crate) fn from_parts_unchecked(
        board: Board,
        turn: Side,
        active: Option<Colour>,
        end: Option<GameEnd>,
    ) -> Position {
        Position {
            board,
            turn,
            active,
            end,
        }
    }
}
