//! Kamon as the solver sees it: one layout, implementing the solver's generic [`Game`].
//!
//! Why the game value owns the layout: the solver holds one game object for a whole
//! search and hands it every position, while positions stay 24-byte `Copy` values; the
//! layout (chips and the tables derived from them) is exactly what is fixed for a search.
//! Everything the solver needs beyond the rules comes from cheap bitboard work here: a
//! placement that wins at once ([`Position::winning_move`]), and first guesses of how
//! hard a position is to prove.

use kamisado_solver::{Game, Player as SolverPlayer, Value, WinInOne};

use crate::{Bitboard, Cell, Layout, Outcome, Player, Position};

/// Kamon on one layout. Positions are [`Position`]s of this layout; moves are the cells
/// placed on; keys are [`Position::key`], exact within the layout.
#[derive(Clone, Debug)]
pub struct KamonGame {
    layout: Layout,
}

impl KamonGame {
    pub fn new(layout: Layout) -> KamonGame {
        KamonGame { layout }
    }

    #[inline]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The start of a game on this layout.
    pub fn start(&self) -> Position {
        Position::start(&self.layout)
    }

    /// The cells whose placement would let the opponent play on one of `threats`: those
    /// whose chip shares a symbol or a count with a threat's, the threat itself excepted
    /// (whoever takes it, takes it away).
    #[inline]
    pub fn handing_over(&self, threats: Bitboard) -> Bitboard {
        let mut cells = Bitboard::EMPTY;
        for threat in threats {
            cells |= self.layout.matching(threat).without(threat);
        }
        cells
    }
}

impl From<Outcome> for Value {
    fn from(outcome: Outcome) -> Value {
        match outcome {
            Outcome::Win => Value::Win,
            Outcome::Draw => Value::Draw,
            Outcome::Loss => Value::Loss,
        }
    }
}

impl Game for KamonGame {
    type Position = Position;
    type Move = Cell;
    /// 118 bits: both occupancies and the top of the stack ([`Position::key`]).
    type Key = u128;

    /// A full board is the only draw.
    const DRAWS: bool = true;

    #[inline]
    fn outcome(&self, pos: &Position) -> Option<Value> {
        pos.outcome().map(Value::from)
    }

    #[inline]
    fn player(&self, pos: &Position) -> SolverPlayer {
        match pos.turn() {
            Player::Black => SolverPlayer::First,
            Player::White => SolverPlayer::Second,
        }
    }

    #[inline]
    fn moves(&self, pos: &Position, out: &mut Vec<Cell>) {
        out.clear();
        out.extend(pos.legal_cells(&self.layout));
    }

    #[inline]
    fn play(&self, pos: &Position, cell: Cell) -> Position {
        pos.play_unchecked(&self.layout, cell)
    }

    #[inline]
    fn key(&self, pos: &Position) -> u128 {
        pos.key()
    }

    /// A draw fills the board: every free cell gets a piece.
    #[inline]
    fn drawn_length(&self, pos: &Position) -> u32 {
        pos.free_cells().count()
    }

    /// Exact: [`Position::winning_move`] looks for every way a placement wins at once (a
    /// connection, a loop, or no legal cell left for the opponent on a board that is not
    /// full), so when it finds none there is none.
    #[inline]
    fn win_in_one(&self, pos: &Position) -> WinInOne<Cell> {
        match pos.winning_move(&self.layout) {
            Some(cell) => WinInOne::Wins(cell),
            None => WinInOne::No,
        }
    }

    /// Guesses from threats (cells where a player would win at once by a shape, see
    /// [`Position::threats`]). A placement whose chip matches an opponent's threat hands
    /// them the win, so only the other placements need refuting: the disproof number
    /// starts at their count. The proof number starts at 1 when the side to move's own
    /// threats would forbid the opponent many cells, 2 with a few, 4 with none. (Measured
    /// on random layouts 8 and 10 placements in: two to three times fewer nodes than the
    /// plain count of legal cells.)
    #[inline]
    fn estimate(&self, pos: &Position) -> (u32, u32) {
        let me = pos.turn();
        let safe = (pos.legal_cells(&self.layout) - self.handing_over(pos.threats(!me))).count();
        if safe == 0 {
            // Every placement hands the opponent a win: the first expansion shows it.
            return (1, 1);
        }
        let mine = pos.threats(me);
        let pn = if mine.is_empty() {
            4
        } else if (self.handing_over(mine) & pos.free_cells()).count() > 8 {
            1
        } else {
            2
        };
        (pn, safe)
    }
}
