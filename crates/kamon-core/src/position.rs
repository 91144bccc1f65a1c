//! A position and the rules that move it on.
//!
//! Why it looks like this: a search copies a position at every node, so it holds only
//! what changes during a game (two occupancy bitboards, the top chip's cell, the count of
//! placements, how the game ended) in 24 bytes, and is `Copy + Send + Sync`. The chips
//! never change, so they stay in the [`Layout`], which the methods that need a chip take
//! by reference. The stack needs no storage: only its top matters to the rules, and the
//! top is the chip of the cell played last.
//!
//! The end of the game is worked out once, when the placement is made, so asking whether a
//! position is finished costs nothing. Only the placed cell's chain can make a new
//! connection and only a placement next to two own pieces can close a loop (see
//! [`geometry`]), which keeps most placements to a few instructions.

use std::fmt;

use crate::geometry::{self, Side, OPENING_CELLS};
use crate::layout::NO_TOP;
use crate::side_reaches::SideReaches;
use crate::{Bitboard, Cell, Chip, Layout, Player};

/// The number of cells the players fill: all but the forbidden one.
pub const FREE_CELLS: u32 = 36;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The player who just moved joined two opposite sides with one chain.
    Connection,
    /// The player who just moved enclosed a cell that is not theirs.
    Loop,
    /// All 36 cells are filled with no connection or loop: a draw.
    FullBoard,
    /// The player to move has no legal cell and loses.
    NoLegalCell,
}

impl EndReason {
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Connection => "connection",
            EndReason::Loop => "loop",
            EndReason::FullBoard => "full board",
            EndReason::NoLegalCell => "no legal cell",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The value of a position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

impl Outcome {
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Win => "win",
        }
    }

    /// The value for the other player.
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: how, and who won (`None` for a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    pub reason: EndReason,
    pub winner: Option<Player>,
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.reason) {
            (None, _) => f.write_str("drawn on a full board"),
            (Some(winner), EndReason::NoLegalCell) => {
                write!(f, "{winner} won: {} has no legal cell", !winner)
            }
            (Some(winner), reason) => write!(f, "{winner} won by a {reason}"),
        }
    }
}

/// Why a placement is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over: {0}")]
    GameOver(GameEnd),
    #[error("{0} holds the first-player chip: it is forbidden to both players")]
    Forbidden(Cell),
    #[error("{cell} is already taken by {by}")]
    Occupied { cell: Cell, by: Player },
    #[error("the first move goes on an edge cell that is not a corner (a2 a3 b1 c1 e1 f1 b5 c6 e6 f5 g2 g3), and {0} is not one")]
    NotOpeningCell(Cell),
    #[error("{cell} holds {chip}, which shares neither symbol nor count with {top_chip} on top of the stack (played on {top_cell})")]
    NoMatch {
        cell: Cell,
        chip: Chip,
        top_cell: Cell,
        top_chip: Chip,
    },
}

/// A position of a game on some [`Layout`]: the pieces, the top of the stack, and whether
/// and how the game has ended.
///
/// 24 bytes and `Copy`. A position belongs to one layout: every method that takes a
/// layout must be given the one the position was started from (checked in debug builds).
/// Positions are made by [`Position::start`] and play, or by
/// [`Position::from_setup`] / [`Position::from_key`]; all keep [`Position::end`] right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Each player's pieces, by [`Player::index`].
    pieces: [Bitboard; 2],
    /// The bit of the cell played last, whose chip tops the stack; [`NO_TOP`] before the
    /// first move.
    top: u8,
    forbidden: Cell,
    placed: u8,
    end: Option<EndReason>,
}

impl Position {
    /// The start of a game on `layout`: an empty board, Black to move.
    pub fn start(layout: &Layout) -> Position {
        Position {
            pieces: [Bitboard::EMPTY; 2],
            top: NO_TOP,
            forbidden: layout.forbidden(),
            placed: 0,
            end: None,
        }
    }

    /// Builds a position from parts the caller has checked; `end` is worked out here.
    pub(crate) fn from_parts(
        layout: &Layout,
        black: Bitboard,
        white: Bitboard,
        last: Option<Cell>,
    ) -> Position {
        let mut pos = Position {
            pieces: [black, white],
            top: last.map_or(NO_TOP, |c| c.bit() as u8),
            forbidden: layout.forbidden(),
            placed: (black | white).count() as u8,
            end: None,
        };
        if let Some(last) = last {
            let mine = pos.pieces[(!pos.turn()).index()];
            pos.end = if geometry::chain_connects(mine, last) {
                Some(EndReason::Connection)
            } else if geometry::may_close_loop(mine, last) && geometry::has_loop(mine) {
                Some(EndReason::Loop)
            } else {
                pos.end_without_shape(layout)
            };
        }
        pos
    }

    /// The player to move (in a finished game: the one who would be next).
    #[inline]
    pub fn turn(&self) -> Player {
        Player::after(self.placed as u32)
    }

    /// The pieces of `player`.
    #[inline]
    pub fn pieces(&self, player: Player) -> Bitboard {
        self.pieces[player.index()]
    }

    /// The cells holding a piece.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// The cells still to be filled: neither occupied nor forbidden. A drawn game runs
    /// until all of them are filled, so their count is how long a draw lasts.
    #[inline]
    pub fn free_cells(&self) -> Bitboard {
        !self.occupied().with(self.forbidden)
    }

    /// The cell of the first-player chip, which nobody may play.
    #[inline]
    pub fn forbidden(&self) -> Cell {
        self.forbidden
    }

    /// The number of placements made.
    #[inline]
    pub fn placed(&self) -> u32 {
        self.placed as u32
    }

    /// The cell played last, whose chip tops the stack; `None` before the first move.
    #[inline]
    pub fn last_move(&self) -> Option<Cell> {
        Cell::from_bit(self.top as u32)
    }

    /// The chip on top of the stack: the first-player chip before the first move.
    #[inline]
    pub fn top_chip(&self, layout: &Layout) -> Chip {
        self.last_move()
            .map_or(Chip::FIRST_PLAYER, |cell| layout.chip(cell))
    }

    /// How the game ended, if it has.
    #[inline]
    pub fn end(&self) -> Option<GameEnd> {
        self.end.map(|reason| GameEnd {
            reason,
            winner: match reason {
                EndReason::FullBoard => None,
                // The player who just moved won, whether by their shape or by leaving the
                // player to move without a cell.
                _ => Some(!self.turn()),
            },
        })
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The value of a finished game for the player to move: a draw on a full board, else
    /// a loss. `None` while the game goes on.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.end.map(|reason| match reason {
            EndReason::FullBoard => Outcome::Draw,
            _ => Outcome::Loss,
        })
    }

    /// The cells the player to move may play; empty when the game is over. One table
    /// look-up and one AND: the layout holds, for each top chip, the cells that match it
    /// (for the first move, the opening cells), never the forbidden cell.
    #[inline]
    pub fn legal_cells(&self, layout: &Layout) -> Bitboard {
        debug_assert_eq!(
            layout.forbidden(),
            self.forbidden,
            "position of another layout"
        );
        if self.end.is_some() {
            return Bitboard::EMPTY;
        }
        layout.allowed_by_slot(self.top) - self.occupied()
    }

    /// The number of legal cells.
    #[inline]
    pub fn count_moves(&self, layout: &Layout) -> u32 {
        self.legal_cells(layout).count()
    }

    /// Says why placing on `cell` is not legal here, or `Ok(())` if it is.
    pub fn check_move(&self, layout: &Layout, cell: Cell) -> Result<(), IllegalMove> {
        if let Some(end) = self.end() {
            return Err(IllegalMove::GameOver(end));
        }
        if cell == self.forbidden {
            return Err(IllegalMove::Forbidden(cell));
        }
        if let Some(by) = Player::ALL
            .into_iter()
            .find(|&p| self.pieces(p).contains(cell))
        {
            return Err(IllegalMove::Occupied { cell, by });
        }
        match self.last_move() {
            None if !OPENING_CELLS.contains(cell) => Err(IllegalMove::NotOpeningCell(cell)),
            Some(top_cell) if !layout.chip(cell).matches(layout.chip(top_cell)) => {
                Err(IllegalMove::NoMatch {
                    cell,
                    chip: layout.chip(cell),
                    top_cell,
                    top_chip: layout.chip(top_cell),
                })
            }
            _ => Ok(()),
        }
    }

    pub fn is_legal(&self, layout: &Layout, cell: Cell) -> bool {
        self.legal_cells(layout).contains(cell)
    }

    /// Places a piece of the player to move on `cell`, after checking it is legal.
    pub fn play(&self, layout: &Layout, cell: Cell) -> Result<Position, IllegalMove> {
        self.check_move(layout, cell)?;
        Ok(self.play_unchecked(layout, cell))
    }

    /// [`Position::play`] for a cell known to be legal (from [`Position::legal_cells`]).
    /// Works out at once whether the game ended, in the rules' order: a connection or loop
    /// of the mover, then a full board, then no legal cell for the next player.
    #[inline]
    pub fn play_unchecked(&self, layout: &Layout, cell: Cell) -> Position {
        debug_assert!(
            self.is_legal(layout, cell),
            "{cell} is not legal in {self:?}"
        );
        let mut next = self.placed_on(cell);
        let mine = next.pieces[self.turn().index()];
        next.end = if geometry::chain_connects(mine, cell) {
            Some(EndReason::Connection)
        } else if geometry::may_close_loop(mine, cell) && geometry::has_loop(mine) {
            Some(EndReason::Loop)
        } else {
            next.end_without_shape(layout)
        };
        next
    }

    /// [`Position::play_unchecked`] for a caller that knows whether `cell` is one of the
    /// mover's threats ([`Position::threats`]): then the placement makes a shape exactly
    /// when it is, and no shape needs looking for otherwise. For the searches that keep
    /// the threats as they play: the solver's adapter (game.rs) and the certificates'
    /// forced wins.
    #[inline]
    pub fn play_knowing_threat(&self, layout: &Layout, cell: Cell, threat: bool) -> Position {
        if threat {
            return self.play_unchecked(layout, cell);
        }
        let mut next = self.placed_on(cell);
        next.end = next.end_without_shape(layout);
        // What matters is that the placement made no shape, which is cheaper to check
        // than the threats.
        debug_assert_eq!(
            next,
            self.play_unchecked(layout, cell),
            "{cell} makes a shape"
        );
        next
    }

    /// This position with a piece of the player to move on `cell`, the game's end not
    /// yet worked out.
    #[inline]
    fn placed_on(&self, cell: Cell) -> Position {
        let mover = self.turn();
        let mut next = *self;
        next.pieces[mover.index()] = self.pieces[mover.index()].with(cell);
        next.top = cell.bit() as u8;
        next.placed += 1;
        next
    }

    /// How the game stands after a placement that made no shape (this position is the
    /// one after it): a full board, or no legal cell for the next player, or not over.
    #[inline]
    fn end_without_shape(&self, layout: &Layout) -> Option<EndReason> {
        if self.placed as u32 == FREE_CELLS {
            Some(EndReason::FullBoard)
        } else if (layout.allowed_by_slot(self.top) - self.occupied()).is_empty() {
            Some(EndReason::NoLegalCell)
        } else {
            None
        }
    }

    /// A legal cell whose placement wins at once, if the player to move has one: one that
    /// completes a connection or a loop, or failing those, one that leaves the opponent no
    /// legal cell on a board that is not full.
    pub fn winning_move(&self, layout: &Layout) -> Option<Cell> {
        let legal = self.legal_cells(layout);
        if legal.is_empty() {
            return None;
        }
        let mine = self.pieces[self.turn().index()];
        // A cell connects two opposite sides when it is on or next to a chain touching
        // each: all candidates at once, a fill for each side with a piece.
        let mut reaches = SideReaches::new(mine);
        for (one, other) in Side::OPPOSITE_PAIRS {
            if let Some(cell) = (legal & reaches.of(one) & reaches.of(other)).first() {
                return Some(cell);
            }
        }
        let loop_candidates = legal & geometry::neighbours(mine);
        if let Some(cell) = loop_candidates
            .filter(|&cell| geometry::may_close_loop(mine.with(cell), cell))
            .find(|&cell| geometry::has_loop(mine.with(cell)))
        {
            return Some(cell);
        }
        self.winning_move_by_no_legal_cell(layout)
    }

    /// A legal cell whose placement leaves the opponent no legal cell on a board that is
    /// not then full, if there is one: the immediate wins that are not shapes.
    #[inline]
    pub fn winning_move_by_no_legal_cell(&self, layout: &Layout) -> Option<Cell> {
        if self.placed as u32 + 1 >= FREE_CELLS {
            return None;
        }
        let occupied = self.occupied();
        self.legal_cells(layout).into_iter().find(|&cell| {
            (layout.allowed_by_slot(cell.bit() as u8) - occupied.with(cell)).is_empty()
        })
    }

    /// The free cells on which `player` would win at once by a connection or a loop if
    /// the stack let them play there: their threats. Whether the stack does is the
    /// layout's business; a search uses this to see which placements hand the opponent a
    /// win (any placement whose chip matches a threat's, other than the threat itself).
    /// Empty in a finished game.
    pub fn threats(&self, player: Player) -> Bitboard {
        if self.end.is_some() {
            return Bitboard::EMPTY;
        }
        let mine = self.pieces[player.index()];
        let free = self.free_cells();
        let mut reaches = SideReaches::new(mine);
        let mut threats = Bitboard::EMPTY;
        for (one, other) in Side::OPPOSITE_PAIRS {
            // Opposite sides share no cell: one of them must hold a piece already.
            if (mine & (one.cells() | other.cells())).any() {
                threats |= free & reaches.of(one) & reaches.of(other);
            }
        }
        // The smallest loop is six pieces around one cell.
        if mine.count() < 5 {
            return threats;
        }
        for cell in (free & geometry::split_rings(mine)) - threats {
            if geometry::has_loop(mine.with(cell)) {
                threats = threats.with(cell);
            }
        }
        threats
    }

    /// [`Position::threats`] of the player who just placed on `cell`, worked out from
    /// their threats before it, `before`, where only the chain through `cell` can have
    /// changed anything. Adding a piece keeps every threat but the cell taken: chains only
    /// grow, and a loop still encloses what it enclosed, except a loop that would have
    /// enclosed `cell` alone (the one cell left open around `cell`, then checked again).
    /// New threats lie next to the chain through `cell`: where it now reaches a side the
    /// opposite side's chains also reach, or where a piece would close a loop through it.
    /// Such a loop runs through the candidate cell, leaving it by one run of the chain's
    /// pieces around it and coming back by another, so only the cells around which the
    /// chain itself (not all the player's pieces) is split need the fill (criterion's
    /// `kamon-threats-after`: 1.39 to 1.65 ms before, 0.94 to 1.09 ms after, three
    /// alternated runs).
    /// (The other player's threats after the placement are theirs before it less `cell`:
    /// it adds no piece of theirs, and a loop is a loop whoever holds what it encloses.)
    /// The solver's adapter (game.rs) and the certificates' forced wins keep the threats
    /// as they play.
    pub fn threats_after(&self, cell: Cell, before: Bitboard) -> Bitboard {
        if self.end.is_some() {
            return Bitboard::EMPTY;
        }
        let mine = self.pieces[(!self.turn()).index()];
        let mut reaches = SideReaches::new(mine);
        let free = self.free_cells();
        let mut threats = before.without(cell);
        let open_around = geometry::neighbours_of(cell) - mine;
        if open_around.count() == 1 && !geometry::EDGE.contains(cell) {
            let last_open = open_around.first().expect("one cell");
            let with = mine.with(last_open);
            if threats.contains(last_open)
                && !geometry::chain_connects(with, last_open)
                && !geometry::has_loop(with)
            {
                threats = threats.without(last_open);
            }
        }
        let chain = geometry::flood(Bitboard::from_cell(cell), mine);
        let around = geometry::neighbours(chain) & free;
        for (one, other) in Side::OPPOSITE_PAIRS {
            for (touched, opposite) in [(one, other), (other, one)] {
                // The chain cannot touch both: that would have been a connection.
                if (chain & touched.cells()).any() {
                    threats |= around & reaches.of(opposite);
                }
            }
        }
        if chain.count() >= 5 {
            for candidate in (around & geometry::split_rings(chain)) - threats {
                if geometry::has_loop(mine.with(candidate)) {
                    threats = threats.with(candidate);
                }
            }
        }
        threats
    }
}

// A search stores and copies positions at every node, and shares them between threads.
const _: () = assert!(std::mem::size_of::<Position>() == 24);
const _: fn() = || {
    fn solver_ready<T: Copy + Send + Sync + 'static>() {}
    solver_ready::<Position>();
    solver_ready::<Cell>();
};
