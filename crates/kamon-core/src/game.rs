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

use kamisado_solver::{Game, Known, Player as SolverPlayer, Value, WinInOne};

use crate::parent_distances::ParentDistances;
use crate::{forced, geometry, Bitboard, Cell, Layout, Outcome, Player, Position};

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

    /// The threats are the free cells where a placement of their player makes a shape,
    /// for both players (the one to move and the other), as the rules' end of a placement
    /// says where the player to move may play: what the certificates' forced wins
    /// (kamon-cert) trust them for.
    #[test]
    fn threats_are_the_cells_that_make_a_shape() {
        let mut rng = fastrand::Rng::with_seed(29);
        let (mut cells, mut threats, mut played) = (0, 0, 0);
        for seed in 0..1500 {
            let layout = Layout::random(seed);
            let mut pos = Position::start(&layout);
            while !pos.is_over() {
                for player in Player::ALL {
                    let mine = pos.pieces(player);
                    let threat_cells = pos.threats(player);
                    for cell in pos.free_cells() {
                        let with = mine.with(cell);
                        let shape = crate::geometry::chain_connects(with, cell)
                            || crate::geometry::has_loop(with);
                        assert_eq!(threat_cells.contains(cell), shape, "{cell} seed {seed}");
                        cells += 1;
                        threats += shape as u32;
                    }
                }
                for cell in pos.legal_cells(&layout) {
                    let end = pos.play_unchecked(&layout, cell).end();
                    let shape = end.is_some_and(|e| {
                        matches!(
                            e.reason,
                            crate::EndReason::Connection | crate::EndReason::Loop
                        )
                    });
                    assert_eq!(pos.threats(pos.turn()).contains(cell), shape, "{cell}");
                    played += 1;
                }
                let legal: Vec<Cell> = pos.legal_cells(&layout).collect();
                pos = pos.play_unchecked(&layout, legal[rng.usize(..legal.len())]);
            }
        }
        assert!(
            cells > 500_000 && threats > 5_000 && played > 100_000,
            "{cells} {threats} {played}"
        );
    }

    /// Whether the player to move in `pos` can win at once, by trying every cell.
    fn wins_at_once(layout: &Layout, pos: &Position) -> bool {
        Iterator::any(&mut pos.legal_cells(layout), |c| {
            let child = pos.play_unchecked(layout, c);
            child.end().is_some_and(|e| e.winner == Some(pos.turn()))
        })
    }

    #[test]
    fn short_forced_results_are_what_they_claim() {
        // Random games that avoid ending while they can; every claim of a loss in two or
        // a win in three is checked by trying every line, and both kinds turn up.
        let mut rng = fastrand::Rng::with_seed(23);
        let (mut losses, mut wins) = (0, 0);
        for seed in 0..1500 {
            let game = KamonGame::new(Layout::random(seed));
            let layout = game.layout();
            let mut node = game.start();
            while game.outcome(&node).is_none() {
                let pos = *node.position();
                match game.win_in_one(&node) {
                    WinInOne::LosesInTwo => {
                        losses += 1;
                        assert!(!wins_at_once(layout, &pos));
                        for c in pos.legal_cells(layout) {
                            let child = pos.play_unchecked(layout, c);
                            assert!(!child.is_over() && wins_at_once(layout, &child), "{c}");
                        }
                    }
                    WinInOne::WinsInThree(c) => {
                        wins += 1;
                        assert!(!wins_at_once(layout, &pos) && pos.is_legal(layout, c));
                        let child = pos.play_unchecked(layout, c);
                        assert!(!child.is_over() && !wins_at_once(layout, &child));
                        for d in child.legal_cells(layout) {
                            let grandchild = child.play_unchecked(layout, d);
                            assert!(!grandchild.is_over() && wins_at_once(layout, &grandchild));
                        }
                    }
                    WinInOne::Wins(c) => {
                        let child = pos.play_unchecked(layout, c);
                        assert_eq!(child.end().and_then(|e| e.winner), Some(pos.turn()));
                    }
                    WinInOne::No => assert!(!wins_at_once(layout, &pos)),
                    WinInOne::NotChecked => panic!("Kamon always checks"),
                }
                let mut moves = Vec::new();
                game.moves(&node, &mut moves);
                let going_on: Vec<Cell> = moves
                    .iter()
                    .copied()
                    .filter(|&c| !node.position().play_unchecked(layout, c).is_over())
                    .collect();
                let pool = if going_on.is_empty() { moves } else { going_on };
                node = game.play(&node, pool[rng.usize(..pool.len())]);
            }
        }
        assert!(losses > 100 && wins > 100, "{losses} {wins}");
    }

    #[test]
    fn settled_forced_wins_are_forced_wins() {
        // Random games' positions the search would expand (its rules leave them open):
        // the hook settles exactly the forced wins within its placements whose side to
        // move has a threat (`forced_win` is checked against a minimax in forced.rs).
        let mut rng = fastrand::Rng::with_seed(31);
        let (mut settled, mut open_with_threat) = (0, 0);
        for seed in 0..600 {
            let game = KamonGame::new(Layout::random(seed));
            let layout = game.layout();
            let mut node = game.start();
            while game.outcome(&node).is_none() {
                let pos = *node.position();
                if game.win_in_one(&node) == WinInOne::No {
                    let known = game.known_when_expanded(&node);
                    let has_threat = node.threats(pos.turn()).any();
                    let mine = node.threats(pos.turn());
                    let forced =
                        crate::forced::forced_win(layout, &pos, settled_forced_placements(mine));
                    let expected = (has_threat && forced).then_some(Known::Value(Value::Win));
                    assert_eq!(known, expected, "{}", pos.to_setup());
                    settled += known.is_some() as u32;
                    open_with_threat += (has_threat && known.is_none()) as u32;
                }
                let mut moves = Vec::new();
                game.moves(&node, &mut moves);
                node = game.play(&node, moves[rng.usize(..moves.len())]);
            }
        }
        assert!(
            settled > 100 && open_with_threat > 100,
            "{settled} {open_with_threat}"
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

    /// A sixteenth, not the default quarter: the search turns to a sibling sooner. Kamon's
    /// positions are sets of chips, reached by many orders, and staying less costs fewer
    /// nodes: measured 2026-12-07 ("does the side to move win?", one thread, 512 MiB,
    /// nodes being exact): on ten units of whole games (two placements in: seed 1's `b1
    /// b4` and `b1 f3`, 2's `a2 b5`, 3's `g3 c6`, 4's `a3 b2`, 8's `f1 e5`, 9's `a2 d1`,
    /// 10's `f5 e2`, 11's `f5 c3`, 12's `c1 e2`) 359.8 M nodes against 413.1 M, 0.87 times
    /// (a unit 0.65 to 1.09 times, geometric mean 0.90, eight of ten fewer); on seeds 1 to
    /// 8 four placements in 83.3 M against 102.8 M (geometric mean 0.84). An eighth and a
    /// thirty-second did less well four placements in (87.2 M and 87.0 M), a whole (a
    /// proof number may double) much worse, and none (plain df-pn) no better than a
    /// quarter six placements in.
    const EPSILON_DIVISOR: u32 = 16;

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
    /// (as [`Position::winning_move`] looks for them). One step further, by threats:
    ///
    /// - a loss in two when every placement is unsafe (its chip matches an opponent's
    ///   threat, which stays free and stays a threat, so the opponent takes it);
    /// - a win in three by a safe placement after which every reply is unsafe for the
    ///   opponent in turn (the replies hand back a threat of the side to move). The
    ///   opponent then cannot win at once (the placement was safe) nor leave the mover
    ///   without a cell (the threat handed over is one) nor fill the board (it stays
    ///   free). Placements next to one of the mover's threats are left out: they may
    ///   undo it (a loop around the placed cell alone), see [`Position::threats`].
    #[inline]
    fn win_in_one(&self, node: &Node) -> WinInOne<Cell> {
        let pos = &node.position;
        if pos.is_over() {
            return WinInOne::No;
        }
        let me = pos.turn();
        let legal = pos.legal_cells(&self.layout);
        let mine = node.threats(me);
        if let Some(cell) = (legal & mine).first() {
            return WinInOne::Wins(cell);
        }
        if let Some(cell) = pos.winning_move_by_no_legal_cell(&self.layout) {
            return WinInOne::Wins(cell);
        }
        let safe = legal - self.handing_over(node.threats(!me));
        if safe.is_empty() {
            return WinInOne::LosesInTwo;
        }
        if mine.any() {
            let free = pos.free_cells();
            let handing_mine = self.handing_over(mine);
            for cell in safe - geometry::neighbours(mine) {
                let replies = (self.layout.matching(cell) & free).without(cell);
                if replies.any() && (replies - handing_mine).is_empty() {
                    return WinInOne::WinsInThree(cell);
                }
            }
        }
        WinInOne::No
    }

    /// Guesses from threats and, while threats are few, from how near each player is to
    /// a connection. A placement whose chip matches an opponent's threat hands them the
    /// win, so only the other placements (the safe ones) need refuting: the disproof number
    /// starts at their count. To prove a win, the most forcing safe placement is the one
    /// that leaves the opponent the fewest safe replies (replies whose chip matches none of
    /// the side to move's threats); the proof number starts at about half their count, plus
    /// 1 or 3 when the side to move has few threats or none. Both are then multiplied by
    /// the cells the player still needs for a connection
    /// ([`geometry::connection_distance`], both players' at once by
    /// [`geometry::connection_distances`]): the proof number by the side to move's, the
    /// disproof number by the opponent's, so that in the quiet positions where neither
    /// side has a threat yet (most of a search's nodes) the search follows the player
    /// nearer to a connection. (Measured on random layouts 6 and 8 placements in: the
    /// threat guesses need about three times fewer nodes than the count of legal cells
    /// alone, the distances 40% fewer again, see the README.)
    #[inline]
    fn estimate(&self, node: &Node) -> (u32, u32) {
        let pos = &node.position;
        let me = pos.turn();
        let safe = pos.legal_cells(&self.layout) - self.handing_over(node.threats(!me));
        if safe.is_empty() {
            // Every placement hands the opponent a win: the first expansion shows it.
            return (1, 1);
        }
        let free = pos.free_cells();
        let mine = node.threats(me);
        let handing_mine = self.handing_over(mine);
        let threat_bonus = if mine.is_empty() {
            3
        } else if (handing_mine & free).count() > 8 {
            0
        } else {
            1
        };
        let fewest_replies = safe
            .map(|cell| ((self.layout.matching(cell) & free).without(cell) - handing_mine).count())
            .min()
            .unwrap_or(0);
        // At least 1 in a game that goes on: a connection would have ended it.
        let distances = child_distances(pos);
        let [mine, theirs] = [distances[me.index()], distances[(!me).index()]].map(|d| d.max(1));
        (
            (fewest_replies.div_ceil(2) + threat_bonus).max(1) * mine,
            safe.count() * theirs,
        )
    }

    /// A win the side to move forces within [`settled_forced_placements`] of its
    /// placements ([`forced::forced_win_later_with`], an exhaustive search on the rules),
    /// asked only of a position about to be expanded: such positions are most of the
    /// bottom of a proof (83% of a whole game's proof's choices, see kamon-cert's
    /// version 2), and below each the search would expand the forced line's every reply.
    /// Asked only when the side to move has a threat: without one (two thirds of the
    /// positions asked on seed 1 four placements in) a forced win within three is rare
    /// (2.3% of them) and the search there cost more than the nodes it saved (26 s of CPU
    /// against 14 s with this condition, the same search otherwise).
    #[inline]
    fn known_when_expanded(&self, node: &Node) -> Option<Known> {
        let pos = &node.position;
        let me = pos.turn();
        let mine = node.threats(me);
        // The search expands only positions its rules (`win_in_one`) left open: no win at
        // once, the game going on, as the forced search requires.
        (mine.any()
            && forced::forced_win_later_with(
                &self.layout,
                pos,
                settled_forced_placements(mine),
                mine,
                node.threats(!me),
            ))
        .then_some(Known::Value(Value::Win))
    }
}

/// How many of its own placements a side to move with one threat may take for the search
/// to settle a forced win without searching it ([`KamonGame::known_when_expanded`]'s
/// depth; see [`settled_forced_placements`]). Three saves the most time there: measured on
/// seeds 1, 2 and 4 four placements in (`kamon_probe --forced N`, one thread, 1 GiB),
/// 28.4 M nodes and 41 to 44 s of CPU unsettled, 15.2 M nodes and 31 to 34 s within three,
/// 11.4 M nodes but 38 s within four (each search about five times dearer); two settles
/// little beyond [`KamonGame::win_in_one`]'s win in three.
pub const SETTLED_FORCED_PLACEMENTS: u32 = 3;

/// The forced search's depth for a side to move with two threats or more: one placement
/// deeper. With two threats the opponent, who can take at most one, is already near a
/// lost position, so a four-placement forced win is common there and the deeper search
/// pays for itself; with one threat it mostly does not (the README's *Forced wins
/// settled in the search*: on seventeen units and positions, within four with two threats
/// or more took 0.92 times the CPU time of within three everywhere, 0.52 to 1.63 times a
/// unit; within four with any threat, more than within three on the units, and within
/// four from three threats, no less).
pub const SETTLED_FORCED_PLACEMENTS_WITH_THREATS: u32 = 4;

/// How many of its own placements the side to move, whose threats are `threats` (not
/// empty), may take for a forced win the search settles on expanding a position.
#[inline]
pub fn settled_forced_placements(threats: Bitboard) -> u32 {
    if threats.count() >= 2 {
        SETTLED_FORCED_PLACEMENTS_WITH_THREATS
    } else {
        SETTLED_FORCED_PLACEMENTS
    }
}

/// Both players' [`geometry::connection_distances`] in `pos`, by player index. A search
/// estimates every child of a position in a row, so each thread keeps the analysis of the
/// last parent (see [`ParentDistances`]) and answers the children from it.
#[inline]
fn child_distances(pos: &Position) -> [u32; 2] {
    let pieces = Player::ALL.map(|p| pos.pieces(p));
    let open = pos.free_cells();
    let Some(cell) = pos.last_move() else {
        return geometry::connection_distances(pieces, open);
    };
    let mover = (!pos.turn()).index();
    let mut parent_pieces = pieces;
    parent_pieces[mover] = parent_pieces[mover].without(cell);
    let parent_open = open.with(cell);
    LAST_PARENT
        .with(|last| {
            let mut parent = last.get();
            if parent.pieces != parent_pieces || parent.open != parent_open {
                parent = ParentDistances::new(parent_pieces, parent_open);
                last.set(parent);
            }
            parent.child(mover, cell)
        })
        .unwrap_or_else(|| geometry::connection_distances(pieces, open))
}

thread_local! {
    static LAST_PARENT: std::cell::Cell<ParentDistances> =
        const { std::cell::Cell::new(ParentDistances::NONE) };
}
