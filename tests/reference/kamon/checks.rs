//! Self-checks of the Kamon reference: the page's examples, every end rule on hand-built
//! games, restatements of the rules written differently from the main code (geometry from
//! cube coordinates, legality from the chip texts, perft from chip sequences alone, board
//! symmetries), and the solver's consistency.
//!
//! Hand-built games are given as the cells of Black and of White; [`game`] interleaves them
//! and builds a layout whose chips make that order legal (each placed chip shares its count
//! or its symbol with the one before). Parsing such a game fails if any placement before
//! the last had already ended it, so every test below also checks "no earlier end".

use std::collections::HashSet;

use super::api::{
    kamon_divide, kamon_legal_cells, kamon_perft, kamon_random_layout, kamon_random_moves,
    kamon_result, kamon_solve,
};
use super::geometry::{BoardSide, Cell};
use super::layout::{Chip, KamonLayout};
use super::position::{KamonEnd, KamonPosition};
use super::random::random_game;
use super::search::{kamon_minimax, kamon_minimax_with_memo, kamon_solve_position, KamonValue};
use crate::random::XorShift64;

fn chip(text: &str) -> Chip {
    Chip::parse(text).unwrap_or_else(|| panic!("bad chip {text}"))
}

fn cell(text: &str) -> Cell {
    Cell::parse(text).unwrap_or_else(|| panic!("bad cell {text}"))
}

/// The 36 kamon chips in an order where each shares its count or its symbol with the
/// next: count 1 with symbols a..f, count 2 with f..a, count 3 with a..f, and so on.
fn chips_in_a_chain() -> Vec<Chip> {
    let mut chips = Vec::new();
    for count in 1..=6u8 {
        let mut symbols = vec!['a', 'b', 'c', 'd', 'e', 'f'];
        if count % 2 == 0 {
            symbols.reverse();
        }
        for symbol in symbols {
            chips.push(Chip::Kamon { count, symbol });
        }
    }
    chips
}

/// A layout text with `chips[k]` on `placed[k]`, `--` on `forbidden`, and the chips not in
/// `chips` on the other cells in board order.
fn layout_with(placed: &[&str], chips: &[Chip], forbidden: &str) -> String {
    assert!(placed.len() <= chips.len());
    let mut on_cell: Vec<Option<Chip>> = vec![None; 37];
    for (name, &placed_chip) in placed.iter().zip(chips) {
        assert!(on_cell[cell(name).ordinal()].is_none(), "{name} used twice");
        on_cell[cell(name).ordinal()] = Some(placed_chip);
    }
    assert!(on_cell[cell(forbidden).ordinal()].is_none());
    on_cell[cell(forbidden).ordinal()] = Some(Chip::FirstPlayer);
    let mut unused = Chip::all()
        .into_iter()
        .filter(|c| !on_cell.contains(&Some(*c)));
    let mut rows = vec![String::new(); 7];
    for board_cell in Cell::all() {
        let here = on_cell[board_cell.ordinal()]
            .or_else(|| unused.next())
            .expect("37 chips for 37 cells");
        rows[board_cell.row].push_str(&here.text());
    }
    rows.join("/")
}

/// Black and White's cells interleaved (Black first) as a game record.
fn interleave<'a>(black: &[&'a str], white: &[&'a str]) -> Vec<&'a str> {
    assert!(black.len() == white.len() || black.len() == white.len() + 1);
    let mut order = Vec::new();
    for (i, &b) in black.iter().enumerate() {
        order.push(b);
        if let Some(&w) = white.get(i) {
            order.push(w);
        }
    }
    order
}

/// (layout text, game record) for a game where Black plays `black` and White plays
/// `white` in that order, with the chips of [`chips_in_a_chain`].
fn game(black: &[&str], white: &[&str], forbidden: &str) -> (String, String) {
    let order = interleave(black, white);
    (
        layout_with(&order, &chips_in_a_chain(), forbidden),
        order.join(" "),
    )
}

/// The result of a hand-built game, checking that it was still going before its last
/// placement.
fn result_of(black: &[&str], white: &[&str], forbidden: &str) -> Option<(String, String)> {
    let (layout, moves) = game(black, white, forbidden);
    let before_last: Vec<&str> = moves.split(' ').collect();
    let before_last = before_last[..before_last.len() - 1].join(" ");
    assert_eq!(
        kamon_result(&layout, &before_last),
        Ok(None),
        "{layout} {before_last}"
    );
    kamon_result(&layout, &moves).unwrap_or_else(|e| panic!("{e}"))
}

fn win(winner: &str, reason: &str) -> Option<(String, String)> {
    Some((winner.to_string(), reason.to_string()))
}

// ---------------------------------------------------------------------------------------
// Geometry against cube coordinates.

/// Cube coordinates (q, r, s).
type Cube = (i32, i32, i32);

/// Cube coordinates (q, r, s), q + r + s = 0, centre d4 = (0, 0, 0), computed from the
/// row and the number alone (not from the half columns the neighbours come from): r is
/// the row counted from the middle, and q runs along the row, starting at 0 on the top row
/// and at -3 from the middle row down.
fn cube(c: Cell) -> Cube {
    let r = c.row as i32 - 3;
    let q = c.index as i32 + (-3 - r).max(-3);
    (q, r, -q - r)
}

fn from_cube(coordinates: Cube) -> Cell {
    Cell::all()
        .into_iter()
        .find(|&c| cube(c) == coordinates)
        .unwrap_or_else(|| panic!("no cell at {coordinates:?}"))
}

fn cube_distance(a: Cell, b: Cell) -> i32 {
    let (a, b) = (cube(a), cube(b));
    (a.0 - b.0)
        .abs()
        .max((a.1 - b.1).abs())
        .max((a.2 - b.2).abs())
}

#[test]
fn the_board_is_the_hexagon_of_radius_three() {
    let cells: HashSet<(i32, i32, i32)> = Cell::all().into_iter().map(cube).collect();
    assert_eq!(cells.len(), 37);
    for q in -3..=3 {
        for r in -3..=3 {
            let s = -q - r;
            assert_eq!(cells.contains(&(q, r, s)), s.abs() <= 3, "{q} {r} {s}");
        }
    }
    assert_eq!(cube(cell("d4")), (0, 0, 0));
}

#[test]
fn neighbours_are_the_cells_at_cube_distance_one() {
    for a in Cell::all() {
        let by_distance: Vec<Cell> = Cell::all()
            .into_iter()
            .filter(|&b| cube_distance(a, b) == 1)
            .collect();
        assert_eq!(a.neighbours(), by_distance, "{}", a.name());
        // Edge cells are exactly the cells with fewer than six neighbours, corners those
        // with three.
        assert_eq!(a.is_edge(), a.neighbours().len() < 6, "{}", a.name());
        assert_eq!(a.is_corner(), a.neighbours().len() == 3, "{}", a.name());
    }
    let inner = Cell::all().into_iter().filter(|c| !c.is_edge()).count();
    assert_eq!(inner, 19);
}

#[test]
fn sides_are_the_cells_at_the_six_cube_extremes() {
    for side in BoardSide::ALL {
        let (axis, sign) = match side {
            BoardSide::Top => (1, -1),
            BoardSide::Bottom => (1, 1),
            BoardSide::UpperLeft => (2, 1),
            BoardSide::LowerRight => (2, -1),
            BoardSide::UpperRight => (0, 1),
            BoardSide::LowerLeft => (0, -1),
        };
        let extreme: Vec<Cell> = Cell::all()
            .into_iter()
            .filter(|&c| {
                let (q, r, s) = cube(c);
                [q, r, s][axis] == 3 * sign
            })
            .collect();
        assert_eq!(side.cells(), extreme, "{side:?}");
        // The opposite side is the half turn of this one.
        let turned: HashSet<Cell> = side
            .cells()
            .into_iter()
            .map(|c| {
                let (q, r, s) = cube(c);
                from_cube((-q, -r, -s))
            })
            .collect();
        let opposite: HashSet<Cell> = side.opposite().cells().into_iter().collect();
        assert_eq!(turned, opposite, "{side:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Legal cells.

/// The page's twelve first-move cells.
const FIRST_MOVE_CELLS: [&str; 12] = [
    "a2", "a3", "b1", "c1", "e1", "f1", "b5", "c6", "e6", "f5", "g2", "g3",
];

/// The legal cells of a game still going on, straight from the page and the layout text:
/// first move one of the twelve cells, later a cell whose two-character chip text shares
/// its first character (count) or its second (symbol) with the chip of the last move.
fn legal_by_definition(layout: &str, moves: &str) -> Vec<String> {
    let chip_texts: Vec<String> = layout
        .split('/')
        .flat_map(|row| {
            row.as_bytes()
                .chunks(2)
                .map(|pair| String::from_utf8(pair.to_vec()).unwrap())
                .collect::<Vec<String>>()
        })
        .collect();
    let names: Vec<String> = Cell::all().into_iter().map(Cell::name).collect();
    let played: Vec<&str> = moves.split_whitespace().collect();
    let chip_of = |name: &str| -> &str {
        let index = names.iter().position(|n| n == name).unwrap();
        &chip_texts[index]
    };
    names
        .iter()
        .filter(|name| !played.contains(&name.as_str()) && chip_of(name) != "--")
        .filter(|name| match played.last() {
            None => FIRST_MOVE_CELLS.contains(&name.as_str()),
            Some(last) => {
                let (top, here) = (chip_of(last).as_bytes(), chip_of(name).as_bytes());
                top[0] == here[0] || top[1] == here[1]
            }
        })
        .cloned()
        .collect()
}

/// Up to `placements` placements on `layout`, each uniformly among the legal cells (unlike
/// `kamon_random_moves`, which avoids ending the game).
fn plain_random_moves(layout: &str, seed: u64, placements: usize) -> String {
    let mut rng = XorShift64::new(seed);
    let mut position = KamonPosition::parse(layout, "").unwrap();
    for _ in 0..placements {
        let legal = position.legal_cells();
        if legal.is_empty() {
            break;
        }
        let index = (rng.next() % legal.len() as u64) as usize;
        position = position.play(legal[index]).unwrap();
    }
    position.moves_text()
}

/// Random games on random layouts at several stages, some played to the end: (layout,
/// moves). Half avoid ending the game while they can, to reach late positions.
fn sample_games() -> Vec<(String, String)> {
    let mut games = Vec::new();
    for seed in 0..40u64 {
        let layout = kamon_random_layout(seed);
        for placements in [0, 1, 5, 12, 20, 26, 31, 36] {
            let moves = kamon_random_moves(&layout, "", seed * 101 + placements as u64, placements)
                .unwrap();
            games.push((layout.clone(), moves));
        }
        for placements in [8, 14, 20, 36] {
            let moves = plain_random_moves(&layout, seed * 103 + placements as u64, placements);
            games.push((layout.clone(), moves));
        }
    }
    games
}

#[test]
fn random_games_are_deterministic_and_keep_their_start() {
    let layout = kamon_random_layout(5);
    let moves = kamon_random_moves(&layout, "", 9, 20).unwrap();
    assert_eq!(kamon_random_moves(&layout, "", 9, 20), Ok(moves.clone()));
    assert_eq!(moves.split(' ').count(), 20);
    let longer = kamon_random_moves(&layout, &moves, 4, 3).unwrap();
    assert!(longer.starts_with(&moves), "{moves} / {longer}");
    assert!(kamon_random_moves(&layout, "a1", 1, 1).is_err());
    let others: HashSet<String> = (0..20)
        .map(|seed| kamon_random_moves(&layout, "", seed, 6).unwrap())
        .collect();
    assert!(others.len() > 15);
}

#[test]
fn legal_cells_match_the_definition() {
    let mut finished = 0;
    for (layout, moves) in sample_games() {
        let legal = kamon_legal_cells(&layout, &moves).unwrap();
        if kamon_result(&layout, &moves).unwrap().is_some() {
            finished += 1;
            assert!(legal.is_empty());
        } else {
            assert_eq!(
                legal,
                legal_by_definition(&layout, &moves),
                "{layout} {moves}"
            );
        }
    }
    assert!(
        finished > 10,
        "the sample has too few finished games: {finished}"
    );
}

#[test]
fn first_move_cells_exclude_the_forbidden_cell() {
    let order: Vec<&str> = vec![];
    let twelve: Vec<String> = legal_by_definition(&layout_with(&order, &[], "d4"), "");
    assert_eq!(twelve.len(), 12);
    assert_eq!(
        kamon_legal_cells(&layout_with(&order, &[], "d4"), ""),
        Ok(twelve)
    );
    // Forbidden on a first-move cell: eleven; on a corner: still twelve.
    assert_eq!(
        kamon_legal_cells(&layout_with(&order, &[], "c6"), "")
            .unwrap()
            .len(),
        11
    );
    assert!(!kamon_legal_cells(&layout_with(&order, &[], "c6"), "")
        .unwrap()
        .contains(&"c6".to_string()));
    assert_eq!(
        kamon_legal_cells(&layout_with(&order, &[], "a1"), "")
            .unwrap()
            .len(),
        12
    );
}

#[test]
fn bad_moves_are_rejected_with_the_reason() {
    let (layout, _) = game(&["b1"], &[], "d4");
    let error = |moves: &str| kamon_legal_cells(&layout, moves).unwrap_err();
    assert!(
        error("d4").contains("move 1 (d4): cell d4 is forbidden"),
        "{}",
        error("d4")
    );
    assert!(error("a1").contains("first move"), "{}", error("a1"));
    assert!(error("c3").contains("first move"), "{}", error("c3"));
    assert!(error("b1 b1").contains("move 2 (b1): cell b1 is already taken by black"));
    assert!(error("b1 x9").contains("move 2 (x9): \"x9\" is not a cell"));
    assert!(error("b1 a5").contains("is not a cell"));
    // b1 has 1a; 2b matches neither.
    let layout_chips = KamonLayout::parse(&layout).unwrap();
    let non_matching = Cell::all()
        .into_iter()
        .find(|&c| layout_chips.chip_at(c) == chip("2b"))
        .unwrap();
    let message = error(&format!("b1 {}", non_matching.name()));
    assert!(
        message.contains("2b") && message.contains("1a"),
        "{message}"
    );
    // A finished game takes no more moves.
    let (layout, moves) = game(
        &["a2", "b2", "c2", "d2", "e2", "f2", "g2"],
        &["b4", "d5", "f4", "a4", "g4", "e6"],
        "d4",
    );
    let after = format!("{moves} c4");
    let message = kamon_legal_cells(&layout, &after).unwrap_err();
    assert!(
        message.contains("move 14 (c4): the game is already over"),
        "{message}"
    );
    // Bad layouts come through too.
    assert!(kamon_perft("1a/2b", "", 1).unwrap_err().contains("7 rows"));
}

// ---------------------------------------------------------------------------------------
// Connections.

/// White's pieces for the connection games: scattered so they never make anything.
const WHITE_SCATTERED: [&str; 6] = ["b4", "d5", "f4", "a4", "g4", "e6"];

#[test]
fn a_connection_top_to_bottom_wins() {
    let black = ["a2", "b2", "c2", "d2", "e2", "f2", "g2"];
    assert_eq!(
        result_of(&black, &WHITE_SCATTERED, "d4"),
        win("black", "connection")
    );
}

#[test]
fn a_connection_upper_left_to_lower_right_wins() {
    let black = ["c1", "d2", "d3", "d4", "d5", "d6", "e6"];
    let white = ["a2", "b4", "f2", "g3", "a4", "g1"];
    assert_eq!(result_of(&black, &white, "c3"), win("black", "connection"));
}

#[test]
fn a_connection_upper_right_to_lower_left_wins() {
    let black = ["b5", "c5", "d5", "d4", "d3", "e2", "f1"];
    let white = ["a2", "g3", "e6", "b1", "g4", "c3"];
    assert_eq!(result_of(&black, &white, "f4"), win("black", "connection"));
}

#[test]
fn white_connects_too() {
    let black = ["a3", "b4", "f4", "a4", "g4", "e6", "c4"];
    let white = ["a2", "b2", "c2", "d2", "e2", "f2", "g2"];
    let (layout, moves) = game(&black, &white, "d4");
    assert_eq!(
        kamon_result(&layout, &moves),
        Ok(win("white", "connection"))
    );
}

#[test]
fn a_corner_counts_for_both_of_its_sides() {
    // a1 as the top side, joined to the bottom; the chain touches no other pair.
    let black = ["f5", "a1", "b2", "c2", "d2", "e2", "f2", "g2"];
    let white = ["b4", "d5", "a4", "g4", "e6", "c6", "a3"];
    assert_eq!(result_of(&black, &white, "d4"), win("black", "connection"));
    // a1 as the upper left side, joined to the lower right.
    let black = ["g2", "a1", "b2", "c3", "d4", "d5", "d6", "e6"];
    let white = ["a3", "b4", "f2", "g3", "a4", "g1", "c6"];
    assert_eq!(result_of(&black, &white, "c1"), win("black", "connection"));
    // Along the upper left and top sides from corner d1 to corner a4: d1 is on the lower
    // left side, a4 on the upper right side, and those two are opposite.
    let black = ["c1", "d1", "b1", "a1", "a2", "a3", "a4"];
    let white = ["g2", "g3", "e6", "f2", "d5", "f4"];
    assert_eq!(result_of(&black, &white, "d4"), win("black", "connection"));
}

#[test]
fn touching_only_neighbouring_sides_is_no_connection() {
    // b1 a1 a2 a3 a4 b5 touches upper left, top and upper right: no opposite pair.
    let black = ["b1", "a1", "a2", "a3", "a4", "b5"];
    let white = ["g2", "g3", "e6", "f2", "d5", "f4"];
    let (layout, moves) = game(&black, &white, "d4");
    assert_eq!(kamon_result(&layout, &moves), Ok(None));
    // Two chains, one on the top and one on the bottom, not joined.
    let black = ["a2", "a3", "b2", "g2", "g3", "f3"];
    let white = ["d1", "d7", "e6", "c6", "d5", "e1"];
    let (layout, moves) = game(&black, &white, "d4");
    assert_eq!(kamon_result(&layout, &moves), Ok(None));
}

// ---------------------------------------------------------------------------------------
// Loops.

/// The six neighbours of c3, an inner cell.
const RING_AROUND_C3: [&str; 6] = ["b2", "b3", "c2", "c4", "d3", "d4"];

/// White's pieces for the loop games: along the bottom, far from the rings.
const WHITE_AT_THE_BOTTOM: [&str; 7] = ["g1", "g3", "e1", "e6", "f3", "f5", "e5"];

#[test]
fn a_loop_around_an_empty_cell_wins() {
    let mut black = vec!["a2"];
    black.extend(RING_AROUND_C3);
    assert_eq!(
        result_of(&black, &WHITE_AT_THE_BOTTOM[..6], "d6"),
        win("black", "loop")
    );
}

#[test]
fn a_loop_around_the_forbidden_cell_wins() {
    let mut black = vec!["a2"];
    black.extend(RING_AROUND_C3);
    assert_eq!(
        result_of(&black, &WHITE_AT_THE_BOTTOM[..6], "c3"),
        win("black", "loop")
    );
}

#[test]
fn a_loop_around_an_opponent_piece_wins() {
    // White takes c3 first; Black surrounds it.
    let mut black = vec!["a2"];
    black.extend(RING_AROUND_C3);
    let mut white = vec!["c3"];
    white.extend(&WHITE_AT_THE_BOTTOM[..5]);
    assert_eq!(result_of(&black, &white, "d6"), win("black", "loop"));
}

#[test]
fn a_loop_around_two_cells_wins() {
    // c3 stays empty, c4 is White's.
    let black = ["a2", "b2", "b3", "b4", "c2", "c5", "d3", "d4", "d5"];
    let white = ["c4", "g1", "g3", "e1", "e6", "f3", "f5", "e5"];
    assert_eq!(result_of(&black, &white, "d6"), win("black", "loop"));
}

#[test]
fn a_loop_through_edge_cells_wins() {
    // b2 is not an edge cell; its neighbours a1 a2 b1 b3 c2 c3 enclose it.
    let black = ["a2", "a1", "b1", "b3", "c2", "c3"];
    let white = ["g1", "g3", "e1", "e6", "f3"];
    assert_eq!(result_of(&black, &white, "d6"), win("black", "loop"));
}

#[test]
fn white_makes_loops_too() {
    let black = ["g2", "g1", "g3", "e1", "e6", "f3", "f5"];
    let mut white = vec!["a2"];
    white.extend(RING_AROUND_C3);
    let (layout, moves) = game(&black, &white, "d6");
    assert_eq!(kamon_result(&layout, &moves), Ok(win("white", "loop")));
}

#[test]
fn six_pieces_around_an_own_cell_are_no_loop() {
    // Black holds c3 before closing the ring round it.
    let mut black = vec!["a2", "c3"];
    black.extend(RING_AROUND_C3);
    let (layout, moves) = game(&black, &WHITE_AT_THE_BOTTOM, "d6");
    assert_eq!(kamon_result(&layout, &moves), Ok(None));
}

#[test]
fn cutting_off_a_corner_or_leaning_on_the_forbidden_cell_is_no_loop() {
    // a1 is cut off from every other cell, but it is an edge cell itself.
    let black = ["a2", "b1", "b2"];
    let white = ["g1", "g3"];
    let (layout, moves) = game(&black, &white, "d6");
    assert_eq!(kamon_result(&layout, &moves), Ok(None));
    // Five of c3's neighbours and the forbidden sixth: c3 leaks through the forbidden cell.
    let black = ["a2", "b2", "b3", "c2", "c4", "d3"];
    let white = &WHITE_AT_THE_BOTTOM[..5];
    let (layout, moves) = game(&black, white, "d4");
    assert_eq!(kamon_result(&layout, &moves), Ok(None));
    // Row c, from the upper left side to the upper right side (not opposite), cuts rows a
    // and b off from the rest of the board; they still touch the edge.
    let black = ["c1", "c2", "c3", "c4", "c5", "c6"];
    let white = &WHITE_AT_THE_BOTTOM[..5];
    let (layout, moves) = game(&black, white, "d6");
    assert_eq!(kamon_result(&layout, &moves), Ok(None));
}

#[test]
fn a_placement_making_a_connection_and_a_loop_is_reported_as_a_connection() {
    // b3 closes the ring b3 b4 c3 c5 d4 d5 round White's c4 and joins a2 (top) to the ring
    // and, through d5 e4 f3, to g2 (bottom). Only b3 touches a2, so neither came earlier.
    let black = ["a2", "b4", "c3", "c5", "d4", "d5", "e4", "f3", "g2", "b3"];
    let white = ["c4", "e1", "b1", "g4", "e6", "c6", "f1", "d2", "d7"];
    assert_eq!(result_of(&black, &white, "d6"), win("black", "connection"));
}

// ---------------------------------------------------------------------------------------
// Full board and no legal cell.

/// A full-board colouring with no connection and no loop: the board without d4 cut into
/// six wedges of six cells, one per side; Black holds every other wedge. Each wedge
/// touches only two neighbouring sides, and every wedge reaches the edge.
const BLACK_WEDGES: [&str; 18] = [
    "b1", "c1", "c2", "d1", "d2", "d3", // upper left
    "a4", "b4", "b5", "c4", "c5", "c6", // upper right
    "e4", "f3", "f4", "g2", "g3", "g4", // bottom
];
const WHITE_WEDGES: [&str; 18] = [
    "a1", "a2", "a3", "b2", "b3", "c3", // top
    "d5", "d6", "d7", "e5", "e6", "f5", // lower right
    "e1", "e2", "e3", "f1", "f2", "g1", // lower left
];

#[test]
fn a_full_board_without_a_winner_is_a_draw() {
    assert_eq!(
        result_of(&BLACK_WEDGES, &WHITE_WEDGES, "d4"),
        win("draw", "full board")
    );
}

#[test]
fn a_drawn_ending_is_worth_the_free_cells() {
    let (layout, moves) = game(&BLACK_WEDGES, &WHITE_WEDGES, "d4");
    let order: Vec<&str> = moves.split(' ').collect();
    // One cell left (g1, White's): White fills the board.
    assert_eq!(
        kamon_solve(&layout, &order[..35].join(" ")),
        Ok(("draw".to_string(), 1))
    );
    // Two cells left, g4 and g1, both matching the top chip (all chips of the last row
    // have count 6): whichever Black takes, the other goes to White and nobody wins.
    let two_left = order[..34].join(" ");
    assert_eq!(
        kamon_legal_cells(&layout, &two_left),
        Ok(vec!["g1".to_string(), "g4".to_string()])
    );
    assert_eq!(kamon_solve(&layout, &two_left), Ok(("draw".to_string(), 2)));
}

#[test]
fn a_winning_last_placement_is_a_win_not_a_draw() {
    // Forbidden c3 instead of d4; White's last piece on d4 joins the lower right wedge
    // (upper right side via d7) to the lower left wedge.
    let mut white: Vec<&str> = WHITE_WEDGES
        .iter()
        .copied()
        .filter(|&c| c != "c3")
        .collect();
    white.push("d4");
    assert_eq!(
        result_of(&BLACK_WEDGES, &white, "c3"),
        win("white", "connection")
    );
}

#[test]
fn one_last_free_cell_that_does_not_match_loses() {
    // 35 chips chained from 1b to 5f; the last free cell (White's last wedge cell g1) holds
    // 1a, which shares nothing with 5f.
    let mut chips: Vec<Chip> = Vec::new();
    for (count, symbols) in [(1, "bcdef"), (2, "fedcba"), (3, "abcdef"), (4, "fedcba")] {
        chips.extend(symbols.chars().map(|symbol| Chip::Kamon { count, symbol }));
    }
    for text in [
        "5a", "6a", "6b", "5b", "5c", "6c", "6d", "5d", "5e", "6e", "6f", "5f",
    ] {
        chips.push(chip(text));
    }
    assert_eq!(chips.len(), 35);
    let order = interleave(&BLACK_WEDGES, &WHITE_WEDGES[..17]);
    let layout = layout_with(&order, &chips, "d4");
    assert_eq!(
        KamonLayout::parse(&layout).unwrap().chip_at(cell("g1")),
        chip("1a")
    );
    let moves = order.join(" ");
    assert_eq!(kamon_legal_cells(&layout, &moves), Ok(vec![]));
    assert_eq!(
        kamon_result(&layout, &moves),
        Ok(win("black", "no legal cell"))
    );
    let before_last = order[..34].join(" ");
    assert_eq!(kamon_result(&layout, &before_last), Ok(None));
    assert_eq!(kamon_solve(&layout, &moves), Ok(("loss".to_string(), 0)));
    // Before Black's last placement, Black's only legal cell is g4 (5f on 6f), which wins
    // at once: the fastest win there is.
    assert_eq!(
        kamon_legal_cells(&layout, &before_last),
        Ok(vec!["g4".to_string()])
    );
    assert_eq!(
        kamon_solve(&layout, &before_last),
        Ok(("win".to_string(), 1))
    );
}

#[test]
fn no_legal_cell_in_the_middle_of_the_game_loses() {
    // Twelve placements use up every chip with count 1 or symbol a, the last one 1a.
    let chips: Vec<Chip> = [
        "6a", "5a", "4a", "3a", "2a", "2b", "1b", "1c", "1d", "1e", "1f", "1a",
    ]
    .iter()
    .map(|t| chip(t))
    .collect();
    let black = ["a2", "c1", "c4", "e2", "e5", "g3"];
    let white = ["b1", "b5", "d3", "d6", "f2", "f4"];
    let order = interleave(&black, &white);
    let layout = layout_with(&order, &chips, "d4");
    let moves = order.join(" ");
    assert_eq!(
        kamon_result(&layout, &moves),
        Ok(win("white", "no legal cell"))
    );
    assert_eq!(kamon_perft(&layout, &moves, 1), Ok(0));
    // One placement earlier, White (on 1f) may play 1a or any free f chip.
    let before_last = order[..11].join(" ");
    assert_eq!(kamon_result(&layout, &before_last), Ok(None));
    let parsed = KamonLayout::parse(&layout).unwrap();
    let expected: Vec<String> = Cell::all()
        .into_iter()
        .filter(|&c| {
            ["1a", "2f", "3f", "4f", "5f", "6f"]
                .iter()
                .any(|t| parsed.chip_at(c) == chip(t))
        })
        .map(Cell::name)
        .collect();
    assert_eq!(kamon_legal_cells(&layout, &before_last), Ok(expected));
}

// ---------------------------------------------------------------------------------------
// Perft.

/// The number of ways to extend the chip sequence `chain` by `length` chips, each new chip
/// unused and sharing the first (count) or second (symbol) character of its text with the
/// chip before. Early in a game this is all perft depends on: nobody can win before
/// Black's sixth piece (a loop takes six, a connection seven), and nobody runs out of
/// cells before the ten chips matching the top one are used.
fn chip_sequences(chain: &mut Vec<Chip>, length: u32) -> u64 {
    if length == 0 {
        return 1;
    }
    let last = chain.last().unwrap().text().into_bytes();
    let mut total = 0;
    for next in Chip::all() {
        let text = next.text().into_bytes();
        let shares = text != b"--" && (text[0] == last[0] || text[1] == last[1]);
        if shares && !chain.contains(&next) {
            chain.push(next);
            total += chip_sequences(chain, length - 1);
            chain.pop();
        }
    }
    total
}

#[test]
fn early_perft_counts_chip_sequences() {
    for seed in 0..6u64 {
        let layout_text = kamon_random_layout(seed);
        let layout = KamonLayout::parse(&layout_text).unwrap();
        let first_cells = kamon_legal_cells(&layout_text, "").unwrap();
        for depth in 1..=4u32 {
            let expected: u64 = first_cells
                .iter()
                .map(|name| chip_sequences(&mut vec![layout.chip_at(cell(name))], depth - 1))
                .sum();
            assert_eq!(
                kamon_perft(&layout_text, "", depth),
                Ok(expected),
                "{layout_text}"
            );
        }
        // Each chip has ten partners: perft 2 = 10 per first cell, perft 3 = 90.
        let n = first_cells.len() as u64;
        assert_eq!(kamon_perft(&layout_text, "", 2), Ok(10 * n));
        assert_eq!(kamon_perft(&layout_text, "", 3), Ok(90 * n));
    }
}

/// perft by trying every cell at every step and keeping those `play` accepts.
fn perft_by_trying_every_cell(position: &KamonPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    Cell::all()
        .into_iter()
        .filter_map(|c| position.play(c).ok())
        .map(|child| perft_by_trying_every_cell(&child, depth - 1))
        .sum()
}

#[test]
fn perft_and_divide_agree_with_trying_every_cell() {
    let mut nonzero = 0;
    for (layout, moves) in sample_games().into_iter().step_by(5) {
        let position = KamonPosition::parse(&layout, &moves).unwrap();
        for depth in 0..=2 {
            let count = kamon_perft(&layout, &moves, depth).unwrap();
            assert_eq!(
                count,
                perft_by_trying_every_cell(&position, depth),
                "{layout} {moves}"
            );
            nonzero += u64::from(count > 0);
            let divide = kamon_divide(&layout, &moves, depth).unwrap();
            if depth == 0 {
                assert!(divide.is_empty());
            } else {
                assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), count);
                let cells: Vec<String> = divide.into_iter().map(|(c, _)| c).collect();
                assert_eq!(cells, kamon_legal_cells(&layout, &moves).unwrap());
            }
        }
    }
    assert!(nonzero > 20);
}

// ---------------------------------------------------------------------------------------
// Symmetries.

/// A map of the board onto itself, on cube coordinates.
type Symmetry = fn(Cube) -> Cube;

/// The six rotations and six reflections of the board.
fn symmetries() -> Vec<Symmetry> {
    vec![
        |(q, r, s)| (q, r, s),
        |(q, r, s)| (-r, -s, -q),
        |(q, r, s)| (s, q, r),
        |(q, r, s)| (-q, -r, -s),
        |(q, r, s)| (r, s, q),
        |(q, r, s)| (-s, -q, -r),
        |(q, r, s)| (q, s, r),
        |(q, r, s)| (-q, -s, -r),
        |(q, r, s)| (s, r, q),
        |(q, r, s)| (-s, -r, -q),
        |(q, r, s)| (r, q, s),
        |(q, r, s)| (-r, -q, -s),
    ]
}

/// (layout, moves) with every cell moved by `map`.
fn transformed(layout: &str, moves: &str, map: Symmetry) -> (String, String) {
    let parsed = KamonLayout::parse(layout).unwrap();
    let mut chips = vec![Chip::FirstPlayer; 37];
    for c in Cell::all() {
        chips[from_cube(map(cube(c))).ordinal()] = parsed.chip_at(c);
    }
    let mut rows = vec![String::new(); 7];
    for c in Cell::all() {
        rows[c.row].push_str(&chips[c.ordinal()].text());
    }
    let moved: Vec<String> = moves
        .split_whitespace()
        .map(|m| from_cube(map(cube(cell(m)))).name())
        .collect();
    (rows.join("/"), moved.join(" "))
}

#[test]
fn symmetric_games_have_the_same_counts_and_results() {
    let mut ends = HashSet::new();
    for (layout, moves) in sample_games().into_iter().step_by(5) {
        let result = kamon_result(&layout, &moves).unwrap();
        if let Some((_, reason)) = &result {
            ends.insert(reason.clone());
        }
        let count = kamon_perft(&layout, &moves, 2).unwrap();
        for map in symmetries() {
            let (layout2, moves2) = transformed(&layout, &moves, map);
            assert_eq!(
                kamon_result(&layout2, &moves2),
                Ok(result.clone()),
                "{layout} {moves}"
            );
            assert_eq!(
                kamon_perft(&layout2, &moves2, 2),
                Ok(count),
                "{layout} {moves}"
            );
        }
    }
    assert!(
        ends.contains("connection") && ends.contains("loop"),
        "{ends:?}"
    );
}

// ---------------------------------------------------------------------------------------
// Solving.

/// Not-yet-finished positions with between `fewest` and `most` free cells, from random
/// games on random layouts.
fn late_positions(count: usize, fewest: usize, most: usize) -> Vec<KamonPosition> {
    let mut positions = Vec::new();
    let mut seed = 0u64;
    while positions.len() < count {
        seed += 1;
        assert!(seed < 100_000, "cannot find {count} late positions");
        let layout = KamonLayout::random(seed);
        let placements = 36 - fewest - (seed as usize % (most - fewest + 1));
        let position = random_game(&KamonPosition::new(layout), seed, placements);
        if position.end().is_none() && position.played().len() == placements {
            positions.push(position);
        }
    }
    positions
}

#[test]
fn remoteness_has_the_parity_of_its_value() {
    let mut values = HashSet::new();
    for position in late_positions(70, 6, 12) {
        let (value, remoteness) = kamon_solve_position(&position);
        values.insert(value);
        let free = position.free_cell_count() as u32;
        assert!(remoteness >= 1 && remoteness <= free);
        match value {
            KamonValue::Win => assert_eq!(remoteness % 2, 1),
            KamonValue::Loss => assert_eq!(remoteness % 2, 0),
            KamonValue::Draw => assert_eq!(remoteness, free),
        }
    }
    assert!(values.contains(&KamonValue::Win) && values.contains(&KamonValue::Loss));
}

#[test]
fn finished_games_are_worth_zero_placements() {
    for (layout, moves) in sample_games() {
        match kamon_result(&layout, &moves).unwrap() {
            None => {}
            Some((winner, _)) if winner == "draw" => {
                assert_eq!(kamon_solve(&layout, &moves), Ok(("draw".to_string(), 0)))
            }
            Some(_) => assert_eq!(kamon_solve(&layout, &moves), Ok(("loss".to_string(), 0))),
        }
    }
    let (layout, moves) = game(&BLACK_WEDGES, &WHITE_WEDGES, "d4");
    assert_eq!(kamon_solve(&layout, &moves), Ok(("draw".to_string(), 0)));
}

/// The value of a position from its children's values, written out case by case: win if
/// some child is lost for the opponent (fastest such), else draw if some child is drawn,
/// else loss (slowest).
fn value_from_children(children: &[(KamonValue, u32)]) -> (KamonValue, u32) {
    let fastest_win = children
        .iter()
        .filter(|(v, _)| *v == KamonValue::Loss)
        .map(|(_, r)| r + 1)
        .min();
    if let Some(r) = fastest_win {
        return (KamonValue::Win, r);
    }
    if let Some((_, r)) = children.iter().find(|(v, _)| *v == KamonValue::Draw) {
        return (KamonValue::Draw, r + 1);
    }
    let slowest_loss = children.iter().map(|(_, r)| r + 1).max().unwrap();
    (KamonValue::Loss, slowest_loss)
}

#[test]
fn the_value_of_a_position_is_the_best_over_its_children() {
    for position in late_positions(40, 5, 10) {
        let children: Vec<(KamonValue, u32)> = position
            .children()
            .iter()
            .map(|(_, child)| kamon_solve_position(child))
            .collect();
        assert!(!children.is_empty());
        let value = kamon_solve_position(&position);
        assert_eq!(
            value,
            value_from_children(&children),
            "{}",
            position.moves_text()
        );
        // A placement that wins at once is the fastest win there is.
        let wins_at_once = position.children().iter().any(|(_, child)| {
            matches!(child.end(), Some(KamonEnd::Win { winner, .. })
                if winner == position.side_to_move())
        });
        if wins_at_once {
            assert_eq!(value, (KamonValue::Win, 1));
        }
    }
}

#[test]
fn the_memo_changes_nothing() {
    for position in late_positions(30, 3, 7) {
        assert_eq!(
            kamon_minimax_with_memo(&position, &mut Default::default()),
            kamon_minimax(&position),
            "{}",
            position.moves_text()
        );
    }
}
