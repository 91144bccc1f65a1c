//! Kamon as the solver sees it: one layout, implementing the solver's generic [`Game`].
//!
//! Why the game value owns the layout: the solver holds one game object for a whole
//! search and hands it every position, while positions stay 24-byte `Copy` values; the
//! layout (chips and the tables derived from them) is exactly what is fixed for a search.
//!
//! Why the search's positions are [`Node`]s, a position with both players' threats (the
//! cells where a placement would make a connection or a loop, [`Position::threats`]):
//! everything the solver asks beyond the rules is about threats (a win at once is a
//! legal threat, a placement whose chip matches an opponent's threat hands them the win)
//! and a placement changes only the mover's. The opponent's threats lose at most the
//! cell taken (the mover's pieces neither make nor break the opponent's shapes), so a
//! node computes one player's threats per placement instead of both players' at every
//! question.

use kamisado_solver::{Game, Player as SolverPlayer, Value, WinInOne};

use crate::{Bitboard, Cell, Layout, Outcome, Player, Position};

/// A position and both players' threats, as the search carries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    position: Position,
    /// By [`Player::index`]; empty in a finished game.
    threats: [Bitboard; 2],
}

impl Node {
    /// The node of `position`, a position of `layout`.
    pub fn new(position: Position) -> Node {
        Node {
            position,
            threats: Player::ALL.map(|p| position.threats(p)),
        }
    }

    #[inline]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// [`Position::threats`] of `player`.
    #[inline]
    pub fn threats(&self, player: Player) -> Bitboard {
        self.threats[player.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threats_carried_through_play_are_the_threats() {
        // Thousands of random games, each node compared with one worked out afresh. Half
        // of the games avoid placements that end them while they can, to reach the
        // crowded boards where loops are made and unmade.
        let mut rng = fastrand::Rng::with_seed(17);
        let (mut compared, mut loop_threats) = (0, 0);
        for seed in 0..4000 {
            let game = KamonGame::new(Layout::random(seed));
            let mut node = game.start();
            while game.outcome(&node).is_none() {
                let mut moves = Vec::new();
                game.moves(&node, &mut moves);
                let going_on: Vec<Cell> = moves
                    .iter()
                    .copied()
                    .filter(|&c| !node.position().play_unchecked(game.layout(), c).is_over())
                    .collect();
                let pool = if seed % 2 == 0 && !going_on.is_empty() {
                    going_on
                } else {
                    moves
                };
                node = game.play(&node, pool[rng.usize(..pool.len())]);
                assert_eq!(node, game.node(node.position()), "seed {seed}");
                compared += 1;
                for player in Player::ALL {
                    let mine = node.position().pieces(player);
                    loop_threats += node
                        .threats(player)
                        .filter(|&c| crate::geometry::has_loop(mine.with(c)))
                        .count();
                }
            }
        }
        assert!(
            compared > 50_000 && loop_threats > 1000,
            "{compared} {loop_threats}"
        );
    }

    #[test]
    fn a_loop_threat_around_the_cell_taken_is_gone() {
        // Black surrounds d4 but for e4: e4 would close a loop around d4. Black then takes
        // d4 itself, and e4 encloses nothing any more.
        let cells = |names: &str| -> Bitboard {
            names
                .split_whitespace()
                .map(|n| n.parse::<Cell>().unwrap())
                .collect()
        };
        let layout = Layout::random(1);
        let white = cells("a2 a3 g2 g3 f1 e1");
        let setup = |black: &str, last: &str| crate::Setup {
            black: cells(black),
            white,
            last: Some(last.parse().unwrap()),
        };
        let before = Position::from_setup(&layout, setup("c3 c4 d3 d5 e3 b1", "e1")).unwrap();
        let after = Position::from_setup(&layout, setup("c3 c4 d3 d5 e3 b1 d4", "d4")).unwrap();
        assert!(!after.is_over());
        let e4 = "e4".parse().unwrap();
        assert!(before.threats(Player::Black).contains(e4));
        let carried = after.threats_after("d4".parse().unwrap(), before.threats(Player::Black));
        assert_eq!(carried, after.threats(Player::Black));
        assert!(!carried.contains(e4));
    }
}

/// Kamon on one layout. Positions are [`Node`]s of this layout's positions; moves are the
/// cells placed on; keys are [`Position::key`], exact within the layout.
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

    /// The start of a game on this layout, as a node.
    pub fn start(&self) -> Node {
        Node::new(Position::start(&self.layout))
    }

    /// The node of `position`, a position of this layout.
    pub fn node(&self, position: &Position) -> Node {
        debug_assert_eq!(position.forbidden(), self.layout.forbidden());
        Node::new(*position)
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
    type Position = Node;
    type Move = Cell;
    /// 118 bits: both occupancies and the top of the stack ([`Position::key`]).
    type Key = u128;

    /// A full board is the only draw.
    const DRAWS: bool = true;

    #[inline]
    fn outcome(&self, node: &Node) -> Option<Value> {
        node.position.outcome().map(Value::from)
    }

    #[inline]
    fn player(&self, node: &Node) -> SolverPlayer {
        match node.position.turn() {
            Player::Black => SolverPlayer::First,
            Player::White => SolverPlayer::Second,
        }
    }

    #[inline]
    fn moves(&self, node: &Node, out: &mut Vec<Cell>) {
        out.clear();
        out.extend(node.position.legal_cells(&self.layout));
    }

    /// The mover's threats are worked out afresh; the opponent's lose the cell taken.
    #[inline]
    fn play(&self, node: &Node, cell: Cell) -> Node {
        let mover = node.position.turn();
        let threat = node.threats(mover).contains(cell);
        let position = node
            .position
            .play_knowing_threat(&self.layout, cell, threat);
        if position.is_over() {
            return Node {
                position,
                threats: [Bitboard::EMPTY; 2],
            };
        }
        let mut threats = node.threats;
        threats[(!mover).index()] = threats[(!mover).index()].without(cell);
        threats[mover.index()] = position.threats_after(cell, threats[mover.index()]);
        Node { position, threats }
    }

    #[inline]
    fn key(&self, node: &Node) -> u128 {
        node.position.key()
    }

    /// A draw fills the board: every free cell gets a piece.
    #[inline]
    fn drawn_length(&self, node: &Node) -> u32 {
        node.position.free_cells().count()
    }

    /// Exact: a placement wins at once by a shape exactly on a legal threat, and
    /// otherwise only by leaving the opponent no legal cell on a board that is not full
    /// (as [`Position::winning_move`] looks for them).
    #[inline]
    fn win_in_one(&self, node: &Node) -> WinInOne<Cell> {
        let pos = &node.position;
        let legal = pos.legal_cells(&self.layout);
        if let Some(cell) = (legal & node.threats(pos.turn())).first() {
            return WinInOne::Wins(cell);
        }
        match pos.winning_move_by_no_legal_cell(&self.layout) {
            Some(cell) => WinInOne::Wins(cell),
            None => WinInOne::No,
        }
    }

    /// Guesses from threats. A placement whose chip matches an opponent's threat hands
    /// them the win, so only the other placements need refuting: the disproof number
    /// starts at their count. The proof number starts at 1 when the side to move's own
    /// threats would forbid the opponent many cells, 2 with a few, 4 with none. (Measured
    /// on random layouts 8 and 10 placements in: two to three times fewer nodes than the
    /// plain count of legal cells.)
    #[inline]
    fn estimate(&self, node: &Node) -> (u32, u32) {
        let pos = &node.position;
        let me = pos.turn();
        let safe = (pos.legal_cells(&self.layout) - self.handing_over(node.threats(!me))).count();
        if safe == 0 {
            // Every placement hands the opponent a win: the first expansion shows it.
            return (1, 1);
        }
        let mine = node.threats(me);
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
