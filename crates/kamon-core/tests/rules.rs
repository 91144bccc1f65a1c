//! One test per rule of KAMON-RULES.md, each on a hand-built position whose expected
//! outcome is worked out in the comments from the rules alone.
//!
//! Positions are built as "the position just before the placement under test" from a
//! [`Setup`], so that the placement goes through `play` and its end detection; the layout
//! is built per test so that the placement is legal (its chip matches the top chip).

use kamon_core::perft::{divide, perft};
use kamon_core::{
    Bitboard, Cell, Chip, EndReason, GameEnd, IllegalMove, Layout, LayoutError, Outcome, Player,
    Position, PositionError, Record, Setup,
};

fn cell(name: &str) -> Cell {
    name.parse()
        .unwrap_or_else(|e| panic!("test cell `{name}`: {e}"))
}

fn cells(names: &str) -> Bitboard {
    names.split_whitespace().map(cell).collect()
}

fn chip(text: &str) -> Chip {
    text.parse().unwrap()
}

/// A layout with `--` on `forbidden`, the given chips on the given cells, and the other
/// chips in the standard order (`1a 1b ..`) on the other cells in reading order.
fn layout(forbidden: &str, fixed: &[(&str, &str)]) -> Layout {
    let mut placed: Vec<(Cell, Chip)> = vec![(cell(forbidden), Chip::FIRST_PLAYER)];
    placed.extend(fixed.iter().map(|&(c, t)| (cell(c), chip(t))));
    let mut rest = Chip::ALL
        .into_iter()
        .filter(|c| placed.iter().all(|&(_, p)| p != *c));
    let chips = Cell::ALL.map(|c| match placed.iter().find(|&&(pc, _)| pc == c) {
        Some(&(_, chip)) => chip,
        None => rest.next().unwrap(),
    });
    Layout::new(chips).unwrap()
}

fn setup(layout: &Layout, black: &str, white: &str, last: Option<&str>) -> Position {
    let s = Setup {
        black: cells(black),
        white: cells(white),
        last: last.map(cell),
    };
    Position::from_setup(layout, s).unwrap_or_else(|e| panic!("test setup: {e}"))
}

/// Plays `at` and returns how the game ended.
fn end_after(layout: &Layout, pos: &Position, at: &str) -> Option<GameEnd> {
    assert_eq!(
        pos.end(),
        None,
        "the position before the placement must be open"
    );
    pos.play(layout, cell(at))
        .unwrap_or_else(|e| panic!("{at}: {e}"))
        .end()
}

fn won(winner: Player, reason: EndReason) -> Option<GameEnd> {
    Some(GameEnd {
        reason,
        winner: Some(winner),
    })
}

/// Black has five pieces of a winning shape (plus `extra`), White five scattered pieces
/// that touch nothing, Black to move with White's last piece on `g3` (chip 1a) and the
/// completing cell `at` holding 1b (same count).
fn black_completes(forbidden: &str, black: &str, white: &str, at: &str) -> Option<GameEnd> {
    let l = layout(forbidden, &[("g3", "1a"), (at, "1b")]);
    let pos = setup(&l, black, white, Some("g3"));
    end_after(&l, &pos, at)
}

#[test]
fn connection_top_to_bottom() {
    // a2 b2 c2 d2 e2 f2 g2 is a chain (each the lower neighbour of the last) from the top
    // to the bottom; d2 completes it. White's pieces are far apart and on no chain.
    let end = black_completes("d4", "a2 b2 c2 e2 f2 g2", "a4 c5 e5 f4 g3 d6", "d2");
    assert_eq!(end, won(Player::Black, EndReason::Connection));
}

#[test]
fn connection_upper_left_to_lower_right() {
    // c1 d2 e2 e3 e4 e5 e6: from c1 (upper left) to e6 (lower right), no corner.
    let end = black_completes("a4", "c1 d2 e2 e4 e5 e6", "a2 b4 c4 g1 g3 d6", "e3");
    assert_eq!(end, won(Player::Black, EndReason::Connection));
}

#[test]
fn connection_upper_right_to_lower_left() {
    // b5 c5 d5 e4 f3 f2 f1: from b5 (upper right) to f1 (lower left), no corner.
    let end = black_completes("a1", "b5 c5 d5 f3 f2 f1", "a2 b2 c2 g2 g3 e6", "e4");
    assert_eq!(end, won(Player::Black, EndReason::Connection));
}

#[test]
fn a_corner_counts_for_both_of_its_sides() {
    // a1 is on the top and the upper left. a1 b2 c3 d4 e4 f3 g2: a chain from a1 down
    // to g2 joins the top (through a1) and the bottom.
    let down = black_completes("d7", "b2 c3 d4 e4 f3 g2", "a3 b4 c5 d6 e6 g3", "a1");
    assert_eq!(down, won(Player::Black, EndReason::Connection));
    // a1 b2 c3 d4 d5 e5 e6: a chain from a1 to e6 joins the upper left (through a1) and
    // the lower right.
    let across = black_completes("g1", "b2 c3 d4 d5 e5 e6", "a3 b4 c5 f1 f3 g3", "a1");
    assert_eq!(across, won(Player::Black, EndReason::Connection));
}

#[test]
fn adjacent_sides_are_no_connection() {
    // d1 e1 f1 g1 touch the upper left (d1), the lower left and the bottom (g1): no two
    // of them are opposite. a2 a3 a4 b5 touch the top and the upper right (a4, b5).
    let l = layout("d4", &[("g3", "1a"), ("g1", "1b"), ("a4", "1c")]);
    let pos = setup(&l, "d1 e1 f1 a2 a3 b5", "b2 c3 c5 e3 e5 g3", Some("g3"));
    assert_eq!(end_after(&l, &pos, "g1"), None);
    assert_eq!(end_after(&l, &pos, "a4"), None);
}

#[test]
fn loop_around_an_empty_cell() {
    // c3 c4 d3 d5 e3 e4 are the six neighbours of d4; e4 closes the ring, d4 is empty.
    let end = black_completes("a1", "a2 c3 c4 d3 d5 e3", "b1 c6 e1 f5 g1 g3", "e4");
    assert_eq!(end, won(Player::Black, EndReason::Loop));
}

#[test]
fn loop_around_the_forbidden_cell() {
    let end = black_completes("d4", "a2 c3 c4 d3 d5 e3", "b1 c6 e1 f5 g1 g3", "e4");
    assert_eq!(end, won(Player::Black, EndReason::Loop));
}

#[test]
fn loop_around_an_opponent_piece() {
    let end = black_completes("a1", "a2 c3 c4 d3 d5 e3", "d4 c6 e1 f5 g1 g3", "e4");
    assert_eq!(end, won(Player::Black, EndReason::Loop));
}

#[test]
fn six_pieces_around_an_own_piece_are_no_loop() {
    // The same ring with d4 Black's own: every cell that is not Black's still reaches the
    // edge.
    let end = black_completes("a1", "a2 d4 c3 c4 d3 d5 e3", "a3 b1 c6 e1 f5 g1 g3", "e4");
    assert_eq!(end, None);
}

#[test]
fn a_loop_against_the_edge_counts_when_it_encloses_a_cell() {
    // a1 a2 b1 b3 c2 c3 are the six neighbours of b2; three of them are edge cells, and
    // b2 (six neighbours, so not an edge cell) cannot reach the edge.
    let end = black_completes("d4", "a1 a2 b1 b3 c2", "a4 c5 e5 f4 g3", "c3");
    assert_eq!(end, won(Player::Black, EndReason::Loop));
}

#[test]
fn cutting_off_an_edge_cell_is_no_loop() {
    // a2 b1 b2 surround the corner a1, but a1 is itself an edge cell.
    let end = black_completes("d4", "a2 b1 c4 e2", "a4 c6 f4 g3", "b2");
    assert_eq!(end, None);
}

/// The board cut into six wedges around d4 (forbidden), alternately Black and White. Each
/// wedge touches one side and the corner beyond it, so two adjacent sides at most; every
/// wedge reaches the edge, and d4 touches wedges of both colours. No connection, no loop.
const BLACK_WEDGES: &str = "a1 a2 a3 b2 b3 c3  d5 d6 d7 e5 e6 f5  e1 e2 e3 f1 f2 g1";
const WHITE_WEDGES: &str = "a4 b4 b5 c4 c5 c6  e4 f3 f4 g2 g3 g4  b1 c1 c2 d1 d2 d3";

#[test]
fn a_full_board_without_a_shape_is_a_draw() {
    // White's last placement, g2 (1b), after Black's e1 (1a), fills the 36th cell.
    let l = layout("d4", &[("e1", "1a"), ("g2", "1b")]);
    let white_before = WHITE_WEDGES.replace("g2", "");
    let pos = setup(&l, BLACK_WEDGES, &white_before, Some("e1"));
    assert_eq!(pos.turn(), Player::White);
    assert_eq!(pos.legal_cells(&l), cells("g2"));
    let end = pos.play(&l, cell("g2")).unwrap();
    assert_eq!(
        end.end(),
        Some(GameEnd {
            reason: EndReason::FullBoard,
            winner: None
        })
    );
    assert_eq!(end.outcome(), Some(Outcome::Draw));
    assert_eq!(end.free_cells(), Bitboard::EMPTY);
}

#[test]
fn one_free_cell_that_does_not_match_loses() {
    // As the draw, but White's c4 is still free and Black's last placement e1 (2b) does
    // not match c4's 3c: White, to move, has no legal cell and loses; no draw.
    let l = layout("d4", &[("e1", "2b"), ("g3", "2a"), ("c4", "3c")]);
    let black_before = BLACK_WEDGES.replace("e1", "");
    let white = WHITE_WEDGES.replace("c4", "");
    let pos = setup(&l, &black_before, &white, Some("g3"));
    let end = pos.play(&l, cell("e1")).unwrap();
    assert_eq!(end.free_cells(), cells("c4"));
    assert_eq!(end.end(), won(Player::Black, EndReason::NoLegalCell));
    assert_eq!(end.outcome(), Some(Outcome::Loss));
    assert_eq!(end.turn(), Player::White);
    assert!(matches!(
        end.check_move(&l, cell("c4")),
        Err(IllegalMove::GameOver(_))
    ));
}

#[test]
fn no_matching_free_cell_loses_mid_game() {
    // Black plays e5 (1a). Every other chip with one symbol or with symbol a (1b..1f,
    // 2a..6a) lies under a piece, so White has no legal cell with 25 cells still free.
    let l = layout(
        "g4",
        &[
            ("e5", "1a"),
            ("a2", "1c"),
            ("c2", "1d"),
            ("e2", "1e"),
            ("g2", "1f"),
            ("c5", "2a"),
            ("d4", "1b"),
            ("b4", "3a"),
            ("f4", "4a"),
            ("d2", "5a"),
            ("d6", "6a"),
        ],
    );
    let pos = setup(&l, "a2 c2 e2 g2 c5", "d4 b4 f4 d2 d6", Some("d4"));
    let end = pos.play(&l, cell("e5")).unwrap();
    assert_eq!(end.free_cells().count(), 25);
    assert_eq!(end.end(), won(Player::Black, EndReason::NoLegalCell));
    assert!(end.legal_cells(&l).is_empty());
}

#[test]
fn a_shape_on_the_last_cell_wins_before_the_draw() {
    // The wedges, but d5 is still free and Black holds c2 instead. d5 touches c4 and c5
    // (White's wedge on the top and upper right) and e4 (White's wedge on the bottom and
    // lower right): White's 36th placement, d5, joins the top to the bottom. A connection
    // on a full board wins.
    let black = format!("{} c2", BLACK_WEDGES.replace("d5", ""));
    let white_before = WHITE_WEDGES.replace("c2", "");
    let l = layout("d4", &[("e1", "1a"), ("d5", "1b")]);
    let pos = setup(&l, &black, &white_before, Some("e1"));
    assert_eq!(pos.placed(), 35);
    assert_eq!(
        end_after(&l, &pos, "d5"),
        won(Player::White, EndReason::Connection)
    );
}

#[test]
fn the_first_move_ignores_the_stack() {
    // The first-player chip matches nothing, yet the 12 opening cells are all legal...
    let l = layout("d4", &[]);
    let start = Position::start(&l);
    assert_eq!(start.top_chip(&l), Chip::FIRST_PLAYER);
    assert_eq!(
        start.legal_cells(&l),
        cells("a2 a3 b1 c1 e1 f1 b5 c6 e6 f5 g2 g3")
    );
    // ...and no other cell: a corner, or the centre.
    assert_eq!(
        start.check_move(&l, cell("a1")),
        Err(IllegalMove::NotOpeningCell(cell("a1")))
    );
    assert_eq!(
        start.check_move(&l, cell("c3")),
        Err(IllegalMove::NotOpeningCell(cell("c3")))
    );
    // When the forbidden cell is an opening cell, eleven remain.
    let l = layout("c6", &[]);
    let start = Position::start(&l);
    assert_eq!(start.count_moves(&l), 11);
    assert_eq!(
        start.check_move(&l, cell("c6")),
        Err(IllegalMove::Forbidden(cell("c6")))
    );
}

#[test]
fn later_moves_match_the_top_chip_by_symbol_or_count() {
    // Black opens on b1 (5a): White may play the other 5s and the other a's, nothing else.
    let l = layout(
        "g4",
        &[("b1", "5a"), ("d4", "5c"), ("a1", "2a"), ("g3", "3c")],
    );
    let pos = Position::start(&l).play(&l, cell("b1")).unwrap();
    assert_eq!(pos.top_chip(&l), chip("5a"));
    let expected: Bitboard = Cell::ALL
        .into_iter()
        .filter(|&c| {
            let t = l.chip(c).to_string();
            c != cell("b1") && (t.starts_with('5') || t.ends_with('a'))
        })
        .collect();
    assert_eq!(expected.count(), 10);
    assert_eq!(pos.legal_cells(&l), expected);
    assert!(pos.is_legal(&l, cell("d4")));
    assert!(pos.is_legal(&l, cell("a1")));
    let err = pos.check_move(&l, cell("g3")).unwrap_err();
    assert_eq!(
        err,
        IllegalMove::NoMatch {
            cell: cell("g3"),
            chip: chip("3c"),
            top_cell: cell("b1"),
            top_chip: chip("5a"),
        }
    );
    assert_eq!(
        err.to_string(),
        "g3 holds 3c, which shares neither symbol nor count with 5a on top of the stack (played on b1)"
    );
    // White takes d4 (5c): now Black plays 5s or c's.
    let pos = pos.play(&l, cell("d4")).unwrap();
    assert!(pos.is_legal(&l, cell("g3")));
    assert!(!pos.is_legal(&l, cell("a1")));
    assert_eq!(
        pos.check_move(&l, cell("b1")),
        Err(IllegalMove::Occupied {
            cell: cell("b1"),
            by: Player::Black
        })
    );
}

#[test]
fn the_forbidden_cell_is_never_legal() {
    for seed in 0..200 {
        let l = Layout::random(seed);
        let mut pos = Position::start(&l);
        let mut rng = fastrand_like(seed);
        while !pos.is_over() {
            let legal = pos.legal_cells(&l);
            assert!(!legal.contains(l.forbidden()), "seed {seed}");
            assert_eq!(
                pos.check_move(&l, l.forbidden()),
                Err(IllegalMove::Forbidden(l.forbidden()))
            );
            let choices: Vec<Cell> = legal.collect();
            pos = pos.play(&l, choices[rng() % choices.len()]).unwrap();
        }
    }
}

/// A tiny deterministic generator, so this file needs no dependency for random games.
fn fastrand_like(seed: u64) -> impl FnMut() -> usize {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as usize
    }
}

#[test]
fn setups_that_play_cannot_reach_are_refused() {
    let l = layout("d4", &[]);
    let refuse = |black: &str, white: &str, last: Option<&str>| {
        Position::from_setup(
            &l,
            Setup {
                black: cells(black),
                white: cells(white),
                last: last.map(cell),
            },
        )
        .unwrap_err()
    };
    assert_eq!(
        refuse("a2 c4", "b1", Some("b1")),
        PositionError::LastNotMover {
            cell: cell("b1"),
            mover: Player::Black
        }
    );
    assert_eq!(
        refuse("a2", "b1 c4", Some("b1")),
        PositionError::Counts { black: 1, white: 2 }
    );
    assert_eq!(
        refuse("a2 d4", "b1", Some("a2")),
        PositionError::OnForbidden {
            player: Player::Black,
            cell: cell("d4")
        }
    );
    assert_eq!(
        refuse("a2", "a2", Some("a2")),
        PositionError::SharedCell(cell("a2"))
    );
    assert_eq!(refuse("c4", "", Some("c4")), PositionError::NoOpeningPiece);
    assert_eq!(refuse("a2", "", None), PositionError::LastMissing);
    assert_eq!(
        refuse("", "", Some("a2")),
        PositionError::LastOnEmptyBoard(cell("a2"))
    );
    // Black joined top and bottom before the last move (b1), so the game was over.
    assert_eq!(
        refuse(
            "a2 b2 c2 d2 e2 f2 g2 b1",
            "a4 b4 c4 c6 d6 e5 g4",
            Some("b1")
        ),
        PositionError::WonEarlier {
            player: Player::Black,
            reason: EndReason::Connection
        }
    );
    let bad_key = Position::from_key(&l, 1u128 << 127).unwrap_err();
    assert!(matches!(bad_key, PositionError::BadKey(_)));
}

#[test]
fn a_finished_setup_knows_its_end() {
    // The draw's full board, given directly.
    let l = layout("d4", &[]);
    let pos = setup(&l, BLACK_WEDGES, WHITE_WEDGES, Some("g2"));
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(pos.legal_cells(&l), Bitboard::EMPTY);
    assert_eq!(perft(&l, &pos, 0), 1);
    assert_eq!(perft(&l, &pos, 1), 0);
}

#[test]
fn layouts_name_what_is_wrong() {
    let mut chips = Chip::ALL;
    chips[3] = chip("1a");
    assert_eq!(
        Layout::new(chips),
        Err(LayoutError::Duplicate {
            chip: chip("1a"),
            first: cell("a1"),
            second: cell("a4"),
            missing: chip("1d")
        })
    );
    let mut chips = Chip::ALL;
    chips[36] = chip("6f");
    assert!(matches!(
        Layout::new(chips),
        Err(LayoutError::NoFirstPlayerChip { .. })
    ));
    let good = Layout::random(1).to_string();
    let err = |text: &str| text.parse::<Layout>().unwrap_err().to_string();
    let rows: Vec<&str> = good.split('/').collect();
    assert_eq!(
        err(&rows[..6].join("/")),
        format!(
            "a layout has 7 rows (a to g) separated by `/`, and `{}` has 6",
            rows[..6].join("/")
        )
    );
    let short_c = format!(
        "{}/{}/{}/{}",
        rows[0],
        rows[1],
        &rows[2][..10],
        rows[3..].join("/")
    );
    assert_eq!(
        err(&short_c),
        format!(
            "row c `{}` has 5 chips, and row c has 6 cells",
            &rows[2][..10]
        )
    );
    let bad_chip = format!(
        "{}7z{}/{}",
        &rows[0][..4],
        &rows[0][6..],
        rows[1..].join("/")
    );
    assert_eq!(
        err(&bad_chip),
        "the chip for a3: `7z` is not a chip: a chip is a count 1-6 then a symbol a-f, like `5a`, or `--` for the first-player chip"
    );
    let odd = format!("{}x/{}", rows[0], rows[1..].join("/"));
    assert!(
        err(&odd).contains("odd number of characters"),
        "{}",
        err(&odd)
    );
}

#[test]
fn records_play_and_print_and_say_which_move_is_wrong() {
    let l = layout("d4", &[("b1", "5a"), ("c3", "5c"), ("g3", "3c")]);
    let text = format!("{l} b1 c3 g3");
    let record: Record = text.parse().unwrap();
    assert_eq!(record.to_string(), text);
    assert_eq!(record.moves(), [cell("b1"), cell("c3"), cell("g3")]);
    assert_eq!(record.position().placed(), 3);
    let err = format!("{l} b1 g3")
        .parse::<Record>()
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "move 2 `g3`: illegal: g3 holds 3c, which shares neither symbol nor count with 5a on top of the stack (played on b1)"
    );
    let err = format!("{l} b1 z9")
        .parse::<Record>()
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("move 2 `z9`: `z9` is not a cell"), "{err}");
    assert!("".parse::<Record>().is_err());
}

#[test]
fn perft_counts_placements_and_divide_adds_up() {
    let l = layout("d4", &[]);
    let start = Position::start(&l);
    assert_eq!(perft(&l, &start, 0), 1);
    assert_eq!(perft(&l, &start, 1), 12);
    // After any opening, the next player has the cells matching the opening chip.
    let by_hand: u64 = start
        .legal_cells(&l)
        .map(|c| start.play(&l, c).unwrap().count_moves(&l) as u64)
        .sum();
    assert_eq!(perft(&l, &start, 2), by_hand);
    for depth in 1..=5 {
        let parts = divide(&l, &start, depth);
        assert_eq!(parts.len(), 12);
        assert_eq!(
            parts.iter().map(|&(_, n)| n).sum::<u64>(),
            perft(&l, &start, depth)
        );
    }
}
