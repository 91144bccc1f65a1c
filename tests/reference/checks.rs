//! Self-checks of the reference against restatements of the rules that are written
//! differently from the main code: legality by definition, board symmetries, and agreement
//! of the two move conventions.

use std::collections::HashSet;

use crate::board::{Colour, Square, Tower};
use crate::position::RefPosition;
use crate::random::random_position;
use crate::search::{minimax_with_table, perft};

/// Is `from`-`to` a legal positive move for the side to move of `pos` (a position whose
/// chain is already resolved), checked straight from the wording of the rules rather than
/// by walking lines.
fn legal_by_definition(pos: &RefPosition, from: Square, to: Square) -> bool {
    let Some(tower) = pos.tower_at(from) else {
        return false;
    };
    if tower.side != pos.side_to_move() {
        return false;
    }
    if let Some(active) = pos.active() {
        if tower.colour != active {
            return false;
        }
    }
    let forward = (to.rank as i32 - from.rank as i32) * tower.side.forward_step();
    let sideways = to.file as i32 - from.file as i32;
    // Forward only, along the file or a 45-degree diagonal.
    if forward <= 0 || (sideways != 0 && sideways.abs() != forward) {
        return false;
    }
    // Every square from the first step up to and including the landing square is empty.
    for step in 1..=forward {
        let file = from.file as i32 + sideways.signum() * step;
        let rank = from.rank as i32 + tower.side.forward_step() * step;
        if pos
            .tower_at(Square::new(file as usize, rank as usize))
            .is_some()
        {
            return false;
        }
    }
    true
}

/// A handful of positions from several stages of random games.
fn sample_positions() -> Vec<RefPosition> {
    let mut positions = Vec::new();
    for seed in 0..60u64 {
        for plies in [0, 1, 2, 5, 9, 14, 20, 30] {
            positions.push(random_position(seed * 31 + plies as u64, plies));
        }
    }
    positions
}

#[test]
fn move_generation_matches_the_definition() {
    for pos in sample_positions() {
        let Some(ready) = pos.resolved() else {
            assert!(pos.moves().is_empty());
            continue;
        };
        let generated: HashSet<String> = pos.moves().into_iter().collect();
        let mut defined = HashSet::new();
        for from in Square::all() {
            for to in Square::all() {
                if legal_by_definition(&ready, from, to) {
                    defined.insert(format!("{}-{}", from.name(), to.name()));
                }
            }
        }
        assert_eq!(generated, defined, "{}", pos.to_text());
    }
}

#[test]
fn text_round_trip_on_random_positions() {
    for pos in sample_positions() {
        let text = pos.to_text();
        assert_eq!(RefPosition::parse(&text), Ok(pos.clone()), "{text}");
    }
}

/// The half turn: square (file, rank) -> (7-file, 7-rank), every tower changes owner, the
/// other side is to move; colours stay.
fn half_turn(pos: &RefPosition) -> RefPosition {
    let mut board = [[None; 8]; 8];
    for sq in Square::all() {
        if let Some(tower) = pos.tower_at(sq) {
            board[7 - sq.rank][7 - sq.file] = Some(Tower {
                side: tower.side.opponent(),
                colour: tower.colour,
            });
        }
    }
    RefPosition::from_parts(board, pos.side_to_move().opponent(), pos.active())
}

/// The colour a square's colour becomes when files are mirrored (a <-> h).
fn mirror_colour(colour: Colour) -> Colour {
    match colour {
        Colour::Orange => Colour::Brown,
        Colour::Brown => Colour::Orange,
        Colour::Blue => Colour::Green,
        Colour::Green => Colour::Blue,
        Colour::Purple => Colour::Red,
        Colour::Red => Colour::Purple,
        Colour::Pink => Colour::Yellow,
        Colour::Yellow => Colour::Pink,
    }
}

/// The file mirror: file a <-> h, with tower and active colours mapped like square colours.
fn mirror_files(pos: &RefPosition) -> RefPosition {
    let mut board = [[None; 8]; 8];
    for sq in Square::all() {
        if let Some(tower) = pos.tower_at(sq) {
            board[sq.rank][7 - sq.file] = Some(Tower {
                side: tower.side,
                colour: mirror_colour(tower.colour),
            });
        }
    }
    RefPosition::from_parts(board, pos.side_to_move(), pos.active().map(mirror_colour))
}

#[test]
fn symmetries_keep_counts_and_results() {
    assert_eq!(
        half_turn(&RefPosition::start()).to_text(),
        "obupyrgn/8/8/8/8/8/8/NGRYPUBO w -"
    );
    assert_eq!(mirror_files(&RefPosition::start()), RefPosition::start());
    for pos in sample_positions().into_iter().step_by(3) {
        let turned = half_turn(&pos);
        let mirrored = mirror_files(&pos);
        for zero in [false, true] {
            let n = perft(&pos, 3, zero);
            assert_eq!(perft(&turned, 3, zero), n, "{}", pos.to_text());
            assert_eq!(perft(&mirrored, 3, zero), n, "{}", pos.to_text());
        }
        let end = pos.game_end();
        assert_eq!(
            turned.game_end().map(|e| (e.winner.opponent(), e.reason)),
            end.map(|e| (e.winner, e.reason))
        );
        assert_eq!(mirrored.game_end(), end);
    }
    // Solved values of late positions are symmetric too.
    for seed in 0..40u64 {
        let pos = random_position(seed, 18);
        if perft(&pos, 3, false) > 3_000 {
            continue;
        }
        let value = minimax_with_table(&pos, &mut Default::default());
        assert_eq!(
            minimax_with_table(&half_turn(&pos), &mut Default::default()),
            value
        );
        assert_eq!(
            minimax_with_table(&mirror_files(&pos), &mut Default::default()),
            value
        );
    }
}

#[test]
fn both_conventions_reach_the_same_positions() {
    // Playing a move in the default convention must equal playing it as a ply and then
    // every forced zero-length ply until someone can move or the game ends.
    let mut zero_plies_seen = 0;
    for pos in sample_positions() {
        let Some(ready) = pos.resolved() else {
            continue;
        };
        for mv in pos.moves() {
            let default = pos.play(&mv).unwrap();
            let mut step = ready.play_ply(&mv).unwrap();
            loop {
                let plies = step.plies();
                let is_zero = plies.len() == 1 && {
                    let parts: Vec<&str> = plies[0].split('-').collect();
                    parts[0] == parts[1]
                };
                if !is_zero {
                    break;
                }
                zero_plies_seen += 1;
                step = step.play_ply(&plies[0]).unwrap();
            }
            assert_eq!(step, default, "{} {mv}", pos.to_text());
        }
    }
    assert!(
        zero_plies_seen > 0,
        "the sample never exercised a zero-length move"
    );
}
